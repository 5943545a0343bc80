import Foundation
import Testing

/// Items left by real-project trials 20 and 21, each reduced to the docs
/// project with the one change the trial's reproduction made.
extension XcodeRealProjectsTests {
    /// The widget of `appWidgetShare()` with the app's group, an Info.plist
    /// setting APP_GROUP_ID to `group`, and `code` in a second source.
    static func widgetReadingInfoPlist(group: String, code: String) -> XcodeFixture {
        var f = XcodeFixture.appWidgetShare()
        f.targets[1].settings["Release"]?["INFOPLIST_FILE"] = "Widget/Info.plist"
        f.targets[1].sources.append("Defaults.swift")
        f.writeEntitlements("Widget/Widget.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"],
                            appGroups: ["group.com.example.notes"])
        f.write("Widget/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>APP_GROUP_ID</key>
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
