import KCSLanguage
import KeychainEngine

/// Tab completion that knows the language and the session: statement
/// keywords, the declared app, team, device and group names, item classes,
/// attribute names for a class, enumerated values after `ATTR=` and status
/// names after `expect status`.
///
/// Pure: it sees only the text before the cursor and the names it was built
/// with, so it is tested without a terminal.
public struct Completer: Sendable {
    public var apps: [String]
    public var teams: [String]
    public var devices: [String]
    /// Access groups the declared apps have, for `group=` and `expect group`.
    public var groups: [String]
    /// Declared authentication contexts, for `context=`.
    public var contexts: [String]
    /// Kept persistent references, for `persistent-ref=` and `expect persistent-ref`.
    public var persistentRefs: [String]

    public init(apps: [String] = [], teams: [String] = [], devices: [String] = ["this"], groups: [String] = [],
                contexts: [String] = [], persistentRefs: [String] = []) {
        self.apps = apps
        self.teams = teams
        self.devices = devices
        self.groups = groups
        self.contexts = contexts
        self.persistentRefs = persistentRefs
    }

    /// The names declared in a world.
    public init(world: World) {
        var teams: [String] = []
        for t in world.teams {
            for n in [t.name, t.id] where !teams.contains(n) { teams.append(n) }
        }
        var groups: [String] = []
        for a in world.apps {
            for g in a.accessGroups where !groups.contains(g) { groups.append(g) }
        }
        self.init(apps: world.apps.map(\.name), teams: teams, devices: world.devices.map(\.name), groups: groups,
                  contexts: world.contexts.keys.sorted(), persistentRefs: world.persistentRefs.keys.sorted())
    }

    /// What completing a word offers.
    public struct Completion: Sendable, Equatable {
        /// Whole words that start with the word being completed, in a useful order.
        public var candidates: [String]
        /// Complete a file name instead (`:load`, `:save`, `include`).
        public var fileNames: Bool

        public init(_ candidates: [String], fileNames: Bool = false) {
            self.candidates = candidates
            self.fileNames = fileNames
        }
    }

    /// The REPL's own commands, for completion and `:help`.
    public static let metaCommands = Help.commands.map(\.name)

    /// Completions for `word`, the partial word at the cursor. `before` is
    /// the input in front of it, with the earlier lines of an unfinished
    /// multi-line statement.
    public func complete(_ word: String, after before: String) -> Completion {
        let trimmed = before.drop { $0 == " " || $0 == "\t" }
        if trimmed.isEmpty && word.hasPrefix(":") { return Completion(filter(Self.metaCommands, word)) }
        if trimmed.hasPrefix(":") { return meta(String(trimmed), word) }
        guard let tokens = CompletionTokens.statement(before) else { return Completion([]) }
        return Completion(filter(statement(tokens), word))
    }

    // MARK: Meta commands

    private func meta(_ before: String, _ word: String) -> Completion {
        let parts = before.split(separator: " ", omittingEmptySubsequences: true)
        guard let command = parts.first else { return Completion([]) }
        switch command {
        case ":load", ":save", ":save!": return Completion([], fileNames: true)
        case ":help" where parts.count == 1: return Completion(filter(Help.topics, word))
        default: return Completion([])
        }
    }

    // MARK: Statements

    private func statement(_ all: [CompletionTokens.Token]) -> [String] {
        var t = all
        if t.first == .word("on") {
            if t.count == 1 { return devices }
            t.removeFirst(2)
            if t.isEmpty { return StatementForm.all.map(\.keyword) }
        }
        guard let first = t.first else { return StatementForm.keywords }
        guard case .word(let keyword) = first else { return [] }
        let n = t.count
        switch keyword {
        case "as": return call(t)
        case "expect": return expect(t)
        case "app": return appOptions(t)
        case "show":
            if n == 1 { return ["apps", "items", "matrix", "app"] }
            return n == 2 && t[1] == .word("app") ? apps : []
        case "group": return n >= 2 ? apps : []
        case "platform": return n == 1 ? ["ios", "macos", "catalyst", "watchos"] : []
        case "team": return n == 2 ? ["as"] : []
        case "device": return device(t)
        case "context":
            if n >= 2, t.last == .equals, case .word(let option) = t[n - 2] {
                return option == "interaction" ? ["true", "false"] : []
            }
            return n >= 2 && t.last?.isValueEnd == true ? ["reuse=", "interaction="] : []
        case "keep": return [1: ["persistent-ref"], 2: ["as"]][n] ?? []
        case "passcode": return n == 1 ? ["on", "off"] : []
        case "biometry": return n == 1 ? ["enroll", "change", "remove"] : []
        case "user": return n == 1 ? ["approves", "cancels", "fails"] : []
        case "uninstall", "install": return n == 1 ? apps : []
        case "transfer": return [1: apps, 2: ["to"], 3: teams][n] ?? []
        case "backup": return [1: devices, 2: ["as"]][n] ?? []
        case "restore": return [2: ["to"], 3: devices][n] ?? []
        default: return []
        }
    }

    /// `as APP OP CLASS ATTR=VALUE… [set ATTR=VALUE…]`
    private func call(_ t: [CompletionTokens.Token]) -> [String] {
        switch t.count {
        case 1: return apps
        case 2: return Operation.allCases.map(\.rawValue)
        case 3: return Vocabulary.classNames
        default:
            if let values = valueContext(t) { return values }
            guard t.last?.isValueEnd ?? false else { return [] }
            var itemClass: ItemClass?
            if case .word(let c) = t[3] { itemClass = ItemClass(name: c) }
            var names = attributeNames(for: itemClass)
            if t[2] == .word("update") && !t.contains(.word("set")) { names.append("set") }
            return names
        }
    }

    /// `expect status NAME [or NAME…]`, `expect groups APP [ID, …]` and the other subjects.
    private func expect(_ t: [CompletionTokens.Token]) -> [String] {
        guard t.count >= 2, case .word(let subject) = t[1] else {
            return t.count == 1 ? ExpectSubject.all : []
        }
        switch subject {
        case "status":
            if t.last == .word("status") || t.last == .word("or") { return Vocabulary.statusNames }
            return ["or"]
        case "group": return t.count == 2 ? groups : []
        case "persistent-ref": return t.count == 2 ? persistentRefs : []
        case "groups":
            if t.count == 2 { return apps }
            return t.contains(.open) && t.last != .close ? groups : []
        case "default-group": return [2: apps, 3: groups][t.count] ?? []
        case "item":
            if let values = valueContext(t) { return values }
            return t.last?.isValueEnd ?? false ? attributeNames(for: nil) : []
        default: return []
        }
    }

    /// `device NAME [account=ID] [platform=FAMILY VERSION]`
    private func device(_ t: [CompletionTokens.Token]) -> [String] {
        let n = t.count
        if n >= 3, t.last == .equals, t[n - 2] == .word("platform") { return Platform.Family.allCases.map(\.rawValue) }
        if n >= 2, t.last?.isValueEnd == true {
            if n >= 3, t[n - 2] == .equals, t[n - 3] == .word("platform") { return [] }  // the version follows
            var options: [String] = []
            if !t.contains(.word("account")) { options.append("account=") }
            if !t.contains(.word("platform")) { options.append("platform=") }
            return options
        }
        return []
    }

    /// `app BUNDLEID [as NAME] [team=T] [kind=…] [keychain-access-groups=[…]] [application-groups=[…]]`
    private func appOptions(_ t: [CompletionTokens.Token]) -> [String] {
        guard t.count >= 2 else { return [] }
        if t.last == .equals, t.count >= 3, case .word(let option) = t[t.count - 2] {
            switch option {
            case "team": return teams + ["none"]
            case "kind": return TargetKind.allCases.map(\.rawValue)
            case "signing": return Signing.allCases.map(\.rawValue)
            case "provisioned": return ["true", "false"]
            default: return []
            }
        }
        if t.contains(.open) && !(t.last == .close) { return [] }
        if t.last == .word("as") { return [] }
        return ["as"] + AppOption.all.map { $0 + "=" }
    }

    /// Values after `ATTR=` or inside `ATTR=[…`; nil when the cursor is not at a value.
    private func valueContext(_ t: [CompletionTokens.Token]) -> [String]? {
        var attribute: String?
        if t.last == .equals, t.count >= 2, case .word(let a) = t[t.count - 2] {
            attribute = a
        } else if let open = CompletionTokens.unclosedOpen(t) {
            guard open >= 2, t[open - 1] == .equals, case .word(let a) = t[open - 2] else { return [] }
            if t.last == .word("or") || t.last == .word("and") || !(t.last?.isValueEnd ?? false) || t.last == .open {
                attribute = a
            } else {
                return []
            }
        }
        guard let attribute else { return nil }
        guard let key = Vocabulary.argumentKey(named: attribute) else { return [] }
        if key == .group { return groups }
        if key == .context { return contexts }
        if key == .persistentRef { return persistentRefs }
        return Vocabulary.valueNames(for: key)
    }

    /// Attribute names, each with its `=`, for a class (all of them if unknown).
    private func attributeNames(for itemClass: ItemClass?) -> [String] {
        var names: [String] = []
        for name in Vocabulary.argumentNames {
            if let itemClass, case .attribute(let a)? = Vocabulary.argumentKey(named: name), !a.applies(to: itemClass) {
                continue
            }
            names.append(name + "=")
        }
        return names
    }

    /// Candidates starting with `word`, without repeats. Framework spellings
    /// (`kSec…`) are offered only once the word starts with `k` and a short
    /// name does not fit.
    private func filter(_ candidates: [String], _ word: String) -> [String] {
        var seen = Set<String>()
        let matching = candidates.filter { $0.hasPrefix(word) && seen.insert($0).inserted }
        let short = matching.filter { !$0.hasPrefix("kSec") }
        return short.isEmpty ? matching : short
    }
}

/// A coarse tokenizer for the text before the cursor: enough to tell which
/// word of which statement is being typed.
enum CompletionTokens {
    enum Token: Equatable {
        case word(String)
        case string
        case open, close, comma, equals

        /// Whether a value or name ends here, so a new attribute may follow.
        var isValueEnd: Bool {
            switch self {
            case .word, .string, .close: true
            case .open, .comma, .equals: false
            }
        }
    }

    /// The tokens of the statement the cursor is in, or nil when the cursor
    /// is inside a string or a comment (nothing to complete there).
    static func statement(_ text: String) -> [Token]? {
        var tokens: [Token] = []
        var depth = 0
        let chars = Array(text.unicodeScalars)
        var i = 0
        func isWordChar(_ c: Unicode.Scalar) -> Bool {
            !" \t\r\n\"#[],=".unicodeScalars.contains(c)
        }
        while i < chars.count {
            let c = chars[i]
            switch c {
            case " ", "\t", "\r":
                i += 1
            case "\n":
                // A newline ends the statement unless a list is open.
                if depth == 0 { tokens.removeAll() }
                i += 1
            case "#":
                while i < chars.count && chars[i] != "\n" { i += 1 }
                if i == chars.count { return nil }
            case "\"":
                i += 1
                var closed = false
                while i < chars.count {
                    if chars[i] == "\\" { i += 2; continue }
                    if chars[i] == "\"" { closed = true; i += 1; break }
                    if chars[i] == "\n" { break }
                    i += 1
                }
                if !closed && i >= chars.count { return nil }
                tokens.append(.string)
            case "[": tokens.append(.open); depth += 1; i += 1
            case "]": tokens.append(.close); depth = max(0, depth - 1); i += 1
            case ",": tokens.append(.comma); i += 1
            case "=": tokens.append(.equals); i += 1
            default:
                var w = String.UnicodeScalarView()
                while i < chars.count && isWordChar(chars[i]) { w.append(chars[i]); i += 1 }
                tokens.append(.word(String(w)))
            }
        }
        return tokens
    }

    /// The index of the innermost `[` not yet closed.
    static func unclosedOpen(_ tokens: [Token]) -> Int? {
        var stack: [Int] = []
        for (i, t) in tokens.enumerated() {
            if t == .open { stack.append(i) } else if t == .close { _ = stack.popLast() }
        }
        return stack.last
    }
}
