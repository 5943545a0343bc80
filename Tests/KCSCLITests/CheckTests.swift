import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `kcs check`: Markdown documents as tests (issue 5).
@Suite(.serialized)
struct CheckTests {
    let doc = """
        # A page

        Prose before.

        ```kcs
        team SKMME9E2Y8
        app com.example.A
        as A add generic-password account="x"
        expect status errSecSuccess
        ```

        ```output
        A add generic-password → errSecWrong (0)
        ```

        Prose after, with a block that is not ours:

        ```swift
        let x = 1
        ```

        ```kcs fails
        as A find generic-password account="nobody"
        expect status errSecSuccess
        ```

        """

    func temp(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return dir
    }

    @Test func wrongOutputBlockFailsAtItsMarkdownLine() throws {
        let dir = try temp(["page.md": doc])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("page.md").path
        let out = try BinaryRunner.run(["check", path])
        #expect(out.status == 1)
        #expect(out.stderr.contains("\(path):12:1: error: the output block differs from what the kcs block printed [KCS402]"))
        #expect(out.stderr.contains("- A add generic-password → errSecWrong (0)"))
        #expect(out.stderr.contains("+ A add generic-password → errSecSuccess (0)"))
        #expect(out.stdout == "2 passed, 1 failed\n")
    }

    @Test func updateRewritesOnlyTheOutputBlock() throws {
        let dir = try temp(["page.md": doc])
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("page.md")
        let out = try BinaryRunner.run(["check", "--update", url.path])
        #expect(out.status == 0)
        #expect(out.stdout.contains("updated \(url.path): 1 output block"))
        let after = try String(contentsOf: url, encoding: .utf8)
        let expected = doc.replacingOccurrences(of: "A add generic-password → errSecWrong (0)",
                                                with: "A add generic-password → errSecSuccess (0)")
        #expect(after == expected)
        // Once updated, it passes and a second update changes nothing.
        #expect(try BinaryRunner.run(["check", url.path]).status == 0)
        let again = try BinaryRunner.run(["check", "--update", url.path])
        #expect(!again.stdout.contains("updated"))
        #expect(try String(contentsOf: url, encoding: .utf8) == expected)
    }

    /// A block that did not run (a typo, an include it cannot read, an
    /// include cycle) printed nothing: --update kept its output block, it
    /// wrote that nothing over it (adversarial run 23, F6).
    @Test func updateKeepsTheOutputOfABlockThatDidNotRun() throws {
        let output = "\n```output\nprecious expected output\n```\n"
        let pages = [
            "typo.md": "```kcs\nteam SKMME9E2Y8\napp com.example.A\nas A add generic-password acount=\"x\"\n```\n" + output,
            "missing.md": "```kcs\ninclude \"nowhere.kcs\"\nshow items\n```\n" + output,
            "cycle.md": "```kcs\ninclude \"a.kcs\"\n```\n" + output,
            "a.kcs": "include \"b.kcs\"\n", "b.kcs": "include \"a.kcs\"\n",
        ]
        let dir = try temp(pages)
        defer { try? FileManager.default.removeItem(at: dir) }
        for page in ["typo.md", "missing.md", "cycle.md"] {
            let url = dir.appendingPathComponent(page)
            let out = try BinaryRunner.run(["check", "--update", url.path])
            #expect(out.status != 0, "\(page)")
            #expect(!out.stdout.contains("updated"), "\(page): \(out.stdout)")
            #expect(out.stderr.contains("it was not rewritten: the kcs block above stopped at an error"), "\(page): \(out.stderr)")
            #expect(try String(contentsOf: url, encoding: .utf8) == pages[page], "\(page)")
        }
    }

    @Test func blocksMarkedFailsMustFail() throws {
        let dir = try temp(["page.md": "```kcs fails\nteam SKMME9E2Y8\n```\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = try BinaryRunner.run(["check", dir.appendingPathComponent("page.md").path])
        #expect(out.status == 1)
        #expect(out.stderr.contains("marked 'fails' but ran without a failure [KCS403]"))
    }

    @Test func freshAndIgnore() throws {
        let page = """
            ```kcs
            team SKMME9E2Y8
            app com.example.A
            ```

            ```kcs ignore
            this is not kcs at all
            ```

            ```kcs fresh
            as A find generic-password
            ```
            """
        let dir = try temp(["page.md": page])
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = try BinaryRunner.run(["check", dir.appendingPathComponent("page.md").path])
        // In a fresh world A is unknown: the ignore block did not run, the fresh one did.
        #expect(out.status == 1)
        #expect(out.stderr.contains("page.md:11:4: error: unknown app 'A'"))
    }

    @Test func junitIsXMLAndJSONIsJSON() throws {
        let dir = try temp(["page.md": doc])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("page.md").path
        let junit = try BinaryRunner.run(["check", "--format", "junit", path])
        #expect(junit.status == 1)
        let parser = XMLParser(data: Data(junit.stdout.utf8))
        #expect(parser.parse(), "junit output is not well-formed XML: \(junit.stdout)")
        #expect(junit.stdout.contains("<testsuite name=\"\(path)\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"0\">"))
        let json = try BinaryRunner.run(["check", "--format", "json", path])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["passed"] as? Int == 2)
        #expect(object?["failed"] as? Int == 1)
        let files = object?["files"] as? [[String: Any]]
        let diagnostics = files?.first?["diagnostics"] as? [[String: Any]]
        #expect(diagnostics?.first?["line"] as? Int == 12)
        #expect(diagnostics?.first?["code"] as? String == "KCS402")
        let tap = try BinaryRunner.run(["check", "--format", "tap", path])
        // The plan comes last, so lines can stream as files finish.
        #expect(tap.stdout.hasPrefix("TAP version 13\nok 1 - "))
        #expect(tap.stdout.hasSuffix("\n1..3\n"))
        #expect(tap.stdout.contains("not ok 2 - \(path):12: ```output"))
    }

    @Test func junitAttributesCarryNoRawLineBreaks() throws {
        // A CR in a value overwrote the log line the attribute was on.
        let out = try BinaryRunner.run(["run", "--format", "junit", "-"], stdin: """
            team SKMME9E2Y8
            app com.x.A
            as A add generic-password service="s"
            expect item service="ok\\u{D}FAKE: all tests passed\\u{D}\\u{A}x"

            """)
        #expect(out.status == 1)
        #expect(!out.stdout.contains("\r"), "\(out.stdout)")
        let failure = try #require(out.stdout.split(separator: "\n").first { $0.contains("<failure message=") })
        #expect(failure.contains("ok\\u{D}FAKE: all tests passed\\u{D}\\u{A}x"), "\(failure)")
        #expect(XMLParser(data: Data(out.stdout.utf8)).parse())
    }

    @Test func runTakesTheFormatsToo() throws {
        let out = try BinaryRunner.run(["run", "--format", "json", "-"],
                                       stdin: "team SKMME9E2Y8\napp com.x.A\nexpect default-group A X\n")
        #expect(out.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any]
        #expect(object?["failed"] as? Int == 1)
        let junit = try BinaryRunner.run(["run", "--format", "junit", "examples/02-keychain-access-group.kcs"])
        #expect(XMLParser(data: Data(junit.stdout.utf8)).parse())
        #expect(junit.status == 0)
    }

    @Test func githubAnnotations() throws {
        let dir = try temp(["page.md": doc])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("page.md").path
        let out = try BinaryRunner.run(["check", path], environment: ["GITHUB_ACTIONS": "true"])
        #expect(out.stdout.contains("::error file=\(path),line=12,col=1,title=kcs KCS402::the output block differs"))
    }

    @Test func parallelAndSerialPrintTheSame() throws {
        var files: [String: String] = [:]
        for i in 0..<12 {
            files["d\(i)/page\(i).md"] = i % 3 == 0 ? doc : "```kcs\nteam SKMME9E2Y8\napp com.x.A\nexpect default-group A SKMME9E2Y8.com.x.A\n```\n"
        }
        let dir = try temp(files)
        defer { try? FileManager.default.removeItem(at: dir) }
        let serial = try BinaryRunner.run(["check", "--jobs", "1", dir.path])
        let parallel = try BinaryRunner.run(["check", "--jobs", "4", dir.path])
        #expect(serial.stdout == parallel.stdout)
        #expect(serial.stderr == parallel.stderr)
        #expect(serial.status == parallel.status)
        #expect(serial.stdout == "16 passed, 4 failed\n")
    }

    /// The README's test command runs the documentation: every page passes.
    @Test func docsAndReadmePass() throws {
        let out = try BinaryRunner.run(["check", "docs/", "README.md"])
        #expect(out.status == 0, "\(out.stderr)")
        // Only the README's one `kcs ignore` block is skipped; nothing errs.
        #expect(out.stdout.hasSuffix(" passed, 0 failed, 1 skipped\n"))
    }
}

extension CheckTests {
    @Test func annotationsDoNotCorruptStructuredOutput() throws {
        let dir = try temp(["page.md": doc])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("page.md").path
        let out = try BinaryRunner.run(["check", "--format", "junit", path], environment: ["GITHUB_ACTIONS": "true"])
        #expect(XMLParser(data: Data(out.stdout.utf8)).parse())
        #expect(out.stderr.contains("::error file=\(path),line=12"))
    }
}

/// Findings of the second review, pinned.
extension CheckTests {
    /// Its indented blocks follow a paragraph: after a list item (as they
    /// once did) they are in the item, as CommonMark reads it, and not run.
    static let indentedPage = "# t\n\n```kcs\nteam SKMME9E2Y8\napp com.x.A\nas A add generic-password account=\"a\"\n```\n\n"
        + "```output\nA add generic-password → errSecSuccess (0)\n```\n\nText.\n\n   ```kcs\n"
        + "   as A find generic-password account=\"a\"\n   ```\n\n   ```output\n   A find generic-password → errSecWrong\n   ```\n"

    @Test func crlfAndIndentedBlocksUpdateInTheirOwnStyle() throws {
        let crlf = Self.indentedPage.replacingOccurrences(of: "\n", with: "\r\n")
        let dir = try temp(["page.md": crlf])
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("page.md")
        #expect(try BinaryRunner.run(["check", url.path]).status == 1)
        // Through a symbolic link, keeping the file's permissions.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        let link = dir.appendingPathComponent("link.md")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: url)
        #expect(try BinaryRunner.run(["check", "--update", link.path]).status == 0)
        let after = try String(contentsOf: url, encoding: .utf8)
        #expect(after == crlf.replacingOccurrences(of: "errSecWrong", with: "errSecSuccess (0), 1 item"))
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == url.path)
        #expect(try BinaryRunner.run(["check", url.path]).status == 0)
    }

    @Test func hiddenFoldersAreNotSearched() throws {
        let dir = try temp(["ok.md": "```kcs\nteam SKMME9E2Y8\n```\n", ".hidden/bad.md": "```kcs\ntem X\n```\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try BinaryRunner.run(["check", dir.path]).status == 0)
    }

    @Test func tapLinesEscapeLineBreaks() throws {
        let out = try BinaryRunner.run(["run", "--format", "tap", "-"],
                                       stdin: "team SKMME9E2Y8\napp com.a.b entitlements=\"x\\ny\"\n")
        let lines = out.stdout.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("TAP") || $0.hasPrefix("1..") || $0.hasPrefix("ok") || $0.hasPrefix("not ok") || $0.hasPrefix("  ") })
    }

    /// CR LF is one Character to Swift: escaping must work on scalars.
    @Test func crlfInMessagesStaysOnOneLine() throws {
        let script = "team SKMME9E2Y8\napp com.a.b entitlements=\"x\\u{D}\\ny\"\n"
        let tap = try BinaryRunner.run(["run", "--format", "tap", "-"], stdin: script)
        #expect(tap.stdout.contains("x\\r\\ny"))
        #expect(!tap.stdout.contains("\r"))
        let text = try BinaryRunner.run(["run", "-"], stdin: script, environment: ["GITHUB_ACTIONS": "true"])
        let annotations = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).filter { $0.hasPrefix("::") }
        #expect(annotations.count == 1)
        #expect(annotations.first?.contains("x%0D%0Ay") == true)
    }
}
