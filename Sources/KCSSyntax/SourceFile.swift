#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A script's text with its name. Positions are byte offsets; lines and
/// columns are worked out only when a diagnostic is shown.
public final class SourceFile: Sendable {
    /// The name shown in diagnostics: a path, `<stdin>` or `<repl>`.
    public let name: String
    public let bytes: [UInt8]
    /// Where some lines start, and their indexes: the first, every 64th,
    /// and each line of 4 KiB or more and the line after it, so between two
    /// marks lie fewer than 64 lines of less than 4 KiB, or one line. Every
    /// line's start, 8 bytes a line, cost 1.6 GB for 200 MB of line breaks
    /// (adversarial run 26, F13); a location is worked out only for a
    /// diagnostic, from the mark before it.
    package let markOffsets: [Int], markLines: [Int]
    /// Lines in the file.
    public let lineCount: Int
    static let linesPerMark = 64, longLineBytes = 4096
    /// The line number of the first line: 1 for a file, more for a part of
    /// a larger document (a Markdown block), so locations name the
    /// document's own lines without copying or re-reading the rest of it.
    public let firstLine: Int
    /// Whether every byte is ASCII: checks that look for letters of other
    /// scripts are skipped at once for most scripts.
    public let isASCII: Bool
    /// Whether some byte is NUL (the pre-check refuses such a file).
    package let hasNUL: Bool
    /// Whether some carriage return stands alone: then lines also end
    /// there (``LineBreaks``), found by a second search per line; most
    /// files have none, and pay one search for the whole file.
    private let hasLoneCR: Bool
    /// Scalars before each multiple of ``checkpointStride`` bytes, kept only
    /// when a line is longer than ``longLine``: a column on a line of
    /// megabytes is then found without counting from the line's start, so
    /// many diagnostics on one huge line cost no more than the file.
    private let scalarCheckpoints: [Int]
    static let checkpointStride = 4096
    static let longLine = 1 << 16

    public init(name: String, bytes: [UInt8], firstLine: Int = 1) {
        self.name = name
        self.bytes = bytes
        self.firstLine = max(1, firstLine)
        let loneCR = Self.firstLoneCarriageReturn(bytes) != nil
        self.hasLoneCR = loneCR
        // Two passes that the C library and the compiler make cheap, rather
        // than one that asks three things of every byte: memchr finds each
        // line break (a line is tens of bytes, searched a vector at a time),
        // and a loop of OR and MIN, which the compiler turns into vector
        // instructions, finds whether any byte is past ASCII or NUL.
        // (Counting the lines first to size the array exactly cost more than
        // it saved: the count kept that loop from vectorizing well.)
        var longest = 0, last = 0
        var offsets = [0], lines = [0]
        var line = 0, lineStart = 0, previousLong = false
        let (high, low) = bytes.withUnsafeBufferPointer { b -> (UInt8, UInt8) in
            // Each line is marked, or not, once its length is known.
            func ended(at end: Int) {
                let long = end - lineStart >= Self.longLineBytes
                if line > 0, line % Self.linesPerMark == 0 || long || previousLong {
                    offsets.append(lineStart)
                    lines.append(line)
                }
                previousLong = long
            }
            while let start = Self.nextLine(b, after: &last, longest: &longest, loneCR: loneCR) {
                ended(at: start)
                line += 1
                lineStart = start
            }
            ended(at: b.count)
            var high: UInt8 = 0, low: UInt8 = 0xFF
            for c in b {
                high |= c
                low = min(low, c)
            }
            return (high, low)
        }
        longest = max(longest, bytes.count - last)
        self.isASCII = high < 0x80
        self.hasNUL = low == 0
        // One past the end: the last line is alone when it is marked.
        self.markOffsets = offsets + [Int.max]
        self.markLines = lines + [line + 1]
        self.lineCount = line + 1
        var checkpoints: [Int] = []
        if longest > Self.longLine {
            checkpoints.reserveCapacity(bytes.count / Self.checkpointStride + 1)
            var scalars = 0
            for (i, b) in bytes.enumerated() {
                if i % Self.checkpointStride == 0 { checkpoints.append(scalars) }
                if b & 0xC0 != 0x80 { scalars += 1 }
            }
            if bytes.count % Self.checkpointStride == 0 { checkpoints.append(scalars) }
        }
        self.scalarCheckpoints = checkpoints
    }

    /// The start of the line after the one at `last`, if a line break ends
    /// it (``LineBreaks``: an LF, a CR LF, or, when `loneCR`, a CR alone);
    /// moves `last` there and keeps the longest line's length.
    @inline(__always)
    private static func nextLine(_ b: UnsafeBufferPointer<UInt8>, after last: inout Int, longest: inout Int, loneCR: Bool) -> Int? {
        guard let base = b.baseAddress else { return nil }
        let lf = memchr(base + last, 0x0A, b.count - last).map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) }
        var start: Int
        if let lf { start = lf + 1 } else { start = -1 }
        if loneCR {
            // A CR before the LF, other than the one just before it, stands alone.
            let end = lf.map { $0 - 1 } ?? b.count
            if end > last, let cr = memchr(base + last, 0x0D, end - last) {
                start = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(cr)) + 1
            }
        }
        guard start >= 0 else { return nil }
        longest = max(longest, start - last)
        last = start
        return start
    }

    /// The offset of the first carriage return not followed by a line
    /// feed (``SourceCheck``), found a vector at a time.
    package func firstLoneCarriageReturn() -> Int? { Self.firstLoneCarriageReturn(bytes) }

    private static func firstLoneCarriageReturn(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { p -> Int? in
            guard let base = p.baseAddress else { return nil }
            var from = 0
            while from < p.count, let hit = memchr(base + from, 0x0D, p.count - from) {
                let at = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                if at + 1 >= p.count || p[at + 1] != 0x0A { return at }
                from = at + 2
            }
            return nil
        }
    }

    /// Scalars that start before byte `offset` (with checkpoints only).
    private func scalars(before offset: Int) -> Int {
        let k = offset / Self.checkpointStride
        var n = scalarCheckpoints[k]
        var i = k * Self.checkpointStride
        while i < offset {
            if bytes[i] & 0xC0 != 0x80 { n += 1 }
            i += 1
        }
        return n
    }

    public convenience init(name: String, text: String) {
        self.init(name: name, bytes: Array(text.utf8))
    }

    /// The 1-based line and column of a byte offset; the column counts
    /// Unicode scalars so a caret lines up under non-ASCII text.
    public func location(of offset: Int) -> SourceLocation {
        let offset = min(max(offset, 0), bytes.count)
        var lo = 0, hi = markOffsets.count - 2
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if markOffsets[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        var start = markOffsets[lo], line = markLines[lo]
        // A mark followed by the next line's is a line alone: a long line is
        // not searched for breaks it does not have.
        if markLines[lo + 1] != line + 1 {
            bytes.withUnsafeBufferPointer { b in
                var at = start, longest = 0
                while let next = Self.nextLine(b, after: &at, longest: &longest, loneCR: hasLoneCR), next <= offset {
                    start = next
                    line += 1
                }
            }
        }
        if !scalarCheckpoints.isEmpty && offset - start > Self.checkpointStride {
            return SourceLocation(line: line + firstLine, column: scalars(before: offset) - scalars(before: start) + 1)
        }
        var column = 1
        var i = start
        while i < offset {
            // Count scalar starts, not continuation bytes.
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return SourceLocation(line: line + firstLine, column: column)
    }

    /// The text of a line (numbered as ``location(of:)`` numbers it) without its line break.
    public func lineText(_ line: Int) -> String {
        guard let bounds = lineBounds(line) else { return "" }
        return String(decoding: bytes[bounds], as: UTF8.self)
    }

    /// The byte range of a line without its line break (LF, CR LF or a lone CR).
    public func lineBounds(_ line: Int) -> Range<Int>? {
        let index = line - firstLine
        guard index >= 0, index < lineCount else { return nil }
        var lo = 0, hi = markLines.count - 2
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if markLines[mid] <= index { lo = mid } else { hi = mid - 1 }
        }
        return bytes.withUnsafeBufferPointer { b in
            var start = markOffsets[lo], longest = 0
            for _ in markLines[lo]..<index {
                var at = start
                guard let next = Self.nextLine(b, after: &at, longest: &longest, loneCR: hasLoneCR) else { break }
                start = next
            }
            var at = start
            var end = Self.nextLine(b, after: &at, longest: &longest, loneCR: hasLoneCR).map { $0 - 1 } ?? b.count
            if end > start, end < b.count, b[end] == 0x0A, b[end - 1] == 0x0D { end -= 1 }
            return start..<max(start, end)
        }
    }

    /// The text of a byte range.
    public func text(_ range: SourceRange) -> String {
        withBytes(range) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the bytes of a range, clamped to the file.
    /// Through a buffer pointer: a slice goes through the generic path.
    /// Inlinable, so a caller in another module gets it specialized.
    @inlinable
    public func withBytes<R>(_ range: SourceRange, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let lo = min(max(range.start, 0), bytes.count), hi = min(max(range.end, lo), bytes.count)
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[lo..<hi])) }
    }

    /// The value of the string literal written at `range` (quotes included),
    /// escapes decoded. The lexer has reported any bad escape already.
    public func stringValue(_ range: SourceRange) -> String {
        Lexer.decodeString(bytes, range)
    }

}

/// A 1-based line and column.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var description: String { "\(line):\(column)" }
}

/// A half-open byte range in one source file.
public struct SourceRange: Sendable, Hashable {
    public var start: Int
    public var end: Int

    public init(_ start: Int, _ end: Int) {
        self.start = start
        self.end = max(start, end)
    }

    /// The range covering both.
    public func union(_ other: SourceRange) -> SourceRange {
        SourceRange(min(start, other.start), max(end, other.end))
    }
}
