import KCSXcodeProject

/// What one Swift file's code says of the keychain and app groups, for
/// KCS604: read token by token, so a comment, a doc comment or a string
/// naming the keychain says nothing (a comment "Tokens live in the
/// keychain" made an extension that never reads it share a group, and so
/// did Secretive's `kSecAttrKeyTypeEC`; real-project trial 14, D2).
package struct SharedDataScan: Sendable, Hashable {
    /// The first name of keychain or app-group API its code uses
    /// (`SecItemAdd`, `kSecClass`, `suiteName`, …), or a string literal
    /// starting with `group.`, quoted (`"group.com.example"`; cut at 100
    /// bytes or what it interpolates, with `…`).
    var word: String?
    /// The first name of keychain API its code uses (`SecItemCopyMatching`,
    /// `kSecClass`), app-group API left out.
    var keychainWord: String?
    /// Names that look like a keychain wrapper's (`KeychainSwift`,
    /// `Valet`, a `keychain` variable), each once, at most 16: a reason when
    /// the code kcs reads does not declare them (a wrapper from a package
    /// kcs does not read), not when it does (Secretive's own
    /// `KeychainDictionary` helper wraps no keychain call).
    var wrapperNames: [String] = []
    /// Names the file declares (`struct`, `class`, `func`, `var`, …).
    var declared: Set<String> = []
    /// Those of them other files call its code by: declared at file scope
    /// or in the body of an `extension` there, not a type's members (its
    /// name is used) nor a function's locals.
    var exported: Set<String> = []
    /// Those declared at file scope alone (its types, functions, globals):
    /// what other code names to reach its code, for KCS604's reason in a
    /// linked file (an extension's members, `Constants`, are too common a name).
    var topLevel: Set<String> = []
    /// Whether its code uses one of the names it was asked about, other
    /// than declaring it (``mentions(_:in:)``).
    var mentioned = false
    /// A string literal starting with `group.` in the value of a property
    /// or constant at file or type scope (`static var sharedContainerIdentifier:
    /// String { "group." + … }`), quoted as ``word``, and that property's
    /// name: a reason only when the target's code uses the name (Focus's
    /// widget compiles AppInfo.swift and calls only `AppInfo.shortProductName`;
    /// real-project trial 21, D5). A `group.` literal elsewhere is a ``word``.
    var groupLiteral: String?
    var groupLiteralProperty: String?

    /// App-group API: `UserDefaults(suiteName:)`,
    /// `containerURL(forSecurityApplicationGroupIdentifier:)`, SwiftData's `groupContainer`.
    static func isAppGroupName(_ name: Substring) -> Bool {
        KeychainNames.holds(name, "suiteName") || KeychainNames.holds(name, "ApplicationGroupIdentifier") || KeychainNames.holds(name, "groupContainer")
    }

    static let typeKeywords: Set<Substring> = ["class", "struct", "enum", "protocol", "actor"]

    static let declaringKeywords: Set<Substring> = ["class", "struct", "enum", "protocol", "typealias", "actor", "func", "var", "let",
                                                    "associatedtype"]

    init() {}

    /// Scans Swift source: comments are skipped, strings are skipped but
    /// for their start (`"group.…"`) and their interpolations, which are code.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        var lexer = Lexer(bytes: bytes)
        lexer.code(closingParenthesis: false, nesting: 0)
        self = lexer.out
    }

    /// Scans the file at `path`: Swift, or Objective-C (`.m`, `.mm`) read by ``ObjectiveCSource``.
    init(path: String, _ bytes: UnsafeBufferPointer<UInt8>) {
        if ObjectiveCSource.isObjectiveC(path) { self.init(objectiveC: ObjectiveCSource(bytes, cPlusPlus: ObjectiveCSource.isCPlusPlus(path))) } else { self.init(bytes) }
    }

    /// What an Objective-C file says: every name it declares is at file
    /// scope (classes, C functions, constants), so all are what other code
    /// reaches it by.
    init(objectiveC source: ObjectiveCSource) {
        self.init()
        word = source.keychainWord ?? source.appGroupWord
        keychainWord = source.keychainWord
        wrapperNames = source.wrapperNames
        declared = source.declared
        exported = source.declared
        topLevel = source.declared
    }

    /// Which of `names` the code of the file at `path` uses, other than declaring them.
    static func mentioned(_ names: Set<String>, in bytes: UnsafeBufferPointer<UInt8>, path: String) -> Set<String> {
        ObjectiveCSource.isObjectiveC(path) ? names.intersection(ObjectiveCSource(bytes, cPlusPlus: ObjectiveCSource.isCPlusPlus(path)).used) : mentioned(names, in: bytes)
    }

    /// ``scan(_:mentioning:)`` of the file at `path`, Swift or Objective-C.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, mentioning names: Set<String>, path: String) -> SharedDataScan {
        guard ObjectiveCSource.isObjectiveC(path) else { return scan(bytes, mentioning: names) }
        let source = ObjectiveCSource(bytes, cPlusPlus: ObjectiveCSource.isCPlusPlus(path))
        var out = SharedDataScan(objectiveC: source)
        out.mentioned = !names.isDisjoint(with: source.used)
        return out
    }

    /// Which of `names` the code uses, other than declaring them.
    static func mentioned(_ names: Set<String>, in bytes: UnsafeBufferPointer<UInt8>) -> Set<String> {
        var lexer = Lexer(bytes: bytes)
        lexer.wanted = names
        lexer.collect = true
        lexer.code(closingParenthesis: false, nesting: 0)
        return lexer.found
    }

    /// Whether the code uses one of `names`, read as ``init(_:)`` reads it.
    static func mentions(_ names: Set<String>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        scan(bytes, mentioning: names).mentioned
    }

    /// The scan, with ``mentioned`` for `names`.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, mentioning names: Set<String>) -> SharedDataScan {
        var lexer = Lexer(bytes: bytes)
        lexer.wanted = names
        lexer.code(closingParenthesis: false, nesting: 0)
        return lexer.out
    }

    private struct Lexer {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0
        var out = SharedDataScan()
        var declaring = false
        var wanted: Set<String> = []
        /// Every one of `wanted` used, not the first alone (``mentioned(_:in:)``).
        var collect = false
        var found: Set<String> = []
        /// What each open brace opened, and what the declaration being
        /// read opens, for ``SharedDataScan/exported``.
        enum Scope { case type, `extension`, other }
        var scopes: [Scope] = []
        var opening: Scope?
        /// The property or constant at file or type scope whose value is
        /// being read, and the depth of braces it was declared at.
        var property: (name: String, depth: Int)?
        /// The keyword of the declaration being read.
        var declaringKeyword: Substring = ""
        /// Interpolations nested in strings, at most: each is a call on the stack.
        static let maxNesting = 64

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func at(_ j: Int) -> UInt8 { j < bytes.count ? bytes[j] : 0 }

        static func isIdentifierByte(_ c: UInt8) -> Bool {
            (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z"))
                || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "_") || c >= 0x80
        }

        mutating func identifier(_ start: Int, _ end: Int) {
            let name = Substring(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            if declaring {
                declaring = false
                if out.declared.count < 100_000 { out.declared.insert(String(name)) }
                // A property or constant of a type or of the file: its
                // value is read until the next declaration at its depth.
                if declaringKeyword == "var" || declaringKeyword == "let" {
                    if scopes.allSatisfy({ $0 != .other }) { property = (String(name), scopes.count) }
                } else if let p = property, scopes.count <= p.depth {
                    property = nil
                }
                if scopes.isEmpty || scopes == [.extension], out.exported.count < 100_000 { out.exported.insert(String(name)) }
                if scopes.isEmpty, out.topLevel.count < 100_000 { out.topLevel.insert(String(name)) }
                return
            }
            if SharedDataScan.declaringKeywords.contains(name) {
                declaring = true
                declaringKeyword = name
                opening = SharedDataScan.typeKeywords.contains(name) ? .type : .other
                return
            }
            if name == "extension" {
                opening = .extension
                return
            }
            // An initialiser or subscript ends the property before it.
            if name == "init" || name == "deinit" || name == "subscript", let p = property, scopes.count <= p.depth { property = nil }
            if !wanted.isEmpty, !out.mentioned || collect, wanted.contains(String(name)) {
                out.mentioned = true
                if collect { found.insert(String(name)) }
            }
            if out.keychainWord == nil, KeychainNames.isKeychainName(name) { out.keychainWord = String(name) }
            if out.word == nil, KeychainNames.isKeychainName(name) || SharedDataScan.isAppGroupName(name) && !namesTheAppsOwnSuite(after: end, name) {
                out.word = String(name)
            } else if KeychainNames.isWrapperName(name), out.wrapperNames.count < 16, !out.wrapperNames.contains(where: { $0 == name }) {
                out.wrapperNames.append(String(name))
            }
        }

        /// Whether `suiteName` is the label of a string literal that names no
        /// app group (`UserDefaults(suiteName: "com.example.updater")`):
        /// such a suite is the app's own (Secretive's Updater was asked for
        /// one; real-project trial 21, D5). An app group starts with
        /// `group.`, or on macOS with a team ID and a dot.
        func namesTheAppsOwnSuite(after end: Int, _ name: Substring) -> Bool {
            guard name == "suiteName" else { return false }
            var j = end
            while at(j) == UInt8(ascii: " ") { j += 1 }
            guard at(j) == UInt8(ascii: ":") else { return false }
            j += 1
            while at(j) == UInt8(ascii: " ") { j += 1 }
            guard at(j) == UInt8(ascii: "\""), at(j + 1) != UInt8(ascii: "\"") else { return false }
            j += 1
            var literal: [UInt8] = []
            while literal.count < 11, j < bytes.count, bytes[j] != UInt8(ascii: "\""), bytes[j] != UInt8(ascii: "\\"), bytes[j] != UInt8(ascii: "\n") {
                literal.append(bytes[j])
                j += 1
            }
            // Cut short by its end or an interpolation: not known.
            if literal.count < 11 { return at(j) == UInt8(ascii: "\"") && !literal.isEmpty && !literal.starts(with: "group.".utf8) }
            if literal.starts(with: "group.".utf8) { return false }
            let team = literal.prefix(10).allSatisfy { ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }
            return !(team && literal[10] == UInt8(ascii: "."))
        }

        /// Code up to the end, or past the `)` that closes an interpolation.
        mutating func code(closingParenthesis: Bool, nesting: Int) {
            var depth = 0
            while i < bytes.count {
                let c = bytes[i]
                switch c {
                case UInt8(ascii: "/") where at(i + 1) == UInt8(ascii: "/"):
                    while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
                case UInt8(ascii: "/") where at(i + 1) == UInt8(ascii: "*"):
                    // Block comments nest in Swift.
                    var open = 0
                    while i < bytes.count {
                        if bytes[i] == UInt8(ascii: "/"), at(i + 1) == UInt8(ascii: "*") {
                            open += 1
                            i += 2
                        } else if bytes[i] == UInt8(ascii: "*"), at(i + 1) == UInt8(ascii: "/") {
                            open -= 1
                            i += 2
                            if open == 0 { break }
                        } else {
                            i += 1
                        }
                    }
                case UInt8(ascii: "\""):
                    declaring = false
                    string(hashes: 0, nesting: nesting)
                case UInt8(ascii: "#"):
                    var hashes = 0
                    while at(i + hashes) == UInt8(ascii: "#") { hashes += 1 }
                    if at(i + hashes) == UInt8(ascii: "\"") {
                        i += hashes
                        declaring = false
                        string(hashes: hashes, nesting: nesting)
                    } else {
                        i += hashes
                    }
                case UInt8(ascii: "("):
                    depth += 1
                    i += 1
                case UInt8(ascii: "{"):
                    scopes.append(opening ?? .other)
                    opening = nil
                    i += 1
                case UInt8(ascii: "}"):
                    _ = scopes.popLast()
                    if let p = property, scopes.count < p.depth { property = nil }
                    i += 1
                case UInt8(ascii: ")"):
                    i += 1
                    if closingParenthesis, depth == 0 { return }
                    depth -= 1
                case UInt8(ascii: "`"):
                    let start = i + 1
                    var end = start
                    while end < bytes.count, bytes[end] != UInt8(ascii: "`"), bytes[end] != UInt8(ascii: "\n") { end += 1 }
                    identifier(start, end)
                    i = end + 1
                case _ where Self.isIdentifierByte(c):
                    let start = i
                    while i < bytes.count, Self.isIdentifierByte(bytes[i]) { i += 1 }
                    // A number is no name.
                    if !(c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) { identifier(start, i) }
                default:
                    i += 1
                }
            }
        }

        /// A string literal from its opening quote, with `hashes` `#`s of a
        /// raw string before it, past its closing delimiter.
        mutating func string(hashes: Int, nesting: Int) {
            let multiline = at(i + 1) == UInt8(ascii: "\"") && at(i + 2) == UInt8(ascii: "\"")
            i += multiline ? 3 : 1
            if multiline {
                while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
                i += 1
                while at(i) == UInt8(ascii: " ") || at(i) == UInt8(ascii: "\t") { i += 1 }
            }
            let group = Array("group.".utf8)
            if out.word == nil, out.groupLiteral == nil || property == nil, i + group.count <= bytes.count, bytes[i..<(i + group.count)].elementsEqual(group) {
                // The literal as written, to its quote (or what it
                // interpolates): the reason printed "group." alone
                // (real-project trial 18, W6).
                var end = i + group.count
                while end < bytes.count, end - i < 100, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"),
                      bytes[end] != UInt8(ascii: "\n") { end += 1 }
                let whole = end < bytes.count && bytes[end] == UInt8(ascii: "\"")
                let word = "\"" + String(decoding: bytes[i..<end], as: UTF8.self) + (whole ? "\"" : "…\"")
                if let p = property {
                    out.groupLiteral = word
                    out.groupLiteralProperty = p.name
                } else {
                    out.word = word
                }
            }
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: "\\") {
                    // An escape of a raw string is `\` and its `#`s.
                    var j = i + 1, n = 0
                    while n < hashes, at(j) == UInt8(ascii: "#") {
                        j += 1
                        n += 1
                    }
                    guard n == hashes else {
                        i += 1
                        continue
                    }
                    if at(j) == UInt8(ascii: "(") {
                        i = j + 1
                        // Past this many, the rest of the file is skipped, not recursed into.
                        guard nesting < Self.maxNesting else {
                            i = bytes.count
                            return
                        }
                        code(closingParenthesis: true, nesting: nesting + 1)
                    } else {
                        i = j + 1
                    }
                    continue
                }
                if c == UInt8(ascii: "\"") {
                    let quotes = multiline ? 3 : 1
                    var closes = true
                    for k in 0..<(quotes + hashes) where at(i + k) != (k < quotes ? UInt8(ascii: "\"") : UInt8(ascii: "#")) {
                        closes = false
                        break
                    }
                    if closes {
                        i += quotes + hashes
                        return
                    }
                    i += 1
                    continue
                }
                // A single-line string ends at its line, closed or not.
                if c == UInt8(ascii: "\n"), !multiline { return }
                i += 1
            }
        }
    }
}

extension ProjectLint {
    /// The keychain API a target's code uses (its own and that of the
    /// project's frameworks it links): the first Security name
    /// (`SecItemCopyMatching`) and the file it is in, else a keychain
    /// wrapper's name it uses but does not declare (`direct` false); nil
    /// when it names neither. For the code check's "shares only an app
    /// group" (KCS604): an extension without keychain code reads nothing
    /// its app stores there.
    /// `among`: only these of its files, when given.
    public func keychainCode(of target: XcodeProject.Target, among: Set<String>? = nil, scanned: SharedScans? = nil) -> (word: String, file: String, direct: Bool)? {
        var scans: [(path: String, scan: SharedDataScan)] = []
        for path in code(of: target).swiftSources.prefix(5000) where among?.contains(path) ?? true {
            guard let scan = scanned?.scan(path, fileSystem) ?? SharedScans.scan(path, fileSystem) else { continue }
            if let word = scan.keychainWord { return (word, path, true) }
            scans.append((path, scan))
        }
        let declared = scans.reduce(into: Set<String>()) { $0.formUnion($1.scan.declared) }
        for (path, scan) in scans {
            if let name = scan.wrapperNames.first(where: { !declared.contains($0) }) { return (name, path, false) }
        }
        return nil
    }

    /// Whether the keychain code among `shared`, files `host` and `child`
    /// both compile, runs in each: another file of each uses a name such a
    /// file declares at file scope (its type, function, global, an
    /// extension's member). A helper both compile and neither calls stores
    /// nothing (BlueWallet's `KeychainHelper.swift`, called by the watch
    /// app alone; real-project trial 20, D4).
    /// `scanned`: files read and scanned before, kept for the next call
    /// (each pair of an app and an extension read and scanned every file
    /// both compile, and the app's: 80 extensions × 100 files, 67 s;
    /// adversarial run 26, F12).
    public func bothCall(keychainCodeAmong shared: Set<String>, _ host: XcodeProject.Target, _ child: XcodeProject.Target,
                         scanned: SharedScans? = nil) -> Bool {
        let scanned = scanned ?? SharedScans()
        var helpers = Set<String>(), names = Set<String>()
        for path in shared {
            guard let scan = scanned.scan(path, fileSystem), scan.keychainWord != nil else { continue }
            helpers.insert(ProjectPath.normalize(path))
            names.formUnion(scan.exported)
        }
        guard !names.isEmpty else { return false }
        // The set's number looked up once for every file asked about.
        let set = scanned.number(of: names)
        func calls(_ target: XcodeProject.Target) -> Bool {
            code(of: target).swiftSources.prefix(5000).contains { path in
                !helpers.contains(ProjectPath.normalize(path)) && scanned.uses(path, fileSystem, anyOf: names, numbered: set) == true
            }
        }
        return calls(host) && calls(child)
    }
}

/// Each Swift file's ``SharedDataScan``, and whether its code uses one of
/// a set of names, worked out once for all the targets and pairs of
/// targets that ask (nil: unreadable). What is kept is bounded: a file's
/// scan and an answer per (file, set of names asked about), up to
/// ``maxHeldNames`` names in all; past it a file is read and scanned again
/// each time it is asked about. Every name each file used was kept (a
/// project's worth of identifiers: 5,000 files of 1 MB, tens of GB;
/// review 20, R6).
public final class SharedScans {
    private var files: [String: SharedDataScan?] = [:]
    /// Each set of names asked about, by number; and the answers by file and number.
    private var nameSets: [Set<String>: Int] = [:]
    private struct Asked: Hashable { var path: String, names: Int }
    private var answers: [Asked: Bool] = [:]
    /// Names and paths held by the scans, the sets of names and the answers kept.
    package private(set) var heldNames = 0
    package var maxHeldNames = 2_000_000

    public init() {}

    static func scan(_ path: String, _ fileSystem: ProjectFileSystem) -> SharedDataScan? {
        guard case .success(let bytes) = fileSystem.read(path) else { return nil }
        return bytes.withUnsafeBufferPointer { SharedDataScan(path: path, $0) }
    }

    private func hold(_ count: Int) -> Bool {
        guard heldNames + count <= maxHeldNames else { return false }
        heldNames += count
        return true
    }

    func scan(_ path: String, _ fileSystem: ProjectFileSystem) -> SharedDataScan? {
        if let known = files[path] { return known }
        let found = Self.scan(path, fileSystem)
        keep(found, of: path)
        return found
    }

    private func keep(_ scan: SharedDataScan?, of path: String) {
        let size = 1 + (scan.map { $0.declared.count + $0.exported.count + $0.topLevel.count + $0.wrapperNames.count } ?? 0)
        if hold(size) { files[path] = .some(scan) }
    }

    /// Sets of names looked up (each hashes the whole set).
    package private(set) var setLookups = 0

    /// The number of a set of names asked about, kept for its answers (nil:
    /// past ``maxHeldNames``). Asked once per set, not per file: the set
    /// was hashed for each of 5,000 files per pair (review 21, R13).
    func number(of names: Set<String>) -> Int? {
        setLookups += 1
        if let id = nameSets[names] { return id }
        guard hold(names.count) else { return nil }
        nameSets[names] = nameSets.count
        return nameSets.count - 1
    }

    /// Whether the code at `path` uses one of `names`, numbered `id` by
    /// ``number(of:)`` (nil: unreadable).
    func uses(_ path: String, _ fileSystem: ProjectFileSystem, anyOf names: Set<String>, numbered id: Int?) -> Bool? {
        if let id, let known = answers[Asked(path: path, names: id)] { return known }
        guard case .success(let bytes) = fileSystem.read(path) else {
            if files[path] == nil { keep(nil, of: path) }
            return nil
        }
        // The same pass scans the file, if it was not scanned yet.
        var scan = bytes.withUnsafeBufferPointer { SharedDataScan.scan($0, mentioning: names, path: path) }
        let answer = scan.mentioned
        scan.mentioned = false
        if files[path] == nil { keep(scan, of: path) }
        if let id, hold(1) { answers[Asked(path: path, names: id)] = answer }
        return answer
    }
}

/// Which of a set of names each file's code uses, for KCS604's reason in
/// a linked framework's file: kept by set of names and file, so extensions
/// that link the same framework lex each file once (adversarial run 28, F9).
package final class SharedMentions {
    private var answers: [Set<String>: [String: Set<String>]] = [:]
    /// Files lexed for their mentions.
    package var scanned = 0

    package init() {}

    /// The answers for `names`, taken out to be added to and given back by ``keep(_:for:)``.
    func take(_ names: Set<String>) -> [String: Set<String>] { answers.removeValue(forKey: names) ?? [:] }

    func keep(_ known: [String: Set<String>], for names: Set<String>) { answers[names] = known }
}
