import ArgumentParser
import KCSLanguage

/// `--root`, `--timeout`, `--max-output` and `--untrusted`, shared by `run`,
/// `check`, `lint` and `export`: the embedding API's limits (docs/limits.md)
/// for files nobody vetted.
struct SafetyOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Includes and entitlements files may not leave this folder (nor read /proc, /sys or /dev).",
                               valueName: "dir"))
    var root: String?

    @Option(help: ArgumentHelp("Stop a file after this many seconds, reading and parsing included: a located KCS311 error, exit 1. "
                               + "Reading a project (lint --project, import xcode) stops after \(Int(Safety.projectSeconds)) without it.", valueName: "seconds"))
    var timeout: Double?

    @Option(name: .customLong("max-output"),
            help: ArgumentHelp("Stop a file once it has printed this many bytes, diagnostics included: KCS311, exit 1. "
                               + "It also bounds an exported file and a JSON, JUnit or TAP report (\(Limits().generatedBytes >> 20) MiB without it).",
                               valueName: "bytes"))
    var maxOutput: Int?

    @Flag(help: ArgumentHelp(SafetyOptions.untrustedHelp))
    var untrusted = false

    /// Said from `Limits.untrusted`, so the help cannot drift from the values.
    static var untrustedHelp: String {
        let limits = Limits.untrusted
        let seconds = limits.seconds.map { $0 == $0.rounded() ? String(Int($0)) : String($0) } ?? "none"
        return "For files nobody vetted: each file's folder is its --root, no absolute paths, --timeout \(seconds), "
            + "--max-output \(limits.outputBytes.map(String.init) ?? "none") and the tight limits of docs/limits.md "
            + "(options given as well win)."
    }

    func validate() throws {
        if let timeout, !(timeout > 0) || !timeout.isFinite { throw ValidationError("--timeout must be a positive number of seconds") }
        if let maxOutput, maxOutput < 0 { throw ValidationError("--max-output must be 0 or more") }
        if let root, FileSystemLoader.realPath(root) == nil { throw ValidationError("--root \(root): no such folder") }
    }

    /// The options as plain values.
    var settings: Safety { Safety(root: root, timeout: timeout, maxOutput: maxOutput, untrusted: untrusted) }

    var limits: Limits { settings.limits }

    /// How the file at `path` (`-` for standard input) and what it names are read.
    func loader(for path: String) -> any SourceLoader { settings.loader(for: path) }

    /// Standard input, read up to the source-size limit (``Safety/readStandardInput()``).
    func readStandardInput() -> StandardInput { settings.readStandardInput() }
}

/// `--root`, `--timeout`, `--max-output` and `--untrusted` as given (nil or
/// false when not), and what they mean for a run.
struct Safety: Equatable {
    var root: String?
    var timeout: Double?
    var maxOutput: Int?
    var untrusted = false

    /// The embedding API's limits (docs/limits.md) these options set.
    var limits: Limits {
        var limits = untrusted ? Limits.untrusted : Limits()
        if let timeout { limits.seconds = timeout }
        if let maxOutput {
            limits.outputBytes = maxOutput
            limits.generatedBytes = maxOutput
        }
        return limits
    }

    /// The time limit of reading a project (`kcs lint --project`, `kcs
    /// import xcode`): `--timeout`, else `--untrusted`'s 5 s, else
    /// ``projectSeconds``. A script's run has no time limit by default: its
    /// work is bounded statement by statement. Reading a project is one
    /// piece of work bounded only by sizes, and projects built to be slow
    /// ran for minutes, a CI job with them (adversarial run 25).
    var projectTimeLimit: Double { limits.seconds ?? Self.projectSeconds }

    /// Reading a project without `--timeout` or `--untrusted` stops after
    /// this long: a real project is read in seconds (the slowest of real-
    /// project trial 20, Anytype, 3.8 s on a loaded machine).
    static let projectSeconds: Double = 60

    /// How the file at `path` (`-` for standard input) and what it names are read.
    func loader(for path: String) -> any SourceLoader {
        let maxBytes = limits.sourceBytes
        if let root { return RootedFileLoader(root: root, maxBytes: maxBytes, allowsAbsolutePaths: !untrusted) }
        guard untrusted else { return FileSystemLoader(maxBytes: maxBytes) }
        // Standard input has no folder: it may read no files.
        if path == "-" { return NoFilesLoader() }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        return RootedFileLoader(root: folder.isEmpty ? "/" : folder, maxBytes: maxBytes, allowsAbsolutePaths: false)
    }

    /// Standard input, read up to the source-size limit; an error is an
    /// outcome (exit 66), never a read without end.
    func readStandardInput() -> StandardInput {
        do throws(LoadError) {
            return .bytes(try FileSystemLoader.readStandardInput(maxBytes: limits.sourceBytes, seconds: limits.seconds))
        } catch {
            var outcome = FileOutcome(path: "<stdin>")
            let hint = if case .tooLarge = error { "the limit is the source-size limit; see docs/limits.md" }
                else { "standard input is read under the run's time limit (--timeout, --untrusted); see docs/limits.md" }
            outcome.diagnostics.append(Diagnostic(error.code, error.message(for: "<stdin>"), hint: hint))
            outcome.verdict = .missingInput
            return .failed(outcome)
        }
    }
}

/// Standard input as read for `-`: its bytes, or the outcome of a failed read.
enum StandardInput {
    case bytes([UInt8])
    case failed(FileOutcome)
}
