import Foundation
import KCSCodeCheck
import KCSLanguage
import KCSXcode
import KCSXcodeProject
import Testing

/// Real-project trial 19, each case reduced to the docs project with the
/// one change the trial's reproduction made.
extension XcodeRealProjectsTests {
    /// The share extension of the docs project sharing only the app group,
    /// its code reading the keychain without naming a group.
    static func sharingOnlyTheAppGroup() -> XcodeFixture {
        let f = XcodeFixture.appWidgetShare()
        f.writeEntitlements("Share/Share.entitlements", keychain: [], appGroups: ["group.com.example.notes"])
        f.write("Share/ShareViewController.swift", """
            import Security

            func token() -> OSStatus {
                let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "sync"]
                return SecItemCopyMatching(query as CFDictionary, nil)
            }

            """)
        return f
    }

    /// KCS604's hint names the code kcs does not read: Unstoppable's intent
    /// extension was asked "because it has code kcs does not read (in
    /// another language, or a framework or package it links)" of a remote
    /// package product it did not name (real-project trial 19, W3).
    @Test func kcs604NamesTheCodeKcsDoesNotRead() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        // (Objective-C is read since session 21: C is not.)
        f.targets[2].sources = ["ShareViewController.swift", "Bridge.c", "Helper.c"]
        f.targets[2].packageProducts = [.init(name: "HsToolKit")]
        f.write("Share/ShareViewController.swift", "func title(_ s: String) -> String { s.uppercased() }\n")
        f.write("Share/Bridge.c", "int bridge(void) { return 0; }\n")
        f.write("Share/Helper.c", "int helper(void) { return 0; }\n")
        f.writeProject()
        let out = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(out.stderr.contains("asked because it has code kcs does not read (package product 'HsToolKit', 2 C sources, the first 'Bridge.c'): add "),
                "\(out.stderr)")
        // A framework it links, and one source in another language.
        f.targets[2].packageProducts = []
        f.targets[2].sources = ["ShareViewController.swift", "Bridge.c"]
        f.write("Share/Bridge.c", "int bridge(void) { return 0; }\n")
        f.targets[2].frameworks = ["Vendor.framework"]
        f.writeProject()
        let hint = try ProjectLint.load(f.projectPath).get().run().first { $0.code == .projectExtensionGroup }?.hint
        #expect(hint?.hasPrefix("asked because it has code kcs does not read (the C source 'Bridge.c', the framework 'Vendor.framework'): ") == true, "\(hint ?? "")")
    }

    /// Lockdown's tunnel and widgets: the extension shares the app group,
    /// lacks the keychain group the app's code stores in, and its keychain
    /// code names none. The shared app group made KCS604 silent
    /// (real-project trial 19, D2).
    @Test func anExtensionSharingOnlyAnAppGroupLacksTheAppsKeychainGroup() throws {
        let f = Self.sharingOnlyTheAppGroup()
        defer { f.remove() }
        let d = try f.codeFindings().filter { $0.code == .projectExtensionGroup }
        #expect(d.map(\.message) == ["target 'Share Extension' is embedded in 'App' and shares only group.com.example.notes with it (configuration 'Release'): "
                + "it cannot read what 'App' stores in SKMME9E2Y8.com.example.Notes.shared"], "\(d.map(\.message))")
        #expect(d.first?.file?.name.hasSuffix("Share.entitlements") == true)
        #expect(d.first?.hint?.hasPrefix("add $(AppIdentifierPrefix)com.example.Notes.shared to the keychain-access-groups of 'Share Extension'") == true,
                "\(d.first?.hint ?? "")")
        #expect(d.first?.hint?.contains("kSecClass in ShareViewController.swift) and names no access group") == true, "\(d.first?.hint ?? "")")
        #expect(d.first?.notes.first?.message == "'App' names SKMME9E2Y8.com.example.Notes.shared here")
    }

    /// No false positives: an extension without keychain code, one that
    /// names the group it reads, one that holds the app's group, and an app
    /// whose group kcs cannot work out.
    @Test func sharingOnlyAnAppGroupIsSaidOnlyWhenBothSidesAreKnown() throws {
        func kcs604(_ change: (inout XcodeFixture) -> Void) throws -> [String] {
            var f = Self.sharingOnlyTheAppGroup()
            defer { f.remove() }
            change(&f)
            f.writeProject()
            return try f.codeFindings().filter { $0.code == .projectExtensionGroup }.map(\.message)
        }
        #expect(try kcs604 { f in
            f.write("Share/ShareViewController.swift", "import Foundation\nlet d = UserDefaults(suiteName: \"group.com.example.notes\")\n")
        } == [], "no keychain code")
        #expect(try kcs604 { f in
            f.writeEntitlements("Share/Share.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"], appGroups: ["group.com.example.notes"])
        } == [], "holds the group")
        #expect(try kcs604 { f in
            f.write("App/KeychainStore.swift", """
                import Security
                func save(_ data: Data, group: String) -> OSStatus {
                    SecItemAdd([kSecAttrAccessGroup as String: group, kSecValueData as String: data] as CFDictionary, nil)
                }

                """)
        } == [], "the app's group is a parameter")
        #expect(try kcs604 { f in
            f.write("Share/ShareViewController.swift", """
                import Security
                func token() -> OSStatus {
                    SecItemCopyMatching([kSecClass as String: kSecClassGenericPassword, kSecAttrAccessGroup as String: "group.com.example.notes"] as CFDictionary, nil)
                }

                """)
        } == [], "reads the shared app group by name")
        // The app naming no group stores in its default group: said when
        // the keychain code runs in both (a file both compile), not for an
        // extension's keychain code of its own.
        func savingWithoutAGroup(_ f: inout XcodeFixture) {
            f.write("App/KeychainStore.swift", """
                import Security
                func save(_ data: Data) -> OSStatus {
                    SecItemAdd([kSecClass as String: kSecClassGenericPassword, kSecValueData as String: data] as CFDictionary, nil)
                }

                """)
        }
        #expect(try kcs604(savingWithoutAGroup) == [], "code of its own")
        #expect(try kcs604 { f in f.projectSettings = ["Debug": ["SDKROOT": "macosx"], "Release": ["SDKROOT": "macosx"]] } == [],
                "the Mac's file-based keychain")
        let d = try kcs604 { f in
            savingWithoutAGroup(&f)
            f.targets[0].sources.append("../Share/ShareViewController.swift")
            // Called by both (real-project trial 20, D4).
            f.write("App/Main.swift", "func appMain() { _ = token() }\n")
            f.write("Share/Main.swift", "func shareMain() { _ = token() }\n")
            f.targets[0].sources.append("Main.swift")
            f.targets[2].sources.append("Main.swift")
        }
        #expect(d == ["target 'Share Extension' is embedded in 'App' and shares only group.com.example.notes with it (configuration 'Release'): "
                + "it cannot read what 'App' stores in its default keychain group SKMME9E2Y8.com.example.Notes.shared (its keychain code names none)"], "\(d)")
    }
}

extension XcodeRealProjectsTests {
    /// The share extension's sources as a synchronized folder `Share/`,
    /// its code in `Share/Acode/`, beside the folders `make` makes.
    static func synchronizedShare(_ make: (XcodeFixture) -> Void) -> XcodeFixture {
        var f = XcodeFixture.appWidgetShare()
        f.targets[2].sources = []
        f.targets[2].synchronizedFolders = ["Share"]
        try? FileManager.default.removeItem(atPath: f.path("Share/ShareViewController.swift"))
        f.write("Share/Acode/ShareViewController.swift", """
            import Security

            func read() -> OSStatus {
                SecItemCopyMatching([kSecAttrAccessGroup as String: "com.example.Notes.shared"] as CFDictionary, nil)
            }

            """)
        make(f)
        f.writeProject()
        return f
    }

    /// Unstoppable's asset catalogs: 2,100 `.imageset` folders walked
    /// before `Acode/` used up the walk's 2,000 folders, and its KCS607 was
    /// missed without a word (real-project trial 19, D4).
    @Test func assetCatalogsDoNotUseUpTheSynchronizedFolderWalk() throws {
        let f = Self.synchronizedShare { f in
            for i in 0..<2_100 { f.write("Share/Assets.xcassets/icon\(i).imageset/Contents.json", "{}\n") }
        }
        defer { f.remove() }
        let d = try f.codeFindings().filter { $0.code == .codeGroupNotEntitled }.map(\.message)
        #expect(d.contains { $0.hasPrefix("target 'Share Extension' (configuration 'Release') names the access group com.example.Notes.shared") }, "\(d)")
    }

    /// A walk a bound stops is said, where the synchronized folder is.
    @Test func aSynchronizedFolderWalkStoppedByItsBoundIsSaid() throws {
        let f = Self.synchronizedShare { f in
            for i in 0..<2_100 { f.write("Share/Folders/f\(i)/README.md", "\n") }
        }
        defer { f.remove() }
        let d = try ProjectLint.load(f.projectPath).get().run().filter { $0.message.hasPrefix("kcs stopped reading") }
        #expect(d.count == 1, "\(d.map(\.message))")
        #expect(d.first?.message.hasSuffix("/Share' after 2,000 folders: the Swift files past them are not checked") == true, "\(d.first?.message ?? "")")
        #expect(d.first?.file?.name.hasSuffix("project.pbxproj") == true)
    }
}

extension XcodeRealProjectsTests {
    /// The imported scenario is bounded as generated text is: 1,000 targets
    /// sharing 10,000 groups wrote 339 MB in 211 s (adversarial run 25, F12).
    @Test func anImportPastTheOutputLimitWritesNothing() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let full = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions())
        #expect(full.verdict == .passed && full.scenario.utf8.count > 200)
        var options = XcodeImportOptions()
        options.maxScenarioBytes = 200
        let bounded = XcodeImporter.importProject(f.projectPath, options: options)
        #expect(bounded.verdict == .failed && bounded.scenario.isEmpty)
        #expect(bounded.diagnostics.contains { $0.code == .runLimit && $0.message.hasPrefix("the imported scenario passes ") }, "\(bounded.diagnostics.map(\.message))")
    }

    /// `kcs import xcode --max-output` and `--untrusted` bound the scenario
    /// (they did not reach the importer, whose 64 MiB default alone held:
    /// `--max-output 100000` wrote 33.9 MB; adversarial run 26, F8).
    @Test func importXcodeTakesTheOutputLimit() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let full = try BinaryRunner.run(["import", "xcode", f.projectPath])
        #expect(full.status == 0 && full.stdout.utf8.count > 200, "\(full.stderr)")
        let bounded = try BinaryRunner.run(["import", "xcode", "--max-output", "200", f.projectPath])
        #expect(bounded.status == 1 && bounded.stdout.isEmpty, "\(bounded.stdout)")
        #expect(bounded.stderr.contains("over the output limit of 200; nothing was written [KCS311]"), "\(bounded.stderr)")
    }

    /// Authenticator keeps SDKROOT in Carthage's xcconfigs: nothing was
    /// imported, and --platform did not help (real-project trial 19, D1).
    @Test func aTargetOfUnknownPlatformIsImportedForTheGivenPlatform() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.projectSettings = [:]
        f.write("Config/Base.xcconfig", "#include \"Platform.xcconfig\"\n#include \"Team.xcconfig\"\nPRODUCT_BUNDLE_IDENTIFIER = com.example.$(PRODUCT_NAME:rfc1034identifier)\n")
        f.writeProject()
        let plain = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions())
        #expect(plain.verdict == .failed)
        #expect(plain.diagnostics.last?.hint == "its 3 targets 'App', 'Widget', 'Share Extension' are left out as kcs cannot tell which platform they build for (above): "
                    + "import with --platform ios (or macos, catalyst, watchos)", "\(plain.diagnostics.last?.hint ?? "")")
        #expect(plain.diagnostics.contains { $0.message == "cannot tell which platform target 'App' builds for: SDKROOT is not set"
                    && $0.hint?.hasPrefix("SDKROOT may be set in '") == true && $0.hint?.contains("Platform.xcconfig', which kcs cannot read") == true },
                "\(plain.diagnostics.map { "\($0.message) | \($0.hint ?? "")" })")
        var options = XcodeImportOptions()
        options.platform = "ios"
        let given = XcodeImporter.importProject(f.projectPath, options: options)
        #expect(given.verdict != .failed)
        #expect(given.scenario.contains("app com.example.Notes as App kind=app"), "\(given.scenario)")
        #expect(given.scenario.contains("as Share_Extension kind=extension"), "\(given.scenario)")
        #expect(given.diagnostics.contains { $0.hint == "imported as building for ios, as --platform says" })
        // The lint alike: the targets' groups and code were never looked
        // at, and --platform did not help (real-project trial 19, D1 (d), D5).
        let unchecked = try ProjectLint.load(f.projectPath).get()
        #expect(unchecked.signings.isEmpty)
        let lint = try ProjectLint.load(f.projectPath, platform: "ios").get()
        #expect(lint.signings.map(\.target.name).sorted() == ["App", "App", "Share Extension", "Share Extension", "Widget", "Widget"])
        let said = lint.run()
        #expect(said.contains { $0.message == "cannot tell which platform target 'App' builds for: SDKROOT is not set"
                    && $0.hint == "checked as building for ios, as --platform says" }, "\(said.map { "\($0.message) | \($0.hint ?? "")" })")
    }
}

extension XcodeRealProjectsTests {
    /// sing-box's and Yattee's tvOS targets sign with entitlements: a
    /// warning made the lint of a clean project exit 1 (real-project trial 19, W6).
    @Test func aTargetOnAPlatformKcsDoesNotModelIsANote() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        // A clean project: the share extension holds and names the shared group.
        f.writeEntitlements("Share/Share.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"])
        f.write("Share/ShareViewController.swift", "import Security\nlet q = [kSecAttrAccessGroup as String: \"\(XcodeFixture.team).com.example.Notes.shared\"]\n")
        f.setWidget("SDKROOT", "appletvos")
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        #expect(lint.stderr.contains("note: target 'Widget' builds for tvos, which kcs does not model [KCS602]"), "\(lint.stderr)")
        #expect(lint.stdout.contains(": no warnings (configuration Release)"), "\(lint.stdout)")
    }
}

extension XcodeRealProjectsTests {
    /// Unstoppable's `Widget-Dve.entitlements`: three warnings, no "did you
    /// mean", and "delete it" of the right file (real-project trial 19, W4).
    @Test func aMisspeltEntitlementsPathIsOneWarningWithDidYouMean() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.setWidget("CODE_SIGN_ENTITLEMENTS", "Widget/Widgte.entitlements")
        let d = try ProjectLint.load(f.projectPath).get().run().filter { $0.message.contains("Widget") }
        #expect(d.map(\.code) == [.projectSetting], "\(d.map(\.message))")
        #expect(d.first?.hint?.hasPrefix("did you mean '") == true && d.first?.hint?.contains("/Widget/Widget.entitlements'? ") == true,
                "\(d.first?.hint ?? "")")
    }
}

extension XcodeRealProjectsTests {
    /// ntfy's one misspelt app group: a KCS607 per API, and the holders
    /// hint dropped the "did you mean" (real-project trial 19, W2).
    @Test func oneAppGroupTypoIsOneCodeFindingWithDidYouMean() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.writeEntitlements("Share/Share.entitlements", keychain: [], appGroups: ["group.com.example.ntoes"])
        f.write("Share/ShareViewController.swift", """
            import Foundation

            enum Store {
                static let appGroup = "group.com.example.notes"
                static let defaults = UserDefaults(suiteName: Store.appGroup)!
                static var folder: URL { FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: Store.appGroup)! }
                static var inbox: URL { FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: Store.appGroup)! }
            }

            """)
        let d = try f.codeFindings().filter { $0.code == .codeGroupNotEntitled }
        #expect(d.count == 1, "\(d.map(\.message))")
        #expect(d.first?.message.hasSuffix("UserDefaults(suiteName:) then keeps defaults of its own that no other target reads, "
                    + "and containerURL(forSecurityApplicationGroupIdentifier:) returns nil (said once for its 3 uses)") == true, "\(d.first?.message ?? "")")
        #expect(d.first?.hint?.hasPrefix("its entitlements list group.com.example.ntoes, two letters from it, and 'App' holds group.com.example.notes: "
                    + "did you mean group.com.example.notes in the entitlements of 'Share Extension'?") == true, "\(d.first?.hint ?? "")")
    }

    /// Siskin: code naming `….messenger.shared` (no target has it) was
    /// asked "did you mean ….messenger.mobile", six letters away (real-project
    /// trial 19, W5); within two letters, either side may be the typo.
    @Test func aGroupDidYouMeanIsAtMostTwoLettersAndSaysBothSides() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.mobile", "$(AppIdentifierPrefix)com.example.Notes.sharedItem"])
        f.write("App/KeychainStore.swift", """
            import Security
            let a = SecItemCopyMatching([kSecAttrAccessGroup as String: "\(team).com.example.Notes.shared"] as CFDictionary, nil)
            let b = SecItemCopyMatching([kSecAttrAccessGroup as String: "\(team).com.example.Notes.sharedItems"] as CFDictionary, nil)

            """)
        let d = try f.codeFindings().filter { $0.code == .codeGroupNotEntitled && $0.file?.name.hasSuffix("KeychainStore.swift") == true }
        let hints = d.map { "\($0.location?.line ?? 0) \($0.hint ?? "")" }
        #expect(hints.count == 2, "\(hints)")
        // Widget holds ….Notes.shared: no typo of the App's ….sharedItem.
        #expect(hints.first?.hasPrefix("2 only 'Widget' holds") == true, "\(hints)")
        #expect(hints.last?.hasPrefix("3 did you mean \"\(team).com.example.Notes.sharedItem\"? or, if the code is right, "
                    + "\(team).com.example.Notes.sharedItem in its entitlements is the typo") == true, "\(hints)")
        f.writeEntitlements("Widget/Widget.entitlements", keychain: [])
        let alone = try f.codeFindings().filter { $0.code == .codeGroupNotEntitled && $0.file?.name.hasSuffix("KeychainStore.swift") == true }
        #expect(alone.first.map { $0.hint?.hasPrefix("its groups: ") == true } == true, "\(alone.map { $0.hint ?? "" })")
    }
}

extension XcodeRealProjectsTests {
    /// Nostur's README: "Copy Config.xcconfig.dist to Config.xcconfig";
    /// the missing file's hint named no template (real-project trial 19, W9).
    @Test func aDistOrDefaultTemplateIsNamed() throws {
        for suffix in ["dist", "default"] {
            var f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            f.projectXCConfig = ["Debug": "Config/Config.xcconfig", "Release": "Config/Config.xcconfig"]
            f.write("Config/Config.xcconfig.\(suffix)", "DEVELOPMENT_TEAM = SKMME9E2Y8\n")
            f.writeProject()
            let missing = try ProjectLint.load(f.projectPath).get().run().first { $0.message.hasPrefix("cannot read the xcconfig file") }
            #expect(missing?.hint?.hasPrefix("copy Config.xcconfig.\(suffix) to Config.xcconfig first") == true, "\(missing?.hint ?? "none")")
        }
    }
}

extension XcodeRealProjectsTests {
    /// Siskin's notification service calls containerURL(…) in its own
    /// method: "make sure it never makes this call (a static let is set on
    /// first use)" fit a shared file, not this (real-project trial 19, W1).
    @Test func anExtensionsOwnCallIsToldToAddTheGroup() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("Share/ShareViewController.swift", """
            import Foundation
            func draftsFolder() -> URL? {
                FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.notes")
            }

            """)
        func hint() throws -> String? {
            try f.codeFindings().first { $0.code == .codeGroupNotEntitled && $0.message.contains("app group") }?.hint
        }
        #expect(try hint() == "add group.com.example.notes to its com.apple.security.application-groups ('App' holds it)")
        // A file the app compiles too keeps the shared-file advice.
        f.targets[0].sources.append("../Share/ShareViewController.swift")
        f.writeProject()
        #expect(try hint()?.hasPrefix("only 'App' holds group.com.example.notes: make sure 'Share Extension' never makes this call") == true)
    }
}

extension XcodeRealProjectsTests {
    /// `app … project= target=` for a target of another platform: "declare
    /// 'platform …'" named none, and no declaration brings in a tvOS target
    /// (real-project trial 19, W11).
    @Test func aTargetOfAnotherPlatformIsToldWhichPlatformToDeclare() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.setWidget("SDKROOT", "appletvos")
        func hint(_ script: String) -> String? {
            f.write("e.kcs", "team SKMME9E2Y8\n" + script + "\n")
            return Interpreter.run(path: f.path("e.kcs")).diagnostics.first?.hint
        }
        #expect(hint("platform macos 14\napp App project=\"App.xcodeproj\"") == "declare 'platform ios' before the first app")
        #expect(hint("app W project=\"App.xcodeproj\" target=\"Widget\"") == "it builds for tvos, which kcs does not model: no 'platform' declaration brings it in")
    }
}

extension XcodeRealProjectsTests {
    /// passforios' `"group." + bundleIdentifier`: KCS608 "built at run
    /// time", while the same string interpolated was checked (real-project
    /// trial 19, D3).
    @Test func stringsAndConstantsJoinedWithPlusAreWorkedOut() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("Share/ShareViewController.swift", """
            import Foundation
            import Security

            enum Globals {
                static let bundleIdentifier = "com.example.Notes"
                static let keychainGroup = "SKMME9E2Y8." + bundleIdentifier + ".shared"
                static func team() -> String { "SKMME9E2Y8" }
            }

            func read() -> OSStatus {
                SecItemCopyMatching([kSecAttrAccessGroup as String: Globals.keychainGroup] as CFDictionary, nil)
            }
            func readAgain() -> OSStatus {
                SecItemCopyMatching([kSecAttrAccessGroup as String: "SKMME9E2Y8." + Globals.bundleIdentifier + ".other"] as CFDictionary, nil)
            }
            func readAtRunTime() -> OSStatus {
                SecItemCopyMatching([kSecAttrAccessGroup as String: Globals.team() + ".com.example.Notes.shared"] as CFDictionary, nil)
            }

            """)
        let d = try f.codeFindings().filter { $0.file?.name.hasSuffix("ShareViewController.swift") == true }.map { "\($0.code.rawValue) \($0.message)" }
        #expect(d.contains { $0.hasPrefix("KCS607 target 'Share Extension' (configuration 'Release') names the access group SKMME9E2Y8.com.example.Notes.shared,") }, "\(d)")
        #expect(d.contains { $0.hasPrefix("KCS607 target 'Share Extension' (configuration 'Release') names the access group SKMME9E2Y8.com.example.Notes.other,") }, "\(d)")
        // A call among the operands is built at run time.
        #expect(d.contains { $0.hasPrefix("KCS608") && $0.contains("a value built at run time (Globals.team() + \".com.example.Notes.shared\")") }, "\(d)")
    }
}

extension XcodeRealProjectsTests {
    /// OnionBrowser leaves `PRODUCT_BUNDLE_IDENTIFIER[config=Debug] =` for
    /// each developer: "a bundle ID is dot-separated parts…" said nothing
    /// of what to do (real-project trial 19, W8).
    @Test func aBundleIDSetEmptyIsToldToBeFilledIn() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("Config/Team.xcconfig", "DEVELOPMENT_TEAM = SKMME9E2Y8\nDEVELOPMENT_TEAM[config=Debug] =\n")
        f.write("Config/Base.xcconfig", "#include \"Team.xcconfig\"\nPRODUCT_BUNDLE_IDENTIFIER = com.example.$(PRODUCT_NAME:rfc1034identifier)\nPRODUCT_BUNDLE_IDENTIFIER[config=Debug] =\n")
        let d = try ProjectLint.load(f.projectPath).get().run().filter { $0.message.hasPrefix("PRODUCT_BUNDLE_IDENTIFIER is set empty here for target 'App'") }
        #expect(d.count == 1, "\(d.map(\.message))")
        #expect(d.first?.message.hasSuffix("configuration 'Debug'") == true, "\(d.first?.message ?? "")")
        #expect(d.first?.hint?.hasPrefix("set it to the app's bundle ID, and DEVELOPMENT_TEAM, also empty here, to your team ID") == true, "\(d.first?.hint ?? "")")
        #expect(d.first?.file?.name.hasSuffix("Base.xcconfig") == true && d.first?.location?.line == 3)
    }
}

extension XcodeRealProjectsTests {
    /// ntfy's misspelt app group: KCS604's "did you mean" was placed at
    /// CODE_SIGN_ENTITLEMENTS in the pbxproj, not at the typo (real-project
    /// trial 19, W7).
    @Test func sharingNothingWithANearMissIsSaidAtTheMisspeltGroup() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.writeEntitlements("Share/Share.entitlements", keychain: [], appGroups: ["group.com.example.ntoes"])
        let d = try ProjectLint.load(f.projectPath).get().run().filter { $0.code == .projectExtensionGroup }
        #expect(d.count == 1 && d.first?.hint?.hasPrefix("did you mean group.com.example.notes?") == true, "\(d.map(\.message))")
        #expect(d.first?.file?.name.hasSuffix("Share.entitlements") == true, "\(d.first?.file?.name ?? "")")
    }
}

extension XcodeRealProjectsTests {
    /// Unstoppable's App-Dev and Widget-Dev xcconfigs both include the
    /// absent `../Config.xcconfig`: the import said it once per including
    /// file, the lint once (real-project trial 19, W10).
    @Test func theImportSaysAMissingIncludeOnce() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        for name in ["App", "Widget"] { f.write("Config/Targets/\(name).xcconfig", "#include \"../Secrets.xcconfig\"\n") }
        f.targets[0].xcconfig = ["Debug": "Config/Targets/App.xcconfig", "Release": "Config/Targets/App.xcconfig"]
        f.targets[1].xcconfig = ["Debug": "Config/Targets/Widget.xcconfig", "Release": "Config/Targets/Widget.xcconfig"]
        f.writeProject()
        let said = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions()).diagnostics.filter { $0.message.hasPrefix("cannot read the xcconfig file") }
        #expect(said.count == 1, "\(said.map { "\($0.file?.name ?? ""): \($0.message)" })")
    }
}

extension XcodeRealProjectsTests {
    /// The docs project whose app also builds for Mac Catalyst, signing
    /// there with App/App-mac.entitlements, which holds these groups.
    static func catalystApp(macKeychain: [String], appGroups: [String] = []) -> XcodeFixture {
        var f = XcodeFixture.appWidgetShare()
        for c in f.configurations {
            f.targets[0].settings[c]?["SUPPORTS_MACCATALYST"] = "YES"
            f.targets[0].settings[c]?["CODE_SIGN_ENTITLEMENTS[sdk=macosx*]"] = "App/App-mac.entitlements"
        }
        f.writeEntitlements("App/App-mac.entitlements", keychain: macKeychain, appGroups: appGroups)
        f.writeProject()
        return f
    }

    /// Nostur's Catalyst entitlements lack a group the app's code uses: the
    /// lint checked the iOS build only, and the Catalyst build's add failed
    /// unsaid (real-project trial 19, D5).
    @Test func aGroupTheMacCatalystBuildLacksIsSaid() throws {
        var f = Self.catalystApp(macKeychain: ["$(AppIdentifierPrefix)com.example.Notes"])
        defer { f.remove() }
        func said() throws -> [Diagnostic] { try f.codeFindings().filter { $0.message.contains("Mac Catalyst") } }
        let d = try said()
        #expect(d.map(\.message) == ["target 'App' (configuration 'Release') names the access group SKMME9E2Y8.com.example.Notes.shared, which its Mac Catalyst build "
                + "is not entitled to: it signs with '\(f.path("App/App-mac.entitlements"))' there, which lacks it, and the call fails with errSecMissingEntitlement (-34018)"],
                "\(d.map(\.message))")
        #expect(d.first?.hint?.hasPrefix("add $(AppIdentifierPrefix)com.example.Notes.shared to the keychain-access-groups of '") == true, "\(d.first?.hint ?? "")")
        #expect(d.first?.file?.name.hasSuffix("KeychainStore.swift") == true)
        // The same groups on the Mac: nothing to say.
        f.writeEntitlements("App/App-mac.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"])
        #expect(try said().isEmpty)
        // An app group the iOS build holds and the Catalyst file lacks (Nostur's group.com.nostur.Share).
        f.write("App/Defaults.swift", "import Foundation\nlet defaults = UserDefaults(suiteName: \"group.com.example.notes\")\n")
        f.targets[0].sources.append("Defaults.swift")
        f.writeProject()
        #expect(try said().map(\.message) == ["target 'App' (configuration 'Release') names the app group group.com.example.notes, which its Mac Catalyst build is not entitled to: "
                    + "it signs with '\(f.path("App/App-mac.entitlements"))' there, which lacks it, so the call has no shared container there"])
    }
}

extension XcodeRealProjectsTests {
    /// `kcs lint --project … --platform catalyst` checks the targets that
    /// build for Mac Catalyst against their Catalyst entitlements, and the
    /// others not at all (lint had no --platform: "Unknown option";
    /// real-project trial 19, D5).
    @Test func lintChecksTheTargetsOfTheGivenPlatform() throws {
        let f = Self.catalystApp(macKeychain: ["$(AppIdentifierPrefix)com.example.Notes"], appGroups: ["group.com.example.notes"])
        defer { f.remove() }
        let mac = try BinaryRunner.run(["lint", "--project", f.projectPath, "--platform", "catalyst"])
        #expect(mac.stdout.hasSuffix("(configuration Release, platform catalyst)\n"), "\(mac.stdout)")
        // The app's code against its Catalyst file; the widget and the share
        // extension do not build for Mac Catalyst.
        #expect(mac.stderr.contains("KeychainStore.swift") && mac.stderr.contains("SKMME9E2Y8.com.example.Notes.shared"), "\(mac.stderr)")
        #expect(!mac.stderr.contains("Share Extension") && !mac.stderr.contains("'Widget'"), "\(mac.stderr)")
        #expect(mac.status == 1)
        let ios = try BinaryRunner.run(["lint", "--project", f.projectPath, "--platform", "ios"])
        #expect(ios.stderr.contains("target 'Share Extension' is embedded in 'App' but shares no group with it"), "\(ios.stderr)")
        #expect(ios.stdout.hasSuffix("(configuration Release, platform ios)\n"), "\(ios.stdout)")
        let tv = try BinaryRunner.run(["lint", "--project", f.projectPath, "--platform", "tvos"])
        #expect(tv.status == 64 && tv.stderr.contains("--platform must be one of: ios, macos, catalyst, watchos"), "\(tv.stderr)")
        let alone = try BinaryRunner.run(["lint", "--platform", "ios", "x.kcs"])
        #expect(alone.status == 64 && alone.stderr.contains("--profile, --configuration and --platform go with --project"), "\(alone.stderr)")
    }

    /// `--platform watchos` on a project with no watchOS target checked
    /// nothing and said "no warnings", exit 0, where the import says KCS602
    /// (review 19, R7): a CI job with a stale platform went green.
    @Test func lintForAPlatformNoTargetBuildsForFails() throws {
        let f = Self.catalystApp(macKeychain: ["$(AppIdentifierPrefix)com.example.Notes"], appGroups: ["group.com.example.notes"])
        defer { f.remove() }
        let watch = try BinaryRunner.run(["lint", "--project", f.projectPath, "--platform", "watchos"])
        #expect(watch.status == 1 && watch.stdout.isEmpty, "\(watch.stdout)")
        #expect(watch.stderr.contains("no target of \(f.projectPath) builds for watchos: nothing was checked [KCS602]"), "\(watch.stderr)")
        #expect(watch.stderr.contains("its targets build for ios") && watch.stderr.contains(": lint with --platform ios"), "\(watch.stderr)")
        let imported = try BinaryRunner.run(["import", "xcode", f.projectPath, "--platform", "watchos", "-o", "-"])
        #expect(imported.stderr.contains(": import with --platform ios"), "\(imported.stderr)")
    }

    /// An extension embedded with `platformFilter = ios` is not in the Mac
    /// Catalyst build: Nostur's share extension was checked there as if it
    /// were (real-project trial 19, D5).
    @Test func anEmbedFilteredToAnotherPlatformIsNotChecked() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        for c in f.configurations {
            f.targets[0].settings[c]?["SUPPORTS_MACCATALYST"] = "YES"
            f.targets[2].settings[c]?["SUPPORTS_MACCATALYST"] = "YES"
        }
        f.writeProject()
        func asked(_ platform: String) throws -> Bool {
            try ProjectLint.load(f.projectPath, platform: platform).get().run().contains {
                $0.code == .projectExtensionGroup && $0.message.contains("'Share Extension'")
            }
        }
        #expect(try asked("catalyst") && asked("ios"))
        f.targets[0].embedFilters["Share Extension"] = "ios"
        f.writeProject()
        #expect(try !asked("catalyst"))
        #expect(try asked("ios"))
        let app = try #require(ProjectLint.load(f.projectPath).get().project.targets.first { $0.name == "App" })
        #expect(app.embeddedTargets(on: "catalyst").count == 1 && app.embeddedTargets(on: "ios").count == 2)
        // Embedded again by an entry without a filter: in every build (the
        // filters of its entries were merged, so it was iOS-only; review 19, R14).
        f.targets[0].embeddedAgain = ["Share Extension"]
        f.writeProject()
        #expect(try asked("catalyst") && asked("ios"))
    }
}

extension XcodeRealProjectsTests {
    /// Siskin's share extension links Shared, whose NotificationEncryptionKeys
    /// uses an app group the extension lacks, and no source of the extension
    /// names the type: KCS607 was a warning nothing could clear (real-project
    /// trial 19, W12). It is a note until the target's own code names the type.
    @Test func frameworkCodeATargetNeverNamesIsANote() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets.append(XcodeFixture.Target(name: "Shared", productType: "com.apple.product-type.framework", sources: ["Keys.swift"]))
        f.targets[2].links = ["Shared"]
        f.write("Shared/Keys.swift", """
            import Foundation
            enum NotificationEncryptionKeys {
                static let defaults = UserDefaults(suiteName: "group.com.example.notes")
            }

            """)
        f.writeProject()
        let said = "target 'Share Extension' (configuration 'Release') (in 'Shared', which it links) names the app group group.com.example.notes"
        let quiet = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(quiet.stderr.contains(": note: " + said), "\(quiet.stderr)")
        #expect(quiet.stderr.contains("hint: no other source 'Share Extension' compiles or links names NotificationEncryptionKeys, whose code this call is in, "
                                      + "so it may never make it (a note, not a warning); "), "\(quiet.stderr)")
        // The framework's own other code calling it counts (review 19, R8).
        f.targets[3].sources = ["Keys.swift", "Setup.swift"]
        f.write("Shared/Setup.swift", "import Foundation\nenum AppSetup { static func start() { _ = NotificationEncryptionKeys.defaults } }\n")
        f.writeProject()
        let transitive = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(transitive.stderr.contains(": warning: " + said), "\(transitive.stderr)")
        f.targets[3].sources = ["Keys.swift"]
        f.writeProject()
        f.write("Share/ShareViewController.swift", "import Foundation\nfunc keys() -> UserDefaults? { NotificationEncryptionKeys.defaults }\n")
        let named = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(named.stderr.contains(": warning: " + said), "\(named.stderr)")
        #expect(!named.stderr.contains("compiles or links names"), "\(named.stderr)")
    }
}

extension XcodeFixture {
    /// Sets `setting` of the widget in every configuration, and writes the project.
    mutating func setWidget(_ setting: String, _ value: String) {
        for c in configurations { targets[1].settings[c]?[setting] = value }
        writeProject()
    }
}
