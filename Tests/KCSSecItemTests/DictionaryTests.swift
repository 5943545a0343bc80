import Foundation
import KCSSecItem
import Testing

/// How dictionaries are read: keys, value types, bytes, unbound calls.
@Suite("Dictionaries")
struct DictionaryTests {
    /// Entries whose value has the wrong type for its key. A number for the
    /// account and a string for the protocol are not among them: a device
    /// keeps both (ValueTypeTests); a Boolean is no CFNumber to `copyBlob`
    /// and a data is nothing to `copyNumber` (SecDbItem.c lines 108-151);
    /// `"yes"` for sync is kept as text, which kcs does not model
    /// (ValueReadingTests).
    static func wrongTypes() -> [[String: Any]] {
        [
            [kSecAttrAccount: true],
            [kSecAttrAccessGroup: 1],
            [kSecAttrSynchronizable: Data("yes".utf8)],
            [kSecAttrAccessible: "whenUnlocked"],
            [kSecValueData: 3.5],
            [kSecReturnData: "true"],
            [kSecMatchLimit: "some"],
            [kSecAttrAccessControl: "user-presence"],
            [kSecAttrPort: [443]],
            [kSecAttrProtocol: Data("https".utf8)],
        ]
    }

    @Test("wrong value types are errSecParam", arguments: 0..<10)
    func wrongTypes(index: Int) {
        let extra = Self.wrongTypes()[index]
        let one = standardWorld().client("One")
        let query = extra[kSecAttrPort] == nil && extra[kSecAttrProtocol] == nil
            ? password(extra)
            : [kSecClass: kSecClassInternetPassword, kSecAttrServer: "example.com"].merging(extra) { _, b in b }
        #expect(one.add(query) == errSecParam)
        #expect(one.find(query).0 == errSecParam)
    }

    /// The values the kSecAttrAccessible constants stand for on a device
    /// (`ck`, what attribute dumps print) are accessibilities too, for the
    /// shim whose constants are their names; another string is errSecParam
    /// (SecDbKeychainItem.m kc_parse_keyclass; QA s22, Q29).
    @Test func accessibilityCodesAreAccessibilities() {
        let one = standardWorld().client("One")
        #expect(one.add(password(account: "a", [kSecAttrAccessible: "ck"])) == errSecSuccess)
        #expect(one.add(password(account: "b", [kSecAttrAccessible: "afterFirstUnlock"])) == errSecParam)
        #expect(SecAccessControlCreateWithFlags(nil, "aku" as CFString, .userPresence, nil) != nil)
        #expect(SecAccessControlCreateWithFlags(nil, "f" as CFString, .userPresence, nil) == nil, "UntilReboot's f is no value kc_parse_keyclass takes")
    }

    /// Values the client does not check (audit 14): a match limit below -1
    /// reads as no SQL limit and stops after the first row, in a list (K3);
    /// a whole Double is a number (K3); kSecUseOperationPrompt is moved aside
    /// whatever it holds (K4).
    @Test("a limit below -1, a whole Double and any operation prompt are taken")
    func uncheckedValues() {
        let one = standardWorld().client("One")
        #expect(one.add(password(account: "a", [kSecValueData: Data("1".utf8)])) == errSecSuccess)
        #expect(one.add(password(account: "b", [kSecValueData: Data("2".utf8)])) == errSecSuccess)
        let (status, result) = one.find([kSecClass: kSecClassGenericPassword, kSecAttrService: "auth", kSecMatchLimit: -2,
                                         kSecReturnAttributes: true])
        #expect(status == errSecSuccess && (result as? [Any])?.count == 1, "\(name(status)) \(String(describing: result))")
        let (two, list) = one.find([kSecClass: kSecClassGenericPassword, kSecAttrService: "auth", kSecMatchLimit: 2.0,
                                    kSecReturnAttributes: true])
        #expect(two == errSecSuccess && (list as? [Any])?.count == 2, "\(name(two))")
        #expect(one.find(password(account: "a", [kSecUseOperationPrompt: 42])).0 == errSecSuccess)
    }

    /// SecItem.m SecItemAuthCopyParams (lines 1594-1606): no value of the
    /// auth-UI keys is refused; kSecUseAuthenticationUI wins over the
    /// deprecated kSecUseNoAuthenticationUI; only Fail and Skip change anything.
    @Test("auth-UI keys: any value, the newer key wins")
    func authenticationUIKeys() {
        let world = standardWorld()
        let one = world.client("One")
        #expect(one.add(password(["kSecUseAuthenticationUI": true, kSecValueData: Data("pw".utf8)])) == errSecSuccess)
        #expect(one.find(password([kSecUseAuthenticationUI: "kSecUseAuthenticationUIBogus"])).0 == errSecSuccess)
        #expect(one.find(password([kSecUseNoAuthenticationUI: "yes"])).0 == errSecSuccess)
        // A protected item: Allow with NoAuthUI true prompts (Allow wins); Skip skips it.
        var ac: Unmanaged<CFError>?
        let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, &ac)
        #expect(one.add(password(service: "p", [kSecAttrAccessControl: access as Any, kSecValueData: Data("pw".utf8)])) == errSecSuccess)
        world.answerPrompts(.approve)
        #expect(one.find(password(service: "p", [kSecUseAuthenticationUI: kSecUseAuthenticationUIAllow, kSecUseNoAuthenticationUI: true,
                                                  kSecReturnData: true])).0 == errSecSuccess)
        #expect(one.find(password(service: "p", [kSecUseAuthenticationUI: kSecUseAuthenticationUISkip, kSecUseNoAuthenticationUI: true,
                                                  kSecReturnData: true])).0 == errSecItemNotFound)
        #expect(one.find(password(service: "p", [kSecUseNoAuthenticationUI: true, kSecReturnData: true])).0 == errSecInteractionNotAllowed)
    }

    /// The Mac's client drops kSecValueData from a find's, an update's and a
    /// delete's query (SecItem.cpp line 4729): a string there is no fault.
    @Test("a Mac query's kSecValueData is dropped", arguments: [("macos 15", true), ("ios 18", false)])
    func macQueriesDropData(platform: String, dropped: Bool) {
        let one = standardWorld(platform: platform).client("One")
        let query = password([kSecValueData: "pw", kSecUseDataProtectionKeychain: true])
        #expect(one.add(password([kSecValueData: Data("pw".utf8), kSecUseDataProtectionKeychain: true])) == errSecSuccess)
        #expect(one.find(query).0 == (dropped ? errSecSuccess : errSecParam))
        #expect(one.update(query, [kSecAttrLabel: "l"]) == (dropped ? errSecSuccess : errSecParam))
        #expect(one.delete(query) == (dropped ? errSecSuccess : errSecParam))
    }

    /// SecDbItem.c copyDate (line 154): a date attribute is a Date, and
    /// comes back one.
    @Test("start and end dates are Dates")
    func dates() {
        let one = standardWorld().client("One")
        let start = Date(timeIntervalSinceReferenceDate: 725_846_400)
        var result: CFTypeRef?
        #expect(one.add([kSecClass: kSecClassKey, kSecAttrApplicationTag: Data("d".utf8), kSecAttrStartDate: start,
                         kSecReturnAttributes: true], &result) == errSecSuccess)
        #expect((result as? [String: Any])?[kSecAttrStartDate] as? Date == start)
        #expect(one.add([kSecClass: kSecClassKey, kSecAttrApplicationTag: Data("e".utf8), kSecAttrEndDate: "2025-01-01"]) == errSecParam)
    }

    @Test("an attribute the model does not know is errSecNoSuchAttr; a short key errSecParam")
    func unknownKeys() {
        let one = standardWorld().client("One")
        #expect(one.add(password(["kSecAttrColour": "red"])) == errSecNoSuchAttr)
        #expect(one.add(password(["abc": "x"])) == errSecParam)
        #expect(one.find(password(["kSecMatchEverything": true])).0 == errSecParam)
    }

    @Test("an attribute of another class is errSecNoSuchAttr, as the engine answers")
    func foreignAttribute() {
        #expect(standardWorld().client("One").add(password([kSecAttrServer: "example.com"])) == errSecNoSuchAttr)
    }

    @Test("real keys outside the model are errSecUnimplemented")
    func unmodelled() {
        let one = standardWorld().client("One")
        #expect(one.add(password(["kSecAttrIsInvisible": true])) == errSecUnimplemented)
        #expect(one.find(password(["kSecMatchCaseInsensitive": true])).0 == errSecUnimplemented)
    }

    /// What a device's client and securityd refuse: a string for the secret
    /// (SecDbQuery.c query_set_data; the Mac's file keychain converts it on
    /// add) or for the issuer (SecItem.m SecItemAttributesPrepare); columns a
    /// device stores but the model has no place for are errSecUnimplemented.
    @Test("value types a device refuses, and columns the model lacks")
    func deviceValueTypes() {
        let one = standardWorld().client("One")
        #expect(one.add(password([kSecValueData: "pw"])) == errSecParam)
        #expect(one.update(password(), [kSecValueData: "pw"]) == errSecParam)
        let mac = standardWorld(platform: "macos 15").client("One")
        #expect(mac.add(password([kSecValueData: "pw"])) == errSecSuccess, "the file keychain converts it")
        #expect(mac.add(password(account: "dp", [kSecValueData: "pw", kSecUseDataProtectionKeychain: true])) == errSecParam)
        let cert: [String: Any] = [kSecClass: kSecClassCertificate, kSecAttrIssuer: "CN=ca",
                                   kSecAttrSerialNumber: Data("1".utf8), kSecValueData: Data("c".utf8)]
        #expect(one.add(cert) == errSecParam)
        #expect(one.find([kSecClass: kSecClassCertificate, kSecAttrIssuer: "CN=ca"]).0 == errSecParam)
        // What securityd converts (copyNumber): a number for sync, a Boolean for a number column.
        #expect(one.add(password(account: "n", [kSecAttrSynchronizable: 1, kSecValueData: Data("x".utf8)])) == errSecSuccess)
        #expect(one.find(password(account: "n", [kSecAttrSynchronizable: true])).0 == errSecSuccess)
        #expect(one.add([kSecClass: kSecClassInternetPassword, kSecAttrServer: "s", kSecAttrPort: true]) == errSecSuccess)
        #expect(one.find([kSecClass: kSecClassInternetPassword, kSecAttrServer: "s", kSecAttrPort: 1]).0 == errSecSuccess)
        for key in ["kSecAttrIsPrivate", "kSecAttrCertificateEncoding", "kSecAttrScriptCode"] {
            #expect(one.find(password([key: 1])).0 == errSecUnimplemented, "\(key)")
        }
    }

    @Test("data round-trips exactly, UTF-8 or not")
    func bytesRoundTrip() {
        let one = standardWorld().client("One")
        let binary = Data([0x00, 0xFF, 0xC3, 0x28, 0x6B, 0x63, 0x73])
        #expect(one.add(password(account: "bin", [kSecValueData: binary])) == errSecSuccess)
        // A string is no data to securityd (SecDbQuery.c query_set_data): errSecParam.
        #expect(one.add(password(account: "text", [kSecValueData: "héllo"])) == errSecParam)
        #expect(one.add(password(account: "text", [kSecValueData: Data("héllo".utf8)])) == errSecSuccess)
        #expect(one.add(password(account: "bytes", [kSecValueData: [UInt8]("\u{0}kcs-bytes:00".utf8)])) == errSecSuccess)
        #expect(one.find(password(account: "bin", [kSecReturnData: true])).1 as? Data == binary)
        #expect(one.find(password(account: "text", [kSecReturnData: true])).1 as? Data == Data("héllo".utf8))
        #expect(one.find(password(account: "bytes", [kSecReturnData: true])).1 as? Data
                == Data("\u{0}kcs-bytes:00".utf8))
        // Byte attributes come back as Data, text attributes as String.
        #expect(one.add(password(account: "g", [kSecAttrGeneric: Data([1, 2])])) == errSecSuccess)
        let attributes = one.find(password(account: "g", [kSecReturnAttributes: true])).1 as? [String: Any]
        #expect(attributes?[kSecAttrGeneric] as? Data == Data([1, 2]))
        #expect(attributes?[kSecAttrAccount] as? String == "g")
        #expect(attributes?[kSecAttrSynchronizable] as? Bool == false)
    }

    @Test("the free functions act as the bound client; unbound there is no keychain")
    func binding() {
        let world = standardWorld()
        #expect(SecItemAdd(password() as CFDictionary, nil) == errSecNotAvailable)
        var result: CFTypeRef? = "stale"
        #expect(SecItemCopyMatching(password() as CFDictionary, &result) == errSecNotAvailable)
        #expect(result == nil)
        world.client("One").run {
            #expect(SecItemAdd(password() as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemUpdate(password() as CFDictionary, [kSecAttrLabel: "l"] as CFDictionary) == errSecSuccess)
        }
        world.client("Widget").run {
            #expect(SecItemCopyMatching(password() as CFDictionary, nil) == errSecItemNotFound)
        }
        world.client("Two").run {
            #expect(SecItemDelete(password() as CFDictionary) == errSecSuccess)
        }
        #expect(world.lastResult?.status == .success)
    }

    @Test("an async body keeps its binding across suspension")
    func asyncBinding() async {
        let world = standardWorld()
        let status = await world.client("One").run {
            await Task.yield()
            return SecItemAdd(password() as CFDictionary, nil)
        }
        #expect(status == errSecSuccess)
    }

    @Test("access-control objects")
    func accessControlObjects() {
        let cases: [(SecAccessControlCreateFlags, Bool)] = [
            (.userPresence, true), ([.biometryAny, .or, .devicePasscode], true),
            ([.biometryCurrentSet, .and, .devicePasscode], true), ([.or, .and], false), (.privateKeyUsage, false),
            // SecAccessControl.m: user presence combines only with the
            // application password (and key usage), and .or or .and counts
            // against it; one biometry flag at most (si_77_SecAccessControl.c line 115).
            ([.userPresence, .applicationPassword], true), ([.userPresence, .biometryAny], false),
            ([.userPresence, .or, .devicePasscode], false), ([.userPresence, .or, .applicationPassword], false),
            ([.biometryAny, .or, .biometryCurrentSet], false),
        ]
        for (flags, valid) in cases {
            var error: Unmanaged<CFError>?
            let ac = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, flags, &error)
            #expect((ac != nil) == valid)
            #expect((error != nil) == !valid)
            error?.release()
        }
        #expect(SecAccessControlCreateWithFlags(nil, "kSecAttrAccessibleSometimes", .userPresence, nil) == nil)
        // Without .or several constraints are all required (a k-of-n with k = n).
        let both = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [.biometryAny, .devicePasscode], nil)
        #expect(both?.accessControl.combinator == nil && both?.accessControl.requiresEveryConstraint == true)
    }

    @Test("error messages name the status")
    func messages() {
        #expect(SecCopyErrorMessageString(errSecMissingEntitlement, nil) == "errSecMissingEntitlement (-34018)")
        #expect(SecCopyErrorMessageString(12345, nil) == nil)
    }
}
