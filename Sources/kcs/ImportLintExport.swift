import ArgumentParser
import Foundation
import KCSLanguage
import KCSXcodeProject
import KeychainEngine

/// `--no-lint` and `--strict`, shared by `run` and `check`.
struct LintOptions: ParsableArguments {
    @Flag(name: .customLong("no-lint"), help: "Do not check for the common mistakes (lint warnings).")
    var noLint = false

    @Flag(help: "Treat lint warnings as errors (exit 1).")
    var strict = false

    func validate() throws {
        if noLint && strict { throw ValidationError("--no-lint and --strict contradict each other") }
    }

    var mode: LintMode { noLint ? .off : strict ? .strict : .warn }
}

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check scenarios for the common keychain mistakes, or show what an entitlements file grants.",
        discussion: """
            Each warning names the line, the mistake and the fix. Exit codes: \(ExitStatus.success.rawValue) no warnings; \(ExitStatus.failure.rawValue) warnings; \
            \(ExitStatus.dataError.rawValue) syntax error; \(ExitStatus.noInput.rawValue) file not found or unreadable. With --entitlements FILE, prints the team, \
            application identifier and access-group list that an .entitlements file, codesign output or \
            provisioning profile gives, and the lines to paste into a scenario. A plain Xcode .entitlements \
            file names no team and no app: give them with --team and --bundle-id (exit \(ExitStatus.usage.rawValue) when missing).
            """
    )

    @OptionGroup var colour: ColourOptions

    @ArgumentParser.Argument(help: "Scenario files; - reads standard input; an .xcodeproj (or .xcworkspace, Package.swift, project.yml, Project.swift) is read as --project.", completion: FileKinds.scenarios)
    var files: [String] = []

    @Option(help: "An entitlements file, codesign output or provisioning profile to read instead of scenarios.",
            completion: FileKinds.entitlements)
    var entitlements: String?

    @Option(help: "With --entitlements: the team ID for $(AppIdentifierPrefix) when the file has none; with --project: the team of targets that set none, or one that expands to nothing.")
    var team: String?

    @Option(name: .customLong("bundle-id"), help: "With --entitlements: the bundle ID (default: from the file).")
    var bundleID: String?

    @OptionGroup var safety: SafetyOptions

    @Option(help: "An .xcodeproj to check as a whole, and its Swift code against its entitlements (docs/xcode.md).")
    var project: String?

    @Option(help: "With --project: a provisioning profile whose groups the targets must stay within.")
    var profile: String?

    @Option(help: "With --project: the configuration the single-configuration checks use (default: the project's).")
    var configuration: String?

    @OptionGroup var platformOption: PlatformOption

    mutating func validate() throws {
        // `kcs lint App.xcodeproj` is what a developer types first: a
        // project among the files is the project (it was "not a regular
        // file", found on a real-project trial).
        // A workspace too: --project says what it is and which projects it lists.
        // A Swift package's manifest, XcodeGen's or Tuist's description:
        // --project says what each is (they were read as scripts, hundreds
        // of syntax errors; real-project trial 14, D6).
        let projects = files.filter { file in
            [".xcodeproj", ".xcworkspace"].contains { file.hasSuffix($0) || file.hasSuffix($0 + "/") }
                || ProjectInput.isProjectFile(file)
        }
        if !projects.isEmpty {
            guard projects.count == 1, project == nil else {
                throw ValidationError("lint one project at a time (--project App.xcodeproj)")
            }
            project = projects[0].hasSuffix("/") ? String(projects[0].dropLast()) : projects[0]
            files.removeAll { $0 == projects[0] }
        }
        if files.isEmpty && entitlements == nil && project == nil {
            throw ValidationError("give at least one .kcs file, --entitlements FILE or --project App.xcodeproj")
        }
        if project == nil && (profile != nil || configuration != nil || platformOption.platform != nil) {
            throw ValidationError("--profile, --configuration and --platform go with --project")
        }
        if let team, !Team.isWellFormedID(team) { throw ValidationError(Self.teamIDRule) }
    }

    /// What `--team` takes (lint and import alike).
    static let teamIDRule = "--team takes a team ID: \(Team.idShape)"

    func run() throws {
        var projectVerdict = Verdict.passed
        if let project {
            let deadline = Deadline.start(seconds: safety.settings.projectTimeLimit, reading: project)
            // Read under the same rules as a script (--root, --untrusted; never /proc, /sys, /dev).
            projectVerdict = lintProject(project, profile: profile, configuration: configuration, team: team, platform: platformOption.platform,
                                         fileSystem: LoaderProjectFileSystem(loader: safety.loader(for: project)),
                                         maxOutput: safety.limits.outputBytes)
            deadline?.cancel()
            if files.isEmpty && entitlements == nil {
                try ExitStatus.finish(projectVerdict)
                return
            }
        }
        if let entitlements {
            let (text, diagnostics, verdict) = EntitlementsSummary.describe(path: entitlements, team: team, bundleID: bundleID,
                                                                         loader: safety.loader(for: entitlements))
            writeAll(1, Array(TerminalText.escaped(text, keepingLayout: true).utf8))
            let renderer = DiagnosticRenderer(colour: colour.enabled())
            for d in diagnostics { printError(renderer.render(d)) }
            try ExitStatus.finish(verdict)
            if files.isEmpty { return }
        }
        var runner = BatchRunner(lint: .warn, limits: safety.limits)
        let stdin = files.contains("-") ? safety.readStandardInput() : .bytes([])
        let renderer = DiagnosticRenderer(colour: colour.enabled())
        var verdict = projectVerdict
        for path in files {
            runner.loader = safety.loader(for: path)
            let outcome: FileOutcome
            switch (path, stdin) {
            case ("-", .bytes(let bytes)): outcome = runner.lint(SourceFile(name: "<stdin>", bytes: bytes))
            case ("-", .failed(let failed)): outcome = failed
            default: outcome = runner.lint(path: path)
            }
            for d in outcome.diagnostics { printError(renderer.render(d)) }
            writeAll(1, Array(TerminalText.escaped(outcome.output, keepingLayout: true).utf8))
            verdict = max(verdict, outcome.verdict)
        }
        try ExitStatus.finish(verdict)
    }
}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a scenario as a Swift Testing file that makes the same SecItem calls on a device.",
        discussion: """
            The generated test builds real SecItem query dictionaries, expects the statuses the model \
            predicts and says in comments which entitlements each target needs. Exit codes as for kcs run \
            (\(ExitStatus.dataError.rawValue) syntax error, \(ExitStatus.noInput.rawValue) file not found).
            """
    )

    @OptionGroup var colour: ColourOptions

    @Flag(help: "Write Swift (Swift Testing); the only format so far.")
    var swift = false

    @ArgumentParser.Argument(help: "The scenario file.", completion: FileKinds.scenarios)
    var file: String

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output (- is standard output).", completion: .file(extensions: ["swift"]))
    var output: String?

    @OptionGroup var safety: SafetyOptions

    mutating func validate() throws {
        if !swift { throw ValidationError("say which language to export: --swift") }
    }

    func run() throws {
        let output = self.output == "-" ? nil : self.output
        // Every file the export reads (the scenario, its includes and
        // entitlements files) is one `-o` must not replace (found by
        // adversarial testing: an include was overwritten).
        let loader = RecordingLoader(safety.loader(for: file))
        let renderer = DiagnosticRenderer(colour: colour.enabled())
        let source: SourceFile
        do { source = try loader.read(loader.resolve(file, relativeTo: nil)) } catch {
            // The real reason: a FIFO or a folder is not "no such file".
            printError(renderer.render(Diagnostic(error.code, error.message(for: file))))
            try ExitStatus.finish(.missingInput)
            return
        }
        let exporter = SwiftExporter(loader: loader, limits: safety.limits)
        let (result, run) = exporter.exportReporting(source)
        switch result {
        case .success(let code):
            // Half a test file is no test: over the output limit, nothing is written.
            let limit = safety.limits.generatedBytes
            if code.utf8.count > limit {
                printError(renderer.render(Diagnostic(.runLimit, "the generated Swift is \(code.utf8.count) bytes, over the output limit of \(limit); nothing was written",
                                                      hint: "the host running this script sets the limits")))
                try ExitStatus.finish(.failed)
                return
            }
            if let output {
                // Whole or not at all, with the system's reason when it fails.
                do throws(WriteError) { try AtomicFile.write(Array(code.utf8), to: output, mode: .replaceGenerated(inputs: [file] + loader.stamps.keys.sorted(), header: SwiftExporter.header, what: "file kcs export")) } catch {
                    printError(renderer.render(Diagnostic(.fileUnreadable, error.message)))
                    try ExitStatus.finish(.missingInput)
                    return
                }
            } else {
                writeAll(1, Array(code.utf8))
            }
            // The file is written; what the run found is reported and sets
            // the exit code, as `kcs run` would (the file says it only in comments).
            for d in exporter.capped(run.diagnostics, dropped: run.droppedDiagnostics, source) { printError(renderer.render(d)) }
            try ExitStatus.finish(run.verdict)
        case .failure(let failure):
            var report = RunReport()
            report.diagnostics = failure.diagnostics
            for d in failure.diagnostics { printError(renderer.render(d)) }
            // A syntax error or an unreadable file is 65 or 66; a time or
            // output limit is 1, as for `kcs run`.
            try ExitStatus.finish(max(report.verdict, .failed))
        }
    }
}

extension MatrixFormat: ExpressibleByArgument {}

struct Matrix: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a scenario and print its apps × items matrix: who can read which item, and why not.",
        discussion: "Exit codes as for kcs run."
    )

    @OptionGroup var colour: ColourOptions

    @ArgumentParser.Argument(help: "The scenario file.", completion: FileKinds.scenarios)
    var file: String

    @Option(help: "text (as 'show matrix') or markdown.")
    var format: MatrixFormat = .text

    @Option(help: "The device whose keychain to show (default: this).")
    var device: String?

    @OptionGroup var safety: SafetyOptions

    func run() throws {
        let outcome = BatchRunner(loader: safety.loader(for: file), lint: .off, limits: safety.limits)
            .matrix(path: file, format: format, device: device)
        // Names in the table come from the script: never raw to a terminal.
        writeAll(1, Array(TerminalText.escaped(outcome.output, keepingLayout: true).utf8))
        let renderer = DiagnosticRenderer(colour: colour.enabled())
        for d in outcome.diagnostics { printError(renderer.render(d)) }
        try ExitStatus.finish(outcome.verdict)
    }
}
