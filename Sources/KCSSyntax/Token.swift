/// What a token is. Words and strings carry no text: it is read from the
/// source by range only when needed (``SourceFile/stringValue(_:)`` decodes a
/// string's escapes), so a token is a few plain words and lexing allocates nothing.
public enum TokenKind: Sendable, Hashable {
    case word
    /// `needsDecoding`: the string holds an escape or is not closed.
    case string(needsDecoding: Bool)
    case integer(Int)
    case leftBracket, rightBracket, comma, equals
    case newline
    case end
}

/// A token and the bytes it covers.
public struct Token: Sendable, Hashable {
    public var kind: TokenKind
    public var range: SourceRange

    /// A string that needs decoding: it holds an escape or is not closed.
    /// A string without is its bytes between the quotes.
    public var needsDecoding: Bool {
        if case .string(let d) = kind { return d }
        return false
    }

    /// A short description for "expected X, found Y" messages.
    package func describe(in file: SourceFile) -> String {
        switch kind {
        case .word: "'\(file.text(range))'"
        case .string: "a string"
        case .integer(let i): "the number \(i)"
        case .leftBracket: "'['"
        case .rightBracket: "']'"
        case .comma: "','"
        case .equals: "'='"
        case .newline: "the end of the line"
        case .end: "the end of the input"
        }
    }
}
