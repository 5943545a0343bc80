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
