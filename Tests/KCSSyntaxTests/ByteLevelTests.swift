import KCSSyntax
import Testing

/// The byte-level front end of issue #12 against plain oracles: the name
/// index (hashed, compared a word at a time, short names as two words)
/// against a dictionary, and string literals (decoded from the source on
/// demand) against the values their pieces spell. Seeded, so a failure
/// replays.
@Suite struct ByteLevelTests {
    /// A seeded linear congruential generator (Knuth's MMIX constants),
    /// the high half of its state: the same inputs on every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 32 | state << 32
        }
    }

    @Test func nameIndexAgreesWithADictionaryAtEveryLengthAndOffset() {
        var rng = Seeded(state: 12)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.$()_é".utf8)
        // Names of 1 to 40 bytes (across the 8- and 16-byte word paths),
        // some sharing long prefixes, and a repeat (the first spelling wins).
        var names: [String] = []
        for length in 1...40 {
            for _ in 0..<3 {
                names.append(String(decoding: (0..<length).map { _ in letters.randomElement(using: &rng)! }, as: UTF8.self))
            }
        }
        let shared = "kSecAttrAccessGroup"
        names += [shared, shared + "s", String(shared.dropLast()), "errSecSuccess", "errSecSuccesS", names[7]]
        let index = ByteIndex(names)
        // Keyed by bytes: a changed byte may make invalid UTF-8, which a
        // String would read as U+FFFD and so equal another name.
        var first: [[UInt8]: Int] = [:]
        for (i, n) in names.enumerated() where first[Array(n.utf8)] == nil { first[Array(n.utf8)] = i }

        // Each name, and near misses of it (a byte changed at every
        // position, one byte short, one byte long), looked up inside a
        // larger buffer at offsets 0 to 9 from its start and with 0 to 9
        // bytes after it, so every load path (whole words, the last word
        // of the buffer, byte by byte) is taken.
        for name in Set(names) {
            var keys = [Array(name.utf8), Array(name.utf8.dropLast()), Array(name.utf8) + [UInt8(ascii: "x")]]
            for p in 0..<name.utf8.count {
                var k = Array(name.utf8)
                k[p] ^= 0x20
                keys.append(k)
            }
            for key in keys where !key.isEmpty {
                let expected = first[key]
                for before in 0..<10 {
                    for after in [0, 1, 7, 9] {
                        let buffer = [UInt8](repeating: UInt8(ascii: " "), count: before) + key
                            + [UInt8](repeating: UInt8(ascii: "z"), count: after)
                        let found = index.index(buffer, SourceRange(before, before + key.count))
                        #expect(found == expected, "\(String(decoding: key, as: UTF8.self)) at \(before)+\(after)")
                    }
                }
            }
        }
        // Ranges that are empty or outside the bytes find nothing.
        #expect(index.index(Array("abc".utf8), SourceRange(1, 1)) == nil)
        #expect(index.index(Array("abc".utf8), SourceRange(2, 9)) == nil)
        #expect(index.index(Array("abc".utf8), SourceRange(-1, 2)) == nil)
    }

    /// A piece of a string literal: as written, its value, and whether the
    /// lexer reports it.
    typealias Piece = (written: String, value: String, bad: Bool)

    static func piece(_ rng: inout Seeded) -> Piece {
        switch Int.random(in: 0..<12, using: &rng) {
        case 0: return ("\\\"", "\"", false)
        case 1: return ("\\\\", "\\", false)
        case 2: return ("\\n", "\n", false)
        case 3: return ("\\t", "\t", false)
        case 4:
            // A scalar as one to eight hex digits (leading zeros, either case).
            let scalars: [UInt32] = [0x41, 0x1F511, 0xE9, 0x10FFFF, 0x7F, 0x1B, 0x202E, 0xFEFF, 0x0]
            let v = scalars.randomElement(using: &rng)!
            var hex = String(v, radix: 16, uppercase: Bool.random(using: &rng))
            hex = String(repeating: "0", count: Int.random(in: 0...(8 - hex.count), using: &rng)) + hex
            return ("\\u{\(hex)}", String(Character(Unicode.Scalar(v)!)), false)
        case 5:
            // An unknown escape: reported, and nothing in the value.
            let e = ["q", "0", "x", "'", "u{}", " "].randomElement(using: &rng)!
            if e == "u{}" { return ("\\u{}", "", true) }
            return ("\\" + e, "", true)
        default:
            let s = ["a", "Z", " ", "é", "🔑", "#", "=", "[", "]", ",", "abcdefghij"].randomElement(using: &rng)!
            return (s, s, false)
        }
    }

    @Test func stringLiteralsDecodeToWhatTheirPiecesSpellClosedOrNot() {
        var rng = Seeded(state: 34)
        for round in 0..<3000 {
            let pieces = (0..<Int.random(in: 0..<6, using: &rng)).map { _ in Self.piece(&rng) }
            let body = pieces.map(\.written).joined(), value = pieces.map(\.value).joined()
            let bad = pieces.filter(\.bad).count
            // Closed; cut short by a line break; cut short by the end of the file.
            for ending in ["\" x", "\nx", ""] {
                let prefix = String(repeating: " ", count: round % 9)
                let file = SourceFile(name: "t.kcs", text: prefix + "\"" + body + ending)
                var lexer = Lexer(file: file)
                let token = lexer.next()
                guard case .string(let needsDecoding) = token.kind else {
                    Issue.record("not a string: \(token.kind) for \(body)")
                    continue
                }
                // Only a string with an escape or without its closing quote needs decoding.
                #expect(needsDecoding == (body.contains("\\") || !ending.hasPrefix("\"")), "\(body + ending)")
                #expect(token.range.start == prefix.utf8.count)
                #expect(token.range.end == prefix.utf8.count + 1 + body.utf8.count + (ending.hasPrefix("\"") ? 1 : 0),
                        "\(body + ending)")
                #expect(file.stringValue(token.range) == value, "\(body + ending)")
                let problems = lexer.diagnostics.filter { $0.code == .badEscape }.count
                #expect(problems == bad, "\(body + ending): \(lexer.diagnostics.map(\.message))")
                let unterminated = lexer.diagnostics.contains { $0.code == .unterminatedString }
                #expect(unterminated == !ending.hasPrefix("\""), "\(body + ending)")
            }
            // The same literal as a value in the syntax tree reads the same.
            let file = SourceFile(name: "t.kcs", text: "as A find k account=\"" + body + "\"\n")
            let parsed = SyntaxParser.parse(file)
            guard case .call(let call)? = parsed.statements.first?.body, let argument = parsed.arguments(call.arguments).first else {
                Issue.record("no call for \(body)")
                continue
            }
            #expect(argument.value.text(in: file) == value, "\(body)")
        }
    }
}

/// The fast paths of issue #12's front end against the plain readings they
/// replace, on seeded random input: the lexer's loop for common tokens
/// against its general reading, the table-driven run scan against a byte
/// loop, the short-name cache against the text, and the parser's reused
/// argument arrays against statements that are kept.
@Suite struct FastPathTests {
    typealias Seeded = ByteLevelTests.Seeded

    /// Pieces that meet at every boundary the fast path decides: blanks,
    /// words that start like numbers, strings with and without escapes or
    /// closing quotes, letters past ASCII and their look-alikes, brackets,
    /// comments and stray characters.
    static let pieces: [String] = [
        "as", "App1", "generic-password", "a.b-c_d*$()", "SKMME9E2Y8.com.bench.g7", "x", " ", " ", "\t", "\r", "\n", "\n",
        "=", "\"", "\"svc\"", "\"\"", "\"a\\\"b\"", "\\", "\\n", "\"cut", "-", "-12", "42", "4x", "99999999999999999999",
        "é", "naïve", "\u{201C}", "\u{00A0}", "#comment", "[", "]", ",", "!", "@", "\u{1F511}",
    ]

    @Test func commonPathLexesAsTheGeneralReadingDoes() {
        var rng = Seeded(state: 12)
        for _ in 0..<5000 {
            let text = (0..<Int.random(in: 0..<16, using: &rng)).map { _ in Self.pieces.randomElement(using: &rng)! }.joined()
            let file = SourceFile(name: "t.kcs", text: text)
            var fast = Lexer(file: file), general = Lexer(file: file)
            general.usesCommonPath = false
            var steps = 0
            while steps <= text.utf8.count + 2 {
                let a = fast.next(), b = general.next()
                #expect(a == b, "\(text.debugDescription)")
                if a != b || a.kind == .end { break }
                steps += 1
            }
            #expect(fast.diagnostics.map(\.message) == general.diagnostics.map(\.message), "\(text.debugDescription)")
            #expect(fast.diagnostics.map(\.range) == general.diagnostics.map(\.range), "\(text.debugDescription)")
        }
    }

    @Test func runScanStopsWhereAByteLoopStops() {
        var rng = Seeded(state: 5)
        let classes = ByteClasses.shared
        for length in 0..<40 {
            for _ in 0..<40 {
                // Mostly word and string bytes, so runs are long enough to cross the eight-byte rounds.
                let bytes = (0..<length).map { _ in
                    Bool.random(using: &rng) ? UInt8.random(in: 0x61...0x7A, using: &rng) : UInt8.random(in: 0...255, using: &rng)
                }
                bytes.withUnsafeBufferPointer { b in
                    for bit in [ByteClasses.asciiWord, ByteClasses.plainStringByte] {
                        for start in 0...length {
                            var expected = start
                            while expected < length && classes.bits(bytes[expected]) & bit != 0 { expected += 1 }
                            #expect(ByteClasses.runEnd(b, from: start, while: bit, in: classes.table) == expected, "\(bytes) from \(start)")
                        }
                    }
                }
            }
        }
        // The table is the documented rules, byte by byte.
        for b in UInt8(0)...UInt8(255) {
            #expect((classes.bits(b) & ByteClasses.asciiWord != 0) == (b < 0x80 && Lexer.isWordByte(b)), "byte \(b)")
            #expect((classes.bits(b) & ByteClasses.plainStringByte != 0) == !"\"\\\n".utf8.contains(b), "byte \(b)")
        }
    }

    @Test func namesReadThroughTheCacheAreTheirText() {
        var rng = Seeded(state: 77)
        // More names than the cache has slots, of every length around the
        // 15 bytes it keeps, so slots are shared, replaced and read again.
        // A name that starts like a number is read as one: start with a letter.
        let first = Array("abcXYZé"), letters = Array("abcXYZ019.-_é")
        let names = (0..<700).map { i in
            String(first.randomElement(using: &rng)!) + String((0..<(i % 20)).map { _ in letters.randomElement(using: &rng)! })
        }
        var lines: [String] = []
        for _ in 0..<3000 { lines.append(names.randomElement(using: &rng)!) }
        let file = SourceFile(name: "t.kcs", text: lines.map { "uninstall \($0)\n" }.joined())
        var parser = SyntaxParser(file: file)
        var i = 0
        while let s = parser.next() {
            guard case .name(let n) = s.body else { Issue.record("not a name: \(s.body)"); break }
            #expect(n.text == lines[i])
            #expect(n.text == file.text(n.range))
            i += 1
        }
        #expect(i == lines.count)
        #expect(!parser.hasErrors)
    }

    @Test func callsKeepTheirOwnArgumentsWhileCurrentOrParsedWhole() {
        let text = (0..<50).map { i in
            "as A\(i) update k " + (0..<(i % 7)).map { "a\($0)=\"\(i)\"" }.joined(separator: " ") + " set data=\"d\(i)\" "
                + "returns=[r\(i), s\(i)]\n" + (i % 2 == 0 ? "expect status errSecSuccess or e\(i)\n" : "")
        }.joined()
        let file = SourceFile(name: "t.kcs", text: text)
        func check(_ s: StatementNode, _ i: Int, _ name: (NameNode) -> String,
                   _ arguments: (NodeList) -> ArraySlice<ArgumentNode>, _ values: (NodeList) -> ArraySlice<ValueNode>) {
            guard case .call(let call) = s.body else { Issue.record("not a call"); return }
            #expect(name(call.app) == "A\(i)")
            #expect(arguments(call.arguments).map { file.text($0.key) } == (0..<(i % 7)).map { "a\($0)" })
            #expect(arguments(call.arguments).allSatisfy { $0.value.text(in: file) == "\(i)" })
            let changes = Array(arguments(call.changes))
            #expect(changes.map { file.text($0.key) } == ["data", "returns"])
            #expect(changes.first?.value.text(in: file) == "d\(i)")
            if case .list(let l)? = changes.last?.value.kind {
                #expect(values(l).compactMap { $0.word(in: file) } == ["r\(i)", "s\(i)"])
            } else {
                Issue.record("returns is not a list")
            }
        }
        func checkExpect(_ s: StatementNode, _ i: Int, _ values: (NodeList) -> ArraySlice<ValueNode>) {
            guard case .expect(.status(let first, let more)) = s.body else { Issue.record("not a status expectation"); return }
            #expect(file.text(first.range) == "errSecSuccess")
            #expect(values(more).map { file.text($0.range) } == ["e\(i)"])
        }
        // Parsed whole: every statement's lists are kept to the end.
        var parsed = SyntaxParser.parse(file)
        #expect(parsed.diagnostics.isEmpty)
        #expect(parsed.statements.count == 75)
        var i = 0
        for s in parsed.statements {
            if s.form == .expect { checkExpect(s, i - 1, parsed.values); continue }
            check(s, i, { parsed.name($0).text }, parsed.arguments, parsed.values)
            i += 1
        }
        // One at a time, as the runtime reads them: a statement's lists are
        // there until the next statement, which reuses their room.
        var parser = SyntaxParser(file: file)
        i = 0
        while let s = parser.next() {
            if s.form == .expect { checkExpect(s, i - 1, parser.values); continue }
            check(s, i, { parser.name($0).text }, parser.arguments, parser.values)
            i += 1
        }
        #expect(i == 50)
    }
}
