import Foundation
import KCSLanguage
import Testing

@Suite struct CanonicalLayoutTests {
    func format(_ text: String) throws -> String {
        String(decoding: try CanonicalLayout.format(SourceFile(name: "t.kcs", text: text)), as: UTF8.self)
    }

    /// Input and its canonical layout, one rule per row.
    @Test(arguments: [
        // spacing: one space between tokens, none around '=' or inside brackets
        ("team   SKMME9E2Y8\n", "team SKMME9E2Y8\n"),
        ("as A add generic-password   account = \"a\"\tdata=\"x\"\n", "as A add generic-password account=\"a\" data=\"x\"\n"),
        ("expect groups A [ X ,Y , ]\n", "expect groups A [X, Y]\n"),
        ("app a.b.C keychain-access-groups=[ ]\n", "app a.b.C keychain-access-groups=[]\n"),
        // indentation, trailing white space and blank lines
        ("   lock   \n\n\n\nunlock\n\n", "lock\n\nunlock\n"),
        ("\n\n# head\nlock", "# head\nlock\n"),
        // comments: kept, at column 0, trailing ones two spaces after their statement
        ("    # note   \nlock#why\n", "# note\nlock  #why\n"),
        // consecutive trailing comments align
        ("lock # a\nunlock   # b\nreboot # c\n\nsync # d\n", "lock    # a\nunlock  # b\nreboot  # c\n\nsync  # d\n"),
        // a multi-line list that fits joins
        ("expect groups A [\n  X,\n  Y,\n]\n", "expect groups A [X, Y]\n"),
        // strings keep their escapes as written
        ("expect data \"a\\\"b\\u{41}\"\n", "expect data \"a\\\"b\\u{41}\"\n"),
        // CR LF becomes LF
        ("lock\r\nunlock\r\n", "lock\nunlock\n"),
        ("", ""),
    ])
    func rule(_ input: String, _ expected: String) throws {
        #expect(try format(input) == expected)
    }

    @Test func longListsWrapOneElementPerLine() throws {
        let groups = (1...6).map { "SKMME9E2Y8.com.example.Group\($0)" }
        let input = "app com.example.App keychain-access-groups=[\(groups.joined(separator: ", "))] kind=app\n"
        let expected = "app com.example.App keychain-access-groups=[\n"
            + groups.map { "    \($0),\n" }.joined() + "] kind=app\n"
        #expect(try format(input) == expected)
    }

    @Test func commentsInsideAListKeepItWrappedAndStayPut() throws {
        let input = """
            expect groups A [   # the order
              X,   # first
              # then
              Y
            ]  # end
            """
        let expected = """
            expect groups A [  # the order
                X,  # first
                # then
                Y,
            ]  # end

            """
        #expect(try format(input) == expected)
    }

    /// A line the lexer cannot read is kept as written, and so is a line
    /// with only a stray character: nothing is ever dropped.
    @Test func unreadableStatementsAreKeptAsWritten() throws {
        let input = "lock   \nas A add generic-password account=\"open\n  @@ # stray\nunlock  \n"
        #expect(try format(input) == "lock\nas A add generic-password account=\"open\n  @@ # stray\nunlock\n")
        let unclosed = "team   T\nexpect groups A [X,\n  Y\n"
        #expect(try format(unclosed) == "team T\nexpect groups A [X,\n  Y\n")
    }

    /// Found by adversarial testing, each refused as "a bug": a statement
    /// that does not parse is kept as written (laid out, a list missing a
    /// comma got one), and a string left open on a CRLF line keeps its
    /// meaning when the line ends in LF.
    @Test func statementsWithErrorsAreKeptAsWritten() throws {
        let list = "team SKMME9E2Y8\napp com.example.A keychain-access-groups=[\n    SKMME9E2Y8.one  # first\n    SKMME9E2Y8.two\n]\n"
        #expect(try format(list) == list)
        #expect(try format("team   SKMME9E2Y8\napp com.example.A   colour=red\n") == "team SKMME9E2Y8\napp com.example.A   colour=red\n")
        #expect(try format("team \"a\r\n") == "team \"a\n")
        #expect(try format("team SKMME9E2Y8\r\nteam \"a\r\nlock   \r\n") == "team SKMME9E2Y8\nteam \"a\nlock\n")
        // An open string followed by blanks holds them: kept, not stripped
        // (found by adversarial testing; fmt refused the file).
        #expect(try format("\" ") == "\" \n")
        #expect(try format("lock\nas A add generic-password service=\"abc \t \n") == "lock\nas A add generic-password service=\"abc \t \n")
    }

    /// A list whose elements carry comments is laid out element by element,
    /// each comment kept after its own element.
    @Test func manyCommentedElements() throws {
        let elements = (0..<3_000).map { "    SKMME9E2Y8.g\($0),  # c\($0)\n" }.joined()
        let out = try format("app com.example.A keychain-access-groups=[\n" + elements + "]\n")
        let lines = out.split(separator: "\n")
        #expect(lines.count == 3_002)
        #expect(lines[1] == "    SKMME9E2Y8.g0,     # c0" || lines[1].hasPrefix("    SKMME9E2Y8.g0,"), "\(lines[1])")
        #expect(lines.dropFirst().prefix(3_000).enumerated().allSatisfy { $0.element.hasSuffix("# c\($0.offset)") })
    }

    @Test func refusesBytesThatAreNotAScript() {
        #expect(throws: CanonicalLayout.Failure.self) {
            try CanonicalLayout.format(SourceFile(name: "t.kcs", bytes: [0x6C, 0x00, 0x0A]))
        }
        #expect(throws: CanonicalLayout.Failure.self) {
            try CanonicalLayout.format(SourceFile(name: "t.kcs", bytes: Array("# \u{202E}x\n".utf8)))
        }
    }

    @Test func markdownFormatsOnlyKcsBlocks() {
        let doc = "# Title  \n\n```kcs\nlock   # a\n\n\nunlock\n```\n\n```output\nlock   x  \n```\n   ```kcs\n  lock  \n   ```\ntext  \n"
        let out = String(decoding: CanonicalLayout.formatMarkdown(Array(doc.utf8), name: "d.md"), as: UTF8.self)
        #expect(out == "# Title  \n\n```kcs\nlock  # a\n\nunlock\n```\n\n```output\nlock   x  \n```\n   ```kcs\n  lock  \n   ```\ntext  \n")
    }

    /// A line longer than the line width keeps its comment two spaces after
    /// it and sets no column for the lines around it (adversarial 18, B1: a
    /// 600 KB script formatted to 5 GB).
    @Test func aLongLineSetsNoCommentColumn() throws {
        let long = "as A add generic-password account=\"" + String(repeating: "x", count: 20_000) + "\"  # long"
        let text = long + "\n" + String(repeating: "lock   # c\nunlock  # d\n", count: 1_000)
        let out = try CanonicalLayout.format(SourceFile(name: "t.kcs", text: text))
        #expect(out.count < text.utf8.count + 10_000, "\(out.count) bytes from \(text.utf8.count)")
        let lines = String(decoding: out, as: UTF8.self).split(separator: "\n")
        #expect(lines[0].hasSuffix("\"  # long"))
        #expect(lines[1] == "lock    # c" && lines[2] == "unlock  # d", "\(lines[1]) / \(lines[2])")
        #expect(try CanonicalLayout.format(SourceFile(name: "t.kcs", bytes: out)) == out)
    }

    /// A CRLF document keeps CRLF in the blocks it formats, also on lines
    /// kept as written (a statement with an error), and stays stable.
    @Test func markdownKeepsCRLFLineEnds() {
        let doc = "# T\r\n\r\n```kcs\r\nlock   # a\r\n\r\n\r\nunlock\r\nas ( x\r\n```\r\ntext\r\n"
        let once = CanonicalLayout.formatMarkdown(Array(doc.utf8), name: "d.md")
        let out = String(decoding: once, as: UTF8.self)
        #expect(out == "# T\r\n\r\n```kcs\r\nlock  # a\r\n\r\nunlock\r\nas ( x\r\n```\r\ntext\r\n")
        #expect(!out.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "a bare LF in \(out.debugDescription)")
        #expect(CanonicalLayout.formatMarkdown(once, name: "d.md") == once)
    }

    /// An empty list holding a comment comes out as a one-line statement
    /// with a trailing comment: it aligns with its neighbours on the first
    /// run as on the second (adversarial 21, F3: fmt then fmt --check failed).
    @Test func anEmptyListsCommentAlignsOnTheFirstRun() throws {
        let once = try format("as A find generic-password # x\nexpect groups C [ # c\n]\n")
        #expect(once == "as A find generic-password  # x\nexpect groups C []          # c\n")
        #expect(try format(once) == once)
    }

    /// Lines ended by CR alone are lines in Markdown (as `kcs check` reads
    /// them): fmt joined `as A find generic-password` and `explain` into one
    /// statement, a passing document became a syntax error, and LF crept
    /// into CR documents (adversarial 21, F4). Each block keeps its fence
    /// line's breaks, in a document of one kind or of several.
    @Test func markdownKeepsLinesEndedByCRAlone() {
        let cr = "# T\r\r```kcs\rlock   # a\ras A find generic-password\rexplain\r```\rtext\r"
        let once = CanonicalLayout.formatMarkdown(Array(cr.utf8), name: "d.md")
        #expect(String(decoding: once, as: UTF8.self) == "# T\r\r```kcs\rlock  # a\ras A find generic-password\rexplain\r```\rtext\r")
        #expect(CanonicalLayout.formatMarkdown(once, name: "d.md") == once)
        let mixed = "# T\n\n```kcs\nlock   # b\n```\n\n```kcs\ras A find generic-password\rexplain\r```\n"
        let out = String(decoding: CanonicalLayout.formatMarkdown(Array(mixed.utf8), name: "d.md"), as: UTF8.self)
        #expect(out == "# T\n\n```kcs\nlock  # b\n```\n\n```kcs\ras A find generic-password\rexplain\r```\n", "\(out.debugDescription)")
    }

    /// Every shipped script and every kcs block of the docs: formatting is
    /// idempotent and keeps the tokens.
    @Test func idempotentOnEveryExampleAndDoc() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var paths: [String] = []
        for folder in ["examples", "docs", "Tests/Golden"] {
            let dir = root.appendingPathComponent(folder)
            let found = FileManager.default.enumerator(atPath: dir.path)?.compactMap { $0 as? String } ?? []
            paths += found.filter { $0.hasSuffix(".kcs") || $0.hasSuffix(".md") }.map { dir.appendingPathComponent($0).path }
        }
        paths.append(root.appendingPathComponent("README.md").path)
        #expect(paths.count > 30)
        for path in paths {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            if path.hasSuffix(".md") {
                let once = CanonicalLayout.formatMarkdown(bytes, name: path)
                #expect(CanonicalLayout.formatMarkdown(once, name: path) == once, "\(path) is not stable")
            } else {
                guard let once = try? CanonicalLayout.format(SourceFile(name: path, bytes: bytes)) else { continue }
                let twice = try CanonicalLayout.format(SourceFile(name: path, bytes: once))
                #expect(twice == once, "\(path) is not stable")
            }
        }
    }
}
