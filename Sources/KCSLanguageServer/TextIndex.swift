import KCSLanguage

/// Converts between byte offsets, which the front end uses, and the
/// protocol's positions: a 0-based line and UTF-16 code units in that line.
///
/// Lines are the protocol's (LSP 3.17, "Text Documents"): each ends at LF,
/// CR LF or a CR alone, whatever the document's language makes of a CR
/// (a `.kcs` script reads a lone CR as blank space, Markdown as a line
/// break). Counting LF only, the server put a ranged edit of a CR-only
/// document at its end and answered formatting with an edit over its first
/// line alone (adversarial 21, F6).
struct TextIndex {
    let bytes: [UInt8]
    private let lineStarts: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        var i = 0
        while let next = Self.lineBreak(in: bytes, from: i) {
            starts.append(next.nextLine)
            i = next.nextLine
        }
        lineStarts = starts
    }

    /// How many lines the protocol sees in the text.
    var lineCount: Int { lineStarts.count }

    /// The first line break at or after `from`: where the line's text ends
    /// and where the next line starts (LF, CR LF or CR).
    static func lineBreak(in bytes: [UInt8], from: Int) -> (end: Int, nextLine: Int)? {
        guard from < bytes.count, let i = bytes[from...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else { return nil }
        if bytes[i] == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { return (i, i + 2) }
        return (i, i + 1)
    }

    /// The 0-based line holding a byte offset (an offset between the CR and
    /// the LF of a CR LF is on the line they end).
    func line(of offset: Int) -> Int {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The bytes of a line's text, without its line break.
    func bounds(ofLine line: Int) -> Range<Int> {
        let start = lineStarts[line]
        guard line + 1 < lineStarts.count else { return start..<bytes.count }
        return start..<(Self.lineBreak(in: bytes, from: start)?.end ?? bytes.count)
    }

    /// The byte offset of a position; positions past a line's end clamp to it.
    func offset(of p: Position) -> Int {
        guard p.line >= 0 else { return 0 }
        guard p.line < lineStarts.count else { return bytes.count }
        let bounds = bounds(ofLine: p.line)
        return Self.offset(in: bytes, column: p.character, from: bounds.lowerBound, to: bounds.upperBound).offset
    }

    /// The same without an index: the text is read only up to the position,
    /// so an edit near the top of a large document costs what it touches
    /// (`didChange` built an index of the whole text for each of a
    /// message's ranged changes; found by adversarial testing). Nil for a
    /// line the text does not have: a change there was made to another
    /// text than the server's (it was applied at the end). The one position
    /// past the last line the protocol names is the start of the line after
    /// it, `{line: lineCount, character: 0}`: a range that takes in a line
    /// with its line break ends at the start of the next line, so the range
    /// of the last line ends there (Neovim deletes the last line so). It is
    /// the end of the text. A character past a line's end clamps to the end
    /// (the protocol's rule), but not on that line: the text has no such line
    /// for a character to be on. Nil too for a position between the two
    /// UTF-16 units of one character, which names no place in the text: it
    /// was taken for the place after the character, so deleting an emoji a
    /// unit at a time deleted the next character too, silently (adversarial
    /// run 26, F2).
    static func offset(in bytes: [UInt8], of p: Position) -> Int? {
        guard p.line >= 0 else { return nil }
        var start = 0, line = 0
        while line < p.line {
            guard let next = lineBreak(in: bytes, from: start) else {
                return line + 1 == p.line && p.character == 0 ? bytes.count : nil
            }
            start = next.nextLine
            line += 1
        }
        let end = lineBreak(in: bytes, from: start)?.end ?? bytes.count
        let found = offset(in: bytes, column: p.character, from: start, to: end)
        return found.insideCharacter ? nil : found.offset
    }

    /// The offset of UTF-16 column `column` on the line `start..<end`,
    /// clamped to its end; a column inside a character of two units is
    /// taken for the place after it, and said.
    private static func offset(in bytes: [UInt8], column: Int, from start: Int, to end: Int) -> (offset: Int, insideCharacter: Bool) {
        var i = start, units = 0
        while i < end, units < column {
            let (length, width) = scalar(bytes, at: i)
            i += length
            units += width
        }
        return (min(i, end), units > column)
    }

    /// The position of a byte offset.
    func position(of offset: Int) -> Position {
        let offset = min(max(offset, 0), bytes.count)
        let line = line(of: offset)
        return Position(line: line, character: Self.utf16Count(bytes, from: lineStarts[line], to: offset))
    }

    func range(_ r: SourceRange) -> LSPRange {
        LSPRange(start: position(of: r.start), end: position(of: r.end))
    }

    /// The whole text.
    var all: LSPRange { range(SourceRange(0, bytes.count)) }

    /// UTF-16 code units of the UTF-8 bytes in `from..<to`.
    static func utf16Count(_ bytes: [UInt8], from: Int, to: Int) -> Int {
        var i = from, units = 0
        while i < to {
            let (length, width) = scalar(bytes, at: i)
            i += length
            units += width
        }
        return units
    }

    /// The byte length of the UTF-8 sequence at `i` and its UTF-16 width.
    static func scalar(_ bytes: [UInt8], at i: Int) -> (Int, Int) {
        let b = bytes[i]
        let length = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
        return (min(length, bytes.count - i), length == 4 ? 2 : 1)
    }
}

/// UTF-16 columns of byte offsets in one file's lines, for many offsets:
/// each line is walked once, keeping the count every 256 bytes, and an
/// offset is counted from the checkpoint before it. Counting from the
/// line's start for each diagnostic made a thousand errors on one 4 MB line
/// take a minute (found by adversarial testing).
struct UTF16Columns {
    private var file: ObjectIdentifier?
    /// Per line (1-based): (byte offset of a scalar start, UTF-16 units before it).
    private var checkpoints: [Int: [(offset: Int, units: Int)]] = [:]
    private static let stride = 256

    /// The protocol position of a byte offset in `file`. With `lines`, the
    /// index of the file's own bytes, lines are the protocol's (a `.kcs`
    /// document with a lone CR); without, the file's own (a Markdown
    /// block's file, read with LF for CR and numbered with the document's
    /// lines).
    mutating func position(_ file: SourceFile, _ offset: Int, lines: TextIndex? = nil) -> Position {
        if self.file != ObjectIdentifier(file) { self.file = ObjectIdentifier(file); checkpoints = [:] }
        let offset = min(max(offset, 0), file.bytes.count)
        let line: Int, bounds: Range<Int>
        if let lines {
            line = lines.line(of: offset)
            bounds = lines.bounds(ofLine: line)
        } else {
            let location = file.location(of: offset)
            line = location.line - 1
            bounds = file.lineBounds(location.line) ?? offset..<offset
        }
        let marks = checkpoints[line] ?? {
            var marks = [(offset: bounds.lowerBound, units: 0)]
            var i = bounds.lowerBound, units = 0, next = bounds.lowerBound + Self.stride
            while i < bounds.upperBound {
                if i >= next { marks.append((i, units)); next += Self.stride }
                let (length, width) = TextIndex.scalar(file.bytes, at: i)
                i += length
                units += width
            }
            checkpoints[line] = marks
            return marks
        }()
        var k = min((offset - bounds.lowerBound) / Self.stride, marks.count - 1)
        while k > 0, marks[k].offset > offset { k -= 1 }
        let units = marks[k].units + TextIndex.utf16Count(file.bytes, from: marks[k].offset, to: max(offset, marks[k].offset))
        return Position(line: line, character: units)
    }
}

extension Diagnostic {
    /// Where this diagnostic is, in the protocol's terms, in the document
    /// its file belongs to (a Markdown block's file numbers the document's
    /// own lines).
    func lspRange(_ columns: inout UTF16Columns, lines: TextIndex? = nil) -> LSPRange {
        guard let file, let range else { return LSPRange(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0)) }
        return LSPRange(start: columns.position(file, range.start, lines: lines),
                        end: columns.position(file, range.end, lines: lines))
    }
}
