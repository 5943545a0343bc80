import Testing
@testable import KeychainEngine

/// semantics.md section 1: who may touch what, the access-group list.
@Suite("1 access-group list")
struct Section1AccessGroupTests {

    @Test("1.1 an extension inherits nothing from its containing app")
    func extensionInheritsNothing() throws {
        var w = World()
        try w.addTeam(id: teamA)
        let app = try w.addApp(bundleID: "com.example.app", name: "app", teamID: teamA,
                               keychainAccessGroups: ["\(teamA).shared"], applicationGroups: ["group.x"])
        let ext = try w.addApp(bundleID: "com.example.app.widget", name: "widget", teamID: teamA, kind: .extension)
        #expect(w[ext].keychainAccessGroups.isEmpty)
        #expect(w[ext].applicationGroups.isEmpty)
        #expect(w[ext].accessGroups == ["\(teamA).com.example.app.widget"])
        // The app's item, in its shared group, is invisible to the extension.
        let added = w.perform(CallRequest(.add, gp("a")), as: app)
        #expect(added.status == .success)
        let found = w.perform(CallRequest(.find, gp("a")), as: ext)
        #expect(found.status == .itemNotFound)
        // And the extension's explicit query for that group is refused (iOS 18).
        let named = w.perform(CallRequest(.find, gp("a", group: "\(teamA).shared")), as: ext)
        #expect(named.status == .missingEntitlement)
    }

    @Test("1.1 an extension with the shared group sees the app's item")
    func extensionWithSharedGroup() throws {
        var w = World()
        try w.addTeam(id: teamA)
        let app = try w.addApp(bundleID: "com.example.app", name: "app", teamID: teamA,
                               keychainAccessGroups: ["\(teamA).shared"])
        let ext = try w.addApp(bundleID: "com.example.app.widget", name: "widget", teamID: teamA, kind: .extension,
                               keychainAccessGroups: ["\(teamA).shared"])
        #expect(w.perform(CallRequest(.add, gp("a")), as: app).status == .success)
        let found = w.perform(CallRequest(.find, gp("a")), as: ext)
        #expect(found.status == .success)
        #expect(found.groups == ["\(teamA).shared"])
    }

    @Test("1.2 team ID validation", arguments: [
        ("SKMME9E2Y8", true), ("ABCDE12345", true), ("0123456789", true),
        ("skmme9e2y8", false), ("SKMME9E2Y", false), ("SKMME9E2Y81", false),
        ("SKMME-E2Y8", false), ("", false), ("SKMME9E2Y8.", false),
    ])
    func teamIDValidation(id: String, ok: Bool) {
        #expect(Team.isWellFormedID(id) == ok)
        var w = World()
        do {
            try w.addTeam(id: id)
            #expect(ok, "malformed team ID \(id) accepted")
            #expect(w.team(named: id)?.id == id)
        } catch {
            #expect(!ok)
            #expect(error == .malformedTeamID(id))
        }
    }

    @Test("1.2 app ID is TEAMID.BUNDLEID")
    func appID() throws {
        var w = World()
        try w.addTeam(id: teamA)
        let a = try w.addApp(bundleID: "com.example.app", name: "app", teamID: teamA)
        #expect(w[a].appID == "SKMME9E2Y8.com.example.app")
        let u = try w.addApp(bundleID: "com.example.u", name: "u", teamID: nil)
        #expect(w[u].appID == nil)
    }

    @Test("1.3 access-group order: keychain groups, app ID, app groups")
    func accessGroupOrder() {
        var f = Fixture()
        let expected = [Fixture.shared, Fixture.second, Fixture.mainID, Fixture.appGroup]
        #expect(f.world[f.main].accessGroups == expected)
        // The call path reports the same list.
        let r = f.find(gp("nothing"))
        #expect(f.world.accessGroups(of: f.main) == expected)
        #expect(r.searchedGroups(in: f.world) == expected)
    }

    @Test("1.3 access-group order: keychain groups keep entitlement order, app groups too")
    func entitlementOrderKept() throws {
        var w = World()
        try w.addTeam(id: teamA)
        let a = try w.addApp(bundleID: "b", name: "a", teamID: teamA,
                             keychainAccessGroups: ["\(teamA).z", "\(teamA).a", "\(teamA).m"],
                             applicationGroups: ["group.z", "group.a"])
        #expect(w[a].accessGroups == ["\(teamA).z", "\(teamA).a", "\(teamA).m", "\(teamA).b", "group.z", "group.a"])
    }

    @Test("1.3 access-group order: duplicates are kept")
    func duplicatesKept() throws {
        var w = World()
        try w.addTeam(id: teamA)
        // The app ID also listed as a keychain group, and a repeated keychain group.
        let a = try w.addApp(bundleID: "com.x", name: "a", teamID: teamA,
                             keychainAccessGroups: ["\(teamA).s", "\(teamA).com.x", "\(teamA).s"],
                             applicationGroups: ["group.g", "group.g"])
        let list = ["\(teamA).s", "\(teamA).com.x", "\(teamA).s", "\(teamA).com.x", "group.g", "group.g"]
        #expect(w[a].accessGroups == list)
        let r = w.perform(CallRequest(.find, gp("x")), as: a)
        #expect(w.accessGroups(of: a) == list)
        // A query searches each group once, in first-seen order.
        #expect(r.searchedGroups(in: w) == ["\(teamA).s", "\(teamA).com.x", "group.g"])
    }

    @Test("1.3 duplicated groups: an item is found once, not once per listing")
    func duplicatesFoundOnce() throws {
        var w = World()
        try w.addTeam(id: teamA)
        let a = try w.addApp(bundleID: "com.x", name: "a", teamID: teamA,
                             keychainAccessGroups: ["\(teamA).s", "\(teamA).s"])
        #expect(w.perform(CallRequest(.add, gp("x")), as: a).status == .success)
        let r = w.perform(CallRequest(.find, gp(nil, service: nil, limit: .all)), as: a)
        #expect(r.status == .success)
        #expect(r.count == 1)
    }

    @Test("1.4 $(AppIdentifierPrefix) and $(TeamIdentifierPrefix) expand to TEAMID.", arguments: [
        ("$(AppIdentifierPrefix)shared", "SKMME9E2Y8.shared"),
        ("$(TeamIdentifierPrefix)shared", "SKMME9E2Y8.shared"),
        ("$(AppIdentifierPrefix)com.example.app", "SKMME9E2Y8.com.example.app"),
        ("SKMME9E2Y8.literal", "SKMME9E2Y8.literal"),
        ("group.$(TeamIdentifierPrefix)x", "group.SKMME9E2Y8.x"),
        ("$(AppIdentifierPrefix)$(TeamIdentifierPrefix)x", "SKMME9E2Y8.SKMME9E2Y8.x"),
    ])
    func expansion(raw: String, expanded: String) throws {
        #expect(AppTarget.expandEntitlement(raw, teamID: teamA) == expanded)
        var w = World()
        try w.addTeam(id: teamA)
        let a = try w.addApp(bundleID: "b", name: "a", teamID: teamA,
                             keychainAccessGroups: [raw], applicationGroups: [raw])
        #expect(w[a].keychainAccessGroups == [expanded])
        #expect(w[a].applicationGroups == [expanded])
    }

    @Test("1.4 code must use the expanded string: the unexpanded name is not entitled")
    func unexpandedNameNotEntitled() {
        var f = Fixture()
        let r = f.add(gp("a", group: "$(AppIdentifierPrefix)shared"))
        #expect(r.status == .missingEntitlement)
        let ok = f.add(gp("a", group: Fixture.shared))
        #expect(ok.status == .success)
    }

    @Test("1.4 addGroup: keychain sharing prefixes the team ID, app groups are not prefixed")
    func addGroupPrefixing() throws {
        var w = World()
        try w.addTeam(id: teamA)
        try w.addTeam(id: teamB)
        let a = try w.addApp(bundleID: "com.a", name: "a", teamID: teamA)
        let b = try w.addApp(bundleID: "com.b", name: "b", teamID: teamB)
        try w.addGroup("shared", to: [a, b])
        try w.addGroup("group.com.example", to: [a])
        #expect(w[a].keychainAccessGroups == ["\(teamA).shared"])
        #expect(w[b].keychainAccessGroups == ["\(teamB).shared"])
        #expect(w[a].applicationGroups == ["group.com.example"])
        #expect(w[b].applicationGroups == [])
        #expect(w[a].accessGroups == ["\(teamA).shared", "\(teamA).com.a", "group.com.example"])
        // The resolved list used by calls is rebuilt too.
        let r = w.perform(CallRequest(.add, gp("x")), as: a)
        #expect(r.status == .success)
        #expect(r.groups == ["\(teamA).shared"])
    }

    @Test("1.4 addGroup: an app named twice, or given a group it has, gets it once")
    func addGroupOnce() throws {
        var w = World()
        try w.addTeam(id: teamA)
        let a = try w.addApp(bundleID: "com.a", name: "a", teamID: teamA)
        try w.addGroup("shared", to: Array(repeating: a, count: 1_000))
        try w.addGroup("shared", to: [a])
        try w.addGroup("group.com.example", to: [a, a])
        #expect(w[a].keychainAccessGroups == ["\(teamA).shared"])
        #expect(w[a].applicationGroups == ["group.com.example"])
        #expect(w.perform(CallRequest(.add, gp("x")), as: a).groups == ["\(teamA).shared"])
    }

    /// `group` lines leave the lists out of date until a call needs them
    /// (adversarial J4); every question asked before then sees the groups
    /// already, and a transfer in between keeps them.
    @Test("1.4 addGroup: questions between group lines see the new groups")
    func addGroupSeenBeforeACall() throws {
        var w = World()
        try w.addTeam(id: teamA)
        try w.addTeam(id: teamB)
        let a = try w.addApp(bundleID: "com.a", name: "a", teamID: teamA)
        let b = try w.addApp(bundleID: "com.b", name: "b", teamID: teamA)
        let clip = try w.addApp(bundleID: "com.a.Clip", name: "clip", teamID: teamA, kind: .appClip)
        try w.addGroup("one", to: [a])
        #expect(w.accessGroups(of: a) == ["\(teamA).one", "\(teamA).com.a"])
        #expect(w.isEntitled(a, to: "\(teamA).one"))
        #expect(w.firstOtherApp(accessing: "\(teamA).one", besides: b) == a)
        try w.addGroup("two", to: [a, b])
        try w.addGroup("group.x", to: [b, clip])
        #expect(w.lacks("\(teamA).two", app: b).lacks == false)
        #expect(w.firstOtherApp(accessing: "\(teamA).two", besides: a) == b)
        #expect(w.firstOtherApp(accessing: "group.x", besides: b) == nil, "an App Clip's app groups are not in its list")
        #expect(w.accessGroups(of: a, on: .this) == ["\(teamA).one", "\(teamA).two", "\(teamA).com.a"])
        let r = w.perform(CallRequest(.add, gp("x", group: "\(teamA).two")), as: a)
        #expect(r.status == .success)
        #expect(w.perform(CallRequest(.find, gp("x")), as: b).status == .success)
        w.transfer(b, to: teamB)
        try w.addGroup("three", to: [b])
        #expect(w.accessGroups(of: b) == ["\(teamB).two", "\(teamB).three", "\(teamB).com.b", "group.x"])
        #expect(w.perform(CallRequest(.find, gp("x")), as: b).status == .itemNotFound)
        #expect(w.firstOtherApp(accessing: "\(teamA).two", besides: b) == a)
        #expect(w.firstOtherApp(accessing: "\(teamA).two", besides: a) == nil)
    }

    /// A call after each `group` line extends the app's lists rather than
    /// rebuilding them (adversarial run 19, H2), inserting each group in
    /// place where the list takes it: whatever order the lines come in,
    /// repeats and names equal to the app ID included, the lists must be
    /// those of a world that declared every group first. The apps cover
    /// the list's rules: a listed token group (once and twice), an App
    /// Clip, associated application identifiers, Mac signing without a
    /// profile or an app ID, and no team. A copy of the world taken midway
    /// keeps its lists while the original goes on.
    @Test("1.4 addGroup: lists extended call by call equal lists built whole",
          arguments: [Platform(.ios, 18), Platform(.macos, 15), Platform(.catalyst, 18)], [1, 2, 3] as [UInt64])
    func addGroupInterleavedWithCalls(platform: Platform, seed: UInt64) throws {
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        let pool = ["one", "two", "com.a", "com.b", "group.x", "group.y", "three", "four", "group.z", "five", "group.pre", "k"]
        func world() throws -> (World, [AppHandle]) {
            var w = World()
            try w.setPlatform(platform)
            try w.addTeam(id: teamA)
            let token = AppTarget.tokenGroup
            let apps = [try w.addApp(bundleID: "com.a", name: "a", teamID: teamA),
                        try w.addApp(bundleID: "com.b", name: "b", teamID: teamA,
                                     keychainAccessGroups: [token, "\(teamA).k"], applicationGroups: ["group.pre"]),
                        try w.addApp(bundleID: "com.a.Clip", name: "clip", teamID: teamA, kind: .appClip),
                        try w.addApp(bundleID: "com.d", name: "d", teamID: teamA, applicationGroups: ["group.pre"]),
                        try w.addApp(bundleID: "com.e", name: "e", teamID: teamA),
                        try w.addApp(bundleID: "com.f", name: "f", teamID: teamA,
                                     keychainAccessGroups: [token, "\(teamA).k", token], applicationGroups: [token]),
                        try w.addApp(bundleID: "com.g", name: "g", teamID: teamA),
                        try w.addApp(bundleID: "com.u", name: "u", teamID: nil)]
            w.setAssociatedApplicationIdentifiers(["$(AppIdentifierPrefix)com.d.ios", "$(AppIdentifierPrefix)one"], for: apps[3])
            w.setSigning(.unprovisioned, for: apps[4])
            w.setSigning(.noAppID, for: apps[6])
            return (w, apps)
        }
        var lines: [(group: String, app: Int)] = []
        for _ in 0..<80 {
            let app = next() % 8
            // The app without a team takes application groups only.
            let groups = app == 7 ? pool.filter { $0.hasPrefix("group.") } : pool
            lines.append((groups[next() % groups.count], app))
        }
        var (stepped, apps) = try world()
        var (whole, _) = try world()
        let probes = pool.map { $0.hasPrefix("group.") ? $0 : "\(teamA).\($0)" } + pool + [AppTarget.tokenGroup]
        func answers(_ w: inout World, _ app: AppHandle) -> [String] {
            var out = [w.accessGroups(of: app).joined(separator: ","),
                       w.perform(CallRequest(.find, allGP()), as: app).searchedGroups(in: w).joined(separator: ","),
                       "\(w.defaultGroup(of: app) ?? "-")",
                       "\(w.perform(CallRequest(.add, gp("default")), as: app).items.first?.groupName ?? "-")"]
            for probe in probes {
                let r = w.perform(CallRequest(.find, allGP(group: probe)), as: app)
                let added = w.perform(CallRequest(.add, gp("in \(probe)", group: probe)), as: app)
                out.append("\(probe) \(r.status) \(added.status) \(w.lacks(probe, app: app)) \(w.isEntitled(app, to: probe))")
            }
            return out
        }
        var snapshot: (world: World, answers: [[String]])?
        for (i, line) in lines.enumerated() {
            try stepped.addGroup(line.group, to: [apps[line.app]])
            try whole.addGroup(line.group, to: [apps[line.app]])
            // Every other line, a call settles the lists of the app just named.
            if i % 2 == 0 { _ = stepped.perform(CallRequest(.find, allGP()), as: apps[line.app]) }
            if i == lines.count / 2 {
                var copy = stepped
                snapshot = (stepped, apps.map { answers(&copy, $0) })
            }
        }
        // Built whole: the path a change of entitlements takes.
        for app in apps { whole.refreshCache(app) }
        for app in apps { #expect(answers(&stepped, app) == answers(&whole, app)) }
        // The copy's lists did not take the later lines.
        if let (world, before) = snapshot {
            var copy = world
            #expect(apps.map { answers(&copy, $0) } == before)
        }
    }

    @Test("1.4 addGroup: a keychain group for an app without a team is refused")
    func addGroupNeedsTeam() throws {
        var w = World()
        let u = try w.addApp(bundleID: "com.u", name: "u", teamID: nil)
        #expect(throws: WorldError.groupNeedsTeam(group: "shared", app: "u")) {
            try w.addGroup("shared", to: [u])
        }
        // An app group needs no team prefix.
        try w.addGroup("group.ok", to: [u])
        #expect(w[u].applicationGroups == ["group.ok"])
    }

    @Test("1.5 default group is the first keychain access group")
    func defaultGroupFirstKAG() {
        var f = Fixture()
        #expect(f.world[f.main].defaultGroup == Fixture.shared)
        let r = f.add(gp("a"))
        #expect(r.status == .success)
        #expect(r.groups == [Fixture.shared])
        #expect(f.items.map(f.groupName) == [Fixture.shared])
    }

    @Test("1.5 default group is the app ID when there are no keychain access groups")
    func defaultGroupAppID() {
        var f = Fixture()
        #expect(f.world[f.plain].defaultGroup == Fixture.plainID)
        let r = f.add(gp("a"), as: f.plain)
        #expect(r.groups == [Fixture.plainID])
    }

    @Test("1.5 an app group is never the default group")
    func appGroupNeverDefault() throws {
        var w = World()
        try w.addTeam(id: teamA)
        let a = try w.addApp(bundleID: "com.a", name: "a", teamID: teamA, applicationGroups: ["group.first"])
        #expect(w[a].accessGroups.first == "\(teamA).com.a")
        #expect(w[a].defaultGroup == "\(teamA).com.a")
        let r = w.perform(CallRequest(.add, gp("x")), as: a)
        #expect(r.status == .success)
        #expect(r.groups == ["\(teamA).com.a"])
        // Explicitly naming the app group is allowed.
        let g = w.perform(CallRequest(.add, gp("x", group: "group.first")), as: a)
        #expect(g.status == .success)
        #expect(g.groups == ["group.first"])
    }

    @Test("1.5 a target with keychain groups but no team defaults to its first keychain group")
    func keychainGroupsWithoutTeam() throws {
        var w = World()
        let a = try w.addApp(bundleID: "com.a", name: "a", teamID: nil, keychainAccessGroups: ["X.grp"])
        #expect(!w[a].isUnsigned)
        #expect(w[a].accessGroups == ["X.grp"])
        let r = w.perform(CallRequest(.add, gp("x")), as: a)
        #expect(r.status == .success)
        #expect(r.groups == ["X.grp"])
    }

    static let unsignedCalls: [(String, CallRequest)] = [
        ("add", CallRequest(.add, gp("a"))),
        ("add explicit app group", CallRequest(.add, gp("a", group: "group.u"))),
        ("find", CallRequest(.find, gp("a"))),
        ("find no class", CallRequest(.find, spec(nil))),
        ("find all", CallRequest(.find, allGP())),
        ("update", CallRequest(.update, gp("a"), changes: spec(nil, [(.label, str("x"))]))),
        ("delete", CallRequest(.delete, gp("a"))),
        ("delete with limit", CallRequest(.delete, gp("a", limit: .all))),
    ]

    /// From iOS 14 (Security-59754.41.1) every call; on iOS 10 to 13 the
    /// process has the token group alone: finds search it, writes are
    /// refused as writes into it (QA s21, Q05; semantics-notes, "Signing
    /// shades on the Mac").
    @Test("1.6 unsigned target: every call gets errSecMissingEntitlement (iOS 14 on)",
          arguments: bothPlatforms, unsignedCalls.indices)
    func unsignedEveryCall(platform: Platform, index: Int) throws {
        var w = World()
        try w.setPlatform(platform)
        try w.addTeam(id: teamA)
        let signed = try w.addApp(bundleID: "com.s", name: "s", teamID: teamA, applicationGroups: ["group.u"])
        // An unsigned build: no app ID, no keychain-access-groups, no
        // application groups.
        let u = try w.addApp(bundleID: "com.u", name: "u", teamID: nil)
        #expect(w[u].isUnsigned)
        #expect(!w[signed].isUnsigned)
        // With an application group its list is that group, off the Mac as
        // on it (SecTaskCopyAccessGroups adds application groups without an
        // app ID; only an empty list is refused): not unsigned.
        let grouped = try w.addApp(bundleID: "com.g", name: "g", teamID: nil, applicationGroups: ["group.u"])
        #expect(!w[grouped].isUnsigned)
        #expect(w.defaultGroup(of: grouped) == "group.u")
        // Something exists that the call could otherwise touch.
        #expect(w.perform(CallRequest(.add, gp("a", group: "group.u")), as: signed).status == .success)
        let before = w[DeviceHandle.this].keychain.count
        let (name, request) = Self.unsignedCalls[index]
        let r = w.perform(request, as: u)
        if platform.listsTokenGroupForUnentitled {
            switch (request.operation, request.spec.itemClass) {
            case (.find, nil): #expect(r.status == .param, "\(name)")
            case (.find, _): #expect(r.status == .itemNotFound && r.reason == .unentitledTokenGroup, "\(name)")
            default: #expect(r.status == .missingEntitlement && r.reason == .onlyTokenGroup, "\(name)")
            }
        } else {
            #expect(r.status == .missingEntitlement, "\(name)")
            #expect(r.reason == .unsigned, "\(name)")
        }
        #expect(w[DeviceHandle.this].keychain.count == before)
    }

    @Test("1.7 items from different teams never share a group")
    func teamsNeverShare() {
        var f = Fixture()
        // Both apps have a keychain group called "shared", each with its own prefix.
        #expect(f.world[f.foreign].accessGroups.first == Fixture.foreignShared)
        #expect(f.add(gp("a")).status == .success)
        #expect(f.add(gp("a"), as: f.foreign).status == .success)  // no duplicate: other group
        #expect(f.find(gp("a", limit: .all), as: f.foreign).groups == [Fixture.foreignShared])
        #expect(f.find(gp("a", limit: .all)).groups == [Fixture.shared])
        // Team B cannot name team A's group.
        #expect(f.find(gp("a", group: Fixture.shared), as: f.foreign).status == .missingEntitlement)
        #expect(f.add(gp("b", group: Fixture.shared), as: f.foreign).status == .missingEntitlement)
    }
}

/// The holders of a group answer "the first app other than this one" as a
/// sorted list would, through any order of joins and departures (adversarial
/// K3: departures of the first holder rescanned the group).
@Suite struct GroupHoldersTests {
    @Test func holdersAgreeWithASortedList() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var holders = World.Holders()
            var model = Set<Int>()
            for _ in 0..<200 {
                let app = Int.random(in: 0..<24, using: &generator)
                if Bool.random(using: &generator) { holders.insert(app); model.insert(app) } else { holders.remove(app); model.remove(app) }
                let sorted = model.sorted()
                for probe in [-1, app, sorted.first ?? -1] {
                    #expect(holders.firstOther(than: probe) == sorted.first { $0 != probe })
                }
                #expect(holders.members == model)
            }
        }
    }
}
