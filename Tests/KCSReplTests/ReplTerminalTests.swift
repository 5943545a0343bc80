import Foundation
import Testing

/// The REPL as a user meets it: the built binary on a pseudo-terminal.
/// Each test owns its terminals; they are killed and their homes removed
/// when the test ends.
@Suite(.serialized)
final class ReplTerminalTests {
    private var terminals: [PseudoTerminal] = []

    deinit {
        for t in terminals {
            t.kill()
            try? FileManager.default.removeItem(at: t.home)
        }
    }

    /// A REPL showing its first prompt.
    private func start(_ arguments: [String] = ["repl"]) throws -> PseudoTerminal {
        let t = try PseudoTerminal(arguments)
        terminals.append(t)
        try t.waitFor("kcs> ")
        return t
    }

    /// Types a line and waits for the next prompt; returns what was printed.
    @discardableResult
    private func enter(_ t: PseudoTerminal, _ line: String) throws -> String {
        t.send(line + "\r")
        return try t.waitFor("kcs> ")
    }

    /// Types lines that leave a list open, each answered by the continuation prompt.
    private func continued(_ t: PseudoTerminal, _ lines: String...) throws {
        for line in lines {
            t.send(line + "\r")
            try t.waitFor("...> ")
        }
    }

    private func declareTwoApps(_ t: PseudoTerminal) throws {
        try enter(t, "team SKMME9E2Y8")
        try enter(t, "app com.example.Alpha")
        try enter(t, "app com.example.Beta")
    }

    @Test func testBareKcsOnATerminalShowsThePromptAndACallPrintsItsStatus() throws {
        let t = try start([])
        try declareTwoApps(t)
        let printed = try enter(t, "as Alpha add generic-password account=\"alice\" data=\"s3cret\"")
        #expect(printed.contains("add generic-password → errSecSuccess (0)"), "\(printed)")
        let find = try enter(t, "as Beta find generic-password account=\"alice\"")
        #expect(find.contains("errSecItemNotFound (-25300)"), "\(find)")
    }

    @Test func testTabCompletesADeclaredAppName() throws {
        let t = try start()
        try declareTwoApps(t)
        t.send("as Al\t")
        try t.waitFor("pha ")  // readline wrote the rest of the name and a space
        let printed = try enter(t, "add generic-password account=\"a\"")
        #expect(printed.contains("errSecSuccess (0)"), "\(printed)")
    }

    @Test func testTabCompletesAValueAfterAnAttribute() throws {
        let t = try start()
        try declareTwoApps(t)
        t.send("as Alpha add generic-password accessible=after-first-unlock-th\t")
        try t.waitFor("is-device-only ")
        let printed = try enter(t, "")
        #expect(printed.contains("errSecSuccess (0)"), "\(printed)")
    }

    @Test func testAnOpenListShowsTheContinuationPromptUntilItCloses() throws {
        let t = try start()
        try enter(t, "team SKMME9E2Y8")
        t.send("app com.example.Alpha keychain-access-groups=[\r")
        try t.waitFor("...> ")
        t.send("  SKMME9E2Y8.com.example.Shared,\r")
        try t.waitFor("...> ")
        try enter(t, "]")
        let shown = try enter(t, "show app Alpha")
        #expect(shown.contains("0. SKMME9E2Y8.com.example.Shared  (default)"), "\(shown)")
    }

    @Test func testAnErrorIsShownWithACaretAndTheStateSurvives() throws {
        let t = try start()
        try declareTwoApps(t)
        try enter(t, "as Alpha add generic-password account=\"a\"")
        let syntax = try enter(t, "as Alpha find generic-pasword account=\"a\"")
        #expect(syntax.contains("[KCS203]"), "\(syntax)")
        #expect(syntax.contains(" 1 | as Alpha find generic-pasword account=\"a\""), "\(syntax)")
        let caret = "   | " + String(repeating: " ", count: 14) + "^" + String(repeating: "~", count: 14) + "\r\n"
        #expect(syntax.contains(caret), "\(syntax)")
        let runtime = try enter(t, "as Nobody find generic-password")
        #expect(runtime.contains("[KCS301]"), "\(runtime)")
        let found = try enter(t, "as Alpha find generic-password account=\"a\"")
        #expect(found.contains("Alpha find generic-password → errSecSuccess (0), 1 item"), "\(found)")
    }

    @Test func testSaveWritesAScriptThatKcsRunPasses() throws {
        let t = try start()
        try declareTwoApps(t)
        try enter(t, "group com.example.Shared Alpha Beta")
        try enter(t, "as Alpha add generic-password account=\"a\" data=\"x\"")
        try enter(t, "as Alpha add generic-password account=\"a\"")           // duplicate
        try enter(t, "as Beta find generic-password account=\"a\" return=data")
        try enter(t, "explain")
        try enter(t, "expect data \"wrong\"")                                    // fails: kept as a comment
        let script = t.home.appendingPathComponent("session.kcs")
        let saved = try enter(t, ":save \(script.path)")
        #expect(saved.contains("saved"), "\(saved)")
        t.send("\u{4}")
        #expect(t.waitForExit() == 0)

        let text = try String(contentsOf: script, encoding: .utf8)
        #expect(text.contains("as Alpha add generic-password account=\"a\"\nexpect status errSecDuplicateItem\n"), "\(text)")
        #expect(text.contains("expect status errSecSuccess"), "\(text)")
        let run = try runKcs(["run", script.path])
        #expect(run.status == 0, "\(run.stdout + run.stderr)")
        #expect(run.stdout.contains("3 passed, 0 failed"), "\(run.stdout)")
    }

    @Test func testUndoTakesBackTheLastStatement() throws {
        let t = try start()
        try declareTwoApps(t)
        let undone = try enter(t, ":undo")
        #expect(undone.contains("undone: app com.example.Beta"), "\(undone)")
        let apps = try enter(t, "show apps")
        #expect(apps.contains("Alpha"), "\(apps)")
        #expect(!apps.contains("Beta"), "\(apps)")
    }

    @Test func testCtrlCAbandonsTheInputAndTheReplGoesOn() throws {
        let t = try start()
        try declareTwoApps(t)
        t.send("app com.example.Gamma keychain-access-groups=[\r")
        try t.waitFor("...> ")
        t.send("\u{3}")
        try t.waitFor("kcs> ")
        let apps = try enter(t, "show apps")
        #expect(!apps.contains("Gamma"), "\(apps)")
        #expect(apps.contains("Beta"), "\(apps)")
    }

    @Test func testCtrlDExitsAndKeepsHistory() throws {
        let t = try start()
        try enter(t, "team SKMME9E2Y8")
        t.send("\u{4}")
        #expect(t.waitForExit() == 0)
        let history = try String(contentsOf: t.home.appendingPathComponent("history"), encoding: .utf8)
        #expect(history.contains("team SKMME9E2Y8"), "\(history)")

        // The next session starts with it: Up recalls the line.
        let again = try PseudoTerminal(["repl"], home: t.home)
        terminals.append(again)
        try again.waitFor("kcs> ")
        again.send("\u{1B}[A")
        try again.waitFor("team SKMME9E2Y8")
        again.send("\r")
        try again.waitFor("kcs> ")
        again.send(":quit\r")
        #expect(again.waitForExit() == 0)
    }

    // MARK: Issue 13: the REPL keeps up with the batch runner

    @Test func testLintWarningsAppearAsYouType() throws {
        let t = try start()
        try enter(t, "team SKMME9E2Y8")
        try enter(t, "app com.example.Alpha")
        try enter(t, "group com.example.Shared Alpha")
        let printed = try enter(t, "as Alpha add generic-password account=\"a\" group=com.example.Shared")
        #expect(printed.contains("warning: group \"com.example.Shared\" lacks the team prefix"), "\(printed)")
        #expect(printed.contains("[KCS501]"), "\(printed)")
        let inline = try enter(t, "app com.example.Beta keychain-access-groups=[com.example.Other]")
        #expect(inline.contains("[KCS510]") && inline.contains("did you mean SKMME9E2Y8.com.example.Other?"), "\(inline)")
    }

    @Test func testAnErrorInAMultiLineEntryPointsAtItsLine() throws {
        let t = try start()
        try enter(t, "team SKMME9E2Y8")
        try continued(t, "app com.example.Alpha keychain-access-groups=[", "  SKMME9E2Y8.com.example.Shared,")
        let printed = try enter(t, "  SKMME9E2Y8.b@d")
        #expect(printed.contains("<repl>:3:15: error: unexpected character '@' [KCS103]"), "\(printed)")
        #expect(printed.contains(" 3 |   SKMME9E2Y8.b@d"), "\(printed)")
        // Only the real mistake: not that the list was never closed.
        #expect(!printed.contains("[KCS104]"), "\(printed)")
        // A list element on its own line without a comma is not an error yet.
        try continued(t, "app com.example.Beta keychain-access-groups=[", "  SKMME9E2Y8.one")
        let closed = try enter(t, "]")
        #expect(!closed.contains("error"), "\(closed)")
        let shown = try enter(t, "show app Beta")
        #expect(shown.contains("0. SKMME9E2Y8.one  (default)"), "\(shown)")
    }

    @Test func testHelpQuitAndExitWorkAsWords() throws {
        let t = try start()
        let help = try enter(t, "help")
        #expect(help.contains("statements (':help KEYWORD' shows the syntax and an example):"), "\(help)")
        let topic = try enter(t, "help expect")
        #expect(topic.contains("example: expect"), "\(topic)")
        t.send("exit\r")
        #expect(t.waitForExit() == 0)
        let q = try start()
        q.send("quit\r")
        #expect(q.waitForExit() == 0)
    }

    @Test func testCtrlDInsideAnOpenListEndsTheList() throws {
        let t = try start()
        try enter(t, "team SKMME9E2Y8")
        try continued(t, "app com.example.Alpha keychain-access-groups=[", "  SKMME9E2Y8.com.example.Shared")
        t.send("\u{4}")
        try t.waitFor("kcs> ")
        // The statement ran and the session goes on.
        let shown = try enter(t, "show app Alpha")
        #expect(shown.contains("0. SKMME9E2Y8.com.example.Shared  (default)"), "\(shown)")
        t.send("\u{4}")
        #expect(t.waitForExit() == 0)
        let history = try String(contentsOf: t.home.appendingPathComponent("history"), encoding: .utf8)
        #expect(history.contains("keychain-access-groups=[ SKMME9E2Y8.com.example.Shared"), "\(history)")
    }

    @Test func testColourFollowsTermAndTheColorOption() throws {
        // On a terminal with a capable TERM and NO_COLOR empty, errors are coloured...
        let coloured = try PseudoTerminal(["repl"], environment: ["TERM": "xterm", "NO_COLOR": ""])
        terminals.append(coloured)
        try coloured.waitFor("kcs> ")
        let red = try enter(coloured, "as Nobody find generic-password")
        #expect(red.contains("\u{1B}[31;1merror:"), "\(red)")
        // ...not with TERM=dumb, nor with --color never.
        for (arguments, term) in [(["repl"], "dumb"), (["repl", "--color", "never"], "xterm")] {
            let plain = try PseudoTerminal(arguments, environment: ["TERM": term, "NO_COLOR": ""])
            terminals.append(plain)
            try plain.waitFor("kcs> ")
            let text = try enter(plain, "as Nobody find generic-password")
            #expect(text.contains("error: unknown app 'Nobody'"), "\(text)")
            #expect(!text.contains("\u{1B}[31"), "\(arguments) TERM=\(term): \(text)")
        }
    }

    /// `kcs run` on a terminal colours unless told not to: not in Emacs's
    /// `M-x compile` (a pty with the TERM Emacs had, `INSIDE_EMACS=…,compile`),
    /// nor with TERM empty. There the escapes reached the compilation buffer
    /// and `M-g n` asked for the file `ESC[1m/path` (editor trial 20, E3).
    @Test func runIsPlainInEmacsCompileAndWithoutTerm() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-colour-\(UUID().uuidString).kcs")
        try "as Nobody find generic-password\n".write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        func output(_ environment: [String: String]) throws -> String {
            let t = try PseudoTerminal(["run", script.path], environment: ["NO_COLOR": "", "INSIDE_EMACS": ""].merging(environment) { $1 })
            terminals.append(t)
            return try t.waitFor("failed")
        }
        let coloured = try output(["TERM": "xterm-256color"])
        #expect(coloured.contains("\u{1B}["), "\(coloured)")
        for environment in [["TERM": "xterm-256color", "INSIDE_EMACS": "28.2,compile"], ["TERM": ""],
                            ["TERM": "dumb", "INSIDE_EMACS": "29.1,compile"]] {
            let plain = try output(environment)
            #expect(plain.contains("error: unknown app 'Nobody'") && !plain.contains("\u{1B}["), "\(environment): \(plain)")
        }
    }

    /// `:save` never replaces a file; `:save!` does, whole, keeping its mode
    /// and writing through a symbolic link to its target.
    @Test func testSaveRefusesToReplaceAndSaveBangReplaces() throws {
        let t = try start()
        try enter(t, "team SKMME9E2Y8")
        let target = t.home.appendingPathComponent("kept.kcs")
        try "# precious\n".write(to: target, atomically: true, encoding: .utf8)
        #expect(chmod(target.path, 0o640) == 0)
        let link = t.home.appendingPathComponent("link.kcs")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "kept.kcs")
        let refused = try enter(t, ":save \(link.path)")
        #expect(refused.contains("already exists; ':save! \(link.path)' replaces it"), "\(refused)")
        #expect(try String(contentsOf: target, encoding: .utf8) == "# precious\n")
        let replaced = try enter(t, ":save! \(link.path)")
        #expect(replaced.contains("saved"), "\(replaced)")
        #expect(try String(contentsOf: target, encoding: .utf8).contains("team SKMME9E2Y8"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "kept.kcs")
        let mode = try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? Int
        #expect(mode == 0o640)
        let failed = try enter(t, ":save! \(t.home.path)/no/such/dir/x.kcs")
        #expect(failed.contains("No such file or directory"), "\(failed)")
        // No temporary files are left beside the targets.
        let left = try FileManager.default.contentsOfDirectory(atPath: t.home.path).filter { $0.contains(".kcs-") }
        #expect(left.isEmpty, "\(left)")
    }

    /// Two sessions on one history file both keep their lines: each adds
    /// its own at the end instead of rewriting the file it read at start.
    @Test func testTwoSessionsOnOneHistoryFileBothKeepTheirLines() throws {
        let first = try start()
        let second = try PseudoTerminal(["repl"], home: first.home)
        terminals.append(second)
        try second.waitFor("kcs> ")
        try enter(first, "team SKMME9E2Y8 as First")
        try enter(second, "team ABCDE12345 as Second")
        first.send("\u{4}")
        #expect(first.waitForExit() == 0)
        second.send("\u{4}")
        #expect(second.waitForExit() == 0)
        let history = try String(contentsOf: first.home.appendingPathComponent("history"), encoding: .utf8)
        #expect(history.contains("team SKMME9E2Y8 as First"), "\(history)")
        #expect(history.contains("team ABCDE12345 as Second"), "\(history)")
    }

    /// Closing the terminal (SIGHUP) saves the history instead of losing it.
    @Test func testHangupSavesHistory() throws {
        let t = try start()
        try enter(t, "team SKMME9E2Y8 as HungUp")
        #expect(Glibc.kill(t.pid, SIGHUP) == 0)
        _ = t.waitForExit()
        let history = try String(contentsOf: t.home.appendingPathComponent("history"), encoding: .utf8)
        #expect(history.contains("team SKMME9E2Y8 as HungUp"), "\(history)")
    }

    /// A history "file" that is a device is neither read (it would never
    /// end) nor written; the REPL works and says so when it leaves.
    @Test func testHistoryOnADeviceIsNotRead() throws {
        let t = try PseudoTerminal(["repl"], environment: ["KCS_HISTORY": "/dev/zero"])
        terminals.append(t)
        try t.waitFor("kcs> ", timeout: 10)
        try enter(t, "team SKMME9E2Y8")
        t.send(":quit\r")
        try t.waitFor("could not write the history file '/dev/zero'")
        #expect(t.waitForExit() == 0)
    }

    @Test func testWithoutATerminalItBehavesLikeRunDash() throws {
        let script = "team SKMME9E2Y8\napp com.example.A\nas A add generic-password account=\"x\"\nexpect status errSecSuccess\n"
        let viaRun = try runKcs(["run", "-"], stdin: script)
        for arguments in [[], ["repl"]] {
            let out = try runKcs(arguments, stdin: script)
            #expect(out.status == viaRun.status)
            #expect(out.stdout == viaRun.stdout)
            #expect(!out.stdout.contains("kcs> "))
        }
        #expect(viaRun.stdout == "1 passed, 0 failed\n")
    }

    // MARK: Running kcs without a terminal

    private struct Output { var status: Int32; var stdout: String; var stderr: String }

    private func runKcs(_ arguments: [String], stdin: String = "") throws -> Output {
        let process = Process()
        process.executableURL = PseudoTerminal.binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        process.environment = env
        let input = Pipe(), out = Pipe(), err = Pipe()
        process.standardInput = input
        process.standardOutput = out
        process.standardError = err
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        // Small outputs: reading both to the end cannot block the child for long.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}
