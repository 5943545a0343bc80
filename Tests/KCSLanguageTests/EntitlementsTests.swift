import Foundation
import KeychainEngine
import Testing
@testable import KCSLanguage
@testable import KCSRuntime
@testable import KCSSyntax

/// `app … entitlements="PATH"`: entitlements files, codesign output and
/// provisioning profiles (samples with made-up IDs in examples/entitlements/).
@Suite struct EntitlementsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func sample(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent("examples/entitlements/" + name)))
    }

    static func decoded(_ name: String) throws -> Entitlements {
        switch Entitlements.decode(try sample(name)) {
        case .success(let e): return e
        case .failure(let e): Issue.record("\(name): \(e.message)"); return Entitlements()
        }
    }

    @Test func xcodeEntitlementsFileKeepsItsVariables() throws {
        let e = try Self.decoded("AppOne.entitlements")
        #expect(e.source == .entitlements)
        #expect(e.teamID == nil)
        #expect(e.applicationIdentifier == nil)
        #expect(e.keychainAccessGroups == ["$(AppIdentifierPrefix)com.example.SharedItems",
                                           "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)"])
        #expect(e.applicationGroups == ["group.com.example.AppSuite"])
    }

    @Test func codesignOutputGivesTeamAndAppID() throws {
        let e = try Self.decoded("AppTwo.codesign.xml")
        #expect(e.teamID == "SKMME9E2Y8")
        #expect(e.applicationIdentifier == "SKMME9E2Y8.com.example.AppTwo")
        #expect(e.bundleID == "com.example.AppTwo")
        #expect(e.keychainAccessGroups == ["SKMME9E2Y8.com.example.SharedItems"])
        #expect(e.applicationGroups == nil)
    }

    @Test func codesignBlobHeaderIsSkipped() throws {
        // Older codesign prints an 8-byte blob header (0xfade7171, length) first.
        let xml = try Self.sample("AppTwo.codesign.xml")
        let e = try #require(try? Entitlements.decode([0xFA, 0xDE, 0x71, 0x71, 0, 0, 1, 0xF0] + xml).get())
        #expect(e.teamID == "SKMME9E2Y8")
    }

    @Test func provisioningProfileInsideItsSignedEnvelope() throws {
        let bytes = try Self.sample("Widget.mobileprovision")
        #expect(bytes.first == 0x30, "the sample starts like DER, not like XML")
        let e = try Self.decoded("Widget.mobileprovision")
        #expect(e.source == .profile)
        #expect(e.teamID == "SKMME9E2Y8")
        #expect(e.applicationIdentifier == "SKMME9E2Y8.com.example.AppOne.Widget")
        #expect(e.keychainAccessGroups == ["SKMME9E2Y8.com.example.SharedItems"])
        #expect(e.applicationGroups == ["group.com.example.AppSuite"])
    }

    @Test func wildcardProfileAllowsMatchingBundleIDs() {
        let e = Entitlements(source: .profile, teamID: "SKMME9E2Y8", applicationIdentifier: "SKMME9E2Y8.com.example.*")
        #expect(e.allows(bundleID: "com.example.App", teamID: "SKMME9E2Y8"))
        #expect(!e.allows(bundleID: "org.other.App", teamID: "SKMME9E2Y8"))
        #expect(e.bundleID == nil)
    }

    @Test(arguments: [
        ("broken.entitlements", "the XML is not a valid property list"),
        ("wrong-type.entitlements", "'keychain-access-groups' should be an array of strings"),
    ])
    func malformedFilesSayWhatIsWrong(name: String, message: String) throws {
        guard case .failure(let e) = Entitlements.decode(try Self.sample(name)) else {
            Issue.record("\(name) decoded")
            return
        }
        #expect(e.message.hasPrefix(message), "\(e.message)")
    }

    @Test func notAPropertyListAtAll() {
        guard case .failure(let e) = Entitlements.decode(Array("hello".utf8)) else { Issue.record("decoded"); return }
        #expect(e.message.contains("no property list found"))
        guard case .failure(let text) = Entitlements.decode(Array("Executable=/x\n[Dict]\n".utf8)) else { return }
        #expect(text.hint?.contains("--xml") == true)
        guard case .failure(let empty) = Entitlements.decode([]) else { return }
        #expect(empty.message == "the file is empty")
    }

    // MARK: In scripts

    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)com.example.Shared</string></array>
        <key>com.apple.security.application-groups</key><array><string>group.com.example.Suite</string></array>
        </dict></plist>
        """

    static let signed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>application-identifier</key><string>ABCDE12345.com.example.App</string>
        <key>keychain-access-groups</key><array><string>ABCDE12345.com.example.Shared</string></array>
        </dict></plist>
        """

    func run(_ script: String, files: [String: String] = [:]) -> RunReport {
        var all = files
        all["dir/s.kcs"] = script
        var session = Session()
        return session.run(file: SourceFile(name: "dir/s.kcs", text: script), loader: MemoryLoader(files: all))
    }

    @Test func scriptTeamExpandsTheVariables() {
        let report = run("""
            team SKMME9E2Y8
            app com.example.App entitlements="App.entitlements"
            expect groups App [SKMME9E2Y8.com.example.Shared, SKMME9E2Y8.com.example.App, group.com.example.Suite]
            """, files: ["dir/App.entitlements": Self.plist])
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map(\.message))")
        #expect(report.passed == 1)
    }

    @Test func fileTeamWinsOverTheDefaultTeam() {
        let report = run("""
            team SKMME9E2Y8
            app com.example.App entitlements="signed.xml"
            expect groups App [ABCDE12345.com.example.Shared, ABCDE12345.com.example.App]
            """, files: ["dir/signed.xml": Self.signed])
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map(\.message))")
    }

    @Test func conflictsAreDeclarationErrors() {
        let team = run("""
            team SKMME9E2Y8
            app com.example.App team=SKMME9E2Y8 entitlements="signed.xml"
            """, files: ["dir/signed.xml": Self.signed])
        #expect(team.diagnostics.map(\.code) == [.invalidDeclaration])
        #expect(team.diagnostics.first?.message.contains("signed for team ABCDE12345") == true)
        let bundle = run("""
            app com.example.Other entitlements="signed.xml"
            """, files: ["dir/signed.xml": Self.signed])
        #expect(bundle.diagnostics.first?.message.contains("are for ABCDE12345.com.example.App") == true)
        let noTeam = run("app com.example.App entitlements=\"App.entitlements\"\n", files: ["dir/App.entitlements": Self.plist])
        #expect(noTeam.diagnostics.first?.message.contains("needs a team ID") == true)
    }

    /// A value is sized before it is expanded: 35,000 references to a long
    /// bundle ID made a gigabyte inside one statement, past every limit
    /// (adversarial run 20, H1).
    @Test func anExpansionPastTheLimitIsRefusedAtTheDeclaration() {
        let bundleID = "com." + String(repeating: "a", count: 1_000)
        let value = "SKMME9E2Y8.x" + String(repeating: "$(PRODUCT_BUNDLE_IDENTIFIER)", count: 5)
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>keychain-access-groups</key><array><string>\(value)</string></array>
            </dict></plist>
            """
        let script = "team SKMME9E2Y8\napp \(bundleID) as A entitlements=\"A.entitlements\"\n"
        let report = run(script, files: ["dir/A.entitlements": plist])
        #expect(report.diagnostics.map(\.code) == [.invalidDeclaration])
        #expect(report.diagnostics.first?.message.contains("past the limit of \(Entitlements.maxExpandedBytes)") == true)
        // At the path, as every error about the file is.
        #expect(report.diagnostics.first?.range?.start == script.utf8.count - "\"A.entitlements\"\n".utf8.count)
        // Four references fit, and expand.
        let fits = plist.replacingOccurrences(of: value, with: "SKMME9E2Y8.x" + String(repeating: "$(PRODUCT_BUNDLE_IDENTIFIER)", count: 4))
        let ok = run("team SKMME9E2Y8\napp \(bundleID) as A entitlements=\"A.entitlements\"\n", files: ["dir/A.entitlements": fits])
        #expect(ok.diagnostics.isEmpty, "\(ok.diagnostics.map(\.message))")
    }

    /// A loader that counts what it reads.
    final class CountingLoader: SourceLoader, @unchecked Sendable {
        let inner: MemoryLoader
        var reads: [String: Int] = [:]
        init(_ files: [String: String]) { inner = MemoryLoader(files: files) }
        func resolve(_ path: String, relativeTo including: String?) -> String { inner.resolve(path, relativeTo: including) }
        func read(_ resolved: String) throws(LoadError) -> SourceFile {
            reads[resolved, default: 0] += 1
            return try inner.read(resolved)
        }
    }

    /// One file named by many `app` lines is read and decoded once per run
    /// (400 lines decoded a 689 KB file 400 times, 54 s; adversarial 20, M4),
    /// and again by the next run: it may have changed.
    @Test func aSharedEntitlementsFileIsReadOncePerRun() {
        let script = (0..<5).map { "app com.example.App\($0) entitlements=\"App.entitlements\"" }.joined(separator: "\n")
            + "\nexpect groups App3 [SKMME9E2Y8.com.example.Shared, SKMME9E2Y8.com.example.App3, group.com.example.Suite]\n"
        let loader = CountingLoader(["dir/App.entitlements": Self.plist])
        var session = Session()
        let report = session.run(file: SourceFile(name: "dir/s.kcs", text: "team SKMME9E2Y8\n" + script), loader: loader)
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map(\.message))")
        #expect(report.passed == 1)
        #expect(loader.reads == ["dir/App.entitlements": 1])
        _ = session.run(file: SourceFile(name: "dir/t.kcs", text: "app com.example.Other entitlements=\"App.entitlements\"\n"),
                        loader: loader)
        #expect(loader.reads == ["dir/App.entitlements": 2])
    }

    @Test func anEntitlementsFileOverTheLimitIsRefusedBeforeItIsDecoded() {
        let big = "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>keychain-access-groups</key><array>"
            + String(repeating: "<string>SKMME9E2Y8.g</string>", count: Entitlements.maxFileBytes / 26 + 1) + "</array></dict></plist>"
        guard case .failure(let e) = Entitlements.decode(Array(big.utf8)) else {
            Issue.record("a file over the limit decoded")
            return
        }
        #expect(e.message.contains("over the limit of \(Entitlements.maxFileBytes)"))
    }

    @Test func aLegacyAppIDPrefixIsTheAppsOwn() {
        // An App ID made before 2011 keeps its prefix; the signature names the
        // team apart, and securityd appends the application-identifier as it is
        // (server_entitlement_helpers.c 104, 127-128). kcs refused the file (audit 10, F1).
        let legacy = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>application-identifier</key><string>ABCDE12345.com.example.Legacy</string>
            <key>com.apple.developer.team-identifier</key><string>SKMME9E2Y8</string>
            <key>keychain-access-groups</key>
            <array><string>$(AppIdentifierPrefix)com.example.Legacy</string><string>$(TeamIdentifierPrefix)com.example.Shared</string></array>
            </dict></plist>
            """
        let report = run("""
            team SKMME9E2Y8
            app com.example.Legacy as Legacy entitlements="legacy.xml"
            app com.example.Inline as Inline app-id-prefix=ABCDE12345 keychain-access-groups=[$(TeamIdentifierPrefix)com.example.Shared]
            app com.example.New as New keychain-access-groups=[$(AppIdentifierPrefix)com.example.Shared]
            expect groups Legacy [ABCDE12345.com.example.Legacy, SKMME9E2Y8.com.example.Shared, ABCDE12345.com.example.Legacy]
            expect groups Inline [SKMME9E2Y8.com.example.Shared, ABCDE12345.com.example.Inline]
            as Legacy add generic-password service="private" data="p"
            expect group ABCDE12345.com.example.Legacy
            as Legacy add generic-password service="shared" data="s" group=SKMME9E2Y8.com.example.Shared
            as New find generic-password service="shared" return=data
            expect data "s"
            as New find generic-password service="private"
            expect status errSecItemNotFound
            """, files: ["dir/legacy.xml": legacy])
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map(\.message))")
        #expect(report.passed == 5)
        // A prefix is shaped as a team ID, and a file gives its own.
        let bad = run("team SKMME9E2Y8\napp com.example.A app-id-prefix=abc\n")
        #expect(bad.diagnostics.map(\.code) == [.malformedTeamID])
        let both = run("team SKMME9E2Y8\napp com.example.Legacy app-id-prefix=ABCDE12345 entitlements=\"legacy.xml\"\n",
                       files: ["dir/legacy.xml": legacy])
        #expect(both.diagnostics.map(\.code) == [.duplicateArgument])
    }

    /// A file's team identifier is held to the rule of the script's `team`
    /// (ten upper-case letters or digits): one that is not a team ID is
    /// refused, naming the file and the key. It was taken as it was: an
    /// empty one made the app ID `.com.example.A`, `SKMME9E2Y8.evil` a team
    /// (adversarial run 29, F3). A build setting, as a source file may
    /// hold, is the team the build gives: the script's.
    @Test(arguments: ["", "SKMME9E2Y8.evil", "x y", "skmme9e2y8", "SKMME9E2Y8\u{1B}[31m"])
    func aTeamIdentifierThatIsNotATeamIDIsRefused(team: String) throws {
        let escaped = team.replacingOccurrences(of: "\u{1B}", with: "&#x1B;")
        let file = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>com.apple.developer.team-identifier</key><string>\(escaped)</string>
            <key>keychain-access-groups</key><array><string>SKMME9E2Y8.com.example.shared</string></array>
            </dict></plist>
            """
        let report = run("team SKMME9E2Y8\napp com.example.A entitlements=\"t.entitlements\"\n",
                         files: ["dir/t.entitlements": file])
        #expect(report.diagnostics.map(\.code) == [.malformedEntitlements])
        let d = try #require(report.diagnostics.first)
        let shown = team.isEmpty ? "empty" : "'\(team)'"
        #expect(d.message == "t.entitlements: 'com.apple.developer.team-identifier' is \(shown), not a team ID", "\(d.message)")
        #expect(d.hint == "a team ID is ten upper-case letters or digits, e.g. SKMME9E2Y8")
        #expect(report.verdict == .missingInput)
        // In a profile: its entitlements' key, or its TeamIdentifier.
        for (entitlements, listed, key) in [(team, "SKMME9E2Y8", "Entitlements → com.apple.developer.team-identifier"),
                                            (nil, team, "TeamIdentifier → [0]")] {
            let own = entitlements.map { "<key>com.apple.developer.team-identifier</key><string>\($0.replacingOccurrences(of: "\u{1B}", with: "&#x1B;"))</string>" } ?? ""
            let profile = """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict>
                <key>TeamIdentifier</key><array><string>\(listed.replacingOccurrences(of: "\u{1B}", with: "&#x1B;"))</string></array>
                <key>UUID</key><string>u</string>
                <key>Entitlements</key><dict>\(own)<key>application-identifier</key><string>SKMME9E2Y8.com.example.A</string></dict>
                </dict></plist>
                """
            guard case .failure(let e) = Entitlements.decode(Array(profile.utf8)) else {
                Issue.record("a profile with \(key) '\(team)' decoded")
                continue
            }
            #expect(e.message == "'\(key)' is \(shown), not a team ID", "\(e.message)")
        }
    }

    @Test func aTeamIdentifierThatIsABuildSettingIsTheScriptsTeam() {
        let file = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>com.apple.developer.team-identifier</key><string>$(DEVELOPMENT_TEAM)</string>
            <key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)com.example.shared</string></array>
            </dict></plist>
            """
        #expect((try? Entitlements.decode(Array(file.utf8)).get())?.teamID == nil)
        // Xcode expands ${NAME} and $NAME in a source .entitlements file too
        // (review 23b B1: they were refused as "not a team ID").
        for form in ["${DEVELOPMENT_TEAM}", "$DEVELOPMENT_TEAM", "$(TEAM_ID:default=SKMME9E2Y8)"] {
            let other = file.replacingOccurrences(of: "$(DEVELOPMENT_TEAM)", with: form)
            let decoded = Entitlements.decode(Array(other.utf8))
            guard case .success(let e) = decoded else {
                Issue.record("\(form) refused: \(decoded)")
                continue
            }
            #expect(e.teamID == nil && e.keychainAccessGroups == ["$(AppIdentifierPrefix)com.example.shared"], "\(form): \(e)")
        }
        let report = run("team SKMME9E2Y8\napp com.example.A entitlements=\"t.entitlements\"\nexpect groups A [SKMME9E2Y8.com.example.shared, SKMME9E2Y8.com.example.A]\n",
                         files: ["dir/t.entitlements": file])
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map(\.message))")
        #expect(report.passed == 1)
    }

    @Test func missingAndMalformedFilesNameTheFile() {
        let missing = run("team SKMME9E2Y8\napp com.example.App entitlements=\"nope.plist\"\n")
        #expect(missing.diagnostics.map(\.code) == [.fileNotFound])
        #expect(missing.verdict == .missingInput)
        let bad = run("team SKMME9E2Y8\napp com.example.App entitlements=\"bad.plist\"\n",
                      files: ["dir/bad.plist": "<?xml version=\"1.0\"?><plist><dict><key>a</key></plist>"])
        #expect(bad.diagnostics.map(\.code) == [.malformedEntitlements])
        #expect(bad.diagnostics.first?.message.hasPrefix("bad.plist: ") == true)
        #expect(bad.verdict == .missingInput)
    }

    @Test func entitlementsAndListsTogetherIsASyntaxError() {
        let (_, diagnostics) = Parser.parse(SourceFile(name: "s.kcs", text:
            "app com.example.App entitlements=\"a.plist\" keychain-access-groups=[x]\n"))
        #expect(diagnostics.map(\.code) == [.duplicateArgument])
    }

    @Test func theShippedExampleImportsAllThreeKinds() {
        let report = Interpreter.run(path: Self.root.appendingPathComponent("examples/19-imported-entitlements.kcs").path)
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map(\.message))")
        #expect(report.failed == 0 && report.passed >= 8)
    }

    @Test func summaryListsTheAccessGroups() {
        let (text, diagnostics, code) = EntitlementsSummary.describe(
            path: Self.root.appendingPathComponent("examples/entitlements/Widget.mobileprovision").path)
        #expect(code == .passed && diagnostics.isEmpty)
        #expect(text.contains("""
            access groups, in order:
              0. SKMME9E2Y8.com.example.SharedItems  (default)
              1. SKMME9E2Y8.com.example.AppOne.Widget
              2. group.com.example.AppSuite
            """))
        let (_, warnings, lintCode) = EntitlementsSummary.describe(
            path: Self.root.appendingPathComponent("examples/lint/510-unprefixed.entitlements").path)
        #expect(warnings.map(\.code) == [.lintUnprefixedEntitlement, .lintUnprefixedEntitlement])
        #expect(lintCode == .failed)
    }
}
