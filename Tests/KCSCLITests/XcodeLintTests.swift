import Foundation
import KCSCodeCheck
import KCSLanguage
import KCSXcode
import KCSXcodeProject
import Testing

@Suite("kcs lint --project and the Swift code check")
struct XcodeLintTests {
    static func profile(_ f: XcodeFixture, appID: String, keychain: [String], appGroups: [String]) -> String {
        let strings = { (values: [String]) in values.map { "<string>\($0)</string>" }.joined() }
        f.write("Notes.mobileprovision", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>TeamIdentifier</key><array><string>\(XcodeFixture.team)</string></array>
            <key>UUID</key><string>1234</string>
            <key>Entitlements</key><dict>
            <key>application-identifier</key><string>\(appID)</string>
            <key>keychain-access-groups</key><array>\(strings(keychain))</array>
            <key>com.apple.security.application-groups</key><array>\(strings(appGroups))</array>
            </dict></dict></plist>
            """)
        return f.path("Notes.mobileprovision")
    }

    /// The docs project with the mistakes the lint is for: Debug signs with
    /// another file that has another group, a stale file nothing signs with.
    static func mistakes() -> XcodeFixture {
        var f = XcodeFixture.appWidgetShare()
        f.targets[0].settings["Debug"]?["CODE_SIGN_ENTITLEMENTS"] = "App/App-Debug.entitlements"
        f.writeEntitlements("App/App-Debug.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared",
                                                                     "$(AppIdentifierPrefix)com.example.Notes.debug"],
                            appGroups: ["group.com.example.notes"])
        // A group, so it is a warning: a file that grants none is a note (real-project trial 20, W2).
        f.writeEntitlements("Widget/Old.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.old"])
        f.writeProject()
        return f
    }

    func codes(_ d: [Diagnostic]) -> [DiagnosticCode] { d.map(\.code) }

    /// The code check of one file compiled by one app entitled to
    /// `$(AppIdentifierPrefix)com.example.shared`.
    static func checkedCode(_ name: String, _ source: String) throws -> [Diagnostic] {
        let f = oneApp(sources: [name])
        defer { f.remove() }
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.shared"])
        f.write("App/\(name)", source)
        f.writeProject()
        return try f.codeFindings()
    }

    /// One app target, Release only, signed by the fixture's team, compiling `sources` from App/.
    static func oneApp(sources: [String]) -> XcodeFixture {
        var f = XcodeFixture()
        f.projectSettings = ["Release": ["SDKROOT": "iphoneos", "DEVELOPMENT_TEAM": XcodeFixture.team]]
        f.targets = [.init(name: "App", settings: ["Release": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.App", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]],
                           sources: sources)]
        return f
    }

    @Test func theProjectChecks() throws {
        let f = Self.mistakes()
        defer { f.remove() }
        let lint = try ProjectLint.load(f.projectPath).get()
        let d = lint.run()
        let messages = d.map { "\($0.code.rawValue) \($0.file.map { ProjectPath.lastComponent($0.name) } ?? ""):\($0.location?.line ?? 0) \($0.message)" }
        #expect(codes(d).sorted { $0.rawValue < $1.rawValue } == [.projectConfigurationsDiffer, .projectExtensionGroup, .projectEntitlementsFile, .projectEntitlementsFile], "\(messages)")
        #expect(messages.contains { $0.hasPrefix("KCS603 App-Debug.entitlements:8 target 'App': configuration 'Debug' adds SKMME9E2Y8.com.example.Notes.debug") })
        #expect(messages.contains { $0.hasPrefix("KCS605 project.pbxproj:") && $0.contains("'Debug' signs with") && $0.contains("App-Debug.entitlements") })
        #expect(messages.contains { $0.hasPrefix("KCS605 Old.entitlements:1 no configuration signs with") && $0.contains("target 'Widget' signs with") })
        #expect(messages.contains { $0.hasPrefix("KCS604 project.pbxproj:") && $0.contains("'Share Extension' is embedded in 'App' but shares no group") })
        // Every finding names its file and line.
        #expect(d.allSatisfy { $0.file != nil && ($0.location?.line ?? 0) > 0 })
    }

    func decodeProfile(_ path: String) throws -> Entitlements {
        try Entitlements.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path)))).get()
    }

    func profileFindings(_ lint: ProjectLint, _ profile: Entitlements) -> [Diagnostic] {
        lint.run(profile: profile, profilePath: "p").filter { $0.code == .projectProfile }
    }

    @Test func theProfileMustGrantEveryGroupWithWildcards() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        let lint = try ProjectLint.load(f.projectPath).get()
        let covering = try decodeProfile(Self.profile(f, appID: "\(team).com.example.Notes", keychain: ["\(team).*"],
                                                      appGroups: ["group.com.example.notes"]))
        #expect(profileFindings(lint, covering).isEmpty)
        let narrow = try decodeProfile(Self.profile(f, appID: "\(team).com.example.*", keychain: ["\(team).com.example.Notes"], appGroups: []))
        let d = profileFindings(lint, narrow)
        let messages = d.map { "\($0.file.map { ProjectPath.lastComponent($0.name) } ?? ""):\($0.location?.line ?? 0) \($0.message)" }
        // Both configurations of the three targets the wildcard app ID covers.
        #expect(messages.contains("App.entitlements:7 target 'App', configuration 'Release': SKMME9E2Y8.com.example.Notes.shared is not in the keychain-access-groups of p"))
        #expect(messages.contains("App.entitlements:11 target 'App', configuration 'Release': group.com.example.notes is not in the com.apple.security.application-groups of p"))
        #expect(messages.contains { $0.contains("'Share Extension', configuration 'Debug': SKMME9E2Y8.com.example.Notes.Share") })
        #expect(d.count == 8, "\(messages)")
        #expect(ProjectLint.grants(["$(AppIdentifierPrefix)*"], "T.x", team: "T"))
        #expect(!ProjectLint.grants(["T.com.*"], "T.org.x", team: "T"))
        let other = try decodeProfile(Self.profile(f, appID: "\(team).org.other", keychain: [], appGroups: []))
        #expect(profileFindings(lint, other).first?.message.contains("which no target of the project is") == true)
    }

    @Test func theCodeCheckFindsEveryWrapperAndSuggestsTheTeamPrefix() throws {
        let f = Self.oneApp(sources: ["Store.swift", "Constants.swift"])
        defer { f.remove() }
        let team = XcodeFixture.team
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.shared"], appGroups: ["group.com.example"])
        f.write("App/Constants.swift", "enum Constants {\n    static let group = \"com.example.shared\"\n}\n")
        f.write("App/Store.swift", """
            import Security
            func calls(prefix: String) {
                let ok: [String: Any] = [kSecAttrAccessGroup as String: "\(team).com.example.shared"]
                let unprefixed: [String: Any] = [kSecAttrAccessGroup as String: "com.example.shared"]
                var q: [String: Any] = [:]
                q[kSecAttrAccessGroup as String] = "\(team).com.example.other"
                q[kSecAttrAccessGroup as String] = prefix + ".com.example.shared"
                let a = Keychain(service: "s", accessGroup: Constants.group)
                let b = KeychainWrapper(serviceName: "s", accessGroup: "group.com.example")
                let c = SimpleKeychain(service: "s", accessGroup: "group.com.wrong")
                let k = KeychainSwift(); k.accessGroup = "XXXXXXXXXX.com.example.shared"
                let v = Valet.sharedGroupValet(with: SharedGroupIdentifier(appIDPrefix: "\(team)", groupIdentifier: "com.example.shared")!, accessibility: .whenUnlocked)
                let w = Valet.sharedGroupValet(with: SharedGroupIdentifier(appIDPrefix: prefix, groupIdentifier: "x")!, accessibility: .whenUnlocked)
                let n = Keychain(service: "s", accessGroup: nil)
                let d = NSMutableDictionary(); d.setValue("com.example.shared", forKey: kSecAttrAccessGroup as String)
                let t = Keychain(group: "group.com.wrong")
            }

            """)
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath).get()
        let d = CodeCheck.run(lint)
        let found = d.map { "\($0.code.rawValue) \($0.location.map { "\($0.line):\($0.column)" } ?? "-")" }
        #expect(found == ["KCS607 4:69", "KCS607 6:40", "KCS608 7:40", "KCS607 8:49", "KCS607 10:55", "KCS607 11:46",
                          "KCS608 13:42", "KCS607 15:47", "KCS607 16:29"], "\(d.map(\.message))")
        #expect(d[0].hint?.contains("lacks its team prefix: write \"\(team).com.example.shared\"") == true)
        #expect(d[3].notes.first?.message == "the constant is declared here")
        #expect(d[3].notes.first?.file?.name.hasSuffix("Constants.swift") == true)
        #expect(d[5].hint?.contains("another team's prefix") == true)
        #expect(d.allSatisfy { $0.file?.name.hasSuffix("Store.swift") == true })
    }

    @Test func anAppGroupWrittenWithTheTeamPrefixIsToldToDropIt() throws {
        // Habitica's mistake made on purpose: the app group with a team
        // prefix was told "did you mean" the app-ID group, the app's private
        // one (real-project trial 14, D4).
        let f = Self.oneApp(sources: ["Store.swift"])
        defer { f.remove() }
        let team = XcodeFixture.team
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.app"], appGroups: ["group.com.example.app"])
        f.write("App/Store.swift", "let a = Keychain(service: \"s\", accessGroup: \"\(team).group.com.example.app\")\n"
                + "let b = Keychain(service: \"s\", accessGroup: \"\(team).group.com.example.other\")\n")
        f.writeProject()
        let d = CodeCheck.run(try ProjectLint.load(f.projectPath).get())
        #expect(d.map(\.code) == [.codeGroupNotEntitled, .codeGroupNotEntitled], "\(d.map(\.message))")
        #expect(d.first?.hint == "group.com.example.app is an app group: write \"group.com.example.app\", without the team prefix "
                    + "(an app group is a keychain access group as it is named)", "\(d.first?.hint ?? "")")
        // An app group the target does not hold: no such advice.
        #expect(d.last?.hint?.contains("is an app group") == false, "\(d.last?.hint ?? "")")
    }

    @Test func aSharedFileIsCheckedForEachTargetWithTheFixThatNamesWhoHasTheGroup() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let d = try f.codeFindings()
        #expect(d.count == 1)
        #expect(d.first?.message.contains("target 'Share Extension' (configuration 'Release') names the access group com.example.Notes.shared") == true)
        #expect(d.first?.hint?.contains("('App', 'Widget' are): add $(AppIdentifierPrefix)com.example.Notes.shared") == true)
    }

    @Test func entitlementsThatRepeatTheTeamPrefixAreFoundAndTheCodeIsNotBlamed() throws {
        // SimpleLogin's shape: $(AppIdentifierPrefix) followed by the team
        // ID again, while the code names the group correctly.
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)\(team).com.example.Notes.shared"],
                            appGroups: ["group.com.example.notes", "\(team).group.com.example.notes"])
        f.writeEntitlements("Widget/Widget.entitlements", keychain: ["$(AppIdentifierPrefix)ABCDE12345.com.example.Notes.shared"])
        // A default for a setting nothing defines is no KCS602.
        f.write("Config/Base.xcconfig", """
            #include "Team.xcconfig"
            BUNDLE_PREFIX = $(ORG_OVERRIDE:default=com.example)
            PRODUCT_BUNDLE_IDENTIFIER = $(BUNDLE_PREFIX).$(PRODUCT_NAME:rfc1034identifier)

            """)
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath).get()
        let d = lint.run()
        let shapes = d.filter { $0.code == .lintUnprefixedEntitlement || $0.code == .lintAppGroupShape }
        let found = shapes.map { "\($0.code.rawValue) \($0.file.map { ProjectPath.lastComponent($0.name) } ?? ""):\($0.location?.line ?? 0)" }
        #expect(found == ["KCS510 App.entitlements:7", "KCS511 App.entitlements:12", "KCS510 Widget.entitlements:7"], "\(d.map(\.message))")
        #expect(shapes[0].message.contains("repeats the team prefix \(team)."))
        // Once, naming the configurations that sign with it.
        #expect(shapes[0].message.hasPrefix("target 'App' (configurations 'Debug', 'Release'): keychain group"), "\(shapes[0].message)")
        #expect(shapes[0].hint?.contains("write $(AppIdentifierPrefix)com.example.Notes.shared") == true)
        // Renaming a group that has shipped strands its items (SimpleLogin; real-project trial 14, D7).
        #expect(shapes[0].hint?.hasSuffix("in the .entitlements file; but if a build with \(team).\(team).com.example.Notes.shared has shipped, "
                                          + "its items are stored there: keep the group (valid, if not tidy), or move the items to the new one first "
                                          + "(SecItemUpdate with the new kSecAttrAccessGroup)") == true, "\(shapes[0].hint ?? "")")
        #expect(shapes[2].message.contains("two team prefixes, \(team). and ABCDE12345."))
        #expect(!d.contains { $0.code == .projectSetting }, "\(d.map(\.message))")
        // The code's group is right: the hint says the entitlement is wrong.
        let code = CodeCheck.run(lint).filter { $0.file?.name.hasSuffix("KeychainStore.swift") == true }
        #expect(code.first?.hint?.hasPrefix("the entitlement is wrong, not the code") == true, "\(code.map { $0.hint ?? "" })")
        #expect(code.first?.hint?.contains("has shipped, its items are stored there") == true, "\(code.map { $0.hint ?? "" })")
    }


    @Test func aBundleIDThatStartsLikeATeamIDIsNoDoubledPrefix() throws {
        // Monal's bundle ID is G7YU7X7KRJ.SworIM: $(AppIdentifierPrefix)
        // G7YU7X7KRJ.SworIM is the app's own app ID, which its extension
        // holds too; the fix said to write $(AppIdentifierPrefix)SworIM.
        let f = XcodeFixture.appWithTeamShapedBundleID()
        defer { f.remove() }
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)G7YU7X7KRJ.SworIM"])
        f.writeEntitlements("Widget/Widget.entitlements", keychain: ["$(AppIdentifierPrefix)G7YU7X7KRJ.SworIM", "$(AppIdentifierPrefix)ABCDE12345.shared"])
        f.writeProject()
        let d = try ProjectLint.load(f.projectPath).get().run().filter { $0.code == .lintUnprefixedEntitlement }
        // Only the group that is no app's ID is a doubled prefix.
        #expect(d.count == 1 && d.first?.message.contains("two team prefixes, \(XcodeFixture.team). and ABCDE12345.") == true,
                "\(d.map(\.message))")
        // The scenario the import writes lints the same, whichever app it declares first.
        let imported = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions())
        let path = f.path("imported.kcs")
        try imported.scenario.write(toFile: path, atomically: true, encoding: .utf8)
        let lint = try BinaryRunner.run(["lint", path])
        #expect((lint.stdout + lint.stderr).components(separatedBy: "[KCS510]").count - 1 == 1, "\(lint.stdout)\(lint.stderr)")
    }
    @Test func aTargetWhosePlatformIsUnknownIsSaidNotPassedOver() throws {
        // SDKROOT set only in an xcconfig of a submodule not checked out:
        // the lint said nothing while the import failed (Authenticator).
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.projectSettings = [:]
        f.write(".gitmodules", "[submodule \"xcconfigs\"]\n\tpath = Vendor/xcconfigs\n\turl = https://example.com/xcconfigs.git\n")
        f.projectXCConfig = ["Debug": "Vendor/xcconfigs/iOS.xcconfig", "Release": "Carthage/Checkouts/base/Base.xcconfig"]
        f.writeProject()
        let d = try ProjectLint.load(f.projectPath).get().run()
        let said = d.map { "\($0.message) | \($0.hint ?? "")" }
        #expect(said.contains { $0.hasPrefix("cannot read the xcconfig file '") && $0.contains("Vendor/xcconfigs/iOS.xcconfig")
                    && $0.contains("| it is in the git submodule ") && $0.contains("run `git submodule update --init`") }, "\(said)")
        #expect(said.contains { $0.contains("Carthage/Checkouts/base/Base.xcconfig") && $0.contains("| it is in Carthage/Checkouts, which `carthage checkout` fills") },
                "\(said)")
        // Said as not set, naming the file that may set it (real-project trial 19, D1).
        #expect(said.contains { $0.hasPrefix("cannot tell which platform target 'App' builds for: SDKROOT is not set | SDKROOT may be set in '")
                    && $0.contains("which kcs cannot read (above): make it readable, or import with --platform ios") }, "\(said)")
    }

    /// A `.gitmodules` past 64 KiB is not split into lines: 66 MB split
    /// first took 1.2 GB and 8 s, 200 MB crashed (adversarial run 25, F2).
    /// 10 million lines here, the first naming the submodule: split, it
    /// would be found, so the answer says it was not split (a 2 s bound on
    /// the call flaked under load).
    @Test func aLargeGitmodulesIsNotSplit() {
        struct Modules: ProjectFileSystem {
            let bytes: [UInt8]
            func read(_ path: String) -> Result<[UInt8], ProjectFileError> {
                path.hasSuffix(".gitmodules") ? .success(bytes) : .failure(ProjectFileError("no such file"))
            }
            func contents(ofDirectory path: String) -> [String]? { nil }
            func isFile(_ path: String) -> Bool { path.hasSuffix(".gitmodules") }
        }
        let large = Modules(bytes: Array(("\tpath = Vendor/x\n" + String(repeating: "a\n", count: 10_000_000)).utf8))
        let small = Modules(bytes: Array("\tpath = Vendor/x\n".utf8))
        var known = ProjectPath.Submodules()
        #expect(ProjectPath.submodule(of: "/p/Vendor/x/A.xcconfig", in: small, known: &known) == "/p/Vendor/x")
        known = ProjectPath.Submodules()
        #expect(ProjectPath.submodule(of: "/p/Vendor/x/A.xcconfig", in: large, known: &known) == nil)
    }

    @Test func aGroupWhoseSettingIsEmptyIsSaidSo() throws {
        // Orbot empties its Debug settings on purpose: "app group  does not
        // start with group. … did you mean group.?" and an extension "cannot
        // read what 'Orbot' stores in " (nothing) helped nobody.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.writeEntitlements("App/App.entitlements", keychain: [], appGroups: ["$(APP_GROUP)"])
        f.projectSettings["Release"]?["APP_GROUP"] = ""
        f.writeProject()
        let d = try ProjectLint.load(f.projectPath).get().run()
        let said = d.map { "\($0.code.rawValue) \($0.message) | \($0.hint ?? "")" }
        #expect(said.contains { $0.contains("an app group is empty: the setting that names it expands to nothing | give the setting a value") }, "\(said)")
        #expect(!said.contains { $0.contains("did you mean group.?") }, "\(said)")
        #expect(!d.contains { $0.code == .projectExtensionGroup }, "\(said)")
    }

    @Test func aStaleEntitlementsFileBelowTheTargetsFolderIsReported() throws {
        // ChatSecure signs with App/App.entitlements; a copy with the
        // keychain group sits in App/Resources/, where someone edits it.
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.writeEntitlements("App/Resources/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.old"])
        f.writeEntitlements("App/Resources/Deep/Deeper/Deepest/App.entitlements", keychain: [])
        f.writeProject()
        let d = try ProjectLint.load(f.projectPath).get().run().filter { $0.code == .projectEntitlementsFile }
        #expect(d.count == 1 && d[0].message.hasSuffix("App/Resources/App.entitlements'; target 'App' signs with '\(f.path("App/App.entitlements"))'"),
                "\(d.map(\.message))")
    }

    @Test func aStaleEntitlementsFileInTheFolderOfATargetsSourcesIsReported() throws {
        // Bitkit's widget target is named BitkitWidgetExtension and keeps its
        // sources in BitkitWidget/, beside an entitlements file nothing signs.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[1].folder = "BitkitWidget"
        f.targets[1].sources = ["Widget.swift"]
        f.write("BitkitWidget/Widget.swift", "import WidgetKit\n")
        f.writeEntitlements("BitkitWidget/BitkitWidget.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.old"])
        f.writeProject()
        let d = try ProjectLint.load(f.projectPath).get().run().filter { $0.code == .projectEntitlementsFile }
        #expect(d.count == 1 && d[0].message.contains("BitkitWidget/BitkitWidget.entitlements'; target 'Widget' signs with"),
                "\(d.map(\.message))")
    }

    @Test func aMacBuildWithoutTheDataProtectionFlagIgnoresTheGroup() throws {
        // Bitkit's macOS app passes kSecAttrAccessGroup without
        // kSecUseDataProtectionKeychain: the Mac's file-based keychain
        // ignores the group, so it is neither shared nor refused. A literal
        // says all it has unless a `var` holds it and the file names a
        // routing key; a dictionary built by subscripts (NetNewsWire) is
        // judged by its file; `false` routes nowhere.
        for sdk in ["macosx", "iphoneos", "both"] {
            var f = Self.oneApp(sources: ["Plain.swift", "Flagged.swift", "Parts.swift"])
            defer { f.remove() }
            f.projectSettings["Release"]?["SDKROOT"] = sdk == "macosx" ? "macosx" : "iphoneos"
            if sdk == "both" { f.projectSettings["Release"]?["SUPPORTED_PLATFORMS"] = "iphoneos macosx" }
            f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.shared"])
            let team = XcodeFixture.team
            f.write("App/Plain.swift", """
                import Security
                let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccessGroup as String: "\(team).com.example.other"]
                let synced: [String: Any] = [kSecAttrSynchronizable as String: true, kSecAttrAccessGroup as String: "\(team).com.example.other"]
                let off: [String: Any] = [kSecUseDataProtectionKeychain as String: false, kSecAttrAccessGroup as String: "\(team).com.example.other"]
                let any: [String: Any] = [kSecAttrSynchronizable as String: kSecAttrSynchronizableAny, kSecAttrAccessGroup as String: "\(team).com.example.other"]

                """)
            f.write("App/Flagged.swift", """
                import Security
                var flagged: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccessGroup as String: "\(team).com.example.other"]
                func mark() { flagged[kSecUseDataProtectionKeychain as String] = true }
                func direct() { _ = SecItemAdd([kSecAttrAccessGroup as String: "\(team).com.example.other"] as CFDictionary, nil) }
                var typed = [kSecAttrAccessGroup as String: "\(team).com.example.other"] as [String: Any]
                func markTyped() { typed[kSecUseDataProtectionKeychain as String] = true }

                """)
            f.write("App/Parts.swift", """
                import Security
                func parts(_ group: String) { var q: [String: Any] = [:]; q[kSecAttrAccessGroup as String] = "\(team).com.example.other"; _ = q }
                func any() { var q: [String: Any] = [:]; q[kSecAttrSynchronizable as String] = kSecAttrSynchronizableAny; _ = q }

                """)
            f.writeProject()
            let d = try f.codeFindings()
            let found = d.map { "\($0.code.rawValue) \(ProjectPath.lastComponent($0.file?.name ?? "")):\($0.location?.line ?? 0)" }.sorted()
            switch sdk {
            case "macosx":
                #expect(found == ["KCS607 Flagged.swift:2", "KCS607 Flagged.swift:5", "KCS607 Plain.swift:3", "KCS609 Flagged.swift:4", "KCS609 Parts.swift:2", "KCS609 Plain.swift:2",
                                  "KCS609 Plain.swift:4", "KCS609 Plain.swift:5"], "\(d.map(\.message))")
                #expect(d.first { $0.code == .codeFileKeychainGroup }?.message.contains("on macOS the call goes to the file-based keychain, which ignores the access group") == true)
            case "both":
                // Checked as its first platform (iOS), and said for the Mac too.
                #expect(found == ["KCS607 Flagged.swift:2", "KCS607 Flagged.swift:4", "KCS607 Flagged.swift:5", "KCS607 Parts.swift:2", "KCS607 Plain.swift:2", "KCS607 Plain.swift:3",
                                  "KCS607 Plain.swift:4", "KCS607 Plain.swift:5", "KCS609 Flagged.swift:4", "KCS609 Parts.swift:2", "KCS609 Plain.swift:2",
                                  "KCS609 Plain.swift:4", "KCS609 Plain.swift:5"], "\(d.map(\.message))")
            default:
                #expect(found == ["KCS607 Flagged.swift:2", "KCS607 Flagged.swift:4", "KCS607 Flagged.swift:5", "KCS607 Parts.swift:2", "KCS607 Plain.swift:2",
                                  "KCS607 Plain.swift:3", "KCS607 Plain.swift:4", "KCS607 Plain.swift:5"], "\(d.map(\.message))")
            }
        }
    }

    @Test func hostileNamesLinesAndLinksEndInFindingsNotCrashes() throws {
        // A target named " (configuration" made the merge of findings read
        // its name backwards, a `#sourceLocation` near Int.max overflowed
        // swift-syntax's line arithmetic, and links to one file read and
        // kept it once per link (all found by adversarial testing).
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        f.targets[0].name = " (configuration"
        f.targets[0].folder = "App"
        f.targets[0].sources = ["KeychainStore.swift", "Located.swift", "Link1.swift", "Link2.swift"]
        let call = "SecItemAdd([kSecClass as String: kSecClassGenericPassword, kSecAttrAccessGroup as String: \"\(team).com.example.bad\"] as CFDictionary, nil)"
        f.write("App/KeychainStore.swift", "import Security\nfunc save() { _ = \(call) }\n")
        f.write("App/Located.swift", "import Security\n#sourceLocation(file: \"x).swift\", /* c */ line:\n 9223372036854775807)\nfunc g() { _ = \(call) }\n#sourceLocation()\n"
                + "class C {\n    #sourceLocation(file: \"y.swift\", line: 9223372036854775806)\n    func h() {}\n}\n"
                + "let s = \"\(team).com.example.Notes.shared#sourceLocation\"\n")
        try FileManager.default.createSymbolicLink(atPath: f.path("App/Link1.swift"), withDestinationPath: "KeychainStore.swift")
        try FileManager.default.createSymbolicLink(atPath: f.path("App/Link2.swift"), withDestinationPath: "KeychainStore.swift")
        f.writeProject()
        let found = try f.codeFindings()
        let said = found.map { "\($0.code.rawValue) \($0.file.map { ($0.name as NSString).lastPathComponent } ?? "?"): \($0.message.prefix(60))" }
        // One finding for the file, not one per link; the located file is refused.
        #expect(found.filter { $0.code == .codeGroupNotEntitled && $0.message.contains("com.example.bad") && $0.file?.name.hasSuffix("Located.swift") == false }.count == 1, "\(said)")
        #expect(found.contains { $0.code == .codeGroupNotEntitled && $0.message.hasPrefix("target ' (configuration' (configuration 'Release') names") }, "\(said)")
        // The located call is found at its physical line; the directive's
        // bypasses (a comment, a line break, a ")" in the file name) too.
        #expect(found.contains { $0.code == .codeGroupNotEntitled && $0.file?.name.hasSuffix("Located.swift") == true && $0.location?.line == 4 }, "\(said)")
        // A directive in a class body leaves the file parsing; one written in
        // a string is text, not a directive.
        #expect(!found.contains { $0.file?.name.hasSuffix("Located.swift") == true && $0.code == .codeGroupNotCheckable }, "\(said)")
    }

    @Test func aGroupOneTypoFromAHeldOneIsSuggested() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        f.write("App/KeychainStore.swift", "import Security\nfunc f() { _ = SecItemAdd([kSecAttrAccessGroup as String: \"\(team).com.example.Notes.shard\"] as CFDictionary, nil) }\n")
        f.writeProject()
        let d = try f.codeFindings().first { $0.code == .codeGroupNotEntitled && $0.message.contains("Notes.shard") }
        #expect(d?.hint?.hasPrefix("did you mean \"\(team).com.example.Notes.shared\"? its groups: ") == true, "\(d?.hint ?? "none")")
    }

    @Test func aGroupOtherTargetsHoldIsTheirsNotATypo() throws {
        // The extension's own code names the app's group: "did you mean"
        // its nearest own group pushed toward another group.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        f.targets[2].sources = ["ShareViewController.swift"]
        f.write("Share/ShareViewController.swift", "import Security\nlet q = [kSecAttrAccessGroup: \"\(team).com.example.Notes.shared\"]\n")
        f.writeProject()
        let d = try f.codeFindings().filter { $0.code == .codeGroupNotEntitled }
        #expect(d.map(\.hint) == ["only 'App', 'Widget' hold \(team).com.example.Notes.shared: add it to the entitlements of 'Share Extension' to share it"],
                "\(d.map(\.hint))")
    }

    @Test func aStrayFileIsComparedWithTheTargetWhoseFolderItIsNotOneThatBorrowsAFile() throws {
        // KeePassium: the app borrows one file from the AutoFill extension's
        // synchronized folder; an unused entitlements file there was
        // compared with the app's, not the extension's.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[1].synchronizedFolders = ["WidgetKit"]
        f.synchronizedExceptions = [(folder: "WidgetKit", target: "App", paths: ["Util.swift"])]
        for name in ["Timeline", "Entry", "Util"] { f.write("WidgetKit/\(name).swift", "let \(name.lowercased()) = 1\n") }
        f.writeEntitlements("WidgetKit/Old.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"])
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath).get()
        let app = try #require(lint.project.targets.first { $0.name == "App" })
        #expect(app.swiftSources.contains { $0.hasSuffix("WidgetKit/Util.swift") }, "\(app.swiftSources)")
        let stray = lint.run().filter { $0.code == .projectEntitlementsFile && $0.message.contains("Old.entitlements") }.map(\.message)
        #expect(stray.count == 1 && stray.first?.contains("; target 'Widget' signs with '") == true
                    && stray.first?.hasSuffix("/Widget/Widget.entitlements'") == true, "\(stray)")
    }

    @Test func aFileAndNoFileThatGrantNoGroupDoNotDiffer() throws {
        // MonitorControl: Debug signs with a file that only disables library
        // validation, Release with none; both grant no group, yet KCS605 said
        // to keep the files' groups the same (real-project trial 16, D9).
        var f = XcodeFixture()
        defer { f.remove() }
        let base = ["SDKROOT": "macosx", "DEVELOPMENT_TEAM": XcodeFixture.team]
        f.projectSettings = ["Debug": base, "Release": base]
        f.targets = ["App", "Tool"].map { name in
            .init(name: name, settings: ["Debug": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.\(name)", "CODE_SIGN_ENTITLEMENTS": "\(name)/\(name)Debug.entitlements"],
                                         "Release": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.\(name)"]])
        }
        f.writeEntitlements("App/AppDebug.entitlements", keychain: [])
        f.writeEntitlements("Tool/ToolDebug.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.shared"])
        f.writeProject()
        let d = try ProjectLint.load(f.projectPath).get().run().filter { $0.code == .projectEntitlementsFile }.map(\.message)
        #expect(d == ["target 'Tool': configuration 'Debug' signs with '\(f.path("Tool/ToolDebug.entitlements"))', 'Release' with no entitlements file"], "\(d)")
    }

    @Test func aStrayFileIsComparedWithTheTargetNamedLikeItOrOfTheNearestFolder() throws {
        // Provenance: every extension keeps its folder in Extensions/, and
        // stray files there were compared with 'Spotlight', the first target
        // of Extensions/, not with the target named like the file, which
        // signs with its sibling (real-project trial 16, D10).
        var f = XcodeFixture()
        defer { f.remove() }
        f.projectSettings = ["Release": ["SDKROOT": "iphoneos", "DEVELOPMENT_TEAM": XcodeFixture.team]]
        f.configurations = ["Release"]
        func ext(_ name: String, _ folder: String, _ entitlements: String) -> XcodeFixture.Target {
            .init(name: name, folder: folder, productType: "com.apple.product-type.app-extension",
                  settings: ["Release": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.\(name.filter { $0 != " " })", "CODE_SIGN_ENTITLEMENTS": entitlements]],
                  sources: ["\(name.filter { $0 != " " }).swift"])
        }
        f.targets = [ext("Spotlight", "Extensions/Spotlight", "Extensions/Spotlight/Spotlight.entitlements"),
                     ext("ROM File Provider", "Extensions/ROM File Provider", "Extensions/ROM File Provider/ROM_File_Provider.entitlements"),
                     ext("ROM File ProviderUI", "Extensions/ROM File ProviderUI", "Extensions/ROM File Provider/ROM_File_Provider.entitlements")]
        for t in f.targets { f.write("\(t.folder ?? "")/\(t.sources[0])", "import Foundation\n") }
        for file in ["Spotlight/Spotlight", "ROM File Provider/ROM_File_Provider", "ROM File Provider/ROM_File_ProviderUI", "Stickers/Stickers"] {
            f.writeEntitlements("Extensions/\(file).entitlements", keychain: ["$(AppIdentifierPrefix)com.example.shared"])
        }
        f.writeProject()
        let d = try ProjectLint.load(f.projectPath).get().run().filter { $0.code == .projectEntitlementsFile }.map(\.message)
        #expect(d.sorted() == [
            "no configuration signs with '\(f.path("Extensions/ROM File Provider/ROM_File_ProviderUI.entitlements"))'; "
                + "target 'ROM File ProviderUI' signs with '\(f.path("Extensions/ROM File Provider/ROM_File_Provider.entitlements"))'",
            "no configuration signs with '\(f.path("Extensions/Stickers/Stickers.entitlements"))'",
        ], "\(d)")
    }

    @Test func anEntitlementsFileTheProjectListsThatDoesNotExistIsSaidSo() throws {
        // LuLu lists a Base.lproj variant of its extension's file that is
        // not in the repository: "point CODE_SIGN_ENTITLEMENTS at it, or
        // delete it" made no sense (real-project trial 16, D11).
        var f = Self.oneApp(sources: [])
        defer { f.remove() }
        f.targets[0].listed = ["Base.lproj/Gone.entitlements", "Stale.entitlements"]
        f.writeEntitlements("App/App.entitlements", keychain: [])
        f.writeEntitlements("App/Stale.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.stale"])
        f.writeProject()
        let d = try ProjectLint.load(f.projectPath).get().run().filter { $0.code == .projectEntitlementsFile }
        #expect(d.map(\.message) == ["the project lists '\(f.path("App/Base.lproj/Gone.entitlements"))', which does not exist, and no configuration signs with it",
                                     "no configuration signs with '\(f.path("App/Stale.entitlements"))'; target 'App' signs with '\(f.path("App/App.entitlements"))'"],
                "\(d.map(\.message))")
        #expect(d.first?.hint == "remove the reference from the project (Xcode shows it in red)")
        #expect(d.allSatisfy { $0.file?.name.hasSuffix("project.pbxproj") == true })
        // The caret is under the path the project lists, not the rest of the
        // object's line (130 `~` on openHAB's; real-project trial 18, W2).
        let underlined = d.map { d in d.range.flatMap { r in d.file.map { String(decoding: $0.bytes[r.start..<r.end], as: UTF8.self) } } ?? "" }
        #expect(underlined == ["\"Base.lproj/Gone.entitlements\"", "\"Stale.entitlements\""], "\(underlined)")
    }

    @Test func aFolderNamedLikeASwiftFileIsWalked() throws {
        // Xcode compiles the file in `Keys.swift/`: it is no source kcs
        // cannot read, and its calls are checked (found on Anytype).
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[0].synchronizedFolders = ["AppSync"]
        f.write("AppSync/Keys.swift/Keys.swift", """
            import Security
            func key() -> OSStatus {
                SecItemAdd([kSecClass as String: kSecClassGenericPassword, kSecAttrAccessGroup as String: "\(XcodeFixture.team).com.example.inFolder"] as CFDictionary, nil)
            }

            """)
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath).get()
        let app = try #require(lint.project.targets.first { $0.name == "App" })
        #expect(lint.project.code(of: app).swiftSources.map { ($0 as NSString).lastPathComponent } == ["KeychainStore.swift", "Keys.swift"])
        let found = CodeCheck.run(lint)
        #expect(!found.contains { $0.message.contains("cannot read") }, "\(found.map(\.message))")
        #expect(found.contains { $0.code == .codeGroupNotEntitled && $0.message.contains("com.example.inFolder") }, "\(found.map(\.message))")
    }

    @Test func anExtensionWhoseCodeTouchesNoSharedDataIsNotAskedToShare() throws {
        // KCS604 asks only targets whose code may read what the app stores
        // (a notification service extension rewriting a title was noise).
        func extensionGroup(source: String, named file: String = "ShareViewController.swift",
                            frameworks: [String] = [], synchronized: String? = nil) throws -> Bool {
            var f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            f.targets[2].sources = [file]
            f.targets[2].frameworks = frameworks
            f.write("Share/\(file)", source)
            if let synchronized {
                f.targets[2].synchronizedFolders = ["ShareSync"]
                f.write("ShareSync/\(synchronized)", "int helper(void) { return 0; }\n")
            }
            f.writeProject()
            return try ProjectLint.load(f.projectPath).get().run().contains { $0.code == .projectExtensionGroup }
        }
        let plain = "import UserNotifications\nfunc title(_ s: String) -> String { s.uppercased() }\n"
        #expect(try !extensionGroup(source: plain))
        #expect(try !extensionGroup(source: plain, frameworks: ["System/Library/Frameworks/UserNotifications.framework"]))
        // Code kcs does not read: a framework or package linked, another language.
        #expect(try extensionGroup(source: plain, frameworks: ["Shared.framework"]))
        #expect(try extensionGroup(source: "int share(void) { return 0; }\n", named: "Share.c"))
        // Objective-C is read as Swift is: asked only when it names the
        // keychain or an app group (not when it only mentions them).
        #expect(try !extensionGroup(source: "#import <Foundation/Foundation.h>\n// kSecClass lives here\n", named: "Share.m"))
        #expect(try extensionGroup(source: "NSDictionary *q = @{ (__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword };\n", named: "Share.m"))
        #expect(try extensionGroup(source: "NSUserDefaults *d = [[NSUserDefaults alloc] initWithSuiteName:@\"group.x\"];\n", named: "Share.m"))
        #expect(try extensionGroup(source: plain, synchronized: "Helper.c"))
        // A synchronized folder's Objective-C is read: asked for what it says, not for being there.
        #expect(try !extensionGroup(source: plain, synchronized: "Helper.m"))
        #expect(try !extensionGroup(source: plain, synchronized: "Helper.swift"))
        // Its own code uses an app group or the keychain.
        #expect(try extensionGroup(source: "let d = UserDefaults(suiteName: \"group.com.example.notes\")\n"))
        #expect(try extensionGroup(source: "let q = [kSecClass: kSecClassGenericPassword]\n"))
        #expect(try extensionGroup(source: "let k = KeychainSwift()\n"))
        // Its code, not its comments or strings, nor a key's type (real-project trial 14, D2).
        #expect(try !extensionGroup(source: "import Foundation\n\n// Tokens live in the keychain; this extension never reads them.\n"
                                    + "/** Not SecItemAdd, /* nor kSecClass */ nor UserDefaults(suiteName:) */\n"
                                    + "func greet() -> String {\n    return \"hello from the keychain, kSecClass, \\(1 + 1) \\\"group.x\"\n}\n"))
        #expect(try !extensionGroup(source: "let types = [kSecAttrKeyTypeEC, kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits]\n"
                                    + "let s = #\"keychain \"group.x\" SecItemAdd\"#\nlet m = \"\"\"\n  Keychain kSecClass\n  \"\"\"\n"))
        // Secretive's own helper named after the keychain wraps no keychain call.
        #expect(try !extensionGroup(source: "func KeychainDictionary(_ d: [CFString: Any]) -> CFDictionary { d as CFDictionary }\n"
                                    + "struct KeychainError: Error {}\nlet d = KeychainDictionary([:])\n"))
        #expect(try extensionGroup(source: "let s = \"\\(UserDefaults(suiteName: nil) as Any)\"\n"))
        #expect(try extensionGroup(source: "let s = \"group.com.example.notes\"\nfunc f() { print(s) }\n"))
        // A constant its code never uses asks nothing (real-project trial 21, D5).
        #expect(try !extensionGroup(source: "let s = \"group.com.example.notes\"\n"))
        #expect(try extensionGroup(source: "import KeychainAccess\nlet k = Keychain(service: \"x\")\n"))
        #expect(try extensionGroup(source: "let q = [kSecAttrKeyType: kSecAttrKeyTypeEC, kSecAttrIsPermanent: true] as CFDictionary\n"))
        // The hint says why the extension was asked.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[2].frameworks = ["Shared.framework"]
        f.write("Share/ShareViewController.swift", plain)
        f.writeProject()
        let asked = try ProjectLint.load(f.projectPath).get().run().first { $0.code == .projectExtensionGroup }
        #expect(asked?.hint?.hasPrefix("asked because it has code kcs does not read") == true, "\(asked?.hint ?? "")")
        // What its code says comes first.
        f.write("Share/ShareViewController.swift", "let d = UserDefaults(suiteName: \"group.com.example.notes\")\n")
        let named = try ProjectLint.load(f.projectPath).get().run().first { $0.code == .projectExtensionGroup }
        #expect(named?.hint?.hasPrefix("asked because its code names the keychain or an app group (suiteName") == true, "\(named?.hint ?? "")")
    }

    @Test func anExtensionEmbeddedInTwoAppsIsAskedOnce() throws {
        // Secretive embeds each XPC service in two apps: six warnings at
        // three places, each with the same hint (real-project trial 14, D8).
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let other = ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Other", "CODE_SIGN_ENTITLEMENTS": "Other/Other.entitlements"]
        f.targets.append(XcodeFixture.Target(name: "Other", settings: ["Debug": other, "Release": other], sources: ["Other.swift"],
                                             embeds: ["Share Extension"]))
        f.write("Other/Other.swift", "func other() {}\n")
        f.writeEntitlements("Other/Other.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Other"])
        f.writeProject()
        // 'Other' embeds an extension not under its bundle ID: said apart
        // (real-project trial 22, D7).
        let all = try ProjectLint.load(f.projectPath).get().run()
        #expect(all.contains { $0.message.hasPrefix("target 'Other' (bundle ID com.example.Other, configuration 'Release') embeds 'Share Extension' (com.example.Notes.Share)") })
        let asked = all.filter { $0.code == .projectExtensionGroup && !$0.message.contains("whose bundle ID") }
        #expect(asked.count == 1, "\(asked.map(\.message))")
        #expect(asked.first?.message == "target 'Share Extension' is embedded in 'App' and 'Other' but shares no group with them (configuration 'Release'): "
                    + "it cannot read what 'App' stores in \(XcodeFixture.team).com.example.Notes.shared, group.com.example.notes, "
                    + "or what 'Other' stores in \(XcodeFixture.team).com.example.Other", "\(asked.first?.message ?? "")")
        // Two hosts: the group goes to all three files (real-project trial 16, D13).
        #expect(asked.first?.hint?.hasSuffix("add the group they should share to all their entitlements files (an extension inherits nothing from its app)") == true,
                "\(asked.first?.hint ?? "")")
    }

    @Test func aFrameworkOfTheProjectIsCheckedWithTheEntitlementsOfEachTargetThatLinksIt() throws {
        // Real projects keep their keychain code in a framework target the
        // app and its extensions link: its calls run with theirs.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        f.targets.append(XcodeFixture.Target(name: "SharedKit", productType: "com.apple.product-type.framework",
                                             sources: ["Vault.swift", "Plain.swift"], links: ["Core"]))
        f.targets.append(XcodeFixture.Target(name: "Core", productType: "com.apple.product-type.framework", sources: ["Token.swift"]))
        f.targets[0].links = ["SharedKit"]
        f.targets[2].links = ["SharedKit"]
        // An app's product in the Frameworks phase is no code of the widget's.
        f.targets[1].links = ["App"]
        f.write("SharedKit/Vault.swift", """
            import Security
            func store(_ data: Data) -> OSStatus {
                let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                            kSecAttrAccessGroup as String: "\(team).com.example.Notes.shared",
                                            kSecValueData as String: data]
                return SecItemAdd(query as CFDictionary, nil)
            }

            """)
        f.write("SharedKit/Plain.swift", "func title(_ s: String) -> String { s.uppercased() }\n")
        // Linked by the framework, so by the app and the extension in turn.
        f.write("Core/Token.swift", """
            import Security
            func token() -> OSStatus {
                let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                            kSecAttrAccessGroup as String: "\(team).com.example.Other"]
                return SecItemCopyMatching(query as CFDictionary, nil)
            }
            let defaults = UserDefaults(suiteName: "group.com.example.elsewhere")

            """)
        // It calls the framework's keychain code (KCS604 asks only then; real-project trial 21, D5).
        f.write("Share/ShareViewController.swift", "func title(_ s: String) -> String { s }\nfunc keep(_ d: Data) { _ = store(d) }\n")
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath).get()
        let app = try #require(lint.project.targets.first { $0.name == "App" })
        let code = lint.project.code(of: app)
        #expect(code.swiftSources.map { ($0 as NSString).lastPathComponent } == ["KeychainStore.swift", "Vault.swift", "Plain.swift", "Token.swift"])
        #expect(code.unread.isEmpty && code.owner.values.map(\.name).sorted() == ["Core", "SharedKit", "SharedKit"])
        let widget = try #require(lint.project.targets.first { $0.name == "Widget" })
        #expect(!lint.project.code(of: widget).swiftSources.contains { $0.hasSuffix("KeychainStore.swift") })
        let d = CodeCheck.run(lint).filter { $0.code == .codeGroupNotEntitled }
        // The app holds the shared group, not the other; the share extension neither.
        let said = d.map { "\($0.file.map { ($0.name as NSString).lastPathComponent } ?? "?"): \($0.message.prefix { $0 != ":" })" }.sorted()
        // Once per place, naming every target it is found for.
        #expect(said == [
            "Token.swift: targets 'App', 'Share Extension' (configuration 'Release') (in 'Core', which they link) name the access group \(team).com.example.Other, which they are not entitled to",
            "Token.swift: targets 'App', 'Share Extension' (configuration 'Release') (in 'Core', which they link) name the app group group.com.example.elsewhere, which they are not entitled to",
            "Vault.swift: target 'Share Extension' (configuration 'Release') (in 'SharedKit', which it links) names the access group \(team).com.example.Notes.shared, which it is not entitled to",
        ], "\(said)")
        // Each target's own hint, when they differ.
        #expect(d.first { $0.message.hasPrefix("targets") }?.hint?.hasPrefix("'App': ") == true)
        // A group other targets hold is theirs, not a typo: the framework's
        // call may be one the extension never makes (2PASS's app-only item
        // was told "did you mean …Shared?").
        let vault = d.first { $0.file?.name.hasSuffix("Vault.swift") == true }
        #expect(vault?.hint == "only 'App', 'Widget' hold \(team).com.example.Notes.shared: make sure 'Share Extension' never makes this call, "
                    + "or add the group to its entitlements", "\(vault?.hint ?? "none")")
        // KCS604 reads the framework's code too: the extension that links the
        // keychain code is asked to share, with the file that made it ask
        // and the framework it is in (real-project trial 20, W8).
        let asked = lint.run().first { $0.code == .projectExtensionGroup }
        #expect(asked?.hint?.hasPrefix("asked because its code names the keychain or an app group (kSecClass in Vault.swift, in 'SharedKit', which it links)") == true,
                "\(asked?.hint ?? "none")")
    }

    @Test func kcs604NamesTheGroupLiteralItFound() throws {
        // "(group. in Ndb.swift)" printed the prefix, not the literal
        // (real-project trial 18, W6).
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        func reason(_ source: String) throws -> String {
            f.write("Share/ShareViewController.swift", source)
            let hint = try ProjectLint.load(f.projectPath).get().run().first { $0.code == .projectExtensionGroup }?.hint ?? ""
            return String(hint.prefix { $0 != ")" }) + ")"
        }
        #expect(try reason("let suite = \"group.com.example.notes\"\nfunc f() -> String { suite }\n")
                    == "asked because its code names the keychain or an app group (\"group.com.example.notes\" in ShareViewController.swift)")
        #expect(try reason("let id = \"x\"\nlet suite = \"group.com.example.\\(id)\"\nfunc f() -> String { suite }\n")
                    == "asked because its code names the keychain or an app group (\"group.com.example.…\" in ShareViewController.swift)")
    }

    @Test(arguments: [false, true])
    func aLocalSwiftPackageIsCodeOfTheTargetsThatLinkIt(legacy: Bool) throws {
        // Keychain code in a package of the repository runs with the
        // entitlements of the app that links its product, as a framework's
        // does; Xcode 15 names the package, earlier versions a folder.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        f.targets[0].packageProducts = [.init(name: "VaultKit", local: "Packages/Vault", legacy: legacy)]
        f.targets[1].packageProducts = [.init(name: "Analytics", local: nil)]
        func call(_ group: String) -> String {
            "    _ = SecItemAdd([kSecClass as String: kSecClassGenericPassword, kSecAttrAccessGroup as String: \"\(team).\(group)\"] as CFDictionary, nil)\n"
        }
        f.write("Packages/Vault/Package.swift", """
            // swift-tools-version:5.9
            import PackageDescription

            let package = Package(
                name: "Vault",
                platforms: [.iOS(.v17)],
                products: [
                    .library(name: "VaultKit", targets: ["VaultKit"]),
                    .library(name: "Unused", targets: ["Unused"]),
                ],
                dependencies: [.package(url: "https://example.com/log.git", from: "1.0.0"), .package(path: "../Shared")],
                targets: [
                    .target(name: "VaultKit", dependencies: ["Store", .product(name: "Log", package: "log"), "SharedKit"],
                            exclude: ["Old"]),
                    .target(name: "Store", path: "Custom/Store"),
                    .target(name: "Unused"),
                    .testTarget(name: "VaultKitTests", dependencies: ["VaultKit"]),
                ]
            )

            """)
        f.write("Packages/Vault/Sources/VaultKit/Vault.swift", "import Store\nfunc title() -> String { \"\" }\n")
        f.write("Packages/Vault/Sources/VaultKit/Old/Old.swift", "import Security\nfunc old() {\n" + call("Old") + "}\n")
        f.write("Packages/Vault/Custom/Store/Store.swift", "import Security\nfunc save() {\n" + call("com.example.Other")
                + "#if DEBUG\n" + call("Debug") + "#endif\n#if os(macOS)\n" + call("Mac") + "#endif\n}\n")
        f.write("Packages/Vault/Sources/Unused/Unused.swift", "import Security\nfunc unused() {\n" + call("Unused") + "}\n")
        // A product of another local package the first depends on.
        f.write("Packages/Shared/Package.swift", """
            // swift-tools-version:5.9
            import PackageDescription
            let package = Package(name: "Shared", products: [.library(name: "SharedKit", targets: ["SharedKit"])],
                                  targets: [.target(name: "SharedKit")])

            """)
        f.write("Packages/Shared/Sources/SharedKit/Shared.swift", "import Security\nfunc shared() {\n" + call("com.example.Elsewhere") + "}\n")
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath, packages: PackageManifestReader()).get()
        let app = try #require(lint.project.targets.first { $0.name == "App" })
        let code = lint.project.code(of: app)
        // The product's module and the module it depends on in the package;
        // not the folder it excludes, nor another product's module.
        #expect(code.swiftSources.map { ($0 as NSString).lastPathComponent } == ["KeychainStore.swift", "Vault.swift", "Store.swift", "Shared.swift"])
        // `Log` comes from a remote package: code kcs does not read.
        #expect(!code.unread.isEmpty)
        #expect(lint.project.packageModules.map(\.name) == ["SharedKit", "VaultKit", "Store"])
        let said = CodeCheck.run(lint).filter { $0.code == .codeGroupNotEntitled || $0.code == .codeGroupNotCheckable }
            .map { "\($0.file.map { ($0.name as NSString).lastPathComponent } ?? "?"): \($0.message)" }
            .filter { !$0.hasPrefix("ShareViewController.swift") }
        #expect(said == [
            "Store.swift: target 'App' (configuration 'Release') (in package module 'Store', which it links) names the access group "
                + "\(team).com.example.Other, which it is not entitled to: if it makes this call, the call fails with errSecMissingEntitlement (-34018)",
            // A package's flags are its own: DEBUG is not known; os() is the app's.
            "Store.swift: target 'App' (configuration 'Release') (in package module 'Store', which it links) names the access group "
                + "\(team).Debug under #if DEBUG, which it is not entitled to; kcs cannot tell whether this build compiles the call",
            "Shared.swift: target 'App' (configuration 'Release') (in package module 'SharedKit', which it links) names the access group "
                + "\(team).com.example.Elsewhere, which it is not entitled to: if it makes this call, the call fails with errSecMissingEntitlement (-34018)",
        ], "\(said)")
        // Without a manifest reader the package is not read.
        let unread = try ProjectLint.load(f.projectPath).get()
        let plainApp = try #require(unread.project.targets.first { $0.name == "App" })
        #expect(unread.project.code(of: plainApp).swiftSources.count == 1 && !unread.project.code(of: plainApp).unread.isEmpty)
    }

    @Test func manifestsAsRealProjectsWriteThem() throws {
        // Mastodon names its product's targets in a top-level `let` (Copilot
        // for Xcode passes its lists through a member it defines); Mlem
        // keeps its packages in a synchronized folder of the app (their
        // files, tests included, were read as the app's own); Pocket Casts'
        // package folder references are typed `text`.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        f.targets[0].packageProducts = [.init(name: "Kit", local: "Kit"), .init(name: "Legacy", local: "Legacy", legacy: true)]
        f.targets[0].synchronizedFolders = ["Packages"]
        f.write("Kit/Package.swift", """
            import PackageDescription
            let libraryTargets = ["Kit"]
            let kitName = "Kit"
            extension Array { func pro(_ more: Self) -> Self { self + more } }
            let package = Package(name: "Kit", products: [.library(name: "Kit", targets: libraryTargets)],
                                  targets: [].pro([.target(name: kitName)]))

            """)
        let call = "import Security\nfunc f() { _ = SecItemAdd([kSecAttrAccessGroup as String: \"\(team).com.example.Wrong\"] as CFDictionary, nil) }\n"
        f.write("Kit/Sources/Kit/Kit.swift", call)
        f.write("Legacy/Package.swift", "import PackageDescription\nlet package = Package(name: \"Legacy\", products: [.library(name: \"Legacy\", targets: [\"Legacy\"])], targets: [.target(name: \"Legacy\")])\n")
        f.write("Legacy/Sources/Legacy/Legacy.swift", "func legacy() {}\n")
        f.write("Packages/Nested/Package.swift", "import PackageDescription\nlet package = Package(name: \"Nested\")\n")
        f.write("Packages/Nested/Tests/NestedTests/T.swift", call)
        f.write("Packages/Own.swift", "func own() {}\n")
        f.writeProject()
        // The fixture's legacy folder reference, typed as Pocket Casts types it.
        let pbxproj = f.path("App.xcodeproj/project.pbxproj")
        let text = try String(contentsOfFile: pbxproj, encoding: .utf8).replacingOccurrences(of: "lastKnownFileType = folder;", with: "lastKnownFileType = text;")
        try text.write(toFile: pbxproj, atomically: true, encoding: .utf8)
        let lint = try ProjectLint.load(f.projectPath, packages: PackageManifestReader()).get()
        let app = try #require(lint.project.targets.first { $0.name == "App" })
        #expect(lint.project.code(of: app).swiftSources.map { ($0 as NSString).lastPathComponent }.sorted()
                    == ["KeychainStore.swift", "Kit.swift", "Legacy.swift", "Own.swift"])
        let found = CodeCheck.run(lint).filter { $0.code == .codeGroupNotEntitled && $0.message.contains("com.example.Wrong") }
        #expect(found.count == 1 && found[0].message.contains("(in package module 'Kit', which it links)"), "\(found.map(\.message))")
    }

    @Test func xcode15ProductsWithoutAPackageKeyAndAbsentPackages() throws {
        // Xcode 15 lists the local package but may write its product with
        // no `package =` (wallabag, Feather); a package of one target may
        // keep its sources in Sources/ itself (Meshtastic); an absent package
        // is said as such (a git submodule; SideStore, Feather).
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        f.targets[0].packageProducts = [.init(name: "Shared", local: "SharedLib"), .init(name: "Gone", local: "Vendor/Gone"),
                                        .init(name: "FlutterGeneratedPluginSwiftPackage", local: "Flutter/ephemeral/Packages/FlutterGeneratedPluginSwiftPackage"),
                                        .init(name: "RemoteKit")]
        f.write("SharedLib/Package.swift", """
            import PackageDescription
            let package = Package(name: "SharedLib", products: [.library(name: "Shared", targets: ["SharedLib"])],
                                  targets: [.target(name: "SharedLib"), .testTarget(name: "SharedLibTests", dependencies: ["SharedLib"])])

            """)
        f.write("SharedLib/Sources/Store.swift", "import Security\nfunc f() { _ = SecItemAdd([kSecAttrAccessGroup as String: \"\(team).com.example.Wrong\"] as CFDictionary, nil) }\n")
        f.writeProject()
        let pbxproj = f.path("App.xcodeproj/project.pbxproj")
        var text = try String(contentsOfFile: pbxproj, encoding: .utf8)
        // The product dependencies of Shared and of Flutter's generated
        // package without their package keys.
        for product in ["Shared", "FlutterGeneratedPluginSwiftPackage", "RemoteKit"] {
            let line = try #require(text.split(separator: "\n").first { $0.contains("isa = XCSwiftPackageProductDependency;") && $0.contains("productName = \"\(product)\";") })
            let stripped = line.replacingOccurrences(of: #"package = [0-9A-F]+; "#, with: "", options: .regularExpression)
            #expect(stripped != String(line) && !stripped.contains("package ="))
            text = text.replacingOccurrences(of: String(line), with: stripped)
        }
        try text.write(toFile: pbxproj, atomically: true, encoding: .utf8)
        let lint = try ProjectLint.load(f.projectPath, packages: PackageManifestReader()).get()
        let found = CodeCheck.run(lint).filter { $0.code == .codeGroupNotEntitled && $0.message.contains("com.example.Wrong") }
        #expect(found.count == 1 && found[0].message.contains("(in package module 'SharedLib', which it links)"), "\(found.map(\.message))")
        let said = lint.run().map(\.message)
        #expect(said.contains { $0.hasPrefix("the code check does not read product 'Gone' of the local package at '") && $0.contains("which is absent (no Package.swift there") },
                "\(said)")
        // A product naming no package, of a referenced package that is absent:
        // that package, and what writes it (Flutter's plugin package).
        let flutter = try #require(lint.run().first { $0.message.hasPrefix("the code check does not read product 'FlutterGeneratedPluginSwiftPackage'") })
        #expect(flutter.message.contains("Flutter/ephemeral/Packages/FlutterGeneratedPluginSwiftPackage', which is absent"), "\(flutter.message)")
        #expect(flutter.hint?.hasPrefix("Flutter writes it") == true, "\(flutter.hint ?? "")")
        // A product naming no package in a project with remote packages may be
        // one of theirs, which kcs does not read anywhere (CodeEdit).
        #expect(!said.contains { $0.contains("'RemoteKit'") }, "\(said)")
    }

    @Test func aPackageProductLinkedOnlyByTheFrameworksPhaseIsRead() throws {
        // SideStore's AltBackup links a product in its Frameworks phase
        // (`productRef`) without listing it among its package dependencies.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        f.targets[0].packageProducts = [.init(name: "Kit", local: "Kit")]
        f.targets[0].frameworks = ["System/Library/Frameworks/Security.framework"]
        f.write("Kit/Package.swift", "import PackageDescription\nlet package = Package(name: \"Kit\", products: [.library(name: \"Kit\", targets: [\"Kit\"])], targets: [.target(name: \"Kit\")])\n")
        f.write("Kit/Sources/Kit/Kit.swift", "import Security\nfunc f() { _ = SecItemAdd([kSecAttrAccessGroup as String: \"\(team).com.example.Wrong\"] as CFDictionary, nil) }\n")
        f.writeProject()
        let pbxproj = f.path("App.xcodeproj/project.pbxproj")
        var text = try String(contentsOfFile: pbxproj, encoding: .utf8)
        // The dependency moves from the target's list to a build file of its Frameworks phase.
        let dependency = try #require(text.firstMatch(of: /packageProductDependencies = \(([0-9A-F]+), \);/))
        let id = String(dependency.1)
        text = text.replacingOccurrences(of: String(dependency.0), with: "")
        let phase = try #require(text.firstMatch(of: /isa = PBXFrameworksBuildPhase; files = \(/))
        text = text.replacingOccurrences(of: String(phase.0), with: String(phase.0) + "FFFF00000000000000000001, ")
        text = text.replacingOccurrences(of: "\t};\n\trootObject", with: "\t\tFFFF00000000000000000001 = {isa = PBXBuildFile; productRef = \(id); };\n\t};\n\trootObject")
        try text.write(toFile: pbxproj, atomically: true, encoding: .utf8)
        let lint = try ProjectLint.load(f.projectPath, packages: PackageManifestReader()).get()
        let found = CodeCheck.run(lint).filter { $0.code == .codeGroupNotEntitled && $0.message.contains("com.example.Wrong") }
        #expect(found.count == 1 && found[0].message.contains("(in package module 'Kit', which it links)"), "\(found.map(\.message))")
    }

    @Test func aPackageManifestKcsCannotFollowLeavesItsCodeUnread() throws {
        // A product list built in code is not guessed at: the package's code
        // is code kcs does not read, as before, and the lint says so.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[0].packageProducts = [.init(name: "Kit", local: "Kit")]
        f.write("Kit/Package.swift", """
            import PackageDescription
            let names = ["Kit"]
            let package = Package(name: "Kit", products: names.map { .library(name: $0, targets: [$0]) },
                                  targets: names.map { .target(name: $0) })

            """)
        f.write("Kit/Sources/Kit/Kit.swift", "func kit() {}\n")
        // Hostile: nesting past any person's manifest, on the thread that
        // reads the project (swift-syntax recurses per level), and packages
        // that depend on each other.
        f.targets[1].packageProducts = [.init(name: "Deep", local: "Deep"), .init(name: "Chain", local: "Chain"), .init(name: "A", local: "A")]
        f.write("Deep/Package.swift", "let package = Package(name: \"Deep\", products: " + String(repeating: "[", count: 200_000) + "\n")
        f.write("Chain/Package.swift", "let package = Package(name: \"Chain\", products: [.library(name: \"Chain\", targets: "
                + String(repeating: "try ", count: 50_000) + "[\"Chain\"])], targets: [.target(name: \"Chain\")])\n")
        for (name, other) in [("A", "B"), ("B", "A")] {
            f.write("\(name)/Package.swift", """
                let package = Package(name: "\(name)", products: [.library(name: "\(name)", targets: ["\(name)"])],
                                      dependencies: [.package(path: "../\(other)")],
                                      targets: [.target(name: "\(name)", dependencies: ["\(other)"])])

                """)
            f.write("\(name)/Sources/\(name)/\(name).swift", "func f\(name)() {}\n")
        }
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath, packages: PackageManifestReader()).get()
        let app = try #require(lint.project.targets.first { $0.name == "App" })
        #expect(!lint.project.code(of: app).unread.isEmpty && lint.project.code(of: app).swiftSources.count == 1)
        #expect(lint.run().contains { $0.message.hasPrefix("the code check does not read product 'Kit' of the local package at '") }, "\(lint.run().map(\.message))")
        let widget = try #require(lint.project.targets.first { $0.name == "Widget" })
        #expect(lint.project.packageModules.map(\.name).sorted() == ["A", "B"])
        #expect(lint.project.code(of: widget).swiftSources.map { ($0 as NSString).lastPathComponent } == ["Provider.swift", "A.swift", "B.swift"])
        #expect(!lint.project.code(of: widget).unread.isEmpty)  // Deep is not read
    }

    @Test func aTargetsDependenciesBuiltInCodeAreFollowedOrSaidUnread() throws {
        // Omnivore's `App` target takes its dependencies from a computed
        // var that starts from a literal and appends; its modules' code
        // was not read and the lint said "no warnings" (real-project trial 14, D1).
        var f = XcodeFixture.appLinkingKit("""
                products: [.library(name: "Kit", targets: ["Kit"]), .library(name: "Loose", targets: ["Loose"])],
                dependencies: packages,
                targets: [
                    .target(name: "Kit", dependencies: kitDependencies),
                    .target(name: "Store"),
                    .target(name: "Joined", dependencies: ["Store"] + extra),
                    .target(name: "Extra"),
                    .target(name: "Loose", dependencies: looseDependencies),
                ]
            )
            let extra: [Target.Dependency] = ["Extra"]
            var kitDependencies: [Target.Dependency] {
                var deps: [Target.Dependency] = ["Joined"]
                // A comment between the statements.
                deps.append(.product(name: "Remote", package: "remote"))
                deps += ["Store"]
                return deps
            }
            var packages: [Package.Dependency] {
                var deps: [Package.Dependency] = []
                if true { deps.append(.package(url: "https://example.com/remote", from: "1.0.0")) }
                return deps
            }
            var looseDependencies: [Target.Dependency] {
                var deps: [Target.Dependency] = []
                for name in ["Store"] { deps.append(.target(name: name)) }
                return deps
            }

            """)
        defer { f.remove() }
        f.write("Kit/Sources/Kit/Kit.swift", "func kit() {}\n")
        f.write("Kit/Sources/Joined/Joined.swift", "func joined() {}\n")
        f.write("Kit/Sources/Loose/Loose.swift", "func loose() {}\n")
        f.writeKitModule("Store")
        f.writeKitModule("Extra")
        f.targets[1].packageProducts = [.init(name: "Loose", local: "Kit")]
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath, packages: PackageManifestReader()).get()
        let app = try #require(lint.project.targets.first { $0.name == "App" })
        #expect(lint.project.code(of: app).swiftSources.map { ($0 as NSString).lastPathComponent }.sorted()
                == ["Extra.swift", "Joined.swift", "KeychainStore.swift", "Kit.swift", "Store.swift"])
        let found = CodeCheck.run(lint).filter { $0.code == .codeGroupNotEntitled }.map(\.message)
        #expect(found.contains { $0.contains("com.example.Store") } && found.contains { $0.contains("com.example.Extra") }, "\(found)")
        // A list kcs does not follow is said, at its place in the manifest.
        let said = lint.run()
        let loose = try #require(said.first { $0.message.contains("looseDependencies") }, "\(said.map(\.message))")
        #expect(loose.code == .projectSetting && loose.severity == .warning)
        #expect(loose.file?.name.hasSuffix("Kit/Package.swift") == true && loose.range.map { loose.file?.location(of: $0.start).line } == 11, "\(loose.message)")
        #expect(loose.message.contains("the dependencies of package target 'Loose'"), "\(loose.message)")
        #expect(!said.contains { $0.message.contains("kitDependencies") || $0.message.contains("packages") }, "\(said.map(\.message))")
    }

    @Test func aCTargetsListsKcsDoesNotFollowAreNotSaid() throws {
        // Provenance's emulator cores: `sources: Sources.PSX.map { … }` of
        // C and C++ targets gave 32 "kcs does not follow the sources",
        // hinting to write the list out, which would check nothing: kcs
        // reads no C (real-project trial 16, D7). A Swift target's is said.
        let f = XcodeFixture.appLinkingKit("""
                products: [.library(name: "Kit", targets: ["Kit"])],
                targets: [
                    .target(name: "Kit", dependencies: ["Core", "CxxCore", "Helpers"]),
                    .target(name: "Core", path: "Sources/core", sources: files.map { "src/\\($0)" }, cSettings: [.define("CORE")]),
                    .target(name: "CxxCore", sources: files.map { "src/\\($0)" }, cxxSettings: [.define("CORE")]),
                    .target(name: "Helpers", sources: files.map { "src/\\($0)" }, cSettings: [.define("CORE")], swiftSettings: []),
                ]
            )
            let files = ["a.c", "b.c"]

            """)
        defer { f.remove() }
        f.write("Kit/Sources/Kit/Kit.swift", "func kit() {}\n")
        f.write("Kit/Sources/core/src/a.c", "int a;\n")
        f.writeProject()
        let said = try ProjectLint.load(f.projectPath, packages: PackageManifestReader()).get().run().map(\.message).filter { $0.contains("does not follow") }
        #expect(said == ["kcs does not follow the sources of package target 'Helpers' in this manifest (`files.map { \"src/\\($0)\" }`): the code it leaves out is not checked"], "\(said)")
    }

    @Test func aProductOfAManifestWhoseProductsKcsDoesNotFollowIsSaidAtTheManifest() throws {
        // CodexBar builds `products:` in a closure: a product its widget
        // links was "of a package none of the project's local packages
        // declares", which it does (real-project trial 16, D8). Said at the
        // manifest's `products:`, whether or not the project names the package.
        var f = XcodeFixture.appLinkingKit("""
                products: {
                    let products: [Product] = [.library(name: "Kit", targets: ["Kit"])]
                    return products
                }(),
                targets: [.target(name: "Kit")]
            )

            """)
        defer { f.remove() }
        f.write("Kit/Sources/Kit/Kit.swift", "func kit() {}\n")
        for legacy in [false, true] {
            f.targets[0].packageProducts = [.init(name: "Kit", local: "Kit", legacy: legacy)]
            f.writeProject()
            let said = try ProjectLint.load(f.projectPath, packages: PackageManifestReader()).get().run().filter { $0.message.contains("product 'Kit'") }
            #expect(said.map(\.message) == ["the code check does not read product 'Kit' of the local package at '\(f.path("Kit"))', whose products: kcs does not follow (`{…`)"],
                    "legacy \(legacy): \(said.map(\.message))")
            #expect(said.first?.file?.name == f.path("Kit/Package.swift") && said.first?.location?.line == 4, "legacy \(legacy): \(said.map { $0.file?.name ?? "" })")
        }
    }

    @Test func aSiblingPackageNamedByIdentityIsRead() throws {
        // feditext's packages sit side by side and name each other as
        // `.package(path: "ServiceLayer")`; Xcode uses the project's local
        // package of that identity. kcs looked in `Kit/Store` and dropped
        // the product without a word (real-project trial 16, D1).
        var f = XcodeFixture.appLinkingKit("""
                products: [.library(name: "Kit", targets: ["Kit"])],
                dependencies: [.package(path: "Store"), .package(path: "Gone"), .package(url: "https://example.com/remote", from: "1.0.0")],
                targets: [.target(name: "Kit", dependencies: [.product(name: "Store", package: "Store"), .product(name: "Gone", package: "Gone"), "RemoteKit"])]
            )

            """)
        defer { f.remove() }
        f.write("Kit/Sources/Kit/Kit.swift", "func kit() {}\n")
        f.write("Store/Package.swift", "import PackageDescription\nlet package = Package(name: \"Store\", products: [.library(name: \"Store\", targets: [\"Store\"])], targets: [.target(name: \"Store\")])\n")
        f.write("Store/Sources/Store/Store.swift", "func store() {}\n")
        f.targets[1].packageProducts = [.init(name: "Store", local: "Store")]
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath, packages: PackageManifestReader()).get()
        #expect(try swiftFileNames(of: "App", in: lint) == ["KeychainStore.swift", "Kit.swift", "Store.swift"])
        let said = lint.run().map(\.message)
        #expect(said.contains { $0.hasPrefix("the code check does not read product 'Gone', which package module 'Kit' of the local package at '") && $0.contains("/Kit/Gone'") },
                "\(said)")
        // A product named alone may be a remote package's: not said so.
        #expect(!said.contains { $0.contains("'RemoteKit'") }, "\(said)")
    }

    @Test func anAbsentPackageTwoPackagesDependOnIsSaidOnce() throws {
        // Proton Pass: modules of LocalPackages/Client and of
        // LocalPackages/UseCases depend on ../PassRustCore, which a script
        // generates; the one absent package was said twice (KCS602).
        var f = XcodeFixture.appLinkingKit("""
                products: [.library(name: "Kit", targets: ["Kit"])],
                dependencies: [.package(name: "Gone", path: "../Gone")],
                targets: [.target(name: "Kit", dependencies: [.product(name: "Gone", package: "Gone")])]
            )

            """)
        defer { f.remove() }
        f.write("Kit/Sources/Kit/Kit.swift", "func kit() {}\n")
        f.write("Store/Package.swift", """
            import PackageDescription
            let package = Package(name: "Store", products: [.library(name: "Store", targets: ["Store"])],
                                  dependencies: [.package(name: "Gone", path: "../Gone")],
                                  targets: [.target(name: "Store", dependencies: [.product(name: "Gone", package: "Gone")])])

            """)
        f.write("Store/Sources/Store/Store.swift", "func store() {}\n")
        f.targets[1].packageProducts = [.init(name: "Store", local: "Store")]
        f.writeProject()
        let said = try ProjectLint.load(f.projectPath, packages: PackageManifestReader()).get().run().map(\.message).filter { $0.contains("'Gone'") }
        #expect(said == ["the code check does not read product 'Gone', which package modules 'Kit' of the local package at '\(f.path("Kit"))' "
                            + "and 'Store' of the local package at '\(f.path("Store"))' depend on: no Package.swift at '\(f.path("Gone"))' "
                            + "and no local package of the project named so"], "\(said)")
    }

    @Test func aFrameworksPhaseSharedByManyTargetsIsWorkedOutOnce() throws {
        // 60 targets share one Frameworks phase of 300 products of another
        // project: the phase is walked once, not once per target (1,000
        // targets × 3,000 products took 34 s, each product searched for in
        // the list of those met; adversarial run 25, F4). Seen failing
        // without the fix: 18,060 build files looked up.
        let f = XcodeFixture()
        defer { f.remove() }
        var objects: [String] = [], next = 0
        func id() -> String { next += 1; return String(format: "%024X", next) }
        let portal = id(), remote = id()
        objects.append("\(portal) = {isa = PBXFileReference; path = \"Other.xcodeproj\"; sourceTree = \"<group>\";};")
        objects.append("\(remote) = {isa = PBXContainerItemProxy; containerPortal = \(portal); proxyType = 2;};")
        var buildFiles: [String] = []
        for k in 0..<300 {
            let proxy = id(), file = id()
            buildFiles.append(file)
            objects.append("\(proxy) = {isa = PBXReferenceProxy; path = \"l\(k).a\"; remoteRef = \(remote);};")
            objects.append("\(file) = {isa = PBXBuildFile; fileRef = \(proxy);};")
        }
        let source = id(), sourceFile = id(), group = id(), main = id(), phase = id(), sources = id(), configuration = id(), list = id()
        objects.append("\(source) = {isa = PBXFileReference; path = \"A.swift\"; sourceTree = \"<group>\";};")
        objects.append("\(sourceFile) = {isa = PBXBuildFile; fileRef = \(source);};")
        objects.append("\(group) = {isa = PBXGroup; children = (\(source), \(portal)); path = App; sourceTree = \"<group>\";};")
        objects.append("\(main) = {isa = PBXGroup; children = (\(group)); sourceTree = \"<group>\";};")
        objects.append("\(phase) = {isa = PBXFrameworksBuildPhase; files = (\(buildFiles.joined(separator: ", "))); };")
        objects.append("\(sources) = {isa = PBXSourcesBuildPhase; files = (\(sourceFile)); };")
        objects.append("\(configuration) = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = \"com.example.$(TARGET_NAME)\"; "
                       + "DEVELOPMENT_TEAM = SKMME9E2Y8; SDKROOT = iphoneos;}; name = Release;};")
        objects.append("\(list) = {isa = XCConfigurationList; buildConfigurations = (\(configuration)); defaultConfigurationName = Release;};")
        var targets: [String] = []
        for t in 0..<60 {
            let target = id()
            targets.append(target)
            objects.append("\(target) = {isa = PBXNativeTarget; buildConfigurationList = \(list); buildPhases = (\(sources), \(phase)); "
                           + "name = T\(t); productType = \"com.apple.product-type.application\";};")
        }
        let project = id()
        objects.append("\(project) = {isa = PBXProject; buildConfigurationList = \(list); mainGroup = \(main); targets = (\(targets.joined(separator: ", ")));};")
        f.write("App.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{ archiveVersion = 1; objectVersion = 77; objects = {\n"
                + objects.joined(separator: "\n") + "\n}; rootObject = \(project); }\n")
        f.write("App/A.swift", "import Security\n")
        let loaded = try XcodeProject.load(f.path("App.xcodeproj"), packages: PackageManifestReader()).get()
        #expect(loaded.buildFilesWalked == 301)
        // What each target links is still said, each once.
        #expect(loaded.targets.count == 60)
        // Each keeps the first 16 and counts the rest (adversarial run 25, F4:
        // 3,000 names a target, 200 targets).
        #expect(loaded.targets.allSatisfy { $0.unreadCode.count == 16 && $0.unreadCodeMore == 284 && $0.unreadCode.first == "the library 'l0.a'" })
        let code = loaded.code(of: loaded.targets[0])
        #expect(code.unread.count == 16 && code.unreadCount == 300)
        let said = loaded.issues.map(\.message).filter { $0.contains("another Xcode project") }
        #expect(said == ["the code check does not read the code of '\(f.path("App/Other.xcodeproj"))', another Xcode project, which is absent: "
                            + "targets 'T0', 'T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7' and 52 more link its products "
                            + "'l0.a', 'l1.a', 'l2.a', 'l3.a', 'l4.a', 'l5.a', 'l6.a', 'l7.a' and 292 more"], "\(said)")
    }

    @Test func codeOfAnotherProjectOrADevelopmentPodIsSaidUnread() throws {
        // A framework of a sibling .xcodeproj that the app links, and
        // CocoaPods' development pods, hold code the check does not read:
        // nothing said so (real-project trial 18, D6).
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[0].frameworks = ["Kit.framework"]
        f.targets[1].frameworks = ["Kit.framework"]
        f.writeProject()
        // No project of it referred to: a framework no target builds, said
        // as such (real-project trial 22, D3).
        let quiet = try ProjectLint.load(f.projectPath, packages: PackageManifestReader()).get().run().map(\.message)
        #expect(quiet.filter { $0.contains("the code check does not read") }
                == ["the code check does not read the code of 'Kit.framework', which no target of this project builds: targets 'App', 'Widget' link it"], "\(quiet)")
        let pbxproj = f.path("App.xcodeproj/project.pbxproj")
        var text = try String(contentsOfFile: pbxproj, encoding: .utf8)
        text = text.replacingOccurrences(of: "{isa = PBXFileReference; path = \"Kit.framework\";",
                                         with: "{isa = PBXReferenceProxy; remoteRef = FF0000000000000000000002; path = \"Kit.framework\";")
        text = text.replacingOccurrences(of: "\t};\n\trootObject", with: """
            \t\tFF0000000000000000000001 /* Kit.xcodeproj */ = {isa = PBXFileReference; lastKnownFileType = "wrapper.pb-project";
            \t\t\tpath = "Kit/Kit.xcodeproj"; sourceTree = SOURCE_ROOT;};
            \t\tFF0000000000000000000002 = {isa = PBXContainerItemProxy; containerPortal = FF0000000000000000000001; proxyType = 2; remoteInfo = Kit;};
            \t};
            \trootObject
            """)
        try text.write(toFile: pbxproj, atomically: true, encoding: .utf8)
        f.write("Podfile", """
            platform :ios, '17.0'
            target 'App' do
              pod 'Alamofire', '~> 5.0'
              pod 'LocalKit', :path => '../LocalKit'  # beside the app
              pod "Other", path: "Vendor/Other"
            # pod 'Old', :path => 'Old'
            end

            """)
        f.write("Kit/Kit.xcodeproj/project.pbxproj", "{ objects = { A = {isa = PBXFileReference; path = Kit.swift;}; }; }\n")
        let said = try ProjectLint.load(f.projectPath, packages: PackageManifestReader()).get().run().filter { $0.message.contains("the code check does not read") }
        let lines = said.map { "\($0.file?.name ?? "-"):\($0.location.map { "\($0.line):\($0.column)" } ?? "-") \($0.severity) \($0.message) | \($0.hint ?? "")" }
        let unchecked = "| the groups its code names, if any, are not checked: kcs reads the code of one project, its targets and local packages"
        #expect(lines == [
            "\(pbxproj):\(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("path = \"Kit/Kit.xcodeproj\"") }.map { $0 + 1 } ?? 0):11 warning "
                + "the code check does not read the code of '\(f.path("Kit/Kit.xcodeproj"))', another Xcode project: targets 'App', 'Widget' link its product 'Kit.framework' "
                + unchecked,
            "\(f.path("Podfile")):4:3 warning the code check does not read the code of development pods 'LocalKit' (../LocalKit), 'Other' (Vendor/Other), "
                + "which CocoaPods builds in its own project " + unchecked,
        ], "\(lines)")
        // A project that lists no Swift (a C library) names no group to
        // check; an absent one is said so (real-project trial 20, W4).
        func kit() throws -> [String] {
            try ProjectLint.load(f.projectPath, packages: PackageManifestReader()).get().run().map(\.message).filter { $0.contains("another Xcode project") }
        }
        f.write("Kit/Kit.xcodeproj/project.pbxproj", "{ objects = { A = {isa = PBXFileReference; path = kit.c;}; }; }\n")
        #expect(try kit() == [])
        try FileManager.default.removeItem(atPath: f.path("Kit"))
        #expect(try kit() == ["the code check does not read the code of '\(f.path("Kit/Kit.xcodeproj"))', another Xcode project, which is absent: "
                              + "targets 'App', 'Widget' link its product 'Kit.framework'"])
        // Not when no code is read (kcs import xcode).
        #expect(!XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions()).diagnostics.contains { $0.message.contains("does not read") })
    }

    @Test func oneFindingAtOnePlaceIsSaidOnceForAllItsTargets() throws {
        // A setting defined nowhere on a line of the xcconfig every target
        // uses was a warning per target when their configurations differed
        // (real-project trial 18, W1): said once, each target with its own.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("Config/Base.xcconfig", """
            #include "Team.xcconfig"
            BUNDLE_PREFIX = com.example
            PRODUCT_BUNDLE_IDENTIFIER = $(BUNDLE_PREFIX).$(PRODUCT_NAME:rfc1034identifier)$(SUFFIX)

            """)
        f.targets[2].settings["Debug"] = ["PRODUCT_NAME": "Share", "CODE_SIGN_ENTITLEMENTS": "Share/Share.entitlements"]
        f.writeProject()
        func said() throws -> [String] {
            try ProjectLint.load(f.projectPath).get().run().filter { $0.message.contains("$(SUFFIX)") }.map {
                "\((($0.file?.name ?? "-") as NSString).lastPathComponent):\($0.file?.name.hasSuffix(".xcconfig") == true ? "\($0.location?.line ?? 0)" : "-") \($0.message)"
            }
        }
        let defines = "uses $(SUFFIX), which no level of the project defines; Xcode expands it to nothing"
        let different = try said()
        #expect(different == [
            "Base.xcconfig:3 PRODUCT_BUNDLE_IDENTIFIER (target 'App', configurations 'Debug', 'Release'; target 'Share Extension', configuration 'Debug') " + defines,
            "project.pbxproj:- PRODUCT_BUNDLE_IDENTIFIER (target 'Widget', configurations 'Debug', 'Release') " + defines,
        ], "\(different)")
        f.targets[2].settings["Release"] = f.targets[2].settings["Debug"]
        f.writeProject()
        let same = try said()
        #expect(same == [
            "Base.xcconfig:3 PRODUCT_BUNDLE_IDENTIFIER (targets 'App', 'Share Extension', configurations 'Debug', 'Release') " + defines,
            "project.pbxproj:- PRODUCT_BUNDLE_IDENTIFIER (target 'Widget', configurations 'Debug', 'Release') " + defines,
        ], "\(same)")
    }

    @Test func listsJoinedWithPlusAreFollowedOnceEach() throws {
        // `let a1 = a0 + a0 + …` ten times a level, eight levels: 10^8
        // parts, each followed anew, ran past 60 s even with empty lists
        // (adversarial 20, M2). Each name's list is followed once.
        var levels = ["let a0: [Target.Dependency] = []"]
        for level in 1...8 {
            levels.append("let a\(level) = " + Array(repeating: "a\(level - 1)", count: 10).joined(separator: " + "))
        }
        // A list that joins itself is a cycle: not followed, and said.
        levels.append("let c = c + c + c + c + c + c + c + c + c + c")
        var f = XcodeFixture.appLinkingKit("""
                products: [.library(name: "Kit", targets: ["Kit"]), .library(name: "Loop", targets: ["Loop"])],
                targets: [.target(name: "Kit", dependencies: a8 + ["Store"] + a8), .target(name: "Store"), .target(name: "Loop", dependencies: c)]
            )
            \(levels.joined(separator: "\n"))

            """)
        defer { f.remove() }
        f.write("Kit/Sources/Kit/Kit.swift", "func kit() {}\n")
        f.write("Kit/Sources/Loop/Loop.swift", "func loop() {}\n")
        f.writeKitModule("Store")
        f.targets[1].packageProducts = [.init(name: "Loop", local: "Kit")]
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath, packages: PackageManifestReader()).get()
        #expect(try swiftFileNames(of: "App", in: lint) == ["KeychainStore.swift", "Kit.swift", "Store.swift"])
        let said = lint.run().map(\.message)
        #expect(said.contains { $0.contains("the dependencies of package target 'Loop'") && $0.contains("`c`") }, "\(said)")
    }

    @Test func ifConditionsAreAnsweredForEachBuild() throws {
        // `#if os(…)` and flags are the build's: a group under a branch this
        // build does not compile is no failure, under one it does it is.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        f.projectSettings["Debug"]?["SWIFT_ACTIVE_COMPILATION_CONDITIONS"] = "DEBUG $(inherited)"
        f.projectSettings["Release"]?["OTHER_SWIFT_FLAGS"] = "-D STAGING"
        func call(_ group: String) -> String {
            "    _ = SecItemAdd([kSecClass as String: kSecClassGenericPassword, kSecAttrAccessGroup as String: \"\(team).\(group)\"] as CFDictionary, nil)\n"
        }
        f.write("App/KeychainStore.swift", "import Security\nfunc save() {\n#if os(macOS) /* the Mac */ || /* never */ false\n" + call("Mac") + "#elseif os(iOS) && !targetEnvironment(macCatalyst)\n"
                + call("Phone") + "#else\n" + call("Other") + "#endif\n#if DEBUG\n" + call("Debug") + "#elseif STAGING\n" + call("Staging")
                + "#endif\n#if arch(arm64)\n" + call("Arm") + "    _ = SecItemAdd([kSecAttrAccessGroup as String: name()] as CFDictionary, nil)\n"
                + "#endif\n#if canImport(UIKit) && swift(>=5.9)\n" + call("Kit") + "#endif\n}\n")
        f.writeProject()
        func said(_ configuration: String) throws -> [String] {
            let lint = try ProjectLint.load(f.projectPath, configuration: configuration).get()
            return CodeCheck.run(lint).filter { $0.file?.name.hasSuffix("KeychainStore.swift") == true && $0.message.hasPrefix("target 'App'") }
                .map { "\($0.code.rawValue) \($0.message.split(separator: ",").first ?? "")" }
        }
        let debug = try said("Debug"), release = try said("Release")
        #expect(debug == [
            "KCS607 target 'App' (configuration 'Debug') names the access group \(team).Phone (under #if os(iOS) && !targetEnvironment(macCatalyst)",
            "KCS607 target 'App' (configuration 'Debug') names the access group \(team).Debug (under #if DEBUG",
            "KCS608 target 'App' (configuration 'Debug') names the access group \(team).Arm under #if arch(arm64)",
            "KCS608 target 'App' (configuration 'Debug') passes kSecAttrAccessGroup a value built at run time (name()) under #if arch(arm64): kcs cannot check it",
            "KCS608 target 'App' (configuration 'Debug') names the access group \(team).Kit under #if canImport(UIKit) && swift(>=5.9)",
        ], "\(debug)")
        #expect(release.contains("KCS607 target 'App' (configuration 'Release') names the access group \(team).Staging (under #if STAGING"), "\(release)")
        #expect(!release.contains { $0.contains(".Debug") || $0.contains(".Mac") || $0.contains(".Other") }, "\(release)")
        // Flags from an xcconfig kcs cannot read are not known: "cannot tell".
        f.targets[0].xcconfig = ["Debug": "Config/Missing.xcconfig"]
        f.writeProject()
        let unread = try said("Debug")
        #expect(unread.contains("KCS608 target 'App' (configuration 'Debug') names the access group \(team).Debug under #if DEBUG"), "\(unread)")
        #expect(unread.contains { $0.hasPrefix("KCS607") && $0.contains(".Phone") }, "\(unread)")
    }

    @Test func aFrameworksIfsAreAnsweredWithItsOwnFlags() throws {
        // SharedKit defines KIT; the app does not: the framework's `#if KIT`
        // is compiled into the app, its `#if !KIT` is not.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        let kit = ["SWIFT_ACTIVE_COMPILATION_CONDITIONS": "KIT", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.Kit"]
        f.targets.append(XcodeFixture.Target(name: "SharedKit", productType: "com.apple.product-type.framework",
                                             settings: ["Debug": kit, "Release": kit], sources: ["Vault.swift"]))
        f.targets[0].links = ["SharedKit"]
        func call(_ g: String) -> String {
            "_ = SecItemAdd([kSecAttrAccessGroup as String: \"\(team).\(g)\"] as CFDictionary, nil)\n"
        }
        f.write("SharedKit/Vault.swift", "import Security\nfunc store() {\n#if KIT\n" + call("Kit") + "#else\n" + call("NoKit") + "#endif\n}\n")
        f.writeProject()
        let d = try f.codeFindings()
            .filter { $0.file?.name.hasSuffix("Vault.swift") == true }.map { "\($0.code.rawValue) \($0.message.prefix { $0 != ":" })" }
        #expect(d == ["KCS607 target 'App' (configuration 'Release') (in 'SharedKit', which it links) names the access group \(team).Kit (under #if KIT, which this build compiles), which it is not entitled to"], "\(d)")
        // A second framework compiling the same file without KIT compiles its #else.
        f.targets.append(XcodeFixture.Target(name: "PlainKit", folder: "SharedKit", productType: "com.apple.product-type.framework",
                                             sources: ["Vault.swift"]))
        f.targets[0].links = ["SharedKit", "PlainKit"]
        f.writeProject()
        let both = try f.codeFindings().filter { $0.file?.name.hasSuffix("Vault.swift") == true }
        #expect(both.contains { $0.message.contains("\(team).Kit (under #if KIT") } && both.contains { $0.message.contains("\(team).NoKit (under #else") },
                "\(both.map(\.message))")
    }

    @Test func appGroupsNamedInCodeAreChecked() throws {
        // The app holds group.com.example.notes; the widget no app group.
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("App/KeychainStore.swift", """
            import Foundation
            let good = UserDefaults(suiteName: "group.com.example.notes")
            let typo = UserDefaults(suiteName: "group.com.example.notez")
            let url = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.other")
            func suite(_ name: String) -> UserDefaults? { UserDefaults(suiteName: name) }
            let own = UserDefaults(suiteName: "com.example.Notes.debug")
            let spelled = UserDefaults.init(suiteName: "group.com.example.spelled")
            let other = EncryptedUserDefaults(suiteName: "group.com.example.encrypted")

            """)
        f.write("Widget/Provider.swift", "import Foundation\nlet shared = UserDefaults(suiteName: \"group.com.example.notes\")\n")
        f.writeProject()
        let d = try f.codeFindings().filter { $0.message.contains("app group") }
            .map { "\($0.file.map { ProjectPath.lastComponent($0.name) } ?? ""):\($0.location?.line ?? 0) \($0.message.prefix { $0 != ":" })" }
        #expect(d == [
            "KeychainStore.swift:3 target 'App' (configuration 'Release') names the app group group.com.example.notez, which it is not entitled to",
            "KeychainStore.swift:4 target 'App' (configuration 'Release') names the app group group.com.example.other, which it is not entitled to",
            "KeychainStore.swift:7 target 'App' (configuration 'Release') names the app group group.com.example.spelled, which it is not entitled to",
            "Provider.swift:2 target 'Widget' (configuration 'Release') names the app group group.com.example.notes, which it is not entitled to",
        ], "\(d)")
    }

    @Test func aBaseLessInitWithASuiteNameIsUserDefaults() throws {
        // Passbolt's `let defaults: UserDefaults = .init(suiteName: "group.…")
        // ?? .standard` was not checked (real-project trial 16, D3).
        // `suiteName:` is UserDefaults' own label: only a declared other type
        // is something else.
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("App/KeychainStore.swift", """
            import Foundation
            let a: UserDefaults = .init(suiteName: "group.com.example.typo1") ?? .standard
            let b: UserDefaults? = .init(suiteName: "group.com.example.typo2")
            let c: Foundation.UserDefaults = .init(suiteName: "group.com.example.typo3")!
            func use(_ d: UserDefaults?) {}
            let d: Void = use(.init(suiteName: "group.com.example.typo4"))
            let e: Store = .init(suiteName: "group.com.example.store")
            let f: Store? = .init(suiteName: "group.com.example.store") ?? nil
            let good: UserDefaults? = .init(suiteName: "group.com.example.notes")

            """)
        f.writeProject()
        let d = try f.codeFindings().filter { $0.message.contains("app group") }
            .map { "\($0.location?.line ?? 0) \($0.message.drop { $0 != "." }.prefix { $0 != "," })" }
        #expect(d == ["2 .com.example.typo1", "3 .com.example.typo2", "4 .com.example.typo3", "6 .com.example.typo4"], "\(d)")
    }

    @Test func oneMisspeltConstantIsSaidOnceAtItsDeclaration() throws {
        // nightguard: one misspelt APP_GROUP_ID gave a KCS607 at each of its
        // 38 uses and none at the constant, the one line to fix
        // (real-project trial 16, D4). A constant used once is said at the
        // use, with a note at the constant, as before.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[0].sources = ["Constants.swift", "KeychainStore.swift", "Settings.swift"]
        f.write("App/Constants.swift", """
            enum AppConstants {
                static let group = "group.com.example.notez"
                static let once = "group.com.example.other"
            }

            """)
        f.write("App/KeychainStore.swift", """
            import Foundation
            let a = UserDefaults(suiteName: AppConstants.group)
            let b = UserDefaults(suiteName: AppConstants.group)
            let c = UserDefaults(suiteName: AppConstants.once)

            """)
        f.write("App/Settings.swift", """
            import Foundation
            func load() {
                _ = UserDefaults(suiteName: AppConstants.group)
                _ = UserDefaults(suiteName: AppConstants.group)
                _ = UserDefaults(suiteName: AppConstants.group)
            }

            """)
        f.writeProject()
        let d = try f.codeFindings().filter { $0.code == .codeGroupNotEntitled && $0.file?.name.contains("/App/") == true }
        let at = d.map { "\(ProjectPath.lastComponent($0.file?.name ?? "")):\($0.location?.line ?? 0)" }
        #expect(at == ["Constants.swift:2", "KeychainStore.swift:4"], "\(d.map(\.message))")
        let folded = try #require(d.first)
        #expect(folded.message.hasSuffix("(said once for its 5 uses)"), "\(folded.message)")
        #expect(folded.notes.map(\.message) == ["used here", "used here", "used here", "and 2 more uses"], "\(folded.notes.map(\.message))")
        #expect(folded.notes.prefix(3).map { n in "\(ProjectPath.lastComponent(n.file?.name ?? "")):\(n.range.flatMap { n.file?.location(of: $0.start).line } ?? 0)" }
                == ["KeychainStore.swift:2", "KeychainStore.swift:3", "Settings.swift:3"])
        #expect(d.last?.notes.map(\.message) == ["the constant is declared here"])
    }

    @Test func codeIsNotJudgedAgainstEntitlementsKcsCannotRead() throws {
        // A missing file grants nothing kcs knows of: its lint warning says
        // so, and the code's groups are not sure failures.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[0].settings["Release"]?["CODE_SIGN_ENTITLEMENTS"] = "App/Missing.entitlements"
        f.write("App/KeychainStore.swift", "import Security\nlet q = [kSecAttrAccessGroup as String: \"SKMME9E2Y8.com.example.Anything\"]\n")
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath).get()
        #expect(lint.run().contains { $0.message.contains("Missing.entitlements") })
        #expect(!CodeCheck.run(lint).contains { $0.message.hasPrefix("target 'App'") && $0.code == .codeGroupNotEntitled })
    }

    @Test func aConstantWithAValuePerIfBranchIsTheBuildsOwn() throws {
        // `#if STAGING let group = "….staging" #else let group = "…" #endif`:
        // each build has one (it was "cannot check").
        let team = XcodeFixture.team
        let f = XcodeFixture.debugFlag("STAGING", source: """
            import Security
            enum Config {
                #if STAGING
                static let group = "\(team).com.example.Notes.staging"
                #else
                static let group = "\(team).com.example.Notes.shared"
                #endif
            }
            func read() -> OSStatus {
                SecItemCopyMatching([kSecAttrAccessGroup as String: Config.group] as CFDictionary, nil)
            }

            """)
        defer { f.remove() }
        func said(_ configuration: String) throws -> [String] {
            try f.codeFindings(configuration: configuration, in: "KeychainStore.swift").map { "\($0.code.rawValue) \($0.message.prefix { $0 != ":" })" }
        }
        let release = try said("Release"), debug = try said("Debug")
        // Each says the other's value goes unchecked (real-project trial 22, W2).
        let other = { (c: String, linted: String) in
            "KCS608 configuration '\(c)' compiles a group of the code under #if that configuration '\(linted)' does not compile" }
        #expect(release == [other("Debug", "Release")], "\(release)")
        #expect(debug == ["KCS607 target 'App' (configuration 'Debug') names the access group \(team).com.example.Notes.staging, which it is not entitled to",
                          other("Release", "Debug")], "\(debug)")
    }

    @Test func aGetterThatOnlyReturnsALiteralIsAConstant() throws {
        // Zotero: `static var identifier: String { return "group.…" }` was
        // "a value built at run time" (KCS608), and a wrong group there went
        // unreported; 2FAS: `{ #if DEV "group.dev.…" #else "group.…" #endif }`.
        let team = XcodeFixture.team
        let f = XcodeFixture.debugFlag("DEV", source: """
            import Security
            struct AppGroup {
                static var identifier: String {
                    return "\(team).com.example.Notes.wrong"
                }
                static var implicit: String { "\(team).com.example.Notes.implicit" }
                static var explicit: String { get { return "\(team).com.example.Notes.shared" } }
                static var perBuild: String {
                    #if DEV
                        "\(team).com.example.Notes.dev"
                    #else
                        "\(team).com.example.Notes.shared"
                    #endif
                }
                static var built: String { return "\(team)" + ".com.example.Notes.shared" }
            }
            func read() {
                _ = SecItemCopyMatching([kSecAttrAccessGroup as String: AppGroup.identifier] as CFDictionary, nil)
                _ = SecItemCopyMatching([kSecAttrAccessGroup as String: AppGroup.implicit] as CFDictionary, nil)
                _ = SecItemCopyMatching([kSecAttrAccessGroup as String: AppGroup.explicit] as CFDictionary, nil)
                _ = SecItemCopyMatching([kSecAttrAccessGroup as String: AppGroup.perBuild] as CFDictionary, nil)
                _ = SecItemCopyMatching([kSecAttrAccessGroup as String: AppGroup.built] as CFDictionary, nil)
            }

            """)
        defer { f.remove() }
        func said(_ configuration: String) throws -> [String] {
            try f.codeFindings(configuration: configuration, in: "KeychainStore.swift").filter { $0.message.hasPrefix("target 'App'") }
                .map { "\($0.code.rawValue) \($0.location?.line ?? 0) \($0.message.prefix { $0 != ":" })" }
        }
        let release = try said("Release"), debug = try said("Debug")
        let common = [
            "KCS607 18 target 'App' (configuration 'CONF') names the access group \(team).com.example.Notes.wrong, which it is not entitled to",
            "KCS607 19 target 'App' (configuration 'CONF') names the access group \(team).com.example.Notes.implicit, which it is not entitled to",
        ]
        // `AppGroup.built`, literals joined with `+`, is worked out: the
        // target's group (real-project trial 19, D3).
        func inConf(_ list: [String], _ c: String) -> [String] { list.map { $0.replacingOccurrences(of: "CONF", with: c) } }
        #expect(release == inConf(common, "Release"), "\(release)")
        #expect(debug == inConf(common + ["KCS607 21 target 'App' (configuration 'CONF') names the access group \(team).com.example.Notes.dev, which it is not entitled to"],
                                "Debug"), "\(debug)")
    }

    @Test func aGetterThatReturnsAnotherConstantIsFollowed() throws {
        // IVPN: `static var appGroupId: String { return Config.appGroup }`
        // was KCS608 for the keychain and nothing for the app-group APIs, so
        // a wrong Config.appGroup went unreported (real-project trial 18, D5).
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        f.targets[0].sources.append("Config.swift")
        f.write("App/Config.swift", """
            enum Config {
                static let appGroup = "group.com.example.notez"
                static let keychainGroup = "\(team).com.example.Notes.wrong"
            }

            """)
        f.write("App/KeychainStore.swift", """
            import Foundation
            import Security
            extension FileManager {
                static var appGroupId: String { return Config.appGroup }
                static var keychainGroupId: String { Config.keychainGroup }
                static var twice: String { appGroupId }
                static var elsewhere: String { return Bundle.main.bundlePath }
            }
            func f() {
                _ = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: FileManager.appGroupId)
                _ = UserDefaults(suiteName: FileManager.twice)
                _ = SecItemCopyMatching([kSecAttrAccessGroup as String: FileManager.keychainGroupId] as CFDictionary, nil)
                _ = SecItemCopyMatching([kSecAttrAccessGroup as String: FileManager.elsewhere] as CFDictionary, nil)
            }

            """)
        f.writeProject()
        let d = try f.codeFindings().filter { $0.message.hasPrefix("target 'App'") }
        let said = d.map { "\($0.code.rawValue) \($0.useLines) \($0.message.prefix { $0 != ":" })" }
        // Both app-group APIs from one constant: one finding, at the
        // constant, saying both (real-project trial 19, W2).
        #expect(said == [
            "KCS607 [10, 11] target 'App' (configuration 'Release') names the app group group.com.example.notez, which it is not entitled to",
            "KCS607 [12] target 'App' (configuration 'Release') names the access group \(team).com.example.Notes.wrong, which it is not entitled to",
            "KCS608 [13] target 'App' (configuration 'Release') passes kSecAttrAccessGroup a value built at run time (FileManager.elsewhere)",
        ], "\(said)")
        // The note is at the constant the chain ends at, where the typo is.
        func place(_ n: DiagnosticNote?) -> String {
            guard let n, let file = n.file, let range = n.range else { return "" }
            return "\(ProjectPath.lastComponent(file.name)):\(file.location(of: range.start).line)"
        }
        #expect(d.first.map { "\(ProjectPath.lastComponent($0.file?.name ?? "")):\($0.location?.line ?? 0)" } == "Config.swift:2")
        #expect(d.first?.message.hasSuffix(": UserDefaults(suiteName:) then keeps defaults of its own that no other target reads, "
                    + "and containerURL(forSecurityApplicationGroupIdentifier:) returns nil (said once for its 2 uses)") == true, "\(d.first?.message ?? "")")
        #expect(place(d.dropFirst().first?.notes.first) == "Config.swift:3")
    }

    @Test func aLocalLetBoundToAConstantIsFollowed() throws {
        // Windscribe: `let accessGroup = SharedKeys.group` then `accessGroup: accessGroup`.
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        f.write("App/KeychainStore.swift", """
            import Security
            enum SharedKeys { static let group = "\(team).com.example.Notes.wrong" }
            func set(accessGroup: String) -> OSStatus {
                SecItemAdd([kSecAttrAccessGroup as String: accessGroup] as CFDictionary, nil)
            }
            func save() -> OSStatus {
                let accessGroup = SharedKeys.group
                let again = accessGroup
                _ = set(accessGroup: again)
                return set(accessGroup: accessGroup)
            }

            """)
        f.writeProject()
        let d = try f.codeFindings()
            .filter { $0.file?.name.hasSuffix("KeychainStore.swift") == true }
        #expect(Diagnostic.byUse(d) == ["KCS607 9", "KCS607 10"], "\(d.map(\.message))")
    }

    @Test func buildConditionsAnswerInThreeValues() {
        let phone = BuildConditions(platform: "ios", flags: ["DEBUG"]), mac = BuildConditions(platform: "macos", flags: nil)
        #expect(phone.evaluate("DEBUG && os(iOS)") == true)
        #expect(phone.evaluate("!DEBUG || os(macOS)") == false)
        #expect(phone.evaluate("(os(watchOS) || os(tvOS)) && arch(arm64)") == false)
        #expect(phone.evaluate("os(iOS) && arch(arm64)") == nil)
        #expect(mac.evaluate("DEBUG") == nil)
        #expect(mac.evaluate("DEBUG && os(iOS)") == false)
        #expect(mac.evaluate("canImport(AppKit)") == true)
        #expect(BuildConditions(platform: "catalyst", flags: []).evaluate("os(iOS) && targetEnvironment(macCatalyst)") == true)
        // Text it cannot break down is never guessed.
        #expect(phone.evaluate("os(iOS) &&") == nil && phone.evaluate("((DEBUG)") == nil && phone.evaluate("") == nil)
        #expect(phone.evaluate(String(repeating: "(", count: 10_000) + "DEBUG" + String(repeating: ")", count: 10_000)) == nil)
        #expect(BuildConditions.flags(activeConditions: "DEBUG \"BETA\"", otherSwiftFlags: "-D STAGING -DFOO -Onone") == ["DEBUG", "BETA", "STAGING", "FOO"])
        // clang's macros are not Swift's flags.
        #expect(BuildConditions.flags(activeConditions: "", otherSwiftFlags: "-Xcc -DFOO -DBAR") == ["BAR"])
        // A target built for two platforms answers only what both answer alike.
        let both = BuildConditions(platform: "ios", flags: [], alsoBuiltFor: ["ios", "catalyst"])
        #expect(both.evaluate("os(iOS)") == true && both.evaluate("targetEnvironment(macCatalyst)") == nil && both.evaluate("os(watchOS)") == false)
        // A platform kcs does not model still counts, and each build has its own flags.
        let tv = BuildConditions(builds: [.init(platform: "ios", flags: ["A"]), .init(platform: "tvos", flags: nil)])
        #expect(tv.evaluate("os(tvOS)") == nil && tv.evaluate("os(watchOS)") == false && tv.evaluate("A") == nil)
        let perSDK = BuildConditions(builds: [.init(platform: "ios", flags: ["A"]), .init(platform: "catalyst", flags: ["A", "MAC"])])
        #expect(perSDK.evaluate("A") == true && perSDK.evaluate("MAC") == nil)
        // AppKit on Catalyst is not known.
        #expect(BuildConditions(platform: "catalyst", flags: []).evaluate("canImport(AppKit)") == nil)
        // A chain of #elseif answered once: the first clause that holds wins.
        var answered: [String: BuildConditions.Answered] = [:]
        let chain: [String?] = ["os(macOS)", "DEBUG", "os(iOS)", nil]
        let compiled = (0..<4).map { phone.compiles([IfBranch(decl: 0, conditions: chain, index: $0)], in: "f", answered: &answered) }
        #expect(compiled == [false, true, false, false] && answered.count == 1)
        let unknownFirst: [String?] = ["arch(arm64)", "os(iOS)", nil]
        // Either of the first two holds, so #else never does.
        #expect((0..<3).map { phone.compiles([IfBranch(decl: 1, conditions: unknownFirst, index: $0)], in: "f", answered: &answered) } == [nil, nil, false])
    }

    @Test func cocoaPodsFilesMissingAreSaidOnceWithPodInstall() throws {
        // Monal: 3 targets × 6 configurations gave 18 warnings, none saying why.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        for (i, name) in ["App", "Widget"].enumerated() {
            f.targets[i].xcconfig = ["Debug": "Pods/Target Support Files/Pods-\(name)/Pods-\(name).debug.xcconfig",
                                     "Release": "Pods/Target Support Files/Pods-\(name)/Pods-\(name).release.xcconfig"]
        }
        f.writeProject()
        let d = try ProjectLint.load(f.projectPath).get().run().filter { $0.message.contains("xcconfig") }
        #expect(d.count == 1, "\(d.map(\.message))")
        #expect(d.first?.message.hasPrefix("cannot read 4 xcconfig files CocoaPods writes, the first of them '") == true
                    && d.first?.message.hasSuffix(".xcconfig' (no such file)") == true, "\(d.first?.message ?? "")")
        #expect(d.first?.hint?.hasPrefix("run `pod install` first") == true && d.first?.location != nil)
    }

    @Test func anIncludeNotBesideItsIncluderIsReadFromTheSourceRoot() throws {
        // Flutter's Flutter/Release.xcconfig includes "Pods/Target Support
        // Files/…" and "Generated.xcconfig": the first is in the project
        // folder, as Xcode looks there after the includer's folder
        // (swift-build's MacroConfigFileLoader); kcs said `pod install`
        // after it had run (found on a real-project trial).
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.projectXCConfig = ["Debug": "Flutter/Release.xcconfig", "Release": "Flutter/Release.xcconfig"]
        f.write("Flutter/Release.xcconfig", "#include \"Pods/Target Support Files/Pods-Runner/Pods-Runner.release.xcconfig\"\n"
                + "#include \"Generated.xcconfig\"\n#include? \"Absent.xcconfig\"\n")
        f.write("Pods/Target Support Files/Pods-Runner/Pods-Runner.release.xcconfig", "KCS_FROM_PODS = root\n")
        // Beside the includer wins over the source root.
        f.write("Flutter/Generated.xcconfig", "KCS_GENERATED = beside\n")
        f.write("Generated.xcconfig", "KCS_GENERATED = root\n")
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath).get()
        let d = lint.run().filter { $0.message.contains("xcconfig") }
        #expect(d.isEmpty, "\(d.map(\.message))")
        let (assignments, issues) = lint.project.assignments(for: lint.project.targets[0], configuration: "Release", sdk: "iphoneos")
        #expect(issues.isEmpty, "\(issues.map(\.message))")
        #expect(assignments.filter { $0.name == "KCS_FROM_PODS" }.map(\.value) == ["root"])
        #expect(assignments.filter { $0.name == "KCS_GENERATED" }.map(\.value) == ["beside"])
        // Found in neither place: said beside the includer, but a Pods file
        // where CocoaPods writes it, the source root.
        f.write("Flutter/Release.xcconfig", "#include \"Other/Missing.xcconfig\"\n#include \"Pods/Gone.xcconfig\"\n")
        let missing = try ProjectLint.load(f.projectPath).get().run().filter { $0.message.contains("xcconfig") }.map(\.message)
        #expect(missing.count == 2 && missing.contains { $0.contains("Flutter/Other/Missing.xcconfig'") }
                    && missing.contains { $0.contains("/Pods/Gone.xcconfig'") && !$0.contains("Flutter/Pods") }, "\(missing)")
    }

    @Test func aDefaultConfigurationTheListLacksFallsBackToItsFirst() throws {
        // Proton Drive names `Release-External`, which its lists lack:
        // Xcode builds the first configuration, and kcs stopped with exit 64.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.defaultConfiguration = "Release-External"
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath).get()
        #expect(lint.project.defaultConfiguration == "Debug")
        #expect(!lint.run().contains { $0.message.contains("no configuration") })
    }

    @Test func aMissingFileIsSaidOnceWithItsTemplate() throws {
        // IVPN ships release.template.xcconfig for each developer to copy;
        // every target and configuration named the missing file (12 warnings).
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.projectXCConfig = ["Debug": "Config/Missing.xcconfig", "Release": "Config/Missing.xcconfig"]
        f.write("Config/Missing.template.xcconfig", "DEVELOPMENT_TEAM = SKMME9E2Y8\n")
        f.write("Config/Other.xcconfig", "#include \"Gone.xcconfig\"\n")
        f.targets[1].xcconfig = ["Release": "Config/Other.xcconfig"]
        f.targets[2].sources = ["Secrets.swift"]
        f.write("Share/Secrets.template.swift", "let key = \"\"\n")
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath).get()
        let unreadable = (lint.run() + CodeCheck.run(lint)).filter { $0.message.hasPrefix("cannot read") }
        #expect(unreadable.count == 3, "\(unreadable.map(\.message))")
        let missing = unreadable.first { $0.message.contains("Missing.xcconfig") }
        #expect(missing?.hint == "copy Missing.template.xcconfig to Missing.xcconfig first (the project's setup step); settings it would give are left out")
        let gone = unreadable.first { $0.message.contains("Gone.xcconfig") }
        #expect(gone?.hint == "settings it would give are left out; #include? marks a file that may be absent")
        #expect(unreadable.contains { $0.hint?.hasPrefix("copy Secrets.template.swift to Secrets.swift first") == true })
        // Nos ships EmptySecrets.xcconfig beside the missing Secrets.xcconfig (real-project trial 14, D8).
        f.targets[1].xcconfig = ["Release": "Config/Secrets.xcconfig"]
        f.write("Config/EmptySecrets.xcconfig", "API_KEY =\n")
        f.writeProject()
        let secrets = try ProjectLint.load(f.projectPath).get().run().first { $0.message.hasPrefix("cannot read") && $0.message.contains("Secrets.xcconfig") }
        #expect(secrets?.hint?.hasPrefix("copy EmptySecrets.xcconfig to Secrets.xcconfig first") == true, "\(secrets?.hint ?? "none")")
        // Sources of an absent folder: one warning for them all, naming the first (ios-pass; D8).
        f.targets[2].sources += ["Gone/A.swift", "Gone/B.swift", "Gone/C.swift"]
        f.writeProject()
        let lint2 = try ProjectLint.load(f.projectPath).get()
        let all2 = CodeCheck.run(lint2)
        let gone3 = all2.filter { $0.message.hasPrefix("cannot read") && $0.message.contains("Gone/") }
        #expect(gone3.count == 1 && gone3.first?.message.hasPrefix("cannot read 3 sources of target 'Share Extension', the first of them '") == true
                    && gone3.first?.message.hasSuffix("Gone/A.swift'") == true, "\(all2.map(\.message))")
    }

    @Test func sourcesCocoaPodsWritesAreSaidOnceForEveryTarget() throws {
        // ExpoModulesProvider.swift, absent until `pod install`, was said
        // once per target while the Pods xcconfigs were said once
        // (Rocket.Chat: 3 times; real-project trial 18, W5).
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[0].sources.append("../Pods/Target Support Files/Pods-App/ExpoModulesProvider.swift")
        f.targets[1].sources.append("../Pods/Target Support Files/Pods-Widget/ExpoModulesProvider.swift")
        f.targets[2].sources.append("../Pods/Target Support Files/Pods-Share/ExpoModulesProvider.swift")
        f.writeProject()
        let d = CodeCheck.run(try ProjectLint.load(f.projectPath).get()).filter { $0.message.hasPrefix("cannot read") }
        #expect(d.count == 1, "\(d.map(\.message))")
        #expect(d.first?.message.hasPrefix("cannot read 3 sources CocoaPods writes, of targets 'App', 'Widget', 'Share Extension', the first of them '") == true
                    && d.first?.message.hasSuffix("Pods/Target Support Files/Pods-App/ExpoModulesProvider.swift'") == true, "\(d.map(\.message))")
        #expect(d.first?.hint == "run `pod install` first: the Pods folder is CocoaPods' output, absent from a fresh clone; their groups are not checked")
        // One target's: said as before.
        f.targets[1].sources.removeLast()
        f.targets[2].sources.removeLast()
        f.writeProject()
        let one = CodeCheck.run(try ProjectLint.load(f.projectPath).get()).filter { $0.message.hasPrefix("cannot read") }
        #expect(one.count == 1 && one.first?.message.hasSuffix("ExpoModulesProvider.swift', a source of target 'App'") == true, "\(one.map(\.message))")
        #expect(one.first?.hint == "CocoaPods writes it: run `pod install` first; its groups are not checked")
    }

    @Test func aGroupBuiltFromAPlaceholderTeamIsNotReshaped() throws {
        // WireGuard's Developer.xcconfig copied from its template as it is:
        // after "DEVELOPMENT_TEAM … is '<team_id>', which is not a team ID",
        // each Mac target was told "app group <team_id>.group.<app_id> does
        // not start with group. — did you mean group.<team_id>.group.…?"
        // (real-project trial 18, W3).
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("Config/Team.xcconfig", "DEVELOPMENT_TEAM = <team_id>\n")
        f.projectSettings = ["Debug": ["SDKROOT": "macosx"], "Release": ["SDKROOT": "macosx"]]
        f.writeEntitlements("App/App.entitlements", keychain: [], appGroups: ["$(DEVELOPMENT_TEAM).group.com.example.notes", "com.example.suite"])
        f.writeProject()
        let d = try ProjectLint.load(f.projectPath).get().run()
        let said = d.map { "\($0.code.rawValue) \($0.message)" }
        #expect(said.contains { $0.hasPrefix("KCS602 DEVELOPMENT_TEAM of targets 'App', 'Widget', 'Share Extension', configurations 'Debug', 'Release' is '<team_id>'")
                    && $0.contains("'<team_id>', which is not a team ID") }, "\(said)")
        let shapes = said.filter { $0.hasPrefix("KCS511") }
        // The group written without any team is still said.
        #expect(shapes.count == 1 && shapes.first?.contains("app group com.example.suite does not start with group.") == true, "\(shapes)")
    }

    @Test func aMemberOfAValueLooksNothingUp() {
        // `key.accessGroup.value` with `key` a parameter: no constant named
        // `value` can be meant, and looking it up parsed every file saying
        // `value` (Phoenix: 365 of 368 files, 5.5 s).
        func lookups(_ code: String) -> Set<String> {
            AccessGroupFinder().lookups(in: AccessGroupFinder.parse(code), file: "S.swift")
        }
        let parameter = lookups("""
            import Security
            func save(key: Key) -> OSStatus {
                let local = key.accessGroup
                let q: [String: Any] = [kSecAttrAccessGroup as String: key.accessGroup.value]
                _ = SecItemAdd([kSecAttrAccessGroup as String: local.value] as CFDictionary, nil)
                return SecItemAdd(q as CFDictionary, nil)
            }
            """)
        #expect(parameter.isDisjoint(with: ["value", "accessGroup"]), "\(parameter)")
        // A type's constant is still looked up.
        let constant = lookups("""
            import Security
            func save() -> OSStatus {
                SecItemAdd([kSecAttrAccessGroup as String: Groups.shared] as CFDictionary, nil)
            }
            """)
        #expect(constant.contains("shared"), "\(constant)")
        // A system type's instance is no enum case; a singleton's common name
        // is looked for by its type's name (each read every file that says it).
        let system = lookups("""
            import Foundation
            let a = UserDefaults(suiteName: Bundle.main.appGroupSuiteName)
            let b = UserDefaults(suiteName: Config.shared.suite)
            """)
        #expect(!system.contains("main") && !system.contains("shared") && system.contains("Config"), "\(system)")
    }

    @Test func aStringEnumsRawValueIsChecked() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        f.write("App/KeychainStore.swift", """
            import Security
            enum Group: String {
                case shared = "\(team).com.example.Notes.shared"
                case typo = "\(team).com.example.Notes.typo"
                case bare
            }
            struct Vault { enum Kind: String { case other = "\(team).com.example.Other" } }
            func save() {
                _ = SecItemAdd([kSecAttrAccessGroup as String: Group.shared.rawValue] as CFDictionary, nil)
                _ = SecItemAdd([kSecAttrAccessGroup as String: Group.typo.rawValue] as CFDictionary, nil)
                _ = SecItemAdd([kSecAttrAccessGroup as String: Group.bare.rawValue] as CFDictionary, nil)
                _ = SecItemAdd([kSecAttrAccessGroup as String: Vault.Kind.other.rawValue] as CFDictionary, nil)
            }

            """)
        f.writeProject()
        let d = try f.codeFindings()
            .filter { $0.file?.name.hasSuffix("KeychainStore.swift") == true && $0.message.hasPrefix("target 'App'") }
            .map { "\($0.code.rawValue) \($0.location?.line ?? 0) \($0.message.split(separator: ",").first ?? "")" }
        #expect(d == [
            "KCS607 10 target 'App' (configuration 'Release') names the access group \(team).com.example.Notes.typo",
            "KCS607 11 target 'App' (configuration 'Release') names the access group bare",
            "KCS607 12 target 'App' (configuration 'Release') names the access group \(team).com.example.Other",
        ], "\(d)")
    }

    @Test func anEnumsSwitchAndAWrappersOtherLabelsAreChecked() throws {
        // Phoenix: groups from `AccessGroup.appOnly.value`, a computed
        // property switching over the case, passed through a wrapper's
        // `oldAccessGroup:`/`newAccessGroup:` (its plumbing was reported,
        // its callers were not checked).
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        f.write("App/KeychainStore.swift", """
            import Security
            enum AccessGroup {
                case appOnly, shared
                case typo
                var value: String {
                    switch self {
                    case .appOnly, .shared: return "\(team).com.example.Notes.shared"
                    case .typo: "\(team).com.example.Notes.typo"
                    }
                }
            }
            enum Store {
                static func read(accessGroup: String) -> OSStatus {
                    SecItemCopyMatching([kSecAttrAccessGroup as String: accessGroup] as CFDictionary, nil)
                }
                static func move(oldAccessGroup: String, newAccessGroup: String) {
                    _ = read(accessGroup: oldAccessGroup)
                    _ = read(accessGroup: newAccessGroup)
                }
            }
            func migrate() {
                Store.move(oldAccessGroup: AccessGroup.appOnly.value, newAccessGroup: AccessGroup.typo.value)
                _ = Store.read(accessGroup: AccessGroup.shared.value)
            }

            """)
        f.writeProject()
        let d = try f.codeFindings()
            .filter { $0.file?.name.hasSuffix("KeychainStore.swift") == true && $0.message.hasPrefix("target 'App'") }
            .map { "\($0.code.rawValue) \($0.location?.line ?? 0) \($0.message.split(separator: ",").first ?? "")" }
        #expect(d == ["KCS607 22 target 'App' (configuration 'Release') names the access group \(team).com.example.Notes.typo"], "\(d)")
    }

    @Test func codeThatDoesNotParseIsSaidAndNestingIsTheSameInEveryBuild() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        // 30 levels: past swift-syntax's debug default (20), within kcs's.
        let deep = String(repeating: "(", count: 30) + "SecItemAdd([kSecAttrAccessGroup as String: \"\(team).com.example.Deep\"] as CFDictionary, nil)"
            + String(repeating: ")", count: 30)
        f.write("App/KeychainStore.swift", "import Security\nfunc save() { _ = \(deep) }\nfunc broken( { let g = kSecAttrAccessGroup\n")
        f.writeProject()
        let d = try f.codeFindings()
            .filter { $0.file?.name.hasSuffix("KeychainStore.swift") == true && $0.message.contains("App") || $0.message.contains("cannot fully check") }
        #expect(d.contains { $0.code == .codeGroupNotEntitled && $0.message.contains("\(team).com.example.Deep") }, "\(d.map(\.message))")
        #expect(d.contains { $0.code == .codeGroupNotCheckable && $0.message.hasPrefix("cannot fully check") }, "\(d.map(\.message))")
    }

    @Test func deepCodeIsCheckedOrRefusedNeverACrash() throws {
        // Adversarial shapes: a 20,000-long member chain is a tree 20,000
        // deep (the walks overflowed the default stack at 10,000); a long
        // call chain rendered every prefix (quadratic); deep brackets, #if
        // and generic arguments are refused before swift-syntax sees them.
        let f = Self.oneApp(sources: ["Chain.swift", "Calls.swift", "Brackets.swift", "Ifs.swift", "Generics.swift", "Strings.swift", "Comments.swift",
                                      "Regex.swift", "Asserts.swift", "RegexOpen.swift", "Runs.swift", "MixedRuns.swift", "Generic.swift", "Lists.swift",
                                      "BareRegex.swift", "RawName.swift", "Division.swift", "AfterName.swift", "Glued.swift",
                                      "Unclosed.swift"])
        defer { f.remove() }
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.shared"])
        func use(_ value: String) -> String { "import Security\nlet q: [String: Any] = [kSecAttrAccessGroup as String: \(value)]\n" }
        f.write("App/Chain.swift", use("a" + String(repeating: ".b", count: 20_000)))
        f.write("App/Calls.swift", use("f" + String(repeating: "()", count: 20_000)))
        f.write("App/Brackets.swift", use(String(repeating: "(", count: 2_000) + "x" + String(repeating: ")", count: 2_000)))
        f.write("App/Ifs.swift", String(repeating: "#if A\n", count: 1_500) + use("g") + String(repeating: "#endif\n", count: 1_500))
        // Generic arguments over lines; interpolations whose strings hold a `)`
        // and a comment holding `#endif` (a count that read them was fooled).
        f.write("App/Generics.swift", "let v: " + String(repeating: "A<\n", count: 1_500) + "B" + String(repeating: ">", count: 1_500) + " = x\n" + use("g"))
        f.write("App/Strings.swift", use("g") + "let s = " + String(repeating: "\"a)\\(", count: 1_500) + "x" + String(repeating: ")\"", count: 1_500) + "\n")
        f.write("App/Comments.swift", String(repeating: "#if A // #endif\n", count: 1_500) + use("g") + String(repeating: "#endif\n", count: 1_500))
        // A regex literal holding a quote, and an unterminated string, hide nothing after them;
        // a thousand comparisons in calls are not generics.
        f.write("App/Regex.swift", "let r = #/\"/#\nlet s = \"open\n" + use("g") + "let v: " + String(repeating: "A<", count: 1_500) + "B" + String(repeating: ">", count: 1_500) + " = x\n")
        f.write("App/Asserts.swift", use("g") + "func f(i: Int, n: Int) {\n" + String(repeating: "    assert(i<n)\n", count: 1_500) + "}\n")
        // An unclosed regex literal, and generic arguments written with spaces.
        f.write("App/RegexOpen.swift", "let r = #/abc\n" + use("g") + "let v: " + String(repeating: "A <", count: 1_500) + "B" + String(repeating: ">", count: 1_500) + " = x\n")
        // Square brackets nested past 16: swift-syntax's time doubles with
        // each level (40 ran for hours; adversarial run 23, F4), with words
        // between too (`[A<[A<`: review). Parentheses alone are read.
        f.write("App/Runs.swift", use("g") + "let a = " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "\n")
        f.write("App/MixedRuns.swift", use("g") + "let a = " + String(repeating: "[ /* */ (\n", count: 17) + "1" + String(repeating: ")]", count: 17) + "\n")
        f.write("App/Generic.swift", use("g") + "let a = " + String(repeating: "[A<", count: 17) + "B" + String(repeating: ">]", count: 17) + "\n")
        f.write("App/Lists.swift", use("g") + "let a = " + String(repeating: "(a: ", count: 40) + "1" + String(repeating: ")", count: 40)
                + "\nlet b: [[[[Int]]]] = [[[[1]]]]\nlet c = " + String(repeating: "[1, ", count: 16) + "1" + String(repeating: "]", count: 16) + "\n")
        // A bare regex literal and a raw identifier holding a quote hid the
        // rest of the line from the count (adversarial run 24, F4); a
        // division followed by a string hides nothing either.
        let deepSquare = String(repeating: "[", count: 24) + String(repeating: "]", count: 24)
        f.write("App/BareRegex.swift", use("g") + "func h() -> Any { return /\"/ }\nlet r = /\"/; let g = " + deepSquare + "\n")
        f.write("App/RawName.swift", use("g") + "let `a\"b` = 1; let g = " + deepSquare + "\n")
        f.write("App/Division.swift", use("g") + "let x = 4 / \"ab\".count / 2\nlet y = [[1]]\nlet z = (x)/2 + x/2\n")
        // The review's shapes: a regex after a name and a blank; slashes
        // glued to an operator (a division); a quote in a regex the scan
        // does not close on its line (review of session 18, R1).
        f.write("App/AfterName.swift", use("g") + "let r = x /\"/; let g = " + deepSquare + "\n")
        f.write("App/Glued.swift", use("g") + "let r = a+/" + deepSquare + "/2\n")
        f.write("App/Unclosed.swift", use("g") + "let r = f(1, /) + \"\" + " + deepSquare + "\n")
        f.writeProject()
        let d = try f.codeFindings()
        let found = d.map { "\($0.code.rawValue) \(ProjectPath.lastComponent($0.file?.name ?? "")) \($0.message.hasPrefix("cannot check") ? "refused" : "checked")" }
        #expect(found.sorted() == ["KCS608 AfterName.swift refused", "KCS608 Asserts.swift checked", "KCS608 BareRegex.swift refused", "KCS608 Brackets.swift refused", "KCS608 Calls.swift checked",
                                   "KCS608 Chain.swift checked", "KCS608 Comments.swift refused", "KCS608 Division.swift checked", "KCS608 Generic.swift refused",
                                   "KCS608 Generics.swift refused", "KCS608 Glued.swift refused", "KCS608 Ifs.swift refused", "KCS608 Lists.swift checked", "KCS608 MixedRuns.swift refused",
                                   "KCS608 RawName.swift refused", "KCS608 Regex.swift refused", "KCS608 RegexOpen.swift refused", "KCS608 Runs.swift refused",
                                   "KCS608 Strings.swift refused", "KCS608 Unclosed.swift refused"], "\(d.map(\.message))")
    }

    /// A use of an unheld group in a file twelve targets compile is one
    /// warning naming the first eight and counting the rest: it named every
    /// target with a hint each (1,000 targets × 4,000 uses, 133 s and 34 MB
    /// printed for 200 × 2,000; adversarial run 25, F11).
    @Test func aFindingOfManyTargetsNamesAFew() throws {
        var f = XcodeFixture()
        f.projectSettings = ["Release": ["SDKROOT": "iphoneos", "DEVELOPMENT_TEAM": XcodeFixture.team]]
        f.targets = (0..<12).map { i in
            .init(name: "T\(i)", folder: "App", settings: ["Release": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.T\(i)", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]],
                  sources: ["A.swift"])
        }
        defer { f.remove() }
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.shared"])
        f.write("App/A.swift", "import Security\nlet q = SecItemAdd([kSecAttrAccessGroup as String: \"\(XcodeFixture.team).com.example.other\"] as CFDictionary, nil)\n")
        f.writeProject()
        let d = try f.codeFindings().filter { $0.code == .codeGroupNotEntitled }
        #expect(d.count == 1 && d[0].message.hasPrefix("targets 'T0', 'T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7' and 4 more (configuration 'Release')"), "\(d.map(\.message))")
    }

    /// And the whole list once, when its values use the team's prefixes
    /// alone: each of 100 targets still built its 10,000 located groups,
    /// past the 60 s limit (adversarial run 25, F10, at session 21's HEAD).
    @Test func sharedEntitlementsListIsBuiltOnceForATeam() throws {
        var f = XcodeFixture()
        f.projectSettings = ["Release": ["SDKROOT": "iphoneos", "DEVELOPMENT_TEAM": XcodeFixture.team]]
        f.targets = (0..<20).map { i in
            .init(name: "T\(i)", folder: "App", settings: ["Release": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.T\(i)", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]])
        }
        defer { f.remove() }
        f.writeEntitlements("App/App.entitlements", keychain: (0..<50).map { "$(AppIdentifierPrefix)com.example.g\($0)" } + ["com.example.plain"],
                            appGroups: ["group.com.example.shared"])
        f.writeProject()
        let project = try XcodeProject.load(f.projectPath).get()
        let files = TargetSigning.FileCache()
        let signings = project.targets.map {
            TargetSigning.resolve(project, $0, configuration: "Release", platform: "ios", team: nil, fileSystem: LocalProjectFileSystem(), files: files)
        }
        // Each of the three lists once, not once per target.
        #expect(files.listsExpanded == 3, "\(files.listsExpanded)")
        #expect(signings.allSatisfy { $0.keychainAccessGroups.map(\.value) == (0..<50).map { "\(XcodeFixture.team).com.example.g\($0)" } + ["com.example.plain"] })
        #expect(signings.allSatisfy { $0.applicationGroups.map(\.value) == ["group.com.example.shared"] && ($0.keychainAccessGroups.first?.location?.line ?? 0) > 0 })
    }

    /// Targets of one team signing with one file expand its
    /// `$(AppIdentifierPrefix)…` groups once for all: each target expanded
    /// each (100 targets × 10,000 groups, 99 s; adversarial run 25, F10).
    /// Seen failing without the fix (1,000 values expanded).
    @Test func sharedEntitlementsAreExpandedOnceForATeam() throws {
        var f = XcodeFixture()
        f.projectSettings = ["Release": ["SDKROOT": "iphoneos", "DEVELOPMENT_TEAM": XcodeFixture.team]]
        f.targets = (0..<20).map { i in
            .init(name: "T\(i)", folder: "App", settings: ["Release": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.T\(i)", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]])
        }
        defer { f.remove() }
        f.writeEntitlements("App/App.entitlements", keychain: (0..<50).map { "$(AppIdentifierPrefix)com.example.g\($0)" } + ["$(PRODUCT_BUNDLE_IDENTIFIER)"])
        f.writeProject()
        let project = try XcodeProject.load(f.projectPath).get()
        let files = TargetSigning.FileCache()
        let signings = project.targets.map {
            TargetSigning.resolve(project, $0, configuration: "Release", platform: "ios", team: nil, fileSystem: LocalProjectFileSystem(), files: files)
        }
        // 50 once, and each target's own bundle ID.
        #expect(files.valuesExpanded == 50 + 20, "\(files.valuesExpanded)")
        #expect(signings.map { $0.keychainAccessGroups.map(\.value) } == (0..<20).map { t in
            (0..<50).map { "\(XcodeFixture.team).com.example.g\($0)" } + ["com.example.T\(t)"]
        })
    }

    /// Findings are merged as they are made: 1,000 targets × 4,000 uses
    /// were 4 million diagnostics held before merging (2.75 GB; adversarial
    /// run 25, F11). The merger holds one per place and wording, its
    /// targets a bit set, the first eight named with their hints. Seen
    /// failing without the fix (no merger: every finding held).
    @Test func findingsAcrossTargetsAreMergedAsTheyAreMade() {
        let names = (0..<1000).map { "T\($0)" }
        var merger = CodeCheck.FindingMerger(names: names + ["Other"])
        let file = SourceFile(name: "A.swift", text: String(repeating: "let q = SecItemAdd(x)\n", count: 3))
        for name in names {
            for line in 0..<3 {
                merger.append(Diagnostic(.codeGroupNotEntitled, "target '\(name)' (configuration 'Release') names the access group g\(line), which it is not entitled to",
                                         file: file, range: SourceRange(line * 22, line * 22 + 3), hint: "its groups: \(name).g"))
            }
            merger.append(Diagnostic(.codeGroupNotEntitled, "target '\(name)' (configuration 'Release') names the access group g0, which it is not entitled to",
                                     file: file, range: SourceRange(0, 3), hint: "again"))
        }
        merger.append(Diagnostic(.projectSetting, "something else", file: file, range: SourceRange(0, 1)))
        #expect(merger.held == 4)
        // A hint is worked out only while the finding keeps or compares it:
        // eight targets with differing hints, a target already named, need
        // none; a new finding does.
        func finding(_ target: String, line: Int) -> Diagnostic {
            Diagnostic(.codeGroupNotEntitled, "target '\(target)' (configuration 'Release') names the access group g\(line), which it is not entitled to",
                       file: file, range: SourceRange(line * 22, line * 22 + 3))
        }
        #expect(!merger.needsHint(finding("Other", line: 0)) && !merger.needsHint(finding("T5", line: 1)))
        var fresh = CodeCheck.FindingMerger(names: names)
        for t in 0..<8 { fresh.append(Diagnostic(.codeGroupNotEntitled, finding("T\(t)", line: 0).message, file: file, range: SourceRange(0, 3), hint: "same")) }
        #expect(fresh.needsHint(finding("T8", line: 0)) && fresh.needsHint(finding("T0", line: 2)) && !fresh.needsHint(finding("T3", line: 0)))
        let d = merger.merged
        #expect(d.map(\.message) == (0..<3).map { "targets 'T0', 'T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7' and 992 more (configuration 'Release') name the access group g\($0), which they are not entitled to" }
                + ["something else"], "\(d.map(\.message))")
        #expect(d[0].hint == "'T0': its groups: T0.g, 'T1': its groups: T1.g, 'T2': its groups: T2.g, 'T3': its groups: T3.g, 'T4': its groups: T4.g, "
                + "'T5': its groups: T5.g, 'T6': its groups: T6.g, 'T7': its groups: T7.g and 992 more", "\(d[0].hint ?? "")")
    }

    /// Regex and string shapes the pre-scan read past what Swift reads
    /// (adversarial run 25): `#/` not closed on its line (F1), a bare regex
    /// ending in a space (F6), a one-line string's trailing backslash
    /// (F13), a lone CR ending a comment. Each hid 1,100 nested brackets;
    /// real regexes are still checked, and a real one nesting past the
    /// bound is refused as code would be.
    @Test func regexAndStringShapesHideNoNesting() throws {
        let names = ["HashOpen", "HashLines", "SpaceEnd", "Backslash", "LoneCR", "HashMulti", "RealRegex"]
        let f = Self.oneApp(sources: names.map { "\($0).swift" })
        defer { f.remove() }
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.shared"])
        let use = "import Security\nlet q: [String: Any] = [kSecAttrAccessGroup as String: g]\n"
        let deep = String(repeating: "(", count: 1_100) + "x" + String(repeating: ")", count: 1_100)
        f.write("App/HashOpen.swift", use + "let r = #/x\nlet v = " + deep + "\n/#\n")
        f.write("App/HashLines.swift", use + "let r = #/x\n" + String(repeating: "#if A\n", count: 1_100) + "let y = 1\n" + String(repeating: "#endif\n", count: 1_100) + "/#\n")
        f.write("App/SpaceEnd.swift", use + "let x = (/" + deep + " /)\n")
        f.write("App/Backslash.swift", use + "let s = \"\\\n" + String(repeating: "(\\\n", count: 1_100) + "x" + String(repeating: ")", count: 1_100) + "\n")
        f.write("App/LoneCR.swift", use + "// note\rlet v = " + deep + "\n")
        f.write("App/HashMulti.swift", use + "let r = #/\n" + deep + "\n/#\n")
        f.write("App/RealRegex.swift", use + "let a = /[a-z(]+\\(x\\)/\nlet b = #/\n  (?<n> \\w+) \"q\n/#\nlet c = #/a\"b/#\n")
        f.writeProject()
        let d = try f.codeFindings().filter { $0.code == .codeGroupNotCheckable }
        let refused = Set(d.compactMap { $0.message.hasPrefix("cannot check") ? ProjectPath.lastComponent($0.file?.name ?? "") : nil })
        #expect(refused == ["HashOpen.swift", "HashLines.swift", "SpaceEnd.swift", "Backslash.swift", "LoneCR.swift", "HashMulti.swift"], "\(d.map(\.message))")
    }

    /// The pre-scan took each of these for code and then a `"""` string
    /// running to the end of the file, where swift-syntax reads a regex
    /// literal, a single-quoted string or an editor placeholder: the
    /// nesting after it was hidden, and 26 square brackets took 27 s
    /// (adversarial run 26, F1). The nesting is now counted on
    /// swift-syntax's own tokens as well, so no misread string hides it;
    /// real strings, regexes and interpolations are still checked.
    @Test func noStringTheScanMisreadsHidesNesting() throws {
        let hiders = ["Bang": "let r = !/\"\"\"/", "Space": "let r = / \"\"\"/", "Paren": "let r = / )\"\"\"/", "Comment": "let r = /* c *//\"\"\"/",
                      "NoBreak": "let r =\u{A0}/\"\"\"/", "Quote": "let r = \'\"\"\"\'", "Placeholder": "let r = <#\"\"\"#>",
                      "Interpolation": "let s = \"\\(a b /*\"*/ )\"", "Split": "let r = Array<Int>/\"\"\"/"]
        let real = ["Real": """
            let a = "\\(d["k"]) \\(d["[", default: "]"])"
            let b = \"\"\"
              [[[[[[[[[[[[[[[[[[[[ \\(x.map { [$0] }) ]]]]]]]]]]]]]]]]]]]]
              \"\"\"
            let c = #"[[[[[[[[[[[[[[[[[[[[["#
            let e = /[a-z"]+/
            let f = x! / 2
            """]
        let names = Array(hiders.keys) + Array(real.keys) + ["Square"]
        let f = Self.oneApp(sources: names.map { "\($0).swift" })
        defer { f.remove() }
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.shared"])
        let use = "import Security\nlet q: [String: Any] = [kSecAttrAccessGroup as String: g]\n"
        let ifs = String(repeating: "#if A\n", count: 1_100) + "let y = 1\n" + String(repeating: "#endif\n", count: 1_100)
        for (name, line) in hiders { f.write("App/\(name).swift", use + line + "\n" + ifs) }
        for (name, text) in real { f.write("App/\(name).swift", use + text + "\n") }
        // The exponential shape itself, 18 deep (the bound is 16), after the first hider.
        f.write("App/Square.swift", use + "let r = !/\"\"\"/\nlet g = " + String(repeating: "[", count: 18) + String(repeating: "]", count: 18) + "\n")
        f.writeProject()
        let d = try f.codeFindings().filter { $0.code == .codeGroupNotCheckable }
        let refused = Set(d.compactMap { $0.message.hasPrefix("cannot check") ? ProjectPath.lastComponent($0.file?.name ?? "") : nil })
        #expect(refused == Set((Array(hiders.keys) + ["Square"]).map { "\($0).swift" }), "\(d.map(\.message))")
    }

    @Test func aGroupOrEmbedNamedAgainAddsNothing() throws {
        // A synchronized folder listed twice was walked twice and its files
        // kept twice; an extension embedded twice was reported twice.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[1].synchronizedFolders = ["Shared", "Shared"]
        f.targets[0].embeds += ["Share Extension"]
        f.write("Shared/One.swift", "let one = 1\n")
        f.write("Shared/Two.swift", "let two = 2\n")
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath).get()
        let widget = try #require(lint.project.targets.first { $0.name == "Widget" })
        #expect(widget.swiftSources.filter { $0.hasSuffix("One.swift") }.count == 1, "\(widget.swiftSources)")
        #expect(lint.project.targets[0].embeddedTargets.count == 2)
        #expect(lint.run().filter { $0.code == .projectExtensionGroup }.count == 1)
    }

    /// Counts the reads of each file.
    final class CountingFileSystem: ProjectFileSystem, @unchecked Sendable {
        let inner: LocalProjectFileSystem
        var reads: [String: Int] = [:]
        init(maxFileSize: Int = 32 << 20) { inner = LocalProjectFileSystem(maxFileSize: maxFileSize) }
        func read(_ path: String) -> Result<[UInt8], ProjectFileError> {
            reads[ProjectPath.lastComponent(path), default: 0] += 1
            return inner.read(path)
        }
        func contents(ofDirectory path: String) -> [String]? { inner.contents(ofDirectory: path) }
        func canonical(_ path: String) -> String { inner.canonical(path) }
        func fileSize(_ path: String) -> Int? { inner.fileSize(path) }
    }

    @Test func anXcconfigIsReadOncePerProject() throws {
        // Every target in every configuration (and platform) was based on a
        // fresh read of the same files: 40 targets × 50,000 settings, 65 s.
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let files = CountingFileSystem()
        let lint = try ProjectLint.load(f.projectPath, fileSystem: files).get()
        #expect(lint.signings.count == 6)
        #expect(files.reads["Base.xcconfig"] == 1 && files.reads["Team.xcconfig"] == 1, "\(files.reads)")
    }

    @Test func aGroupReadFromInfoPlistIsCheckedAgainstEachTargetsInfoPlist() throws {
        // Mattermost's shape: a stored property read from Info.plist, used in
        // the queries; the value is the target's Info.plist string with its
        // build settings expanded ($(AppIdentifierPrefix) included).
        var f = Self.oneApp(sources: ["Keychain.swift", "Direct.swift", "Green.swift"])
        defer { f.remove() }
        f.targets[0].settings["Release"]?["INFOPLIST_FILE"] = "App/Info.plist"
        f.targets[0].settings["Release"]?["SHARED"] = "com.example.shared"
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.shared"])
        f.write("App/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>AppGroupIdentifier</key>
            <string>$(AppIdentifierPrefix)$(SHARED)</string>
            <key>OtherGroup</key>
            <string>$(AppIdentifierPrefix)com.example.other</string>
            </dict></plist>
            """)
        f.write("App/Keychain.swift", """
            import Security
            final class Keychain {
                private let accessGroup: String? = Bundle.main.object(forInfoDictionaryKey: "AppGroupIdentifier") as? String
                func query() -> [CFString: Any] {
                    var attributes: [CFString: Any] = [:]
                    if let accessGroup = self.accessGroup { attributes[kSecAttrAccessGroup] = accessGroup }
                    return attributes
                }
            }

            """)
        f.write("App/Direct.swift", """
            import Security
            let other: [String: Any] = [kSecAttrAccessGroup as String: Bundle.main.infoDictionary?["OtherGroup"] as? String ?? ""]
            let missing: [String: Any] = [kSecAttrAccessGroup as String: Bundle.main.object(forInfoDictionaryKey: "Nope") as! String]
            enum Groups { static var other: String? { Bundle.main.object(forInfoDictionaryKey: "OtherGroup") as? String } }
            let computed: [String: Any] = [kSecAttrAccessGroup as String: Groups.other as Any]

            """)
        // Blockstream Green's shape: a Bundle extension property read on the
        // main bundle; on another bundle it is not the app's Info.plist.
        f.write("App/Green.swift", """
            import Foundation
            extension Bundle {
                var appGroup: String { infoDictionary?["AppGroupIdentifier"] as? String ?? "" }
                var otherGroup: String? { return self.object(forInfoDictionaryKey: "OtherGroup") as? String }
            }
            let fine: [String: Any] = [kSecAttrAccessGroup as String: Bundle.main.appGroup]
            let wrong: [String: Any] = [kSecAttrAccessGroup as String: Bundle.main.otherGroup as Any]
            let elsewhere: [String: Any] = [kSecAttrAccessGroup as String: Bundle(for: Keychain.self).appGroup]

            """)
        f.writeProject()
        let all = try f.codeFindings()
        let green = all.filter { $0.file?.name.hasSuffix("Green.swift") == true }
        let d = all.filter { $0.file?.name.hasSuffix("Green.swift") != true }
        #expect(green.map { "\($0.code.rawValue) \($0.location?.line ?? 0)" } == ["KCS607 7", "KCS608 8"], "\(green.map(\.message))")
        let found = d.map { "\($0.code.rawValue) \(ProjectPath.lastComponent($0.file?.name ?? "")):\($0.location?.line ?? 0)" }
        #expect(found == ["KCS607 Direct.swift:2", "KCS608 Direct.swift:3", "KCS607 Direct.swift:5"], "\(d.map(\.message))")
        #expect(d.first?.message.contains("names the access group \(XcodeFixture.team).com.example.other") == true)
        #expect(d.first?.notes.contains { (n: DiagnosticNote) in n.message == "Info.plist's OtherGroup is set here" && n.file?.name.hasSuffix("App/Info.plist") == true } == true)
        #expect(d[1].message.contains("its Info.plist's Nope, which kcs cannot read"))
    }

    @Test func anInfoPlistKeyForThePlatformIsTheKeyOnIt() throws {
        // CoreFoundation reads `KEY-iphoneos` as KEY on iOS, `KEY-macos` on
        // the Mac: Userscripts' Safari extensions were told their group key
        // was set by no Info.plist (real-project trial 14, D3).
        var f = Self.oneApp(sources: ["Direct.swift"])
        defer { f.remove() }
        f.targets[0].settings["Release"]?["INFOPLIST_FILE"] = "App/Info.plist"
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.shared"])
        f.write("App/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>SharedGroup-macos</key>
            <string>$(AppIdentifierPrefix)com.example.mac</string>
            <key>SharedGroup-iphoneos</key>
            <string>$(AppIdentifierPrefix)com.example.shared</string>
            <key>SharedGroup</key>
            <string>$(AppIdentifierPrefix)com.example.plain</string>
            <key>MacOnly-macos</key>
            <string>$(AppIdentifierPrefix)com.example.shared</string>
            </dict></plist>
            """)
        f.write("App/Direct.swift", """
            import Security
            let shared: [String: Any] = [kSecAttrAccessGroup as String: Bundle.main.infoDictionary?["SharedGroup"] as? String ?? ""]
            let mac: [String: Any] = [kSecAttrAccessGroup as String: Bundle.main.object(forInfoDictionaryKey: "MacOnly") as! String]

            """)
        f.writeProject()
        let d = try f.codeFindings()
        #expect(d.map { "\($0.code.rawValue) \($0.location?.line ?? 0)" } == ["KCS608 3"], "\(d.map(\.message))")
        #expect(d.first?.message.contains("its Info.plist's MacOnly, which kcs cannot read") == true, "\(d.map(\.message))")
    }

    @Test func anInfoPlistLookupsDefaultIsTheValueWhenNoInfoPlistSetsTheKey() throws {
        // Provenance's `infoDictionary?["APP_GROUP_IDENTIFIER"] as? String ??
        // "group.…"`: the default was dropped, so a target whose Info.plist
        // lacks the key got KCS608, and a wrong default went unreported
        // (real-project trial 16, D2). A key the Info.plist does set is its
        // value, default or not; one that names an undefined setting says so.
        var f = Self.oneApp(sources: ["Groups.swift"])
        defer { f.remove() }
        f.targets[0].settings["Release"]?["INFOPLIST_FILE"] = "App/Info.plist"
        f.writeEntitlements("App/App.entitlements", keychain: [], appGroups: ["group.com.example.shared"])
        f.write("App/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>SetGroup</key>
            <string>group.com.example.shared</string>
            <key>HoleGroup</key>
            <string>group.$(NOT_DEFINED)</string>
            </dict></plist>
            """)
        f.write("App/Groups.swift", """
            import Foundation
            enum Config {
                static let wrongDefault = Bundle.main.infoDictionary?["UnsetGroup"] as? String ?? "group.com.example.shraed"
                static let rightDefault = Bundle.main.object(forInfoDictionaryKey: "UnsetGroup") as? String ?? "group.com.example.shared"
            }
            let a = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: Config.wrongDefault)
            let b = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: Config.rightDefault)
            let c = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: Bundle.main.infoDictionary?["SetGroup"] as? String ?? "group.com.example.other")
            let d = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: Bundle.main.infoDictionary?["UnsetGroup"] as? String ?? "")
            let e = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: (Bundle.main.infoDictionary?["HoleGroup"] as? String) ?? "group.com.example.shared")

            """)
        f.writeProject()
        let d = try f.codeFindings()
        #expect(d.map { "\($0.code.rawValue) \($0.location?.line ?? 0)" } == ["KCS607 6", "KCS608 9", "KCS608 10"], "\(d.map(\.message))")
        #expect(d.first?.message.contains("names the app group group.com.example.shraed") == true, "\(d.map(\.message))")
        // The note is at the constant, where the default is written.
        let note = d.first?.notes.first { (n: DiagnosticNote) in n.message.hasPrefix("no Info.plist") }
        #expect(note?.message == "no Info.plist of the target sets UnsetGroup: the code's default \"group.com.example.shraed\" is used", "\(d.first?.notes.map(\.message) ?? [])")
        #expect(note.flatMap { n in n.range.flatMap { n.file?.location(of: $0.start).line } } == 3)
        #expect(d.dropFirst().first?.message.contains("its Info.plist's UnsetGroup, which kcs cannot read: no Info.plist of the target sets it") == true, "\(d.map(\.message))")
        #expect(d.last?.message.contains("its Info.plist's HoleGroup, which kcs cannot read: its value uses $(NOT_DEFINED), which the target does not define") == true, "\(d.map(\.message))")
        #expect(d.last?.notes.contains { (n: DiagnosticNote) in n.message == "Info.plist's HoleGroup is set here" && n.file?.name.hasSuffix("App/Info.plist") == true } == true)
    }

    @Test func aMisspeltSettingInsideASettingIsSaidWhereItIsWrittenWithADidYouMean() throws {
        // GlucoseDirect: `APP_GROUP_ID = group.com.$(DEVELOPMENT_TEM)…` in its
        // xcconfig, used by the entitlements as `$(APP_GROUP_ID)`, was said
        // only at the entitlements, with no "did you mean" (real-project
        // trial 16, D12). The target's own `APP_GROUP = $(APP_GROUP)` passes
        // on to the level below it.
        var f = Self.oneApp(sources: [])
        defer { f.remove() }
        f.projectXCConfig = ["Release": "Config/App.xcconfig"]
        f.write("Config/App.xcconfig", "// Shared\nAPP_GROUP = group.com.$(DEVELOPMENT_TEM).shared\n")
        f.targets[0].settings["Release"]?["APP_GROUP"] = "$(APP_GROUP)"
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.$(PRODUCT_NAM)"], appGroups: ["$(APP_GROUP)"])
        f.writeProject()
        let d = try ProjectLint.load(f.projectPath).get().run().filter { $0.message.contains("which target 'App' does not define") }
        let group = try #require(d.first { $0.message.hasPrefix("'$(APP_GROUP)' uses $(DEVELOPMENT_TEM)") }, "\(d.map(\.message))")
        #expect(group.hint == "did you mean $(DEVELOPMENT_TEAM) for $(DEVELOPMENT_TEM)? define the build setting, or write the group out")
        #expect(group.notes.map { n in "\(n.message) \(ProjectPath.lastComponent(n.file?.name ?? "")):\(n.range.flatMap { n.file?.location(of: $0.start).line } ?? 0)" }
                == ["APP_GROUP uses $(DEVELOPMENT_TEM) here App.xcconfig:2"])
        // Written in the entitlements itself: no note, the did-you-mean still.
        let direct = try #require(d.first { $0.message.contains("$(PRODUCT_NAM)") }, "\(d.map(\.message))")
        #expect(direct.notes.isEmpty && direct.hint?.hasPrefix("did you mean $(PRODUCT_NAME) for $(PRODUCT_NAM)? ") == true, "\(direct.hint ?? "")")
    }

    @Test func pastTheSettingsBudgetTargetsAreNotComparedAndTheLintSaysSo() throws {
        // Targets past the budget are not resolved: comparing them gave false
        // KCS605 (no entitlements file) and dropped KCS510 (found by review).
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let within = try ProjectLint.load(f.projectPath).get().run()
        #expect(within.contains { $0.code == .projectExtensionGroup })
        let lint = try ProjectLint.load(f.projectPath, settingsBudget: 40).get()
        #expect(lint.project.settingsBudgetExhausted)
        let d = lint.run() + CodeCheck.run(lint)
        #expect(d.filter { $0.message.contains("build settings and conditions; kcs resolves no more of them") }.count == 1, "\(d.map(\.message))")
        #expect(!d.contains { [.projectExtensionGroup, .projectEntitlementsFile, .projectConfigurationsDiffer, .codeGroupNotEntitled].contains($0.code) },
                "\(d.map(\.message))")
    }

    @Test func targetsPastTheSettingsBudgetAreNotSaidToLackSDKROOT() throws {
        // Every target sets SDKROOT; those the budget left unresolved were
        // each told "SDKROOT is not set" (524 false warnings; adversarial
        // run 25, F5). The budget is said once instead. Seen failing
        // without the fix.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        for t in f.targets.indices {
            for c in ["Debug", "Release"] { f.targets[t].settings[c, default: [:]]["SDKROOT"] = "iphoneos" }
        }
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath, settingsBudget: 40).get()
        let d = lint.run()
        #expect(lint.project.settingsBudgetExhausted)
        #expect(d.filter { $0.message.contains("kcs resolves no more of them") }.count == 1, "\(d.map(\.message))")
        #expect(!d.contains { $0.message.contains("cannot tell which platform") || $0.message.contains("is not set") }, "\(d.map(\.message))")
        // With --platform, an unresolved target is not taken as building for it.
        let given = lint.project.targets.map { lint.project.platforms(of: $0, configuration: "Release", given: "ios") }
        #expect(given.contains { $0.platforms.isEmpty && !$0.taken })
    }

    @Test func aSettingsConditionsCountAgainstTheSettingsBudget() throws {
        // One assignment with 300 conditions is 301 settings of the budget:
        // each condition is matched in every resolution (100,000 `[sdk=*]`
        // shared by 1,000 targets took 72 s; adversarial run 25, F7). Seen
        // failing without the fix: the budget of 200 was not reached.
        var f = Self.oneApp(sources: [])
        defer { f.remove() }
        f.projectXCConfig = ["Release": "Config/App.xcconfig"]
        f.write("Config/App.xcconfig", "X" + String(repeating: "[sdk=*]", count: 300) + " = 1\n")
        f.writeProject()
        let plain = try ProjectLint.load(f.projectPath, settingsBudget: 200).get()
        _ = plain.run()
        #expect(plain.project.settingsBudgetExhausted)
        f.write("Config/App.xcconfig", "X[sdk=*] = 1\n")
        let few = try ProjectLint.load(f.projectPath, settingsBudget: 200).get()
        _ = few.run()
        #expect(!few.project.settingsBudgetExhausted)
    }

    /// A Mac's file system ignores case: a project that names
    /// `app/App.entitlements` for `App/App.entitlements` builds there, and
    /// is read the same on Linux (xDrip4iOS: four false warnings).
    @Test func pathsAreFoundWhateverTheirCase() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[0].settings["Debug"]?["CODE_SIGN_ENTITLEMENTS"] = "app/app.ENTITLEMENTS"
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath).get()
        let d = lint.run() + CodeCheck.run(lint)
        #expect(!d.contains { $0.code == .projectSetting || $0.code == .projectEntitlementsFile }, "\(d.map(\.message))")
        let debug = try #require(lint.signings.first { $0.target.name == "App" && $0.configuration == "Debug" })
        #expect(debug.accessGroups.contains("\(XcodeFixture.team).com.example.Notes.shared"))
        // The import names the file as the disk spells it, so its scenario
        // runs where case matters (AdGuard's `AdGuardPro/…` for `AdguardPro/…`).
        let imported = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions(configuration: "Debug"))
        #expect(imported.scenario.contains("/App/App.entitlements\""), "\(imported.scenario)")
        #expect(!imported.scenario.contains("app/app.ENTITLEMENTS"), "\(imported.scenario)")
    }

    /// A bundle ID emptied by a setting set to nothing names the setting
    /// (Loop's `com..loopkit.Loop`); one that uses a setting no level
    /// defines is said once, as undefined, not also as no bundle ID, and
    /// once for all the configurations it is found in.
    @Test func anEmptiedBundleIDNamesWhatEmptiedIt() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("Config/Base.xcconfig", """
            #include "Team.xcconfig"
            ORG_TEAM =
            BUNDLE_PREFIX = com.$(ORG_TEAM).example
            PRODUCT_BUNDLE_IDENTIFIER = $(BUNDLE_PREFIX).$(PRODUCT_NAME:rfc1034identifier)

            """)
        f.writeProject()
        let emptied = try ProjectLint.load(f.projectPath).get().run().filter { $0.message.contains("target 'App'") && $0.message.contains("which is not a bundle ID") }
        #expect(!emptied.isEmpty && emptied.allSatisfy { $0.hint?.hasPrefix("$(ORG_TEAM) is set to nothing here") == true }, "\(emptied.map { $0.hint ?? "" })")
        f.write("Config/Base.xcconfig", """
            #include "Team.xcconfig"
            PRODUCT_BUNDLE_IDENTIFIER = com.$(NOWHERE).$(PRODUCT_NAME:rfc1034identifier)

            """)
        let undefined = try ProjectLint.load(f.projectPath).get().run().filter { $0.location?.line == 2 }
        // One warning for both configurations, naming them.
        #expect(undefined.count == 1 && undefined.allSatisfy { $0.message.contains("uses $(NOWHERE)") }, "\(undefined.map(\.message))")
        #expect(undefined.first?.message.contains("configurations 'Debug', 'Release'") == true, "\(undefined.map(\.message))")
    }

    /// "Team ID constant plus a suffix": interpolations of constants are
    /// worked out, directly, through a constant, a type's constant and a
    /// constant of constants, and through a type alias (Delta Chat's `KcM`);
    /// anything else stays a value built at run time.
    @Test func interpolatedConstantsAreWorkedOut() throws {
        let team = XcodeFixture.team
        let d = try Self.checkedCode("Groups.swift", """
            import Security
            let teamID = "\(team)"
            enum Config {
                static let team = "\(team)"
                static let shared = "\\(team).com.example.shared"
                static let wrong = "\\(Config.team).com.example.wrong"
            }
            let nested = "\\(Config.shared)"
            func calls(prefix: String) {
                let a: [String: Any] = [kSecAttrAccessGroup as String: "\\(teamID).com.example.shared"]
                let b: [String: Any] = [kSecAttrAccessGroup as String: Config.shared]
                let c: [String: Any] = [kSecAttrAccessGroup as String: Config.wrong]
                let d: [String: Any] = [kSecAttrAccessGroup as String: nested]
                let e: [String: Any] = [kSecAttrAccessGroup as String: "\\(prefix).com.example.shared"]
                let g: [String: Any] = [kSecAttrAccessGroup as String: "\\(teamID).com.example.other"]
                let h: [String: Any] = [kSecAttrAccessGroup as String: C.wrong]
                let i: [String: Any] = [kSecAttrAccessGroup as String: C.shared]
            }
            private typealias C = Config
            // Each level names the one below twice: worked out once each, and past 4 KB a value built at run time.
            let l0 = "ab"
            let l1 = "\\(l0)\\(l0)"
            let l2 = "\\(l1)\\(l1)"
            let l3 = "\\(l2)\\(l2)"
            let l4 = "\\(l3)\\(l3)"
            let l5 = "\\(l4)\\(l4)"
            let l6 = "\\(l5)\\(l5)"
            let l7 = "\\(l6)\\(l6)"
            let l8 = "\\(l7)\\(l7)"
            let l9 = "\\(l8)\\(l8)"
            let l10 = "\\(l9)\\(l9)"
            let l11 = "\\(l10)\\(l10)"
            let l12 = "\\(l11)\\(l11)"
            let l13 = "\\(l12)\\(l12)"
            let l14 = "\\(l13)\\(l13)"
            let l15 = "\\(l14)\\(l14)"
            let l16 = "\\(l15)\\(l15)"
            let l17 = "\\(l16)\\(l16)"
            let l18 = "\\(l17)\\(l17)"
            let l19 = "\\(l18)\\(l18)"
            let l20 = "\\(l19)\\(l19)"
            let big: [String: Any] = [kSecAttrAccessGroup as String: l20]

            """)
        #expect(Diagnostic.byUse(d) == ["KCS607 12", "KCS608 14", "KCS607 15", "KCS607 16", "KCS608 42"], "\(d.map(\.message))")
        #expect(d.first?.message.contains("\(team).com.example.wrong") == true)
    }

    @Test func aWrappersOwnPlumbingIsNotReportedAndItsCallersAre() throws {
        // Apple's sample KeychainItem: the group goes from the initialiser's
        // accessGroup: into a stored property and a static helper's
        // accessGroup:; the callers are what kcs checks.
        let team = XcodeFixture.team
        let d = try Self.checkedCode("KeychainItem.swift", """
            import Security
            struct KeychainItem {
                let accessGroup: String?
                init(accessGroup: String? = nil) { self.accessGroup = accessGroup }
                func read() -> [String: AnyObject] { Self.query(accessGroup: accessGroup) }
                private static func query(accessGroup: String? = nil) -> [String: AnyObject] {
                    var query = [String: AnyObject]()
                    if let accessGroup = accessGroup { query[kSecAttrAccessGroup as String] = accessGroup as AnyObject? }
                    return query
                }
            }
            func other(group: String) -> [String: AnyObject] {
                var q = [String: AnyObject]()
                q[kSecAttrAccessGroup as String] = group as AnyObject?
                q[kSecAttrAccessGroup as String] = "\(team).com.example.other" as AnyObject?
                _ = KeychainItem(accessGroup: "\(team).com.example.shared").read()
                _ = KeychainItem(accessGroup: "\(team).com.example.nope").read()
                return q
            }
            // group: of a keychain type is checked at its callers (Muun's shape); of another type it is not.
            struct KeychainRepository {
                private let group: String
                init(group: String) { self.group = group }
                func query() -> [String: Any] { [kSecAttrAccessGroup as String: group] }
            }
            struct Store {
                private let group: String
                init(group: String) { self.group = group }
                func query() -> [String: Any] { [kSecAttrAccessGroup as String: group] }
            }
            let repository = KeychainRepository(group: "\(team).com.example.nope")

            """)
        let found = d.map { "\($0.code.rawValue) \($0.location.map { "\($0.line):\($0.column)" } ?? "-")" }
        #expect(found == ["KCS608 14:40", "KCS607 15:40", "KCS607 17:35", "KCS608 29:69", "KCS607 31:44"], "\(d.map(\.message))")
    }

    @Test func scriptsDeclareAppsFromTheProject() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("s.kcs", """
            team SKMME9E2Y8
            app App project="App.xcodeproj"
            app Widget project="App.xcodeproj" configuration="Debug"
            app Share project="App.xcodeproj" target="Share Extension"
            expect groups App [SKMME9E2Y8.com.example.Notes.shared, SKMME9E2Y8.com.example.Notes, group.com.example.notes]
            expect groups Share [SKMME9E2Y8.com.example.Notes.Share, SKMME9E2Y8.com.example.Notes.Share]
            as App add generic-password account="a" group=SKMME9E2Y8.com.example.Notes.shared
            as Widget find generic-password account="a"
            expect status errSecSuccess
            as Share find generic-password account="a"
            expect status errSecItemNotFound

            """)
        let report = Interpreter.run(path: f.path("s.kcs"))
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map(\.message))")
        #expect(report.verdict == .passed)
        let errors: [(String, String)] = [
            ("app X project=\"App.xcodeproj\" target=\"Widgte\"", "has no target 'Widgte'"),
            ("app App project=\"Nope.xcodeproj\"", "cannot read"),
            ("app App project=\"App.xcodeproj\" configuration=\"Beta\"", "no configuration 'Beta'"),
            ("app App project=\"App.xcodeproj\" kind=extension", "kind= and project= both"),
            ("app App target=\"App\"", "go with project="),
            ("platform macos 14\napp App project=\"App.xcodeproj\"", "does not build for macos"),
        ]
        for (line, message) in errors {
            f.write("e.kcs", "team SKMME9E2Y8\n" + line + "\n")
            let r = Interpreter.run(path: f.path("e.kcs"))
            #expect(r.diagnostics.first?.message.contains(message) == true, "\(line): \(r.diagnostics.map(\.message))")
            #expect(r.diagnostics.first?.location != nil)
        }
        let hint = Interpreter.run(source: "app X project=\"\(f.projectPath)\" target=\"Widgte\"\n").diagnostics.first?.hint
        #expect(hint == "did you mean 'Widget'?")
        // The host's loader decides what the project may read.
        let refused = Interpreter.run(source: "app App project=\"\(f.projectPath)\"\n", loader: NoFilesLoader())
        #expect(refused.diagnostics.first?.code == .projectUnreadable)
        #expect(refused.diagnostics.first?.message.contains("does not allow reading files") == true)
        let elsewhere = Interpreter.run(source: "app App project=\"\(f.projectPath)\"\n", loader: RootedFileLoader(root: f.path("Share")))
        #expect(elsewhere.diagnostics.first?.message.contains("outside") == true)
    }

    @Test func aScriptDeclaresAnAppWhoseXCConfigDoesNotRead() throws {
        // CocoaPods' xcconfig before `pod install`, and a template not
        // copied: the import and the lint warn and carry on, a script
        // refused the app (KCS301 on every later line; real-project trial 18, D3/D4).
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[0].xcconfig = ["Release": "Pods/Target Support Files/Pods-App/Pods-App.release.xcconfig"]
        f.write("Config/Secrets.template.xcconfig", "API_HOST = example.com\n")
        f.targets[1].xcconfig = ["Release": "Config/Secrets.xcconfig"]
        f.writeProject()
        f.write("s.kcs", """
            team SKMME9E2Y8
            app App project="App.xcodeproj"
            app Widget project="App.xcodeproj"
            expect groups App [SKMME9E2Y8.com.example.Notes.shared, SKMME9E2Y8.com.example.Notes, group.com.example.notes]
            as App add generic-password account="a" group=SKMME9E2Y8.com.example.Notes.shared
            as Widget find generic-password account="a"
            expect status errSecSuccess

            """)
        let report = Interpreter.run(path: f.path("s.kcs"))
        #expect(report.verdict == .passed, "\(report.diagnostics.map(\.message))")
        let said = report.diagnostics.map { "\($0.severity) \($0.code.rawValue) \($0.location?.line ?? 0) \($0.message) | \($0.hint ?? "")" }
        #expect(said.count == 2, "\(said)")
        #expect(said.contains { $0.hasPrefix("warning KCS602 2 cannot read the xcconfig file '") && $0.contains("Pods-App.release.xcconfig")
                    && $0.contains("| CocoaPods writes it: run `pod install` first; settings it would give are left out") }, "\(said)")
        #expect(said.contains { $0.hasPrefix("warning KCS602 3 cannot read the xcconfig file '") && $0.contains("Secrets.xcconfig")
                    && $0.contains("copy Secrets.template.xcconfig to Secrets.xcconfig first") }, "\(said)")
        // What the import says of the same file, in the same words.
        let imported = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions())
        #expect(imported.diagnostics.contains { $0.message.contains("Secrets.xcconfig") && $0.severity == .warning
                    && report.diagnostics.map(\.message).contains($0.message) }, "\(imported.diagnostics.map(\.message))")
        // An app that cannot be built is still an error: no bundle ID.
        f.targets[0].settings["Release"]?["PRODUCT_BUNDLE_IDENTIFIER"] = ""
        f.projectXCConfig = [:]
        f.writeProject()
        let refused = Interpreter.run(path: f.path("s.kcs"))
        #expect(refused.diagnostics.first?.severity == .error, "\(refused.diagnostics.map(\.message))")
        #expect(refused.verdict != .passed)
    }
}

extension Diagnostic {
    /// The lines of the uses a code finding is about: a finding said once at
    /// its constant for several uses, those of its "used here" notes; any
    /// other, its own.
    var useLines: [Int] {
        let uses = notes.compactMap { n in n.message == "used here" ? n.range.flatMap { n.file?.location(of: $0.start).line } : nil }
        return uses.isEmpty ? [location?.line ?? 0] : uses
    }

    /// "CODE LINE" for each use (``useLines``), in line order.
    static func byUse(_ all: [Diagnostic]) -> [String] {
        all.flatMap { d in d.useLines.map { (line: $0, text: "\(d.code.rawValue) \($0)") } }.sorted { $0.line < $1.line }.map(\.text)
    }
}

extension XcodeFixture {
    /// What `kcs lint --project` reports from the code of the written project.
    func codeFindings() throws -> [Diagnostic] {
        CodeCheck.run(try ProjectLint.load(projectPath, packages: PackageManifestReader()).get())
    }

    /// The app, widget and share extension, the Debug configuration
    /// defining `flag`, and `source` as App/KeychainStore.swift.
    static func debugFlag(_ flag: String, source: String) -> XcodeFixture {
        var f = XcodeFixture.appWidgetShare()
        f.projectSettings["Debug"]?["SWIFT_ACTIVE_COMPILATION_CONDITIONS"] = flag
        f.write("App/KeychainStore.swift", source)
        f.writeProject()
        return f
    }

    /// What the code check reports in one configuration about a file.
    func codeFindings(configuration: String, in file: String) throws -> [Diagnostic] {
        try CodeCheck.run(ProjectLint.load(projectPath, configuration: configuration).get()).filter { $0.file?.name.hasSuffix(file) == true }
    }
}

/// The names of the Swift files the code check reads for `target`, sorted.
private func swiftFileNames(of target: String, in lint: ProjectLint) throws -> [String] {
    let found = try #require(lint.project.targets.first { $0.name == target })
    return lint.project.code(of: found).swiftSources.map { ($0 as NSString).lastPathComponent }.sorted()
}
