import Foundation
import Testing

/// QA trial 23 (real-world keychain problems replayed): what the built
/// binary says where the trial found a hint gap.
@Suite struct QA23FixTests {
    /// KCS516 on the one query where the accessibility filter is the fix
    /// (SAMKeychain pull request 94; QA s23, Q21): under the lock an
    /// unfiltered `limit=all` read stops at the when-unlocked item with
    /// errSecInteractionNotAllowed, and the filtered one succeeds. The
    /// warning says the filter is what lets it succeed, and its hint moves
    /// the item first instead of dropping the filter.
    @Test func anAccessibilityFilterThatAvoidsTheLockIsNotToldToGo() throws {
        let script = """
            team SKMME9E2Y8
            app com.example.sam as App
            as App add generic-password service="svc" account="old" data="o"
            as App add generic-password service="svc" account="a1" data="1" accessible=after-first-unlock
            lock
            as App find generic-password service="svc" limit=all return=attributes
            expect status errSecInteractionNotAllowed
            as App find generic-password service="svc" limit=all return=attributes accessible=after-first-unlock
            expect count 1

            """
        let out = try BinaryRunner.run(["run", "-"], stdin: script)
        #expect(out.status == 0, "\(out.stderr)")
        let warnings = out.stderr.split(separator: "\n").filter { $0.contains("[KCS516]") }
        #expect(warnings.count == 1, "\(out.stderr)")
        #expect(warnings.first?.contains("this find leaves out 1 item stored with another class (when-unlocked), and that is what lets it succeed "
                                         + "while this device is locked: without the filter it stops at that item with errSecInteractionNotAllowed") == true,
                "\(out.stderr)")
        #expect(out.stderr.contains("hint: keep the filter until no item of another class is left: move the left-out item while the device is unlocked "
                                    + "(update … set accessible=after-first-unlock"), "\(out.stderr)")
        #expect(!out.stderr.contains("drop accessible= from the query: set the class on add"), "\(out.stderr)")

        // Unlocked, the same filtered find is told to drop the filter: nothing stops the wide one.
        let unlocked = try BinaryRunner.run(["run", "-"], stdin: script
            .replacingOccurrences(of: "expect status errSecInteractionNotAllowed\n", with: "expect status errSecInteractionNotAllowed\nunlock\n"))
        #expect(unlocked.status == 0, "\(unlocked.stderr)")
        #expect(unlocked.stderr.contains("this find leaves out 1 item stored with another class [KCS516]"), "\(unlocked.stderr)")
        #expect(unlocked.stderr.contains("hint: drop accessible= from the query"), "\(unlocked.stderr)")
    }

    /// The upsert that keeps the old class (expo pull request 49128,
    /// SwiftKeychainWrapper, capacitor-secure-storage-plugin; QA s23, Q20):
    /// an add asking for after-first-unlock meets errSecDuplicateItem, the
    /// update that follows writes the data alone, and the item stays
    /// when-unlocked. KCS521 says so at the update; an update that sets the
    /// class, or an add of the item's own class, is not warned.
    @Test func anUpsertWhoseUpdateDropsTheAddsClassIsLinted() throws {
        let script = """
            team SKMME9E2Y8
            app com.example.recorder as App
            as App add generic-password service="app" account="token" data="t1"
            as App add generic-password service="app" account="token" data="t2" accessible=after-first-unlock
            expect status errSecDuplicateItem
            as App update generic-password service="app" account="token" set data="t2"
            lock
            as App find generic-password service="app" account="token" return=data
            expect status errSecInteractionNotAllowed

            """
        let out = try BinaryRunner.run(["run", "-"], stdin: script)
        #expect(out.status == 0, "\(out.stderr)")
        let warnings = out.stderr.split(separator: "\n").filter { $0.contains("[KCS521]") }
        #expect(warnings.count == 1, "\(out.stderr)")
        #expect(warnings.first?.contains("<stdin>:6:1: warning: this update leaves generic-password account=\"token\" service=\"app\" in SKMME9E2Y8.com.example.recorder when-unlocked: "
                                         + "the add at line 4 asked accessible=after-first-unlock and met errSecDuplicateItem") == true, "\(out.stderr)")
        #expect(out.stderr.contains("hint: put the class in the update: set … accessible=after-first-unlock (kSecAttrAccessible in the attributes to update)"), "\(out.stderr)")

        // The fix: the class in the update's set. No warning, and the read under the lock works.
        let fixed = try BinaryRunner.run(["run", "-"], stdin: script
            .replacingOccurrences(of: "set data=\"t2\"\n", with: "set data=\"t2\" accessible=after-first-unlock\n")
            .replacingOccurrences(of: "expect status errSecInteractionNotAllowed", with: "expect data \"t2\""))
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(!fixed.stderr.contains("[KCS521]"), "\(fixed.stderr)")
        // A duplicate add of the class the item already has: nothing was lost.
        let same = try BinaryRunner.run(["run", "-"], stdin: script
            .replacingOccurrences(of: "data=\"t1\"\n", with: "data=\"t1\" accessible=after-first-unlock\n")
            .replacingOccurrences(of: "expect status errSecInteractionNotAllowed", with: "expect data \"t2\""))
        #expect(same.status == 0, "\(same.stderr)")
        #expect(!same.stderr.contains("[KCS521]"), "\(same.stderr)")
        // Another item updated later: not the one the add met.
        let other = try BinaryRunner.run(["run", "-"], stdin: script
            .replacingOccurrences(of: "as App update generic-password service=\"app\" account=\"token\" set data=\"t2\"\n",
                                  with: "as App add generic-password service=\"app\" account=\"other\"\nas App update generic-password service=\"app\" account=\"other\" set data=\"x\"\n")
            .replacingOccurrences(of: "\nlock\n", with: "\n")
            .replacingOccurrences(of: "expect status errSecInteractionNotAllowed", with: ""))
        #expect(other.status == 0, "\(other.stderr)")
        #expect(!other.stderr.contains("[KCS521]"), "\(other.stderr)")
    }

    /// A query's `data=` selects nothing (SecDbQuery.c query_set_data keeps
    /// kSecValueData aside for an add): two reviews said a delete carrying
    /// the add's dictionary "no-ops on any value change" (OneKey pull request
    /// 8881, deltachat-ios pull request 1650; QA s23, Q08). The explanation
    /// of a delete, a find and an update with data= in the query says so.
    @Test func dataInAQueryIsSaidToSelectNothing() throws {
        let out = try BinaryRunner.run(["run", "-"], stdin: """
            team SKMME9E2Y8
            app so.onekey.wallet as App
            as App add generic-password service="onekey" account="backup" data="old"
            as App find generic-password service="onekey" account="backup" data="other" return=data
            expect data "old"
            explain
            as App update generic-password service="onekey" account="backup" data="other" set label="x"
            explain
            as App delete generic-password service="onekey" account="backup" data="new"
            expect count 1
            explain
            as App add generic-password service="onekey" account="backup" data="new"
            explain

            """)
        #expect(out.status == 0, "\(out.stderr)")
        let said = "data= in the query selected nothing: securityd keeps kSecValueData aside for an add (SecDbQuery.c query_set_data, lines 752-760) "
            + "and matches items on their attributes alone"
        #expect(out.stdout.contains("why: found 1 item; the first is in SKMME9E2Y8.so.onekey.wallet; " + said + "\n"), "\(out.stdout)")
        #expect(out.stdout.contains("why: changed 1 item; " + said + " (the data an update writes goes in its set)\n"), "\(out.stdout)")
        #expect(out.stdout.contains("why: deleted 1 item; " + said + "\n"), "\(out.stdout)")
        // An add's data is its data: nothing said.
        #expect(out.stdout.components(separatedBy: "selected nothing").count == 4, "\(out.stdout)")
    }

    /// An extension whose first keychain group is its own while its app's
    /// default group comes later in its list (rdar 20744541: a Watch
    /// extension listed …watchkitextension first; QA s23, Q03): what it adds
    /// without a group lands where the app cannot read it. KCS505 says so at
    /// the add; the same lists in the app's order, or an extension that
    /// does not list the app's default group, are not warned.
    @Test func anExtensionWhoseOwnGroupComesFirstIsToldWhereItsItemsGo() throws {
        let script = """
            team SKMME9E2Y8
            app com.paperless.pp as App keychain-access-groups=[$(AppIdentifierPrefix)com.paperless.pp]
            app com.paperless.pp.watchkitextension as Watch kind=extension keychain-access-groups=[$(AppIdentifierPrefix)com.paperless.pp.watchkitextension, $(AppIdentifierPrefix)com.paperless.pp]
            as Watch add generic-password service="pp" account="session" data="s"
            expect group SKMME9E2Y8.com.paperless.pp.watchkitextension

            """
        let out = try BinaryRunner.run(["run", "-"], stdin: script)
        #expect(out.status == 0, "\(out.stderr)")
        let warnings = out.stderr.split(separator: "\n").filter { $0.contains("[KCS505]") }
        #expect(warnings.count == 1, "\(out.stderr)")
        #expect(warnings.first?.contains("<stdin>:4:1: warning: this add stores the item in SKMME9E2Y8.com.paperless.pp.watchkitextension, Watch's default group "
                                         + "(element 0 of its list), which App cannot read; App's default group, SKMME9E2Y8.com.paperless.pp, comes later in Watch's list") == true,
                "\(out.stderr)")
        #expect(out.stderr.contains("hint: list SKMME9E2Y8.com.paperless.pp first in Watch's keychain-access-groups, as App does, so that both store what names no group there; "
                                    + "or name it, group=SKMME9E2Y8.com.paperless.pp"), "\(out.stderr)")
        // The fix: the shared group first. The add lands there, no warning.
        let fixed = try BinaryRunner.run(["run", "-"], stdin: script
            .replacingOccurrences(of: "[$(AppIdentifierPrefix)com.paperless.pp.watchkitextension, $(AppIdentifierPrefix)com.paperless.pp]",
                                  with: "[$(AppIdentifierPrefix)com.paperless.pp, $(AppIdentifierPrefix)com.paperless.pp.watchkitextension]")
            .replacingOccurrences(of: "expect group SKMME9E2Y8.com.paperless.pp.watchkitextension", with: "expect group SKMME9E2Y8.com.paperless.pp"))
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(fixed.stderr.isEmpty, "\(fixed.stderr)")
        // An extension that keeps to its own group (it does not list the app's): its private items are no mistake.
        let own = try BinaryRunner.run(["run", "-"], stdin: script
            .replacingOccurrences(of: ", $(AppIdentifierPrefix)com.paperless.pp]", with: "]"))
        #expect(own.status == 0, "\(own.stderr)")
        #expect(!own.stderr.contains("[KCS505]"), "\(own.stderr)")
        // A group named on the add: no warning.
        let named = try BinaryRunner.run(["run", "-"], stdin: script
            .replacingOccurrences(of: "data=\"s\"\n", with: "data=\"s\" group=SKMME9E2Y8.com.paperless.pp.watchkitextension\n"))
        #expect(named.status == 0, "\(named.stderr)")
        #expect(!named.stderr.contains("[KCS505]"), "\(named.stderr)")
    }

    /// errSecMissingEntitlement for a group of the caller's own team that
    /// no entitlement lists (MSAL.NET issue 634: com.microsoft.adalcache;
    /// QA s23, Q06): the explanation says to list it in keychain-access-groups.
    /// Not for another team's group, nor an app group written with a prefix.
    @Test func anUnlistedGroupOfTheOwnTeamIsToldToBeListed() throws {
        func why(_ group: String) throws -> String {
            let out = try BinaryRunner.run(["run", "-"], stdin: """
                team SKMME9E2Y8
                app com.example.xamarin as App
                as App add generic-password service="Msal" account="rt" data="r" group=\(group)
                expect status errSecMissingEntitlement
                explain

                """)
            #expect(out.status == 0, "\(out.stderr)")
            return out.stdout
        }
        #expect(try why("SKMME9E2Y8.com.microsoft.adalcache").contains(
            "why: the call names group \"SKMME9E2Y8.com.microsoft.adalcache\", which is not in App's access groups; to use it, list it in App's "
                + "keychain-access-groups entitlement (Keychain Sharing: $(AppIdentifierPrefix)com.microsoft.adalcache in the entitlements file)\n"))
        #expect(try !why("ABCDE12345.com.microsoft.adalcache").contains("to use it, list it"))
        #expect(try !why("SKMME9E2Y8.group.com.example.suite").contains("to use it, list it"))
    }

    /// Three wordings QA s22 asked for: a Mac app group written the iOS way
    /// (Valet pull request 230; Q08), a batch update's collision moving
    /// nothing (amplify-swift pull request 3811; Q15), and sync=true sending
    /// an unprovisioned Mac app's call to the data-protection keychain
    /// (keychain-swift issues 27 and 125; Q17).
    @Test func theWordingsOfQA22AreSaid() throws {
        let mac = try BinaryRunner.run(["run", "-"], stdin: """
            platform macos 14
            team SKMME9E2Y8
            app com.example.mac as Mac application-groups=[SKMME9E2Y8.com.example.suite]
            as Mac add generic-password service="suite" account="token2" data="t" group=group.com.example.suite data-protection=true
            expect status errSecMissingEntitlement
            explain

            """)
        #expect(mac.status == 0, "\(mac.stderr)")
        // Review 23b B10: not "the group. form is iOS's" — a Mac app group may
        // be group.name too (with a profile, macOS 15+); this app's is TEAMID.name.
        #expect(mac.stdout.contains("\"group\" is no team ID: Mac's app group is SKMME9E2Y8.com.example.suite, in the Mac's TEAMID.name form; a Mac app group may also be group.name, with a provisioning profile that grants it (macOS 15 and later), but that is another group"),
                "\(mac.stdout)")
        let batch = try BinaryRunner.run(["run", "-"], stdin: """
            team SKMME9E2Y8
            app com.example.app as App keychain-access-groups=[$(AppIdentifierPrefix)com.example.shared]
            as App add generic-password service="auth" account="session" group=SKMME9E2Y8.com.example.app
            as App add generic-password service="auth" account="deviceId" group=SKMME9E2Y8.com.example.app
            as App add generic-password service="auth" account="session" group=SKMME9E2Y8.com.example.shared
            as App update generic-password service="auth" group=SKMME9E2Y8.com.example.app set group=SKMME9E2Y8.com.example.shared
            expect status errSecDuplicateItem
            explain

            """)
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(batch.stdout.contains("; the update is one transaction (SecItemServer.c kc_transaction): none of the 2 items it matched changed\n"), "\(batch.stdout)")
        let sync = try BinaryRunner.run(["run", "-"], stdin: """
            platform macos 14
            team SKMME9E2Y8
            app com.evgenii.KeychainSwiftDemo as Demo signing=unprovisioned
            as Demo add generic-password account="KeyName" data="Value" sync=true
            expect status errSecMissingEntitlement
            explain
            as Demo add generic-password account="KeyName" data="Value" data-protection=true
            expect status errSecMissingEntitlement
            explain

            """)
        #expect(sync.status == 0, "\(sync.stderr)")
        let routed = "; sync=true sent the call there (SecItem.cpp SecItemCategorizeQuery): without it the call goes to the file-based keychain, which needs no entitlement"
        #expect(sync.stdout.components(separatedBy: routed).count == 2, "said for the sync=true call alone: \(sync.stdout)")
    }
}
