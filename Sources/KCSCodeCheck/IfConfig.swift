/// What a build compiles under `#if`: the conditions Swift's compiler
/// evaluates (`os(…)`, `targetEnvironment(…)`, `canImport(…)`, flags from
/// `SWIFT_ACTIVE_COMPILATION_CONDITIONS` and `-D` in `OTHER_SWIFT_FLAGS`),
/// answered for one target, configuration and platform, in three values:
/// true, false, or nil when kcs cannot tell (an architecture, a module kcs
/// does not know, a compiler version, flags from a file it could not read).
public struct BuildConditions: Sendable, Hashable {
    /// One build: a platform as `ResolvedTarget.platform` spells it (ios,
    /// macos, catalyst, watchos; tvos and visionos, which kcs does not
    /// model otherwise) and the flags its settings define there (nil when
    /// they are not all known: `[sdk=…]` settings differ per platform).
    public struct Build: Sendable, Hashable {
        public var platform: String
        public var flags: Set<String>?
        public init(platform: String, flags: Set<String>?) {
            self.platform = platform
            self.flags = flags
        }
    }
    /// Every build the target makes in the configuration: a condition is
    /// answered only when all of them answer it alike (a `#if os(macOS)`
    /// branch of a target built for iOS and macOS is not skipped; found by
    /// adversarial testing).
    public var builds: [Build]

    public init(builds: [Build]) { self.builds = builds }

    /// One platform, or several sharing these flags.
    public init(platform: String, flags: Set<String>?, alsoBuiltFor others: [String] = []) {
        builds = ([platform] + others.filter { $0 != platform }).map { Build(platform: $0, flags: flags) }
    }

    /// The flags one build-setting value defines: SWIFT_ACTIVE_COMPILATION_CONDITIONS
    /// is a list of names; OTHER_SWIFT_FLAGS gives them as `-D NAME` or `-DNAME`.
    public static func flags(activeConditions: String, otherSwiftFlags: String) -> Set<String> {
        func words(_ s: String) -> [String] {
            s.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { trimmed($0, ["\"", "'"]) }.filter { !$0.isEmpty }
        }
        var out = Set(words(activeConditions))
        let other = words(otherSwiftFlags)
        var i = 0
        while i < other.count {
            // `-Xcc -DFOO` is clang's macro, not a Swift flag (found by adversarial testing).
            if other[i] == "-Xcc" || other[i] == "-Xfrontend" || other[i] == "-Xllvm" || other[i] == "-Xlinker" {
                i += 2
                continue
            }
            if other[i] == "-D", i + 1 < other.count {
                out.insert(other[i + 1])
                i += 2
                continue
            }
            if other[i].hasPrefix("-D"), other[i].count > 2 { out.insert(String(other[i].dropFirst(2))) }
            i += 1
        }
        return out
    }

    /// Whether a build compiles under `condition` (an `#if`'s text), or nil
    /// when kcs cannot tell. Text it cannot parse is nil, never a guess.
    public func evaluate(_ condition: String) -> Bool? {
        let bytes = Array(condition.utf8)
        var answer: Bool??
        for build in builds {
            var parser = ConditionParser(bytes, build)
            guard let value = parser.expression(depth: 0), parser.atEnd else { return nil }
            if let previous = answer, previous != value.known { return nil }
            answer = value.known
        }
        return answer ?? nil
    }

    /// One `#if` answered: the first clause that holds and the first kcs
    /// cannot answer (`#else` holds), each condition evaluated once.
    public struct Answered: Sendable {
        var own: [Bool?]
        var firstTrue: Int?
        var firstUnknown: Int?
    }

    public func answer(_ conditions: [String?]) -> Answered {
        var a = Answered(own: [], firstTrue: nil, firstUnknown: nil)
        for (i, c) in conditions.enumerated() {
            let v: Bool? = c.map(evaluate) ?? true
            a.own.append(v)
            if v == true, a.firstTrue == nil { a.firstTrue = i }
            if v == nil, a.firstUnknown == nil { a.firstUnknown = i }
        }
        return a
    }

    /// Whether a build compiles a use under these `#if`s
    /// (``AccessGroupUse/branches``): false when one says no, true when all
    /// say yes, nil when kcs cannot tell; none at all (a condition on a
    /// constant's declaration) is nil. `answered` keeps each `#if`'s answer
    /// for the target, by `file` and the `#if`'s place.
    public func compiles(_ branches: [IfBranch], in file: String, answered: inout [String: Answered]) -> Bool? {
        guard !branches.isEmpty else { return nil }
        var all = true
        for b in branches {
            let key = file + "\u{0}" + String(b.decl)
            let a: Answered
            if let known = answered[key] { a = known } else { a = answer(b.conditions); answered[key] = a }
            guard b.index < a.own.count else { return nil }
            // Its own clause false, or an earlier one true: not compiled.
            if a.own[b.index] == false { return false }
            if let t = a.firstTrue, t < b.index { return false }
            if let u = a.firstUnknown, u <= b.index { all = false }
        }
        return all ? true : nil
    }

}

extension BuildConditions.Build {
    /// `os(X)`.
    func isOS(_ name: String) -> Bool? {
        switch name {
        case "iOS": return platform == "ios" || platform == "catalyst"
        case "macOS", "OSX": return platform == "macos"
        case "watchOS": return platform == "watchos"
        case "tvOS": return platform == "tvos"
        case "visionOS", "xrOS": return platform == "visionos"
        case "Linux", "Windows", "Android", "FreeBSD", "OpenBSD", "WASI", "none": return false
        default: return nil
        }
    }

    /// `targetEnvironment(X)`: kcs checks device builds; a simulator build
    /// is not one it answers for.
    func isEnvironment(_ name: String) -> Bool? {
        switch name {
        case "macCatalyst": return platform == "catalyst"
        case "simulator": return nil
        default: return nil
        }
    }

    /// `canImport(X)` for the SDK's UI frameworks; other modules are not
    /// known. UIKit is every platform's but the Mac's own; AppKit the Mac's,
    /// and on Mac Catalyst it is not known (its SDK lists an AppKit module
    /// that Catalyst code may import in part); WatchKit only watchOS's, as
    /// far as kcs knows (not known elsewhere).
    func canImport(_ name: String) -> Bool? {
        switch name {
        case "UIKit": return platform != "macos"
        case "AppKit": return platform == "catalyst" ? nil : platform == "macos"
        case "WatchKit": return platform == "watchos" ? true : nil
        case "Security", "Foundation", "SwiftUI", "Combine", "LocalAuthentication": return true
        default: return nil
        }
    }
}

/// `s` without `characters` at either end.
func trimmed(_ s: Substring, _ characters: Set<Character>) -> String {
    String(s.drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
}

/// Three values: true, false, unknown. `&&` is false when either side is,
/// `||` true when either side is.
struct Tri {
    var known: Bool?
    static let unknown = Tri(known: nil)
    static func && (a: Tri, b: Tri) -> Tri {
        if a.known == false || b.known == false { return Tri(known: false) }
        if a.known == true && b.known == true { return Tri(known: true) }
        return .unknown
    }
    static func || (a: Tri, b: Tri) -> Tri {
        if a.known == true || b.known == true { return Tri(known: true) }
        if a.known == false && b.known == false { return Tri(known: false) }
        return .unknown
    }
    static prefix func ! (a: Tri) -> Tri { Tri(known: a.known.map { !$0 }) }
}

/// condition := or; or := and { '||' and }; and := unary { '&&' unary };
/// unary := '!' unary | '(' condition ')' | NAME [ '(' ARGS ')' ] | true | false
struct ConditionParser {
    private let bytes: [UInt8]
    private var i = 0
    private let build: BuildConditions.Build
    /// Real conditions nest a few deep; text nesting deeper is not answered.
    static let maxDepth = 64

    init(_ bytes: [UInt8], _ build: BuildConditions.Build) {
        self.bytes = bytes
        self.build = build
    }

    var atEnd: Bool {
        mutating get {
            skipSpace()
            return i >= bytes.count
        }
    }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    }

    private mutating func take(_ text: String) -> Bool {
        skipSpace()
        let t = Array(text.utf8)
        guard bytes.count - i >= t.count, Array(bytes[i..<i + t.count]) == t else { return false }
        i += t.count
        return true
    }

    private mutating func name() -> String? {
        skipSpace()
        let start = i
        while i < bytes.count, bytes[i] == UInt8(ascii: "_") || (bytes[i] | 0x20) >= UInt8(ascii: "a") && (bytes[i] | 0x20) <= UInt8(ascii: "z")
                || bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") || bytes[i] >= 0x80 {
            i += 1
        }
        return i > start ? String(decoding: bytes[start..<i], as: UTF8.self) : nil
    }

    mutating func expression(depth: Int) -> Tri? {
        guard depth < Self.maxDepth, var value = conjunction(depth: depth) else { return nil }
        while take("||") {
            guard let rhs = conjunction(depth: depth) else { return nil }
            value = value || rhs
        }
        return value
    }

    private mutating func conjunction(depth: Int) -> Tri? {
        guard var value = unary(depth: depth) else { return nil }
        while take("&&") {
            guard let rhs = unary(depth: depth) else { return nil }
            value = value && rhs
        }
        return value
    }

    private mutating func unary(depth: Int) -> Tri? {
        guard depth < Self.maxDepth else { return nil }
        if take("!") { return unary(depth: depth + 1).map { !$0 } }
        if take("(") {
            guard let value = expression(depth: depth + 1), take(")") else { return nil }
            return value
        }
        guard let word = name() else { return nil }
        if word == "true" { return Tri(known: true) }
        if word == "false" { return Tri(known: false) }
        guard take("(") else {
            // A flag: defined or not, when the build's flags are known.
            return Tri(known: build.flags.map { $0.contains(word) })
        }
        // The argument, to the closing parenthesis (none nest in these).
        skipSpace()
        let start = i
        while i < bytes.count, bytes[i] != UInt8(ascii: ")") { i += 1 }
        guard i < bytes.count else { return nil }
        let argument = trimmed(String(decoding: bytes[start..<i], as: UTF8.self)[...], [" ", "\t"])
        i += 1
        switch word {
        case "os": return Tri(known: build.isOS(argument))
        case "targetEnvironment": return Tri(known: build.isEnvironment(argument))
        case "canImport":
            let module = argument.split(separator: ",").first.map { trimmed($0, [" "]) } ?? argument
            return Tri(known: build.canImport(module))
        default:
            // arch(…), swift(…), compiler(…), hasFeature(…), hasAttribute(…):
            // the build machine's or the compiler's, which kcs does not know.
            return .unknown
        }
    }
}
