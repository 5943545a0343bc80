import KCSLanguage
import KeychainEngine

/// `:help [TOPIC]`, generated from the tables the parser uses
/// (``StatementForm/all``, ``Vocabulary``), so help cannot drift from the language.
enum Help {
    /// The REPL's own commands: name, arguments, what it does.
    static let commands: [(name: String, arguments: String, summary: String)] = [
        (":help", "[TOPIC]", "this list (also: help); a statement keyword, 'attributes', 'classes', 'statuses' or an attribute name for more"),
        (":load", "FILE", "run a script into this session"),
        (":save", "FILE", "write the session as a script with an 'expect status' after each call; 'kcs run FILE' passes; never replaces a file"),
        (":save!", "FILE", "as :save, replacing FILE if it exists (the old file stays whole until the new one is complete)"),
        (":undo", "", "take back the last input (or :load)"),
        (":reset", "", "start over: a fresh world, nothing to undo or save"),
        (":quit", "", "leave (so do quit, exit and Ctrl-D); Ctrl-C abandons the current input, Ctrl-D in a list closes it"),
    ]

    /// Everything `:help` takes, for completion.
    static var topics: [String] {
        StatementForm.all.map(\.keyword) + ["attributes", "classes", "statuses", "commands"]
            + Vocabulary.shortArgumentNames.filter { !Vocabulary.valueNames(for: key($0)).isEmpty }
    }

    static func text(_ topic: String?) -> String {
        guard let topic, !topic.isEmpty else { return overview() }
        let t = topic.hasPrefix(":") && topic.count > 1 ? String(topic.dropFirst()) : topic
        if let form = StatementForm.all.first(where: { $0.keyword == t || "\($0.kind)" == t }) {
            return "\(form.usage)\n  \(form.summary)\n  example: \(form.example)\n"
        }
        if let c = commands.first(where: { $0.name == ":" + t }) {
            return "\(c.name)\(c.arguments.isEmpty ? "" : " " + c.arguments)\n  \(c.summary)\n"
        }
        switch t {
        case "commands", "meta":
            return commandList()
        case "attributes", "attrs":
            return "attributes (each also has its kSec… spelling):\n" + wrap(Vocabulary.shortArgumentNames)
        case "classes":
            return "item classes:\n" + wrap(Vocabulary.classNames)
        case "statuses", "status":
            return "statuses for 'expect status' (name or number):\n"
                + KeychainStatus.allCases.map { "  \($0.name) (\($0.code))\n" }.joined()
        default:
            if let k = Vocabulary.argumentKey(named: t) {
                let values = Vocabulary.valueNames(for: k)
                switch k {
                // The forms' syntax as the grammar table gives it (review 23a, R14).
                case .persistentRef: return "\(t)=NAME takes a reference kept with '\(StatementForm.form(.keep).usage)'\n"
                case .context: return "\(t)=NAME takes a context declared with '\(StatementForm.form(.context).usage)'\n"
                default: break
                }
                if values.isEmpty { return "\(t)=VALUE takes a word, a string or a number\n" }
                let short = values.filter { !$0.hasPrefix("kSec") }
                let note = short.count < values.count ? " (each also has its kSec… constant name)" : ""
                return "values of \(t)=\(note):\n" + wrap(short.isEmpty ? values : short)
            }
            return "no help on '\(TerminalText.escaped(t))'; try :help for the list\n"
        }
    }

    private static func key(_ name: String) -> ArgumentKey {
        Vocabulary.argumentKey(named: name) ?? .data
    }

    private static func overview() -> String {
        let width = StatementForm.all.map(\.keyword.count).max() ?? 0
        var out = "statements (':help KEYWORD' shows the syntax and an example):\n"
        for f in StatementForm.all {
            out += "  " + f.keyword + String(repeating: " ", count: width - f.keyword.count) + "  " + f.summary + "\n"
        }
        out += "  on DEVICE may start a statement; '[' lists may span lines\n"
        return out + commandList() + "more: :help attributes | classes | statuses | ATTR (its values)\n"
    }

    private static func commandList() -> String {
        let width = commands.map { $0.name.count + $0.arguments.count + 1 }.max() ?? 0
        var out = "commands:\n"
        for c in commands {
            let head = c.arguments.isEmpty ? c.name : c.name + " " + c.arguments
            out += "  " + head + String(repeating: " ", count: width - head.count) + "  " + c.summary + "\n"
        }
        return out
    }

    /// Words in lines of at most about 76 columns.
    private static func wrap(_ words: [String]) -> String {
        var out = "", line = " "
        for w in words {
            if line.count + w.count + 1 > 76 { out += line + "\n"; line = " " }
            line += " " + w
        }
        return line == " " ? out : out + line + "\n"
    }
}
