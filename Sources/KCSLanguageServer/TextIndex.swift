import KCSLanguage

/// Converts between byte offsets, which the front end uses, and the
/// protocol's positions: a 0-based line and UTF-16 code units in that line.
struct TextIndex {
    let bytes: [UInt8]
    private let lineStarts: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == 0x0A { starts.append(i + 1) }
        lineStarts = starts
    }

    /// The byte offset of a position; positions past a line's end clamp to it.
    func offset(of p: Position) -> Int {
        guard p.line >= 0 else { return 0 }
        guard p.line < lineStarts.count else { return bytes.count }
        let start = lineStarts[p.line]
        let end = p.line + 1 < lineStarts.count ? lineStarts[p.line + 1] - 1 : bytes.count
        return Self.offset(in: bytes, column: p.character, from: start, to: end)
    }

    /// The same without an index: the text is read only up to the position,
    /// so an edit near the top of a large document costs what it touches
    /// (`didChange` built an index of the whole text for each of a
    /// message's ranged changes; found by adversarial testing).
    static func offset(in bytes: [UInt8], of p: Position) -> Int {
        guard p.line >= 0 else { return 0 }
        var start = 0, line = 0
        while line < p.line {
            guard let newline = bytes[start...].firstIndex(of: 0x0A) else { return bytes.count }
            start = newline + 1
            line += 1
        }
        let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
        return offset(in: bytes, column: p.character, from: start, to: end)
    }

    /// The offset of UTF-16 column `column` on the line `start..<end`, clamped to its end.
    private static func offset(in bytes: [UInt8], column: Int, from start: Int, to end: Int) -> Int {
        var i = start, units = 0
        while i < end, units < column {
            let (length, width) = scalar(bytes, at: i)
            i += length
            units += width
        }
        return min(i, end)
    }

    /// The position of a byte offset.
    func position(of offset: Int) -> Position {
        let offset = min(max(offset, 0), bytes.count)
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return Position(line: lo, character: Self.utf16Count(bytes, from: lineStarts[lo], to: offset))
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

    /// The protocol position of a byte offset in `file`.
    mutating func position(_ file: SourceFile, _ offset: Int) -> Position {
        if self.file != ObjectIdentifier(file) { self.file = ObjectIdentifier(file); checkpoints = [:] }
        let offset = min(max(offset, 0), file.bytes.count)
        let location = file.location(of: offset)
        let bounds = file.lineBounds(location.line) ?? offset..<offset
        let marks = checkpoints[location.line] ?? {
            var marks = [(offset: bounds.lowerBound, units: 0)]
            var i = bounds.lowerBound, units = 0, next = bounds.lowerBound + Self.stride
            while i < bounds.upperBound {
                if i >= next { marks.append((i, units)); next += Self.stride }
                let (length, width) = TextIndex.scalar(file.bytes, at: i)
                i += length
                units += width
            }
            checkpoints[location.line] = marks
            return marks
        }()
        var k = min((offset - bounds.lowerBound) / Self.stride, marks.count - 1)
        while k > 0, marks[k].offset > offset { k -= 1 }
        let units = marks[k].units + TextIndex.utf16Count(file.bytes, from: marks[k].offset, to: offset)
        return Position(line: location.line - 1, character: units)
    }
}

extension Diagnostic {
    /// Where this diagnostic is, in the protocol's terms, in the document
    /// its file belongs to (a Markdown block's file numbers the document's
    /// own lines).
    func lspRange(_ columns: inout UTF16Columns) -> LSPRange {
        guard let file, let range else { return LSPRange(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0)) }
        return LSPRange(start: columns.position(file, range.start), end: columns.position(file, range.end))
    }
}
