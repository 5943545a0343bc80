import Foundation
import Testing
@testable import KCSLanguage
@testable import KCSSyntax

/// `kcs check` reads a Markdown document's blocks as CommonMark (and
/// GitHub) do: each case is a document on which the finder and cmark-gfm
/// disagreed (adversarial 20, M1, and its differential fuzzer).
struct MarkdownFenceTests {
    /// A block that fails when it runs: one failure per block run.
    static let failing = "team SKMME9E2Y8\napp com.a.A\nas A add generic-password account=\"x\"\nexpect status errSecItemNotFound\n"

    static func check(_ markdown: String) -> FileOutcome {
        BatchRunner().check(markdown: SourceFile(name: "d.md", text: markdown))
    }

    static func warnings(_ outcome: FileOutcome) -> [String] {
        outcome.diagnostics.filter { $0.code == .nestedBlock }.map { d in
            "\(d.file!.location(of: d.range!.start).line):\(d.file!.location(of: d.range!.start).column) \(d.message)"
        }
    }

    /// The closing fence of a list item's block opened on the marker line
    /// opened a block instead, which swallowed the next kcs block: 0 passed, 0 failed.
    @Test func aFenceOnAListMarkerLineClosesInTheItem() {
        let o = Self.check("# Doc\n\n- ```sh\n  make install\n  ```\n\nReal block:\n\n```kcs\n\(Self.failing)```\n")
        #expect(o.failed == 1, "\(o.diagnostics.map(\.message))")
        let tilde = Self.check("2. ~~~sh\n   make install\n   ~~~\n\n```kcs\n\(Self.failing)```\n\n```kcs\n\(Self.failing)```\n")
        #expect(tilde.failed == 2, "\(tilde.diagnostics.map(\.message))")
    }

    /// Lines ended by CR alone: the block runs, and locations name lines.
    @Test func crOnlyLineBreaksEndLines() throws {
        let o = Self.check("# T\r\r```kcs\r\(Self.failing.replacing("\n", with: "\r"))```\r")
        #expect(o.failed == 1, "\(o.diagnostics.map(\.message))")
        let failure = try #require(o.diagnostics.first { $0.code == .expectationFailed })
        #expect(failure.file!.location(of: failure.range!.start).line == 7)
        // CR LF still works, and --update writes into the file's own bytes.
        #expect(Self.check("```kcs\r\n\(Self.failing.replacing("\n", with: "\r\n"))```\r\n").failed == 1)
    }

    /// `--update` writes an output block in the document's own line
    /// breaks: a CR-only document got LF lines in it (mixed breaks, which
    /// an editor then shows as one long line or rewrites whole).
    @Test func updateKeepsEachDocumentsLineBreaks() throws {
        let script = "team SKMME9E2Y8\napp com.a.A\nas A add generic-password account=\"x\"\n"
        for lineBreak in ["\r", "\r\n", "\n"] {
            let doc = "# T\n\n```kcs\n\(script)```\n\n```output\nstale\n```\n".replacing("\n", with: lineBreak)
            let o = BatchRunner().check(markdown: SourceFile(name: "d.md", text: doc), update: true)
            let updated = try #require(o.updatedContent.map { String(decoding: $0, as: UTF8.self) })
            let expected = doc.replacing("stale" + lineBreak, with: "A add generic-password → errSecSuccess (0)" + lineBreak)
            #expect(updated == expected, "\(lineBreak.utf8.map { $0 }): \(updated.debugDescription)")
        }
    }

    /// A nested fence whose language is `KCS` was not reported (only `kcs` was);
    /// a top-level one runs, so case does not matter anywhere.
    @Test func anUpperCaseNestedFenceIsReported() {
        let o = Self.check("> ```KCS\n> team SKMME9E2Y8\n> ```\n")
        #expect(Self.warnings(o) == ["1:1 this kcs block is inside a block quote or a list item; kcs check does not run it"])
        #expect(Self.check("```KCS\n\(Self.failing)```\n").failed == 1)
    }

    /// Inside a longer fence, a kcs fence is text (an example of a
    /// document), not a block; the longer fence's closing line closes it.
    @Test func aKCSFenceInsideALongerFenceIsText() {
        let o = Self.check("- ````md\n  ```kcs\n  as  A add generic-password    account=\"x\"\n  ```\n  ````\n\n```kcs\n\(Self.failing)```\n")
        #expect(o.failed == 1 && o.errors == 0 && Self.warnings(o).isEmpty, "\(o.diagnostics.map(\.message))")
        let top = Self.check("````markdown\n```kcs\nbogus\n```\n````\n")
        #expect(top.checks.isEmpty && top.diagnostics.isEmpty, "\(top.diagnostics.map(\.message))")
    }

    /// A closed HTML comment hides its blocks, as GitHub does; one never
    /// closed hides the rest of the document, and is reported.
    @Test func htmlCommentsHideBlocks() {
        let closed = Self.check("<!--\n```kcs\nbogus\n```\n-->\n\n```kcs\n\(Self.failing)```\n")
        #expect(closed.failed == 1 && closed.errors == 0 && Self.warnings(closed).isEmpty, "\(closed.diagnostics.map(\.message))")
        let open = Self.check("Text\n\n<!-- to do\n\n```kcs\n\(Self.failing)```\n")
        #expect(open.checks.isEmpty)
        #expect(Self.warnings(open) == ["5:1 this kcs fence is text of the block that line 3 opens, which is never closed; kcs check does not run it"])
    }

    /// An HTML line such as `</div>` starts a block that runs to the next
    /// blank line: a fence right after it is HTML text, reported; after a
    /// blank line it is a block.
    @Test func aFenceRightAfterAnHTMLLineIsHTML() {
        let o = Self.check("<div>\n```kcs\nbogus\n```\n</div>\n")
        #expect(o.errors == 0 && o.checks.isEmpty)
        #expect(Self.warnings(o) == ["2:1 this kcs fence is text of the HTML block above it; kcs check does not run it"])
        // A lone closing tag, `</script>` too (as cmark reads it), is such a line.
        let script = Self.check("</script>\n```kcs\nbogus\n```\n")
        #expect(script.checks.isEmpty && Self.warnings(script).count == 1, "\(script.diagnostics.map(\.message))")
        let apart = Self.check("<details>\n<summary>Example</summary>\n\n```kcs\n\(Self.failing)```\n</details>\n")
        #expect(apart.failed == 1 && Self.warnings(apart).isEmpty, "\(apart.diagnostics.map(\.message))")
    }

    /// A paragraph's lazy continuation line keeps its list item open: the
    /// indented fence after it is in the item.
    @Test func lazyContinuationKeepsTheItemOpen() {
        let o = Self.check("- item\ncontinued\n  ```kcs\n  bogus\n  ```\n")
        #expect(o.checks.isEmpty && o.errors == 0)
        #expect(Self.warnings(o) == ["3:1 this kcs block is inside a block quote or a list item; kcs check does not run it"])
        // A fence at the margin ends the list.
        #expect(Self.check("- item\ncontinued\n```kcs\n\(Self.failing)```\n").failed == 1)
    }

    /// Indentation decides: four columns more than the item's content is
    /// indented code; a tab counts to the next multiple of four.
    @Test func indentationFollowsContainers() {
        let indented = Self.check("Text\n\n    ```kcs\n    bogus\n    ```\n")
        #expect(indented.checks.isEmpty)
        #expect(Self.warnings(indented).first?.hasPrefix("3:1 this kcs fence is text of an indented code block") == true)
        // Three spaces is still a fence at the margin.
        #expect(Self.check("   ```kcs\n\(Self.failing)   ```\n").failed == 1)
        // "1.  " makes a content column of 4: the fence at column 5 is in the item.
        let item = Self.check("1.  x\n\n    ```kcs\n    bogus\n    ```\n")
        #expect(item.checks.isEmpty && Self.warnings(item).count == 1)
    }

    /// Past the nesting the reader follows, a kcs fence is still reported,
    /// and a deep document costs work in proportion to its size: blank lines
    /// under 90 list items are matched in one step each, not one per item
    /// (counted, not timed: a 10 s bound flaked on a loaded machine).
    @Test func deepNestingIsBoundedAndReported() {
        let deep = String(repeating: "> ", count: 300) + "```kcs\n"
        #expect(Self.warnings(Self.check(deep)).count == 1)
        var many = String(repeating: "- ", count: 90) + "x\n"
        many += String(repeating: "\n", count: 100_000)
        let read = MarkdownBlocks.read(Array(many.utf8))
        #expect(read.containersMatched <= 2 * 100_001, "\(read.containersMatched) markers matched")
    }

    /// The finder's own view: top-level blocks with their ranges, closed or not.
    @Test func scanGivesTopLevelBlocks() {
        let text = "```kcs fresh\na\n```\n- ```kcs\n  b\n  ```\n~~~~output\n```\n~~~~\n```sh\n"
        let blocks = MarkdownBlocks.scan(Array(text.utf8))
        #expect(blocks.map(\.language) == ["kcs", "output", "sh"])
        #expect(blocks[0].modifiers == ["fresh"] && blocks[0].closed && !blocks[2].closed)
        let bytes = Array(text.utf8)
        #expect(String(decoding: bytes[blocks[1].content.start..<blocks[1].content.end], as: UTF8.self) == "```\n")
    }
}
