import Foundation
import Testing

/// Items left by real-project trials 20 and 21, each reduced to the docs
/// project with the one change the trial's reproduction made.
extension XcodeRealProjectsTests {
    /// The widget of `appWidgetShare()` with the app's group, an Info.plist
    /// setting `key` (APP_GROUP_ID) to `group`, and `code` in a second source.
    static func widgetReadingInfoPlist(group: String, code: String, key: String = "APP_GROUP_ID") -> XcodeFixture {
        var f = XcodeFixture.appWidgetShare()
        f.targets[1].settings["Release"]?["INFOPLIST_FILE"] = "Widget/Info.plist"
        f.targets[1].sources.append("Defaults.swift")
        f.writeEntitlements("Widget/Widget.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"],
                            appGroups: ["group.com.example.notes"])
        f.write("Widget/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>\(key)</key>
            <string>\(group)</string>
            </dict></plist>
            """)
        f.write("Widget/Defaults.swift", code)
        f.writeProject()
        return f
    }

    /// An app group read through a function that returns the main bundle's
    /// Info.plist value for its one key parameter, called with a literal
    /// key (GlucoseDirect's `static func stringValue(forKey key: String)`,
    /// then `UserDefaults(suiteName: stringValue(forKey: "APP_GROUP_ID"))`):
    /// the target's Info.plist value is checked. A typo in the widget's
    /// Info.plist was silent (real-project trial 21, D7).
    @Test func anAppGroupReadThroughAKeyReaderFunctionIsChecked() throws {
        let shapes = [
            // GlucoseDirect's: a static function of an extension, from a static let.
            """
            import Foundation
            extension UserDefaults {
                static let shared = UserDefaults(suiteName: stringValue(forKey: "APP_GROUP_ID"))!
                static func stringValue(forKey key: String) -> String {
                    guard let value = Bundle.main.object(forInfoDictionaryKey: key) as? String else {
                        fatalError("Invalid value or undefined key")
                    }
                    return value
                }
            }
            func count() -> Int { UserDefaults.shared.integer(forKey: "n") }

            """,
            // A top-level function with an unlabelled key, and a constant key.
            """
            import Foundation
            let groupKey = "APP_GROUP_ID"
            func plistString(_ key: String) -> String? { Bundle.main.infoDictionary?[key] as? String }
            func url() -> URL? { FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: plistString(groupKey)!) }

            """,
            // `Type.function(…)` from another type.
            """
            import Foundation
            enum Config {
                static func value(for key: String) -> String { Bundle.main.object(forInfoDictionaryKey: key) as? String ?? "" }
            }
            func defaults() -> UserDefaults? { UserDefaults(suiteName: Config.value(for: "APP_GROUP_ID")) }

            """,
        ]
        for (i, code) in shapes.enumerated() {
            let right = Self.widgetReadingInfoPlist(group: "group.com.example.notes", code: code)
            defer { right.remove() }
            let wrong = Self.widgetReadingInfoPlist(group: "group.com.example.nots", code: code)
            defer { wrong.remove() }
            let fine = try BinaryRunner.run(["lint", "--project", right.projectPath]).stderr
            let typo = try BinaryRunner.run(["lint", "--project", wrong.projectPath]).stderr
            #expect(!fine.contains("Defaults.swift"), "shape \(i): \(fine)")
            #expect(typo.contains("Defaults.swift:") && typo.contains("names the app group group.com.example.nots, which it is not entitled to: "),
                    "shape \(i): \(typo)")
            #expect(typo.contains("note: Info.plist's APP_GROUP_ID is set here"), "shape \(i): \(typo)")
        }
    }

    /// Not followed: a function of that name one of whose overloads does
    /// something else, or one that reads another bundle.
    @Test func aKeyReaderFunctionIsFollowedOnlyWhenEveryDeclarationReadsTheMainBundle() throws {
        let shapes = [
            """
            import Foundation
            func plistString(_ key: String) -> String? { Bundle.main.infoDictionary?[key] as? String }
            func plistString(_ key: String) -> Int { key.count }
            func defaults() -> UserDefaults? { UserDefaults(suiteName: plistString("APP_GROUP_ID")) }

            """,
            """
            import Foundation
            func plistString(_ key: String) -> String? { Bundle(identifier: "x")?.infoDictionary?[key] as? String }
            func defaults() -> UserDefaults? { UserDefaults(suiteName: plistString("APP_GROUP_ID")) }

            """,
        ]
        for (i, code) in shapes.enumerated() {
            let wrong = Self.widgetReadingInfoPlist(group: "group.com.example.nots", code: code)
            defer { wrong.remove() }
            let typo = try BinaryRunner.run(["lint", "--project", wrong.projectPath]).stderr
            #expect(!typo.contains("group.com.example.nots, which it is not entitled to"), "shape \(i): \(typo)")
        }
    }
}

extension XcodeRealProjectsTests {
    /// One app group a target lacks, written as a literal at each of its
    /// calls, is one finding at the first call with notes at the others
    /// (Bark's extension without `group.bark`: 7 KCS607 for one missing
    /// line; real-project trial 20, W3). So is one expression kcs cannot
    /// work out, passed at each of several uses (Element X's 5 KCS608 for
    /// `InfoPlistReader.main.keychainAccessGroupIdentifier`; trial 20, W11).
    @Test func theSameFindingAtEachUseOfALiteralOrAnExpressionIsSaidOnce() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[1].sources.append("Shared.swift")
        f.write("Widget/Shared.swift", """
            import Foundation
            import Security
            func a() -> UserDefaults? { UserDefaults(suiteName: "group.com.example.notes") }
            func b() -> URL? { FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.notes") }
            func c() -> UserDefaults? { UserDefaults(suiteName: "group.com.example.notes") }
            func d() -> URL? { FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.notes") }
            func e() -> UserDefaults? { UserDefaults(suiteName: "group.com.example.notes") }
            struct Reader { var group: String }
            func f(_ r: Reader) -> OSStatus { SecItemCopyMatching([kSecAttrAccessGroup as String: r.group] as CFDictionary, nil) }
            func g(_ r: Reader) -> OSStatus { SecItemDelete([kSecAttrAccessGroup as String: r.group] as CFDictionary) }

            """)
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath]).stderr
        let lines = lint.split(separator: "\n")
        let appGroup = lines.filter { $0.contains("names the app group group.com.example.notes") }
        #expect(appGroup.count == 1 && appGroup.first?.contains("Shared.swift:3:") == true
                && appGroup.first?.contains("(said once for its 5 uses) [KCS607]") == true, "\(lint)")
        // Both effects, the next three calls, and the rest counted.
        #expect(appGroup.first?.contains("UserDefaults(suiteName:) then keeps defaults of its own that no other target reads, "
                                         + "and containerURL(forSecurityApplicationGroupIdentifier:) returns nil") == true, "\(lint)")
        for line in [4, 5, 6] { #expect(lint.contains("Shared.swift:\(line):") && lint.contains("note: named here too"), "\(line): \(lint)") }
        #expect(!lint.contains("Shared.swift:7:") && lint.contains("  and 1 more use\n"), "\(lint)")
        let runtime = lines.filter { $0.contains("a value built at run time (r.group)") }
        #expect(runtime.count == 1 && runtime.first?.contains("Shared.swift:9:") == true
                && runtime.first?.contains("(said once for its 2 uses) [KCS608]") == true, "\(lint)")
    }
}

extension XcodeRealProjectsTests {
    /// Configurations whose groups differ from the lint's at one line are
    /// one KCS603 naming them, those that differ alike together
    /// (DuckDuckGo's sandbox-test-tool: one each for Debug, CI and Review at
    /// its `$(DBP_APP_GROUP)`; real-project trial 21, W6).
    @Test func kcs603IsSaidOnceAtALineForTheConfigurationsThatDifferThere() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.configurations = ["Debug", "CI", "Review", "Release"]
        for c in ["CI", "Review"] {
            f.projectSettings[c] = f.projectSettings["Release"]
            f.projectXCConfig[c] = f.projectXCConfig["Release"]
            for i in f.targets.indices { f.targets[i].settings[c] = f.targets[i].settings["Release"] }
        }
        for (c, group) in [("Debug", "group.com.example.notes.debug"), ("CI", "group.com.example.notes.debug"),
                           ("Review", "group.com.example.notes.review"), ("Release", "group.com.example.notes")] {
            f.targets[0].settings[c]?["APP_GROUP"] = group
        }
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"], appGroups: ["$(APP_GROUP)"])
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath]).stderr
        let found = lint.split(separator: "\n").filter { $0.contains("[KCS603]") }
        #expect(found.count == 1, "\(lint)")
        #expect(found.first?.contains("target 'App': configurations 'Debug', 'CI' lack group.com.example.notes and add group.com.example.notes.debug; "
                                      + "configuration 'Review' lacks group.com.example.notes and adds group.com.example.notes.review compared with 'Release'") == true,
                "\(lint)")
        #expect(lint.contains("hint: each lists a group the other lacks, so a build that works in one may fail in the other: give them all the same groups"),
                "\(lint)")
    }
}

extension XcodeRealProjectsTests {
    /// A key no Info.plist of the target sets: KCS608 names the Info.plist
    /// file and a key one or two letters from it that the file sets, with a
    /// note at that line (Linphone's `APP_GROUP_NAM`; real-project trial 21, W3).
    @Test func anUnsetInfoPlistKeyNamesTheFileAndTheNearKeyItSets() throws {
        let code = """
            import Foundation
            func defaults() -> UserDefaults? { UserDefaults(suiteName: Bundle.main.object(forInfoDictionaryKey: "APP_GROUP_ID") as? String) }

            """
        for (key, said) in [("APP_GROUP_I", "sets APP_GROUP_I, one letter from it"), ("APP_GRUP_I", "sets APP_GRUP_I, two letters from it"),
                            ("OTHER_KEY", "(its Info.plist: ")] {
            let f = Self.widgetReadingInfoPlist(group: "group.com.example.notes", code: code, key: key)
            defer { f.remove() }
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath]).stderr
            // A near key is said by trial 22 D5's wording (one rule for every
            // reason the value cannot be read), the note at its line.
            let near = key != "OTHER_KEY"
            #expect(lint.contains(near ? "passes UserDefaults(suiteName:) its Info.plist's APP_GROUP_ID, which its Info.plist '"
                                       : "passes UserDefaults(suiteName:) its Info.plist's APP_GROUP_ID, which kcs cannot read: no Info.plist of the target sets it"),
                    "\(key): \(lint)")
            #expect(lint.contains("Widget/Info.plist") && lint.contains(near ? said.replacingOccurrences(of: "sets ", with: "it sets ") : said), "\(key): \(lint)")
            #expect(lint.contains("Widget/Info.plist:4:") == near && lint.contains("did you mean APP_GROUP_ID for the key \(key)?") == near,
                    "\(key): \(lint)")
        }
    }
}

extension XcodeRealProjectsTests {
    /// The values that use a setting no level of the project defines, when
    /// an xcconfig kcs could not read may define it, are said once, at the
    /// warning that the file cannot be read (AdGuard for Safari's absent
    /// private xcconfig outside the repository gave 29 warnings, three per
    /// target; real-project trial 21, W4).
    @Test func valuesAnUnreadXCConfigMayDefineAreSaidOnceAtIt() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("Config/Base.xcconfig", """
            #include "Team.xcconfig"
            #include "../../private/Config.xcconfig"
            BUNDLE_PREFIX = $(CONFIG_PREFIX)
            PRODUCT_BUNDLE_IDENTIFIER = $(BUNDLE_PREFIX).$(PRODUCT_NAME:rfc1034identifier)
            APP_GROUP = group.$(CONFIG_GROUP)
            IPHONEOS_DEPLOYMENT_TARGET = 17.0

            """)
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"], appGroups: ["$(APP_GROUP)"])
        f.writeEntitlements("Widget/Widget.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"], appGroups: ["$(APP_GROUP)"])
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        // (The share extension's own KCS604 and KCS607 are the fixture's.)
        let warnings = lint.stderr.split(separator: "\n").filter { $0.contains(": warning: ") && $0.hasSuffix("[KCS602]") }
        #expect(warnings.count == 1, "\(lint.stderr)")
        #expect(warnings.first?.contains("Base.xcconfig:2:1: warning: cannot read the xcconfig file") == true
                && warnings.first?.contains("(said once for the 4 values that use settings no level of the project defines, which it may define: "
                                            + "$(CONFIG_PREFIX), $(CONFIG_GROUP))") == true, "\(lint.stderr)")
        #expect(lint.stderr.contains("App.entitlements:11:3: note: '$(APP_GROUP)' uses $(CONFIG_GROUP), which target 'App' does not define\n"), "\(lint.stderr)")
        #expect(lint.stderr.contains("#include? marks a file that may be absent; 1 more value uses them"), "\(lint.stderr)")
    }
}
