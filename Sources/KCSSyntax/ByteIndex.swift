/// Names looked up by the bytes of a token, without making a string: the
/// parser and the lowering match keywords, attribute names, classes and
/// statuses this way. A name's index is its position in the list it was
/// built from (the first spelling wins when a name is listed twice); the
/// caller keeps the values in an array of the same order.
///
/// Not generic on purpose: a generic table used from another module is not
/// specialized there, and its every lookup went through the runtime's
/// generic metadata.
package struct ByteIndex: Sendable {
    /// Every name's bytes, one after another.
    private var names: [UInt8] = []
    /// Where name `i` starts in ``names``; one more entry marks the end.
    private var starts: [Int] = [0]
    /// Open addressing: each slot holds a name's index + 1, or 0 when empty.
    private var slots: [Int32]
    private let mask: Int

    package init(_ list: [String]) {
        var size = 16
        while size < list.count * 2 { size *= 2 }
        slots = [Int32](repeating: 0, count: size)
        mask = size - 1
        for (i, name) in list.enumerated() {
            names += Array(name.utf8)
            starts.append(names.count)
            let bytes = Array(name.utf8)
            if index(bytes, SourceRange(0, bytes.count)) != nil { continue }  // first spelling wins
            var slot = Self.hash(bytes, 0, bytes.count) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(i + 1)
        }
    }

    /// FNV-1a over a range of bytes.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        var i = start
        while i < end {
            h = (h ^ UInt64(bytes[i])) &* 0x100_0000_01b3
            i += 1
        }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }

    private static func hash(_ bytes: [UInt8], _ start: Int, _ end: Int) -> Int {
        bytes.withUnsafeBufferPointer { hash($0, start, end) }
    }

    /// The index of the name written at `range` of `bytes`, if it is one.
    package func index(_ bytes: [UInt8], _ range: SourceRange) -> Int? {
        let n = range.end - range.start
        guard n > 0, range.start >= 0, range.end <= bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { b -> Int? in
            names.withUnsafeBufferPointer { table -> Int? in
                starts.withUnsafeBufferPointer { starts -> Int? in
                    slots.withUnsafeBufferPointer { slots -> Int? in
                        var slot = Self.hash(b, range.start, range.end) & mask
                        while true {
                            let entry = Int(slots[slot])
                            if entry == 0 { return nil }
                            let start = starts[entry - 1], end = starts[entry]
                            if end - start == n {
                                var i = 0
                                while i < n && table[start + i] == b[range.start + i] { i += 1 }
                                if i == n { return entry - 1 }
                            }
                            slot = (slot + 1) & mask
                        }
                    }
                }
            }
        }
    }
}
