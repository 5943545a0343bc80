import KCSSyntax
import KeychainEngine

/// The texts past 15 bytes one file's lists have named, each found by its
/// bytes where it was first written, so the process's table of long texts
/// (``AttributeText``'s, SipHash under the process's seed and a lock,
/// some 700 instructions a text) is asked once per distinct text of the
/// file, not once per call naming it: a script names its few access
/// groups, services and accounts on call after call.
///
/// A cache, not a second table: what it hands back is the text the
/// table made for these bytes, the same words ``AttributeText/init(bytes:)``
/// gives, so nothing downstream can tell a hit from a miss. Its hash is
/// cheap (eight bytes at a time, under a seed of the process's), and its
/// cost is bounded whatever the texts: a lookup walks at most
/// ``probeLimit`` slots, and a text that finds no free one within them is
/// asked of the table as before, and not kept. Texts crafted to share
/// slots therefore cost what every text cost before, never a walk that
/// grows with their number. One file's (the parser keeps its lowering from
/// statement to statement), so a slot names its text by its offset in the
/// file's bytes, and holds no copy of them.
struct LongTextCache {
    /// Where a text was first written, its length (0: a free slot) and
    /// the low bits of its hash (a slot of another text is passed over
    /// without comparing bytes), and the text the table made of it.
    private struct Slot {
        var start = 0
        var count: UInt32 = 0
        var hash: UInt32 = 0
        var text = AttributeText()
    }

    /// Slots walked at most, from a text's first one.
    static let probeLimit = 8
    /// The file's bytes, the ones the ranges given are in.
    private let bytes: [UInt8]
    /// Open addressing, at most half full; made at the first long text, so
    /// a file without one (a REPL line, most Markdown blocks) pays nothing.
    private var slots: [Slot] = []
    private var used = 0
    /// The hash's seed: the process's (`Hasher`'s), read once.
    let seed = Self.processSeed
    private static let processSeed: UInt64 = {
        var h = Hasher()
        h.combine(0x6B63_735F_6C6F_6E67 as UInt64)
        return UInt64(truncatingIfNeeded: h.finalize())
    }()

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// How many texts are kept (for tests).
    var count: Int { used }

    /// The text of the bytes from `from` to `to` in the file: kept from
    /// an earlier call for the same bytes, or made now (and kept if there
    /// is room within ``probeLimit`` slots). Texts of 15 bytes or fewer
    /// are made in place, as they cost nothing to make.
    mutating func text(_ from: Int, _ to: Int) -> AttributeText {
        // Clamped to the file, as `SourceFile.withBytes(_:_:)` reads a range.
        let start = min(max(from, 0), bytes.count), end = min(max(to, start), bytes.count)
        let n = end &- start
        return bytes.withUnsafeBufferPointer { b in
            guard n > AttributeText.inlineCapacity, n < Int(UInt32.max) else { return AttributeText(bytes: UnsafeBufferPointer(rebasing: b[start..<end])) }
            let base = UnsafeRawPointer(b.baseAddress!)
            if slots.isEmpty { slots = [Slot](repeating: Slot(), count: 64) }
            var mask = slots.count &- 1
            let h = Self.hash(base + start, n, seed)
            let count = UInt32(truncatingIfNeeded: n), low = UInt32(truncatingIfNeeded: h)
            var i = h & mask, free = -1
            for _ in 0..<Self.probeLimit {
                let s = slots[i]
                if s.count == 0 {
                    free = i
                    break
                }
                if s.hash == low && s.count == count && ByteIndex.equal(base + s.start, base + start, n) { return s.text }
                i = (i &+ 1) & mask
            }
            let text = AttributeText(bytes: UnsafeBufferPointer(rebasing: b[start..<end]))
            guard free >= 0 else { return text }
            slots[free] = Slot(start: start, count: count, hash: low, text: text)
            used += 1
            if used * 2 > slots.count {
                let old = slots
                slots = [Slot](repeating: Slot(), count: old.count * 2)
                mask = slots.count &- 1
                used = 0
                for s in old where s.count != 0 {
                    var j = Self.hash(base + s.start, Int(s.count), seed) & mask
                    for _ in 0..<Self.probeLimit {
                        if slots[j].count == 0 {
                            slots[j] = s
                            used += 1
                            break
                        }
                        j = (j &+ 1) & mask
                    }
                }
            }
            return text
        }
    }

    /// A hash of `n` (16 or more) bytes at `p`, eight at a time, the last
    /// eight overlapping the word before when `n` is no multiple of 8.
    static func hash(_ p: UnsafeRawPointer, _ n: Int, _ seed: UInt64) -> Int {
        var h = seed ^ UInt64(n) &* 0x9E37_79B9_7F4A_7C15
        var i = 0
        while i &+ 8 <= n {
            h = (h ^ p.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xff51_afd7_ed55_8ccd
            h ^= h >> 29
            i &+= 8
        }
        if i < n {
            h = (h ^ p.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)) &* 0xc4ce_b9fe_1a85_ec53
            h ^= h >> 29
        }
        h = (h ^ h >> 32) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: h >> 17)
    }
}
