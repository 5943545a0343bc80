#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import KCSLanguage

/// The interactive session behind `kcs repl` and a bare `kcs` on a terminal.
public enum Repl {
    /// Runs the REPL on the terminal until `:quit` or Ctrl-D; returns how
    /// the session ended. `colour` is the command line's decision (`--color`,
    /// `NO_COLOR`, `TERM=dumb`).
    public static func run(arguments: [String] = [], colour: Bool) -> Verdict {
        let editor = LineEditor(historyPath: historyPath())
        var loop = ReplLoop(colour: colour) { text, stream in
            FileWriter.writeAll(stream == .output ? 1 : 2, text)
        }
        // Ctrl-C while an input runs stops it (the flag is cleared at every read).
        loop.interruption = { ReadlineHooks.interrupted != 0 }
        loop.clearInterruption = { ReadlineHooks.interrupted = 0 }
        FileWriter.writeAll(1, "kcs: keychain scenarios. :help lists statements and commands, Ctrl-D leaves.\n")
        reading: while true {
            switch editor.read(prompt: loop.prompt, completer: loop.completer, pending: loop.pendingText) {
            case .end:
                FileWriter.writeAll(1, "\n")
                // Inside an open list, Ctrl-D closes it and runs the statement.
                guard let step = loop.endOfInput() else { break reading }
                if case .done(let history?) = step { editor.remember(history) }
            case .interrupted:
                loop.interrupt()
            case .line(let line):
                switch loop.feed(line) {
                case .more: continue
                case .done(let history): if let history { editor.remember(history) }
                case .quit: editor.remember(line); break reading
                }
            }
        }
        if !editor.saveHistory(), let path = historyPath() {
            FileWriter.writeAll(2, "kcs: warning: could not write the history file '\(path)'\n")
        }
        return .passed
    }

    /// `$KCS_HISTORY`, else `~/.kcs_history`; an empty `KCS_HISTORY` keeps no history.
    static func historyPath() -> String? {
        if let p = getenv("KCS_HISTORY") {
            let path = String(cString: p)
            return path.isEmpty ? nil : path
        }
        guard let home = getenv("HOME") else { return nil }
        return String(cString: home) + "/.kcs_history"
    }
}
