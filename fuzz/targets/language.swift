// libFuzzer target `language`: the kcs language with includes.
//
// The input is a script and the files it may include or read as
// entitlements (the `%%% NAME` convention of fuzz/Support.swift), served by
// an in-memory loader: includes resolve, nest and may form cycles, and the
// fuzzer never touches the disk. Each input goes through `Parser.parse`,
// then `Interpreter.run(file:…)` (loading, lowering, evaluation over the
// engine) with the default limits, so a super-linear path shows up as a
// libFuzzer timeout. Every diagnostic must point inside its file and render.
import KCSLanguage
import KeychainEngine

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzFiles(fuzzBytes(data, size), mainName: "main.kcs")
    // The parser alone, then the whole pipeline (which parses again).
    let (program, diagnostics) = Parser.parse(input.main)
    require(program.statements.count >= 0, "a negative statement count")
    checkDiagnostics(diagnostics)
    let report = Interpreter.run(file: input.main, loader: input.loader,
                                 options: RunOptions(reportCalls: true, reportPasses: true,
                                                     defaultPromptAnswer: size % 2 == 0 ? .approve : nil),
                                 observer: { _ in })
    checkDiagnostics(report.diagnostics)
    checkVerdict(report.verdict, report.diagnostics, "run")
    return 0
}
