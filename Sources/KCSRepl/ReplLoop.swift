import KCSLanguage
import KeychainEngine

/// The read-eval-print logic, one line at a time, apart from the terminal:
/// it gathers the lines of a statement while a `[` is open, runs each
/// complete chunk, answers meta commands and says what to print.
public struct ReplLoop {
    /// Where a piece of output goes.
    public enum Stream: Sendable { case output, error }

    /// What to do after a line.
    public enum Step: Equatable, Sendable {
        /// Keep reading the same statement (a `[` is open).
        case more
        /// A chunk is done; `history` is what to remember of it, if anything.
        case done(history: String?)
        case quit
    }

    public private(set) var state = ReplState()
    /// Lines of an unfinished statement.
    public private(set) var pending: [String] = []
    private let renderer: DiagnosticRenderer
    private let write: (String, Stream) -> Void

    public static let prompt = "kcs> "
    public static let continuationPrompt = "...> "

    public init(colour: Bool = false, write: @escaping (String, Stream) -> Void) {
        self.renderer = DiagnosticRenderer(colour: colour)
        self.write = write
    }

    /// The prompt for the next line.
    public var prompt: String { pending.isEmpty ? Self.prompt : Self.continuationPrompt }

    /// What completion should know now.
    public var completer: Completer { Completer(world: state.session.world) }

    /// The earlier lines of an unfinished statement, each ended by a
    /// newline: kept as lines come (made anew for each line read, a pasted
    /// list of n lines copied n² bytes).
    public private(set) var pendingText = ""
    /// What is known of the pending lines without parsing them again.
    private var scan = PendingScan()

    /// The pending lines' bytes, those the last parse read, the brackets
    /// open after them (each line lexed once) and the bytes parsed in all.
    struct PendingScan {
        var bytes = 0, parsedBytes = 0, depth = 0
        /// Bytes parsed since the session started (for tests).
        var parsed = 0
    }

    /// Pending text this short is parsed again at each line, so an error
    /// shows as soon as its line is typed; past it, only once it doubles.
    static let reparsedBytes = 4 << 10

    /// Bytes parsed to read the lines fed so far (for tests).
    var bytesParsed: Int { scan.parsed }

    /// Ctrl-C: forget the unfinished statement.
    public mutating func interrupt() { forgetPending() }

    private mutating func forgetPending() {
        pending.removeAll()
        pendingText = ""
        scan = PendingScan(parsed: scan.parsed)
    }

    /// Whether Ctrl-C was pressed while an input runs (the terminal's
    /// handler sets it); nil where nothing can interrupt.
    public var interruption: (@Sendable () -> Bool)?
    /// Lowers the Ctrl-C flag: after a run it stopped, so that a second
    /// Ctrl-C can stop the showing of its report.
    public var clearInterruption: (@Sendable () -> Void)?

    /// Runs a chunk, and says so when Ctrl-C stopped it.
    private mutating func runChunk(_ file: SourceFile, loaded: Bool = false) -> (report: RunReport, events: [RunEvent]) {
        let ran = state.run(file, loaded: loaded, interruption: interruption)
        if ran.report.interrupted {
            write("interrupted: the input was taken back\n", .error)
            // The report is shown next; a second Ctrl-C stops that (found by
            // adversarial testing: 627,385 call lines after the first).
            clearInterruption?()
        }
        return ran
    }

    /// Runs a chunk and shows what it reported.
    @discardableResult
    private mutating func runAndShow(_ file: SourceFile, loaded: Bool = false,
                                     hiding: Set<SourceRange> = []) -> RunReport {
        let (report, events) = runChunk(file, loaded: loaded)
        show(events.filter { event in
            guard case .diagnostic(let d) = event, let range = d.range else { return true }
            return !hiding.contains(range)
        }, of: file, notShown: report.droppedDiagnostics, interrupted: report.interrupted)
        return report
    }

    /// Words that act as commands on a line of their own, as in Python and
    /// OPA: `help [TOPIC]`, `quit`, `exit`. No statement starts with them.
    static let bareCommands = ["help": ":help", "quit": ":quit", "exit": ":quit"]

    /// Takes one line of input.
    public mutating func feed(_ line: String) -> Step {
        if pending.isEmpty {
            let trimmed = line.trimmingSpaces
            if trimmed.isEmpty { return .done(history: nil) }
            if trimmed.hasPrefix(":") { return meta(trimmed) }
            let word = trimmed.split(separator: " ", maxSplits: 1).first.map(String.init) ?? trimmed
            if let command = Self.bareCommands[word], command == ":help" || word == trimmed {
                _ = meta(command + trimmed.dropFirst(word.count))
                return command == ":quit" ? .quit : .done(history: line)
            }
        }
        pending.append(line)
        pendingText += line + "\n"
        scan.bytes += line.utf8.count + 1
        let brackets = Self.brackets(in: line)
        scan.depth += brackets.depth
        // A line that lexes cleanly and leaves a list open does not end the
        // statement: past a few lines the text is parsed again only when it
        // doubles (an error inside the list then shows at the latest as the
        // list closes). Parsing all pending lines at each made a pasted list
        // of n lines cost n² (adversarial run 29's note on the REPL).
        if brackets.clean, scan.depth > 0, scan.bytes > Self.reparsedBytes, scan.bytes < 2 * scan.parsedBytes {
            return .more
        }
        scan.parsedBytes = scan.bytes
        scan.parsed += scan.bytes
        let text = pending.joined(separator: "\n")
        let file = SourceFile(name: "<repl>", text: text)
        let (program, diagnostics) = Parser.parse(file)
        // Keep reading while the only trouble is that the input stopped early.
        let early = diagnostics.filter { Self.isEarlyEnd($0, in: file) }
        if !diagnostics.isEmpty && early.count == diagnostics.count { return .more }
        return finish(file, program.statements.isEmpty && diagnostics.isEmpty,
                      hiding: Set(early.compactMap(\.range)))
    }

    /// Ctrl-D: with a list open, close it (and any list around it) and run
    /// the statement rather than drop it. Returns nil when nothing was pending.
    public mutating func endOfInput() -> Step? {
        guard !pending.isEmpty else { return nil }
        var text = pending.joined(separator: "\n")
        // Each ']' closes one open list; a statement nests at most a few.
        for _ in 0..<8 {
            let (_, diagnostics) = Parser.parse(SourceFile(name: "<repl>", text: text))
            guard diagnostics.contains(where: \.isIncompleteInput) else { break }
            text += "]"
        }
        pending = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let file = SourceFile(name: "<repl>", text: text)
        let (program, diagnostics) = Parser.parse(file)
        return finish(file, program.statements.isEmpty && diagnostics.isEmpty, hiding: [])
    }

    /// Runs a complete chunk (a comment alone runs nothing) and forgets it
    /// as pending input. Diagnostics at `hiding` are not shown: the input
    /// stopped early there only because another error ended the chunk.
    private mutating func finish(_ file: SourceFile, _ onlyComments: Bool, hiding: Set<SourceRange>) -> Step {
        let history = Self.historyEntry(pending)
        forgetPending()
        if onlyComments { return .done(history: history) }
        runAndShow(file, hiding: hiding)
        return .done(history: history)
    }

    /// The brackets a line opens (less those it closes), and whether the
    /// lexer reads it without an error.
    static func brackets(in line: String) -> (depth: Int, clean: Bool) {
        var lexer = Lexer(file: SourceFile(name: "<repl>", text: line))
        var depth = 0
        while true {
            switch lexer.next().kind {
            case .end: return (depth, lexer.diagnostics.isEmpty)
            case .leftBracket: depth += 1
            case .rightBracket: depth -= 1
            default: break
            }
        }
    }

    /// Whether a diagnostic only says that the input ended (inside a list):
    /// more lines may still mend it.
    static func isEarlyEnd(_ d: Diagnostic, in file: SourceFile) -> Bool {
        if d.isIncompleteInput { return true }
        guard d.code == .expectedToken, let range = d.range else { return false }
        // "expected ',' or ']', found the end of the input": nothing but
        // blanks after the place it points at.
        return file.bytes[min(range.start, file.bytes.count)...].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    /// A chunk as one history line when that keeps its meaning (no comment
    /// cut short by the join), else its last line.
    static func historyEntry(_ lines: [String]) -> String? {
        guard let last = lines.last else { return nil }
        if lines.count == 1 { return last }
        if lines.dropLast().contains(where: { $0.contains("#") }) { return last }
        return lines.map(\.trimmingSpaces).joined(separator: " ")
    }

    // MARK: Printing

    /// Shows a chunk's events. As `kcs run` shows a file's, the first
    /// ``BatchRunner/shownDiagnostics`` diagnostics are shown (and the one
    /// that stopped the run at a limit), the rest counted in one KCS009
    /// note; Ctrl-C stops the showing. A `:load` printed every one of a
    /// file's 500,000 errors, 209 MB over a minute, and Ctrl-C did not stop
    /// it (adversarial 21, F10). `notShown` counts diagnostics the run
    /// counted but did not report.
    private func show(_ events: [RunEvent], of file: SourceFile, notShown: Int, interrupted: Bool) {
        var shown = 0, rest = notShown
        for event in events {
            // The Ctrl-C that stopped the run was lowered, so its report
            // (what ran, and where it stopped) is shown, within the cap
            // (hiding it was a regression, found by review); a new one
            // stops the showing.
            if let interruption, interruption() {
                write("interrupted: the rest of what it reported is not shown\n", .error)
                return
            }
            switch event {
            // Names and strings from the input (a :load-ed file) never reach the terminal raw.
            case .call(let c): write(TerminalText.escaped(Self.describe(c)) + "\n", .output)
            case .output(let text): write(TerminalText.escaped(text, keepingLayout: true), .output)
            case .expectationPassed: write("ok\n", .output)
            case .diagnostic(let d):
                if shown < BatchRunner.shownDiagnostics || d.code == .runLimit {
                    write(renderer.render(d), .error)
                    shown += 1
                } else {
                    rest += 1
                }
            }
        }
        if rest > 0 { write(renderer.render(BatchRunner.moreDiagnostics(rest, in: file.name, outputLimit: nil)), .error) }
    }

    /// A call as every front end prints it (``CallLine``).
    static func describe(_ c: CallRecord) -> String { CallLine.text(c) }

    // MARK: Meta commands

    private mutating func meta(_ line: String) -> Step {
        let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        let command = parts.first.map(String.init) ?? line
        let argument = parts.count > 1 ? Self.unquoted(String(parts[1]).trimmingSpaces) : ""
        switch command {
        case ":help", ":h", ":?":
            write(Help.text(argument), .output)
        case ":load", ":l":
            load(argument)
        case ":save", ":s":
            save(argument, replacing: false)
        case ":save!", ":s!":
            save(argument, replacing: true)
        case ":undo", ":u":
            if let entry = state.undo() {
                let first = TerminalText.escaped(entry.file.lineText(1))
                write("undone: \(entry.loaded ? ":load " + TerminalText.escaped(entry.file.name) : first)\(entry.file.lineCount > 1 && !entry.loaded ? " …" : "")\n", .output)
            } else {
                write("nothing to undo\n", .output)
            }
        case ":reset":
            state.reset()
            write("a fresh world: no teams, apps or items\n", .output)
        case ":quit", ":q", ":exit":
            return .quit
        default:
            write("unknown command '\(TerminalText.escaped(command))'; commands: \(Completer.metaCommands.joined(separator: " "))\n", .error)
        }
        return .done(history: line)
    }

    private mutating func load(_ path: String) {
        guard !path.isEmpty else { write(":load needs a file: :load FILE\n", .error); return }
        // Typed text: control characters reach the terminal escaped.
        let shown = TerminalText.escaped(path)
        let file: SourceFile
        do throws(LoadError) {
            file = try FileSystemLoader().read(path)
        } catch {
            var message = "cannot read '\(shown)': \(TerminalText.escaped(error.reason))"
            if case .notFound = error { message = "no such file: '\(shown)'" }
            write("kcs: error: \(message)\n", .error)
            return
        }
        let report = runAndShow(file, loaded: true)
        if report.hasSyntaxErrors {
            write("nothing from \(shown) was run\n", .error)
        } else if !report.interrupted {
            // Errors are counted too: a file that only hit errors does not read "0 failed" alone.
            let errors = report.errors
            write("loaded \(shown): \(Self.count(report.statements, "statement")), \(Self.count(report.calls, "call")), "
                  + "\(Self.count(report.passed, "expectation")) held, \(report.failed) failed"
                  + (errors > 0 ? ", \(Self.count(errors, "error"))" : "") + "\n", .output)
        }
    }

    /// `:save FILE` creates FILE and never replaces one; `:save! FILE`
    /// replaces it. Either way the file is written whole or not at all.
    private func save(_ path: String, replacing: Bool) {
        guard !path.isEmpty else { write(":save needs a file: :save FILE\n", .error); return }
        let text = state.script(name: path)
        do throws(WriteError) {
            try AtomicFile.write(Array(text.utf8), to: path, mode: replacing ? .replace : .createOnly)
        } catch {
            let shown = TerminalText.escaped(path)
            if case .exists = error {
                write("kcs: error: '\(shown)' already exists; ':save! \(shown)' replaces it\n", .error)
            } else {
                write("kcs: error: \(TerminalText.escaped(error.message))\n", .error)
            }
            return
        }
        write("saved \(Self.count(state.entries.count, "input")) to \(TerminalText.escaped(path)); "
              + "run it with: kcs run \(TerminalText.shellWord(path))\n", .output)
    }

    /// "1 call", "2 calls".
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// `"a b.kcs"` → `a b.kcs`; anything else as written.
    static func unquoted(_ s: String) -> String {
        if s.count >= 2, s.hasPrefix("\""), s.hasSuffix("\"") { return String(s.dropFirst().dropLast()) }
        return s
    }
}

extension String {
    /// Without leading and trailing blanks.
    var trimmingSpaces: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        var s = Substring(self)
        while let c = s.first, blank(c) { s.removeFirst() }
        while let c = s.last, blank(c) { s.removeLast() }
        return String(s)
    }
}
