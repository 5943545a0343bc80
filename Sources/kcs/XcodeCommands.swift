import ArgumentParser
import Foundation
import KCSCodeCheck
import KCSLanguage
import KeychainEngine
import KCSXcode
import KCSXcodeProject

/// `kcs import xcode …`: scenarios from other tools' files.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a scenario from a project: kcs import xcode App.xcodeproj.",
        subcommands: [ImportXcode.self]
    )
}

struct ImportXcode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xcode",
        abstract: "Write a scenario from an Xcode project: a team, and an app per signed target with its bundle ID and entitlements.",
        discussion: """
            Build settings are resolved as Xcode does (project and target levels, xcconfig files with #include, \
            $(VAR) forms and operators, conditional settings). A setting that does not resolve is a warning at its \
            line; a target whose bundle ID does not resolve is left out rather than guessed. Each app gets an 'expect groups' line with the \
            access groups the import worked out. Exit codes: \(ExitStatus.success.rawValue) a scenario was written (warnings on standard error); \
            \(ExitStatus.failure.rawValue) no target could be imported, or --timeout passed; \(ExitStatus.usage.rawValue) bad command line or configuration; \(ExitStatus.dataError.rawValue) project.pbxproj \
            does not parse; \(ExitStatus.noInput.rawValue) the project cannot be read.
            """
    )

    @ArgumentParser.Argument(help: "The .xcodeproj folder (or its project.pbxproj, or a folder holding one .xcodeproj).")
    var project: String

    @Option(help: "The build configuration to resolve (default: the project's defaultConfigurationName).")
    var configuration: String?

    @Option(help: "The team ID for targets whose project sets no DEVELOPMENT_TEAM, or one that expands to nothing.")
    var team: String?

    @OptionGroup var platformOption: PlatformOption
    var platform: String? { platformOption.platform }

    @Option(name: .shortAndLong, help: "Write the scenario to this file (entitlements paths are written relative to it); - is standard output.")
    var output: String?

    @OptionGroup var safety: SafetyOptions

    func validate() throws {
        if let team, !Team.isWellFormedID(team) { throw ValidationError(Lint.teamIDRule) }
    }

    func run() throws {
        // `-o -` is standard output, as for every other command (it wrote a file named "-").
        let output = self.output == "-" ? nil : self.output
        // Paths are relative to the scenario's folder; a device or pipe
        // (`-o /dev/stdout`) has none, so they are relative to here (they
        // were relative to /dev; found on a real-project trial).
        let folder = output.flatMap { $0.hasPrefix("/dev/") || $0.hasPrefix("/proc/self/fd/") ? nil : ProjectPath.directory($0) } ?? "."
        // Entitlements paths are written relative to the scenario's folder; that
        // needs both paths from one root (an absolute -o with a relative project,
        // or -o ../x.kcs, would otherwise leave them relative to this
        // directory): the import compares them from here.
        let deadline = Deadline.start(seconds: safety.settings.projectTimeLimit, reading: project)
        defer { deadline?.cancel() }
        // Read under the same rules as a script (--root, --untrusted; never /proc, /sys, /dev).
        let result = XcodeImporter.importProject(project, options: XcodeImportOptions(
            configuration: configuration, team: team, platform: platform, scenarioFolder: folder,
            workingDirectory: FileManager.default.currentDirectoryPath,
            // --max-output and --untrusted bound the scenario as any generated
            // text (adversarial run 26, F8: only the 64 MiB default held).
            maxScenarioBytes: safety.limits.generatedBytes),
            fileSystem: LoaderProjectFileSystem(loader: safety.loader(for: project)))
        let renderer = DiagnosticRenderer(colour: useColour(.auto))
        for d in result.diagnostics { printError(renderer.render(d)) }
        if !result.scenario.isEmpty {
            if let output {
                // The same writer as export -o: whole or not at all, keeping
                // permissions, links and devices (createFile reset a 0600
                // file to 0644 and replaced read-only files and symbolic links).
                // Never over a file the import read (`-o` naming the
                // project's own file lost the project; found by adversarial testing),
                // nor over an existing file an import did not write (the template a
                // hint says to copy was lost, and a hand-written scenario).
                do throws(WriteError) {
                    try AtomicFile.write(Array(result.scenario.utf8), to: output, mode: .replaceGenerated(inputs: result.filesRead, header: XcodeImporter.header, marker: XcodeImporter.headerMarker,
                                                                                         what: "scenario kcs import"))
                } catch {
                    printError(renderer.render(Diagnostic(.fileUnreadable, error.message)))
                    try ExitStatus.finish(.missingInput)
                    return
                }
            } else {
                writeAll(1, Array(result.scenario.utf8))
            }
        }
        try ExitStatus.finish(result.verdict)
    }
}

/// `kcs lint --project`: the whole-project checks and the Swift code check.
/// Passed without warnings, failed with warnings; invalid input when
/// project.pbxproj does not parse, missing input when a file cannot be read.
/// `--platform`, one option for `kcs import xcode` and `kcs lint --project`.
struct PlatformOption: ParsableArguments {
    @Option(help: "ios, macos, catalyst or watchos: import (or, with lint --project, check) the targets that build for it (default: for the import, the first app's platform; for the lint, each target's first).")
    var platform: String?

    func validate() throws {
        if let platform, !XcodeProject.platformNames.contains(platform) {
            throw ValidationError("--platform must be one of: " + XcodeProject.platformNames.joined(separator: ", "))
        }
    }
}

func lintProject(_ path: String, profile: String?, configuration: String?, team: String?, platform: String? = nil,
                 fileSystem: any ProjectFileSystem, maxOutput: Int? = nil) -> Verdict {
    let renderer = DiagnosticRenderer(colour: useColour(.auto))
    var render = ProjectDiagnostics(fileSystem: fileSystem)
    let lint: ProjectLint
    switch ProjectLint.load(path, configuration: configuration, team: team, platform: platform, fileSystem: fileSystem, packages: PackageManifestReader()) {
    case .success(let l): lint = l
    case .failure(let issue):
        printError(renderer.render(render.diagnostic(issue, code: .projectUnreadable, length: 1)))
        return issue.isUnreadable ? .missingInput : .invalidInput
    }
    guard lint.project.configurations.contains(where: { $0.name == lint.configuration }) else {
        printError(renderer.render(Diagnostic(.projectSetting, "the project has no configuration '\(lint.configuration)'",
                                              hint: "configurations: " + lint.project.configurations.map(\.name).joined(separator: ", "))))
        return .invalidRequest
    }
    if let (chosen, built) = lint.noTargetFor {
        // Nothing to check: "no warnings" passed a CI job whose platform
        // was mistyped or stale (review 19, R7). Said as the import says it.
        printError(renderer.render(Diagnostic(.projectSetting, "no target of \(path) builds for \(chosen): nothing was checked",
                                              hint: XcodeImporter.builtFor(built, not: chosen, doing: "lint"))))
        return .failed
    }
    var granted: Entitlements?
    if let profile {
        let bytes: [UInt8]
        switch fileSystem.read(profile) {
        case .success(let b): bytes = b
        case .failure(let e):
            printError(renderer.render(Diagnostic(.fileNotFound, "cannot read the profile '\(profile)': \(e.message)")))
            return .missingInput
        }
        switch Entitlements.decode(bytes) {
        case .success(let e): granted = e
        case .failure(let e):
            printError(renderer.render(Diagnostic(.malformedEntitlements, "\(profile): \(e.message)", hint: e.hint)))
            return .missingInput
        }
    }
    let diagnostics = lint.run(profile: granted, profilePath: profile) + CodeCheck.foldedByUse(CodeCheck.run(lint))
    // Within --max-output (--untrusted's 1 MiB): a framework checked for
    // each of 70 apps printed 2.2 MB past it (found by adversarial testing).
    var printed = 0
    for (i, d) in diagnostics.enumerated() {
        let text = renderer.render(d)
        if let maxOutput, printed + text.utf8.count > maxOutput {
            let rest = diagnostics.count - i
            printError(renderer.render(BatchRunner.moreDiagnostics(rest, in: path, outputLimit: maxOutput)))
            break
        }
        printed += text.utf8.count
        printError(text)
    }
    // Notes (a setting only some configurations or targets set) are no warnings.
    let count = diagnostics.filter { $0.severity != .note }.count
    writeAll(1, Array("\(TerminalText.escaped(path)): \(count == 0 ? "no" : String(count)) warning\(count == 1 ? "" : "s") (configuration \(TerminalText.escaped(lint.configuration))\(platform.map { ", platform \($0)" } ?? ""))\n".utf8))
    return count == 0 ? .passed : .failed
}
