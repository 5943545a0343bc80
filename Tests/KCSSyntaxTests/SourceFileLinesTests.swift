@testable import KCSSyntax
import Testing

/// A file's lines against a plain oracle (every line's start), and what
/// the line index holds: every line's start, 8 bytes a line, cost 1.6 GB
/// for 200 MB of line breaks (adversarial run 26, F13).
@Suite struct SourceFileLinesTests {
    /// Short and long lines (past 4 KiB, and past the column checkpoints'
    /// 64 KiB), CR LF, lone CRs, empty lines, with and without a last
    /// line break: each offset's line and column, each line's bounds.
    @Test func locationsAndLinesAgreeWithEveryLinesStart() {
        var rng = LineTestGenerator(seed: 26)
        for round in 0..<12 {
            var text: [UInt8] = []
            for _ in 0..<(rng.next() % 120) {
                let length = [0, 1, 5, 40, 4095, 4096, 5000, 70_000][Int(rng.next() % 8)]
                text += (0..<length).map { _ in [UInt8(ascii: "a"), 0xC3, 0xA9, UInt8(ascii: "\r")][Int(rng.next() % 4)] }
                text += rng.next() % 3 == 0 ? [0x0D, 0x0A] : [0x0A]
            }
            if round % 2 == 0 { text += [UInt8(ascii: "z")] }
            let file = SourceFile(name: "t", bytes: text)
            // A line ends at an LF, a CR LF or a lone CR (adversarial run 28, F6).
            var starts = [0]
            for (i, b) in text.enumerated() where b == 0x0A || (b == 0x0D && (i + 1 == text.count || text[i + 1] != 0x0A)) { starts.append(i + 1) }
            #expect(file.lineCount == starts.count)
            for (line, start) in starts.enumerated() {
                let end = line + 1 < starts.count ? starts[line + 1] - 1 : text.count
                let trimmed = end > start && end < text.count && text[end] == 0x0A && text[end - 1] == 0x0D ? end - 1 : end
                #expect(file.lineBounds(line + 1) == start..<trimmed, "round \(round) line \(line)")
            }
            for _ in 0..<200 {
                let offset = text.isEmpty ? 0 : Int(rng.next() % UInt64(text.count + 1))
                let line = starts.lastIndex { $0 <= offset } ?? 0
                let column = text[starts[line]..<offset].filter { $0 & 0xC0 != 0x80 }.count + 1
                #expect(file.location(of: offset) == SourceLocation(line: line + 1, column: column), "round \(round) offset \(offset)")
            }
        }
    }

    /// Line breaks alone are indexed a mark per 64 lines, not an offset each.
    @Test func blankLinesAreIndexedSparsely() {
        let file = SourceFile(name: "t", bytes: [UInt8](repeating: 0x0A, count: 1_000_000))
        #expect(file.lineCount == 1_000_001)
        #expect(file.markOffsets.count <= 1_000_001 / 64 + 2, "\(file.markOffsets.count)")
        #expect(file.location(of: 999_999) == SourceLocation(line: 1_000_000, column: 1))
        #expect(file.lineBounds(1_000_001) == 1_000_000..<1_000_000)
    }
}

/// A seeded generator (Knuth's MMIX constants), so a failure replays.
struct LineTestGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407; return state >> 17 }
}
