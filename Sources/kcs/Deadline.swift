import Foundation
import KCSLanguage

/// The time limit of a command that reads a project (`lint --project`,
/// `import xcode`): reading it, resolving every target and checking its
/// code run as one piece of work with no statement boundary to stop at, so
/// a watchdog ends the process when the limit passes, with a located KCS311
/// and exit 1, as `kcs run` does (a project built to be slow ran for
/// minutes under `--untrusted --timeout 1`; found by adversarial testing).
/// Nothing is half-written: these commands print as they finish, and
/// `-o` files are written whole or not at all.
enum Deadline {
    static func start(seconds: Double?, reading path: String) {
        guard let seconds, seconds.isFinite, seconds > 0 else { return }
        let message = DiagnosticRenderer(colour: useColour(.auto)).render(Diagnostic(
            .runLimit, "reading '\(TerminalText.escaped(path))' took longer than its time limit of \(seconds) s; stopped",
            hint: "a real project is read in seconds: --timeout gives more time"))
        let bytes = Array(message.utf8)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: seconds)
            writeAll(2, bytes)
            exit(ExitStatus.failure.rawValue)
        }
    }
}
