import Foundation
import Testing

/// Real-project trial 23, each case reduced to a small project with the
/// one change the trial's reproduction made.
extension XcodeRealProjectsTests {
    /// A `true` or `false` passed to a label that ends in `AccessGroup`
    /// (bitchat's `attempt(addAccessGroup: true)`, a switch for adding the
    /// group) is no group: nothing to report. The group the nested function
    /// adds is still checked (real-project trial 23, D1).
    @Test func aBoolPassedToAnAccessGroupLabelIsNoGroup() throws {
        let team = XcodeFixture.team
        for group in ["com.example.Notes.shared", "com.example.Notes.sahred"] {
            var f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            f.targets[0].embeds = ["Widget"]
            f.write("App/KeychainStore.swift", """
                import Security

                private let appGroup = "\(team).\(group)"

                func save(_ data: Data) -> OSStatus {
                    let base: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueData as String: data]
                    func attempt(addAccessGroup: Bool, retries: Int) -> OSStatus {
                        var query = base
                        if addAccessGroup { query[kSecAttrAccessGroup as String] = appGroup }
                        return SecItemAdd(query as CFDictionary, nil)
                    }
                    var status = attempt(addAccessGroup: true, retries: 1)
                    if status == -34018 { status = attempt(addAccessGroup: false, retries: 0) }
                    return status
                }

                """)
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            #expect(!lint.stderr.contains("[KCS608]") && !lint.stderr.contains("passes addAccessGroup"), "\(lint.stderr)")
            // The group the nested function adds (the fixture's share extension has a KCS607 of its own).
            let own = lint.stderr.split(separator: "\n").filter { $0.contains("[KCS607]") && $0.contains("KeychainStore.swift") }
            #expect(own.count == (group == "com.example.Notes.shared" ? 0 : 1), "\(lint.stderr)")
        }
    }
}

extension XcodeRealProjectsTests {
    /// KCS607's did-you-mean counts evidence per entitlements file: a second
    /// target that signs with the same misspelt file is no witness that the
    /// typo is a real group, so the code is not told to adopt it (Provenance's
    /// two File Provider targets; real-project trial 23, D2).
    @Test func aTwinSigningWithTheSameMisspeltFileIsNoWitnessForTheTypo() throws {
        for twin in [false, true] {
            var f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            if twin {
                for c in ["Debug", "Release"] { f.targets[2].settings[c]?["CODE_SIGN_ENTITLEMENTS"] = "Widget/Widget.entitlements" }
            }
            f.writeEntitlements("Widget/Widget.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"], appGroups: ["group.com.example.ntoes"])
            f.write("Widget/Provider.swift", "import Foundation\nlet defaults = UserDefaults(suiteName: \"group.com.example.notes\")\n")
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            #expect(lint.stderr.contains("hint: its entitlements list group.com.example.ntoes, two letters from it, and 'App' holds group.com.example.notes: "
                + "did you mean group.com.example.notes in the entitlements of 'Widget'?"), "\(lint.stderr)")
            #expect(!lint.stderr.contains("did you mean \"group.com.example.ntoes\"?"), "\(lint.stderr)")
        }
    }
}

extension XcodeRealProjectsTests {
    /// A typo of an app ID whose bundle ID starts with a team-shaped word
    /// (Monal's `G7YU7X7KRJ.SworIM`, its extension listing
    /// `$(AppIdentifierPrefix)G7YU7X7KRJ.SwrIM`) is no doubled team prefix:
    /// only KCS604's near miss, which names the app ID (real-project trial 23, D4).
    @Test func aTypoOfAnAppIDThatStartsLikeATeamIsNoDoubledPrefix() throws {
        let team = XcodeFixture.team
        let f = XcodeFixture.appWithTeamShapedBundleID()
        defer { f.remove() }
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)G7YU7X7KRJ.SworIM"])
        f.writeEntitlements("Widget/Widget.entitlements", keychain: ["$(AppIdentifierPrefix)G7YU7X7KRJ.SwrIM"])
        f.write("App/KeychainStore.swift", "let x = 1\n")
        f.write("Widget/Provider.swift", "import Security\nfunc read() -> OSStatus { SecItemCopyMatching([kSecClass as String: kSecClassGenericPassword] as CFDictionary, nil) }\n")
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(!lint.stderr.contains("[KCS510]"), "\(lint.stderr)")
        #expect(lint.stderr.contains("[KCS604]") && lint.stderr.contains("did you mean \(team).G7YU7X7KRJ.SworIM"), "\(lint.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// An entitlements file another build setting names is in use: one a
    /// setting selects on another machine (Provenance's
    /// `IOS_CODE_SIGN_ENTITLEMENTS_JB`, chosen by `DEVELOPER_ACCOUNT_PAID`),
    /// or a tvOS target's `CODE_SIGN_ENTITLEMENTS_appletvos`, was "delete
    /// it", and the tvOS target "signs with no entitlements file"
    /// (real-project trial 23, D5).
    @Test func anEntitlementsFileAnotherSettingNamesIsInUse() throws {
        var f = XcodeLintTests.oneApp(sources: [])
        defer { f.remove() }
        f.targets[0].settings["Release"] = ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.App", "IOS_CODE_SIGN_ENTITLEMENTS_NO": "App/App.entitlements",
                                            "IOS_CODE_SIGN_ENTITLEMENTS_JB": "App/App-JB.entitlements",
                                            "CODE_SIGN_ENTITLEMENTS": "$(IOS_CODE_SIGN_ENTITLEMENTS_$(DEVELOPER_ACCOUNT_PAID:default=NO))"]
        f.targets.append(.init(name: "TV", settings: ["Release": ["SDKROOT": "appletvos", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.TV",
                                                                  "CODE_SIGN_ENTITLEMENTS_appletvos": "TV/TV.entitlements",
                                                                  "CODE_SIGN_ENTITLEMENTS": "$(CODE_SIGN_ENTITLEMENTS_$(PLATFORM_NAME))"]],
                               listed: ["TV.entitlements", "Old.entitlements"]))
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.App"])
        f.writeEntitlements("App/App-JB.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.App"])
        f.writeEntitlements("TV/TV.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.TV"])
        f.writeEntitlements("TV/Old.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.TV"])
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        let kcs605 = lint.stderr.split(separator: "\n").filter { $0.contains("[KCS605]") }
        // Only the file no setting names, and without a claim of what the tvOS target signs with.
        #expect(kcs605.count == 1 && kcs605.first?.contains("no configuration signs with '\(f.path("TV/Old.entitlements"))' [KCS605]") == true, "\(lint.stderr)")
        #expect(!lint.stderr.contains("signs with no entitlements file"), "\(lint.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// A `CODE_SIGN_ENTITLEMENTS` that misses a folder level in the middle
    /// (Provenance's `Extensions/ThumbnailExtensionMacOS/X.entitlements` for
    /// `Extensions/macOS/ThumbnailExtensionMacOS/X.entitlements`, a file the
    /// project lists) gets "did you mean" that file, which KCS605 then does
    /// not call unused (real-project trial 23, D6).
    @Test func anEntitlementsPathMissingAMiddleFolderGetsADidYouMean() throws {
        var f = XcodeLintTests.oneApp(sources: [])
        defer { f.remove() }
        f.targets[0].folder = "Extensions/macOS/Thumb"
        f.targets[0].listed = ["Thumb.entitlements"]
        f.targets[0].settings["Release"]?["CODE_SIGN_ENTITLEMENTS"] = "Extensions/Thumb/Thumb.entitlements"
        f.writeEntitlements("Extensions/macOS/Thumb/Thumb.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.App"])
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(lint.stderr.contains("[KCS602]") && lint.stderr.contains("did you mean '\(f.path("Extensions/macOS/Thumb/Thumb.entitlements"))'?"), "\(lint.stderr)")
        #expect(!lint.stderr.contains("[KCS605]"), "\(lint.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// A macro `GCC_PREPROCESSOR_DEFINITIONS` defines as an Objective-C string
    /// literal (`PP_KC=@\"…\"`, used as `PP_KC`) is read as `NAME=\"…\"`
    /// is: it was "no definition" (real-project trial 23, W12).
    @Test func anObjectiveCStringInAPreprocessorDefinitionIsRead() throws {
        let team = XcodeFixture.team
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[2].sources = ["ShareViewController.m"]
        for c in ["Debug", "Release"] {
            f.targets[2].settings[c]?["GCC_PREPROCESSOR_DEFINITIONS"] = "$(inherited) DEBUG=1 PP_KC=@\\\"\(team).com.example.Notes.sahred\\\""
        }
        f.writeEntitlements("Share/Share.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"])
        f.write("Share/ShareViewController.m", """
            #import <Security/Security.h>
            @implementation Reader
            - (void)read {
                NSDictionary *q = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword, (__bridge id)kSecAttrAccessGroup: PP_KC};
                SecItemCopyMatching((__bridge CFDictionaryRef)q, NULL);
            }
            @end

            """)
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(lint.stderr.contains("[KCS607]") && lint.stderr.contains("did you mean \"\(team).com.example.Notes.shared\"?"), "\(lint.stderr)")
        #expect(!lint.stderr.contains("finds no definition"), "\(lint.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// An Objective-C group macro with a value per `#ifdef`/`#elif`/`#else`
    /// branch (Monal's `kAppGroup`) is checked with the value the build's
    /// `GCC_PREPROCESSOR_DEFINITIONS` choose; one whose branch the build
    /// cannot decide is said not checkable, as is an app-group call given a
    /// method's parameter (Psiphon's `initWithSuiteName:identifier`): both
    /// were silent (real-project trial 23, D3).
    @Test func anObjectiveCMacroPerIfdefBranchIsCheckedAsTheBuildChooses() throws {
        var f = XcodeLintTests.oneApp(sources: ["Store.m"])
        defer { f.remove() }
        f.configurations = ["Alpha", "Quicksy", "Release"]
        let definitions = ["Alpha": "$(inherited) IS_ALPHA=1", "Quicksy": "$(inherited) IS_QUICKSY", "Release": "$(inherited) NDEBUG=1"]
        for c in f.configurations {
            f.projectSettings[c] = ["SDKROOT": "iphoneos", "DEVELOPMENT_TEAM": XcodeFixture.team]
            f.targets[0].settings[c] = ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.App", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements",
                                        "GCC_PREPROCESSOR_DEFINITIONS": definitions[c] ?? ""]
        }
        f.writeEntitlements("App/App.entitlements", keychain: [], appGroups: ["group.com.example.notes", "group.quicksy"])
        f.write("App/Store.m", """
            #import <Foundation/Foundation.h>
            #ifdef IS_ALPHA
            #define kAppGroup @"group.com.example.notes"
            #elif defined(IS_QUICKSY)
            #define kAppGroup @"group.quicksy"
            #else
            #define kAppGroup @"group.com.example.ntoes"
            #endif
            #if TARGET_OS_MACCATALYST
            #define kOtherGroup @"group.com.example.notes"
            #else
            #define kOtherGroup @"group.com.example.other"
            #endif

            @implementation Store
            - (instancetype)initWithGroup:(NSString *)group {
                NSUserDefaults *d = [[NSUserDefaults alloc] initWithSuiteName:group];
                NSURL *u = [[NSFileManager defaultManager] containerURLForSecurityApplicationGroupIdentifier:kAppGroup];
                NSUserDefaults *o = [[NSUserDefaults alloc] initWithSuiteName:kOtherGroup];
                NSUserDefaults *n = [[NSUserDefaults alloc] initWithSuiteName:kNowhereGroup];
                return self;
            }
            @end

            """)
        f.writeProject()
        let release = try BinaryRunner.run(["lint", "--project", f.projectPath])
        let kcs607 = release.stderr.split(separator: "\n").filter { $0.contains("[KCS607]") }
        #expect(kcs607.count == 1 && kcs607.first?.contains("group.com.example.ntoes") == true, "\(release.stderr)")
        #expect(release.stderr.contains("did you mean \"group.com.example.notes\"?"), "\(release.stderr)")
        #expect(release.stderr.contains("Store.m:7:"), "the note at the #else branch's #define: \(release.stderr)")
        #expect(release.stderr.contains("passes UserDefaults(suiteName:) its parameter `group` (of `-[Store initWithGroup:]`), whose callers kcs does not follow: kcs cannot check it [KCS608]"),
                "\(release.stderr)")
        #expect(release.stderr.contains("passes UserDefaults(suiteName:) `kOtherGroup`, which its #if branches define with 2 values, which kcs cannot tell from the build's GCC_PREPROCESSOR_DEFINITIONS"),
                "\(release.stderr)")
        // The parameter and the undecided macro are warnings, a macro with no
        // definition a note (a suite name may be the app's own; review 22b, R6).
        let lines = release.stderr.split(separator: "\n")
        func said(_ text: String) -> Substring? { lines.first { $0.contains(text) && $0.contains("[KCS608]") } }
        #expect(said("its parameter `group`")?.contains("warning:") == true, "\(release.stderr)")
        #expect(said("`kOtherGroup`, which its #if branches")?.contains("warning:") == true, "\(release.stderr)")
        #expect(said("`kNowhereGroup`, which kcs finds no definition of")?.contains("note:") == true, "\(release.stderr)")
        for configuration in ["Alpha", "Quicksy"] {
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath, "--configuration", configuration])
            #expect(!lint.stderr.contains("[KCS607]") && !lint.stderr.contains("kAppGroup"), "\(configuration): \(lint.stderr)")
        }
    }
}

extension XcodeRealProjectsTests {
    /// Objective-C's stringify macros (Orbot's `#define MACRO_STRING_(m) #m`,
    /// `#define MACRO_STRING(m) @MACRO_STRING_(m)`, and the SDK's
    /// `@OS_STRINGIFY`) given a macro of `GCC_PREPROCESSOR_DEFINITIONS` are
    /// that macro's value, checked as any group: they were silent for an app
    /// group and "built at run time" for a keychain group (real-project trial 23, D10).
    @Test func anObjectiveCStringifiedMacroIsTheBuildsValue() throws {
        let team = XcodeFixture.team
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[0].sources = ["KeychainStore.swift", "Store.m"]
        for c in ["Debug", "Release"] {
            f.targets[0].settings[c]?["GCC_PREPROCESSOR_DEFINITIONS"] = "$(inherited) APP_GROUP_IDENTIFIER=group.com.example.notesM "
                + "OTHER_GROUP=group.com.example.notes KC_GROUP=\(team).com.example.Notes.sharedK"
        }
        f.write("App/Store.m", """
            #import <Foundation/Foundation.h>
            #include <os/base.h>

            #define MACRO_STRING_(m) #m
            #define MACRO_STRING(m) @MACRO_STRING_(m)

            static NSString * const AppGroupIdentifier = MACRO_STRING(APP_GROUP_IDENTIFIER);
            NSString * const OtherGroup = @OS_STRINGIFY(OTHER_GROUP);

            @implementation Store
            + (void)m {
                NSUserDefaults *d = [[NSUserDefaults alloc] initWithSuiteName:AppGroupIdentifier];
                NSURL *u = [[NSFileManager defaultManager] containerURLForSecurityApplicationGroupIdentifier:OtherGroup];
                NSDictionary *q = @{(__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword, (__bridge id)kSecAttrAccessGroup: MACRO_STRING(KC_GROUP)};
                SecItemCopyMatching((__bridge CFDictionaryRef)q, NULL);
            }
            @end

            """)
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        let kcs607 = lint.stderr.split(separator: "\n").filter { $0.contains("[KCS607]") && $0.contains("Store.m") }
        #expect(kcs607.count == 2, "\(lint.stderr)")
        #expect(lint.stderr.contains("names the app group group.com.example.notesM") && lint.stderr.contains("did you mean \"group.com.example.notes\"?"), "\(lint.stderr)")
        #expect(lint.stderr.contains("names the access group \(team).com.example.Notes.sharedK"), "\(lint.stderr)")
        #expect(!lint.stderr.contains("[KCS608]") && !lint.stderr.contains("built at run time"), "\(lint.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// Objective-C built for the Mac that sets `kSecAttrAccessGroup` a key at
    /// a time (`setObject:forKey:`, Sequel Ace's `SPKeychain.m`) in a file
    /// that names no routing key goes to the file-based keychain (KCS609),
    /// as Swift's subscripts do; a file that names `kSecUseDataProtectionKeychain`
    /// is not said (real-project trial 23, W14).
    @Test func anObjectiveCQueryBuiltAKeyAtATimeOnTheMacIsToldItGoesToTheFileKeychain() throws {
        let team = XcodeFixture.team
        var f = XcodeLintTests.oneApp(sources: ["Plain.m", "Flagged.m"])
        defer { f.remove() }
        f.projectSettings["Release"]?["SDKROOT"] = "macosx"
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.shared"])
        for (file, extra) in [("Plain.m", ""), ("Flagged.m", "    [q setObject:@YES forKey:(id)kSecUseDataProtectionKeychain];\n")] {
            f.write("App/" + file, """
                #import <Security/Security.h>
                @implementation Store
                + (void)save {
                    NSMutableDictionary *q = [NSMutableDictionary dictionary];
                    [q setObject:@"\(team).com.example.shared" forKey:(id)kSecAttrAccessGroup];
                \(extra)    SecItemAdd((CFDictionaryRef)q, NULL);
                }
                @end

                """)
        }
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        let kcs609 = lint.stderr.split(separator: "\n").filter { $0.contains("[KCS609]") }
        #expect(kcs609.count == 1 && kcs609.first?.hasPrefix(f.path("App/Plain.m") + ":5:") == true, "\(lint.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// Frameworks no target of the project builds are one finding past
    /// three (Provenance's 54 emulator cores were 54 warnings), naming the
    /// first three and counting the rest; three or fewer are said apart
    /// (real-project trial 23, W5).
    @Test func manyFrameworksNoTargetBuildsAreOneFinding() throws {
        for count in [3, 5] {
            var f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            f.targets[0].frameworks = (1...count).map { "Core\($0).framework" }
            f.targets[1].frameworks = ["Core1.framework"]
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            let said = lint.stderr.split(separator: "\n").filter { $0.contains("the code check does not read the code of") }
            if count == 3 {
                #expect(said.count == 3, "\(lint.stderr)")
            } else {
                #expect(said.count == 1 && said.first?.contains("the code check does not read the code of 5 frameworks no target of this project builds: "
                    + "'Core1.framework', 'Core2.framework', 'Core3.framework' and 2 more; targets 'App', 'Widget' link them [KCS602]") == true, "\(lint.stderr)")
                #expect(lint.stderr.contains("note: 'Core2.framework' is referenced here"), "\(lint.stderr)")
            }
        }
    }
}

extension XcodeRealProjectsTests {
    /// A profile's wildcard listed as a keychain group (Blockstream Green's
    /// `D9W37S9468.*`, first in its app and its extension) is one literal
    /// group the targets listing it share; its hint keeps the shipped-items
    /// caveat the other KCS510 hints carry (real-project trial 23, W1).
    @Test func aWildcardKeychainGroupsHintKeepsTheShippedCaveat() throws {
        let team = XcodeFixture.team
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.writeEntitlements("App/App.entitlements", keychain: ["\(team).*", "$(AppIdentifierPrefix)com.example.Notes.shared"], appGroups: ["group.com.example.notes"])
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(lint.stderr.contains("which shares items only with targets that list the same literal [KCS510]"), "\(lint.stderr)")
        #expect(lint.stderr.contains("but if a build with \(team).* has shipped, its items are stored there")
                && lint.stderr.contains("when it is listed first, it is the default group"), "\(lint.stderr)")
        #expect(!lint.stderr.contains("shares nothing"), "\(lint.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// A macOS app group with another team's prefix (Sequel Ace's
    /// `NKQ4HJ66PY.sequel-ace` for team NKQ4HJ66PX) is KCS511, as a keychain
    /// group with another team's is KCS510; the team's own passes
    /// (real-project trial 23, D7).
    @Test func aMacAppGroupWithAnotherTeamsPrefixIsSaid() throws {
        let team = XcodeFixture.team
        for other in [false, true] {
            var f = XcodeLintTests.oneApp(sources: [])
            defer { f.remove() }
            f.projectSettings["Release"]?["SDKROOT"] = "macosx"
            let group = (other ? "SKMME9E2Y9" : team) + ".sequel-ace"
            f.writeEntitlements("App/App.entitlements", keychain: [], appGroups: [group])
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            if other {
                #expect(lint.stderr.contains("app group SKMME9E2Y9.sequel-ace carries the prefix of team SKMME9E2Y9, but the app is signed by team \(team) [KCS511]"),
                        "\(lint.stderr)")
                #expect(lint.stderr.contains("did you mean \(team).sequel-ace? write $(TeamIdentifierPrefix)sequel-ace"), "\(lint.stderr)")
            } else {
                #expect(!lint.stderr.contains("[KCS511]"), "\(lint.stderr)")
            }
        }
    }
}
