import KCSLanguage
import KCSRepl
import KeychainEngine

/// What the server knows of one open document after running it: the same
/// parser, session and lint as `kcs run` (or `kcs check` for Markdown).
struct Analysis {
    let file: SourceFile
    let index: TextIndex
    let isMarkdown: Bool
    /// What the analysis read includes with (the editor's buffers, then the
    /// disk): hovers run with it and include paths resolve with it.
    let loader: any SourceLoader
    /// Parsed statements (a `.kcs` document; empty for Markdown).
    var statements: [Statement] = []
    /// The document's own diagnostics (for quick fixes); those of included
    /// files are in ``lspDiagnostics`` only.
    var diagnostics: [Diagnostic] = []
    /// What the client was sent for the document, included files' diagnostics
    /// among them, made once.
    private(set) var lspDiagnostics: [LSPDiagnostic] = []
    /// The calls the document itself makes (those of included files are
    /// not kept).
    var calls: [CallRecord] = []
    /// The names the document declares, for completion.
    var completer = Completer()
    /// The completer's app and device names, as completion offers them, for
    /// telling a name from a value in O(1): a search of the list per
    /// candidate made a completion after `as` in a document of 100,000 apps
    /// take 13 s (adversarial 21, F5).
    private(set) var declaredNames = Set<String>()

    /// Bounds for a document being edited: the editor must stay responsive.
    static let limits = Limits(sourceBytes: 8 << 20, statements: 1_000_000, items: 1_000_000,
                               listLength: 10_000, includeDepth: 16, seconds: 2, outputBytes: 1 << 20)

    init(path: String, bytes: [UInt8], loader: any SourceLoader) {
        isMarkdown = MarkdownBlocks.isDocument(path)
        self.loader = loader
        // Markdown lines may end at a CR alone: read as LF (same offsets), the
        // check's diagnostics name this file, and are kept.
        file = SourceFile(name: path, bytes: isMarkdown ? MarkdownBlocks.withLFLineBreaks(bytes) ?? bytes : bytes)
        index = TextIndex(bytes)
        if isMarkdown {
            let outcome = BatchRunner(loader: loader, lint: .warn, collectChecks: false, limits: Self.limits)
                .check(markdown: file)
            diagnostics = outcome.diagnostics
            keepOwnOnly()
            return
        }
        let parsed = Parser.parse(file)
        statements = parsed.program.statements
        if !parsed.diagnostics.isEmpty { unlowered = Self.namesOfUnlowered(file, lowered: statements) }
        runnable = bytes
        var (report, session, calls) = Self.run(file, loader)
        diagnostics = report.diagnostics
        if report.hasSyntaxErrors {
            // Nothing runs with a syntax error, as with `kcs run`: only those
            // are reported. For names, hints and hovers, the script runs
            // again without the statements in error (a line being typed).
            runnable = Self.blanking(file, statementsAt: report.diagnostics.compactMap { $0.file === file ? $0.range?.start : nil })
            let blanked = SourceFile(name: path, bytes: runnable)
            (report, session, calls) = Self.run(blanked, loader)
            // A limit that stopped that run is said, at the document's line
            // (the blanked text keeps every offset), unless the first run
            // said one: the names it gives for completion stop there too.
            // Unsaid, a run past its time limit offered 4,397 of 5,000 apps
            // with only the syntax error shown (review 21, R19).
            let saidStop = diagnostics.contains { $0.code == .runLimit }
            diagnostics += report.diagnostics.filter { $0.code == .runLimit && !saidStop }.map { d in
                var d = d
                if d.file === blanked { d.file = file }
                return d
            }
        }
        self.calls = calls
        completer = Completer(world: session.world)
        declaredNames = Set(completer.apps).union(completer.devices)
        keepOwnOnly()
    }

    /// Makes the protocol's diagnostics, then lets go of everything that
    /// holds an included file: each open document kept its own copy of a
    /// shared include through its calls and diagnostics, and 150 documents
    /// including one 3 MB file took 890 MB (found by adversarial testing).
    private mutating func keepOwnOnly() {
        lspDiagnostics = makeLSPDiagnostics()
        let own = file
        diagnostics.removeAll { $0.file !== own }
    }

    /// The text that ran: the document, or without its statements in error.
    private(set) var runnable: [UInt8] = []

    /// Names in statements that parse but do not lower (a line being
    /// corrected, with a misspelt attribute): the calling app and the
    /// device, so going to their definition works there too.
    private var unlowered: [(role: Role, name: NameRef)] = []

    private static func namesOfUnlowered(_ file: SourceFile, lowered: [Statement]) -> [(role: Role, name: NameRef)] {
        var syntax = SyntaxParser.parse(file)
        let ran = Set(lowered.map(\.range.start))
        var out: [(role: Role, name: NameRef)] = []
        for node in syntax.statements where !ran.contains(node.range.start) {
            if let d = node.device {
                let n = syntax.name(d)
                out.append((.device, NameRef(text: n.text, range: n.range)))
            }
            if case .call(let call) = node.body {
                let n = syntax.name(call.app)
                out.append((.app, NameRef(text: n.text, range: n.range)))
            }
        }
        return out
    }

    private static func run(_ file: SourceFile, _ loader: any SourceLoader) -> (RunReport, Session, [CallRecord]) {
        var session = Session()
        session.lints = true
        var calls: [CallRecord] = []
        let report = session.run(file: file, loader: loader,
                                 options: RunOptions(reportCalls: true, limits: limits)) { event in
            if case .call(let record) = event, record.file === file { calls.append(record) }
        }
        return (report, session, calls)
    }

    /// The text with each statement that covers one of `offsets` replaced
    /// by spaces (line breaks kept, so every position stays where it was).
    /// Statements come in order, so the offsets are sorted once and walked
    /// beside them: a search of every offset per statement cost 4.3 s per
    /// change of a document with 1,000 syntax errors (found by adversarial
    /// testing).
    static func blanking(_ file: SourceFile, statementsAt offsets: [Int]) -> [UInt8] {
        var out = file.bytes
        var lexer = Lexer(file: file)
        let sorted = offsets.sorted()
        var next = 0
        var start = 0
        while true {
            let t = lexer.next()
            let end: Int
            switch t.kind {
            case .newline, .end: end = t.range.start
            default: continue
            }
            // Offsets before this statement lie in none still to come.
            while next < sorted.count && sorted[next] < start { next += 1 }
            if next < sorted.count && sorted[next] <= end {
                for i in start..<min(end, out.count) where out[i] != 0x0A { out[i] = 0x20 }
            }
            if case .end = t.kind { return out }
            start = t.range.end
        }
    }

    /// Diagnostics of this document in the protocol's terms. Those located
    /// in an included file are reported at the document's start with the
    /// file named, so nothing is hidden.
    private func makeLSPDiagnostics() -> [LSPDiagnostic] {
        // One index per file: the document's own (the protocol's lines: a
        // lone CR ends one there, not for kcs; a Markdown document's file
        // reads it as LF, the same lines), a Markdown block's made once.
        var indexes = FileIndexes(document: file, index: index)
        // Editors show the text as it is: each part is escaped as the
        // terminal renderer escapes it (``DiagnosticRenderer``), so a name
        // or an output line from the script brings no raw ESC, BEL or
        // direction override into the Problems panel (adversarial 21, F1).
        func escaped(_ text: String) -> String { TerminalText.escaped(text) }
        return diagnostics.map { d in
            var message = escaped(d.message)
            for note in d.notes { message += "\n" + escaped(note.message) }
            if let hint = d.hint { message += "\nhint: " + escaped(hint) }
            var range = LSPRange(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0))
            if let other = d.file, other !== file, !isMarkdown || other.name != file.name {
                let location = d.location.map { ":\($0)" } ?? ""
                message = "\(escaped(other.name))\(location): " + message
            } else {
                range = d.lspRange(&indexes)
            }
            let severity = switch d.severity {
            case .error: 1
            case .warning: 2
            case .note: 3
            }
            return LSPDiagnostic(range: range, severity: severity, code: d.code.rawValue, source: "kcs", message: message)
        }
    }

    // MARK: Tokens and names

    /// The token at a byte offset (a word ending at the cursor counts).
    func token(at offset: Int) -> Token? {
        var lexer = Lexer(file: file)
        while true {
            let t = lexer.next()
            if case .end = t.kind { return nil }
            if t.range.start <= offset && offset <= t.range.end, t.range.end > t.range.start {
                if case .newline = t.kind { continue }
                return t
            }
            if t.range.start > offset { return nil }
        }
    }

    /// The statement covering a byte offset.
    func statement(at offset: Int) -> Statement? {
        statements.first { $0.range.start <= offset && offset <= $0.range.end }
    }

    /// A name as written and where.
    struct NameRef {
        var text: String
        var range: SourceRange
    }

    /// What a name in the script stands for.
    enum Role: String {
        case app, team, device, backup, group
    }

    /// Every name the statements write, with what it names; the first of
    /// each role and text that is a declaration comes first.
    var names: [(role: Role, name: NameRef, declares: Bool)] {
        Self.names(of: statements) + unlowered.map { ($0.role, $0.name, false) }
    }

    /// Every name the statements write, with what it names and whether it
    /// is a declaration.
    static func names(of statements: [Statement]) -> [(role: Role, name: NameRef, declares: Bool)] {
        var out: [(Role, NameRef, Bool)] = []
        func ref(_ n: Name) -> NameRef { NameRef(text: n.text, range: n.range) }
        for s in statements {
            if let d = s.device { out.append((.device, ref(d), false)) }
            switch s.kind {
            case .team(let id, let alias):
                out.append((.team, ref(id), true))
                if let alias { out.append((.team, ref(alias), true)) }
            case .app(let decl):
                if let alias = decl.alias {
                    out.append((.app, ref(alias), true))
                } else {
                    // The name is the bundle ID's last component; a quoted
                    // bundle ID's range holds its quotes (the range was one
                    // character right; editor trial 20, E7).
                    let text = decl.name
                    let quoted = decl.bundleID.range.end - decl.bundleID.range.start > decl.bundleID.text.utf8.count
                    let end = decl.bundleID.range.end - (quoted ? 1 : 0)
                    out.append((.app, NameRef(text: text, range: SourceRange(end - text.utf8.count, end)), true))
                }
                if let team = decl.team { out.append((.team, ref(team), false)) }
            case .group(let name, let apps):
                out.append((.group, ref(name), true))
                out += apps.map { (.app, ref($0), false) }
            case .device(let name, _, _):
                out.append((.device, ref(name), true))
            case .call(let call):
                out.append((.app, ref(call.app), false))
            case .expectGroups(let app, _), .expectDefaultGroup(let app, _):
                out.append((.app, ref(app), false))
            case .uninstall(let app), .install(let app), .resign(let app):
                out.append((.app, ref(app), false))
            case .transfer(let app, let team):
                out.append((.app, ref(app), false))
                out.append((.team, ref(team), false))
            case .backup(let device, let name, _):
                out.append((.device, ref(device), false))
                out.append((.backup, ref(name), true))
            case .restore(let name, let device):
                out.append((.backup, ref(name), false))
                out.append((.device, ref(device), false))
            case .show(.app(let app)):
                out.append((.app, ref(app), false))
            case .platform, .include, .expectStatus, .expectCount, .expectData, .expectGroup, .expectItem,
                 .passcode, .lock, .unlock, .reboot, .biometry, .user, .sync, .show, .explain, .reset,
                 // Contexts and kept references are names of their own that
                 // calls use inside arguments; the server does not track them yet.
                 .expectNoData, .expectPersistentRef, .keepPersistentRef, .context, .wait:
                break
            }
        }
        return out
    }

    /// The name written at a byte offset, with its role.
    func name(at offset: Int) -> (role: Role, name: NameRef)? {
        names.first { $0.name.range.start <= offset && offset <= $0.name.range.end }.map { ($0.role, $0.name) }
    }

    /// The resolved path of the include statement at a byte offset; nil
    /// when there is none, or its file was not found (the path as written
    /// made a relative, malformed `file://` URI; adversarial run 23). The
    /// parsed statement's own `resolved` is never set (only a session's copy
    /// is), so going to an include answered nothing (editor trial 20, E12).
    func include(at offset: Int) -> String? {
        guard let s = statement(at: offset), case .include(let path, _) = s.kind else { return nil }
        let resolved = loader.resolve(path, relativeTo: file.name)
        return loader.isFile(resolved) ? resolved : nil
    }

    /// Where a file this document read (an include) declares a name: the
    /// path and the name's place in that file's text.
    func declaration(of role: Role, _ text: String, in paths: [String]) -> (path: String, bytes: [UInt8], range: SourceRange)? {
        for path in paths {
            guard path != file.name, let included = try? loader.read(path) else { continue }
            let found = Self.names(of: Parser.parse(included).program.statements)
                .first { $0.role == role && $0.declares && $0.name.text == text }
            if let found { return (path, included.bytes, found.name.range) }
        }
        return nil
    }
}
