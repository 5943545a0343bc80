import Foundation
import Testing
@testable import KCSRuntime

/// Issue 10 through the built binary: hostile input ends in a located error
/// or a clean refusal; documents are never lost; nothing is injected.
@Suite(.serialized)
struct SafetyCLITests {
    /// A fresh folder with these files, removed afterwards.
    static func folder(_ files: [String: String], _ body: (URL) throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-safety-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        try body(dir)
    }

    // MARK: 1. Crashes

    /// The reproduction: a cycle that does not pass through the top file.
    @Test func includeCycleBelowTheTopFile() throws {
        try Self.folder(["top.kcs": "include \"s.kcs\"\n", "s.kcs": "include \"s.kcs\"\n"]) { dir in
            let out = try BinaryRunner.run(["run", "top.kcs"], directory: dir)
            #expect(out.status == 65)
            #expect(out.stderr.contains("s.kcs:1:1: error: 's.kcs' includes itself"))
            #expect(out.stderr.contains("[KCS006]"))
        }
    }

    /// `<array >` and a line break inside the tag used to pass the guard
    /// and overflow Foundation's parser.
    @Test func deepPlistSpeltToDodgeTheGuard() throws {
        let depth = 100_000
        for open in ["<array >", "<array\n>"] {
            let plist = "<?xml version=\"1.0\"?>\n<plist>" + String(repeating: open, count: depth)
                + String(repeating: "</array>", count: depth) + "</plist>\n"
            try Self.folder(["deep.entitlements": plist,
                             "s.kcs": "team SKMME9E2Y8\napp com.x.A entitlements=\"deep.entitlements\"\n"]) { dir in
                let out = try BinaryRunner.run(["run", "s.kcs"], directory: dir)
                #expect(out.status == 66)
                #expect(out.stderr.contains("s.kcs:2:26: error: deep.entitlements: the property list nests deeper than 64 levels"))
                let lint = try BinaryRunner.run(["lint", "--entitlements", "deep.entitlements"], directory: dir)
                #expect(lint.status == 66)
                #expect(lint.stderr.contains("nests deeper"))
            }
        }
    }

    /// Standard input that never ends is read under the time limit: a
    /// stalled producer held `--timeout 2` open for as long as it liked
    /// (adversarial run 24, F10).
    @Test func aStalledStandardInputEndsAtTheTimeLimit() throws {
        let process = Process()
        process.executableURL = BinaryRunner.binary
        process.arguments = ["run", "--timeout", "1", "-"]
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data("team SKMME9E2Y8\n".utf8))  // then nothing, and the pipe stays open
        let started = Date()
        while process.isRunning, Date().timeIntervalSince(started) < 30 { usleep(50_000) }
        let stillRunning = process.isRunning
        if stillRunning { process.terminate() }
        process.waitUntilExit()
        #expect(!stillRunning, "kcs run --timeout 1 - waited 30 s for standard input")
        #expect(process.terminationStatus == 66)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.contains("nothing more arrived within the time limit of 1.0 s"), "\(said)")
        try? input.fileHandleForWriting.close()
    }

    /// `kcs run - < /dev/zero` stops at the size limit with an error.
    @Test func standardInputFromDevZeroIsCapped() throws {
        let out = try BinaryRunner.run(["run", "-"], stdinPath: "/dev/zero")
        #expect(out.status == 66)
        #expect(out.stderr.contains("cannot read '<stdin>': it is more than the 268435456 bytes this host reads"))
        let untrusted = try BinaryRunner.run(["run", "--untrusted", "-"], stdinPath: "/dev/zero")
        #expect(untrusted.status == 66)
        #expect(untrusted.stderr.contains("more than the 1048576 bytes"))
        let lint = try BinaryRunner.run(["lint", "--untrusted", "-"], stdinPath: "/dev/zero")
        #expect(lint.status == 66)
    }

    /// A file over the size limit is named with its size and the limit,
    /// and the hint says where the limit comes from (it said "check the
    /// path", found by adversarial testing).
    @Test func anOversizedFileIsExplainedByTheLimit() throws {
        try Self.folder(["big.kcs": String(repeating: "# padding\n", count: 110_000)]) { dir in
            let out = try BinaryRunner.run(["run", "--untrusted", "big.kcs"], directory: dir)
            #expect(out.status == 66)
            #expect(out.stderr.contains("cannot read 'big.kcs': it is 1100000 bytes, more than the 1048576 this host reads"), "\(out.stderr)")
            #expect(out.stderr.contains("hint: kcs run and kcs check read up to 256 MiB a file, 1 MiB with --untrusted"), "\(out.stderr)")
            #expect(!out.stderr.contains("check the path"), "\(out.stderr)")
        }
    }

    // MARK: 3. Limits on the command line

    @Test func notARegularFile() throws {
        try Self.folder(["d/x.md": "# x\n"]) { dir in
            #expect(mkfifo(dir.appendingPathComponent("pipe.md").path, 0o600) == 0)
            #expect(mkfifo(dir.appendingPathComponent("pipe.kcs").path, 0o600) == 0)
            let run = try BinaryRunner.run(["run", "pipe.kcs"], directory: dir)
            #expect(run.status == 66)
            #expect(run.stderr.contains("cannot read 'pipe.kcs': not a regular file (a FIFO)"))
            let check = try BinaryRunner.run(["check", "pipe.md"], directory: dir)
            #expect(check.status == 66)
            #expect(check.stderr.contains("not a regular file (a FIFO)"))
            #expect(!check.stderr.contains("no such file"))
            let directory = try BinaryRunner.run(["run", "d"], directory: dir)
            #expect(directory.stderr.contains("not a regular file (a directory)"))
            let device = try BinaryRunner.run(["run", "/dev/zero"], directory: dir)
            #expect(device.status == 66)
            let export = try BinaryRunner.run(["export", "--swift", "pipe.md"], directory: dir)
            #expect(export.status == 66)
            #expect(export.stderr.contains("not a regular file (a FIFO)"))
            let lint = try BinaryRunner.run(["lint", "--entitlements", "d"], directory: dir)
            #expect(lint.stderr.contains("not a regular file (a directory)"))
        }
    }

    /// `include "/proc/self/environ"` printed the environment into diagnostics.
    @Test func systemFilesAreNeverRead() throws {
        try Self.folder(["s.kcs": "include \"/proc/self/environ\"\n"]) { dir in
            let out = try BinaryRunner.run(["run", "s.kcs"], environment: ["KCS_SECRET": "hunter2"], directory: dir)
            #expect(out.status == 66)
            #expect(!out.stderr.contains("hunter2"))
            #expect(out.stderr.contains("may not read '/proc/self/environ'"))
        }
    }

    @Test func untrustedKeepsIncludesInTheFilesFolder() throws {
        try Self.folder(["outside.kcs": "team SKMME9E2Y8\n",
                         "in/ok.kcs": "team SKMME9E2Y8\n",
                         "in/s.kcs": "include \"ok.kcs\"\napp com.x.A\nexpect default-group A SKMME9E2Y8.com.x.A\n",
                         "in/up.kcs": "include \"../outside.kcs\"\n",
                         "in/abs.kcs": "include \"ABS\"\n"]) { dir in
            #expect(try BinaryRunner.run(["run", "--untrusted", "in/s.kcs"], directory: dir).status == 0)
            let up = try BinaryRunner.run(["run", "--untrusted", "in/up.kcs"], directory: dir)
            #expect(up.status == 66)
            #expect(up.stderr.contains("may not read"))
            #expect(up.stderr.contains("in/up.kcs:1:1"))
            // Without the switch the same include is read.
            #expect(try BinaryRunner.run(["run", "in/up.kcs"], directory: dir).status != 66)
            let absolute = dir.appendingPathComponent("in/ok.kcs").path
            try "include \"\(absolute)\"\n".write(to: dir.appendingPathComponent("in/abs.kcs"), atomically: true, encoding: .utf8)
            let abs = try BinaryRunner.run(["run", "--untrusted", "in/abs.kcs"], directory: dir)
            #expect(abs.stderr.contains("absolute paths are not allowed here"))
            let rooted = try BinaryRunner.run(["run", "--root", "in", "in/up.kcs"], directory: dir)
            #expect(rooted.stderr.contains("it is outside in"))
            let check = try BinaryRunner.run(["lint", "--root", "in", "in/up.kcs"], directory: dir)
            #expect(check.status == 66)
        }
    }

    @Test func timeoutStopsTheRun() throws {
        var text = "team SKMME9E2Y8\napp com.x.A\n"
        for i in 0..<20000 { text += "as A add generic-password account=\"\(i)\"\n" }
        let out = try BinaryRunner.run(["run", "--timeout", "0.05", "-"], stdin: text)
        #expect(out.status == 1)
        #expect(out.stderr.contains("the run took longer than its time limit of 0.05 s; nothing after this line ran [KCS311]"))
        #expect(try BinaryRunner.run(["run", "--timeout", "0", "x.kcs"]).status == 64)
    }

    /// The argument parser's messages quote the argument at fault: a file
    /// named like an option (`kcs check *`) printed its escapes raw.
    @Test func argumentErrorsAreEscaped() throws {
        for arguments in [["check", "--\u{1B}]0;pwned\u{07}\u{1B}[2J.md", "ok.md"], ["\u{1B}[31mbogus"],
                          ["run", "--timeout", "\u{1B}[31mX", "a.kcs"]] {
            let out = try BinaryRunner.run(arguments)
            #expect(out.status == 64, "\(arguments)")
            #expect(!out.stderr.contains("\u{1B}") && !out.stderr.contains("\u{07}"), "\(out.stderr)")
            #expect(out.stderr.contains("\\u{1B}"), "\(out.stderr)")
            #expect(out.stderr.contains("\nUsage: ") || out.stderr.contains("\nHelp: "), "the layout is kept: \(out.stderr)")
        }
        #expect(try BinaryRunner.run(["--version"]).stdout == "0.1.0\n")
    }

    /// A time limit too large for a count of milliseconds is a century, not a
    /// trap converting it (found by adversarial testing: `--timeout 1e30`).
    @Test func hugeTimeoutsRun() throws {
        let text = "team SKMME9E2Y8\napp com.x.A\nas A add generic-password account=\"a\"\nexpect status errSecSuccess\n"
        for timeout in ["1e30", "1.7976931348623157e308", "9223372036854775807"] {
            let out = try BinaryRunner.run(["run", "--timeout", timeout, "-"], stdin: text)
            #expect(out.status == 0, "\(timeout): \(out.stderr)")
            #expect(out.stdout.contains("1 passed, 0 failed"), "\(timeout)")
        }
        let md = FileManager.default.temporaryDirectory.appendingPathComponent("huge-timeout-\(UUID().uuidString).md")
        try ("```kcs\n" + text + "```\n").write(to: md, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: md) }
        let check = try BinaryRunner.run(["check", "--timeout", "1e30", md.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(RunBudget.duration(ofSeconds: .nan) == .zero)
        #expect(RunBudget.duration(ofSeconds: -1) == .zero)
        #expect(RunBudget.duration(ofSeconds: .infinity) == .seconds(100 * 365 * 24 * 3600))
    }

    @Test func maxOutputStopsShowMatrix() throws {
        var text = "team SKMME9E2Y8\napp com.x.A\n"
        for i in 0..<500 { text += "as A add generic-password account=\"\(i)\"\n" }
        text += "show matrix\n"
        let out = try BinaryRunner.run(["run", "--max-output", "1000", "-"], stdin: text)
        #expect(out.status == 1)
        #expect(out.stderr.contains("<stdin>:503:1: error: the run printed more than its limit of 1000 bytes"))
        #expect(out.stdout.utf8.count < 1000)
        try Self.folder(["d.md": "```kcs\n" + text + "```\n"]) { dir in
            let check = try BinaryRunner.run(["check", "--max-output", "1000", "d.md"], directory: dir)
            #expect(check.status == 1)
            // In a document every call line counts as output: it stops early.
            #expect(check.stderr.contains(": error: the run printed more than its limit of 1000 bytes"))
            #expect(check.stderr.hasPrefix("d.md:"))
        }
    }

    /// `--max-output` bounds everything a file shows, diagnostics included:
    /// 300 syntax errors used to print 200 of them whatever the limit.
    @Test func maxOutputCountsDiagnostics() throws {
        var text = "team SKMME9E2Y8\napp com.x.A\n"
        for i in 0..<300 { text += "as A add generic-password account=\"\(i)\" bogus=1\n" }
        let all = try BinaryRunner.run(["run", "-"], stdin: text)
        #expect(all.stderr.utf8.count > 20_000)
        let capped = try BinaryRunner.run(["run", "--max-output", "2000", "-"], stdin: text)
        #expect(capped.status == 65)
        #expect(capped.stderr.contains("more diagnostics in <stdin> not shown: the output limit of 2000 bytes was reached [KCS009]"))
        // The limit, then the one note and the closing line.
        #expect(capped.stderr.utf8.count + capped.stdout.utf8.count < 2000 + 300, "\(capped.stderr)")
        #expect(capped.stderr.hasPrefix("<stdin>:3:"))
        // The error that stopped a run at a limit is shown whatever the limit.
        var loud = "team SKMME9E2Y8\napp com.x.A\n"
        for i in 0..<100 { loud += "as A add generic-password account=\"\(i)\"\n" }
        loud += "show matrix\n"
        let stopped = try BinaryRunner.run(["run", "--max-output", "300", "-"], stdin: loud)
        #expect(stopped.status == 1)
        #expect(stopped.stderr.contains("the run printed more than its limit of 300 bytes; nothing after this line ran [KCS311]"))
    }

    /// `kcs export` takes the same safety options as run, check and lint.
    @Test func exportTakesTheSafetyOptions() throws {
        try Self.folder(["outside.kcs": "team SKMME9E2Y8\n",
                         "in/up.kcs": "include \"../outside.kcs\"\napp com.x.A\nas A add generic-password account=\"a\"\n",
                         "in/ok.kcs": "team SKMME9E2Y8\napp com.x.A\nas A add generic-password account=\"a\"\n"]) { dir in
            #expect(try BinaryRunner.run(["export", "--swift", "in/up.kcs"], directory: dir).status == 0)
            let untrusted = try BinaryRunner.run(["export", "--swift", "--untrusted", "in/up.kcs"], directory: dir)
            #expect(untrusted.status == 66)
            #expect(untrusted.stderr.contains("in/up.kcs:1:1: error: may not read"))
            #expect(untrusted.stdout.isEmpty)
            let rooted = try BinaryRunner.run(["export", "--swift", "--root", "in", "in/up.kcs"], directory: dir)
            #expect(rooted.stderr.contains("it is outside in"))
            #expect(try BinaryRunner.run(["export", "--swift", "--untrusted", "in/ok.kcs"], directory: dir).status == 0)
            // Over the output limit nothing is written: half a test is no test.
            let small = try BinaryRunner.run(["export", "--swift", "--max-output", "100", "in/ok.kcs", "-o", "T.swift"], directory: dir)
            #expect(small.status == 1)
            #expect(small.stderr.contains("over the output limit of 100; nothing was written [KCS311]"))
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("T.swift").path))
        }
    }

    /// `--timeout` covers reading the script: after a syntax error the rest
    /// used to be parsed to the end (to list every error) whatever the limit.
    @Test func timeoutCoversParsing() throws {
        var text = "team SKMME9E2Y8 bogus\napp com.x.A\n"
        for i in 0..<100_000 { text += "as A add generic-password account=\"\(i)\"\n" }
        let out = try BinaryRunner.run(["run", "--timeout", "0.001", "-"], stdin: text)
        #expect(out.status == 65)
        #expect(out.stderr.contains("<stdin>:1:17: error: unexpected 'bogus' after the statement [KCS211]"))
        #expect(out.stderr.contains("error: the run took longer than its time limit of 0.001 s; nothing after this line ran [KCS311]"))
        // A Markdown document's blocks: the same clock from the first byte;
        // an included file is read on the same clock.
        let clean = String(text.drop { $0 != "\n" }.dropFirst())
        try Self.folder(["d.md": "```kcs\n" + text + "```\n", "top.kcs": "team SKMME9E2Y8\ninclude \"big.kcs\"\n",
                         "big.kcs": clean]) { dir in
            let check = try BinaryRunner.run(["check", "--timeout", "0.001", "d.md"], directory: dir)
            #expect(check.stderr.contains("the run took longer than its time limit of 0.001 s"), "\(check.stderr.prefix(500))")
            let included = try BinaryRunner.run(["run", "--timeout", "0.001", "top.kcs"], directory: dir)
            #expect(included.status == 1)
            // At big.kcs's first line, unless a busy machine spent the
            // millisecond before the include was reached.
            #expect(included.stderr.contains("big.kcs:1:1: error") || included.stderr.contains("top.kcs:"), "\(included.stderr.prefix(500))")
            #expect(included.stderr.contains("error: the run took longer than its time limit of 0.001 s; nothing after this line ran [KCS311]"))
        }
    }

    /// An invisible character written raw is an error at its column; written
    /// as an escape it is data, and shown escaped wherever kcs shows it.
    @Test(arguments: ["\u{200B}", "\u{2060}", "\u{00AD}", "\u{FEFF}", "\u{E0041}"])
    func invisibleCharactersAreErrorsRawAndVisibleEscaped(invisible: String) throws {
        let raw = "team SKMME9E2Y8\napp com.x.A\nas A add generic-password account=\"admin\(invisible)\"\n"
        let out = try BinaryRunner.run(["run", "-"], stdin: raw)
        #expect(out.status == 65)
        #expect(out.stderr.contains("<stdin>:3:41: error: the script holds the invisible character U+"), "\(out.stderr)")
        #expect(out.stderr.contains("[KCS011]"))
        #expect(!out.stderr.contains(invisible))
        let escape = "\\u{" + String(invisible.unicodeScalars.first!.value, radix: 16, uppercase: true) + "}"
        let escaped = "team SKMME9E2Y8\napp com.x.A\nas A add generic-password account=\"admin\(escape)\"\nshow items\n"
        let shown = try BinaryRunner.run(["run", "-"], stdin: escaped)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("account=\"admin\(escape)\""), "\(shown.stdout)")
        #expect(!shown.stdout.contains(invisible))
        try Self.folder(["s.kcs": escaped]) { dir in
            let swift = try BinaryRunner.run(["export", "--swift", "s.kcs"], directory: dir)
            #expect(swift.status == 0)
            #expect(swift.stdout.contains("admin\(escape)"))
            #expect(!swift.stdout.contains(invisible))
        }
    }

    // MARK: 4. Documents never lost

    /// `--update` through a symbolic link keeps the link and the mode.
    @Test func updateKeepsLinkAndMode() throws {
        let doc = "```kcs\nteam SKMME9E2Y8\napp com.x.A\nas A add generic-password account=\"a\"\n```\n\n```output\nstale\n```\n"
        try Self.folder(["real.md": doc]) { dir in
            let real = dir.appendingPathComponent("real.md").path
            #expect(chmod(real, 0o640) == 0)
            try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.md").path, withDestinationPath: "real.md")
            let out = try BinaryRunner.run(["check", "--update", "link.md"], directory: dir)
            #expect(out.status == 0, "\(out.stderr)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.appendingPathComponent("link.md").path) == "real.md")
            #expect(try String(contentsOfFile: real, encoding: .utf8).contains("A add generic-password → errSecSuccess (0)\n"))
            #expect(try FileManager.default.attributesOfItem(atPath: real)[.posixPermissions] as? Int == 0o640)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["link.md", "real.md"])
        }
    }

    // MARK: 5. No injection

    /// Printed text holding a fence line cannot close the output block:
    /// `--update` lengthens the block's fences, and the document checks.
    @Test func outputCannotCloseItsFence() throws {
        let doc = """
            ```kcs
            team SKMME9E2Y8
            app com.x.A
            app com.x.B as "B\\n```\\n# injected heading\\n````"
            as "B\\n```\\n# injected heading\\n````" add generic-password account="a" data="x"
            as A find generic-password account="a"
            show items
            ```

            ```output
            ```

            after
            """
        try Self.folder(["d.md": doc + "\n"]) { dir in
            let update = try BinaryRunner.run(["check", "--update", "d.md"], directory: dir)
            #expect(update.status == 0, "\(update.stderr)")
            let text = try String(contentsOfFile: dir.appendingPathComponent("d.md").path, encoding: .utf8)
            // The call line escapes the name's line breaks (adversarial 18, E1):
            // no line of the output is a fence or the heading.
            #expect(!text.contains("\n# injected heading"), "\(text)")
            #expect(text.contains("B\\u{A}```\\u{A}# injected heading"), "\(text)")
            #expect(text.hasSuffix("\n```\n\nafter\n"), "\(text)")
            let check = try BinaryRunner.run(["check", "d.md"], directory: dir)
            #expect(check.status == 0, "\(check.stderr)")
        }
    }

    /// Escape sequences in a script never reach the terminal raw.
    @Test func controlBytesAreShownEscaped() throws {
        let out = try BinaryRunner.run(["run", "-"], stdin: "tem\u{1B}]0;owned\u{7}X\nteam SKMME9E2Y8\n")
        #expect(out.status == 65)
        #expect(!out.stderr.contains("\u{1B}"))
        #expect(!out.stderr.contains("\u{7}"))
        #expect(out.stderr.contains(" 1 | tem\\u{1B}]0;owned\\u{7}X\n"))
        let shown = try BinaryRunner.run(["run", "-"], stdin: "team SKMME9E2Y8\napp com.x.A\nas A add generic-password account=\"a\" data=\"\\u{1B}[2J\"\nshow items\n")
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(!shown.stdout.contains("\u{1B}"))
        #expect(shown.stdout.contains("\\u{1B}[2J"))
    }

    /// Trojan Source: a direction override anywhere is an error at its line and column.
    @Test(arguments: ["\u{202E}", "\u{2066}", "\u{200F}", "\u{061C}"])
    func bidiControlsAreErrors(control: String) throws {
        let script = "team SKMME9E2Y8\napp com.x.A # \(control)admin\n"
        let out = try BinaryRunner.run(["run", "-"], stdin: script)
        #expect(out.status == 65)
        #expect(out.stderr.contains("<stdin>:2:15: error: the script holds the invisible bidirectional control U+"), "\(out.stderr)")
        #expect(out.stderr.contains("[KCS010]"))
        #expect(!out.stderr.contains(control))
    }

    /// A carriage return not followed by a line feed is a line break to
    /// editors and terminals, none to kcs: `# note⏎expect …` showed an
    /// expectation that was comment text, and a delete hid behind a comment
    /// under `cat` (adversarial run 25, F9). It is an error at its column,
    /// in a comment, a string or between tokens, for run, lint and fmt; CR
    /// LF line ends are not. Seen failing without the fix (exit 0, 0 passed).
    @Test(arguments: ["  # B must not read it\rexpect status errSecItemNotFound", " account=\"a\rb\"", "\rexpect status errSecItemNotFound"])
    func aLoneCarriageReturnIsAnError(tail: String) throws {
        let script = "team SKMME9E2Y8\napp com.example.A\nas A find generic-password\(tail)\n"
        let column = 27 + (tail.utf8.firstIndex(of: 0x0D).map { tail.utf8.distance(from: tail.utf8.startIndex, to: $0) } ?? 0)
        for arguments in [["run", "-"], ["lint", "-"], ["fmt", "-"]] {
            let out = try BinaryRunner.run(arguments, stdin: script)
            #expect(out.status == 65, "\(arguments): \(out.status) \(out.stderr)")
            #expect(out.stderr.contains("<stdin>:3:\(column): error: the script holds a carriage return not followed by a line feed [KCS012]"),
                    "\(arguments): \(out.stderr)")
            #expect(!out.stderr.contains("\r"), "\(out.stderr.debugDescription)")
        }
        let crlf = try BinaryRunner.run(["run", "-"], stdin: "team SKMME9E2Y8\r\napp com.example.A\r\nas A find generic-password\r\nexpect status errSecItemNotFound\r\n")
        #expect(crlf.status == 0 && crlf.stdout.contains("1 passed"), "\(crlf.stdout)\(crlf.stderr)")
    }

    /// Hostile strings (quotes, backslashes, line breaks, a raw CR, `*/`,
    /// `\u{…}`) in every place a script can put text: the exported Swift
    /// type-checks and its parse tree holds them only as string literals.
    @Test func exportCannotBeInjected() throws {
        #if os(Linux)
        let swiftc = try #require(ExportTests.swiftc(), "no swiftc found")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-inject-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A file name that tries to end the header comment.
        let target = dir.appendingPathComponent("Injection.swift")
        let script = dir.appendingPathComponent("x\nfunc injected() {}\n.kcs")
        try FileManager.default.copyItem(at: BinaryRunner.root.appendingPathComponent("Tests/Golden/hostile/export-injection.kcs"), to: script)
        let out = try BinaryRunner.run(["export", "--swift", script.path, "-o", target.path])
        #expect(out.status == 0, "\(out.stderr)")
        let stub = BinaryRunner.root.appendingPathComponent("Tests/KCSCLITests/SecurityStub/Security.swift").path
        let module = try BinaryRunner.exec(swiftc, ["-emit-module", "-module-name", "Security", "-parse-as-library", stub,
                                                   "-emit-module-path", dir.appendingPathComponent("Security.swiftmodule").path], in: dir)
        #expect(module.status == 0, "\(module.output)")
        let check = try BinaryRunner.exec(swiftc, ["-typecheck", "-I", dir.path, target.path], in: dir)
        #expect(check.status == 0, "\(check.output)")
        let tree = try BinaryRunner.exec(swiftc, ["-dump-parse", target.path], in: dir)
        // The suite's type name is made from the file name with everything
        // but letters and digits replaced: it may spell the word, as a name.
        let mentions = tree.output.split(separator: "\n")
            .filter { $0.lowercased().contains("injected") && !$0.contains("\"Scenario_x_func_injected______\"") }
        #expect(!mentions.isEmpty, "the hostile text should be in the file, as literals")
        for line in mentions {
            #expect(line.contains("string_literal_expr"), "hostile text became code: \(line)")
        }
        let source = try String(contentsOf: target, encoding: .utf8)
        for line in source.split(separator: "\n", omittingEmptySubsequences: false)
        where line.lowercased().contains("injected") && !line.contains("Scenario_x_func_injected______") {
            let code = line.drop { $0 == " " }
            #expect(code.hasPrefix("//") || code.contains("\""), "\(line)")
        }
        #expect(!source.contains("\r"))
        #endif
    }

    // MARK: Documentation

    /// Every ```console block of docs/limits.md: `$ kcs ARGS` and what it
    /// prints (standard error, then standard output), exactly.
    @Test func limitsPageTranscriptsHold() throws {
        let page = try String(contentsOf: BinaryRunner.root.appendingPathComponent("docs/limits.md"), encoding: .utf8)
        var transcripts: [(command: String, expected: String)] = []
        var current: (command: String, expected: String)?
        var inBlock = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "```console" { inBlock = true; continue }
            guard inBlock else { continue }
            if line == "```" || line.hasPrefix("$ ") {
                if let c = current { transcripts.append(c) }
                current = nil
                if line == "```" { inBlock = false; continue }
                current = (String(line.dropFirst(2)), "")
            } else {
                current?.expected += line + "\n"
            }
        }
        #expect(transcripts.count >= 3)
        for t in transcripts {
            let words = t.command.split(separator: " ").map(String.init)
            #expect(words.first == "kcs")
            let out = try BinaryRunner.run(Array(words.dropFirst()))
            #expect(out.stderr + out.stdout == t.expected, "\(t.command)")
        }
    }

    /// A failed write to standard output (a full disk) is an error, exit 66,
    /// as a failed `-o` write is: `kcs fmt - > f` left half a file and
    /// exited 0 (adversarial run 23, F7).
    @Test(arguments: [["fmt", "-"], ["export", "--swift", "examples/02-keychain-access-group.kcs"],
                      ["run", "--format", "json", "examples/02-keychain-access-group.kcs"],
                      ["run", "examples/02-keychain-access-group.kcs"]])
    func aFailedWriteToStandardOutputIsAnError(_ arguments: [String]) throws {
        let script = try String(contentsOf: BinaryRunner.root.appendingPathComponent("examples/02-keychain-access-group.kcs"), encoding: .utf8)
        let full = try BinaryRunner.run(arguments, stdin: script, stdoutPath: "/dev/full")
        #expect(full.status == 66, "\(arguments): \(full.stderr)")
        #expect(full.stderr.contains("kcs: error: cannot write standard output: No space left on device"), "\(full.stderr)")
        #expect(try BinaryRunner.run(arguments, stdin: script, stdoutPath: "/dev/null").status == 0)
    }
}
