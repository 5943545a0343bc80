extension ValueNode {
    /// Where the value's text lies in the source when it is the bytes as
    /// written: a word, or a string with no escape between its quotes (the
    /// lexer's ``needsDecoding`` is false only when the closing quote is
    /// there). Nil for a string that must be decoded, an integer or a list.
    /// The lowering makes a value's string from these bytes directly.
    public var verbatimRange: SourceRange? {
        switch kind {
        case .word: range
        case .string where !needsDecoding: SourceRange(range.start + 1, range.end - 1)
        case .string, .integer, .list: nil
        }
    }
}
