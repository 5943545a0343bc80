import Testing
@testable import KeychainEngine

/// Texts past 15 bytes are interned: a text is two words with no
/// reference, so an attribute list's entries copy and free as bytes, and
/// two texts are equal exactly when their words are, at any length.
@Suite("Interned attribute text")
struct InternedTextTests {
    static func make(_ bytes: [UInt8], kind: AttributeText.Kind = .text) -> AttributeText {
        bytes.withUnsafeBufferPointer { AttributeText(bytes: $0, kind: kind) }
    }

    @Test("a text, a value and a list's entry are plain data (no reference to count)")
    func plainData() {
        #expect(_isPOD(AttributeText.self))
        #expect(_isPOD(AttributeValue.self))
        #expect(_isPOD(AttributeList.Entry.self))
        #expect(MemoryLayout<AttributeText>.size == 16)
    }

    @Test("15 bytes are held in place, 16 are interned; both read back and compare by bytes")
    func atTheLimit() {
        let fifteen = Array("exactly15bytes!".utf8), sixteen = Array("sixteen bytes!!!".utf8)
        let a = Self.make(fifteen), b = Self.make(sixteen)
        #expect(a.isInline && !b.isInline)
        #expect(a.count == 15 && b.count == 16)
        #expect(a.string == "exactly15bytes!" && b.string == "sixteen bytes!!!")
        #expect(a != b && Self.make(Array(sixteen.dropLast())) != b)
        #expect(Self.make(Array(sixteen.dropLast())) == AttributeText("sixteen bytes!!"))
        #expect(Self.make(sixteen) == b && Self.make(sixteen).hashValue == b.hashValue)
    }

    /// Other tests make texts at the same time, so this one compares
    /// numbers, not the table's size (which ``growth()`` checks on a table
    /// of its own).
    @Test("the same long bytes are one number, made however often and from wherever; a kind is not a new number")
    func internedOnce() {
        let bytes = Array("a value past the inline limit, \(#line)".utf8)
        let first = Self.make(bytes)
        for _ in 0..<100 { #expect(Self.make(bytes) == first && Self.make(bytes).w0 == first.w0) }
        #expect(AttributeText(String(decoding: bytes, as: UTF8.self)) == first)
        let other = Self.make(bytes + [0x21])
        #expect(other != first && other.w0 != first.w0)
        let data = Self.make(bytes, kind: .bytes), verbatim = Self.make(bytes, kind: .verbatim)
        #expect(data.w0 == first.w0 && verbatim.w0 == first.w0)
        #expect(data != first && verbatim != first && data != verbatim)
        #expect(data.kind == .bytes && verbatim.kind == .verbatim && first.kind == .text)
        data.withBytes { #expect(Array($0) == bytes) }
    }

    /// The table grows (its slots doubling) past thousands of texts, and
    /// every text made before keeps its number and its bytes.
    @Test("thousands of long texts: each one entry, each read back, each found again")
    func growth() {
        var table = AttributeText.Interned.Table()
        let texts = (0..<5000).map { Array("a-long-enough-prefix.\($0)".utf8) }
        for (i, t) in texts.enumerated() {
            #expect(t.withUnsafeBufferPointer { table.number(of: $0) } == UInt64(i))
        }
        #expect(table.texts.count == 5000 && table.texts == texts)
        #expect(table.bytes == texts.reduce(0) { $0 + $1.count })
        for (i, t) in texts.enumerated() {
            #expect(t.withUnsafeBufferPointer { table.number(of: $0) } == UInt64(i))
        }
        // A prefix or an extension of a text is another text.
        #expect(Array("a-long-enough-prefix.".utf8).withUnsafeBufferPointer { table.number(of: $0) } == 5000)
        #expect((texts[42] + [0]).withUnsafeBufferPointer { table.number(of: $0) } == 5001)
        #expect(table.texts.count == 5002)
    }

    @Test("odd bytes past the limit: invalid UTF-8, NUL, every byte value")
    func oddBytes() {
        let invalid: [UInt8] = [0xFF, 0xFE, 0x00, 0xC3] + Array(repeating: 0x80, count: 20)
        let t = Self.make(invalid, kind: .bytes)
        t.withBytes { #expect(Array($0) == invalid) }
        #expect(t.count == invalid.count)
        #expect(t != Self.make(invalid.dropLast() + [0x81], kind: .bytes))
        let all = (0...255).map { UInt8($0) }
        let every = Self.make(all, kind: .bytes)
        every.withBytes { #expect(Array($0) == all) }
        #expect(Self.make(all, kind: .bytes) == every)
        // NUL is a byte like any other past the limit too.
        #expect(AttributeText(String(repeating: "x", count: 20)) != AttributeText(String(repeating: "x", count: 20) + "\u{0}"))
    }

    @Test("texts made on many threads at once agree")
    func concurrent() async {
        let strings = (0..<64).map { "shared.long.value.\($0 % 8).padding" }
        let made = await withTaskGroup(of: (Int, AttributeText).self) { group in
            for (i, s) in strings.enumerated() { group.addTask { (i, AttributeText(s)) } }
            var out = [Int: AttributeText]()
            for await (i, t) in group { out[i] = t }
            return out
        }
        for i in 0..<64 {
            #expect(made[i] == made[i % 8])
            #expect(made[i]?.string == strings[i])
        }
    }
}

/// Review 22a, R1: the table's hash was FNV-1a with a fixed basis, so texts
/// whose slots fall in one small range could be chosen before a run; each
/// insert then probed the whole run they built (quadratic: 60,000 crafted
/// 20-byte services took 98 s, plain ones 0.3 s).
@Suite("Interned text: crafted collisions")
struct InternedFloodTests {
    /// The old, unseeded slot hash: FNV-1a 64, finished by `h ^ h >> 29`.
    static func unseeded(_ bytes: [UInt8]) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for c in bytes { h = (h ^ UInt64(c)) &* 0x0000_0100_0000_01b3 }
        return Int(truncatingIfNeeded: h ^ h >> 29)
    }

    /// 4,000 texts whose unseeded slot in the 8,192-slot table they end in
    /// is below 512 (so below 512 in every smaller table too), as the
    /// review's generator made them. In one run they are displaced by some
    /// 4,000²/2 slots in all; spread by a hash of their own, by about one
    /// slot each at a table at most half full. The bound, 10 a text, is
    /// some 200 times below the crafted run's.
    @Test("texts chosen to collide under the unseeded hash spread out: slots walked past stay linear in their number")
    func craftedTextsSpread() {
        var crafted = [[UInt8]]()
        var c = 0
        while crafted.count < 4000 {
            let text = Array("svc-\(String(repeating: "0", count: 16 - String(c).count))\(c)".utf8)
            if Self.unseeded(text) & 8191 < 512 { crafted.append(text) }
            c += 1
        }
        var table = AttributeText.Interned.Table()
        for (i, t) in crafted.enumerated() {
            #expect(t.withUnsafeBufferPointer { table.number(of: $0) } == UInt64(i))
        }
        #expect(table.texts.count == 4000)
        #expect(table.displacement < 10 * 4000, "slots walked past: \(table.displacement)")
    }
}
