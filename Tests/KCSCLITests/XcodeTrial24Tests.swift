import Foundation
import Testing

/// Real-project trial 24, each case reduced to a small project with the
/// one change the trial's reproduction made.
extension XcodeRealProjectsTests {
    /// An imported scenario's `expect groups` are worked out for the platform
    /// version its `platform` line says: an iOS 12 app's list ends in
    /// com.apple.token, and its own run passes (Mumble's
    /// `IPHONEOS_DEPLOYMENT_TARGET = 12.0`; real-project trial 24, D1).
    @Test func anImportExpectsTheGroupsOfTheVersionItWrites() throws {
        for (deployment, written, token) in [("12.0", 12, true), ("13.0", 13, true), ("14.0", 14, false)] {
            let f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            let base = (try? String(contentsOfFile: f.path("Config/Base.xcconfig"), encoding: .utf8)) ?? ""
            f.write("Config/Base.xcconfig", base.replacingOccurrences(of: "IPHONEOS_DEPLOYMENT_TARGET = 17.0", with: "IPHONEOS_DEPLOYMENT_TARGET = \(deployment)"))
            let scenario = f.path("imported.kcs")
            let imported = try BinaryRunner.run(["import", "xcode", f.projectPath, "-o", scenario])
            #expect(imported.status == 0, "\(imported.stderr)")
            let text = (try? String(contentsOfFile: scenario, encoding: .utf8)) ?? ""
            #expect(text.contains("platform ios \(written)\n"), "\(text)")
            // The app's list (`kcs fmt` may break it over lines).
            let app = text.range(of: "expect groups App ").map { String(text[$0.upperBound...].prefix { $0 != "]" }) } ?? ""
            #expect(app.contains("com.apple.token") == token, "\(text)")
            let run = try BinaryRunner.run(["run", scenario])
            #expect(run.status == 0 && run.stdout.contains(" passed, 0 failed") && !run.stderr.contains("[KCS401]"), "\(run.stdout)\(run.stderr)")
        }
    }
}

extension XcodeRealProjectsTests {
    /// Configurations signed by different teams get a finding each, worded
    /// for its own team: Userscripts' Release (team J74Q8V8V8N) was folded
    /// into Debug's finding for team XXXXXXXXXX, and told to write
    /// XXXXXXXXXX.… (real-project trial 24, D2).
    @Test func configurationsOfDifferentTeamsGetAFindingEach() throws {
        let team = XcodeFixture.team, release = "ABCDE12345", other = "QWERT67890"
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[0].settings["Release"]?["DEVELOPMENT_TEAM"] = release
        f.writeEntitlements("App/App.entitlements", keychain: ["\(other).com.example.Notes.shared"])
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath, "--configuration", "Release"])
        let kcs510 = lint.stderr.split(separator: "\n").filter { $0.contains("[KCS510]") && $0.contains("target 'App'") }
        #expect(kcs510.count == 2, "\(lint.stderr)")
        #expect(kcs510.contains { $0.contains("target 'App' (configuration 'Release'): ") && $0.contains("signed by team \(release) [KCS510]") }, "\(lint.stderr)")
        #expect(kcs510.contains { $0.contains("target 'App' (configuration 'Debug'): ") && $0.contains("signed by team \(team) [KCS510]") }, "\(lint.stderr)")
        #expect(lint.stderr.contains("Write \(release).com.example.Notes.shared"), "\(lint.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// A keychain group a setting leaves with an empty part where it is
    /// unset (DuckDuckGo's `$(AppIdentifierPrefix)$(VAULT_APP_GROUP)`, set
    /// only for Alpha, is `HKE973VLUW.` in Release) is one warning in both
    /// lints: `lint --project` said a note ("a suffix for Debug is as
    /// meant"), the imported scenario's lint a KCS510 whose hint offered the
    /// bare team ID (real-project trial 24, D3).
    @Test func aGroupLeftWithAnEmptyPartIsAWarningInBothLints() throws {
        let team = XcodeFixture.team
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[0].settings["Debug"]?["VAULT_APP_GROUP"] = "com.example.vault"
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)$(VAULT_APP_GROUP)", "$(AppIdentifierPrefix)com.example.Notes.shared"],
                            appGroups: ["group.com.example.notes"])
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        let said = lint.stderr.split(separator: "\n").filter { $0.contains("$(VAULT_APP_GROUP) is set only in configuration 'Debug'") }
        #expect(said.count == 1 && said[0].contains(": warning: ") && said[0].contains("which leaves the group \(team). with an empty part")
                    && said[0].hasSuffix("[KCS510]"), "\(lint.stderr)")
        #expect(!lint.stderr.contains("a suffix for Debug") && lint.status != 0, "\(lint.stderr)")
        let scenario = f.path("imported.kcs")
        let imported = try BinaryRunner.run(["import", "xcode", f.projectPath, "-o", scenario])
        #expect(imported.stderr.contains("with an empty part") && imported.stderr.contains("[KCS510]"), "\(imported.stderr)")
        let again = try BinaryRunner.run(["lint", scenario])
        #expect(again.stderr.contains("keychain group \(team). has an empty part: it is the team prefix with no name after it [KCS510]"), "\(again.stderr)")
        #expect(!again.stderr.contains("did you mean \(team)?"), "\(again.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// KCS510's hint for another team's prefix names no third-party project
    /// ("IceCubes ships such a group"; real-project trial 24, W5).
    @Test func anotherTeamsPrefixHintNamesNoProject() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.writeEntitlements("App/App.entitlements", keychain: ["QWERT67890.com.example.Notes.shared"])
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(lint.stderr.contains("carries the prefix of team QWERT67890") && lint.stderr.contains("legacy App ID prefix"), "\(lint.stderr)")
        #expect(!lint.stderr.contains("IceCubes"), "\(lint.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// Without --platform, the import takes the platform of the first app
    /// whose platform kcs can tell: MSAL's first app sets SDKROOT in an
    /// absent submodule's xcconfig, and the import of its iOS and macOS apps
    /// failed (real-project trial 24, W8).
    @Test func anImportWithoutPlatformTakesTheFirstAppWhosePlatformIsKnown() throws {
        var f = XcodeFixture()
        defer { f.remove() }
        let team = XcodeFixture.team
        f.targets = [
            .init(name: "Host", settings: ["Debug": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Host", "DEVELOPMENT_TEAM": team],
                                           "Release": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Host", "DEVELOPMENT_TEAM": team]],
                  xcconfig: ["Debug": "Submodule/Config/Platform.xcconfig", "Release": "Submodule/Config/Platform.xcconfig"]),
            .init(name: "App", settings: ["Debug": ["SDKROOT": "iphoneos", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.App", "DEVELOPMENT_TEAM": team],
                                          "Release": ["SDKROOT": "iphoneos", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.App", "DEVELOPMENT_TEAM": team]]),
        ]
        f.writeProject()
        let scenario = f.path("imported.kcs")
        let imported = try BinaryRunner.run(["import", "xcode", f.projectPath, "-o", scenario])
        #expect(imported.status == 0, "\(imported.stderr)")
        let text = (try? String(contentsOfFile: scenario, encoding: .utf8)) ?? ""
        #expect(text.contains("platform ios ") && text.contains("app com.example.App as App"), "\(text)")
        #expect(text.contains("# not imported: Host, whose platform kcs cannot tell"), "\(text)")
    }
}

extension XcodeRealProjectsTests {
    /// KCS604 says a group built from a setting no level defines as
    /// written, not as what the empty setting leaves: IceCubes' Debug
    /// "stores in Z6P74P6T99..IceCubesApp, group..IceCubesApp"
    /// (real-project trial 24, W10).
    @Test func groupsFromAnUndefinedSettingAreShownAsWritten() throws {
        let team = XcodeFixture.team
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)$(BUNDLE_ID_PREFIX).Notes"], appGroups: ["group.$(BUNDLE_ID_PREFIX).Notes"])
        f.writeEntitlements("Widget/Widget.entitlements", keychain: [])
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        let kcs604 = lint.stderr.split(separator: "\n").filter { $0.contains("target 'Widget' is embedded in 'App'") && $0.contains("[KCS604]") }
        #expect(kcs604.count == 1 && kcs604[0].contains("stores in $(AppIdentifierPrefix)$(BUNDLE_ID_PREFIX).Notes, group.$(BUNDLE_ID_PREFIX).Notes"), "\(lint.stderr)")
        #expect(!kcs604.contains { $0.contains("\(team)..Notes") || $0.contains("group..Notes") }, "\(lint.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// An app group with an empty part (an xcconfig prefix with a trailing
    /// dot, DuckDuckGo's `GROUP_ID_PREFIX = group.com.duckduckgo.`) is a
    /// KCS511 with a note at the setting, as KCS510 says it of keychain
    /// groups (real-project trial 24, W4).
    @Test func anAppGroupWithAnEmptyPartIsSaidAtTheSetting() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let base = (try? String(contentsOfFile: f.path("Config/Base.xcconfig"), encoding: .utf8)) ?? ""
        f.write("Config/Base.xcconfig", base + "GROUP_ID_PREFIX = group.com.example.\n")
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"], appGroups: ["$(GROUP_ID_PREFIX).notes"])
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(lint.stderr.contains("app group group.com.example..notes has an empty part [KCS511]"), "\(lint.stderr)")
        #expect(lint.stderr.contains("Base.xcconfig:7:1: note: GROUP_ID_PREFIX is 'group.com.example.' here, ending with a dot"), "\(lint.stderr)")
        #expect(lint.stderr.contains("did you mean group.com.example.notes?"), "\(lint.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// KCS609 for a group built at run time says it as a condition: the
    /// value may be nil there (NetNewsWire's Info.plist `AppGroup`, absent
    /// from the Mac app's Info.plist, so the Mac app passes no group;
    /// real-project trial 24, W2).
    @Test func aFileKeychainGroupBuiltAtRunTimeIsSaidAsACondition() throws {
        var f = XcodeLintTests.oneApp(sources: ["Store.swift"])
        defer { f.remove() }
        f.projectSettings["Release"]?["SDKROOT"] = "macosx"
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.shared"])
        f.write("App/Store.swift", """
            import Foundation
            import Security
            private let keychainGroup: String? = {
                guard let appGroup = Bundle.main.object(forInfoDictionaryKey: "AppGroup") as? String else { return nil }
                let prefix = Bundle.main.object(forInfoDictionaryKey: "AppIdentifierPrefix") as! String
                return "\\(prefix)\\(appGroup.suffix(appGroup.count - 6))"
            }()
            func save(_ data: Data) -> OSStatus {
                var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: data]
                if let securityGroup = keychainGroup {
                    query[kSecAttrAccessGroup as String] = securityGroup
                }
                return SecItemAdd(query as CFDictionary, nil)
            }

            """)
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        let kcs609 = lint.stderr.split(separator: "\n").filter { $0.contains("[KCS609]") }
        #expect(kcs609.count == 1 && kcs609[0].contains("passes kSecAttrAccessGroup, when ") && kcs609[0].contains("(built at run time) holds a group, in a dictionary"),
                "\(lint.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// A misspelt setting in an xcconfig's PRODUCT_BUNDLE_IDENTIFIER gets
    /// the did-you-mean an entitlements value gets, and the finding says
    /// the bundle ID is then empty (Userscripts' `$(EXT_IDENTIFER)`;
    /// real-project trial 24, W3).
    @Test func aMisspeltSettingInABundleIDGetsADidYouMean() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let base = (try? String(contentsOfFile: f.path("Config/Base.xcconfig"), encoding: .utf8)) ?? ""
        f.write("Config/Base.xcconfig", base + "EXT_IDENTIFIER = com.example.Notes.Share\n")
        for c in ["Debug", "Release"] { f.targets[2].settings[c]?["PRODUCT_BUNDLE_IDENTIFIER"] = "$(EXT_IDENTIFER)" }
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(lint.stderr.contains("uses $(EXT_IDENTIFER), which no level of the project defines; Xcode expands it to nothing, which leaves the bundle ID empty [KCS602]"),
                "\(lint.stderr)")
        #expect(lint.stderr.contains("hint: did you mean $(EXT_IDENTIFIER) for $(EXT_IDENTIFER)? define the setting, or check its spelling"), "\(lint.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// CODE_SIGN_ENTITLEMENTS with a setting no level defines that names an
    /// existing file when unset is a hook a build sets on the command line
    /// (CotEditor's `$(CODE_SIGN_ENTITLEMENTS_SUFFIX)`, `-AdHoc` in CI): a
    /// note; a typo of a defined setting stays a warning (real-project trial 24, W1).
    @Test func anEntitlementsSuffixHookIsANote() throws {
        for (setting, note) in [("CODE_SIGN_ENTITLEMENTS_SUFFIX", true), ("PRODUCT_NAM", false)] {
            var f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            for c in ["Debug", "Release"] { f.targets[0].settings[c]?["CODE_SIGN_ENTITLEMENTS"] = "App/App$(\(setting)).entitlements" }
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            let said = lint.stderr.split(separator: "\n").filter { $0.contains("CODE_SIGN_ENTITLEMENTS (target 'App'") && $0.contains("uses $(\(setting))") }
            #expect(said.count == 1 && said[0].contains(note ? ": note: " : ": warning: "), "\(lint.stderr)")
            #expect(lint.stderr.contains("a hook a build sets on the command line (xcodebuild … CODE_SIGN_ENTITLEMENTS_SUFFIX=…)") == note, "\(lint.stderr)")
        }
    }
}
