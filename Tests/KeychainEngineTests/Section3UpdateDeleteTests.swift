import Testing
@testable import KeychainEngine

func label(_ s: String) -> ItemSpec { spec(nil, [(.label, str(s))]) }
func moveTo(_ group: String) -> ItemSpec { spec(nil, group: group) }

/// semantics.md section 3: SecItemUpdate.
@Suite("3 update")
struct Section3UpdateTests {

    @Test("3 update: match limit in the query → errSecParam", arguments: bothPlatforms,
          [MatchLimit.one, .all, .count(2)])
    func updateLimit(platform: Platform, limit: MatchLimit) {
        var f = Fixture(platform: platform)
        f.mustAdd(gp("a"))
        let r = f.update(gp("a", limit: limit), label("x"))
        #expect(r.status == .param)
        #expect(r.reason == .limitOrReturnOnUpdate)
        #expect(f.items.first?.attributes[.label] == nil)
    }

    @Test("3 update: any return key in the query → errSecParam", arguments: bothPlatforms, [
        ReturnKinds.data, .attributes, .reference, .persistentReference, [.data, .attributes],
    ])
    func updateReturn(platform: Platform, returns: ReturnKinds) {
        var f = Fixture(platform: platform)
        f.mustAdd(gp("a"))
        let r = f.update(gp("a", returns: returns), label("x"))
        #expect(r.status == .param)
        #expect(f.items.first?.attributes[.label] == nil)
    }

    @Test("3 update: limit or return is errSecParam even when nothing matches")
    func updateLimitNoMatch() {
        var f = Fixture()
        #expect(f.update(gp("none", limit: .all), label("x")).status == .param)
        #expect(f.update(gp("none", returns: .data), label("x")).status == .param)
    }

    @Test("3 update: explicit query group not in list → errSecMissingEntitlement on iOS 18",
          arguments: Section3FindTests.unentitled)
    func updateUnentitledIOS18(group: String) {
        var f = Fixture(platform: ios18)
        f.mustAdd(gp("a"), as: f.plain)
        let r = f.update(gp("a", group: group), label("x"))
        #expect(r.status == .missingEntitlement)
        #expect(f.items.first?.attributes[.label] == nil)
    }

    @Test("3 update: explicit query group not in list → errSecItemNotFound on iOS 12",
          arguments: Section3FindTests.unentitled)
    func updateUnentitledIOS12(group: String) {
        var f = Fixture(platform: ios12)
        f.mustAdd(gp("a"), as: f.plain)
        let r = f.update(gp("a", group: group), label("x"))
        #expect(r.status == .itemNotFound)
        #expect(f.items.first?.attributes[.label] == nil)
    }

    @Test("3 update: an unentitled query group is checked before the class (iOS 18)")
    func updateGroupBeforeClass() {
        var f = Fixture()
        var q = gp("a", group: "\(teamB).shared")
        q.itemClass = nil
        #expect(f.update(q, label("x")).status == .missingEntitlement)
        // An entitled group with no class is still errSecParam.
        q.accessGroup = Fixture.shared
        #expect(f.update(q, label("x")).status == .param)
    }

    @Test("3 update: iOS 12 has no query-group check, so a missing class is errSecParam",
          arguments: [Operation.update, .delete])
    func iOS12ClassCheckWins(op: Operation) {
        var f = Fixture(platform: ios12)
        var q = gp("a", group: "\(teamB).shared")
        q.itemClass = nil
        #expect(f.call(op, q, changes: op == .update ? label("x") : nil).status == .param)
    }

    @Test("3 update: order of checks — return keys, then the new group, then the match limit")
    func updateCheckOrder() {
        var f = Fixture()
        f.mustAdd(gp("a"))
        // Return key wins over an unentitled move.
        #expect(f.update(gp("a", returns: .data), moveTo("\(teamB).x")).status == .param)
        // The unentitled move wins over a match limit (SecItemServer.c checks the
        // new group before s3dl_query_update rejects the limit).
        #expect(f.update(gp("a", limit: .all), moveTo("\(teamB).x")).status == .missingEntitlement)
        // The query group wins over everything after it.
        #expect(f.update(gp("a", group: "\(teamB).x", returns: .data), label("x")).status == .missingEntitlement)
        #expect(f.items.map(f.groupName) == [Fixture.shared])
    }

    @Test("3 update: kSecClass, a match, return or auth-UI key among the changes → errSecNoSuchAttr, after the new group")
    func updateQueryKeysInChanges() {
        var f = Fixture()
        f.mustAdd(gp("a"))
        var withClass = label("x")
        withClass.itemClass = .genericPassword
        var withLimit = label("x")
        withLimit.limit = .all
        var withReturn = label("x")
        withReturn.returns = .data
        var withUI = label("x")
        withUI.authUI = .fail
        for changes in [withClass, withLimit, withReturn, withUI] {
            let r = f.update(gp("a"), changes)
            #expect(r.status == .noSuchAttr)
            guard case .notAnAttributeToChange = r.reason else {
                Issue.record("reason \(r.reason)")
                continue
            }
        }
        #expect(f.items.first?.attributes[.label] == nil)
        // SecItemServer.c refuses an unentitled new group before s3dl_query_update parses the changes.
        var move = moveTo("\(teamB).x")
        move.itemClass = .genericPassword
        #expect(f.update(gp("a"), move).status == .missingEntitlement)
        // kSecUseDataProtectionKeychain among the changes is a no-op (SecDbAttrWithKey).
        var dp = label("x")
        dp.useDataProtectionKeychain = true
        #expect(f.update(gp("a"), dp).status == .success)
    }

    @Test("3 add, update, delete: auth-ui=skip outside a find → errSecParam (client side)",
          arguments: [Operation.add, .update, .delete])
    func skipOnlyInFind(op: Operation) {
        var f = Fixture()
        f.mustAdd(gp("a"))
        var q = gp(op == .add ? "b" : "a")
        q.authUI = .skip
        let r = f.call(op, q, changes: op == .update ? label("x") : nil)
        #expect(r.status == .param)
        #expect(r.reason == .skipOutsideFind)
        #expect(f.items.count == 1)
    }

    @Test("3 update: changes every match and nothing else", arguments: bothPlatforms)
    func updateEveryMatch(platform: Platform) {
        var f = Fixture(platform: platform)
        f.addInterleaved()
        f.mustAdd(gp("x", service: "other"))
        let r = f.update(spec(.genericPassword, [(.service, str("svc"))]), label("L"))
        #expect(r.status == .success)
        #expect(r.count == 5)
        let labelled = f.items.filter { $0.attributes[.label] == str("L") }.count
        #expect(labelled == 5)
        #expect(f.items.last?.attributes[.label] == nil)
    }

    @Test("3 update: explicit entitled query group limits the update to it")
    func updateExplicitGroup() {
        var f = Fixture()
        f.addInterleaved()
        let r = f.update(spec(.genericPassword, group: Fixture.second), label("L"))
        #expect(r.status == .success)
        #expect(r.accounts == ["a1", "a4"])
        #expect(f.items.filter { $0.attributes[.label] == str("L") }.map(f.groupName) == [Fixture.second, Fixture.second])
    }

    @Test("3 update: items in groups outside the list are untouched")
    func updateInvisible() {
        var f = Fixture()
        f.mustAdd(gp("a"), as: f.plain)
        #expect(f.update(gp("a"), label("x")).status == .itemNotFound)
        #expect(f.items.first?.attributes[.label] == nil)
    }

    @Test("3 update: changes data, accessibility and sync", arguments: bothPlatforms)
    func updateFields(platform: Platform) {
        var f = Fixture(platform: platform)
        f.mustAdd(gp("a", data: "old"))
        var changes = spec(nil, data: "new")
        changes.accessibility = .afterFirstUnlock
        changes.synchronizable = .yes
        #expect(f.update(gp("a"), changes).status == .success)
        #expect(f.items.first?.data == "new")
        #expect(f.items.first?.accessibility == .afterFirstUnlock)
        #expect(f.items.first?.synchronizable == true)
        #expect(f.find(gp("a")).status == .itemNotFound)
        #expect(f.find(gp("a", sync: .yes, returns: .data)).items.first?.item.data == "new")
    }

    @Test("3 update: a group among the changes moves the item", arguments: bothPlatforms,
          [Fixture.second, Fixture.mainID, Fixture.appGroup])
    func updateMove(platform: Platform, target: String) {
        var f = Fixture(platform: platform)
        f.mustAdd(gp("a"))
        let r = f.update(gp("a"), moveTo(target))
        #expect(r.status == .success)
        #expect(r.groups == [target])
        #expect(f.items.map(f.groupName) == [target])
        #expect(f.find(gp("a", group: Fixture.shared)).status == .itemNotFound)
        #expect(f.find(gp("a", group: target)).status == .success)
        // The old key is free again.
        #expect(f.add(gp("a")).status == .success)
    }

    @Test("3 update: moving into a group shared with another app makes it visible there")
    func updateMoveShares() throws {
        var w = World()
        try w.addTeam(id: teamA)
        let a = try w.addApp(bundleID: "com.a", name: "a", teamID: teamA, keychainAccessGroups: ["\(teamA).s"])
        let b = try w.addApp(bundleID: "com.b", name: "b", teamID: teamA, keychainAccessGroups: ["\(teamA).s"])
        #expect(w.perform(CallRequest(.add, gp("x", group: "\(teamA).com.a")), as: a).status == .success)
        #expect(w.perform(CallRequest(.find, gp("x")), as: b).status == .itemNotFound)
        #expect(w.perform(CallRequest(.update, gp("x"), changes: moveTo("\(teamA).s")), as: a).status == .success)
        #expect(w.perform(CallRequest(.find, gp("x")), as: b).status == .success)
    }

    @Test("3 update: moving into an unentitled group", arguments: [
        (ios18, KeychainStatus.missingEntitlement), (ios12, .noAccessForItem),
        (Platform(.ios, 13), .missingEntitlement),
    ], ["", "\(teamB).shared", Fixture.plainID, "group.other"])
    func updateMoveUnentitled(row: (Platform, KeychainStatus), target: String) {
        let (platform, expected) = row
        var f = Fixture(platform: platform)
        f.mustAdd(gp("a"))
        let r = f.update(gp("a"), moveTo(target))
        #expect(r.status == expected)
        #expect(r.reason == .moveNotEntitled(AttributeText(target)))
        #expect(f.items.map(f.groupName) == [Fixture.shared])
    }

    @Test("3 update: duplicate on update → errSecDuplicateItem, nothing changes", arguments: bothPlatforms)
    func updateDuplicate(platform: Platform) {
        var f = Fixture(platform: platform)
        f.mustAdd(gp("a", data: "A"))
        f.mustAdd(gp("b", data: "B"))
        let before = f.items
        var changes = spec(nil, [(.account, str("b")), (.label, str("L"))], data: "changed")
        let r = f.update(gp("a"), changes)
        #expect(r.status == .duplicateItem)
        #expect(f.items == before)
        // Two matches that would both get the same key: atomic, neither changes.
        changes = spec(nil, [(.account, str("same"))])
        let both = f.update(spec(.genericPassword, [(.service, str("svc"))]), changes)
        #expect(both.status == .duplicateItem)
        #expect(f.items == before)
    }

    @Test("3 update: duplicate when a move lands on an existing key, nothing changes")
    func updateMoveDuplicate() {
        var f = Fixture()
        f.mustAdd(gp("a", group: Fixture.shared, data: "1"))
        f.mustAdd(gp("a", group: Fixture.second, data: "2"))
        f.mustAdd(gp("b", group: Fixture.shared, data: "3"))
        let before = f.items
        // Moving everything in shared to second: "a" collides, "b" would not.
        let r = f.update(spec(.genericPassword, group: Fixture.shared), moveTo(Fixture.second))
        #expect(r.status == .duplicateItem)
        #expect(f.items == before)
    }

    @Test("3 update: duplicate on update in a sync change")
    func updateSyncDuplicate() {
        var f = Fixture()
        f.mustAdd(gp("a"))
        f.mustAdd(gp("a", sync: .yes))
        var changes = spec(nil)
        changes.synchronizable = .yes
        #expect(f.update(gp("a"), changes).status == .duplicateItem)
        #expect(f.items.map(\.synchronizable) == [false, true])
    }

    @Test("3 update: two items swapping keys in one call is not a duplicate")
    func updateNoSelfDuplicate() {
        var f = Fixture()
        f.mustAdd(gp("a"))
        // Changing a non-key attribute of several items never collides with themselves.
        f.mustAdd(gp("b"))
        #expect(f.update(spec(.genericPassword), label("x")).status == .success)
        // Setting an item's key to its own key is not a duplicate.
        #expect(f.update(gp("a"), spec(nil, [(.account, str("a"))])).status == .success)
    }

    @Test("3 update: primary-key change keeps the item's insertion order")
    func updateKeepsOrder() {
        var f = Fixture()
        f.mustAdd(gp("a1"))
        f.mustAdd(gp("a2"))
        f.mustAdd(gp("a3"))
        #expect(f.update(gp("a1"), spec(nil, [(.account, str("z"))])).status == .success)
        #expect(f.find(allGP()).accounts == ["z", "a2", "a3"])
    }

    @Test("3 update: a move between groups keeps the item's insertion order")
    func updateMoveKeepsOrder() {
        var f = Fixture()
        f.addInterleaved()  // a1 second, a2 shared, a3 appGroup, a4 second, a5 mainID
        #expect(f.update(gp("a5"), moveTo(Fixture.second)).status == .success)
        #expect(f.update(gp("a2"), moveTo(Fixture.second)).status == .success)
        let second = f.find(allGP(group: Fixture.second))
        #expect(second.accounts == ["a1", "a2", "a4", "a5"])
        #expect(f.find(allGP()).accounts == ["a1", "a2", "a3", "a4", "a5"])
        #expect(f.find(allGP(group: Fixture.shared)).status == .itemNotFound)
    }

    @Test("3 update: nothing matches → errSecItemNotFound", arguments: bothPlatforms)
    func updateNothing(platform: Platform) {
        var f = Fixture(platform: platform)
        #expect(f.update(gp("a"), label("x")).status == .itemNotFound)
        f.mustAdd(gp("b"))
        let r = f.update(gp("a"), label("x"))
        #expect(r.status == .itemNotFound)
        #expect(r.reason == .noMatch)
    }

    @Test("3 update: locked as find — a locked match fails the call and nothing changes")
    func updateLocked() {
        var f = Fixture()
        f.mustAdd(gp("open", accessibility: .always))
        f.mustAdd(gp("closed"))
        f.state.isLocked = true
        let r = f.update(spec(.genericPassword), label("x"))
        #expect(r.status == .interactionNotAllowed)
        #expect(f.items.allSatisfy { $0.attributes[.label] == nil })
        #expect(f.update(gp("open"), label("x")).status == .success)
    }
}

/// semantics.md section 3: SecItemDelete.
@Suite("3 delete")
struct Section3DeleteTests {

    /// SecServerItemDelete (SecItemServer.c, Security-61901.0.87.0.1): "match
    /// limit not supported by delete" unless the limit is all (kSecMatchUnlimited),
    /// then "match not supported by delete" for any kSecMatch key, the limit
    /// all included (SecDbQuery.c query_add_match counts every one).
    @Test("3 delete: any match limit, all included → errSecParam", arguments: bothPlatforms,
          [MatchLimit.one, .count(1), .count(10), .all])
    func deleteLimit(platform: Platform, limit: MatchLimit) {
        var f = Fixture(platform: platform)
        f.mustAdd(gp("a"))
        let r = f.delete(gp("a", limit: limit))
        #expect(r.status == .param)
        #expect(r.reason == .limitOnDelete)
        #expect(f.keychain.count == 1)
    }

    /// SecItemDb.c s3dl_query_add returns errSecItemMatchUnsupported from a
    /// function returning bool: the add succeeds and stores nothing, before
    /// the duplicate check.
    @Test("3 add: a match limit reports success and stores nothing", arguments: bothPlatforms,
          [MatchLimit.one, .all])
    func addWithLimit(platform: Platform, limit: MatchLimit) {
        var f = Fixture(platform: platform)
        #expect(f.add(gp("a", limit: limit)).status == .success)
        #expect(f.keychain.count == 0)
        f.mustAdd(gp("a"))
        #expect(f.add(gp("a", limit: limit)).status == .success)
        #expect(f.keychain.count == 1)
    }

    /// macOS and Catalyst prune the match limit in the client (SecItem.cpp).
    @Test("3 delete: Catalyst ignores the limit")
    func deleteLimitCatalyst() {
        var f = Fixture(platform: Platform(.catalyst, 18))
        f.mustAdd(gp("a"))
        #expect(f.delete(gp("a", limit: .one)).status == .success)
        #expect(f.keychain.count == 0)
    }

    @Test("3 delete: explicit group not in list → errSecMissingEntitlement on iOS 18",
          arguments: Section3FindTests.unentitled)
    func deleteUnentitledIOS18(group: String) {
        var f = Fixture(platform: ios18)
        f.mustAdd(gp("a"), as: f.plain)
        #expect(f.delete(gp("a", group: group)).status == .missingEntitlement)
        #expect(f.keychain.count == 1)
    }

    @Test("3 delete: explicit group not in list → errSecItemNotFound on iOS 12",
          arguments: Section3FindTests.unentitled)
    func deleteUnentitledIOS12(group: String) {
        var f = Fixture(platform: ios12)
        f.mustAdd(gp("a"), as: f.plain)
        #expect(f.delete(gp("a", group: group)).status == .itemNotFound)
        #expect(f.keychain.count == 1)
    }

    @Test("3 delete: an unentitled query group is checked before the class (iOS 18)")
    func deleteGroupBeforeClass() {
        var f = Fixture()
        var q = gp("a", group: "\(teamB).shared")
        q.itemClass = nil
        #expect(f.delete(q).status == .missingEntitlement)
        q.accessGroup = Fixture.shared
        #expect(f.delete(q).status == .param)
    }

    @Test("3 delete: the query group is checked before the match limit")
    func deleteGroupBeforeLimit() {
        var f = Fixture()
        #expect(f.delete(gp("a", group: "\(teamB).x", limit: .all)).status == .missingEntitlement)
    }

    @Test("3 delete: deletes every match across the caller's groups", arguments: bothPlatforms)
    func deleteEveryMatch(platform: Platform) {
        var f = Fixture(platform: platform)
        f.addInterleaved()
        f.mustAdd(gp("keep", service: "other"))
        f.mustAdd(gp("a1"), as: f.plain)  // invisible to main
        let r = f.delete(spec(.genericPassword, [(.service, str("svc"))]))
        #expect(r.status == .success)
        #expect(r.accounts == ["a1", "a2", "a3", "a4", "a5"])
        #expect(f.items.map { $0.attributes[.account] } == [str("keep"), str("a1")])
        #expect(f.items.map(f.groupName) == [Fixture.shared, Fixture.plainID])
    }

    @Test("3 delete: explicit entitled group deletes only there", arguments: bothPlatforms)
    func deleteExplicitGroup(platform: Platform) {
        var f = Fixture(platform: platform)
        f.addInterleaved()
        let r = f.delete(spec(.genericPassword, group: Fixture.second))
        #expect(r.status == .success)
        #expect(r.accounts == ["a1", "a4"])
        #expect(f.find(allGP()).accounts == ["a2", "a3", "a5"])
    }

    @Test("3 delete: nothing matches → errSecItemNotFound", arguments: bothPlatforms)
    func deleteNothing(platform: Platform) {
        var f = Fixture(platform: platform)
        #expect(f.delete(gp("a")).status == .itemNotFound)
        f.mustAdd(gp("b"))
        #expect(f.delete(gp("a")).status == .itemNotFound)
        #expect(f.delete(gp("b")).status == .success)
        #expect(f.delete(gp("b")).status == .itemNotFound)
        #expect(f.keychain.count == 0)
    }

    @Test("3 delete: items of other classes are untouched")
    func deleteOtherClass() {
        var f = Fixture()
        f.mustAdd(gp("a"))
        f.mustAdd(spec(.internetPassword, [(.account, str("a"))]))
        #expect(f.delete(spec(.genericPassword, [(.account, str("a"))])).status == .success)
        #expect(f.items.map(\.itemClass) == [.internetPassword])
    }
}
