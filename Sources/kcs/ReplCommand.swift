import ArgumentParser
import KCSRepl

/// `kcs repl`: explore a keychain interactively.
struct ReplCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Explore a keychain interactively (GNU readline); without a terminal, runs standard input."
    )

    func run() throws {
        let code = Repl.run(arguments: [])
        if code != 0 { throw ExitCode(code) }
    }
}
