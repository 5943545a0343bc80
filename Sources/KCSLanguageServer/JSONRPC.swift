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
    /// The largest header block (every header line of one message): a
    /// block that never ended was scanned again from its start on every
    /// read, and held whole (2.2 MB of headers took 27 s; adversarial run
    /// 24, F1). Clients send one or two short headers.
    public static let maxHeaderBytes = 8192
    private let pull: () -> [UInt8]?
    private let available: (() -> [UInt8]?)?
    private var buffer: [UInt8] = []
    private var start = 0

    /// Why reading stopped.
    public enum Failure: Error, Equatable {
        case endOfInput
        case badHeader(String)
        case tooLarge(Int)
    }

    /// `pull` returns the next chunk of input, waiting for it, or nil at
    /// the end; `available`, when given, returns what input has already
    /// arrived without waiting (nil or empty when none has), for
    /// ``nextIfReady()``.
    public init(pull: @escaping () -> [UInt8]?, available: (() -> [UInt8]?)? = nil) {
        self.pull = pull
        self.available = available
    }

    /// Bytes held, read but not yet handed out or dropped (for tests).
    package var bufferedBytes: Int { buffer.count }

    /// The next message's JSON body.
    public mutating func next() throws(Failure) -> [UInt8] {
        while true {
            if let body = try buffered() { return body }
            guard let chunk = pull(), !chunk.isEmpty else { throw .endOfInput }
            append(chunk)
        }
    }

    /// The next message's JSON body if it has already arrived whole (from
    /// what was read, and what input is ready without waiting); nil
    /// otherwise, with nothing of it consumed. The server reads ahead with
    /// it, to skip work that later messages make moot (adversarial 21, F7).
    public mutating func nextIfReady() throws(Failure) -> [UInt8]? {
        while true {
            if let body = try buffered() { return body }
            guard let available, let chunk = available(), !chunk.isEmpty else { return nil }
            append(chunk)
        }
    }

    private mutating func append(_ chunk: [UInt8]) {
        // Consumed bytes go before more are read: once all are consumed, or
        // once they are half the buffer. Emptied only when exactly all were
        // consumed, a session of pipelined messages that never ended on a
        // read's boundary kept every byte it had read (1.2 GB of messages
        // held 1.09 GB; found by adversarial testing).
        if start > 0 && (start == buffer.count || start >= buffer.count / 2) {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer += chunk
    }

    /// One whole message from the bytes read, consumed; nil, with nothing
    /// consumed, when part of it has not arrived. Headers are lines ending
    /// in CR LF, up to an empty line.
    private mutating func buffered() throws(Failure) -> [UInt8]? {
        var i = start
        var length: Int?
        while true {
            let limit = min(buffer.count, start + Self.maxHeaderBytes + 1)
            guard let newline = buffer[i..<limit].firstIndex(of: 0x0A) else {
                guard buffer.count - start <= Self.maxHeaderBytes else { throw .badHeader("headers longer than \(Self.maxHeaderBytes >> 10) KiB") }
                return nil
            }
            var end = newline
            if end > i && buffer[end - 1] == 0x0D { end -= 1 }
            let line = buffer[i..<end]
            i = newline + 1
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
        guard buffer.count - i >= length else { return nil }
        let body = Array(buffer[i..<(i + length)])
        start = i + length
        return body
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// Whether a message holds more JSON separators (commas, opening brackets:
/// about one a value) than the server decodes, counted outside strings in
/// one pass: Foundation's decoder holds about 55 bytes a value,
/// each decode again, so one 62 MB message of zeros took 1.7 GB and 10 s to
/// refuse (adversarial run 24, F8). A document's text is one value however
/// long; the largest real messages (a didChange of thousands of edits)
/// hold tens of thousands.
func exceedsJSONValueBudget(_ body: [UInt8], budget: Int = 1_000_000) -> Bool {
    guard body.count > budget else { return false }
    var values = 0
    forEachByteOutsideStrings(body) { b in
        if b == UInt8(ascii: ",") || b == UInt8(ascii: "[") || b == UInt8(ascii: "{") { values += 1 }
        return values <= budget
    }
    return values > budget
}

/// How deep a message's arrays and objects nest, counted outside strings
/// in one pass.
func jsonNesting(_ body: [UInt8]) -> Int {
    var depth = 0, deepest = 0
    forEachByteOutsideStrings(body) { b in
        if b == UInt8(ascii: "[") || b == UInt8(ascii: "{") {
            depth += 1
            deepest = max(deepest, depth)
        } else if b == UInt8(ascii: "]") || b == UInt8(ascii: "}") {
            depth -= 1
        }
        return true
    }
    return deepest
}

/// Calls `body` with each byte of JSON text outside its strings (quotes
/// excluded) until it returns false.
func forEachByteOutsideStrings(_ text: [UInt8], _ body: (UInt8) -> Bool) {
    var inString = false, escaped = false
    for b in text {
        if inString {
            if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
            continue
        }
        if b == UInt8(ascii: "\"") { inString = true; continue }
        if !body(b) { return }
    }
}

/// The top-level `id` and `method` of a message refused undecoded (one pass,
/// members of the outer object only), so the refusal answers the request
/// it refuses, and a notification gets no answer (review of session 18, R7);
/// and `params.textDocument.uri`, the document a refused change leaves out
/// of date.
func topLevelIDAndMethod(_ body: [UInt8]) -> (id: RequestID?, method: String?, document: String?) {
    var depth = 0, i = 0
    var id: RequestID?, method: String?, document: String?
    // The keys the objects or arrays open at depths 1 and 2 are the values
    // of (nil for an array's elements), the only ones the URI's path needs,
    // and the last key read. A stack of every level's key grew with the
    // nesting: a 60 MB message of `[[[…]]]` took 700 MB (review 19, R6).
    var keyAt1: String?, keyAt2: String?, lastKey: String?
    /// The string starting at the quote at `at`, and the index after it.
    /// Escapes are decoded as JSON's: `\u00e9` was read `u00e9`, so a
    /// refused change to a document whose URI a client escaped named no
    /// open document and left it stale (adversarial run 26, F10).
    func string(_ at: Int) -> (String, Int) {
        var k = at + 1, scalars = String.UnicodeScalarView(), count = 0
        var pendingHigh: UInt32?
        func hex(_ from: Int) -> UInt32? {
            guard from + 4 <= body.count else { return nil }
            var v: UInt32 = 0
            for b in body[from..<(from + 4)] {
                guard let d = Character(Unicode.Scalar(b)).hexDigitValue else { return nil }
                v = v << 4 | UInt32(d)
            }
            return v
        }
        func append(_ v: UInt32) {
            guard count < 1024, let scalar = Unicode.Scalar(v) else { return }
            scalars.append(scalar)
            count += 1
        }
        var bytes: [UInt8] = []
        func flush() {
            if !bytes.isEmpty { for u in String(decoding: bytes, as: UTF8.self).unicodeScalars { append(u.value) }; bytes.removeAll() }
        }
        while k < body.count, body[k] != UInt8(ascii: "\"") {
            if body[k] == UInt8(ascii: "\\"), k + 1 < body.count {
                flush()
                let e = body[k + 1]
                if e == UInt8(ascii: "u"), let v = hex(k + 2) {
                    k += 6
                    if (0xD800..<0xDC00).contains(v) { pendingHigh = v; continue }
                    if (0xDC00..<0xE000).contains(v), let high = pendingHigh {
                        append(0x10000 + ((high - 0xD800) << 10) + (v - 0xDC00))
                    } else {
                        append(v)
                    }
                    pendingHigh = nil
                    continue
                }
                pendingHigh = nil
                switch e {
                case UInt8(ascii: "n"): append(0x0A)
                case UInt8(ascii: "t"): append(0x09)
                case UInt8(ascii: "r"): append(0x0D)
                case UInt8(ascii: "b"): append(0x08)
                case UInt8(ascii: "f"): append(0x0C)
                default: append(UInt32(e))
                }
                k += 2
                continue
            }
            pendingHigh = nil
            if count + bytes.count < 1024 { bytes.append(body[k]) }
            k += 1
        }
        flush()
        return (String(scalars), k + 1)
    }
    func blanks(_ from: Int) -> Int {
        var k = from
        while k < body.count, body[k] == UInt8(ascii: " ") || body[k] == UInt8(ascii: "\t") || body[k] == UInt8(ascii: "\n") || body[k] == UInt8(ascii: "\r") { k += 1 }
        return k
    }
    while i < body.count {
        let b = body[i]
        switch b {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            if depth == 1 { keyAt1 = lastKey } else if depth == 2 { keyAt2 = lastKey }
            lastKey = nil
            depth += 1
            i += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            lastKey = nil
            depth -= 1
            i += 1
        case UInt8(ascii: "\""):
            let (text, next) = string(i)
            i = next
            var k = blanks(i)
            // A string value, not a key.
            guard k < body.count, body[k] == UInt8(ascii: ":") else { lastKey = nil; continue }
            lastKey = text
            let isURI = depth == 3 && text == "uri" && keyAt1 == "params" && keyAt2 == "textDocument"
            guard depth == 1 && (text == "id" || text == "method") || isURI else { continue }
            k = blanks(k + 1)
            guard k < body.count else { continue }
            if body[k] == UInt8(ascii: "\"") {
                let (value, after) = string(k)
                if isURI { document = value } else if text == "id" { id = .string(value) } else { method = value }
                lastKey = nil
                i = after
            } else if text == "id" {
                var end = k
                while end < body.count, body[end] == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(body[end]) { end += 1 }
                id = Int(String(decoding: body[k..<end], as: UTF8.self)).map(RequestID.number)
                i = end
            } else {
                i = k
            }
        default: i += 1
        }
    }
    return (id, method, document)
}

/// Frames a JSON body for the wire.
func frame(_ body: [UInt8]) -> [UInt8] {
    Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
}
