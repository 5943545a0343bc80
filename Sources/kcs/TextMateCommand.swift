import ArgumentParser
import Foundation
import KCSLanguage

/// `kcs textmate`: prints the editor grammars (hidden; for
/// scripts/update-grammar.sh and the grammar tests).
struct TextMate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "textmate",
        abstract: "Print the TextMate grammar for .kcs files, generated from the language tables.",
        shouldDisplay: false
    )

    /// The file formats the grammar is written in.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        /// TextMate JSON (VS Code, Shiki, JetBrains IDEs).
        case json
        /// TextMate property list (Sublime Text, TextMate 2).
        case plist
        /// A Vim syntax file (Vim, Neovim).
        case vim
        /// An Emacs major mode.
        case emacs
        /// The statement table of grammar.md (Markdown).
        case reference
    }

    @Flag(help: "Print the injection grammar for kcs blocks in Markdown instead (json or plist).")
    var markdown = false

    @Option(help: "json, plist, vim, emacs, or reference (grammar.md's statement table).")
    var format: Format = .json

    @Option(parsing: .upToNextOption,
            help: "Instead: list where the lexer and parser see keywords, names, strings, numbers, statuses and comments in these .kcs or Markdown files, one JSON object a file.")
    var tokens: [String] = []

    func run() throws {
        if !tokens.isEmpty {
            for path in tokens {
                // Through the loader: regular files only, and its size cap.
                let bytes: [UInt8]
                do { bytes = try FileSystemLoader().read(path).bytes } catch {
                    printError(DiagnosticRenderer(colour: useColour(.auto)).render(Diagnostic(.fileNotFound, "cannot read '\(path)'")))
                    try ExitStatus.finish(.missingInput)
                    return
                }
                let json = try JSONSerialization.data(
                    withJSONObject: TokenMap.describe(path: path, bytes: bytes), options: [.sortedKeys])
                writeAll(1, Array(json) + [0x0A])
            }
            return
        }
        let grammar = markdown ? TextMateGrammar.markdown : TextMateGrammar.kcs
        let text: String = switch format {
        case .json: try TextMateGrammar.json(grammar)
        case .plist: EditorSyntaxFiles.plist(grammar)
        case .vim: EditorSyntaxFiles.vim
        case .emacs: EditorSyntaxFiles.emacs
        case .reference: GrammarReference.markdownTable()
        }
        writeAll(1, Array(text.utf8))
    }
}

/// What the real lexer and parser say each token of a file is: the oracle
/// the grammar test compares the TextMate scopes with.
enum TokenMap {
    static func describe(path: String, bytes: [UInt8]) -> [String: Any] {
        // In Markdown only the kcs blocks are script: the rest becomes
        // spaces, so offsets (and so lines and columns) stay the document's.
        var script = bytes
        if !path.hasSuffix(".kcs") {
            script = bytes.map { $0 == 0x0A ? 0x0A : 0x20 }
            for block in MarkdownBlocks.scan(bytes) where block.language == "kcs" {
                for i in block.content.start..<block.content.end { script[i] = bytes[i] }
            }
        }
        let file = SourceFile(name: path, bytes: script)
        var kinds: [(SourceRange, String)] = lexed(file)
        let (program, diagnostics) = Parser.parse(file)
        kinds += parsed(program)
        // Later entries (the parser's) win over the lexer's guess for the same range.
        var byStart: [Int: (SourceRange, String)] = [:]
        for (range, kind) in kinds { byStart[range.start] = (range, kind) }
        let tokens: [[String: Any]] = byStart.values.sorted { $0.0.start < $1.0.start }.map { range, kind in
            let start = file.location(of: range.start), end = file.location(of: range.end)
            return ["line": start.line, "start": start.column - 1, "end": end.column - 1, "kind": kind]
        }
        var errorLines = Set<Int>()
        for d in diagnostics {
            guard let range = d.range else { continue }
            let first = file.location(of: range.start).line, last = file.location(of: max(range.start, range.end - 1)).line
            errorLines.formUnion(first...max(first, last))
        }
        return ["file": path, "tokens": tokens, "errorLines": errorLines.sorted()]
    }

    /// Strings, numbers, comments, statement keywords, statuses, attribute
    /// names and values, from the lexer's tokens.
    static func lexed(_ file: SourceFile) -> [(SourceRange, String)] {
        var lexer = Lexer(file: file)
        var out: [(SourceRange, String)] = []
        var previous: Token?
        var pending: Token?
        var atStart = true, afterOn = 0
        let keywords = Set(StatementForm.keywords), statuses = Set(Vocabulary.statusNames)
        let values = Set(TextMateGrammar.valueNames)
        var depth = 0
        var gapStart = 0
        func comments(upTo end: Int) {
            var i = gapStart
            while i < end {
                if file.bytes[i] == UInt8(ascii: "#") {
                    var j = i
                    while j < file.bytes.count && file.bytes[j] != 0x0A { j += 1 }
                    out.append((SourceRange(i, j), "comment"))
                    i = j
                } else {
                    i += 1
                }
            }
        }
        func classify(_ t: Token, next: Token?) {
            guard case .word = t.kind else { return }
            let text = file.text(t.range)
            if afterOn == 1 { afterOn = 2; return }
            if atStart || afterOn == 2 {
                if text == "on" && atStart { out.append((t.range, "keyword")); afterOn = 1; atStart = false; return }
                afterOn = 0
                atStart = false
                if keywords.contains(text) { out.append((t.range, "keyword")) }
                return
            }
            if next?.kind == .equals { out.append((t.range, "attribute")); return }
            if statuses.contains(text) { out.append((t.range, "status")); return }
            if previous?.kind == .equals || depth > 0, values.contains(text) { out.append((t.range, "value")) }
        }
        while true {
            let t = lexer.next()
            comments(upTo: t.range.start)
            gapStart = t.range.end
            if let p = pending { classify(p, next: t); previous = p }
            pending = nil
            switch t.kind {
            case .end: return out
            case .newline: atStart = true; afterOn = 0; previous = t
            case .string:
                // A quoted device after `on`: the keyword comes next (it was
                // left out; editor trial 20, E15).
                if afterOn == 1 { afterOn = 2 }
                out.append((t.range, "string")); previous = t
            case .integer: if !atStart { out.append((t.range, "number")) }; previous = t
            case .leftBracket: depth += 1; previous = t
            case .rightBracket: depth = max(0, depth - 1); previous = t
            case .word: pending = t
            case .comma, .equals: previous = t
            }
        }
    }

    /// Declared and referenced names, operations and classes, from the parse.
    static func parsed(_ program: Program) -> [(SourceRange, String)] {
        var out: [(SourceRange, String)] = []
        func def(_ n: Name?) { if let n { out.append((n.range, "def")) } }
        func ref(_ n: Name?) { if let n { out.append((n.range, "ref")) } }
        for statement in program.statements {
            ref(statement.device)
            switch statement.kind {
            case .team(let id, let alias): def(id); def(alias)
            case .app(let decl): def(decl.bundleID); def(decl.alias)
            case .group(let name, let apps): def(name); apps.forEach(ref)
            case .device(let name, _, _): def(name)
            case .context(let name, _): def(name)
            case .keepPersistentRef(let name): def(name)
            case .call(let call):
                ref(call.app)
                out.append((call.operationRange, "operation"))
                if let c = call.classRange { out.append((c, "class")) }
            case .expectGroups(let app, _), .expectDefaultGroup(let app, _): ref(app)
            case .uninstall(let app), .install(let app), .resign(let app): ref(app)
            case .transfer(let app, let team): ref(app); ref(team)
            case .backup(let device, let name, _): ref(device); def(name)
            case .restore(let name, let device): ref(name); ref(device)
            case .show(.app(let app)): ref(app)
            default: break
            }
        }
        return out
    }
}
