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
        let sev = d.severity.rawValue
        let head = paint(sev + ":", d.severity == .error ? "31;1" : d.severity == .warning ? "35;1" : "36;1")
        if let file = d.file, let range = d.range {
            let loc = file.location(of: range.start)
            out += paint("\(file.name):\(loc.line):\(loc.column):", "1") + " \(head) \(d.message) [\(d.code.rawValue)]\n"
            out += excerpt(file, range)
        } else if let file = d.file {
            out += paint("\(file.name):", "1") + " \(head) \(d.message) [\(d.code.rawValue)]\n"
        } else {
            out += "kcs: \(head) \(d.message) [\(d.code.rawValue)]\n"
        }
        for note in d.notes {
            if let file = note.file, let range = note.range {
                let loc = file.location(of: range.start)
                out += "\(file.name):\(loc.line):\(loc.column): " + paint("note:", "36;1") + " \(note.message)\n"
            } else {
                out += "  " + note.message + "\n"
            }
        }
        if let hint = d.hint { out += paint("hint:", "32;1") + " \(hint)\n" }
        return out
    }

    /// The source line and a caret under the range (first line only).
    func excerpt(_ file: SourceFile, _ range: SourceRange) -> String {
        let start = file.location(of: range.start)
        let endOffset = max(range.start, range.end - 1)
        let end = file.location(of: endOffset)
        let text = file.lineText(start.line).replacingTabs()
        let gutter = String(start.line)
        let pad = String(repeating: " ", count: gutter.count)
        var width = 1
        if end.line == start.line, range.end > range.start { width = max(1, end.column - start.column + 1) }
        let lineLength = text.unicodeScalars.count
        if start.column + width - 1 > lineLength + 1 { width = max(1, lineLength + 1 - start.column + 1) }
        let caret = String(repeating: " ", count: start.column - 1) + "^" + String(repeating: "~", count: width - 1)
        return " \(gutter) | \(text)\n \(pad) | \(paint(caret, "32;1"))\n"
    }

    private func paint(_ s: String, _ code: String) -> String {
        colour ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }
}

extension String {
    /// Tabs become one space so the caret column matches.
    func replacingTabs() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\t" ? " " : $0 }))
    }
}
