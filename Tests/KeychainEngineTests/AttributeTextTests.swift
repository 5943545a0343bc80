import Testing
@testable import KeychainEngine

/// A string attribute's value is its UTF-8 bytes: equal exactly when the
/// bytes are, at every length the in-place and shared layouts cover.
@Suite("Attribute text")
struct AttributeTextTests {
    /// Texts of every length from 0 to 40 bytes, each with a twin that
    /// differs in its last byte and one that is a byte shorter.
    static let lengths = Array(0...40)

    static func text(_ n: Int, last: UInt8 = 0x61) -> [UInt8] {
        var b = (0..<n).map { UInt8(0x30 + $0 % 40) }
        if n > 0 { b[n - 1] = last }
        return b
    }

    static func make(_ bytes: [UInt8]) -> AttributeText {
        bytes.withUnsafeBufferPointer { AttributeText(bytes: $0) }
    }

    @Test("equal bytes are equal texts, with equal hashes; any other bytes are not", arguments: lengths)
    func equalityIsByteEquality(n: Int) {
        let a = Self.make(Self.text(n)), same = Self.make(Self.text(n))
        #expect(a == same)
        #expect(a.hashValue == same.hashValue)
        #expect(a.count == n)
        a.withBytes { #expect(Array($0) == Self.text(n)) }
        if n > 0 {
            #expect(a != Self.make(Self.text(n, last: 0x62)))
            #expect(a != Self.make(Array(Self.text(n).dropLast())))
        }
        // From a String, the same bytes give the same text.
        #expect(AttributeText(String(decoding: Self.text(n), as: UTF8.self)) == a)
    }

    @Test("a NUL byte counts: \"a\" and \"a\\0\" differ, in place and shared")
    func nulBytesCount() {
        #expect(AttributeText("a") != AttributeText("a\u{0}"))
        #expect(AttributeText(String(repeating: "x", count: 20)) != AttributeText(String(repeating: "x", count: 20) + "\u{0}"))
        #expect(AttributeText("").isEmpty && AttributeText() == AttributeText(""))
    }

    @Test("canonically equivalent strings are different texts (SQLite compares bytes)")
    func noUnicodeEquivalence() {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(composed == decomposed)  // Swift's String equates them
        #expect(AttributeText(composed) != AttributeText(decomposed))
        #expect(AttributeValue.string(AttributeText(composed)) != .string(AttributeText(decomposed)))
    }

    @Test("the text reads back as the string it was made from", arguments: ["", "alice", "exactly15bytes!", "sixteen bytes!!!", "SKMME9E2Y8.com.example.shared", "🔑 clé"])
    func roundTrip(s: String) {
        #expect(AttributeText(s).string == s)
        #expect(AttributeValue.string(AttributeText(s)).description == "\"\(s)\"")
    }

    /// A text's kind (what a device stored it as, audit 15 F1-F2) is part
    /// of it: the same bytes of two kinds are unequal, at every length;
    /// empty bytes are text (SecDb.c lines 1578-1582).
    @Test("the same bytes of two kinds differ; empty bytes are text", arguments: lengths)
    func kinds(n: Int) {
        let bytes = Self.text(n)
        let kinds: [AttributeText.Kind] = [.text, .bytes, .verbatim]
        let texts = kinds.map { kind in bytes.withUnsafeBufferPointer { AttributeText(bytes: $0, kind: kind) } }
        for (kind, t) in zip(kinds, texts) {
            #expect(t.count == n)
            #expect(t.kind == (n == 0 ? .text : kind))
            t.withBytes { #expect(Array($0) == bytes) }
        }
        #expect(texts[0] == Self.make(bytes))
        if n == 0 {
            #expect(texts[0] == texts[1] && texts[1] == texts[2])
        } else {
            #expect(texts[0] != texts[1] && texts[1] != texts[2] && texts[0] != texts[2])
            #expect(AttributeValue.string(texts[0]) != AttributeValue.string(texts[1]))
        }
    }

    /// What SQLite's INTEGER affinity reads as a number (KCSSecItem refuses
    /// such a string in a Number column).
    @Test("text SQLite reads as a number")
    func sqliteNumbers() {
        for yes in ["0443", "+1", "-2", " 7 ", "1.5", ".5", "1.", "4e2", "1E-3"] {
            #expect(AttributeValue.sqliteReadsAsNumber(yes), "\(yes)")
        }
        for no in ["", " ", "https", "0x10", "1e", "e5", "1.2.3", "+", "12a", "."] {
            #expect(!AttributeValue.sqliteReadsAsNumber(no), "\(no)")
        }
    }
}

/// Dates as scripts write them (conformance audit 15, F4).
@Suite struct DateValueTests {
    @Test func datesReadAndPrintAsUTCInstants() {
        #expect(AttributeValue.date(fromText: "2001-01-01") == 0)
        #expect(AttributeValue.date(fromText: "2001-01-01T00:00:01Z") == 1)
        #expect(AttributeValue.date(fromText: "2025-01-31") == 759_974_400)
        #expect(AttributeValue.date(fromText: "2000-12-31T23:59:59") == -1)
        #expect(AttributeValue.date(fromText: "2024-02-29") != nil)
        for bad in ["2023-02-29", "2025-13-01", "2025-01-32", "2025-1-31", "yesterday", "2025-01-31T24:00:00Z", "2025-01-31T12:00Z", ""] {
            #expect(AttributeValue.date(fromText: bad) == nil, "\(bad)")
        }
        for text in ["2025-01-31T00:00:00Z", "1970-01-01T00:00:00Z", "2001-01-01T00:00:00Z", "2100-03-01T12:34:56Z"] {
            let seconds = AttributeValue.date(fromText: text)
            #expect(seconds.map(AttributeValue.dateText) == text, "\(text)")
        }
        #expect(AttributeValue.date(0).description == "\"2001-01-01T00:00:00Z\"")
        // Fractions to the microsecond, years of four digits, and no trap
        // for what an API caller may pass (adversarial 19, C1 and P1).
        #expect(AttributeValue.dateText(0.5) == "2001-01-01T00:00:00.5Z")
        #expect(AttributeValue.dateText(-0.25) == "2000-12-31T23:59:59.75Z")
        #expect(AttributeValue.dateText(123.000001) == "2001-01-01T00:02:03.000001Z")
        #expect(AttributeValue.dateText(1e-7) == "2001-01-01T00:00:00Z")
        #expect(AttributeValue.dateText(0.9999999) == "2001-01-01T00:00:01Z")
        let year999 = AttributeValue.date(fromText: "0999-01-01")
        #expect(year999.map(AttributeValue.dateText) == "0999-01-01T00:00:00Z")
        #expect(AttributeValue.date(fromText: "0000-01-01").map(AttributeValue.dateText) == "0000-01-01T00:00:00Z")
        #expect(AttributeValue.date(fromText: "9999-12-31T23:59:59Z").map(AttributeValue.dateText) == "9999-12-31T23:59:59Z")
        // What dateText writes reads back (found by review).
        for seconds in [0.5, -0.25, 123.000001, 759_974_400.75] {
            #expect(AttributeValue.date(fromText: AttributeValue.dateText(seconds)).map { abs($0 - seconds) < 1e-6 } == true, "\(seconds)")
        }
        #expect(AttributeValue.date(fromText: "2025-01-31T00:00:00.Z") == nil)
        #expect(AttributeValue.date(fromText: "2025-01-31T00:00:00.1234567890Z") == nil)
        for odd in [Double.nan, .infinity, -.infinity, 1e19, 9.2233720368547748e18, -1e19] {
            #expect(AttributeValue.dateText(odd).hasSuffix("s since 2001"), "\(odd)")
        }
        #expect(AttributeValue.absent(for: .startDate) == .date(0))
    }
}
