import Foundation
import KCSSecItem
import Testing

/// semantics.md section 1, through the SecItem-shaped API.
@Suite("1. Who may touch what")
struct Section1AccessGroupTests {
    @Test("1.1 an extension inherits nothing from its app")
    func extensionInheritsNothing() {
        let world = standardWorld()
        let one = world.client("One"), widget = world.client("Widget")
        #expect(one.add(password([kSecValueData: Data("tok".utf8)])) == errSecSuccess)
        // Searched without a group: the shared item is simply invisible.
        #expect(widget.find(password([kSecReturnData: true])).0 == errSecItemNotFound)
        // Named: the widget lacks the entitlement.
        #expect(widget.find(password([kSecAttrAccessGroup: "SKMME9E2Y8.com.example.Shared"])).0
                == errSecMissingEntitlement)
    }

    @Test("1.3 / 1.5 the default group is the first keychain access group")
    func defaultGroupIsFirstKeychainGroup() {
        let world = standardWorld()
        var result: CFTypeRef?
        #expect(world.client("One").add(password([kSecReturnAttributes: true]), &result) == errSecSuccess)
        let attributes = result as? [String: Any]
        #expect(attributes?[kSecAttrAccessGroup] as? String == "SKMME9E2Y8.com.example.Shared")
    }

    @Test("1.5 without keychain groups the app ID is the default, never an app group")
    func appIDIsDefaultWithoutKeychainGroups() {
        let world = makeWorld("""
            team SKMME9E2Y8
            app com.example.Solo application-groups=[group.com.example.Suite]
            """)
        var result: CFTypeRef?
        #expect(world.client("Solo").add(password([kSecReturnAttributes: true]), &result) == errSecSuccess)
        #expect((result as? [String: Any])?[kSecAttrAccessGroup] as? String == "SKMME9E2Y8.com.example.Solo")
        // The app group is usable when named.
        #expect(world.client("Solo").add(password(account: "b", [kSecAttrAccessGroup: "group.com.example.Suite"]))
                == errSecSuccess)
    }

    @Test("1.4 a group must be written with its team prefix")
    func groupNeedsTeamPrefix() {
        let world = standardWorld()
        #expect(world.client("One").add(password([kSecAttrAccessGroup: "com.example.Shared"]))
                == errSecMissingEntitlement)
        #expect(world.client("One").add(password([kSecAttrAccessGroup: "SKMME9E2Y8.com.example.Shared"]))
                == errSecSuccess)
    }

    @Test("1.6 an unsigned target gets errSecMissingEntitlement from every call")
    func unsignedTarget() {
        let world = makeWorld("app com.example.Unsigned as U team=none")
        let u = world.client("U")
        #expect(u.add(password()) == errSecMissingEntitlement)
        #expect(u.find(password()).0 == errSecMissingEntitlement)
        #expect(u.update(password(), [kSecAttrLabel: "x"]) == errSecMissingEntitlement)
        #expect(u.delete(password()) == errSecMissingEntitlement)
        // Even before the class is looked at.
        #expect(u.add([:]) == errSecMissingEntitlement)
    }

    @Test("1.7 items of different teams never share a group")
    func teamsNeverShare() {
        let world = standardWorld()
        #expect(world.client("One").add(password()) == errSecSuccess)
        #expect(world.client("Other").find(password()).0 == errSecItemNotFound)
        #expect(world.client("Other").find(password([kSecAttrAccessGroup: "SKMME9E2Y8.com.example.Shared"])).0
                == errSecMissingEntitlement)
        // The sharing app of the same team finds it.
        #expect(world.client("Two").find(password()).0 == errSecSuccess)
    }
}
