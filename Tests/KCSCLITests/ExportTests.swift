import Foundation
import Testing

/// `kcs export --swift`, `kcs lint`, `kcs matrix` and the lint flags, run
/// through the built binary.
@Suite struct ExportTests {
    static let goldenDir = BinaryRunner.root.appendingPathComponent("Tests/Golden/export")

    /// The generated code for a couple of examples is pinned byte for byte;
    /// KCS_UPDATE_GOLDEN=1 rewrites the expected files.
    @Test(arguments: ["02-keychain-access-group", "09-update-moves-between-groups", "15-accessibility-and-access-control",
                      "19-imported-entitlements"])
    func exportedSwiftIsPinned(name: String) throws {
        let out = try BinaryRunner.run(["export", "--swift", "examples/\(name).kcs"])
        #expect(out.status == 0, "\(out.stderr)")
        let expectedURL = Self.goldenDir.appendingPathComponent("\(name).swift.expected")
        if ProcessInfo.processInfo.environment["KCS_UPDATE_GOLDEN"] == "1" {
            try out.stdout.write(to: expectedURL, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: expectedURL, encoding: .utf8)
        #expect(out.stdout == expected, "\(name): the exported Swift differs from \(expectedURL.lastPathComponent)")
    }

    /// Every example exported, then type-checked in one swiftc run against
    /// the Security stub (compiled as a module named Security).
    @Test func everyExampleTypeChecksAgainstTheSecurityStub() throws {
        #if os(Linux)
        let swiftc = Self.swiftc()
        try #require(swiftc != nil, "no swiftc found")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let examples = try FileManager.default.contentsOfDirectory(atPath: BinaryRunner.root.appendingPathComponent("examples").path)
            .filter { $0.hasSuffix(".kcs") }.sorted()
        #expect(examples.count >= 10)
        var sources: [String] = []
        for example in examples {
            let target = dir.appendingPathComponent(example.replacingOccurrences(of: ".kcs", with: ".swift"))
            let out = try BinaryRunner.run(["export", "--swift", "examples/" + example, "-o", target.path])
            #expect(out.status == 0, "\(example): \(out.stderr)")
            sources.append(target.path)
        }
        let stub = BinaryRunner.root.appendingPathComponent("Tests/KCSCLITests/SecurityStub/Security.swift").path
        let module = try BinaryRunner.exec(swiftc ?? "", ["-emit-module", "-module-name", "Security", "-parse-as-library", stub,
                                                 "-emit-module-path", dir.appendingPathComponent("Security.swiftmodule").path],
                                   in: dir)
        #expect(module.status == 0, "the stub does not compile: \(module.output)")
        let check = try BinaryRunner.exec(swiftc ?? "", ["-typecheck", "-I", dir.path] + sources, in: dir)
        #expect(check.status == 0, "exported Swift does not type-check:\n\(check.output)")
        #endif
    }

    /// SecItem.h: "Only real keychain attributes are permitted" in
    /// SecItemUpdate's attributes to change; a device answers kSecClass,
    /// match, return and use keys there with errSecNoSuchAttr. No exported
    /// changes dictionary may hold one.
    @Test func anOutputThatIsTheInputIsRefused() throws {
        // `-o` naming the scenario (or, for an import, the project's own
        // file) replaced it with what was made from it (found by
        // adversarial testing); through a link too.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-same-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = dir.appendingPathComponent("s.kcs").path
        let original = try String(contentsOfFile: "examples/02-keychain-access-group.kcs", encoding: .utf8)
        try original.write(toFile: scenario, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.swift").path, withDestinationPath: scenario)
        // An include the scenario reads is an input too.
        let included = dir.appendingPathComponent("inc.kcs").path
        try "# shared\n".write(toFile: included, atomically: true, encoding: .utf8)
        try (original + "include \"inc.kcs\"\n").write(toFile: scenario, atomically: true, encoding: .utf8)
        let out = try BinaryRunner.run(["export", "--swift", scenario, "-o", included])
        #expect(out.status == 66 && out.stderr.contains("which this run reads"), "\(out.stderr)")
        #expect(try String(contentsOfFile: included, encoding: .utf8) == "# shared\n")
        try original.write(toFile: scenario, atomically: true, encoding: .utf8)
        for target in [scenario, dir.appendingPathComponent("link.swift").path] {
            let out = try BinaryRunner.run(["export", "--swift", scenario, "-o", target])
            #expect(out.status == 66 && out.stderr.contains("which this run reads; it was not overwritten"), "\(out.stderr)")
            #expect(try String(contentsOfFile: scenario, encoding: .utf8) == original)
        }
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let pbxproj = f.path("App.xcodeproj/project.pbxproj")
        let before = try Data(contentsOf: URL(fileURLWithPath: pbxproj))
        for target in [pbxproj, f.path("App/App.entitlements"), f.path("Config/Base.xcconfig")] {
            let out = try BinaryRunner.run(["import", "xcode", f.projectPath, "-o", target])
            #expect(out.status == 66 && out.stderr.contains("which this run reads; it was not overwritten"), "\(out.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: pbxproj)) == before)
        // Nor over an existing file that is no scenario: the template a hint
        // says to copy (found by adversarial testing).
        let template = f.path("Secrets.template.xcconfig")
        try "API_KEY = x\n".write(toFile: template, atomically: true, encoding: .utf8)
        let kept = try BinaryRunner.run(["import", "xcode", f.projectPath, "-o", template])
        #expect(kept.status == 66 && kept.stderr.contains("exists and is no scenario kcs import wrote; it was not overwritten"),
                "\(kept.stderr)")
        #expect(try String(contentsOfFile: template, encoding: .utf8) == "API_KEY = x\n")
        // Nor through a link named like a scenario, or a path through /dev.
        let link = f.path("out.kcs")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: template)
        for target in [link, "/dev/.." + template] {
            let linked = try BinaryRunner.run(["import", "xcode", f.projectPath, "-o", target])
            #expect(linked.status == 66 && linked.stderr.contains("is no scenario kcs import wrote"), "\(linked.stderr)")
        }
        #expect(try String(contentsOfFile: template, encoding: .utf8) == "API_KEY = x\n")
        // Nor over a hand-written scenario; an earlier import is replaced.
        let own = f.path("own.kcs")
        // Notes whose first line merely begins as an import's does are someone's own too.
        for text in ["team SKMME9E2Y8\n", "# Imported from my head, hand-written notes follow\nteam SKMME9E2Y8\n"] {
            try text.write(toFile: own, atomically: true, encoding: .utf8)
            let handWritten = try BinaryRunner.run(["import", "xcode", f.projectPath, "-o", own])
            #expect(handWritten.status == 66 && handWritten.stderr.contains("is no scenario kcs import wrote"), "\(handWritten.stderr)")
            #expect(try String(contentsOfFile: own, encoding: .utf8) == text)
        }
        let imported = f.path("imported.kcs")
        for _ in 0..<2 {
            let again = try BinaryRunner.run(["import", "xcode", f.projectPath, "-o", imported])
            #expect(again.status == 0, "\(again.stderr)")
        }
        #expect(try String(contentsOfFile: imported, encoding: .utf8).hasPrefix("# Imported from "))
    }

    /// `-o /dev/stdout >> file` replaced the file: the device path was
    /// reopened by name (adversarial 19, L1). It is written through the
    /// descriptor, as the shell set it up.
    @Test func standardOutputRedirectedAppends() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-append-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "// precious\n".write(to: dir.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
        try "# notes\n".write(to: dir.appendingPathComponent("mine.kcs"), atomically: true, encoding: .utf8)
        let scenario = BinaryRunner.root.appendingPathComponent("examples/01-private-default-group.kcs").path
        let kcs = BinaryRunner.binary.path
        for (command, file, kept) in [
            ("'\(kcs)' export --swift '\(scenario)' -o /dev/stdout >> A.swift", "A.swift", "// precious\n"),
            ("'\(kcs)' export --swift '\(scenario)' -o /dev/fd/1 >> A.swift", "A.swift", "// precious\n"),
        ] {
            let out = try BinaryRunner.exec("/bin/sh", ["-c", command], in: dir)
            #expect(out.status == 0, "\(command): \(out.output)")
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            #expect(text.hasPrefix(kept) && text.contains("// Generated by `kcs export --swift"), "\(command): \(text.prefix(200))")
        }
        let twice = try String(contentsOf: dir.appendingPathComponent("A.swift"), encoding: .utf8)
        #expect(twice.components(separatedBy: "// Generated by").count == 3, "appended twice")
    }

    /// `export -o` replaced any file: Package.swift, a README, a
    /// hand-written scenario (adversarial 18, L1). It writes a new file, an
    /// empty one, or one an earlier export wrote; nothing else.
    @Test func exportReplacesOnlyItsOwnFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-own-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = "examples/01-private-default-group.kcs"
        for (name, text) in [("Package.swift", "// swift-tools-version:6.0\n"), ("README.md", "# Notes\n"), ("mine.kcs", "team SKMME9E2Y8\n"),
                             ("Tests.swift", "import Testing\n")] {
            let path = dir.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let out = try BinaryRunner.run(["export", "--swift", scenario, "-o", path])
            #expect(out.status == 66 && out.stderr.contains("exists and is no file kcs export wrote; it was not overwritten"),
                    "\(name): \(out.stderr)")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == text, "\(name) was replaced")
        }
        let generated = dir.appendingPathComponent("Generated.swift").path
        #expect(FileManager.default.createFile(atPath: generated, contents: Data()))
        for _ in 0..<2 {
            let out = try BinaryRunner.run(["export", "--swift", scenario, "-o", generated])
            #expect(out.status == 0, "\(out.stderr)")
        }
        #expect(try String(contentsOfFile: generated, encoding: .utf8).hasPrefix("// Generated by `kcs export --swift "))
    }

    @Test func updateChangesHoldOnlyRealAttributes() throws {
        let examples = try FileManager.default.contentsOfDirectory(atPath: BinaryRunner.root.appendingPathComponent("examples").path)
            .filter { $0.hasSuffix(".kcs") }.sorted()
        var dictionaries = 0
        for example in examples {
            let out = try BinaryRunner.run(["export", "--swift", "examples/" + example])
            #expect(out.status == 0, "\(example): \(out.stderr)")
            var inChanges = false
            for line in out.stdout.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                if line.hasPrefix("let changes: [String: Any] = [") { inChanges = true; dictionaries += 1; continue }
                if inChanges && line == "]" { inChanges = false; continue }
                guard inChanges else { continue }
                let key = line.prefix { $0 != " " }
                #expect(key.hasPrefix("kSecAttr") || key == "kSecValueData",
                        "\(example): \(key) in SecItemUpdate's attributes to change")
                #expect(key != "kSecClass" && key != "kSecAttrSynchronizableAny")
            }
        }
        #expect(dictionaries >= 5, "the examples export too few updates to check")
    }

    @Test func exportOfABrokenScriptFailsLikeRun() throws {
        let out = try BinaryRunner.run(["export", "--swift", "-"])
        #expect(out.status == 66)
        #expect(try BinaryRunner.run(["export", "examples/02-keychain-access-group.kcs"]).status == 64)
        #expect(try BinaryRunner.run(["export", "--swift", "Tests/Golden/syntax-errors.kcs"]).status == 65)
    }

    /// The file is written, and what the run found is reported with the exit
    /// code `kcs run` gives: a runtime error or a failed expectation is 1, and
    /// so is a time limit (found by adversarial testing: export exited 0 in
    /// silence, and 65 at a time limit).
    @Test func exportReportsWhatTheRunFound() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func export(_ name: String, _ text: String, _ extra: [String] = []) throws -> BinaryRunner.Output {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
            return try BinaryRunner.run(["export", "--swift"] + extra + [name], directory: dir)
        }
        let unknown = try export("unknown.kcs", "team SKMME9E2Y8\nas X add generic-password\n")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("unknown.kcs:2:4: error: unknown app 'X' [KCS301]"))
        #expect(unknown.stdout.contains("not exported: in kcs this call stopped with an error"))
        let failed = try export("failed.kcs", "team SKMME9E2Y8\napp com.x.A\nas A add generic-password account=\"a\"\nexpect status errSecItemNotFound\n")
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("[KCS401]"))
        #expect(failed.stdout.contains("@Test"))
        var big = "team SKMME9E2Y8\napp com.x.A\n"
        for i in 0..<60_000 { big += "as A add generic-password account=\"\(i)\"\n" }
        let late = try export("big.kcs", big, ["--timeout", "0.2"])
        #expect(late.status == 1)
        #expect(late.stderr.contains("took longer than its time limit of 0.2 s"))
        #expect(late.stdout.isEmpty)
    }

    @Test func lintCommandAndFlags() throws {
        let lint = try BinaryRunner.run(["lint", "examples/lint/503-sync-this-device-only.kcs"])
        #expect(lint.status == 1)
        #expect(lint.stderr.contains("examples/lint/503-sync-this-device-only.kcs:6:1: warning: sync=true with after-first-unlock-this-device-only: the item is stored but never synced [KCS503]"))
        #expect(lint.stdout == "examples/lint/503-sync-this-device-only.kcs: 1 warning\n")
        let clean = try BinaryRunner.run(["lint", "examples/01-private-default-group.kcs"])
        #expect(clean.status == 0, "\(clean.stderr)")
        let run = try BinaryRunner.run(["run", "examples/lint/503-sync-this-device-only.kcs"])
        #expect(run.status == 0)
        #expect(run.stderr.contains("[KCS503]"))
        let quiet = try BinaryRunner.run(["run", "--no-lint", "examples/lint/503-sync-this-device-only.kcs"])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty)
        let strict = try BinaryRunner.run(["run", "--strict", "examples/lint/503-sync-this-device-only.kcs"])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("error: sync=true"))
        #expect(try BinaryRunner.run(["run", "--strict", "--no-lint", "x.kcs"]).status == 64)
    }

    @Test func lintEntitlementsPrintsTheAccessGroups() throws {
        let out = try BinaryRunner.run(["lint", "--entitlements", "examples/entitlements/AppOne.entitlements",
                                        "--team", "SKMME9E2Y8", "--bundle-id", "com.example.AppOne"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("""
            access groups, in order:
              0. SKMME9E2Y8.com.example.SharedItems  (default)
              1. SKMME9E2Y8.com.example.AppOne
              2. SKMME9E2Y8.com.example.AppOne
              3. group.com.example.AppSuite
            """))
        let broken = try BinaryRunner.run(["lint", "--entitlements", "examples/entitlements/broken.entitlements"])
        #expect(broken.status == 66)
        #expect(broken.stderr.contains("examples/entitlements/broken.entitlements: the XML is not a valid property list"))
    }

    @Test func matrixAsMarkdown() throws {
        let out = try BinaryRunner.run(["matrix", "examples/03-app-groups.kcs", "--format", "markdown"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout == """
            | item | group | `Photos` | `ShareExt` | `Unrelated` | `Viewer` |
            |---|---|---|---|---|---|
            | 1. `generic-password account="alice" service="upload"` | `SKMME9E2Y8.com.example.Photos` | read | no: group not in its list | no: group not in its list | no: group not in its list |
            | 2. `generic-password account="bob" service="upload"` | `group.com.example.PhotoSuite` | read | read | no: group not in its list | read |

            """)
        // Names are text, never Markdown or HTML (found by adversarial testing).
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-mx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "team SKMME9E2Y8\napp com.example.A as A\nas A add generic-password account=\"a\\\\|b**<script>`\"\n"
            .write(to: dir.appendingPathComponent("m.kcs"), atomically: false, encoding: .utf8)
        let hostile = try BinaryRunner.run(["matrix", dir.appendingPathComponent("m.kcs").path, "--format", "markdown"])
        #expect(hostile.stdout.contains(#"| 1. ``generic-password account="a\\\u{7C}b**<script>`"``"#), "\(hostile.stdout)")
        // GitHub's links, mentions, emoji and math stay in code spans, and
        // kcs's own row labels are no issue references (`#1`).
        try "team SKMME9E2Y8\napp com.example.A as \"@admin #1 www.x.example :warning: $x$ `\"\nas \"@admin #1 www.x.example :warning: $x$ `\" add generic-password\n"
            .write(to: dir.appendingPathComponent("g.kcs"), atomically: false, encoding: .utf8)
        let github = try BinaryRunner.run(["matrix", dir.appendingPathComponent("g.kcs").path, "--format", "markdown"])
        #expect(github.stdout.hasPrefix("| item | group | `` @admin #1 www.x.example :warning: $x$ ` `` |\n"), "\(github.stdout)")
        #expect(github.stdout.contains("\n| 1. `generic-password` | `SKMME9E2Y8.com.example.A` | read |\n"), "\(github.stdout)")
        // A name inside a verdict (a file-keychain item's owner) is code too.
        try "platform macos 15\nteam SKMME9E2Y8\napp com.example.A as \"@admin #1\"\napp com.example.B as B\nas \"@admin #1\" add generic-password account=\"a\" data-protection=false\n"
            .write(to: dir.appendingPathComponent("o.kcs"), atomically: false, encoding: .utf8)
        let owner = try BinaryRunner.run(["matrix", dir.appendingPathComponent("o.kcs").path, "--format", "markdown"])
        #expect(owner.stdout.contains("| read (owner) | prompt: owned by `@admin #1` |"), "\(owner.stdout)")
        // An owner signed anew is asked, and its cell says why (session 19).
        try "platform macos 15\nteam SKMME9E2Y8\napp com.example.A as A\napp com.example.B as B\nas A add generic-password account=\"a\"\nresign A\n"
            .write(to: dir.appendingPathComponent("r.kcs"), atomically: false, encoding: .utf8)
        let resigned = try BinaryRunner.run(["matrix", dir.appendingPathComponent("r.kcs").path, "--format", "markdown"])
        #expect(resigned.stdout.contains("| prompt: re-signed since | prompt: owned by `A` |"), "\(resigned.stdout)")
        // A certificate has no access list: every app reads it (review 19, R3).
        try "platform macos 15\nteam SKMME9E2Y8\napp com.example.A as A\napp com.example.B as B\nas A add certificate issuer=\"CN=x\" serial-number=\"1\" data=\"c\"\n"
            .write(to: dir.appendingPathComponent("c.kcs"), atomically: false, encoding: .utf8)
        let certificate = try BinaryRunner.run(["matrix", dir.appendingPathComponent("c.kcs").path, "--format", "markdown"])
        #expect(certificate.stdout.contains("| read (owner) | read (no access list) |"), "\(certificate.stdout)")
        let text = try BinaryRunner.run(["matrix", "examples/03-app-groups.kcs"])
        #expect(text.stdout.hasPrefix("item "))
        #expect(try BinaryRunner.run(["matrix", "no/such.kcs"]).status == 66)
    }

    static func swiftc() -> String? {
        FileManager.default.isExecutableFile(atPath: "/opt/swift/usr/bin/swiftc") ? "/opt/swift/usr/bin/swiftc"
            : BinaryRunner.tool("swiftc")
    }
}

/// `-o /dev/stdout` writes through the descriptor; when the shell opened it
/// on a file the run reads (`1<>s.kcs`), that file is not written (review 9).
@Suite struct OwnOutputTests {
    @Test func standardOutputOnAnInputIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-ownout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = try String(contentsOfFile: "examples/01-private-default-group.kcs", encoding: .utf8)
        try original.write(to: dir.appendingPathComponent("s.kcs"), atomically: true, encoding: .utf8)
        let out = try BinaryRunner.exec("/bin/sh", ["-c", "'\(BinaryRunner.binary.path)' export --swift s.kcs -o /dev/stdout 1<>s.kcs"], in: dir)
        #expect(out.status == 66 && out.output.contains("which this run reads"), "\(out.output)")
        #expect(try String(contentsOf: dir.appendingPathComponent("s.kcs"), encoding: .utf8) == original)
    }
}

/// Generated files and reports stop at a limit (64 MiB unless --max-output
/// says otherwise) with a located error: 103 KB of scripts made `kcs export
/// --swift` abort at 2.7 GB (adversarial 20, M6).
@Suite struct GeneratedOutputCLITests {
    @Test func exportAndReportsStopAtTheLimitWhereTheyPassIt() throws {
        var body = ""
        for i in 0..<20 { body += "as A add generic-password account=\"a\(i)\"\nexpect status errSecSuccess\n" }
        var main = "team SKMME9E2Y8\napp com.a.A\n"
        for _ in 0..<100 { main += "include \"body.kcs\"\nreset\nteam SKMME9E2Y8\napp com.a.A\n" }
        try SafetyCLITests.folder(["main.kcs": main, "body.kcs": body]) { dir in
            let export = try BinaryRunner.run(["export", "--swift", "--max-output", "50000", "main.kcs", "-o", "T.swift"], directory: dir)
            #expect(export.status == 1)
            #expect(export.stderr.hasPrefix("body.kcs:"), "\(export.stderr)")
            // The run's own output (its call lines) reaches the limit first here.
            #expect(export.stderr.contains("limit of 50000") && export.stderr.contains("[KCS311]"), "\(export.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("T.swift").path))
            #expect(try BinaryRunner.run(["export", "--swift", "main.kcs", "-o", "T.swift"], directory: dir).status == 0)
            for format in ["json", "junit", "tap"] {
                let report = try BinaryRunner.run(["run", "--format", format, "--max-output", "20000", "main.kcs"], directory: dir)
                #expect(report.status == 1)
                #expect((report.stdout + report.stderr).contains("make a report of more than its limit of 20000 bytes"), "\(format)")
                #expect(report.stdout.utf8.count < 60_000, "\(format): \(report.stdout.utf8.count)")
            }
        }
    }
}
