import KCSLanguage

/// The interactive session behind `kcs repl` (issue 3: not built yet).
public enum Repl {
    /// Runs the REPL on the terminal; returns the process exit code.
    public static func run(arguments: [String]) -> Int32 {
        0
    }
}
