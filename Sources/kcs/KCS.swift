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
        subcommands: [Run.self, Check.self, ReplCommand.self, Lint.self, Export.self, Matrix.self, Import.self]
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

    mutating func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one .kcs file, or - for standard input") }
    }

    func run() throws {
        let runner = BatchRunner(verbose: verbose, lint: lint.mode, collectChecks: output.format != .text)
        let stdin = files.contains("-") ? readStandardInput() : []
        let code = Printer(format: output.format).runAll(files, jobs: output.jobCount) { path in
            path == "-" ? runner.run(SourceFile(name: "<stdin>", bytes: stdin)) : runner.run(path: path)
        }
        if code != 0 { throw ExitCode(code) }
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

    mutating func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one Markdown file or folder") }
    }

    func run() throws {
        let files = expand(paths)
        let runner = BatchRunner(lint: lint.mode)
        let update = self.update
        let code = Printer(format: output.format).runAll(files, jobs: output.jobCount) { path in
            if path.hasSuffix(".kcs") { return runner.run(path: path) }
            guard let bytes = FileManager.default.contents(atPath: path) else {
                var missing = FileOutcome(path: path)
                missing.diagnostics.append(Diagnostic(.fileNotFound, "no such file: '\(path)'"))
                missing.exitCode = 66
                return missing
            }
            var outcome = runner.check(markdown: SourceFile(name: path, bytes: [UInt8](bytes)), update: update)
            if let content = outcome.updatedContent {
                if writeInPlace(path, content) {
                    outcome.output += "updated \(path): \(outcome.updatedBlocks) output block\(outcome.updatedBlocks == 1 ? "" : "s")\n"
                } else {
                    outcome.diagnostics.append(Diagnostic(.fileUnreadable, "cannot write '\(path)'"))
                    outcome.exitCode = FileOutcome.combine(outcome.exitCode, 66)
                }
            }
            return outcome
        }
        if code != 0 { throw ExitCode(code) }
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
            writeAll(1, Array(outcome.output.utf8))
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

/// Rewrites a file's contents in place: through a symbolic link, keeping
/// the file's permissions and identity.
func writeInPlace(_ path: String, _ content: [UInt8]) -> Bool {
    let fd = open(path, O_WRONLY | O_TRUNC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return content.withUnsafeBufferPointer { buf in
        guard let base = buf.baseAddress else { return true }
        var offset = 0
        while offset < buf.count {
            let n = write(fd, base + offset, buf.count - offset)
            if n <= 0 { return false }
            offset += n
        }
        return true
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

func readStandardInput() -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = read(0, &buffer, buffer.count)
        if n <= 0 { break }
        bytes.append(contentsOf: buffer[0..<n])
    }
    return bytes
}
