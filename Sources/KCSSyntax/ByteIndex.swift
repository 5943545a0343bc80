/// Names looked up by the bytes of a token, without making a string: the
/// parser and the lowering match keywords, attribute names, classes and
/// statuses this way. A name's index is its position in the list it was
/// built from (the first spelling wins when a name is listed twice); the
/// caller keeps the values in an array of the same order.
///
/// Not generic on purpose: a generic table used from another module is not
/// specialized there, and its every lookup went through the runtime's
/// generic metadata. A class, so reading a static table retains one object
/// rather than copying three arrays.
package final class ByteIndex: @unchecked Sendable {
    // Immutable after init, in memory this object owns: a lookup reads it
    // through plain pointers, with no array retained and no closure.
    /// Every name's bytes, one after another.
    private let names: UnsafeMutablePointer<UInt8>
    /// Where name `i` starts in ``names``; one more entry marks the end.
    private let starts: UnsafeMutablePointer<Int>
    /// Open addressing: each slot holds a name's index + 1, or 0 when empty.
    private let slots: UnsafeMutablePointer<Int32>
    private let mask: Int

    package init(_ list: [String]) {
        var size = 16
        while size < list.count * 2 { size *= 2 }
        var allNames: [UInt8] = [], allStarts = [0]
        var table = [Int32](repeating: 0, count: size)
        let mask = size - 1
        for (i, name) in list.enumerated() {
            let bytes = Array(name.utf8)
            allNames += bytes
            allStarts.append(allNames.count)
            var slot = Self.hash(bytes, 0, bytes.count) & mask
            var taken = false
            while table[slot] != 0 {
                let other = Int(table[slot]) - 1
                if Array(allNames[allStarts[other]..<allStarts[other + 1]]) == bytes { taken = true; break }  // first spelling wins
                slot = (slot + 1) & mask
            }
            if !taken { table[slot] = Int32(i + 1) }
        }
        names = .allocate(capacity: max(allNames.count, 1))
        names.initialize(from: allNames, count: allNames.count)
        starts = .allocate(capacity: allStarts.count)
        starts.initialize(from: allStarts, count: allStarts.count)
        slots = .allocate(capacity: size)
        slots.initialize(from: table, count: size)
        self.mask = mask
    }

    deinit {
        names.deallocate()
        starts.deallocate()
        slots.deallocate()
    }

    /// A hash of a range of bytes, eight at a time.
    private static func hash(_ base: UnsafePointer<UInt8>, _ count: Int) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(count)
        var i = 0
        let raw = UnsafeRawPointer(base)
        while i + 8 <= count {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 32
            i += 8
        }
        while i < count {
            h = (h ^ UInt64(base[i])) &* 0x100_0000_01b3
            i += 1
        }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }

    private static func hash(_ bytes: [UInt8], _ start: Int, _ end: Int) -> Int {
        guard start < end else { return hash(UnsafePointer(bitPattern: 1)!, 0) }
        return bytes.withUnsafeBufferPointer { hash($0.baseAddress! + start, end - start) }
    }

    /// Whether `n` bytes at `a` equal those at `b`, eight at a time.
    private static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ n: Int) -> Bool {
        var i = 0
        while i + 8 <= n {
            if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
            i += 8
        }
        while i < n {
            if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
            i += 1
        }
        return true
    }

    /// The index of the name written at `range` of `bytes`, if it is one.
    package func index(_ bytes: [UInt8], _ range: SourceRange) -> Int? {
        let n = range.end - range.start
        guard n > 0, range.start >= 0, range.end <= bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { b -> Int? in
            let key = b.baseAddress! + range.start
            var slot = Self.hash(key, n) & mask
            while true {
                let entry = Int(slots[slot])
                if entry == 0 { return nil }
                let start = starts[entry - 1], end = starts[entry]
                if end - start == n, Self.equal(UnsafeRawPointer(names + start), UnsafeRawPointer(key), n) {
                    return entry - 1
                }
                slot = (slot + 1) & mask
            }
        }
    }
}
