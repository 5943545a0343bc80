/// Text from input made safe to show: control characters and invisible
/// direction changes are written as `\u{…}` escapes, so a script, a name or
/// an entitlements value can neither drive the terminal (colours, cursor
/// moves, the title) nor make a line read differently from what runs.
public enum TerminalText {
    /// The bidirectional controls of Unicode (the "Trojan Source" set):
    /// embeddings and overrides U+202A–202E, isolates U+2066–2069, the marks
    /// U+200E/200F and the Arabic letter mark U+061C.
    public static func isBidiControl(_ v: UInt32) -> Bool {
        (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F || v == 0x061C
    }

    /// Whether a scalar is shown as an escape: C0 and C1 controls, DEL and
    /// the bidirectional controls. Tabs and line breaks are the caller's call.
    public static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        return v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || isBidiControl(v)
    }

    /// `\u{1B}` for ESC: the spelling a kcs string (and Swift) accepts.
    public static func escape(_ s: Unicode.Scalar) -> String {
        "\\u{" + String(s.value, radix: 16, uppercase: true) + "}"
    }

    /// The text with every unsafe scalar escaped; line feeds and tabs kept
    /// when `keepingLayout` (multi-line output), escaped otherwise.
    public static func escaped(_ text: String, keepingLayout: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            // A lone CR would move the cursor back and let text overwrite
            // what the line said: only LF and tab keep their layout.
            if needsEscape(s), !(keepingLayout && (s == "\n" || s == "\t")) {
                out.append(contentsOf: escape(s).unicodeScalars)
            } else {
                out.append(s)
            }
        }
        return String(out)
    }
}
