#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a text holds a word, on its UTF-8 bytes: the project checks scan
/// every Swift file a target links for a handful of words, and Foundation's
/// `contains` went through UTF-16 on Linux (200 extensions linking 1 MB of
/// Swift took 22 s; found by adversarial testing).
public enum ByteSearch {
    public static func contains(_ text: String, _ word: String) -> Bool {
        var text = text, word = word
        return text.withUTF8 { t in word.withUTF8 { w in contains(t, w) } }
    }

    public static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first else { return true }
        guard haystack.count >= needle.count, let base = haystack.baseAddress, let n = needle.baseAddress else { return false }
        var at = 0
        let last = haystack.count - needle.count
        while at <= last {
            // The next place the first byte occurs, then the rest compared.
            guard let hit = memchr(base + at, Int32(first), last - at + 1) else { return false }
            let i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + i, n, needle.count) == 0 { return true }
            at = i + 1
        }
        return false
    }
}
