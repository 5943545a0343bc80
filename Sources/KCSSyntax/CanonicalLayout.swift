/// The one canonical layout of `.kcs` text, for `kcs fmt`.
///
/// The formatter works on the lexer's tokens and the comments between them,
/// so a script with a statement the parser rejects still formats; a
/// statement the lexer cannot read (an unterminated string, a stray
/// character) is kept exactly as written. The rules:
///
/// - one statement per line at column 0; one space between tokens, none
///   around `=`, none inside `[ ]`, `, ` between list elements;
/// - a statement longer than ``lineWidth``, or with a comment inside a list,
///   puts each list element on its own line, indented four spaces, with a
///   trailing comma; a one-line list has no trailing comma;
/// - comment lines start at column 0 (inside a list: at the elements'
///   indentation); a trailing comment is two spaces after its statement,
///   and consecutive lines with trailing comments align them in one column;
///   comment text is kept, less trailing white space;
/// - runs of blank lines become one; none at the start or the end; the text
///   ends with one line feed (LF).
///
/// Formatting never changes what a script means: the result is lexed again
/// and must give the same tokens (but for trailing commas and blank lines),
/// or nothing is formatted.
public enum CanonicalLayout {
    /// Statements longer than this wrap their lists.
    public static let lineWidth = 100

    /// Why a text was not formatted.
    public enum Failure: Error, Sendable {
        /// The text is not a script the lexer can read at all (a NUL byte,
        /// invalid UTF-8, a direction control).
        case unreadable(Diagnostic)
        /// The formatted text would not lex to the same tokens: a bug in
        /// the formatter, never written out.
        /// `at`: where in the file the first token that would change starts.
        case changedMeaning(SourceFile, at: SourceLocation)
    }

    /// The canonical layout of a `.kcs` script.
    /// The largest text formatted: formatting holds up to some 50 bytes per
    /// byte of input (the parse, a statement's tokens; one 8 MiB list took
    /// 390 MB, 938 MB before the layout was written as read), and a 60 MB
    /// script aborted `kcs fmt` (found by adversarial testing). The language
    /// server's analysis limit is the same.
    public static let maxBytes = 8 << 20

    /// Why a text of `count` bytes is not formatted, or nil.
    public static func sizeRefusal(_ count: Int) -> String? {
        count > maxBytes ? "it is \(count) bytes, and kcs formats files up to \(maxBytes >> 20) MiB" : nil
    }

    public static func format(_ file: SourceFile) throws(Failure) -> [UInt8] {
        if let why = sizeRefusal(file.bytes.count) {
            throw .unreadable(Diagnostic(.inputLimit, "not formatted: " + why, file: file,
                                         hint: "split the scenario into files joined with include"))
        }
        if let problem = SourceCheck.firstProblem(in: file) { throw .unreadable(problem) }
        // A statement that does not parse is kept as written: laid out, a
        // list missing a comma got one (found by adversarial testing).
        let errors = SyntaxParser.parse(file).diagnostics.compactMap(\.range?.start)
        var layout = Layout(file, keepingStatementsWith: errors)
        let out = layout.render()
        let formatted = SourceFile(name: file.name, bytes: out)
        if let at = firstChange(file, formatted) { throw .changedMeaning(file, at: file.location(of: at)) }
        return out
    }

    /// The most entries and output lines the layout of `file` holds at
    /// once (for tests): those of one line, and of one run of lines whose
    /// comments align.
    static func mostHeld(_ file: SourceFile) -> (entries: Int, lines: Int) {
        var layout = Layout(file)
        _ = layout.render()
        return layout.mostHeld
    }

    /// Where in `before` the first token that carries meaning differs from
    /// `after`'s (the end of `before` when only `after` goes on), or nil
    /// when they are the same. Read in step, a token at a time: the two
    /// lists of tokens as strings with their offsets, some 50 bytes a token,
    /// made most of the 938 MB `kcs fmt` took for an 8 MiB list (adversarial
    /// run 29, F4).
    static func firstChange(_ before: SourceFile, _ after: SourceFile) -> Int? {
        var a = MeaningTokens(before), b = MeaningTokens(after)
        while true {
            let x = a.next(), y = b.next()
            guard let x else { return y == nil ? nil : before.bytes.count }
            guard let y, x.same(as: y, before.bytes, after.bytes) else { return x.start }
        }
    }

    /// A Markdown document with each closed, unindented ```kcs block
    /// formatted; every other byte is kept. A block that cannot be
    /// formatted is left as it is; `unreadable` is told why a block's text
    /// is no script the lexer can read (a NUL byte, invalid UTF-8, a
    /// direction control), located in the document (`kcs fmt` passed such a
    /// block in silence; adversarial run 23, F5).
    public static func formatMarkdown(_ bytes: [UInt8], name: String, unreadable: ((Diagnostic) -> Void)? = nil) -> [UInt8] {
        // A line ended by CR alone is a line (CommonMark 2.1, as `kcs check`
        // reads it): blocks are found and formatted with LF there (same
        // offsets), and written back with the document's own breaks. Read
        // as a script, a lone CR was a space, and fmt joined two statements
        // into one (adversarial 21, F4).
        let lines = MarkdownBlocks.withLFLineBreaks(bytes) ?? bytes
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var copied = 0
        var document: SourceFile?
        for block in MarkdownBlocks.scan(lines) where block.language == "kcs" && block.closed {
            // An indented fence lets its content lines be indented too.
            guard block.fence.start < lines.count, lines[block.fence.start] != 0x20 else { continue }
            let content = Array(lines[block.content.start..<block.content.end])
            guard !content.isEmpty else { continue }
            let formatted: [UInt8]
            do throws(Failure) {
                formatted = try format(SourceFile(name: name, bytes: content))
            } catch {
                if case .unreadable(var d) = error, let unreadable {
                    document = document ?? SourceFile(name: name, bytes: lines)
                    d.file = document
                    d.range = d.range.map { SourceRange($0.start + block.content.start, $0.end + block.content.start) }
                        ?? SourceRange(block.content.start, block.content.start)
                    // A byte offset in the message is the document's too
                    // (it gave the block's; review of session 17, R7).
                    if let m = d.message.firstMatch(of: #/at offset (\d+)/#), let n = Int(m.output.1) {
                        d.message.replaceSubrange(m.range, with: "at offset \(n + block.content.start)")
                    }
                    unreadable(d)
                }
                continue
            }
            out += bytes[copied..<block.content.start]
            // Each block's lines end as its opening fence line does (a block
            // of LF lines in a CRLF or CR file was mixed endings); lines kept
            // as written (a statement with an error) have theirs.
            switch MarkdownBlocks.lineBreak(bytes, lineStart: block.fence.start) {
            case "\r\n":
                var previous: UInt8 = 0
                for b in formatted {
                    if b == 0x0A && previous != 0x0D { out.append(0x0D) }
                    out.append(b)
                    previous = b
                }
            case "\r":
                var previous: UInt8 = 0
                for b in formatted {
                    if b == 0x0A { if previous != 0x0D { out.append(0x0D) } } else { out.append(b) }
                    previous = b
                }
            default:
                out += formatted
            }
            copied = block.content.end
        }
        out += bytes[copied...]
        return out
    }
}

/// The tokens that carry meaning, one at a time: newlines collapsed to one
/// (blank lines) and none at the end, commas before `]` dropped (trailing
/// commas).
struct MeaningTokens {
    /// A token, with where it starts.
    struct Piece {
        enum Kind { case newline, comma, text(Range<Int>) }
        var kind: Kind
        var start: Int

        /// Whether two pieces say the same (their texts' bytes, each in its file).
        func same(as other: Piece, _ bytes: [UInt8], _ otherBytes: [UInt8]) -> Bool {
            switch (kind, other.kind) {
            case (.newline, .newline), (.comma, .comma): true
            case (.text(let r), .text(let o)): bytes[r].elementsEqual(otherBytes[o])
            default: false
            }
        }
    }

    private var lexer: Lexer
    /// What the last token gave, in order (at most three pieces).
    private var ready: [Piece] = []
    private var readyIndex = 0
    private var pendingComma = false
    /// A line break after a token, given only before the next one (none
    /// ends the text), where the first of its run starts.
    private var pendingNewline: Int?
    private var gaveAny = false

    init(_ file: SourceFile) { lexer = Lexer(file: file) }

    mutating func next() -> Piece? {
        while readyIndex == ready.count {
            ready.removeAll(keepingCapacity: true)
            readyIndex = 0
            let t = lexer.next()
            switch t.kind {
            case .end:
                return nil
            case .newline:
                pendingComma = false
                if gaveAny && pendingNewline == nil { pendingNewline = t.range.start }
            case .comma:
                if pendingComma { give(.comma, t.range.start) }
                pendingComma = true
            case .rightBracket:
                pendingComma = false
                give(.text(t.range.start..<t.range.end), t.range.start)
            default:
                if pendingComma { give(.comma, t.range.start) }
                pendingComma = false
                give(.text(t.range.start..<t.range.end), t.range.start)
            }
        }
        readyIndex += 1
        return ready[readyIndex - 1]
    }

    private mutating func give(_ kind: Piece.Kind, _ start: Int) {
        if let at = pendingNewline {
            ready.append(Piece(kind: .newline, start: at))
            pendingNewline = nil
        }
        ready.append(Piece(kind: kind, start: start))
        gaveAny = true
    }
}

/// One pass over a script's tokens and gaps, writing output lines.
private struct Layout {
    /// A comment inside a statement's list: after which token, and whether
    /// it stood on a line of its own.
    package struct InnerComment {
        var afterToken: Int
        var ownLine: Bool
        var text: ArraySlice<UInt8>
    }

    /// What the output is made of, in order.
    package enum Entry {
        case blank
        case comment(ArraySlice<UInt8>)
        /// A statement, its trailing comment and the comments inside it.
        case statement(tokens: [Token], trailing: ArraySlice<UInt8>?, inner: [InnerComment])
        /// A statement the lexer could not read, or that has an error, kept
        /// as written (whole lines).
        case verbatim(ArraySlice<UInt8>)
    }

    package let file: SourceFile
    package let bytes: [UInt8]
    /// The entries of the line being read (the lines before are written).
    package var entries: [Entry] = []
    private var mostEntries = 0
    private var writer: Writer
    /// Where errors are, sorted: a statement holding one is kept as written.
    private let errors: [Int]

    package init(_ file: SourceFile, keepingStatementsWith errors: [Int] = []) {
        self.file = file
        self.bytes = file.bytes
        self.errors = errors.sorted()
        writer = Writer(file.bytes)
        scan()
    }

    /// Whether an error lies in `range`.
    private func hasError(in range: Range<Int>) -> Bool {
        var lo = 0, hi = errors.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if errors[mid] < range.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        return lo < errors.count && errors[lo] < range.upperBound
    }

    /// Splits the text into entries.
    private mutating func scan() {
        var lexer = Lexer(file: file)
        var tokens: [Token] = []
        var inner: [InnerComment] = []
        var trailing: ArraySlice<UInt8>?
        var depth = 0
        var lineHasContent = false
        var raw = false
        var statementLineStart = 0
        var lineStart = 0
        var pos = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var seenDiagnostics = 0

        var entriesAtLineStart = 0

        // A line with no token but bytes the lexer skipped as errors: kept
        // whole, with any comment on it.
        func keepLine(to end: Int) {
            entries.removeLast(entries.count - entriesAtLineStart)
            var e = end
            while e > lineStart, bytes[e - 1] == 0x0D { e -= 1 }
            entries.append(.verbatim(bytes[lineStart..<e]))
            raw = false
        }

        func endStatement(at end: Int) {
            guard !tokens.isEmpty else { return }
            if raw || hasError(in: statementLineStart..<Swift.max(end, statementLineStart + 1)) {
                var e = end
                while e > statementLineStart, bytes[e - 1] == 0x0A || bytes[e - 1] == 0x0D { e -= 1 }
                entries.append(.verbatim(bytes[statementLineStart..<e]))
            } else {
                entries.append(.statement(tokens: tokens, trailing: trailing, inner: inner))
            }
            tokens = []; inner = []; trailing = nil; raw = false
        }

        // The gap before `limit`: white space, comments and, inside a list,
        // line breaks. Anything else there was skipped by the lexer as an error.
        func gap(to limit: Int) {
            while pos < limit {
                let b = bytes[pos]
                switch b {
                case 0x20, 0x09, 0x0D:
                    pos += 1
                case 0x0A:
                    // Only inside a list: outside, line feeds are tokens.
                    pos += 1
                    lineStart = pos
                    lineHasContent = false
                    entriesAtLineStart = entries.count
                case UInt8(ascii: "#"):
                    var end = pos
                    while end < bytes.count, bytes[end] != 0x0A { end += 1 }
                    var textEnd = end
                    while textEnd > pos, bytes[textEnd - 1] == 0x20 || bytes[textEnd - 1] == 0x09
                        || bytes[textEnd - 1] == 0x0D { textEnd -= 1 }
                    let text = bytes[pos..<textEnd]
                    if tokens.isEmpty {
                        entries.append(.comment(text))
                    } else if depth > 0 {
                        inner.append(InnerComment(afterToken: tokens.count - 1, ownLine: !lineHasContent, text: text))
                    } else {
                        trailing = text
                    }
                    lineHasContent = true
                    pos = min(end, limit)
                default:
                    raw = true
                    lineHasContent = true
                    pos += 1
                }
            }
        }

        while true {
            let t = lexer.next()
            gap(to: t.range.start)
            if lexer.diagnostics.count > seenDiagnostics {
                seenDiagnostics = lexer.diagnostics.count
                raw = true
            }
            switch t.kind {
            case .end:
                if tokens.isEmpty {
                    if raw { keepLine(to: bytes.count) }
                } else {
                    endStatement(at: bytes.count)
                }
                return
            case .newline:
                if tokens.isEmpty {
                    if raw {
                        keepLine(to: t.range.start)
                    } else if !lineHasContent {
                        entries.append(.blank)
                    }
                } else {
                    endStatement(at: t.range.start)
                }
                pos = t.range.end
                lineStart = pos
                lineHasContent = false
                write()
                entriesAtLineStart = 0
            default:
                if tokens.isEmpty { statementLineStart = lineStart }
                if case .leftBracket = t.kind { depth += 1 }
                if case .rightBracket = t.kind { depth = max(0, depth - 1) }
                tokens.append(t)
                lineHasContent = true
                pos = t.range.end
            }
        }
    }

    // MARK: Rendering

    /// The entries read so far, written out: those of a line are kept
    /// until it ends (a line kept as written takes back its comments).
    private mutating func write() {
        mostEntries = Swift.max(mostEntries, entries.count)
        for entry in entries { writer.write(entry) }
        entries.removeAll(keepingCapacity: true)
    }

    /// The most entries, and output lines, held at once (for tests).
    var mostHeld: (entries: Int, lines: Int) { (mostEntries, writer.mostLines) }

    package mutating func render() -> [UInt8] {
        write()
        return writer.finish()
    }
}

/// Writes a layout's entries as they are read: only a statement's tokens,
/// and a run of lines whose comments align, are held at once. All the
/// entries, then all the output lines, each line an array of its own, then
/// a copy of a statement's lines, were held first: `kcs fmt` of one 8 MiB
/// list took 938 MB (adversarial run 29, F4).
private struct Writer {
    let bytes: [UInt8]
    private var out: [UInt8] = []
    /// Consecutive lines of one group with trailing comments, whose
    /// comments align to one column once the run ends.
    private var run: [Line] = []
    private var wroteLine = false, pendingBlank = false
    /// Entries written: each statement's lines are a group of their own.
    private var entryCount = 0
    /// The most lines held at once (for tests).
    private(set) var mostLines = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        out.reserveCapacity(bytes.count + bytes.count / 4)
    }

    /// An output line, with its trailing comment kept apart so that runs of
    /// them can be aligned.
    struct Line {
        var text: [UInt8]
        var comment: ArraySlice<UInt8>?
        /// Which lines may align their comments: one-line statements share
        /// group 0; each wrapped statement is a group of its own.
        var group = 0
        /// Kept as written, trailing blanks included: an unterminated
        /// string holds them (stripping them changed its token, and fmt
        /// refused the file; found by adversarial testing).
        var verbatim = false
    }

    mutating func write(_ entry: Layout.Entry) {
        let n = entryCount
        entryCount += 1
        if case .blank = entry {
            pendingBlank = wroteLine
            return
        }
        if pendingBlank { add(Line(text: [])); pendingBlank = false }
        switch entry {
        case .blank: break
        case .comment(let text): add(Line(text: Array(text)))
        case .verbatim(let text): add(Line(text: Array(text), verbatim: true))
        case .statement(let tokens, let trailing, let inner):
            statementLines(tokens, trailing, inner, group: n + 1)
        }
    }

    mutating func finish() -> [UInt8] {
        endRun()
        return out
    }

    private func text(_ t: Token) -> ArraySlice<UInt8> { bytes[t.range.start..<t.range.end] }

    /// Whether a space goes between two tokens on one line.
    private func spaced(_ a: Token, _ b: Token) -> Bool {
        switch (a.kind, b.kind) {
        case (.equals, _), (_, .equals), (.leftBracket, _), (_, .rightBracket), (_, .comma): false
        default: true
        }
    }

    private mutating func statementLines(_ tokens: [Token], _ trailing: ArraySlice<UInt8>?,
                                         _ inner: [Layout.InnerComment], group: Int) {
        let flat = oneLine(tokens)
        let hasList = tokens.contains { if case .leftBracket = $0.kind { true } else { false } }
        if inner.isEmpty && (flat.count <= CanonicalLayout.lineWidth || !hasList) {
            add(Line(text: flat, comment: trailing))
            return
        }
        wrapped(tokens, trailing, inner, group: group)
    }

    /// The statement on one line; a comma right before `]` is dropped.
    private func oneLine(_ tokens: [Token]) -> [UInt8] {
        var out: [UInt8] = []
        var previous: Token?
        for (i, t) in tokens.enumerated() {
            if case .comma = t.kind, i + 1 < tokens.count, case .rightBracket = tokens[i + 1].kind { continue }
            if let p = previous, spaced(p, t) { out.append(0x20) }
            out += text(t)
            previous = t
        }
        return out
    }

    /// The statement with each list element on its own line. Its last line
    /// is held until the statement ends: the trailing comment may go there,
    /// and a statement that comes out on one line aligns as a one-line
    /// statement.
    private mutating func wrapped(_ tokens: [Token], _ trailing: ArraySlice<UInt8>?, _ inner: [Layout.InnerComment],
                                  group: Int) {
        var held: Line?
        var count = 0
        var current: [UInt8] = []
        var currentComment: ArraySlice<UInt8>?
        var previous: Token?
        var inList = false
        let indent: [UInt8] = [0x20, 0x20, 0x20, 0x20]
        func put(_ line: Line) {
            if let h = held { add(h) }
            held = line
            count += 1
        }
        func flush() {
            // Element lines align their comments among themselves, apart
            // from the statement's own lines.
            put(Line(text: current, comment: currentComment, group: current.starts(with: indent) ? group : -group))
            current = []; currentComment = nil; previous = nil
        }
        // The comments by the token they follow, found once: scanning them
        // all per token made a list of commented elements quadratic (found
        // by adversarial testing: 16,000 elements took 16 s).
        var byToken: [Int: [Layout.InnerComment]] = [:]
        for c in inner { byToken[c.afterToken, default: []].append(c) }
        func comments(after i: Int) {
            for c in byToken[i] ?? [] {
                if c.ownLine {
                    if !current.isEmpty && current != indent { flush() }
                    put(Line(text: (inList ? indent : []) + Array(c.text), group: group))
                    current = inList ? indent : []
                } else if let existing = currentComment {
                    currentComment = existing + [0x20] + c.text
                } else {
                    currentComment = c.text
                }
            }
        }
        var i = 0
        while i < tokens.count {
            let t = tokens[i]
            switch t.kind {
            case .leftBracket:
                if let p = previous, spaced(p, t) { current.append(0x20) }
                current += text(t)
                let empty: Bool = if i + 1 < tokens.count, case .rightBracket = tokens[i + 1].kind { true } else { false }
                if empty {
                    current += text(tokens[i + 1])
                    previous = tokens[i + 1]
                    comments(after: i)
                    comments(after: i + 1)
                    i += 2
                    continue
                }
                inList = true
                comments(after: i)
                flush()
                current = indent
            case .comma where inList:
                comments(after: i)
            case .rightBracket:
                inList = false
                if current != indent && !current.isEmpty { flush() }
                current = Array(text(t))
                previous = t
                comments(after: i)
            default:
                if inList {
                    if current != indent { flush(); current = indent }
                    current += text(t)
                    current.append(UInt8(ascii: ","))
                    previous = t
                } else {
                    if let p = previous, spaced(p, t) { current.append(0x20) }
                    current += text(t)
                    previous = t
                }
                comments(after: i)
            }
            i += 1
        }
        if !current.isEmpty || currentComment != nil { flush() }
        if let trailing {
            if held != nil, held?.comment == nil {
                held?.comment = trailing
            } else {
                put(Line(text: Array(trailing), group: group))
            }
        }
        // A statement whose only inner comment sat in an empty list comes
        // out on one line, with the comment behind it: it aligns as the
        // one-line statement it is, as the next run reads it (fmt was not
        // idempotent there; adversarial 21, F3).
        if count == 1 { held?.group = 0 }
        if let h = held { add(h) }
    }

    /// Writes a line; the trailing comments of consecutive lines of one
    /// group align to one column. A line longer than
    /// ``CanonicalLayout/lineWidth`` (a long string) keeps its comment two
    /// spaces after it and sets no column: one such line padded every line
    /// after it to its width, and a 600 KB script formatted to 5 GB (found
    /// by adversarial testing).
    private mutating func add(_ line: Line) {
        wroteLine = true
        if let first = run.first, line.comment == nil || line.group != first.group { endRun() }
        if line.comment == nil {
            emit(line, column: line.text.count + 2)
        } else {
            run.append(line)
            mostLines = max(mostLines, run.count)
        }
    }

    private mutating func endRun() {
        var width = 0
        for line in run where line.text.count <= CanonicalLayout.lineWidth { width = max(width, line.text.count) }
        for line in run { emit(line, column: width + 2) }
        run.removeAll(keepingCapacity: true)
    }

    private mutating func emit(_ line: Line, column: Int) {
        out += line.text
        if let c = line.comment {
            if line.text.isEmpty || line.text.allSatisfy({ $0 == 0x20 }) {
                out += c
            } else {
                out += [UInt8](repeating: 0x20, count: max(2, column - line.text.count))
                out += c
            }
        }
        if !line.verbatim { while let last = out.last, last == 0x20 { out.removeLast() } }
        out.append(0x0A)
    }
}
