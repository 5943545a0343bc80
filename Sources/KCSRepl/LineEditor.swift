#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CReadline

/// GNU readline behind the REPL: line editing, a bounded history file, tab
/// completion through ``Completer``, and Ctrl-C that abandons the line.
///
/// Readline calls back through plain C function pointers that carry no
/// context, so what they need lives in ``ReadlineHooks``; only one editor
/// exists, on the main thread.
final class LineEditor {
    /// What one read produced.
    enum Read: Equatable {
        case line(String)
        /// Ctrl-C: the line was abandoned.
        case interrupted
        /// Ctrl-D on an empty line, or the terminal went away.
        case end
    }

    /// Lines kept in the history file.
    static let historyLimit: Int32 = 1000

    private let historyPath: String?
    private var lastHistoryEntry: String?
    /// Entries this session added, not yet in the history file.
    private var unsaved: Int32 = 0

    init(historyPath: String?) {
        self.historyPath = historyPath
        // Touch the flags before the handlers can, so their lazy
        // initialisation never happens inside a signal handler.
        ReadlineHooks.interrupted = 0
        ReadlineHooks.hungUp = 0
        kcs_rl_configure(ReadlineHooks.name, ReadlineHooks.wordBreaks, ReadlineHooks.complete, ReadlineHooks.getc)
        _ = kcs_install_sigint(ReadlineHooks.onInterrupt)
        _ = kcs_install_hangup(ReadlineHooks.onHangup)
        using_history()
        stifle_history(Self.historyLimit)
        if let historyPath, Self.isReadableHistory(historyPath) { _ = read_history(historyPath) }
    }

    /// The history file is read only when it is a regular file of sane size:
    /// `KCS_HISTORY=/dev/zero` or a FIFO must not hang or fill the REPL.
    static func isReadableHistory(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return info.st_mode & S_IFMT == S_IFREG && info.st_size <= 16 << 20
    }

    /// Reads a line with `prompt`; completion sees `completer` and the
    /// earlier lines of an unfinished statement.
    func read(prompt: String, completer: Completer, pending: String) -> Read {
        ReadlineHooks.completer = completer
        ReadlineHooks.pending = pending
        ReadlineHooks.interrupted = 0
        ReadlineHooks.cancelled = false
        guard let raw = readline(prompt) else { return .end }
        defer { free(raw) }
        if ReadlineHooks.cancelled { return .interrupted }
        return .line(String(cString: raw))
    }

    /// Remembers an entry, skipping a repeat of the one before.
    func remember(_ entry: String) {
        guard !entry.isEmpty, entry != lastHistoryEntry else { return }
        add_history(entry)
        lastHistoryEntry = entry
        unsaved = min(unsaved + 1, Self.historyLimit)
    }

    /// Adds this session's new entries to the end of the history file, so
    /// two sessions on one file both keep theirs (rewriting the whole file
    /// would drop what the other one saved meanwhile), then trims the file
    /// to ``historyLimit`` lines. Returns false if it could not be written.
    @discardableResult
    func saveHistory() -> Bool {
        guard let historyPath, unsaved > 0 else { return true }
        var info = stat()
        if stat(historyPath, &info) == 0, info.st_mode & S_IFMT != S_IFREG { return false }
        if access(historyPath, F_OK) != 0 {
            // append_history does not create the file.
            let fd = open(historyPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            guard fd >= 0 else { return false }
            close(fd)
        }
        guard append_history(unsaved, historyPath) == 0 else { return false }
        unsaved = 0
        _ = history_truncate_file(historyPath, Self.historyLimit)
        return true
    }
}

/// The state readline's C callbacks reach: set before each read, used only
/// on the main thread (and the interrupt flag by the signal handler).
enum ReadlineHooks {
    nonisolated(unsafe) static var completer = Completer()
    nonisolated(unsafe) static var pending = ""
    /// Set by the SIGINT handler.
    nonisolated(unsafe) static var interrupted: sig_atomic_t = 0
    /// Set when the line being returned was abandoned with Ctrl-C.
    nonisolated(unsafe) static var cancelled = false
    /// Set by the SIGHUP/SIGTERM handler: the terminal is gone; reads end.
    nonisolated(unsafe) static var hungUp: sig_atomic_t = 0

    nonisolated(unsafe) static let name = UnsafePointer(strdup("kcs"))
    /// Words end at blanks, quotes and the language's punctuation, so a value
    /// after `=` or inside `[` completes on its own.
    nonisolated(unsafe) static let wordBreaks = UnsafePointer(strdup(" \t\n\"=[],"))

    static let onInterrupt: @convention(c) (Int32) -> Void = { _ in
        ReadlineHooks.interrupted = 1
    }

    static let onHangup: @convention(c) (Int32) -> Void = { _ in
        ReadlineHooks.hungUp = 1
    }

    /// Reads one byte for readline. On Ctrl-C the read is interrupted; the
    /// line is then accepted (with a newline) and marked as abandoned.
    static let getc: @convention(c) (UnsafeMutablePointer<FILE>?) -> Int32 = { stream in
        let fd = stream.map { fileno($0) } ?? 0
        var byte: UInt8 = 0
        while true {
            // The terminal closed: end the read so the REPL saves and leaves.
            if ReadlineHooks.hungUp != 0 { return EOF }
            if ReadlineHooks.interrupted != 0 {
                ReadlineHooks.interrupted = 0
                ReadlineHooks.cancelled = true
                kcs_rl_point_to_end()
                return 10  // newline: readline returns the line, which the caller drops
            }
            let n = read(fd, &byte, 1)
            if n == 1 { return Int32(byte) }
            if n < 0 && errno == EINTR { continue }
            return EOF
        }
    }

    /// readline's attempted-completion function: the matches for the word
    /// between `start` and `end` of the line buffer.
    static let complete: @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = { text, start, _ in
        let word = text.map { String(cString: $0) } ?? ""
        var before = ""
        if let buffer = kcs_rl_line_buffer() {
            let count = Int(max(0, start))
            before = String(decoding: UnsafeBufferPointer(start: buffer, count: count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        let completion = ReadlineHooks.completer.complete(word, after: ReadlineHooks.pending + before)
        if completion.fileNames { return nil }  // readline completes a file name
        let matches = completion.candidates
        kcs_rl_completion_answered(matches.count == 1 && matches[0].hasSuffix("=") ? 1 : 0)
        return matchList(matches)
    }

    /// The longest prefix every match shares, in whole Unicode scalars: cut
    /// by bytes, "é1" and "è2" (both C3 …) gave a lone lead byte, inserted
    /// as U+FFFD with a string left open (adversarial run 24, F9).
    static func commonPrefix(_ matches: [String]) -> String {
        guard let first = matches.first else { return "" }
        var prefix = Array(first.unicodeScalars)
        for m in matches.dropFirst() {
            var n = 0
            for s in m.unicodeScalars {
                guard n < prefix.count, prefix[n] == s else { break }
                n += 1
            }
            prefix.removeSubrange(n...)
        }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: prefix)
        return String(out)
    }

    /// The array readline wants: the common prefix, then each match, then
    /// NULL, all malloc'ed (readline frees them).
    private static func matchList(_ matches: [String]) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        guard !matches.isEmpty else { return nil }
        let slots = matches.count == 1 ? 2 : matches.count + 2
        guard let raw = malloc(slots * MemoryLayout<UnsafeMutablePointer<CChar>?>.stride) else { return nil }
        let list = raw.bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: slots)
        list[0] = strdup(commonPrefix(matches))
        if matches.count == 1 {
            list[1] = nil
        } else {
            for (i, m) in matches.enumerated() { list[i + 1] = strdup(m) }
            list[matches.count + 1] = nil
        }
        return list
    }
}
