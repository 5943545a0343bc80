import KCSLanguage
import KeychainEngine
@testable import KCSRepl
import Testing

/// Completion offers, at each point of each form of the grammar table, only
/// what the parser takes there, and the word the form's example writes
/// there (editor trial 20, E8: given attributes, query options after
/// `expect item` and `set`, `or` first in an access-control list, `encrypted=`
/// before `as`, no backups after `restore`, no attributes after the operation).
@Suite struct CompletionFollowsGrammarTests {
    private static let completer = Completer(
        apps: ["AppOne", "AppTwo"], teams: ["SKMME9E2Y8"], devices: ["this", "OldPhone"], groups: ["SKMME9E2Y8.G"],
        contexts: ["Session"], persistentRefs: ["Token", "AuthRef"], backups: ["monday"])

    private func offered(_ before: String) -> [String] {
        Self.completer.complete("", after: before).candidates
    }

    private func parses(_ statement: String) -> Bool {
        Parser.parse(SourceFile(name: "t.kcs", text: statement + "\n")).diagnostics.isEmpty
    }

    /// Endings that finish a statement: a placeholder's or a value's
    /// sample, the rest of a head, a list's end. (The completer offers
    /// nothing where a new name or a free value stands.)
    private static let endings: [String] = {
        let values = ["N", "13", "\"v\"", "\"2025-01-31\"", "[when-unlocked]"]
        // An update's query wants its changes after it.
        return [""] + values + values.map { $0 + " set data=\"v\"" } + [
            "\"p.kcs\"", "ABCDE12345", "[N]", "]", ", device-passcode ]", "ios 13", "as N", "to this", "to SKMME9E2Y8",
            "N to this", "find", "AppOne find", "this lock", "set data=\"v\"", "account=\"v\"", "errSecSuccess", "AppOne [N]",
            "AppOne N", "N project=\"p.xcodeproj\"", "project=\"p.xcodeproj\"",
        ]
    }()

    /// `text` with `candidate` typed after it, as Tab leaves it.
    private func typed(_ text: String, _ candidate: String) -> String {
        text + candidate + (candidate.hasSuffix("=") ? "" : " ")
    }

    /// Whether some statement that starts with `text` parses: `text` with
    /// an ending, or with what completion offers next (a few) and an ending.
    private func viable(_ text: String, depth: Int = 2) -> Bool {
        if Self.endings.contains(where: { parses(text + $0) }) { return true }
        guard depth > 0 else { return false }
        let offers = offered(text).filter { !$0.hasPrefix("kSec") }
        return offers.prefix(3).contains { viable(typed(text, $0), depth: depth - 1) }
    }

    /// The known names and words: an example's word outside them is a name of
    /// the example's own (a new team, a bundle ID) the completer cannot know.
    private static let known: Set<String> = {
        let c = completer
        var words = Set(c.apps + c.teams + c.devices + c.groups + c.contexts + c.persistentRefs + c.backups)
        for form in StatementForm.all {
            words.insert(form.keyword)
            for w in form.head.split(separator: " ") where StatementForm.isLiteral(w) { words.insert(String(w)) }
            for choice in form.choices { words.insert(choice.word) }
            for option in form.options { words.insert(option.key + "=") }
        }
        for set in ValueSet.allCases { words.formUnion(Vocabulary.names(of: set)) }
        words.formUnion(Vocabulary.argumentNames.map { $0 + "=" })
        words.formUnion(["or", "and", "set", "true", "false"])
        return words
    }()

    /// Every form's example, typed word by word: at each point the word the
    /// example writes next is offered (when completion could know it), and
    /// every offer leads to a statement the parser takes.
    @Test(arguments: StatementForm.all.map(\.example) + [
        "as AppOne find persistent-ref=AuthRef return=data",
        "as AppOne update generic-password account=\"a\" set data=\"new\" label=\"l\"",
        "as AppOne add generic-password account=\"a\" access-control=[when-unlocked, biometry-any, or, device-passcode]",
        "expect item account=\"a\" service=\"s\"",
        "backup this as monday encrypted=false",
        "restore monday to OldPhone",
        "app com.example.X as X team=SKMME9E2Y8 kind=extension",
        "on OldPhone as AppOne delete service=\"s\"",
    ])
    func everyPointOffersWhatParses(_ example: String) {
        #expect(parses(example), "the example itself: \(example)")
        var before = ""
        for word in Self.words(example) {
            let offers = offered(before)
            if !offers.isEmpty && Self.known.contains(word) {
                #expect(offers.contains(word), "after '\(before)': '\(word)' not offered (\(offers))")
            }
            for c in offers where !c.hasPrefix("kSec") {
                #expect(viable(typed(before, c)), "after '\(before)': '\(c)' leads nowhere the parser goes")
            }
            before = typed(before, word)
        }
    }

    /// The words of an example as completion types them: `KEY=` whole, list
    /// punctuation apart.
    private static func words(_ example: String) -> [String] {
        var out: [String] = []
        var current = ""
        var inString = false
        for ch in example {
            if ch == "\"" { inString.toggle() }
            if inString || ch == "\"" { current.append(ch); continue }
            switch ch {
            case " ":
                if !current.isEmpty { out.append(current); current = "" }
            case "=":
                out.append(current + "="); current = ""
            case "[", "]", ",":
                if !current.isEmpty { out.append(current); current = "" }
                out.append(String(ch))
            default: current.append(ch)
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// Each option of the table, once its form's head is written, offers
    /// values that parse, and is not offered again once given.
    @Test func everyOptionsValuesParse() {
        for form in StatementForm.all where !form.options.isEmpty {
            let head = form.kind == .backup ? "backup this as monday " : form.kind == .app ? "app com.example.X " : "\(form.keyword) N "
            for option in form.options {
                let at = head + option.key + "="
                #expect(viable(at), "\(at)")
                for value in offered(at) {
                    #expect(viable(typed(at, value)), "\(at)\(value)")
                }
                if let value = offered(at).first {
                    #expect(!offered(typed(at, value)).contains(option.key + "="), "\(option.key)= offered twice")
                }
            }
        }
    }

    /// E8's cases, as the trial typed them.
    @Test func theTrialsCases() {
        // Attributes already given, under either spelling.
        let given = offered("as AppOne add generic-password service=\"a\" account=\"b\" ")
        #expect(!given.contains("service=") && !given.contains("account=") && !given.contains("kSecAttrService="))
        #expect(given.contains("label="))
        // Query options are no item attributes, nor changes.
        for options in [offered("expect item "), offered("as AppOne update generic-password account=\"a\" set ")] {
            for o in ["limit=", "return=", "auth-ui=", "context=", "persistent-ref=", "data-protection="] {
                #expect(!options.contains(o), "\(o)")
            }
            #expect(options.contains("label="))
        }
        // An access-control list: protection or flag first, `or`/`and` between flags.
        let first = offered("as AppOne add generic-password access-control=[")
        #expect(!first.contains("or") && !first.contains("and") && first.contains("when-unlocked") && first.contains("biometry-any"))
        // After one flag, a combinator or a flag side by side (no combinator,
        // every constraint required), as the parser takes them (review 22a, R15).
        #expect(offered("as AppOne add generic-password access-control=[biometry-any, ")
            == ["or", "and", "device-passcode", "application-password"])
        #expect(!offered("as AppOne add generic-password access-control=[when-unlocked, ").contains("when-unlocked"))
        #expect(offered("as AppOne add generic-password access-control=[biometry-any, or, device-passcode, ") == ["or"])
        // user-presence takes only the application password, side by side
        // (SecAccessControlCreateWithFlags refuses or/and beside it).
        #expect(offered("as AppOne add generic-password access-control=[user-presence, ") == ["application-password"])
        #expect(offered("as AppOne add generic-password access-control=[user-presence, application-password, ") == [])
        #expect(offered("as AppOne add generic-password access-control=[biometry-any, device-passcode, ") == ["application-password"])
        // backup wants `as NAME` before its option.
        #expect(offered("backup this ") == ["as"])
        #expect(offered("backup this as ") == [])
        #expect(offered("backup this as monday ") == ["encrypted="])
        // restore offers the backups made.
        #expect(offered("restore ") == ["monday"])
        // The class is optional: attributes after the operation too.
        let afterOperation = offered("as AppOne find ")
        #expect(afterOperation.contains("generic-password") && afterOperation.contains("persistent-ref="))
        #expect(!offered("app com.example.X as ").contains("kind="))
    }

    @Test func backupsComeFromTheWorld() {
        var state = ReplState()
        _ = state.run(SourceFile(name: "<repl>", text: "backup this as monday\n"))
        #expect(Completer(world: state.session.world).complete("", after: "restore ").candidates == ["monday"])
    }
}
