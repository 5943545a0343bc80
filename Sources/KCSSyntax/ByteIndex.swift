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
    /// Every name's bytes, one after another (read for names past 16 bytes).
    private let names: UnsafeMutablePointer<UInt8>
    /// Where name `i` starts in ``names``; one more entry marks the end.
    private let starts: UnsafeMutablePointer<Int>
    /// Open addressing, each slot a name's first 16 bytes as two words
    /// (zero-padded, in byte order), its length and its index + 1 (0 when
    /// empty): a short name is settled in the slot it hashes to, with no
    /// second load from another table.
    private let slots: UnsafeMutablePointer<Slot>
    private let mask: Int

    private struct Slot {
        var w0: UInt64 = 0
        var w1: UInt64 = 0
        var count: Int32 = 0
        var entry: Int32 = 0
    }

    package init(_ list: [String]) {
        var size = 16
        while size < list.count * 2 { size *= 2 }
        var allNames: [UInt8] = [], allStarts = [0]
        var table = [Slot](repeating: Slot(), count: size)
        let mask = size - 1
        for (i, name) in list.enumerated() {
            let bytes = Array(name.utf8)
            allNames += bytes
            allStarts.append(allNames.count)
            guard !bytes.isEmpty else { continue }
            let (hash, w0, w1) = bytes.withUnsafeBufferPointer { Self.key($0, 0, bytes.count) }
            var slot = hash & mask
            var taken = false
            while table[slot].entry != 0 {
                let other = Int(table[slot].entry) - 1
                if Array(allNames[allStarts[other]..<allStarts[other + 1]]) == bytes { taken = true; break }  // first spelling wins
                slot = (slot + 1) & mask
            }
            if !taken { table[slot] = Slot(w0: w0, w1: w1, count: Int32(bytes.count), entry: Int32(i + 1)) }
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

    /// The bytes `start..<end` (at most 16) as two little-endian words,
    /// zero-padded: loaded whole when the buffer allows, else byte by byte.
    /// Inlinable: the session keys its cache of call apps by them too.
    @inlinable @inline(__always)
    package static func shortWords(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (UInt64, UInt64) {
        // 1 ≤ n ≤ 16 and end ≤ the buffer's count (the callers check), so the
        // unchecked arithmetic and masking shifts below stay in range.
        let n = end &- start
        let raw = UnsafeRawPointer(b.baseAddress!)
        if n >= 8 {
            let w0 = raw.loadUnaligned(fromByteOffset: start, as: UInt64.self)
            // The last eight bytes, less those already in w0.
            let w1 = n == 8 ? 0 : raw.loadUnaligned(fromByteOffset: end &- 8, as: UInt64.self) &>> UInt64((16 &- n) &* 8)
            return (w0, w1)
        }
        if end >= 8 {
            return (raw.loadUnaligned(fromByteOffset: end &- 8, as: UInt64.self) &>> UInt64((8 &- n) &* 8), 0)
        }
        var w: UInt64 = 0
        for i in 0..<n { w |= UInt64(b[start + i]) << UInt64(8 * i) }
        return (w, 0)
    }

    /// The hash of a short name's words and length.
    @inline(__always)
    private static func shortHash(_ w0: UInt64, _ w1: UInt64, _ n: Int) -> Int {
        var h = (w0 ^ (w1 &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(n)) &* 0xff51_afd7_ed55_8ccd
        h ^= h >> 32
        return Int(truncatingIfNeeded: h)
    }

    /// Where a name's search starts, and its first 16 bytes as words: the
    /// one rule for placing a name and for looking it up.
    private static func key(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (hash: Int, w0: UInt64, w1: UInt64) {
        let n = end - start
        guard n > 0 else { return (0, 0, 0) }
        let (w0, w1) = shortWords(b, start, min(end, start + 16))
        guard n > 16 else { return (shortHash(w0, w1, n), w0, w1) }
        // A longer one by its first sixteen bytes, its last eight and its
        // length (the whole is compared on a hit): hashing every byte cost
        // a status name (errSecMissingEntitlement) 137 instructions a lookup.
        let last = UnsafeRawPointer(b.baseAddress!).loadUnaligned(fromByteOffset: end &- 8, as: UInt64.self)
        return (shortHash(w0, w1 ^ (last &* 0xc4ce_b9fe_1a85_ec53), n), w0, w1)
    }

    /// Whether `n` bytes at `a` equal those at `b`, eight at a time (the
    /// last eight overlapping the word before when `n` is no multiple of 8).
    package static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ n: Int) -> Bool {
        guard n >= 8 else {
            var i = 0
            while i < n {
                if a.load(fromByteOffset: i, as: UInt8.self) != b.load(fromByteOffset: i, as: UInt8.self) { return false }
                i += 1
            }
            return true
        }
        var i = 0
        while i &+ 8 <= n {
            if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
            i &+= 8
        }
        return i == n || a.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
    }

    /// The index of the name written at `range` of `bytes`, if it is one.
    package func index(_ bytes: [UInt8], _ range: SourceRange) -> Int? {
        bytes.withUnsafeBufferPointer { index($0, range) }
    }

    /// The same, from the bytes in place.
    package func index(_ b: UnsafeBufferPointer<UInt8>, _ range: SourceRange) -> Int? {
        let n = range.end &- range.start
        guard n > 0, range.start >= 0, range.end <= b.count else { return nil }
        guard n <= 16 else { return longIndex(b, range) }
        // The common case inline: two words, a hash, the slot it names.
        let (w0, w1) = Self.shortWords(b, range.start, range.end)
        var slot = Self.shortHash(w0, w1, n) & mask
        while true {
            let s = slots[slot]
            if s.entry == 0 { return nil }
            if s.w0 == w0 && s.w1 == w1 && Int(s.count) == n { return Int(s.entry) &- 1 }
            slot = (slot &+ 1) & mask
        }
    }

    /// A name past 16 bytes: its first 16 in the slot, the rest compared
    /// with the names' bytes.
    @inline(never)
    private func longIndex(_ b: UnsafeBufferPointer<UInt8>, _ range: SourceRange) -> Int? {
        let n = range.end - range.start
        let (hash, w0, w1) = Self.key(b, range.start, range.end)
        var slot = hash & mask
        while true {
            let s = slots[slot]
            if s.entry == 0 { return nil }
            if s.w0 == w0 && s.w1 == w1 && Int(s.count) == n {
                let start = starts[Int(s.entry) - 1]
                if Self.equal(UnsafeRawPointer(names + start), UnsafeRawPointer(b.baseAddress! + range.start), n) {
                    return Int(s.entry) - 1
                }
            }
            slot = (slot + 1) & mask
        }
    }
}
