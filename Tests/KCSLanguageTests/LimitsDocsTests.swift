import Foundation
import KCSLanguage
import KeychainEngine
import Testing

/// Review 23a, R11: the numbers the docs give for limits are read back from
/// the constants, so a changed limit fails here until its page says it.
@Suite struct LimitsDocsTests {
    static func page(_ path: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// A number as the pages write it: `256 MiB`, `100,000`, `none`.
    static func shown(_ n: Int?) -> String {
        guard let n else { return "none" }
        if n >= 1 << 20 && n % (1 << 20) == 0 { return "\(n >> 20) MiB" }
        var out: [Character] = []
        for (i, c) in String(n).reversed().enumerated() {
            if i > 0 && i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }

    @Test func limitsPageTableIsTheLimits() throws {
        let rows = try Self.page("docs/limits.md").split(separator: "\n").filter { $0.hasPrefix("| `") }
        let d = Limits(), u = Limits.untrusted
        let fields: [(String, Int?, Int?)] = [
            ("sourceBytes", d.sourceBytes, u.sourceBytes), ("listLength", d.listLength, u.listLength),
            ("includeDepth", d.includeDepth, u.includeDepth), ("statements", d.statements, u.statements),
            ("items", d.items, u.items), ("seconds", d.seconds.map { Int($0) }, u.seconds.map { Int($0) }),
            ("outputBytes", d.outputBytes, u.outputBytes), ("generatedBytes", d.generatedBytes, u.generatedBytes),
        ]
        for (name, byDefault, untrusted) in fields {
            let row = rows.first { $0.hasPrefix("| `\(name)`") }
            let cells = row?.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
            #expect(cells.count >= 3 && cells[1] == Self.shown(byDefault) && cells[2] == Self.shown(untrusted),
                    "docs/limits.md's \(name) row: \(row ?? "missing")")
        }
        #expect(rows.first { $0.hasPrefix("| `generatedBytes`") }?.contains("`Limits.bytesPerCheck`, \(Limits.bytesPerCheck)") == true)
    }

    @Test func grammarPageRangesAreTheConstants() throws {
        let page = try Self.page("grammar.md")
        #expect(page.contains("(* 0..\(AuthContext.maximumReuseDuration) seconds *)"))
        #expect(page.contains("(* seconds, 0..\(SyntaxParser.maximumWait) *)"))
    }
}
