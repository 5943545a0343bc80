// libFuzzer entry point for the kcs language: lexer, parser and evaluator.
//
// Not part of the SwiftPM build (it lives outside Sources/). scripts/fuzz.sh
// compiles it together with KeychainEngine and KCSLanguage using
// `swiftc -sanitize=fuzzer,address -parse-as-library`.
//
// Every input goes through `Parser.parse` and then `Interpreter.run(file:)`
// with a loader that refuses every file read, so `include` lines exercise the
// error path and the fuzzer never touches the disk. A crash, a sanitizer
// report or a timeout is a finding; diagnostics are the expected outcome for
// nearly every input.
import KCSLanguage

/// Refuses every read: fuzz inputs must not reach the file system.
struct NoFilesLoader: SourceLoader {
    func resolve(_ path: String, relativeTo including: String?) -> String { path }

    func read(_ resolved: String) throws(LoadError) -> SourceFile {
        throw .unreadable(resolved, reason: "file reads are disabled while fuzzing")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes: [UInt8] = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let file = SourceFile(name: "fuzz.kcs", bytes: bytes)
    // The parser alone, then the whole pipeline (which parses again).
    let (program, diagnostics) = Parser.parse(file)
    _ = program.statements.count + diagnostics.count
    let report = Interpreter.run(file: file, loader: NoFilesLoader(),
                                 options: RunOptions(reportCalls: true, reportPasses: true),
                                 observer: { _ in })
    // Rendering diagnostics walks ranges back into the source: fuzz it too.
    let renderer = DiagnosticRenderer()
    for d in report.diagnostics.prefix(8) { _ = renderer.render(d) }
    return 0
}
