/// A `kcs` fence line that `kcs check` does not run, and why.
public struct UnrunFence: Sendable, Hashable {
    public enum Reason: Sendable, Hashable {
        /// The fence opens a block inside a block quote or a list item.
        case container
        /// The line is text of an indented code block.
        case indentedCode
        /// The line is text of an HTML block that ends at a blank line
        /// (types 6 and 7: `<div>`, `</details>`, `<span class="x">`).
        case htmlBlock
        /// The line is text of a block that is never closed (a fence or an
        /// `<!--` comment running to the end of the document or of its list item).
        case unclosed(opener: SourceRange)
    }
    /// The whole line (without its line break).
    public var line: SourceRange
    public var reason: Reason
}

/// What a Markdown document holds for `kcs check`: its top-level fenced
/// blocks (the ones that run) and the `kcs` fences it would not run.
public struct MarkdownDocument: Sendable {
    public var blocks: [FencedBlock] = []
    public var unrun: [UnrunFence] = []
    /// How many continuation markers the reader matched, line by line: its
    /// work, which a test counts (linear in the document's lines).
    var containersMatched = 0
}

/// CommonMark's block structure (spec 0.31.2), as much of it as decides
/// where fenced code blocks start and end, read the way cmark (GitHub's
/// renderer) reads it: "Appendix A: a parsing strategy", one line at a time,
/// first the open containers' continuation markers, then new block starts,
/// then lazy continuation or the line's text. Linear time: each line is
/// looked at a bounded number of times (containers nest at most ``maxDepth``
/// deep).
struct MarkdownBlockReader {
    /// Deeper quotes and list items are read as text (cmark has no limit;
    /// without one a line would cost its depth, and the document its square).
    static let maxDepth = 100

    private let b: [UInt8]
    private var doc = MarkdownDocument()

    // The line being read (section 2.1: a line ends at LF, CR or CR LF).
    private var lineStart = 0, lineEnd = 0, rangeEnd = 0
    // Where the reader is in it: a byte offset and a column (section 2.2:
    // tabs stop every 4 columns; a tab may be consumed in part).
    private var offset = 0, column = 0, partialTab = false
    // The first byte that is not a space or tab from `offset`, its column,
    // how far it is indented and whether the rest of the line is blank.
    private var nonspace = 0, nonspaceColumn = 0, indent = 0, blank = false

    /// Block quotes and list items (section 5), outermost first.
    private struct Container {
        var isQuote: Bool
        /// A list item's content column (section 5.2): marker indent + marker + padding.
        var width = 0
        /// Whether any block was opened in the item (one that starts with a
        /// blank line ends at a second one, section 5.2 rule 3).
        var hasContent = false
    }
    private var containers: [Container] = [] {
        didSet { blankMatched = min(blankMatched, containers.count) }
    }
    /// How many of the outermost containers a blank line continues: list
    /// items that hold a block. A blank line is matched in one step, not
    /// one per container (900 KB of blank lines under 99 list items took
    /// 10 s, checked one by one).
    private var blankMatched = 0

    private struct Fence {
        var char: UInt8, count: Int, line: SourceRange, words: [String], contentStart: Int, topLevel: Bool
    }
    /// The open leaf block that lines can be added to.
    private enum Leaf { case none, paragraph, indented, fenced(Fence), html(kind: Int, line: SourceRange) }
    private var leaf = Leaf.none
    /// `kcs` fence lines in the open fence or HTML comment-like block:
    /// reported only if it is never closed.
    private var pending: [SourceRange] = []

    init(_ bytes: [UInt8]) { b = bytes }

    static func read(_ bytes: [UInt8]) -> MarkdownDocument {
        var r = MarkdownBlockReader(bytes)
        // A byte order mark opens the first line, not a character of it: a
        // fence right after one was no fence, and its block went unchecked
        // with exit 0 (found by adversarial testing).
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A && bytes[end] != 0x0D { end += 1 }
            let crlf = end + 1 < bytes.count && bytes[end] == 0x0D && bytes[end + 1] == 0x0A
            r.lineStart = start; r.lineEnd = end
            // A CR LF line's range keeps its CR, as output blocks are written back with the file's line breaks.
            r.rangeEnd = crlf ? end + 1 : end
            r.readLine()
            start = end + (crlf ? 2 : 1)
        }
        r.lineStart = bytes.count; r.lineEnd = bytes.count; r.rangeEnd = bytes.count
        r.closeLeaf(properly: false)
        r.doc.unrun.sort { $0.line.start < $1.line.start }
        return r.doc
    }

    // MARK: Characters and columns

    private func peek(_ i: Int) -> UInt8 { i < lineEnd ? b[i] : 0x0A }
    private static func isSpaceOrTab(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }

    /// cmark's S_advance_offset: `count` bytes, or columns (a tab in part).
    private mutating func advance(_ count: Int, columns: Bool) {
        var count = count
        while count > 0 && offset < lineEnd {
            if b[offset] == 0x09 {
                let toTab = 4 - column % 4
                if columns {
                    partialTab = toTab > count
                    let step = min(count, toTab)
                    column += step
                    if !partialTab { offset += 1 }
                    count -= step
                } else {
                    partialTab = false; column += toTab; offset += 1; count -= 1
                }
            } else {
                partialTab = false; offset += 1; column += 1; count -= 1
            }
        }
    }

    /// cmark's S_find_first_nonspace (kept until the offset passes it).
    private mutating func findNonspace() {
        if nonspace <= offset {
            var i = offset, col = column, toTab = 4 - column % 4
            while i < lineEnd {
                if b[i] == 0x20 {
                    i += 1; col += 1; toTab -= 1
                    if toTab == 0 { toTab = 4 }
                } else if b[i] == 0x09 {
                    i += 1; col += toTab; toTab = 4
                } else { break }
            }
            nonspace = i; nonspaceColumn = col
        }
        indent = nonspaceColumn - column
        blank = nonspace >= lineEnd
    }

    // MARK: One line

    private mutating func readLine() {
        offset = lineStart; column = 0; partialTab = false; nonspace = lineStart - 1
        // Section 5.1 and 5.2: each open container's continuation marker.
        var matched = 0
        findNonspace()
        if blank {
            matched = blankMatched
            advance(nonspace - offset, columns: false)
        }
        while matched < containers.count {
            findNonspace()
            if containers[matched].isQuote {
                guard indent <= 3, peek(nonspace) == UInt8(ascii: ">") else { break }
                advance(nonspace + 1 - offset, columns: false)
                if Self.isSpaceOrTab(peek(offset)) { advance(1, columns: true) }
            } else if blank {
                guard containers[matched].hasContent else { break }
                advance(nonspace - offset, columns: false)
            } else if indent >= containers[matched].width {
                advance(containers[matched].width, columns: true)
            } else { break }
            matched += 1
            doc.containersMatched += 1
        }
        let allMatched = matched == containers.count
        var paragraphGoesOn = false
        let wasParagraph: Bool
        if case .paragraph = leaf { wasParagraph = true } else { wasParagraph = false }
        if allMatched {
            findNonspace()
            switch leaf {
            case .fenced(let f):
                // Section 4.5: a closing fence is indented up to 3 spaces,
                // of the opening's character and at least as long, then only spaces or tabs.
                if indent <= 3, peek(nonspace) == f.char {
                    var i = nonspace
                    while peek(i) == f.char { i += 1 }
                    let n = i - nonspace
                    while Self.isSpaceOrTab(peek(i)) { i += 1 }
                    if n >= f.count && i >= lineEnd { closeLeaf(properly: true); return }
                }
                notePending(from: offset)
                return
            case .html(let kind, _):
                // Section 4.6: kinds 6 and 7 end at a blank line, which is not theirs.
                if kind < 6 || !blank {
                    htmlText(kind: kind)
                    return
                }
            case .indented:
                // Section 4.4: four columns of indentation, or a blank line.
                if indent >= 4 {
                    advance(4, columns: true)
                    noteIndentedCode()
                    return
                }
                if blank { return }
            case .paragraph:
                paragraphGoesOn = !blank
            case .none:
                break
            }
        }

        // New block starts (section 3.2), from the last container matched.
        var opened = false
        func begin(_ r: inout MarkdownBlockReader) {
            if !opened {
                opened = true
                r.closeContainers(from: matched)
                r.closeLeaf(properly: false)
            }
            r.markContent()
        }
        var inParagraph = paragraphGoesOn
        while true {
            findNonspace()
            let indented = indent >= 4, c = peek(nonspace)
            if !indented && c == UInt8(ascii: ">") {
                // Section 5.1: '>' and one optional space.
                guard containers.count < Self.maxDepth else { noteTooDeep(); break }
                begin(&self)
                advance(nonspace + 1 - offset, columns: false)
                if Self.isSpaceOrTab(peek(offset)) { advance(1, columns: true) }
                containers.append(Container(isQuote: true))
                inParagraph = false
            } else if !indented, atxHeading() {
                // Section 4.2: one line, nothing more to read.
                begin(&self)
                return
            } else if !indented, let fence = fenceOpening() {
                begin(&self)
                openFence(fence)
                return
            } else if !indented, let kind = htmlStart(allowingKind7: !inParagraph) {
                begin(&self)
                leaf = .html(kind: kind, line: SourceRange(lineStart, rangeEnd))
                htmlText(kind: kind)
                return
            } else if !indented && inParagraph && setextUnderline() {
                // Section 4.3: the paragraph becomes a heading and ends.
                leaf = .none
                return
            } else if !indented && thematicBreak() {
                // Section 4.1.
                begin(&self)
                return
            } else if !indented, let marker = listMarker(interrupting: inParagraph) {
                guard containers.count < Self.maxDepth else { noteTooDeep(); break }
                begin(&self)
                containers.append(Container(isQuote: false, width: openListItem(marker)))
                inParagraph = false
            } else if indented && !wasParagraph && !blank {
                // Section 4.4: an indented code block cannot interrupt a paragraph.
                begin(&self)
                advance(4, columns: true)
                leaf = .indented
                noteIndentedCode()
                return
            } else {
                break
            }
        }
        // Section 5.1: a paragraph's lazy continuation line keeps its containers open.
        if !opened && !allMatched && !blank && wasParagraph { return }
        if !opened {
            closeContainers(from: matched)
            if !paragraphGoesOn { closeLeaf(properly: false) }
        }
        findNonspace()
        if blank { return }
        if case .paragraph = leaf { return }
        markContent()
        leaf = .paragraph
    }

    // MARK: Blocks opened and closed

    /// A block opens in the innermost container.
    private mutating func markContent() {
        guard let last = containers.indices.last, !containers[last].hasContent else { return }
        containers[last].hasContent = true
        if !containers[last].isQuote && blankMatched == last { blankMatched = last + 1 }
    }

    private mutating func closeContainers(from matched: Int) {
        guard matched < containers.count else { return }
        closeLeaf(properly: false)
        containers.removeSubrange(matched...)
    }

    /// Ends the open leaf: `properly` by its own closing line, otherwise by
    /// the end of the document or of its container.
    private mutating func closeLeaf(properly: Bool) {
        switch leaf {
        case .fenced(let f):
            if f.topLevel {
                doc.blocks.append(FencedBlock(
                    language: f.words.first?.lowercased() ?? "", modifiers: f.words.dropFirst().map { $0.lowercased() },
                    fence: f.line, content: SourceRange(f.contentStart, max(f.contentStart, lineStart)), closed: properly))
            }
            if !properly { doc.unrun += pending.map { UnrunFence(line: $0, reason: .unclosed(opener: f.line)) } }
        case .html(_, let line):
            if !properly { doc.unrun += pending.map { UnrunFence(line: $0, reason: .unclosed(opener: line)) } }
        default:
            break
        }
        pending.removeAll()
        leaf = .none
    }

    private mutating func openFence(_ fence: (char: UInt8, count: Int, words: [String])) {
        let line = SourceRange(lineStart, rangeEnd)
        // Section 2.1: the content starts on the next line, whatever ends this one.
        let next = min(b.count, lineEnd + (rangeEnd > lineEnd ? 2 : 1))
        leaf = .fenced(Fence(char: fence.char, count: fence.count, line: line, words: fence.words,
                             contentStart: next, topLevel: containers.isEmpty))
        if !containers.isEmpty, fence.words.first?.lowercased() == "kcs" {
            doc.unrun.append(UnrunFence(line: line, reason: .container))
        }
    }

    /// A line of an HTML block: kinds 1 to 5 end at the line that holds
    /// their end marker (section 4.6), the start line included.
    private mutating func htmlText(kind: Int) {
        findNonspace()
        if kind >= 6 {
            if kcsFence(from: offset) { doc.unrun.append(UnrunFence(line: SourceRange(lineStart, rangeEnd), reason: .htmlBlock)) }
            return
        }
        let end: [String] = switch kind {
        case 1: ["</script>", "</pre>", "</style>", "</textarea>"]
        case 2: ["-->"]
        case 3: ["?>"]
        case 4: [">"]
        default: ["]]>"]
        }
        if end.contains(where: { contains($0, from: nonspace) }) {
            closeLeaf(properly: true)
        } else {
            notePending(from: offset)
        }
    }

    private mutating func notePending(from i: Int) {
        if kcsFence(from: i) { pending.append(SourceRange(lineStart, rangeEnd)) }
    }

    private mutating func noteIndentedCode() {
        if kcsFence(from: offset) { doc.unrun.append(UnrunFence(line: SourceRange(lineStart, rangeEnd), reason: .indentedCode)) }
    }

    /// Past ``maxDepth``, the rest of the line is text: still, a `kcs`
    /// fence after more markers is reported.
    private mutating func noteTooDeep() {
        var i = offset
        while i < lineEnd, " \t>-+*.)0123456789".utf8.contains(b[i]) { i += 1 }
        if kcsFence(from: i) { doc.unrun.append(UnrunFence(line: SourceRange(lineStart, rangeEnd), reason: .container)) }
    }

    /// Whether the line from `i` (after spaces or tabs) opens a fence whose
    /// first info word is `kcs`, in any case.
    private func kcsFence(from i: Int) -> Bool {
        var i = i
        while Self.isSpaceOrTab(peek(i)) { i += 1 }
        return fenceOpening(at: i)?.words.first?.lowercased() == "kcs"
    }

    // MARK: Block starts

    /// Section 4.5: three or more backticks or tildes; a backtick fence's
    /// info string holds no backtick. The info string's words: the first
    /// is the language, compared in any case (`KCS` is `kcs`).
    private func fenceOpening(at start: Int? = nil) -> (char: UInt8, count: Int, words: [String])? {
        var i = start ?? nonspace
        let c = peek(i)
        guard c == UInt8(ascii: "`") || c == UInt8(ascii: "~") else { return nil }
        let first = i
        while peek(i) == c { i += 1 }
        guard i - first >= 3 else { return nil }
        let info = b[i..<lineEnd]
        if c == UInt8(ascii: "`") && info.contains(UInt8(ascii: "`")) { return nil }
        let words = info.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == UInt8(ascii: ",") })
            .map { String(decoding: $0, as: UTF8.self) }
        return (c, i - first, words)
    }

    /// Section 4.2: one to six '#', then a space, a tab or the end of the line.
    private func atxHeading() -> Bool {
        var i = nonspace
        while peek(i) == UInt8(ascii: "#") { i += 1 }
        return (1...6).contains(i - nonspace) && (i >= lineEnd || Self.isSpaceOrTab(peek(i)))
    }

    /// Section 4.3: a run of '=' or '-', then only spaces or tabs.
    private func setextUnderline() -> Bool {
        let c = peek(nonspace)
        guard c == UInt8(ascii: "=") || c == UInt8(ascii: "-") else { return false }
        var i = nonspace
        while peek(i) == c { i += 1 }
        while Self.isSpaceOrTab(peek(i)) { i += 1 }
        return i >= lineEnd
    }

    /// Section 4.1: three or more '*', '-' or '_', with spaces or tabs between.
    private func thematicBreak() -> Bool {
        let c = peek(nonspace)
        guard c == UInt8(ascii: "*") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") else { return false }
        var i = nonspace, n = 0
        while i < lineEnd {
            if b[i] == c { n += 1 } else if !Self.isSpaceOrTab(b[i]) { return false }
            i += 1
        }
        return n >= 3
    }

    /// Section 5.2: a bullet ('-', '+', '*') or one to nine digits and '.'
    /// or ')', then a space, a tab or the end of the line. Interrupting a
    /// paragraph, the item must not be blank, and an ordered one must start at 1.
    private func listMarker(interrupting: Bool) -> Int? {
        let c = peek(nonspace)
        var i = nonspace
        if c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: "*") {
            i += 1
        } else {
            var value = 0
            while i - nonspace < 9, (0x30...0x39).contains(peek(i)) { value = value * 10 + Int(peek(i) - 0x30); i += 1 }
            guard i > nonspace, peek(i) == UInt8(ascii: ".") || peek(i) == UInt8(ascii: ")") else { return nil }
            if interrupting && value != 1 { return nil }
            i += 1
        }
        guard i >= lineEnd || Self.isSpaceOrTab(peek(i)) else { return nil }
        if interrupting {
            var j = i
            while Self.isSpaceOrTab(peek(j)) { j += 1 }
            if j >= lineEnd { return nil }
        }
        return i - nonspace
    }

    /// Consumes a list marker and its padding (section 5.2: one to four
    /// spaces, or one when five or more follow or the line ends); returns
    /// the item's content column.
    private mutating func openListItem(_ markerLength: Int) -> Int {
        let markerIndent = indent
        advance(nonspace + markerLength - offset, columns: false)
        let saved = (offset, column, partialTab)
        while column - saved.1 <= 5 && Self.isSpaceOrTab(peek(offset)) { advance(1, columns: true) }
        let spaces = column - saved.1
        if spaces >= 5 || spaces < 1 || offset >= lineEnd {
            (offset, column, partialTab) = saved
            if spaces > 0 { advance(1, columns: true) }
            return markerIndent + markerLength + 1
        }
        return markerIndent + markerLength + spaces
    }

    /// Section 4.6: the kind of HTML block the line starts, 1 to 7 (kind 7
    /// cannot interrupt a paragraph).
    private func htmlStart(allowingKind7: Bool) -> Int? {
        let i = nonspace
        guard peek(i) == UInt8(ascii: "<") else { return nil }
        if starts("<!--", at: i) { return 2 }
        if starts("<?", at: i) { return 3 }
        if starts("<![CDATA[", at: i) { return 5 }
        if starts("<!", at: i), Self.isLetter(peek(i + 2)) { return 4 }
        let closing = peek(i + 1) == UInt8(ascii: "/")
        var j = i + (closing ? 2 : 1)
        let nameStart = j
        guard Self.isLetter(peek(j)) else { return nil }
        while Self.isLetter(peek(j)) || (0x30...0x39).contains(peek(j)) || peek(j) == UInt8(ascii: "-") { j += 1 }
        let name = String(decoding: b[nameStart..<j], as: UTF8.self).lowercased()
        let after = peek(j)
        let ends = after == 0x0A || Self.isSpaceOrTab(after) || after == UInt8(ascii: ">")
        if !closing && ["script", "pre", "style", "textarea"].contains(name) && ends { return 1 }
        if Self.blockTags.contains(name) && (ends || (after == UInt8(ascii: "/") && peek(j + 1) == UInt8(ascii: ">"))) { return 6 }
        // The spec leaves the kind 1 names out of kind 7; cmark (GitHub) and
        // commonmark.js do not, so `</script>` alone starts an HTML block there.
        if allowingKind7 && completeTag(after: j, closing: closing) { return 7 }
        return nil
    }

    /// Section 6.6: the rest of an open tag (attributes, '/', '>') or a
    /// closing tag's '>', then only spaces or tabs to the end of the line.
    private func completeTag(after name: Int, closing: Bool) -> Bool {
        var j = name
        func skip() -> Int { let s = j; while Self.isSpaceOrTab(peek(j)) { j += 1 }; return j - s }
        if !closing {
            while true {
                let spaces = skip()
                let c = peek(j)
                if c == UInt8(ascii: "/") || c == UInt8(ascii: ">") { break }
                guard spaces > 0, Self.isLetter(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: ":") else { return false }
                while Self.isLetter(peek(j)) || (0x30...0x39).contains(peek(j)) || "_.:-".utf8.contains(peek(j)) { j += 1 }
                let beforeValue = j
                _ = skip()
                guard peek(j) == UInt8(ascii: "=") else { j = beforeValue; continue }
                j += 1
                _ = skip()
                let q = peek(j)
                if q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") {
                    j += 1
                    while j < lineEnd && b[j] != q { j += 1 }
                    guard j < lineEnd else { return false }
                    j += 1
                } else {
                    let s = j
                    while j < lineEnd && !" \t\"'=<>`".utf8.contains(b[j]) { j += 1 }
                    guard j > s else { return false }
                }
            }
            if peek(j) == UInt8(ascii: "/") { j += 1 }
        } else {
            _ = skip()
        }
        guard peek(j) == UInt8(ascii: ">") else { return false }
        j += 1
        _ = skip()
        return j >= lineEnd
    }

    private static func isLetter(_ c: UInt8) -> Bool { (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) }
    private static func lower(_ c: UInt8) -> UInt8 { (0x41...0x5A).contains(c) ? c | 0x20 : c }

    /// Whether `text` (ASCII) starts at `i`, in any case.
    private func starts(_ text: String, at i: Int) -> Bool {
        var j = i
        for t in text.utf8 {
            guard j < lineEnd, Self.lower(b[j]) == Self.lower(t) else { return false }
            j += 1
        }
        return true
    }

    /// Whether the line from `i` holds `text` (ASCII), in any case.
    private func contains(_ text: String, from i: Int) -> Bool {
        let n = text.utf8.count
        var j = i
        while j + n <= lineEnd {
            if starts(text, at: j) { return true }
            j += 1
        }
        return false
    }

    /// Section 4.6, kind 6.
    static let blockTags: Set<String> = [
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col", "colgroup",
        "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "frame",
        "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "iframe", "legend", "li", "link",
        "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param", "search", "section",
        "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul",
    ]
}
