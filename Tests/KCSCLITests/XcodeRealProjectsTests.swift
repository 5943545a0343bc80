import Foundation
import KCSCodeCheck
import KCSLanguage
import KCSXcode
import KCSXcodeProject
import Testing

/// Cases met in real, public projects (docs/xcode.md, "Tried on real
/// projects"), each reduced to the docs project plus the few settings and
/// files that made it go wrong. Nothing of those projects is copied here.
@Suite("kcs import xcode and lint --project on what real projects do")
struct XcodeRealProjectsTests {
    func findings(_ f: XcodeFixture) throws -> [String] {
        try ProjectLint.load(f.projectPath).get().run().map {
            "\($0.code.rawValue) \($0.file.map { ProjectPath.lastComponent($0.name) } ?? ""):\($0.location?.line ?? 0) \($0.message)"
        }
    }

    /// NetNewsWire and Simplenote: Debug builds another app
    /// (`…$(BUNDLE_ID_SUFFIX)` = `-DEBUG`) with its own groups, on purpose.
    @Test func aConfigurationWithAnotherBundleIDIsAnotherApp() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("Config/Base.xcconfig", """
            #include "Team.xcconfig"
            SUFFIX =
            SUFFIX[config=Debug] = -debug
            PRODUCT_BUNDLE_IDENTIFIER = com.example.$(PRODUCT_NAME:rfc1034identifier)$(SUFFIX)

            """)
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared$(SUFFIX)"],
                            appGroups: ["group.com.example.notes$(SUFFIX)"])
        f.writeProject()
        var d = try findings(f)
        #expect(!d.contains { $0.hasPrefix("KCS603") }, "\(d)")
        // The same app (same bundle ID) with other groups in Debug is still reported.
        f.write("Config/Base.xcconfig", """
            #include "Team.xcconfig"
            SUFFIX =
            SUFFIX[config=Debug] = -debug
            PRODUCT_BUNDLE_IDENTIFIER = com.example.$(PRODUCT_NAME:rfc1034identifier)

            """)
        d = try findings(f)
        #expect(d.contains { $0.hasPrefix("KCS603 App.entitlements:7 target 'App': configuration 'Debug' lacks SKMME9E2Y8.com.example.Notes.shared") }, "\(d)")
    }

    /// IceCubesApp: Debug's xcconfig is a developer's own file, absent from
    /// the repository, so Debug's groups expand to `TEAM..IceCubesApp`.
    /// That is reported where the setting is used, not compared as groups.
    @Test func groupsThatDoNotResolveAreNotCompared() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.projectXCConfig["Debug"] = "Config/Missing.xcconfig"
        f.projectSettings["Debug"]?["DEVELOPMENT_TEAM"] = XcodeFixture.team
        f.write("Config/Base.xcconfig", """
            #include "Team.xcconfig"
            PREFIX = com.example
            PRODUCT_BUNDLE_IDENTIFIER = com.example.$(PRODUCT_NAME:rfc1034identifier)

            """)
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)$(PREFIX).Notes.shared"])
        f.writeProject()
        let d = try findings(f)
        #expect(!d.contains { $0.hasPrefix("KCS603") }, "\(d)")
        #expect(d.contains { $0.hasPrefix("KCS602 App.entitlements:7 '$(AppIdentifierPrefix)$(PREFIX).Notes.shared' uses $(PREFIX)") }, "\(d)")
        #expect(d.contains { $0.hasPrefix("KCS602 project.pbxproj:") && $0.contains("cannot read the xcconfig file") }, "\(d)")
    }

    /// NetNewsWire: `App$(DEVELOPER_ENTITLEMENTS).entitlements`, empty here
    /// and `-dev` in a developer's own xcconfig, selects `App-dev.entitlements`.
    @Test func anEntitlementsFileASettingSelectsIsInUse() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        for c in ["Debug", "Release"] {
            f.targets[0].settings[c]?["CODE_SIGN_ENTITLEMENTS"] = "App/App$(DEVELOPER_ENTITLEMENTS).entitlements"
            f.targets[0].settings[c]?["DEVELOPER_ENTITLEMENTS"] = ""
        }
        f.writeEntitlements("App/App-dev.entitlements", keychain: [])
        f.writeEntitlements("App/Stale.entitlements", keychain: [])
        f.writeProject()
        let d = try findings(f)
        #expect(!d.contains { $0.contains("App-dev.entitlements") }, "\(d)")
        #expect(d.contains { $0.hasPrefix("KCS605 Stale.entitlements:1 no configuration signs with") }, "\(d)")
        #expect(BuildSettings.references(in: "App/A$(X)-$(Y_$(Z):lower)${W}$V.e$").map(\.text)
                == ["App/A", "$(X)", "-", "$(Y_$(Z):lower)", "${W}", "$V", ".e$"])
        #expect(BuildSettings.references(in: "a$(b").map(\.isReference) == [false])
    }

    /// Home Assistant: Mac Catalyst signs with another file,
    /// `CODE_SIGN_ENTITLEMENTS[sdk=macosx*]`; it is in use.
    @Test func aFileOnlyAnotherPlatformSignsWithIsInUse() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        for c in ["Debug", "Release"] {
            f.targets[0].settings[c]?["SUPPORTS_MACCATALYST"] = "YES"
            f.targets[0].settings[c]?["CODE_SIGN_ENTITLEMENTS[sdk=macosx*]"] = "App/App-catalyst.entitlements"
        }
        f.writeEntitlements("App/App-catalyst.entitlements", keychain: [])
        f.writeProject()
        let d = try findings(f)
        #expect(!d.contains { $0.contains("App-catalyst.entitlements") }, "\(d)")
        let catalyst = try XcodeProject.load(f.projectPath).get()
        let app = try #require(catalyst.targets.first)
        #expect(catalyst.resolve(app, configuration: "Release", platform: "catalyst").entitlementsPath?.hasSuffix("App/App-catalyst.entitlements") == true)
        // WooCommerce: the same setting for a target that does not build for
        // the Mac names a file no build signs with; the warning says why
        // (real-project trial 15, D14).
        for c in ["Debug", "Release"] { f.targets[0].settings[c]?["SUPPORTS_MACCATALYST"] = "NO" }
        f.writeProject()
        let unused = try findings(f).filter { $0.contains("App-catalyst.entitlements") }
        #expect(unused.count == 1 && unused[0].hasPrefix("KCS605 project.pbxproj:")
                && unused[0].hasSuffix("App/App-catalyst.entitlements': CODE_SIGN_ENTITLEMENTS of target 'App' "
                                       + "names it for the Mac SDK (sdk=macosx*), and the target does not build for the Mac (SUPPORTS_MACCATALYST is not YES)"),
                "\(unused)")
    }

    /// Pocket Casts: a watch app embedded in the iPhone app runs on the
    /// watch, with its own keychain; KCS604 is for what shares a device.
    @Test func anEmbeddedWatchAppIsNotAskedToShareGroups() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let watch = ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Notes.watchkitapp", "SDKROOT": "watchos"]
        f.targets.append(XcodeFixture.Target(name: "Watch", productType: "com.apple.product-type.application",
                                             settings: ["Debug": watch, "Release": watch]))
        f.targets[0].embeds.append("Watch")
        f.writeProject()
        let d = try findings(f)
        #expect(!d.contains { $0.contains("'Watch' is embedded") }, "\(d)")
        #expect(d.contains { $0.contains("'Share Extension' is embedded in 'App'") }, "\(d)")
    }

    /// Simplenote: every target's configuration includes one missing
    /// xcconfig; the import said so once per target and per lookup.
    @Test func theImportReportsAMissingXCConfigOnce() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("Config/Base.xcconfig", """
            #include "Team.xcconfig"
            #include "Version.public.xcconfig"
            PRODUCT_BUNDLE_IDENTIFIER = com.example.$(PRODUCT_NAME:rfc1034identifier)

            """)
        f.writeProject()
        let result = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions())
        let missing = result.diagnostics.filter { $0.message.contains("Version.public.xcconfig") }
        #expect(missing.count == 1, "\(result.diagnostics.map(\.message))")
        #expect(result.verdict == .passed)
        // DuckDuckGo: a group from a setting only one configuration sets says so in the scenario too.
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)$(VAULT_APP_GROUP)"])
        let vault = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions())
        #expect(vault.scenario.contains("# App: the groups of \"\(f.path("App/App.entitlements"))\", expanded with the project's build settings; some use a setting no level defines"), "\(vault.scenario)")
        #expect(vault.scenario.contains("keychain-access-groups=[SKMME9E2Y8.]"), "\(vault.scenario)")
        #expect(vault.diagnostics.contains { $0.message.contains("uses $(VAULT_APP_GROUP), which target 'App' does not define") })
    }

    /// Running the import from elsewhere: `-o` absolute with a relative
    /// project (or `-o ../x.kcs`) wrote entitlements paths relative to the
    /// working directory, so the scenario could not find them.
    @Test func entitlementsPathsAreRelativeToTheScenarioWhereverItIsWritten() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let folder = URL(fileURLWithPath: f.path("."))
        let out = f.path("out/notes.kcs")
        try FileManager.default.createDirectory(atPath: f.path("out"), withIntermediateDirectories: true)
        let imported = try BinaryRunner.run(["import", "xcode", "App.xcodeproj", "-o", out], directory: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.contains("entitlements=\"../Widget/Widget.entitlements\""), "\(text)")
        let run = try BinaryRunner.run(["run", out])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let sub = URL(fileURLWithPath: f.path("out"))
        let up = try BinaryRunner.run(["import", "xcode", "../App.xcodeproj", "-o", "../notes2.kcs"], directory: sub)
        #expect(up.status == 0, "\(up.stderr)")
        let text2 = try String(contentsOfFile: f.path("notes2.kcs"), encoding: .utf8)
        #expect(text2.contains("entitlements=\"Widget/Widget.entitlements\""), "\(text2)")
    }

    /// Home Assistant: `PRODUCT_BUNDLE_IDENTIFIER = ${BUNDLE_ID_PREFIX}.HomeAssistant${BUNDLE_ID_SUFFIX}`,
    /// with the suffix set only for Debug. `app … project=` refused every
    /// target; a setting defined nowhere is what Xcode builds, so it is a
    /// warning at the declaration. So is a file that does not read (trial
    /// 18, D3), unless what it held is what the app cannot do without: then
    /// the error says which file, in a note.
    @Test func aScriptTakesASettingDefinedNowhereAsXcodeDoesWithAWarning() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("Config/Base.xcconfig", """
            #include "Team.xcconfig"
            PRODUCT_BUNDLE_IDENTIFIER = com.example.$(PRODUCT_NAME:rfc1034identifier)${BUNDLE_ID_SUFFIX}

            """)
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes$(BUNDLE_ID_SUFFIX)"])
        f.writeProject()
        f.write("s.kcs", """
            app App project="App.xcodeproj"
            expect groups App [SKMME9E2Y8.com.example.Notes, SKMME9E2Y8.com.example.Notes]

            """)
        let report = Interpreter.run(path: f.path("s.kcs"))
        #expect(report.verdict == .passed, "\(report.diagnostics.map(\.message))")
        let warnings = report.diagnostics.filter { $0.severity == .warning }.map { "\($0.location?.line ?? 0) \($0.message) | \($0.notes.first.map { ProjectPath.lastComponent($0.file?.name ?? "") } ?? "")" }
        #expect(warnings == [
            "1 PRODUCT_BUNDLE_IDENTIFIER (target 'App', configuration 'Release') uses $(BUNDLE_ID_SUFFIX), which no level of the project defines; Xcode expands it to nothing | Base.xcconfig",
            "1 '$(AppIdentifierPrefix)com.example.Notes$(BUNDLE_ID_SUFFIX)' uses $(BUNDLE_ID_SUFFIX), which target 'App' does not define; Xcode expands it to nothing | App.entitlements",
        ], "\(warnings)")
        f.projectXCConfig["Release"] = "Config/Missing.xcconfig"
        f.writeProject()
        let missing = Interpreter.run(path: f.path("s.kcs"))
        #expect(missing.diagnostics.first?.severity == .error)
        #expect(missing.diagnostics.first?.message.contains("PRODUCT_BUNDLE_IDENTIFIER is not set") == true, "\(missing.diagnostics.map(\.message))")
        #expect(missing.diagnostics.first?.notes.contains { $0.message.hasPrefix("cannot read the xcconfig file") && $0.message.contains("Missing.xcconfig") } == true,
                "\(missing.diagnostics.first?.notes.map(\.message) ?? [])")
    }

    /// The code check reads only files that can name a group, and for
    /// constants only files that hold a name those look up: a constant
    /// declared in another file is still found, and one declared twice with
    /// two values is still not trusted.
    @Test func constantsFromOtherFilesAreFoundWithoutParsingEveryFile() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[2].sources = ["ShareViewController.swift", "Groups.swift", "Other.swift", "Twice.swift"]
        f.write("Share/ShareViewController.swift", """
            import Security
            let query: [String: Any] = [kSecAttrAccessGroup as String: notesGroup]
            let other: [String: Any] = [kSecAttrAccessGroup as String: twice]

            """)
        f.write("Share/Groups.swift", "let notesGroup = \"com.example.Notes.shared\"\nlet twice = \"a\"\n")
        f.write("Share/Twice.swift", "let twice = \"b\"\n")
        f.write("Share/Other.swift", "let unrelated = \"x\"\n")
        f.writeProject()
        let d = try f.codeFindings()
        let messages = d.map { "\($0.code.rawValue) \($0.location?.line ?? 0) \($0.message)" }
        #expect(messages.contains { $0.hasPrefix("KCS607 2 target 'Share Extension' (configuration 'Release') names the access group com.example.Notes.shared") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("KCS608 3 target 'Share Extension' (configuration 'Release') passes kSecAttrAccessGroup a value built at run time (twice)") }, "\(messages)")
        #expect(d.count == 2, "\(messages)")
    }

    /// Brave: `CODE_SIGN_ENTITLEMENTS = "$(SRCROOT)/…"`. SRCROOT and
    /// PROJECT_DIR are absolute in Xcode; with the project given by a
    /// relative path, kcs joined the expanded path to the project folder a
    /// second time and lost every file (the import still exited 0).
    @Test func entitlementsUnderSRCROOTWithARelativeProjectPath() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        for config in ["Debug", "Release"] {
            f.targets[0].settings[config]?["CODE_SIGN_ENTITLEMENTS"] = "$(SRCROOT)/App/App.entitlements"
            f.targets[1].settings[config]?["CODE_SIGN_ENTITLEMENTS"] = "$(PROJECT_DIR)/Widget/./Widget.entitlements"
        }
        f.writeProject()
        let folder = f.root.lastPathComponent
        let out = try BinaryRunner.run(["import", "xcode", folder + "/App.xcodeproj"], directory: f.root.deletingLastPathComponent())
        #expect(out.status == 0, "\(out.stderr)")
        #expect(!out.stderr.contains("KCS602"), "\(out.stderr)")
        #expect(out.stdout.contains("entitlements=\"\(folder)/App/App.entitlements\""), "\(out.stdout)")
        #expect(out.stdout.contains("entitlements=\"\(folder)/Widget/Widget.entitlements\""), "\(out.stdout)")
        // From inside the folder, and through a script's project=.
        let inside = try BinaryRunner.run(["import", "xcode", "App.xcodeproj"], directory: f.root)
        #expect(inside.stdout.contains("entitlements=\"App/App.entitlements\""), "\(inside.stdout)")
        f.write("s.kcs", "app App project=\"App.xcodeproj\"\nexpect groups App [SKMME9E2Y8.com.example.Notes.shared, "
                + "SKMME9E2Y8.com.example.Notes, group.com.example.notes]\n")
        let run = try BinaryRunner.run(["run", folder + "/s.kcs"], directory: f.root.deletingLastPathComponent())
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }

    /// Brave: Debug builds `brave.$(USER).local.id`, one app per developer.
    /// USER (and HOME) come from the environment, as in Xcode; a bundle ID
    /// with a setting defined nowhere is reported (KCS602) and not compared.
    @Test func userIsDefinedAndAHoleInABundleIDIsNotCompared() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[0].settings["Debug"]?["PRODUCT_BUNDLE_IDENTIFIER"] = "com.example.$(USER).Notes"
        f.targets[0].settings["Debug"]?["CODE_SIGN_ENTITLEMENTS"] = "App/App-Debug.entitlements"
        f.writeEntitlements("App/App-Debug.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.debug"])
        f.writeProject()
        var d = try findings(f)
        #expect(!d.contains { $0.contains("$(USER)") }, "\(d)")
        #expect(!d.contains { $0.hasPrefix("KCS603") || $0.hasPrefix("KCS605") }, "\(d)")
        f.targets[0].settings["Debug"]?["PRODUCT_BUNDLE_IDENTIFIER"] = "com.example.Notes$(NOWHERE_SUFFIX)"
        f.writeProject()
        d = try findings(f)
        #expect(d.contains { $0.hasPrefix("KCS602") && $0.contains("$(NOWHERE_SUFFIX)") }, "\(d)")
        #expect(!d.contains { $0.hasPrefix("KCS603") || $0.hasPrefix("KCS605") }, "\(d)")
        // With the suffix defined empty it is the same app, and compared.
        f.targets[0].settings["Debug"]?["NOWHERE_SUFFIX"] = ""
        f.writeProject()
        d = try findings(f)
        #expect(d.contains { $0.hasPrefix("KCS603") }, "\(d)")
    }

    /// Element X: a computed property and a parameter named like an
    /// unrelated `static let` (an Info.plist key) were read as that
    /// constant, and reported as a group the target is not entitled to
    /// (KCS607). A name is a constant only where it can mean one: a type's
    /// own (`Keys.name`), or a bare name no parameter or local binds.
    @Test func namesAreResolvedByScope() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("App/KeychainStore.swift", """
            import Security

            struct InfoPlistReader {
                private enum Keys { static let keychainAccessGroupIdentifier = "keychainAccessGroupIdentifier" }
                static let main = InfoPlistReader()
                var keychainAccessGroupIdentifier: String { Keys.keychainAccessGroupIdentifier }
            }
            enum Shared { static let group = "\(XcodeFixture.team).com.example.Notes.shared" }
            let wrongGroup = "\(XcodeFixture.team).com.example.elsewhere"

            func save(keychainAccessGroupIdentifier: String, _ data: Data) {
                let a: [String: Any] = [kSecAttrAccessGroup as String: InfoPlistReader.main.keychainAccessGroupIdentifier]
                let b: [String: Any] = [kSecAttrAccessGroup as String: keychainAccessGroupIdentifier]
                let c: [String: Any] = [kSecAttrAccessGroup as String: Shared.group]
                let d: [String: Any] = [kSecAttrAccessGroup as String: wrongGroup]
                if let wrongGroup = Optional("x") {
                    let e: [String: Any] = [kSecAttrAccessGroup as String: wrongGroup]
                    _ = e
                }
                _ = (a, b, c, d)
            }
            struct Store {
                let wrongGroup: String
                func save() { let f: [String: Any] = [kSecAttrAccessGroup as String: wrongGroup]; _ = f }
                var current: String? { didSet { let g: [String: Any] = [kSecAttrAccessGroup as String: oldValue ?? ""]; _ = g } }
            }
            func patterns(_ o: String?) {
                let (wrongGroup, _) = (ProcessInfo.processInfo.environment["G"] ?? "", 1)
                let h: [String: Any] = [kSecAttrAccessGroup as String: wrongGroup]
                switch o { case .some(let wrongGroup): let i: [String: Any] = [kSecAttrAccessGroup as String: wrongGroup]; _ = i
                           default: break }
                _ = h
            }
            enum A { enum Keys { static let group = "\(XcodeFixture.team).com.example.elsewhere" } }
            enum B { enum Keys { static var group: String { String() }; static func f() { let j: [String: Any] = [kSecAttrAccessGroup as String: group]; _ = j } } }
            let oldValue = "\(XcodeFixture.team).com.example.elsewhere"

            """)
        f.writeProject()
        let d = try f.codeFindings()
            .filter { $0.file?.name.hasSuffix("KeychainStore.swift") == true }
            .map { "\($0.code.rawValue) KeychainStore.swift:\($0.location?.line ?? 0) \($0.message)" }
        #expect(d.contains { $0.hasPrefix("KCS608 KeychainStore.swift:12") }, "\(d)")
        #expect(d.contains { $0.hasPrefix("KCS608 KeychainStore.swift:13") }, "\(d)")
        #expect(!d.contains { $0.contains(":14 ") }, "Shared.group is entitled: \(d)")
        #expect(d.contains { $0.hasPrefix("KCS607 KeychainStore.swift:15") && $0.contains("com.example.elsewhere") }, "\(d)")
        #expect(d.contains { $0.hasPrefix("KCS608 KeychainStore.swift:17") }, "the if-let shadows the constant: \(d)")
        #expect(!d.contains { $0.contains("keychainAccessGroupIdentifier, which") }, "\(d)")
        // A stored property, an accessor's oldValue, a tuple and a switch
        // binding, and a type's own member beside a same-named nested type
        // elsewhere: values, never the file's or A.Keys's constant.
        for line in [24, 25, 29, 30, 35] {
            #expect(d.contains { $0.hasPrefix("KCS608 KeychainStore.swift:\(line) ") }, "line \(line): \(d)")
        }
        #expect(d.filter { $0.hasPrefix("KCS607") }.count == 1, "only line 15 names a group the target lacks: \(d)")
    }

    /// An adversarial run: names Swift binds that the check did not see
    /// (a subscript's parameter, a capture list, a `let` under `#if` in a
    /// block, a property beside a static constant of its name, one declared
    /// by an extension, a protocol or a superclass in another file) were
    /// read as a top-level constant, a false KCS607. A constant declared
    /// under `#if` is checked as that `#if`'s, and a chain `a = a = … = "x"`
    /// is read in linear time.
    @Test func bindingsAndMembersSwiftSees() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[0].sources.append("Members.swift")
        let bad = "\(XcodeFixture.team).com.example.elsewhere"
        f.write("App/Members.swift", """
            protocol HasGroup { var group: String { get } }
            class Base { var group: String { ProcessInfo.processInfo.environment["G"] ?? "" } }
            extension Store { var group: String { ProcessInfo.processInfo.environment["G"] ?? "" } }
            #if DEBUG
            let debugGroup = "\(bad)"
            #endif

            """)
        let chain = Array(repeating: "q[kSecAttrAccessGroup as String]", count: 2_000).joined(separator: " = ")
        f.write("App/KeychainStore.swift", """
            import Security
            let group = "\(bad)"
            let g = "\(bad)"
            struct Store {
                func save() { let q: [String: Any] = [kSecAttrAccessGroup as String: group]; _ = q }
                subscript(g: String) -> Int { let q: [String: Any] = [kSecAttrAccessGroup as String: g]; return q.count }
            }
            extension HasGroup { func save() { let q: [String: Any] = [kSecAttrAccessGroup as String: group]; _ = q } }
            final class Sub: Base { func save() { let q: [String: Any] = [kSecAttrAccessGroup as String: group]; _ = q } }
            struct Twin {
                static let group = "\(bad)"
                var group: String { ProcessInfo.processInfo.environment["G"] ?? "" }
                func save() { let q: [String: Any] = [kSecAttrAccessGroup as String: self.group]; _ = q }
            }
            func save(other: String) {
                let f = { [g = other] in let q: [String: Any] = [kSecAttrAccessGroup as String: g]; _ = q }
                #if DEBUG
                let g = "\(XcodeFixture.team).com.example.Notes.shared"
                #else
                let g = other
                #endif
                let q: [String: Any] = [kSecAttrAccessGroup as String: g]
                let r: [String: Any] = [kSecAttrAccessGroup as String: debugGroup]
                let s: [String: Any] = [kSecAttrAccessGroup as String: Store.group]
                _ = (f, q, r, s)
            }
            func chain() { var q: [String: Any] = [:]; \(chain) = String(); _ = q }

            """)
        f.writeProject()
        let d = try f.codeFindings()
            .filter { $0.file?.name.hasSuffix("KeychainStore.swift") == true }
            .map { "\($0.code.rawValue) \($0.location?.line ?? 0) \($0.message)" }
        for line in [5, 6, 8, 9, 13, 16, 22] {
            #expect(d.contains { $0.hasPrefix("KCS608 \(line) ") && $0.contains("built at run time") }, "line \(line): \(d)")
        }
        #expect(d.contains { $0.hasPrefix("KCS608 23 ") && $0.contains("under #if DEBUG") }, "\(d)")
        // `Store.group` names a static constant; Store has none, so a value.
        #expect(d.contains { $0.hasPrefix("KCS608 24 ") }, "\(d)")
        #expect(!d.contains { $0.hasPrefix("KCS607") }, "\(d)")
        #expect(d.filter { $0.contains(" 27 ") }.count == 2_000, "one finding per use in the chain: \(d.count)")
    }

    /// A review of the above: a superclass chain and a conformance each in
    /// a file of its own (read only because the types around a use that
    /// resolved to a constant are chased to what they inherit); a file's own
    /// `#if` constant is that `#if`'s, not a value; a name bound in a
    /// closure under a block's `#if` does not leak; a property under `#if`
    /// in a type is a value; a capture `[x = group]` binds `x` only; one
    /// value in an `#if` and its `#else` is compiled in every build.
    @Test func inheritanceAcrossFilesAndConditionalDeclarations() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let bad = "\(XcodeFixture.team).com.example.elsewhere"
        f.targets[0].sources += ["Base.swift", "Mid.swift", "Conformance.swift", "Both.swift"]
        f.write("App/Base.swift", """
            class Base { var group: String { "x" } }
            protocol HasGroup {}
            extension HasGroup { var group: String { "y" } }

            """)
        f.write("App/Mid.swift", "class Mid: Base {}\n")
        f.write("App/Conformance.swift", "extension Store: HasGroup {}\n")
        f.write("App/Both.swift", """
            #if DEBUG
            let sameGroup = "\(bad)"
            #else
            let sameGroup = "\(bad)"
            #endif

            """)
        f.write("App/KeychainStore.swift", """
            import Security
            let group = "\(bad)"
            final class Sub: Mid { func save() { let q: [String: Any] = [kSecAttrAccessGroup as String: group]; _ = q } }
            struct Store { func save() { let q: [String: Any] = [kSecAttrAccessGroup as String: group]; _ = q } }
            #if os(iOS)
            let okGroup = "\(XcodeFixture.team).com.example.Notes.shared"
            #endif
            struct Conditional {
                #if DEBUG
                var group: String { "x" }
                #endif
                func save() { let q: [String: Any] = [kSecAttrAccessGroup as String: group]; _ = q }
            }
            func save() {
                #if DEBUG
                let g2 = { () -> Int in let group = 1; return group }()
                #endif
                let f = { [x = group] in let q: [String: Any] = [kSecAttrAccessGroup as String: group]; _ = (q, x) }
                let q: [String: Any] = [kSecAttrAccessGroup as String: group]
                let r: [String: Any] = [kSecAttrAccessGroup as String: okGroup]
                let s: [String: Any] = [kSecAttrAccessGroup as String: sameGroup]
                _ = (f, q, r, s)
            }

            """)
        f.writeProject()
        let d = try f.codeFindings()
            .filter { $0.file?.name.hasSuffix("KeychainStore.swift") == true }
            .map { "\($0.code.rawValue) \($0.location?.line ?? 0) \($0.message)" }
        for line in [3, 4, 12] {
            #expect(d.contains { $0.hasPrefix("KCS608 \(line) ") && $0.contains("built at run time") }, "line \(line): \(d)")
        }
        // The file-scope `group`'s two uses (lines 18, 19) are said once, at
        // its declaration (real-project trial 22, D9).
        for line in [2, 21] {
            #expect(d.contains { $0.hasPrefix("KCS607 \(line) ") && $0.contains("com.example.elsewhere") }, "line \(line): \(d)")
        }
        #expect(d.contains { $0.hasPrefix("KCS607 2 ") && $0.hasSuffix("(said once for its 2 uses)") }, "\(d)")
        #expect(!d.contains { $0.contains(" 20 ") }, "okGroup is entitled, under #if os(iOS): \(d)")
        #expect(d.count == 5, "\(d)")
    }

    /// A third trial on real projects. Simplenote blanks the team for one
    /// SDK (`DEVELOPMENT_TEAM[sdk=macosx*] = ""`): the target attributes'
    /// team was taken instead. Xcode 16's synchronized folders: a file of
    /// one target's folder ticked for another was never checked for it, and
    /// a folder unticked as a whole was. AltStore's daemon, a dynamic
    /// library, signs with its file (KCS605 said none did); BlueWallet's
    /// Debug and Release files are identical (KCS605) and its sticker pack
    /// has no code (KCS604).
    @Test func teamsSynchronizedFoldersAndTargetsWithoutCode() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        // The team blanked at the target level, with a team in the attributes.
        f.targets[0].settings["Release"]?["DEVELOPMENT_TEAM"] = ""
        f.targets[0].attributesTeam = XcodeFixture.team
        f.writeProject()
        let imported = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions())
        #expect(imported.scenario.contains("app com.example.Notes as App team=none"), "\(imported.scenario)")
        #expect(imported.diagnostics.contains { $0.message.contains("'App' has no team") }, "\(imported.diagnostics.map(\.message))")
        // One team problem is one warning: $(AppIdentifierPrefix) is no setting to define.
        #expect(!imported.diagnostics.contains { $0.message.contains("which target 'App' does not define") },
                "\(imported.diagnostics.map(\.message))")
        f.targets[0].settings["Release"]?["DEVELOPMENT_TEAM"] = nil

        // Synchronized folders: WidgetExtra is Widget's, one file of it
        // ticked for App; Shared is both targets', its AppOnlyDir unticked for Widget.
        f.targets[1].synchronizedFolders = ["WidgetExtra", "Shared"]
        f.targets[0].synchronizedFolders = ["Shared"]
        f.synchronizedExceptions = [(folder: "WidgetExtra", target: "App", paths: ["AlsoInApp.swift"]),
                                    (folder: "Shared", target: "Widget", paths: ["AppOnlyDir"])]
        f.write("WidgetExtra/AlsoInApp.swift", """
            import Security
            let q: [String: Any] = [kSecAttrAccessGroup as String: "\(XcodeFixture.team).com.example.Notes.Widget"]

            """)
        f.write("Shared/AppOnlyDir/AppOnly.swift", """
            import Security
            let r: [String: Any] = [kSecAttrAccessGroup as String: "group.com.example.notes"]

            """)
        // A dynamic library signing with its own file; App's Release with
        // a copy of its Debug file; a sticker pack embedded in App.
        f.targets.append(XcodeFixture.Target(name: "Daemon", productType: "com.apple.product-type.library.dynamic",
                                             settings: ["Debug": ["CODE_SIGN_ENTITLEMENTS": "Daemon/Daemon.entitlements"],
                                                        "Release": ["CODE_SIGN_ENTITLEMENTS": "Daemon/Daemon.entitlements"]]))
        f.writeEntitlements("Daemon/Daemon.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"])
        f.targets[0].settings["Release"]?["CODE_SIGN_ENTITLEMENTS"] = "App/AppRelease.entitlements"
        f.writeEntitlements("App/AppRelease.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"], appGroups: ["group.com.example.notes"])
        f.targets.append(XcodeFixture.Target(name: "Stickers", productType: "com.apple.product-type.app-extension.messages-sticker-pack",
                                             settings: ["Debug": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Notes.Stickers"],
                                                        "Release": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Notes.Stickers"]]))
        f.targets[0].embeds.append("Stickers")
        f.writeProject()
        let d = try findings(f)
        let code = try f.codeFindings()
            .map { "\($0.code.rawValue) \($0.file.map { ProjectPath.lastComponent($0.name) } ?? ""):\($0.location?.line ?? 0) \($0.message)" }
        #expect(code.contains { $0.hasPrefix("KCS607 AlsoInApp.swift:2") && $0.contains("target 'App'") }, "\(code)")
        #expect(!code.contains { $0.contains("AlsoInApp.swift") && $0.contains("target 'Widget'") }, "its own group: \(code)")
        #expect(!code.contains { $0.contains("AppOnly.swift") && $0.contains("target 'Widget'") }, "\(code)")
        #expect(!d.contains { $0.hasPrefix("KCS605") }, "\(d)")
        #expect(!d.contains { $0.hasPrefix("KCS604") && $0.contains("Stickers") }, "\(d)")
        // The files differ in name only: their groups are compared, and agree.
        #expect(!d.contains { $0.hasPrefix("KCS603") && $0.contains("'App'") }, "\(d)")
    }

    /// Public code writes `$(AppIdentifierPrefix)` in a Swift string, which
    /// Xcode never expands: the hint says so and gives the group. A space
    /// at the end of a group is shown, quoted.
    @Test func settingsAndSpacesInSwiftGroups() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("App/KeychainStore.swift", """
            import Security
            let q: [String: Any] = [kSecAttrAccessGroup as String: "$(AppIdentifierPrefix)com.example.Notes.shared"]
            let r: [String: Any] = [kSecAttrAccessGroup as String: "\(XcodeFixture.team).com.example.Notes.shared "]
            let u: [String: Any] = ["é—ü": 1, kSecAttrAccessGroup as String: "BAD.grp"]

            """)
        let d = try f.codeFindings()
            .filter { $0.file?.name.hasSuffix("KeychainStore.swift") == true }
        let setting = d.first { $0.location?.line == 2 }
        #expect(setting?.code == .codeGroupNotEntitled)
        #expect(setting?.hint == "Xcode expands build settings in entitlements, not in Swift strings: the call passes the text as written; write \"\(XcodeFixture.team).com.example.Notes.shared\"",
                "\(String(describing: setting?.hint))")
        // swift-syntax counts the column in UTF-8 bytes (73 here); the
        // caret is under the string, at its 66th character.
        let wide = d.first { $0.location?.line == 4 }
        #expect(wide?.location?.column == 66, "\(String(describing: wide?.location))")
        let spaced = d.first { $0.location?.line == 3 }
        #expect(spaced?.message.contains("names the access group \"\(XcodeFixture.team).com.example.Notes.shared \", which") == true,
                "\(String(describing: spaced?.message))")
    }

    /// ProtonVPN's Mac app: two system extensions (network extensions) sign
    /// with their own files and share the app's groups; they were left out
    /// of the import and their files called unused (KCS605). Its login
    /// item, an app copied into the app, was asked to share a group (KCS604).
    @Test func systemExtensionsAreImportedAndHelperAppsNeedNoGroup() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        for c in ["Debug", "Release"] { f.projectSettings[c]?["SDKROOT"] = "macosx" }
        let settings = ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Notes.tunnel", "CODE_SIGN_ENTITLEMENTS": "Tunnel/Tunnel.entitlements"]
        f.targets.append(XcodeFixture.Target(name: "Tunnel", productType: "com.apple.product-type.system-extension",
                                             settings: ["Debug": settings, "Release": settings]))
        let helper = ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Notes.helper"]
        f.targets.append(XcodeFixture.Target(name: "Helper", settings: ["Debug": helper, "Release": helper]))
        // An Xcode source editor extension too (Copilot for Xcode's was dropped).
        let editor = ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Notes.editor", "CODE_SIGN_ENTITLEMENTS": "Editor/Editor.entitlements"]
        f.targets.append(XcodeFixture.Target(name: "Editor", productType: "com.apple.product-type.xcode-extension",
                                             settings: ["Debug": editor, "Release": editor]))
        f.targets[0].embeds += ["Tunnel", "Helper", "Editor"]
        f.writeEntitlements("Tunnel/Tunnel.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"])
        f.writeEntitlements("Editor/Editor.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"])
        f.writeProject()
        let d = try findings(f)
        #expect(!d.contains { $0.contains("Tunnel.entitlements") && $0.hasPrefix("KCS605") }, "\(d)")
        #expect(!d.contains { $0.hasPrefix("KCS604") && $0.contains("'Helper'") }, "\(d)")
        let imported = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions(platform: "macos"))
        #expect(imported.scenario.contains("app com.example.Notes.tunnel as Tunnel kind=extension"), "\(imported.scenario)")
        #expect(imported.scenario.contains("app com.example.Notes.editor as Editor kind=extension"), "\(imported.scenario)")
    }

    /// A second trial on real projects: an assignment's right-hand side was
    /// cut at its first operand (`Team.id + ".x"` read as the team ID, a
    /// false KCS607); Valet's public label is `nonEmptyGroup:`; a group under
    /// `#if` may not be compiled in this build (Omnivore's `#if DEBUG`: now
    /// answered from the build's flags); a
    /// wrapper's `self.accessGroup = accessGroup` passes nothing to SecItem.
    @Test func assignmentsValetAndConditionalCode() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("App/KeychainStore.swift", """
            import Security
            enum Team { static let id = "\(XcodeFixture.team)" }
            func save() {
                var query: [String: Any] = [:]
                query[kSecAttrAccessGroup as String] = Team.id + ".com.example.Notes.shared"
                _ = query
            }
            let a = SharedGroupIdentifier(appIDPrefix: "\(XcodeFixture.team)", nonEmptyGroup: "com.example.Other")
            #if DEBUG
            let b: [String: Any] = [kSecAttrAccessGroup as String: "\(XcodeFixture.team).com.example.Notes.debug"]
            #endif
            struct Store {
                let accessGroup: String?
                init(accessGroup: String?) { self.accessGroup = accessGroup }
            }

            """)
        f.writeProject()
        let d = try f.codeFindings()
            .filter { $0.file?.name.hasSuffix("KeychainStore.swift") == true }
            .map { "\($0.code.rawValue) \($0.location?.line ?? 0) \($0.message)" }
        // The whole join is worked out, as in a `let` (real-project trial
        // 21, D2): the app holds the group, so nothing is said at line 5.
        #expect(!d.contains { $0.hasPrefix("KCS608 5 ") || $0.hasPrefix("KCS607 5 ") }, "\(d)")
        #expect(d.contains { $0.hasPrefix("KCS607 8 ") && $0.contains("com.example.Other") }, "Valet: \(d)")
        // Release defines no DEBUG: the group under it is not compiled
        // (ifConditionsAreAnsweredForEachBuild checks a build that does).
        #expect(!d.contains { $0.contains("Notes.debug") }, "\(d)")
        #expect(!d.contains { $0.hasPrefix("KCS608 14 ") || $0.hasPrefix("KCS607 14 ") }, "\(d)")
        #expect(d.count == 1, "\(d)")
    }

    /// Valet: a tvOS host app (a platform kcs does not model) signs with its
    /// own file; the file was called unused (KCS605).
    @Test func aTargetOnAnotherPlatformUsesItsFile() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let tv = ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Notes.tv", "SDKROOT": "appletvos",
                  "CODE_SIGN_ENTITLEMENTS": "TV/TV.entitlements"]
        f.targets.append(XcodeFixture.Target(name: "TV", settings: ["Debug": tv, "Release": tv]))
        f.writeEntitlements("TV/TV.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"])
        f.writeProject()
        let d = try findings(f)
        #expect(!d.contains { $0.hasPrefix("KCS605") && $0.contains("TV.entitlements") }, "\(d)")
    }

    /// An entitlements file with keychain groups and `previous-application-identifiers`.
    static func writeTransferred(_ f: XcodeFixture, _ path: String, keychain: [String], previous: [String]) {
        let strings = { (values: [String]) in values.map { "\t\t<string>\($0)</string>\n" }.joined() }
        f.write(path, """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>previous-application-identifiers</key>
            \t<array>
            \(strings(previous))\t</array>
            \t<key>keychain-access-groups</key>
            \t<array>
            \(strings(keychain))\t</array>
            </dict>
            </plist>

            """)
    }

    /// Simplenote, transferred from one team to another: its
    /// `previous-application-identifiers` name the old prefix, whose group
    /// holds what users stored before. KCS510 called that group another
    /// team's and, as the file lists the new one too, said to drop it; a
    /// doubled prefix meant to match a sibling's old group was told to drop
    /// it too (real-project trial 15, D2).
    @Test func aPreviousAppIDPrefixsGroupIsTheAppsOwnAndNoHintDropsAShippedGroup() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team, old = "4ESDVWK654"
        // The widget keeps the pre-transfer group: no finding.
        Self.writeTransferred(f, "Widget/Widget.entitlements",
                              keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared", "\(old).com.example.Notes.shared"],
                              previous: ["\(old).com.example.Notes.Widget"])
        // The share extension doubles the prefix, meaning the widget's group.
        Self.writeTransferred(f, "Share/Share.entitlements",
                              keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared", "$(AppIdentifierPrefix)\(old).com.example.Notes.shared"],
                              previous: ["\(old).com.example.Notes.Share"])
        // The app lists the old group without saying it was transferred.
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared", "\(old).com.example.Notes.shared"],
                            appGroups: ["group.com.example.notes"])
        let d = try ProjectLint.load(f.projectPath).get().run().filter { $0.code == .lintUnprefixedEntitlement }
        let said = d.map { "\($0.file.map { ProjectPath.lastComponent($0.name) } ?? ""): \($0.message) / \($0.hint ?? "")" }
        #expect(!said.contains { $0.hasPrefix("Widget.entitlements") }, "\(said)")
        let share = d.first { $0.file?.name.hasSuffix("Share.entitlements") == true }
        #expect(share?.hint?.hasPrefix("did you mean \(old).com.example.Notes.shared, as \(old) is the app's previous App ID prefix "
                                       + "(previous-application-identifiers) and target 'App' lists it?") == true, "\(said)")
        let app = d.first { $0.file?.name.hasSuffix("App.entitlements") == true }
        #expect(app?.hint?.hasPrefix("keychain-access-groups already lists \(team).com.example.Notes.shared: drop \(old).com.example.Notes.shared; "
                                     + "unless \(old) is the app's own legacy App ID prefix") == true, "\(said)")
        #expect(app?.hint?.contains("previous-application-identifiers") == true, "\(said)")
        // No hint says to drop a group without saying what dropping it costs.
        #expect(d.allSatisfy { !($0.hint ?? "").contains(": drop ") || ($0.hint ?? "").contains("unless") || ($0.hint ?? "").contains("has shipped") },
                "\(said)")
        #expect(d.count == 2, "\(said)")
        // kcs lint --entitlements reads the key too.
        let lint = try BinaryRunner.run(["lint", "--entitlements", f.path("Widget/Widget.entitlements"), "--team", team])
        #expect(!(lint.stdout + lint.stderr).contains("KCS510"), "\(lint.stdout)\(lint.stderr)")
        // And so does the scenario the import writes.
        let imported = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions())
        let path = f.path("imported.kcs")
        try imported.scenario.write(toFile: path, atomically: true, encoding: .utf8)
        let run = try BinaryRunner.run(["lint", path])
        #expect((run.stdout + run.stderr).components(separatedBy: "[KCS510]").count - 1 == 2, "\(run.stdout)\(run.stderr)")
        #expect(!(run.stdout + run.stderr).contains("Widget.entitlements: keychain group"), "\(run.stdout)\(run.stderr)")
    }

    /// Home Assistant: every extension signs with one file whose keychain
    /// group is one letter from the app's, while they share an app group,
    /// so KCS604 ("shares no group") never fired and the extensions' default
    /// group was one the app never writes. Joplin: a share extension's app
    /// group one letter off got KCS604 without the likely fix (real-project
    /// trial 15, D1, D1b and D12).
    @Test func aGroupOneLetterFromTheHostsIsSaidEvenBesideASharedOne() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        // A second extension signing with the widget's file: said once, naming both.
        let today = ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Notes.Today", "CODE_SIGN_ENTITLEMENTS": "Widget/Widget.entitlements"]
        f.targets.append(XcodeFixture.Target(name: "Today", folder: "Widget", productType: "com.apple.product-type.app-extension",
                                             settings: ["Debug": today, "Release": today], sources: ["Provider.swift"]))
        f.targets[0].embeds.append("Today")
        f.writeEntitlements("Widget/Widget.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shard"],
                            appGroups: ["group.com.example.notes"])
        f.writeEntitlements("Share/Share.entitlements", keychain: ["$(AppIdentifierPrefix)$(CFBundleIdentifier)"],
                            appGroups: ["group.com.example.note"])
        f.writeProject()
        let d = try ProjectLint.load(f.projectPath).get().run().filter { $0.code == .projectExtensionGroup }
        let said = d.map { "\($0.file.map { ProjectPath.lastComponent($0.name) } ?? ""):\($0.location?.line ?? 0) \($0.message) / \($0.hint ?? "")" }
        #expect(said.contains("Widget.entitlements:7 targets 'Widget' and 'Today' list the keychain group \(team).com.example.Notes.shard, "
                              + "one letter from \(team).com.example.Notes.shared of 'App', which embeds them (configuration 'Release'): "
                              + "they cannot read what 'App' stores in \(team).com.example.Notes.shared; both are the default keychain group, "
                              + "where code that names no group stores and reads / did you mean \(team).com.example.Notes.shared? "
                              + "write it as the entitlements of 'App' do (an extension inherits nothing from its app)"), "\(said)")
        let share = d.first { $0.message.hasPrefix("target 'Share Extension' is embedded in 'App' but shares no group") }
        #expect(share?.hint?.hasPrefix("did you mean group.com.example.notes? 'Share Extension' lists the app group group.com.example.note, "
                                       + "one letter from group.com.example.notes; asked because") == true, "\(said)")
        #expect(d.count == 2, "\(said)")
        // A group another app holds is a real one, not a typo of this app's.
        let other = ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Other", "CODE_SIGN_ENTITLEMENTS": "Other/Other.entitlements"]
        f.targets.append(XcodeFixture.Target(name: "Other", settings: ["Debug": other, "Release": other]))
        f.writeEntitlements("Other/Other.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shard"])
        f.writeProject()
        let again = try ProjectLint.load(f.projectPath).get().run().filter { $0.code == .projectExtensionGroup }
        #expect(!again.contains { $0.message.contains("one letter from \(team)") }, "\(again.map(\.message))")
    }

    /// sphinx: no DEVELOPMENT_TEAM, `$(AppIdentifierPrefix)sphinxSharedItems`
    /// in the entitlements and `8297M44YTW.sphinxSharedItems` in the code.
    /// KCS607 said the call fails, against a group expanded without its team,
    /// and showed `sphinxSharedItems` as a group (real-project trial 15, D3).
    @Test func codeIsNotJudgedAgainstATeamTheProjectDoesNotGive() throws {
        var f = XcodeFixture()
        defer { f.remove() }
        f.projectSettings = ["Release": ["SDKROOT": "iphoneos"]]
        f.targets = [.init(name: "App", settings: ["Release": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.App",
                                                               "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]],
                           sources: ["Store.swift"])]
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)sharedItems"])
        f.write("App/Store.swift", """
            let a = Keychain(service: "s", accessGroup: "8297M44YTW.sharedItems")
            let b = Keychain(service: "s", accessGroup: "8297M44YTW.com.example.App")
            let c = Keychain(service: "s", accessGroup: "8297M44YTW.otherItems")

            """)
        f.writeProject()
        func found(team: String?) throws -> [String] {
            try CodeCheck.run(ProjectLint.load(f.projectPath, team: team).get())
                .map { "\($0.code.rawValue) \($0.location?.line ?? 0) \($0.hint ?? "")" }
        }
        // Without a team only the group no team can make it hold is said,
        // with the groups as written.
        let none = try found(team: nil)
        #expect(none == ["KCS607 3 its groups: $(AppIdentifierPrefix)sharedItems"], "\(none)")
        // With the team the code names, the same; with another, all three.
        #expect(try found(team: "8297M44YTW").map { String($0.prefix(9)) } == ["KCS607 3 "])
        #expect(try found(team: "ABCDE12345").count == 3)
    }

    /// DuckDuckGo's XPCHelper: `.targetItem(name:condition:)` dropped the
    /// whole list, and the warning showed "`[…`" with a hint to write out
    /// the list it was given (real-project trial 15, D8).
    @Test func theItemFormsOfADependencyAreReadAndAnElementNotFollowedIsShown() throws {
        let f = XcodeFixture.appLinkingKit("""
                products: [.library(name: "Kit", targets: ["Kit"])],
                targets: [
                    .target(name: "Kit", dependencies: [
                        .targetItem(name: "Store", condition: nil),
                        .byNameItem(name: "Extra", condition: .when(platforms: [.iOS])),
                        helper(),
                    ]),
                    .target(name: "Store"),
                    .target(name: "Extra"),
                ]
            )
            func helper() -> Target.Dependency { .target(name: "Store") }

            """)
        defer { f.remove() }
        f.write("Kit/Sources/Kit/Kit.swift", "func kit() {}\n")
        f.writeKitModule("Store")
        f.writeKitModule("Extra")
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath, packages: PackageManifestReader()).get()
        let found = CodeCheck.run(lint).filter { $0.code == .codeGroupNotEntitled }.map(\.message)
        #expect(found.contains { $0.contains("com.example.Store") } && found.contains { $0.contains("com.example.Extra") }, "\(found)")
        let said = lint.run().filter { $0.message.contains("kcs does not follow") }
        #expect(said.map(\.message) == ["kcs does not follow a dependency of package target 'Kit' in this manifest (`helper()`): the code it leaves out is not checked"],
                "\(said.map(\.message))")
        #expect(said.first?.hint?.contains("write the list out") == false)
        #expect(said.first.flatMap { d in d.range.map { d.file?.location(of: $0.start).line } } == 9)
    }

    /// Trio and Linphone: an Info.plist group read through `guard let` and
    /// `if let` bindings, a `let` of a `Bundle` extension property with `!`,
    /// and constants initialised by `{ … }()` were not followed: app-group
    /// typos went silent and keychain ones were "built at run time"
    /// (real-project trial 15, D4).
    @Test func bindingsOfReadableValuesAndImmediatelyCalledClosuresAreFollowed() throws {
        var f = XcodeLintTests.oneApp(sources: ["Probes.swift"])
        defer { f.remove() }
        f.targets[0].settings["Release"]?["INFOPLIST_FILE"] = "App/Info.plist"
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.shared"], appGroups: ["group.com.example.app"])
        f.write("App/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>AppGroupID</key>
            <string>group.com.example.ap</string>
            <key>KeychainGroup</key>
            <string>$(AppIdentifierPrefix)com.example.shard</string>
            </dict></plist>
            """)
        f.write("App/Probes.swift", """
            import Foundation
            extension Bundle {
                var appGroupSuiteName: String? { object(forInfoDictionaryKey: "AppGroupID") as? String }
            }
            enum Shared {
                static let appGroupName: String = { Bundle.main.object(forInfoDictionaryKey: "AppGroupID") as? String ?? { fatalError() }() }()
            }
            let topLevel = { return Bundle.main.object(forInfoDictionaryKey: "AppGroupID") as! String }()
            func probes(made: String?) {
                guard let suiteName = Bundle.main.appGroupSuiteName, let d = UserDefaults(suiteName: suiteName) else { return }
                let s1 = Bundle.main.appGroupSuiteName!
                _ = UserDefaults(suiteName: s1)
                if let s2 = Bundle.main.appGroupSuiteName { _ = UserDefaults(suiteName: s2) }
                _ = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: Shared.appGroupName)
                _ = UserDefaults(suiteName: topLevel)
                guard let g8 = Bundle.main.object(forInfoDictionaryKey: "KeychainGroup") as? String else { return }
                _ = SecItemAdd([kSecAttrAccessGroup as String: g8] as CFDictionary, nil)
                if let made { _ = SecItemAdd([kSecAttrAccessGroup as String: made] as CFDictionary, nil) }
                if let other = made?.lowercased() { _ = SecItemAdd([kSecAttrAccessGroup as String: other] as CFDictionary, nil) }
                _ = d
            }

            """)
        f.writeProject()
        let d = try f.codeFindings()
        #expect(Diagnostic.byUse(d) == ["KCS607 10", "KCS607 12", "KCS607 13", "KCS607 14", "KCS607 15", "KCS607 17", "KCS608 18", "KCS608 19"], "\(d.map(\.message))")
    }

    /// Home Assistant: `BUNDLE_ID_SUFFIX = .dev` in Debug only, and
    /// `PROVISIONING_SUFFIX` set for the extensions only. "No level of the
    /// project defines" was untrue, and said per target and value: 31 of 34
    /// warnings. Each setting is a note, once, saying where it is set
    /// (real-project trial 15, D5).
    @Test func aSettingOnlySomeConfigurationsOrTargetsSetIsOneNote() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("Config/Base.xcconfig", """
            #include "Team.xcconfig"
            SUFFIX[config=Debug] = .dev
            PRODUCT_BUNDLE_IDENTIFIER = com.example.$(PRODUCT_NAME:rfc1034identifier)$(SUFFIX)$(EXTENSION_SUFFIX)

            """)
        for c in ["Debug", "Release"] {
            f.targets[1].settings[c]?["EXTENSION_SUFFIX"] = ".ext"
            f.targets[2].settings[c]?["EXTENSION_SUFFIX"] = ".ext"
        }
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared$(SUFFIX)"],
                            appGroups: ["group.com.example.notes"])
        f.writeProject()
        let d = try ProjectLint.load(f.projectPath).get().run().filter { $0.code == .projectSetting }
        let said = d.map { "\($0.severity) \($0.file.map { ProjectPath.lastComponent($0.name) } ?? ""):\($0.location?.line ?? 0) \($0.message)" }
        #expect(said.count == 2, "\(said)")
        #expect(said.contains { $0.hasPrefix("note Base.xcconfig:3 $(SUFFIX) is set only in configuration 'Debug' ('.dev'): in 'Release' "
                                              + "Xcode expands it to nothing for targets 'App' and 'Widget' (at Base.xcconfig:3, App.entitlements:7, project.pbxproj:") },
                "\(said)")
        #expect(said.contains("note Base.xcconfig:3 $(EXTENSION_SUFFIX) is set by targets 'Widget' and 'Share Extension', not by target 'App', "
                              + "where Xcode expands it to nothing (at Base.xcconfig:3)"), "\(said)")
        let suffix = d.first { $0.message.hasPrefix("$(SUFFIX)") }
        #expect(suffix?.notes.first?.message == "'Debug' sets it here")
        #expect(suffix?.notes.first.flatMap { n in n.range.map { n.file?.location(of: $0.start).line } } == 2)
        // The import says the same, for its configuration; notes are no warnings.
        let imported = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions())
        let importNotes = imported.diagnostics.filter { $0.severity == .note }.map(\.message)
        #expect(importNotes.count == 2 && importNotes.first?.hasPrefix("$(SUFFIX) is set only in configuration 'Debug'") == true, "\(importNotes)")
        #expect(!imported.diagnostics.contains { $0.message.contains("no level of the project defines") || $0.message.contains("does not define") })
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        let warnings = lint.stderr.components(separatedBy: "warning: ").count - 1
        #expect(lint.stderr.contains("note: $(SUFFIX) is set only") && lint.stdout.contains(": \(warnings) warning"), "\(lint.stdout)\(lint.stderr)")
    }

    /// Linphone: Info.plist's `$(APP_GROUP_NAME)`, set misspelt in
    /// Shared.xcconfig. The note named only the Info.plist line, where there
    /// is nothing to fix (real-project trial 15, D13).
    @Test func anInfoPlistValueNamesTheLineThatSetsItsSetting() throws {
        var f = XcodeLintTests.oneApp(sources: ["Files.swift"])
        defer { f.remove() }
        f.targets[0].settings["Release"]?["INFOPLIST_FILE"] = "App/Info.plist"
        f.targets[0].xcconfig["Release"] = "Config/Shared.xcconfig"
        f.write("Config/Shared.xcconfig", "APP_GROUP_NAME = group.com.example.ap\n")
        f.writeEntitlements("App/App.entitlements", keychain: [], appGroups: ["group.com.example.app"])
        f.write("App/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>AppGroup</key>
            <string>$(APP_GROUP_NAME)</string>
            </dict></plist>
            """)
        f.write("App/Files.swift", """
            import Foundation
            let url = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: Bundle.main.object(forInfoDictionaryKey: "AppGroup") as! String)

            """)
        f.writeProject()
        let d = try f.codeFindings()
        #expect(d.map(\.code) == [.codeGroupNotEntitled], "\(d.map(\.message))")
        let notes = d.first?.notes.map { "\($0.message) \($0.file.map { ProjectPath.lastComponent($0.name) } ?? "")" } ?? []
        #expect(notes == ["Info.plist's AppGroup is set here Info.plist", "APP_GROUP_NAME is set here Shared.xcconfig"], "\(notes)")
    }

    /// Home Assistant's keychain explorer builds a display model with
    /// `accessGroup: attributes[kSecAttrAccessGroup as String] as? String`,
    /// a group the keychain returned: it was "built at run time" (KCS608;
    /// real-project trial 15, D6).
    @Test func aGroupReadBackFromTheKeychainIsNotChecked() throws {
        let d = try XcodeLintTests.checkedCode("Explorer.swift", """
            import Security
            struct Item { let accessGroup: String? }
            func list(attributes: [String: Any], dict: NSDictionary) {
                _ = Item(accessGroup: attributes[kSecAttrAccessGroup as String] as? String)
                _ = Item(accessGroup: dict[kSecAttrAccessGroup] as! String)
                _ = Item(accessGroup: attributes["other"] as? String)
            }

            """)
        #expect(d.map { "\($0.code.rawValue) \($0.location?.line ?? 0)" } == ["KCS608 6"], "\(d.map(\.message))")
    }

    /// WooCommerce: a `static let` of a file the watch app shares with the
    /// phone app names the phone app's group. The hint said to give the
    /// watch app the group, which would not reach the phone, and a static
    /// let runs only if used (real-project trial 15, D9).
    @Test func aWatchAppsAppGroupHintSaysItDoesNotReachThePhone() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let watch = ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Notes.watchkitapp", "SDKROOT": "watchos",
                     "CODE_SIGN_ENTITLEMENTS": "Watch/Watch.entitlements"]
        f.targets.append(XcodeFixture.Target(name: "Watch", folder: "App", productType: "com.apple.product-type.application",
                                             settings: ["Debug": watch, "Release": watch], sources: ["Defaults.swift"]))
        f.targets[0].sources.append("Defaults.swift")
        f.writeEntitlements("Watch/Watch.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.watchkitapp"])
        f.write("App/Defaults.swift", "import Foundation\nextension UserDefaults {\n    static let group = UserDefaults(suiteName: \"group.com.example.notes\")\n}\n")
        f.writeProject()
        let d = try f.codeFindings().filter { $0.file?.name.hasSuffix("Defaults.swift") == true }
        #expect(d.map(\.message).allSatisfy { $0.hasPrefix("target 'Watch'") } && d.count == 1, "\(d.map(\.message))")
        #expect(d.first?.hint == "on watchOS an app group is shared only with the watch app's own extensions, not with the iPhone app; "
                    + "only 'App' holds group.com.example.notes: make sure 'Watch' never makes this call (a static let is set on first use), "
                    + "or add the group to its entitlements", "\(d.first?.hint ?? "")")
    }

    /// Blink: `developer_setup.xcconfig` is each developer's copy of
    /// `template_setup.xcconfig`; the template was not found (real-project
    /// trial 15, D10).
    @Test func aTemplateNamedWithAWordOfTheFileSwappedIsFound() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.projectXCConfig["Release"] = "Config/developer_setup.xcconfig"
        f.write("Config/template_setup.xcconfig", "DEVELOPMENT_TEAM = \(XcodeFixture.team)\n")
        f.writeProject()
        let missing = try ProjectLint.load(f.projectPath).get().run().first { $0.message.hasPrefix("cannot read the xcconfig file") }
        #expect(missing?.hint?.hasPrefix("copy template_setup.xcconfig to developer_setup.xcconfig first") == true, "\(missing?.hint ?? "none")")
    }

    /// Trio: `DEVELOPER_TEAM = ##TEAM_ID##`, a placeholder each developer
    /// overrides in an optional ConfigOverride.xcconfig. `--team` did not
    /// stand in for it, and no hint named the override (real-project
    /// trial 15, D7).
    @Test func aPlaceholderTeamTakesTeamAndNamesTheAbsentOverride() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("Config/Team.xcconfig", "DEVELOPER_TEAM = ##TEAM_ID##\nDEVELOPMENT_TEAM = $(DEVELOPER_TEAM)\n#include? \"../TeamOverride.xcconfig\"\n#include? \"TeamOverride.xcconfig\"\n")
        f.write("Config/Base.xcconfig", """
            #include "Team.xcconfig"
            PRODUCT_BUNDLE_IDENTIFIER = com.example.$(DEVELOPMENT_TEAM).$(PRODUCT_NAME:rfc1034identifier)

            """)
        let without = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions())
        let placeholder = without.diagnostics.first { $0.message.contains("is '##TEAM_ID##', which is not a team ID") }
        #expect(placeholder?.hint?.hasPrefix("Team.xcconfig includes the absent TeamOverride.xcconfig (#include?): "
                                             + "create it with DEVELOPER_TEAM = TEAMID, or give --team TEAMID") == true, "\(placeholder?.hint ?? "none")")
        let team = XcodeFixture.team
        let with = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions(team: team))
        #expect(with.scenario.contains("app com.example.\(team).Notes as App"), "\(with.scenario)")
        #expect(!with.diagnostics.contains { $0.message.contains("not a team ID") || $0.message.contains("not a bundle ID") }, "\(with.diagnostics.map(\.message))")
        let lint = try ProjectLint.load(f.projectPath, team: team).get().run()
        #expect(!lint.contains { $0.message.contains("not a team ID") }, "\(lint.map(\.message))")
    }

    /// PIA and TunnelKit: `Keychain(team:group:)` stores
    /// `"\(team).\(group)"`, and `group:` alone was checked as the group: a
    /// wrong team went unsaid, and a correct call was told to add the team
    /// again (real-project trial 17, D1).
    @Test func aKeychainWrappersTeamAndGroupAreJoinedAsItsInitialiserJoinsThem() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        f.targets[0].sources.append("Keychain.swift")
        func wrapper(_ joined: String) {
            f.write("App/Keychain.swift", """
                import Security
                struct Keychain {
                    let accessGroup: String
                    init(group: String) { accessGroup = group }
                    init(team: String, group: String) { accessGroup = \(joined) }
                    func save() { let q: [String: Any] = [kSecAttrAccessGroup as String: accessGroup]; _ = q }
                }

                """)
        }
        wrapper("\"\\(team).\\(group)\"")
        f.write("App/KeychainStore.swift", """
            let k1 = Keychain(team: "\(team)", group: "group.com.example.notes")
            let k2 = Keychain(team: "XXXXXXXXXX", group: "com.example.Notes.shared")
            let k3 = Keychain(team: "\(team)", group: "com.example.Notes.shared")
            let k4 = Keychain(group: "com.example.Notes.shared")

            """)
        f.writeProject()
        func found() throws -> [String] {
            try f.codeFindings().filter { $0.file?.name.contains("/App/") == true }.map { "\($0.code.rawValue) \(ProjectPath.lastComponent($0.file?.name ?? "")):\($0.location?.line ?? 0) \($0.message) / \($0.hint ?? "")" }
        }
        var d = try found()
        #expect(d.contains { $0.hasPrefix("KCS607 KeychainStore.swift:1 ") && $0.contains("names the access group \(team).group.com.example.notes,")
                && $0.contains("/ group.com.example.notes is one of its groups as it is named, without a team: pass it without the team") }, "\(d)")
        #expect(d.contains { $0.hasPrefix("KCS607 KeychainStore.swift:2 ") && $0.contains("XXXXXXXXXX.com.example.Notes.shared")
                && $0.hasSuffix("/ the team passed is XXXXXXXXXX, and 'App' is signed by \(team): pass \"\(team)\" (\(team).com.example.Notes.shared is one of its groups)") }, "\(d)")
        // The group-only initialiser's group lacks the team: that hint is right there.
        #expect(d.contains { $0.hasPrefix("KCS607 KeychainStore.swift:4 ") && $0.contains("the group lacks its team prefix") }, "\(d)")
        // The correct call, and the wrapper's own plumbing, are not said.
        #expect(!d.contains { $0.contains(":3 ") || $0.contains("Keychain.swift:") }, "\(d)")
        #expect(!d.contains { $0.contains("lacks its team prefix") && !$0.contains(":4 ") }, "\(d)")
        #expect(d.count == 3, "\(d)")
        // Joined the other way round, the wrapper's own order is what counts.
        wrapper("group + \".\" + team")
        d = try found()
        #expect(d.contains { $0.contains(":3 ") && $0.contains("names the access group com.example.Notes.shared.\(team),") }, "\(d)")
        // Without the wrapper's source, a team beside the group is joined as TunnelKit does.
        f.targets[0].sources.removeLast()
        f.writeProject()
        d = try found()
        #expect(d.contains { $0.hasPrefix("KCS607 KeychainStore.swift:2 ") && $0.contains("the team passed is XXXXXXXXXX") }, "\(d)")
        #expect(!d.contains { $0.contains(":3 ") }, "\(d)")
        #expect(d.count == 3, "\(d)")
    }

    /// Corona-Warn-App: `CODE_SIGN_ENTITLEMENTS = "${PROJECT}/Resources/ENA.entitlements"`.
    /// `$(PROJECT)`, Xcode's own name for PROJECT_NAME, was "undefined":
    /// the file was lost with its groups, and the hint said to define it.
    /// Xcode's settings kcs cannot know (a build folder) are said as Xcode's
    /// (real-project trial 17, D2).
    @Test func xcodesOwnSettingsAreKnownOrSaidToBeXcodes() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let team = XcodeFixture.team
        func set(_ target: Int, _ path: String) {
            for c in ["Debug", "Release"] { f.targets[target].settings[c]?["CODE_SIGN_ENTITLEMENTS"] = path }
        }
        set(0, "${PROJECT}/App.entitlements")
        // The widget's module is its product's name, and its bundle is an .appex.
        set(1, "Widget/$(PRODUCT_MODULE_NAME).entitlements")
        f.writeEntitlements("Widget/Notes.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.$(WRAPPER_NAME)"])
        set(2, "$(TARGET_BUILD_DIR)/Share.entitlements")
        f.writeProject()
        let d = try findings(f)
        #expect(!d.contains { $0.contains("$(PROJECT)") || $0.contains("PRODUCT_MODULE_NAME") || $0.contains("WRAPPER_NAME") }, "\(d)")
        #expect(d.contains { $0.hasPrefix("KCS604") && $0.contains("'Widget'") }, "\(d)")
        let build = try ProjectLint.load(f.projectPath).get().run().filter { $0.message.contains("TARGET_BUILD_DIR") }
        #expect(build.map(\.message) == ["CODE_SIGN_ENTITLEMENTS (target 'Share Extension', configurations 'Debug', 'Release') uses $(TARGET_BUILD_DIR), "
                                         + "which Xcode sets while it builds and kcs cannot know: the value is not checked"], "\(d)")
        #expect(build.first?.hint == "$(TARGET_BUILD_DIR) is Xcode's own, a folder of the build: nothing to define; kcs reads the project, not a build", "\(d)")
        let imported = XcodeImporter.importProject(f.projectPath, options: XcodeImportOptions())
        #expect(imported.scenario.contains("app com.example.Notes as App kind=app entitlements=\"\(f.path("App/App.entitlements"))\""), "\(imported.scenario)")
        #expect(imported.scenario.contains("expect groups Widget [\(team).com.example.Notes.appex, "), "\(imported.scenario)")
    }

    /// PIA's `Client.Database.init(group:)` passes its parameter on, and
    /// Nextcloud Talk passes `groupIdentifier`, an Objective-C constant of
    /// its bridging header: both were "a value built at run time". Each is
    /// said as what it is (real-project trial 17, D3 and D4).
    @Test func aParameterOrANameWithNoSwiftDeclarationIsSaidAsWhatItIs() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("App/KeychainStore.swift", """
            enum Client {
                struct Database {
                    let secure: Any
                    init(group: String) { secure = KeychainStore(group: group) }
                }
            }
            let computed = String()
            let a = UICKeyChainStore(service: "s", accessGroup: groupIdentifier)
            let b = UICKeyChainStore(service: "s", accessGroup: computed)

            """)
        f.writeProject()
        let d = try f.codeFindings()
            .filter { $0.file?.name.hasSuffix("KeychainStore.swift") == true }
            .map { "\($0.code.rawValue) \($0.location?.line ?? 0) \($0.message)" }
        #expect(d.contains("KCS608 4 target 'App' (configuration 'Release') passes group: its parameter `group` (of `Client.Database.init(group:)`), "
                           + "whose callers kcs does not follow: kcs cannot check it"), "\(d)")
        #expect(d.contains("KCS608 8 target 'App' (configuration 'Release') passes accessGroup: `groupIdentifier`, which kcs finds no declaration of in the target's "
                           + "Swift or Objective-C code (another module's, or a macro the build defines): kcs cannot check it"), "\(d)")
        // A name the Swift code declares is a value it builds.
        #expect(d.contains { $0.hasPrefix("KCS608 9 ") && $0.contains("a value built at run time (computed)") }, "\(d)")
        #expect(d.count == 3, "\(d)")
    }

    /// nio's and Harbour's expressions were shown cut at 60 characters, in
    /// the middle of a name, with three `(` to one `)` (real-project trial 17, D6).
    @Test func aLongExpressionIsCutWhereATokenEndsWithItsBracketsClosed() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("App/KeychainStore.swift", """
            import Foundation
            let a: [String: Any] = [kSecAttrAccessGroup as String: ((Bundle.main.infoDictionary?["DevelopmentTeam"] as? String) ?? "") + ".nio.keychain"]
            let b: [String: Any] = [kSecAttrAccessGroup as String: (("\\(Bundle.main.appIdentifierPrefix ?? "")\\(Bundle.main.mainBundleIdentifier).shared"))]
            func c() { var q: [String: Any] = [:]; q[kSecAttrAccessGroup as String] = Bundle.main.appIdentifierPrefixOfTheTeamThatSigns + ".com.example.shared"; _ = q }

            """)
        f.writeProject()
        let d = try f.codeFindings()
            .filter { $0.file?.name.hasSuffix("KeychainStore.swift") == true }
            .map { "\($0.location?.line ?? 0) \($0.message)" }
        let said = "target 'App' (configuration 'Release') passes kSecAttrAccessGroup a value built at run time"
        #expect(d == [
            "2 \(said) (((Bundle.main.infoDictionary?[\"DevelopmentTeam\"] as? String)…)): kcs cannot check it",
            "3 \(said) (\"\\(Bundle.main.appIdentifierPrefix ?? \"\")\\(Bundle.main.…)\"): kcs cannot check it",
            // An assignment's operands are kept only as far as the message shows.
            "4 \(said) (Bundle.main.appIdentifierPrefixOfTheTeamThatSigns +…): kcs cannot check it",
        ], "\(d)")
    }

    /// Bark's `group.brak` and Harbour's `…Harbor` for `…Harbour` in
    /// `UserDefaults(suiteName:)` and `containerURL(…)`: the keychain
    /// KCS607 said "did you mean", the app-group one did not (real-project
    /// trial 17, D7).
    @Test func anAppGroupOneTypoFromTheTargetsIsSaidWithDidYouMean() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("App/KeychainStore.swift", """
            import Foundation
            let a = UserDefaults(suiteName: "group.com.example.ntoes")
            let b = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.note")
            let c = UserDefaults(suiteName: "group.org.elsewhere")

            """)
        f.writeProject()
        let d = try f.codeFindings()
            .filter { $0.file?.name.hasSuffix("KeychainStore.swift") == true }
            .map { "\($0.location?.line ?? 0) \($0.hint ?? "")" }
        // No other target holds either spelling: either may be the typo (real-project trial 19, W5).
        let both = "or, if the code is right, group.com.example.notes in its entitlements is the typo (items already stored live in the group the shipped build used); "
        #expect(d == ["2 did you mean \"group.com.example.notes\"? " + both + "its app groups: group.com.example.notes",
                      "3 did you mean \"group.com.example.notes\"? " + both + "its app groups: group.com.example.notes",
                      "4 its app groups: group.com.example.notes"], "\(d)")
    }

    /// cove's 1.3 MB uniffi output has `group:` in one enum case and
    /// `case Keychain(String` in another: a file kcs refuses to read got
    /// "cannot check", though it names no group (real-project trial 17, D5).
    @Test func aRefusedFileIsSaidOnlyWhenALineCouldNameAGroup() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[0].sources.append("Generated.swift")
        f.writeProject()
        let padding = String(repeating: "// generated\n", count: CodeCheck.maxFileBytes / 13 + 1)
        func refused() throws -> [String] {
            try f.codeFindings().filter { $0.message.hasPrefix("cannot check") }.map(\.message)
        }
        f.write("App/Generated.swift", "enum A { case note(title: String, group: String) }\n" + padding + "enum B { case Keychain(String) }\n")
        #expect(try refused() == [], "apart")
        f.write("App/Generated.swift", padding + "let k = Keychain(group: \"group.x\")\n")
        #expect(try refused().count == 1, "one line")
    }
}
