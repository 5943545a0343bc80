extension ValueNode {
    /// Where the value's text lies in the source when it is the bytes as
    /// written: a word, or a string with no escape between its quotes (the
    /// lexer's ``needsDecoding`` is false only when the closing quote is
    /// there). Nil for a string that must be decoded, an integer or a list.
    /// A value's text or bytes are then read from here directly.
    @inlinable
    public var verbatimRange: SourceRange? {
        switch kind {
        case .word: range
        case .string where !needsDecoding: Lexer.contentRange(ofString: range, closed: true)
        case .string, .integer, .list: nil
        }
    }
}
