import Foundation
import KCSCodeCheck
import KCSLanguage
import KCSXcode
import KCSXcodeProject
import Testing

/// Real-project trial 21, each case reduced to the docs project with the
/// one change the trial's reproduction made.
extension XcodeRealProjectsTests {
    /// A source whose build file is filtered to macOS (`platformFilters =
    /// (macos, );`, Xcode's "Platforms: macOS" on one file) is not compiled
    /// in the iOS build: its call was checked there (Firezone's macOS-only
    /// CLI sources; real-project trial 21, D1). The share extension's only
    /// source names a group without its team prefix (KCS607).
    @Test func aSourceFilteredToAnotherPlatformIsNotCheckedInThisBuild() throws {
        for (filters, checked) in [([String]?.none, true), (["macos"], false), (["ios"], true), (["ios", "maccatalyst"], true), (["watchos"], false)] {
            var f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            if let filters { f.targets[2].sourceFilters = ["ShareViewController.swift": filters] }
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            #expect(lint.stderr.contains("ShareViewController.swift:6:") == checked, "\(filters ?? []): \(lint.stderr)")
            // KCS604's reason is the build's code too.
            #expect(lint.stderr.contains("kSecClass in ShareViewController.swift") == checked, "\(filters ?? []): \(lint.stderr)")
            // Its one source filtered out, it is not asked for want of one.
            #expect(lint.stderr.contains("target 'Share Extension' is embedded in 'App' but shares no group") == checked, "\(filters ?? []): \(lint.stderr)")
        }
        // A synchronized folder's exception set filters a file the same way
        // (`platformFiltersByRelativePath`).
        for filters in [["macos"], ["ios"]] {
            var f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            f.targets[2].sources = []
            f.targets[2].synchronizedFolders = ["ShareKit"]
            f.synchronizedPlatformFilters = [(folder: "ShareKit", target: "Share Extension", filters: ["Mac/Reader.swift": filters])]
            // The share extension's own source, moved into the folder.
            f.write("ShareKit/Mac/Reader.swift", try String(contentsOfFile: f.path("Share/ShareViewController.swift"), encoding: .utf8))
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            #expect(lint.stderr.contains("Reader.swift:6:") == (filters == ["ios"]), "\(filters): \(lint.stderr)")
        }
    }
}

extension XcodeRealProjectsTests {
    /// An entitlements file one configuration names but kcs cannot read
    /// grants groups kcs does not know: its KCS602 is the one finding, not
    /// a KCS605 and a KCS603 against it for each other configuration (Jami's
    /// deleted `NotificationService-release.entitlements` gave 7 warnings;
    /// real-project trial 21, D4). Either side: the lint's configuration
    /// (Release) or another.
    @Test func anUnreadableEntitlementsFileIsNotComparedWithTheOtherConfigurations() throws {
        for missing in ["Release", "Debug"] {
            var f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            f.configurations = ["Debug", "Development", "Release"]
            var widget = f.targets[1].settings["Release"] ?? [:]
            f.targets[1].settings["Development"] = widget
            widget["CODE_SIGN_ENTITLEMENTS"] = "Widget/Widget-gone.entitlements"
            f.targets[1].settings[missing] = widget
            f.projectSettings["Development"] = f.projectSettings["Release"]
            f.projectXCConfig["Development"] = f.projectXCConfig["Release"]
            f.targets[0].settings["Development"] = f.targets[0].settings["Release"]
            f.targets[2].settings["Development"] = f.targets[2].settings["Release"]
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            let widgetFindings = lint.stderr.split(separator: "\n").filter { $0.contains("warning:") && $0.contains("'Widget'") }
            #expect(widgetFindings.count == 1 && widgetFindings.first?.contains("Widget-gone.entitlements': no such file [KCS602]") == true,
                    "\(missing): \(lint.stderr)")
            #expect(!lint.stderr.contains("[KCS603]") && !lint.stderr.contains("signs with"), "\(missing): \(lint.stderr)")
        }
    }
}

extension XcodeRealProjectsTests {
    /// An extension signed by another team than the app that embeds it
    /// shares no group with it, whatever both entitlements files list: that
    /// is said once, at its DEVELOPMENT_TEAM, and KCS607's fix is the team,
    /// not a group under the extension's own (GlucoseDirect's widget with a
    /// team of its own in Release; real-project trial 21, D3).
    @Test func anExtensionSignedByAnotherTeamIsNamedAndTheFixIsTheTeam() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        for c in ["Debug", "Release"] {
            f.targets[1].settings[c]?["DEVELOPMENT_TEAM"] = "ABCDE12345"
            f.targets[1].settings[c]?["PRODUCT_BUNDLE_IDENTIFIER"] = "com.ABCDE12345.Notes.Widget"
        }
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        let kcs604 = lint.stderr.split(separator: "\n").filter { $0.contains("[KCS604]") && $0.contains("target 'Widget'") }
        #expect(kcs604.count == 1 && kcs604.first?.contains(
            "warning: target 'Widget' is signed by team ABCDE12345, and 'App', which embeds it, by SKMME9E2Y8 (configuration 'Release'): "
            + "it shares no keychain or app group with it, whatever the entitlements files list; "
            + "its bundle ID com.ABCDE12345.Notes.Widget is not under com.example.Notes, 'App''s, as an embedded bundle's must be [KCS604]") == true,
            "\(lint.stderr)")
        #expect(kcs604.first?.hasPrefix(f.projectPath + "/project.pbxproj:") == true, "\(lint.stderr)")
        #expect(lint.stderr.contains("hint: sign 'Widget' with team SKMME9E2Y8 (its DEVELOPMENT_TEAM)"), "\(lint.stderr)")
        #expect(!lint.stderr.contains("target 'Widget' is embedded in 'App' but shares no group"), "\(lint.stderr)")
        // The widget's call names the app's group: the fix is its team.
        #expect(lint.stderr.contains("hint: SKMME9E2Y8 is the team of 'App', which embeds 'Widget', and 'Widget' is signed by ABCDE12345: "
            + "sign it with team SKMME9E2Y8 (its DEVELOPMENT_TEAM)"), "\(lint.stderr)")
        #expect(!lint.stderr.contains("so write \"ABCDE12345."), "\(lint.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// A folder with an XcodeGen spec and a workspace whose
    /// contents.xcworkspacedata is not committed (only its xcshareddata), or
    /// lists no project: the spec is the way, not the workspace
    /// (AlphaWallet; real-project trial 21, D8). A YAML file that is not a
    /// spec does not count.
    @Test func anEmptyWorkspaceBesideAnXcodeGenSpecSaysToGenerate() throws {
        for contents in [String?.none, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Workspace version = \"1.0\">\n</Workspace>\n"] {
            let f = XcodeFixture()
            defer { f.remove() }
            f.write("Wallet.xcworkspace/xcshareddata/WorkspaceSettings.xcsettings", "<plist/>\n")
            if let contents { f.write("Wallet.xcworkspace/contents.xcworkspacedata", contents) }
            f.write("crowdin.yml", "files:\n  - source: /en.lproj/*.strings\n")
            f.write("project.yml", "name: Wallet\noptions:\n  bundleIdPrefix: com.example\ntargets:\n  Wallet:\n    type: application\n")
            let out = try BinaryRunner.run(["lint", "--project", "."], directory: f.root)
            #expect(out.stderr.contains("project.yml:1:1: error: '.' holds no .xcodeproj, and its Xcode workspace 'Wallet.xcworkspace' names none: "
                + (contents == nil ? "its contents.xcworkspacedata cannot be read (no such file)" : "it lists no .xcodeproj")
                + "; it holds XcodeGen's description of a project, 'project.yml' [KCS601]"), "\(out.stderr)")
            #expect(out.stderr.contains("hint: run `xcodegen generate --spec project.yml` in '.' first, then give the .xcodeproj it writes"), "\(out.stderr)")
            let imported = try BinaryRunner.run(["import", "xcode", "."], directory: f.root)
            #expect(imported.stderr.contains("xcodegen generate --spec project.yml"), "\(imported.stderr)")
        }
        // Without a spec, the workspace is what is said.
        let f = XcodeFixture()
        defer { f.remove() }
        f.write("Wallet.xcworkspace/xcshareddata/WorkspaceSettings.xcsettings", "<plist/>\n")
        f.write("crowdin.yml", "files:\n  - source: /en.lproj/*.strings\n")
        let out = try BinaryRunner.run(["lint", "--project", "."], directory: f.root)
        #expect(out.stderr.contains("its contents.xcworkspacedata cannot be read (no such file)") && !out.stderr.contains("xcodegen"), "\(out.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// A configuration that signs with no entitlements file: the fix is
    /// CODE_SIGN_ENTITLEMENTS for it (to the file another configuration
    /// signs with, when that lists the group), not a group added to a file
    /// it does not have; and KCS605 says what it loses, without a KCS603
    /// too (Linphone's notification service with no file in Release, VLC's
    /// widget; real-project trial 21, W1).
    @Test func aConfigurationWithNoEntitlementsFileIsToldToSetTheSetting() throws {
        for debugHasFile in [true, false] {
            var f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            f.targets[1].settings["Release"]?["CODE_SIGN_ENTITLEMENTS"] = nil
            if !debugHasFile { f.targets[1].settings["Debug"]?["CODE_SIGN_ENTITLEMENTS"] = nil }
            f.writeEntitlements("Widget/Widget.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"], appGroups: ["group.com.example.notes"])
            f.write("Widget/Provider.swift", """
                import Security

                func read() -> OSStatus {
                    _ = UserDefaults(suiteName: "group.com.example.notes")
                    var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
                    query[kSecAttrAccessGroup as String] = "\(XcodeFixture.team).com.example.Notes.shared"
                    return SecItemCopyMatching(query as CFDictionary, nil)
                }

                """)
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            let file = f.path("Widget/Widget.entitlements")
            let said = "'Widget' signs with no entitlements file in configuration 'Release': set its CODE_SIGN_ENTITLEMENTS "
            if debugHasFile {
                #expect(lint.stderr.contains("hint: " + said + "for 'Release' to '\(file)', which 'Debug' signs with and which lists group.com.example.notes"), "\(lint.stderr)")
                #expect(lint.stderr.contains("hint: " + said + "for 'Release' to '\(file)', which 'Debug' signs with and which lists SKMME9E2Y8.com.example.Notes.shared"),
                        "\(lint.stderr)")
                #expect(lint.stderr.contains("hint: set CODE_SIGN_ENTITLEMENTS of 'Release' to '\(file)' too: without a file it has none of the groups "
                    + "SKMME9E2Y8.com.example.Notes.shared, group.com.example.notes, so a build that works in Debug may fail in Release"), "\(lint.stderr)")
                #expect(!lint.stderr.contains("[KCS603]"), "\(lint.stderr)")
                // KCS604's fix is the setting too.
                #expect(lint.stderr.contains("shares no group with it") && lint.stderr.contains("): " + said + "for 'Release' to '\(file)'"), "\(lint.stderr)")
            } else {
                #expect(lint.stderr.contains("hint: " + said + "to a file that lists group.com.example.notes"), "\(lint.stderr)")
            }
            #expect(!lint.stderr.contains("to its com.apple.security.application-groups"), "\(lint.stderr)")
        }
    }
}

extension XcodeRealProjectsTests {
    /// A typo in a constant with a value per `#if` branch is said once, at
    /// the branch the build compiles, as a plain constant's is, whatever
    /// `#if` each use sits under (NetBird: 29 warnings for one typo;
    /// real-project trial 21, D6).
    @Test func aTypoInAConstantWithAValuePerBranchIsSaidOnceAtTheBranch() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.writeEntitlements("Widget/Widget.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"], appGroups: ["group.com.example.notes"])
        f.write("Widget/Constants.swift", """
            import Foundation

            struct GlobalConstants {
            #if os(tvOS)
                static let suiteName = "group.com.example.notes.tv"
            #else
                static let suiteName = "group.com.example.notse"
            #endif
            }

            """)
        f.write("Widget/Provider.swift", """
            import Foundation

            func first() -> UserDefaults? { UserDefaults(suiteName: GlobalConstants.suiteName) }
            #if os(iOS)
            func second() -> UserDefaults? { UserDefaults(suiteName: GlobalConstants.suiteName) }
            #else
            func second() -> UserDefaults? { nil }
            #endif
            func third() -> URL? { FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: GlobalConstants.suiteName) }

            """)
        f.targets[1].sources.append("Constants.swift")
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        let kcs607 = lint.stderr.split(separator: "\n").filter { $0.contains("[KCS607]") && $0.contains("target 'Widget'") }
        #expect(kcs607.count == 1, "\(lint.stderr)")
        #expect(kcs607.first?.hasPrefix(f.path("Widget/Constants.swift") + ":7:") == true, "\(lint.stderr)")
        #expect(kcs607.first?.contains("names the app group group.com.example.notse, which it is not entitled to: ") == true
                    && kcs607.first?.contains("(said once for its 3 uses)") == true, "\(lint.stderr)")
        #expect(lint.stderr.contains("did you mean \"group.com.example.notes\"?"), "\(lint.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// KCS604's "asked because its code names … an app group" counts a
    /// `group.` literal in a property's value only when the target's code
    /// uses the property (Focus's widget compiles AppInfo.swift and calls
    /// only `AppInfo.shortProductName`), and a `suiteName:` literal only
    /// when it could be an app group (Secretive's Updater's
    /// `"com.maxgoedjen.Secretive.updater.ignorelist"` is its own suite;
    /// real-project trial 21, D5).
    @Test func kcs604CountsOnlyAppGroupCodeTheExtensionUses() throws {
        let appInfo = """
            import Foundation

            enum AppInfo {
                static var sharedContainerIdentifier: String { "group." + baseBundleIdentifier }
                static var baseBundleIdentifier: String { Bundle.main.bundleIdentifier ?? "" }
                static var shortProductName: String { "Notes" }
            }

            """
        for (code, asked) in [
            ("func title() -> String { AppInfo.shortProductName }\n", false),
            ("func title() -> String { AppInfo.sharedContainerIdentifier }\n", true),
            ("func f() { _ = UserDefaults(suiteName: \"com.example.Notes.updater.ignorelist\") }\n", false),
            ("func f() { _ = UserDefaults(suiteName: \"group.com.example.notes\") }\n", true),
            ("func f(_ s: String) { _ = UserDefaults(suiteName: s) }\n", true),
            ("func f() { _ = UserDefaults(suiteName: \"SKMME9E2Y8.com.example.notes\") }\n", true),
        ] {
            let f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            f.write("Share/ShareViewController.swift", appInfo + code)
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            #expect(lint.stderr.contains("target 'Share Extension' is embedded in 'App' but shares no group") == asked, "\(code): \(lint.stderr)")
        }
    }
}

extension XcodeRealProjectsTests {
    /// A group joined with `+` on an assignment's right-hand side is worked
    /// out as in a `let` or a dictionary literal: `query[kSecAttrAccessGroup
    /// as String] = "TEAM." + Consts.g` and `.accessGroup = "TEAM." + g` were
    /// "built at run time" (Zotero; real-project trial 21, D2).
    @Test func aPlusJoinAssignedToTheAccessGroupIsChecked() throws {
        for (assignment, typo) in [
            ("query[kSecAttrAccessGroup as String] = \"SKMME9E2Y8.\" + Consts.g", true),
            ("query[kSecAttrAccessGroup as String] = \"SKMME9E2Y8.\" + Consts.g", false),
            ("store.accessGroup = \"SKMME9E2Y8.\" + Consts.g", true),
        ] {
            let f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            f.writeEntitlements("Widget/Widget.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"], appGroups: ["group.com.example.notes"])
            f.write("Widget/Provider.swift", """
                import Security
                enum Consts { static let g = "com.example.Notes.\(typo ? "sharde" : "shared")" }
                final class Store { var accessGroup: String? }
                func read(store: Store) -> OSStatus {
                    var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
                    \(assignment)
                    return SecItemCopyMatching(query as CFDictionary, nil)
                }

                """)
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            #expect(!lint.stderr.contains("[KCS608]"), "\(assignment): \(lint.stderr)")
            #expect(lint.stderr.contains("names the access group SKMME9E2Y8.com.example.Notes.sharde, which it is not entitled to") == typo,
                    "\(assignment): \(lint.stderr)")
        }
    }
}

extension XcodeRealProjectsTests {
    /// However many keychain files a framework has, each counts only when
    /// the extension's code names what it declares, a file of `extension`
    /// members by their names: past eight such files, and for a file of
    /// extension members, the check was skipped and the file taken as a
    /// reason (review 20, R2).
    @Test func kcs604ChecksEveryLinkedKeychainFileForUse() throws {
        for calls in [false, true] {
            var f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            let stores = (1...9).map { "Store\($0).swift" }
            f.targets.append(XcodeFixture.Target(name: "Kit", productType: "com.apple.product-type.framework", sources: stores + ["Vault+Keychain.swift"]))
            f.targets[2].links = ["Kit"]
            for (i, file) in stores.enumerated() {
                f.write("Kit/" + file, "import Security\n\npublic final class Store\(i + 1) {\n"
                    + "    public func load() -> OSStatus { SecItemCopyMatching([kSecClass as String: kSecClassGenericPassword] as CFDictionary, nil) }\n}\n")
            }
            f.write("Kit/Vault+Keychain.swift", "import Security\n\nextension Vault {\n"
                + "    public func unlockVault() -> OSStatus { SecItemCopyMatching([kSecClass as String: kSecClassKey] as CFDictionary, nil) }\n}\n")
            f.write("Share/ShareViewController.swift", "import Kit\n\nfunc share() {}\n" + (calls ? "func open(v: Vault) { _ = v.unlockVault() }\n" : ""))
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            #expect(lint.stderr.contains("target 'Share Extension' is embedded in 'App' but shares no group") == calls, "\(calls): \(lint.stderr)")
            if calls { #expect(lint.stderr.contains("(SecItemCopyMatching in Vault+Keychain.swift, in 'Kit', which it links)"), "\(lint.stderr)") }
        }
    }
}

extension XcodeRealProjectsTests {
    /// A keychain call in a framework's file counts as KCS604's reason only
    /// when some other file of the extension's code names what that file
    /// declares, as KCS607 asks: Secretive's XPC services were asked for
    /// CertificateKit's CertificateStore.swift, which nothing they compile
    /// names (real-project trial 21, D5).
    @Test func kcs604CountsAFrameworksKeychainCodeOnlyWhenTheExtensionNamesIt() throws {
        for calls in [false, true] {
            var f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            f.targets.append(XcodeFixture.Target(name: "Kit", productType: "com.apple.product-type.framework", sources: ["CertificateStore.swift", "Parser.swift"]))
            f.targets[2].links = ["Kit"]
            f.write("Kit/CertificateStore.swift", """
                import Security

                public final class CertificateStore {
                    public func load() -> OSStatus { SecItemCopyMatching([kSecClass as String: kSecClassCertificate] as CFDictionary, nil) }
                }

                """)
            f.write("Kit/Parser.swift", "public struct Parser {\n    public init() {}\n}\n")
            f.write("Share/ShareViewController.swift", "import Kit\n\nfunc parse() { _ = Parser() }\n" + (calls ? "func load() { _ = CertificateStore().load() }\n" : ""))
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            #expect(lint.stderr.contains("target 'Share Extension' is embedded in 'App' but shares no group") == calls, "\(calls): \(lint.stderr)")
            if calls { #expect(lint.stderr.contains("(SecItemCopyMatching in CertificateStore.swift, in 'Kit', which it links)"), "\(lint.stderr)") }
        }
    }
}

extension XcodeRealProjectsTests {
    /// The import's "has no team" points at the `DEVELOPMENT_TEAM = "";`
    /// line from its first character, as the lint does, not at column 1
    /// under the indentation (Food Truck, Jami; real-project trial 21, W10).
    @Test func theImportsNoTeamWarningStartsAtTheSetting() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[1].settings["Release"]?["DEVELOPMENT_TEAM"] = ""
        f.writeProject()
        let out = try BinaryRunner.run(["import", "xcode", f.projectPath, "-o", f.path("notes.kcs")])
        let line = try #require(out.stderr.split(separator: "\n").first { $0.contains("target 'Widget' has no team in configuration 'Release'") })
        #expect(line.hasPrefix(f.projectPath + "/project.pbxproj:") && line.contains(":5: warning:"), "\(out.stderr)")
        #expect(out.stderr.contains("    |     ^"), "\(out.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// KCS607's "it has no app groups" names the file to add the group to:
    /// a Mac Catalyst build signs with another file than the iOS one
    /// (CloudNotes' iOCNotes-mac.entitlements; real-project trial 21, W9).
    @Test func kcs607NamesTheFileThatLacksTheAppGroup() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("Widget/Provider.swift", "import Foundation\n\nfunc suite() -> UserDefaults? { UserDefaults(suiteName: \"group.com.example.widgetonly\") }\n")
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(lint.stderr.contains("hint: it has no app groups: add group.com.example.widgetonly to its com.apple.security.application-groups in '\(f.path("Widget/Widget.entitlements"))'"),
                "\(lint.stderr)")
    }
}
