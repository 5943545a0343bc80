/// Writing values into generated scripts so they read back as the same value.
public enum ScriptText {
    /// `s` as a bare word when the lexer reads it back as one word (and not
    /// as an integer), else as a quoted string with every escape it needs.
    public static func literal(_ s: String) -> String {
        let bytes = Array(s.utf8)
        let isWord = !bytes.isEmpty && bytes.allSatisfy(Lexer.isWordByte)
            && !bytes.allSatisfy { $0 >= 0x30 && $0 <= 0x39 || $0 == UInt8(ascii: "-") }
            && !s.unicodeScalars.contains(where: needsEscape)
        return isWord ? s : quoted(s)
    }

    /// `s` in double quotes, with `\"`, `\\`, `\n`, `\t` and `\u{…}` for other controls.
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if needsEscape(scalar) {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Controls, bidirectional controls and invisible characters never
    /// reach a file raw (a script holding them raw does not parse).
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool { TerminalText.needsEscape(scalar) }
}
