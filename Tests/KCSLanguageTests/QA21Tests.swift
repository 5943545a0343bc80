import Testing
@testable import KCSLanguage
@testable import KCSRuntime
@testable import KCSSyntax

/// The real-world Q&A trial of session 21, each fix pinned.
struct QA21Tests {
    func run(_ source: String) -> RunReport { Interpreter.run(source: source, name: "t.kcs") }

    /// Q05: a process without entitlements (an unhosted test bundle) on
    /// iOS 10 to 13 has the list [com.apple.token] (Security-57740.60.18
    /// server.c, 58286 and 59306 server_entitlement_helpers.c): finds
    /// search it (errSecItemNotFound, onmyway133/blog issue 92); iOS 11's
    /// add stores into it and is refused with errSecParam (openradar
    /// 34838798), its update and delete search it; iOS 10, 12 and 13
    /// refuse writes with errSecMissingEntitlement; iOS 14 every call.
    @Test func anUnentitledProcessOnIOS10To13HasTheTokenGroup() {
        func script(_ platform: String, _ calls: [(String, String)]) -> String {
            "platform \(platform)\nteam SKMME9E2Y8\napp com.example.tests.xctest as Tests team=none\n"
                + calls.map { "as Tests \($0.0)\nexpect status \($0.1)\n" }.joined()
        }
        let add = "add generic-password service=\"s\" account=\"a\" data=\"x\""
        let find = "find generic-password service=\"s\" account=\"a\""
        let delete = "delete generic-password service=\"s\""
        let update = "update generic-password service=\"s\" set label=\"l\""
        let cases: [(String, [(String, String)])] = [
            ("ios 10", [(add, "errSecMissingEntitlement"), (find, "errSecItemNotFound"), (update, "errSecMissingEntitlement"),
                        (delete, "errSecMissingEntitlement")]),
            ("ios 11", [(add, "errSecParam"), (add + " group=SKMME9E2Y8.x", "errSecMissingEntitlement"), (find, "errSecItemNotFound"),
                        (update, "errSecItemNotFound"), (delete, "errSecItemNotFound")]),
            ("watchos 4", [(add, "errSecParam"), (find, "errSecItemNotFound")]),
            ("ios 12", [(add, "errSecMissingEntitlement"), (find, "errSecItemNotFound"), (delete, "errSecMissingEntitlement")]),
            ("ios 13", [(add, "errSecMissingEntitlement"), (find, "errSecItemNotFound")]),
            ("ios 14", [(add, "errSecMissingEntitlement"), (find, "errSecMissingEntitlement")]),
        ]
        for (platform, calls) in cases {
            let report = run(script(platform, calls))
            #expect(report.passed == calls.count, "\(platform): \(report.diagnostics.map(\.message))")
            #expect(report.diagnostics.isEmpty, "\(platform): \(report.diagnostics.map { $0.message + " " + ($0.hint ?? "") })")
        }
        // The explanation names the token group and the release; the hint
        // does not tell a script that declared a team to declare one.
        let failed = run(script("ios 11", [(add, "errSecSuccess")]))
        let why = failed.diagnostics.flatMap { $0.notes.map(\.message) }.joined(separator: "\n")
        #expect(why.contains("iOS 10 to 13 give such a process com.apple.token alone"), "\(why)")
        #expect(why.contains("storing items into kSecAttrAccessGroupToken is not allowed"), "\(why)")
        #expect(failed.diagnostics.first?.hint?.contains("host app") == true, "\(failed.diagnostics.map { $0.hint ?? "" })")
        let later = run(script("ios 15", [(add, "errSecSuccess")]))
        #expect(later.diagnostics.first?.hint?.contains("declare a team") == false, "\(later.diagnostics.map { $0.hint ?? "" })")
    }

    func why(_ source: String) -> String {
        run(source).diagnostics.flatMap { $0.notes.map(\.message) }.joined(separator: "\n")
    }

    /// Q08, Q19: a duplicate in the Mac's file-based keychain names no
    /// group and no sync in its primary key (there are none).
    @Test func aFileKeychainDuplicateNamesNoGroupOrSync() {
        let text = why("""
            platform macos 12
            team SKMME9E2Y8
            app com.example.mailclient as Client
            as Client add generic-password service="OAuth" account="A" data="v1"
            as Client add generic-password service="OAuth" account="A" data="v2"
            expect status errSecSuccess
            """)
        #expect(text.contains("a generic-password's primary key in the file-based keychain is account and service: data= does not tell items apart"), "\(text)")
        #expect(!text.contains("its group"), "\(text)")
        let dp = why("""
            team SKMME9E2Y8
            app com.example.App
            as App add generic-password service="s" account="a" data="v1"
            as App add generic-password service="s" account="a" data="v2"
            expect status errSecSuccess
            """)
        #expect(dp.contains("a generic-password's primary key is account, service, its group and sync: data= does not tell items apart"), "\(dp)")
    }

    /// Q01: two keys with one tag and no application label collide in kcs,
    /// where SecKeyCreateRandomKey's keys carry their public-key hash as
    /// the label (developer forums 113787): the duplicate text says so.
    @Test func aKeyDuplicateWithoutLabelsNamesTheReferenceRoute() {
        let script = """
            team SKMME9E2Y8
            app com.example.crypto as App
            as App add key key-class=private key-type=rsa key-size=2048 application-tag="t" LABEL1data="k1"
            as App add key key-class=private key-type=rsa key-size=2048 application-tag="t" LABEL2data="k2"
            expect status errSecSuccess
            """
        let bare = why(script.replacingOccurrences(of: "LABEL1", with: "").replacingOccurrences(of: "LABEL2", with: ""))
        #expect(bare.contains("a key added by reference (SecKeyCreateRandomKey, kSecValueRef) carries its public key's hash as application-label"), "\(bare)")
        let labelled = why(script.replacingOccurrences(of: "LABEL1", with: "application-label=\"h\" ")
            .replacingOccurrences(of: "LABEL2", with: "application-label=\"h\" "))
        #expect(labelled.contains("already exists") && !labelled.contains("SecKeyCreateRandomKey"), "\(labelled)")
    }

    /// Q11: a profile's TEAMID.* copied into the signed entitlements (sigh
    /// resign, fastlane issue 4397) is one literal group: KCS510.
    @Test func aProfileWildcardAmongTheEntitlementsWarns() {
        let star = EntitlementShape.keychainGroup("SKMME9E2Y8.*", teamID: "SKMME9E2Y8")
        #expect(star?.code == .lintUnprefixedEntitlement)
        #expect(star?.message.contains("provisioning profile's wildcard") == true, "\(star?.message ?? "")")
        let report = BatchRunner().run(SourceFile(name: "t.kcs", text: """
            team SKMME9E2Y8
            app com.example.App keychain-access-groups=[SKMME9E2Y8.*]
            """))
        #expect(report.diagnostics.map(\.code) == [.lintUnprefixedEntitlement], "\(report.diagnostics.map(\.message))")
    }

    /// Q32: an unprefixed keychain group of a signed app: no profile allows
    /// it, and the message says the app does not launch.
    @Test func anUnprefixedGroupSaysTheAppDoesNotLaunch() {
        let report = BatchRunner().run(SourceFile(name: "t.kcs", text: """
            platform macos 15
            team SKMME9E2Y8
            app sh.zoid.meru as Meru keychain-access-groups=[sh.zoid.meru.webauthn]
            """))
        #expect(report.diagnostics.map(\.code) == [.lintUnprefixedEntitlement])
        #expect(report.diagnostics.first?.message.contains("so a device does not launch an app signed with it") == true,
                "\(report.diagnostics.map(\.message))")
    }

    /// s20 Q17: a delete in a group that is another app's default group
    /// says the item may be that app's (GoogleSignIn-iOS pull request 567).
    @Test func aDeleteInAnotherAppsDefaultGroupSaysWhoseItMayBe() {
        let text = why("""
            team SKMME9E2Y8
            app com.example.mail as Mail keychain-access-groups=[$(AppIdentifierPrefix)com.example.suite, $(AppIdentifierPrefix)com.example.mail]
            app com.example.calendar as Calendar keychain-access-groups=[$(AppIdentifierPrefix)com.example.suite]
            as Mail add generic-password service="gsi_auth" account="auth" data="mail-session"
            as Calendar delete generic-password service="gsi_auth" account="auth"
            expect status errSecItemNotFound
            """)
        #expect(text.contains("deleted 1 item; SKMME9E2Y8.com.example.suite is Mail's default group too (its adds without group= go there), so the item may be Mail's"),
                "\(text)")
    }

    /// Q30: the -25244 of a delete names the app whose password it is
    /// (jaraco/keyring issue 605: a new Python interpreter).
    @Test func aRefusedFileKeychainDeleteNamesTheOwner() {
        let text = why("""
            platform macos 14
            app org.python.python311 as Python311 team=none
            app org.python.python312 as Python312 team=none
            as Python311 add generic-password service="svc" account="u" data="pw"
            as Python312 delete generic-password service="svc" account="u"
            expect status errSecSuccess
            """)
        #expect(text.contains("another app's password (here Python311's, org.python.python311) is refused without a prompt"), "\(text)")
    }

    /// Q23: a find on a device restored from a backup made without a
    /// password names that backup (blog.benjamin-encz.de, "Switching iOS
    /// devices and the Keychain").
    @Test func aFindAfterAnUnencryptedRestoreNamesTheBackup() {
        let text = why("""
            team SKMME9E2Y8
            app com.benjaminencz.movieloggr as App
            device NewPhone
            as App add generic-password service="MovieLoggr" account="user" data="pw"
            backup this as Unencrypted encrypted=false
            restore Unencrypted to NewPhone
            on NewPhone as App find generic-password service="MovieLoggr" account="user" return=data
            expect status errSecSuccess
            """)
        #expect(text.contains("a backup made without a password (Unencrypted, encrypted=false) opens on"), "\(text)")
    }

    /// Q05: `show app` lists the token group of an unentitled process on
    /// iOS 10 to 13, as `explain` does.
    @Test func showAppListsTheTokenGroupOfAnUnentitledProcess() {
        func shown(_ source: String) -> String {
            var outputs: [String] = []
            _ = Interpreter.run(source: source, observer: { if case .output(let text) = $0 { outputs.append(text) } })
            return outputs.joined()
        }
        let out = shown("platform ios 11\nteam SKMME9E2Y8\napp com.example.T as T team=none\nshow app T\n")
        #expect(out.contains("  0. com.apple.token  (read-only: iOS 10 to 13 give it to a process without entitlements)"), "\(out)")
        let later = shown("team SKMME9E2Y8\napp com.example.T as T team=none\nshow app T\n")
        #expect(!later.contains("com.apple.token"), "\(later)")
    }
}
