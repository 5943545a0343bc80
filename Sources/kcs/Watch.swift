import ArgumentParser
import Foundation
import KCSLanguage

/// `--watch`, shared by `run` and `check`.
struct WatchOptions: ParsableArguments {
    @Flag(help: "Run again whenever an input file, or a file it includes, changes. Ctrl-C stops (exit 130).")
    var watch = false

    /// Standard input cannot be read twice, so it cannot be watched.
    func validate(inputs: [String]) throws {
        if watch && inputs.contains("-") { throw ValidationError("--watch cannot watch standard input (-)") }
    }
}

/// A loader that remembers every path a run read or tried to read through
/// it (the script, its includes, entitlements files) and how the file
/// looked just before, for `--watch`: a change made while the run goes on
/// is still a change. An include that was missing is remembered too, so
/// creating it re-runs.
final class RecordingLoader: SourceLoader, @unchecked Sendable {
    private let base: any SourceLoader
    private let log: ReadLog

    /// Where the paths read are kept; shared by the loaders of one run.
    final class ReadLog: @unchecked Sendable {
        let lock = NSLock()
        var seen: [String: Watcher.Stamp?] = [:]
    }

    init(_ base: any SourceLoader, log: ReadLog = ReadLog()) {
        self.base = base
        self.log = log
    }

    /// A loader that reads through `other` (a file's own, with its root and
    /// limits) and records into the same log.
    func through(_ other: any SourceLoader) -> RecordingLoader { RecordingLoader(other, log: log) }

    func resolve(_ path: String, relativeTo including: String?) -> String {
        base.resolve(path, relativeTo: including)
    }

    /// Asked without reading: a test is no read to watch.
    func isFile(_ resolved: String) -> Bool { base.isFile(resolved) }
    func fileSize(_ resolved: String) -> Int? { base.fileSize(resolved) }

    func read(_ resolved: String) throws(LoadError) -> SourceFile {
        let stamp = Watcher.stamp(resolved)
        log.lock.lock()
        if log.seen[resolved] == nil { log.seen[resolved] = stamp }
        log.lock.unlock()
        return try base.read(resolved)
    }

    /// Each path read, with its first stamp.
    var stamps: [String: Watcher.Stamp?] {
        log.lock.lock()
        defer { log.lock.unlock() }
        return log.seen
    }
}

/// Runs, waits for a watched file to change, runs again; until Ctrl-C.
///
/// It polls: every quarter second it compares each file's size, change time
/// and inode (an editor that saves by renaming gives a new inode) with what
/// they were after the run. Polling needs no platform API and costs one
/// `stat` per file, a few dozen for a large document set.
enum Watcher {
    /// What a file looked like; nil fields when it does not exist.
    struct Stamp: Equatable {
        var size: Int64
        var seconds: Int
        var nanoseconds: Int
        var inode: UInt64
    }

    static let interval: UInt32 = 250_000  // microseconds

    static func stamp(_ path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return Stamp(size: Int64(info.st_size), seconds: Int(modified.tv_sec),
                     nanoseconds: Int(modified.tv_nsec), inode: UInt64(info.st_ino))
    }

    static func stamps(_ paths: Set<String>) -> [String: Stamp?] {
        var out: [String: Stamp?] = [:]
        for path in paths { out[path] = stamp(path) }
        return out
    }

    /// Clearing the screen is for a person at a terminal: not when output
    /// goes to a file or a pipe, nor on a terminal without the escape.
    static var clears: Bool {
        let env = ProcessInfo.processInfo.environment
        guard isatty(1) != 0, env["NO_COLOR"] == nil, let term = env["TERM"], !term.isEmpty, term != "dumb" else {
            return false
        }
        return true
    }

    /// Runs `run` over `inputs()` now and after every change, reading through
    /// `base` (the loader the command would use without `--watch`), never returning:
    /// SIGINT ends the process with 130 (128 + SIGINT), the shell convention
    /// for a program stopped by Ctrl-C, whatever the last run's result.
    static func loop(loader base: any SourceLoader, inputs: () -> [String],
                     run: (_ inputs: [String], _ loader: RecordingLoader) -> Void) -> Never {
        signal(SIGINT) { _ in _exit(130) }
        // A parent may have started us with SIGINT blocked (threads of a
        // test runner or an IDE often block it, and the mask is inherited).
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        sigprocmask(SIG_UNBLOCK, &interrupt, nil)
        var round = 1
        while true {
            let loader = RecordingLoader(base)
            // Inputs as the loader names them, so `./a.kcs` and `a.kcs` are one file.
            let files = inputs()
            var before = stamps(Set(files.map { loader.resolve($0, relativeTo: nil) }))
            run(files, loader)
            before.merge(loader.stamps) { first, _ in first }
            let watched = Set(before.keys)
            printError("kcs: watching \(watched.count) file\(watched.count == 1 ? "" : "s") for changes; Ctrl-C to stop\n")
            var changed: [String] = []
            while changed.isEmpty {
                usleep(interval)
                let now = stamps(watched)
                changed = watched.filter { now[$0] != before[$0] }.sorted()
                // A new file in a watched folder (kcs check docs/).
                changed += Set(inputs().map { loader.resolve($0, relativeTo: nil) }).subtracting(watched).sorted()
            }
            // Let an editor finish writing before reading.
            var settled = stamps(watched)
            for _ in 0..<8 {
                usleep(interval / 4)
                let again = stamps(watched)
                if again == settled { break }
                settled = again
            }
            round += 1
            let what = changed.count == 1 ? changed[0] : "\(changed[0]) and \(changed.count - 1) more"
            // The line says what changed; tools (an editor's task runner) also
            // read it as the start of a run.
            let line = "--- run \(round): \(TerminalText.escaped(what)) changed ---\n"
            writeAll(1, Array(((clears ? "\u{1B}[H\u{1B}[2J\u{1B}[3J" : "\n") + line).utf8))
        }
    }
}
