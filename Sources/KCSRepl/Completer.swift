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
    /// Backups made, for `restore`.
    public var backups: [String]

    /// Each name is offered as a script spells it (``ScriptText/literal(_:)``):
    /// a word as it is, anything else quoted with its escapes. Readline
    /// prints the candidates and inserts a match as given, so a name with
    /// an escape sequence from a loaded script set the terminal's title and
    /// cleared its screen at a Tab (found by adversarial testing), and a
    /// name with a space was inserted as two words.
    public init(apps: [String] = [], teams: [String] = [], devices: [String] = ["this"], groups: [String] = [],
                contexts: [String] = [], persistentRefs: [String] = [], backups: [String] = []) {
        self.apps = apps.map(ScriptText.literal)
        self.teams = teams.map(ScriptText.literal)
        self.devices = devices.map(ScriptText.literal)
        self.groups = groups.map(ScriptText.literal)
        self.contexts = contexts.map(ScriptText.literal)
        self.persistentRefs = persistentRefs.map(ScriptText.literal)
        self.backups = backups.map(ScriptText.literal)
    }

    /// The names declared in a world.
    public init(world: World) {
        // Each name once, in order, through a set: a search of the list per
        // name made 80,000 apps take 14 s per prompt (found by adversarial testing).
        var teams: [String] = [], seenTeams = Set<String>()
        for t in world.teams {
            for n in [t.name, t.id] where seenTeams.insert(n).inserted { teams.append(n) }
        }
        var groups: [String] = [], seenGroups = Set<String>()
        for a in world.apps {
            for g in a.accessGroups where seenGroups.insert(g).inserted { groups.append(g) }
        }
        self.init(apps: world.apps.map(\.name), teams: teams, devices: world.devices.map(\.name), groups: groups,
                  contexts: world.contexts.keys.sorted(), persistentRefs: world.persistentRefs.keys.sorted(),
                  backups: world.backupNames.filter { world.backups[$0] != nil })
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
        // A quoted name being typed (`as "Two w`): readline breaks words at
        // the quote, so the word is what follows it; the names offered
        // quoted match without their opening quote (Tab after a quote rang
        // the bell; found by adversarial testing).
        // The lexer decides whether the last quote opens a string: counting
        // quotes took an escaped one (`on "a\"b" as "`) for a string's end.
        if CompletionTokens.endsWithOpeningQuote(before) {
            guard let tokens = CompletionTokens.statement(String(before.dropLast())) else { return Completion([]) }
            let quoted = statement(tokens).filter { $0.hasPrefix("\"") }.map { String($0.dropFirst()) }
            return Completion(filter(quoted, word))
        }
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
    //
    // What is offered at a point is read off the grammar table: the form's
    // head says which word or name stands there (a `[…]` part may be
    // skipped, so what follows it is offered too), its options come once
    // the head is written, each not yet given; a call's attributes and an
    // access-control list follow the rules the parser applies to them.

    private func statement(_ all: [CompletionTokens.Token]) -> [String] {
        var t = all
        if t.first == .word("on") {
            if t.count == 1 { return devices }
            t.removeFirst(2)
            if t.isEmpty { return StatementForm.all.map(\.keyword) }
        }
        guard let first = t.first else { return StatementForm.keywords }
        guard case .word(let keyword) = first, let form = StatementForm.all.first(where: { $0.keyword == keyword }) else {
            return []
        }
        switch form.kind {
        case .call: return call(t, form)
        case .expect: return expect(t, form)
        default: return fromTable(form, t)
        }
    }

    /// One word of a form's head after its keyword: `optional` numbers the
    /// `[…]` part it belongs to.
    struct HeadWord: Equatable {
        var text: String
        var optional: Int?
        var repeats: Bool { text.hasSuffix("…") }
    }

    /// The words of a head after the keyword (`[on DEVICE] as APP …` from `APP`).
    static func headWords(_ form: StatementForm) -> [HeadWord] {
        var words: [HeadWord] = []
        var group = 0, inGroup = false, seenKeyword = false
        for raw in form.head.split(separator: " ") {
            let opens = raw.hasPrefix("["), closes = raw.hasSuffix("]")
            if opens { group += 1; inGroup = true }
            let text = String(raw.filter { !"[]".contains($0) })
            if seenKeyword { words.append(HeadWord(text: text, optional: inGroup ? group : nil)) }
            if text == form.keyword && !inGroup { seenKeyword = true }
            if closes { inGroup = false }
        }
        return words
    }

    /// Where the head stands after `tokens` (the words after the keyword):
    /// the index of the next head word, and whether the last one written
    /// may repeat; nil when the tokens do not follow the head.
    static func headPosition(_ words: [HeadWord], _ tokens: ArraySlice<CompletionTokens.Token>) -> (Int, Bool)? {
        var i = 0, repeating = false
        for token in tokens {
            guard case .word(let w) = token else { return nil }
            // An optional part whose literal is not written is skipped.
            while i < words.count, let g = words[i].optional, StatementForm.isLiteral(Substring(words[i].text)),
                  words[i].text != w {
                while i < words.count && words[i].optional == g { i += 1 }
            }
            if i >= words.count {
                if repeating { continue }
                return nil
            }
            repeating = words[i].repeats
            i += 1
        }
        return (i, repeating)
    }

    /// What the head offers at position `i`: the word there, and past each
    /// optional part what follows it; `ends` is whether the head may end here.
    private func headOffers(_ words: [HeadWord], at i: Int, repeating: Bool,
                            names: (String) -> [String]) -> (offers: [String], ends: Bool) {
        var offers = repeating && i > 0 ? names(words[i - 1].text) : []
        var j = i
        while j < words.count {
            offers += names(words[j].text)
            // An optional part once begun (`as` written, NAME not yet) is not skipped.
            guard let g = words[j].optional, j == 0 || words[j - 1].optional != g else { return (offers, false) }
            while j < words.count && words[j].optional == g { j += 1 }
        }
        return (offers, true)
    }

    /// The keys written before `=` in `tokens`, by their bit (two spellings
    /// of one key are one key).
    private static func givenKeys(_ tokens: ArraySlice<CompletionTokens.Token>) -> Set<Int> {
        var given = Set<Int>()
        var previous: CompletionTokens.Token?
        for token in tokens {
            if token == .equals, case .word(let k)? = previous, let key = Vocabulary.argumentKey(named: k) { given.insert(key.bit) }
            previous = token
        }
        return given
    }

    /// The option keys written before `=`.
    private static func givenOptionKeys(_ tokens: [CompletionTokens.Token]) -> Set<String> {
        var given = Set<String>()
        for (i, token) in tokens.enumerated() where token == .equals && i > 0 {
            if case .word(let k) = tokens[i - 1] { given.insert(k) }
        }
        return given
    }

    /// Completion read off the grammar table: the word the form's head has
    /// at this position (a literal, or the names a placeholder stands for),
    /// the form's words, and its options with their values.
    private func fromTable(_ form: StatementForm, _ t: [CompletionTokens.Token]) -> [String] {
        let n = t.count
        // After `KEY=`: the values the option takes.
        if t.last == .equals, n >= 2, case .word(let key) = t[n - 2], let option = form.option(key) {
            return values(of: option)
        }
        // The version after `platform=FAMILY`: nothing to offer.
        if n >= 3, t[n - 2] == .equals, case .word(let key) = t[n - 3], form.option(key)?.value == .platform { return [] }
        if t.contains(.open) && t.last != .close { return [] }
        if !form.choices.isEmpty {
            if n == 1 { return form.choices.map(\.word) }
            // `show app APP`: what follows a chosen word, by its placeholder.
            if n == 2, case .word(let w) = t[1], let choice = form.choices.first(where: { $0.word == w }) {
                return names(for: String(choice.rest.split(separator: " ").first ?? ""))
            }
            return []
        }
        let words = Self.headWords(form)
        // The head ends where the first option starts (its key stands before `=`).
        let firstEquals = t.firstIndex(of: .equals)
        let headEnd = firstEquals.map { $0 - 1 } ?? n
        guard headEnd >= 1, let (i, repeating) = Self.headPosition(words, t[1..<headEnd]) else { return [] }
        if firstEquals == nil {
            let (offers, ends) = headOffers(words, at: i, repeating: repeating, names: names(for:))
            // Options once the head is written (a name, not a word it still wants).
            guard ends, n >= 2, t.last?.isValueEnd == true else { return offers }
            return offers + options(form, given: [])
        }
        // Options started: the head must be whole.
        guard headOffers(words, at: i, repeating: repeating, names: { _ in [] }).ends,
              t.last?.isValueEnd == true else { return [] }
        return options(form, given: Self.givenOptionKeys(t))
    }

    /// A form's options not yet given, each with its `=`.
    private func options(_ form: StatementForm, given: Set<String>) -> [String] {
        form.options.filter { !given.contains($0.key) }.map { $0.key + "=" }
    }

    /// The names a head word stands for: a literal stands for itself,
    /// `APP` for the declared apps, `{set}` for the set's members.
    private func names(for word: String) -> [String] {
        let w = word.hasSuffix("…") ? String(word.dropLast()) : word
        switch w {
        case "APP": return apps
        case "DEVICE": return devices
        case "TEAM": return teams
        case "ID": return groups
        case "BACKUP": return backups
        case "CLASS": return Vocabulary.classNames
        default:
            if w.hasPrefix("{") && w.hasSuffix("}"), let set = ValueSet(rawValue: String(w.dropFirst().dropLast())) {
                return Vocabulary.names(of: set)
            }
            // A literal (`as`, `to`, `persistent-ref`); upper-case words are placeholders.
            return StatementForm.isLiteral(Substring(w)) ? [w] : []
        }
    }

    /// The values an option takes.
    private func values(of option: OptionSpec) -> [String] {
        switch option.value {
        case .boolean: return OptionSpec.booleans
        case .set(let s): return Vocabulary.names(of: s)
        case .platform: return Vocabulary.names(of: .platformFamily)
        case .name where option.id == .team: return teams + ["none"]
        case .name, .path, .integer, .nameList: return []
        }
    }

    /// `as APP {operation} [CLASS] ATTR=VALUE… [set ATTR=VALUE…]`: the head
    /// from the table up to the attributes; then the attributes of the
    /// class not yet given (after `set`, those an update may change).
    private func call(_ t: [CompletionTokens.Token], _ form: StatementForm) -> [String] {
        let words = Self.headWords(form)
        let attributesAt = words.firstIndex { $0.text.hasPrefix("ATTR=") } ?? words.count
        let head = Array(words[..<attributesAt])
        let firstEquals = t.firstIndex(of: .equals)
        // `set` as a word of its own, not a key (`set=`) or a value (`service=set`).
        let setAt = t.indices.first { t[$0] == .word("set") && t[$0 - 1] != .equals && t.dropFirst($0 + 1).first != .equals }
        let headEnd = min(firstEquals.map { $0 - 1 } ?? t.count, setAt ?? t.count)
        guard headEnd >= 1, let (i, _) = Self.headPosition(head, t[1..<headEnd]) else { return [] }
        var itemClass: ItemClass?
        if i == head.count, case .word(let c) = t[headEnd - 1] { itemClass = ItemClass(name: c) }
        let operation: String? = if t.count > 2, case .word(let op) = t[2] { op } else { nil }
        if firstEquals == nil && setAt == nil {
            let (offers, ends) = headOffers(head, at: i, repeating: false, names: names(for:))
            guard ends, t.last?.isValueEnd == true else { return offers }
            return offers + attributeNames(for: itemClass, given: [], changing: false)
                + (operation == "update" ? ["set"] : [])
        }
        if let values = valueContext(t) { return values }
        guard t.last?.isValueEnd ?? false else { return [] }
        if let setAt {
            return attributeNames(for: itemClass, given: Self.givenKeys(t[setAt...]), changing: true)
        }
        var names = attributeNames(for: itemClass, given: Self.givenKeys(t[...]), changing: false)
        if operation == "update" { names.append("set") }
        return names
    }

    /// `expect SUBJECT …`: the subjects from the table; what follows each
    /// from its placeholders, with status names after `status` and `or`.
    private func expect(_ t: [CompletionTokens.Token], _ form: StatementForm) -> [String] {
        guard t.count >= 2, case .word(let subject) = t[1],
              let choice = form.choices.first(where: { $0.word == subject }) else {
            return t.count == 1 ? form.choices.map(\.word) : []
        }
        switch subject {
        case "status":
            if t.last == .word("status") || t.last == .word("or") { return Vocabulary.statusNames }
            return ["or"]
        case "persistent-ref": return t.count == 2 ? persistentRefs : []
        case "item":
            if let values = valueContext(t) { return values }
            // An item's attributes, each once: no query option.
            return t.last?.isValueEnd ?? false ? attributeNames(for: nil, given: Self.givenKeys(t[2...]), changing: true) : []
        default:
            // `groups APP [ID, …]`: inside the list, groups.
            if t.contains(.open) { return t.last != .close ? groups : [] }
            let rest = choice.rest.split(separator: " ").map(String.init)
            return t.count - 2 < rest.count ? names(for: rest[t.count - 2]) : []
        }
    }

    /// Values after `ATTR=` or inside `ATTR=[…`; nil when the cursor is not at a value.
    private func valueContext(_ t: [CompletionTokens.Token]) -> [String]? {
        var attribute: String?
        var open: Int?
        if t.last == .equals, t.count >= 2, case .word(let a) = t[t.count - 2] {
            attribute = a
        } else if let o = CompletionTokens.unclosedOpen(t) {
            guard o >= 2, t[o - 1] == .equals, case .word(let a) = t[o - 2] else { return [] }
            // A new element after `[` or a comma; after an element, a comma.
            guard t.last == .open || t.last == .comma else { return [] }
            attribute = a
            open = o
        }
        guard let attribute else { return nil }
        guard let key = Vocabulary.argumentKey(named: attribute) else { return [] }
        if key == .group { return groups }
        if key == .context { return contexts }
        if key == .persistentRef { return persistentRefs }
        // access-control takes a list: its elements only inside `[…]`.
        if key == .accessControl { return open.map { accessControlElements(t[($0 + 1)...]) } ?? [] }
        return Vocabulary.valueNames(for: key)
    }

    /// What may come next in `access-control=[…`, the parser's rule
    /// (`[ PROTECTION ] FLAG { ( or | and ) FLAG } | … FLAG { FLAG }`: one
    /// combinator between every two flags, or none) with the flags
    /// SecAccessControlCreateWithFlags takes together. After a first flag
    /// both ways are open; a flag not yet written is offered where it may
    /// stand side by side (`[user-presence, ` takes only
    /// `application-password`; review 22a, R15).
    private func accessControlElements(_ list: ArraySlice<CompletionTokens.Token>) -> [String] {
        let written = list.compactMap { if case .word(let w) = $0 { w } else { nil } }
        var flags: [AccessControl.Flag] = []
        var combinator: String?
        var wantsFlag = true
        // Two flags were written side by side: no combinator may follow.
        var bare = false
        for w in written {
            if AccessControl.Combinator(rawValue: w) != nil {
                combinator = w
                wantsFlag = true
            } else if let f = Vocabulary.accessControlFlag(named: w) {
                if !wantsFlag { bare = true }
                flags.append(f)
                wantsFlag = false
            }
        }
        let flagFits = { (f: AccessControl.Flag, combined: Bool) in
            AccessControl.creationRefusal(flags + [f], withCombinator: combined) == nil
        }
        let fitting = { (combined: Bool) in
            Vocabulary.accessControlFlagNames.filter {
                Vocabulary.accessControlFlag(named: $0).map { !flags.contains($0) && flagFits($0, combined) } ?? false
            }
        }
        if wantsFlag { return written.isEmpty ? Vocabulary.accessibilityNames + fitting(combinator != nil) : fitting(combinator != nil) }
        if bare { return fitting(false) }
        // After a flag: the combinator (the one already used), if a flag may
        // follow it; with none used, a flag side by side as well.
        let combinators = AccessControl.Flag.allCases.contains(where: { !flags.contains($0) && flagFits($0, true) })
            ? combinator.map { [$0] } ?? AccessControl.Combinator.allCases.map(\.rawValue) : []
        guard combinator == nil else { return combinators }
        return combinators + fitting(false)
    }

    /// Attribute names, each with its `=`, for a class (all of them if
    /// unknown), without the keys in `given`; `changing`: an item's own
    /// attributes only (the changes of an update, `expect item`).
    private func attributeNames(for itemClass: ItemClass?, given: Set<Int>, changing: Bool) -> [String] {
        var names: [String] = []
        for name in Vocabulary.argumentNames {
            guard let key = Vocabulary.argumentKey(named: name), !given.contains(key.bit) else { continue }
            if changing && key.isQueryOption { continue }
            if let itemClass, case .attribute(let a) = key, !a.applies(to: itemClass) { continue }
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
    /// is inside a string or a comment (nothing to complete there). Read
    /// with the language's own lexer, so completion splits words as the
    /// parser does.
    static func statement(_ text: String) -> [Token]? {
        let file = SourceFile(name: "<completion>", text: text)
        var lexer = Lexer(file: file)
        var tokens: [Token] = []
        var lastStart = 0, lastEnd = 0
        lexing: while true {
            let t = lexer.next()
            switch t.kind {
            case .end: break lexing
            // A newline ends the statement (the lexer gives none inside a list).
            case .newline: tokens.removeAll()
            case .word, .integer: tokens.append(.word(file.text(t.range)))
            case .string: tokens.append(.string)
            case .leftBracket: tokens.append(.open)
            case .rightBracket: tokens.append(.close)
            case .comma: tokens.append(.comma)
            case .equals: tokens.append(.equals)
            }
            lastStart = t.range.start
            lastEnd = t.range.end
        }
        // An unterminated string runs to the cursor.
        if lexer.diagnostics.contains(where: { $0.code == .unterminatedString && $0.range?.start == lastStart }) {
            return nil
        }
        // Only space or a comment follows the last token: a comment on the cursor's line.
        let rest = file.bytes[min(lastEnd, file.bytes.count)...]
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")), !rest[hash...].contains(0x0A) { return nil }
        return tokens
    }

    /// Whether `text` ends with a quote that opens a string (the lexer's
    /// unterminated string starts there), not one that closes a string or
    /// is escaped inside one.
    static func endsWithOpeningQuote(_ text: String) -> Bool {
        guard text.hasSuffix("\"") else { return false }
        let file = SourceFile(name: "<completion>", text: text)
        var lexer = Lexer(file: file)
        while lexer.next().kind != .end {}
        return lexer.diagnostics.contains { $0.code == .unterminatedString && $0.range?.start == file.bytes.count - 1 }
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
