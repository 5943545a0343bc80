import Testing
import KeychainEngine
@testable import KCSRuntime
@testable import KCSSyntax

/// The lowering keeps the texts past 15 bytes a file names
/// (``LongTextCache``), so the process's table is asked once per distinct
/// text: what it hands back is always the text ``AttributeText/init(bytes:)``
/// makes of the same bytes, found again or not.
@Suite struct LongTextCacheTests {
    /// The text of `text`'s bytes from `start` to `end`, made directly.
    static func direct(_ text: [UInt8], _ start: Int, _ end: Int) -> AttributeText {
        text.withUnsafeBufferPointer { AttributeText(bytes: UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    /// The ranges of the whitespace-separated words of `text`.
    static func words(_ text: [UInt8]) -> [Range<Int>] {
        var out = [Range<Int>](), start = 0
        for i in 0...text.count where i == text.count || text[i] == 0x20 {
            if i > start { out.append(start..<i) }
            start = i + 1
        }
        return out
    }

    @Test("a long text named again is the one kept; the first, the middle or the last byte apart, or one byte longer, is another")
    func sameAndOneByteApart() {
        let base = "SKMME9E2Y8.com.example.shared.group"
        var middle = Array(base.utf8)
        middle[18] ^= 1
        let variants = [base, "T" + base.dropFirst(), String(decoding: middle, as: UTF8.self), base.dropLast() + "q", base + "s",
                        String(base.dropLast())]
        let text = Array((variants + variants + [base, base]).joined(separator: " ").utf8)
        var cache = LongTextCache(bytes: text)
        var made = [String: AttributeText]()
        for r in Self.words(text) {
            let t = cache.text(r.lowerBound, r.upperBound)
            #expect(t == Self.direct(text, r.lowerBound, r.upperBound))
            let s = String(decoding: text[r], as: UTF8.self)
            #expect(t.string == s)
            if let before = made[s] { #expect(before == t) }
            made[s] = t
        }
        #expect(Set(made.values).count == variants.count)
        #expect(cache.count == variants.count)
    }

    @Test("the same text in two files, at other offsets, is one text; 15 bytes are made in place and not kept")
    func twoFilesAndTheInlineLimit() {
        let long = "a.long.account.prefix.user4449"
        let one = Array("x \(long)".utf8), two = Array("some other words first \(long) fifteen.bytes.!".utf8)
        var first = LongTextCache(bytes: one), second = LongTextCache(bytes: two)
        let a = first.text(2, one.count)
        let b = second.text(23, 23 + long.utf8.count)
        #expect(a == b && a == AttributeText(long) && a.count == 30)
        let fifteen = second.text(two.count - 15, two.count)
        #expect(fifteen == AttributeText("fifteen.bytes.!") && second.count == 1)
        // An empty range and one past the end read as `SourceFile.withBytes` does: clamped.
        #expect(second.text(4, 4) == AttributeText() && second.text(two.count - 20, two.count + 50) == Self.direct(two, two.count - 20, two.count))
    }

    @Test("thousands of texts: the cache grows, and each is found again as the text the table made")
    func growth() {
        let names = (0..<5000).map { "a.long.service.prefix.svc\($0)" }
        let text = Array(names.joined(separator: " ").utf8)
        var cache = LongTextCache(bytes: text)
        let ranges = Self.words(text)
        let first = ranges.map { cache.text($0.lowerBound, $0.upperBound) }
        #expect(cache.count > 4900)
        for (i, r) in ranges.enumerated() {
            #expect(first[i] == Self.direct(text, r.lowerBound, r.upperBound))
            #expect(cache.text(r.lowerBound, r.upperBound) == first[i])
        }
        #expect(Set(first).count == 5000)
    }

    /// Texts chosen to share a first slot cost a bounded walk each: past
    /// ``LongTextCache/probeLimit`` slots a text is asked of the table and
    /// not kept, and every one is still its own text.
    @Test("texts that share a first slot: at most probeLimit kept, each still right")
    func sharedSlots() {
        let seed = LongTextCache(bytes: []).seed
        var chosen = [String]()
        var c = 0
        while chosen.count < 100 {
            let s = "svc-crafted-\(c)-padding"
            if Array(s.utf8).withUnsafeBytes({ LongTextCache.hash($0.baseAddress!, $0.count, seed) }) & 63
                == Array("svc-crafted-0-padding".utf8).withUnsafeBytes({ LongTextCache.hash($0.baseAddress!, $0.count, seed) }) & 63 {
                chosen.append(s)
            }
            c += 1
        }
        let text = Array(chosen.joined(separator: " ").utf8)
        var cache = LongTextCache(bytes: text)
        for _ in 0..<2 {
            for r in Self.words(text) { #expect(cache.text(r.lowerBound, r.upperBound) == Self.direct(text, r.lowerBound, r.upperBound)) }
        }
        #expect(cache.count == LongTextCache.probeLimit)
    }

    /// End to end: the same long values in calls of one file, in a second
    /// file run in the same session, and one byte apart.
    @Test("a script's long values, again in a second script of the session and one byte apart, find what they did before")
    func throughSessions() {
        let service = "com.example.a.long.service.name", group = "SKMME9E2Y8.com.example.a.long.shared.group"
        var session = Session()
        let first = session.run(file: SourceFile(name: "one.kcs", text: """
            team SKMME9E2Y8
            app com.example.One as One keychain-access-groups=[\(group)]
            as One add generic-password service="\(service)" account="a.long.account.name.1" group=\(group) data="d"
            expect status errSecSuccess
            as One add generic-password service="\(service)" account="a.long.account.name.1" group=\(group)
            expect status errSecDuplicateItem
            as One find generic-password service="\(service)" account="a.long.account.name.2"
            expect status errSecItemNotFound
            as One find generic-password service="\(service)X" account="a.long.account.name.1"
            expect status errSecItemNotFound
            as One find generic-password service="\(service)" account="a.long.account.name.1" return=data
            expect status errSecSuccess
            expect data "d"
            """))
        #expect(first.verdict == .passed, "\(first.diagnostics.map(\.message))")
        let second = session.run(file: SourceFile(name: "two.kcs", text: """
            as One find generic-password account="a.long.account.name.1" service="\(service)" group=\(group) return=attributes
            expect status errSecSuccess
            expect item service="\(service)" account="a.long.account.name.1" group=\(group)
            as One delete generic-password service="\(service.dropLast())" account="a.long.account.name.1"
            expect status errSecItemNotFound
            as One delete generic-password service="\(service)" account="a.long.account.name.1"
            expect status errSecSuccess
            """))
        #expect(second.verdict == .passed, "\(second.diagnostics.map(\.message))")
    }
}
