import Foundation
import KCSSecItem
import Testing

/// How securityd and the Mac's client read values of a type they do not
/// expect, and where in the order a refusal comes (conformance audit 19).
@Suite("Value reading")
struct ValueReadingTests {
    /// copyNumber (SecDbItem.c 131-151) reads "1" and "0" as numbers and a
    /// whole Double as its integer (the column is INTEGER, SecItemDb.c
    /// 114-117); only 1 is synchronizable (SecDbItem.c 634-640). A stored
    /// 2 or "yes" syncs nowhere, which kcs does not model (F2).
    @Test("kSecAttrSynchronizable as a decimal string or a Double", arguments: ["ios 18", "macos 15"])
    func syncAsDecimalString(platform: String) {
        let one = standardWorld(platform: platform).client("One")
        let dp: [String: Any] = platform.hasPrefix("macos") ? [kSecUseDataProtectionKeychain: true] : [:]
        func with(_ extra: [String: Any]) -> [String: Any] { extra.merging(dp) { a, _ in a } }
        #expect(one.add(password(account: "s1", with([kSecAttrSynchronizable: "1", kSecValueData: Data("x".utf8)]))) == errSecSuccess)
        #expect(one.find(password(account: "s1", with([kSecAttrSynchronizable: true]))).0 == errSecSuccess)
        #expect(one.find(password(account: "s1", with([kSecAttrSynchronizable: "1"]))).0 == errSecSuccess)
        #expect(one.find(password(account: "s1", with([:]))).0 == errSecItemNotFound, "the default filter is sync = 0")
        #expect(one.add(password(account: "s0", with([kSecAttrSynchronizable: "0", kSecValueData: Data("x".utf8)]))) == errSecSuccess)
        #expect(one.find(password(account: "s0", with([:]))).0 == errSecSuccess)
        #expect(one.add(password(account: "sd", with([kSecAttrSynchronizable: 1.0, kSecValueData: Data("x".utf8)]))) == errSecSuccess)
        #expect(one.find(password(account: "sd", with([kSecAttrSynchronizable: true]))).0 == errSecSuccess)
        for odd in [2, "yes", "2", 1.5, "+1"] as [Any] {
            #expect(one.add(password(account: "odd", with([kSecAttrSynchronizable: odd, kSecValueData: Data("x".utf8)])))
                    == errSecUnimplemented, "\(odd)")
            #expect(one.find(password(account: "s1", with([kSecAttrSynchronizable: odd]))).0 == errSecUnimplemented, "\(odd)")
        }
        // copyNumber fails for a data: errSecParam.
        #expect(one.find(password(account: "s1", with([kSecAttrSynchronizable: Data("1".utf8)]))).0 == errSecParam)
    }

    /// The client's "not synchronizable" check compares with kCFBooleanTrue
    /// only (SecItem.m 1657-1660): "1" with an access control passes it and
    /// no check of securityd refuses the pair, which kcs does not model.
    @Test("a synchronizable value that is no Boolean, with an access control")
    func syncStringWithAccessControl() {
        let one = standardWorld().client("One")
        let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil) as Any
        #expect(one.add(password([kSecAttrSynchronizable: true, kSecAttrAccessControl: access])) == errSecParam)
        #expect(one.add(password([kSecAttrSynchronizable: "1", kSecAttrAccessControl: access])) == errSecUnimplemented)
        #expect(one.add(password([kSecAttrSynchronizable: "0", kSecAttrAccessControl: access])) == errSecSuccess)
    }

    /// SecItem.cpp: an update's and a delete's query lose the return keys
    /// (pruneReturn) and, on the data-protection side, the match keys
    /// (pruneMatch), so their types are never checked (F3).
    @Test("the Mac prunes wrongly typed return keys and limits", arguments: ["macos 15", "catalyst 18"])
    func macPrunesReturnAndLimit(platform: String) {
        let one = standardWorld(platform: platform).client("One")
        let dp: [String: Any] = [kSecUseDataProtectionKeychain: true]
        #expect(one.add(password(dp.merging([kSecValueData: Data("pw".utf8)]) { a, _ in a })) == errSecSuccess)
        #expect(one.update(password(dp.merging([kSecReturnData: "yes", kSecMatchLimit: "bogus"]) { a, _ in a }),
                           [kSecAttrLabel: "l"]) == errSecSuccess)
        #expect(one.update(password(dp.merging([kSecReturnAttributes: 1]) { a, _ in a }), [kSecAttrLabel: "m"]) == errSecSuccess)
        #expect(one.delete(password(dp.merging([kSecReturnData: 1, kSecMatchLimit: "bogus"]) { a, _ in a })) == errSecSuccess)
        // iOS's securityd sees them.
        let phone = standardWorld().client("One")
        #expect(phone.add(password([kSecValueData: Data("pw".utf8)])) == errSecSuccess)
        #expect(phone.delete(password([kSecReturnData: 1])) == errSecParam)
    }

    /// macOS without the flag: an add goes to the file keychain, which
    /// drops the group, accessibility and sync and reads a return key as
    /// "equals true" (SecItem.cpp 3115-3124, 4820-4824); a find reaches
    /// both keychains, and the merge takes the file side's status when the
    /// data-protection side fails (4893-4899).
    @Test("the Mac's file keychain ignores what it drops")
    func macFileSideIgnoresDroppedValues() {
        let world = standardWorld(platform: "macos 15")
        let one = world.client("One")
        #expect(one.add(password(account: "f", [kSecValueData: Data("pw".utf8), kSecReturnAttributes: "yes"])) == errSecSuccess)
        for (label, extra) in [("accessible", [kSecAttrAccessible: "bogus"] as [String: Any]),
                               ("group", [kSecAttrAccessGroup: 7]), ("sync", [kSecAttrSynchronizable: "yes"])] {
            #expect(one.add(password(account: "file-\(label)", extra.merging([kSecValueData: Data("pw".utf8)]) { a, _ in a }))
                    == errSecSuccess, "\(label)")
        }
        #expect(one.find(password(account: "f", [kSecReturnData: 1])).0 == errSecSuccess)
        #expect(one.find(password(account: "f", [kSecMatchLimit: "bogus"])).0 == errSecSuccess)
        // The file side checks the limit's type itself (SecItem.cpp 2982).
        #expect(one.find(password(account: "f", [kSecMatchLimit: true])).0 == errSecParam)
        // An item only on the data-protection side: its errSecParam leaves
        // the file side's errSecItemNotFound.
        #expect(one.add(password(account: "d", [kSecValueData: Data("pw".utf8), kSecUseDataProtectionKeychain: true])) == errSecSuccess)
        #expect(one.find(password(account: "d", [kSecReturnData: 1])).0 == errSecItemNotFound)
        #expect(one.find(password(account: "d", [kSecReturnData: true])).0 == errSecSuccess)
    }

    /// copyString converts a data (SecDbItem.c 61-72); the group check
    /// reads the converted value in a find (SecItemServer.c 2590-2600) and
    /// the raw one elsewhere, where only a string is allowed (1436-1442) (F4).
    @Test("an access group that is no string")
    func groupNotAString() {
        let one = standardWorld().client("One")
        let shared = "SKMME9E2Y8.com.example.Shared"
        #expect(one.add(password(account: "g", [kSecAttrAccessGroup: shared, kSecValueData: Data("x".utf8)])) == errSecSuccess)
        let data = Data(shared.utf8)
        #expect(one.find(password(account: "g", [kSecAttrAccessGroup: data])).0 == errSecSuccess)
        #expect(one.add(password(account: "h", [kSecAttrAccessGroup: data, kSecValueData: Data("x".utf8)])) == errSecMissingEntitlement)
        #expect(one.update(password(account: "g", [kSecAttrAccessGroup: 7]), [kSecAttrLabel: "l"]) == errSecMissingEntitlement)
        #expect(one.delete(password(account: "g", [kSecAttrAccessGroup: data])) == errSecMissingEntitlement)
        #expect(one.update(password(account: "g"), [kSecAttrAccessGroup: 7]) == errSecMissingEntitlement)
        #expect(one.update(password(account: "g"), [kSecAttrAccessGroup: data]) == errSecMissingEntitlement)
        // The parse comes first in an add and a find.
        #expect(one.add(password(account: "n", [kSecAttrAccessGroup: 7, kSecValueData: Data("x".utf8)])) == errSecParam)
        #expect(one.find(password(account: "g", [kSecAttrAccessGroup: 7])).0 == errSecParam)
        #expect(one.find(password(account: "g", [kSecAttrAccessGroup: Data([0xFF])])).0 == errSecParam)
    }

    /// securityd checks the caller's entitlement before it parses, and for
    /// update and delete the query's group too (SecItemServer.c 2550-2588,
    /// 2697-2705, 3137-3160, 3249-3269); the client's own checks come
    /// before both (SecItem.m 1646-1683) (F5).
    @Test("a value fault comes at securityd's parse")
    func valueFaultsAtTheParse() {
        let host = makeWorld("platform ios 18\nteam SKMME9E2Y8\napp com.example.Host team=none").client("Host")
        #expect(host.add(password([kSecValueData: "x"])) == errSecMissingEntitlement)
        #expect(host.find(password([kSecReturnData: "yes"])).0 == errSecMissingEntitlement)
        #expect(host.delete(password([kSecMatchLimit: "bogus"])) == errSecMissingEntitlement)
        #expect(host.add(password(["kSecAttrColour": "red"])) == errSecMissingEntitlement)
        // The client's checks still come first.
        #expect(host.add(password([kSecAttrAccessControl: "user-presence"])) == errSecParam)
        #expect(host.delete(password([kSecUseAuthenticationUI: kSecUseAuthenticationUISkip, kSecMatchLimit: "bogus"])) == errSecParam)
        let one = standardWorld().client("One")
        #expect(one.update(password([kSecAttrAccessGroup: "com.other.Group", kSecAttrAccessible: "bogus"]),
                           [kSecAttrLabel: "l"]) == errSecMissingEntitlement)
        #expect(one.delete(password([kSecAttrAccessGroup: "com.other.Group", kSecReturnData: "yes"])) == errSecMissingEntitlement)
        // A find parses before its group check.
        #expect(one.find(password([kSecAttrAccessGroup: "com.other.Group", kSecReturnData: "yes"])).0 == errSecParam)
        // A value among an update's changes: after the new group's check.
        #expect(one.add(password([kSecValueData: Data("x".utf8)])) == errSecSuccess)
        #expect(one.update(password(), [kSecAttrAccessGroup: "com.other.Group", kSecAttrAccessible: "bogus"]) == errSecMissingEntitlement)
        #expect(one.update(password(), [kSecAttrAccessible: "bogus"]) == errSecParam)
    }
}
