import Foundation
import KCSLanguage
import KeychainEngine
import Testing

/// grammar.md §4.2 lists every item attribute with its constant, its kind
/// and its classes; the engine holds each fact. The table is checked row by
/// row against the engine, so it cannot drift (creator and dates did once).
@Suite struct GrammarAttributeTableTests {
    static func kindName(_ kind: AttributeValueKind) -> String {
        switch kind {
        case .string: "string"
        case .integer: "integer"
        case .date: "date"
        case .enumerated: "enumerated"
        }
    }

    /// The rows of grammar.md's table whose header is `header`, as cells.
    static func table(_ header: String) throws -> [[String]] {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("grammar.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        let start = try #require(text.range(of: header))
        return text[start.upperBound...].split(separator: "\n").dropFirst().prefix { $0.hasPrefix("|") }
            .map { row in row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    @Test func everyRowMatchesTheEngine() throws {
        var seen = Set<ItemAttribute>()
        for cells in try Self.table("| short name | constant | kind | classes |") {
            try #require(cells.count == 4, "\(cells)")
            let short = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            guard case .attribute(let a)? = Vocabulary.argumentKey(named: short) else {
                Issue.record("grammar.md lists '\(short)', which is no attribute")
                continue
            }
            seen.insert(a)
            #expect(cells[1] == "`\(a.constantName)`", "\(short): \(cells[1])")
            #expect(cells[2] == Self.kindName(a.valueKind), "\(short) is \(Self.kindName(a.valueKind)), the table says \(cells[2])")
            let classes = ItemClass.allCases.filter { a.applies(to: $0) }
            let written = classes.count == ItemClass.allCases.count ? "all"
                : classes.map { $0.rawValue + ($0.primaryKeyAttributes.contains(a) ? " (PK)" : "") }.joined(separator: ", ")
            #expect(cells[3] == written, "\(short): the engine says \(written)")
        }
        #expect(seen == Set(ItemAttribute.allCases), "missing from grammar.md: \(Set(ItemAttribute.allCases).subtracting(seen))")
    }

    /// §4.4's accessibility table: each row's short name, constant
    /// (marked deprecated where the engine says so) and the constant's value
    /// are the engine's, in the engine's order, most restrictive first
    /// (review 22b, R10: the codes column was written beside
    /// `Accessibility.code` and checked by nothing).
    @Test func theAccessibilityTableIsTheEngines() throws {
        let written = try Self.table("| short name | constant | the constant's value |")
        let engine = Accessibility.allCases.map { a in
            ["`\(a.rawValue)`", "`\(a.constantName)`" + (a.isDeprecated ? " (deprecated)" : ""), "`\(a.code)`"]
        }
        #expect(written == engine, "grammar.md: \(written)\nthe engine: \(engine)")
    }
}
