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
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("grammar.md"), encoding: .utf8)
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
}
