import Testing
@testable import KCSLanguage
@testable import KCSRuntime
@testable import KCSSyntax

/// Rendered diagnostics pinned as text: the renderer's output is part of the
/// product, so any change to it shows up here.
struct DiagnosticRenderingTests {
    func render(_ source: String) -> String {
        let report = Interpreter.run(source: source, name: "s.kcs")
        return report.diagnostics.map { DiagnosticRenderer().render($0) }.joined()
    }

    @Test func unknownAttributeWithSuggestion() {
        #expect(render("team SKMME9E2Y8\napp com.x.A\nas A add generic-password acount=\"alice\"\n") == """
            s.kcs:3:27: error: unknown attribute 'acount' [KCS204]
             3 | as A add generic-password acount="alice"
               |                           ^~~~~~
            hint: did you mean 'account'?

            """)
    }

    /// The caret counts terminal columns: a wide character takes two, so a
    /// CJK or emoji value before the mistake no longer pulled the caret
    /// left of it, and one marked is underlined in full; a combining
    /// accent takes none.
    @Test func theCaretLinesUpAfterWideAndCombiningCharacters() {
        // `as A add generic-password service="` is 35 columns, 服, 务 and 🔑
        // two each, then `" `: the mistake starts 43 columns in.
        let wide = render("team SKMME9E2Y8\napp com.x.A\nas A add generic-password service=\"服务🔑\" acount=\"e\u{301}\"\n")
        #expect(wide.contains("   | " + String(repeating: " ", count: 43) + "^~~~~~\n"), "\(wide)")
        // A combining accent before the mistake takes no column.
        let accent = render("team SKMME9E2Y8\napp com.x.A\nas A add generic-password service=\"e\u{301}\" acount=\"x\"\n")
        #expect(accent.contains("   | " + String(repeating: " ", count: 38) + "^~~~~~\n"), "\(accent)")
        // A wide name marked is underlined across its four columns.
        let name = render("team SKMME9E2Y8\napp com.x.A\nas 服务 find generic-password\n")
        #expect(name.contains("   |    ^~~~\n"), "\(name)")
        #expect(TerminalText.columns(of: "e\u{301}") == 1 && TerminalText.columns(of: "👩‍💻") == 4)
    }

    @Test func unknownAppAtRuntime() {
        #expect(render("team SKMME9E2Y8\napp com.x.AppOne\nas AppOen find generic-password\n") == """
            s.kcs:3:4: error: unknown app 'AppOen' [KCS301]
             3 | as AppOen find generic-password
               |    ^~~~~~
            hint: did you mean 'AppOne'?

            """)
    }

    @Test func anAppWhoseDeclarationFailedIsSaidToHaveFailed() {
        // Not "declare it first": it was declared, and that line failed.
        let text = render("team SKMME9E2Y8\napp com.x.AppOne entitlements=\"missing.entitlements\"\nas AppOne find generic-password\n")
        #expect(text.contains("s.kcs:3:4: error: app 'AppOne' was not declared: its declaration at s.kcs:2 failed [KCS301]"), "\(text)")
        #expect(text.contains("hint: fix the error reported there"), "\(text)")
        // A later declaration that works is used as any other.
        let fixed = render("team SKMME9E2Y8\napp com.x.AppOne entitlements=\"missing.entitlements\"\napp com.x.AppOne\nas AppOne find generic-password\nexpect status errSecItemNotFound\n")
        #expect(!fixed.contains("was not declared"), "\(fixed)")
    }

    @Test func aCallIsExplainedOnceWhileOnlyExpectationsFollow() {
        // Worked out at the first failure and reused (5,000 failures on
        // 5,000 items took 39 s); a statement between them may change it.
        let report = Interpreter.run(source: """
            team SKMME9E2Y8
            app com.x.A
            app com.x.B
            as A add generic-password service="s"
            as B find generic-password service="s"
            expect status errSecSuccess
            expect count 1
            group com.x.Later B
            expect status errSecSuccess
            """, name: "s.kcs")
        let notes = report.diagnostics.map { $0.notes.map(\.message) }
        #expect(notes.count == 3)
        #expect(notes[0] == notes[1] && !notes[0].isEmpty)
        // The group added to B shows in the third failure's explanation.
        #expect(!notes[1].contains { $0.contains("SKMME9E2Y8.com.x.Later") })
        #expect(notes[2].contains { $0.contains("SKMME9E2Y8.com.x.Later") }, "\(notes[2])")
    }

    @Test func aMissTheMatchLimitCausedIsExplainedSo() {
        // Not "no item matches": the rows the limit let securityd read were passed over.
        let text = render("""
            platform ios 17
            team SKMME9E2Y8
            app com.example.App as App
            as App add generic-password service="p" account="protected" access-control=[when-unlocked, user-presence]
            as App add generic-password service="p" account="plain"
            as App find generic-password service="p" auth-ui=skip
            expect status errSecSuccess
            as App find generic-password service="p" limit=0
            expect status errSecSuccess

            """)
        #expect(text.contains("why: items match, but the row the match limit lets securityd read (SQL's LIMIT) was passed over"), "\(text)")
        #expect(text.contains("why: limit=0 reads no row"), "\(text)")
        #expect(!text.contains("matches the query"), "\(text)")
    }

    @Test func appNamedByBundleID() {
        let text = render("team SKMME9E2Y8\napp com.x.AppOne\nas com.x.AppOne find generic-password\n")
        #expect(text.contains("hint: apps are named by the last bundle component or 'as NAME': did you mean 'AppOne'?"))
    }

    @Test func failedStatusExpectationExplainsTheCall() {
        let source = """
            team SKMME9E2Y8
            app com.example.AppOne
            app com.example.AppTwo
            as AppOne add generic-password service="auth" account="alice"
            as AppTwo find generic-password service="auth" account="alice"
            expect status errSecSuccess
            """
        #expect(render(source) == """
            s.kcs:6:1: error: expected status errSecSuccess (0), got errSecItemNotFound (-25300) [KCS401]
             6 | expect status errSecSuccess
               | ^~~~~~~~~~~~~~~~~~~~~~~~~~~
            s.kcs:5:1: note: the call checked
              SecItemCopyMatching → errSecItemNotFound (-25300)
              AppTwo's access groups, in order: SKMME9E2Y8.com.example.AppTwo (default)
              searched: SKMME9E2Y8.com.example.AppTwo
              why: no generic-password item in the searched groups matches the query
              generic-password items on the device:
                - generic-password account="alice" service="auth" in SKMME9E2Y8.com.example.AppOne: its group is not in AppTwo's access groups (it is AppOne's default group, where AppOne adds what names no group=)
            hint: run 'explain' after the call, or see the candidates above

            """)
    }

    @Test func missingTeamPrefixSuggestsThePrefixedGroup() {
        let source = """
            team SKMME9E2Y8
            app com.example.AppOne
            group com.example.Shared AppOne
            as AppOne add generic-password account="a" group=com.example.Shared
            expect status errSecSuccess
            """
        let text = render(source)
        #expect(text.contains("got errSecMissingEntitlement (-34018)"))
        #expect(text.contains("did you mean SKMME9E2Y8.com.example.Shared?"))
        #expect(text.contains("hint: write the group with its team prefix: group=SKMME9E2Y8.com.example.Shared"))
    }

    @Test func candidatesSayWhyEachWasPassedOver() {
        let source = """
            team SKMME9E2Y8
            app com.example.AppOne
            as AppOne add generic-password service="auth" account="bob"
            as AppOne add generic-password service="auth" account="alice" sync=true
            as AppOne find generic-password service="auth" account="alice"
            expect status errSecSuccess
            """
        let text = render(source)
        #expect(text.contains("account=\"bob\" service=\"auth\" in SKMME9E2Y8.com.example.AppOne: account is \"bob\", the query asks \"alice\""))
        #expect(text.contains("sync=true in SKMME9E2Y8.com.example.AppOne: it is synchronizable and the query did not say sync=true or sync=any"))
    }

    @Test func inputProblemsAreClearErrors() {
        #expect(render("") == "s.kcs: error: the file is empty [KCS003]\nhint: a scenario declares a team and apps, makes calls and checks them with 'expect'\n")
        // A file with lines is located at its first (an editor places it there).
        #expect(render("# only a comment\n").hasPrefix("s.kcs:1:1: error: the file has no statements, only comments [KCS003]\n"))
        let nul = Interpreter.run(file: SourceFile(name: "n.kcs", bytes: [0x61, 0x00]))
        #expect(nul.diagnostics.map(\.code) == [.nulByte])
        #expect(nul.verdict == .invalidInput)
    }

    @Test func colourOnlyWhenAsked() {
        let d = Diagnostic(.unknownApp, "unknown app 'X'")
        #expect(!DiagnosticRenderer(colour: false).render(d).contains("\u{1B}["))
        #expect(DiagnosticRenderer(colour: true).render(d).contains("\u{1B}["))
    }
}
