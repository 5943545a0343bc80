/// Draws diagnostics as a compiler does:
///
///     scenario.kcs:7:28: error: unknown attribute 'acount'
///      7 | as AppOne add generic-password acount="alice"
///        |                                ^~~~~~
///     hint: did you mean 'account'?
public struct DiagnosticRenderer: Sendable {
    /// Wrap names in ANSI colour (for terminals only).
    public var colour: Bool

    public init(colour: Bool = false) { self.colour = colour }

    public func render(_ d: Diagnostic) -> String {
        var out = ""
        let message = TerminalText.escaped(d.message)
        let sev = d.severity.rawValue
        let head = paint(sev + ":", d.severity == .error ? "31;1" : d.severity == .warning ? "35;1" : "36;1")
        if let file = d.file, let range = d.range {
            let loc = file.location(of: range.start)
            out += paint("\(TerminalText.lineStart(file.name)):\(loc.line):\(loc.column):", "1") + " \(head) \(message) [\(d.code.rawValue)]\n"
            out += excerpt(file, range)
        } else if let file = d.file {
            out += paint("\(TerminalText.lineStart(file.name)):", "1") + " \(head) \(message) [\(d.code.rawValue)]\n"
        } else {
            out += "kcs: \(head) \(message) [\(d.code.rawValue)]\n"
        }
        for note in d.notes {
            if let file = note.file, let range = note.range {
                let loc = file.location(of: range.start)
                out += "\(TerminalText.lineStart(file.name)):\(loc.line):\(loc.column): " + paint("note:", "36;1")
                    + " \(TerminalText.escaped(note.message))\n"
            } else {
                out += "  " + TerminalText.escaped(note.message) + "\n"
            }
        }
        if let hint = d.hint { out += paint("hint:", "32;1") + " \(TerminalText.escaped(hint))\n" }
        return out
    }

    /// Scalars of a line shown on each side of the caret at most: an error
    /// on a line of a megabyte shows a window, not the line.
    package static let window = 80

    /// The source line and a caret under the range (first line only). Long
    /// lines are cut to a window around the caret, marked with `…`; control
    /// characters are shown escaped (``TerminalText``), the caret moved to match.
    package func excerpt(_ file: SourceFile, _ range: SourceRange) -> String {
        let start = file.location(of: range.start)
        let gutter = String(start.line)
        let pad = String(repeating: " ", count: gutter.count)
        guard let line = file.lineBounds(start.line) else { return "" }
        let b = file.bytes
        let from = min(max(range.start, line.lowerBound), line.upperBound)
        let to = min(max(range.end, from), line.upperBound)
        // Whole scalars only: step back or on to a scalar's first byte.
        func boundary(_ i: Int, back: Bool) -> Int {
            var i = i
            while i > line.lowerBound, i < line.upperBound, b[i] & 0xC0 == 0x80 { i += back ? -1 : 1 }
            return i
        }
        let budget = Self.window * 2 * 4  // bytes: a scalar is at most four
        let lo = boundary(max(line.lowerBound, from - budget), back: false)
        let markEnd = boundary(min(to, from + budget), back: false)
        let hi = boundary(min(line.upperBound, markEnd + budget), back: false)
        /// The scalars of a byte range as shown, at most `window` of them, and whether some were cut.
        func shown(_ r: Range<Int>, keepLast: Bool, limit: Int = Self.window) -> ([String], Bool) {
            let cells = String(decoding: b[r], as: UTF8.self).unicodeScalars.map { s in
                s == "\t" ? " " : TerminalText.needsEscape(s) ? TerminalText.escape(s) : String(s)
            }
            guard cells.count > limit else { return (cells, false) }
            return (keepLast ? Array(cells.suffix(limit)) : Array(cells.prefix(limit)), true)
        }
        let (before, cutStart) = shown(lo..<from, keepLast: true)
        let (marked, cutMark) = shown(from..<markEnd, keepLast: false, limit: 2 * Self.window)
        // A long range is shown from its start; what follows it is left out.
        let (after, cutEnd) = cutMark || markEnd < to ? ([], true) : shown(markEnd..<hi, keepLast: false)
        let cutBefore = lo > line.lowerBound || cutStart
        let cutAfter = hi < line.upperBound || cutEnd
        let head = (cutBefore ? "…" : "") + before.joined()
        let text = head + marked.joined() + after.joined() + (cutAfter ? "…" : "")
        // Counted in terminal columns: a wide character takes two, a
        // combining mark none.
        let column = TerminalText.columns(of: head)
        let width = max(1, TerminalText.columns(of: marked.joined()))
        let caret = String(repeating: " ", count: column) + "^" + String(repeating: "~", count: width - 1)
        return " \(gutter) | \(text)\n \(pad) | \(paint(caret, "32;1"))\n"
    }

    private func paint(_ s: String, _ code: String) -> String {
        colour ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }
}
