import Foundation
import KCSSecItem
import KeychainEngine
import Testing

/// semantics.md section 3, through the SecItem-shaped API.
@Suite("3. The four calls")
struct Section3CallTests {
    // MARK: Common rules

    @Test("3 a missing class, or a class that is no string, is errSecParam")
    func missingClass() {
        let one = standardWorld().client("One")
        #expect(one.add([kSecAttrAccount: "a"]) == errSecParam)
        #expect(one.add([kSecClass: 42, kSecAttrAccount: "a"]) == errSecParam)
        #expect(one.find([kSecAttrAccount: "a"]).0 == errSecParam)
        #expect(one.delete([kSecAttrAccount: "a"]) == errSecParam)
    }

    /// securityd's `query_get_class` (SecDbQuery.c line 603): a class string
    /// that names no class is errSecNoSuchClass, after the caller's list and
    /// an update's or delete's group check (audit 18, F3). On the Mac
    /// without the data-protection flag the file keychain's errSecParam
    /// (SecItem.cpp 3064-3074) is what the merge keeps.
    @Test("3 a class string that names no class is errSecNoSuchClass",
          arguments: ["ios 18", "watchos 11", "catalyst 18", "macos 15"])
    func unknownClass(platform: String) {
        let one = standardWorld(platform: platform).client("One")
        let flag: [String: Any] = platform.hasPrefix("macos") ? [kSecUseDataProtectionKeychain: true] : [:]
        func query(_ more: [String: Any] = [:]) -> [String: Any] {
            [kSecClass: "kSecClassPassword", kSecAttrAccount: "a"].merging(flag) { a, _ in a }.merging(more) { a, _ in a }
        }
        #expect(one.add(query()) == errSecNoSuchClass)
        #expect(one.find(query()).0 == errSecNoSuchClass)
        #expect(one.update(query(), [kSecAttrLabel: "x"]) == errSecNoSuchClass)
        #expect(one.delete(query()) == errSecNoSuchClass)
        // The group check of update and delete comes first.
        #expect(one.delete(query([kSecAttrAccessGroup: "ABCDE12345.other"])) == errSecMissingEntitlement)
        if platform.hasPrefix("macos") {
            #expect(one.find([kSecClass: "kSecClassPassword", kSecAttrAccount: "a"]).0 == errSecParam)
        }
    }

    @Test("3 queries that do not mention synchronizable match only non-synchronizable items")
    func syncFilter() {
        let one = standardWorld().client("One")
        #expect(one.add(password([kSecAttrSynchronizable: true])) == errSecSuccess)
        #expect(one.find(password()).0 == errSecItemNotFound)
        #expect(one.find(password([kSecAttrSynchronizable: kSecAttrSynchronizableAny])).0 == errSecSuccess)
        #expect(one.find(password([kSecAttrSynchronizable: true])).0 == errSecSuccess)
        #expect(one.find(password([kSecAttrSynchronizable: false])).0 == errSecItemNotFound)
        #expect(one.delete(password()) == errSecItemNotFound)
        #expect(one.delete(password([kSecAttrSynchronizable: kSecAttrSynchronizableAny])) == errSecSuccess)
    }

    @Test("3 accessibility named in a query filters on it")
    func accessibilityFilter() {
        let one = standardWorld().client("One")
        #expect(one.add(password([kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock])) == errSecSuccess)
        #expect(one.find(password([kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked])).0 == errSecItemNotFound)
        #expect(one.find(password([kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock])).0 == errSecSuccess)
    }

    // MARK: Add

    @Test("add: an explicit group not in the list, the empty string included", arguments: [
        "", "SKMME9E2Y8.com.example.Two", "ABCDE12345.com.other.App", "group.com.example.Suite",
    ])
    func addUnentitledGroup(group: String) {
        #expect(standardWorld().client("One").add(password([kSecAttrAccessGroup: group])) == errSecMissingEntitlement)
    }

    @Test("add: accessibility together with access control is errSecParam")
    func accessibilityWithAccessControl() throws {
        let ac = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil))
        let one = standardWorld().client("One")
        #expect(one.add(password([kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked, kSecAttrAccessControl: ac]))
                == errSecParam)
        #expect(one.add(password([kSecAttrAccessControl: ac])) == errSecSuccess)
    }

    @Test("add: synchronizable with access control is errSecParam")
    func syncWithAccessControl() throws {
        let ac = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .biometryAny, nil))
        #expect(standardWorld().client("One").add(password([kSecAttrSynchronizable: true, kSecAttrAccessControl: ac]))
                == errSecParam)
    }

    @Test("add: synchronizable with a this-device-only accessibility succeeds")
    func syncThisDeviceOnly() {
        #expect(standardWorld().client("One").add(password([
            kSecAttrSynchronizable: true, kSecAttrAccessible: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        ])) == errSecSuccess)
    }

    @Test("add: when-passcode-set without a passcode")
    func passcodeRequired() throws {
        let world = standardWorld()
        world.modify { $0.setPasscode(false) }
        let one = world.client("One")
        #expect(one.add(password([kSecAttrAccessible: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly]))
                == errSecAuthFailed)
        let ac = try #require(SecAccessControlCreateWithFlags(
            nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .userPresence, nil))
        #expect(one.add(password([kSecAttrAccessControl: ac])) == errSecNotAvailable)
    }

    @Test("add: a locked device refuses before the duplicate check")
    func lockedBeforeDuplicate() {
        let world = standardWorld()
        let one = world.client("One")
        #expect(one.add(password()) == errSecSuccess)
        world.modify { $0.lock() }
        #expect(one.add(password()) == errSecInteractionNotAllowed)
        #expect(one.add(password(account: "b", [kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock]))
                == errSecSuccess)
        #expect(one.add(password(account: "b", [kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock]))
                == errSecDuplicateItem)
    }

    /// Wrapper code that adds its query dictionary, limit and all: securityd's
    /// s3dl_query_add returns errSecItemMatchUnsupported as a bool, so the
    /// add succeeds and stores nothing (SecItemDb.c, Security-61901.0.87.0.1).
    @Test("add: a match limit reports success and stores nothing", arguments: [kSecMatchLimitOne, kSecMatchLimitAll])
    func addWithMatchLimit(limit: String) {
        let one = standardWorld().client("One")
        #expect(one.add(password([kSecMatchLimit: limit, kSecValueData: Data("x".utf8)])) == errSecSuccess)
        #expect(one.find(password()).0 == errSecItemNotFound)
    }

    // MARK: Find

    @Test("find: an explicit unentitled group depends on the version", arguments: [
        ("ios 13", errSecMissingEntitlement), ("ios 18", errSecMissingEntitlement), ("ios 12", errSecItemNotFound),
    ])
    func findUnentitledGroup(platform: String, expected: OSStatus) {
        let world = standardWorld(platform: platform)
        #expect(world.client("Two").add(password(account: "x", [kSecAttrAccessGroup: "SKMME9E2Y8.com.example.Two"]))
                == errSecSuccess)
        #expect(world.client("One").find(password(account: "x", [kSecAttrAccessGroup: "SKMME9E2Y8.com.example.Two"])).0
                == expected)
    }

    @Test("find: without a group every group of the list is searched")
    func searchesEveryGroup() {
        let world = standardWorld()
        let one = world.client("One")
        #expect(one.add(password(account: "a", [kSecAttrAccessGroup: "SKMME9E2Y8.com.example.One"])) == errSecSuccess)
        #expect(one.add(password(account: "b")) == errSecSuccess)
        let (status, result) = one.find([kSecClass: kSecClassGenericPassword, kSecMatchLimit: kSecMatchLimitAll,
                                         kSecReturnAttributes: true])
        #expect(status == errSecSuccess)
        #expect((result as? [[String: Any]])?.count == 2)
        // Two sees only the shared one.
        let (_, seen) = world.client("Two").find([kSecClass: kSecClassGenericPassword,
                                                  kSecMatchLimit: kSecMatchLimitAll, kSecReturnAttributes: true])
        #expect((seen as? [[String: Any]])?.compactMap { $0[kSecAttrAccount] as? String } == ["b"])
    }

    @Test("find: match limit and return shapes")
    func limitsAndShapes() {
        let one = standardWorld().client("One")
        for (i, name) in ["a", "b", "c"].enumerated() {
            #expect(one.add(password(account: name, [kSecValueData: Data([UInt8(i)])])) == errSecSuccess)
        }
        let base: [String: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrService: "auth"]
        // Default limit one: a single Data.
        #expect(one.find(base.merging([kSecReturnData: true]) { _, b in b }).1 as? Data == Data([0]))
        // All: an array, in insertion order.
        let all = one.find(base.merging([kSecReturnData: true, kSecMatchLimit: kSecMatchLimitAll]) { _, b in b }).1
        #expect(all as? [Data] == [Data([0]), Data([1]), Data([2])])
        // A number caps it, still as an array.
        let two = one.find(base.merging([kSecReturnData: true, kSecMatchLimit: 2]) { _, b in b }).1
        #expect((two as? [Data])?.count == 2)
        // Attributes and data together: dictionaries with kSecValueData.
        let both = one.find(base.merging([kSecReturnData: true, kSecReturnAttributes: true]) { _, b in b }).1
        let dictionary = both as? [String: Any]
        #expect(dictionary?[kSecAttrAccount] as? String == "a")
        #expect(dictionary?[kSecValueData] as? Data == Data([0]))
        // Nothing to return: success with no result.
        let (status, none) = one.find(base)
        #expect(status == errSecSuccess)
        #expect(none == nil)
    }

    @Test("find: nothing matches")
    func nothingMatches() {
        #expect(standardWorld().client("One").find(password()).0 == errSecItemNotFound)
    }

    @Test("find: the walk stops at the first locked match")
    func lockedWalk() {
        let world = standardWorld()
        let one = world.client("One")
        #expect(one.add(password(account: "open", [kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock]))
                == errSecSuccess)
        #expect(one.add(password(account: "locked")) == errSecSuccess)
        world.modify { $0.lock() }
        let q: [String: Any] = [kSecClass: kSecClassGenericPassword, kSecReturnData: true]
        #expect(one.find(q).0 == errSecSuccess)  // limit one: the accessible one comes first
        #expect(one.find(q.merging([kSecMatchLimit: kSecMatchLimitAll]) { _, b in b }).0 == errSecInteractionNotAllowed)
        #expect(one.find(password(account: "locked")).0 == errSecInteractionNotAllowed)
    }

    @Test("find: access-control prompts", arguments: [
        (PromptAnswer.approve, errSecSuccess), (.cancel, errSecUserCanceled), (.fail, errSecAuthFailed),
    ])
    func prompts(answer: PromptAnswer, expected: OSStatus) throws {
        let world = standardWorld()
        let one = world.client("One")
        let ac = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil))
        #expect(one.add(password([kSecAttrAccessControl: ac, kSecValueData: Data("secret".utf8)])) == errSecSuccess)
        world.answerPrompts(answer)
        #expect(one.find(password([kSecReturnData: true])).0 == expected)
    }

    @Test("find: authentication UI fail and skip")
    func authenticationUI() throws {
        let world = standardWorld()
        let one = world.client("One")
        let ac = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil))
        #expect(one.add(password([kSecAttrAccessControl: ac])) == errSecSuccess)
        #expect(one.find(password([kSecReturnData: true, kSecUseAuthenticationUI: kSecUseAuthenticationUIFail])).0
                == errSecInteractionNotAllowed)
        #expect(one.find(password([kSecReturnData: true, kSecUseAuthenticationUI: kSecUseAuthenticationUISkip])).0
                == errSecItemNotFound)
        // No answer queued: no prompt can be shown.
        #expect(one.find(password([kSecReturnData: true])).0 == errSecInteractionNotAllowed)
        // Attributes alone prompt too: every query decrypts the secret part of
        // an item whose access control has constraints (SecDbKeychainItem.m
        // ks_decrypt_data; secacltests/sec_acl_stress.c, Security-61901.0.87.0.1).
        #expect(one.find(password([kSecReturnAttributes: true, kSecUseAuthenticationUI: kSecUseAuthenticationUIFail])).0
                == errSecInteractionNotAllowed)
        #expect(one.find(password([kSecUseAuthenticationUI: kSecUseAuthenticationUISkip])).0 == errSecItemNotFound)
    }

    // MARK: Update

    @Test("update: a match limit or a return key in the query is errSecParam")
    func updateLimitOrReturn() {
        let one = standardWorld().client("One")
        #expect(one.add(password()) == errSecSuccess)
        #expect(one.update(password([kSecMatchLimit: kSecMatchLimitOne]), [kSecAttrLabel: "x"]) == errSecParam)
        #expect(one.update(password([kSecReturnData: true]), [kSecAttrLabel: "x"]) == errSecParam)
        #expect(one.update(password(), [kSecAttrLabel: "x"]) == errSecSuccess)
    }

    @Test("update: kSecClass, a match, return or auth-UI key among the attributes to change is errSecNoSuchAttr")
    func updateQueryKeysInChanges() {
        let one = standardWorld().client("One")
        #expect(one.add(password()) == errSecSuccess)
        // SecDbQuery.c query_update_applier → SecDbAttrWithKey: not in the class's schema.
        #expect(one.update(password(), [kSecClass: kSecClassGenericPassword, kSecAttrLabel: "x"]) == errSecNoSuchAttr)
        // Whatever the class's value: "class" is no attribute to update.
        #expect(one.update(password(), [kSecClass: "no such class", kSecAttrLabel: "x"]) == errSecNoSuchAttr)
        #expect(one.update(password(), [kSecClass: 42]) == errSecNoSuchAttr)
        #expect(one.update(password(), [kSecMatchLimit: kSecMatchLimitAll, kSecAttrLabel: "x"]) == errSecNoSuchAttr)
        #expect(one.update(password(), [kSecReturnData: true, kSecAttrLabel: "x"]) == errSecNoSuchAttr)
        #expect(one.update(password(), [kSecUseAuthenticationUI: kSecUseAuthenticationUIFail]) == errSecNoSuchAttr)
        // Nothing changed; without the stray key the same call succeeds.
        #expect(one.find(password([kSecAttrLabel: "x"])).0 == errSecItemNotFound)
        #expect(one.update(password(), [kSecAttrLabel: "x"]) == errSecSuccess)
    }

    @Test("update: an explicit unentitled query group depends on the version", arguments: [
        ("ios 18", errSecMissingEntitlement), ("ios 12", errSecItemNotFound),
    ])
    func updateUnentitledGroup(platform: String, expected: OSStatus) {
        let one = standardWorld(platform: platform).client("One")
        #expect(one.update(password([kSecAttrAccessGroup: "SKMME9E2Y8.com.example.Two"]), [kSecAttrLabel: "x"])
                == expected)
    }

    @Test("update: a group among the changes moves the item", arguments: [
        ("ios 18", errSecMissingEntitlement), ("ios 12", errSecNoAccessForItem),
    ])
    func updateMoves(platform: String, unentitled: OSStatus) {
        let world = standardWorld(platform: platform)
        let one = world.client("One")
        #expect(one.add(password()) == errSecSuccess)
        #expect(one.update(password(), [kSecAttrAccessGroup: "SKMME9E2Y8.com.example.Two"]) == unentitled)
        #expect(one.update(password(), [kSecAttrAccessGroup: "SKMME9E2Y8.com.example.One"]) == errSecSuccess)
        #expect(one.find(password([kSecAttrAccessGroup: "SKMME9E2Y8.com.example.One"])).0 == errSecSuccess)
        // Now out of Two's reach.
        #expect(world.client("Two").find(password()).0 == errSecItemNotFound)
    }

    @Test("update: a change that makes two items share a key is errSecDuplicateItem")
    func updateDuplicate() {
        let one = standardWorld().client("One")
        #expect(one.add(password(account: "a")) == errSecSuccess)
        #expect(one.add(password(account: "b")) == errSecSuccess)
        #expect(one.update(password(account: "a"), [kSecAttrAccount: "b"]) == errSecDuplicateItem)
        #expect(one.find(password(account: "a")).0 == errSecSuccess)
    }

    @Test("update: nothing matches, and locked items")
    func updateNothingAndLocked() {
        let world = standardWorld()
        let one = world.client("One")
        #expect(one.update(password(), [kSecAttrLabel: "x"]) == errSecItemNotFound)
        #expect(one.add(password()) == errSecSuccess)
        world.modify { $0.lock() }
        #expect(one.update(password(), [kSecAttrLabel: "x"]) == errSecInteractionNotAllowed)
    }

    @Test("update: find after update sees the new data")
    func updateThenFind() {
        let one = standardWorld().client("One")
        #expect(one.add(password([kSecValueData: Data("old".utf8)])) == errSecSuccess)
        #expect(one.update(password(), [kSecValueData: Data("new".utf8)]) == errSecSuccess)
        #expect(one.find(password([kSecReturnData: true])).1 as? Data == Data("new".utf8))
    }

    /// The attributes to change are parsed as attributes of the class
    /// (keychain/securityd/SecDbQuery.c query_update_applier → SecItemDb.c
    /// SecDbAttrWithKey, Security-61901.0.87.0.1): kSecClass, a match limit
    /// or a return key there is errSecNoSuchAttr, and nothing changes.
    @Test("update: kSecClass, a match limit or a return key among the attributes to change is errSecNoSuchAttr",
          arguments: [kSecClass, kSecMatchLimit, kSecReturnData, kSecReturnAttributes])
    func updateNonAttributeKeys(key: String) {
        let one = standardWorld().client("One")
        #expect(one.add(password([kSecValueData: Data("old".utf8)])) == errSecSuccess)
        let values: [String: Any] = [kSecClass: kSecClassGenericPassword, kSecMatchLimit: kSecMatchLimitAll,
                                     kSecReturnData: true, kSecReturnAttributes: true]
        var changes: [String: Any] = [kSecValueData: Data("new".utf8)]
        changes[key] = values[key]
        #expect(one.update(password(), changes) == errSecNoSuchAttr)
        #expect(one.find(password([kSecReturnData: true])).1 as? Data == Data("old".utf8))
    }

    /// securityd skips kSecAttrSynchronizableAny among the changes
    /// (SecDbQuery.c query_add_attribute_with_desc): the other changes apply.
    @Test("update: synchronizable any among the changes is skipped")
    func updateSyncAnyInChanges() {
        let one = standardWorld().client("One")
        #expect(one.add(password([kSecValueData: Data("old".utf8)])) == errSecSuccess)
        #expect(one.update(password(), [kSecAttrSynchronizable: kSecAttrSynchronizableAny,
                                        kSecValueData: Data("new".utf8)]) == errSecSuccess)
        #expect(one.find(password([kSecReturnData: true])).1 as? Data == Data("new".utf8))
    }

    // MARK: Delete

    /// "match not supported by delete": every kSecMatch key counts, the limit
    /// all included (SecDbQuery.c query_add_match, SecItemServer.c SecServerItemDelete).
    @Test("delete: any match limit is errSecParam (SecServerItemDelete)", arguments: [
        (kSecMatchLimitOne, errSecParam), (kSecMatchLimitAll, errSecParam),
    ])
    func deleteLimit(limit: String, expected: OSStatus) {
        let one = standardWorld().client("One")
        #expect(one.add(password()) == errSecSuccess)
        #expect(one.delete(password([kSecMatchLimit: limit])) == expected)
    }

    @Test("delete: an explicit unentitled group depends on the version", arguments: [
        ("ios 18", errSecMissingEntitlement), ("ios 12", errSecItemNotFound),
    ])
    func deleteUnentitledGroup(platform: String, expected: OSStatus) {
        let world = standardWorld(platform: platform)
        #expect(world.client("Two").add(password([kSecAttrAccessGroup: "SKMME9E2Y8.com.example.Two"])) == errSecSuccess)
        #expect(world.client("One").delete(password([kSecAttrAccessGroup: "SKMME9E2Y8.com.example.Two"])) == expected)
    }

    @Test("delete: removes every match; then nothing matches")
    func deleteEveryMatch() {
        let one = standardWorld().client("One")
        #expect(one.add(password(account: "a")) == errSecSuccess)
        #expect(one.add(password(account: "b")) == errSecSuccess)
        #expect(one.delete([kSecClass: kSecClassGenericPassword, kSecAttrService: "auth"]) == errSecSuccess)
        #expect(one.find([kSecClass: kSecClassGenericPassword]).0 == errSecItemNotFound)
        #expect(one.delete([kSecClass: kSecClassGenericPassword]) == errSecItemNotFound)
    }
}
