import KCSLanguage
@testable import KCSRepl
import KeychainEngine
import Testing

/// Completion offers the words of the new forms and the names they take.
@Suite struct FormsCompleterTests {
    private let completer = Completer(apps: ["AppOne"], teams: ["SKMME9E2Y8"], devices: ["this", "Old"],
                                      groups: [], contexts: ["Session", "Quiet"], persistentRefs: ["Token"])

    private func offered(_ before: String, _ word: String) -> [String] {
        completer.complete(word, after: before).candidates
    }

    @Test func statementKeywords() {
        #expect(offered("", "ke") == ["keep"])
        #expect(offered("", "wa") == ["wait"])
        #expect(offered("", "con") == ["context"])
        #expect(offered("keep ", "") == ["persistent-ref"])
        #expect(offered("keep persistent-ref ", "") == ["as"])
    }

    @Test func contextAndDeviceOptions() {
        #expect(offered("context S ", "") == ["reuse=", "interaction="])
        #expect(offered("context S interaction=", "") == ["true", "false"])
        #expect(offered("device D ", "") == ["account=", "platform="])
        #expect(offered("device D account=x ", "") == ["platform="])
        #expect(offered("device D platform=", "wa") == ["watchos"])
        #expect(offered("device D platform=ios ", "") == [])
        #expect(offered("device D platform=ios 13 ", "") == ["account="])
    }

    @Test func callOptionsOfferDeclaredNames() {
        let names = offered("as AppOne find generic-password ", "")
        #expect(names.contains("persistent-ref=") && names.contains("context="))
        #expect(offered("as AppOne find generic-password context=", "") == ["Session", "Quiet"])
        #expect(offered("as AppOne find persistent-ref=", "T") == ["Token"])
        #expect(offered("as AppOne find generic-password ", "kSecUseAuth") == ["kSecUseAuthenticationUI=", "kSecUseAuthenticationContext="])
    }

    @Test func expectSubjectsAndAppOptions() {
        #expect(offered("expect ", "no") == ["no-data"])
        #expect(offered("expect ", "pers") == ["persistent-ref"])
        #expect(offered("expect persistent-ref ", "") == ["Token"])
        #expect(offered("app com.example.X ", "sig") == ["signing="])
        #expect(offered("app com.example.X ", "assoc") == ["associated-application-identifier="])
        #expect(offered("app com.example.X signing=", "") == ["provisioned", "unprovisioned", "no-app-id"])
    }

    @Test func namesComeFromTheWorld() {
        var world = World()
        world.declareContext("Ctx", AuthContext())
        world.keep(PersistentRef(itemClass: .genericPassword, row: .rowID(1)), as: "Kept")
        let c = Completer(world: world)
        #expect(c.contexts == ["Ctx"])
        #expect(c.persistentRefs == ["Kept"])
    }

    @Test func helpExplainsTheNewWords() {
        #expect(Help.text("keep").contains("keep persistent-ref as NAME"))
        #expect(Help.text("context").contains("reuse=SECONDS"))
        #expect(Help.text("wait").contains("wait SECONDS"))
        #expect(Help.text("device").contains("platform="))
        #expect(Help.text("persistent-ref").contains("keep persistent-ref as NAME"))
        #expect(Help.text("kSecUseAuthenticationContext").contains("context NAME"))
    }
}

/// Tab's common prefix is cut between scalars: "é1" and "è2" share a first
/// byte, which alone was inserted as U+FFFD (adversarial run 24, F9).
@Test func completionsCommonPrefixIsWholeScalars() {
    #expect(ReadlineHooks.commonPrefix(["as \"\u{E9}1\"", "as \"\u{E8}2\""]) == "as \"")
    #expect(ReadlineHooks.commonPrefix(["service=", "server="]) == "serv")
    #expect(ReadlineHooks.commonPrefix(["\u{1F600}a", "\u{1F600}b"]) == "\u{1F600}")
    #expect(ReadlineHooks.commonPrefix(["only"]) == "only")
}
