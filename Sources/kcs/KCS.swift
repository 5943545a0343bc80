import ArgumentParser
import Dispatch
import Foundation
import KCSLanguage

@main
struct KCS: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kcs",
        abstract: "Run keychain scenarios: access groups, items and SecItem statuses, modelled.",
        version: "0.1.0",
        subcommands: [Run.self, Check.self, ReplCommand.self, Lint.self, Export.self, Matrix.self, Fmt.self, Lsp.self,
                      TextMate.self]
    )

    /// `kcs` alone starts the REPL (which runs standard input like
    /// `kcs run -` when it is not a terminal).
    func run() throws {
        try ReplCommand().run()
    }
}

/// Options `run` and `check` share: how results are printed and how many
/// files run at once.
struct OutputOptions: ParsableArguments {
    @Option(help: "Output format: text, json, junit or tap.")
    var format: OutcomeFormat = .text

    @Option(help: "Files to run in parallel (default: the number of cores). Output order does not change.")
    var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    var jobCount: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }
}

extension OutcomeFormat: ExpressibleByArgument {}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run .kcs scenarios, each in a fresh world, and check their expectations.",
        discussion: """
            Exit codes: 0 every expectation held; 1 an expectation failed or a call hit a runtime error; \
            64 bad command line; 65 syntax error (nothing is run); 66 file not found.
            """
    )

    @ArgumentParser.Argument(help: "Scenario files; - reads standard input.")
    var files: [String] = []

    @Flag(name: .shortAndLong, help: "Print every call with its status.")
    var verbose = false

    @OptionGroup var output: OutputOptions

    @OptionGroup var lint: LintOptions

    @OptionGroup var safety: SafetyOptions

    @OptionGroup var watching: WatchOptions

    mutating func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one .kcs file, or - for standard input") }
        try watching.validate(inputs: files)
    }

    func run() throws {
        if watching.watch {
            Watcher.loop(loader: FileSystemLoader(), inputs: { files }) { files, recorder in _ = runOnce(files, recorder: recorder) }
        }
        let code = runOnce(files, recorder: nil)
        if code != 0 { throw ExitCode(code) }
    }

    /// One run of every file; with `--watch`, each file's reads are recorded.
    func runOnce(_ files: [String], recorder: RecordingLoader?) -> Int32 {
        let runner = BatchRunner(verbose: verbose, lint: lint.mode, collectChecks: output.format != .text, limits: safety.limits)
        let stdin = files.contains("-") ? safety.readStandardInput() : .bytes([])
        let safety = self.safety
        return Printer(format: output.format).runAll(files, jobs: output.jobCount) { path in
            var runner = runner
            runner.loader = recorder.map { $0.through(safety.loader(for: path)) } ?? safety.loader(for: path)
            guard path == "-" else { return runner.run(path: path) }
            switch stdin {
            case .bytes(let bytes): return runner.run(SourceFile(name: "<stdin>", bytes: bytes))
            case .failed(let outcome): return outcome
            }
        }
    }
}

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check Markdown documents: run their kcs blocks and compare their output blocks.",
        discussion: """
            Fenced blocks tagged kcs run in order in one world per file; 'kcs fresh' starts a new world, \
            'kcs ignore' is not run, 'kcs fails' must fail. A block tagged output right after a kcs block \
            must hold exactly what it printed. Folders are searched for .md files; .kcs files run as scripts. \
            Exit codes as for kcs run.
            """
    )

    @ArgumentParser.Argument(help: "Markdown files, folders (searched recursively) or .kcs files.")
    var paths: [String] = []

    @Flag(help: "Rewrite output blocks with what their kcs blocks print; nothing else in the file changes.")
    var update = false

    @OptionGroup var output: OutputOptions

    @OptionGroup var lint: LintOptions

    @OptionGroup var safety: SafetyOptions

    @OptionGroup var watching: WatchOptions

    mutating func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one Markdown file or folder") }
        try watching.validate(inputs: paths)
    }

    func run() throws {
        if watching.watch {
            Watcher.loop(loader: FileSystemLoader(), inputs: { expand(paths) }) { files, recorder in
                _ = checkOnce(files, recorder: recorder)
            }
        }
        let code = checkOnce(expand(paths), recorder: nil)
        if code != 0 { throw ExitCode(code) }
    }

    /// One check of every document; with `--watch`, each one's reads are recorded.
    func checkOnce(_ files: [String], recorder: RecordingLoader?) -> Int32 {
        let runner = BatchRunner(lint: lint.mode, limits: safety.limits)
        let update = self.update
        let safety = self.safety
        return Printer(format: output.format).runAll(files, jobs: output.jobCount) { path in
            var runner = runner
            runner.loader = recorder.map { $0.through(safety.loader(for: path)) } ?? safety.loader(for: path)
            if path.hasSuffix(".kcs") { return runner.run(path: path) }
            var outcome = runner.check(path: path, update: update)
            if let content = outcome.updatedContent, let original = outcome.originalContent {
                // Old or new, byte for byte, whatever happens; and never over
                // a change someone saved while the blocks ran.
                do throws(WriteError) {
                    try AtomicFile.write(content, to: path, mode: .replaceIfUnchanged(original))
                    outcome.output += "updated \(path): \(outcome.updatedBlocks) output block\(outcome.updatedBlocks == 1 ? "" : "s")\n"
                } catch {
                    outcome.diagnostics.append(Diagnostic(.fileUnreadable, error.message,
                                                          hint: error == .changedSinceRead(path) ? "run kcs check --update again" : nil))
                    outcome.exitCode = FileOutcome.combine(outcome.exitCode, 66)
                }
            }
            return outcome
        }
    }

    /// Folders become their Markdown files, sorted; other paths stay as given.
    func expand(_ paths: [String]) -> [String] {
        var out: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                let base = path.hasSuffix("/") ? path : path + "/"
                // Hidden folders (.git, .build) hold other people's documents.
                let found = (FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? [])
                    .filter { $0.hasSuffix(".md") || $0.hasSuffix(".markdown") }
                    .filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
                    .sorted()
                out += found.map { base + $0 }
            } else {
                out.append(path)
            }
        }
        return out
    }
}

/// Prints outcomes as they complete, in input order, and works out the exit code.
struct Printer {
    var format: OutcomeFormat
    let renderer = DiagnosticRenderer(colour: useColour())
    let annotate = ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true"

    func runAll(_ items: [String], jobs: Int, work: @escaping @Sendable (String) -> FileOutcome) -> Int32 {
        let results = Results(count: items.count)
        var next = 0
        var all: [FileOutcome] = []
        func drain() {
            while next < items.count, let outcome = results.take(next) {
                show(outcome)
                all.append(outcome)
                next += 1
            }
        }
        if jobs <= 1 || items.count <= 1 {
            for (i, item) in items.enumerated() {
                results.put(i, work(item))
                drain()
            }
        } else {
            let queue = DispatchQueue(label: "kcs.jobs", attributes: .concurrent)
            let group = DispatchGroup()
            let slots = DispatchSemaphore(value: jobs)
            for (i, item) in items.enumerated() {
                slots.wait()
                queue.async(group: group) {
                    results.put(i, work(item))
                    slots.signal()
                }
                results.lock.lock()
                results.lock.unlock()
            }
            group.wait()
            drain()
        }
        drain()
        if format == .text {
            writeAll(1, Array(OutcomeFormat.textSummary(all).utf8))
        } else {
            writeAll(1, Array(format.render(all).utf8))
        }
        return all.reduce(Int32(0)) { FileOutcome.combine($0, $1.exitCode) }
    }

    private func show(_ outcome: FileOutcome) {
        if format == .text {
            // What scripts print holds names and strings from the input.
            writeAll(1, Array(TerminalText.escaped(outcome.output, keepingLayout: true).utf8))
            for d in outcome.diagnostics { printError(renderer.render(d)) }
        }
        // Workflow commands go to standard output, unless that carries a
        // structured report that they would corrupt; the runner reads both.
        if annotate { writeAll(format == .text ? 1 : 2, Array(OutcomeFormat.githubAnnotations(outcome).utf8)) }
    }
}

/// Outcomes by index, filled from worker threads.
final class Results: @unchecked Sendable {
    let lock = NSLock()
    private var slots: [FileOutcome?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func put(_ i: Int, _ outcome: FileOutcome) {
        lock.lock()
        slots[i] = outcome
        lock.unlock()
    }

    func take(_ i: Int) -> FileOutcome? {
        lock.lock()
        defer { lock.unlock() }
        return slots[i]
    }
}

/// Writes to standard error.
func printError(_ s: String) {
    writeAll(2, Array(s.utf8))
}

/// Writes every byte to a file descriptor (no shared `FILE*` state).
func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { buf in
        guard let base = buf.baseAddress else { return }
        var offset = 0
        while offset < buf.count {
            let n = write(fd, base + offset, buf.count - offset)
            if n <= 0 { return }
            offset += n
        }
    }
}

func useColour() -> Bool {
    if ProcessInfo.processInfo.environment["NO_COLOR"] != nil { return false }
    return isatty(2) != 0
}
