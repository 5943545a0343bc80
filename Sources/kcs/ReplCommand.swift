import ArgumentParser
import KCSRepl
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `kcs repl`: explore a keychain interactively.
struct ReplCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Explore a keychain interactively (GNU readline); without a terminal, runs standard input.",
        discussion: """
            History is kept in $KCS_HISTORY (default ~/.kcs_history). Type :help for statements and commands. \
            When standard input is not a terminal, no prompts are printed and kcs behaves exactly like 'kcs run -'.
            """
    )

    @OptionGroup var colour: ColourOptions

    func run() throws {
        // Piped input is a script: run it as the batch runner would.
        guard isatty(0) != 0 else {
            try Run.parse(["-", "--color", colour.mode.rawValue]).run()
            return
        }
        try ExitStatus.finish(Repl.run(arguments: [], colour: colour.enabled(for: 1)))
    }
}
