import Foundation
import KCSLanguage

/// The TextMate grammars for `.kcs` files and for `kcs` blocks in Markdown,
/// built from the language's own tables so highlighting cannot drift from
/// the parser: statement keywords and their literal words come from
/// ``StatementForm/all`` (the syntax strings help prints), attribute, class,
/// value and status names from ``Vocabulary``. Only the shape of each
/// statement's head (where a name stands) is written here, in a switch over
/// ``StatementForm/Kind`` that stops compiling when a form is added.
/// `scripts/update-grammar.sh` writes the result to editors/textmate/; a test
/// fails when the committed files differ from what this prints.
enum TextMateGrammar {
    /// A character that may be part of a word: anything the lexer does not
    /// treat as space, punctuation, a string or a comment.
    static let wordChar = ##"[^\s\[\],="#]"##
    static let word = wordChar + "+"
    /// A name: a word, or a string for a name with spaces or other
    /// characters (the parser takes either wherever a name goes).
    static let name = ##"(?:"(?:[^"\\]|\\.)*"|"## + word + ")"
    static let before = ##"(?<![^\s\[\],="#])"##
    static let after = ##"(?![^\s\[\],="#])"##

    /// One syntax string cut into alternatives (`a | b`) and their words,
    /// brackets and ellipses removed.
    static func alternatives(_ form: StatementForm) -> [[String]] {
        form.usage.components(separatedBy: " | ").map { alt in
            alt.split(separator: " ").map { $0.filter { !"[]…".contains($0) } }.filter { !$0.isEmpty }
        }
    }

    /// The literal words standing first after the keyword, in any alternative
    /// (`passcode on|off`, `expect status … | count N | …`).
    static func firstChoices(_ form: StatementForm) -> [String] {
        unique(alternatives(form).flatMap { alt -> [String] in
            let rest = alt.first == form.keyword ? alt.dropFirst() : alt[...]
            guard let first = rest.first, !first.contains("=") else { return [] }
            return first.split(separator: "|").filter(StatementForm.isLiteral).map(String.init)
        })
    }

    /// The literal words right after a placeholder (`as APP add|find|…`).
    static func choices(_ form: StatementForm, after placeholder: String) -> [String] {
        for alt in alternatives(form) {
            if let i = alt.firstIndex(of: placeholder), i + 1 < alt.count {
                return alt[i + 1].split(separator: "|").filter(StatementForm.isLiteral).map(String.init)
            }
        }
        return []
    }

    /// Every literal word of a form's syntax that is not an option or a value.
    static func literals(_ form: StatementForm) -> [String] {
        unique(alternatives(form).flatMap { $0 }.filter { !$0.contains("=") }
            .flatMap { $0.split(separator: "|").filter(StatementForm.isLiteral).map(String.init) })
    }

    /// `name=` options in the syntax strings (`team=`, `kind=`, `account=`).
    static var syntaxOptions: [String] {
        StatementForm.all.flatMap(alternatives).flatMap { $0 }.compactMap { w in
            guard let eq = w.firstIndex(of: "=") else { return nil }
            let name = w[..<eq]
            return StatementForm.isLiteral(name) ? String(name) : nil
        }
    }

    /// Lower-case values in the syntax strings (`team=T|none`, `kind=app|extension`).
    static var syntaxValues: [String] {
        StatementForm.all.flatMap(alternatives).flatMap { $0 }.flatMap { w -> [String] in
            guard let eq = w.firstIndex(of: "=") else { return [] }
            return w[w.index(after: eq)...].split(separator: "|").filter(StatementForm.isLiteral).map(String.init)
        }
    }

    /// Every attribute or option name a `name=` may use.
    static var attributeNames: [String] { unique(Vocabulary.argumentNames + syntaxOptions) }

    /// Every enumerated value: accessibility, match limits, booleans, kinds…
    static var valueNames: [String] {
        let keys = Vocabulary.argumentNames.compactMap(Vocabulary.argumentKey(named:))
        return unique(keys.flatMap(Vocabulary.valueNames(for:)) + syntaxValues + ["true", "false"])
    }

    static func unique(_ words: [String]) -> [String] {
        var seen = Set<String>()
        return words.filter { seen.insert($0).inserted }
    }

    /// An alternation that tries longer words first, with regex characters escaped.
    static func alternation(_ words: [String]) -> String {
        // No words: a pattern that never matches, not one that matches nothing.
        if words.isEmpty { return "(?!)" }
        let sorted = unique(words).sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
        return "(?:" + sorted.map(escape).joined(separator: "|") + ")"
    }

    static func escape(_ word: String) -> String {
        var out = ""
        for c in word {
            if "\\^$.|?*+()[]{}".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// What may follow a keyword on the head of a statement: a name with
    /// its scope, or one of some literal words.
    enum Part {
        case name(String)
        case words([String], String)
    }

    /// One highlighting rule for a statement: its head and what its body may hold.
    struct Shape {
        var head: [Part]
        var body: [[String: Any]]
        /// The rule applies only when the first part is there (`expect groups APP`).
        var needsFirst = false
    }

    static let keywordScope = "keyword.control.statement.kcs"
    static let otherKeywordScope = "keyword.other.kcs"

    /// The rules for one statement form, in the order they are tried.
    static func shapes(_ form: StatementForm) -> [Shape] {
        let args: [[String: Any]] = [include("arguments")]
        let rest = literals(form).filter { !firstChoices(form).contains($0) && $0 != form.keyword }
        let restWords: [[String: Any]] = rest.isEmpty ? [] : [words(rest, otherKeywordScope)]
        func def(_ what: String) -> Part { .name("entity.name.type.\(what).kcs") }
        func ref(_ what: String) -> Part { .name("variable.other.\(what).kcs") }
        let first = Part.words(firstChoices(form), otherKeywordScope)
        switch form.kind {
        case .platform:
            return [Shape(head: [first], body: [include("comment"), include("number")])]
        case .team:
            return [Shape(head: [def("team"), .words(["as"], otherKeywordScope), def("team")], body: args)]
        case .app:
            return [Shape(head: [def("app"), .words(["as"], otherKeywordScope), def("app")], body: args)]
        case .group:
            return [Shape(head: [def("group")],
                          // Apps by NAME: a quoted one too (it had no scope; editor trial 20, E15).
                          body: [include("comment"), ["match": before + name, "name": "variable.other.app.kcs"]])]
        case .include:
            return [Shape(head: [], body: [include("comment"), include("string")])]
        case .device:
            return [Shape(head: [def("device")], body: args)]
        case .call:
            let operations = choices(form, after: "APP")
            return [Shape(head: [ref("app"), .words(operations, "support.function.operation.kcs"),
                                 .words(Vocabulary.classNames, "support.type.class.kcs")],
                          body: restWords + args)]
        case .expect:
            // `expect groups APP …` and `expect default-group APP ID` name an app.
            let naming = firstChoices(form).filter { nextIsApp(form, $0) }
            let statuses = words(Vocabulary.statusNames, "support.constant.status.kcs")
            return [Shape(head: [.words(naming, otherKeywordScope), ref("app")], body: args, needsFirst: true),
                    Shape(head: [first], body: restWords + [statuses] + args)]
        case .show:
            let naming = firstChoices(form).filter { nextIsApp(form, $0) }
            return [Shape(head: [.words(naming, otherKeywordScope), ref("app")], body: args, needsFirst: true),
                    Shape(head: [first], body: args)]
        case .passcode, .biometry, .user:
            return [Shape(head: [first], body: args)]
        case .uninstall, .install, .resign:
            return [Shape(head: [ref("app")], body: args)]
        case .transfer:
            return [Shape(head: [ref("app"), .words(["to"], otherKeywordScope), ref("team")], body: args)]
        case .backup:
            return [Shape(head: [ref("device"), .words(["as"], otherKeywordScope), def("backup")], body: args)]
        case .restore:
            return [Shape(head: [ref("backup"), .words(["to"], otherKeywordScope), ref("device")], body: args)]
        case .context:
            return [Shape(head: [def("context")], body: args)]
        case .keep:
            // `keep persistent-ref as NAME`
            return [Shape(head: [first, .words(["as"], otherKeywordScope), def("reference")], body: args)]
        case .wait:
            return [Shape(head: [], body: [include("comment"), include("number")])]
        case .lock, .unlock, .reboot, .sync, .explain, .reset:
            return [Shape(head: [], body: args)]
        }
    }

    /// Whether the syntax has `WORD APP` somewhere.
    static func nextIsApp(_ form: StatementForm, _ word: String) -> Bool {
        alternatives(form).contains { alt in
            guard let i = alt.firstIndex(of: word), i + 1 < alt.count else { return false }
            return alt[i + 1] == "APP"
        }
    }

    static func include(_ name: String) -> [String: Any] { ["include": "#" + name] }

    static func words(_ list: [String], _ scope: String) -> [String: Any] {
        ["match": before + alternation(list) + after, "name": scope]
    }

    /// A statement rule: from its keyword (after an optional `on DEVICE`)
    /// to the end of the line, or of a list that spans lines.
    static func rule(_ form: StatementForm, _ shape: Shape) -> [String: Any] {
        var captures: [String: Any] = [
            "1": ["name": keywordScope], "2": ["name": "variable.other.device.kcs"], "3": ["name": keywordScope],
        ]
        // Each part is optional and needs the one before it: `team X as Y`.
        var nested = ""
        for (i, part) in shape.head.enumerated().reversed() {
            let (pattern, scope): (String, String) = switch part {
            case .name(let scope): (name, scope)
            case .words(let list, let scope): (alternation(list), scope)
            }
            captures[String(4 + i)] = ["name": scope]
            nested = "(?:\\s+(" + pattern + ")" + after + nested + ")" + (i == 0 && shape.needsFirst ? "" : "?")
        }
        return [
            "name": "meta.statement.\(form.keyword).kcs",
            // The device is a NAME, quoted or not (a quoted one made the
            // whole line invalid; editor trial 20, E15).
            "begin": "^\\s*(?:(on)\\s+(" + name + ")\\s+)?(" + escape(form.keyword) + ")" + after + nested,
            "beginCaptures": captures,
            "end": "$",
            "patterns": shape.body,
        ]
    }

    /// The grammar for `.kcs` files, scope `source.kcs`.
    static var kcs: [String: Any] {
        var statements: [[String: Any]] = []
        for form in StatementForm.all {
            for shape in shapes(form) { statements.append(rule(form, shape)) }
        }
        let repository: [String: Any] = [
            "statement": ["patterns": statements],
            "comment": [
                "match": "(#).*$", "name": "comment.line.number-sign.kcs",
                "captures": ["1": ["name": "punctuation.definition.comment.kcs"]],
            ],
            "string": [
                "begin": "\"", "end": "\"|$", "name": "string.quoted.double.kcs",
                "beginCaptures": ["0": ["name": "punctuation.definition.string.begin.kcs"]],
                "endCaptures": ["0": ["name": "punctuation.definition.string.end.kcs"]],
                "patterns": [
                    ["match": "\\\\(?:[\"\\\\nt]|u\\{[0-9A-Fa-f]{1,8}\\})", "name": "constant.character.escape.kcs"],
                    ["match": "\\\\.?", "name": "invalid.illegal.escape.kcs"],
                ],
            ],
            // Digits alone: `1.0` and `10a` are words (grammar.md §1).
            "number": ["match": before + "-?[0-9]+" + after, "name": "constant.numeric.kcs"],
            "list": [
                "begin": "\\[", "end": "\\]",
                "beginCaptures": ["0": ["name": "punctuation.section.list.begin.kcs"]],
                "endCaptures": ["0": ["name": "punctuation.section.list.end.kcs"]],
                "patterns": [
                    include("comment"), include("string"), include("list"),
                    ["match": ",", "name": "punctuation.separator.list.kcs"],
                    words(valueNames, "constant.language.value.kcs"), include("number"),
                ],
            ],
            "arguments": ["patterns": [
                include("comment"), include("string"), include("list"),
                // The value with its attribute: a word there is a value, or
                // plain, never a statement's word (`service=find`; editor
                // trial 20, E10).
                [
                    "match": before + "(" + alternation(attributeNames) + ")\\s*(=)(?:\\s*(?:("
                        + alternation(valueNames) + ")" + after + "|(-?[0-9]+)" + after + "|" + word + "))?",
                    "captures": ["1": ["name": "entity.other.attribute-name.kcs"],
                                 "2": ["name": "keyword.operator.assignment.kcs"],
                                 "3": ["name": "constant.language.value.kcs"],
                                 "4": ["name": "constant.numeric.kcs"]],
                ],
                [
                    "match": before + "(" + word + ")\\s*(=)",
                    "captures": ["1": ["name": "invalid.illegal.attribute-name.kcs"],
                                 "2": ["name": "keyword.operator.assignment.kcs"]],
                ],
                words(valueNames, "constant.language.value.kcs"), include("number"),
            ]],
        ]
        return [
            "name": "kcs",
            "scopeName": "source.kcs",
            "fileTypes": ["kcs"],
            "comment": "Generated by `kcs textmate` from the kcs language tables (scripts/update-grammar.sh); do not edit.",
            "patterns": [
                include("comment"), include("statement"),
                ["match": "^\\s*(" + word + ")", "captures": ["1": ["name": "invalid.illegal.statement.kcs"]]],
            ],
            "repository": repository,
        ]
    }

    /// The injection grammar for fenced `kcs` blocks in Markdown (VS Code's
    /// `injectTo`; the block's info string may carry `fresh`, `ignore`, `fails`).
    static var markdown: [String: Any] {
        [
            "scopeName": "markdown.kcs.codeblock",
            "comment": "Generated by `kcs textmate --markdown` (scripts/update-grammar.sh); do not edit.",
            "fileTypes": [],
            "injectionSelector": "L:text.html.markdown",
            "patterns": [include("kcs-code-block")],
            "repository": [
                "kcs-code-block": [
                    "name": "markup.fenced_code.block.markdown",
                    "begin": "(^|\\G)(\\s{0,3})(`{3,}|~{3,})\\s*(?i:(kcs)((?:\\s|,)[^`]*)?$)",
                    "end": "(^|\\G)(\\2|\\s{0,3})(\\3)\\s*$",
                    "beginCaptures": [
                        "3": ["name": "punctuation.definition.markdown"],
                        "4": ["name": "fenced_code.block.language.markdown"],
                        "5": ["name": "fenced_code.block.language.attributes.markdown"],
                    ],
                    "endCaptures": ["3": ["name": "punctuation.definition.markdown"]],
                    "patterns": [
                        [
                            "begin": "(^|\\G)(\\s*)(.*)",
                            "while": "(^|\\G)(?!\\s*([`~]{3,})\\s*$)",
                            "contentName": "meta.embedded.block.kcs",
                            "patterns": [["include": "source.kcs"]],
                        ],
                    ],
                ],
            ],
        ]
    }

    /// The grammar as the committed file holds it: sorted keys, two-space indent.
    static func json(_ grammar: [String: Any]) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: grammar,
                                              options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
