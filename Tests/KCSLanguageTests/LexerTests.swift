import Testing
@testable import KCSLanguage
@testable import KCSRuntime
@testable import KCSSyntax

/// Prints a token stream as one line, so each expected stream is a string.
func tokenLine(_ source: String) -> (String, [DiagnosticCode]) {
    let file = SourceFile(name: "t.kcs", text: source)
    var lexer = Lexer(file: file)
    var parts: [String] = []
    while true {
        let t = lexer.next()
        switch t.kind {
        case .word: parts.append("w(\(file.text(t.range)))")
        case .string: parts.append("s(\(file.stringValue(t.range)))")
        case .integer(let i): parts.append("i(\(i))")
        case .leftBracket: parts.append("[")
        case .rightBracket: parts.append("]")
        case .comma: parts.append(",")
        case .equals: parts.append("=")
        case .newline: parts.append("NL")
        case .end: return (parts.joined(separator: " "), lexer.diagnostics.map(\.code))
        }
    }
}

struct LexerTests {
    /// The bit masks of word bytes are literals: they must say what the
    /// lexical rules say (letters, digits and `. - _ * $ ( )`).
    @Test func wordBytesAreTheDocumentedCharacters() {
        let word = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_*$()".utf8)
        for b in UInt8(0)...UInt8(0x7F) {
            #expect(Lexer.isWordByte(b) == word.contains(b), "byte \(b)")
        }
        for b in UInt8(0x80)...UInt8(0xFF) { #expect(Lexer.isWordByte(b)) }
    }

    static let cases: [(String, String)] = [
        ("team SKMME9E2Y8", "w(team) w(SKMME9E2Y8)"),
        ("app com.example.AppOne", "w(app) w(com.example.AppOne)"),
        ("a=\"x y\"", "w(a) = s(x y)"),
        ("expect status -25300", "w(expect) w(status) i(-25300)"),
        ("port=443", "w(port) = i(443)"),
        ("x # comment\ny", "w(x) NL w(y)"),
        ("$(AppIdentifierPrefix)com.example.X", "w($(AppIdentifierPrefix)com.example.X)"),
        ("return=[data,\n attributes]", "w(return) = [ w(data) , w(attributes) ]"),
        ("\"a\\\"b\\\\c\\n\\t\"", "s(a\"b\\c\n\t)"),
        ("\"\\u{1F511}\"", "s(\u{1F511})"),
        ("errSecItemNotFound", "w(errSecItemNotFound)"),
        ("1.5", "w(1.5)"),
        ("-", "w(-)"),
        ("a\r\nb", "w(a) NL w(b)"),
        ("*", "w(*)"),
        ("clé", "w(clé)"),
    ]

    @Test(arguments: cases)
    func lexes(_ input: String, _ expected: String) {
        let (line, diagnostics) = tokenLine(input)
        #expect(line == expected)
        #expect(diagnostics.isEmpty)
    }

    static let errors: [(String, DiagnosticCode)] = [
        ("\"open", .unterminatedString),
        ("\"line\nbreak\"", .unterminatedString),
        ("\"\\q\"", .badEscape),
        ("\"\\u{}\"", .badEscape),
        ("\"\\u{110000}\"", .badEscape),
        ("a ; b", .unexpectedCharacter),
        ("x=[a, b", .unexpectedEndOfInput),
        ("99999999999999999999", .integerOverflow),
    ]

    @Test(arguments: errors)
    func reportsLexicalErrors(_ input: String, _ code: DiagnosticCode) {
        let (_, diagnostics) = tokenLine(input)
        #expect(diagnostics.contains(code), "\(input) gave \(diagnostics)")
    }

    /// A string left open ends where its line does, and a CRLF line ends at
    /// its carriage return: the CR belongs to no token.
    @Test func anOpenStringEndsBeforeACarriageReturn() {
        for text in ["team \"ab\r\nlock\n", "team \"ab\r\r\nlock\n", "team \"ab\nlock\n"] {
            let file = SourceFile(name: "t.kcs", text: text)
            var lexer = Lexer(file: file)
            _ = lexer.next()
            let string = lexer.next()
            #expect(file.text(string.range) == "\"ab", "\(text.debugDescription)")
            #expect(lexer.next().kind == .newline)
            #expect(file.text(lexer.next().range) == "lock")
        }
    }

    @Test func newlinesInsideBracketsDoNotEndTheStatement() {
        let (line, _) = tokenLine("[a,\nb]\nc")
        #expect(line == "[ w(a) , w(b) ] NL w(c)")
    }

    @Test func locationsCountScalarsNotBytes() {
        let file = SourceFile(name: "t", text: "é x\nsecond")
        #expect(file.location(of: 3) == SourceLocation(line: 1, column: 3))
        #expect(file.location(of: 5) == SourceLocation(line: 2, column: 1))
        #expect(file.lineText(2) == "second")
    }
}
