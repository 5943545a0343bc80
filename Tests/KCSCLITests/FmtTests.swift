import Foundation
import Testing

/// `kcs fmt` through the built binary.
@Suite(.serialized)
struct FmtTests {
    func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-fmt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        return dir
    }

    /// File names are printed escaped: the list of files to change, the
    /// files changed and a file that cannot be read.
    @Test func fileNamesWithControlCharactersArePrintedEscaped() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let odd = dir.appendingPathComponent("a\u{1b}[31mb\u{7}.kcs")
        try "team   SKMME9E2Y8\n".write(to: odd, atomically: true, encoding: .utf8)
        let missing = dir.appendingPathComponent("gone\u{1b}]0;x\u{7}.kcs").path
        for args in [["fmt", "--check", dir.path], ["fmt", dir.path], ["fmt", missing]] {
            let out = try BinaryRunner.run(args)
            let all = out.stdout + out.stderr
            #expect(!all.contains("\u{1b}") && !all.contains("\u{7}"), "\(args): \(all)")
            #expect(all.contains("\\u{1B}"), "\(args): \(all)")
        }
        #expect(try String(contentsOf: odd, encoding: .utf8) == "team SKMME9E2Y8\n")
    }

    @Test func checkListsThenWriteFixesThenCheckPasses() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let messy = dir.appendingPathComponent("sub/a.kcs")
        let tidy = dir.appendingPathComponent("b.kcs")
        let doc = dir.appendingPathComponent("c.md")
        try "team   SKMME9E2Y8\n\n\napp com.example.A\n".write(to: messy, atomically: true, encoding: .utf8)
        try "team SKMME9E2Y8\n".write(to: tidy, atomically: true, encoding: .utf8)
        try "Text  \n```kcs\nlock   # x\n```\n".write(to: doc, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: messy.path)

        let check = try BinaryRunner.run(["fmt", "--check", dir.path])
        #expect(check.status == 1)
        #expect(check.stdout == dir.path + "/c.md\n" + dir.path + "/sub/a.kcs\n")
        #expect(try String(contentsOf: messy, encoding: .utf8) == "team   SKMME9E2Y8\n\n\napp com.example.A\n",
                "--check writes nothing")

        let write = try BinaryRunner.run(["fmt", dir.path])
        #expect(write.status == 0, "\(write.stderr)")
        #expect(try String(contentsOf: messy, encoding: .utf8) == "team SKMME9E2Y8\n\napp com.example.A\n")
        #expect(try String(contentsOf: doc, encoding: .utf8) == "Text  \n```kcs\nlock  # x\n```\n")
        let mode = try FileManager.default.attributesOfItem(atPath: messy.path)[.posixPermissions] as? Int
        #expect(mode == 0o640, "the file keeps its permissions")

        #expect(try BinaryRunner.run(["fmt", "--check", dir.path]).status == 0)
        #expect(try BinaryRunner.run(["run", messy.path]).status == 0, "the formatted script still runs")
    }

    @Test func aFileTooLargeToFormatIsRefused() throws {
        // The layout holds some 50 bytes a byte: a 60 MB script aborted
        // `kcs fmt` (found by adversarial testing).
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-fmt-big-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = String(repeating: "wait 1\n", count: (8 << 20) / 7 + 1)
        for name in ["big.kcs", "big.md"] {
            let path = dir.appendingPathComponent(name).path
            try (name.hasSuffix(".md") ? "```kcs\n" + text + "```\n" : text).write(toFile: path, atomically: true, encoding: .utf8)
            let out = try BinaryRunner.run(["fmt", "--check", path])
            #expect(out.status == 65 && out.stderr.contains("and kcs formats files up to 8 MiB"), "\(out.stderr)")
        }
    }

    @Test func standardInputGoesToStandardOutput() throws {
        let out = try BinaryRunner.run(["fmt", "-"], stdin: "lock   #a\n\n\nunlock")
        #expect(out.status == 0)
        #expect(out.stdout == "lock  #a\n\nunlock\n")
    }

    @Test func refusalsHaveTheirExitCodes() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let binary = dir.appendingPathComponent("bin.kcs")
        try Data([0x6C, 0x6F, 0x63, 0x6B, 0x00, 0x0A]).write(to: binary)
        let refused = try BinaryRunner.run(["fmt", binary.path])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("NUL"))
        #expect(try Data(contentsOf: binary) == Data([0x6C, 0x6F, 0x63, 0x6B, 0x00, 0x0A]))
        let missing = try BinaryRunner.run(["fmt", dir.appendingPathComponent("nope.kcs").path])
        #expect(missing.status == 66)
        // A Markdown block the lexer cannot read is said at its place in the
        // document, exit 65; the blocks around it are formatted (it passed
        // in silence; adversarial run 23, F5).
        let page = dir.appendingPathComponent("page.md")
        let text = "# T\n\n```kcs\nlock   #a\n```\n\n```kcs\nteam   SKMME9E2Y8 # \u{202E}\n```\n"
        try text.write(to: page, atomically: true, encoding: .utf8)
        let check = try BinaryRunner.run(["fmt", "--check", page.path])
        #expect(check.status == 65)
        #expect(check.stderr.contains("page.md:8:21: error: the script holds the invisible bidirectional control U+202E [KCS010]"), "\(check.stderr)")
        let write = try BinaryRunner.run(["fmt", page.path])
        #expect(write.status == 65)
        #expect(try String(contentsOf: page, encoding: .utf8) == text.replacingOccurrences(of: "lock   #a", with: "lock  #a"))
    }

    @Test func aLinkStaysALinkAndItsTargetIsFormatted() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("real.kcs")
        let link = dir.appendingPathComponent("link.kcs")
        try "lock   \n".write(to: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(try BinaryRunner.run(["fmt", link.path]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try String(contentsOf: target, encoding: .utf8) == "lock\n")
    }
}

/// Every shipped script, doc and golden file is in the canonical layout.
@Suite struct ShippedLayoutTests {
    @Test func everyExampleDocAndGoldenFileIsFormatted() throws {
        let out = try BinaryRunner.run(["fmt", "--check", "examples", "docs", "README.md", "grammar.md",
                                        "Tests/Golden", "Tests/Conformance"])
        #expect(out.status == 0, "kcs fmt would change these files (run kcs fmt on them):\n\(out.stdout)\(out.stderr)")
    }
}
