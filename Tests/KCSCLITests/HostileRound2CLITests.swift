import Foundation
import Testing

/// What a second adversarial run of the binary found (session 8), each
/// reduced to its case and run through the built `kcs`.
@Suite struct HostileRound2CLITests {
    /// A copy of the docs' Notes project in a fresh folder.
    static func notesCopy() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: BinaryRunner.root.appendingPathComponent("docs/xcode/Notes"),
                                         to: dir.appendingPathComponent("Notes"))
        return dir
    }

    static func append(_ text: String, to url: URL) throws {
        let old = try String(contentsOf: url, encoding: .utf8)
        try (old + text).write(to: url, atomically: false, encoding: .utf8)
    }

    /// An xcconfig `#include "/proc/self/environ"` put the environment,
    /// secrets and all, into a lint warning; `--untrusted` did not keep the
    /// project's reads inside its folder.
    @Test func projectReadsFollowTheScriptRules() throws {
        let dir = try Self.notesCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("Notes/Config")
        try Self.append("#include \"/proc/self/environ\"\n", to: config.appendingPathComponent("Team.xcconfig"))
        try Self.append("PRODUCT_BUNDLE_IDENTIFIER = $(KCS_SECRET_FOR_TEST)\n", to: config.appendingPathComponent("Base.xcconfig"))
        let env = ["KCS_SECRET_FOR_TEST": "hunter2"]
        for args in [["lint", "--project", "Notes/Notes.xcodeproj"], ["import", "xcode", "Notes/Notes.xcodeproj"]] {
            let out = try BinaryRunner.run(args, environment: env, directory: dir)
            #expect(!out.stderr.contains("hunter2") && !out.stdout.contains("hunter2"), "\(args): \(out.stderr)")
            #expect(out.stderr.contains("/proc"), "\(args): \(out.stderr)")
        }
        // Under --untrusted the project's folder is the root.
        try "SECRET_SUFFIX = outside\n".write(to: dir.appendingPathComponent("outside.xcconfig"), atomically: false, encoding: .utf8)
        try "#include \"../../outside.xcconfig\"\nDEVELOPMENT_TEAM = SKMME9E2Y8\n"
            .write(to: config.appendingPathComponent("Team.xcconfig"), atomically: false, encoding: .utf8)
        let untrusted = try BinaryRunner.run(["lint", "--untrusted", "--project", "Notes/Notes.xcodeproj"], directory: dir)
        #expect(untrusted.stderr.contains("outside.xcconfig") && untrusted.stderr.contains("outside"), "\(untrusted.stderr)")
        #expect(!untrusted.stderr.contains("SECRET_SUFFIX"), "\(untrusted.stderr)")
    }

    /// Two links to "." in a synchronized folder made one Swift file some
    /// 2,000 paths, each read and parsed (a 100 KB file: 100 s, 670 MB).
    @Test func aSynchronizedFolderWithSelfLinksIsReadOnce() throws {
        let dir = try Self.notesCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pbxproj = dir.appendingPathComponent("Notes/Notes.xcodeproj/project.pbxproj")
        var text = try String(contentsOf: pbxproj, encoding: .utf8)
        text = text.replacingOccurrences(of: "\tobjects = {\n",
                                         with: "\tobjects = {\n\t\tFFFF00000000000000000001 = {isa = PBXFileSystemSynchronizedRootGroup; path = Sync; sourceTree = \"<group>\";};\n")
        text = text.replacingOccurrences(of: "productReference = A1B2C3D4E5F6000000000002; productType",
                                         with: "productReference = A1B2C3D4E5F6000000000002; fileSystemSynchronizedGroups = (FFFF00000000000000000001, ); productType")
        #expect(text.contains("fileSystemSynchronizedGroups"), "the fixture's project changed shape")
        try text.write(to: pbxproj, atomically: false, encoding: .utf8)
        let sync = dir.appendingPathComponent("Notes/Sync")
        try FileManager.default.createDirectory(at: sync, withIntermediateDirectories: true)
        try """
            import Security
            let q: [String: Any] = [kSecAttrAccessGroup as String: "SKMME9E2Y8.com.example.nowhere"]

            """.write(to: sync.appendingPathComponent("Store.swift"), atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: sync.appendingPathComponent("l1").path, withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: sync.appendingPathComponent("l2").path, withDestinationPath: ".")
        let out = try BinaryRunner.run(["lint", "--project", "Notes/Notes.xcodeproj"], directory: dir)
        let uses = out.stderr.components(separatedBy: "com.example.nowhere").count - 1
        #expect(out.stderr.contains("Store.swift"), "\(out.stderr)")
        #expect(uses >= 1 && uses <= 2, "each file once, whatever links reach it: \(uses)")
    }

    /// `import xcode -o` wrote with createFile: a read-only file was
    /// replaced, a 0600 file became 0644, a symbolic link became a file.
    @Test func importWritesLikeExport() throws {
        let dir = try Self.notesCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Earlier imports: the only files an import replaces.
        let ro = dir.appendingPathComponent("ro.kcs").path
        try "# Imported from old by kcs import xcode: configuration Release, platform ios.\n".write(toFile: ro, atomically: false, encoding: .utf8)
        #expect(chmod(ro, 0o444) == 0)
        let refused = try BinaryRunner.run(["import", "xcode", "Notes/Notes.xcodeproj", "-o", "ro.kcs"], directory: dir)
        #expect(refused.status == 66 && refused.stderr.contains("read-only"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: ro, encoding: .utf8) == "# Imported from old by kcs import xcode: configuration Release, platform ios.\n")
        let kept = dir.appendingPathComponent("kept.kcs").path
        try "# Imported from old by kcs import xcode: configuration Release, platform ios.\n".write(toFile: kept, atomically: false, encoding: .utf8)
        #expect(chmod(kept, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.kcs").path, withDestinationPath: "kept.kcs")
        let written = try BinaryRunner.run(["import", "xcode", "Notes/Notes.xcodeproj", "-o", "link.kcs"], directory: dir)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try String(contentsOfFile: kept, encoding: .utf8).contains("app com.example.Notes"))
        #expect(try FileManager.default.attributesOfItem(atPath: kept)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.appendingPathComponent("link.kcs").path) == "kept.kcs")
    }

    /// TAP's YAML block let DEL and C1 controls through: invalid YAML, and
    /// a raw CSI on the terminal reading the stream.
    @Test func tapDiagnosticsAreValidYAMLAndSafeOnATerminal() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-tap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            team SKMME9E2Y8
            app com.example.A
            as A add generic-password service="x" data="\\u{9B}2J\\u{7F}"
            as A find generic-password return=data
            expect data "\\u{85}\\u{2028}\\u{FFFE}"

            """.write(to: dir.appendingPathComponent("t.kcs"), atomically: false, encoding: .utf8)
        let out = try BinaryRunner.run(["run", "--format", "tap", "t.kcs"], directory: dir)
        let message = try #require(out.stdout.split(separator: "\n").first { $0.hasPrefix("  message: ") })
        #expect(message.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F }, "\(message)")
        // The message as the terminal shows it (kcs's escapes, session 16:
        // the same text in every format), then YAML's own escapes: its
        // backslashes doubled, U+FFFE (which YAML refuses) as \uFFFE.
        #expect(message.contains("\\\\u{9B}2J\\\\u{7F}") && message.contains("\\\\u{85}\\\\u{2028}\\uFFFE"), "\(message)")
    }

    /// `kcs matrix` took no limits: a 291 KB script ran 73 s and 650 MB.
    @Test func matrixTakesTheSafetyOptions() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-matrix-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var lines = ["team SKMME9E2Y8"] + (0..<300).map { "app com.example.A\($0)" }
        lines += (0..<300).map { "as A\($0) add generic-password service=\"s\($0)\"" }
        try (lines.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("m.kcs"), atomically: false, encoding: .utf8)
        let out = try BinaryRunner.run(["matrix", "--max-output", "1000", "m.kcs"], directory: dir)
        #expect(out.status != 0 && out.stderr.contains("KCS311"), "\(out.stderr)")
        #expect(out.stdout.utf8.count < 100_000)
        // The error names the file the table is drawn from.
        #expect(out.stderr.contains("m.kcs: error: the run printed more than its limit of 1000 bytes while drawing the matrix"), "\(out.stderr)")
        // A table far past the limit is refused before its cells are worked
        // out: 8,000 × 8,000 took 37 s (adversarial run 24, F11).
        var big = ["team SKMME9E2Y8"] + (0..<3_000).map { "app com.example.B\($0)" }
        big += (0..<3_000).map { "as B0 add generic-password service=\"s\($0)\"" }
        try (big.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("big.kcs"), atomically: false, encoding: .utf8)
        let started = Date()
        let refused = try BinaryRunner.run(["matrix", "--max-output", "1000", "big.kcs"], directory: dir)
        #expect(refused.stderr.contains("while drawing the matrix"), "\(refused.stderr)")
        #expect(Date().timeIntervalSince(started) < 10, "took \(Date().timeIntervalSince(started)) s")
    }

    /// `kcs check` skipped kcs blocks in block quotes and list items without a word.
    @Test func nestedKCSBlocksAreReported() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-nested-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "> ```kcs\n> team SKMME9E2Y8\n> ```\n\n- item\n\n    ```kcs\n    team SKMME9E2Y8\n    ```\n\n```kcs\nteam SKMME9E2Y8\n```\n"
            .write(to: dir.appendingPathComponent("d.md"), atomically: false, encoding: .utf8)
        let out = try BinaryRunner.run(["check", "d.md"], directory: dir)
        #expect(out.stderr.contains("d.md:1:1: warning: this kcs block is inside a block quote"), "\(out.stderr)")
        #expect(out.stderr.contains("d.md:7:1: warning"), "\(out.stderr)")
        #expect(out.stderr.components(separatedBy: "[KCS404]").count == 3, "\(out.stderr)")
    }

    /// `lint --entitlements --team` took any text and printed it.
    @Test func lintChecksTheTeam() throws {
        let out = try BinaryRunner.run(["lint", "--entitlements", "docs/xcode/Notes/App/App.entitlements", "--team", "AB\u{1B}[2J"])
        #expect(out.status == 64 && out.stderr.contains("--team takes a team ID"), "\(out.stderr)")
    }
}
