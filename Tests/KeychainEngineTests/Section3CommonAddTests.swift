import Testing
@testable import KeychainEngine

/// semantics.md section 3: common rules and SecItemAdd.
@Suite("3 common rules and add")
struct Section3CommonAddTests {

    // MARK: Common rules

    @Test("3 common: missing class → errSecParam", arguments: bothPlatforms, Operation.allCases)
    func missingClass(platform: Platform, op: Operation) {
        var f = Fixture(platform: platform)
        f.mustAdd(gp("a"))
        var q = gp("a")
        q.itemClass = nil
        let r = f.call(op, q, changes: op == .update ? spec(nil, [(.label, str("x"))]) : nil)
        #expect(r.status == .param)
        #expect(r.reason == .missingClass)
        #expect(f.keychain.count == 1)
    }

    @Test("3 common: unknown class names are not classes",
          arguments: ["password", "kSecClassBogus", "", "Identity"])
    func unknownClass(name: String) {
        #expect(ItemClass(name: name) == nil)
    }

    @Test("3 common: class names and constants", arguments: ItemClass.allCases)
    func classNames(c: ItemClass) {
        #expect(ItemClass(name: c.rawValue) == c)
        #expect(ItemClass(name: c.constantName) == c)
    }

    @Test("3 common: attribute not in class → errSecNoSuchAttr", arguments: [
        (ItemClass.genericPassword, ItemAttribute.server),
        (.genericPassword, .serialNumber),
        (.internetPassword, .service),
        (.internetPassword, .generic),
        (.certificate, .account),
        (.key, .service),
        (.key, .issuer),
    ], Operation.allCases)
    func foreignAttribute(pair: (ItemClass, ItemAttribute), op: Operation) {
        let (c, attribute) = pair
        var f = Fixture()
        let q = spec(c, [(attribute, str("x"))])
        let r = f.call(op, q, changes: op == .update ? spec(nil, [(.label, str("x"))]) : nil)
        #expect(r.status == .noSuchAttr)
        #expect(r.reason == .attributeNotInClass(attribute, c))
        #expect(f.keychain.count == 0)
    }

    @Test("3 common: attribute not in class among update changes → errSecNoSuchAttr")
    func foreignAttributeInChanges() {
        var f = Fixture()
        f.mustAdd(gp("a"))
        let r = f.update(gp("a"), spec(nil, [(.server, str("x"))]))
        #expect(r.status == .noSuchAttr)
        #expect(f.items.first?.attributes[.server] == nil)
    }

    /// Three items: non-sync "n", sync "s", and a second non-sync "m".
    static func syncFixture(_ platform: Platform) -> Fixture {
        var f = Fixture(platform: platform)
        f.mustAdd(gp("n"))
        f.mustAdd(gp("s", sync: .yes))
        f.mustAdd(gp("m", sync: .no))
        return f
    }

    @Test("3 common: sync filter on find", arguments: bothPlatforms, [
        (SyncSelector?.none, ["n", "m"]),
        (.no, ["n", "m"]),
        (.yes, ["s"]),
        (.any, ["n", "s", "m"]),
    ])
    func syncFilterFind(platform: Platform, row: (SyncSelector?, [String])) {
        let (sync, expected) = row
        var f = Self.syncFixture(platform)
        let r = f.find(allGP(sync: sync))
        #expect(r.status == .success)
        #expect(r.accounts == expected)
    }

    @Test("3 common: sync filter on update", arguments: [
        (SyncSelector?.none, ["n", "m"]),
        (.no, ["n", "m"]),
        (.yes, ["s"]),
        (.any, ["n", "s", "m"]),
    ])
    func syncFilterUpdate(sync: SyncSelector?, expected: [String]) {
        var f = Self.syncFixture(ios18)
        let r = f.update(spec(.genericPassword, sync: sync), spec(nil, [(.label, str("changed"))]))
        #expect(r.status == .success)
        let changed = f.items.filter { $0.attributes[.label] == str("changed") }
            .map { $0.attributes[.account] }
        #expect(changed == expected.map { str($0) })
    }

    @Test("3 common: sync filter on delete", arguments: [
        (SyncSelector?.none, ["s"]),
        (.no, ["s"]),
        (.yes, ["n", "m"]),
        (.any, []),
    ])
    func syncFilterDelete(sync: SyncSelector?, remaining: [String]) {
        var f = Self.syncFixture(ios18)
        let r = f.delete(spec(.genericPassword, sync: sync))
        #expect(r.status == .success)
        #expect(f.items.map { $0.attributes[.account] } == remaining.map { str($0) })
    }

    @Test("3 common: without sync a query misses a sync-only item", arguments: [Operation.find, .update, .delete])
    func syncOnlyMissed(op: Operation) {
        var f = Fixture()
        f.mustAdd(gp("s", sync: .yes))
        let r = f.call(op, gp("s"), changes: op == .update ? spec(nil, [(.label, str("x"))]) : nil)
        #expect(r.status == .itemNotFound)
        #expect(f.keychain.count == 1)
        #expect(f.items.first?.attributes[.label] == nil)
    }

    @Test("3 common: sync filter with a complete primary key", arguments: [
        (SyncSelector?.none, [false]), (.no, [false]), (.yes, [true]), (.any, [true, false]),  // sync one inserted first
    ])
    func syncFilterFullKey(row: (SyncSelector?, [Bool])) {
        let (sync, expected) = row
        var f = Fixture()
        f.mustAdd(gp("k", sync: .yes))
        f.mustAdd(gp("k"))
        let r = f.find(gp("k", sync: sync, limit: .all))
        #expect(r.items.map(\.item.synchronizable) == expected)
    }

    @Test("3 common: accessibility named in a query filters on it", arguments: [Operation.find, .update, .delete])
    func accessibilityFilter(op: Operation) {
        var f = Fixture()
        f.mustAdd(gp("wu"))  // when-unlocked by default
        f.mustAdd(gp("afu", accessibility: .afterFirstUnlock))
        f.mustAdd(gp("afu2", accessibility: .afterFirstUnlock))
        var q = spec(.genericPassword, accessibility: .afterFirstUnlock, limit: op == .find ? .all : nil)
        let r = f.call(op, q, changes: op == .update ? spec(nil, [(.label, str("x"))]) : nil)
        #expect(r.status == .success)
        #expect(r.accounts == ["afu", "afu2"])
        q.accessibility = .alwaysThisDeviceOnly
        let none = f.call(op, q, changes: op == .update ? spec(nil, [(.label, str("x"))]) : nil)
        #expect(none.status == .itemNotFound)
    }

    // MARK: Add

    @Test("3 add: explicit group not in list → errSecMissingEntitlement", arguments: bothPlatforms, [
        "", "\(teamB).shared", "\(teamA).other", "group.other", "\(teamA).com.example.plain", "shared",
    ])
    func addUnentitledGroup(platform: Platform, group: String) {
        var f = Fixture(platform: platform)
        let r = f.add(gp("a", group: group))
        #expect(r.status == .missingEntitlement)
        #expect(r.reason == .groupNotEntitled(AttributeText(group)))
        #expect(f.keychain.count == 0)
    }

    @Test("3 add: explicit entitled group stores the item there", arguments: bothPlatforms, [
        Fixture.shared, Fixture.second, Fixture.mainID, Fixture.appGroup,
    ])
    func addEntitledGroup(platform: Platform, group: String) {
        var f = Fixture(platform: platform)
        let r = f.add(gp("a", group: group))
        #expect(r.status == .success)
        #expect(r.groups == [group])
        #expect(f.items.map(f.groupName) == [group])
    }

    @Test("3 add: no group → the default group", arguments: bothPlatforms)
    func addDefaultGroup(platform: Platform) {
        var f = Fixture(platform: platform)
        #expect(f.add(gp("a")).groups == [Fixture.shared])
        #expect(f.add(gp("a"), as: f.plain).groups == [Fixture.plainID])
        #expect(f.add(gp("a"), as: f.foreign).groups == [Fixture.foreignShared])
    }

    @Test("3 add: accessibility together with an access-control object → errSecParam")
    func addAccessibilityAndAC() {
        var f = Fixture()
        let r = f.add(spec(.genericPassword, [(.account, str("a"))], accessibility: .whenUnlocked,
                           accessControl: AccessControl(flags: [.userPresence])))
        #expect(r.status == .param)
        #expect(r.reason == .accessibilityWithAccessControl)
        #expect(f.keychain.count == 0)
    }

    @Test("3 find, update, delete: accessibility with an access control in the query → errSecParam (query_set_access_control)",
          arguments: [Operation.find, .update, .delete])
    func queryAccessibilityAndAC(_ op: Operation) {
        var f = Fixture()
        f.mustAdd(gp("a", accessibility: .whenUnlocked))
        let both = spec(.genericPassword, [(.account, str("a"))], accessibility: .whenUnlocked,
                        accessControl: AccessControl(protection: .whenUnlocked, flags: []))
        let r = f.call(op, both, changes: op == .update ? spec(nil, [(.label, str("x"))]) : nil)
        #expect(r.status == .param)
        #expect(r.reason == .accessibilityWithAccessControl)
        #expect(f.keychain.count == 1)
        // Either alone: accessibility filters, an access control does not.
        #expect(f.find(spec(.genericPassword, [(.account, str("a"))], accessibility: .whenUnlocked)).status == .success)
        #expect(f.find(spec(.genericPassword, [(.account, str("a"))],
                            accessControl: AccessControl(flags: [.userPresence]))).status == .success)
    }

    @Test("3 add: synchronizable with an access-control object → errSecParam",
          arguments: [[AccessControl.Flag.userPresence], [.biometryAny, .devicePasscode]])
    func addSyncAndAC(flags: [AccessControl.Flag]) {
        var f = Fixture()
        let r = f.add(spec(.genericPassword, [(.account, str("a"))], sync: .yes,
                           accessControl: AccessControl(flags: flags)))
        #expect(r.status == .param)
        #expect(r.reason == .syncWithAccessControl)
        #expect(f.keychain.count == 0)
    }

    @Test("3 add: synchronizable with the access-control check comes before the group check")
    func addSyncACBeforeGroup() {
        var f = Fixture()
        let r = f.add(spec(.genericPassword, group: "\(teamB).x", sync: .yes,
                           accessControl: AccessControl(flags: [.userPresence])))
        #expect(r.status == .param)
    }

    @Test("3 add: access control without sync is accepted and protects with its accessibility")
    func addACOnly() {
        var f = Fixture()
        let r = f.add(spec(.genericPassword, [(.account, str("a"))],
                           accessControl: AccessControl(protection: .afterFirstUnlock, flags: [.userPresence])))
        #expect(r.status == .success)
        #expect(f.items.first?.accessibility == .afterFirstUnlock)
        #expect(f.items.first?.accessControl?.flags == [.userPresence])
    }

    @Test("3 add: synchronizable with a this-device-only accessibility → success", arguments: [
        Accessibility.whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly, .alwaysThisDeviceOnly,
        .whenPasscodeSetThisDeviceOnly,
    ])
    func addSyncThisDeviceOnly(a: Accessibility) {
        var f = Fixture()
        let r = f.add(gp("a", sync: .yes, accessibility: a))
        #expect(r.status == .success)
        #expect(f.keychain.count == 1)
        #expect(f.items.first?.accessibility == a)
    }

    @Test("3 add: sync=any stores a non-synchronizable item without error")
    func addSyncAny() {
        var f = Fixture()
        let r = f.add(gp("a", sync: .any))
        #expect(r.status == .success)
        #expect(f.items.first?.synchronizable == false)
        #expect(f.find(gp("a")).status == .success)
        #expect(f.find(gp("a", sync: .yes)).status == .itemNotFound)
        // It collides with an explicit non-sync add.
        #expect(f.add(gp("a", sync: .no)).status == .duplicateItem)
        #expect(f.add(gp("a", sync: .yes)).status == .success)
    }

    @Test("3 add: sync=true stores a synchronizable item")
    func addSyncTrue() {
        var f = Fixture()
        #expect(f.add(gp("a", sync: .yes)).status == .success)
        #expect(f.items.first?.synchronizable == true)
    }

    @Test("3 add: when-passcode-set without a passcode → errSecAuthFailed as plain accessibility")
    func addPasscodeSetPlain() {
        var f = Fixture()
        f.state.hasPasscode = false
        let r = f.add(gp("a", accessibility: .whenPasscodeSetThisDeviceOnly))
        #expect(r.status == .authFailed)
        #expect(r.reason == .passcodeRequired(viaAccessControl: false))
        #expect(f.keychain.count == 0)
    }

    @Test("3 add: when-passcode-set without a passcode → errSecNotAvailable through access control")
    func addPasscodeSetAC() {
        var f = Fixture()
        f.state.hasPasscode = false
        let r = f.add(spec(.genericPassword, [(.account, str("a"))],
                           accessControl: AccessControl(protection: .whenPasscodeSetThisDeviceOnly, flags: [.userPresence])))
        #expect(r.status == .notAvailable)
        #expect(r.reason == .passcodeRequired(viaAccessControl: true))
        #expect(f.keychain.count == 0)
    }

    @Test("3 add: when-passcode-set with a passcode succeeds")
    func addPasscodeSetOK() {
        var f = Fixture()
        #expect(f.add(gp("a", accessibility: .whenPasscodeSetThisDeviceOnly)).status == .success)
    }

    @Test("3 add: locked device and a class that needs unlocking → errSecInteractionNotAllowed", arguments: [
        (Accessibility?.none, true),
        (.whenUnlocked, true), (.whenUnlockedThisDeviceOnly, true), (.whenPasscodeSetThisDeviceOnly, true),
        (.afterFirstUnlock, false), (.afterFirstUnlockThisDeviceOnly, false), (.always, false),
        (.alwaysThisDeviceOnly, false),
    ])
    func addLocked(a: Accessibility?, refused: Bool) {
        var f = Fixture()
        f.state.isLocked = true
        let r = f.add(gp("a", accessibility: a))
        #expect(r.status == (refused ? .interactionNotAllowed : .success))
        #expect(f.keychain.count == (refused ? 0 : 1))
    }

    @Test("3 add: before first unlock after-first-unlock items cannot be added")
    func addBeforeFirstUnlock() {
        var f = Fixture()
        f.state.isLocked = true
        f.state.unlockedSinceBoot = false
        #expect(f.add(gp("a", accessibility: .afterFirstUnlock)).status == .interactionNotAllowed)
        #expect(f.add(gp("b", accessibility: .always)).status == .success)
    }

    @Test("3 add: a certificate (default always) can be added while locked")
    func addCertLocked() {
        var f = Fixture()
        f.state.isLocked = true
        #expect(f.add(keyed(.certificate)).status == .success)
        #expect(f.add(keyed(.key)).status == .interactionNotAllowed)
    }

    @Test("3 add: locked is checked before the duplicate check")
    func addLockedBeforeDuplicate() {
        var f = Fixture()
        f.mustAdd(gp("a"))
        f.state.isLocked = true
        #expect(f.add(gp("a")).status == .interactionNotAllowed)
        // An item of an always-available class still reports the duplicate.
        f.state.isLocked = false
        f.mustAdd(gp("b", accessibility: .always))
        f.state.isLocked = true
        #expect(f.add(gp("b", accessibility: .always)).status == .duplicateItem)
    }

    @Test("3 add: same primary key already present → errSecDuplicateItem", arguments: bothPlatforms)
    func addDuplicate(platform: Platform) {
        var f = Fixture(platform: platform)
        let first = f.add(gp("a", data: "one"))
        #expect(first.status == .success)
        let r = f.add(gp("a", data: "two"))
        #expect(r.status == .duplicateItem)
        #expect(r.reason == .duplicate(existing: first.items[0].id))
        #expect(f.keychain.count == 1)
        #expect(f.items.first?.data == "one")
        // Explicitly naming the default group is the same item.
        #expect(f.add(gp("a", group: Fixture.shared)).status == .duplicateItem)
    }

    @Test("3 add: the same key from another app sharing the group is a duplicate")
    func addDuplicateAcrossApps() throws {
        var w = World()
        try w.addTeam(id: teamA)
        let a = try w.addApp(bundleID: "com.a", name: "a", teamID: teamA, keychainAccessGroups: ["\(teamA).s"])
        let b = try w.addApp(bundleID: "com.b", name: "b", teamID: teamA, keychainAccessGroups: ["\(teamA).s"])
        #expect(w.perform(CallRequest(.add, gp("x")), as: a).status == .success)
        #expect(w.perform(CallRequest(.add, gp("x")), as: b).status == .duplicateItem)
    }

    @Test("3 add: return kinds are echoed")
    func addReturns() {
        var f = Fixture()
        let r = f.add(gp("a", data: "secret", returns: [.attributes, .persistentReference]))
        #expect(r.status == .success)
        #expect(r.returns == [.attributes, .persistentReference])
        #expect(r.items.first?.item.data == "secret")
    }
}
