import Foundation
import Testing

/// QA trial 22 (real-world keychain problems replayed): what the built
/// binary says where the trial found the explanation or the lint did not
/// lead to the fix.
@Suite struct QA22Tests {
    /// The catch-the-read-error, delete, regenerate pattern
    /// (flutter_secure_storage issues 727 and 354; QA s22, Q30): the read's
    /// errSecInteractionNotAllowed meant the item exists and the device is
    /// locked; the delete goes on under the lock, and its explanation and a
    /// lint (KCS518) say the data is gone.
    @Test func aDeleteUnderTheLockAfterALockedReadSaysTheDataIsLost() throws {
        let script = """
            team SKMME9E2Y8
            app com.example.hiveapp as App
            as App add generic-password service="fss" account="hiveKey" data="K1"
            lock
            as App find generic-password service="fss" account="hiveKey" return=data
            expect status errSecInteractionNotAllowed
            as App delete generic-password service="fss" account="hiveKey"
            expect status errSecSuccess
            explain

            """
        let out = try BinaryRunner.run(["run", "-"], stdin: script)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("why: deleted 1 item; it (generic-password account=\"hiveKey\" service=\"fss\" in SKMME9E2Y8.com.example.hiveapp, when-unlocked) "
                                    + "existed and could not be read only because this device is locked: a delete needs no class key"), "\(out.stdout)")
        #expect(out.stdout.contains("so its data is gone for good"), "\(out.stdout)")
        let warnings = out.stderr.split(separator: "\n").filter { $0.contains("[KCS518]") }
        #expect(warnings.count == 1, "\(out.stderr)")
        #expect(warnings.first?.contains("the find at line 5 got errSecInteractionNotAllowed for") == true, "\(out.stderr)")
        #expect(out.stderr.contains("hint: errSecInteractionNotAllowed on a read means the item exists and the device is locked"), "\(out.stderr)")

        // Unlocked first: the delete removes readable data on purpose; no warning, no lock sentence.
        let unlocked = try BinaryRunner.run(["run", "-"], stdin: script.replacingOccurrences(
            of: "expect status errSecInteractionNotAllowed\n", with: "expect status errSecInteractionNotAllowed\nunlock\n"))
        #expect(unlocked.status == 0, "\(unlocked.stderr)")
        #expect(!unlocked.stderr.contains("[KCS518]"), "\(unlocked.stderr)")
        #expect(unlocked.stdout.contains("why: deleted 1 item\n"), "\(unlocked.stdout)")
        // No earlier locked read: the explanation says it, the lint is quiet.
        let noRead = try BinaryRunner.run(["run", "-"], stdin: script.replacingOccurrences(
            of: "as App find generic-password service=\"fss\" account=\"hiveKey\" return=data\nexpect status errSecInteractionNotAllowed\n", with: ""))
        #expect(noRead.status == 0, "\(noRead.stderr)")
        #expect(!noRead.stderr.contains("[KCS518]"), "\(noRead.stderr)")
        #expect(noRead.stdout.contains("so its data is gone for good"), "\(noRead.stdout)")
    }

    /// An attribute of another class (OAuthKit issue 81: an application tag
    /// on generic passwords passed a year of macOS CI, visionOS answered
    /// -25303; QA s22, Q14): lint KCS519 on both routes, and the Mac
    /// file-keychain add's explanation says the attribute was dropped.
    @Test func anAttributeOfAnotherClassIsLintedAndTheFileKeychainSaysItDroppedIt() throws {
        let mac = try BinaryRunner.run(["run", "-"], stdin: """
            platform macos 15
            team SKMME9E2Y8
            app com.example.oauthkit as App
            as App add generic-password account="github" data="tok" application-tag="oauthkit"
            expect status errSecSuccess
            explain

            """)
        #expect(mac.status == 0, "\(mac.stderr)")
        #expect(mac.stdout.contains("; it dropped application-tag, which is not a generic-password attribute: the data-protection keychain "
                                    + "(iOS, watchOS, Mac Catalyst, data-protection=true) refuses it with errSecNoSuchAttr"), "\(mac.stdout)")
        let macWarning = mac.stderr.split(separator: "\n").filter { $0.contains("[KCS519]") }
        #expect(macWarning.count == 1, "\(mac.stderr)")
        #expect(macWarning.first?.contains("application-tag (kSecAttrApplicationTag) is not a generic-password attribute: the Mac's file-based keychain drops it without a word, so this call succeeds") == true,
                "\(mac.stderr)")
        #expect(mac.stderr.contains("hint: drop application-tag=: generic-password items have service, account, label, generic, comment, description, creator, type"),
                "\(mac.stderr)")
        let ios = try BinaryRunner.run(["run", "-"], stdin: """
            team SKMME9E2Y8
            app com.example.oauthkit as App
            as App add generic-password account="github" data="tok" application-tag="oauthkit"

            """)
        #expect(ios.stderr.contains("is not a generic-password attribute: the data-protection keychain answers errSecNoSuchAttr"), "\(ios.stderr)")
        // An attribute of the class is no warning.
        let fine = try BinaryRunner.run(["run", "-"], stdin: "platform macos 15\nteam SKMME9E2Y8\napp com.example.A\nas A add key application-tag=\"t\" key-class=private\n")
        #expect(!fine.stderr.contains("[KCS519]"), "\(fine.stderr)")
    }

    /// A file-keychain prompt the user approves says why it asked (QA s22,
    /// Q26: KeychainAccess issue 382's embedded tool, Q27: mactrix issue 49's
    /// ad-hoc rebuild; s21 Q24), and KCS506 does not send a caller with no
    /// keychain entitlement to data-protection=true, where it gets -34018.
    @Test func anApprovedFileKeychainPromptSaysWhyItAsked() throws {
        let tool = try BinaryRunner.run(["run", "-"], stdin: """
            platform macos 14
            team 24F6D23HXS
            app com.obfuscated.app-name as App keychain-access-groups=[$(AppIdentifierPrefix)com.obfuscated.app-name]
            app com.obfuscated.app-name.askpass as Tool signing=no-app-id
            as App add generic-password service="s" account="server" data="pw" group=24F6D23HXS.com.obfuscated.app-name
            user approves
            as Tool find generic-password service="s" account="server" group=24F6D23HXS.com.obfuscated.app-name return=data
            expect data "pw"
            explain

            """)
        #expect(tool.status == 0, "\(tool.stderr)")
        #expect(tool.stdout.contains("prompts answered: approves\nasked because: the item in the macOS file-based keychain belongs to another app, App (com.obfuscated.app-name): "
                                     + "its access list trusts the app that made it, not Tool (the group= the call names does not count in the file keychain)"), "\(tool.stdout)")
        let hints = tool.stderr.split(separator: "\n").filter { $0.hasPrefix("hint: ") }
        #expect(hints.count == 2, "\(tool.stderr)")
        #expect(hints.first?.hasPrefix("hint: add data-protection=true") == true, "App has a keychain group: \(tool.stderr)")
        #expect(hints.last?.hasPrefix("hint: Tool has no keychain entitlement that counts on the Mac") == true, "\(tool.stderr)")
        #expect(hints.last?.contains("so data-protection=true gives it errSecMissingEntitlement") == true, "\(tool.stderr)")

        let rebuilt = try BinaryRunner.run(["run", "-"], stdin: """
            platform macos 15
            app chat.mactrix as Mactrix team=none
            as Mactrix add generic-password service="mactrix" account="session" data="s"
            resign Mactrix
            user always-allows
            as Mactrix find generic-password service="mactrix" account="session" return=data
            expect data "s"
            explain

            """)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(rebuilt.stdout.contains("asked because: the item's access list in the macOS file-based keychain trusts the app as it was signed before "
                                        + "('resign' or 'transfer': the list holds its designated requirement): its code signature changed"), "\(rebuilt.stdout)")
        #expect(rebuilt.stdout.contains("Always Allow trusts it as signed now"), "\(rebuilt.stdout)")
    }

    /// The raw codes of the kSecAttrAccessible constants (`ck`, what
    /// attribute dumps print) are accessibility values, and KCS205 says what
    /// a device answers for an unknown one (p2/OAuth2 issue 267: -50; QA
    /// s22, Q29).
    @Test func accessibilityCodesAreAcceptedAndAnUnknownOneIsErrSecParamOnADevice() throws {
        let codes = try BinaryRunner.run(["run", "-"], stdin: """
            team SKMME9E2Y8
            app com.example.App
            as App add generic-password account="a" accessible=ck
            expect item accessible=after-first-unlock
            as App add generic-password account="b" accessible="akpu"
            expect item accessible=when-passcode-set-this-device-only
            as App add generic-password account="c" access-control=[dku, user-presence]
            expect item accessible=always-this-device-only
            as App find generic-password account="a" accessible=ck
            expect status errSecSuccess

            """)
        #expect(codes.status == 0, "\(codes.stderr)")
        let unknown = try BinaryRunner.run(["run", "-"], stdin: "team SKMME9E2Y8\napp com.example.App\nas App add generic-password account=\"a\" accessible=kSecAttrAccessibleAfterFirstUnlockk\n")
        #expect(unknown.status == 65, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("[KCS205]"), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("on a device a kSecAttrAccessible value that is none of the constants' values (akpu, ak, aku, ck, cku, dk, dku) is errSecParam, -50"),
                "\(unknown.stderr)")
    }

    /// A generic-password query whose account is an internet password's
    /// server (react-native-keychain's setInternetCredentials read back by a
    /// widget; QA s22, Q05): the explanation points at it.
    @Test func aGenericQueryNamesTheInternetPasswordWhoseServerIsItsAccount() throws {
        let out = try BinaryRunner.run(["run", "-"], stdin: """
            team SKMME9E2Y8
            app com.example.App
            as App add internet-password server="device-id" account="RANDOMDATA" data="uuid"
            as App find generic-password account="device-id" return=data
            expect status errSecItemNotFound
            explain

            """)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("1 internet-password item has server \"device-id\", the query's account, e.g. internet-password"), "\(out.stdout)")
        #expect(out.stdout.contains("ask for class internet-password (a wrapper's setInternetCredentials(server, username, password)"), "\(out.stdout)")
    }

    /// A read an access control stopped under auth-ui=fail says that the
    /// access control, not the class, asks on every read without a context
    /// (stackoverflow question 51468573; QA s22, Q23).
    @Test func aPromptForbiddenByAuthUISaysTheAccessControlAsksNotTheClass() throws {
        let out = try BinaryRunner.run(["run", "-"], stdin: """
            team SKMME9E2Y8
            app com.example.App
            as App add generic-password account="u" data="s" access-control=[after-first-unlock-this-device-only, biometry-current-set]
            as App find generic-password account="u" return=data auth-ui=fail
            expect status errSecInteractionNotAllowed
            explain

            """)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("why: the item needs a prompt and auth-ui=fail forbids one: its access control (biometry-current-set) asks on every read "
                                    + "without an authenticated context=, while its class, after-first-unlock-this-device-only, governs the lock state only"),
                "\(out.stdout)")
    }

    /// A call that passed a context is told what the context lacks, not to
    /// pass one: a context authenticated with the application password
    /// alone opens no constraint (secd-81-item-acl.m line 282), and one
    /// never authenticated on the device opens nothing (review 22b, R12).
    @Test func aPromptForbiddenByAuthUIWithAContextSaysWhatTheContextLacks() throws {
        let out = try BinaryRunner.run(["run", "-"], stdin: """
            team SKMME9E2Y8
            app com.example.App
            as App add generic-password account="p" data="pw" access-control=[application-password]
            as App add generic-password account="u" data="s" access-control=[user-presence]
            context C
            context D
            user approves
            as App find generic-password account="p" return=data context=C
            expect data "pw"
            as App find generic-password account="u" return=data context=C auth-ui=fail
            expect status errSecInteractionNotAllowed
            explain
            as App find generic-password account="u" return=data context=D auth-ui=fail
            expect status errSecInteractionNotAllowed
            explain

            """)
        #expect(out.status == 0, "\(out.stderr)")
        let why = out.stdout.split(separator: "\n").filter { $0.hasPrefix("why: ") }
        #expect(why.count == 2, "\(out.stdout)")
        #expect(why.first?.contains("its access control (user-presence) is not opened by context C, which was authenticated with the application password only") == true,
                "\(out.stdout)")
        #expect(why.last?.contains("context D was not authenticated on this device") == true, "\(out.stdout)")
        #expect(!why.contains { $0.contains("pass one LAContext") }, "\(out.stdout)")
    }

    /// A writer that cannot name a group (a library without an access-group
    /// option) is offered the third route in KCS505 and KCS502: one Keychain
    /// Sharing group first in both targets (react-native-encrypted-storage
    /// issue 93, GTMAppAuth issue 95; QA s22, Q02).
    @Test func theAppGroupHintsOfferKeychainSharingFirstInBothForAWriterWithoutAGroupOption() throws {
        let out = try BinaryRunner.run(["run", "-"], stdin: """
            team SKMME9E2Y8
            app com.example.appName as App application-groups=[group.com.appName]
            app com.example.appName.share as Share kind=extension application-groups=[group.com.appName]
            as App add generic-password service="RNEncryptedStorage" account="token" data="t1"
            as Share find generic-password service="RNEncryptedStorage" account="token" return=data
            expect status errSecItemNotFound

            """)
        #expect(out.status == 0, "\(out.stderr)")
        let hints = out.stderr.split(separator: "\n").filter { $0.hasPrefix("hint: ") }
        #expect(hints.count == 2, "\(out.stderr)")
        for h in hints {
            #expect(h.hasSuffix("; or, when the writer cannot pass a group (a library without an access-group option, such as react-native-encrypted-storage "
                                + "or GTMAppAuth), list one Keychain Sharing group first in the keychain-access-groups of both App and Share: it becomes the default group of both"),
                    "\(h)")
        }
    }
}
