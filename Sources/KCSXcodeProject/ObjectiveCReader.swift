import struct KeychainEngine.Team

/// Names of Security's keychain API and of keychain wrappers, as the code
/// checks of Swift and Objective-C both count them.
public enum KeychainNames {
    /// Security's names that query or store keychain items: a `kSec…` key
    /// of a query or its value, not a key's type or size (`kSecAttrKeyTypeEC`
    /// describes a key, in memory or not) nor `kSecRandomDefault`.
    public static func isKeychainName(_ name: Substring) -> Bool {
        // On bytes, first byte first: every identifier of every file is
        // asked, and Foundation's `hasPrefix` went through `NSString` (63 %
        // of KCS604's scan; adversarial run 28, F9).
        let utf8 = name.utf8
        guard let first = utf8.first, first == 0x53 || first == 0x6B else { return false }
        if first == 0x53 { return utf8.starts(with: "SecItem".utf8) || utf8.starts(with: "SecAccessControl".utf8) }
        guard utf8.starts(with: "kSec".utf8) else { return false }
        let keyDescriptions = ["kSecAttrKeyType", "kSecAttrKeySizeInBits", "kSecAttrEffectiveKeySize", "kSecAttrKeyClass"]
        if keyDescriptions.contains(where: { utf8.starts(with: $0.utf8) }) { return false }
        let queryNames = ["kSecClass", "kSecAttr", "kSecReturn", "kSecMatch", "kSecValue", "kSecUse", "kSecPrivateKeyAttrs", "kSecPublicKeyAttrs"]
        return queryNames.contains { utf8.starts(with: $0.utf8) }
    }

    /// Whether `name` holds `word`, on bytes (``isKeychainName(_:)``).
    package static func holds(_ name: Substring, _ word: StaticString) -> Bool {
        let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        var name = name
        return name.withUTF8 { ByteSearch.contains($0, w) }
    }

    /// The keys that send a macOS call to the data-protection keychain
    /// (SecItem.cpp `SecItemCategorizeQuery`, lines 4095-4190).
    public static let dataProtectionKeys = ["kSecUseDataProtectionKeychain", "kSecAttrNoLegacy", "kSecAttrSharingGroup",
                                            "kSecUseSystemKeychainAlways", "kSecAttrTokenID", "kSecAttrSynchronizable",
                                            "kSecAttrAccessControl"]

    /// Whether a suite name given as a literal could be an app group:
    /// `group.…`, or `TEAMID.…` as on the Mac.
    public static func couldBeAppGroup(_ name: String) -> Bool {
        if name.hasPrefix("group.") { return true }
        return Team.withoutPrefix(name).map { !$0.isEmpty } ?? false
    }

    /// A name that looks like a keychain wrapper's (`KeychainSwift`, `Valet`, `SAMKeychain`).
    public static func isWrapperName(_ name: Substring) -> Bool {
        // Only a name holding `K`, `k` or `V` is searched, on bytes.
        guard name.utf8.contains(where: { $0 == 0x4B || $0 == 0x6B || $0 == 0x56 }) else { return false }
        return holds(name, "Keychain") || holds(name, "keychain") || holds(name, "KeyChain") || holds(name, "Valet")
    }
}

/// What one Objective-C file (`.m`, `.mm`, or a header it imports) says of
/// keychain groups and app groups, read token by token on its bytes: no
/// parser, one pass to tokens and one over them, linear in the file's size.
/// Comments and strings are skipped as such, so a comment naming the
/// keychain names nothing; `#if` branches are all read (both sides of a
/// `#if DEBUG` are code some build compiles).
///
/// Found: string constants (`NSString *const Group = @"group.x";`,
/// `static NSString * const`, `CFStringRef const … = CFSTR("…")`,
/// `#define GROUP @"group.x"`, joins of adjacent literals and macros,
/// `@MACRO` of a macro the build defines), the values passed as an access
/// group (`kSecAttrAccessGroup` as a key of `@{…}`, of `setObject:forKey:`,
/// of a subscript assignment, of `CFDictionarySetValue`, of
/// `dictionaryWithObjectsAndKeys:`) or as an app group
/// (`initWithSuiteName:`, `containerURLForSecurityApplicationGroupIdentifier:`),
/// and the names it declares and uses, for KCS604.
public struct ObjectiveCSource: Sendable {
    /// A piece of a value: a literal, or a name to look up (a constant, a macro).
    public enum Part: Sendable, Hashable {
        case literal(String)
        case name(String)
        /// `F(ARG)`, a function-like macro given one name: a string when `F`
        /// stringifies (``Stringifier``), else code.
        case call(String, argument: String)
    }

    /// A function-like macro of one parameter that makes a string of its
    /// argument: `#define S_(m) #m` (`direct`, the argument as written), or
    /// `#define S(m) @S_(m)` (`expanding` to `S_`, the argument's macro
    /// value: Orbot's `MACRO_STRING(APP_GROUP)`, `OS_STRINGIFY`).
    public enum Stringifier: Sendable, Hashable {
        case direct
        case expanding(String)
    }

    /// The SDK's stringifiers (`<os/base.h>`: `OS_STRINGIFY(s)` is
    /// `OS_STRINGIFY2(s)`, which is `#s`).
    public static let sdkStringifiers: [String: Stringifier] = ["OS_STRINGIFY": .expanding("OS_STRINGIFY2"), "OS_STRINGIFY2": .direct]

    /// A value as written: pieces joined (adjacent literals, macros), or
    /// code that builds it at run time, said as written (cut at 80 bytes).
    public enum Expression: Sendable, Hashable {
        case parts([Part])
        case runtime(String)
        /// A parameter of the method or function around the use, with that
        /// method's or function's name (`-[Store initWithGroup:]`).
        case parameter(String, of: String)
        /// The main bundle's Info.plist value at a key, a literal or a name
        /// (`[[NSBundle mainBundle] objectForInfoDictionaryKey:@"K"]`), read
        /// as Swift's `Bundle.main.object(forInfoDictionaryKey:)` is.
        case infoPlist(Part)
    }

    public struct Constant: Sendable {
        public var expression: Expression
        public var line: Int
        /// Seen by other files: a constant at file scope without `static`
        /// (`NSString *const Group = …;`, declared `extern` in a header). A
        /// `static` one and a `#define` of a `.m` file are its own.
        public var shared = false
        /// A macro `#define`d with different values in the branches of an
        /// `#if` chain (Monal's `#ifdef IS_ALPHA … #elif defined(IS_QUICKSY) …
        /// #else`): each definition with the conditions it is under, for the
        /// build's `GCC_PREPROCESSOR_DEFINITIONS` to choose from; empty for
        /// any other constant (its ``expression`` then says it). At most
        /// ``maxBranches``.
        public var branches: [Branch] = []
    }

    /// Definitions of one macro kept per `#if` chain, at most.
    public static let maxBranches = 16

    /// One `#define` under `#if` branches.
    public struct Branch: Sendable {
        /// For each `#if` chain around it, outermost first: the conditions of
        /// the branches before its own (each must be false) and its own
        /// (nil for `#else`).
        public var levels: [Level]
        public var expression: Expression
        public var line: Int
    }

    public struct Level: Sendable, Hashable {
        public var previous: [Condition]
        public var current: Condition?
    }

    /// An `#if` condition as far as the build's macros answer it:
    /// `defined(X)`, `X`, a number, `!`, and one `&&` or `||` chain; anything
    /// else is `unknown`.
    public indirect enum Condition: Sendable, Hashable {
        case number(Int)
        case defined(String)
        case value(String)
        case not(Condition)
        case all([Condition])
        case any([Condition])
        case unknown

        /// Whether the build compiles under it: `definitions` are the build's
        /// (`NAME` → value, `1` when given without one), and `flags` the
        /// names any build of the project defines. A name neither defines is
        /// one kcs cannot answer (a header or the SDK may define it).
        public func holds(_ definitions: [String: String], flags: Set<String>) -> Bool? {
            switch self {
            case .number(let n): return n != 0
            case .defined(let name):
                if definitions[name] != nil { return true }
                return flags.contains(name) ? false : nil
            case .value(let name):
                if let v = definitions[name] { return Int(v.filter { $0 != " " }).map { $0 != 0 } }
                return flags.contains(name) ? false : nil
            case .not(let c): return c.holds(definitions, flags: flags).map { !$0 }
            case .all(let list):
                let answers = list.map { $0.holds(definitions, flags: flags) }
                if answers.contains(false) { return false }
                return answers.contains(nil) ? nil : true
            case .any(let list):
                let answers = list.map { $0.holds(definitions, flags: flags) }
                if answers.contains(true) { return true }
                return answers.contains(nil) ? nil : false
            case .unknown: return nil
            }
        }

        /// Its answer in every build, when it names no macro: `0`, `1`,
        /// `false` (0 in C, where an undefined name is 0, and in C++), and
        /// `!`, `&&`, `||` of those. `#if 0` is how code is switched off.
        var always: Bool? {
            switch self {
            case .number(let n): return n != 0
            case .value(let name): return name == "false" ? false : nil
            case .not(let c): return c.always.map { !$0 }
            case .all(let list):
                let answers = list.map(\.always)
                return answers.contains(false) ? false : answers.contains(nil) ? nil : true
            case .any(let list):
                let answers = list.map(\.always)
                return answers.contains(true) ? true : answers.contains(nil) ? nil : false
            case .defined, .unknown: return nil
            }
        }
    }

    public struct Use: Sendable {
        /// `kSecAttrAccessGroup`, `UserDefaults(suiteName:)` (for `initWithSuiteName:`),
        /// `containerURL(forSecurityApplicationGroupIdentifier:)`.
        public var api: String
        public var isAppGroup: Bool
        public var expression: Expression
        /// Where the value starts (1-based; the column counts Unicode
        /// scalars), and the scalars of its first line.
        public var line: Int
        public var column: Int
        public var length: Int
        /// The class of the `@implementation` around it, the name other code
        /// reaches it by; nil outside one (a C function).
        public var enclosingName: String?
        /// In an `@{…}` query without `kSecUseDataProtectionKeychain`,
        /// `kSecAttrSynchronizable` or `kSecAttrAccessControl`, in a file
        /// that never names the first: on the Mac the call goes to the
        /// file-based keychain (as ``AccessGroupUse/fileKeychainOnMac``).
        public var fileKeychainOnMac: Bool
    }

    public var constants: [String: Constant] = [:]
    /// Its `#define`s that make a string of their argument, at most 64.
    public var stringifiers: [String: Stringifier] = [:]
    public var uses: [Use] = []
    /// Headers it imports by a quoted name (`#import "Constants.h"`), as written.
    public var imports: [String] = []
    /// The first Security name of a query or of keychain calls
    /// (``SharedDataScan``'s rule: `SecItemAdd`, `kSecClass`), or nil.
    public var keychainWord: String?
    /// The first app-group API name, or a literal starting `group.` (quoted), or nil.
    public var appGroupWord: String?
    /// Names that look like a keychain wrapper's (`SAMKeychain`, `UICKeyChainStore`), each once, at most 16.
    public var wrapperNames: [String] = []
    /// Classes, protocols, C functions and constants it declares.
    public var declared: Set<String> = []
    /// Those declared at file scope (all of them, in Objective-C).
    public var topLevel: Set<String> { declared }
    /// Every name its code uses, other than declaring it.
    public var used: Set<String> = []

    /// Uses kept of one file, at most.
    public static let maxUses = 2000
    /// Tokens of one value, and of the stretch of a method searched for a
    /// local variable's assignment, at most.
    static let maxValueTokens = 512, maxLocalSearch = 4_096

    /// Suffixes of the sources kcs reads as Objective-C.
    public static let suffixes = [".m", ".mm"]
    public static func isObjectiveC(_ path: String) -> Bool { suffixes.contains { path.hasSuffix($0) } }
    /// Whether the file is Objective-C++ (`.mm`), whose raw strings
    /// `R"(…)"` are read as strings.
    public static func isCPlusPlus(_ path: String) -> Bool { path.hasSuffix(".mm") }

    /// The APIs that take an app group as their argument, and the Swift
    /// name each use is reported by (the code check's messages name the
    /// Swift API: one wording for both languages).
    public static let appGroupSelectors = ["initWithSuiteName", "containerURLForSecurityApplicationGroupIdentifier"]
    static let appGroupAPIs = ["initWithSuiteName": "UserDefaults(suiteName:)",
                               "containerURLForSecurityApplicationGroupIdentifier": "containerURL(forSecurityApplicationGroupIdentifier:)"]

    init() {}

    public init(_ bytes: [UInt8], cPlusPlus: Bool = false) {
        self = bytes.withUnsafeBufferPointer { ObjectiveCSource($0, cPlusPlus: cPlusPlus) }
    }

    /// Bytes of a file read, at most: the rest is not read (the code
    /// check reads no larger file; KCS604's scan reads its start), which
    /// also keeps every offset within the tokens' 32 bits.
    public static let maxBytes = 1 << 20

    public init(_ whole: UnsafeBufferPointer<UInt8>, cPlusPlus: Bool = false) {
        let bytes = UnsafeBufferPointer(rebasing: whole.prefix(ObjectiveCSource.maxBytes))
        var lexer = ObjectiveCLexer(bytes: bytes, cPlusPlus: cPlusPlus)
        lexer.run()
        var reader = Reader(bytes: bytes, tokens: lexer.tokens, directives: lexer.directives)
        reader.read()
        self = reader.out
    }

}

/// One token: where it is in the bytes, its line and column.
struct ObjectiveCToken {
    enum Kind: UInt8 { case identifier, string, atString, number, punctuation, character }
    var kind: Kind
    var start: Int32
    var end: Int32
    var line: Int32
    var column: Int32
    /// The preprocessor line it is on (an index in the lexer's directives), or -1 for code.
    var directive: Int32
}

struct ObjectiveCLexer {
    let bytes: UnsafeBufferPointer<UInt8>
    var tokens: [ObjectiveCToken] = []
    /// Each preprocessor line: the index of its first token and one past its last.
    var directives: [(first: Int, end: Int)] = []
    var i = 0, line: Int32 = 1, lineStart = 0
    /// Scalars before `i` on its line, counted as bytes are passed.
    var column: Int32 = 1
    /// Objective-C++: `R"delim(…)delim"` is a raw string.
    let cPlusPlus: Bool

    init(bytes: UnsafeBufferPointer<UInt8>, cPlusPlus: Bool = false) {
        self.bytes = bytes
        self.cPlusPlus = cPlusPlus
    }

    /// The length of a line break at `j` (LF, CR LF or a lone CR), or 0.
    func lineBreak(at j: Int) -> Int {
        at(j) == 0x0A ? 1 : at(j) == 0x0D ? (at(j + 1) == 0x0A ? 2 : 1) : 0
    }

    /// Moves past a backslash that ends its line and the line break after
    /// it, if one is at `i` (translation phase 2: the line goes on, in a
    /// comment or a string as anywhere).
    mutating func spliced() -> Bool {
        guard at(i) == 0x5C else { return false }
        let n = lineBreak(at: i + 1)
        guard n > 0 else { return false }
        for _ in 0...n { advance() }
        return true
    }

    /// Past a raw string `R"delim(…)delim"` (with an `L`, `u`, `U` or `u8`
    /// before the `R`) from its first byte, in Objective-C++: true when one
    /// starts at `i`. Its bytes are the string's, line breaks and quotes
    /// and all, to the closing `)delim"` (or the end of the file).
    mutating func rawString() -> Bool {
        guard cPlusPlus else { return false }
        var j = i
        for prefix in [[0x75, 0x38], [0x4C], [0x75], [0x55]] as [[UInt8]] where prefix.indices.allSatisfy({ at(i + $0) == prefix[$0] }) {
            j = i + prefix.count
            break
        }
        guard at(j) == 0x52, at(j + 1) == 0x22 else { return false }
        // The delimiter: at most 16 characters, none of them a blank, a parenthesis or a backslash.
        var k = j + 2
        while k < bytes.count, k - (j + 2) <= 16, bytes[k] != 0x28 {
            let c = bytes[k]
            if c == 0x20 || c == 0x29 || c == 0x5C || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x22 { return false }
            k += 1
        }
        guard at(k) == 0x28, k - (j + 2) <= 16 else { return false }
        let close = [0x29] + Array(bytes[(j + 2)..<k]) + [0x22]
        while i <= k { advance() }
        while i < bytes.count {
            if bytes[i] == 0x29, i + close.count <= bytes.count, close.indices.allSatisfy({ bytes[i + $0] == close[$0] }) {
                for _ in close { advance() }
                return true
            }
            advance()
        }
        return true
    }

    func at(_ j: Int) -> UInt8 { j < bytes.count ? bytes[j] : 0 }

    static func isIdentifierStart(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == 0x5F || c == 0x24 || c >= 0x80
    }
    static func isIdentifierByte(_ c: UInt8) -> Bool { isIdentifierStart(c) || (c >= 0x30 && c <= 0x39) }

    /// Moves past one byte, keeping line and column.
    mutating func advance() {
        let c = bytes[i]
        i += 1
        if c == 0x0A || (c == 0x0D && at(i) != 0x0A) {
            line += 1
            column = 1
            lineStart = i
        } else if c & 0xC0 != 0x80 {
            column += 1
        }
    }

    mutating func run() {
        var directive: Int32 = -1
        var atLineStart = true
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x0A || c == 0x0D {
                advance()
                directive = -1
                atLineStart = true
                continue
            }
            if c == 0x20 || c == 0x09 || c == 0x0C || c == 0x0B || c == 0 { advance(); continue }
            // A line continued: the directive goes on.
            if c == 0x5C, at(i + 1) == 0x0A || at(i + 1) == 0x0D {
                advance()
                if bytes[i] == 0x0D, at(i + 1) == 0x0A { advance() }
                advance()
                continue
            }
            if c == 0x2F, at(i + 1) == 0x2F {
                // A backslash at the line's end continues the comment onto the next.
                while i < bytes.count, bytes[i] != 0x0A, bytes[i] != 0x0D {
                    if !spliced() { advance() }
                }
                continue
            }
            if c == 0x2F, at(i + 1) == 0x2A {
                advance(); advance()
                while i < bytes.count, !(bytes[i] == 0x2A && at(i + 1) == 0x2F) { advance() }
                if i < bytes.count { advance(); advance() }
                continue
            }
            if c == 0x23, atLineStart {
                directive = Int32(directives.count)
                directives.append((tokens.count, tokens.count))
            }
            atLineStart = false
            let start = i, startLine = line, startColumn = column
            var kind = ObjectiveCToken.Kind.punctuation
            if rawString() {
                kind = .string
            } else if c == 0x22 || (c == 0x40 && at(i + 1) == 0x22) {
                kind = c == 0x40 ? .atString : .string
                if c == 0x40 { advance() }
                quoted(0x22)
            } else if c == 0x27 {
                kind = .character
                quoted(0x27)
            } else if c == 0x40, Self.isIdentifierStart(at(i + 1)) {
                // `@interface`, `@implementation`, `@end`; `@MACRO` is `@` then the name.
                advance()
                var j = i
                while j < bytes.count, Self.isIdentifierByte(bytes[j]) { j += 1 }
                let word = String(decoding: bytes[i..<j], as: UTF8.self)
                if ["interface", "implementation", "end", "protocol", "class", "property", "synthesize", "dynamic", "selector"].contains(word) {
                    kind = .identifier
                    while i < j { advance() }
                }
            } else if Self.isIdentifierStart(c) {
                kind = .identifier
                while i < bytes.count, Self.isIdentifierByte(bytes[i]) { advance() }
            } else if c >= 0x30 && c <= 0x39 {
                kind = .number
                while i < bytes.count, Self.isIdentifierByte(bytes[i]) || bytes[i] == 0x2E { advance() }
            } else {
                advance()
            }
            tokens.append(ObjectiveCToken(kind: kind, start: Int32(start), end: Int32(i), line: startLine, column: startColumn, directive: directive))
            if directive >= 0 { directives[Int(directive)].end = tokens.count }
        }
    }

    /// A string or character literal from its opening quote: to the closing
    /// one, or to the end of the line when it has none.
    mutating func quoted(_ quote: UInt8) {
        advance()
        while i < bytes.count {
            let c = bytes[i]
            if c == quote { advance(); return }
            if c == 0x0A || c == 0x0D { return }
            // A backslash at the line's end continues the string onto the next.
            if spliced() { continue }
            if c == 0x5C, i + 1 < bytes.count { advance() }
            advance()
        }
    }
}

extension ObjectiveCSource {
    struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        /// The code's tokens (preprocessor lines apart).
        var code: [ObjectiveCToken] = []
        let all: [ObjectiveCToken]
        let directives: [(first: Int, end: Int)]
        /// For each code token, the index of the innermost bracket open around it, or -1.
        var parent: [Int32] = []
        /// For each opening bracket, its closing one (or the end).
        var closing: [Int: Int] = [:]
        var out = ObjectiveCSource()
        /// Whether each `@{…}` holds a key that sends a Mac's call to the data-protection keychain, by its `{`.
        var sendsToDataProtection: [Int: Bool] = [:]
        /// Instance variables the file declares (`@interface X () { NSString
        /// *_group; }`, and `name` and `_name` of `@property … name;`).
        var instanceVariables = Set<String>()

        init(bytes: UnsafeBufferPointer<UInt8>, tokens: [ObjectiveCToken], directives: [(first: Int, end: Int)]) {
            self.bytes = bytes
            self.all = tokens
            self.directives = directives
            code.reserveCapacity(tokens.count)
        }

        /// One `#if` around the current line: whether its current branch is
        /// passed over, whether no build compiles it (`#if 0`), whether some
        /// branch of it was read, and whether one is compiled in every build
        /// (`#if 1`), which leaves the rest dead.
        struct Branch {
            var skipped: Bool, dead: Bool, taken: Bool, always: Bool
        }

        /// The code's tokens, and the preprocessor lines, in order. Of an
        /// `#if`, the first branch is read: an `#else` or `#elif` is passed
        /// over (each branch opening its own `{` unbalanced all that followed),
        /// but a `#define` there with another value makes the macro one kcs
        /// cannot answer for every build. A branch no build compiles (`#if 0`,
        /// or after `#if 1`) is not read at all, and the next one is read
        /// in its place, as the compiler reads it (adversarial run 28, F3).
        mutating func readTokens() {
            var branches: [Branch] = []
            // The `#if` chains around the current line, for a `#define`'s branches.
            var chain: [ObjectiveCSource.Level] = []
            var k = 0
            while k < all.count {
                let t = all[k]
                guard t.directive >= 0 else {
                    if !(branches.last?.skipped ?? false) { code.append(t) }
                    k += 1
                    continue
                }
                let d = directives[Int(t.directive)]
                k = max(d.end, k + 1)
                let toks = all[d.first..<d.end]
                guard toks.count >= 2, let name = toks.dropFirst().first, name.kind == .identifier else { continue }
                let rest = Array(toks.dropFirst(2))
                // The branch a line of the current one is in: passed over, and dead, with its parent.
                let outer = branches.count >= 2 ? branches[branches.count - 2] : nil
                switch text(name) {
                case "if", "ifdef", "ifndef":
                    let word = text(name)
                    let c = word == "if" ? condition(rest) : rest.first.map { ObjectiveCSource.Condition.defined(String(text($0))) } ?? .unknown
                    let parent = branches.last
                    if parent?.dead == true {
                        branches.append(Branch(skipped: true, dead: true, taken: true, always: true))
                    } else if word == "if", let always = c.always {
                        branches.append(Branch(skipped: !always || parent?.skipped == true, dead: !always, taken: always, always: always))
                    } else {
                        branches.append(Branch(skipped: parent?.skipped ?? false, dead: false, taken: true, always: false))
                    }
                    if chain.count < 64 { chain.append(.init(previous: [], current: word == "ifndef" ? .not(c) : c)) }
                case "elif", "else":
                    if var b = branches.popLast() {
                        let always = text(name) == "else" ? true : condition(rest).always
                        if outer?.dead == true || b.always || always == false {
                            b.skipped = true
                            b.dead = true
                        } else if b.taken {
                            b.skipped = true
                            b.dead = false
                        } else {
                            // Every branch before it is dead: it is the first the compiler may read.
                            b.skipped = outer?.skipped ?? false
                            b.dead = false
                            b.taken = true
                            b.always = always == true
                        }
                        branches.append(b)
                    }
                    if !chain.isEmpty, chain.count == branches.count, chain[chain.count - 1].previous.count < 64 {
                        chain[chain.count - 1].previous.append(chain[chain.count - 1].current ?? .unknown)
                        chain[chain.count - 1].current = text(name) == "else" ? nil : condition(rest)
                    }
                case "endif":
                    _ = branches.popLast()
                    if chain.count > branches.count { chain.removeLast(chain.count - branches.count) }
                case "define":
                    if branches.last?.dead == true { break }
                    define(toks, alternative: branches.last?.skipped ?? false,
                           levels: chain.count == branches.count ? chain : [.init(previous: [], current: .unknown)])
                case "import", "include":
                    if !(branches.last?.skipped ?? false), toks.count >= 3, toks[toks.startIndex + 2].kind == .string {
                        out.imports.append(literal(toks[toks.startIndex + 2]))
                    }
                default: break
                }
            }
        }

        mutating func define(_ toks: ArraySlice<ObjectiveCToken>, alternative: Bool, levels: [ObjectiveCSource.Level]) {
            guard toks.count >= 3 else { return }
            let macro = toks[toks.startIndex + 2]
            guard macro.kind == .identifier else { return }
            // A function-like macro (`#define F(x)`): not a constant, but
            // maybe one that makes a string (real-project trial 23, D10).
            if macro.end < Int32(bytes.count), bytes[Int(macro.end)] == 0x28 {
                stringifier(Array(toks.dropFirst(2)))
                return
            }
            let body = Array(toks.dropFirst(3))
            guard !body.isEmpty else { return }
            let name = String(text(macro)), value = expression(body)
            if let known = out.constants[name] {
                if known.expression != value {
                    out.constants[name]?.expression = .runtime(name + ", defined with another value in another #if branch")
                }
            } else if !alternative {
                out.constants[name] = Constant(expression: value, line: Int(macro.line))
            }
            // Each definition with its branches, for the build to choose
            // (real-project trial 23, D3). One outside any `#if` is every
            // build's, chosen when no branch's is.
            if out.constants[name] == nil {
                // Defined first under a branch passed over (`#else` only): kept for the build's choice.
                out.constants[name] = Constant(expression: .runtime(name + ", defined with another value in another #if branch"), line: Int(macro.line))
            }
            if let count = out.constants[name]?.branches.count, count < ObjectiveCSource.maxBranches {
                out.constants[name]?.branches.append(.init(levels: levels, expression: value, line: Int(macro.line)))
            }
            out.declared.insert(name)
        }

        /// `F(m) # m` or `F(m) [@] G(m)`: a ``ObjectiveCSource/Stringifier``.
        mutating func stringifier(_ toks: [ObjectiveCToken]) {
            func punctuation(_ k: Int, _ c: UInt8) -> Bool { k < toks.count && toks[k].kind == .punctuation && byte(toks[k]) == c }
            guard out.stringifiers.count < 64, toks.count >= 6, punctuation(1, 0x28), toks[2].kind == .identifier, punctuation(3, 0x29) else { return }
            let name = String(text(toks[0])), parameter = text(toks[2])
            var body = Array(toks.dropFirst(4))
            if toks.count == 6, punctuation(4, 0x23), toks[5].kind == .identifier, text(toks[5]) == parameter {
                out.stringifiers[name] = .direct
                return
            }
            if body.first.map({ $0.kind == .punctuation && byte($0) == 0x40 }) == true { body.removeFirst() }
            guard body.count == 4, body[0].kind == .identifier, body[1].kind == .punctuation, byte(body[1]) == 0x28,
                  body[2].kind == .identifier, text(body[2]) == parameter, body[3].kind == .punctuation, byte(body[3]) == 0x29 else { return }
            out.stringifiers[name] = .expanding(String(text(body[0])))
        }

        /// An `#if` or `#elif` line's condition (``ObjectiveCSource/Condition``).
        func condition(_ toks: [ObjectiveCToken]) -> ObjectiveCSource.Condition {
            guard !toks.isEmpty, toks.count <= 64 else { return .unknown }
            var terms: [ObjectiveCSource.Condition] = [], joiner: UInt8?
            var k = 0
            while k < toks.count {
                var negated = false
                while k < toks.count, toks[k].kind == .punctuation, byte(toks[k]) == 0x21 { negated.toggle(); k += 1 }
                guard k < toks.count else { return .unknown }
                var term: ObjectiveCSource.Condition
                let t = toks[k]
                if t.kind == .number {
                    guard let n = Int(text(t)) else { return .unknown }
                    term = .number(n)
                    k += 1
                } else if t.kind == .identifier, text(t) == "defined" {
                    // `defined(X)` or `defined X`.
                    if k + 3 < toks.count, toks[k + 1].kind == .punctuation, byte(toks[k + 1]) == 0x28, toks[k + 2].kind == .identifier,
                       toks[k + 3].kind == .punctuation, byte(toks[k + 3]) == 0x29 {
                        term = .defined(String(text(toks[k + 2])))
                        k += 4
                    } else if k + 1 < toks.count, toks[k + 1].kind == .identifier {
                        term = .defined(String(text(toks[k + 1])))
                        k += 2
                    } else {
                        return .unknown
                    }
                } else if t.kind == .identifier {
                    term = .value(String(text(t)))
                    k += 1
                } else {
                    return .unknown
                }
                terms.append(negated ? .not(term) : term)
                guard k < toks.count else { break }
                // `&&` or `||`, the same all along.
                guard k + 1 < toks.count, toks[k].kind == .punctuation, toks[k + 1].kind == .punctuation, byte(toks[k]) == byte(toks[k + 1]),
                      byte(toks[k]) == 0x26 || byte(toks[k]) == 0x7C, joiner == nil || joiner == byte(toks[k]) else { return .unknown }
                joiner = byte(toks[k])
                k += 2
            }
            if terms.count == 1 { return terms[0] }
            return joiner == 0x26 ? .all(terms) : .any(terms)
        }

        func text(_ t: ObjectiveCToken) -> Substring {
            Substring(decoding: UnsafeBufferPointer(rebasing: bytes[Int(t.start)..<Int(t.end)]), as: UTF8.self)
        }
        func byte(_ t: ObjectiveCToken) -> UInt8 { bytes[Int(t.start)] }
        func isPunctuation(_ k: Int, _ c: UInt8) -> Bool { k >= 0 && k < code.count && code[k].kind == .punctuation && byte(code[k]) == c }
        func isWord(_ k: Int, _ w: String) -> Bool { k >= 0 && k < code.count && code[k].kind == .identifier && text(code[k]) == w }

        /// A literal's value: the text between its quotes, `\"` and `\\` read.
        func literal(_ t: ObjectiveCToken) -> String {
            var s = Int(t.start) + (t.kind == .atString ? 2 : 1), e = Int(t.end)
            // A raw string (`R"x(…)x"`, which starts with its prefix): its bytes as they are.
            if t.kind == .string, bytes[Int(t.start)] != 0x22, let open = bytes[Int(t.start)..<e].firstIndex(of: 0x28) {
                let delimiter = bytes[Int(t.start)..<open].drop { $0 != 0x22 }.dropFirst().count
                let end = e - delimiter - 2
                return end > open ? String(decoding: bytes[(open + 1)..<end], as: UTF8.self) : ""
            }
            if e > s, bytes[e - 1] == 0x22, e - 1 >= s { e -= 1 }
            var out: [UInt8] = []
            while s < e {
                // A backslash and line break: spliced away.
                if bytes[s] == 0x5C, s + 1 < e, bytes[s + 1] == 0x0A || bytes[s + 1] == 0x0D {
                    s += bytes[s + 1] == 0x0D && s + 2 < e && bytes[s + 2] == 0x0A ? 3 : 2
                    continue
                }
                if bytes[s] == 0x5C, s + 1 < e, bytes[s + 1] == 0x22 || bytes[s + 1] == 0x5C { out.append(bytes[s + 1]); s += 2; continue }
                out.append(bytes[s])
                s += 1
            }
            return String(decoding: out, as: UTF8.self)
        }

        mutating func read() {
            readTokens()
            matchBrackets()
            readCode()
        }

        mutating func matchBrackets() {
            parent = Array(repeating: -1, count: code.count)
            var stack: [Int] = []
            for k in code.indices {
                parent[k] = Int32(stack.last ?? -1)
                guard code[k].kind == .punctuation else { continue }
                switch byte(code[k]) {
                case 0x28, 0x5B, 0x7B: stack.append(k)
                case 0x29, 0x5D, 0x7D:
                    // A closer matches the innermost opener of its kind; a
                    // stray one closes nothing.
                    let opener: UInt8 = byte(code[k]) == 0x29 ? 0x28 : byte(code[k]) == 0x5D ? 0x5B : 0x7B
                    // Looked for among the innermost few: a closer of another
                    // kind deep in a file of openers would scan them all each time.
                    if let j = stack.indices.suffix(8).last(where: { byte(code[stack[$0]]) == opener }) {
                        closing[stack[j]] = k
                        parent[k] = Int32(stack[j])
                        stack.removeSubrange(j...)
                    }
                default: break
                }
            }
            for open in stack { closing[open] = code.count }
        }

        /// A value's tokens as written: literals and names joined, else code
        /// built at run time. Casts (`(__bridge id)`, `(NSString *)`) and
        /// parentheses around it are passed over; `CFSTR("…")` is its literal.
        func expression(_ tokens: [ObjectiveCToken]) -> Expression {
            var parts: [Part] = []
            var k = 0
            let runtime = Expression.runtime(excerpt(tokens))
            if let key = infoPlistKey(tokens) { return .infoPlist(key) }
            while k < tokens.count {
                let t = tokens[k]
                switch t.kind {
                case .string, .atString:
                    parts.append(.literal(literal(t)))
                    k += 1
                case .identifier:
                    let word = text(t)
                    if word == "CFSTR", k + 3 < tokens.count, tokens[k + 1].kind == .punctuation, byte(tokens[k + 1]) == 0x28,
                       tokens[k + 2].kind == .string, tokens[k + 3].kind == .punctuation, byte(tokens[k + 3]) == 0x29 {
                        parts.append(.literal(literal(tokens[k + 2])))
                        k += 4
                        continue
                    }
                    // `F(NAME)`: a macro that may make a string of the name.
                    if k + 3 < tokens.count, tokens[k + 1].kind == .punctuation, byte(tokens[k + 1]) == 0x28, tokens[k + 2].kind == .identifier,
                       tokens[k + 3].kind == .punctuation, byte(tokens[k + 3]) == 0x29 {
                        parts.append(.call(String(word), argument: String(text(tokens[k + 2]))))
                        k += 4
                        continue
                    }
                    // A name followed by anything but a literal, `@` or a name is code.
                    if k + 1 < tokens.count, tokens[k + 1].kind == .punctuation, byte(tokens[k + 1]) != 0x40, byte(tokens[k + 1]) != 0x29 {
                        return runtime
                    }
                    parts.append(.name(String(word)))
                    k += 1
                case .punctuation:
                    let c = byte(t)
                    if c == 0x40 { k += 1; continue }  // `@MACRO`
                    if c == 0x28 {
                        // A cast at the start: `(` type words and `*` `)`,
                        // followed by more (`(NAME)` alone is a name).
                        var j = k + 1
                        while j < tokens.count, tokens[j].kind == .identifier || (tokens[j].kind == .punctuation && byte(tokens[j]) == 0x2A) { j += 1 }
                        if parts.isEmpty, j > k + 1, j + 1 < tokens.count, tokens[j].kind == .punctuation, byte(tokens[j]) == 0x29 {
                            k = j + 1
                            continue
                        }
                        k += 1
                        continue
                    }
                    if c == 0x29 { k += 1; continue }
                    return runtime
                default:
                    return runtime
                }
            }
            return parts.isEmpty ? runtime : .parts(parts)
        }

        /// The spellings of a main-bundle Info.plist read, token by token
        /// (`K` is the key): VLC's `[[NSBundle mainBundle]
        /// objectForInfoDictionaryKey:@"MLKitGroupIdentifier"]` (review 21, R8).
        static let infoPlistShapes: [[String]] = {
            let bundles: [[String]] = [["[", "NSBundle", "mainBundle", "]"], ["NSBundle", ".", "mainBundle"]]
            var out: [[String]] = []
            for b in bundles {
                let object: [String] = ["objectForInfoDictionaryKey", ":", "K", "]"]
                let dictionary: [String] = ["infoDictionary", "]", "objectForKey", ":", "K", "]"]
                let subscripted: [String] = ["infoDictionary", "]", "[", "K", "]"]
                let dotted: [String] = [".", "infoDictionary", "[", "K", "]"]
                out.append(["["] + b + object)
                out.append(["[", "["] + b + dictionary)
                out.append(["["] + b + subscripted)
                out.append(b + dotted)
            }
            return out
        }()

        /// The key of a main-bundle Info.plist read (a cast before it passed
        /// over), or nil.
        func infoPlistKey(_ tokens: [ObjectiveCToken]) -> Part? {
            var start = 0
            if tokens.count > 3, tokens[0].kind == .punctuation, byte(tokens[0]) == 0x28,
               let close = tokens.firstIndex(where: { $0.kind == .punctuation && byte($0) == 0x29 }),
               tokens[1..<close].allSatisfy({ $0.kind == .identifier || byte($0) == 0x2A }) {
                start = close + 1
            }
            let rest = tokens[start...]
            shapes: for shape in Self.infoPlistShapes where shape.count == rest.count {
                var key: Part?
                for (word, t) in zip(shape, rest) {
                    if word == "K" {
                        switch t.kind {
                        case .string, .atString: key = .literal(literal(t))
                        case .identifier: key = .name(String(text(t)))
                        default: continue shapes
                        }
                    } else if text(t) != word {
                        continue shapes
                    }
                }
                return key
            }
            return nil
        }

        /// The source text of `tokens`, spaces between them kept as one, cut at 80 bytes.
        func excerpt(_ tokens: some Collection<ObjectiveCToken>) -> String {
            guard let first = tokens.first, let last = tokens.reversed().first else { return "" }
            var out: [UInt8] = [], space = false
            for b in bytes[Int(first.start)..<Int(last.end)] {
                if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { space = !out.isEmpty; continue }
                if space { out.append(0x20); space = false }
                out.append(b)
                if out.count >= 80 { return String(decoding: out, as: UTF8.self) + "…" }
            }
            return String(decoding: out, as: UTF8.self)
        }

        /// The code tokens from `start` to the first at its level that
        /// `stops`, or to the closer of the bracket it is in.
        /// At most ``maxValueTokens``: a longer value is cut there (and
        /// is code, not a literal: ``record``), so each value is read in
        /// bounded time however the file is made.
        func value(from start: Int, stops: (Int) -> Bool) -> Range<Int> {
            guard start < code.count else { return start..<start }
            let level = parent[start]
            var k = start
            // Tokens deeper than `level` are inside brackets of the value;
            // the closer of the bracket it is in has `level` as its parent.
            while k < code.count && k - start < ObjectiveCSource.maxValueTokens {
                if parent[k] == level {
                    if stops(k) { break }
                    if code[k].kind == .punctuation, [0x29, 0x5D, 0x7D].contains(byte(code[k])) { break }
                }
                k += 1
            }
            return start..<k
        }

        /// The start of a cast just before `k` (`(__bridge id)kSecAttrAccessGroup`), else `k`.
        func castStart(before k: Int) -> Int {
            guard isPunctuation(k - 1, 0x29) else { return k }
            var j = k - 2
            while j >= 0, code[j].kind == .identifier || isPunctuation(j, 0x2A) { j -= 1 }
            return isPunctuation(j, 0x28) && j < k - 2 ? j : k
        }

        mutating func readCode() {
            var implementation: String?
            var namesDataProtection = false
            let routing = Set(KeychainNames.dataProtectionKeys)
            for t in code where t.kind == .identifier && routing.contains(String(text(t))) { namesDataProtection = true; break }
            var wrappers = Set<String>()
            // The `{` of an `@interface`'s or `@implementation`'s instance
            // variables, when the header just read opens one.
            var inHeader = false, ivarBlock = -1
            var k = 0
            while k < code.count {
                let t = code[k]
                defer { k += 1 }
                switch t.kind {
                case .identifier:
                    let word = text(t)
                    switch word {
                    case "@implementation", "@interface", "@protocol":
                        if k + 1 < code.count, code[k + 1].kind == .identifier {
                            let name = String(text(code[k + 1]))
                            out.declared.insert(name)
                            if word == "@implementation" { implementation = name }
                            k += 1
                        }
                        inHeader = word != "@protocol"
                        continue
                    case "@property":
                        // Its name is the last word before the `;`.
                        inHeader = false
                        var j = k + 1
                        while j < code.count, j < k + 64, !isPunctuation(j, 0x3B) { j += 1 }
                        if isPunctuation(j, 0x3B), code[j - 1].kind == .identifier {
                            let name = String(text(code[j - 1]))
                            instanceVariables.formUnion([name, "_" + name])
                        }
                    case "@class":
                        // Forward declarations: `@class A, B;` names nothing.
                        while k + 1 < code.count, !isPunctuation(k + 1, 0x3B) { k += 1 }
                        continue
                    case "@end":
                        implementation = nil
                        inHeader = false
                        continue
                    default: break
                    }
                    if ivarBlock >= 0, parent[k] == ivarBlock, isPunctuation(k + 1, 0x3B) || isPunctuation(k + 1, 0x2C) {
                        instanceVariables.insert(String(word))
                    }
                    if out.keychainWord == nil, KeychainNames.isKeychainName(word) { out.keychainWord = String(word) }
                    // `initWithSuiteName:` given a literal counts only when it
                    // could be an app group, as in Swift (`group.…`, or
                    // `TEAMID.…` as on the Mac): another is the app's own suite.
                    if out.appGroupWord == nil, ObjectiveCSource.appGroupSelectors.contains(String(word)), isPunctuation(k + 1, 0x3A) {
                        let given = k + 2 < code.count && (code[k + 2].kind == .string || code[k + 2].kind == .atString) ? literal(code[k + 2]) : nil
                        if word != "initWithSuiteName" || given.map(KeychainNames.couldBeAppGroup) ?? true {
                            out.appGroupWord = ObjectiveCSource.appGroupAPIs[String(word)] ?? String(word)
                        }
                    }
                    if out.wrapperNames.count < 16, KeychainNames.isWrapperName(word),
                       !KeychainNames.isKeychainName(word), wrappers.insert(String(word)).inserted {
                        out.wrapperNames.append(String(word))
                    }
                    // A method's name and selector parts (`- (void)clearKeychain:`)
                    // are the file's own, as a type's methods are in Swift.
                    if parent[k] < 0, isPunctuation(k + 1, 0x3A) || isPunctuation(k - 1, 0x29) && (isPunctuation(k + 1, 0x7B) || isPunctuation(k + 1, 0x3B)) {
                        out.declared.insert(String(word))
                    }
                    // A declaration at file scope: `… NAME = …;` (a constant),
                    // `… NAME(…) {` (a C function).
                    if parent[k] < 0, declares(at: k) {
                        out.declared.insert(String(word))
                        if isPunctuation(k + 1, 0x3D), isStringConstant(before: k) {
                            let r = value(from: k + 2) { isPunctuation($0, 0x3B) || isPunctuation($0, 0x2C) }
                            if !r.isEmpty, r.count < ObjectiveCSource.maxValueTokens {
                                out.constants[String(word)] = Constant(expression: expression(Array(code[r])), line: Int(t.line),
                                                                       shared: !isStatic(before: k))
                            }
                        }
                    } else {
                        out.used.insert(String(word))
                    }
                    if word == "kSecAttrAccessGroup" { accessGroupUse(at: k, enclosing: implementation, namesDataProtection: namesDataProtection) }
                    if ObjectiveCSource.appGroupSelectors.contains(String(word)), isPunctuation(k + 1, 0x3A) {
                        let r = value(from: k + 2) { j in code[j].kind == .identifier && isPunctuation(j + 1, 0x3A) }
                        record(r, api: ObjectiveCSource.appGroupAPIs[String(word)] ?? String(word), appGroup: true, enclosing: implementation, onMac: false)
                    }
                case .string, .atString:
                    if out.appGroupWord == nil {
                        let value = literal(t)
                        if value.hasPrefix("group.") { out.appGroupWord = "\"" + String(value.prefix(100)) + (value.utf8.count > 100 ? "…" : "") + "\"" }
                    }
                case .punctuation where parent[k] < 0:
                    switch byte(t) {
                    case 0x7B:
                        if inHeader { ivarBlock = k }
                        inHeader = false
                    case 0x3B, 0x2D, 0x2B: inHeader = false
                    default: break
                    }
                default: break
                }
            }
        }

        /// Whether the name at `k`, at file scope, is declared there: a type
        /// word before it in the statement and `=`, `;`, `[` or `(` after.
        func declares(at k: Int) -> Bool {
            guard k > 0 else { return false }
            let before = code[k - 1]
            let typeBefore = before.kind == .identifier || (before.kind == .punctuation && byte(before) == 0x2A)
            guard typeBefore else { return false }
            if before.kind == .identifier, ["return", "@end"].contains(text(before)) { return false }
            return isPunctuation(k + 1, 0x3D) || isPunctuation(k + 1, 0x3B) || (isPunctuation(k + 1, 0x28) && isFunctionBody(after: k + 1))
        }

        func isFunctionBody(after open: Int) -> Bool {
            guard let close = closing[open] else { return false }
            return isPunctuation(close + 1, 0x7B)
        }

        /// Whether the declaration ending at `k` is of a string: `NSString`,
        /// `CFStringRef` or `NSString *const` in it.
        func isStringConstant(before k: Int) -> Bool {
            var j = k - 1
            while j >= 0, j > k - 64, code[j].kind == .identifier || isPunctuation(j, 0x2A) {
                let w = text(code[j])
                if w == "NSString" || w == "CFStringRef" { return true }
                j -= 1
            }
            return false
        }

        /// Whether the declaration ending at `k` says `static`.
        func isStatic(before k: Int) -> Bool {
            var j = k - 1
            while j >= 0, j > k - 64, code[j].kind == .identifier || isPunctuation(j, 0x2A) {
                if text(code[j]) == "static" { return true }
                j -= 1
            }
            return false
        }

        /// A dictionary built a key at a time (a subscript, `setObject:forKey:`,
        /// `CFDictionarySetValue`, `…ObjectsAndKeys:`) goes to the Mac's
        /// file-based keychain when the file names no routing key, as Swift's
        /// subscripts do: only `@{…}` was said (Sequel Ace's `SPKeychain.m`;
        /// real-project trial 23, W14).
        /// `kSecAttrAccessGroup` at `k`: the value given it, if it is a key
        /// given one here (`@{key: value}`, `d[key] = value`,
        /// `setObject:value forKey:key`, `CFDictionarySetValue(d, key, value)`,
        /// `…ObjectsAndKeys: value, key`). A read (`attrs[key]`) gives none.
        mutating func accessGroupUse(at name: Int, enclosing: String?, namesDataProtection: Bool) {
            // The key in parentheses, `(__bridge id)(kSecAttrAccessGroup)`, is
            // the key all the same (review 21, R10): `first`…`k` is the key.
            let parenthesised = isPunctuation(name - 1, 0x28) && isPunctuation(name + 1, 0x29)
            let first = parenthesised ? name - 1 : name, k = parenthesised ? name + 1 : name
            let key = castStart(before: first)
            let open = Int(parent[first])
            // `@{ … key: value … }`
            if isPunctuation(k + 1, 0x3A), open >= 0, isPunctuation(open, 0x7B), isPunctuation(open - 1, 0x40) {
                let r = value(from: k + 2) { isPunctuation($0, 0x2C) }
                // Each literal looked through once, however many of its keys are the group.
                let other: Bool
                if let known = sendsToDataProtection[open] {
                    other = known
                } else {
                    let end = closing[open] ?? code.count
                    // Its first tokens: a nested literal's are looked through again.
                    let routing = Set(KeychainNames.dataProtectionKeys)
                    other = (open..<min(end, code.count, open + ObjectiveCSource.maxLocalSearch)).contains { j in
                        code[j].kind == .identifier && routing.contains(String(text(code[j])))
                    }
                    sendsToDataProtection[open] = other
                }
                record(r, api: "kSecAttrAccessGroup", appGroup: false, enclosing: enclosing, onMac: !other && !namesDataProtection)
                return
            }
            // `d[key] = value;`
            if open >= 0, isPunctuation(open, 0x5B), key == open + 1, let close = closing[open], close == k + 1,
               isPunctuation(close + 1, 0x3D), !isPunctuation(close + 2, 0x3D) {
                let r = value(from: close + 2) { isPunctuation($0, 0x3B) }
                record(r, api: "kSecAttrAccessGroup", appGroup: false, enclosing: enclosing, onMac: !namesDataProtection)
                return
            }
            // `[d setObject:value forKey:key]`
            if isPunctuation(key - 1, 0x3A), isWord(key - 2, "forKey") {
                var j = key - 3
                while j > open, j > key - ObjectiveCSource.maxValueTokens, !(code[j].kind == .identifier && isPunctuation(j + 1, 0x3A) && parent[j] == parent[first]) { j -= 1 }
                if j > open, ["setObject", "setValue"].contains(text(code[j])) {
                    record((j + 2)..<(key - 2), api: "kSecAttrAccessGroup", appGroup: false, enclosing: enclosing, onMac: !namesDataProtection)
                }
                return
            }
            // `CFDictionarySetValue(d, key, value)`
            if open >= 0, isPunctuation(open, 0x28), open > 0, code[open - 1].kind == .identifier,
               ["CFDictionarySetValue", "CFDictionaryAddValue", "CFDictionaryReplaceValue"].contains(text(code[open - 1])),
               isPunctuation(key - 1, 0x2C) {
                var j = k + 1
                while j < code.count, j < k + ObjectiveCSource.maxValueTokens, !(parent[j] == Int32(open) && (isPunctuation(j, 0x2C) || isPunctuation(j, 0x29))) { j += 1 }
                if isPunctuation(j, 0x2C) {
                    record(value(from: j + 1) { isPunctuation($0, 0x2C) }, api: "kSecAttrAccessGroup", appGroup: false, enclosing: enclosing, onMac: !namesDataProtection)
                }
                return
            }
            // `[NSDictionary dictionaryWithObjectsAndKeys: value, key, …]`
            if isPunctuation(key - 1, 0x2C), open >= 0, isPunctuation(open, 0x5B) {
                var j = key - 2
                while j > open, j > key - ObjectiveCSource.maxValueTokens, !(parent[j] == Int32(open) && (isPunctuation(j, 0x2C) || isPunctuation(j, 0x3A))) { j -= 1 }
                guard j > open, j > key - ObjectiveCSource.maxValueTokens else { return }
                // The selector is the message's first part: looked for from its `[`.
                var s = open + 1
                while s < j, s < open + 64, !(code[s].kind == .identifier && parent[s] == Int32(open) && isPunctuation(s + 1, 0x3A)) { s += 1 }
                if s < j, text(code[s]).hasSuffix("ObjectsAndKeys") {
                    record((j + 1)..<(key - 1), api: "kSecAttrAccessGroup", appGroup: false, enclosing: enclosing, onMac: !namesDataProtection)
                }
            }
        }

        mutating func record(_ r: Range<Int>, api: String, appGroup: Bool, enclosing: String?, onMac: Bool) {
            // Each use looks back through its method: a bound keeps a file
            // of many uses in one huge method linear.
            guard !r.isEmpty, r.upperBound <= code.count, out.uses.count < ObjectiveCSource.maxUses else { return }
            var tokens = Array(code[r])
            if tokens.count >= ObjectiveCSource.maxValueTokens { tokens = Array(tokens.prefix(8)) }
            // `nil`: no group; a group read back from a result is one the app holds.
            if tokens.count == 1, ["nil", "NULL", "Nil"].contains(text(tokens[0])) { return }
            if tokens.contains(where: { $0.kind == .identifier && text($0) == "kSecAttrAccessGroup" }) { return }
            var expression = r.count >= ObjectiveCSource.maxValueTokens ? .runtime(excerpt(tokens) + "…") : expression(tokens)
            if case .parts(let parts) = expression, parts.count == 1, case .name(let name) = parts[0], out.constants[name] == nil,
               let method = parameterOwner(name, at: r.lowerBound, in: enclosing) {
                expression = .parameter(name, of: method)
            } else if case .parts(let parts) = expression, parts.count == 1, case .name(let name) = parts[0], out.constants[name] == nil,
                      let local = localAssignment(name, before: r.lowerBound) {
                expression = local
            } else if case .parts(let parts) = expression, parts.count == 1, case .name(let name) = parts[0], out.constants[name] == nil,
                      Self.isInstanceVariable(name, declared: instanceVariables) {
                // Not a constant kcs failed to find: the object's own state (review 21, R9).
                expression = .runtime("the instance variable " + name)
            }
            let first = tokens[0]
            var length = 0
            for t in tokens where t.line == first.line {
                length = Int(t.column) - Int(first.column) + text(t).unicodeScalars.count
            }
            out.uses.append(Use(api: api, isAppGroup: appGroup, expression: expression, line: Int(first.line), column: Int(first.column),
                                length: max(1, length), enclosingName: enclosing, fileKeychainOnMac: onMac))
        }

        /// An instance variable: declared so in the file, or named as Xcode
        /// names a property's (`_group`: the class's header may declare it).
        static func isInstanceVariable(_ name: String, declared: Set<String>) -> Bool {
            if declared.contains(name) { return true }
            let u = Array(name.utf8.prefix(2))
            return u.count == 2 && u[0] == 0x5F && u[1] >= 0x61 && u[1] <= 0x7A
        }

        /// The outermost `{` around `k`: a method's or function's body.
        func body(around k: Int) -> Int? {
            var p = Int(parent[k]), found: Int?
            var steps = 0
            while p >= 0 && steps < 4096 {
                if isPunctuation(p, 0x7B) { found = p }
                p = Int(parent[p])
                steps += 1
            }
            return found
        }

        /// The method (`-[Store initWithGroup:]`) or function (`save()`)
        /// whose parameter `name` is, when the value at `k` is one.
        func parameterOwner(_ name: String, at k: Int, in enclosing: String?) -> String? {
            guard let body = body(around: k) else { return nil }
            // Back from the body's `{` to the end of what came before it.
            var j = body - 1
            var selector: [String] = [], isParameter = false, function: String?
            while j >= 0, j > body - 4096, !isPunctuation(j, 0x3B), !isPunctuation(j, 0x7D), !isPunctuation(j, 0x7B) {
                let t = code[j]
                if t.kind == .identifier {
                    let w = String(text(t))
                    if w == name, isPunctuation(j - 1, 0x29) || isPunctuation(j + 1, 0x2C) || isPunctuation(j + 1, 0x29) { isParameter = true }
                    if isPunctuation(j + 1, 0x3A) { selector.insert(w + ":", at: 0) }
                    if isPunctuation(j + 1, 0x28), parent[j] < 0 { function = w + "()" }
                    if w.hasPrefix("@") { break }
                }
                if t.kind == .punctuation, (byte(t) == 0x2D || byte(t) == 0x2B), parent[j] < 0 {
                    if selector.isEmpty, j + 1 < body, let last = (j + 1..<body).last(where: { code[$0].kind == .identifier }) {
                        selector = [String(text(code[last]))]
                    }
                    break
                }
                j -= 1
            }
            guard isParameter else { return nil }
            if let function, selector.isEmpty { return function }
            return "-[" + (enclosing ?? "?") + " " + selector.joined() + "]"
        }

        /// A local variable's value: the one assignment `name = value;` in
        /// the body before `k` (more than one: built at run time).
        func localAssignment(_ name: String, before k: Int) -> Expression? {
            guard let body = body(around: k) else { return nil }
            // Back from the use: the last assignment's value alone is read,
            // the others only counted.
            var last: Int?, count = 0
            let length = Int32(name.utf8.count)
            var j = k - 1
            while j > body, j > k - ObjectiveCSource.maxLocalSearch {
                if code[j].kind == .identifier, code[j].end - code[j].start == length, isPunctuation(j + 1, 0x3D), !isPunctuation(j + 2, 0x3D),
                   text(code[j]) == name {
                    count += 1
                    if last == nil { last = j }
                }
                j -= 1
            }
            guard let last else { return nil }
            let found = value(from: last + 2) { isPunctuation($0, 0x3B) }
            guard !found.isEmpty else { return nil }
            if count > 1 { return .runtime(name + ", assigned more than once") }
            let e = expression(Array(code[found]))
            if case .parts(let parts) = e, parts.contains(.name(name)) { return .runtime(name) }
            return e
        }
    }
}

extension ObjectiveCSource {
    /// The string macros a build setting of `-D`-style definitions defines
    /// (`GCC_PREPROCESSOR_DEFINITIONS = DEBUG=1 GROUP=\"group.x\"`): each
    /// `NAME="text"` item, split as Xcode splits a list (spaces, except in
    /// quotes or after a backslash), whose value is a string literal.
    public static func stringMacros(fromDefinitions list: String) -> [String: String] {
        var out: [String: String] = [:]
        for (name, value) in definitions(list) {
            if let joined = joinedLiterals(Substring(value)) { out[name] = joined }
        }
        return out
    }

    /// The string that adjacent string literals make, joined as the
    /// compiler joins them (`"group.x." "notes"`, `"a""b"`: adversarial run
    /// 28, F8); each may be an Objective-C one, `@"…"` (`NAME=@\"text\"`,
    /// the xcconfig-to-macro recipe's; real-project trial 23, W12). `\"` and
    /// `\\` are read as the character; nil for anything but literals.
    static func joinedLiterals(_ text: Substring) -> String? {
        var out = "", i = text.startIndex, any = false
        func next() -> Character? {
            guard i < text.endIndex else { return nil }
            defer { i = text.index(after: i) }
            return text[i]
        }
        while true {
            while i < text.endIndex, text[i] == " " || text[i] == "\t" { i = text.index(after: i) }
            guard i < text.endIndex else { return any ? out : nil }
            if text[i] == "@" { i = text.index(after: i) }
            guard next() == "\"" else { return nil }
            var closed = false
            while let c = next() {
                if c == "\"" { closed = true; break }
                if c == "\\", let n = next() {
                    if n != "\"" && n != "\\" { out.append(c) }
                    out.append(n)
                    continue
                }
                out.append(c)
            }
            guard closed else { return nil }
            any = true
        }
    }

    /// Every macro such a list defines, with its value once the list's own
    /// escapes are read (`1` for a name given alone, as `-DNAME` does).
    public static func definitions(_ list: String) -> [String: String] {
        var items: [String] = [], item = "", quote: Character?, escaped = false, started = false
        for c in list {
            if escaped { item.append(c); escaped = false; continue }
            if c == "\\" { escaped = true; item.append(c); continue }
            if let q = quote {
                if c == q { quote = nil } else { item.append(c) }
                continue
            }
            if c == "\"" || c == "'" { quote = c; started = true; continue }
            if c == " " || c == "\t" {
                if started || !item.isEmpty { items.append(item) }
                item = ""
                started = false
                continue
            }
            item.append(c)
        }
        if started || !item.isEmpty { items.append(item) }
        var out: [String: String] = [:]
        for item in items.prefix(10_000) {
            guard let eq = item.firstIndex(of: "=") else {
                // `NAME` alone is defined as 1; `$(inherited)` is no name.
                if let first = item.unicodeScalars.first, first == "_" || first.properties.isAlphabetic { out[item] = "1" }
                continue
            }
            let name = String(item[..<eq])
            guard !name.isEmpty else { continue }
            // What the compiler is given is `NAME="text"` once the list's own
            // escapes are read: a C string literal.
            var unescaped = "", e = false
            for c in item[item.index(after: eq)...] {
                if e { unescaped.append(c); e = false } else if c == "\\" { e = true } else { unescaped.append(c) }
            }
            out[name] = unescaped
        }
        return out
    }
}
