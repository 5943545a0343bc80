// libFuzzer target `lint`: the lint checks, as `kcs lint`, `kcs run --strict`
// and `kcs lint --entitlements` run them.
//
// The input is a script with the files it includes or reads through
// `entitlements=` (fuzz/Support.swift's `%%% NAME` sections, served from
// memory). It is linted (`BatchRunner.lint`), run with lint warnings as
// errors, and every extra file is summarised as `kcs lint --entitlements`
// does (with and without a team and bundle ID), which reaches the
// entitlement-shape rules. A lint warning must be a warning (an error only
// under --strict) and point into its file.
import KCSLanguage

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzFiles(fuzzBytes(data, size), mainName: "main.kcs")
    let loader = input.loader

    let linted = BatchRunner(loader: loader, lint: .warn).lint(input.main)
    checkDiagnostics(linted.diagnostics)
    checkVerdict(linted.verdict, linted.diagnostics, "lint", passedMeansClean: false)
    for d in linted.diagnostics where d.code.isLint {
        require(d.severity == .warning, "lint \(d.code.rawValue) reported as \(d.severity.rawValue)")
    }
    if linted.diagnostics.contains(where: \.code.isLint) && linted.verdict == .passed {
        require(false, "lint warnings but exit code 0")
    }

    let strict = BatchRunner(loader: loader, lint: .strict).run(input.main)
    checkDiagnostics(strict.diagnostics)
    checkVerdict(strict.verdict, strict.diagnostics, "run --strict", passedMeansClean: false)
    for d in strict.diagnostics where d.code.isLint {
        require(d.severity == .error, "lint \(d.code.rawValue) under --strict reported as \(d.severity.rawValue)")
        require(strict.verdict != .passed, "lint errors under --strict but exit code 0")
    }

    for name in input.files.keys.sorted() where name != input.main.name {
        for (team, bundle) in [(nil, nil), ("SKMME9E2Y8", "com.example.App") as (String?, String?)] {
            let (text, diagnostics, verdict) = EntitlementsSummary.describe(path: name, team: team, bundleID: bundle, loader: loader)
            checkDiagnostics(diagnostics)
            // An invalid request: a plain .entitlements file without --team/--bundle-id (the CLI names the flags).
            // The summary names the file as the terminal shows it: controls escaped.
            require(verdict != .invalidInput, "lint --entitlements: invalid input, which it never reports")
            require(verdict == .missingInput || verdict == .invalidRequest || text.hasPrefix("\(TerminalText.escaped(name)): "),
                    "lint --entitlements: summary does not name the file")
        }
    }
    return 0
}
