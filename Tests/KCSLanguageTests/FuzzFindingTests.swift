import Foundation
import Testing
@testable import KCSLanguage
@testable import KCSRuntime
@testable import KCSSyntax

/// Inputs that made a fuzz target's oracle fail (scripts/fuzz.sh,
/// docs/fuzzing.md), kept in FuzzFindings/ and checked here.
struct FuzzFindingTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FuzzFindings")

    static func input(_ name: String) throws -> SourceFile {
        SourceFile(name: name, bytes: [UInt8](try Data(contentsOf: folder.appendingPathComponent(name))))
    }

    /// Control characters other than the line break and tab in generated Swift.
    static func invisibles(_ code: String) -> [UInt32] {
        code.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F
            || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }.map(\.value)
    }

    @Test func aCarriageReturnInAStringStaysInsideTheGeneratedComment() throws {
        // Written raw, the CR is refused (KCS012: editors break the line
        // there; adversarial run 25, F9); written as an escape, it is data.
        let raw = try Self.input("export-cr-ends-comment.kcs")
        guard case .failure(let refused) = SwiftExporter(loader: NoFilesLoader()).export(raw) else {
            Issue.record("a raw CR exports")
            return
        }
        #expect(refused.diagnostics.map(\.code) == [.loneCarriageReturn])
        let source = SourceFile(name: raw.name, text: String(decoding: raw.bytes, as: UTF8.self).replacingOccurrences(of: "\r", with: "\\u{D}"))
        guard case .success(let code) = SwiftExporter(loader: NoFilesLoader()).export(source) else {
            Issue.record("the scenario does not export")
            return
        }
        #expect(Self.invisibles(code).isEmpty)
        // The text after the CR is in the comment and in the escaped literal, nowhere else.
        let lines = code.split(separator: "\n").filter { $0.contains("func evil") }
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.trimmingPrefix(while: \.isWhitespace).hasPrefix("//") || $0.contains("\"x\\r} }; func evil") })
    }

    @Test func namesAndGroupsFromAnEntitlementsFileStayOnTheirCommentLine() {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>
            <key>keychain-access-groups</key><array><string>SKMME9E2Y8.a&#13;func evil() {}&#10;// \u{202E}x</string></array>
            </dict></plist>
            """
        let loader = MemoryLoader(files: ["e.plist": plist, "main.kcs": """
            team SKMME9E2Y8
            app com.example.App entitlements="e.plist"
            as App add generic-password service="s"
            """])
        let source = SourceFile(name: "main.kcs", text: loader.files["main.kcs"] ?? "")
        guard case .success(let code) = SwiftExporter(loader: loader).export(source) else {
            Issue.record("the scenario does not export")
            return
        }
        #expect(Self.invisibles(code).isEmpty)
        #expect(code.split(separator: "\n").filter { $0.contains("func evil") }.allSatisfy { $0.contains("//") })
    }

    @Test func anOutputBlockOfABlockThatPrintsNothingIsUpdatedToEmpty() throws {
        try Self.updatesToAnEmptyBlockOnce("markdown-empty-output-block.md", endingWith: "```output\n```\n")
    }

    /// The document fails, one update empties its output block, and then it
    /// passes and a second update changes nothing.
    static func updatesToAnEmptyBlockOnce(_ name: String, endingWith suffix: String) throws {
        let document = try input(name)
        let runner = BatchRunner(loader: NoFilesLoader())
        #expect(runner.check(markdown: document).verdict == .failed)
        let updated = try #require(runner.check(markdown: document, update: true).updatedContent)
        #expect(String(decoding: updated, as: UTF8.self).hasSuffix(suffix))
        let again = SourceFile(name: document.name, bytes: updated)
        #expect(runner.check(markdown: again).verdict == .passed)
        #expect(runner.check(markdown: again, update: true).updatedContent == nil)
    }

    /// The same with an indented output fence: an empty block read as one
    /// blank line once the indentation was taken off.
    @Test func anIndentedEmptyOutputBlockStaysEmpty() throws {
        try Self.updatesToAnEmptyBlockOnce("markdown-indented-empty-output-block.md", endingWith: " ```output\n```\n")
        #expect(MarkdownBlocks.plainContent("", indent: 2) == "")
    }

    /// A byte order mark before a fence on the first line hid the block:
    /// a failing block "passed" with exit 0 (found by adversarial testing).
    @Test func aFenceRightAfterAByteOrderMarkIsABlock() {
        let file = SourceFile(name: "bom.md", text: "\u{FEFF}```kcs\nteam SKMME9E2Y8\napp com.x.A\nas A find generic-password\nexpect status errSecSuccess\n```\n")
        #expect(MarkdownBlocks.scan(file.bytes).count == 1)
        let outcome = BatchRunner().check(markdown: file)
        #expect(outcome.failed == 1, "\(outcome.diagnostics.map(\.message))")
    }

    /// Every bad byte of one long line was an error, each showing the line,
    /// so the text grew with the square of the line (a 4 KiB line: 26 MB on
    /// the terminal). A run of stray characters is now one error, and its
    /// excerpt a window around the caret.
    @Test func theDiagnosticsOfOneLongBadLineRenderToTextLinearInItsLength() throws {
        let source = try Self.input("language-error-per-byte.kcs")
        let renderer = DiagnosticRenderer()
        func rendered(_ file: SourceFile) -> Int {
            let report = Interpreter.run(file: file, loader: NoFilesLoader())
            #expect(!report.diagnostics.isEmpty)
            return report.diagnostics.reduce(0) { $0 + renderer.render($1).utf8.count }
        }
        #expect(rendered(source) <= 64 * source.bytes.count)
        // Sixteen times the line: not more than sixteen times the text.
        let long = SourceFile(name: source.name, bytes: Array(repeating: source.bytes, count: 16).flatMap { $0 })
        #expect(rendered(long) <= 16 * max(rendered(source), 1))
        // Stray bytes of every kind in a row are one error too.
        let mixed = SourceFile(name: "mixed.kcs", text: String(repeating: "@\u{C}%!^&", count: 1000) + "\n")
        #expect(Interpreter.run(file: mixed, loader: NoFilesLoader()).diagnostics.count == 1)
    }

    /// Two keys of one binary dictionary pointed at the same string, one
    /// with `true`, one with a string: Foundation's decoder picked one by
    /// hash order, which changes per process, so the file decoded on one run
    /// and not on the next (CI's 10 s run of `entitlements`). Now refused.
    @Test func aBinaryDictionaryWithADuplicateKeyIsRefusedEveryTime() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("entitlements-duplicate-key.bplist")))
        for _ in 0..<20 {
            switch Entitlements.decode(bytes) {
            case .success(let e): Issue.record("decoded: \(e)")
            case .failure(let e):
                #expect(e.message == "the property list gives the key 'application-identifier' twice in one dictionary")
            }
        }
        let path = Self.folder.appendingPathComponent("entitlements-duplicate-key.bplist").path
        let (_, diagnostics, code) = EntitlementsSummary.describe(path: path)
        #expect(code == .missingInput)
        #expect(diagnostics.map(\.code) == [.malformedEntitlements])
    }

    /// Siblings: the same key spelt once in ASCII and once in UTF-16 is one
    /// key to Foundation; a key that is not a string is no plist's.
    @Test func binaryKeysAreComparedAsTextAndMustBeStrings() {
        // {"a" (ASCII): true, "a" (UTF-16): false}
        var dict = Array("bplist00".utf8) + [0xD2, 1, 2, 3, 4, 0x51, 0x61, 0x61, 0x00, 0x61, 0x09, 0x08]
        func trailer(_ offsets: [UInt8], _ b: inout [UInt8]) {
            let table = b.count
            b += offsets + [0, 0, 0, 0, 0, 0, 1, 1]
            for v in [offsets.count, 0, table] { b += (0..<8).reversed().map { UInt8((v >> ($0 * 8)) & 0xFF) } }
        }
        var same = dict
        trailer([8, 13, 15, 18, 19], &same)
        #expect(PlistGuard.check(same, maxDepth: 64) == .duplicateKey("a"))
        // The UTF-16 key made "b": two keys, accepted.
        dict[17] = 0x62
        var different = dict
        trailer([8, 13, 15, 18, 19], &different)
        #expect(PlistGuard.check(different, maxDepth: 64) == nil)
        // A `true` as a key.
        var boolKey = dict
        trailer([8, 18, 15, 18, 19], &boolKey)
        #expect(PlistGuard.check(boolKey, maxDepth: 64) == .malformedBinary("a dictionary key is not a string"))
    }
}
