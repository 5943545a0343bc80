/// Names that mix writing systems, such as a Latin `Pay` spelt with a
/// Cyrillic `а`: they look like another name and are not (a homograph).
/// Strings and comments are free text and not looked at.
package enum MixedScripts {
    /// The writing systems told apart. Han, Hiragana and Katakana count as
    /// one, since Japanese mixes them in ordinary words.
    package enum Script: String, CaseIterable {
        case latin = "Latin", greek = "Greek", cyrillic = "Cyrillic", armenian = "Armenian", hebrew = "Hebrew"
        case arabic = "Arabic", devanagari = "Devanagari", thai = "Thai", georgian = "Georgian", cherokee = "Cherokee"
        case cjk = "CJK", hangul = "Hangul"
    }

    /// The script of a letter; nil for digits, punctuation and what is not
    /// told apart (counted with every script).
    package static func script(of s: Unicode.Scalar) -> Script? {
        switch s.value {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF, 0xFF21...0xFF3A, 0xFF41...0xFF5A: .latin
        case 0x370...0x3FF, 0x1F00...0x1FFF: .greek
        case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: .cyrillic
        case 0x530...0x58F: .armenian
        case 0x590...0x5FF: .hebrew
        case 0x600...0x6FF, 0x750...0x77F: .arabic
        case 0x900...0x97F: .devanagari
        case 0xE00...0xE7F: .thai
        case 0x10A0...0x10FF: .georgian
        case 0x13A0...0x13FF, 0xAB70...0xABBF: .cherokee
        case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF: .cjk
        case 0x1100...0x11FF, 0xAC00...0xD7AF: .hangul
        default: nil
        }
    }

    /// The scripts of a word, in order of first appearance, when more than one.
    package static func mixed(_ word: Substring) -> [Script]? {
        var seen: [Script] = []
        for s in word.unicodeScalars {
            if let script = script(of: s), !seen.contains(script) { seen.append(script) }
        }
        return seen.count > 1 ? seen : nil
    }

    /// The words of a statement's text outside strings and comments that
    /// mix scripts. ASCII-only text is passed over at once.
    package static func words(in text: Substring) -> [(word: Substring, scripts: [Script])] {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return [] }
        var out: [(Substring, [Script])] = []
        var i = text.startIndex
        var start: String.Index?
        var inString = false, escaped = false
        func flush(_ end: String.Index) {
            if let s = start, let scripts = mixed(text[s..<end]) { out.append((text[s..<end], scripts)) }
            start = nil
        }
        while i < text.endIndex {
            let c = text[i]
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
            } else if c == "\"" {
                flush(i)
                inString = true
            } else if c == "#" && start == nil {
                break
            } else if c == " " || c == "\t" || c == "\n" || c == "\r" || c == "=" || c == "[" || c == "]" || c == "," {
                flush(i)
            } else if start == nil {
                start = i
            }
            i = text.index(after: i)
        }
        if !inString { flush(text.endIndex) }
        return out
    }
}
