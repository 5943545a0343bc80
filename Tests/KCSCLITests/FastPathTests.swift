import Foundation
import Testing
@testable import kcs

/// `kcs run FILE…` without options skips ArgumentParser (start-up time,
/// docs/performance.md); it must mean exactly what the parser makes of it.
@Suite(.serialized)
struct FastPathTests {
    /// Command lines the fast path takes: the same settings as the parser's.
    @Test func sameSettingsAsTheParser() throws {
        for arguments in [["run", "a.kcs"], ["run", "a.kcs", "dir/b.kcs"], ["run", "-"], ["run", "help"], ["run", "a.kcs", "-"]] {
            let fast = try #require(RunSettings(fastPath: arguments[...]), "\(arguments)")
            let parsed = try #require(try KCS.parseAsRoot(arguments) as? Run, "\(arguments)")
            #expect(fast == parsed.settings, "\(arguments)")
        }
    }

    /// Everything else is left to the parser: options, `--`, other commands,
    /// no file, Markdown documents (the parser's message sends them to check).
    @Test func everythingElseGoesToTheParser() {
        for arguments in [[], ["run"], ["check", "a.kcs"], ["run", "--no-lint", "a.kcs"], ["run", "a.kcs", "-v"],
                          ["run", "--", "a.kcs"], ["run", "--help"], ["run", "a.kcs", "README.md"], ["a.kcs"],
                          ["--color", "never", "run", "a.kcs"]] {
            #expect(RunSettings(fastPath: arguments[...]) == nil, "\(arguments)")
        }
    }

    /// The same command through both paths (`--` sends the files through the
    /// parser unchanged): the same status, output and diagnostics.
    @Test func sameOutcomeThroughBothPaths() throws {
        let stdin = "team SKMME9E2Y8\napp com.x.A\nexpect default-group A SKMME9E2Y8.com.x.A\n"
        for files in [["examples/01-private-default-group.kcs"], ["Tests/Golden/duplicate.kcs"],
                      ["no/such/file.kcs"], ["examples/02-keychain-access-group.kcs", "Tests/Golden/duplicate.kcs", "-"]] {
            // Standard input only for a run that reads it: writing to a kcs
            // that has already exited would stop the tests with SIGPIPE.
            let input = files.contains("-") ? stdin : nil
            let fast = try BinaryRunner.run(["run"] + files, stdin: input)
            let parsed = try BinaryRunner.run(["run", "--"] + files, stdin: input)
            #expect(fast.status == parsed.status, "\(files)")
            #expect(fast.stdout == parsed.stdout, "\(files)")
            #expect(fast.stderr == parsed.stderr, "\(files)")
        }
        #expect(try BinaryRunner.run(["run", "Tests/Golden/duplicate.kcs"]).status == 1)
    }
}
