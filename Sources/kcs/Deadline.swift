import Foundation
import KCSLanguage

/// The time limit of reading a project (`lint --project`, `import xcode`):
/// reading it, resolving every target and checking its code run as one
/// piece of work with no statement boundary to stop at, so a watchdog ends
/// the process when the limit passes, with a located KCS311 and exit 1, as
/// `kcs run` does (a project built to be slow ran for minutes under
/// `--untrusted --timeout 1`; found by adversarial testing). The process
/// ends at once (`_exit`): nothing more is printed after the error, and
/// nothing is half-written (these commands print as they finish; `-o`
/// files are written whole or not at all). `cancel()` when the project is
/// done, so what the command does next (scripts given with `--project`)
/// has its own limit.
final class Deadline: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    /// Starts the watchdog; nil without a limit.
    static func start(seconds: Double?, reading path: String) -> Deadline? {
        guard let seconds, seconds.isFinite, seconds > 0 else { return nil }
        let message = DiagnosticRenderer(colour: useColour(.auto)).render(Diagnostic(
            .runLimit, "reading '\(TerminalText.escaped(path))' took longer than its time limit of \(seconds) s; stopped",
            hint: "a real project is read in seconds: --timeout gives more time"))
        let bytes = Array(message.utf8)
        let deadline = Deadline()
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: seconds)
            deadline.lock.lock()
            guard !deadline.cancelled else { deadline.lock.unlock(); return }
            writeAll(2, bytes)
            _exit(ExitStatus.failure.rawValue)
        }
        return deadline
    }

    /// The work finished in time: the watchdog does nothing.
    func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }
}
