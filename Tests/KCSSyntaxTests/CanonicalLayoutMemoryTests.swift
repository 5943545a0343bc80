@testable import KCSSyntax
import Testing

/// `kcs fmt` holds what one line, one statement's tokens and one run of
/// aligned comments need, not the whole text several times over: one 8 MiB
/// list took 938 MB, some 117 bytes a byte, where the docs said 50
/// (adversarial run 29, F4). Counted through the layout's own tallies.
@Suite struct CanonicalLayoutMemoryTests {
    @Test func aLongListAndManyCommentLinesAreWrittenAsTheyAreRead() throws {
        let list = "team SKMME9E2Y8\napp com.example.A keychain-access-groups=[" + String(repeating: "x,", count: 100_000) + "x]\n"
        let file = SourceFile(name: "t.kcs", text: list)
        let held = CanonicalLayout.mostHeld(file)
        #expect(held.entries <= 1 && held.lines == 0, "\(held)")
        let out = try CanonicalLayout.format(file)
        #expect(out.count == "team SKMME9E2Y8\napp com.example.A keychain-access-groups=[\n]\n".utf8.count + 100_001 * 7)
        let comments = SourceFile(name: "c.kcs", text: String(repeating: "# note\n\nlock  # why\n", count: 50_000))
        let commented = CanonicalLayout.mostHeld(comments)
        #expect(commented.entries <= 1 && commented.lines <= 1, "\(commented)")
        #expect(try CanonicalLayout.format(comments) == comments.bytes)
    }

    /// The comparison that keeps a formatting from changing a script's
    /// meaning reads both texts in step: trailing commas, blank lines and
    /// the last line break do not count; the first other difference is
    /// found where it starts.
    @Test func theMeaningComparisonFindsTheFirstChange() {
        func change(_ a: String, _ b: String) -> Int? {
            CanonicalLayout.firstChange(SourceFile(name: "a", text: a), SourceFile(name: "b", text: b))
        }
        #expect(change("expect groups A [X, Y,]\n\n\nlock\n", "expect groups A [\n    X,\n    Y,\n]\nlock") == nil)
        #expect(change("lock\nunlock\n", "lock\nreboot\n") == 5)
        #expect(change("expect groups A [X Y]", "expect groups A [X, Y]") == 19)
        #expect(change("lock\nunlock", "lock\n") == 4)
        #expect(change("lock\n", "lock\nunlock") == 5)
        #expect(change("lock \"é\"", "lock \"e\u{301}\"") == 5, "bytes, not canonical equivalence")
    }
}
