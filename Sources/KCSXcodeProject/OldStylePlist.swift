import KCSSyntax

/// A value of an old-style (OpenStep) property list, the format of
/// `project.pbxproj`, with the line and column where it was written.
///
/// Foundation's `PropertyListSerialization` reads this format on Linux too,
/// but it gives no positions (a warning must name its line) and no bound on
/// nesting, so the project reader uses this small parser instead.
public struct PlistNode: Sendable, Hashable {
    public indirect enum Kind: Sendable, Hashable {
        case string(String)
        case data([UInt8])
        case array([PlistNode])
        /// Entries in file order; a repeated key keeps its last value in ``subscript(_:)``.
        case dictionary([PlistEntry])
    }

    public var kind: Kind
    /// 1-based line and column of the value's first character.
    public var line: Int
    public var column: Int

    public init(_ kind: Kind, line: Int, column: Int) {
        self.kind = kind
        self.line = line
        self.column = column
    }

    public var string: String? {
        if case .string(let s) = kind { return s }
        return nil
    }

    public var array: [PlistNode]? {
        if case .array(let a) = kind { return a }
        return nil
    }

    public var entries: [PlistEntry]? {
        if case .dictionary(let d) = kind { return d }
        return nil
    }

    /// The value under `key` in a dictionary (the last one if repeated).
    public subscript(_ key: String) -> PlistNode? {
        entries?.last { $0.key == key }?.value
    }

    /// The strings of an array value, or a single string as a one-element list
    /// (build settings may be written either way).
    public var strings: [String]? {
        if let s = string { return [s] }
        return array?.compactMap(\.string)
    }
}

/// One `key = value;` of a dictionary.
public struct PlistEntry: Sendable, Hashable {
    public var key: String
    public var keyLine: Int
    public var value: PlistNode
}

/// Why an old-style property list could not be read, and where.
public struct PlistError: Error, Sendable, Hashable {
    public var message: String
    public var line: Int
    public var column: Int
    public var hint: String?
}

/// Parses the old-style property list format: `{ key = value; }`
/// dictionaries, `( a, b, )` arrays, `<0fab>` data, quoted strings with
/// escapes, unquoted strings, `//` and `/* */` comments.
public struct OldStylePlistParser {
    /// Real projects nest about six levels; far deeper input is hostile.
    public static let maxDepth = 100

    private let bytes: [UInt8]
    private var i = 0
    private var line = 1
    private var lineStart = 0
    /// Asked every ``checkEvery`` values: true stops the parse (a run's
    /// time limit passed).
    private let isLate: (() -> Bool)?
    private var values = 0
    package static let checkEvery = 1 << 12

    private init(_ bytes: [UInt8], isLate: (() -> Bool)?) {
        self.bytes = bytes
        self.isLate = isLate
    }

    /// The single value the text holds (comments and blanks around it
    /// allowed). `isLate`, asked as the parse goes, stops it with an error
    /// when it says the time limit has passed.
    public static func parse(_ bytes: [UInt8], isLate: (() -> Bool)? = nil) -> Result<PlistNode, PlistError> {
        var p = OldStylePlistParser(bytes, isLate: isLate)
        do throws(PlistError) {
            try p.skip()
            let node = try p.value(depth: 0)
            try p.skip()
            if p.i < p.bytes.count { throw p.error("unexpected text after the property list") }
            return .success(node)
        } catch {
            return .failure(error)
        }
    }

    private var column: Int { i - lineStart + 1 }

    private func error(_ message: String, hint: String? = nil) -> PlistError {
        PlistError(message: message, line: line, column: column, hint: hint)
    }

    private mutating func advance() {
        if LineBreaks.ends(bytes, at: i) {
            line += 1
            lineStart = i + 1
        }
        i += 1
    }

    /// Skips blanks and comments.
    private mutating func skip() throws(PlistError) {
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C || c == 0x0B {
                advance()
            } else if c == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") {
                while i < bytes.count, bytes[i] != 0x0A, bytes[i] != 0x0D { advance() }
            } else if c == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "*") {
                let start = error("unterminated comment", hint: "a /* comment needs its */")
                advance(); advance()
                while true {
                    guard i < bytes.count else { throw start }
                    if bytes[i] == UInt8(ascii: "*"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") {
                        advance(); advance()
                        break
                    }
                    advance()
                }
            } else {
                return
            }
        }
    }

    private mutating func value(depth: Int) throws(PlistError) -> PlistNode {
        guard depth < Self.maxDepth else {
            throw error("the property list nests more than \(Self.maxDepth) levels deep")
        }
        guard i < bytes.count else { throw error("the property list ends where a value was expected") }
        values += 1
        if values % Self.checkEvery == 0, let isLate, isLate() { throw error("the time limit passed while the property list was parsed") }
        let (l, c) = (line, column)
        switch bytes[i] {
        case UInt8(ascii: "{"):
            advance()
            var entries: [PlistEntry] = []
            while true {
                try skip()
                guard i < bytes.count else { throw error("the property list ends inside a dictionary", hint: "a { needs its }") }
                if bytes[i] == UInt8(ascii: "}") { advance(); break }
                let keyLine = line
                guard let key = try stringValue() else { throw error("expected a key or '}', found \(found)") }
                try skip()
                try expect("=", "after the key '\(key)'")
                try skip()
                let v = try value(depth: depth + 1)
                try skip()
                try expect(";", "after the value of '\(key)'")
                entries.append(PlistEntry(key: key, keyLine: keyLine, value: v))
            }
            return PlistNode(.dictionary(entries), line: l, column: c)
        case UInt8(ascii: "("):
            advance()
            var items: [PlistNode] = []
            while true {
                try skip()
                guard i < bytes.count else { throw error("the property list ends inside an array", hint: "a ( needs its )") }
                if bytes[i] == UInt8(ascii: ")") { advance(); break }
                items.append(try value(depth: depth + 1))
                try skip()
                guard i < bytes.count else { throw error("the property list ends inside an array", hint: "a ( needs its )") }
                if bytes[i] == UInt8(ascii: ",") { advance(); continue }
                if bytes[i] != UInt8(ascii: ")") { throw error("expected ',' or ')' in an array, found \(found)") }
            }
            return PlistNode(.array(items), line: l, column: c)
        case UInt8(ascii: "<"):
            advance()
            var data: [UInt8] = []
            var high: UInt8?
            while true {
                guard i < bytes.count else { throw error("the property list ends inside <data>", hint: "<hex digits> ends with >") }
                let b = bytes[i]
                if b == UInt8(ascii: ">") { advance(); break }
                if b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D { advance(); continue }
                guard let v = Self.hexValue(b) else { throw error("expected a hex digit or '>' in <data>, found \(found)") }
                if let h = high { data.append(h << 4 | v); high = nil } else { high = v }
                advance()
            }
            if high != nil { throw PlistError(message: "<data> has an odd number of hex digits", line: l, column: c, hint: nil) }
            return PlistNode(.data(data), line: l, column: c)
        default:
            guard let s = try stringValue() else { throw error("expected a value, found \(found)") }
            return PlistNode(.string(s), line: l, column: c)
        }
    }

    private var found: String {
        guard i < bytes.count else { return "the end of the file" }
        let b = bytes[i]
        return b >= 0x21 && b < 0x7F ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x" + String(b, radix: 16, uppercase: true)
    }

    private mutating func expect(_ c: Character, _ context: String) throws(PlistError) {
        guard i < bytes.count, let a = c.asciiValue, bytes[i] == a else {
            throw error("expected '\(c)' \(context), found \(found)")
        }
        advance()
    }

    /// A quoted or unquoted string, or nil if neither starts here.
    private mutating func stringValue() throws(PlistError) -> String? {
        guard i < bytes.count else { return nil }
        if bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") { return try quoted(bytes[i]) }
        let start = i
        while i < bytes.count, Self.isUnquoted(bytes[i]) { advance() }
        guard i > start else { return nil }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    /// The characters an unquoted string may hold.
    static func isUnquoted(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
            || b == UInt8(ascii: "_") || b == UInt8(ascii: "$") || b == UInt8(ascii: "+") || b == UInt8(ascii: "/")
            || b == UInt8(ascii: ":") || b == UInt8(ascii: ".") || b == UInt8(ascii: "-")
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }

    private mutating func quoted(_ quote: UInt8) throws(PlistError) -> String {
        let start = error("unterminated string", hint: "a string opened with \(Character(Unicode.Scalar(quote))) must be closed on the same value")
        advance()
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw start }
            let b = bytes[i]
            if b == quote { advance(); break }
            if b != UInt8(ascii: "\\") {
                out.append(b)
                advance()
                continue
            }
            advance()
            guard i < bytes.count else { throw start }
            let e = bytes[i]
            advance()
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "a"): out.append(0x07)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "v"): out.append(0x0B)
            case UInt8(ascii: "U"), UInt8(ascii: "u"):
                var v: UInt32 = 0
                var n = 0
                while n < 4, i < bytes.count, let d = Self.hexValue(bytes[i]) { v = v << 4 | UInt32(d); advance(); n += 1 }
                guard n > 0, let scalar = Unicode.Scalar(v) else { throw error("'\\u' needs 1 to 4 hex digits naming a character") }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            case 0x30...0x37:
                var v = UInt32(e - 0x30)
                var n = 1
                while n < 3, i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x37 { v = v << 3 | UInt32(bytes[i] - 0x30); advance(); n += 1 }
                out.append(UInt8(truncatingIfNeeded: v))
            default: out.append(e)  // \\, \", \' and any other character stand for themselves
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
