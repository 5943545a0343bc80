#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How bytes are kept in the engine, whose item data and attribute values are
/// strings: valid UTF-8 is stored as its text (so a scenario's `data="s3cret"`
/// and a wrapper's `Data("s3cret".utf8)` are the same item); anything else, or
/// text that happens to start with the marker, as the marker plus hex digits.
/// The mapping is one-to-one, so bytes always come back exactly.
enum ByteCodec {
    static let marker = "\u{0}kcs-bytes:"

    static func encode(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        if text.utf8.elementsEqual(bytes) && !text.hasPrefix(marker) { return text }
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var digits: [UInt8] = []
        digits.reserveCapacity(bytes.count * 2)
        for b in bytes {
            digits.append(hex[Int(b >> 4)])
            digits.append(hex[Int(b & 0x0F)])
        }
        return marker + String(decoding: digits, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8] {
        guard text.hasPrefix(marker) else { return Array(text.utf8) }
        let digits = Array(text.utf8.dropFirst(marker.utf8.count))
        func value(_ d: UInt8) -> UInt8? {
            switch d {
            case 0x30...0x39: d - 0x30
            case 0x61...0x66: d - 0x61 + 10
            default: nil
            }
        }
        guard digits.count % 2 == 0 else { return Array(text.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var i = 0
        while i < digits.count {
            guard let hi = value(digits[i]), let lo = value(digits[i + 1]) else { return Array(text.utf8) }
            bytes.append(hi << 4 | lo)
            i += 2
        }
        return bytes
    }

    /// Bytes from a value written where the framework takes `CFData`:
    /// `Data`, `[UInt8]` or a `String` (its UTF-8, as `copyData` converts
    /// strings in SecDbQuery.c). Nil for any other type.
    /// The bytes of a `Data` value only (a persistent reference is `CFData`).
    static func dataBytes(of value: Any) -> [UInt8]? {
        (value as? Data).map { Array($0) }
    }

    static func bytes(of value: Any) -> [UInt8]? {
        switch value {
        case let d as Data: Array(d)
        case let b as [UInt8]: b
        case let s as String: Array(s.utf8)
        case let s as Substring: Array(s.utf8)
        default: nil
        }
    }
}
