/// Turns bytes into tokens on demand (the parser pulls one at a time).
///
/// Lexical rules (language.md): one statement per line; `#` starts a comment;
/// a newline inside `[ ]` does not end the statement. Words are letters,
/// digits and `. - _ * $ ( )`; strings are double-quoted with `\" \\ \n \t
/// \u{…}` escapes; integers are optionally negative; punctuation is `[ ] , =`.
public struct Lexer: Sendable {
    public let file: SourceFile
    private let bytes: [UInt8]
    private var pos = 0
    private var bracketDepth = 0
    private var bracketOpenedAt: [Int] = []
    /// Problems found while lexing; the lexer always goes on.
    public private(set) var diagnostics: [Diagnostic] = []

    /// Errors the lexer keeps at most: the parse reads no further than its
    /// ``SyntaxParser/maxErrors``-th error, but it counts at statements, and
    /// one line (a string of a million bad escapes, a line of control bytes)
    /// made one error each: 32 MB took 4.8 GB and ignored `--timeout`
    /// (adversarial 21, F2). Past the cap nothing more is built.
    static let maxDiagnostics = SyntaxParser.maxErrors

    /// Whether the lexer has stopped recording errors (``maxDiagnostics``).
    var isFull: Bool { diagnostics.count >= Self.maxDiagnostics }

    /// Where the first error past the cap was, for the parser's "the rest
    /// was not read" (nothing is said to be checked that was not).
    private(set) var firstDropped: Int?

    /// Records an error unless the lexer is full; the sites that can repeat
    /// (stray characters, escapes, numbers) test ``isFull`` before they build one.
    private mutating func report(_ d: Diagnostic) {
        if !isFull { diagnostics.append(d) } else { dropped(at: d.range?.start ?? pos) }
    }

    private mutating func dropped(at offset: Int) {
        if firstDropped == nil { firstDropped = offset }
    }

    /// Whether ``next()`` tries its fast path first; tests turn it off to
    /// check the fast path against the general reading.
    package var usesCommonPath = true
    /// ``ByteClasses/shared``, held so the loops read its table directly.
    private let classes: ByteClasses

    public init(file: SourceFile) {
        self.file = file
        self.bytes = file.bytes
        self.classes = ByteClasses.shared
        // A UTF-8 byte-order mark is not part of the script.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { pos = 3 }
    }

    /// Characters that look like punctuation or space but are not: curly
    /// quotes pasted from a word processor, non-breaking and other spaces.
    static func lookalike(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x201C, 0x201D, 0x201E, 0x2018, 0x2019, 0x00AB, 0x00BB:
            return "a curly quote: write strings with straight double quotes \"…\""
        case 0x00A0, 0x2000...0x200B, 0x202F, 0x205F, 0x3000, 0xFEFF:
            return "an invisible or non-breaking space: use a plain space"
        default:
            return nil
        }
    }

    /// The scalar starting at `i`, if the bytes there are non-ASCII.
    private func scalar(at i: Int) -> (Unicode.Scalar, Int)? {
        guard i < bytes.count, bytes[i] >= 0x80 else { return nil }
        var n = 1
        while i + n < bytes.count, bytes[i + n] & 0xC0 == 0x80 { n += 1 }
        let text = String(decoding: bytes[i..<(i + n)], as: UTF8.self)
        return text.unicodeScalars.first.map { ($0, n) }
    }

    /// Whether a byte may appear in a word: letters, digits, `. - _ * $ ( )`
    /// and every byte past ASCII (non-ASCII letters, already checked as UTF-8).
    @inline(__always)
    public static func isWordByte(_ b: UInt8) -> Bool {
        // One bit per ASCII byte, in two words: no table to load, no branches.
        if b >= 0x80 { return true }
        let bits: UInt64 = b < 64 ? wordBitsLow : wordBitsHigh
        return bits >> UInt64(b & 63) & 1 != 0
    }

    /// Bits 0–63: `$ ( ) * - .` and the digits. Literals, so no lazy
    /// global is touched per byte; a test rebuilds both from the characters.
    static var wordBitsLow: UInt64 { 0x03FF_6710_0000_0000 }
    /// Bits 64–127: the letters and `_`.
    static var wordBitsHigh: UInt64 { 0x07FF_FFFE_87FF_FFFE }

    /// Whether the lexer has no use for a byte: ASCII that is neither part
    /// of a word, nor space, a line break, a comment, a string or a list.
    static func isStrayByte(_ b: UInt8) -> Bool {
        guard b < 0x80, !isWordByte(b) else { return false }
        return !" \t\r\n#[],=\"".utf8.contains(b)
    }

    public mutating func next() -> Token {
        guard usesCommonPath else { return nextInGeneral() }
        // The tokens of nearly every line, read in one tight loop over the
        // buffer: blanks, a word of ASCII bytes that does not start like a
        // number, a string without escapes, '=' and a line break outside
        // brackets. Anything else (and the end of input) goes to the
        // general reading below, from the first byte that is not blank.
        let table = classes.table
        let inList = bracketDepth > 0
        var p = pos
        let fast = bytes.withUnsafeBufferPointer { Self.commonToken($0, at: &p, inList: inList, table: table) }
        pos = p
        return fast ?? nextInGeneral()
    }

    /// The fast path of ``next()``: the token at `p` when it is one of the
    /// common kinds (moving `p` past it), else nil with `p` at the first
    /// byte that is not blank. Inlined so the loop runs without a call.
    @inline(__always)
    private static func commonToken(_ b: UnsafeBufferPointer<UInt8>, at p: inout Int, inList: Bool,
                                    table: UnsafeMutablePointer<UInt8>) -> Token? {
        guard let base = b.baseAddress else { return nil }
        let count = b.count
        while p < count {
            let c = base[p]
            if c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r") {
                p &+= 1
                continue
            }
            if table[Int(c)] & ByteClasses.asciiWord != 0 {
                if c == UInt8(ascii: "-") || (c >= 0x30 && c <= 0x39) { return nil }
                let end = ByteClasses.runEnd(b, from: p, while: ByteClasses.asciiWord, in: table)
                if end < count && base[end] >= 0x80 { return nil }
                defer { p = end }
                return Token(kind: .word, range: SourceRange(p, end))
            }
            if c == UInt8(ascii: "\"") {
                let end = ByteClasses.runEnd(b, from: p &+ 1, while: ByteClasses.plainStringByte, in: table)
                guard end < count && base[end] == UInt8(ascii: "\"") else { return nil }
                defer { p = end &+ 1 }
                return Token(kind: .string(needsDecoding: false), range: SourceRange(p, end &+ 1))
            }
            if c == UInt8(ascii: "=") {
                p &+= 1
                return Token(kind: .equals, range: SourceRange(p &- 1, p))
            }
            if c == 0x0A && !inList {
                p &+= 1
                return Token(kind: .newline, range: SourceRange(p &- 1, p))
            }
            return nil
        }
        return nil
    }

    /// Every token, the fast path's too: where ``next()`` leaves off.
    @inline(never)
    private mutating func nextInGeneral() -> Token {
        while pos < bytes.count {
            let b = bytes[pos]
            switch b {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                pos += 1
            case UInt8(ascii: "#"):
                while pos < bytes.count && bytes[pos] != 0x0A { pos += 1 }
            case 0x0A:
                pos += 1
                if bracketDepth == 0 { return Token(kind: .newline, range: SourceRange(pos - 1, pos)) }
            case UInt8(ascii: "["):
                pos += 1
                bracketDepth += 1
                bracketOpenedAt.append(pos - 1)
                return Token(kind: .leftBracket, range: SourceRange(pos - 1, pos))
            case UInt8(ascii: "]"):
                pos += 1
                if bracketDepth > 0 { bracketDepth -= 1; bracketOpenedAt.removeLast() }
                return Token(kind: .rightBracket, range: SourceRange(pos - 1, pos))
            case UInt8(ascii: ","):
                pos += 1
                return Token(kind: .comma, range: SourceRange(pos - 1, pos))
            case UInt8(ascii: "="):
                pos += 1
                return Token(kind: .equals, range: SourceRange(pos - 1, pos))
            case UInt8(ascii: "\""):
                return lexString()
            default:
                if b < 0x80 {
                    if Self.isWordByte(b) { return lexWord() }
                    reportStray()
                } else if !reportLookalike() {
                    return lexWord()
                }
            }
        }
        if bracketDepth > 0 { return unclosedListAtEnd() }
        return Token(kind: .end, range: SourceRange(bytes.count, bytes.count))
    }

    // The error paths, out of line: the common path of next() stays small.

    /// At a byte past ASCII: reports and skips a look-alike of punctuation
    /// or space; false (nothing consumed) when the character starts a word.
    @inline(never)
    private mutating func reportLookalike() -> Bool {
        guard let (scalar, n) = scalar(at: pos), let what = Self.lookalike(scalar) else { return false }
        if isFull { dropped(at: pos); pos += n; return true }
        report(Diagnostic(
            .unexpectedCharacter, "unexpected character U+\(String(scalar.value, radix: 16, uppercase: true))",
            file: file, range: SourceRange(pos, pos + n), hint: "this is " + what))
        pos += n
        return true
    }

    /// Reports and skips a run of ASCII characters the language has no use for.
    @inline(never)
    private mutating func reportStray() {
        let start = pos
        pos += 1
        let ch = file.text(SourceRange(start, pos))
        // A run of stray characters is one error, not one per byte:
        // each error shows its line, so a long line of them made the
        // text grow with the square of the line.
        var more = 0
        while pos < bytes.count && Self.isStrayByte(bytes[pos]) { pos += 1; more += 1 }
        if isFull { dropped(at: start); return }
        report(Diagnostic(
            .unexpectedCharacter, "unexpected character '\(ch.debugDescriptionForMessage)'"
                + (more > 0 ? " and \(more) more after it" : ""),
            file: file, range: SourceRange(start, pos),
            hint: "names may use letters, digits and . - _ * $ ( ); put other text in double quotes"))
    }

    /// The end of input inside `[ ]`: reported where the list opened.
    @inline(never)
    private mutating func unclosedListAtEnd() -> Token {
        let end = Token(kind: .end, range: SourceRange(bytes.count, bytes.count))
        guard let opened = bracketOpenedAt.last else { bracketDepth = 0; return end }
        bracketDepth = 0
        report(Diagnostic(
            .unexpectedEndOfInput, "the input ended inside a list: '[' is never closed",
            file: file, range: SourceRange(opened, opened + 1), hint: "close the list with ']'"))
        return end
    }

    private mutating func lexWord() -> Token {
        let start = pos
        // ASCII runs in a tight loop on a local index; a byte past ASCII
        // stops it to check for a look-alike, which ends the word (next()
        // reports it).
        var end = bytes.withUnsafeBufferPointer { b in
            ByteClasses.runEnd(b, from: start, while: ByteClasses.asciiWord, in: classes.table)
        }
        if end < bytes.count && bytes[end] >= 0x80 { end = wordPastASCII(end) }
        pos = end
        // An optionally negative run of digits is an integer.
        let first = bytes[start]
        if first == UInt8(ascii: "-") || (first >= 0x30 && first <= 0x39) { return integerOrWord(start, end) }
        return Token(kind: .word, range: SourceRange(start, end))
    }

    /// Where a word that reached a byte past ASCII ends: at a look-alike,
    /// or at the first byte that is no word byte.
    @inline(never)
    private func wordPastASCII(_ from: Int) -> Int {
        var end = from
        while end < bytes.count && Self.isWordByte(bytes[end]) {
            if bytes[end] >= 0x80, let (scalar, _) = scalar(at: end), Self.lookalike(scalar) != nil { break }
            end += 1
        }
        return end
    }

    /// A word that starts like a number: an integer if it is digits alone
    /// (after an optional `-`), else a word.
    @inline(never)
    private mutating func integerOrWord(_ start: Int, _ end: Int) -> Token {
        var i = start
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < end else { return Token(kind: .word, range: SourceRange(start, end)) }
        // Accumulate negatively so Int.min is representable.
        let negative = bytes[start] == UInt8(ascii: "-")
        var value = 0
        var overflow = false
        while i < end {
            let d = bytes[i]
            guard d >= 0x30 && d <= 0x39 else { return Token(kind: .word, range: SourceRange(start, end)) }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.subtractingReportingOverflow(Int(d - 0x30))
            overflow = overflow || o1 || o2
            value = a
            i += 1
        }
        if !negative {
            let (p, o) = (0).subtractingReportingOverflow(value)
            overflow = overflow || o
            value = p
        }
        if overflow {
            reportOverflow(SourceRange(start, end))
            value = 0
        }
        return Token(kind: .integer(value), range: SourceRange(start, end))
    }

    private mutating func lexString() -> Token {
        let start = pos
        // Most strings hold no escape: find the closing quote in a tight loop.
        let plainEnd = bytes.withUnsafeBufferPointer { b -> Int? in
            let i = ByteClasses.runEnd(b, from: start + 1, while: ByteClasses.plainStringByte, in: classes.table)
            return i < b.count && b[i] == UInt8(ascii: "\"") ? i + 1 : nil
        }
        if let plainEnd {
            pos = plainEnd
            return Token(kind: .string(needsDecoding: false), range: SourceRange(start, plainEnd))
        }
        return lexEscapedString(from: start)
    }

    /// A string with an escape, or one cut short: read by ``scanString``.
    @inline(never)
    private mutating func lexEscapedString(from start: Int) -> Token {
        var problems: [StringProblem] = []
        var none: [UInt8]? = nil
        var (end, closed) = Self.scanString(bytes, start, value: &none, problems: &problems,
                                            maxProblems: Self.maxDiagnostics - diagnostics.count + 1)
        // A string left open runs to the line's end, and a CRLF line ends at
        // its carriage return, as everywhere else in the lexer: the CR is
        // not part of the string (`kcs fmt`, ending lines with LF alone,
        // kept the same tokens only by a special case).
        if !closed { while end > start + 1 && bytes[end - 1] == 0x0D { end -= 1 } }
        pos = end
        for p in problems {
            switch p {
            case .malformedUnicode(let r):
                report(Diagnostic(
                    .badEscape, "malformed unicode escape", file: file, range: r,
                    hint: "write \\u{…} with one to eight hex digits naming a Unicode scalar, e.g. \\u{1F511}"))
            case .unknownEscape(let r):
                let escape = file.text(SourceRange(r.start + 1, r.end)).debugDescriptionForMessage
                report(Diagnostic(
                    .badEscape, "unknown escape '\\\(escape)'", file: file,
                    range: r, hint: "strings know \\\" \\\\ \\n \\t and \\u{…}"))
            }
        }
        if !closed {
            report(Diagnostic(
                .unterminatedString, "unterminated string", file: file, range: SourceRange(start, start + 1),
                hint: "close the string with '\"' on the same line; write a line break as \\n"))
        }
        return Token(kind: .string(needsDecoding: true), range: SourceRange(start, end))
    }

    @inline(never)
    private mutating func reportOverflow(_ range: SourceRange) {
        if isFull { dropped(at: range.start); return }
        report(Diagnostic(.integerOverflow, "number is too large", file: file, range: range))
    }

    /// A bad escape inside a string.
    package enum StringProblem {
        case malformedUnicode(SourceRange)
        case unknownEscape(SourceRange)
    }

    /// Reads the string that starts with the quote at `start`: where it ends
    /// (after the closing quote, or at the line break or end of input that
    /// cut it short), whether it was closed, and, when `value` is not nil, its
    /// decoded bytes. The one reading of escapes, for the lexer and for values.
    /// At most `maxProblems` problems are kept (the rest are not reported).
    static func scanString(_ bytes: [UInt8], _ start: Int, value: inout [UInt8]?,
                           problems: inout [StringProblem], maxProblems: Int = .max) -> (end: Int, closed: Bool) {
        var pos = start + 1
        let count = bytes.count
        while pos < count {
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") { return (pos + 1, true) }
            if b == 0x0A { break }
            if b == UInt8(ascii: "\\") {
                let escStart = pos
                pos += 1
                guard pos < count else { break }
                let e = bytes[pos]
                pos += 1
                switch e {
                case UInt8(ascii: "\""): value?.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): value?.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "n"): value?.append(0x0A)
                case UInt8(ascii: "t"): value?.append(0x09)
                case UInt8(ascii: "u"):
                    if let scalar = unicodeEscape(bytes, &pos) {
                        if value != nil { UTF8.encode(scalar) { value?.append($0) } }
                    } else {
                        if problems.count < maxProblems { problems.append(.malformedUnicode(SourceRange(escStart, pos))) }
                    }
                default:
                    // The whole character after the backslash, not its first byte.
                    while pos < count && bytes[pos] & 0xC0 == 0x80 { pos += 1 }
                    if problems.count < maxProblems { problems.append(.unknownEscape(SourceRange(escStart, pos))) }
                }
                continue
            }
            value?.append(b)
            pos += 1
        }
        return (pos, false)
    }

    /// The bytes between a string token's quotes: past the opening one, and
    /// before the closing one when the token has it (a string left open runs
    /// to the end of its line). Its value, when it holds no escape.
    @usableFromInline
    static func contentRange(ofString range: SourceRange, closed: Bool) -> SourceRange {
        SourceRange(min(range.start + 1, range.end), closed ? range.end - 1 : range.end)
    }

    /// The value of the string literal at `range`: the bytes between the
    /// quotes when it holds no escape (the common case), else decoded.
    static func decodeString(_ bytes: [UInt8], _ range: SourceRange) -> String {
        let lo = min(range.start + 1, range.end), count = bytes.count
        guard range.start >= 0, range.end <= count, lo <= range.end else { return "" }
        return bytes.withUnsafeBufferPointer { b in
            var i = lo
            while i < range.end && b[i] != UInt8(ascii: "\\") { i += 1 }
            if i == range.end {
                let closed = range.end > lo && b[range.end - 1] == UInt8(ascii: "\"")
                let content = contentRange(ofString: range, closed: closed)
                return String(decoding: UnsafeBufferPointer(rebasing: b[content.start..<content.end]), as: UTF8.self)
            }
            var value: [UInt8]? = []
            var ignored: [StringProblem] = []
            _ = scanString(bytes, range.start, value: &value, problems: &ignored, maxProblems: 0)
            return String(decoding: value ?? [], as: UTF8.self)
        }
    }

    /// After `\\u`: `{` hex digits `}`.
    private static func unicodeEscape(_ bytes: [UInt8], _ pos: inout Int) -> Unicode.Scalar? {
        guard pos < bytes.count, bytes[pos] == UInt8(ascii: "{") else { return nil }
        pos += 1
        var v: UInt32 = 0, digits = 0
        while pos < bytes.count, let h = hexValue(bytes[pos]) {
            v = v &* 16 &+ UInt32(h)
            digits += 1
            pos += 1
        }
        guard pos < bytes.count, bytes[pos] == UInt8(ascii: "}") else { return nil }
        pos += 1
        guard (1...8).contains(digits) else { return nil }
        return Unicode.Scalar(v)
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }
}

extension String {
    /// Control characters spelled out so a message never carries them raw.
    var debugDescriptionForMessage: String {
        var s = ""
        for u in unicodeScalars {
            if u.value < 0x20 || u.value == 0x7F { s += "\\u{\(String(u.value, radix: 16))}" } else { s.unicodeScalars.append(u) }
        }
        return s
    }
}
