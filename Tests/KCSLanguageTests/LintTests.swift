import Foundation
import Testing
@testable import KCSLanguage
@testable import KCSRuntime
@testable import KCSSyntax

/// Every lint rule of semantics.md section 7 has a sample in examples/lint/
/// that runs cleanly but makes exactly that mistake.
@Suite struct LintTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ name: String) -> String { root.appendingPathComponent("examples/lint/" + name).path }

    @Test(arguments: [
        ("501-missing-team-prefix.kcs", DiagnosticCode.lintMissingTeamPrefix, 8),
        ("502-extension-group.kcs", .lintExtensionGroup, 10),
        ("503-sync-this-device-only.kcs", .lintSyncThisDeviceOnly, 6),
        ("504-deprecated-always.kcs", .lintDeprecatedAccessibility, 5),
        ("505-app-group-default.kcs", .lintAppGroupDefault, 9),
        ("506-macos-file-keychain-group.kcs", .lintFileKeychainGroup, 8),
        ("507-sync-filter.kcs", .lintSyncFilter, 8),
        ("508-service-account-mismatch.kcs", .lintServiceAccount, 9),
        ("509-update-moves-group.kcs", .lintGroupMove, 10),
        ("510-inline-unprefixed.kcs", .lintUnprefixedEntitlement, 6),
        ("511-app-group-shape.kcs", .lintAppGroupShape, 7),
        ("512-limit-on-add.kcs", .lintLimitOnAdd, 7),
        ("513-password-reference.kcs", .lintPasswordReference, 8),
        ("514-unprovisioned-keychain-groups.kcs", .lintUnprovisionedKeychainGroups, 6),
        ("515-resign-off-the-mac.kcs", .lintResignWithoutFileKeychain, 10),
        ("516-accessibility-filter.kcs", .lintAccessibilityFilter, 8),
        ("517-class-only-update.kcs", .lintClassOnlyUpdate, 9),
        ("518-delete-after-locked-read.kcs", .lintDeleteAfterLockedRead, 11),
        ("519-attribute-of-another-class.kcs", .lintAttributeOfAnotherClass, 8),
        ("521-update-keeps-class.kcs", .lintUpdateKeepsClass, 11),
    ])
    func eachRuleHasATriggeringSample(file: String, code: DiagnosticCode, line: Int) {
        let outcome = BatchRunner().lint(path: Self.path(file))
        #expect(outcome.diagnostics.map(\.code) == [code], "\(file): \(outcome.diagnostics.map(\.message))")
        let d = outcome.diagnostics.first
        #expect(d?.severity == .warning)
        #expect(d?.location?.line == line, "the warning names the line of the call")
        #expect(d?.hint?.isEmpty == false, "each warning says how to fix it")
        #expect(outcome.verdict == .failed)
        // The sample itself runs cleanly: warnings do not change the exit code.
        let run = BatchRunner().run(path: Self.path(file))
        #expect(run.verdict == .passed, "\(file)")
        #expect(run.diagnostics.map(\.code) == [code])
    }

    /// KCS509 names each platform's release (a macOS script was told only
    /// of iOS 13; QA s20, Q04), for a move into a group the app lacks (a
    /// move into one it has works everywhere: conformance audit 24, F2), and
    /// KCS502 offers listing the group in the extension first
    /// (expo-share-extension issue 90's fix; QA s20, Q13).
    @Test func groupMoveAndExtensionGroupHintsFitTheScript() {
        func warnings(_ script: String) -> [Diagnostic] {
            BatchRunner().run(SourceFile(name: "s.kcs", text: script)).diagnostics.filter { $0.severity == .warning }
        }
        let move = """
            team SKMME9E2Y8
            app com.example.A keychain-access-groups=[$(AppIdentifierPrefix)com.example.A]
            as A add generic-password account="a" data-protection=true
            as A update generic-password account="a" data-protection=true set group=SKMME9E2Y8.com.example.B
            """
        let mac = warnings("platform macos 15\n" + move).filter { $0.code == .lintGroupMove }
        #expect(mac.first?.message.contains("errSecMissingEntitlement from macOS 10.15,") == true, "\(mac.map(\.message))")
        let watch = warnings("platform watchos 10\n" + move).filter { $0.code == .lintGroupMove }
        #expect(watch.first?.message.contains("errSecMissingEntitlement from watchOS 6,") == true, "\(watch.map(\.message))")
        let ios = warnings(move).filter { $0.code == .lintGroupMove }
        #expect(ios.first?.message.contains("errSecMissingEntitlement from iOS 13,") == true, "\(ios.map(\.message))")

        // The team ID alone as a group (flutterfire issue 6552; QA s20, Q08).
        let bare = warnings("""
            team SKMME9E2Y8
            app com.project.flutter as App keychain-access-groups=[$(AppIdentifierPrefix)com.project.flutter]
            as App find generic-password account="a" group=SKMME9E2Y8
            """)
        #expect(bare.map(\.code) == [.lintMissingTeamPrefix], "\(bare.map(\.message))")
        #expect(bare.first?.hint == "write the group in full, e.g. group=SKMME9E2Y8.com.project.flutter", "\(bare.map { $0.hint ?? "" })")

        let ext = warnings("""
            team SKMME9E2Y8
            app com.nils.app as App keychain-access-groups=[$(AppIdentifierPrefix)com.nils.app.shared] application-groups=[group.com.nils.app]
            app com.nils.app.Share as Share kind=extension application-groups=[group.com.nils.app]
            as App add generic-password account="a" data="x"
            as Share find generic-password account="a" group=SKMME9E2Y8.com.nils.app.shared return=data
            """).filter { $0.code == .lintExtensionGroup }
        #expect(ext.first?.hint?.hasPrefix("an extension inherits nothing from its app: give Share the group too (group com.nils.app.shared Share), or store the item in group.com.nils.app") == true,
                "\(ext.map { $0.hint ?? "" })")
    }

    /// KCS506 follows the engine's routing (SecItem.cpp SecItemCategorizeQuery):
    /// an access control sends the call to the data-protection keychain, where
    /// the group counts; data-protection=false keeps even sync=true on the file side.
    @Test func fileKeychainGroupWarningFollowsTheRouting() {
        func codes(_ call: String) -> [DiagnosticCode] {
            let script = "platform macos 15\nteam SKMME9E2Y8\napp com.example.Mac\n" + call + "\n"
            return BatchRunner().run(SourceFile(name: "s.kcs", text: script)).diagnostics.map(\.code)
        }
        #expect(codes("as Mac add generic-password account=\"a\" group=SKMME9E2Y8.com.example.Mac access-control=[user-presence]") == [])
        #expect(codes("as Mac add generic-password account=\"a\" group=SKMME9E2Y8.com.example.Mac sync=true") == [])
        #expect(codes("as Mac add generic-password account=\"a\" group=SKMME9E2Y8.com.example.Mac sync=true data-protection=false")
                == [.lintFileKeychainGroup])
    }

    /// KCS516: accessible= in a read query is a filter (QA s21 Q14, Q21,
    /// Q06; s19 Q20, s20 Q26): said on a miss, and on a call that left
    /// items of another class out; not for a migration (an update that sets
    /// a class), nor for a find that left nothing out.
    @Test func anAccessibilityInAReadQueryIsAFilter() {
        let setup = "team SKMME9E2Y8\napp com.example.App\n"
            + "as App add generic-password service=\"W\" account=\"a\"\nas App add generic-password service=\"W\" account=\"b\" accessible=after-first-unlock\n"
        func run(_ call: String) -> [Diagnostic] {
            BatchRunner().run(SourceFile(name: "s.kcs", text: setup + call + "\n")).diagnostics.filter { $0.severity == .warning }
        }
        let miss = run("as App find generic-password service=\"W\" account=\"a\" accessible=after-first-unlock")
        #expect(miss.map(\.code) == [.lintAccessibilityFilter], "\(miss.map(\.message))")
        #expect(miss.first?.message.contains("skips 1 item stored with another class") == true, "\(miss.map(\.message))")
        let delete = run("as App delete generic-password service=\"W\" accessible=after-first-unlock")
        #expect(delete.first?.message.contains("this delete leaves out 1 item stored with another class") == true, "\(delete.map(\.message))")
        let none = run("as App find generic-password service=\"X\" accessible=after-first-unlock")
        #expect(none.map(\.code) == [.lintAccessibilityFilter], "\(none.map(\.message))")
        for call in ["as App find generic-password service=\"W\" account=\"b\" accessible=after-first-unlock",
                     "as App update generic-password service=\"W\" accessible=when-unlocked set accessible=after-first-unlock",
                     "as App find generic-password service=\"W\" account=\"a\""] {
            #expect(run(call).isEmpty, "\(call): \(run(call).map(\.message))")
        }
    }

    /// KCS507 for a call that succeeds yet leaves synchronizable matches
    /// out: a wrapper's "delete all" or "read all" that says nothing of sync
    /// (SwiftKeychainWrapper #179, KeychainAccess #525); `explain` counts them.
    /// A find for one item, or a call that says sync=, is not warned.
    @Test func aCallThatTakesEveryMatchWarnsOfTheSynchronizableOnesItLeaves() {
        let setup = "team SKMME9E2Y8\napp com.example.App\n"
            + "as App add generic-password service=\"W\" account=\"a\"\nas App add generic-password service=\"W\" account=\"b\" sync=true\n"
        func run(_ call: String) -> [Diagnostic] { BatchRunner().run(SourceFile(name: "s.kcs", text: setup + call + "\n")).diagnostics }
        for call in ["as App delete generic-password service=\"W\"", "as App update generic-password service=\"W\" set label=\"x\"",
                     "as App find generic-password service=\"W\" limit=all", "as App find generic-password service=\"W\" limit=2"] {
            let d = run(call)
            #expect(d.map(\.code) == [.lintSyncFilter], "\(call): \(d.map(\.message))")
            #expect(d.first?.message.contains("1 synchronizable item") == true, "\(call)")
        }
        for call in ["as App find generic-password service=\"W\"", "as App delete generic-password service=\"W\" sync=any",
                     "as App delete generic-password service=\"W\" sync=false"] {
            #expect(run(call).isEmpty, "\(call)")
        }
        let explained = Interpreter.run(source: setup + "as App delete generic-password service=\"W\"\nexpect status errSecItemNotFound\n",
                                        name: "s.kcs")
        let why = explained.diagnostics.flatMap { $0.notes.map(\.message) }.joined()
        #expect(why.contains("deleted 1 item; 1 synchronizable item matching the rest was left out"), "\(why)")
    }

    /// KCS514 where the app becomes one the Mac does not launch: declared
    /// so, given its first keychain group by `group`, or met by the first
    /// Mac device; said once at each (found by review: only the declaration
    /// was checked, against the world as it was then).
    @Test func anUnlaunchedMacAppIsSaidWhereverItBecomesOne() {
        func lines(_ script: String) -> [Int] {
            BatchRunner().run(SourceFile(name: "s.kcs", text: script)).diagnostics
                .filter { $0.code == .lintUnprovisionedKeychainGroups }.compactMap { $0.location?.line }
        }
        let tool = "app com.example.Tool as Tool signing=unprovisioned"
        #expect(lines("platform ios 18\nteam SKMME9E2Y8\n\(tool) keychain-access-groups=[SKMME9E2Y8.x]\ndevice Mac platform=macos 15\ndevice Mac2 platform=macos 14\n") == [4])
        #expect(lines("platform macos 15\nteam SKMME9E2Y8\n\(tool)\ngroup com.example.shared Tool\ngroup com.example.more Tool\n") == [4])
        #expect(lines("platform macos 15\nteam SKMME9E2Y8\n\(tool) keychain-access-groups=[SKMME9E2Y8.x]\n") == [3])
        #expect(lines("platform ios 18\nteam SKMME9E2Y8\n\(tool) keychain-access-groups=[SKMME9E2Y8.x]\ngroup com.example.g Tool\n").isEmpty)
        #expect(lines("platform macos 15\nteam SKMME9E2Y8\napp com.example.Tool as Tool keychain-access-groups=[SKMME9E2Y8.x]\n").isEmpty)
    }

    /// KCS508 names the usual cause when the two services are the two
    /// targets' bundle IDs: a keychain wrapper's default service.
    @Test func servicesThatAreBundleIDsPointAtTheWrappersDefault() {
        let script = """
            team SKMME9E2Y8
            app com.example.App as App
            app com.example.App.Widget as Widget kind=extension
            group com.example.shared App Widget
            as App add generic-password service="com.example.App" account="token" group=SKMME9E2Y8.com.example.shared
            as Widget find generic-password service="com.example.App.Widget" account="token"

            """
        let d = BatchRunner().run(SourceFile(name: "s.kcs", text: script)).diagnostics
        #expect(d.map(\.code) == [.lintServiceAccount])
        #expect(d.first?.hint?.contains("Bundle.main.bundleIdentifier") == true, "\(d.map { $0.hint ?? "" })")
        let other = BatchRunner().run(SourceFile(name: "s.kcs", text: script.replacing("com.example.App.Widget\" account", with: "com.example.Ap\" account")))
        #expect(other.diagnostics.first?.hint?.contains("Bundle.main") == false)
    }

    /// Issue 13: the same entitlement-shape warning wherever the value is
    /// written, with a did-you-mean, pointing at the value itself.
    @Test func bundleIDIndexAnswersAsTheScansItReplacedDid() {
        // The set lookups give what a scan of every bundle ID gave.
        // One past the indexed length and levels: asked by a scan.
        let deep = (1...20).map { "l\($0)" }.joined(separator: ".")
        let ids = ["com.example.App", "com.example.App.Widget", "G7YU7X7KRJ.SworIM", "org.x", deep]
        let index = BundleIDIndex(ids)
        for name in ["com", "com.example", "com.example.App", "com.example.App.Widget", "com.example.App.Widget.More",
                     "com.example.Ap", "org.x.y", "org", "G7YU7X7KRJ", "G7YU7X7KRJ.SworIM.Share", "x", "", ".",
                     "l1", "l1.l2.l3", deep, deep + ".ext"] {
            #expect(index.isOrPrefixes(name) == ids.contains { name == $0 || $0.hasPrefix(name + ".") }, "\(name)")
            #expect((index.isOrPrefixes(name) || index.hasOne(under: name))
                        == ids.contains { name == $0 || name.hasPrefix($0 + ".") || $0.hasPrefix(name + ".") }, "\(name)")
        }
    }

    @Test func anAppClipIsNotToldToUseItsAppGroup() {
        // A clip's app groups are not its access groups: KCS505 told Delta
        // Chat's clip to store in one, and the -34018 that followed said to
        // add the group the clip already listed (real-project trial 18, D2).
        let script = """
            team SKMME9E2Y8
            app com.example.App application-groups=[group.com.example]
            app com.example.App.Clip as Clip kind=app-clip application-groups=[group.com.example]
            as Clip add generic-password account="invite" data="l"
            as Clip add generic-password account="invite2" data="l" group=group.com.example
            expect status errSecSuccess
            as Clip find generic-password account="invite3" group=SKMME9E2Y8.group.com.example
            expect status errSecSuccess
            """
        let d = BatchRunner().run(SourceFile(name: "s.kcs", text: script)).diagnostics
        #expect(d.filter { $0.severity == .warning }.isEmpty, "\(d.map(\.message))")
        let hints = d.filter { $0.code == .expectationFailed }.map { $0.hint ?? "" }
        #expect(hints.count == 2, "\(d.map(\.message))")
        #expect(hints.first?.hasPrefix("Clip is an App Clip, whose one keychain group is its app ID, SKMME9E2Y8.com.example.App.Clip: its app groups do not count") == true,
                "\(hints)")
        #expect(hints.first?.contains("drop group= to store in the app ID") == true, "\(hints)")
        #expect(hints.last?.contains("drop group= to use the app ID") == true, "\(hints)")
        #expect(!hints.contains { $0.contains("group group.com.example Clip") }, "\(hints)")
        // A full app with the same lists is still told (KCS505).
        let app = BatchRunner().run(SourceFile(name: "s.kcs", text: """
            team SKMME9E2Y8
            app com.example.App application-groups=[group.com.example]
            app com.example.App.Ext as Ext kind=extension application-groups=[group.com.example]
            as Ext add generic-password account="invite" data="l"
            """)).diagnostics
        #expect(app.map(\.code) == [.lintAppGroupDefault], "\(app.map(\.message))")
    }

    @Test func entitlementShapeWarningsWhereverWritten() {
        func warnings(_ script: String) -> [Diagnostic] {
            BatchRunner().run(SourceFile(name: "s.kcs", text: script)).diagnostics.filter { $0.severity == .warning }
        }
        let inline = warnings("team SKMME9E2Y8\napp com.example.A keychain-access-groups=[com.example.shared, com.apple.token]\n")
        #expect(inline.map(\.code) == [.lintUnprefixedEntitlement])
        #expect(inline.first?.message == "keychain group com.example.shared does not carry the team prefix SKMME9E2Y8.: no provisioning profile allows it "
                + "(SKMME9E2Y8's profiles grant SKMME9E2Y8.* groups), so a device does not launch an app signed with it (on iOS it does not install)")
        #expect(inline.first?.hint?.hasPrefix("did you mean SKMME9E2Y8.com.example.shared?") == true)
        #expect(inline.first?.location?.column == 43, "the warning points at the group")
        // An empty part (eduVPN's `$(AppIdentifierPrefix).$(APP_ID)`).
        let doubled = EntitlementShape.keychainGroup("SKMME9E2Y8..org.eduvpn.client", teamID: "SKMME9E2Y8")
        #expect(doubled?.message == "keychain group SKMME9E2Y8..org.eduvpn.client has an empty part" && doubled?.fix == "SKMME9E2Y8.org.eduvpn.client")
        // A Mac app: the team prefix is offered first (real projects 12, F8).
        let mac = EntitlementShape.applicationGroup("com.example.suite", teamID: "SKMME9E2Y8", macOS: true)
        #expect(mac?.fix == "SKMME9E2Y8.com.example.suite" && mac?.hint.hasPrefix("did you mean SKMME9E2Y8.com.example.suite?") == true)
        // The same words as for an entitlements file.
        let file = EntitlementShape.keychainGroup("com.example.shared", teamID: "SKMME9E2Y8")
        #expect(file?.message == inline.first?.message && file?.hint == inline.first?.hint)

        let appGroups = warnings("team SKMME9E2Y8\napp com.example.A application-groups=[com.example.suite, SKMME9E2Y8.group.x, group.ok]\n")
        #expect(appGroups.map(\.code) == [.lintAppGroupShape, .lintAppGroupShape])
        #expect(appGroups.first?.hint?.hasPrefix("did you mean group.com.example.suite?") == true)
        #expect(appGroups.last?.hint?.hasPrefix("did you mean group.x?") == true)
        // macOS also takes team-prefixed app groups, group.… after the
        // prefix included (WireGuard's and ProtonVPN's Mac apps ship them).
        #expect(warnings("platform macos 15\nteam SKMME9E2Y8\napp com.example.A application-groups=[SKMME9E2Y8.suite]\n").isEmpty)
        #expect(warnings("platform macos 14\nteam SKMME9E2Y8\napp com.example.A application-groups=[SKMME9E2Y8.group.suite]\n").isEmpty)
        // So does an iOS scenario with a Mac device in it (firebase-ios-sdk
        // issue #6876: a Mac app and its helper share TEAMID.name).
        #expect(warnings("team SKMME9E2Y8\ndevice Mac platform=macos 14\napp com.example.A application-groups=[SKMME9E2Y8.suite]\n").isEmpty)
        let iosOnly = warnings("team SKMME9E2Y8\ndevice Old platform=ios 12\napp com.example.A application-groups=[SKMME9E2Y8.suite]\n")
        #expect(iosOnly.map(\.code) == [.lintAppGroupShape])
        // The Mac's shape on iOS: the name without the team (Valet issue 222).
        #expect(iosOnly.first?.hint?.hasPrefix("did you mean group.suite?") == true, "\(iosOnly.map { $0.hint ?? "" })")

        // A find of an item synced onto a locked device, which waits in the
        // incoming queue until the unlock, is no near miss of another item
        // (KCS508 named the other synced item as the one meant).
        let queued = warnings("""
            team SKMME9E2Y8
            app com.example.A as A
            device Sender
            lock
            on Sender as A add generic-password account="classCItem" sync=true accessible=after-first-unlock
            on Sender as A add generic-password account="classAItem" sync=true accessible=when-unlocked
            sync
            as A find generic-password account="classAItem" sync=true
            """)
        #expect(queued.isEmpty, "\(queued.map(\.message))")

        // A move into a group the caller has works on every version, iOS 12
        // and the Mac included: no warning (it warned on every move before;
        // conformance audit 24, F2).
        for platform in ["ios 12", "ios 18", "macos 15"] {
            let entitled = warnings("""
                platform \(platform)
                team SKMME9E2Y8
                app com.example.A keychain-access-groups=[SKMME9E2Y8.shared]
                as A add generic-password service="s" account="a" data-protection=true
                as A update generic-password service="s" data-protection=true set group=SKMME9E2Y8.shared
                """)
            #expect(entitled.isEmpty, "\(platform): \(entitled.map(\.message))")
        }

        let call = warnings("""
            team SKMME9E2Y8
            app com.example.A application-groups=[group.x]
            as A add generic-password account="a" group=SKMME9E2Y8.group.x
            as A update generic-password account="a" set group=SKMME9E2Y8.group.x
            """)
        #expect(call.map(\.code) == [.lintAppGroupShape, .lintAppGroupShape, .lintGroupMove])
        #expect(call.first?.hint?.hasPrefix("did you mean group.x?") == true)
        // Hints on one flow agree: the move's fix names the corrected group.
        #expect(call.last?.hint?.hasSuffix("move it to group.x") == true)
        // TEAMID.group.… as a Keychain Sharing group, which another app
        // lists and the item lives in (Delta Chat, 2FAS Pass): no app group
        // with a prefix, and group.… would find nothing; KCS502 alone says
        // what is wrong (real-project trial 18, D1).
        let sharing = """
            team SKMME9E2Y8
            app com.example.App keychain-access-groups=[$(AppIdentifierPrefix)group.com.example] application-groups=[group.com.example]
            app com.example.App.Ext as Ext kind=extension application-groups=[group.com.example]
            as App add generic-password account="a" group=SKMME9E2Y8.group.com.example data="x"
            as Ext find generic-password account="a" group=SKMME9E2Y8.group.com.example return=data
            """
        let held = warnings(sharing)
        #expect(held.map(\.code) == [.lintExtensionGroup], "\(held.map(\.message))")
        // Another app that lists it is enough, with nothing stored yet.
        let listed = warnings("""
            team SKMME9E2Y8
            app com.example.App keychain-access-groups=[$(AppIdentifierPrefix)group.com.example]
            app com.example.Other application-groups=[group.com.example]
            as Other find generic-password account="a" group=SKMME9E2Y8.group.com.example
            """)
        #expect(listed.isEmpty, "\(listed.map(\.message))")
        // No app lists it and nothing lives there: still KCS511.
        let alone = warnings("""
            team SKMME9E2Y8
            app com.example.Other application-groups=[group.com.example]
            as Other find generic-password account="a" group=SKMME9E2Y8.group.com.example
            """)
        #expect(alone.map(\.code) == [.lintAppGroupShape], "\(alone.map(\.message))")
        // Apple's own group is no mistake.
        #expect(EntitlementShape.keychainGroup("com.apple.token", teamID: "SKMME9E2Y8") == nil)
        // A wildcard is no group: no TEAMID.* to suggest.
        let star = EntitlementShape.keychainGroup("*", teamID: "SKMME9E2Y8")
        #expect(star?.fix == nil && star?.message.contains("wildcard") == true && star?.hint.contains("SKMME9E2Y8.*") == false)
        // Another team's group: securityd would share it, a profile never grants it.
        let other = EntitlementShape.keychainGroup("ABCDE12345.com.example.shared", teamID: "SKMME9E2Y8")
        #expect(other?.message == "keychain group ABCDE12345.com.example.shared carries the prefix of team ABCDE12345, but the app is signed by team SKMME9E2Y8")
        #expect(other?.fix == "SKMME9E2Y8.com.example.shared")
        #expect(EntitlementShape.keychainGroup("SKMME9E2Y8.com.example.shared", teamID: "SKMME9E2Y8") == nil)
        // A bundle ID shaped like TEAM.x is the app's own ID once prefixed, and unprefixed without.
        #expect(EntitlementShape.keychainGroup("SKMME9E2Y8.G7YU7X7KRJ.SworIM", teamID: "SKMME9E2Y8", bundleIDs: BundleIDIndex(["G7YU7X7KRJ.SworIM"])) == nil)
        #expect(EntitlementShape.keychainGroup("G7YU7X7KRJ.SworIM", teamID: "SKMME9E2Y8", bundleIDs: BundleIDIndex(["G7YU7X7KRJ.SworIM"]))?.fix
                    == "SKMME9E2Y8.G7YU7X7KRJ.SworIM")
    }

    @Test func hintsOnOneCallDoNotContradict() {
        // KCS503 must not suggest the accessibility KCS504 warns about.
        let d = BatchRunner().run(SourceFile(name: "s.kcs", text: """
            team SKMME9E2Y8
            app com.example.A
            as A add generic-password account="a" sync=true accessible=always-this-device-only
            """)).diagnostics
        #expect(Set(d.map(\.code)) == [.lintSyncThisDeviceOnly, .lintDeprecatedAccessibility])
        for w in d { #expect(w.hint?.contains("use always") == false, "\(w.hint ?? "")") }
        #expect(d.first { $0.code == .lintSyncThisDeviceOnly }?.hint?.hasSuffix("or use after-first-unlock") == true)
        // With an access control the call is refused (errSecParam): no
        // "stored but never synced" (KeychainAccess issue 53's shape).
        let refused = BatchRunner().run(SourceFile(name: "s.kcs", text: """
            team SKMME9E2Y8
            app com.example.A
            as A add generic-password account="a" sync=true access-control=[when-passcode-set-this-device-only, user-presence]
            expect status errSecParam
            """))
        #expect(!refused.diagnostics.contains { $0.code == .lintSyncThisDeviceOnly }, "\(refused.diagnostics.map(\.message))")
    }

    @Test func hintsOnOneFlowAgree() {
        // The writer is told to use the app group it shares; the extension
        // reading in vain is told the same, not to take the app's private group.
        let d = BatchRunner().run(SourceFile(name: "s.kcs", text: """
            team SKMME9E2Y8
            app com.example.App application-groups=[group.com.example.Suite]
            app com.example.App.Widget as Widget kind=extension application-groups=[group.com.example.Suite]
            as App add generic-password account="a"
            as Widget find generic-password account="a"
            """)).diagnostics
        #expect(d.map(\.code) == [.lintAppGroupDefault, .lintExtensionGroup])
        #expect(d[0].hint?.contains("group=group.com.example.Suite; or, when the writer cannot pass a group") == true, "\(d[0].hint ?? "")")
        #expect(d[1].hint?.contains("store the item there (group=group.com.example.Suite on the add); or, when the writer cannot pass a group") == true,
                "\(d[1].hint ?? "")")
        // Both end with the same third route: one Keychain Sharing group first in both
        // (react-native-encrypted-storage issue 93, GTMAppAuth issue 95; QA s22, Q02).
        for h in d.map({ $0.hint ?? "" }) {
            #expect(h.hasSuffix("list one Keychain Sharing group first in the keychain-access-groups of both App and Widget: it becomes the default group of both"), "\(h)")
        }
    }

    @Test func noFixAddsAGroupTheListAlreadyHas() {
        let d = BatchRunner().run(SourceFile(name: "s.kcs", text: """
            team SKMME9E2Y8
            app com.example.A keychain-access-groups=[SKMME9E2Y8.x, x] application-groups=[group.y, y]
            """)).diagnostics
        #expect(d.map(\.hint) == ["keychain-access-groups already lists SKMME9E2Y8.x: drop x",
                                   "application-groups already lists group.y: drop y"])
    }

    @Test func noFixAddsAGroupTheAppAlreadyHas() {
        let d = BatchRunner().lint(path: Self.path("502-extension-group.kcs")).diagnostics[0]
        #expect(d.hint?.contains("(group com.example.BankShared Widget)") == true, "\(d.hint ?? "")")
    }

    @Test func messagesSayTheMistakeAndTheFix() {
        let prefix = BatchRunner().lint(path: Self.path("501-missing-team-prefix.kcs")).diagnostics[0]
        #expect(prefix.message == "group \"com.example.Shared\" lacks the team prefix; AppOne is entitled to SKMME9E2Y8.com.example.Shared")
        #expect(prefix.hint?.contains("group=SKMME9E2Y8.com.example.Shared") == true)
        let service = BatchRunner().lint(path: Self.path("508-service-account-mismatch.kcs")).diagnostics[0]
        #expect(service.hint?.contains("service=\"com.example.auth\"") == true)
    }

    @Test func strictTurnsWarningsIntoErrorsAndOffSilencesThem() {
        let file = Self.path("504-deprecated-always.kcs")
        let strict = BatchRunner(lint: .strict).run(path: file)
        #expect(strict.verdict == .failed)
        #expect(strict.diagnostics.map(\.severity) == [.error])
        let off = BatchRunner(lint: .off).run(path: file)
        #expect(off.verdict == .passed && off.diagnostics.isEmpty)
    }

    @Test func aCleanScriptHasNoWarnings() {
        let clean = BatchRunner().lint(SourceFile(name: "c.kcs", text: """
            team SKMME9E2Y8
            app com.example.AppOne
            app com.example.AppTwo
            group com.example.Shared AppOne AppTwo
            as AppOne add generic-password service="auth" account="alice"
            as AppTwo find generic-password service="auth" account="alice"
            expect status errSecSuccess
            """))
        #expect(clean.diagnostics.isEmpty)
        #expect(clean.verdict == .passed)
    }

    @Test func lintIsOffForEmbeddersUnlessAsked() {
        let script = "team SKMME9E2Y8\napp com.x.A\nas A add generic-password account=\"a\" accessible=always\n"
        #expect(Interpreter.run(source: script).diagnostics.isEmpty)
        var session = Session()
        session.lints = true
        let report = session.run(file: SourceFile(name: "s.kcs", text: script))
        #expect(report.diagnostics.map(\.code) == [.lintDeprecatedAccessibility])
        #expect(report.verdict == .passed)
    }

    @Test func syntaxErrorsStillStopLint() {
        let outcome = BatchRunner().lint(SourceFile(name: "s.kcs", text: "tem X\n"))
        #expect(outcome.verdict == .invalidInput)
    }

    @Test func looksAlikeCatchesTyposCaseAndPrefixes() {
        #expect(Session.looksAlike("Auth", "auth"))
        #expect(Session.looksAlike("com.example.auth", "auth"))
        #expect(Session.looksAlike("token", "tokne"))
        #expect(!Session.looksAlike("alice", "private"))
        #expect(!Session.looksAlike("a", "b"))
    }

    @Test func theDocumentedSamplesAllRun() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("examples/lint").path)
            .filter { $0.hasSuffix(".kcs") }
        #expect(files.count >= 9)
    }

    /// The word-at-a-time scan agrees with a byte-by-byte one at every
    /// position of a non-ASCII byte and for every range around it.
    @Test func nonASCIIScanAgreesWithBytes() {
        for length in [0, 1, 7, 8, 9, 16, 23] {
            for marked in [-1] + Array(0..<length) {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                if marked >= 0 { bytes[marked] = 0xD0 }
                for start in 0...length {
                    for end in start...length {
                        let expected = bytes[start..<end].contains { $0 >= 0x80 }
                        #expect(Session.hasNonASCII(bytes, SourceRange(start, end)) == expected)
                    }
                }
            }
        }
    }

    /// Lint after a call names the group fix only where a rule can fire,
    /// and says nothing about an entitled group, a successful call or
    /// another team's group the caller cannot have meant.
    @Test func lintOnlyWhereARuleCanFire() {
        let script = """
        team SKMME9E2Y8
        app com.example.A as A
        app com.example.B as B
        group com.example.shared A
        group com.example.other B
        as A add generic-password service="s" account="a" group=SKMME9E2Y8.com.example.shared
        as A find generic-password service="s" account="a" group=SKMME9E2Y8.com.example.other
        as A find generic-password service="s" account="a" group=com.example.shared
        as A find generic-password service="s" account="a" group=SKMME9E2Y8.group.example
        as A find generic-password service="S" account="a"
        """
        var session = Session()
        session.lints = true
        let report = session.run(file: SourceFile(name: "t.kcs", text: script))
        let warnings = report.diagnostics.filter { $0.severity == .warning }
        #expect(warnings.map(\.range?.start).compactMap { $0 }.map { script.utf8.prefix($0).filter { $0 == 10 }.count + 1 }
                == [8, 9, 10])
        #expect(warnings.map(\.code) == [.lintMissingTeamPrefix, .lintAppGroupShape, .lintServiceAccount])
    }
}
