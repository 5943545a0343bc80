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

    /// The earlier lines of an unfinished statement, each ended by a newline.
    public var pendingText: String { pending.map { $0 + "\n" }.joined() }

    /// Ctrl-C: forget the unfinished statement.
    public mutating func interrupt() { pending.removeAll() }

    /// Takes one line of input.
    public mutating func feed(_ line: String) -> Step {
        if pending.isEmpty {
            let trimmed = line.trimmingSpaces
            if trimmed.isEmpty { return .done(history: nil) }
            if trimmed.hasPrefix(":") { return meta(trimmed) }
        }
        pending.append(line)
        let text = pending.joined(separator: "\n")
        let file = SourceFile(name: "<repl>", text: text)
        let (program, diagnostics) = Parser.parse(file)
        // Keep reading while the only trouble is that the input stopped early.
        if !diagnostics.isEmpty && diagnostics.allSatisfy(\.isIncompleteInput) { return .more }
        let lines = pending
        pending.removeAll()
        let history = Self.historyEntry(lines)
        if program.statements.isEmpty && diagnostics.isEmpty { return .done(history: history) }  // a comment
        let (_, events) = state.run(file)
        show(events)
        return .done(history: history)
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

    private func show(_ events: [RunEvent]) {
        for event in events {
            switch event {
            // Names and strings from the input (a :load-ed file) never reach the terminal raw.
            case .call(let c): write(TerminalText.escaped(Self.describe(c)) + "\n", .output)
            case .output(let text): write(TerminalText.escaped(text, keepingLayout: true), .output)
            case .expectationPassed: write("ok\n", .output)
            case .diagnostic(let d): write(renderer.render(d), .error)
            }
        }
    }

    /// A call's status, name and number, and a one-line summary.
    static func describe(_ c: CallRecord) -> String {
        let n = c.count, items = c.count == 1 ? "item" : "items"
        let what: String
        if c.status == .success {
            switch c.operation {
            case .add: what = "added \(n) \(c.itemClass?.rawValue ?? "item")"
            case .find: what = "found \(n) \(items)"
            case .update: what = "updated \(n) \(items)"
            case .delete: what = "deleted \(n) \(items)"
            }
        } else {
            let verb = ["add": "added", "find": "found", "update": "updated", "delete": "deleted"][c.operation.rawValue] ?? "done"
            what = "nothing \(verb); 'explain' says why"
        }
        return "\(c.operation.functionName) → \(c.status.description): \(what)"
    }

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
                let first = entry.file.lineText(1)
                write("undone: \(entry.loaded ? ":load " + entry.file.name : first)\(entry.file.lineCount > 1 && !entry.loaded ? " …" : "")\n", .output)
            } else {
                write("nothing to undo\n", .output)
            }
        case ":reset":
            state.reset()
            write("a fresh world: no teams, apps or items\n", .output)
        case ":quit", ":q", ":exit":
            return .quit
        default:
            write("unknown command '\(command)'; commands: \(Completer.metaCommands.joined(separator: " "))\n", .error)
        }
        return .done(history: line)
    }

    private mutating func load(_ path: String) {
        guard !path.isEmpty else { write(":load needs a file: :load FILE\n", .error); return }
        let file: SourceFile
        do throws(LoadError) {
            file = try FileSystemLoader().read(path)
        } catch {
            var message = "cannot read '\(path)'"
            if case .notFound = error { message = "no such file: '\(path)'" }
            if case .unreadable(_, let reason) = error { message += ": \(reason)" }
            write("kcs: error: \(message)\n", .error)
            return
        }
        let (report, events) = state.run(file, loaded: true)
        show(events)
        if report.hasSyntaxErrors {
            write("nothing from \(path) was run\n", .error)
        } else {
            write("loaded \(path): \(Self.count(report.statements, "statement")), \(Self.count(report.calls, "call")), "
                  + "\(Self.count(report.passed, "expectation")) held, \(report.failed) failed\n", .output)
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
        write("saved \(Self.count(state.entries.count, "input")) to \(path); run it with: kcs run \(path)\n", .output)
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
