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

    /// Controls and bidirectional overrides never reach a file raw.
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value) || scalar.value == 0x200E || scalar.value == 0x200F
    }
}
