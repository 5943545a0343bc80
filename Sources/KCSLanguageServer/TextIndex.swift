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
    /// UTF-16 checkpoints of the lines longer than ``stride`` bytes, in
    /// offset order: every ``stride`` bytes of such a line, a scalar start
    /// and the UTF-16 units between the line's start and it. A position is
    /// counted from the checkpoint before it, so each costs at most
    /// ``stride`` bytes however long its line. Counting from the line's
    /// start, and finding the line's end by searching it, for each
    /// reference and each diagnostic made many of them on one long line
    /// quadratic: 80,000 references on one line took 41 s, 9,999
    /// diagnostics on a line of 1 MiB 46 s at each change (adversarial run
    /// 29, F1 and F2).
    private let checkpoints: [(offset: Int, units: Int)]
    static let stride = 256

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        var marks: [(offset: Int, units: Int)] = []
        var start = 0
        while true {
            let next = Self.lineBreak(in: bytes, from: start)
            let end = next?.end ?? bytes.count
            if end - start > Self.stride {
                var i = start, units = 0, mark = start + Self.stride
                while i < end {
                    if i >= mark { marks.append((i, units)); mark += Self.stride }
                    let (length, width) = Self.scalar(bytes, at: i)
                    i += length
                    units += width
                }
            }
            guard let next else { break }
            starts.append(next.nextLine)
            start = next.nextLine
        }
        lineStarts = starts
        checkpoints = marks
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

    /// The bytes of a line's text, without its line break: from the next
    /// line's start, less its break (two bytes for a CR LF, one for LF or CR
    /// alone), with no search.
    func bounds(ofLine line: Int) -> Range<Int> {
        let start = lineStarts[line]
        guard line + 1 < lineStarts.count else { return start..<bytes.count }
        let next = lineStarts[line + 1]
        let crlf = next - 2 >= start && bytes[next - 2] == 0x0D && bytes[next - 1] == 0x0A
        return start..<(next - (crlf ? 2 : 1))
    }

    /// The checkpoints of the line `bounds` (indexes into ``checkpoints``).
    private func checkpoints(of bounds: Range<Int>) -> Range<Int> {
        func first(atOrAfter offset: Int) -> Int {
            var lo = 0, hi = checkpoints.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if checkpoints[mid].offset < offset { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        guard !checkpoints.isEmpty, bounds.count > Self.stride else { return 0..<0 }
        return first(atOrAfter: bounds.lowerBound)..<first(atOrAfter: bounds.upperBound)
    }

    /// The last checkpoint of the line `bounds` that `isAtOrBefore` accepts,
    /// or the line's start: offsets and units both rise along a line, so
    /// the accepted ones come first.
    private func lastCheckpoint(of bounds: Range<Int>,
                                where isAtOrBefore: ((offset: Int, units: Int)) -> Bool) -> (offset: Int, units: Int) {
        var from = (offset: bounds.lowerBound, units: 0)
        let marks = checkpoints(of: bounds)
        var lo = marks.lowerBound, hi = marks.upperBound
        while lo < hi {
            let mid = (lo + hi) / 2
            if isAtOrBefore(checkpoints[mid]) { from = checkpoints[mid]; lo = mid + 1 } else { hi = mid }
        }
        return from
    }

    /// The byte offset of a position; positions past a line's end clamp to it.
    func offset(of p: Position) -> Int {
        guard p.line >= 0 else { return 0 }
        guard p.line < lineStarts.count else { return bytes.count }
        let bounds = bounds(ofLine: p.line)
        // From the last checkpoint at or before the column.
        let from = lastCheckpoint(of: bounds) { $0.units <= p.character }
        return Self.offset(in: bytes, column: p.character - from.units, from: from.offset, to: bounds.upperBound).offset
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
        var scanned = 0
        return position(of: offset, scanned: &scanned)
    }

    /// The same, adding to `scanned` the bytes it walked: at most
    /// ``stride`` and a character, however long the line (for tests).
    func position(of offset: Int, scanned: inout Int) -> Position {
        let offset = min(max(offset, 0), bytes.count)
        let line = line(of: offset)
        let bounds = bounds(ofLine: line)
        let from = lastCheckpoint(of: bounds) { $0.offset <= offset }
        scanned += offset - from.offset
        return Position(line: line, character: from.units + Self.utf16Count(bytes, from: from.offset, to: offset))
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

/// The protocol positions of offsets in the files diagnostics name: the
/// document's own through its index, another file (a Markdown block,
/// numbered with the document's lines) through an index of it made the
/// first time one of its offsets is asked. One index per file, so many
/// diagnostics on one long line cost what the line does once.
struct FileIndexes {
    private let document: SourceFile
    private let index: TextIndex
    private var others: [ObjectIdentifier: (file: SourceFile, index: TextIndex)] = [:]
    /// Bytes walked to count columns (for tests).
    private(set) var scanned = 0

    init(document: SourceFile, index: TextIndex) {
        self.document = document
        self.index = index
    }

    /// The position of a byte offset in `file`.
    mutating func position(_ file: SourceFile, _ offset: Int) -> Position {
        if file === document { return index.position(of: offset, scanned: &scanned) }
        let key = ObjectIdentifier(file)
        let other: TextIndex
        if let known = others[key] {
            other = known.index
        } else {
            other = TextIndex(file.bytes)
            others[key] = (file, other)
        }
        let p = other.position(of: offset, scanned: &scanned)
        return Position(line: p.line + file.firstLine - 1, character: p.character)
    }
}

extension Diagnostic {
    /// Where this diagnostic is, in the protocol's terms, in the document
    /// its file belongs to (a Markdown block's file numbers the document's
    /// own lines).
    func lspRange(_ indexes: inout FileIndexes) -> LSPRange {
        guard let file, let range else { return LSPRange(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0)) }
        return LSPRange(start: indexes.position(file, range.start), end: indexes.position(file, range.end))
    }
}
