#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A stored, searchable attribute of an item (`kSecAttr…`).
///
/// Access group, synchronizable, accessibility, access control and data are
/// not here: the engine treats them as the item's own fields because the
/// rules for them differ from plain equality matching.
public enum ItemAttribute: UInt8, Sendable, Hashable, CaseIterable, Comparable {
    case service, account, label, generic, comment, description, creator, type
    case server, `protocol`, port, path, securityDomain, authenticationType
    case certificateType, issuer, serialNumber, publicKeyHash
    case keyClass, applicationLabel, applicationTag, keyType, keySizeInBits, effectiveKeySize
    case startDate, endDate

    public static func < (a: ItemAttribute, b: ItemAttribute) -> Bool { a.rawValue < b.rawValue }

    /// The Security framework's constant name.
    public var constantName: String {
        switch self {
        case .service: "kSecAttrService"
        case .account: "kSecAttrAccount"
        case .label: "kSecAttrLabel"
        case .generic: "kSecAttrGeneric"
        case .comment: "kSecAttrComment"
        case .description: "kSecAttrDescription"
        case .creator: "kSecAttrCreator"
        case .type: "kSecAttrType"
        case .server: "kSecAttrServer"
        case .protocol: "kSecAttrProtocol"
        case .port: "kSecAttrPort"
        case .path: "kSecAttrPath"
        case .securityDomain: "kSecAttrSecurityDomain"
        case .authenticationType: "kSecAttrAuthenticationType"
        case .certificateType: "kSecAttrCertificateType"
        case .issuer: "kSecAttrIssuer"
        case .serialNumber: "kSecAttrSerialNumber"
        case .publicKeyHash: "kSecAttrPublicKeyHash"
        case .keyClass: "kSecAttrKeyClass"
        case .applicationLabel: "kSecAttrApplicationLabel"
        case .applicationTag: "kSecAttrApplicationTag"
        case .keyType: "kSecAttrKeyType"
        case .keySizeInBits: "kSecAttrKeySizeInBits"
        case .effectiveKeySize: "kSecAttrEffectiveKeySize"
        case .startDate: "kSecAttrStartDate"
        case .endDate: "kSecAttrEndDate"
        }
    }

    /// What kind of value the attribute takes.
    public var valueKind: AttributeValueKind {
        switch self {
        // Number columns (SecItemSchema.c): `crtr` and a password's `type`
        // too (lines 100, 105, 158). A key's creator is part of its primary
        // key with the default 0 (line 158), so `creator=0` and no creator
        // are one key (conformance audit 15, F3).
        case .port, .keySizeInBits, .effectiveKeySize, .certificateType, .creator, .type: .integer
        // Date columns (`sdat`, `edat`, lines 141-142): a device takes a
        // CFDate only (SecDbItem.c `copyDate`, line 154; anything else is
        // errSecItemInvalidValue, that is errSecParam). Conformance audit 15, F4.
        case .startDate, .endDate: .date
        case .protocol: .enumerated(Self.protocols)
        case .authenticationType: .enumerated(Self.authenticationTypes)
        case .keyClass: .enumerated(Self.keyClasses)
        case .keyType: .enumerated(Self.keyTypes)
        default: .string
        }
    }

    /// The type of the attribute's SQLite column on a device
    /// (SecItemSchema.c: `Blob` lines 84, 103-104, 111-114, 116-117,
    /// 119-120, 138; `Data` lines 125-127, 129, 137; `Number` lines 100,
    /// 105, 118, 121, 123, 133, 139-140, 157-158; `Date` lines 141-142).
    /// What a column keeps of a value the SecItem API gives, and how two
    /// values compare, follow from it (``AttributeValue``).
    public var column: AttributeColumn {
        switch self {
        case .issuer, .serialNumber, .publicKeyHash, .applicationLabel: .data
        case .startDate, .endDate: .date
        case .creator, .type, .protocol, .port, .certificateType, .keyClass, .keyType, .keySizeInBits,
             .effectiveKeySize: .number
        case .service, .account, .label, .generic, .comment, .description, .server, .path, .securityDomain,
             .authenticationType, .applicationTag: .blob
        }
    }

    /// The classes an attribute belongs to (SecItemSchema.c).
    /// The attribute a class reads this one as. kSecAttrType and
    /// kSecAttrKeyType are one dictionary key, "type" (SecItemConstants.c
    /// lines 51 and 82), and `SecDbAttrWithKey` (SecItemDb.c) looks it up
    /// in the class's columns: a password's type, a key's key type (an
    /// identity's too: its certificate has no such column).
    public func sharingKey(in itemClass: ItemClass) -> ItemAttribute {
        switch (self, itemClass) {
        case (.type, .key), (.type, .identity): .keyType
        case (.keyType, .genericPassword), (.keyType, .internetPassword): .type
        default: self
        }
    }

    public func applies(to itemClass: ItemClass) -> Bool {
        switch self {
        case .label: return true
        case .service, .generic: return itemClass == .genericPassword
        case .account, .comment, .description, .type:
            return itemClass == .genericPassword || itemClass == .internetPassword
        case .creator:
            // kSecAttrCreator is a password attribute and part of a key's primary key.
            return itemClass != .certificate
        case .server, .protocol, .port, .path, .securityDomain, .authenticationType:
            return itemClass == .internetPassword
        case .certificateType, .issuer, .serialNumber, .publicKeyHash:
            return itemClass == .certificate || itemClass == .identity
        case .keyClass, .applicationLabel, .applicationTag, .keyType, .keySizeInBits,
             .effectiveKeySize, .startDate, .endDate:
            return itemClass == .key || itemClass == .identity
        }
    }

    /// Whether a key reference's attributes hold it (SecKey.m lines 130-152:
    /// kcls, klbl, type, bsiz, esiz and the usage flags): what an identity
    /// add may say of its key beside the certificate's attributes.
    public var keyReferenceCarries: Bool {
        switch self {
        case .keyClass, .applicationLabel, .keyType, .keySizeInBits, .effectiveKeySize: true
        default: false
        }
    }

    /// Whether the Mac's file keychain reads this attribute for the class:
    /// its tables (SecItem.cpp gGenericPasswordAttributes, the internet
    /// password builder, gCertificateAttributes, gKeyAttributes) hold each
    /// class's own, but a key's table leaves out its creator and dates
    /// ("not yet exposed by SecItem", lines 401-415).
    public func inFileKeychainTable(of itemClass: ItemClass) -> Bool {
        guard applies(to: itemClass) else { return false }
        if itemClass == .key { return self != .creator && self != .startDate && self != .endDate }
        return true
    }

    /// `kSecAttrProtocol…` values: short name and constant name.
    public static let protocols: [EnumeratedValue] = [
        ("ftp", "FTP"), ("ftp-account", "FTPAccount"), ("http", "HTTP"), ("irc", "IRC"),
        ("nntp", "NNTP"), ("pop3", "POP3"), ("smtp", "SMTP"), ("socks", "SOCKS"), ("imap", "IMAP"),
        ("ldap", "LDAP"), ("appletalk", "AppleTalk"), ("afp", "AFP"), ("telnet", "Telnet"),
        ("ssh", "SSH"), ("ftps", "FTPS"), ("https", "HTTPS"), ("http-proxy", "HTTPProxy"),
        ("https-proxy", "HTTPSProxy"), ("ftp-proxy", "FTPProxy"), ("smb", "SMB"), ("rtsp", "RTSP"),
        ("rtsp-proxy", "RTSPProxy"), ("daap", "DAAP"), ("eppc", "EPPC"), ("ipp", "IPP"),
        ("nntps", "NNTPS"), ("ldaps", "LDAPS"), ("telnets", "TelnetS"), ("imaps", "IMAPS"),
        ("ircs", "IRCS"), ("pop3s", "POP3S"),
    ].map { EnumeratedValue(short: $0.0, constant: "kSecAttrProtocol" + $0.1) }

    /// `kSecAttrAuthenticationType…` values.
    public static let authenticationTypes: [EnumeratedValue] = [
        ("ntlm", "NTLM"), ("msn", "MSN"), ("dpa", "DPA"), ("rpa", "RPA"),
        ("http-basic", "HTTPBasic"), ("http-digest", "HTTPDigest"), ("html-form", "HTMLForm"),
        ("default", "Default"),
    ].map { EnumeratedValue(short: $0.0, constant: "kSecAttrAuthenticationType" + $0.1) }

    /// `kSecAttrKeyClass…` values, with the strings SecItemConstants.c
    /// gives them (Security-61901.0.87.0.1, lines 237-239).
    public static let keyClasses: [EnumeratedValue] = EnumeratedValue.list("kSecAttrKeyClass", [
        ("public", "Public", "0"), ("private", "Private", "1"), ("symmetric", "Symmetric", "2"),
    ])

    /// `kSecAttrKeyType…` values, with their strings (SecItemConstants.c
    /// lines 242-244): kSecAttrKeyTypeEC and kSecAttrKeyTypeECSECPrimeRandom
    /// are both "73", one key type under two names.
    public static let keyTypes: [EnumeratedValue] = EnumeratedValue.list("kSecAttrKeyType", [
        ("rsa", "RSA", "42"), ("ec", "EC", "73"), ("ec-secp-random", "ECSECPrimeRandom", "73"),
    ])
}

/// One value of an enumerated attribute: its short name and framework constant.
public struct EnumeratedValue: Sendable, Hashable {
    public var short: String
    public var constant: String
    /// The short name the value is stored and compared under: its own, or
    /// that of the first value of its list whose constant is the same
    /// string (`ec-secp-random` is stored as `ec`).
    public var stored: String
    /// The constant's string in SecItemConstants.c, where kcs records it
    /// (key classes and key types: "42" is RSA).
    public var value: String?

    public init(short: String, constant: String, stored: String? = nil, value: String? = nil) {
        self.short = short
        self.constant = constant
        self.stored = stored ?? short
        self.value = value
    }

    /// Values from (short name, constant suffix, the constant's string).
    static func list(_ prefix: String, _ rows: [(String, String, String)]) -> [EnumeratedValue] {
        rows.map { row in
            let first = rows.first { $0.2 == row.2 }?.0
            return EnumeratedValue(short: row.0, constant: prefix + row.1, stored: first, value: row.2)
        }
    }
}

/// The type a device's schema gives an attribute's column
/// (SecItemSchema.c `SECDB_ATTR(…, Blob|Data|Number|Date, …)`; SecItemDb.c
/// `SecDbGetKindSQL`, lines 102-128, declares them BLOB, BLOB, INTEGER and
/// REAL).
public enum AttributeColumn: Sendable, Hashable {
    /// `copyBlob` (SecDbItem.c lines 108-119) keeps a CFData, a CFString or
    /// a CFNumber as it is, and SQLite converts nothing in a BLOB column:
    /// text, bytes and a number are three kinds of value.
    case blob
    /// `copyData` (SecDbItem.c lines 84-105) turns a CFString into its
    /// UTF-8 bytes: a String and a Data with the same bytes are one value.
    case data
    /// `copyNumber` (SecDbItem.c lines 131-151) reads a string that prints
    /// back as the same Int32 as that number and keeps any other string.
    case number
    /// `copyDate` (SecDbItem.c lines 154-160) takes a CFDate only.
    case date
}

/// The kind of value an attribute takes.
public enum AttributeValueKind: Sendable, Hashable {
    case string
    case integer
    /// An instant (`2025-01-31` or `2025-01-31T12:00:00Z`, UTC).
    case date
    /// One of a fixed set, stored by short name.
    case enumerated([EnumeratedValue])
}

/// A stored attribute value. Enumerated values are stored by short name.
///
/// Strings compare as their UTF-8 bytes, not as Unicode-equivalent text:
/// securityd binds a CFString attribute as UTF-8 text (SecDbItem.c
/// `SecDbBindObject`) and SQLite's default BINARY collation compares bytes,
/// so "é" (U+00E9) and "e" + U+0301 are different accounts. Swift's `==` on
/// String would equate them; ``AttributeText`` is bytes.
///
/// A script writes every value as text (of kind ``AttributeText/Kind/text``).
/// The SecItem API (KCSSecItem) also gives the other kinds of text, which
/// keep the type a device stores, and numbers in Blob columns: a device
/// binds a CFString as TEXT and a CFData as a BLOB (`SecDbBindObject`,
/// OSX/utilities/SecDb.c lines 1575-1583), and SQLite never equates a TEXT
/// with a BLOB or either with an INTEGER, in a `WHERE` clause or in the
/// primary key's `UNIQUE` index (SecItemDb.c lines 131-136). So in a Blob column
/// (``AttributeColumn/blob``) `"alice"`, the bytes of "alice" and 42 are
/// three values (conformance audit 15, F1 and F2). Text keeps that type
/// as its ``AttributeText/Kind``, in the words it is compared by, so a
/// comparison costs what it did before values had types.
public enum AttributeValue: Sendable, Hashable, CustomStringConvertible {
    case string(AttributeText)
    case integer(Int)
    /// Seconds since 2001-01-01T00:00:00Z (CFAbsoluteTime, as a CFDate holds it).
    case date(Double)

    /// As a script writes it: a string in quotes with `\"` and `\\`, so a
    /// value holding a quote is not read as two attributes (found by
    /// adversarial testing); controls are escaped where text is printed.
    public var description: String { described(upTo: Int.max) }

    /// The same, for a message: a string past `limit` scalars is cut there,
    /// with its full length said, so an explanation costs what it prints (each
    /// candidate's 100 KB account was quoted whole to be cut at 1,000
    /// characters, 115 ms a failed expectation; adversarial run 24, F15).
    public func described(upTo limit: Int) -> String {
        switch self {
        case .string(let s):
            var out = "\""
            var n = 0
            let text = s.string
            for c in text.unicodeScalars {
                if n == limit {
                    out += "…\" (\(text.utf8.count) bytes)"
                    return out
                }
                n += 1
                if c == "\"" || c == "\\" { out.unicodeScalars.append("\\") }
                out.unicodeScalars.append(c)
            }
            out += "\""
            // No script writes the other kinds; a message tells them from text.
            switch s.kind {
            case .text: return out
            case .bytes: return "Data(" + out + ")"
            case .verbatim: return "String(" + out + ")"
            }
        case .integer(let i): return String(i)
        case .date(let seconds): return "\"" + Self.dateText(seconds) + "\""
        }
    }

    /// `2025-01-31T12:00:00Z` for an instant, a fraction of a second to the
    /// microsecond (`…:00.5Z`). An instant outside the years 0 to 9999, or
    /// no number at all (an API caller's NaN), is written as its seconds
    /// since 2001 (`"1e+19 s since 2001"`): such a date trapped on its way
    /// to an Int (found by adversarial testing).
    public static func dateText(_ seconds: Double) -> String {
        // Years 0 to 9999: -63,145,526,400 to 252,423,993,599 seconds since 2001.
        guard seconds.isFinite, seconds >= -63_145_526_400, seconds < 252_423_993_600 else { return "\(seconds) s since 2001" }
        var whole = seconds.rounded(.down)
        var micros = Int(((seconds - whole) * 1_000_000).rounded())
        if micros == 1_000_000 { whole += 1; micros = 0 }
        let total = Int(whole) + 978_307_200  // 2001-01-01 in Unix seconds
        let days = Int((Double(total) / 86_400).rounded(.down)), rest = total - days * 86_400
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468, era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097, yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1, month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func padded(_ n: Int, _ width: Int) -> String {
            let digits = String(n)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var text = "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T\(padded(rest / 3600, 2)):\(padded(rest / 60 % 60, 2)):\(padded(rest % 60, 2))"
        if micros > 0 {
            var fraction = padded(micros, 6)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    /// The instant `2025-01-31` or `2025-01-31T12:00:00Z` (UTC; the `Z` may
    /// be left out; a fraction of a second, `…:00.25Z`, is taken) names, as
    /// seconds since 2001; nil for any other text.
    public static func date(fromText text: String) -> Double? {
        let b = Array(text.utf8)
        func number(_ r: Range<Int>) -> Int? {
            guard r.upperBound <= b.count, r.allSatisfy({ (0x30...0x39).contains(b[$0]) }) else { return nil }
            return r.reduce(0) { $0 * 10 + Int(b[$1] - 0x30) }
        }
        guard b.count >= 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              (1...12).contains(month), day >= 1 else { return nil }
        var (hour, minute, second) = (0, 0, 0)
        var fraction = 0.0
        if b.count > 10 {
            let end = b.last == UInt8(ascii: "Z") ? b.count - 1 : b.count
            guard end >= 19, b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
                  let h = number(11..<13), let m = number(14..<16), let s = number(17..<19),
                  h < 24, m < 60, s < 60 else { return nil }
            (hour, minute, second) = (h, m, s)
            // A fraction of a second, as ``dateText(_:)`` writes one (`…:00.5Z`).
            if end > 19 {
                guard b[19] == UInt8(ascii: "."), end - 20 >= 1, end - 20 <= 9, let digits = number(20..<end) else { return nil }
                fraction = Double(digits) / pow10(end - 20)
            }
        }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day <= lengths[month - 1] else { return nil }
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year, era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400, mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1, doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - 978_307_200) + fraction
    }

    private static func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { r, _ in r * 10 } }

    /// A string given for a number attribute, as securityd's `copyNumber`
    /// (SecDbItem.c line 131) reads it: `CFStringGetIntValue`, kept only
    /// when the number prints back as the same text, so "443" is 443 and
    /// "0443", "+1" or "4e2" are not numbers (a device keeps them as text,
    /// which SQLite reads as a number: ``sqliteReadsAsNumber(_:)``; kcs
    /// refuses them).
    public static func number(fromText text: String) -> Int? {
        guard let n = Int32(text), String(n) == text else { return nil }
        return Int(n)
    }

    /// Whether SQLite's INTEGER affinity turns this text into a number when
    /// it is stored or compared in a Number column (sqlite3AtoF: optional
    /// spaces, a sign, digits with an optional point, an optional exponent,
    /// spaces; hexadecimal is not read). A string ``number(fromText:)``
    /// does not take but this does ("0443", "+1", "1.5") is a number on a
    /// device that kcs does not model.
    public static func sqliteReadsAsNumber(_ text: String) -> Bool {
        let b = Array(text.utf8)
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || (0x09...0x0D).contains(c) }
        func isDigit(_ c: UInt8) -> Bool { (0x30...0x39).contains(c) }
        var i = 0, end = b.count
        while i < end, isSpace(b[i]) { i += 1 }
        while end > i, isSpace(b[end - 1]) { end -= 1 }
        if i < end, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
        var digits = 0
        while i < end, isDigit(b[i]) { i += 1; digits += 1 }
        if i < end, b[i] == UInt8(ascii: ".") {
            i += 1
            while i < end, isDigit(b[i]) { i += 1; digits += 1 }
        }
        guard digits > 0 else { return false }
        if i < end, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < end, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            var exponent = 0
            while i < end, isDigit(b[i]) { i += 1; exponent += 1 }
            guard exponent > 0 else { return false }
        }
        return i == end
    }

    /// The value a primary-key attribute the add left out has: the empty
    /// string or zero, as `query_pre_add` (SecItemDb.c) fills in the columns
    /// SecItemSchema.c marks not-null with a default. The key class's
    /// default is 0, kSecAttrKeyClassPublic (SecItemSchema.c line 133,
    /// SecItemConstants.c line 237). The default follows the column, not the
    /// constants: an internet password's protocol (`ptcl`) and a key's type
    /// (`type`) are number columns defaulting to 0 (SecItemSchema.c lines
    /// 118 and 157, `Z`; `query_pre_add` stores the CFNumber 0, SecItemDb.c
    /// lines 1243-1275), though their constants are strings; the
    /// authentication type (`atyp`, a blob, line 119) is the empty string
    /// (conformance audit 20, F3). An attribute outside the key has no
    /// default (``StoredItem/comparedValue(_:)``).
    public static func absent(for attribute: ItemAttribute) -> AttributeValue {
        if attribute == .keyClass { return .string(AttributeText(ItemAttribute.keyClasses[0].stored)) }
        if attribute == .protocol || attribute == .keyType { return .integer(0) }
        switch attribute.valueKind {
        case .integer: return .integer(0)
        // A key's dates default to zero too (`Z`, SecItemSchema.c lines 141-142).
        case .date: return .date(0)
        case .string, .enumerated: return .string(AttributeText())
        }
    }
}

/// A string attribute's value as its UTF-8 bytes, compared and hashed as
/// bytes (see ``AttributeValue``).
///
/// Plain data: two words and no reference, so an attribute list's entries,
/// a request and a stored item copy and free as bytes (a text that held a
/// reference, null or not, was retained on every copy of its entry and
/// released on every free, and an array of entries was freed by the
/// runtime's generic destroy). Made from a script's bytes without a
/// String: up to 15 bytes are held in place in the two words, as most
/// services and accounts are; a longer text is interned in the process's
/// table (``Interned``) and named there by a number, so two texts are equal
/// exactly when their words are, at any length, and making one, comparing
/// two or fingerprinting one for the keychain's tables is a few word
/// operations.
public struct AttributeText: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// Held in place: bytes 0-7 and 8-14 (little-endian, zero-padded), and
    /// the count (0…15) in the low four bits of `w1`'s top byte. Interned:
    /// the text's number in ``Interned`` in `w0`, its count in `w1`'s low
    /// 56 bits, and `longMark` in the top byte. The ``Kind`` is in bits 4-5
    /// of the top byte either way.
    let w0: UInt64
    let w1: UInt64

    private static let longMark: UInt64 = 0x80
    /// The most bytes held in place; a longer text is interned (and costs a
    /// lookup in the process's table to make). Inlinable: the lowering asks
    /// it of every value it reads.
    @inlinable public static var inlineCapacity: Int { 15 }

    /// What a device stored the value as (``AttributeValue``). Part of the
    /// words, so texts of two kinds are unequal and hash apart with no
    /// further test. A script's values are all `.text`.
    public enum Kind: UInt8, Sendable {
        /// A CFString bound as TEXT (`SecDbBindObject`, SecDb.c lines
        /// 1575-1577), and every value a script writes.
        case text = 0
        /// A non-empty CFData a Blob column keeps as bytes (`copyBlob`,
        /// SecDbItem.c lines 108-119), bound as a BLOB (SecDb.c lines
        /// 1578-1581). SecItem API only.
        case bytes = 1
        /// A CFString kept as it is where kcs's own values are not text: in
        /// a Number column a string that is no number (`copyNumber`,
        /// SecDbItem.c lines 139-147: "If a string converted to an int
        /// isn't equal to the int printed as a string, return a CFStringRef
        /// instead"), and in an enumerated attribute a string that is none
        /// of its constants (`kSecAttrProtocol: "https"`; a script's value
        /// there is a constant's short name). SecItem API only.
        case verbatim = 2
    }

    /// The texts longer than 15 bytes the process has made, each held once
    /// and named by its number (from 0, in the order first made), for the
    /// life of the process. One table for every script, world, REPL line,
    /// included file, Markdown block and SecItem-API call, so a value made
    /// in one and compared in another is the same number; behind a lock,
    /// since `kcs check` runs files on several threads.
    ///
    /// What it holds is bounded by the distinct long texts the process was
    /// given, each once whatever the number of copies, items or runs: a
    /// batch run ends; a REPL session keeps every input anyway (`:undo`
    /// replays them), and its table is no larger than those inputs; the
    /// language server runs each version of a document, so the table grows
    /// by the long texts an edit makes new (typing a 40-byte value one key
    /// at a time adds 25 texts, about 2 KB with their slots), not by the
    /// document's size per change. No text is ever freed: an interned
    /// number is valid wherever a copy of the text went.
    enum Interned {
        /// The table itself (one per process in ``table``; tests make their own).
        struct Table {
            /// Each text's bytes, by number.
            private(set) var texts: [[UInt8]] = []
            /// Open addressing on a hash of the bytes: a text's number + 1,
            /// 0 for none; at most half full. A lookup of a text already
            /// there allocates nothing (a dictionary keyed by `[UInt8]`
            /// made an array of the bytes for every lookup).
            private var slots = [UInt32](repeating: 0, count: 64)
            private(set) var bytes = 0

            /// SipHash under the process's random seed (`Hasher`), so which
            /// texts share a slot cannot be worked out ahead of a run: on an
            /// unseeded hash crafted texts filled one run of slots, and each
            /// insert probed the whole run (60,000 of them took 98 s).
            static func hash(_ b: UnsafeBufferPointer<UInt8>) -> Int {
                var h = Hasher()
                h.combine(bytes: UnsafeRawBufferPointer(b))
                return h.finalize()
            }

            /// The slots walked past, summed over the texts: what finding
            /// every text again costs beyond one slot each (for tests).
            var displacement: Int {
                let mask = slots.count - 1
                var sum = 0
                for (i, s) in slots.enumerated() where s != 0 {
                    let home = texts[Int(s - 1)].withUnsafeBufferPointer { Self.hash($0) } & mask
                    sum += (i - home) & mask
                }
                return sum
            }

            mutating func number(of b: UnsafeBufferPointer<UInt8>) -> UInt64 {
                var mask = slots.count - 1
                var i = Self.hash(b) & mask
                while slots[i] != 0 {
                    let n = Int(slots[i] - 1)
                    // memcmp: `elementsEqual` went element by element through
                    // an iterator, some 800 instructions a 30-byte text.
                    if texts[n].withUnsafeBufferPointer({
                        $0.count == b.count && ($0.isEmpty || memcmp($0.baseAddress!, b.baseAddress!, b.count) == 0)
                    }) { return UInt64(n) }
                    i = (i + 1) & mask
                }
                let n = texts.count
                precondition(n < Int(UInt32.max) - 1, "more long texts than a table holds")
                texts.append(Array(b))
                bytes += b.count
                if (n + 1) * 2 > slots.count {
                    slots = [UInt32](repeating: 0, count: slots.count * 2)
                    mask = slots.count - 1
                    for (m, t) in texts.enumerated() {
                        var j = t.withUnsafeBufferPointer { Self.hash($0) } & mask
                        while slots[j] != 0 { j = (j + 1) & mask }
                        slots[j] = UInt32(m + 1)
                    }
                } else {
                    slots[i] = UInt32(n + 1)
                }
                return UInt64(n)
            }
        }
        private static let table = Locked(Table())

        /// The number of `b`'s bytes, interned now if they are new.
        static func number(of b: UnsafeBufferPointer<UInt8>) -> UInt64 { table.withLock { $0.number(of: b) } }

        /// The bytes numbered `n`.
        static func bytes(_ n: UInt64) -> [UInt8] { table.withLock { $0.texts[Int(n)] } }

        /// How many texts the table holds, and their bytes (for measurements).
        static var count: Int { table.withLock { $0.texts.count } }
        static var byteCount: Int { table.withLock { $0.bytes } }
    }

    /// The empty text.
    public init() {
        w0 = 0
        w1 = 0
    }

    /// The UTF-8 bytes of `string`.
    public init(_ string: String) {
        var s = string
        self = s.withUTF8 { AttributeText(bytes: $0) }
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// These bytes (a script's, as written between quotes), as text.
    public init(bytes b: UnsafeBufferPointer<UInt8>) {
        let n = b.count
        if n > Self.inlineCapacity {
            w0 = Interned.number(of: b)
            w1 = UInt64(n) | Self.longMark << 56
            return
        }
        var words: (UInt64, UInt64) = (0, 0)
        if n > 0 {
            withUnsafeMutableBytes(of: &words) { w in w.copyMemory(from: UnsafeRawBufferPointer(b)) }
        }
        w0 = UInt64(littleEndian: words.0)
        w1 = UInt64(littleEndian: words.1) | UInt64(n) << 56
    }

    /// These bytes, of `kind` (the SecItem API's; a script's text is made
    /// by ``init(bytes:)``, at no cost for the kind). Empty bytes are text
    /// whatever the kind: `SecDbBindObject` binds an empty CFData as the
    /// text '' (SecDb.c lines 1578-1582), so empty data and "" are one
    /// value (and one key).
    public init(bytes b: UnsafeBufferPointer<UInt8>, kind: Kind) {
        let text = AttributeText(bytes: b)
        w0 = text.w0
        w1 = b.isEmpty ? text.w1 : text.w1 | UInt64(kind.rawValue) << 60
    }

    /// The UTF-8 bytes of `string`, of `kind`.
    public init(_ string: String, kind: Kind) {
        var s = string
        self = s.withUTF8 { AttributeText(bytes: $0, kind: kind) }
    }

    /// Whether the bytes are held in place (15 or fewer).
    var isInline: Bool { w1 >> 63 == 0 }

    public var count: Int { isInline ? Int(w1 >> 56 & 0x0F) : Int(w1 & 0x00FF_FFFF_FFFF_FFFF) }

    /// What a device stored the value as.
    public var kind: Kind { Kind(rawValue: UInt8(truncatingIfNeeded: w1 >> 60 & 0x3)).unsafelyUnwrapped }
    public var isEmpty: Bool { count == 0 }

    /// Calls `body` with the bytes.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if !isInline { return try Interned.bytes(w0).withUnsafeBufferPointer(body) }
        var words = (w0.littleEndian, w1.littleEndian)
        let n = count
        return try withUnsafeBytes(of: &words) { raw in
            try raw.withMemoryRebound(to: UInt8.self) { try body(UnsafeBufferPointer(rebasing: $0[0..<n])) }
        }
    }

    /// Whether the bytes pass `test`: ``withBytes(_:)`` for a yes or no, not
    /// generic, so a caller in another module does not take the generic
    /// path (callgrind: some 770 instructions a call; lint asks it of every
    /// group a caller lacks).
    public func bytesPass(_ test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        withBytes(test)
    }

    /// The text as a String (invalid UTF-8 repaired), for messages and
    /// for hosts that want one.
    public var string: String { withBytes { String(decoding: $0, as: UTF8.self) } }
    public var description: String { string }

    public static func == (a: AttributeText, b: AttributeText) -> Bool { a.w0 == b.w0 && a.w1 == b.w1 }

    public func hash(into h: inout Hasher) {
        h.combine(w0)
        h.combine(w1)
    }
}

/// A small attribute set kept sorted by attribute: one allocation per item,
/// linear lookup over a handful of entries.
public struct AttributeList: Sendable, Hashable, Sequence {
    public private(set) var entries: [Entry]

    public struct Entry: Sendable, Hashable {
        public var attribute: ItemAttribute
        public var value: AttributeValue
    }

    public init() { entries = [] }

    public init(_ pairs: [(ItemAttribute, AttributeValue)]) {
        entries = []
        entries.reserveCapacity(pairs.count)
        for (a, v) in pairs { self[a] = v }
    }

    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }

    public subscript(attribute: ItemAttribute) -> AttributeValue? {
        get {
            for e in entries where e.attribute == attribute { return e.value }
            return nil
        }
        set {
            // Room for two with the first, as most calls name (service and
            // account): the next one is not a new allocation and copy
            // (callgrind: 680 instructions a call, growing the list), and a
            // stored item keeps no room it never uses (room for four held
            // 5 MB more, of 83, on the 200,000-call workload).
            if entries.isEmpty, newValue != nil { entries.reserveCapacity(2) }
            // Written in attribute order, as the lowering mostly meets them:
            // an append, with no search.
            if let newValue, entries.isEmpty || entries[entries.count - 1].attribute < attribute {
                entries.append(Entry(attribute: attribute, value: newValue))
                return
            }
            if let i = entries.firstIndex(where: { $0.attribute >= attribute }) {
                if entries[i].attribute == attribute {
                    if let newValue { entries[i].value = newValue } else { entries.remove(at: i) }
                } else if let newValue {
                    entries.insert(Entry(attribute: attribute, value: newValue), at: i)
                }
            } else if let newValue {
                entries.append(Entry(attribute: attribute, value: newValue))
            }
        }
    }

    /// The value used for primary keys and matching: absent means empty.
    public func effectiveValue(_ attribute: ItemAttribute) -> AttributeValue {
        self[attribute] ?? .absent(for: attribute)
    }

    // The call path reads values in place through these: `effectiveValue`
    // and the subscript return copies, and a copied string is retained.

    /// Where `attribute` sits in `entries`.
    func index(of attribute: ItemAttribute) -> Int? {
        for i in entries.indices where entries[i].attribute == attribute { return i }
        return nil
    }

    /// Whether the list has a value for `attribute`.
    func contains(_ attribute: ItemAttribute) -> Bool { index(of: attribute) != nil }

    /// Whether the list holds `value` for `attribute` (absent holds nothing).
    func holds(_ attribute: ItemAttribute, _ value: AttributeValue) -> Bool {
        guard let i = index(of: attribute) else { return false }
        return entries[i].value == value
    }

    /// Whether the effective value of `attribute` is `value`.
    func effectiveValue(_ attribute: ItemAttribute, is value: AttributeValue) -> Bool {
        guard let i = index(of: attribute) else { return value == .absent(for: attribute) }
        return entries[i].value == value
    }

    /// Whether two lists have the same effective value of `attribute`.
    func sameEffectiveValue(_ attribute: ItemAttribute, as other: AttributeList) -> Bool {
        switch (index(of: attribute), other.index(of: attribute)) {
        case let (i?, j?): entries[i].value == other.entries[j].value
        case let (i?, nil): entries[i].value == .absent(for: attribute)
        case let (nil, j?): other.entries[j].value == .absent(for: attribute)
        case (nil, nil): true
        }
    }

    public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }
}
