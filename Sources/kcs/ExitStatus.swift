import ArgumentParser
import KCSLanguage

/// kcs's exit statuses, with the sysexits.h names where one fits. The one
/// place a process exit number is chosen: libraries say what happened (a
/// ``Verdict``), the command line says how it exits (grammar.md §5 lists
/// them; the commands' help interpolates these cases, never the numbers).
enum ExitStatus: Int32, CaseIterable {
    /// Every expectation held; nothing to report.
    case success = 0
    /// An expectation failed, a call hit a runtime error, a file would change
    /// (`fmt --check`), or lint warned.
    case failure = 1
    /// EX_USAGE: the command was wrong (a configuration that does not exist).
    case usage = 64
    /// EX_DATAERR: the input does not parse.
    case dataError = 65
    /// EX_NOINPUT: an input could not be read.
    case noInput = 66

    init(_ verdict: Verdict) {
        switch verdict {
        case .passed: self = .success
        case .failed: self = .failure
        case .invalidRequest: self = .usage
        case .invalidInput: self = .dataError
        case .missingInput: self = .noInput
        }
    }

    /// Ends the command with the status `verdict` maps to (returns when it passed).
    static func finish(_ verdict: Verdict) throws {
        if verdict != .passed { throw ExitCode(ExitStatus(verdict).rawValue) }
    }
}
