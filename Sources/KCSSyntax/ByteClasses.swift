/// What the lexer's tight loops ask of a byte, one bit per question, in a
/// table of 256 entries: a word or a string is scanned at one load and one
/// test per byte, not a chain of comparisons.
///
/// Derived at start-up from ``Lexer/isWordByte(_:)`` and the string rule, so
/// the documented characters stay the one source of truth. A class holding
/// its table through a plain pointer, created once and never freed: reading
/// it retains nothing and touches no lazy global per byte.
package final class ByteClasses: @unchecked Sendable {
    /// An ASCII byte that may be part of a word (`isWordByte`, below 0x80).
    /// A byte past ASCII is not in it: a word meeting one goes to the
    /// out-of-line check for look-alikes.
    package static let asciiWord: UInt8 = 1
    /// A byte that continues a string without ending or escaping it: not
    /// `"`, `\` nor a line break.
    package static let plainStringByte: UInt8 = 2

    package static let shared = ByteClasses()

    /// Immutable after init.
    package let table: UnsafeMutablePointer<UInt8>

    private init() {
        table = .allocate(capacity: 256)
        for b in 0...255 {
            let byte = UInt8(b)
            var bits: UInt8 = 0
            if byte < 0x80 && Lexer.isWordByte(byte) { bits |= Self.asciiWord }
            if byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != 0x0A { bits |= Self.plainStringByte }
            table[b] = bits
        }
    }

    deinit { table.deallocate() }

    /// The bits of a byte.
    package func bits(_ b: UInt8) -> UInt8 { table[Int(b)] }

    /// Where the run of bytes from `start` that have `bit` ends: the first
    /// byte without it, or the end of the buffer.
    ///
    /// Eight bytes a round under one bounds check, each a load and a test:
    /// most words and strings end in their first or second round.
    @inline(__always)
    package static func runEnd(_ b: UnsafeBufferPointer<UInt8>, from start: Int, while bit: UInt8,
                       in table: UnsafeMutablePointer<UInt8>) -> Int {
        guard let p = b.baseAddress else { return start }
        let count = b.count
        var i = start
        while i &+ 8 <= count {
            if table[Int(p[i])] & bit == 0 { return i }
            if table[Int(p[i &+ 1])] & bit == 0 { return i &+ 1 }
            if table[Int(p[i &+ 2])] & bit == 0 { return i &+ 2 }
            if table[Int(p[i &+ 3])] & bit == 0 { return i &+ 3 }
            if table[Int(p[i &+ 4])] & bit == 0 { return i &+ 4 }
            if table[Int(p[i &+ 5])] & bit == 0 { return i &+ 5 }
            if table[Int(p[i &+ 6])] & bit == 0 { return i &+ 6 }
            if table[Int(p[i &+ 7])] & bit == 0 { return i &+ 7 }
            i &+= 8
        }
        while i < count && table[Int(p[i])] & bit != 0 { i &+= 1 }
        return i
    }
}
