/// A fenced code block of a Markdown document.
public struct FencedBlock: Sendable, Hashable {
    /// The first word of the info string: `kcs`, `output`, `swift`, …
    public var language: String
    /// The other words: `fresh`, `ignore`, `fails`.
    public var modifiers: [String]
    /// Byte range of the opening fence line (without its line break).
    public var fence: SourceRange
    /// Byte range of the content: from the line after the opening fence to
    /// the start of the closing fence (or the end of the document).
    public var content: SourceRange
    /// Whether a closing fence was found.
    public var closed: Bool
}

/// Finds fenced code blocks the way CommonMark does (``MarkdownBlockReader``),
/// and helps read and write their contents.
public enum MarkdownBlocks {
    /// Whether a path names a Markdown document (what `kcs check`, `kcs fmt`
    /// and the language server read as Markdown rather than as a script).
    public static func isDocument(_ path: String) -> Bool {
        path.hasSuffix(".md") || path.hasSuffix(".markdown")
    }

    /// The document's top-level fenced blocks, in order: the ones `kcs
    /// check` runs and `kcs fmt` formats (``MarkdownBlockReader``).
    public static func scan(_ bytes: [UInt8]) -> [FencedBlock] {
        MarkdownBlockReader.read(bytes).blocks
    }

    /// The top-level fenced blocks, and the `kcs` fences that are not run:
    /// inside a block quote, a list item, an indented code block, an HTML
    /// block, or a block that is never closed.
    public static func read(_ bytes: [UInt8]) -> MarkdownDocument {
        MarkdownBlockReader.read(bytes)
    }

    /// The document with each line break that is a CR alone made LF, byte
    /// for byte (so offsets stay), or nil when there is none: CommonMark
    /// ends a line at CR (section 2.1), and kcs scripts end them at LF.
    public static func withLFLineBreaks(_ bytes: [UInt8]) -> [UInt8]? {
        guard let first = bytes.indices.first(where: { bytes[$0] == 0x0D && ($0 + 1 == bytes.count || bytes[$0 + 1] != 0x0A) })
        else { return nil }
        var out = bytes
        for i in first..<out.count where out[i] == 0x0D && (i + 1 == out.count || out[i + 1] != 0x0A) { out[i] = 0x0A }
        return out
    }

    /// A fence at the start of the line: its character, length and the rest.
    private static func fenceRun(_ b: [UInt8], _ start: Int, _ end: Int) -> (UInt8, Int, ArraySlice<UInt8>)? {
        var i = start, indent = 0
        while i < end && b[i] == 0x20 && indent < 4 { i += 1; indent += 1 }
        guard indent < 4, i < end, b[i] == UInt8(ascii: "`") || b[i] == UInt8(ascii: "~") else { return nil }
        let c = b[i]
        var n = 0
        while i < end && b[i] == c { i += 1; n += 1 }
        guard n >= 3 else { return nil }
        var restStart = i
        while restStart < end && (b[restStart] == 0x20 || b[restStart] == 0x09) { restStart += 1 }
        return (c, n, b[restStart..<end])
    }

    /// How many spaces indent the fence line (0 to 3).
    package static func indentation(_ b: [UInt8], _ fence: SourceRange) -> Int {
        var n = 0
        while fence.start + n < fence.end && b[fence.start + n] == 0x20 && n < 3 { n += 1 }
        return n
    }

    /// Block content as CommonMark reads it: up to `indent` leading spaces
    /// removed from each line, CRLF line breaks as LF.
    package static func plainContent(_ text: String, indent: Int) -> String {
        // CR LF is a single Character, so this replaces exactly the pairs.
        let lf = text.replacing("\r\n", with: "\n")
        // An empty block is empty, indented or not (split into one empty
        // line, it read as "\n", and --update rewrote it forever; found by
        // the markdown fuzz target).
        guard indent > 0, !lf.isEmpty else { return lf }
        var lines = lf.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            var l = line[...]
            var n = 0
            while n < indent, l.first == " " { l = l.dropFirst(); n += 1 }
            return l
        }
        if lines.last == "" { lines.removeLast(); return lines.joined(separator: "\n") + "\n" }
        return lines.joined(separator: "\n")
    }

    /// Text made to fit a block written with this indentation and these line breaks.
    package static func styled(_ text: String, indent: Int, lineBreak: String) -> String {
        // Nothing printed is an empty block, not one blank line.
        guard !text.isEmpty else { return "" }
        let pad = String(repeating: " ", count: indent)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let trailing = lines.last == ""
        if trailing { lines.removeLast() }
        let joined = lines.map { $0.isEmpty ? $0 : pad + $0 }.joined(separator: lineBreak)
        return joined + (trailing ? lineBreak : "")
    }

    /// How the line that starts at `lineStart` ends in `original` (the
    /// document as read, before ``withLFLineBreaks(_:)``): CR LF, CR alone
    /// or LF; LF when it is the last line and ends with nothing.
    package static func lineBreak(_ original: [UInt8], lineStart: Int) -> String {
        var i = lineStart
        while i < original.count, original[i] != 0x0A, original[i] != 0x0D { i += 1 }
        guard i < original.count, original[i] == 0x0D else { return "\n" }
        return i + 1 < original.count && original[i + 1] == 0x0A ? "\r\n" : "\r"
    }

    /// Whether only blank lines stand between two offsets.
    package static func onlyBlankLines(_ b: [UInt8], from: Int, to: Int) -> Bool {
        guard from <= to else { return false }
        return b[from..<to].allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }

    /// The run of fence characters at the start of a fence line: where it
    /// starts, its character and its length.
    static func fenceMarker(_ b: [UInt8], lineStart: Int) -> (start: Int, char: UInt8, count: Int)? {
        var i = lineStart, indent = 0
        while i < b.count, b[i] == 0x20, indent < 3 { i += 1; indent += 1 }
        guard i < b.count, b[i] == UInt8(ascii: "`") || b[i] == UInt8(ascii: "~") else { return nil }
        let c = b[i], start = i
        while i < b.count, b[i] == c { i += 1 }
        return (start, c, i - start)
    }

    /// `text` as a fenced code block whose fence no line of it can close:
    /// one backtick longer than the longest run that starts a line (at
    /// least three). A name holding a line of three backticks closed a
    /// fixed fence, and the rest rendered as Markdown (found by adversarial testing).
    public static func codeBlock(_ text: String) -> String {
        let fence = String(repeating: "`", count: max(3, longestFenceRun(in: text, char: UInt8(ascii: "`"), indent: 0) + 1))
        return fence + "\n" + text + (text.hasSuffix("\n") || text.isEmpty ? "" : "\n") + fence
    }

    /// `text` as plain Markdown inline text: controls and line breaks as
    /// escapes (``TerminalText/escaped(_:keepingLayout:)``), then every ASCII
    /// punctuation character backslash-escaped, so a name cannot open a
    /// link, end the bold around it or start a heading.
    public static func inlineText(_ text: String) -> String {
        var out = ""
        for c in TerminalText.escaped(text) {
            if let a = c.asciiValue, (0x21...0x2F).contains(a) || (0x3A...0x40).contains(a) || (0x5B...0x60).contains(a)
                || (0x7B...0x7E).contains(a) {
                out.append("\\")
            }
            out.append(c)
        }
        return out
    }

    /// The longest run of `char` that starts a line of `text` (after up to
    /// three spaces beyond `indent`): a run that long or longer would close
    /// a fence.
    static func longestFenceRun(in text: String, char: UInt8, indent: Int) -> Int {
        var longest = 0
        // A lone CR ends a line for CommonMark too (a renderer would close
        // the block at "\r```"), though this scanner reads LF only.
        for line in text.utf8.split(omittingEmptySubsequences: false, whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            var i = line.startIndex, spaces = 0
            while i < line.endIndex, line[i] == 0x20, spaces < indent + 3 { i = line.index(after: i); spaces += 1 }
            var n = 0
            while i < line.endIndex, line[i] == char { i = line.index(after: i); n += 1 }
            longest = max(longest, n)
        }
        return longest
    }

    /// Where a block looks like it lost its closing fence: it runs to the end
    /// of the document, or holds a line opening a fence of its own kind and
    /// length with an info string (```` ```kcs ````), which cannot close it
    /// and so is the next block the author meant to start. Rewriting such a
    /// block would delete the text that follows; the offset of the line
    /// (or the end of the document) is returned, nil when the block is sound.
    package static func lostClosingFence(_ b: [UInt8], _ block: FencedBlock) -> Int? {
        guard block.closed else { return b.count }
        guard let open = fenceMarker(b, lineStart: block.fence.start) else { return nil }
        var lineStart = block.content.start
        while lineStart < block.content.end {
            var lineEnd = lineStart
            while lineEnd < block.content.end && b[lineEnd] != 0x0A { lineEnd += 1 }
            if let (c, n, rest) = fenceRun(b, lineStart, lineEnd), c == open.char, n >= open.count,
               rest.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) {
                return lineStart
            }
            lineStart = lineEnd + 1
        }
        return nil
    }

    /// Replacements that lengthen a block's opening and closing fences so
    /// `text` written inside cannot close it; none when it already cannot.
    package static func lengthenedFences(_ b: [UInt8], _ block: FencedBlock, toHold text: String) -> [(SourceRange, String)] {
        guard let open = fenceMarker(b, lineStart: block.fence.start) else { return [] }
        let needed = longestFenceRun(in: text, char: open.char, indent: indentation(b, block.fence)) + 1
        guard needed > open.count, needed >= 3 else { return [] }
        let fence = String(repeating: Character(Unicode.Scalar(open.char)), count: needed)
        var out = [(SourceRange(open.start, open.start + open.count), fence)]
        if block.closed, let close = fenceMarker(b, lineStart: block.content.end) {
            out.append((SourceRange(close.start, close.start + close.count), fence))
        }
        return out
    }
}
