import Foundation
import Testing

/// Review 22a's findings, checked on the built binary.
@Suite("Review 22a")
struct Review22aTests {
    /// Runs `kcs` in a folder of its own holding `files`.
    static func run(_ arguments: [String], files: [String: String]) throws -> BinaryRunner.Output {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-r22a-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return try BinaryRunner.run(arguments, directory: dir)
    }

    /// A copy of docs/xcode/Notes in a folder of its own (the caller removes it).
    static func notesCopy() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-r22a-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let notes = dir.appendingPathComponent("Notes")
        try FileManager.default.copyItem(at: BinaryRunner.root.appendingPathComponent("docs/xcode/Notes"), to: notes)
        return notes
    }

    /// Replaces `old` (present once) by `new` in a file.
    static func edit(_ file: URL, _ old: String, _ new: String) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.components(separatedBy: old).count == 2, "\(file.lastPathComponent): \(old)")
        try text.replacingOccurrences(of: old, with: new).write(to: file, atomically: true, encoding: .utf8)
    }

    // MARK: R2, R3: access-control flags as Apple's bits, the combinator as given

    static let flagsSideBySide = """
        team SKMME9E2Y8
        app com.example.a as A
        as A add generic-password service="s" account="a" data="d" access-control=[when-passcode-set-this-device-only, user-presence, application-password]
        expect status errSecSuccess
        as A add generic-password service="s2" account="a" data="d" access-control=[biometry-any, device-passcode]
        expect status errSecSuccess

        """

    /// R2: flags side by side were stored as `and` and exported with
    /// `.and`, which SecAccessControlCreateWithFlags refuses beside user
    /// presence (NULL, errSecParam). Exported as written now, the flags in
    /// the order SecAccessControl.m tests their bits.
    @Test func flagsSideBySideAreExportedWithoutACombinator() throws {
        let out = try Self.run(["export", "--swift", "s.kcs"], files: ["s.kcs": Self.flagsSideBySide])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, [.userPresence, .applicationPassword], nil)"), "\(out.stdout)")
        #expect(out.stdout.contains("(nil, kSecAttrAccessibleWhenUnlocked, [.devicePasscode, .biometryAny], nil)"), "\(out.stdout)")
        #expect(!out.stdout.contains(".and]") && !out.stdout.contains(".or]"), "\(out.stdout)")
    }

    /// R2: a failed `expect item` printed `[…, user-presence, and,
    /// application-password]`, which kcs refuses (KCS211); the printed form
    /// now reads back as the item's.
    @Test func anAccessControlInAMessageReadsBack() throws {
        let find = "user approves\nas A find generic-password service=\"s\" account=\"a\"\n"
        let wrong = try Self.run(["run", "s.kcs"], files: ["s.kcs": Self.flagsSideBySide + find
                                    + "expect item access-control=[when-passcode-set-this-device-only, user-presence]\n"])
        let printed = "[when-passcode-set-this-device-only, user-presence, application-password]"
        #expect(wrong.status == 1 && wrong.stderr.contains("access-control is \(printed), expected"), "\(wrong.stderr)")
        let back = try Self.run(["run", "s.kcs"], files: ["s.kcs": Self.flagsSideBySide + find + "expect item access-control=\(printed)\n"])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stdout.contains("3 passed, 0 failed"), "\(back.stdout)")
    }

    /// R3: a flag written twice is one constraint (Apple's flags are
    /// bits): `[biometry-current-set, or, biometry-current-set]` is
    /// invalidated by a change of the enrolled set as the single flag is;
    /// and the order flags are written in does not make another object.
    @Test func aRepeatedFlagIsOneAndTheOrderDoesNotCount() throws {
        let twice = try Self.run(["run", "s.kcs"], files: ["s.kcs": """
            team SKMME9E2Y8
            app com.example.a as A
            as A add generic-password service="s" account="a" data="d" access-control=[biometry-current-set, or, biometry-current-set]
            expect status errSecSuccess
            biometry change
            user approves
            as A find generic-password service="s" account="a"
            expect status errSecItemNotFound

            """])
        #expect(twice.status == 0, "\(twice.stderr)")
        let order = try Self.run(["run", "s.kcs"], files: ["s.kcs": Self.flagsSideBySide + """
            user approves
            as A find generic-password service="s2" account="a"
            expect item access-control=[device-passcode, biometry-any]
            user approves
            as A find generic-password service="s2" account="a"
            expect item access-control=[biometry-any, device-passcode]

            """])
        #expect(order.status == 0, "\(order.stderr)")
    }

    // MARK: R11: a provisioning profile's own wildcard

    static let profile = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        	<key>AppIDName</key><string>Example</string>
        	<key>ApplicationIdentifierPrefix</key><array><string>SKMME9E2Y8</string></array>
        	<key>Entitlements</key>
        	<dict>
        		<key>application-identifier</key><string>SKMME9E2Y8.com.example.app</string>
        		<key>keychain-access-groups</key><array><string>SKMME9E2Y8.*</string><string>com.apple.token</string></array>
        		<key>com.apple.developer.team-identifier</key><string>SKMME9E2Y8</string>
        		<key>get-task-allow</key><true/>
        	</dict>
        	<key>Name</key><string>Example Development</string>
        	<key>TeamIdentifier</key><array><string>SKMME9E2Y8</string></array>
        </dict>
        </plist>

        """

    /// R11: `TEAMID.*` is what a development profile grants: linting the
    /// profile, or declaring an app from it, warned KCS510 and exited 1.
    /// The same group among an app's signed entitlements still warns.
    @Test func aProfilesOwnWildcardIsNoFinding() throws {
        let files = ["p.mobileprovision": Self.profile,
                     "s.kcs": "app com.example.app entitlements=\"p.mobileprovision\"\n",
                     "signed.kcs": "team SKMME9E2Y8\napp com.example.app keychain-access-groups=[SKMME9E2Y8.*]\n"]
        let lint = try Self.run(["lint", "--entitlements", "p.mobileprovision"], files: files)
        #expect(lint.status == 0 && !lint.stderr.contains("KCS510"), "\(lint.stderr)")
        #expect(lint.stdout.contains("note: a profile's wildcard group"), "\(lint.stdout)")
        let run = try Self.run(["run", "s.kcs"], files: files)
        #expect(!run.stderr.contains("KCS510"), "\(run.stderr)")
        let signed = try Self.run(["run", "signed.kcs"], files: files)
        #expect(signed.stderr.contains("is a provisioning profile's wildcard") && signed.stderr.contains("KCS510"), "\(signed.stderr)")
    }

    // MARK: R9: a file's size before its bytes

    /// R9: each workspace beside a project was read whole before its 1 MiB
    /// test (eight sparse 250 MB `contents.xcworkspacedata` files: 14 s,
    /// 271 MB). Measured by the peak memory of the run (`/usr/bin/time`),
    /// not its time: a file read whole takes its size in memory.
    @Test func largeWorkspaceFilesBesideAProjectAreNotRead() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { return }
        let notes = try Self.notesCopy()
        defer { try? FileManager.default.removeItem(at: notes.deletingLastPathComponent()) }
        // The App target links a framework no target builds, so the code
        // check looks at the workspaces beside the project (D3).
        let pbxproj = notes.appendingPathComponent("Notes.xcodeproj/project.pbxproj")
        try Self.edit(pbxproj, "\tobjects = {\n", """
            \tobjects = {
            \t\tB1B2C3D4E5F6000000000001 /* CoreLib.framework */ = {isa = PBXFileReference; path = "CoreLib.framework"; sourceTree = BUILT_PRODUCTS_DIR;};
            \t\tB1B2C3D4E5F6000000000002 /* CoreLib.framework in Frameworks */ = {isa = PBXBuildFile; fileRef = B1B2C3D4E5F6000000000001;};
            \t\tB1B2C3D4E5F6000000000003 /* Frameworks */ = {isa = PBXFrameworksBuildPhase; files = (B1B2C3D4E5F6000000000002, );};

            """)
        try Self.edit(pbxproj, "buildPhases = (A1B2C3D4E5F600000000000A, A1B2C3D4E5F600000000000D, ); name = \"App\"",
                      "buildPhases = (A1B2C3D4E5F600000000000A, B1B2C3D4E5F6000000000003, A1B2C3D4E5F600000000000D, ); name = \"App\"")
        for i in 1...8 {
            let workspace = notes.appendingPathComponent("W\(i).xcworkspace")
            try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
            let data = workspace.appendingPathComponent("contents.xcworkspacedata")
            #expect(FileManager.default.createFile(atPath: data.path, contents: Data()))
            let handle = try FileHandle(forWritingTo: data)
            try handle.truncate(atOffset: 250 << 20)
            try handle.close()
        }
        let out = try BinaryRunner.run(["-f", "peak %M KB", BinaryRunner.binary.path, "lint", "--project", "Notes.xcodeproj"],
                                       executable: URL(fileURLWithPath: "/usr/bin/time"), directory: notes)
        let peak = out.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }.flatMap { Int($0.split(separator: " ")[1]) }
        #expect(peak != nil, "\(out.stderr)")
        #expect((peak ?? .max) < 150_000, "peak \(peak ?? -1) KB")
    }

    // MARK: R7: KCS516 only where a class filters

    /// R7: a Mac call with data-protection=false reaches the file keychain
    /// alone, which has no classes (the find with a class finds the item
    /// added without one): KCS516's "is a filter" is false there. The same
    /// miss on iOS keeps the warning.
    @Test func noAccessibilityFilterWarningOnTheFileKeychain() throws {
        let calls = """
            team SKMME9E2Y8
            app com.example.tool as T
            as T add generic-password service="s" account="a" data="x" data-protection=false
            expect status errSecSuccess
            as T find generic-password service="s" account="a" accessible=after-first-unlock data-protection=false
            expect status errSecSuccess
            as T find generic-password service="zz" account="a" accessible=after-first-unlock data-protection=false
            expect status errSecItemNotFound
            as T delete generic-password service="zz" accessible=after-first-unlock data-protection=false
            expect status errSecItemNotFound

            """
        let mac = try Self.run(["run", "s.kcs"], files: ["s.kcs": "platform macos 14\n" + calls])
        #expect(mac.status == 0 && !mac.stderr.contains("KCS516"), "\(mac.stderr)")
        let ios = try Self.run(["run", "s.kcs"], files: ["s.kcs": calls.replacingOccurrences(of: " data-protection=false", with: "")])
        #expect(ios.stderr.contains("[KCS516]"), "\(ios.stderr)")
    }

    // MARK: R10: every holder whose default the group is

    /// R10: the note asked only the first other app holding the group; B
    /// holds it as a second group, C as its default, and C went unnamed.
    @Test func theDefaultGroupNoteLooksPastTheFirstHolder() throws {
        let out = try Self.run(["run", "s.kcs"], files: ["s.kcs": """
            team SKMME9E2Y8
            app com.example.a as A keychain-access-groups=[SKMME9E2Y8.a, SKMME9E2Y8.shared]
            app com.example.b as B keychain-access-groups=[SKMME9E2Y8.b, SKMME9E2Y8.shared]
            app com.example.c as C keychain-access-groups=[SKMME9E2Y8.shared]
            as C add generic-password service="session" account="u"
            expect status errSecSuccess
            as A delete generic-password service="session"
            explain

            """])
        #expect((out.stdout + out.stderr).contains("SKMME9E2Y8.shared is C's default group too"), "\(out.stdout)\(out.stderr)")
    }

    // MARK: R13: the code names the group, not a string that ends like it

    /// R13: an app-group string ending in `.com.example.Notes.shared` made
    /// the D10 hint say App's code names SKMME9E2Y8.com.example.Notes.shared,
    /// which it never does.
    @Test func anAppGroupStringDoesNotNameAKeychainGroup() throws {
        let notes = try Self.notesCopy()
        defer { try? FileManager.default.removeItem(at: notes.deletingLastPathComponent()) }
        try Self.edit(notes.appendingPathComponent("App/App.entitlements"), "com.example.Notes.shared<", "com.example.Notes.sahred<")
        let store = notes.appendingPathComponent("App/KeychainStore.swift")
        try Self.edit(store, "\"SKMME9E2Y8.com.example.Notes.shared\"", "\"SKMME9E2Y8.com.example.Notes.sahred\"")
        try Self.edit(notes.appendingPathComponent("Widget/Widget.entitlements"), "</dict>\n</plist>", """
            \t<key>com.apple.security.application-groups</key>
            \t<array>
            \t\t<string>group.com.example.notes</string>
            \t</array>
            </dict>
            </plist>
            """)
        let plain = try BinaryRunner.run(["lint", "--project", "Notes.xcodeproj"], directory: notes)
        #expect(plain.stderr.contains("KCS604") && !plain.stderr.contains("names both"), "\(plain.stderr)")
        let text = try String(contentsOf: store, encoding: .utf8)
        try (text + "\nlet suite = UserDefaults(suiteName: \"group.com.example.Notes.shared\")\n").write(to: store, atomically: true, encoding: .utf8)
        let withSuite = try BinaryRunner.run(["lint", "--project", "Notes.xcodeproj"], directory: notes)
        #expect(withSuite.stderr.contains("KCS604") && !withSuite.stderr.contains("names both"), "\(withSuite.stderr)")
        // The same hint either way: the string names no keychain group.
        let plainHint = "hint: did you mean SKMME9E2Y8.com.example.Notes.sahred? write it as the entitlements of 'App' do"
        #expect(plain.stderr.contains(plainHint) && withSuite.stderr.contains(plainHint), "\(plain.stderr)\n---\n\(withSuite.stderr)")
    }

    // MARK: R4: the query's checks before the token group's search

    /// R4: on iOS 11 an unentitled process's update and delete search the
    /// token group, but securityd checks the query first (return keys on an
    /// update, a match limit on either): errSecParam, as for every caller,
    /// not errSecItemNotFound.
    @Test func anUnentitledUpdateOrDeleteChecksItsQueryFirst() throws {
        let out = try Self.run(["run", "s.kcs"], files: ["s.kcs": """
            platform ios 11
            team SKMME9E2Y8
            app com.example.tests.xctest as T team=none
            as T update generic-password service="s" return=data set data="x"
            expect status errSecParam
            as T update generic-password service="s" limit=all set data="x"
            expect status errSecParam
            as T delete generic-password service="s" limit=all
            expect status errSecParam
            as T update generic-password service="s" set data="x"
            expect status errSecItemNotFound
            as T delete generic-password service="s"
            expect status errSecItemNotFound

            """])
        #expect(out.status == 0, "\(out.stderr)")
    }

    // MARK: R8: the token-group eras from the platform's data

    /// R8: a watchOS 4 add's explanation spoke of iOS releases; the texts
    /// are built from the releases `Platform` decides by.
    @Test func theTokenGroupErasFollowThePlatform() throws {
        let script = """
            team SKMME9E2Y8
            app com.example.tests.xctest as T team=none
            as T add generic-password service="s"
            explain
            as T find generic-password service="s"
            explain

            """
        let watch = try Self.run(["run", "s.kcs"], files: ["s.kcs": "platform watchos 4\n" + script])
        let said = watch.stdout + watch.stderr
        #expect(said.contains("(errSecParam; watchOS 3, 5 and 6 answer errSecMissingEntitlement)"), "\(said)")
        #expect(said.contains("watchOS 3 to 6 give such a process com.apple.token alone"), "\(said)")
        #expect(said.contains("(from watchOS 7 every call is errSecMissingEntitlement)"), "\(said)")
        #expect(!said.contains("iOS 1"), "\(said)")
        let phone = try Self.run(["run", "s.kcs"], files: ["s.kcs": "platform ios 11\n" + script])
        let told = phone.stdout + phone.stderr
        #expect(told.contains("(errSecParam; iOS 10, 12 and 13 answer errSecMissingEntitlement)"), "\(told)")
        #expect(told.contains("(from iOS 14 every call is errSecMissingEntitlement)"), "\(told)")
    }
}
