import Testing
@testable import KeychainEngine

/// One primary-key attribute of a class with a base value and another value.
struct KeyAttributeCase: Sendable, CustomStringConvertible {
    var itemClass: ItemClass
    var attribute: ItemAttribute
    var other: AttributeValue
    var description: String { "\(itemClass.rawValue).\(attribute.constantName)" }
}

/// A complete set of primary-key attributes for each stored class.
let baseKeys: [ItemClass: [(ItemAttribute, AttributeValue)]] = [
    .genericPassword: [(.account, str("acct")), (.service, str("svc"))],
    .internetPassword: [(.account, str("acct")), (.securityDomain, str("dom")), (.server, str("example.com")),
                        (.protocol, str("https")), (.authenticationType, str("html-form")), (.port, int(443)),
                        (.path, str("/login"))],
    .certificate: [(.certificateType, int(1)), (.issuer, str("CN=Issuer")), (.serialNumber, str("01"))],
    .key: [(.keyClass, str("private")), (.applicationLabel, str("lbl")), (.applicationTag, str("tag")),
           (.keyType, str("rsa")), (.keySizeInBits, int(2048)),
           (.effectiveKeySize, int(2048)), (.startDate, .date(725_846_400)), (.endDate, .date(915_148_800))],
]

let keyAttributeCases: [KeyAttributeCase] = [
    .init(itemClass: .genericPassword, attribute: .account, other: str("acct2")),
    .init(itemClass: .genericPassword, attribute: .service, other: str("svc2")),
    .init(itemClass: .internetPassword, attribute: .account, other: str("acct2")),
    .init(itemClass: .internetPassword, attribute: .securityDomain, other: str("dom2")),
    .init(itemClass: .internetPassword, attribute: .server, other: str("example.org")),
    .init(itemClass: .internetPassword, attribute: .protocol, other: str("ftp")),
    .init(itemClass: .internetPassword, attribute: .authenticationType, other: str("ntlm")),
    .init(itemClass: .internetPassword, attribute: .port, other: int(8443)),
    .init(itemClass: .internetPassword, attribute: .path, other: str("/other")),
    .init(itemClass: .certificate, attribute: .certificateType, other: int(2)),
    .init(itemClass: .certificate, attribute: .issuer, other: str("CN=Other")),
    .init(itemClass: .certificate, attribute: .serialNumber, other: str("02")),
    .init(itemClass: .key, attribute: .keyClass, other: str("public")),
    .init(itemClass: .key, attribute: .applicationLabel, other: str("lbl2")),
    .init(itemClass: .key, attribute: .applicationTag, other: str("tag2")),
    .init(itemClass: .key, attribute: .keyType, other: str("ec")),
    .init(itemClass: .key, attribute: .keySizeInBits, other: int(4096)),
    .init(itemClass: .key, attribute: .effectiveKeySize, other: int(1024)),
    .init(itemClass: .key, attribute: .startDate, other: .date(757_382_400)),
    .init(itemClass: .key, attribute: .endDate, other: .date(946_684_800)),
]

let nonKeyAttributeCases: [KeyAttributeCase] = [
    .init(itemClass: .genericPassword, attribute: .label, other: str("L")),
    .init(itemClass: .genericPassword, attribute: .generic, other: str("G")),
    .init(itemClass: .genericPassword, attribute: .comment, other: str("C")),
    .init(itemClass: .genericPassword, attribute: .description, other: str("D")),
    .init(itemClass: .internetPassword, attribute: .label, other: str("L")),
    .init(itemClass: .internetPassword, attribute: .comment, other: str("C")),
    .init(itemClass: .internetPassword, attribute: .description, other: str("D")),
    .init(itemClass: .certificate, attribute: .label, other: str("L")),
    .init(itemClass: .key, attribute: .label, other: str("L")),
]

func keyed(_ c: ItemClass, replacing attribute: ItemAttribute? = nil, with value: AttributeValue? = nil,
           extra: [(ItemAttribute, AttributeValue)] = [], group: String? = nil, sync: SyncSelector? = nil,
           accessibility: Accessibility? = nil, data: String? = nil) -> ItemSpec {
    var attrs = baseKeys[c]!
    if let attribute, let i = attrs.firstIndex(where: { $0.0 == attribute }) { attrs[i].1 = value! }
    attrs += extra
    return spec(c, attrs, group: group, sync: sync, accessibility: accessibility, data: data)
}

@Suite("2 items")
struct Section2ItemTests {

    @Test("2.1 an item has one class and exactly one access group")
    func oneGroup() {
        var f = Fixture()
        f.mustAdd(gp("a", group: Fixture.second))
        #expect(f.items.count == 1)
        #expect(f.items.first?.itemClass == .genericPassword)
        #expect(f.items.map(f.groupName) == [Fixture.second])
        // Found only through that group.
        for g in [Fixture.shared, Fixture.mainID, Fixture.appGroup] {
            #expect(f.find(gp("a", group: g)).status == .itemNotFound, "\(g)")
        }
        #expect(f.find(gp("a", group: Fixture.second)).status == .success)
        // Same attributes, other class: no collision.
        #expect(f.add(spec(.internetPassword, [(.account, str("a"))], group: Fixture.second)).status == .success)
        #expect(f.find(spec(.genericPassword, [(.account, str("a"))], limit: .all)).count == 1)
    }

    @Test("2.2 primary key: the class's key attributes exactly", arguments: [
        (ItemClass.genericPassword, [ItemAttribute.account, .service]),
        (.internetPassword, [.account, .securityDomain, .server, .protocol, .authenticationType, .port, .path]),
        (.certificate, [.certificateType, .issuer, .serialNumber]),
        (.key, [.keyClass, .applicationLabel, .applicationTag, .creator, .keyType, .keySizeInBits,
                .effectiveKeySize, .startDate, .endDate]),
    ])
    func keyAttributeSets(itemClass: ItemClass, attributes: [ItemAttribute]) {
        #expect(Set(itemClass.primaryKeyAttributes) == Set(attributes))
    }

    @Test("2.2 primary key: each key attribute alone makes a different item", arguments: keyAttributeCases)
    func keyAttributeDistinguishes(c: KeyAttributeCase) {
        var f = Fixture()
        #expect(f.add(keyed(c.itemClass)).status == .success)
        let other = f.add(keyed(c.itemClass, replacing: c.attribute, with: c.other))
        #expect(other.status == .success)
        #expect(f.keychain.count == 2)
        // Both are still duplicates of themselves.
        #expect(f.add(keyed(c.itemClass)).status == .duplicateItem)
        #expect(f.add(keyed(c.itemClass, replacing: c.attribute, with: c.other)).status == .duplicateItem)
        #expect(f.keychain.count == 2)
    }

    @Test("2.2 primary key: key creator is a key attribute (key alone differs by creator)")
    func keyCreator() {
        var f = Fixture()
        #expect(f.add(keyed(.key, extra: [(.creator, str("crt1"))])).status == .success)
        #expect(f.add(keyed(.key, extra: [(.creator, str("crt2"))])).status == .success)
        #expect(f.add(keyed(.key, extra: [(.creator, str("crt1"))])).status == .duplicateItem)
        #expect(f.keychain.count == 2)
    }

    @Test("2.2 primary key: non-key attributes do not make a different item", arguments: nonKeyAttributeCases)
    func nonKeyAttributeCollides(c: KeyAttributeCase) {
        var f = Fixture()
        #expect(f.add(keyed(c.itemClass, extra: [(c.attribute, str("first"))])).status == .success)
        let r = f.add(keyed(c.itemClass, extra: [(c.attribute, c.other)]))
        #expect(r.status == .duplicateItem)
        #expect(f.keychain.count == 1)
    }

    @Test("2.2 primary key: accessibility and data are not part of the key",
          arguments: [ItemClass.genericPassword, .internetPassword, .certificate, .key])
    func accessibilityAndDataNotKey(c: ItemClass) {
        var f = Fixture()
        #expect(f.add(keyed(c, accessibility: .afterFirstUnlock, data: "one")).status == .success)
        #expect(f.add(keyed(c, accessibility: .whenUnlockedThisDeviceOnly)).status == .duplicateItem)
        #expect(f.add(keyed(c, data: "two")).status == .duplicateItem)
        #expect(f.add(keyed(c, accessibility: .always, data: "three")).status == .duplicateItem)
        #expect(f.keychain.count == 1)
        #expect(f.items.first?.data == "one")
        #expect(f.items.first?.accessibility == .afterFirstUnlock)
    }

    @Test("2.2 primary key: access group is part of every class's key",
          arguments: [ItemClass.genericPassword, .internetPassword, .certificate, .key])
    func groupIsKey(c: ItemClass) {
        var f = Fixture()
        #expect(f.add(keyed(c, group: Fixture.shared)).status == .success)
        #expect(f.add(keyed(c, group: Fixture.second)).status == .success)
        #expect(f.add(keyed(c, group: Fixture.appGroup)).status == .success)
        #expect(f.add(keyed(c)).status == .duplicateItem)  // default group = shared
        #expect(f.keychain.count == 3)
    }

    @Test("2.2 primary key: synchronizable is part of every class's key",
          arguments: [ItemClass.genericPassword, .internetPassword, .certificate, .key])
    func syncIsKey(c: ItemClass) {
        var f = Fixture()
        #expect(f.add(keyed(c)).status == .success)
        #expect(f.add(keyed(c, sync: .yes)).status == .success)
        #expect(f.add(keyed(c, sync: .no)).status == .duplicateItem)
        #expect(f.add(keyed(c, sync: .yes)).status == .duplicateItem)
        #expect(f.keychain.count == 2)
        #expect(Set(f.items.map(\.synchronizable)) == [false, true])
    }

    /// The key class is a number whose default is kSecAttrKeyClassPublic
    /// (below), not a string whose default is "".
    /// Primary-key attributes written as strings whose columns are number
    /// columns defaulting to 0 (SecItemSchema.c: `kcls`, `ptcl` line 118,
    /// a key's `type` line 157): absent is the number 0 there, not "".
    static let numberColumnsOfStrings: Set<ItemAttribute> = [.keyClass, .protocol, .keyType]

    static let stringKeyAttributes: [(ItemClass, ItemAttribute)] = keyAttributeCases.compactMap {
        if case .string = $0.other, !numberColumnsOfStrings.contains($0.attribute) { return ($0.itemClass, $0.attribute) } else { return nil }
    }

    /// An internet password added without a protocol, or a key without a
    /// key type, holds the number 0 there (`query_pre_add`, SecItemDb.c
    /// lines 1243-1275): a second add that gives 0 is a duplicate, one
    /// that gives "" (text in a number column) is another item
    /// (conformance audit 20, F3).
    @Test("2.2 an absent protocol or key type is the number 0", arguments: [ItemAttribute.protocol, .keyType])
    func absentNumberColumnIsZero(attribute: ItemAttribute) {
        let c: ItemClass = attribute == .protocol ? .internetPassword : .key
        var f = Fixture()
        var without = keyed(c)
        without.attributes[attribute] = nil
        #expect(f.add(without).status == .success)
        #expect(f.find(keyed(c, replacing: attribute, with: .integer(0))).status == .success)
        #expect(f.add(keyed(c, replacing: attribute, with: .integer(0))).status == .duplicateItem)
        #expect(f.add(keyed(c, replacing: attribute, with: str(""))).status == .success)
        #expect(f.keychain.count == 2)
    }

    @Test("2.2 a key added without a class is a public key (kcls defaults to 0, kSecAttrKeyClassPublic)")
    func absentKeyClassIsPublic() {
        var f = Fixture()
        var without = keyed(.key)
        without.attributes[.keyClass] = nil
        #expect(f.add(without).status == .success)
        #expect(f.find(keyed(.key, replacing: .keyClass, with: str("public"))).status == .success)
        #expect(f.find(keyed(.key, replacing: .keyClass, with: str("private"))).status == .itemNotFound)
        #expect(f.add(keyed(.key, replacing: .keyClass, with: str("public"))).status == .duplicateItem)
        #expect(f.keychain.count == 1)
    }

    @Test("2.2 an attribute outside the key that the add left out is NULL: a query for \"\" does not find it",
          arguments: nonKeyAttributeCases)
    func absentNonKeyAttributeIsNull(c: KeyAttributeCase) {
        var f = Fixture()
        #expect(f.add(keyed(c.itemClass)).status == .success)
        #expect(f.find(keyed(c.itemClass, extra: [(c.attribute, str(""))])).status == .itemNotFound)
        #expect(f.delete(keyed(c.itemClass, extra: [(c.attribute, str(""))])).status == .itemNotFound)
        #expect(f.keychain.count == 1)
        // Stored as "", it is found by "".
        var g = Fixture()
        #expect(g.add(keyed(c.itemClass, extra: [(c.attribute, str(""))])).status == .success)
        #expect(g.find(keyed(c.itemClass, extra: [(c.attribute, str(""))])).status == .success)
    }

    @Test("2.2 an absent string attribute equals the empty string",
          arguments: stringKeyAttributes.indices)
    func absentEqualsEmpty(index: Int) {
        let (c, attribute) = Self.stringKeyAttributes[index]
        var f = Fixture()
        var without = keyed(c)
        without.attributes[attribute] = nil
        #expect(f.add(without).status == .success)
        #expect(f.add(keyed(c, replacing: attribute, with: str(""))).status == .duplicateItem)
        #expect(f.keychain.count == 1)
        // And the other way round, on a fresh keychain.
        var g = Fixture()
        #expect(g.add(keyed(c, replacing: attribute, with: str(""))).status == .success)
        #expect(g.add(without).status == .duplicateItem)
    }

    @Test("2.2 absent equals empty: a generic password with neither account nor service")
    func bareGenericPassword() {
        var f = Fixture()
        #expect(f.add(spec(.genericPassword)).status == .success)
        #expect(f.add(spec(.genericPassword, [(.account, str("")), (.service, str(""))])).status == .duplicateItem)
        #expect(f.add(spec(.genericPassword, [(.label, str("x"))])).status == .duplicateItem)
        #expect(f.add(spec(.genericPassword, [(.account, str("a"))])).status == .success)
        // A query for account "" finds the item with no account.
        let r = f.find(spec(.genericPassword, [(.account, str(""))], limit: .all))
        #expect(r.count == 1)
    }

    // MARK: 2.3 identities

    static func identity(cert serial: String = "01", label keyLabel: String = "pk1",
                         group: String? = nil) -> ItemSpec {
        spec(.identity, [(.certificateType, int(1)), (.issuer, str("CN=CA")), (.serialNumber, str(serial)),
                         (.applicationLabel, str(keyLabel)), (.keyType, str("ec"))], group: group)
    }
    static func certFor(serial: String = "01", hash: String = "pk1") -> ItemSpec {
        spec(.certificate, [(.certificateType, int(1)), (.issuer, str("CN=CA")), (.serialNumber, str(serial)),
                            (.publicKeyHash, str(hash))])
    }
    static func privateKey(label: String = "pk1") -> ItemSpec {
        spec(.key, [(.keyClass, str("private")), (.applicationLabel, str(label)), (.keyType, str("ec"))])
    }

    @Test("2.3 an identity is stored as its certificate and its key")
    func identityStoredAsParts() {
        var f = Fixture()
        let r = f.add(Self.identity())
        #expect(r.status == .success)
        #expect(Set(f.items.map(\.itemClass)) == [.certificate, .key])
        #expect(f.items.count == 2)
        #expect(!f.items.contains { $0.itemClass == .identity })
        #expect(f.find(Self.certFor()).status == .success)
        #expect(f.find(Self.privateKey()).status == .success)
        #expect(r.items.first?.identityKey != nil)
    }

    @Test("2.3 identity add: duplicate only if both certificate and key exist")
    func identityDuplicateBoth() {
        var f = Fixture()
        #expect(f.add(Self.identity()).status == .success)
        #expect(f.add(Self.identity()).status == .duplicateItem)
        #expect(f.keychain.count == 2)
    }

    @Test("2.3 identity add: only the certificate exists → success, key added")
    func identityCertExists() {
        var f = Fixture()
        f.mustAdd(Self.certFor())
        #expect(f.add(Self.identity()).status == .success)
        #expect(f.items.filter { $0.itemClass == .certificate }.count == 1)
        #expect(f.items.filter { $0.itemClass == .key }.count == 1)
    }

    @Test("2.3 identity add: only the key exists → success, certificate added")
    func identityKeyExists() {
        var f = Fixture()
        f.mustAdd(Self.privateKey())
        #expect(f.add(Self.identity()).status == .success)
        #expect(f.items.filter { $0.itemClass == .certificate }.count == 1)
        #expect(f.items.filter { $0.itemClass == .key }.count == 1)
    }

    @Test("2.3 find identity pairs certificate and key by public-key hash = application label")
    func identityPairing() {
        var f = Fixture()
        f.mustAdd(Self.certFor(serial: "01", hash: "pk1"))
        f.mustAdd(Self.certFor(serial: "02", hash: "nokey"))
        f.mustAdd(Self.privateKey(label: "pk1"))
        f.mustAdd(Self.privateKey(label: "pk3"))
        let r = f.find(spec(.identity, limit: .all))
        #expect(r.status == .success)
        #expect(r.count == 1)
        #expect(r.items.first?.item.attributes[.serialNumber] == str("01"))
        #expect(r.items.first?.identityKey?.item.attributes[.applicationLabel] == str("pk1"))
    }

    @Test("2.3 find identity: a certificate whose key is missing is no identity")
    func identityWithoutKey() {
        var f = Fixture()
        f.mustAdd(Self.certFor(hash: "pk1"))
        f.mustAdd(Self.privateKey(label: "other"))
        #expect(f.find(spec(.identity)).status == .itemNotFound)
    }

    @Test("2.3 find identity: the key must be a private key")
    func identityNeedsPrivateKey() {
        var f = Fixture()
        f.mustAdd(Self.certFor(hash: "pk1"))
        f.mustAdd(spec(.key, [(.keyClass, str("public")), (.applicationLabel, str("pk1"))]))
        #expect(f.find(spec(.identity)).status == .itemNotFound)
    }

    @Test("2.3 identity add then find: the pair is found and both parts are deleted together")
    func identityRoundTrip() {
        var f = Fixture()
        f.mustAdd(Self.identity())
        #expect(f.find(spec(.identity)).status == .success)
        let d = f.delete(spec(.identity))
        #expect(d.status == .success)
        #expect(f.keychain.count == 0)
    }

    // MARK: 2.4 default accessibility

    @Test("2.4 default accessibility per class", arguments: [
        (ItemClass.genericPassword, Accessibility.whenUnlocked),
        (.internetPassword, .whenUnlocked),
        (.key, .whenUnlocked),
        (.certificate, .always),
    ])
    func defaultAccessibility(c: ItemClass, expected: Accessibility) {
        #expect(c.defaultAccessibility == expected)
        var f = Fixture()
        #expect(f.add(keyed(c)).status == .success)
        #expect(f.items.first?.accessibility == expected)
        // A query filtering on the default finds it; another value does not.
        var q = keyed(c)
        q.accessibility = expected
        #expect(f.find(q).status == .success)
        q.accessibility = .afterFirstUnlock
        #expect(f.find(q).status == .itemNotFound)
    }

    @Test("2.4 explicit accessibility overrides the default",
          arguments: [ItemClass.genericPassword, .internetPassword, .certificate, .key])
    func explicitAccessibility(c: ItemClass) {
        var f = Fixture()
        #expect(f.add(keyed(c, accessibility: .afterFirstUnlockThisDeviceOnly)).status == .success)
        #expect(f.items.first?.accessibility == .afterFirstUnlockThisDeviceOnly)
    }

    @Test("2.4 identity parts: certificate defaults to always, key to when-unlocked")
    func identityPartsDefaultAccessibility() {
        var f = Fixture()
        f.mustAdd(Self.identity())
        #expect(f.items.first { $0.itemClass == .certificate }?.accessibility == .always)
        #expect(f.items.first { $0.itemClass == .key }?.accessibility == .whenUnlocked)
    }

    @Test("2.5 accessibility values, most restrictive first")
    func accessibilityOrder() {
        #expect(Accessibility.allCases == [
            .whenPasscodeSetThisDeviceOnly, .whenUnlocked, .whenUnlockedThisDeviceOnly,
            .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly, .always, .alwaysThisDeviceOnly,
        ])
        #expect(Accessibility.allCases.filter(\.isDeprecated) == [.always, .alwaysThisDeviceOnly])
        #expect(Accessibility.allCases.filter(\.isThisDeviceOnly) == [
            .whenPasscodeSetThisDeviceOnly, .whenUnlockedThisDeviceOnly,
            .afterFirstUnlockThisDeviceOnly, .alwaysThisDeviceOnly,
        ])
    }

    @Test("2.5 restrictiveness: what each accessibility needs of the device", arguments: Accessibility.allCases)
    func availability(a: Accessibility) {
        var locked = DeviceState(); locked.isLocked = true
        var beforeFirstUnlock = DeviceState(); beforeFirstUnlock.isLocked = true; beforeFirstUnlock.unlockedSinceBoot = false
        var noPasscode = DeviceState(); noPasscode.hasPasscode = false
        let unlocked = DeviceState()
        #expect(unlocked.isAvailable(a))
        switch a {
        case .whenPasscodeSetThisDeviceOnly:
            #expect(!locked.isAvailable(a)); #expect(!noPasscode.isAvailable(a))
        case .whenUnlocked, .whenUnlockedThisDeviceOnly:
            #expect(!locked.isAvailable(a)); #expect(noPasscode.isAvailable(a))
        case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly:
            #expect(locked.isAvailable(a)); #expect(!beforeFirstUnlock.isAvailable(a))
        case .always, .alwaysThisDeviceOnly:
            #expect(locked.isAvailable(a)); #expect(beforeFirstUnlock.isAvailable(a))
        }
    }
}
