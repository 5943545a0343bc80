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

    @Test func everyRowMatchesTheEngine() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("grammar.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        let start = try #require(text.range(of: "| short name | constant | kind | classes |"))
        let rows = text[start.upperBound...].split(separator: "\n").dropFirst().prefix { $0.hasPrefix("|") }
        var seen = Set<ItemAttribute>()
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            try #require(cells.count == 4, "\(row)")
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
}
