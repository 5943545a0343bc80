import KCSLanguage
import KeychainEngine

/// The REPL's memory apart from the terminal: the session, and each chunk
/// of input that ran, for `:undo` and `:save`.
///
/// No copy of the session is kept per chunk: a kept copy makes the chunk's
/// first change copy the whole world, so a line would cost more the larger
/// the world. A chunk that parses alone runs without one (it cannot fail on
/// syntax half-way), and `:undo` replays the chunks before the last into a
/// fresh session instead of restoring a copy.
public struct ReplState: Sendable {
    /// The world and the last call, as every statement so far left them.
    public private(set) var session = ReplState.freshSession()
    /// What ran, oldest first.
    public private(set) var entries: [Entry] = []
    /// Sessions as they were after the first `count` entries, made while
    /// `:undo` replays (never while typing, so a line costs the same in any
    /// world): the next `:undo` replays from the nearest one, not from the
    /// start (2,000 undos took 52 s; found by adversarial testing).
    private var checkpoints: [(count: Int, session: Session)] = []
    static let maxCheckpoints = 16

    /// One chunk that ran: typed input or a `:load`ed file.
    public struct Entry: Sendable {
        public var file: SourceFile
        /// What read its includes and entitlements files, to replay it.
        var loader: any SourceLoader
        /// Everything the run reported (calls, passed expectations, errors), in order.
        public var events: [RunEvent]
        /// Whether the chunk came from `:load`.
        public var loaded: Bool
    }

    /// The files the chunks read, each version kept once however many
    /// chunks read it (40 includes of one 7 MiB file kept 40 copies; found
    /// by adversarial testing).
    private let snapshots = SnapshotStore()

    public init() {}

    /// Runs a chunk into the session and reports its events. A chunk with a
    /// syntax error changes nothing and is not remembered.
    ///
    /// `interruption` is asked before every statement (Ctrl-C): a chunk it
    /// stops is taken back whole, as `:undo` takes one back, so the world
    /// never holds half of an input (a `:load` of 40,000 statements could
    /// only be ended by killing the REPL; found by adversarial testing).
    public mutating func run(_ file: SourceFile, loaded: Bool = false, loader: any SourceLoader = FileSystemLoader(),
                             interruption: (@Sendable () -> Bool)? = nil) -> (report: RunReport, events: [RunEvent]) {
        let collected = EventCollector()
        // What it reads is kept as it was read: `:undo` replays the chunk
        // with the same bytes (re-read from disk, an include changed since
        // made an undo silently remove what it had added; found by
        // adversarial testing).
        let snapshot = SnapshotLoader(loader, store: snapshots)
        var options = Self.options(for: file, into: session, reporting: true)
        options.interruption = interruption
        let report = session.run(file: file, loader: snapshot, options: options, observer: { collected.events.append($0) })
        if !report.hasSyntaxErrors {
            entries.append(Entry(file: file, loader: snapshot, events: collected.events, loaded: loaded))
            if report.interrupted { _ = undo() }
        }
        return (report, collected.events)
    }

    /// Takes back the last chunk; returns it, or nil when nothing ran.
    public mutating func undo() -> Entry? {
        guard let last = entries.popLast() else { return nil }
        // The chunks before it, again, from the nearest checkpoint or a fresh
        // session: the same statements give the same world (the engine's
        // results do not depend on its hash seeds; `wait` is the scenario's
        // clock, not the wall's).
        checkpoints.removeAll { $0.count > entries.count }
        let from = checkpoints.last?.count ?? 0
        var replayed = checkpoints.last?.session ?? Self.freshSession()
        let spacing = max(16, (entries.count - from) / Self.maxCheckpoints)
        for done in from..<entries.count {
            let entry = entries[done]
            _ = replayed.run(file: entry.file, loader: entry.loader, options: Self.options(for: entry.file, into: replayed, reporting: false))
            if done + 1 < entries.count, (done + 1 - from) % spacing == 0 { checkpoints.append((done + 1, replayed)) }
        }
        if checkpoints.count > Self.maxCheckpoints { checkpoints.removeFirst(checkpoints.count - Self.maxCheckpoints) }
        session = replayed
        return last
    }

    /// How a chunk runs: a chunk that parses alone and includes nothing
    /// cannot fail on syntax half-way, so no copy of the session is kept to
    /// roll back to (one would make the chunk's first change copy the world).
    static func options(for file: SourceFile, into session: Session, reporting: Bool) -> RunOptions {
        var options = RunOptions(reportCalls: reporting, reportPasses: reporting)
        options.restoresOnSyntaxError = !session.parsesCleanWithoutIncludes(file, limits: options.limits)
        return options
    }

    /// A fresh world with nothing to undo or save.
    public mutating func reset() {
        session = Self.freshSession()
        entries = []
        checkpoints = []
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

/// A loader that keeps every file it read, as read: asked again, it answers
/// the same bytes (or the same error), whatever the disk holds now.
final class SnapshotLoader: SourceLoader, Sendable {
    private let base: any SourceLoader
    private let files = Locked<[String: Result<SourceFile, LoadError>]>([:])
    private let store: SnapshotStore

    init(_ base: any SourceLoader, store: SnapshotStore = SnapshotStore()) {
        self.base = base
        self.store = store
    }

    func resolve(_ path: String, relativeTo including: String?) -> String { base.resolve(path, relativeTo: including) }

    func read(_ resolved: String) throws(LoadError) -> SourceFile {
        let result: Result<SourceFile, LoadError>
        if let known = files.withLock({ $0[resolved] }) {
            result = known
        } else {
            do throws(LoadError) { result = .success(store.shared(try base.read(resolved))) } catch { result = .failure(error) }
            files.withLock { $0[resolved] = $0[resolved] ?? result }
        }
        return try result.get()
    }

    func canonical(_ resolved: String) -> String { base.canonical(resolved) }
    func contents(ofDirectory resolved: String) -> [String]? { base.contents(ofDirectory: resolved) }
    func isDirectory(_ resolved: String) -> Bool { base.isDirectory(resolved) }
    func isFile(_ resolved: String) -> Bool { base.isFile(resolved) }
    func fileSize(_ resolved: String) -> Int? { base.fileSize(resolved) }
}

/// The versions of files snapshots hold, by name: a version read again is
/// the one already kept.
final class SnapshotStore: Sendable {
    private let versions = Locked<[String: [SourceFile]]>([:])

    func shared(_ file: SourceFile) -> SourceFile {
        versions.withLock { all in
            if let same = all[file.name, default: []].first(where: { $0.bytes == file.bytes }) { return same }
            all[file.name, default: []].append(file)
            return file
        }
    }
}
