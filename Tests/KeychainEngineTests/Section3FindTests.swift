import Testing
@testable import KeychainEngine

/// Groups used to interleave items: accounts a1…a5 land in these groups in turn,
/// deliberately not in the caller's list order.
let interleavedGroups = [Fixture.second, Fixture.shared, Fixture.appGroup, Fixture.second, Fixture.mainID]

extension Fixture {
    /// Adds a1…a5 across the main app's groups, out of list order.
    mutating func addInterleaved() {
        for (i, g) in interleavedGroups.enumerated() { mustAdd(gp("a\(i + 1)", group: g)) }
    }
}

/// semantics.md section 3: SecItemCopyMatching.
@Suite("3 find")
struct Section3FindTests {

    static let unentitled = ["", "\(teamB).shared", "\(teamA).other", Fixture.plainID, "group.other"]

    @Test("3 find: explicit group not in list → errSecMissingEntitlement on iOS 18", arguments: unentitled)
    func findUnentitledIOS18(group: String) {
        var f = Fixture(platform: ios18)
        f.mustAdd(gp("a"), as: f.plain)
        f.mustAdd(gp("a"), as: f.foreign)
        let r = f.find(gp("a", group: group))
        #expect(r.status == .missingEntitlement)
        #expect(r.reason == .groupNotEntitled(AttributeText(group)))
        #expect(r.items.isEmpty)
    }

    @Test("3 find: explicit group not in list → errSecItemNotFound on iOS 12", arguments: unentitled)
    func findUnentitledIOS12(group: String) {
        var f = Fixture(platform: ios12)
        // Even when an item exists in that group.
        f.mustAdd(gp("a"), as: f.plain)
        f.mustAdd(gp("a"), as: f.foreign)
        let r = f.find(gp("a", group: group))
        #expect(r.status == .itemNotFound)
        #expect(r.items.isEmpty)
    }

    @Test("3 find: version boundary for unentitled query groups", arguments: [
        (Platform(.ios, 12), KeychainStatus.itemNotFound), (Platform(.ios, 13), .missingEntitlement),
        (Platform(.ios, 11), .itemNotFound), (Platform(.ios, 17), .missingEntitlement),
    ])
    func findVersionBoundary(platform: Platform, expected: KeychainStatus) {
        var f = Fixture(platform: platform)
        #expect(f.find(gp("a", group: "\(teamB).shared")).status == expected)
    }

    @Test("3 find: missing class is checked before the explicit group", arguments: bothPlatforms)
    func findClassBeforeGroup(platform: Platform) {
        var f = Fixture(platform: platform)
        var q = gp("a", group: "\(teamB).shared")
        q.itemClass = nil
        #expect(f.find(q).status == .param)
    }

    @Test("3 find: explicit entitled group searches only that group", arguments: bothPlatforms, [
        Fixture.shared, Fixture.second, Fixture.mainID, Fixture.appGroup,
    ])
    func findEntitledGroup(platform: Platform, group: String) {
        var f = Fixture(platform: platform)
        f.addInterleaved()
        let r = f.find(allGP(group: group))
        #expect(r.status == .success)
        #expect(r.searchedGroups(in: f.world) == [group])
        #expect(!r.items.isEmpty)
        #expect(r.groups.allSatisfy { $0 == group })
        let expected = interleavedGroups.enumerated().filter { $0.element == group }.map { "a\($0.offset + 1)" }
        #expect(r.accounts == expected)
    }

    @Test("3 find: no group searches every group in the list", arguments: bothPlatforms)
    func findAllGroups(platform: Platform) {
        var f = Fixture(platform: platform)
        f.addInterleaved()
        let r = f.find(allGP())
        // iOS 10-12 append com.apple.token to every list and search it too
        // (Security-58286 `SecTaskCopyAccessGroups`; session 22).
        let token = platform.appendsTokenGroup && !platform.dropsTokenGroupFromImplicitQueries ? [AppTarget.tokenGroup] : []
        #expect(r.searchedGroups(in: f.world) == [Fixture.shared, Fixture.second, Fixture.mainID, Fixture.appGroup] + token)
        #expect(r.count == 5)
    }

    @Test("3 find: items in other groups are invisible, never an error", arguments: bothPlatforms)
    func findOtherGroupsInvisible(platform: Platform) {
        var f = Fixture(platform: platform)
        f.mustAdd(gp("a"), as: f.plain)
        f.mustAdd(gp("a"), as: f.foreign)
        #expect(f.find(gp("a")).status == .itemNotFound)
        #expect(f.find(allGP()).status == .itemNotFound)
        f.mustAdd(gp("a"))
        let r = f.find(gp("a", limit: .all))
        #expect(r.status == .success)
        #expect(r.groups == [Fixture.shared])
    }

    @Test("3 find: match limits and insertion order across several groups", arguments: bothPlatforms, [
        (MatchLimit?.none, ["a1"]),
        (.one, ["a1"]),
        (.all, ["a1", "a2", "a3", "a4", "a5"]),
        (.count(1), ["a1"]),
        (.count(3), ["a1", "a2", "a3"]),
        (.count(5), ["a1", "a2", "a3", "a4", "a5"]),
        (.count(50), ["a1", "a2", "a3", "a4", "a5"]),
    ])
    func findLimits(platform: Platform, row: (MatchLimit?, [String])) {
        let (limit, expected) = row
        var f = Fixture(platform: platform)
        f.addInterleaved()
        let r = f.find(spec(.genericPassword, limit: limit))
        #expect(r.status == .success)
        #expect(r.accounts == expected)
        #expect(r.groups == Array(interleavedGroups.prefix(expected.count)))
    }

    @Test("3 find: insertion order with a complete primary key across groups")
    func findKeyLookupOrder() {
        var f = Fixture()
        // Same key in three groups, inserted in an order unlike the list order.
        for g in [Fixture.appGroup, Fixture.shared, Fixture.second] { f.mustAdd(gp("k", group: g)) }
        let r = f.find(gp("k", limit: .all))
        #expect(r.groups == [Fixture.appGroup, Fixture.shared, Fixture.second])
        #expect(f.find(gp("k")).groups == [Fixture.appGroup])
    }

    @Test("3 find: insertion order survives delete and re-add")
    func findOrderAfterReAdd() {
        var f = Fixture()
        f.addInterleaved()
        #expect(f.delete(gp("a2")).status == .success)
        f.mustAdd(gp("a2", group: Fixture.shared))
        #expect(f.find(allGP()).accounts == ["a1", "a3", "a4", "a5", "a2"])
    }

    @Test("3 find: return kinds as asked", arguments: [
        ReturnKinds.data, .attributes, .reference, .persistentReference, [.data, .attributes], [],
    ], [MatchLimit.one, .all])
    func findReturns(returns: ReturnKinds, limit: MatchLimit) {
        var f = Fixture()
        f.mustAdd(gp("a", data: "one"))
        f.mustAdd(gp("b", data: "two"))
        let r = f.find(spec(.genericPassword, limit: limit, returns: returns))
        #expect(r.status == .success)
        #expect(r.returns == returns)
        // A reference alone to a password is nothing on iOS (the client
        // makes none: Platform.makesReferences(to:)), the status success.
        let expected: [String?] = returns == .reference ? [] : limit == .one ? ["one"] : ["one", "two"]
        #expect(r.items.map(\.item.data) == expected)
    }

    @Test("3 find: data with limit=all is allowed on iOS", arguments: bothPlatforms)
    func findDataAll(platform: Platform) {
        var f = Fixture(platform: platform)
        for (i, g) in interleavedGroups.enumerated() { f.mustAdd(gp("a\(i + 1)", group: g, data: "d\(i + 1)")) }
        let r = f.find(spec(.genericPassword, limit: .all, returns: .data))
        #expect(r.status == .success)
        #expect(r.count == 5)
    }

    /// SecItem.m SecItemCopyMatching asks for the attributes with data alone
    /// and hands back only the data: an item stored without data gives no
    /// value, so a single result is nil and an array leaves it out; the
    /// status stays success. Any other return kind keeps it.
    @Test("3 find: data alone leaves out items stored without data", arguments: bothPlatforms)
    func findDataAloneWithoutData(platform: Platform) {
        var f = Fixture(platform: platform)
        f.mustAdd(gp("none"))
        f.mustAdd(gp("some", data: "x"))
        f.mustAdd(gp("empty", data: ""))
        let all = f.find(spec(.genericPassword, limit: .all, returns: .data))
        #expect(all.status == .success)
        #expect(all.accounts == ["some", "empty"])
        let one = f.find(gp("none", returns: .data))
        #expect(one.status == .success)
        #expect(one.count == 0)
        let withAttributes = f.find(gp("none", returns: [.data, .attributes]))
        #expect(withAttributes.count == 1)
        #expect(f.find(gp("none", returns: .persistentReference)).count == 1)
        #expect(f.find(gp("none")).count == 1)
    }

    @Test("3 find: nothing matches → errSecItemNotFound", arguments: bothPlatforms)
    func findNothing(platform: Platform) {
        var f = Fixture(platform: platform)
        #expect(f.find(gp("a")).status == .itemNotFound)
        f.mustAdd(gp("a"))
        #expect(f.find(gp("b")).status == .itemNotFound)
        #expect(f.find(spec(.internetPassword)).status == .itemNotFound)
        let r = f.find(gp("a", service: "other", limit: .all))
        #expect(r.status == .itemNotFound)
        #expect(r.reason == .noMatch)
    }

    @Test("3 find: attribute filters", arguments: bothPlatforms)
    func findAttributeFilter(platform: Platform) {
        var f = Fixture(platform: platform)
        f.mustAdd(gp("a", service: "s1"))
        f.mustAdd(gp("b", service: "s1"))
        f.mustAdd(gp("c", service: "s2"))
        #expect(f.find(spec(.genericPassword, [(.service, str("s1"))], limit: .all)).accounts == ["a", "b"])
        #expect(f.find(spec(.genericPassword, [(.service, str("s2"))], limit: .all)).accounts == ["c"])
    }

    // MARK: Locked items

    @Test("3 find: locked — limit one succeeds when an accessible match comes first")
    func findLockedAccessibleFirst() {
        var f = Fixture()
        f.mustAdd(gp("open", accessibility: .afterFirstUnlock))
        f.mustAdd(gp("closed"))  // when-unlocked
        f.state.isLocked = true
        let one = f.find(spec(.genericPassword))
        #expect(one.status == .success)
        #expect(one.accounts == ["open"])
        let all = f.find(allGP())
        #expect(all.status == .interactionNotAllowed)
        #expect(all.reason == .locked(.whenUnlocked))
        #expect(all.items.isEmpty)
    }

    @Test("3 find: locked — the first match locked fails the whole call")
    func findLockedFirst() {
        var f = Fixture()
        f.mustAdd(gp("closed"))
        f.mustAdd(gp("open", accessibility: .always))
        f.state.isLocked = true
        #expect(f.find(spec(.genericPassword)).status == .interactionNotAllowed)
        #expect(f.find(allGP()).status == .interactionNotAllowed)
        // A query that only matches the open item succeeds.
        #expect(f.find(gp("open")).status == .success)
        // Unlocking makes everything readable.
        f.state.isLocked = false
        #expect(f.find(allGP()).count == 2)
    }

    @Test("3 find: locked — order is insertion order across groups, not list order")
    func findLockedAcrossGroups() {
        var f = Fixture()
        f.mustAdd(gp("open", group: Fixture.appGroup, accessibility: .always))
        f.mustAdd(gp("closed", group: Fixture.shared))
        f.state.isLocked = true
        // The shared group comes first in the list, but the open item came first.
        let r = f.find(spec(.genericPassword))
        #expect(r.status == .success)
        #expect(r.accounts == ["open"])
    }

    @Test("3 find: locked — a limit number stops before a later locked match")
    func findLockedCap() {
        var f = Fixture()
        f.mustAdd(gp("o1", accessibility: .always))
        f.mustAdd(gp("o2", accessibility: .afterFirstUnlock))
        f.mustAdd(gp("closed"))
        f.state.isLocked = true
        #expect(f.find(spec(.genericPassword, limit: .count(2))).accounts == ["o1", "o2"])
        #expect(f.find(spec(.genericPassword, limit: .count(3))).status == .interactionNotAllowed)
    }

    // MARK: Access control

    static func acItem(_ account: String = "p") -> ItemSpec {
        spec(.genericPassword, [(.account, str(account))], accessControl: AccessControl(flags: [.userPresence]),
             data: "secret")
    }

    @Test("3 find: access-control item prompt outcomes", arguments: [
        (PromptAnswer?.some(.approve), KeychainStatus.success),
        (.some(.cancel), .userCanceled),
        (.some(.fail), .authFailed),
    ])
    func findPrompt(answer: PromptAnswer?, expected: KeychainStatus) {
        var f = Fixture()
        f.mustAdd(Self.acItem())
        var prompted = 0
        let r = f.call(.find, spec(.genericPassword, returns: .data), prompt: { _ in prompted += 1; return answer })
        #expect(r.status == expected)
        #expect(prompted == 1)
        #expect(r.items.count == (expected == .success ? 1 : 0))
    }

    @Test("3 find: auth-ui=fail → errSecInteractionNotAllowed without a prompt")
    func findAuthUIFail() {
        var f = Fixture()
        f.mustAdd(Self.acItem())
        var prompted = 0
        let r = f.call(.find, spec(.genericPassword, returns: .data, authUI: .fail),
                       prompt: { _ in prompted += 1; return .approve })
        #expect(r.status == .interactionNotAllowed)
        #expect(prompted == 0)
    }

    @Test("3 find: auth-ui=skip skips access-control items")
    func findAuthUISkip() {
        var f = Fixture()
        f.mustAdd(Self.acItem("p"))
        var prompted = 0
        let only = f.call(.find, spec(.genericPassword, returns: .data, authUI: .skip),
                          prompt: { _ in prompted += 1; return .approve })
        #expect(only.status == .itemNotFound)
        f.mustAdd(gp("plain", data: "x"))
        let r = f.call(.find, spec(.genericPassword, limit: .all, returns: .data, authUI: .skip),
                       prompt: { _ in prompted += 1; return .approve })
        #expect(r.status == .success)
        #expect(r.accounts == ["plain"])
        #expect(prompted == 0)
    }
}
