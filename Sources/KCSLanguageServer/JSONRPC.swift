#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON-RPC request or notification id: a number or a string.
public enum RequestID: Codable, Sendable, Hashable {
    case number(Int)
    case string(String)

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let n = try? c.decode(Int.self) { self = .number(n) } else { self = .string(try c.decode(String.self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .number(let n): try c.encode(n)
        case .string(let s): try c.encode(s)
        }
    }
}

/// Any JSON value, decoded only to tell JSON from text that is not JSON.
struct AnyJSON: Decodable {
    init(from decoder: any Decoder) throws {
        if var list = try? decoder.unkeyedContainer() {
            while !list.isAtEnd { _ = try list.decode(AnyJSON.self) }
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            for key in object.allKeys { _ = try object.decode(AnyJSON.self, forKey: key) }
            return
        }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() || (try? c.decode(Bool.self)) != nil || (try? c.decode(Double.self)) != nil { return }
        _ = try c.decode(String.self)
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// What every incoming message has: a method (requests and notifications)
/// and an id (requests). Params are decoded per method.
struct Envelope: Decodable {
    var id: RequestID?
    var method: String?
}

/// The params of a message, decoded for one method.
struct Params<P: Decodable>: Decodable {
    var params: P
}

/// The LSP base protocol's framing: `Content-Length: N` headers, a blank
/// line, then N bytes of JSON. Bytes come from a pull function so tests can
/// feed them from memory.
public struct MessageReader {
    /// The largest message accepted; a larger one is refused, not buffered.
    public static let maxMessageBytes = 64 << 20
    private let pull: () -> [UInt8]?
    private var buffer: [UInt8] = []
    private var start = 0

    /// Why reading stopped.
    public enum Failure: Error, Equatable {
        case endOfInput
        case badHeader(String)
        case tooLarge(Int)
    }

    /// `pull` returns the next chunk of input, or nil at the end.
    public init(pull: @escaping () -> [UInt8]?) { self.pull = pull }

    /// Bytes held, read but not yet handed out or dropped (for tests).
    package var bufferedBytes: Int { buffer.count }

    /// The next message's JSON body.
    public mutating func next() throws(Failure) -> [UInt8] {
        var length: Int?
        // Headers: lines ending in CR LF, up to an empty line.
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.firstIndex(of: ":") else { throw .badHeader(text) }
            let name = text[..<colon].lowercased()
            let value = text[text.index(after: colon)...].trimmingSpaces
            if name == "content-length" {
                guard let n = Int(value), n >= 0 else { throw .badHeader(text) }
                guard n <= Self.maxMessageBytes else { throw .tooLarge(n) }
                length = n
            }
        }
        guard let length else { throw .badHeader("no Content-Length") }
        return try read(count: length)
    }

    private mutating func fill() throws(Failure) {
        // Consumed bytes go before more are read: once all are consumed, or
        // once they are half the buffer. Emptied only when exactly all were
        // consumed, a session of pipelined messages that never ended on a
        // read's boundary kept every byte it had read (1.2 GB of messages
        // held 1.09 GB; found by adversarial testing).
        if start > 0 && (start == buffer.count || start >= buffer.count / 2) {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        guard let chunk = pull(), !chunk.isEmpty else { throw .endOfInput }
        buffer += chunk
    }

    private mutating func readLine() throws(Failure) -> [UInt8] {
        var scanned = start
        while true {
            while scanned < buffer.count {
                if buffer[scanned] == 0x0A {
                    var end = scanned
                    if end > start && buffer[end - 1] == 0x0D { end -= 1 }
                    let line = Array(buffer[start..<end])
                    start = scanned + 1
                    return line
                }
                scanned += 1
            }
            guard buffer.count - start <= 8192 else { throw .badHeader("a header line longer than 8 KiB") }
            let offset = scanned - start
            try fill()
            scanned = start + offset
        }
    }

    private mutating func read(count: Int) throws(Failure) -> [UInt8] {
        while buffer.count - start < count { try fill() }
        let body = Array(buffer[start..<(start + count)])
        start += count
        return body
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// Frames a JSON body for the wire.
func frame(_ body: [UInt8]) -> [UInt8] {
    Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
}
