import Foundation
import KCSSecItem
import Testing

/// semantics.md section 2, through the SecItem-shaped API.
@Suite("2. Items")
struct Section2ItemTests {
    @Test("2.1 an item has one class and exactly one group")
    func oneClassOneGroup() {
        let world = standardWorld()
        #expect(world.client("One").add(password()) == errSecSuccess)
        let (status, result) = world.client("One").find(password([kSecReturnAttributes: true,
                                                                  kSecMatchLimit: kSecMatchLimitAll]))
        #expect(status == errSecSuccess)
        let items = result as? [[String: Any]] ?? []
        #expect(items.count == 1)
        #expect(items.first?[kSecClass] as? String == kSecClassGenericPassword)
        #expect(items.first?[kSecAttrAccessGroup] as? String == "SKMME9E2Y8.com.example.Shared")
        // No return keys: nil for a limit of one, an empty array for any
        // other (SecItemDb.c s3dl_query, SecItem.m SecItemResultProcess; audit 21, F4).
        let bare = world.client("One").find(password([kSecMatchLimit: kSecMatchLimitAll]))
        #expect(bare.0 == errSecSuccess)
        #expect((bare.1 as? [Any])?.isEmpty == true, "\(String(describing: bare.1))")
        let two = world.client("One").find(password([kSecMatchLimit: 2]))
        #expect((two.1 as? [Any])?.isEmpty == true, "\(String(describing: two.1))")
        #expect(world.client("One").find(password([:])).1 == nil)
    }

    @Test("2.2 generic passwords collide on group, sync, account and service", arguments: [
        // (second item's extra attributes, expected status)
        ([String: String](), errSecDuplicateItem),
        ([kSecAttrLabel: "other label"], errSecDuplicateItem),
        ([kSecAttrService: "other"], errSecSuccess),
        ([kSecAttrAccount: "bob"], errSecSuccess),
        ([kSecAttrAccessGroup: "SKMME9E2Y8.com.example.One"], errSecSuccess),
        ([kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock], errSecDuplicateItem),
    ])
    func genericPasswordKey(extra: [String: String], expected: OSStatus) {
        let world = standardWorld()
        let one = world.client("One")
        #expect(one.add(password([kSecValueData: Data("first".utf8)])) == errSecSuccess)
        var second: [String: Any] = extra
        second[kSecValueData] = Data("second".utf8)
        #expect(one.add(password(second)) == expected)
    }

    @Test("2.2 synchronizable is part of the key")
    func syncIsPartOfKey() {
        let one = standardWorld().client("One")
        #expect(one.add(password()) == errSecSuccess)
        #expect(one.add(password([kSecAttrSynchronizable: true])) == errSecSuccess)
        #expect(one.add(password([kSecAttrSynchronizable: true])) == errSecDuplicateItem)
    }

    @Test("2.2 an absent string attribute equals the empty string")
    func absentEqualsEmpty() {
        let one = standardWorld().client("One")
        #expect(one.add([kSecClass: kSecClassGenericPassword, kSecAttrAccount: "a"]) == errSecSuccess)
        #expect(one.add([kSecClass: kSecClassGenericPassword, kSecAttrAccount: "a", kSecAttrService: ""])
                == errSecDuplicateItem)
    }

    @Test("2.2 internet passwords collide on server, protocol, port and the rest")
    func internetPasswordKey() {
        let one = standardWorld().client("One")
        let base: [String: Any] = [kSecClass: kSecClassInternetPassword, kSecAttrServer: "example.com",
                                   kSecAttrAccount: "alice", kSecAttrProtocol: kSecAttrProtocolHTTPS,
                                   kSecAttrPort: 443]
        #expect(one.add(base) == errSecSuccess)
        #expect(one.add(base) == errSecDuplicateItem)
        #expect(one.add(base.merging([kSecAttrPort: 8443]) { _, b in b }) == errSecSuccess)
        #expect(one.add(base.merging([kSecAttrProtocol: kSecAttrProtocolFTP]) { _, b in b }) == errSecSuccess)
        #expect(one.add(base.merging([kSecAttrPath: "/login"]) { _, b in b }) == errSecSuccess)
    }

    @Test("2.2 certificates collide on type, issuer and serial number")
    func certificateKey() {
        let one = standardWorld().client("One")
        let cert: [String: Any] = [kSecClass: kSecClassCertificate, kSecAttrCertificateType: 3,
                                   kSecAttrIssuer: Data([0x30, 0x01]), kSecAttrSerialNumber: Data([0x01])]
        #expect(one.add(cert) == errSecSuccess)
        #expect(one.add(cert.merging([kSecAttrLabel: "x"]) { _, b in b }) == errSecDuplicateItem)
        #expect(one.add(cert.merging([kSecAttrSerialNumber: Data([0x02])]) { _, b in b }) == errSecSuccess)
    }

    @Test("2.3 an identity is stored as a certificate and a key; duplicate only if both exist")
    func identity() {
        let one = standardWorld().client("One")
        let identity: [String: Any] = [kSecClass: kSecClassIdentity, kSecAttrSerialNumber: Data([0x07]),
                                       kSecAttrApplicationLabel: Data([0xAB])]
        #expect(one.add(identity) == errSecSuccess)
        #expect(one.find([kSecClass: kSecClassCertificate, kSecAttrSerialNumber: Data([0x07])]).0 == errSecSuccess)
        #expect(one.find([kSecClass: kSecClassKey, kSecAttrApplicationLabel: Data([0xAB])]).0 == errSecSuccess)
        #expect(one.add(identity) == errSecDuplicateItem)
        // Remove the key: the identity can be added again (the certificate is reused).
        #expect(one.delete([kSecClass: kSecClassKey, kSecAttrApplicationLabel: Data([0xAB])]) == errSecSuccess)
        #expect(one.add(identity) == errSecSuccess)
        // Its key has no key type and no data: SecKeyCreateWithData makes no
        // key, so no identity reference either (SecItem.m lines 449-458; audit 17).
        let (status, result) = one.find([kSecClass: kSecClassIdentity, kSecReturnRef: true])
        #expect(status == errSecSuccess)
        #expect(result == nil)
        let rsa: [String: Any] = [kSecClass: kSecClassIdentity, kSecAttrSerialNumber: Data([0x08]),
                                  kSecAttrApplicationLabel: Data([0xCD]), kSecAttrKeyType: kSecAttrKeyTypeRSA,
                                  kSecValueData: Data([0x30, 0x02])]
        #expect(one.add(rsa) == errSecSuccess)
        let made = one.find([kSecClass: kSecClassIdentity, kSecAttrSerialNumber: Data([0x08]), kSecReturnRef: true]).1
        #expect((made as? SecItemReference)?.itemClass == .identity)
    }

    /// KeychainAPITests.m testGenpReturnRef, lines 279 and 293: off the Mac
    /// the client makes no reference to a password, so a reference alone
    /// is nil (an empty array for a limit of all) and a dictionary has no
    /// kSecValueRef; on the Mac it is a reference (lines 272, 287).
    @Test("2.1 a password's reference is nil off the Mac", arguments: [("ios 18", false), ("watchos 10", false), ("macos 15", true)])
    func passwordReferences(platform: String, made: Bool) {
        let one = standardWorld(platform: platform).client("One")
        var added: CFTypeRef?
        #expect(one.add(password([kSecReturnRef: true, kSecUseDataProtectionKeychain: true, kSecValueData: Data("pw".utf8)]),
                        &added) == errSecSuccess)
        #expect((added != nil) == made)
        let (status, single) = one.find(password([kSecReturnRef: true, kSecUseDataProtectionKeychain: true]))
        #expect(status == errSecSuccess)
        #expect((single as? SecItemReference != nil) == made)
        let all = one.find(password([kSecReturnRef: true, kSecMatchLimit: kSecMatchLimitAll, kSecUseDataProtectionKeychain: true])).1
        #expect((all as? [Any])?.count == (made ? 1 : 0))
        let both = one.find(password([kSecReturnRef: true, kSecReturnAttributes: true, kSecUseDataProtectionKeychain: true])).1
        let dictionary = both as? [String: Any]
        #expect(dictionary?[kSecAttrAccount] != nil)
        #expect((dictionary?[kSecValueRef] != nil) == made)
        // The data securityd sent to make the reference stays when none was
        // made (SecItem.m SecItemResultCopyPrepared, lines 1212-1280).
        #expect((dictionary?[kSecValueData] != nil) == !made)
        // A find of data without attributes asks for them too (lines 2064-2067).
        let dataAndPersistent = one.find(password([kSecReturnData: true, kSecReturnPersistentRef: true,
                                                   kSecUseDataProtectionKeychain: true])).1 as? [String: Any]
        #expect(dataAndPersistent?[kSecAttrAccount] != nil && dataAndPersistent?[kSecValueData] != nil)
        // The Mac's file-based keychain (SecItem.cpp) returns only what was asked for.
        if platform.hasPrefix("macos") {
            #expect(one.add(password(service: "file", [kSecValueData: Data("pw".utf8)])) == errSecSuccess)
            let file = one.find(password(service: "file", [kSecReturnData: true, kSecReturnPersistentRef: true])).1 as? [String: Any]
            #expect(file?[kSecAttrAccount] == nil && file?[kSecValueData] != nil, "\(String(describing: file))")
            // Asked for nothing, it returns a reference (SecItem.cpp lines
            // 3126-3130), which the merge passes on (audit 16, F2); the
            // data-protection side alone returns nothing.
            let bare = one.find(password(service: "file", [:]))
            #expect(bare.0 == errSecSuccess && bare.1 as? SecItemReference != nil, "\(String(describing: bare.1))")
            let every = one.find(password(service: "file", [kSecMatchLimit: kSecMatchLimitAll])).1 as? [Any]
            #expect(every?.count == 1 && every?.first is SecItemReference)
            #expect(one.find(password([kSecUseDataProtectionKeychain: true])).1 == nil)
        }
    }

    @Test("2.4 default accessibility: when-unlocked for passwords and keys, always for certificates")
    func defaultAccessibility() {
        let one = standardWorld().client("One")
        var result: CFTypeRef?
        #expect(one.add(password([kSecReturnAttributes: true]), &result) == errSecSuccess)
        #expect((result as? [String: Any])?[kSecAttrAccessible] as? String == kSecAttrAccessibleWhenUnlocked)
        #expect(one.add([kSecClass: kSecClassKey, kSecAttrApplicationTag: Data("tag".utf8),
                         kSecReturnAttributes: true], &result) == errSecSuccess)
        #expect((result as? [String: Any])?[kSecAttrAccessible] as? String == kSecAttrAccessibleWhenUnlocked)
        #expect(one.add([kSecClass: kSecClassCertificate, kSecAttrSerialNumber: Data([1]),
                         kSecReturnAttributes: true], &result) == errSecSuccess)
        #expect((result as? [String: Any])?[kSecAttrAccessible] as? String == kSecAttrAccessibleAlways)
    }

    @Test("2.5 every accessibility value is accepted and returned", arguments: [
        kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, kSecAttrAccessibleWhenUnlocked,
        kSecAttrAccessibleWhenUnlockedThisDeviceOnly, kSecAttrAccessibleAfterFirstUnlock,
        kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, kSecAttrAccessibleAlways,
        kSecAttrAccessibleAlwaysThisDeviceOnly,
    ])
    func accessibilityValues(value: String) {
        let one = standardWorld().client("One")
        #expect(one.add(password([kSecAttrAccessible: value])) == errSecSuccess)
        let (status, result) = one.find(password([kSecAttrAccessible: value, kSecReturnAttributes: true]))
        #expect(status == errSecSuccess)
        #expect((result as? [String: Any])?[kSecAttrAccessible] as? String == value)
    }
}
