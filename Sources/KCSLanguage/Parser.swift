import KeychainEngine

/// A value as written after `=`: a word, a string, an integer or a list.
struct ValueNode {
    indirect enum Kind {
        case word(String), string(String), integer(Int), list([ValueNode])
    }
    var kind: Kind
    var range: SourceRange

    /// The text of a word or string, or nil.
    var text: String? {
        switch kind {
        case .word(let s), .string(let s): s
        case .integer, .list: nil
        }
    }
}

/// Recursive-descent parser over the token stream.
///
/// Errors are thrown inside a statement, collected at the statement loop, and
/// parsing resumes at the next line, so one pass reports every syntax error.
public struct Parser {
    private var lexer: Lexer
    private var token: Token
    /// Where the last consumed token ended: a statement's range stops there,
    /// before trailing spaces and comments.
    private var lastEnd = 0
    private let file: SourceFile
    private let bytes: [UInt8]
    private var diagnostics: [Diagnostic] = []
    private var sawApp = false
    private var sawPlatform = false

    /// Parses a whole file. Nothing should run when any diagnostic is an error.
    public static func parse(_ file: SourceFile) -> (program: Program, diagnostics: [Diagnostic]) {
        var parser = Parser(file: file)
        var statements: [Statement] = []
        while let s = parser.next() { statements.append(s) }
        return (Program(file: file, statements: statements), parser.finalDiagnostics)
    }

    /// A parser that hands out statements one at a time, so a large script
    /// never has to be held as a tree. Check ``hasErrors`` before running a
    /// statement: once an error has been seen nothing more may run.
    /// Elements one list may hold (a host limit).
    private var maxListLength = Int.max

    public init(file: SourceFile, maxListLength: Int = Int.max) {
        self.file = file
        self.bytes = file.bytes
        self.maxListLength = maxListLength
        self.lexer = Lexer(file: file)
        self.token = Token(kind: .newline, range: SourceRange(0, 0))
        if let bad = SourceCheck.firstProblem(in: file) {
            diagnostics.append(bad)
            token = Token(kind: .end, range: SourceRange(0, 0))
            return
        }
        advance()
    }

    /// Whether any syntax error has been found so far.
    public var hasErrors: Bool { !diagnostics.isEmpty || !lexer.diagnostics.isEmpty }

    /// Every diagnostic, lexer's and parser's, in source order.
    public var finalDiagnostics: [Diagnostic] {
        var all: [Diagnostic] = []
        // Where the lexer already reported a token (an unclosed '[', a number
        // too large), the parser's complaint about the same place is noise.
        all = lexer.diagnostics
        // A set, not a search of the list: a file of many errors stays linear.
        var reported = Set(all.map(\.range))
        for d in diagnostics where reported.insert(d.range).inserted {
            all.append(d)
        }
        all.sort { ($0.range?.start ?? 0) < ($1.range?.start ?? 0) }
        return all
    }

    private mutating func advance() {
        lastEnd = token.range.end
        token = lexer.next()
    }

    // program := { statement? NEWLINE }
    /// The next statement, skipping blank lines and lines with errors; nil at the end.
    public mutating func next() -> Statement? {
        while true {
            switch token.kind {
            case .end: return nil
            case .newline: advance()
            default:
                do throws(Diagnostic) {
                    let s = try parseStatement()
                    try expectLineEnd()
                    return s
                } catch {
                    diagnostics.append(error)
                    skipToLineEnd()
                }
            }
        }
    }

    private mutating func skipToLineEnd() {
        while true {
            switch token.kind {
            case .newline, .end: return
            default: advance()
            }
        }
    }

    private mutating func expectLineEnd() throws(Diagnostic) {
        switch token.kind {
        case .newline, .end: return
        default:
            throw Diagnostic(.unexpectedToken, "unexpected \(token.describe(in: file)) after the statement",
                             file: file, range: token.range,
                             hint: "one statement per line; start a comment with '#'")
        }
    }

    // MARK: Token helpers

    private var wordText: String? {
        if case .word = token.kind { return file.text(token.range) }
        return nil
    }

    /// Whether the current token is the word `literal`, compared on bytes
    /// so the hot path makes no strings.
    private func isWord(_ literal: StaticString) -> Bool {
        guard case .word = token.kind else { return false }
        return Self.equal(bytes, token.range, literal)
    }

    static func equal(_ bytes: [UInt8], _ range: SourceRange, _ literal: StaticString) -> Bool {
        let n = range.end - range.start
        guard n == literal.utf8CodeUnitCount else { return false }
        return literal.withUTF8Buffer { lit in
            var i = 0
            while i < n {
                if bytes[range.start + i] != lit[i] { return false }
                i += 1
            }
            return true
        }
    }

    private var atLineEnd: Bool {
        switch token.kind {
        case .newline, .end: true
        default: false
        }
    }

    /// A name where one is expected: a word, or a string for names with
    /// spaces. Only data may be empty.
    private mutating func name(_ what: String, allowEmpty: Bool = false) throws(Diagnostic) -> Name {
        switch token.kind {
        case .word:
            let n = Name(text: file.text(token.range), range: token.range)
            advance()
            return n
        case .string(let s):
            if s.isEmpty && !allowEmpty {
                throw Diagnostic(.wrongValueType, "\(what) cannot be empty", file: file, range: token.range)
            }
            let n = Name(text: s, range: token.range)
            advance()
            return n
        default:
            throw Diagnostic(.expectedToken, "expected \(what), found \(token.describe(in: file))",
                             file: file, range: token.range)
        }
    }

    /// One of a fixed set of words.
    private mutating func choice<T>(_ what: String, _ options: [(String, T)]) throws(Diagnostic) -> T {
        guard let w = wordText else {
            throw Diagnostic(.expectedToken, "expected \(what), found \(token.describe(in: file))",
                             file: file, range: token.range,
                             hint: "one of: " + options.map(\.0).joined(separator: ", "))
        }
        guard let hit = options.first(where: { $0.0 == w }) else {
            throw Diagnostic(.unknownValue, "unknown \(what) '\(w)'", file: file, range: token.range,
                             hint: Suggest.hint(for: w, in: options.map(\.0))
                                ?? "one of: " + options.map(\.0).joined(separator: ", ")).didYouMean(w, in: options.map(\.0))
        }
        advance()
        return hit.1
    }

    private mutating func expectWord(_ word: String) throws(Diagnostic) {
        guard wordText == word else {
            throw Diagnostic(.expectedToken, "expected '\(word)', found \(token.describe(in: file))",
                             file: file, range: token.range)
        }
        advance()
    }

    private mutating func integer(_ what: String) throws(Diagnostic) -> (Int, SourceRange) {
        guard case .integer(let i) = token.kind else {
            throw Diagnostic(.expectedToken, "expected \(what), found \(token.describe(in: file))",
                             file: file, range: token.range)
        }
        let r = token.range
        advance()
        return (i, r)
    }

    // value := WORD | STRING | INTEGER | '[' [ value { ',' value } [','] ] ']'
    private mutating func value() throws(Diagnostic) -> ValueNode {
        let r = token.range
        switch token.kind {
        case .word:
            advance()
            return ValueNode(kind: .word(file.text(r)), range: r)
        case .string(let s):
            advance()
            return ValueNode(kind: .string(s), range: r)
        case .integer(let i):
            advance()
            return ValueNode(kind: .integer(i), range: r)
        case .leftBracket:
            advance()
            var items: [ValueNode] = []
            while true {
                if case .rightBracket = token.kind { break }
                if case .end = token.kind {
                    throw Diagnostic(.unexpectedEndOfInput, "the input ended inside a list: '[' is never closed",
                                     file: file, range: r, hint: "close the list with ']'")
                }
                if case .leftBracket = token.kind {
                    // Nothing takes a list of lists; refusing them also bounds recursion.
                    throw Diagnostic(.wrongValueType, "lists do not nest", file: file, range: token.range,
                                     hint: "write the elements of one list separated by commas")
                }
                if items.count >= maxListLength {
                    throw Diagnostic(.inputLimit, "the list is longer than the limit of \(maxListLength) elements",
                                     file: file, range: token.range)
                }
                items.append(try value())
                if case .comma = token.kind { advance(); continue }
                if case .rightBracket = token.kind { break }
                throw Diagnostic(.expectedToken, "expected ',' or ']' in the list, found \(token.describe(in: file))",
                                 file: file, range: token.range, hint: "separate list elements with commas")
            }
            let end = token.range
            advance()
            return ValueNode(kind: .list(items), range: r.union(end))
        default:
            throw Diagnostic(.expectedToken, "expected a value after '=', found \(token.describe(in: file))",
                             file: file, range: token.range,
                             hint: "a value is a word, a \"string\", a number or a [list]")
        }
    }

    // MARK: Statements

    // statement := [ 'on' NAME ] form
    private mutating func parseStatement() throws(Diagnostic) -> Statement {
        let start = token.range
        var device: Name?
        if isWord("on") {
            advance()
            device = try name("a device name after 'on'")
        }
        guard case .word = token.kind else {
            throw Diagnostic(.unknownStatement, "expected a statement, found \(token.describe(in: file))",
                             file: file, range: token.range,
                             hint: "a statement starts with a keyword such as 'app', 'as' or 'expect'")
        }
        guard let form = StatementForm.form(bytes, token.range) else {
            let keyword = file.text(token.range)
            throw Diagnostic(.unknownStatement, "unknown statement '\(keyword)'", file: file, range: token.range,
                             hint: Suggest.hint(for: keyword, in: StatementForm.keywords)
                                ?? "statements: " + StatementForm.all.map(\.keyword).joined(separator: ", "))
                .didYouMean(keyword, in: StatementForm.keywords)
        }
        let keywordRange = token.range
        advance()
        let kind = try parseForm(form.kind, keywordRange)
        return Statement(kind: kind, device: device, range: start.union(lastRange))
    }

    /// The end of the last token consumed.
    private var lastRange: SourceRange { SourceRange(lastEnd, lastEnd) }

    private mutating func parseForm(_ kind: StatementForm.Kind, _ keyword: SourceRange) throws(Diagnostic) -> StatementKind {
        switch kind {
        case .platform: return try parsePlatform(keyword)
        case .team: return try parseTeam()
        case .app: return try parseApp()
        case .group:
            // group := 'group' NAME APP { APP }
            let n = try name("a group name")
            var apps: [Name] = []
            while !atLineEnd { apps.append(try name("an app name")) }
            if apps.isEmpty {
                throw Diagnostic(.expectedToken, "'group' needs at least one app", file: file, range: n.range,
                                 hint: "list the apps that share it: group \(n.text) AppOne AppTwo")
            }
            return .group(name: n, apps: apps)
        case .include:
            // include := 'include' STRING
            let p = try name("a path in quotes")
            return .include(path: p.text, resolved: nil)
        case .device:
            // device := 'device' NAME { 'account' '=' NAME | 'platform' '=' FAMILY INTEGER }
            let n = try name("a device name")
            var account: Name?
            var platform: Platform?
            var seen = Set<String>()
            while !atLineEnd {
                if try option(["account", "platform"], of: "device", seen: &seen) == "account" {
                    account = try name("an account name")
                } else {
                    platform = try platformValue()
                }
            }
            return .device(name: n, account: account, platform: platform)
        case .context:
            // context := 'context' NAME { 'reuse' '=' INTEGER | 'interaction' '=' ( 'true' | 'false' ) }
            let n = try name("a context name")
            var context = AuthContext()
            var seen = Set<String>()
            while !atLineEnd {
                let key = try option(["reuse", "interaction"], of: "context", seen: &seen)
                if key == "reuse" {
                    let (seconds, r) = try integer("a number of seconds")
                    guard seconds >= 0 && seconds <= AuthContext.maximumReuseDuration else {
                        throw Diagnostic(.wrongValueType, "a reuse duration is 0 to \(AuthContext.maximumReuseDuration) seconds",
                                         file: file, range: r,
                                         hint: "LocalAuthentication allows at most LATouchIDAuthenticationMaximumAllowableReuseDuration (300 s)")
                    }
                    context.reuseDuration = seconds
                } else {
                    context.interactionAllowed = try choice("true or false", [("true", true), ("false", false)])
                }
            }
            return .context(name: n, context)
        case .wait:
            // wait := 'wait' INTEGER
            let (seconds, r) = try integer("a number of seconds")
            guard seconds >= 0 && seconds <= 1_000_000_000 else {
                throw Diagnostic(.wrongValueType, "wait takes 0 to 1000000000 seconds", file: file, range: r)
            }
            return .wait(seconds)
        case .keep:
            // keep := 'keep' 'persistent-ref' 'as' NAME
            try expectWord("persistent-ref")
            try expectWord("as")
            return .keepPersistentRef(try name("a name for the persistent reference"))
        case .call: return .call(try parseCall(keyword))
        case .expect: return try parseExpect()
        case .passcode:
            return .passcode(try choice("passcode state", [("on", true), ("off", false)]))
        case .lock: return .lock
        case .unlock: return .unlock
        case .reboot: return .reboot
        case .biometry:
            return .biometry(try choice("biometry change", BiometryChange.allCases.map { ($0.rawValue, $0) }))
        case .user:
            return .user(try choice("answer", [("approves", PromptAnswer.approve), ("cancels", .cancel), ("fails", .fail)]))
        case .uninstall: return .uninstall(try name("an app name"))
        case .install: return .install(try name("an app name"))
        case .transfer:
            // transfer := 'transfer' APP 'to' TEAM
            let app = try name("an app name")
            try expectWord("to")
            return .transfer(app: app, team: try name("a team"))
        case .sync: return .sync
        case .backup:
            // backup := 'backup' DEVICE 'as' NAME
            let d = try name("a device name")
            try expectWord("as")
            return .backup(device: d, name: try name("a backup name"))
        case .restore:
            // restore := 'restore' NAME 'to' DEVICE
            let b = try name("a backup name")
            try expectWord("to")
            return .restore(name: b, device: try name("a device name"))
        case .show:
            // show := 'show' ( 'apps' | 'items' | 'matrix' | 'app' APP )
            if isWord("app") {
                advance()
                return .show(.app(try name("an app name")))
            }
            return .show(try choice("thing to show", [("apps", ShowTarget.apps), ("items", .items), ("matrix", .matrix)]))
        case .explain: return .explain
        case .reset: return .reset
        }
    }

    /// `KEY=` of a statement that takes a few options, each at most once;
    /// returns the key, with the '=' consumed.
    private mutating func option(_ keys: [String], of what: String, seen: inout Set<String>) throws(Diagnostic) -> String {
        let keyRange = token.range
        guard let w = wordText, keys.contains(w) else {
            let w = wordText ?? token.describe(in: file)
            throw Diagnostic(.unknownAttribute, "unknown \(what) option '\(w)'", file: file, range: keyRange,
                             hint: Suggest.hint(for: w, in: keys) ?? "options: " + keys.map { $0 + "=" }.joined(separator: " "))
        }
        guard seen.insert(w).inserted else {
            throw Diagnostic(.duplicateArgument, "'\(w)' is given twice", file: file, range: keyRange)
        }
        advance()
        try equals()
        return w
    }

    private mutating func equals() throws(Diagnostic) {
        guard case .equals = token.kind else {
            throw Diagnostic(.expectedToken, "expected '=', found \(token.describe(in: file))", file: file,
                             range: token.range)
        }
        advance()
    }

    // platform := 'platform' ( 'ios' | 'macos' | 'catalyst' | 'watchos' ) INTEGER
    private mutating func parsePlatform(_ keyword: SourceRange) throws(Diagnostic) -> StatementKind {
        if sawPlatform {
            throw Diagnostic(.misplacedDeclaration, "the platform is already set", file: file, range: keyword,
                             hint: "a scenario has one platform; split scenarios per platform into files")
        }
        if sawApp {
            throw Diagnostic(.misplacedDeclaration, "'platform' must come before the first 'app'", file: file,
                             range: keyword, hint: "move this line to the top of the file")
        }
        let p = try platformValue()
        sawPlatform = true
        return .platform(p)
    }

    // FAMILY INTEGER, as in 'platform ios 18' and 'device D platform=ios 13'
    private mutating func platformValue() throws(Diagnostic) -> Platform {
        let family: Platform.Family = try choice("platform", Platform.Family.allCases.map { ($0.rawValue, $0) })
        let (version, r) = try integer("a major version such as 18")
        guard version > 0 && version < 100 else {
            throw Diagnostic(.unknownPlatform, "unlikely \(family.rawValue) version \(version)", file: file, range: r,
                             hint: "write the major version, e.g. 'platform \(family.rawValue) 18'")
        }
        return Platform(family, version)
    }

    // team := 'team' TEAMID [ 'as' NAME ]
    private mutating func parseTeam() throws(Diagnostic) -> StatementKind {
        let id = try name("a team ID")
        guard Team.isWellFormedID(id.text) else {
            throw Diagnostic(.malformedTeamID, "'\(id.text)' is not a team ID", file: file, range: id.range,
                             hint: "a team ID is ten upper-case letters or digits, e.g. SKMME9E2Y8")
        }
        var alias: Name?
        if isWord("as") {
            advance()
            alias = try name("a name for the team")
        }
        return .team(id: id, alias: alias)
    }

    // app := 'app' BUNDLEID [ 'as' NAME ] { option '=' value }
    // option := 'team' | 'kind' | 'keychain-access-groups' | 'application-groups' | 'provisioned'
    //         | 'signing' | 'associated-application-identifier' | 'entitlements'
    private mutating func parseApp() throws(Diagnostic) -> StatementKind {
        sawApp = true
        let bundle = try name("a bundle ID")
        var decl = AppDeclaration(bundleID: bundle, alias: nil, team: nil, kind: .app)
        if isWord("as") {
            advance()
            decl.alias = try name("a name for the app")
        }
        var seen = Set<String>()
        let options = AppOption.all
        while !atLineEnd {
            let keyRange = token.range
            guard let key = wordText else {
                throw Diagnostic(.expectedToken, "expected an option such as team=…, found \(token.describe(in: file))",
                                 file: file, range: token.range)
            }
            guard options.contains(key) else {
                throw Diagnostic(.unknownAttribute, "unknown app option '\(key)'", file: file, range: keyRange,
                                 hint: Suggest.hint(for: key, in: options) ?? "options: " + options.joined(separator: ", "))
            }
            guard seen.insert(key).inserted else {
                throw Diagnostic(.duplicateArgument, "'\(key)' is given twice", file: file, range: keyRange)
            }
            advance()
            try equals()
            let v = try value()
            switch key {
            case "team":
                guard let t = v.text else { throw wrongType(v, "a team ID, team name or none") }
                decl.team = Name(text: t, range: v.range)
            case "provisioned":
                guard case .word(let w) = v.kind, w == "true" || w == "false" else { throw wrongType(v, "true or false") }
                decl.provisioned = w == "true"
            case "signing":
                let shades = Signing.allCases.map(\.rawValue)
                guard let t = v.text, let shade = Signing(rawValue: t) else {
                    throw Diagnostic(.unknownValue, "unknown signing '\(v.text ?? "?")'", file: file, range: v.range,
                                     hint: Suggest.hint(for: v.text ?? "", in: shades) ?? "one of: " + shades.joined(separator: ", "))
                }
                decl.signing = shade            case "kind":
                let kinds = TargetKind.allCases.map(\.rawValue)
                guard let t = v.text, let k = TargetKind(rawValue: t) else {
                    throw Diagnostic(.unknownValue, "unknown target kind '\(v.text ?? "?")'", file: file, range: v.range,
                                     hint: Suggest.hint(for: v.text ?? "", in: kinds) ?? "one of: " + kinds.joined(separator: ", "))
                }
                decl.kind = k
            case "entitlements":
                // entitlements="PATH": a plist, codesign output or a profile, relative to the script.
                guard let t = v.text, !t.isEmpty else { throw wrongType(v, "a path in quotes, such as \"App.entitlements\"") }
                decl.entitlements = Name(text: t, range: v.range)
            case "project", "target", "configuration":
                // project="App.xcodeproj" [target="T"] [configuration="C"]: the app as the project builds it.
                guard let t = v.text, !t.isEmpty else { throw wrongType(v, "a name or path in quotes") }
                let name = Name(text: t, range: v.range)
                if key == "project" { decl.project = name } else if key == "target" { decl.target = name } else { decl.configuration = name }
            default:
                guard case .list(let items) = v.kind else {
                    throw wrongType(v, "a list such as [$(AppIdentifierPrefix)com.example.Shared]")
                }
                var names: [Name] = []
                for item in items {
                    guard let t = item.text else { throw wrongType(item, "a group name") }
                    names.append(Name(text: t, range: item.range))
                }
                switch key {
                case "keychain-access-groups": decl.keychainAccessGroups = names
                case "application-groups": decl.applicationGroups = names
                default: decl.associatedApplicationIdentifiers = names
                }
            }
        }
        if decl.project != nil || decl.target != nil || decl.configuration != nil {
            try checkProjectOptions(decl, seen)
        }
        if decl.signing != nil && seen.contains("provisioned") {
            throw Diagnostic(.duplicateArgument, "provisioned= and signing= both say how the app is signed", file: file,
                             range: bundle.range, hint: "provisioned=false is signing=unprovisioned: keep one")
        }
        if let path = decl.entitlements,
           decl.keychainAccessGroups != nil || decl.applicationGroups != nil || decl.associatedApplicationIdentifiers != nil {
            throw Diagnostic(.duplicateArgument, "entitlements= and a group list both give the app's groups", file: file,
                             range: path.range, hint: "keep the file, or write the lists, not both")
        }
        return .app(decl)
    }

    /// `project=` gives the bundle ID, kind and groups: options that would
    /// give them too are refused, and `target=`/`configuration=` need it.
    private func checkProjectOptions(_ decl: AppDeclaration, _ seen: Set<String>) throws(Diagnostic) {
        guard let project = decl.project else {
            let given = decl.target ?? decl.configuration
            throw Diagnostic(.unexpectedToken, "target= and configuration= go with project=", file: file, range: given?.range,
                             hint: "add project=\"App.xcodeproj\"")
        }
        for clash in ["kind", "keychain-access-groups", "application-groups", "entitlements"] where seen.contains(clash) {
            throw Diagnostic(.duplicateArgument, "\(clash)= and project= both describe the app", file: file, range: project.range,
                             hint: "the project gives the bundle ID, kind and entitlements; keep project= alone")
        }
    }

    private func wrongType(_ v: ValueNode, _ expected: String) -> Diagnostic {
        Diagnostic(.wrongValueType, "expected \(expected)", file: file, range: v.range)
    }

    // call := 'as' APP OP [ CLASS ] { ATTR '=' value } [ 'set' { ATTR '=' value } ]
    private mutating func parseCall(_ keyword: SourceRange) throws(Diagnostic) -> CallStatement {
        let app = try name("an app name after 'as'")
        let opRange = token.range
        let op: Operation = try choice("operation", Operation.allCases.map { ($0.rawValue, $0) })
        var spec = ItemSpec()
        var changes: ItemSpec?
        var classRange: SourceRange?
        // CLASS is a word not followed by '='.
        var pendingKey: SourceRange?
        if case .word = token.kind, !(op == .update && isWord("set")) {
            let r = token.range
            advance()
            if case .equals = token.kind {
                pendingKey = r
            } else {
                let w = file.text(r)
                guard let c = ItemClass(name: w) else {
                    throw Diagnostic(.unknownClass, "unknown item class '\(w)'", file: file, range: r,
                                     hint: Suggest.hint(for: w, in: Vocabulary.classNames)
                                        ?? "classes: " + ItemClass.allCases.map(\.rawValue).joined(separator: ", "))
                        .didYouMean(w, in: Vocabulary.classNames)
                }
                spec.itemClass = c
                classRange = r
            }
        }
        // The query and the changes are separate dictionaries: an attribute
        // may appear in both (set account="new" renames).
        var lowering = Lowering(file: file)
        var changeLowering = Lowering(file: file)
        var inChanges = false
        while pendingKey != nil || !atLineEnd {
            let key: SourceRange
            if let p = pendingKey {
                key = p
                pendingKey = nil
                try equals()
            } else {
                guard case .word = token.kind else {
                    throw Diagnostic(.expectedToken, "expected an attribute such as account=\"…\", found \(token.describe(in: file))",
                                     file: file, range: token.range)
                }
                let r = token.range
                let isSet = isWord("set")
                advance()
                if isSet, !(token.kind == .equals) {
                    guard op == .update else {
                        throw Diagnostic(.misplacedSet, "'set' belongs to update calls", file: file, range: r,
                                         hint: "only update changes attributes: as APP update CLASS … set ATTR=VALUE")
                    }
                    guard !inChanges else {
                        throw Diagnostic(.misplacedSet, "'set' is given twice", file: file, range: r)
                    }
                    inChanges = true
                    // kSecClass is not among the attributes to change: the query names it.
                    changes = ItemSpec()
                    if atLineEnd {
                        throw Diagnostic(.expectedToken, "'set' needs the attributes to change", file: file, range: r,
                                         hint: "e.g. set data=\"new\"")
                    }
                    continue
                }
                key = r
                try equals()
            }
            let v = try value()
            if inChanges {
                var c = changes ?? ItemSpec()
                _ = try changeLowering.apply(key, v, to: &c, changing: true)
                changes = c
            } else {
                _ = try lowering.apply(key, v, to: &spec, changing: false)
            }
        }
        // The class was known while the changes were read (to check their
        // attributes); it is no attribute to change (kSecClass there is errSecNoSuchAttr).
        changes?.itemClass = nil
        if op == .update && changes == nil {
            throw Diagnostic(.expectedToken, "update needs 'set' and the attributes to change", file: file,
                             range: opRange, hint: "as APP update CLASS account=\"alice\" set data=\"new\"")
        }
        return CallStatement(app: app, request: CallRequest(op, spec, changes: changes), operationRange: opRange,
                             classRange: classRange, persistentRef: lowering.persistentRefName,
                             context: lowering.contextName ?? changeLowering.contextName,
                             changedPersistentRef: changeLowering.persistentRefName)
    }

    // expect := 'expect' ( 'status' STATUS { 'or' STATUS } | 'count' INTEGER | 'data' STRING
    //         | 'group' ID | 'item' { ATTR '=' value } | 'groups' APP list | 'default-group' APP ID )
    private mutating func parseExpect() throws(Diagnostic) -> StatementKind {
        let subjects = ExpectSubject.all
        guard case .word = token.kind else {
            throw Diagnostic(.expectedToken, "expected what to check after 'expect', found \(token.describe(in: file))",
                             file: file, range: token.range, hint: "one of: " + subjects.joined(separator: ", "))
        }
        let what = file.text(token.range)
        guard subjects.contains(what) else {
            throw Diagnostic(.unknownStatement, "unknown expectation 'expect \(what)'", file: file, range: token.range,
                             hint: Suggest.hint(for: what, in: subjects) ?? "one of: " + subjects.joined(separator: ", "))
        }
        advance()
        switch what {
        case "status":
            var statuses = [try status()]
            while isWord("or") {
                advance()
                statuses.append(try status())
            }
            return .expectStatus(statuses)
        case "count":
            let (n, r) = try integer("a count")
            guard n >= 0 else { throw Diagnostic(.wrongValueType, "a count cannot be negative", file: file, range: r) }
            return .expectCount(n)
        case "data":
            return .expectData(try name("the data in quotes", allowEmpty: true).text)
        case "no-data":
            return .expectNoData
        case "persistent-ref":
            return .expectPersistentRef(try name("the name of a kept persistent reference"))
        case "group":
            return .expectGroup(try name("an access group"))
        case "item":
            var spec = ItemSpec()
            var args: [CallArgument] = []
            var lowering = Lowering(file: file)
            while !atLineEnd {
                guard case .word = token.kind else {
                    throw Diagnostic(.expectedToken, "expected an attribute such as account=\"…\", found \(token.describe(in: file))",
                                     file: file, range: token.range)
                }
                let key = token.range
                advance()
                try equals()
                let v = try value()
                let k = try lowering.apply(key, v, to: &spec, changing: true)
                args.append(CallArgument(key: k, range: key.union(v.range), isChange: false))
            }
            if args.isEmpty {
                throw Diagnostic(.expectedToken, "'expect item' needs attributes to check", file: file, range: token.range,
                                 hint: "expect item account=\"alice\" accessible=when-unlocked")
            }
            return .expectItem(spec, args)
        case "groups":
            let app = try name("an app name")
            let v = try value()
            guard case .list(let items) = v.kind else {
                throw wrongType(v, "a list of access groups such as [SKMME9E2Y8.com.example.AppOne]")
            }
            var names: [Name] = []
            for item in items {
                guard let t = item.text else { throw wrongType(item, "an access group") }
                names.append(Name(text: t, range: item.range))
            }
            return .expectGroups(app: app, groups: names)
        default:
            let app = try name("an app name")
            return .expectDefaultGroup(app: app, group: try name("an access group"))
        }
    }

    // STATUS := NAME | CODE
    private mutating func status() throws(Diagnostic) -> StatusRef {
        let r = token.range
        switch token.kind {
        case .integer(let i):
            advance()
            guard let s = Int32(exactly: i).flatMap(KeychainStatus.init(code:)) else {
                throw Diagnostic(.unknownStatus, "unknown status code \(i)", file: file, range: r,
                                 hint: "known codes: " + KeychainStatus.allCases.map { String($0.code) }.joined(separator: ", "))
            }
            return StatusRef(status: s, range: r)
        case .word:
            let w = file.text(r)
            advance()
            guard let s = KeychainStatus(name: w) else {
                throw Diagnostic(.unknownStatus, "unknown status '\(w)'", file: file, range: r,
                                 hint: Suggest.hint(for: w, in: Vocabulary.statusNames)
                                    ?? "statuses are written as in SecBase.h, e.g. errSecItemNotFound or -25300")
                    .didYouMean(w, in: Vocabulary.statusNames)
            }
            return StatusRef(status: s, range: r)
        default:
            throw Diagnostic(.expectedToken, "expected a status name or code, found \(token.describe(in: file))",
                             file: file, range: r, hint: "e.g. expect status errSecSuccess")
        }
    }
}

/// Checks that must pass before a file is lexed: no NUL bytes, valid UTF-8.
enum SourceCheck {
    static func firstProblem(in file: SourceFile) -> Diagnostic? {
        let b = file.bytes
        var i = 0
        while i < b.count {
            let c = b[i]
            if c == 0 {
                return Diagnostic(.nulByte, "the file contains a NUL byte", file: file, range: SourceRange(i, i + 1),
                                  hint: "is this a binary file? .kcs scripts are UTF-8 text")
            }
            if c < 0x80 { i += 1; continue }
            let need: Int
            switch c {
            case 0xC2...0xDF: need = 1
            case 0xE0...0xEF: need = 2
            case 0xF0...0xF4: need = 3
            default: return invalid(file, i)
            }
            guard i + need < b.count else { return invalid(file, i) }
            for k in 1...need where b[i + k] & 0xC0 != 0x80 { return invalid(file, i) }
            // Overlong, surrogate and out-of-range forms.
            if c == 0xE0 && b[i + 1] < 0xA0 { return invalid(file, i) }
            if c == 0xED && b[i + 1] > 0x9F { return invalid(file, i) }
            if c == 0xF0 && b[i + 1] < 0x90 { return invalid(file, i) }
            if c == 0xF4 && b[i + 1] > 0x8F { return invalid(file, i) }
            // Trojan Source: a direction change hidden in a comment or a
            // string makes the line read differently from what runs, and an
            // invisible character makes two different names or values read
            // the same. Written as an escape (`"\u{200B}"`) either is data.
            var v = UInt32(c) & (need == 1 ? 0x1F : need == 2 ? 0x0F : 0x07)
            for k in 1...need { v = v << 6 | UInt32(b[i + k] & 0x3F) }
            if TerminalText.isBidiControl(v) {
                return Diagnostic(.bidiControl, "the script holds the invisible bidirectional control U+\(String(v, radix: 16, uppercase: true))",
                                  file: file, range: SourceRange(i, i + need + 1),
                                  hint: "it can make a line read differently from what runs; delete it (it shows as \(TerminalText.escape(Unicode.Scalar(v) ?? " ")))")
            }
            // A byte-order mark that starts the file is not part of the script.
            if TerminalText.isInvisible(v) && !(i == 0 && v == 0xFEFF) {
                let escape = TerminalText.escape(Unicode.Scalar(v) ?? " ")
                return Diagnostic(.invisibleCharacter, "the script holds the invisible character U+\(String(v, radix: 16, uppercase: true))",
                                  file: file, range: SourceRange(i, i + need + 1),
                                  hint: "text with it reads the same as text without it; delete it, or write \(escape) in a string if the value needs it")
            }
            i += need + 1
        }
        return nil
    }

    private static func invalid(_ file: SourceFile, _ at: Int) -> Diagnostic {
        Diagnostic(.invalidUTF8, "the file is not valid UTF-8 (byte 0x\(String(file.bytes[at], radix: 16, uppercase: true)) at offset \(at))",
                   file: file, range: SourceRange(at, at + 1),
                   hint: "save the script as UTF-8 text")
    }
}
