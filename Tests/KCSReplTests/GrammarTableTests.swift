import Foundation
import KCSLanguage
import KeychainEngine
@testable import KCSRepl
import Testing

/// The grammar table is the one place a statement's words, options and
/// expectation subjects are written: each row must reach the parser,
/// completion, help and grammar.md without a further edit.
@Suite struct GrammarTableTests {
    private let completer = Completer(apps: ["AppOne"], teams: ["SKMME9E2Y8"], devices: ["this", "Pad"], groups: ["G"])

    private func offered(_ before: String) -> [String] {
        completer.complete("", after: before).candidates
    }

    private func parses(_ text: String) -> Bool {
        Parser.parse(SourceFile(name: "t.kcs", text: "team SKMME9E2Y8\n" + text + "\n")).diagnostics.isEmpty
    }

    @Test func everyWordIsCompletedParsedAndHelped() {
        for form in StatementForm.all {
            let help = Help.text(form.keyword)
            #expect(help.contains(form.usage) && help.contains(form.summary), "\(form.keyword)")
            #expect(offered("").contains(form.keyword), "\(form.keyword)")
            for choice in form.choices {
                #expect(offered(form.keyword + " ").contains(choice.word), "\(form.keyword) \(choice.word)")
                #expect(form.usage.contains(choice.word), "\(form.keyword) \(choice.word)")
            }
            for choice in form.choices where choice.rest.isEmpty && form.kind != .expect {
                #expect(parses("\(form.keyword) \(choice.word)"), "\(form.keyword) \(choice.word)")
            }
        }
    }

    @Test func everyOptionIsCompletedWithItsValues() {
        for form in StatementForm.all where !form.options.isEmpty {
            // The options follow the whole head (`backup DEVICE as NAME`).
            let name = form.kind == .app ? "com.example.X" : form.kind == .backup ? "this as N" : "N"
            let after = offered("\(form.keyword) \(name) ")
            for option in form.options {
                #expect(after.contains(option.key + "="), "\(form.keyword) \(option.key)=")
                #expect(form.usage.contains("[\(option.key)="), "\(form.keyword) \(option.key)=")
                let values = offered("\(form.keyword) \(name) \(option.key)=")
                switch option.value {
                case .boolean: #expect(values == OptionSpec.booleans)
                case .set(let set): #expect(values == Vocabulary.names(of: set), "\(option.key)")
                case .platform: #expect(values == Vocabulary.names(of: .platformFamily))
                case .name, .path, .integer, .nameList: break
                }
                // Once given, an option is not offered again.
                if option.value == .boolean {
                    #expect(!offered("\(form.keyword) \(name) \(option.key)=true ").contains(option.key + "="))
                }
            }
        }
    }

    @Test func everyValueSetIsCompletedWhereItStands() {
        #expect(offered("platform ") == Vocabulary.names(of: .platformFamily))
        #expect(offered("as AppOne ") == Vocabulary.names(of: .operation))
        #expect(offered("expect status ") == Vocabulary.names(of: .status))
        #expect(offered("transfer AppOne ") == ["to"])
        #expect(offered("keep ") == ["persistent-ref"])
        #expect(offered("restore monday to ") == ["this", "Pad"])
        #expect(offered("expect default-group ") == ["AppOne"])
        #expect(offered("show app ") == ["AppOne"])
    }

    @Test func grammarPageCarriesTheGeneratedTable() throws {
        let page = try Self.page("grammar.md")
        let expected = GrammarReference.begin + "\n" + GrammarReference.markdownTable() + GrammarReference.end
        #expect(page.contains(expected), "grammar.md's statement table is stale: run scripts/update-grammar.sh")
        for form in StatementForm.all {
            #expect(page.contains(form.keyword), "\(form.keyword)")
        }
        // Every status `expect status` takes is in its table (two were
        // missing; found by review).
        for status in KeychainStatus.allCases {
            #expect(page.contains("| `\(status.name)` | \(status.code) |"), "\(status.name) is missing from grammar.md's status table")
        }
    }

    /// A page of the repository.
    static func page(_ path: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// grammar.md §2's EBNF rules, by name, comments removed.
    static func ebnfRules(_ page: String) -> [String: String] {
        let section = page.components(separatedBy: "\n## 2. ")[1].components(separatedBy: "\n## 3. ")[0]
        var text = section.components(separatedBy: "```ebnf\n").dropFirst()
            .map { $0.components(separatedBy: "```")[0] }.joined(separator: "\n")
        while let open = text.range(of: "(*"), let close = text.range(of: "*)", range: open.upperBound..<text.endIndex) {
            text.removeSubrange(open.lowerBound..<close.upperBound)
        }
        var rules: [String: String] = [:]
        var current: String?
        for line in text.split(separator: "\n") {
            if line.first == " " {
                if let current { rules[current, default: ""] += " " + line }
                continue
            }
            let parts = line.split(separator: "=", maxSplits: 1)
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            if parts.count == 2, name.allSatisfy({ $0.isLetter || $0 == "-" }) {
                current = name
                rules[name] = String(parts[1])
            } else {
                current = nil
            }
        }
        return rules
    }

    /// Review 23a, R1: grammar.md §2 is written by hand, and had drifted from
    /// the table (no `resign`, no `always-allows`, no `encrypted=`, versions
    /// "1..99"). Each form, word, option and value set of the table must be
    /// in its rule.
    @Test func grammarPageRulesFollowTheTable() throws {
        let rules = Self.ebnfRules(try Self.page("grammar.md"))
        let ruleNames = StatementForm.all.map { "\($0.kind)" }
        let forms = (rules["form"] ?? "").split(separator: "|").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " ;")) }
        #expect(Set(forms) == Set(ruleNames), "grammar.md's form = … lists \(forms)")
        func alternatives(_ words: [String]) -> String { words.map { "'\($0)'" }.joined(separator: " | ") }
        for form in StatementForm.all {
            let name = "\(form.kind)"
            guard let rule = rules[name] else { Issue.record("grammar.md has no rule \(name) = …"); continue }
            // The rule, its options' rule, and the rules it names (`operation`, `VERSION`).
            let named = rules.filter { key, _ in rule.split(separator: " ").contains { $0 == key } }.map(\.value)
            let text = ([rule, rules["\(name)-option"] ?? ""] + named).joined(separator: " ")
            #expect(rule.contains("'\(form.keyword)'"), "\(name)")
            for choice in form.choices {
                #expect(text.contains("'\(choice.word)'"), "\(name): '\(choice.word)'")
            }
            for set in ValueSet.allCases where form.head.contains("{\(set)}") {
                #expect(text.contains(alternatives(Vocabulary.names(of: set))), "\(name): \(set)")
            }
            for option in form.options {
                #expect(text.contains("'\(option.key)' '='"), "\(name): \(option.key)=")
                switch option.value {
                case .set(let set): #expect(text.contains("( " + alternatives(Vocabulary.names(of: set)) + " )"), "\(option.key)=")
                case .platform: #expect(text.contains(alternatives(Vocabulary.names(of: .platformFamily)) + " ) VERSION"), "\(option.key)=")
                case .boolean: #expect(text.contains("( " + alternatives(OptionSpec.booleans) + " )"), "\(option.key)=")
                case .name, .path, .integer, .nameList: break
                }
            }
        }
        // The versions the parser takes, from the engine's oldest modelled one.
        let page = try Self.page("grammar.md")
        let version = page.components(separatedBy: "\nVERSION ").dropFirst().first?.components(separatedBy: "\n")[0] ?? ""
        for family in Platform.Family.allCases {
            #expect(version.contains("\(family.rawValue) \(family.oldestModelled)"), "grammar.md's VERSION: \(version)")
        }
        #expect(version.contains("below \(Platform.versionBound)"), "grammar.md's VERSION: \(version)")
    }

    /// Review 23a, R1: the guide's reference tables give each form's syntax
    /// as help does (its `app` row lacked five options).
    @Test func guideReferenceGivesEachFormsSyntax() throws {
        let guide = try Self.page("docs/guide/11-language-reference.md")
        for form in StatementForm.all {
            if form.kind == .expect {
                for choice in form.choices { #expect(guide.contains("`expect \(choice.word)"), "expect \(choice.word)") }
                continue
            }
            let usage = form.usage
            #expect(guide.contains("`\(usage)`") || guide.contains("`\(usage.replacingOccurrences(of: "|", with: "\\|"))`"),
                    "docs/guide/11-language-reference.md lacks `\(usage)`")
        }
    }

    /// Every source file grammar.md names exists (it named
    /// Sources/KCSLanguage/Parser.swift and Diagnostic.swift after they moved).
    @Test func grammarPageNamesSourcesThatExist() throws {
        let page = try Self.page("grammar.md")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        for cited in page.components(separatedBy: "`Sources/").dropFirst() {
            let path = "Sources/" + cited.components(separatedBy: "`")[0]
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path), "grammar.md names \(path)")
        }
    }

    /// Review 23a, R12: grammar.md §6 lists every diagnostic code with its
    /// case name, and no other (a hand copy of ``DiagnosticCode``).
    @Test func grammarPageListsEveryDiagnosticCode() throws {
        let page = try Self.page("grammar.md")
        let section = page.components(separatedBy: "\n## 6. ")[1].components(separatedBy: "\n## ")[0]
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| KCS") }
        #expect(rows.count == DiagnosticCode.allCases.count, "grammar.md §6 has \(rows.count) rows")
        for code in DiagnosticCode.allCases {
            #expect(rows.contains { $0.hasPrefix("| \(code.rawValue) | \(code) |") }, "grammar.md §6 lacks \(code.rawValue) \(code)")
        }
    }

    /// Review 23a, R13: every lint code (KCS5xx) has a row in docs/lint.md's
    /// table, every project code (KCS6xx) one in docs/xcode.md's (KCS601 had none).
    @Test func everyLintAndProjectCodeHasADocsRow() throws {
        for (prefix, path) in [("KCS5", "docs/lint.md"), ("KCS6", "docs/xcode.md")] {
            let firstCells = try Self.page(path).split(separator: "\n").filter { $0.hasPrefix("| KCS") }
                .map { $0.split(separator: "|").first.map(String.init) ?? "" }
            for code in DiagnosticCode.allCases where code.rawValue.hasPrefix(prefix) {
                #expect(firstCells.contains { $0.contains(code.rawValue) }, "\(path) has no row for \(code.rawValue)")
            }
        }
    }

    /// Review 23a, R14: help on `persistent-ref=` and `context=` quotes the
    /// forms' syntax from the table (it said `[interaction=false]`).
    @Test func argumentHelpQuotesTheFormsSyntax() {
        #expect(Help.text("persistent-ref").contains("'\(StatementForm.form(.keep).usage)'"), "\(Help.text("persistent-ref"))")
        #expect(Help.text("kSecUseAuthenticationContext").contains("'\(StatementForm.form(.context).usage)'"),
                "\(Help.text("kSecUseAuthenticationContext"))")
    }

    /// Review 23a, R18: the access-control combinators are the engine's
    /// (AccessControl.Combinator), offered after a flag and parsed between
    /// two, with no second spelling of `or` and `and`.
    @Test func combinatorsAreTheEnginesWords() {
        let afterFlag = offered("as AppOne add generic-password access-control=[biometry-any, ")
        for c in AccessControl.Combinator.allCases {
            #expect(afterFlag.contains(c.rawValue), "\(c.rawValue)")
            #expect(Vocabulary.valueNames(for: .accessControl).contains(c.rawValue), "\(c.rawValue)")
            #expect(parses("app com.example.AppOne\nas AppOne add generic-password account=\"a\" "
                           + "access-control=[biometry-any, \(c.rawValue), device-passcode]"), "\(c.rawValue)")
        }
    }
}
