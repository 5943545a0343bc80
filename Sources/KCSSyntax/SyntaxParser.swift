/// Recursive-descent parser of the syntax: it checks what the grammar table
/// says (keywords, words, options and the shape of values) and leaves
/// every name and value of the keychain model to the runtime's lowering.
///
/// Errors are thrown inside a statement, collected at the statement loop, and
/// parsing resumes at the next line, so one pass reports every syntax error.
public struct SyntaxParser {
    @usableFromInline var lexer: Lexer
    private var token: Token
    /// Where the last consumed token ended: a statement's range stops there,
    /// before trailing spaces and comments.
    private var lastEnd = 0
    private let file: SourceFile
    private let bytes: [UInt8]
    @usableFromInline var diagnostics: [Diagnostic] = []
    /// The strings of names lately read: a script names its few apps and
    /// devices on line after line.
    private var names = TextCache()
    /// The elements of the statement's lists (``NodeList``): a list's
    /// values and a call's or an item expectation's arguments. Emptied, room
    /// kept, when a statement starts past ``listBufferBound`` elements, so
    /// the nodes themselves are plain data and a statement allocates nothing
    /// for its lists; a caller reads them before it asks for the next
    /// statement. (Emptied before every statement, as they were, each call
    /// paid some 70 instructions for it.)
    @usableFromInline var valueBuffer: [ValueNode] = []
    @usableFromInline var argumentBuffer: [ArgumentNode] = []
    /// How many list elements the buffers keep from earlier statements
    /// before a statement starts them again (a statement's own may be more).
    private static let listBufferBound = 1024
    /// Keeps every statement's lists (``parse(_:)``).
    private var keepsLists = false
    /// The statics the parser matches every statement against, held here:
    /// read through the statics, each lookup cost a lazy initialization check.
    private let keywords = StatementForm.keywordTable
    private let subjectIndex = SyntaxParser.subjectIndex

    /// Parses a whole file into what was written, every statement's lists kept.
    public static func parse(_ file: SourceFile) -> ParsedFile {
        var parser = SyntaxParser(file: file)
        parser.keepsLists = true
        var statements: [StatementNode] = []
        while let s = parser.next() { statements.append(s) }
        return ParsedFile(statements: statements, diagnostics: parser.finalDiagnostics, parser: parser)
    }

    /// The current statement's list elements, each list at its ``NodeList/bounds``.
    /// These three are inlined into the lowering, which reads them for
    /// every call: out of line, each read passed a copy of the parser.
    @inlinable @inline(__always)
    public var listValues: [ValueNode] { valueBuffer }

    /// The values of a list of the current statement.
    @inlinable @inline(__always)
    public func values(_ list: NodeList) -> ArraySlice<ValueNode> { valueBuffer[list.bounds] }

    /// The arguments of a call or an item expectation of the current statement.
    @inlinable @inline(__always)
    public func arguments(_ list: NodeList) -> ArraySlice<ArgumentNode> { argumentBuffer[list.bounds] }

    /// A name's text and range: a word's through the cache of short names,
    /// a string's decoded.
    public mutating func name(_ node: NameNode) -> Name {
        if node.isString {
            return Name(text: ValueNode(kind: .string, range: node.range, needsDecoding: node.needsDecoding).text(in: file) ?? "",
                        range: node.range)
        }
        return Name(text: names.text(of: node.range, in: bytes, file: file), range: node.range)
    }

    /// Elements one list may hold (a host limit).
    private var maxListLength = Int.max

    /// A parser that hands out statements one at a time, so a large script
    /// never has to be held as a tree.
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
    // Inlined into the runtime, which asks before every statement: out of
    // line, each read passed a copy of the 209-byte parser.
    @inlinable @inline(__always)
    public var hasErrors: Bool { !diagnostics.isEmpty || !lexer.diagnostics.isEmpty }

    /// Errors one parse reports before it reads no further. Every error is
    /// kept with its hint until the end, so a file that is errors line after
    /// line (a binary, a paste gone wrong) held memory in proportion to its
    /// size: 6 MB of `zz` lines took 1.25 GB and 50 s (found by adversarial
    /// testing). Past this many the parse stops, and says so.
    public static let maxErrors = 1_000

    /// Syntax errors found so far, the lexer's and the parser's.
    @inlinable @inline(__always)
    public var errorCount: Int { diagnostics.count + lexer.diagnostics.count }

    /// Where the parse stopped at ``maxErrors``, if it did.
    private var stoppedAt: SourceRange?

    /// Reads no further: the rest of the file gives no statement and no
    /// error, and the final diagnostics say where reading stopped. The
    /// runtime calls it when its own errors and these reach ``maxErrors``.
    public mutating func stop() {
        guard stoppedAt == nil else { return }
        // Nothing is left unread when only blank lines follow.
        while case .newline = token.kind { advance() }
        if case .end = token.kind { return }
        stoppedAt = SourceRange(token.range.start, token.range.start)
    }

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
        // Stopped at a statement, or (one line of errors past the limit) at
        // the first error the lexer did not keep.
        let dropped = lexer.firstDropped.map { SourceRange($0, $0) }
        if let at = [stoppedAt, dropped].compactMap({ $0 }).min(by: { $0.start < $1.start }) {
            all.append(Diagnostic(.inputLimit, "more than \(Self.maxErrors) errors: the rest of the file was not read",
                                  file: file, range: at, hint: "fix these and run again"))
        }
        return all
    }

    private mutating func advance() {
        lastEnd = token.range.end
        token = lexer.next()
    }

    // program := { statement? NEWLINE }
    /// The next statement, skipping blank lines and lines with errors; nil at the end.
    public mutating func next() -> StatementNode? {
        while true {
            if stoppedAt != nil { return nil }
            switch token.kind {
            case .end: return nil
            case .newline: advance()
            default:
                if errorCount >= Self.maxErrors {
                    stop()
                    return nil
                }
                if !keepsLists {
                    if valueBuffer.count > Self.listBufferBound { valueBuffer.removeAll(keepingCapacity: true) }
                    if argumentBuffer.count > Self.listBufferBound { argumentBuffer.removeAll(keepingCapacity: true) }
                }
                do throws(Diagnostic) {
                    // Built in place: the line's end is checked before the
                    // node is made (a node held across the check was copied
                    // twice more, each a memcpy of its 168 bytes).
                    return try parseStatement()
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

    package static func equal(_ bytes: [UInt8], _ range: SourceRange, _ literal: StaticString) -> Bool {
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
        let node = try nameNode(what, allowEmpty: allowEmpty)
        return name(node)
    }

    /// The same, as where it was written (the nodes of calls and
    /// expectations keep no text).
    private mutating func nameNode(_ what: String, allowEmpty: Bool = false) throws(Diagnostic) -> NameNode {
        switch token.kind {
        case .word:
            let n = NameNode(range: token.range)
            advance()
            return n
        case .string:
            let n = NameNode(range: token.range, isString: true, needsDecoding: token.needsDecoding)
            if !allowEmpty {
                // A string without escapes and closed is its bytes between
                // the quotes: empty when they touch; any other is decoded.
                let empty = token.needsDecoding
                    ? (ValueNode(kind: .string, range: token.range, needsDecoding: true).text(in: file) ?? "").isEmpty
                    : token.range.end - token.range.start <= 2
                if empty {
                    throw Diagnostic(.wrongValueType, "\(what) cannot be empty", file: file, range: token.range)
                }
            }
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

    private mutating func integer(_ what: String) throws(Diagnostic) -> IntegerNode {
        guard case .integer(let i) = token.kind else {
            throw Diagnostic(.expectedToken, "expected \(what), found \(token.describe(in: file))",
                             file: file, range: token.range)
        }
        let r = token.range
        advance()
        return IntegerNode(value: i, range: r)
    }

    // value := WORD | STRING | INTEGER | '[' [ value { ',' value } [','] ] ']'
    private mutating func value() throws(Diagnostic) -> ValueNode {
        let r = token.range
        switch token.kind {
        case .word:
            advance()
            return ValueNode(kind: .word, range: r)
        case .string:
            let needsDecoding = token.needsDecoding
            advance()
            return ValueNode(kind: .string, range: r, needsDecoding: needsDecoding)
        case .integer(let i):
            advance()
            return ValueNode(kind: .integer(i), range: r)
        case .leftBracket:
            advance()
            // Lists do not nest, so a list's elements lie together in the buffer.
            let start = valueBuffer.count
            var count = 0
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
                if count >= maxListLength {
                    throw Diagnostic(.inputLimit, "the list is longer than the limit of \(maxListLength) elements",
                                     file: file, range: token.range)
                }
                valueBuffer.append(try value())
                count += 1
                if case .comma = token.kind { advance(); continue }
                if case .rightBracket = token.kind { break }
                throw Diagnostic(.expectedToken, "expected ',' or ']' in the list, found \(token.describe(in: file))",
                                 file: file, range: token.range, hint: "separate list elements with commas")
            }
            let end = token.range
            advance()
            return ValueNode(kind: .list(NodeList(start: start, count: count)), range: r.union(end))
        default:
            throw Diagnostic(.expectedToken, "expected a value after '=', found \(token.describe(in: file))",
                             file: file, range: token.range,
                             hint: "a value is a word, a \"string\", a number or a [list]")
        }
    }

    // MARK: Statements

    // statement := [ 'on' NAME ] form
    private mutating func parseStatement() throws(Diagnostic) -> StatementNode {
        let start = token.range
        var device: NameNode?
        if isWord("on") {
            advance()
            device = try nameNode("a device name after 'on'")
        }
        guard case .word = token.kind else {
            throw Diagnostic(.unknownStatement, "expected a statement, found \(token.describe(in: file))",
                             file: file, range: token.range,
                             hint: "a statement starts with a keyword such as 'app', 'as' or 'expect'")
        }
        guard let kind = keywords.kind(bytes, token.range) else {
            let keyword = file.text(token.range)
            throw Diagnostic(.unknownStatement, "unknown statement '\(keyword)'", file: file, range: token.range,
                             hint: Suggest.hint(for: keyword, in: StatementForm.keywords)
                                ?? "statements: " + StatementForm.all.map(\.keyword).joined(separator: ", "))
                .didYouMean(keyword, in: StatementForm.keywords)
        }
        let keywordRange = token.range
        advance()
        let body = try parseBody(kind)
        try expectLineEnd()
        return StatementNode(form: kind, keyword: keywordRange, device: device, body: body,
                             range: start.union(lastRange))
    }

    /// The end of the last token consumed.
    private var lastRange: SourceRange { SourceRange(lastEnd, lastEnd) }

    private mutating func parseBody(_ kind: StatementForm.Kind) throws(Diagnostic) -> StatementBody {
        switch kind {
        case .platform:
            // platform := 'platform' FAMILY INTEGER
            let family = try name("a platform")
            return .platform(family: family, version: try integer("a major version such as 18"))
        case .team:
            // team := 'team' TEAMID [ 'as' NAME ]
            let id = try name("a team ID")
            return .team(id: id, alias: try alias("a name for the team"))
        case .app:
            // app := 'app' BUNDLEID [ 'as' NAME ] { option '=' value }
            let bundle = try name("a bundle ID")
            let alias = try alias("a name for the app")
            return .app(bundle: bundle, alias: alias, options: try options(of: StatementForm.form(kind)))
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
            return .include(path: try name("a path in quotes"))
        case .device:
            // device := 'device' NAME { option '=' value }
            let n = try name("a device name")
            return .device(name: n, options: try options(of: StatementForm.form(kind)))
        case .context:
            // context := 'context' NAME { option '=' value }
            let n = try name("a context name")
            return .context(name: n, options: try options(of: StatementForm.form(kind)))
        case .wait:
            // wait := 'wait' INTEGER
            let seconds = try integer("a number of seconds")
            guard seconds.value >= 0 && seconds.value <= Self.maximumWait else {
                throw Diagnostic(.wrongValueType, "wait takes 0 to \(Self.maximumWait) seconds", file: file, range: seconds.range)
            }
            return .wait(seconds)
        case .keep:
            // keep := 'keep' 'persistent-ref' 'as' NAME
            try expectWord("persistent-ref")
            try expectWord("as")
            return .keep(try name("a name for the persistent reference"))
        case .call: return .call(try parseCall())
        case .expect: return .expect(try parseExpect())
        case .passcode, .biometry, .user:
            return .choice(try choiceWord(StatementForm.form(kind)))
        case .show:
            // show := 'show' ( 'apps' | 'items' | 'matrix' | 'app' APP )
            let what = try choiceWord(StatementForm.form(kind))
            if what.text == "app" { return .showApp(try name("an app name")) }
            return .choice(what)
        case .uninstall, .install, .resign: return .name(try name("an app name"))
        case .transfer:
            // transfer := 'transfer' APP 'to' TEAM
            let app = try name("an app name")
            try expectWord("to")
            return .transfer(app: app, team: try name("a team"))
        case .backup:
            // backup := 'backup' DEVICE 'as' NAME { option '=' value }
            let d = try name("a device name")
            try expectWord("as")
            let n = try name("a backup name")
            return .backup(device: d, name: n, options: try options(of: StatementForm.form(kind)))
        case .restore:
            // restore := 'restore' NAME 'to' DEVICE
            let b = try name("a backup name")
            try expectWord("to")
            return .restore(name: b, device: try name("a device name"))
        case .lock, .unlock, .reboot, .sync, .explain, .reset:
            return .bare
        }
    }

    /// `[ 'as' NAME ]` after a team or an app.
    private mutating func alias(_ what: String) throws(Diagnostic) -> Name? {
        guard isWord("as") else { return nil }
        advance()
        return try name(what)
    }

    /// One of the words the form's table row lists (`passcode on|off`).
    private mutating func choiceWord(_ form: StatementForm) throws(Diagnostic) -> Name {
        let r = token.range
        let words = form.choices.map(\.word)
        let w: String = try choice(Self.choiceWhat(form.kind), words.map { ($0, $0) })
        return Name(text: w, range: r)
    }

    /// How messages name the word a form takes.
    private static func choiceWhat(_ kind: StatementForm.Kind) -> String {
        switch kind {
        case .passcode: "passcode state"
        case .biometry: "biometry change"
        case .user: "answer"
        case .show: "thing to show"
        default: "word"
        }
    }

    /// `KEY=VALUE` options of a declaration, each checked against the form's
    /// table row for its name and the shape of its value.
    private mutating func options(of form: StatementForm) throws(Diagnostic) -> [OptionNode] {
        var out: [OptionNode] = []
        let keys = form.options.map(\.key)
        let what = form.keyword
        while !atLineEnd {
            let keyRange = token.range
            guard let key = wordText else {
                throw Diagnostic(.expectedToken, "expected an option such as \(keys[0])=…, found \(token.describe(in: file))",
                                 file: file, range: token.range)
            }
            guard let spec = form.option(key) else {
                throw Diagnostic(.unknownAttribute, "unknown \(what) option '\(key)'", file: file, range: keyRange,
                                 hint: Suggest.hint(for: key, in: keys) ?? "options: " + keys.map { $0 + "=" }.joined(separator: " "))
            }
            if let first = out.first(where: { $0.key.text == key }) {
                throw Diagnostic(.duplicateArgument, "'\(key)' is given twice", file: file, range: keyRange,
                                 notes: [DiagnosticNote("first given here", file: file, range: first.key.range)])
            }
            advance()
            try equals()
            if spec.value == .integer {
                let n = try integer("a number")
                out.append(OptionNode(id: spec.id, key: Name(text: key, range: keyRange), value: ValueNode(kind: .integer(n.value), range: n.range)))
                continue
            }
            let v = try value()
            var version: IntegerNode?
            switch spec.value {
            case .name, .set:
                guard v.hasText else { throw wrongType(v, spec.value == .name ? "a name" : "a word") }
            case .path:
                guard let t = v.text(in: file), !t.isEmpty else { throw wrongType(v, "a path in quotes, such as \"App.entitlements\"") }
            case .boolean:
                guard let w = v.word(in: file) else { throw wrongType(v, "true or false") }
                guard OptionSpec.booleans.contains(w) else {
                    throw Diagnostic(.unknownValue, "unknown \(key) value '\(w)'", file: file, range: v.range,
                                     hint: "one of: " + OptionSpec.booleans.joined(separator: ", "))
                }
            case .integer:
                break
            case .nameList:
                guard case .list(let items) = v.kind else {
                    throw wrongType(v, "a list such as [$(AppIdentifierPrefix)com.example.Shared]")
                }
                for item in values(items) where !item.hasText { throw wrongType(item, "a name") }
            case .platform:
                guard case .word = v.kind else { throw wrongType(v, "a platform such as ios") }
                version = try integer("a major version such as 18")
            }
            out.append(OptionNode(id: spec.id, key: Name(text: key, range: keyRange), value: v, version: version))
        }
        return out
    }

    private mutating func equals() throws(Diagnostic) {
        guard case .equals = token.kind else {
            throw Diagnostic(.expectedToken, "expected '=', found \(token.describe(in: file))", file: file,
                             range: token.range)
        }
        advance()
    }

    private func wrongType(_ v: ValueNode, _ expected: String) -> Diagnostic {
        Diagnostic(.wrongValueType, "expected \(expected)", file: file, range: v.range)
    }

    // call := 'as' APP OP [ CLASS ] { ATTR '=' value } [ 'set' ATTR '=' value { ATTR '=' value } ]
    private mutating func parseCall() throws(Diagnostic) -> CallNode {
        let app = try nameNode("an app name after 'as'")
        guard case .word = token.kind else {
            throw Diagnostic(.expectedToken, "expected an operation, found \(token.describe(in: file))",
                             file: file, range: token.range, hint: "one of: add, find, update, delete")
        }
        let operation = token.range
        advance()
        // The node is made once at the end from these: building it in place
        // copied and destroyed the whole struct.
        var itemClass: SourceRange?, set: SourceRange?
        // The query's arguments, then the changes after 'set', lie one after
        // the other in the buffer.
        let start = argumentBuffer.count
        var changesStart = -1
        // CLASS is a word that is neither followed by '=' nor the word 'set'.
        var pendingKey: SourceRange?
        if case .word = token.kind, !isWord("set") {
            let r = token.range
            advance()
            if case .equals = token.kind {
                pendingKey = r
            } else {
                itemClass = r
            }
        }
        while pendingKey != nil || !atLineEnd {
            let key: SourceRange
            if let p = pendingKey {
                key = p
                pendingKey = nil
            } else {
                guard case .word = token.kind else {
                    throw Diagnostic(.expectedToken, "expected an attribute such as account=\"…\", found \(token.describe(in: file))",
                                     file: file, range: token.range)
                }
                let r = token.range
                let isSet = isWord("set")
                advance()
                if isSet, token.kind != .equals {
                    if set != nil {
                        throw Diagnostic(.misplacedSet, "'set' is given twice", file: file, range: r)
                    }
                    set = r
                    changesStart = argumentBuffer.count
                    if atLineEnd {
                        throw Diagnostic(.expectedToken, "'set' needs the attributes to change", file: file, range: r,
                                         hint: "e.g. set data=\"new\"")
                    }
                    continue
                }
                key = r
            }
            try equals()
            argumentBuffer.append(ArgumentNode(key: key, value: try value()))
        }
        let queryEnd = changesStart >= 0 ? changesStart : argumentBuffer.count
        return CallNode(app: app, operation: operation, itemClass: itemClass,
                        arguments: NodeList(start: start, count: queryEnd - start), set: set,
                        changes: changesStart >= 0 ? NodeList(start: changesStart, count: argumentBuffer.count - changesStart) : .empty)
    }

    // expect := 'expect' SUBJECT …, one ``ExpectSubject`` each (grammar.md §2).
    /// The longest `wait`, in seconds (about 31 years; grammar.md §2 says it).
    public static let maximumWait = 1_000_000_000

    private static let subjects = ExpectSubject.allCases.map(\.rawValue)
    private static let subjectIndex = ByteIndex(subjects)

    private mutating func parseExpect() throws(Diagnostic) -> ExpectNode {
        let subjects = Self.subjects
        guard case .word = token.kind else {
            throw Diagnostic(.expectedToken, "expected what to check after 'expect', found \(token.describe(in: file))",
                             file: file, range: token.range, hint: "one of: " + subjects.joined(separator: ", "))
        }
        guard let i = subjectIndex.index(bytes, token.range) else {
            let what = file.text(token.range)
            throw Diagnostic(.unknownStatement, "unknown expectation 'expect \(what)'", file: file, range: token.range,
                             hint: Suggest.hint(for: what, in: subjects) ?? "one of: " + subjects.joined(separator: ", "))
        }
        let what = ExpectSubject.allCases[i]
        advance()
        switch what {
        case .status:
            let first = try status()
            let start = valueBuffer.count
            while isWord("or") {
                advance()
                valueBuffer.append(try status())
            }
            return .status(first, or: NodeList(start: start, count: valueBuffer.count - start))
        case .count:
            let n = try integer("a count")
            guard n.value >= 0 else { throw Diagnostic(.wrongValueType, "a count cannot be negative", file: file, range: n.range) }
            return .count(n)
        case .data:
            return .data(try nameNode("the data in quotes", allowEmpty: true))
        case .noData:
            return .noData
        case .persistentRef:
            return .persistentRef(try nameNode("the name of a kept persistent reference"))
        case .group:
            return .group(try nameNode("an access group"))
        case .item:
            let start = argumentBuffer.count
            while !atLineEnd {
                guard case .word = token.kind else {
                    throw Diagnostic(.expectedToken, "expected an attribute such as account=\"…\", found \(token.describe(in: file))",
                                     file: file, range: token.range)
                }
                let key = token.range
                advance()
                try equals()
                argumentBuffer.append(ArgumentNode(key: key, value: try value()))
            }
            if argumentBuffer.count == start {
                throw Diagnostic(.expectedToken, "'expect item' needs attributes to check", file: file, range: token.range,
                                 hint: "expect item account=\"alice\" accessible=when-unlocked")
            }
            return .item(NodeList(start: start, count: argumentBuffer.count - start), end: token.range)
        case .groups:
            let app = try nameNode("an app name")
            let v = try value()
            guard case .list(let items) = v.kind else {
                throw wrongType(v, "a list of access groups such as [SKMME9E2Y8.com.example.AppOne]")
            }
            for item in values(items) where !item.hasText { throw wrongType(item, "an access group") }
            return .groups(app: app, groups: items)
        case .defaultGroup:
            let app = try nameNode("an app name")
            return .defaultGroup(app: app, group: try nameNode("an access group"))
        }
    }

    // STATUS := NAME | CODE
    private mutating func status() throws(Diagnostic) -> ValueNode {
        let r = token.range
        switch token.kind {
        case .integer(let i):
            advance()
            return ValueNode(kind: .integer(i), range: r)
        case .word:
            advance()
            return ValueNode(kind: .word, range: r)
        default:
            throw Diagnostic(.expectedToken, "expected a status name or code, found \(token.describe(in: file))",
                             file: file, range: r, hint: "e.g. expect status errSecSuccess")
        }
    }
}

/// A whole file's statements with their lists (``SyntaxParser/parse(_:)``).
public struct ParsedFile {
    public let statements: [StatementNode]
    public let diagnostics: [Diagnostic]
    private var parser: SyntaxParser

    init(statements: [StatementNode], diagnostics: [Diagnostic], parser: SyntaxParser) {
        self.statements = statements
        self.diagnostics = diagnostics
        self.parser = parser
    }

    public func values(_ list: NodeList) -> ArraySlice<ValueNode> { parser.values(list) }
    public func arguments(_ list: NodeList) -> ArraySlice<ArgumentNode> { parser.arguments(list) }
    public mutating func name(_ node: NameNode) -> Name { parser.name(node) }
}

/// Checks that must pass before a file is lexed: no NUL bytes, valid UTF-8.
package enum SourceCheck {
    static func firstProblem(in file: SourceFile) -> Diagnostic? {
        // ASCII without NUL is valid UTF-8 with nothing invisible: the
        // source file found that out while finding its lines.
        if file.isASCII && !file.hasNUL { return loneCarriageReturn(in: file) }
        return encodingProblem(in: file) ?? loneCarriageReturn(in: file)
    }

    /// A carriage return not followed by a line feed, anywhere (comments
    /// and strings included): editors, the language server's protocol and
    /// terminals break the line there, kcs would not, so a line could read
    /// differently from what runs (`… # note\rexpect status …` showed an
    /// expectation on a line of its own that was comment text; adversarial
    /// run 25, F9). A CR LF line end is one line break.
    static func loneCarriageReturn(in file: SourceFile) -> Diagnostic? {
        guard let i = file.firstLoneCarriageReturn() else { return nil }
        return Diagnostic(.loneCarriageReturn, "the script holds a carriage return not followed by a line feed",
                          file: file, range: SourceRange(i, i + 1),
                          hint: "editors and terminals break the line there, kcs does not: it can make a line read differently from what runs; "
                              + "end lines with LF or CR LF (in a string, write \\u{D})")
    }

    private static func encodingProblem(in file: SourceFile) -> Diagnostic? {
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

/// Strings of names and values lately read, by their bytes: a text read
/// again costs a compare, not a decoding of its bytes into a new String
/// (and, past 15 bytes, not an allocation: the kept String is shared).
/// A script names its few apps and access groups on line after line.
/// One file's: a long text is checked against where it was first read.
package struct TextCache {
    private static let slotBits = 8, slotCount = 1 << slotBits
    /// Texts up to this long are kept; a longer one is made each time.
    private static let longest = 256
    /// A text of up to 15 bytes: its bytes, zero-padded, with its length in
    /// the last byte (a text of 15 bytes leaves it free). A longer one:
    /// where it was first read, and its length with the top bit set. Zero
    /// when empty.
    private struct Slot {
        var k0: UInt64 = 0
        var k1: UInt64 = 0
        var text = ""
    }
    /// Made on first use: a parser of one short line (the REPL, a check of
    /// a block) should not pay for slots it never fills.
    private var slots: [Slot] = []

    package init() {}

    /// The text of the bytes at `range` of `bytes`, the bytes of `file`
    /// (passed apart: read through the file, the array was retained and
    /// released at each name).
    package mutating func text(of range: SourceRange, in bytes: [UInt8], file: SourceFile) -> String {
        let n = range.end &- range.start
        guard n > 0, n <= Self.longest, range.start >= 0, range.end <= bytes.count else { return file.text(range) }
        if slots.isEmpty { slots = [Slot](repeating: Slot(), count: Self.slotCount) }
        let slot: Int, k0: UInt64, k1: UInt64
        if n <= 15 {
            let (w0, w1) = bytes.withUnsafeBufferPointer { ByteIndex.shortWords($0, range.start, range.end) }
            k0 = w0
            k1 = w1 | UInt64(n) << 56
            slot = Int(truncatingIfNeeded: ((w0 ^ k1) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - Self.slotBits))
            if slots[slot].k0 == k0 && slots[slot].k1 == k1 { return slots[slot].text }
        } else {
            // The slot by the first sixteen bytes, the last eight and the
            // length: the bytes are compared on a hit anyway.
            let (w0, w1, w2) = bytes.withUnsafeBufferPointer {
                let raw = UnsafeRawPointer($0.baseAddress!)
                return (raw.loadUnaligned(fromByteOffset: range.start, as: UInt64.self),
                        raw.loadUnaligned(fromByteOffset: range.start &+ 8, as: UInt64.self),
                        raw.loadUnaligned(fromByteOffset: range.end &- 8, as: UInt64.self))
            }
            k0 = UInt64(range.start)
            k1 = UInt64(n) | 1 << 63
            let h = (w0 ^ (w1 &* 0x9E37_79B9_7F4A_7C15) ^ (w2 &* 0xff51_afd7_ed55_8ccd) ^ UInt64(n)) &* 0x9E37_79B9_7F4A_7C15
            slot = Int(truncatingIfNeeded: h >> UInt64(64 - Self.slotBits))
            if slots[slot].k1 == k1 {
                let first = Int(slots[slot].k0)
                let same = bytes.withUnsafeBufferPointer {
                    ByteIndex.equal(UnsafeRawPointer($0.baseAddress! + first), UnsafeRawPointer($0.baseAddress! + range.start), n)
                }
                if same { return slots[slot].text }
            }
        }
        let text = file.text(range)
        slots[slot] = Slot(k0: k0, k1: k1, text: text)
        return text
    }
}
