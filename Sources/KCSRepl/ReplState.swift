import KCSLanguage

/// The REPL's memory apart from the terminal: the session, and each chunk
/// of input that ran with the snapshot taken before it, for `:undo` and
/// `:save`.
public struct ReplState: Sendable {
    /// The world and the last call, as every statement so far left them.
    public private(set) var session = ReplState.freshSession()
    /// What ran, oldest first.
    public private(set) var entries: [Entry] = []

    /// One chunk that ran: typed input or a `:load`ed file.
    public struct Entry: Sendable {
        /// The session before the chunk ran: `:undo` goes back to it.
        var before: Session
        public var file: SourceFile
        /// Everything the run reported (calls, passed expectations, errors), in order.
        public var events: [RunEvent]
        /// Whether the chunk came from `:load`.
        public var loaded: Bool
    }

    public init() {}

    /// Runs a chunk into the session and reports its events. A chunk with a
    /// syntax error changes nothing and is not remembered.
    public mutating func run(_ file: SourceFile, loaded: Bool = false,
                             loader: any SourceLoader = FileSystemLoader()) -> (report: RunReport, events: [RunEvent]) {
        let before = session
        let collected = EventCollector()
        let report = session.run(file: file, loader: loader,
                                 options: RunOptions(reportCalls: true, reportPasses: true),
                                 observer: { collected.events.append($0) })
        if !report.hasSyntaxErrors {
            entries.append(Entry(before: before, file: file, events: collected.events, loaded: loaded))
        }
        return (report, collected.events)
    }

    /// Takes back the last chunk; returns it, or nil when nothing ran.
    public mutating func undo() -> Entry? {
        guard let last = entries.popLast() else { return nil }
        session = last.before
        return last
    }

    /// A fresh world with nothing to undo or save.
    public mutating func reset() {
        session = Self.freshSession()
        entries = []
    }

    /// A session that checks each call for the common mistakes, so lint
    /// warnings appear as you type, as they do in `kcs run`.
    static func freshSession() -> Session {
        var session = Session()
        session.lints = true
        return session
    }

    /// The session as a runnable script (see ``ScriptWriter``).
    public func script(name: String) -> String {
        ScriptWriter.script(entries, name: name)
    }
}

/// Holds events while a run reports them (the observer is an escaping closure).
private final class EventCollector {
    var events: [RunEvent] = []
}
