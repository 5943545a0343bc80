import ArgumentParser
import Dispatch
import Foundation
import KCSLanguage
import KCSSyntax
import Synchronization

/// The entry point: a plain `kcs run FILE…` runs at once (``RunSettings/init(fastPath:)``);
/// every other command line goes through ArgumentParser.
@main
enum Main {
    static func main() {
        // Past a file-size limit (`ulimit -f`) a write fails with EFBIG and
        // the writer reports it and removes its temporary file; the default
        // SIGXFSZ killed the process mid-write and left the file behind
        // (found by adversarial testing).
        signal(SIGXFSZ, SIG_IGN)
        if let settings = RunSettings(fastPath: CommandLine.arguments.dropFirst()) {
            // Everything is written (one write per file): exit at once.
            exit(ExitStatus(settings.run()).rawValue)
        }
        defer { exit(ExitStatus.success.rawValue) }
        // ArgumentParser's own `main` prints its messages as they are, and an
        // error quotes the argument it could not use: a file named
        // `--\e]0;…` in `kcs check *` reached the terminal raw (found by
        // adversarial testing). The same parse and run, with every control
        // character of an error escaped, the layout kept.
        do {
            var command = try KCS.parseAsRoot()
            try command.run()
        } catch {
            let code = KCS.exitCode(for: error)
            let message = KCS.fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { writeAll(1, Array((message + "\n").utf8)) }
            } else if !message.isEmpty {
                writeAll(2, Array((TerminalText.escaped(message, keepingLayout: true) + "\n").utf8))
            }
            exit(code.rawValue)
        }
    }

    /// Ends the process with `status`, unless a write to standard output
    /// failed: then that is said, and the status is EX_NOINPUT's, as a
    /// failed `-o` write's is.
    static func exit(_ status: Int32) -> Never {
        let failure = standardOutputFailure.withLock { $0 }
        // A reader that went away (`| head`, with SIGPIPE ignored by the
        // parent) is no error: the writing stops, quietly.
        guard failure != 0, failure != EPIPE else { Foundation.exit(status) }
        writeAll(2, Array("kcs: error: cannot write standard output: \(String(cString: strerror(failure)))\n".utf8))
        Foundation.exit(max(status, ExitStatus.noInput.rawValue))
    }
}

struct KCS: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kcs",
        abstract: "Run keychain scenarios: access groups, items and SecItem statuses, modelled.",
        version: kcsVersion,
        subcommands: [Run.self, Check.self, ReplCommand.self, Lint.self, Export.self, Matrix.self, Fmt.self, Lsp.self,
                      TextMate.self, Import.self]
    )

    @OptionGroup var colour: ColourOptions

    /// `kcs` alone starts the REPL (which runs standard input like
    /// `kcs run -` when it is not a terminal).
    func run() throws {
        try ReplCommand.parse(["--color", colour.mode.rawValue]).run()
    }
}

/// What shell completion offers for each kind of file argument
/// (`kcs --generate-completion-script bash|zsh|fish`).
enum FileKinds {
    static let scenarios = CompletionKind.file(extensions: ["kcs"])
    /// `kcs check`: Markdown documents and scripts (folders are offered too).
    static let documents = CompletionKind.file(extensions: ["md", "markdown", "kcs"])
    /// `.entitlements` files, codesign's XML output and provisioning profiles.
    static let entitlements = CompletionKind.file(extensions: ["entitlements", "plist", "xml", "mobileprovision", "provisionprofile"])
}

/// Options `run` and `check` share: how results are printed, how many
/// files run at once, and which share of the files this machine runs.
struct OutputOptions: ParsableArguments {
    @Option(help: "Output format: text, json, junit or tap.")
    var format: OutcomeFormat = .text

    @Option(help: "Files to run in parallel (default: the number of cores). Output stays in input order.")
    var jobs: Int?

    @Option(help: ArgumentHelp("Run only shard I of N (1-based): the files, in order, cut into N contiguous parts.",
                               valueName: "I/N"))
    var shard: Shard?

    @OptionGroup var colour: ColourOptions

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    /// The files this shard runs (all of them without --shard).
    func select(_ files: [String]) -> [String] { Shard.select(files, shard) }
}

/// `--shard I/N`, as Jest and Playwright spell it: a CI matrix of N jobs
/// runs every file exactly once, each job a contiguous part of the list.
struct Shard: ExpressibleByArgument, Sendable, Equatable {
    var index: Int
    var count: Int

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(i) else { return nil }
        index = i
        count = n
    }

    /// The files `shard` runs: all of them without one.
    static func select<T>(_ files: [T], _ shard: Shard?) -> [T] { shard?.select(files) ?? files }

    /// Files `[(I-1)·F/N, I·F/N)`: sizes differ by at most one, the order is kept.
    func select<T>(_ files: [T]) -> [T] {
        Array(files[Self.bound(index - 1, files.count, count)..<Self.bound(index, files.count, count)])
    }

    /// `i·f/n` for `0 ≤ i ≤ n` without overflow: `--shard` takes any Int,
    /// and the product of two large ones trapped (found by adversarial testing).
    static func bound(_ i: Int, _ f: Int, _ n: Int) -> Int {
        let (high, low) = i.multipliedFullWidth(by: f)
        return n.dividingFullWidth((high, low)).quotient
    }
}

/// When diagnostics are coloured.
enum ColourMode: String, ExpressibleByArgument, CaseIterable, Sendable {
    case auto, always, never
}

/// `--color auto|always|never`, on every command that prints diagnostics.
struct ColourOptions: ParsableArguments {
    @Option(name: .customLong("color"),
            help: "When to colour diagnostics; auto: on a terminal, unless NO_COLOR is set, TERM is dumb or unset, or in Emacs's M-x compile.")
    var mode: ColourMode = .auto

    /// Whether output to `fd` is coloured.
    func enabled(for fd: Int32 = 2) -> Bool { useColour(mode, fd: fd) }
}

extension OutcomeFormat: ExpressibleByArgument {}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run .kcs scenarios, each in a fresh world, and check their expectations.",
        discussion: """
            The closing line reads 'N passed, N failed', then ', N errors' when statements hit errors. \
            Exit codes: \(ExitStatus.success.rawValue) every expectation held; \(ExitStatus.failure.rawValue) an expectation failed or a call hit a runtime error; \
            \(ExitStatus.usage.rawValue) bad command line; \(ExitStatus.dataError.rawValue) syntax error (nothing is run); \(ExitStatus.noInput.rawValue) file not found.
            """
    )

    @ArgumentParser.Argument(help: "Scenario files; - reads standard input.", completion: FileKinds.scenarios)
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
        if let doc = files.first(where: isMarkdownPath) {
            throw ValidationError("'\(doc)' is a Markdown document: its kcs blocks run with 'kcs check \(doc)'")
        }
    }

    func run() throws {
        try ExitStatus.finish(settings.run())
    }

    /// The parsed arguments as plain values.
    var settings: RunSettings {
        RunSettings(files: files, verbose: verbose, format: output.format, jobs: output.jobs, shard: output.shard,
                    colour: output.colour.mode, lint: lint.mode, safety: safety.settings, watch: watching.watch)
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

    @ArgumentParser.Argument(help: "Markdown files, folders (searched recursively) or .kcs files.",
                             completion: FileKinds.documents)
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
            Watcher.loop(loader: FileSystemLoader(), inputs: { output.select(expand(paths)) }) { files, recorder in
                _ = checkOnce(files, recorder: recorder)
            }
        }
        try ExitStatus.finish(checkOnce(output.select(expand(paths)), recorder: nil))
    }

    /// One check of every document; with `--watch`, each one's reads are recorded.
    func checkOnce(_ files: [String], recorder: RecordingLoader?) -> Verdict {
        let runner = BatchRunner(lint: lint.mode, limits: safety.limits)
        let update = self.update
        let safety = self.safety
        return Printer(format: output.format, colour: output.colour.enabled()).runAll(files, jobs: output.jobs) { path in
            if path.hasSuffix("/") {
                let folder = String(path.dropLast())
                let reason = FolderWalk.listError(folder) ?? "it changed while kcs looked"
                var outcome = FileOutcome(path: folder)
                outcome.diagnostics.append(Diagnostic(.fileUnreadable, "cannot list the folder '\(folder)': \(reason)",
                                                      hint: "the documents in it were not checked"))
                outcome.verdict = .missingInput
                return outcome
            }
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
                    outcome.verdict = max(outcome.verdict, .missingInput)
                }
            }
            return outcome
        }
    }

    /// Folders become their Markdown files, sorted; other paths stay as given.
    /// A folder that cannot be listed stays too, ending in `/`, to be
    /// reported (``checkOnce``): documents in it were not checked.
    func expand(_ paths: [String]) -> [String] {
        let walk = FolderWalk(paths, keep: isMarkdownPath)
        return walk.files + walk.unlisted.keys.sorted().map { $0 + "/" }
    }
}

/// Prints outcomes in input order as soon as each is known (a file waits
/// only for the files before it), and works out the exit code.
struct Printer {
    let format: OutcomeFormat
    let renderer: DiagnosticRenderer
    let annotate = environment("GITHUB_ACTIONS") == "true"

    init(format: OutcomeFormat, colour: Bool) {
        self.format = format
        self.renderer = DiagnosticRenderer(colour: colour)
    }

    /// Runs `work` on every item, `jobs` at a time (nil: one per core; the
    /// cores are counted only when there is more than one item).
    func runAll(_ items: [String], jobs: Int?, work: @escaping @Sendable (String) -> FileOutcome) -> Verdict {
        var totals = RunTotals()
        // JSON and JUnit are one document each; text and TAP stream.
        var kept: [FileOutcome] = []
        var tapNumber = 0
        if format == .tap { writeAll(1, Array(OutcomeFormat.tapHeader.utf8)) }
        let show: (FileOutcome) -> Void = { outcome in
            totals.add(outcome)
            switch format {
            case .text:
                // What scripts print holds names and strings from the input.
                writeAll(1, Array(TerminalText.escaped(outcome.output, keepingLayout: true).utf8))
                for d in outcome.diagnostics { printError(renderer.render(d)) }
            case .tap:
                let (text, n) = OutcomeFormat.tap(outcome, numberedFrom: tapNumber)
                tapNumber = n
                writeAll(1, Array(text.utf8))
            case .json, .junit:
                kept.append(outcome)
            }
            // Workflow commands go to standard output, unless that carries a
            // structured report that they would corrupt; the runner reads both.
            if annotate { writeAll(format == .text ? 1 : 2, Array(OutcomeFormat.githubAnnotations(outcome).utf8)) }
        }
        let jobs = items.count <= 1 ? 1 : jobs ?? ProcessInfo.processInfo.activeProcessorCount
        if jobs <= 1 {
            for item in items { show(work(item)) }
        } else {
            let results = Results(count: items.count)
            // Workers start files while this thread prints them in order.
            DispatchQueue.global().async {
                let queue = DispatchQueue(label: "kcs.jobs", attributes: .concurrent)
                let slots = DispatchSemaphore(value: jobs)
                for (i, item) in items.enumerated() {
                    slots.wait()
                    queue.async {
                        results.put(i, work(item))
                        slots.signal()
                    }
                }
            }
            for i in items.indices { show(results.wait(i)) }
        }
        switch format {
        case .text: writeAll(1, Array(totals.summaryLine.utf8))
        case .tap: writeAll(1, Array(OutcomeFormat.tapPlan(totals).utf8))
        case .json, .junit: writeAll(1, Array(format.render(kept).utf8))
        }
        return totals.verdict
    }
}

/// Outcomes by index, filled from worker threads; the printer waits for
/// each in turn and takes it out, so finished files are not held twice.
final class Results: @unchecked Sendable {
    private let condition = NSCondition()
    private var slots: [FileOutcome?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func put(_ i: Int, _ outcome: FileOutcome) {
        condition.lock()
        slots[i] = outcome
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until outcome `i` is in, then hands it over.
    func wait(_ i: Int) -> FileOutcome {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let outcome = slots[i] {
                slots[i] = nil
                return outcome
            }
            condition.wait()
        }
    }
}

/// Whether a path names a Markdown document (what `kcs check` reads).
func isMarkdownPath(_ path: String) -> Bool {
    MarkdownBlocks.isDocument(path)
}

/// Writes to standard error.
func printError(_ s: String) {
    writeAll(2, Array(s.utf8))
}

/// Writes every byte to a file descriptor (no shared `FILE*` state),
/// again after a signal interrupts it. A failed write to standard output
/// (a full disk, a file-size limit) is kept, nothing more is written there,
/// and ``Main/exit(_:)`` reports it: `kcs fmt - > f` and `--format json >
/// report` left half a file and exited 0 (adversarial run 23, F7).
func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    if fd == 1, standardOutputFailure.withLock({ $0 }) != 0 { return }
    let failure = Descriptor.writeAll(fd, bytes)
    if failure != 0, fd == 1 { standardOutputFailure.withLock { if $0 == 0 { $0 = failure } } }
}

/// The error number of the first failed write to standard output; 0 while none failed.
let standardOutputFailure = Mutex<Int32>(0)

/// The colour decision: `always` and `never` as said; `auto` colours a
/// terminal unless `NO_COLOR` is set (https://no-color.org), `TERM` is
/// `dumb` or unset, or the terminal is Emacs's `M-x compile` buffer
/// (`INSIDE_EMACS=VERSION,compile`). Emacs runs a compile command in a
/// pseudo-terminal with the `TERM` it was started with (unset from a
/// desktop launcher), does not read the escapes, and took `ESC[1m/path` for
/// the file name (editor trial 20, E3).
func useColour(_ mode: ColourMode, fd: Int32 = 2) -> Bool {
    switch mode {
    case .always: return true
    case .never: return false
    case .auto:
        if environment("NO_COLOR").map({ !$0.isEmpty }) == true { return false }
        guard let term = environment("TERM"), !term.isEmpty, term != "dumb" else { return false }
        if let emacs = environment("INSIDE_EMACS"), emacs.split(separator: ",").contains("compile") { return false }
        return isatty(fd) != 0
    }
}

/// One environment variable (`ProcessInfo`'s `environment` copies them all
/// into a dictionary, on the start-up path of every run).
func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}
