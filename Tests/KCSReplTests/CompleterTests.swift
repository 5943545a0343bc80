import KCSLanguage
import KCSRepl
import Testing

/// Completion, table-driven: the text before the cursor, the word, what is offered.
@Suite struct CompleterTests {
    private let completer = Completer(apps: ["AppOne", "AppTwo", "Widget"], teams: ["SKMME9E2Y8", "Acme"],
                                      devices: ["this", "iPad"], groups: ["SKMME9E2Y8.com.example.Shared"])

    private func offered(_ before: String, _ word: String) -> [String] {
        completer.complete(word, after: before).candidates
    }

    @Test func testStatementKeywordsAtTheStartOfALineAndAfterOnDevice() {
        #expect(offered("", "ex") == ["expect", "explain"])
        #expect(offered("", "a") == ["app", "as"])
        #expect(offered("on ", "i") == ["iPad"])
        #expect(offered("on iPad ", "lo") == ["lock"])
        #expect(Set(offered("", "")) == Set(StatementForm.keywords))
    }

    @Test func testDeclaredNamesWhereTheLanguageWantsThem() {
        #expect(offered("as ", "App") == ["AppOne", "AppTwo"])
        #expect(offered("show app ", "W") == ["Widget"])
        #expect(offered("expect groups ", "") == ["AppOne", "AppTwo", "Widget"])
        #expect(offered("app com.example.X team=", "") == ["SKMME9E2Y8", "Acme", "none"])
        #expect(offered("group com.example.Shared AppOne ", "W") == ["Widget"])
        #expect(offered("as AppOne add generic-password group=", "SK") == ["SKMME9E2Y8.com.example.Shared"])
    }

    @Test func testOperationsClassesAndAttributesForTheClass() {
        #expect(offered("as AppOne ", "" ) == ["add", "find", "update", "delete"])
        // The class is optional: attributes start here too.
        #expect(offered("as AppOne add ", "gen") == ["generic-password", "generic="])
        #expect(offered("as AppOne add ", "kSecClassG") == ["kSecClassGenericPassword"])
        let generic = offered("as AppOne add generic-password ", "")
        #expect(generic.contains("service="))
        #expect(!generic.contains("server="), "server belongs to internet passwords")
        #expect(offered("as AppOne find internet-password ", "serv") == ["server="])
        #expect(offered("as AppOne update generic-password account=\"a\" ", "se") == ["service=", "set"])
        #expect(offered("as AppOne add generic-password ", "kSecAttrServ") == ["kSecAttrService="])
    }

    @Test func testEnumeratedValuesAfterTheEqualsSign() {
        #expect(offered("as AppOne add generic-password accessible=", "after-first-unlock") == ["after-first-unlock", "after-first-unlock-this-device-only"])
        #expect(offered("as AppOne find generic-password limit=", "") == ["one", "all"])
        #expect(offered("as AppOne find internet-password protocol=", "http") == ["http", "https", "http-proxy", "https-proxy"])
        #expect(offered("as AppOne find generic-password auth-ui=", "") == ["allow", "fail", "skip"])
        #expect(offered("as AppOne find generic-password sync=", "") == ["true", "false", "any"])
        #expect(offered("as AppOne find generic-password return=[data, ", "attr") == ["attributes"])
        #expect(offered("as AppOne add generic-password access-control=[biometry-any, ", "o") == ["or"])
        #expect(offered("as AppOne find generic-password accessible=", "kSecAttrAccessibleAlways") == ["kSecAttrAccessibleAlways", "kSecAttrAccessibleAlwaysThisDeviceOnly"])
    }

    @Test func testStatusNamesAfterExpectStatus() {
        #expect(offered("expect status ", "errSecItemN") == ["errSecItemNotFound"])
        #expect(offered("expect status errSecSuccess ", "") == ["or"])
        #expect(offered("expect status errSecSuccess or ", "errSecDup") == ["errSecDuplicateItem"])
        #expect(offered("expect ", "de") == ["default-group"])
    }

    @Test func testAMultiLineListAndNothingInsideStringsOrComments() {
        #expect(offered("as AppOne find generic-password return=[\n  data,\n  ", "r") == ["ref"])
        #expect(offered("as AppOne add generic-password account=\"al", "") == [])
        #expect(offered("team X # a comment ", "") == [])
        #expect(offered("app com.example.X\n", "ex") == ["expect", "explain"])
    }

    @Test func testMetaCommands() {
        #expect(offered("", ":s") == [":save", ":save!"])
        #expect(completer.complete("", after: ":load ").fileNames)
        #expect(completer.complete("", after: ":save! ").fileNames)
        #expect(offered(":help ", "statu") == ["statuses"])
    }

    @Test func testNamesComeFromTheSessionsWorld() {
        var state = ReplState()
        _ = state.run(SourceFile(name: "<repl>", text: "team SKMME9E2Y8 as Acme\napp com.example.AppOne\ndevice iPad\n"))
        let c = Completer(world: state.session.world)
        #expect(c.apps == ["AppOne"])
        #expect(c.teams == ["Acme", "SKMME9E2Y8"])
        #expect(c.groups.contains("SKMME9E2Y8.com.example.AppOne"))
        #expect(c.devices == ["this", "iPad"])
    }

    /// Two declared devices: their names are read back intact (editor
    /// trial 20, E1: a stale release build crashed here; this pins the names).
    @Test func twoDevicesAreOfferedByName() {
        var state = ReplState()
        _ = state.run(SourceFile(name: "<repl>", text: "device A\ndevice B\n"))
        let c = Completer(world: state.session.world)
        #expect(c.devices == ["this", "A", "B"])
        #expect(c.complete("", after: "on ").candidates == ["this", "A", "B"])
    }

    @Test func namesAreOfferedAsAScriptSpellsThem() {
        // Readline prints candidates and inserts a match as given: an escape
        // sequence in a loaded name reached the terminal at a Tab.
        var state = ReplState()
        _ = state.run(SourceFile(name: "<repl>", text: """
            team SKMME9E2Y8
            app com.a.A as "X\u{1B}]0;pwned\u{7}\u{1B}[2J"
            app com.a.B as "Two words"
            device "D\u{1B}[2J"

            """))
        let c = Completer(world: state.session.world)
        #expect(c.apps == ["\"X\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\"", "\"Two words\""], "\(c.apps)")
        #expect(c.devices.allSatisfy { !$0.unicodeScalars.contains { $0.value == 0x1B } }, "\(c.devices)")
        let offered = c.complete("", after: "as ").candidates
        #expect(offered.allSatisfy { !$0.unicodeScalars.contains { $0.value < 0x20 } }, "\(offered)")
        // Typed after an opening quote, a quoted name completes without it.
        #expect(c.complete("Tw", after: "as \"").candidates == ["Two words\""])
        // An escaped quote earlier on the line is no string's end: the
        // quote after `as` still opens one (counting quotes said it closed).
        #expect(c.complete("Tw", after: #"on "a\"b" as ""#).candidates == ["Two words\""])
        // The quoted spelling reads back as the name.
        _ = state.run(SourceFile(name: "<repl>", text: "as \(c.apps[1]) add generic-password account=\"a\"\n"))
        #expect(state.session.world.itemCount == 1)
    }
}
