/// Where something in a project was written: a file and a 1-based line
/// (0 when not known), and a 1-based column in UTF-8 bytes when known.
public struct ProjectLocation: Sendable, Hashable {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int = 1) {
        self.file = file
        self.line = line
        self.column = column
    }
}

/// A finding about a project: a setting that cannot be resolved, a file
/// that cannot be read, a mistake in the entitlements. Data, rendered by
/// the caller.
public struct ProjectIssue: Error, Sendable, Hashable {
    /// A note is said but is no finding: it does not fail the lint.
    public enum Severity: String, Sendable, Hashable { case error, warning, note }
    public var severity: Severity
    public var message: String
    public var location: ProjectLocation?
    public var hint: String?

    /// The settings a value uses that no level defines, when that is the
    /// whole problem: Xcode expands them to nothing, so the value is what
    /// Xcode builds, unless the SDK (which kcs does not model) defines one.
    public var undefinedSettings: [String] = []
    /// The build setting whose value uses them, when the issue is about one
    /// (`CODE_SIGN_ENTITLEMENTS`): what a later check asks, not the message's
    /// words (review 23b, B5).
    public var setting: String?
    /// The undefined settings empty the whole value, or are set only for
    /// another SDK: no suffix a build leaves out, so never a note.
    public var notPartial = false
    /// The group a value leaves with an empty part where the undefined
    /// settings expand to nothing (`TEAMID.` from
    /// `$(AppIdentifierPrefix)$(VAULT_APP_GROUP)`), and whether it is a
    /// keychain group: a mistake in the group, said as a warning, never as
    /// a suffix only some builds add (real-project trial 24, D3).
    public var emptyPart: String?
    public var emptyPartIsKeychainGroup = false
    /// An xcconfig file CocoaPods writes (`Pods/Target Support Files/…`)
    /// that is absent: `pod install` has not run, and one warning says so
    /// for all of them (a project of 3 targets × 6 configurations had 18).
    public var missingPodsFile: String?
    /// An xcconfig file that is required and cannot be read: the settings
    /// it would give are missing, and one a value leaves undefined may be
    /// among them.
    public var unreadXCConfig: String?
    /// The path given names no project (a workspace, a Swift package, a
    /// folder of several projects): the input is missing, wherever the
    /// issue points.
    public var namesNoProject = false
    /// Other places the finding points at, each with what is there.
    public var notes: [Note] = []

    public struct Note: Sendable, Hashable {
        public var message: String
        public var location: ProjectLocation

        public init(_ message: String, at location: ProjectLocation) {
            self.message = message
            self.location = location
        }
    }

    public init(_ severity: Severity, _ message: String, at location: ProjectLocation?, hint: String? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
        self.hint = hint
    }

    /// `subject` uses `names`, which no level defines (`where` says whose levels).
    /// Whether the project could not be read at all, rather than read
    /// and found wrong (which is said at its place).
    public var isUnreadable: Bool { location == nil || namesNoProject }

    /// "; 'X.xcconfig', which kcs could not read, may define it" for the
    /// first xcconfig among `issues` kcs could not read, else "": an
    /// undefined setting may live there (WireGuard's Developer.xcconfig;
    /// real-project trial 18, W4, and for entitlements values trial 20, W6).
    public static func unreadMayDefine(_ issues: [ProjectIssue]) -> String {
        issues.lazy.compactMap(\.unreadXCConfig).first.map { "; '\(ProjectPath.lastComponent($0))', which kcs could not read, may define it" } ?? ""
    }

    /// The hint of a setting's value that uses one no level defines; the
    /// signing puts a did-you-mean in front when a defined setting is one
    /// typo from it.
    public static let checkSpelling = "define the setting, or check its spelling"

    public static func undefined(_ subject: String, uses names: [String], definedNowhere place: String, at location: ProjectLocation?,
                                 hint: String) -> ProjectIssue {
        // Xcode's own settings that kcs cannot know are not to be defined.
        let own = names.filter { BuiltinSettings.unknowable($0) != nil }, others = names.filter { BuiltinSettings.unknowable($0) == nil }
        let said = own.map { "$(\($0)) is Xcode's own, \(BuiltinSettings.unknowable($0) ?? "")" }.joined(separator: "; ")
        var issue = others.isEmpty
            ? ProjectIssue(.warning, "\(subject) uses \(own.map { "$(\($0))" }.joined(separator: ", ")), which Xcode sets while it builds and kcs cannot know: "
                           + "the value is not checked", at: location, hint: said + ": nothing to define; kcs reads the project, not a build")
            : ProjectIssue(.warning, "\(subject) uses \(others.map { "$(\($0))" }.joined(separator: ", ")), which \(place); Xcode expands \(others.count == 1 ? "it" : "them") to nothing",
                           at: location, hint: own.isEmpty ? hint : hint + "; " + said + ", which kcs cannot know")
        issue.undefinedSettings = names
        return issue
    }
}

/// One assignment of a build setting: `NAME[sdk=iphoneos*][config=Release] = value`.
public struct SettingAssignment: Sendable, Hashable {
    public var name: String
    /// `(key, pattern)` pairs: `sdk`, `config`, `arch`, …
    public var conditions: [Condition]
    public var value: String { didSet { refusal = Self.refusal(of: value) } }
    /// Nil for the values the build system itself provides.
    public var location: ProjectLocation?
    /// Why the value as written is refused before it is expanded, or nil:
    /// worked out once, when the value is set, not in every resolution that
    /// reaches it (a 1 MB value was copied and scanned again in each, 50
    /// targets × 32 configurations in 60 s; adversarial run 24, F13).
    public private(set) var refusal: String?

    /// Its text outside references (which may expand to less than they are
    /// written) already longer than any expansion may be, counted only past
    /// the bound in bytes; or references nested past the bound (checked for
    /// every assignment: checked only at the top, one indirection got past
    /// it; review of session 17, R2).
    static func refusal(of value: String) -> String? {
        if value.utf8.count > BuildSettings.maxLength && Expander.literalScalars(of: value) > BuildSettings.maxLength {
            return "an expanded value is longer than \(BuildSettings.maxLength) characters"
        }
        if Expander.nesting(of: value) > BuildSettings.maxDepth {
            return "references nest more than \(BuildSettings.maxDepth) deep"
        }
        return nil
    }

    public struct Condition: Sendable, Hashable {
        public var key: String
        public var pattern: String

        public init(key: String, pattern: String) {
            self.key = key
            self.pattern = pattern
        }
    }

    public init(name: String, conditions: [Condition] = [], value: String, location: ProjectLocation?) {
        self.name = name
        self.conditions = conditions
        self.value = value
        self.location = location
        refusal = Self.refusal(of: value)
    }

    /// Splits `NAME[sdk=iphoneos*][config=Release]` into the name and its
    /// conditions; nil when the brackets are malformed.
    public static func splitKey(_ key: String) -> (String, [Condition])? {
        guard let open = key.firstIndex(of: "[") else { return (key.trimmed, []) }
        let name = String(key[..<open]).trimmed
        var rest = key[open...]
        var conditions: [Condition] = []
        while let o = rest.firstIndex(of: "[") {
            guard rest[..<o].allSatisfy({ $0 == " " }), let c = rest[o...].firstIndex(of: "]") else { return nil }
            let body = rest[rest.index(after: o)..<c]
            guard let eq = body.firstIndex(of: "=") else { return nil }
            conditions.append(Condition(key: String(body[..<eq]).trimmed, pattern: String(body[body.index(after: eq)...]).trimmed))
            rest = rest[rest.index(after: c)...]
        }
        guard rest.allSatisfy({ $0 == " " }), !name.isEmpty else { return nil }
        return (name, conditions)
    }
}

/// The circumstances a build is resolved for: the SDK, the configuration
/// and the architecture that `[sdk=…]`, `[config=…]` and `[arch=…]` match.
public struct SettingContext: Sendable, Hashable {
    /// The SDK's platform name without version: `iphoneos`, `macosx`, `watchos`.
    public var sdk: String
    public var configuration: String
    public var arch: String

    public init(sdk: String, configuration: String, arch: String = "arm64") {
        self.sdk = sdk
        self.configuration = configuration
        self.arch = arch
    }

    func matches(_ conditions: [SettingAssignment.Condition]) -> Bool {
        func glob(_ pattern: String, _ text: String) -> Bool {
            pattern == "*" || (pattern.utf8.count <= Glob.maxConditionLength && text.utf8.count <= Glob.maxConditionLength && Glob.matches(pattern, text))
        }
        return conditions.allSatisfy { c in
            switch c.key {
            case "sdk": glob(c.pattern, sdk)
            case "config": glob(c.pattern, configuration)
            case "arch": glob(c.pattern, arch)
            // Conditions the build does not vary here (variant=normal is the default build).
            case "variant": glob(c.pattern, "normal")
            default: false
            }
        }
    }
}

/// Shell-style patterns with `*` and `?`, as build-setting conditions use.
package enum Glob {
    /// A build-setting condition's pattern, or the name it is matched
    /// against, longer than this matches only `*` (``SettingContext``):
    /// matching takes up to pattern × name steps, and 40,000-byte ones ran
    /// `lint --project` for 25 s (adversarial run 25, F3). Xcode's
    /// conditions and configuration names are a few dozen characters.
    package static let maxConditionLength = 256

    package static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.utf8), t = Array(text.utf8)
        var pi = 0, ti = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count, p[pi] == UInt8(ascii: "?") || p[pi] == t[ti] {
                pi += 1; ti += 1
            } else if pi < p.count, p[pi] == UInt8(ascii: "*") {
                star = pi; mark = ti; pi += 1
            } else if star >= 0 {
                pi = star + 1; mark += 1; ti = mark
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == UInt8(ascii: "*") { pi += 1 }
        return pi == p.count
    }
}

/// Build settings in precedence order, lowest first (defaults, project
/// xcconfig, project, target xcconfig, target), and their expansion the way
/// Xcode evaluates them.
///
/// Each assignment is its own layer: `$(inherited)`, or a setting naming
/// itself, means the value of the next matching assignment below; any other
/// reference is evaluated late, from the top of the whole stack, so a
/// project-level `com.example.$(PRODUCT_NAME)` sees the target's
/// `PRODUCT_NAME`. A setting defined nowhere expands to nothing.
public struct BuildSettings: Sendable {
    /// The assignments that apply in this context, lowest precedence first.
    public private(set) var assignments: [SettingAssignment]

    /// Expansions nest at most this deep (a self-reference through several
    /// settings is a cycle long before this).
    static let maxDepth = 64
    /// Expanded values longer than this are cut off: a doubling chain of
    /// references must not exhaust memory.
    static let maxLength = 1 << 16

    /// Where each name is assigned, lowest first. A reference is a lookup
    /// here, not a walk down every assignment: with N assignments and M
    /// references that walk was N×M (a 584 KB xcconfig took 109 s to
    /// import; found by adversarial testing).
    private let positions: [String: [Int]]

    public init(_ all: [SettingAssignment], context: SettingContext) {
        assignments = all.filter { context.matches($0.conditions) }
        var positions: [String: [Int]] = [:]
        for (i, a) in assignments.enumerated() { positions[a.name, default: []].append(i) }
        self.positions = positions
    }

    /// The topmost assignment of `name` below position `below`.
    func index(of name: String, below: Int) -> Int? {
        guard let list = positions[name] else { return nil }
        // The last position under `below`, by binary search.
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid] < below { lo = mid + 1 } else { hi = mid }
        }
        return lo > 0 ? list[lo - 1] : nil
    }

    /// The assignment that gives `name` its value, if any.
    public func definition(of name: String) -> SettingAssignment? {
        index(of: name, below: assignments.count).map { assignments[$0] }
    }

    /// The assignment whose value names `name` itself, among the settings
    /// `text` names and those their values name in turn (a few dozen at
    /// most): where a misspelt reference inside a setting is written
    /// (GlucoseDirect's `APP_GROUP_ID = group.com.$(DEVELOPMENT_TEM)…`,
    /// used by the entitlements as `$(APP_GROUP_ID)`; real-project trial 16,
    /// D12). Nil when `text` names it itself, or no such assignment is found.
    public func assignment(naming name: String, from text: String) -> SettingAssignment? {
        let named = XcodeProject.referencedNames(in: text)
        guard !named.contains(name) else { return nil }
        // Assignments by position: one that names its own setting or
        // `$(inherited)` goes on to the one below it (GlucoseDirect's
        // override file sets `APP_GROUP_ID = $(APP_GROUP_ID)`).
        var queue = named.compactMap { index(of: $0, below: assignments.count) }, seen = Set(queue), next = 0
        while next < queue.count, next < 64 {
            let a = assignments[queue[next]], at = queue[next]
            next += 1
            let names = XcodeProject.referencedNames(in: a.value)
            if names.contains(name) { return a }
            for n in names {
                let found = n == a.name || n == "inherited" ? index(of: a.name, below: at) : index(of: n, below: assignments.count)
                if let i = found, seen.insert(i).inserted { queue.append(i) }
            }
        }
        return nil
    }

    /// Whether any level assigns `name`.
    public func isDefined(_ name: String) -> Bool { index(of: name, below: assignments.count) != nil }

    /// The value of `name`, fully expanded, with the problems met on the way.
    public func value(of name: String) -> Expansion {
        var e = Expander(settings: self)
        let v = e.evaluate(name, below: assignments.count, depth: 0)
        return Expansion(value: v, undefined: e.undefined, problems: e.problems)
    }

    /// A piece of a value: literal text, or one whole reference (`$(A_$(B):lower)`,
    /// `${A}`, `$A`) as written.
    public struct Piece: Sendable, Hashable {
        public var text: String
        public var isReference: Bool
    }

    /// Splits a value into literal text and its top-level references, in
    /// order; an unclosed `$(` is literal text.
    public static func references(in text: String) -> [Piece] {
        let s = Array(text.unicodeScalars)
        var pieces: [Piece] = []
        var literal: [Unicode.Scalar] = []
        func flush() {
            if !literal.isEmpty { pieces.append(Piece(text: String(String.UnicodeScalarView(literal)), isReference: false)) }
            literal = []
        }
        var k = 0
        while k < s.count {
            if let end = Expander.referenceEnd(s, at: k) {
                flush()
                pieces.append(Piece(text: String(String.UnicodeScalarView(s[k..<end])), isReference: true))
                k = end
            } else {
                literal.append(s[k])
                k += 1
            }
        }
        flush()
        return pieces
    }

    /// Expands a string that is not itself a setting (a value from an
    /// entitlements file), with extra variables such as `AppIdentifierPrefix`.
    public func expand(_ text: String, extra: [String: String] = [:]) -> Expansion {
        var e = Expander(settings: self)
        e.extra = extra
        let v = e.expand(text, selfName: nil, selfIndex: 0, depth: 0)
        return Expansion(value: v, undefined: e.undefined, problems: e.problems)
    }
}

/// An expanded value and what was wrong with it: settings it used that no
/// level defines (they expanded to nothing), and malformed references.
public struct Expansion: Sendable, Hashable {
    public var value: String
    public var undefined: [String]
    public var problems: [String]
}

private struct Expander {
    let settings: BuildSettings
    var extra: [String: String] = [:]
    var undefined: [String] = []
    /// The same, to test membership without a walk.
    var undefinedNames: Set<String> = []
    var problems: [String] = []
    /// Settings being evaluated, to stop a cycle.
    var active: Set<Int> = []
    /// The value of each assignment once worked out: it depends on nothing
    /// else, and without this a chain of settings that each name the one
    /// below twice would take exponential time.
    var cache: [Int: String] = [:]

    /// Records a problem once.
    mutating func problem(_ p: String) {
        if !problems.contains(p), problems.count < 20 { problems.append(p) }
    }

    mutating func evaluate(_ name: String, below: Int, depth: Int) -> String {
        if let v = extra[name] { return v }
        guard let i = settings.index(of: name, below: below) else {
            if below >= settings.assignments.count, undefinedNames.insert(name).inserted { undefined.append(name) }
            return ""
        }
        if let known = cache[i] { return known }
        guard !active.contains(i) else {
            problem("the setting \(name) refers to itself in a cycle")
            return ""
        }
        guard depth < BuildSettings.maxDepth else {
            problem("references nest more than \(BuildSettings.maxDepth) deep")
            return ""
        }
        active.insert(i)
        defer { active.remove(i) }
        // A value refused as written (``SettingAssignment/refusal``), at
        // whatever depth it is reached.
        if let refusal = settings.assignments[i].refusal {
            problem(refusal)
            cache[i] = ""
            return ""
        }
        let value = expand(settings.assignments[i].value, selfName: name, selfIndex: i, depth: depth + 1)
        cache[i] = value
        return value
    }

    /// Expands every `$(…)`, `${…}` and `$NAME` in `text`; `selfName` and
    /// `selfIndex` say which assignment `text` belongs to, for `$(inherited)`.
    mutating func expand(_ text: String, selfName: String?, selfIndex: Int, depth: Int) -> String {
        guard text.contains("$") else { return text }
        // A value whose references nest past the bound is refused before it
        // is expanded: each level copied and rescanned the rest of the value
        // before the bound was met (`${A_${A_…}}` 10,000 deep took 38 s;
        // adversarial run 23, F1). A text given to expand (depth 0); an
        // assignment's value is checked where it is evaluated.
        if depth == 0, Self.nesting(of: text) > BuildSettings.maxDepth {
            problem("references nest more than \(BuildSettings.maxDepth) deep")
            return ""
        }
        let s = Array(text.unicodeScalars)
        var out: [Unicode.Scalar] = []
        var k = 0
        while k < s.count {
            if out.count > BuildSettings.maxLength {
                problem("an expanded value is longer than \(BuildSettings.maxLength) characters")
                break
            }
            let c = s[k]
            guard c == "$", k + 1 < s.count else { out.append(c); k += 1; continue }
            let n = s[k + 1]
            let end = Self.referenceEnd(s, at: k)
            if n == "(" || n == "{" {
                guard let end else {
                    problem("'\(String(String.UnicodeScalarView(s[k...])))' is missing its closing '\(n == "(" ? ")" : "}")'")
                    out.append(contentsOf: s[k...])
                    break
                }
                let inner = String(String.UnicodeScalarView(s[(k + 2)..<(end - 1)]))
                out.append(contentsOf: reference(inner, selfName: selfName, selfIndex: selfIndex, depth: depth).unicodeScalars)
                k = end
            } else if let end {
                let name = String(String.UnicodeScalarView(s[(k + 1)..<end]))
                out.append(contentsOf: lookup(name, selfName: selfName, selfIndex: selfIndex, depth: depth).unicodeScalars)
                k = end
            } else {
                out.append(c)
                k += 1
            }
        }
        return String(String.UnicodeScalarView(out))
    }

    private mutating func lookup(_ name: String, selfName: String?, selfIndex: Int, depth: Int) -> String {
        guard depth < BuildSettings.maxDepth else {
            problem("references nest more than \(BuildSettings.maxDepth) deep")
            return ""
        }
        if let selfName, name == "inherited" || name == selfName {
            return evaluate(selfName, below: selfIndex, depth: depth)
        }
        // `$()` (a name that expanded to nothing) is nothing, not a setting.
        if name == "inherited" || name.isEmpty { return "" }
        return evaluate(name, below: settings.assignments.count, depth: depth)
    }

    /// The inside of `$(NAME:op,op=arg)`: the name may itself hold references.
    private mutating func reference(_ inner: String, selfName: String?, selfIndex: Int, depth: Int) -> String {
        // A reference inside a reference's name or default recurses here:
        // `$($($(…)))` 5,000 deep overflowed the stack (found by adversarial
        // testing), so the depth is counted on this path too.
        guard depth < BuildSettings.maxDepth else {
            problem("references nest more than \(BuildSettings.maxDepth) deep")
            return ""
        }
        let parts = Self.splitTopLevel(inner, at: ":", limit: 1)
        let name = expand(parts[0], selfName: selfName, selfIndex: selfIndex, depth: depth + 1)
        let undefinedBefore = undefined.count
        var value = lookup(name, selfName: selfName, selfIndex: selfIndex, depth: depth)
        guard parts.count > 1 else { return value }
        // Operators chain with ':' (or ','); `default=` takes the rest as its value.
        var rest = Substring(parts[1])
        while !rest.isEmpty {
            if rest.hasPrefix("default=") {
                guard value.isEmpty else { break }
                // `$(NAME:default=VALUE)` is how a project gives a setting it
                // may leave undefined a value: the settings the lookup found
                // undefined were meant to be (a false KCS602 for every target
                // and configuration, found on Secretive).
                for n in undefined[undefinedBefore...] { undefinedNames.remove(n) }
                undefined.removeSubrange(undefinedBefore...)
                value = expand(String(rest.dropFirst(8)), selfName: selfName, selfIndex: selfIndex, depth: depth + 1)
                break
            }
            let end = rest.firstIndex { $0 == ":" || $0 == "," } ?? rest.endIndex
            let op = String(rest[..<end])
            rest = end == rest.endIndex ? "" : rest[rest.index(after: end)...]
            guard let f = MacroOperator(rawValue: op) else {
                problem("the operator ':\(op)' in $(\(inner)) is not one kcs knows")
                continue
            }
            value = f.apply(value)
        }
        return value
    }

    /// The characters of `text` outside its `$(…)` and `${…}` references, in
    /// one pass: what its expansion holds at the least.
    static func literalScalars(of text: String) -> Int {
        var count = 0, depth = 0, dollar = false
        for b in text.utf8 {
            if dollar && (b == UInt8(ascii: "(") || b == UInt8(ascii: "{")) {
                depth += 1
                count -= depth == 1 ? 1 : 0  // the `$` was counted as text
            } else if depth > 0 && (b == UInt8(ascii: ")") || b == UInt8(ascii: "}")) {
                depth -= 1
            } else if depth == 0 && b & 0xC0 != 0x80 {
                count += 1  // a scalar's first byte
            }
            dollar = b == UInt8(ascii: "$")
        }
        return count
    }

    /// How deep the references of `text` nest (`$(` and `${` opened, not yet
    /// closed), in one pass over its bytes. A close pairs with its own kind
    /// of opener (`$(A_}` is one level open, not closed: review of session
    /// 17, R2); one that matches nothing open is text.
    static func nesting(of text: String) -> Int {
        var open: [(close: UInt8, reference: Bool)] = []
        var level = 0, deepest = 0, dollar = false
        for b in text.utf8 {
            if b == UInt8(ascii: "(") || b == UInt8(ascii: "{") {
                open.append((b == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}"), dollar))
                if dollar {
                    level += 1
                    deepest = max(deepest, level)
                }
            } else if b == UInt8(ascii: ")") || b == UInt8(ascii: "}"), let last = open.last, last.close == b {
                open.removeLast()
                if last.reference { level -= 1 }
            }
            dollar = b == UInt8(ascii: "$")
        }
        return deepest
    }

    /// Splits at `separator` outside `$(…)`/`${…}`, at most `limit` times.
    static func splitTopLevel(_ text: String, at separator: Character, limit: Int) -> [String] {
        var parts: [String] = []
        var current = ""
        var level = 0
        var splits = 0
        for ch in text {
            if ch == "(" || ch == "{" { level += 1 } else if ch == ")" || ch == "}" { level -= 1 }
            if ch == separator, level == 0, splits < limit {
                parts.append(current)
                current = ""
                splits += 1
            } else {
                current.append(ch)
            }
        }
        parts.append(current)
        return parts
    }

    /// The index just past the reference that starts with the `$` at `k`
    /// (`$(…)` and `${…}` with nesting, or `$NAME`); nil when none does.
    static func referenceEnd(_ s: [Unicode.Scalar], at k: Int) -> Int? {
        guard k + 1 < s.count, s[k] == "$" else { return nil }
        let n = s[k + 1]
        if n == "(" || n == "{" {
            let close: Unicode.Scalar = n == "(" ? ")" : "}"
            var level = 0, j = k + 1
            while j < s.count {
                if s[j] == n { level += 1 } else if s[j] == close { level -= 1; if level == 0 { return j + 1 } }
                j += 1
            }
            return nil
        }
        guard isNameStart(n) else { return nil }
        var j = k + 1
        while j < s.count, isNameChar(s[j]) { j += 1 }
        return j
    }

    static func isNameStart(_ c: Unicode.Scalar) -> Bool {
        (c >= "A" && c <= "Z") || (c >= "a" && c <= "z") || c == "_"
    }

    static func isNameChar(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || (c >= "0" && c <= "9") }
}

/// The `$(VAR:operator)` forms Xcode documents ("Build Setting Operators"),
/// except `default=`, which takes an argument and is handled by the expander.
public enum MacroOperator: String, Sendable, CaseIterable {
    case lower, upper, rfc1034identifier, c99extidentifier, identifier, base, dir, file, suffix, standardizepath

    public func apply(_ v: String) -> String {
        switch self {
        case .lower: return v.lowercased()
        case .upper: return v.uppercased()
        case .rfc1034identifier:
            // Letters, digits, '-' and '.' stay; anything else becomes '-'.
            return String(v.unicodeScalars.map { Self.isASCIIAlnum($0) || $0 == "-" || $0 == "." ? Character($0) : "-" })
        case .c99extidentifier, .identifier:
            // Anything that cannot be in an identifier becomes '_', and a
            // leading digit gets a '_' in front.
            let allowNonASCII = self == .c99extidentifier
            var out = String(v.unicodeScalars.map {
                Self.isASCIIAlnum($0) || $0 == "_" || (allowNonASCII && $0.value > 0x7F && $0.properties.isAlphabetic) ? Character($0) : "_"
            })
            if let f = out.unicodeScalars.first, f >= "0" && f <= "9" { out = "_" + out }
            return out
        case .file: return Self.lastComponent(v)
        case .base:
            let f = Self.lastComponent(v)
            guard let dot = f.lastIndex(of: "."), dot != f.startIndex else { return f }
            return String(f[..<dot])
        case .suffix:
            let f = Self.lastComponent(v)
            guard let dot = f.lastIndex(of: "."), dot != f.startIndex else { return "" }
            return String(f[dot...])
        case .dir:
            guard let slash = v.lastIndex(of: "/") else { return "" }
            return slash == v.startIndex ? "/" : String(v[..<slash])
        case .standardizepath: return ProjectPath.normalize(v)
        }
    }

    private static func isASCIIAlnum(_ c: Unicode.Scalar) -> Bool {
        (c >= "A" && c <= "Z") || (c >= "a" && c <= "z") || (c >= "0" && c <= "9")
    }

    private static func lastComponent(_ v: String) -> String {
        let trimmed = v.hasSuffix("/") && v.count > 1 ? String(v.dropLast()) : v
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? trimmed
    }
}

/// Path arithmetic on strings, without touching the file system.
public enum ProjectPath {
    /// The step that writes a missing file a tool generates into a project
    /// (absent from a fresh clone), as a hint's opening: Flutter's
    /// `Flutter/Generated.xcconfig` and `ephemeral` folder, CocoaPods' Pods
    /// folder (Expo's ExpoModulesProvider.swift is there), Carthage's
    /// checkouts. Nil for another path. One place for all the hints on
    /// missing files (a Flutter file got the generic one; found on a
    /// real-project trial).
    public static func generatedBy(_ path: String) -> String? {
        let p = "/" + normalize(path)
        if p.hasSuffix("/Flutter/Generated.xcconfig") || p.contains("/Flutter/ephemeral/") {
            return "Flutter writes it: run `flutter pub get` (or `flutter build ios --config-only`) in the Flutter project first; "
        }
        if p.contains("/Pods/") { return "CocoaPods writes it: run `pod install` first; " }
        if p.contains("/Carthage/Checkouts/") { return "it is in Carthage/Checkouts, which `carthage checkout` fills (absent from a fresh clone); " }
        return nil
    }

    /// Whether a path is a file CocoaPods writes for each target
    /// (`Pods/Target Support Files/…`: its xcconfig files, Expo's
    /// ExpoModulesProvider.swift), absent until `pod install`.
    public static func isCocoaPodsSupportFile(_ path: String) -> Bool {
        ("/" + path).contains("/Pods/Target Support Files/")
    }

    /// A template of a missing file beside it, which a project ships for
    /// each developer to copy: `NAME.template.EXT` or `NAME.EXT.template`,
    /// `NAME-template.EXT`, `NAME_template.EXT`, or the same with `example`
    /// or `sample`, or the name with `Empty`, `Example`, `Sample` or
    /// `Template` in front (Nos copies `EmptySecrets.xcconfig` to
    /// `Secrets.xcconfig`; real-project trial 14, D8), or one word of the
    /// name between `_`, `-` or `.` put as `template`, `example` or `sample`
    /// (Blink copies `template_setup.xcconfig` to `developer_setup.xcconfig`;
    /// real-project trial 15, D10). `demo` counts as those words, and when
    /// the file's folder is itself absent the folder above is looked in too,
    /// the template then given with its folder (Simplenote copies
    /// `Simplenote/SPCredentials-demo.swift` to the absent
    /// `Simplenote/Credentials/`; real-project trial 20, W12).
    public static func template(of path: String, in fileSystem: any ProjectFileSystem) -> String? {
        let name = lastComponent(path)
        let folder = path.count > name.count ? String(path.dropLast(name.count + 1)) : "."
        let dot = name.lastIndex(of: ".")
        let stem = dot.map { String(name[..<$0]) } ?? name, ext = dot.map { String(name[$0...]) } ?? ""
        let words = ["template", "example", "sample", "demo"]
        // The stem's words and what separates them, a few at most.
        var parts: [String] = [], separators: [Character] = []
        var word = ""
        for c in stem {
            if c == "_" || c == "-" || c == "." { parts.append(word); separators.append(c); word = "" } else { word.append(c) }
        }
        parts.append(word)
        var swapped: [String] = []
        if parts.count > 1, parts.count <= 8 {
            for i in parts.indices where !parts[i].isEmpty {
                for w in words {
                    var p = parts
                    p[i] = w
                    swapped.append(zip(p, separators.map(String.init) + [""]).map { $0 + $1 }.joined() + ext)
                }
            }
        }
        let candidates = words.flatMap { ["\(stem).\($0)\(ext)", "\(name).\($0)", "\(stem)-\($0)\(ext)", "\(stem)_\($0)\(ext)"] }
            + ["Empty", "Example", "Sample", "Template"].map { $0 + name } + swapped
            // `NAME.dist` and `NAME.default` (Nostur's `Config.xcconfig.dist`,
            // its README's setup step; real-project trial 19, W9).
            + ["\(name).dist", "\(name).default"]
        // Asked of each name, not by listing the folder: a thousand missing
        // files in a folder of 20,000 listed it a thousand times (27 s;
        // found by adversarial testing).
        // Asked by stat: each candidate was read in full (300 missing files
        // with a 30 MiB file beside each took 24 s; found by adversarial testing).
        if let found = candidates.first(where: { fileSystem.isFile(join(folder, $0)) }) { return found }
        let up = directory(folder)
        guard folder != ".", up != folder, !fileSystem.isDirectory(folder) else { return nil }
        return candidates.lazy.map { join(up, $0) }.first { fileSystem.isFile($0) }
    }

    /// What a setup step's copy is said as: "copy T to NAME", or with the
    /// missing file's path when the template is in another folder.
    public static func copyAdvice(_ template: String, to missing: String) -> String {
        "copy \(template) to \(template.contains("/") ? missing : lastComponent(missing)) first (the project's setup step)"
    }

    /// The git submodule a missing file is in: a folder a `.gitmodules`
    /// above the file lists (`path = …`) and the file's path runs through.
    /// A submodule not checked out is an empty folder in a fresh clone
    /// (Authenticator's xcconfigs; found on a real-project trial).
    /// `known`: each folder's submodules, read once per check (a missing
    /// file per source re-read a `.gitmodules` in every folder above it;
    /// found by review), and the bytes read for them, which stop at 64 MiB
    /// (300 missing files, each beside a 30 MiB `.gitmodules`, took 25 s;
    /// found by adversarial testing).
    public struct Submodules: Sendable {
        var folders: [String: [String]] = [:]
        var bytesRead = 0
        public init() {}
    }

    public static func submodule(of path: String, in fileSystem: any ProjectFileSystem,
                                 known: inout Submodules) -> String? {
        let file = normalize(path)
        var folder = directory(file)
        for _ in 0..<32 {
            let modules = known.folders[folder] ?? {
                var found: [String] = []
                guard known.bytesRead <= 64 << 20, fileSystem.isFile(join(folder, ".gitmodules")) else {
                    known.folders[folder] = found
                    return found
                }
                // A real one lists a handful; a large one is not read. Its
                // size is tested before it is split into lines: 66 MB split
                // first took 1.2 GB, 200 MB crashed (adversarial run 25, F2).
                if case .success(let bytes) = fileSystem.read(join(folder, ".gitmodules")) {
                    known.bytesRead += bytes.count
                    guard bytes.count <= 64 << 10 else {
                        known.folders[folder] = found
                        return found
                    }
                    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where found.count < 1000 {
                        let parts = line.split(separator: "=", maxSplits: 1)
                        guard parts.count == 2, parts[0].split(whereSeparator: { $0 == " " || $0 == "\t" }) == ["path"] else { continue }
                        let value = parts[1].drop { $0 == " " || $0 == "\t" }
                        found.append(normalize(join(folder, String(value.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed()))))
                    }
                }
                known.folders[folder] = found
                return found
            }()
            if let module = modules.first(where: { file.hasPrefix($0 + "/") }) { return module }
            let up = directory(folder)
            if up == folder { break }
            folder = up
        }
        return nil
    }

    /// Removes `.`, empty components and `dir/..` pairs.
    public static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for c in path.split(separator: "/") {
            if c == "." { continue }
            if c == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            if c == "..", absolute { continue }
            parts.append(c)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// `relative` resolved against the folder `base` (absolute paths stay).
    public static func join(_ base: String, _ relative: String) -> String {
        if relative.hasPrefix("/") { return normalize(relative) }
        if base.isEmpty || base == "." { return normalize(relative) }
        return normalize(base + "/" + relative)
    }

    /// The folder part of a path ("." for a bare name).
    public static func directory(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    public static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

extension String {
    var trimmed: String {
        var s = self[...]
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
}
