import Foundation
import KCSCodeCheck
import KCSLanguage
import KCSXcode
import KCSXcodeProject
import Testing

/// Projects the tests write themselves, resolved in process.
@Suite("Reading Xcode projects")
struct XcodeResolutionTests {
    func resolve(_ f: XcodeFixture, _ target: String, configuration: String = "Release", platform: String = "ios") throws -> TargetSigning {
        let project = try XcodeProject.load(f.projectPath).get()
        let t = try #require(project.targets.first { $0.name == target })
        return TargetSigning.resolve(project, t, configuration: configuration, platform: platform, team: nil,
                                     fileSystem: LocalProjectFileSystem())
    }

    @Test func anImportWhoseBundleIDsDoNotResolveSaysSo() throws {
        // Orbot without its Config.xcconfig: every bundle ID is empty, and the
        // hint said to import with the platform already in use.
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        for i in f.targets.indices {
            for c in f.configurations { f.targets[i].settings[c, default: [:]]["PRODUCT_BUNDLE_IDENTIFIER"] = "$(APP_BUNDLE_ID)" }
        }
        f.writeProject()
        let result = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions())
        #expect(result.verdict == .failed)
        let last = try #require(result.diagnostics.last)
        #expect(last.message.hasPrefix("no target of ") && last.message.hasSuffix(" could be imported for ios"))
        #expect(last.hint?.hasPrefix("the bundle ID of 'App', 'Widget', 'Share Extension' does not resolve here") == true, "\(last.hint ?? "")")
    }

    @Test func theDocsProjectResolvesThroughXcconfigIncludesAndInheritance() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let project = try XcodeProject.load(f.projectPath).get()
        #expect(project.defaultConfiguration == "Release")
        // The folder that holds the project, or the project.pbxproj, name the same project.
        #expect(try XcodeProject.load(f.root.path).get().path == f.projectPath)
        #expect(try XcodeProject.load(f.projectPath + "/project.pbxproj").get().path == f.projectPath)
        #expect(project.targets.map(\.name) == ["App", "Widget", "Share Extension"])
        #expect(project.targets[0].embeddedTargets == project.targets[1...].map(\.id))
        #expect(project.targets[0].swiftSources == [f.path("App/KeychainStore.swift")])
        let app = try resolve(f, "App")
        #expect(app.resolved.bundleID == "com.example.Notes")  // $(PRODUCT_NAME:rfc1034identifier) from the xcconfig
        #expect(app.resolved.teamID == XcodeFixture.team)  // through #include "Team.xcconfig"
        #expect(app.resolved.deploymentVersion == 17)
        #expect(app.issues.isEmpty, "\(app.issues)")  // #include? of an absent file says nothing
        #expect(app.accessGroups == ["SKMME9E2Y8.com.example.Notes.shared", "SKMME9E2Y8.com.example.Notes", "group.com.example.notes"])
        #expect(try resolve(f, "Widget").resolved.bundleID == "com.example.Notes.Widget")  // $(inherited) from the xcconfig
        let share = try resolve(f, "Share Extension")
        #expect(share.keychainAccessGroups.map(\.value) == ["SKMME9E2Y8.com.example.Notes.Share"])  // $(CFBundleIdentifier)
        #expect(share.keychainAccessGroups.first?.location?.line == 7)
    }

    @Test func theBuildSettingWinsOverStaleTargetAttributes() throws {
        var f = XcodeFixture()
        defer { f.remove() }
        f.projectSettings = ["Debug": ["SDKROOT": "iphoneos"], "Release": ["SDKROOT": "iphoneos"]]
        f.targets = [
            .init(name: "Old", settings: ["Release": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Old"]], attributesTeam: "AAAAAAAAAA"),
            .init(name: "New", settings: ["Release": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.New", "DEVELOPMENT_TEAM": "BBBBBBBBBB"]],
                  attributesTeam: "AAAAAAAAAA"),
        ]
        f.writeProject()
        #expect(try resolve(f, "Old").resolved.teamID == "AAAAAAAAAA")
        #expect(try resolve(f, "New").resolved.teamID == "BBBBBBBBBB")
    }

    @Test func conditionalSettingsAndPlatforms() throws {
        var f = XcodeFixture()
        defer { f.remove() }
        let settings = [
            "SDKROOT": "auto", "SUPPORTED_PLATFORMS": "iphoneos iphonesimulator macosx", "SUPPORTS_MACCATALYST": "YES",
            "DERIVE_MACCATALYST_PRODUCT_BUNDLE_IDENTIFIER": "YES", "DEVELOPMENT_TEAM": XcodeFixture.team,
            "PRODUCT_BUNDLE_IDENTIFIER": "com.example.Multi", "PRODUCT_BUNDLE_IDENTIFIER[sdk=macosx*]": "com.example.Multi.mac",
            "PRODUCT_BUNDLE_IDENTIFIER[config=Debug]": "com.example.Multi.debug",
        ]
        f.targets = [.init(name: "Multi", settings: ["Debug": settings, "Release": settings])]
        f.writeProject()
        let project = try XcodeProject.load(f.projectPath).get()
        #expect(project.platforms(of: project.targets[0], configuration: "Release").platforms == ["ios", "macos", "catalyst"])
        #expect(try resolve(f, "Multi").resolved.bundleID == "com.example.Multi")
        #expect(try resolve(f, "Multi", platform: "macos").resolved.bundleID == "com.example.Multi.mac")
        #expect(try resolve(f, "Multi", platform: "catalyst").resolved.bundleID == "maccatalyst.com.example.Multi.mac")
        #expect(try resolve(f, "Multi", configuration: "Debug").resolved.bundleID == "com.example.Multi.debug")
    }

    @Test func newerProjectsAnchorXcconfigsInAFolder() throws {
        var f = XcodeFixture()
        defer { f.remove() }
        f.write("Configuration/Shared.xcconfig", "DEVELOPMENT_TEAM = \(XcodeFixture.team)\nSDKROOT = iphoneos\n")
        f.anchoredXCConfig = ["Release": ("Configuration", "Shared.xcconfig")]
        f.targets = [.init(name: "App", settings: ["Release": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.$(TARGET_NAME)"]])]
        f.writeProject()
        let app = try resolve(f, "App")
        #expect(app.resolved.teamID == XcodeFixture.team)
        #expect(app.resolved.bundleID == "com.example.App")
    }

    @Test func xcconfigConditionsCommentsAndLaterLines() throws {
        var f = XcodeFixture()
        defer { f.remove() }
        f.write("Shared/Base.xcconfig", """
            SDKROOT = iphoneos
            DEVELOPMENT_TEAM = \(XcodeFixture.team) // the team
            SUFFIX = first
            SUFFIX = $(SUFFIX)-second;
            PRODUCT_BUNDLE_IDENTIFIER = com.example.$(SUFFIX)
            PRODUCT_BUNDLE_IDENTIFIER[config=Debug] = com.example.debug
            #include "../Shared/Extra.xcconfig"

            """)
        f.write("Shared/Extra.xcconfig", "URL = https:/$()/example.com\n")
        f.targets = [.init(name: "App", xcconfig: ["Debug": "Shared/Base.xcconfig", "Release": "Shared/Base.xcconfig"])]
        f.writeProject()
        let release = try resolve(f, "App")
        #expect(release.resolved.bundleID == "com.example.first-second")
        #expect(release.resolved.teamID == XcodeFixture.team)
        #expect(release.resolved.settings.value(of: "URL").value == "https://example.com")
        #expect(release.issues.isEmpty, "\(release.issues)")
        #expect(try resolve(f, "App", configuration: "Debug").resolved.bundleID == "com.example.debug")
    }

    @Test func olderProjectsSpellTheBundleIDInInfoPlist() throws {
        var f = XcodeFixture()
        defer { f.remove() }
        f.projectSettings = ["Release": ["SDKROOT": "iphoneos", "DEVELOPMENT_TEAM": XcodeFixture.team]]
        f.targets = [
            .init(name: "Old", settings: ["Release": ["INFOPLIST_FILE": "Old/Info.plist", "PRODUCT_NAME": "My App"]]),
            .init(name: "Typo", settings: ["Release": ["INFOPLIST_FILE": "Old/Typo.plist"]]),
        ]
        f.write("Old/Info.plist", "<plist version=\"1.0\">\n<dict>\n\t<key>CFBundleIdentifier</key>\n\t<string>com.example.$(PRODUCT_NAME:rfc1034identifier)</string>\n</dict>\n</plist>\n")
        f.write("Old/Typo.plist", "<plist version=\"1.0\">\n<dict>\n\t<key>CFBundleIdentifier</key>\n\t<string>com.example.$(PRODUCT_NAM)</string>\n</dict>\n</plist>\n")
        f.writeProject()
        #expect(try resolve(f, "Old").resolved.bundleID == "com.example.My-App")
        let typo = try resolve(f, "Typo")
        #expect(typo.resolved.bundleID == nil)
        #expect(typo.issues.contains { $0.message.contains("$(PRODUCT_NAM)") && $0.location?.line == 4 && $0.location?.file.hasSuffix("Typo.plist") == true })
    }

    @Test func whatDoesNotResolveIsAWarningAtItsLine() throws {
        var f = XcodeFixture()
        defer { f.remove() }
        f.write("Base.xcconfig", "SDKROOT = iphoneos\n#include \"Missing.xcconfig\"\n#include \"Base.xcconfig\"\nnot a setting\n")
        f.projectXCConfig = ["Release": "Base.xcconfig"]
        f.targets = [
            .init(name: "App", settings: ["Release": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.$(COMPANY_SUFFIX)", "DEVELOPMENT_TEAM": "nope",
                                                      "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]]),
            .init(name: "NoID", settings: ["Release": ["DEVELOPMENT_TEAM": XcodeFixture.team]]),
        ]
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)$(PRODUCT_MODULE_NAME)"])
        f.writeProject()
        let app = try resolve(f, "App")
        let messages = app.issues.map { "\(ProjectPath.lastComponent($0.location?.file ?? "")):\($0.location?.line ?? 0): \($0.message)" }
        #expect(messages.contains { $0.hasPrefix("Base.xcconfig:2: cannot read the xcconfig file") })
        #expect(messages.contains { $0.hasPrefix("Base.xcconfig:3: ") && $0.contains("includes itself") })
        #expect(messages.contains { $0.hasPrefix("Base.xcconfig:4: cannot read this line") })
        #expect(messages.contains { $0.hasPrefix("project.pbxproj:") && $0.contains("$(COMPANY_SUFFIX)") })
        #expect(messages.contains { $0.contains("'nope', which is not a team ID") })
        #expect(messages.contains { $0.hasPrefix("App.entitlements:7: ") && $0.contains("needs a team ID") })
        #expect(app.resolved.teamID == nil)
        let noID = try resolve(f, "NoID")
        #expect(noID.resolved.bundleID == nil)
        #expect(noID.issues.contains { $0.message.contains("PRODUCT_BUNDLE_IDENTIFIER is not set") && $0.location?.line ?? 0 > 0 })
    }
}

@Suite("kcs import xcode")
struct XcodeImporterTests {
    @Test func namesTargetsAndWritesEntitlementsByReference() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let result = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions(scenarioFolder: f.root.path))
        #expect(result.verdict == .passed)
        #expect(result.diagnostics.isEmpty)
        let lines = result.scenario.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines == [
            "platform ios 17", "team SKMME9E2Y8",
            "app com.example.Notes as App kind=app entitlements=\"App/App.entitlements\"",
            "app com.example.Notes.Widget as Widget kind=extension entitlements=\"Widget/Widget.entitlements\"",
            "app com.example.Notes.Share as Share_Extension kind=extension entitlements=\"Share/Share.entitlements\"",
            // In the canonical layout: lists longer than the line width wrap.
            "expect groups App [", "    SKMME9E2Y8.com.example.Notes.shared,", "    SKMME9E2Y8.com.example.Notes,",
            "    group.com.example.notes,", "]",
            "expect groups Widget [SKMME9E2Y8.com.example.Notes.shared, SKMME9E2Y8.com.example.Notes.Widget]",
            "expect groups Share_Extension [", "    SKMME9E2Y8.com.example.Notes.Share,", "    SKMME9E2Y8.com.example.Notes.Share,", "]",
        ])
        // The scenario runs, and the language reads the files to the groups the import worked out.
        f.write("notes.kcs", result.scenario)
        let report = Interpreter.run(path: f.path("notes.kcs"))
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map(\.message))")
        #expect(report.verdict == .passed)
    }

    @Test func namesAreSanitisedAndKeptApart() {
        #expect(XcodeImporter.scenarioName("Share Extension (iOS)") == "Share_Extension__iOS_")
        #expect(XcodeImporter.scenarioName("Widget-2.x_y") == "Widget-2.x_y")
        #expect(XcodeImporter.scenarioName("Ünïcode") == "_n_code")
        #expect(XcodeImporter.relativePath("/a/b/c.entitlements", from: "/a/x") == "../b/c.entitlements")
        #expect(XcodeImporter.relativePath("b/c", from: ".") == "b/c")
        #expect(XcodeImporter.relativePath("b/c", from: "/abs") == "b/c")
    }

    @Test func entitlementsWithOtherSettingsAreWrittenOutAndTeamlessTargetsWarn() throws {
        var f = XcodeFixture()
        defer { f.remove() }
        f.projectSettings = ["Release": ["SDKROOT": "iphoneos", "GROUP_SUFFIX": "shared"]]
        f.targets = [
            .init(name: "App", settings: ["Release": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.App", "CODE_SIGN_ENTITLEMENTS": "App.entitlements"]]),
            .init(name: "Lib", productType: "com.apple.product-type.framework", settings: ["Release": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Lib"]]),
        ]
        f.writeEntitlements("App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.$(GROUP_SUFFIX)", "ABCDE12345.com.example.written"],
                            appGroups: ["group.com.example.app"])
        f.writeProject()
        // Without a team, the groups that need none are kept (Jami's app group was dropped).
        let teamless = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions())
        // As one line (the canonical layout wraps long lists).
        func flat(_ s: String) -> String { s.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") }
        #expect(flat(teamless.scenario).contains("app com.example.App as App team=none kind=app keychain-access-groups=[ ABCDE12345.com.example.written, ] application-groups=[ group.com.example.app, ]"),
                "\(teamless.scenario)")
        #expect(teamless.diagnostics.contains { $0.message.contains("has no team in configuration") && $0.location != nil })
        #expect(Interpreter.run(source: teamless.scenario).verdict == .passed)
        let withTeam = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions(team: "ABCDE12345"))
        #expect(flat(withTeam.scenario).contains("app com.example.App as App kind=app keychain-access-groups=[ ABCDE12345.com.example.shared, ABCDE12345.com.example.written, ] application-groups=[ group.com.example.app, ]"),
                "\(withTeam.scenario)")
        #expect(!withTeam.scenario.contains("Lib"))  // a framework is not signed with entitlements of its own
        #expect(Interpreter.run(source: withTeam.scenario).verdict == .passed)
    }

    @Test func aTeamThatExpandsToNothingIsNamedAndTeamStandsIn() throws {
        // Loop's shape: the bundle ID uses the team, which a setting left
        // empty for the developer's own override file empties. The refusal
        // named the symptom, advised --configuration, which cannot help,
        // and --team was ignored (real-project trial 14, D5).
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        for c in ["Debug", "Release"] { f.targets[2].settings[c]?["PRODUCT_BUNDLE_IDENTIFIER"] = "$(MAIN_BUNDLE).Share" }
        f.write("Config/Base.xcconfig", """
            #include? "Override.xcconfig"
            ORG_DEVELOPMENT_TEAM =
            DEVELOPMENT_TEAM = $(ORG_DEVELOPMENT_TEAM)
            MAIN_BUNDLE = com.${DEVELOPMENT_TEAM}.example
            PRODUCT_BUNDLE_IDENTIFIER = $(MAIN_BUNDLE).$(PRODUCT_NAME:rfc1034identifier)
            IPHONEOS_DEPLOYMENT_TARGET = 17.0

            """)
        f.writeProject()
        let refused = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions())
        let warning = try #require(refused.diagnostics.first { $0.message.contains("target 'App'") && $0.message.contains("which is not a bundle ID") })
        #expect(warning.hint?.hasPrefix("$(DEVELOPMENT_TEAM) is set to nothing here (DEVELOPMENT_TEAM = $(ORG_DEVELOPMENT_TEAM) (Base.xcconfig:3); "
                                        + "ORG_DEVELOPMENT_TEAM is set empty (Base.xcconfig:2)): set ORG_DEVELOPMENT_TEAM, or give --team TEAMID") == true,
                "\(warning.hint ?? "")")
        let last = try #require(refused.diagnostics.last)
        #expect(last.message.hasPrefix("no target of") && last.hint?.hasSuffix("set ORG_DEVELOPMENT_TEAM, or give --team TEAMID") == true, "\(last.hint ?? "")")
        #expect(refused.verdict == .failed)
        let team = XcodeFixture.team
        let imported = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions(team: team))
        #expect(imported.scenario.contains("app com.\(team).example.Notes as App"), "\(imported.scenario)\n\(imported.diagnostics.map(\.message))")
        #expect(!imported.diagnostics.contains { $0.message.contains("which is not a bundle ID") })
    }

    @Test func otherPlatformsAreLeftForPlatform() throws {
        var f = XcodeFixture()
        defer { f.remove() }
        f.projectSettings = ["Release": ["DEVELOPMENT_TEAM": XcodeFixture.team]]
        f.targets = [
            .init(name: "Phone", settings: ["Release": ["SDKROOT": "iphoneos", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.Phone"]]),
            .init(name: "Watch", productType: "com.apple.product-type.application.watchapp2",
                  settings: ["Release": ["SDKROOT": "watchos", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.Phone.watchkitapp",
                                         "WATCHOS_DEPLOYMENT_TARGET": "10.0"]]),
            .init(name: "Mac", settings: ["Release": ["SDKROOT": "macosx", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.Mac"]]),
        ]
        f.writeProject()
        let ios = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions())
        #expect(ios.scenario.contains("# not on ios: Watch (watchos), Mac (macos) (import them with --platform)"))
        let watch = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions(platform: "watchos"))
        #expect(watch.scenario.contains("platform watchos 10\n"))
        #expect(watch.scenario.contains("app com.example.Phone.watchkitapp as Watch kind=app"))
        #expect(!watch.scenario.contains("as Phone"))
        let mac = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions(platform: "macos"))
        #expect(mac.scenario.contains("platform macos 15\n"))
        #expect(Interpreter.run(source: mac.scenario).verdict == .passed)
        // SUPPORTED_PLATFORMS, not SDKROOT, says where a target builds
        // (sing-box's iOS tunnel sets SDKROOT = macosx); a tvOS-only target is
        // not iOS's; SDKROOT's platform comes first among those supported, and
        // words kcs does not know fall back to SDKROOT.
        for (name, sdkroot, supported) in [("Tunnel", "macosx", "iphoneos iphonesimulator macosx"), ("TV", "iphoneos", "appletvos appletvsimulator"),
                                           ("Both", "iphoneos", "macosx iphoneos"), ("Odd", "iphoneos", "driverkit iphone"),
                                           ("TVBare", "iphoneos", "appletvos appletvsimulator")] {
            // A tvOS target that signs with nothing has nothing to check, and
            // is not said (React Native's leftover `-tvOS` target).
            f.targets.append(.init(name: name, settings: ["Release": ["SDKROOT": sdkroot, "SUPPORTED_PLATFORMS": supported,
                                                                      "PRODUCT_BUNDLE_IDENTIFIER": "com.example." + name,
                                                                      "CODE_SIGN_ENTITLEMENTS": name == "TV" ? "TV/TV.entitlements" : ""]]))
        }
        f.writeProject()
        let project = try XcodeProject.load(f.projectPath).get()
        func platforms(_ name: String) throws -> [String] {
            project.platforms(of: try #require(project.targets.first { $0.name == name }), configuration: "Release").platforms
        }
        #expect(try platforms("Both") == ["ios", "macos"] && platforms("Odd") == ["ios"])
        let both = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions())
        #expect(both.scenario.contains("app com.example.Tunnel as Tunnel"), "\(both.scenario)")
        #expect(!both.scenario.contains("com.example.TV "), "\(both.scenario)")
        #expect(both.diagnostics.contains { $0.message == "target 'TV' builds for tvos, which kcs does not model" })
        #expect(!both.diagnostics.contains { $0.message.contains("'TVBare'") }, "\(both.diagnostics.map(\.message))")
        // No --platform imports them: they are said as not imported.
        #expect(both.scenario.contains("# not imported: TV") && !both.scenario.contains("TV (no platform"), "\(both.scenario)")
    }

    /// AltStore: the project says SUPPORTED_PLATFORMS = "iphonesimulator
    /// iphoneos macosx" for every target; the iPhone app's own SDKROOT is
    /// iphoneos, the Mac app's and the XPC service's macosx. Each was
    /// imported on both platforms (an XPC service under `platform ios`).
    @Test func aTargetsOwnSDKRootWinsOverTheProjectsPlatformsAndMacOnlyKindsStayOnTheMac() throws {
        var f = XcodeFixture()
        defer { f.remove() }
        f.projectSettings = ["Release": ["DEVELOPMENT_TEAM": XcodeFixture.team, "SDKROOT": "iphoneos",
                                         "SUPPORTED_PLATFORMS": "iphonesimulator iphoneos macosx"]]
        func target(_ name: String, _ type: String = "com.apple.product-type.application", _ own: [String: String] = [:]) -> XcodeFixture.Target {
            .init(name: name, productType: type, settings: ["Release": own.merging(["PRODUCT_BUNDLE_IDENTIFIER": "com.example." + name]) { a, _ in a }])
        }
        f.targets = [
            target("Phone", "com.apple.product-type.application", ["SDKROOT": "iphoneos"]),
            target("Server", "com.apple.product-type.application", ["SDKROOT": "macosx"]),
            target("XPC", "com.apple.product-type.xpc-service", ["SDKROOT": "macosx"]),
            // Macs only, whatever the project says.
            target("Helper", "com.apple.product-type.xpc-service"),
            target("Filter", "com.apple.product-type.system-extension"),
            target("Editor", "com.apple.product-type.xcode-extension", ["SUPPORTED_PLATFORMS": "iphoneos macosx"]),
            // Inherits both SDKROOT and the list: both platforms, as before.
            target("Inherits"),
            // Its own list wins over its own SDKROOT, as before.
            target("Own", "com.apple.product-type.application", ["SDKROOT": "iphoneos", "SUPPORTED_PLATFORMS": "iphoneos macosx"]),
        ]
        f.writeProject()
        let project = try XcodeProject.load(f.projectPath).get()
        let said = project.targets.map { "\($0.name): " + project.platforms(of: $0, configuration: "Release").platforms.joined(separator: " ") }
        #expect(said == ["Phone: ios", "Server: macos", "XPC: macos", "Helper: macos", "Filter: macos", "Editor: macos",
                         "Inherits: ios macos", "Own: ios macos"], "\(said)")
        let ios = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions(platform: "ios"))
        #expect(!ios.scenario.contains("as Server") && !ios.scenario.contains("as XPC") && ios.scenario.contains("as Phone"), "\(ios.scenario)")
        let mac = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions(platform: "macos"))
        #expect(!mac.scenario.contains("as Phone") && mac.scenario.contains("as Server") && mac.scenario.contains("as XPC"), "\(mac.scenario)")
        // Where only the list puts a target, the header says so.
        #expect(mac.scenario.contains("# on macos by SUPPORTED_PLATFORMS, though SDKROOT names another platform: Inherits (ios), Own (ios)\n"),
                "\(mac.scenario)")
        #expect(!ios.scenario.contains("by SUPPORTED_PLATFORMS"), "\(ios.scenario)")
    }

    @Test func aCatalystTargetKeepsItsAssociatedApplicationIdentifier() throws {
        // The Mac build of an iPhone app lists the iPhone app's ID as its
        // associated application identifier, which SecTaskCopyAccessGroups puts
        // before its own app ID (server_entitlement_helpers.c:124-126): its
        // default group is the iPhone app's. The import and `app … project=`
        // dropped it (found by a conformance audit).
        var f = XcodeFixture()
        defer { f.remove() }
        let settings = ["SDKROOT": "iphoneos", "SUPPORTS_MACCATALYST": "YES", "DERIVE_MACCATALYST_PRODUCT_BUNDLE_IDENTIFIER": "YES",
                        "DEVELOPMENT_TEAM": XcodeFixture.team, "PRODUCT_BUNDLE_IDENTIFIER": "com.example.Notes",
                        "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements", "GROUP": "com.example.shared"]
        f.targets = [.init(name: "App", settings: ["Release": settings])]
        func entitlements(_ keychainGroup: String) {
            f.write("App/App.entitlements", """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict>
                <key>com.apple.developer.associated-application-identifier</key>
                <array><string>$(AppIdentifierPrefix)com.example.Notes</string></array>
                <key>keychain-access-groups</key><array><string>\(keychainGroup)</string></array>
                </dict></plist>

                """)
        }
        entitlements("$(AppIdentifierPrefix)com.example.shared")
        f.writeProject()
        let team = XcodeFixture.team
        let expected = "[\(team).com.example.shared, \(team).com.example.Notes, \(team).maccatalyst.com.example.Notes, com.apple.token]"
        // The file a scenario reads itself, and one it cannot (a setting of the project's).
        for group in ["$(AppIdentifierPrefix)com.example.shared", "$(AppIdentifierPrefix)$(GROUP)"] {
            entitlements(group)
            let imported = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions(platform: "catalyst", scenarioFolder: f.root.path))
            // As one line (the canonical layout wraps the list).
            let flat = imported.scenario.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            #expect(flat.contains("expect groups App [ \(team).com.example.shared, \(team).com.example.Notes, \(team).maccatalyst.com.example.Notes, com.apple.token, ]"),
                    "\(imported.scenario)")
            f.write("imported.kcs", imported.scenario)
            let report = Interpreter.run(path: f.path("imported.kcs"))
            #expect(report.verdict == .passed, "\(report.diagnostics.map(\.message))\n\(imported.scenario)")
        }
        // `app … project=` builds the same list.
        f.write("project.kcs", """
            platform catalyst 17
            team \(team)
            app App project="App.xcodeproj"
            expect groups App \(expected)
            expect default-group App \(team).com.example.shared

            """)
        let report = Interpreter.run(path: f.path("project.kcs"))
        #expect(report.verdict == .passed, "\(report.diagnostics.map(\.message))")
    }

    /// A project named by many `app … project=` lines is loaded once per run
    /// (400 lines loaded a 293 KB project 400 times, 9 s; adversarial 20, M4).
    @Test func aProjectNamedByManyAppLinesIsLoadedOncePerRun() {
        final class Counting: SourceLoader, @unchecked Sendable {
            var reads: [String: Int] = [:]
            func resolve(_ path: String, relativeTo including: String?) -> String {
                FileSystemLoader().resolve(path, relativeTo: including)
            }
            func read(_ resolved: String) throws(LoadError) -> SourceFile {
                reads[resolved, default: 0] += 1
                return try FileSystemLoader().read(resolved)
            }
            func contents(ofDirectory resolved: String) -> [String]? { FileSystemLoader().contents(ofDirectory: resolved) }
        }
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let lines = ["App", "Widget", "Share Extension", "App"].enumerated().map {
            "app A\($0.offset) project=\"App.xcodeproj\" target=\"\($0.element)\""
        }
        f.write("many.kcs", "team \(XcodeFixture.team)\n" + lines.joined(separator: "\n") + "\nexpect default-group A3 \(XcodeFixture.team).com.example.Notes.shared\n")
        let loader = Counting()
        let report = Interpreter.run(path: f.path("many.kcs"), loader: loader)
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics.map(\.message))")
        #expect(report.verdict == .passed)
        let project = loader.reads.filter { $0.key.hasSuffix("project.pbxproj") }
        #expect(project.count == 1 && project.values.allSatisfy { $0 == 1 }, "\(loader.reads)")
    }

    @Test func brokenProjectsAreLocatedErrors() {
        let f = XcodeFixture()
        defer { f.remove() }
        f.write("App.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{\n\tobjects = {\n\t\tX = {isa = PBXProject\n\t};\n}\n")
        let broken = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions())
        #expect(broken.verdict == .invalidInput)
        #expect(broken.diagnostics.first?.location?.line == 5)
        #expect(broken.diagnostics.first?.code == .projectUnreadable)
        let missing = XcodeImporter.importProject(f.path("Nope.xcodeproj"), options: XcodeImportOptions())
        #expect(missing.verdict == .missingInput)
        f.write("App.xcodeproj/project.pbxproj", "{ objects = {}; rootObject = R; }")
        #expect(XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions()).diagnostics.first?.message.contains("no PBXProject") == true)
    }

    @Test func hostileProjectsEndInBoundedTime() throws {
        var f = XcodeFixture()
        defer { f.remove() }
        // Settings that double at every level, an xcconfig that includes itself, a group that contains itself.
        var settings = ["SDKROOT": "iphoneos", "DEVELOPMENT_TEAM": XcodeFixture.team, "S0": "\u{202E}x",
                        "PRODUCT_BUNDLE_IDENTIFIER": "com.example.$(S40)", "CODE_SIGN_ENTITLEMENTS": "E.entitlements"]
        for i in 1...40 { settings["S\(i)"] = "$(S\(i - 1))$(S\(i - 1))" }
        f.write("Loop.xcconfig", "#include \"Loop.xcconfig\"\n")
        f.projectXCConfig = ["Release": "Loop.xcconfig"]
        f.targets = [.init(name: "Evil\nplatform macos 1", settings: ["Release": settings])]
        f.writeEntitlements("E.entitlements", keychain: ["$(S40)"])
        f.writeProject()
        var text = try String(contentsOfFile: f.path("App.xcodeproj/project.pbxproj"), encoding: .utf8)
        text = text.replacingOccurrences(of: "children = (", with: "children = (A1B2C3D4E5F6000000000099, ")
        text = text.replacingOccurrences(of: "\t};\n\trootObject", with: "\t\tA1B2C3D4E5F6000000000099 = {isa = PBXGroup; children = (A1B2C3D4E5F6000000000099, ); path = x; sourceTree = \"<group>\";};\n\t};\n\trootObject")
        f.write("App.xcodeproj/project.pbxproj", text)
        let clock = ContinuousClock()
        let start = clock.now
        let result = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions())
        #expect(clock.now - start < .seconds(20))
        #expect(result.diagnostics.contains { $0.message.contains("includes itself") })
        // The bundle ID's problem is said where it is set (not again as "not a bundle ID").
        #expect(result.diagnostics.contains { $0.message.contains("PRODUCT_BUNDLE_IDENTIFIER") && $0.message.contains("longer than") },
                "\(result.diagnostics.map(\.message))")
        // The target's name cannot leave its comment line, nor a value its literal.
        #expect(!result.scenario.split(separator: "\n").contains { $0.hasPrefix("platform macos") })
        #expect(!result.scenario.unicodeScalars.contains("\u{202E}"))
        let lint = try ProjectLint.load(f.projectPath).get()
        #expect(!lint.run().isEmpty)
    }

    /// Found by adversarial testing: a value of 20,000 references among
    /// 20,000 settings (each reference walked every assignment), and one
    /// file included 200 times (each include read and kept again).
    @Test func largeConfigurationsAreBounded() throws {
        var f = XcodeFixture()
        defer { f.remove() }
        let n = 20_000
        var team = "DEVELOPMENT_TEAM = \(XcodeFixture.team)\n"
        for i in 0..<n { team += "S\(i) = x\n" }
        f.write("Team.xcconfig", team)
        f.write("Base.xcconfig", "#include \"Team.xcconfig\"\nSDKROOT = iphoneos\nCOMPANY = " + String(repeating: "$(S\(n - 1))", count: n)
                + "\nPRODUCT_BUNDLE_IDENTIFIER = com.example.a$(U0)$(U1)\n")
        var many = ""
        for _ in 0..<200 { many += "#include \"Team.xcconfig\"\n" }
        f.write("Many.xcconfig", many)
        f.projectXCConfig = ["Release": "Base.xcconfig", "Debug": "Many.xcconfig"]
        f.targets = [.init(name: "App", settings: ["Release": [:], "Debug": [:]])]
        f.writeProject()
        let project = try XcodeProject.load(f.projectPath).get()
        let app = try #require(project.targets.first { $0.name == "App" })
        func resolve(_ configuration: String) -> TargetSigning {
            TargetSigning.resolve(project, app, configuration: configuration, platform: "ios", team: nil,
                                  fileSystem: LocalProjectFileSystem())
        }
        let release = resolve("Release")
        #expect(release.resolved.bundleID == "com.example.a")
        let company = release.resolved.settings.value(of: "COMPANY")
        #expect(company.value == String(repeating: "x", count: n))
        #expect(company.problems.isEmpty)
        #expect(release.issues.contains { $0.undefinedSettings == ["U0", "U1"] })
        let debug = resolve("Debug")
        let cut = debug.issues.filter { $0.message.contains("the rest are not read") }
        #expect(cut.count == 1, "\(cut.map(\.message))")
        #expect(cut.first?.message.contains("more than 100000 settings") == true)
        // The configuration's 100,000 and the project's and target's own.
        #expect(debug.resolved.settings.assignments.count <= 100_000 + 64)
    }
}

