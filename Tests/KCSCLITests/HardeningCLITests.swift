import Foundation
import KCSSyntax
@testable import KCSRuntime
import Testing

/// The adversarial review of issue 10 (review/findings.md), through the
/// built binary: each test is one finding's reproducer, cut down.
@Suite(.serialized)
struct HardeningCLITests {
    static func folder(_ files: [String: String], _ body: (URL) throws -> Void) throws {
        try SafetyCLITests.folder(files, body)
    }

    static func elapsed(_ body: () throws -> Void) rethrows -> Double {
        let start = Date()
        try body()
        return Date().timeIntervalSince(start)
    }

    /// Finding 3: an output block whose closing fence was forgotten runs on
    /// into the next sections; `--update` deleted them. It is now an error
    /// and the document is left byte for byte.
    @Test func updateLeavesAnOutputBlockWithoutItsClosingFenceAlone() throws {
        let forgot = """
            # Guide
            ```kcs
            team SKMME9E2Y8
            app com.example.A
            show apps
            ```

            ```output
            stale output (author forgot to close this fence)

            ## Section 2: sharing

            ```kcs
            app com.example.B
            ```

            ## Section 3

            """
        let atEnd = "```kcs\nteam SKMME9E2Y8\napp com.example.A\nshow apps\n```\n\n```output\nstale\n\nprose after\n"
        try Self.folder(["forgot.md": forgot, "end.md": atEnd]) { dir in
            for (name, line) in [("forgot.md", "line 13"), ("end.md", "end of the document")] {
                let before = try Data(contentsOf: dir.appendingPathComponent(name))
                let out = try BinaryRunner.run(["check", "--update", name], directory: dir)
                #expect(out.status == 1, "\(out.stdout)\(out.stderr)")
                #expect(out.stderr.contains("this output block has no closing fence"), "\(out.stderr)")
                #expect(out.stderr.contains(line), "\(out.stderr)")
                #expect(!out.stdout.contains("updated"))
                #expect(try Data(contentsOf: dir.appendingPathComponent(name)) == before)
            }
        }
    }

    /// Finding 15: a lone CR ends a line for CommonMark; printed text with
    /// "\r```" must not close the output block. (Tables escape line breaks
    /// in values, and since adversarial 18, E1, call lines escape the app's
    /// name too.)
    @Test func aCarriageReturnBeforeAFenceInOutputLengthensTheFences() throws {
        let name = "\"A\\u{D}```\\u{D}# INJECTED\""
        let doc = "```kcs\nteam SKMME9E2Y8\napp com.example.A as \(name)\nas \(name) add generic-password account=\"x\"\nshow items\n```\n\n```output\nold\n```\n"
        try Self.folder(["cr.md": doc]) { dir in
            let out = try BinaryRunner.run(["check", "--update", "cr.md"], directory: dir)
            #expect(out.status == 0, "\(out.stderr)")
            let text = try String(contentsOf: dir.appendingPathComponent("cr.md"), encoding: .utf8)
            #expect(text.contains("A\\u{D}```\\u{D}# INJECTED add generic-password"), "\(text)")
            #expect(!text.contains("\r"), "\(text)")
            #expect(try BinaryRunner.run(["check", "cr.md"], directory: dir).status == 0)
        }
    }

    /// Finding 11: `kcs matrix` printed names raw (terminal escapes), and
    /// its Markdown table let a newline or `|` in a name split the row.
    @Test func matrixEscapesNamesForTheTerminalAndForMarkdown() throws {
        let name = "A\\u{1b}]0;OWNED\\u{7}|evil|\\u{a}# heading"
        let script = "team SKMME9E2Y8\napp com.example.A as \"\(name)\"\nas \"\(name)\" add generic-password account=\"x\\u{a}| y |\" data=\"z\"\n"
        try Self.folder(["mx.kcs": script]) { dir in
            let text = try BinaryRunner.run(["matrix", "mx.kcs"], directory: dir)
            #expect(text.status == 0, "\(text.stderr)")
            #expect(!text.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" })
            let md = try BinaryRunner.run(["matrix", "--format", "markdown", "mx.kcs"], directory: dir)
            let rows = md.stdout.split(separator: "\n")
            #expect(rows.count == 3, "\(md.stdout)")
            // Every row has the same cells: header, rule, one item.
            let cells = rows.map { $0.replacing("\\|", with: "").filter { $0 == "|" }.count }
            #expect(Set(cells).count == 1, "\(md.stdout)")
            #expect(!md.stdout.contains("\u{1B}"))
        }
    }

    /// Finding 13: a newline in a document's name forged a TAP line; ESC
    /// and NUL went raw into TAP and into GitHub annotations.
    @Test func fileNamesAndMessagesCannotForgeTapLinesOrAnnotations() throws {
        let name = "x\nok 2 - all docs fine\u{1B}[2K.md"
        try Self.folder(["docs/" + name: "```kcs\nexpect status 0\n```\n",
                         "ann.kcs": "team SKMME9E2Y8\napp com.example.A\nas \"B\\u{1b}[2J\\u{0}\\u{a}::warning::x\" add generic-password account=\"a\"\n"]) { dir in
            let tap = try BinaryRunner.run(["check", "--format", "tap", "docs"], directory: dir)
            let lines = tap.stdout.split(separator: "\n")
            #expect(!lines.contains { $0.hasPrefix("ok 2") }, "\(tap.stdout)")
            #expect(!tap.stdout.contains("\u{1B}"))
            let gh = try BinaryRunner.run(["check", "docs"], environment: ["GITHUB_ACTIONS": "true"], directory: dir)
            #expect(!(gh.stdout + gh.stderr).contains("\u{1B}"))
            let run = try BinaryRunner.run(["run", "ann.kcs"], environment: ["GITHUB_ACTIONS": "true"], directory: dir)
            let annotations = run.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("::error ") }
            #expect(annotations.count == 1, "\(run.stdout)")
            #expect(!run.stdout.contains("\n::warning"))
            #expect(annotations.allSatisfy { !$0.unicodeScalars.contains { $0.value < 0x20 } })
        }
    }

    /// Adversarial 18, E1: `explain` and `-v` call lines printed names with
    /// their line breaks, so a line of output could begin `::error` or
    /// `::stop-commands::`, a command to GitHub's runner; names from an
    /// entitlements file too.
    @Test func explainAndCallLinesCannotStartWorkflowCommands() throws {
        let name = "A\\n::error file=README.md,line=1::forged\\n::add-mask::s3cret\\u{2028}x\\u{2029}"
        try Self.folder(["e.kcs": "team SKMME9E2Y8\napp com.example.A as \"\(name)\" entitlements=\"a.entitlements\"\n"
                            + "as \"\(name)\" find generic-password account=\"x\"\nexplain\n",
                         "a.entitlements": "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict>"
                            + "<key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)x\n::error::inj</string></array>"
                            + "</dict></plist>\n"]) { dir in
            for arguments in [["run", "e.kcs"], ["run", "-v", "e.kcs"]] {
                let out = try BinaryRunner.run(arguments, environment: ["GITHUB_ACTIONS": "true"], directory: dir)
                #expect(out.stdout.contains("forged"), "\(arguments): \(out.stdout) \(out.stderr)")
                let lines = out.stdout.components(separatedBy: "\n")
                #expect(!lines.contains { $0.hasPrefix("::add-mask") || $0.hasPrefix("::error::inj") || $0.hasPrefix("::error file=README") },
                        "\(arguments): \(out.stdout)")
                // Nor a line or paragraph separator (adversarial 19, E1).
                #expect(!(out.stdout + out.stderr).unicodeScalars.contains { $0.value == 0x2028 || $0.value == 0x2029 })
            }
        }
    }

    /// Adversarial 20, E1: a file's name starts the lines about it
    /// (`NAME:LINE:COL: error`, `-v` call lines, the lint summary, a changed
    /// file of `kcs fmt`): a name from a pull request such as
    /// `::stop-commands::x.kcs` made them GitHub workflow commands.
    @Test func fileNamesCannotStartWorkflowCommands() throws {
        let bad = "team SKMME9E2Y8\nbogus\n", call = "team SKMME9E2Y8\napp com.a.A\nas A add generic-password account=\"x\"\n"
        try Self.folder(["::stop-commands::off.kcs": bad, "::error file=README.md::x.kcs": call, "##vso[task.complete]y.kcs": bad,
                         "::notice::hi.md": "# x\n```kcs\n" + bad + "```\n", "fmt/::warning::f.kcs": "team   SKMME9E2Y8\n"]) { dir in
            for arguments in [["run", "-v", "::stop-commands::off.kcs", "::error file=README.md::x.kcs", "##vso[task.complete]y.kcs"],
                              ["check", "::notice::hi.md"], ["lint", "::stop-commands::off.kcs", "::error file=README.md::x.kcs"],
                              ["fmt", "fmt"]] {
                let out = try BinaryRunner.run(arguments, environment: ["GITHUB_ACTIONS": "true"], directory: dir)
                let lines = (out.stdout + "\n" + out.stderr).components(separatedBy: "\n")
                // kcs's own annotations encode the name (`file=%3A%3A…`).
                let forged = lines.filter { ($0.hasPrefix("::") && !$0.hasPrefix("::error file=")) || $0.hasPrefix("##")
                                              || ($0.hasPrefix("::error file=") && $0.dropFirst(13).prefix { $0 != "," }.contains(":")) }
                #expect(forged.isEmpty, "\(arguments): \(forged)")
                #expect(lines.contains { $0.hasPrefix("./::") || $0.hasPrefix("./##") || $0.hasPrefix("fmt/::") }, "\(arguments): \(lines)")
            }
        }
    }

    /// Adversarial 20, L3: past `ulimit -f` the signal killed `kcs fmt`
    /// mid-write, with no message, and left its temporary file behind.
    @Test func aFileSizeLimitIsAnErrorNotASignal() throws {
        let script = String(repeating: "as   A   add generic-password account=\"x\"\n", count: 400)
        try Self.folder(["big.kcs": "team SKMME9E2Y8\napp com.a.A\n" + script]) { dir in
            let out = try BinaryRunner.run(["-c", "ulimit -f 8; exec \"$0\" fmt big.kcs", BinaryRunner.binary.path],
                                           executable: URL(fileURLWithPath: "/bin/sh"), directory: dir)
            #expect(out.status != 0 && out.status < 128, "\(out.status) \(out.stderr)")
            #expect(out.stderr.contains("big.kcs") && out.stderr.contains("File too large"), "\(out.stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            #expect(left == ["big.kcs"], "\(left)")
            #expect(try String(contentsOf: dir.appendingPathComponent("big.kcs"), encoding: .utf8).hasSuffix(script))
        }
    }

    /// Adversarial 20, L4: `kcs fmt DIR` wrote through a link in DIR to a
    /// file outside it; a link named on the command line is still followed.
    @Test func fmtOfAFolderDoesNotWriteThroughLinks() throws {
        let messy = "team    SKMME9E2Y8\n"
        try Self.folder(["outside.kcs": messy, "d/own.kcs": messy]) { dir in
            try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("d/link.kcs").path,
                                                       withDestinationPath: "../outside.kcs")
            let out = try BinaryRunner.run(["fmt", "d"], directory: dir)
            #expect(out.stderr.contains("d/link.kcs: a symbolic link in a folder is not followed"), "\(out.stderr)")
            #expect(try String(contentsOf: dir.appendingPathComponent("outside.kcs"), encoding: .utf8) == messy)
            #expect(try String(contentsOf: dir.appendingPathComponent("d/own.kcs"), encoding: .utf8) == "team SKMME9E2Y8\n")
            _ = try BinaryRunner.run(["fmt", "d/link.kcs"], directory: dir)
            #expect(try String(contentsOf: dir.appendingPathComponent("outside.kcs"), encoding: .utf8) == "team SKMME9E2Y8\n")
        }
    }

    /// Adversarial 18, P1: a path is read up to its first NUL by the system,
    /// so `include "base.kcs\u{0}x"` ran base.kcs; with `--untrusted` too.
    @Test func aPathHoldingANulIsRefused() throws {
        try Self.folder(["base.kcs": "team SKMME9E2Y8\napp com.example.A\n",
                         "inc.kcs": "include \"base.kcs\\u{0}x\"\n",
                         "ent.kcs": "team SKMME9E2Y8\napp com.example.A entitlements=\"a.entitlements\\u{0}\"\n",
                         "a.entitlements": "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict></dict></plist>\n"]) { dir in
            for (script, column) in [("inc.kcs", ":1:"), ("ent.kcs", ":2:")] {
                for extra in [[], ["--untrusted"]] {
                    let out = try BinaryRunner.run(["run"] + extra + [script], directory: dir)
                    #expect(out.status != 0, "\(script) \(extra): \(out.stdout)")
                    #expect(out.stderr.contains("a path cannot hold a NUL character"), "\(script) \(extra): \(out.stderr)")
                    #expect(out.stderr.contains(script + column), "\(out.stderr)")
                }
            }
        }
    }

    /// Finding 14: TAP descriptions passed ESC raw (`\r\e[2K` rewrote the line;
    /// a raw CR not before LF is itself an error since session 20, KCS012).
    @Test func tapDescriptionsEscapeControlCharacters() throws {
        let script = "team SKMME9E2Y8\napp com.example.A\nas A add generic-password account=\"a\" data=\"q\"\n"
            + "as A find generic-password account=\"a\" return=data\nexpect data \"x\\u{D}\u{1B}[2Kok 1 - all good\"\n"
        let out = try BinaryRunner.run(["run", "--format", "tap", "-"], stdin: script)
        #expect(out.status == 1)
        #expect(!out.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\r" }, "\(out.stdout)")
        #expect(out.stdout.contains("\\u{1B}"))
    }

    /// Finding 5: files that include the next file twice, level after level,
    /// ran 2^levels statements (and kept a diagnostic for each). Refused at
    /// the first include, at once: the refusal is said only by the check
    /// before the include runs, and that check's work is counted in process
    /// (a 10 s bound on the run flaked on a loaded machine).
    @Test func anIncludeDiamondIsRefusedBeforeItRuns() throws {
        var files: [String: String] = [:]
        for i in 0..<31 { files["f\(i).kcs"] = "include \"f\(i + 1).kcs\"\ninclude \"./f\(i + 1).kcs\"\n" }
        files["f31.kcs"] = "expect status 0\n"
        try Self.folder(files) { dir in
            // The check sizes the diamond by looking at each file's two
            // statements once: 2 × 31, where 2^30 statements run (without
            // its memo it looks at more than `cap` of them).
            let loader = FileSystemLoader()
            let main = try loader.read(dir.appendingPathComponent("f0.kcs").path)
            var includes = IncludedPrograms(), diagnostics: [Diagnostic] = []
            let program = ScriptLoader.parse(main, loader: loader, stack: [loader.canonical(main.name)],
                                             includes: &includes, diagnostics: &diagnostics)
            #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
            guard case .include(_, let first?) = program.statements.first?.kind else {
                Issue.record("f0.kcs's first include is not resolved")
                return
            }
            var sizes = Session.ExpandedSizes()
            #expect(Session.expandedStatements(first, includes, &sizes, cap: 1_000_000) == 1_000_001)
            #expect(sizes.statementsWalked <= 2 * 31, "\(sizes.statementsWalked) statements looked at")
            let out = try BinaryRunner.run(["run", "f0.kcs"], directory: dir)
            #expect(out.status == 1)
            #expect(out.stderr.contains("the include runs more than 50000000 statements with its own includes, over the limit of 50000000"),
                    "\(out.stderr)")
            #expect(out.stderr.contains("[KCS311]"))
            let export = try BinaryRunner.run(["export", "--swift", "f0.kcs"], directory: dir)
            #expect(export.status != 0)
            #expect(export.stdout.count < 10_000)
        }
    }

    /// Finding 6: symlinks to `.` gave each level a new spelling of the same
    /// files, and each spelling was parsed again: 6^8 parses.
    @Test func symlinkedSpellingsOfOneIncludeAreParsedOnce() throws {
        var files: [String: String] = [:]
        let fan = 6, depth = 8
        for i in 0..<depth { files["f\(i).kcs"] = (1...fan).map { "include \"d\($0)/f\(i + 1).kcs\"\n" }.joined() }
        files["f\(depth).kcs"] = "lock\n"
        try Self.folder(files) { dir in
            for j in 1...fan {
                try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("d\(j)").path, withDestinationPath: ".")
            }
            // Each file is read (and parsed) once however it is spelled:
            // counted, not timed (a 10 s bound flaked on a loaded machine).
            // Keyed by spelling, the files would be read 1 + 6 + … + 6^8 times.
            let loader = CountingFileLoader()
            let main = try loader.read(dir.appendingPathComponent("f0.kcs").path)
            var includes = IncludedPrograms(), diagnostics: [Diagnostic] = []
            _ = ScriptLoader.parse(main, loader: loader, stack: [loader.canonical(main.name)],
                                   includes: &includes, diagnostics: &diagnostics)
            #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
            #expect(loader.reads == depth + 1, "\(loader.reads) reads")
            // 6^8 runs of `lock`: over the untrusted statement limit, refused.
            let out = try BinaryRunner.run(["run", "--untrusted", "f0.kcs"], directory: dir)
            #expect(out.stderr.contains("[KCS311]"), "\(out.stderr)")
        }
    }

    /// Finding 7: `sync` copied devices × items past the item and time
    /// limits, and a last `sync` was never reported.
    @Test func syncStopsAtTheItemLimit() throws {
        let devices = 600
        let script = "team SKMME9E2Y8\napp com.example.A\n"
            + (0..<devices).map { "device D\($0)\n" }.joined()
            + (0..<devices).map { "on D\($0) as A add generic-password account=\"a\($0)\" sync=true\n" }.joined()
            + "sync\n"
        var out: BinaryRunner.Output?
        // --timeout 60 over --untrusted's 5 s: on a loaded machine a debug
        // build reached the time limit before the item limit.
        let seconds = try Self.elapsed { out = try BinaryRunner.run(["run", "--untrusted", "--timeout", "60", "-"], stdin: script) }
        #expect(seconds < 60)
        #expect(out?.status == 1)
        #expect(out?.stderr.contains("over the limit of 100000") == true, "\(out?.stderr ?? "")")
        #expect(out?.stderr.contains("[KCS311]") == true)
    }

    /// Finding 8: every "unknown app" listed all declared apps and echoed
    /// the whole name: output grew with apps × errors.
    @Test func unknownNameHintsListAFewNames() throws {
        let apps = 300
        let long = String(repeating: "n", count: 10_000)
        let script = "team SKMME9E2Y8\n" + (0..<apps).map { "app com.example.A\($0) as app\($0)qqqqqqqqqqqqqqqqqqqq\n" }.joined()
            + (0..<apps).map { "as app\($0)Z add generic-password account=\"a\"\n" }.joined()
            + "as \(long) add generic-password\n"
        let out = try BinaryRunner.run(["run", "-"], stdin: script)
        #expect(out.status == 1)
        #expect(out.stderr.contains("… and 295 more"), "\(out.stderr.prefix(2000))")
        let longest = out.stderr.split(separator: "\n").map(\.count).max() ?? 0
        #expect(longest < 1_000)
        #expect(out.stderr.utf8.count < 200 * 1_000)
    }

    /// Finding 18: a document below a folder that cannot be listed (here:
    /// a path too long for the OS) was skipped silently and the run passed.
    @Test func aFolderThatCannotBeListedIsReported() throws {
        try Self.folder([:]) { dir in
            // Deeper than PATH_MAX: built one level at a time from open folders.
            var fd = open(dir.path, O_RDONLY)
            for _ in 0..<2_100 where fd >= 0 {
                _ = mkdirat(fd, "a", 0o755)
                let next = openat(fd, "a", O_RDONLY)
                close(fd)
                fd = next
            }
            #expect(fd >= 0)
            let doc = openat(fd, "x.md", O_WRONLY | O_CREAT, 0o644)
            let text = Array("```kcs\nexpect status 0\n```\n".utf8)
            #expect(write(doc, text, text.count) == text.count)
            close(doc)
            close(fd)
            // FileManager cannot remove what it cannot name; rm works by folder.
            defer { _ = try? BinaryRunner.exec("/bin/rm", ["-rf", dir.appendingPathComponent("a").path]) }
            let out = try BinaryRunner.run(["check", "."], directory: dir)
            #expect(out.status == 66, "\(out.stdout)")
            #expect(out.stderr.contains("cannot list the folder"), "\(out.stderr.prefix(500))")
            #expect(out.stderr.contains("File name too long"), "\(out.stderr.prefix(500))")
        }
    }

    /// A sync inserts what it brings in one order whatever the process's hash
    /// seed: items from two devices with the same place in their keychains
    /// went by dictionary order, and one script failed 3 runs in 10 (found
    /// by review). Each run is a process of its own, so each has its own seed.
    @Test func aSyncGivesTheSameAnswerInEveryProcess() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("sync.kcs").path
        try """
            team SKMME9E2Y8
            app com.x.A as A
            device iPad
            device Third
            as A add generic-password account="k1" sync=true data="1"
            on iPad as A add generic-password account="k2" sync=true data="2"
            sync
            on Third as A find generic-password sync=any return=data
            expect data "1"

            """.write(toFile: script, atomically: true, encoding: .utf8)
        for _ in 0..<8 {
            let out = try BinaryRunner.run(["run", script])
            #expect(out.status == 0, "\(out.stderr)")
        }
    }
}

/// The file system's loader, counting the files it reads.
final class CountingFileLoader: SourceLoader, @unchecked Sendable {
    let inner = FileSystemLoader()
    var reads = 0
    func resolve(_ path: String, relativeTo including: String?) -> String { inner.resolve(path, relativeTo: including) }
    func read(_ resolved: String) throws(LoadError) -> SourceFile {
        reads += 1
        return try inner.read(resolved)
    }
    func canonical(_ resolved: String) -> String { inner.canonical(resolved) }
}
