import Foundation
import KCSCodeCheck
import KCSLanguage
import KCSXcode
import KCSXcodeProject
import Testing

/// Real-project trial 20, each case reduced to the docs project with the
/// one change the trial's reproduction made.
extension XcodeRealProjectsTests {
    /// The share extension sharing only the app group with its app, both
    /// compiling `App/KeychainHelper.swift`, a keychain helper that names
    /// no group; `callers` are the targets whose other code calls it.
    static func sharedKeychainHelper(calledBy callers: Set<String>) -> XcodeFixture {
        var f = XcodeFixture.appWidgetShare()
        f.writeEntitlements("Share/Share.entitlements", keychain: [], appGroups: ["group.com.example.notes"])
        f.write("App/KeychainHelper.swift", """
            import Security

            class KeychainHelper {
                static let shared = KeychainHelper()
                func save(_ data: Data, account: String) -> Bool {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
                                                kSecValueData as String: data]
                    return SecItemAdd(query as CFDictionary, nil) == errSecSuccess
                }
            }

            """)
        f.write("App/KeychainStore.swift", """
            import Foundation

            func appMain() {
                _ = UserDefaults(suiteName: "group.com.example.notes")
            \(callers.contains("App") ? "    _ = KeychainHelper.shared.save(Data(), account: \"token\")\n" : "")}

            """)
        f.write("Share/ShareViewController.swift", """
            import Foundation

            func share() {
                _ = UserDefaults(suiteName: "group.com.example.notes")
            \(callers.contains("Share") ? "    _ = KeychainHelper.shared.save(Data(), account: \"draft\")\n" : "")}

            """)
        f.targets[0].sources.append("KeychainHelper.swift")
        f.targets[2].sources.append("../App/KeychainHelper.swift")
        f.writeProject()
        return f
    }

    /// Whether code an app and its extensions compile stores in the app's
    /// default group is worked out once per pair of source lists, each file
    /// read and scanned once: per extension every shared file and the
    /// app's were read and scanned again (80 extensions × 100 files, 67 s;
    /// adversarial run 26, F12).
    @Test func sharedKeychainCodeIsReadOnceForAllItsExtensions() throws {
        var f = Self.sharedKeychainHelper(calledBy: ["App", "Share"])
        defer { f.remove() }
        f.embedShareCopies(8)
        f.writeProject()
        let files = XcodeLintTests.CountingFileSystem()
        let found = CodeCheck.run(try ProjectLint.load(f.projectPath, fileSystem: files).get())
            .filter { $0.message.contains("shares only group.com.example.notes with it") }
        #expect(found.count == 9, "\(found.map(\.message))")
        #expect((files.reads["KeychainHelper.swift"] ?? 0) <= 2 && (files.reads["ShareViewController.swift"] ?? 0) <= 2, "\(files.reads)")
    }

    /// The scans kept for all pairs hold the files' scans and one answer
    /// per file and set of names asked about, not every name each file
    /// uses: 40 files using 5,000 names each kept 200,000 (review 20, R6).
    /// Past ``SharedScans/maxHeldNames`` a file is scanned again, with the
    /// same answers.
    @Test func sharedScansKeepNotEveryNameUsed() throws {
        var f = Self.sharedKeychainHelper(calledBy: ["App", "Share"])
        defer { f.remove() }
        for k in 0..<40 {
            f.write("App/Big\(k).swift", "func big\(k)() {\n" + (0..<5000).map { "    _ = n\(k)_\($0)\n" }.joined() + "}\n")
            f.targets[0].sources.append("Big\(k).swift")
        }
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath).get()
        let host = try #require(lint.project.targets.first { $0.name == "App" })
        let child = try #require(lint.project.targets.first { $0.name == "Share Extension" })
        let childFiles = Set(lint.code(of: child).swiftSources.map(ProjectPath.normalize))
        let both = Set(lint.code(of: host).swiftSources.filter { childFiles.contains(ProjectPath.normalize($0)) })
        #expect(both.count == 1, "\(both)")
        for budget in [2_000_000, 3] {
            let scanned = SharedScans()
            scanned.maxHeldNames = budget
            for _ in 0..<2 { #expect(lint.bothCall(keychainCodeAmong: both, host, child, scanned: scanned)) }
            #expect(scanned.heldNames < 1_000 && scanned.heldNames <= budget, "\(scanned.heldNames)")
            // The set of names is looked up once per pair, not per file (review 21, R13).
            #expect(scanned.setLookups == 2, "\(scanned.setLookups)")
        }
    }

    /// A keychain helper both targets compile stores nothing in the app's
    /// default group unless both call it: BlueWallet's widget compiles
    /// `KeychainHelper.swift`, which only its watch app calls, and the
    /// lint failed on the clean project (real-project trial 20, D4).
    @Test func aKeychainHelperBothCompileIsAskedAboutOnlyWhenBothCallIt() throws {
        for callers: Set<String> in [[], ["App"], ["Share"]] {
            let f = Self.sharedKeychainHelper(calledBy: callers)
            defer { f.remove() }
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            #expect(!lint.stderr.contains("KCS604"), "called by \(callers): \(lint.stderr)")
            #expect(lint.status == 0, "called by \(callers): \(lint.stderr)")
        }
        let f = Self.sharedKeychainHelper(calledBy: ["App", "Share"])
        defer { f.remove() }
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(lint.stderr.contains("target 'Share Extension' is embedded in 'App' and shares only group.com.example.notes with it (configuration 'Release'): "
            + "it cannot read what 'App' stores in its default keychain group SKMME9E2Y8.com.example.Notes.shared (its keychain code names none) [KCS604]"),
            "\(lint.stderr)")
        #expect(lint.status == 1)
    }
}

extension XcodeRealProjectsTests {
    /// A tutorial's keychain wrapper, copied into many apps (Anytype's
    /// `SecureStoreQueryable.swift`): the group a stored property keeps
    /// from the initialiser, put in the query by an extension of the type,
    /// with the type declared in `Widget/Queryable.swift` or beside the
    /// extension; the widget passes `group`.
    static func wrapperExtension(group: String, sameFile: Bool) -> XcodeFixture {
        var f = XcodeFixture.appWidgetShare()
        let type = """
            public struct GenericPasswordQueryable {
                let service: String
                let accessGroup: String?
                public init(service: String, accessGroup: String? = nil) {
                    self.service = service
                    self.accessGroup = accessGroup
                }
            }

            """
        f.write("Widget/Provider.swift", """
            import Security

            \(sameFile ? type : "")extension GenericPasswordQueryable {
                public var query: [String: Any] {
                    var query: [String: Any] = [:]
                    query[String(kSecClass)] = kSecClassGenericPassword
                    query[String(kSecAttrAccessGroup)] = accessGroup
                    return query
                }
            }

            func read() -> OSStatus {
                let q = GenericPasswordQueryable(service: "s", accessGroup: "\(group)")
                return SecItemCopyMatching(q.query as CFDictionary, nil)
            }

            """)
        if !sameFile {
            f.write("Widget/Queryable.swift", "import Foundation\n\n" + type)
            f.targets[1].sources.append("Queryable.swift")
        }
        f.writeProject()
        return f
    }

    /// A keychain type's initialiser of thousands of parameters, each
    /// stored: the parameters are looked up by name, once per initialiser
    /// (each assignment walked the list: 15,000 took 71 s; adversarial run
    /// 26, F11), and the group is still checked at the callers.
    @Test func anInitialiserOfManyParametersIsReadOnce() throws {
        let f = Self.wrapperExtension(group: "SKMME9E2Y8.com.example.Notes.sharde", sameFile: false)
        defer { f.remove() }
        let n = 3_000
        let fields = (0..<n).map { "    let v\($0): Int\n" }.joined()
        let params = (0..<n).map { ", p\($0): Int = 0" }.joined()
        let stores = (0..<n).map { "        self.v\($0) = p\($0)\n" }.joined()
        f.write("Widget/Queryable.swift", "import Foundation\n\npublic struct GenericPasswordQueryable {\n    let service: String\n    let accessGroup: String?\n"
                + fields + "    public init(service: String, accessGroup: String? = nil" + params + ") {\n        self.service = service\n"
                + stores + "        self.accessGroup = accessGroup\n    }\n}\n")
        f.writeProject()
        let d = try f.codeFindings().filter { $0.code == .codeGroupNotEntitled || $0.code == .codeGroupNotCheckable }
        #expect(d.contains { $0.code == .codeGroupNotEntitled && $0.message.contains("'Widget'") && $0.message.contains("com.example.Notes.sharde") }
                && !d.contains { $0.code == .codeGroupNotCheckable }, "\(d.map(\.message))")
    }

    /// A group passed in a parameter of a function of many: the function's
    /// parameters are read once, and the finding names its first 16 labels
    /// (each use walked the list and the message listed every label: uses ×
    /// parameters in time and in output; found with adversarial run 26, F11).
    @Test func aParameterOfAFunctionOfManyIsNamedShortly() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let params = (0..<40).map { "p\($0): String" }.joined(separator: ", ")
        let uses = (0..<40).map { "    _ = SecItemAdd([kSecAttrAccessGroup as String: p\($0)] as CFDictionary, nil)\n" }.joined()
        f.write("App/KeychainStore.swift", "import Security\n\nfunc save(" + params + ") {\n" + uses + "}\n")
        f.writeProject()
        let d = try f.codeFindings().filter { $0.code == .codeGroupNotCheckable && $0.message.contains("its parameter") }
        let signature = "save(" + (0..<16).map { "p\($0):" }.joined() + "…)"
        #expect(d.count == 40 && d.allSatisfy { $0.message.contains("(of `\(signature)`)") }, "\(d.map(\.message))")
    }

    /// The wrapper's `accessGroup` read in an extension of its type comes
    /// from the callers, as in the type's body: the KCS608 "built at run
    /// time" was permanent (real-project trial 20, D1).
    @Test func aWrappersGroupReadInAnExtensionOfItsTypeIsCheckedAtItsCallers() throws {
        for sameFile in [true, false] {
            let clean = Self.wrapperExtension(group: "SKMME9E2Y8.com.example.Notes.shared", sameFile: sameFile)
            defer { clean.remove() }
            let lint = try BinaryRunner.run(["lint", "--project", clean.projectPath])
            #expect(!lint.stderr.contains("KCS608") && !lint.stderr.contains("Provider.swift"), "\(lint.stderr)")
            let typo = Self.wrapperExtension(group: "SKMME9E2Y8.com.example.Notes.sharde", sameFile: sameFile)
            defer { typo.remove() }
            let found = try BinaryRunner.run(["lint", "--project", typo.projectPath])
            #expect(found.stderr.contains("Provider.swift:\(sameFile ? 21 : 13):65: warning: target 'Widget' (configuration 'Release') names the access group "
                + "SKMME9E2Y8.com.example.Notes.sharde"), "\(found.stderr)")
            #expect(!found.stderr.contains("KCS608"), "\(found.stderr)")
        }
    }
}

extension XcodeRealProjectsTests {
    /// The app's keychain group misspelt two letters from its own app ID,
    /// which the widget lists beside the app group they share; both run
    /// `App/KeychainStore.swift`, which names no group. The near miss on
    /// the widget's side passes over an app ID, a real group, and the code
    /// check's "shares only an app group" left it to that rule: silent
    /// (Cryptomator's `…org.cryptomator.iso`; real-project trial 20, D3).
    @Test func aTypoInTheAppsKeychainGroupIsSaidWhenTheWidgetListsTheAppID() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Ntoes"], appGroups: ["group.com.example.notes"])
        f.writeEntitlements("Widget/Widget.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes"], appGroups: ["group.com.example.notes"])
        f.write("App/KeychainStore.swift", """
            import Security

            func load() -> OSStatus {
                SecItemCopyMatching([kSecClass as String: kSecClassGenericPassword, kSecReturnData as String: true] as CFDictionary, nil)
            }

            """)
        f.write("Widget/Provider.swift", "import Foundation\n\nfunc widget() { _ = load() }\n")
        f.targets[1].sources.append("../App/KeychainStore.swift")
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(lint.stderr.contains("App/App.entitlements:7:3: warning: target 'App' lists the keychain group SKMME9E2Y8.com.example.Ntoes, "
            + "two letters from its own app ID SKMME9E2Y8.com.example.Notes, which target 'Widget', embedded in it, lists (configuration 'Release'): "
            + "it cannot read what 'App' stores in SKMME9E2Y8.com.example.Ntoes; both are the default keychain group, where code that names no group stores and reads [KCS604]"),
            "\(lint.stderr)")
        #expect(lint.stderr.contains("hint: did you mean SKMME9E2Y8.com.example.Notes? write it as the entitlements of 'Widget' do\n"), "\(lint.stderr)")
        #expect(!lint.stderr.contains("shares only"), "\(lint.stderr)")
        #expect(lint.status == 1)
    }
}

extension XcodeRealProjectsTests {
    /// KCS603's hint says which build may fail: the one that lacks the
    /// group. It read "a build that works in Release may fail in Debug"
    /// where Release lacked it (Pyto's VPP configuration; real-project
    /// trial 20, D6).
    @Test func kcs603SaysTheBuildThatLacksTheGroupMayFail() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[1].settings["Debug"]?["CODE_SIGN_ENTITLEMENTS"] = "Widget/WidgetDebug.entitlements"
        f.writeEntitlements("Widget/WidgetDebug.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"],
                            appGroups: ["group.com.example.notes"])
        f.writeProject()
        func hint(_ configuration: String) throws -> String {
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath, "--configuration", configuration])
            return lint.stderr.split(separator: "\n").drop { !$0.contains("[KCS603]") }.first { $0.hasPrefix("hint: ") }.map(String.init) ?? lint.stderr
        }
        #expect(try hint("Release") == "hint: a build that works in Debug may fail in Release: give both the same groups")
        #expect(try hint("Debug") == "hint: a build that works in Debug may fail in Release: give both the same groups")
    }
}

extension XcodeRealProjectsTests {
    /// The team prefix read from Info.plist (a key `AppIdentifierPrefix`
    /// set to `$(AppIdentifierPrefix)`) and put in a string: in a local
    /// `let` (`"\(p)com.example.Notes.shared"`) or a `static let` over a
    /// computed property reading it. Each target's Info.plist value is put
    /// in, and the group checked: it was "built at run time" (ProtonVPN,
    /// seven places; real-project trial 20, D2).
    static func infoPlistPrefix(_ code: String) -> XcodeFixture {
        let f = XcodeFixture.appWidgetShare()
        f.write("Config/Base.xcconfig", """
            #include "Team.xcconfig"
            BUNDLE_PREFIX = com.example
            PRODUCT_BUNDLE_IDENTIFIER = $(BUNDLE_PREFIX).$(PRODUCT_NAME:rfc1034identifier)
            IPHONEOS_DEPLOYMENT_TARGET = 17.0
            GENERATE_INFOPLIST_FILE = YES
            INFOPLIST_KEY_AppIdentifierPrefix = $(AppIdentifierPrefix)

            """)
        f.write("Widget/Provider.swift", "import Security\n\n" + code)
        f.writeProject()
        return f
    }

    @Test func aTeamPrefixReadFromInfoPlistIsPutInTheStringItStartsPerTarget() throws {
        let shapes = [
            """
            func read() -> OSStatus {
                let p = Bundle.main.infoDictionary!["AppIdentifierPrefix"] as! String
                return SecItemCopyMatching([kSecAttrAccessGroup as String: "\\(p)com.example.Notes.GROUP"] as CFDictionary, nil)
            }

            """,
            """
            enum Env {
                static let group: String = "\\(prefix)com.example.Notes.GROUP"
                static var prefix: String {
                    return Bundle.main.object(forInfoDictionaryKey: "AppIdentifierPrefix") as? String ?? ""
                }
            }

            func read() -> OSStatus {
                SecItemCopyMatching([kSecAttrAccessGroup as String: Env.group] as CFDictionary, nil)
            }

            """,
        ]
        for shape in shapes {
            let lint = try Self.lintRightAndMisspelt(shape, Self.infoPlistPrefix)
            #expect(!lint.right.contains("Provider.swift"), "\(lint.right)")
            #expect(lint.misspelt.contains(Self.misspeltGroupFound), "\(lint.misspelt)")
            #expect(lint.misspelt.contains("note: Info.plist's AppIdentifierPrefix is set here"), "\(lint.misspelt)")
            #expect(!lint.misspelt.contains("KCS608"), "\(lint.misspelt)")
        }
    }
}

extension XcodeRealProjectsTests {
    /// `app … project=` whose bundle ID or team does not resolve: the error
    /// says the cause, a note at the project line responsible with its
    /// advice, in a script's terms (`team=`, not `--team`). It came bare
    /// (LoopFollow, Blink before its setup step; real-project trial 20, D8).
    @Test func anAppFromAProjectThatDoesNotResolveSaysWhy() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("Config/Base.xcconfig", """
            #include "Team.xcconfig"
            BUNDLE_PREFIX = com.$(MY_ORG)
            PRODUCT_BUNDLE_IDENTIFIER = $(BUNDLE_PREFIX).$(PRODUCT_NAME:rfc1034identifier)

            """)
        f.writeProject()
        f.write("bundle.kcs", "app App project=\"App.xcodeproj\"\n")
        let bundle = try BinaryRunner.run(["run", f.path("bundle.kcs")])
        #expect(bundle.stderr.contains("error: the bundle ID of target 'App' does not resolve [KCS602]"), "\(bundle.stderr)")
        #expect(bundle.stderr.contains("Config/Base.xcconfig:3:1: note: PRODUCT_BUNDLE_IDENTIFIER (target 'App', configuration 'Release') uses $(MY_ORG), "
            + "which no level of the project defines"), "\(bundle.stderr)")
        #expect(bundle.stderr.contains("hint: define the setting"), "\(bundle.stderr)")
        f.write("Config/Base.xcconfig", "#include \"Team.xcconfig\"\nPRODUCT_BUNDLE_IDENTIFIER = com.example.$(PRODUCT_NAME:rfc1034identifier)\n")
        f.write("Config/Team.xcconfig", "DEVELOPMENT_TEAM = $(MY_TEAM)\n")
        let team = try BinaryRunner.run(["run", f.path("bundle.kcs")])
        #expect(team.stderr.contains("needs a team ID, and target 'App' has none"), "\(team.stderr)")
        #expect(team.stderr.contains("give team=TEAMID on the app's line") && !team.stderr.contains("--team"), "\(team.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// "(a static let is set on first use)" only for a call in a static
    /// let's initialiser: it was in the hint for calls in functions and
    /// computed properties too (Pyto, Mullvad, Bark; real-project trial 20, W5).
    @Test func theStaticLetAsideIsForStaticLetsOnly() throws {
        func hint(_ code: String) throws -> String? {
            var f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            f.targets[1].sources.append("../App/Defaults.swift")
            f.targets[0].sources.append("Defaults.swift")
            f.write("App/Defaults.swift", "import Foundation\n" + code)
            f.writeProject()
            return try f.codeFindings().first { $0.file?.name.hasSuffix("Defaults.swift") == true && $0.message.hasPrefix("target 'Widget'") }?.hint
        }
        let call = "UserDefaults(suiteName: \"group.com.example.notes\")"
        #expect(try hint("extension UserDefaults {\n    static let group = \(call)\n}\n")?.contains("never makes this call (a static let is set on first use)") == true)
        #expect(try hint("let group = \(call)\n")?.contains("never makes this call (a static let is set on first use)") == true)
        for code in ["func group() -> UserDefaults? { \(call) }\n", "extension UserDefaults {\n    static var group: UserDefaults? { \(call) }\n}\n"] {
            let h = try hint(code)
            #expect(h?.contains("make sure 'Widget' never makes this call, or add the group to its entitlements") == true, "\(h ?? "none")")
        }
    }
}

extension XcodeRealProjectsTests {
    /// An entitlements file no configuration signs with that grants no
    /// keychain or app group (`<dict/>`, iCloud only) is a note, not a
    /// warning: it can cause no mistake kcs looks for, and four of four such
    /// findings failed the lint (WWDC, ProtonVPN; real-project trial 20, W2).
    @Test func anUnusedEntitlementsFileWithoutGroupsIsANote() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("App/Rambo.entitlements", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>com.apple.developer.icloud-services</key>
            \t<array><string>CloudKit</string></array>
            </dict>
            </plist>

            """)
        f.writeEntitlements("App/Stale.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"])
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(lint.stderr.contains("Rambo.entitlements:1:1: note: no configuration signs with '") && lint.stderr.contains("; it grants no keychain or app group [KCS605]"),
                "\(lint.stderr)")
        #expect(lint.stderr.contains("Stale.entitlements:1:1: warning: no configuration signs with"), "\(lint.stderr)")
        let base = XcodeFixture.appWidgetShare()
        defer { base.remove() }
        let before = try BinaryRunner.run(["lint", "--project", base.projectPath])
        let count = { (s: String) in s.split(separator: "\n").last.map(String.init) ?? s }
        #expect(count(lint.stdout).contains("\(try Self.warnings(before.stdout) + 1) warnings"), "\(lint.stdout) vs \(before.stdout)")
    }

    static func warnings(_ summary: String) throws -> Int {
        let words = summary.split(separator: " ")
        guard let i = words.firstIndex(where: { $0.hasPrefix("warning") }), i > 0 else { return 0 }
        return Int(words[i - 1]) ?? 0
    }
}

extension XcodeRealProjectsTests {
    /// A setting an entitlements value uses that no level defines, with an
    /// xcconfig kcs could not read: the hint names it as the bundle ID's
    /// does (Mullvad's App.xcconfig, Blink's developer_setup.xcconfig before
    /// their setup step; real-project trial 20, W6).
    @Test func anUndefinedSettingInAnEntitlementsValueNamesTheUnreadXCConfig() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.write("Config/Base.xcconfig", """
            #include "Team.xcconfig"
            #include "Local.xcconfig"
            PRODUCT_BUNDLE_IDENTIFIER = com.example.$(PRODUCT_NAME:rfc1034identifier)

            """)
        f.writeEntitlements("Widget/Widget.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"], appGroups: ["group.$(GROUP_ID)"])
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(lint.stderr.contains("hint: define the build setting, or write the group out; 'Local.xcconfig', which kcs could not read, may define it"),
                "\(lint.stderr)")
    }
}

extension XcodeRealProjectsTests {
    /// A missing source whose template is `NAME-demo.EXT` one folder up,
    /// the missing file's own folder being absent too: the setup step is
    /// named (Simplenote for Mac's `SPCredentials-demo.swift`; real-project
    /// trial 20, W12).
    @Test func aDemoTemplateOneFolderUpIsNamed() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[0].sources.append("Credentials/Secrets.swift")
        f.write("App/Secrets-demo.swift", "let secret = \"\"\n")
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(lint.stderr.contains("hint: copy \(f.path("App/Secrets-demo.swift")) to \(f.path("App/Credentials/Secrets.swift")) first (the project's setup step)"),
                "\(lint.stderr)")
    }
}
