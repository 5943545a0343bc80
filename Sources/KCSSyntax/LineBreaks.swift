/// Where a line ends, one rule for every location kcs makes in any file:
/// at a line feed, at a carriage return and line feed (one break, counted at
/// the line feed), and at a carriage return alone. clang, swift-syntax, the
/// language server protocol and editors count a lone CR as a break, so a
/// reader that counted only LF put a finding below a lone CR on another
/// line than the Objective-C reader or swift-syntax had said (adversarial
/// run 28, F6); `.kcs` files refuse a lone CR (KCS012), and Markdown turns
/// it into a line feed.
public enum LineBreaks {
    /// Whether a line ends at `byte`, the byte after it being `next` (nil at
    /// the end): a CR followed by an LF ends no line, its LF does.
    @inlinable @inline(__always)
    public static func ends(_ byte: UInt8, next: UInt8?) -> Bool {
        byte == 0x0A || (byte == 0x0D && next != 0x0A)
    }

    /// Whether a line ends at `bytes[i]`.
    @inlinable @inline(__always)
    public static func ends(_ bytes: [UInt8], at i: Int) -> Bool {
        ends(bytes[i], next: i + 1 < bytes.count ? bytes[i + 1] : nil)
    }

    /// The line breaks in `bytes[range]` (a CR at its end followed by an LF
    /// after it is not one: the LF is).
    public static func count(in bytes: [UInt8], _ range: Range<Int>) -> Int {
        var n = 0
        for i in range where ends(bytes, at: i) { n += 1 }
        return n
    }

    /// Each line's bytes, without its line break; as many as the file has
    /// line breaks, plus one.
    public static func lines(_ bytes: [UInt8]) -> [Range<Int>] {
        var out: [Range<Int>] = [], start = 0, i = 0
        while i < bytes.count {
            if ends(bytes, at: i) {
                out.append(start..<(bytes[i] == 0x0A && i > start && bytes[i - 1] == 0x0D ? i - 1 : i))
                start = i + 1
            }
            i += 1
        }
        out.append(start..<bytes.count)
        return out
    }
}
