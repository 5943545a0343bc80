import ArgumentParser
import KCSLanguage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct KCS: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kcs",
        abstract: "Run keychain scenarios: access groups, items and SecItem statuses, modelled.",
        version: "0.1.0",
        subcommands: [Run.self, ReplCommand.self]
    )

    /// `kcs` alone starts the REPL (which runs standard input like
    /// `kcs run -` when it is not a terminal).
    func run() throws {
        try ReplCommand().run()
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

    mutating func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one .kcs file, or - for standard input") }
    }

    func run() throws {
        let renderer = DiagnosticRenderer(colour: useColour())
        var out = OutputBuffer()
        var passed = 0, failed = 0
        var exitCode: Int32 = 0
        let options = RunOptions(reportCalls: verbose)
        for path in files {
            let verbose = self.verbose
            let observer: Session.Observer = { event in
                switch event {
                case .call(let c) where verbose:
                    let loc = c.file.location(of: c.range.start)
                    out.write("\(c.file.name):\(loc.line): \(c.file.text(c.range).firstLine) → \(c.status.description)\n")
                case .output(let text):
                    out.write(text)
                case .diagnostic(let d):
                    out.flush()
                    printError(renderer.render(d))
                default:
                    break
                }
            }
            let report: RunReport
            if path == "-" {
                let bytes = readStandardInput()
                report = Interpreter.run(file: SourceFile(name: "<stdin>", bytes: bytes), options: options, observer: observer)
            } else {
                report = Interpreter.run(path: path, options: options, observer: observer)
            }
            out.flush()
            passed += report.passed
            failed += report.failed
            exitCode = Self.combine(exitCode, report.exitCode)
        }
        out.write("\(passed) passed, \(failed) failed\n")
        out.flush()
        if exitCode != 0 { throw ExitCode(exitCode) }
    }

    /// The most telling code across files: missing file, then syntax, then failure.
    static func combine(_ a: Int32, _ b: Int32) -> Int32 {
        let rank: [Int32: Int] = [0: 0, 1: 1, 65: 2, 66: 3]
        return (rank[b] ?? 0) > (rank[a] ?? 0) ? b : a
    }
}

func useColour() -> Bool {
    if getenv("NO_COLOR") != nil { return false }
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

/// Buffers standard output so a million verbose lines are not a million writes.
struct OutputBuffer {
    private var bytes: [UInt8] = []

    mutating func write(_ s: String) {
        bytes.append(contentsOf: s.utf8)
        if bytes.count > 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !bytes.isEmpty else { return }
        writeAll(1, bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}

extension String {
    var firstLine: String {
        String(split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}
