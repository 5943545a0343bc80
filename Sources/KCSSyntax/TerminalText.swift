/// Text from input made safe to show: control characters, invisible
/// direction changes and invisible characters are written as `\u{…}` escapes, so a script, a name or
/// an entitlements value can neither drive the terminal (colours, cursor
/// moves, the title) nor make a line read differently from what runs.
public enum TerminalText {
    /// The bidirectional controls of Unicode (the "Trojan Source" set):
    /// embeddings and overrides U+202A–202E, isolates U+2066–2069, the marks
    /// U+200E/200F and the Arabic letter mark U+061C.
    public static func isBidiControl(_ v: UInt32) -> Bool {
        (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F || v == 0x061C
    }

    /// Characters that show as nothing, so text with one reads the same as
    /// text without it: the soft hyphen, the zero-width space, the word
    /// joiner and invisible operators, fillers, the byte-order mark and the
    /// tag characters (which can carry a hidden text). Not the zero-width
    /// (non-)joiners or variation selectors: words of many scripts and
    /// emoji need them.
    public static func isInvisible(_ v: UInt32) -> Bool {
        switch v {
        case 0x00AD, 0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x200B, 0x2060...0x2064, 0x206A...0x206F,
             0x3164, 0xFEFF, 0xFFA0, 0xE0000...0xE007F: true
        default: false
        }
    }

    /// Whether a scalar is shown as an escape: C0 and C1 controls, DEL, the
    /// line and paragraph separators, the bidirectional controls and the
    /// invisible characters. Tabs and line
    /// breaks are the caller's call.
    public static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        // U+2028 and U+2029 end a line for some editors, Markdown tools and
        // JavaScript readers of JSON, as U+0085 does (found by adversarial testing).
        return v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || v == 0x2028 || v == 0x2029 || isBidiControl(v) || isInvisible(v)
    }

    /// The terminal columns a scalar takes, as `wcwidth` counts them: none
    /// for a combining mark, a zero-width joiner or a variation selector
    /// (they sit on the scalar before), two for East Asian wide and
    /// full-width characters and emoji shown as pictures, one otherwise.
    /// A caret lines up under the text it marks only if it counts columns,
    /// not scalars.
    public static func columns(_ s: Unicode.Scalar) -> Int {
        let v = s.value
        if v < 0x300 { return 1 }
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return 0
        default: break
        }
        if v == 0x200D || (0xFE00...0xFE0F).contains(v) || (0xE0100...0xE01EF).contains(v) { return 0 }
        if s.properties.isEmojiPresentation { return 2 }
        switch v {
        // Unicode's East Asian Width W and F ranges (EastAsianWidth.txt), as
        // Markus Kuhn's wcwidth groups them.
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
             0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// The terminal columns of a text (``columns(_:)`` of each scalar).
    public static func columns(of text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns($1) }
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

    /// A file name as it starts a line of output (`NAME:LINE:COL: error: …`):
    /// escaped, and after `./` when it begins with a colon, a `#` or a space,
    /// so no name makes the line a CI runner's command. GitHub Actions reads
    /// a line that starts `::` as a workflow command (`::error …`,
    /// `::stop-commands::`), Azure Pipelines one that starts `##vso[` (found
    /// by adversarial testing: a file named by a pull request).
    public static func lineStart(_ name: String) -> String {
        let shown = escaped(name)
        guard let first = shown.unicodeScalars.first, ":# ".unicodeScalars.contains(first) else { return shown }
        return "./" + shown
    }

    /// A path as one POSIX shell word, for a command line printed to be
    /// copied (`run it with: kcs run …`): as it is when every character is
    /// one the shell takes literally, else in single quotes (a quote inside
    /// written `'\''`); then made safe to show, like any text from input.
    public static func shellWord(_ path: String) -> String {
        let plain = !path.isEmpty && path.unicodeScalars.allSatisfy { s in
            s.isASCII && (("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s)
                || "_./@%+=:,-".unicodeScalars.contains(s))
        }
        if plain { return escaped(path) }
        var quoted = "'"
        for c in path { quoted += c == "'" ? "'\\''" : String(c) }
        return escaped(quoted + "'")
    }
}
