import Testing
@testable import KeychainEngine

/// The questions lint asks the engine after a call: they must agree with
/// the full explanations (`candidates`) and the indexes they stand in for.
@Suite("Lint queries")
struct LintQueryTests {

    /// The candidate `firstNearMiss` should return: the first, in insertion
    /// order, whose only reason is an attribute the filter accepts.
    static func expectedNearMiss(_ f: Fixture, _ query: ItemSpec, as app: AppHandle,
                                 _ accept: (ItemAttribute) -> Bool) -> Candidate? {
        f.world.candidates(for: CallRequest(.find, query), as: app).first { c in
            guard c.reasons.count == 1, case .attribute(let a, _, _) = c.reasons[0] else { return false }
            return accept(a)
        }
    }

    @Test("firstNearMiss finds what candidates would list with one differing attribute, in insertion order")
    func nearMissAgreesWithCandidates() {
        var f = Fixture()
        // Against a query for alice in svx: sync and service differ; only
        // the service; only the account; only the group (not accessible).
        f.mustAdd(gp("alice", service: "svc", group: Fixture.second, sync: .yes))
        f.mustAdd(gp("alice", service: "svc", group: Fixture.second))
        f.mustAdd(gp("bob", service: "svx"))
        f.mustAdd(gp("alice", service: "svx"), as: f.foreign)
        f.mustAdd(gp("alice", service: "svc.other"))
        let queries = [gp("alice", service: "svx"), gp("alice", service: "svx", group: Fixture.second),
                       gp("carol", service: "svx"), gp("alice", service: "svc", group: Fixture.mainID),
                       gp(nil, service: "svx")]
        for query in queries {
            for accept in [{ (_: ItemAttribute) in true }, { $0 == .service }, { $0 == .account }] {
                let expected = Self.expectedNearMiss(f, query, as: f.main, accept)
                let found = f.world.firstNearMiss(for: CallRequest(.find, query), as: f.main) { a, _, _ in accept(a) }
                #expect(found == expected, "query \(query.attributes.entries)")
            }
        }
        // One case checked by hand: "svc" in A.second is the earliest item
        // differing from the query only in its service.
        let found = f.world.firstNearMiss(for: CallRequest(.find, gp("alice", service: "svx")), as: f.main) { a, _, _ in
            a == .service
        }
        #expect(found?.groupName == Fixture.second)
        #expect(found?.reasons == [.attribute(.service, item: .string("svc"), wanted: .string("svx"))])
    }

    @Test("synchronizableCount follows adds, updates, deletes and restores")
    func synchronizableCount() {
        var f = Fixture()
        #expect(f.world.synchronizableCount(on: .this) == 0)
        f.mustAdd(gp("a", sync: .yes))
        f.mustAdd(gp("b"))
        f.mustAdd(gp("c", sync: .yes))
        #expect(f.world.synchronizableCount(on: .this) == 2)
        #expect(f.update(gp("b"), spec(nil, sync: .yes)).status == .success)
        #expect(f.world.synchronizableCount(on: .this) == 3)
        #expect(f.update(gp("a", sync: .yes), spec(nil, sync: .no)).status == .success)
        #expect(f.world.synchronizableCount(on: .this) == 2)
        f.world.backup(.this, as: "b1")
        #expect(f.delete(gp("c", sync: .yes)).status == .success)
        #expect(f.world.synchronizableCount(on: .this) == 1)
        #expect((try? f.world.restore("b1", to: .this)) != nil)
        #expect(f.world.synchronizableCount(on: .this) == f.items.filter(\.synchronizable).count)
    }

    @Test("apps are found by name through the fingerprint table, and unknown names are not")
    func appsByName() throws {
        var w = World()
        try w.addTeam(id: teamA)
        var handles: [AppHandle] = []
        for i in 0..<300 { handles.append(try w.addApp(bundleID: "com.x.App\(i)", name: "App\(i)", teamID: teamA)) }
        for i in 0..<300 { #expect(w.app(named: "App\(i)") == handles[i]) }
        #expect(w.app(named: "App300") == nil)
        #expect(w.app(named: "") == nil)
        #expect(w.app(named: "app1") == nil)
    }

    @Test("prefixedGroup finds the app ID and keychain groups by their bare names, without building the app ID")
    func prefixedGroup() {
        let f = Fixture()
        let main = f.world[f.main]
        #expect(main.prefixedGroup(for: "com.example.main") == Fixture.mainID)
        #expect(main.prefixedGroup(for: "shared") == Fixture.shared)
        #expect(main.prefixedGroup(for: "com.example") == nil)
        #expect(main.prefixedGroup(for: "com.example.mai") == nil)
        #expect(f.world.prefixedGroup(for: "second", of: f.main) == Fixture.second)
        var noAppID = main
        noAppID.signing = .noAppID
        #expect(noAppID.prefixedGroup(for: "com.example.main") == nil)
    }

    @Test("lacks says whether the app lacks a group and whether prefixedGroup may name it")
    func lacks() throws {
        var f = Fixture()
        let cases: [(String, Bool, Bool)] = [
            (Fixture.shared, false, false), ("shared", true, true), ("com.example.main", true, true),
            ("com.example", true, false), (Fixture.foreignShared, true, false), ("", true, false),
        ]
        for (group, lacks, unprefixed) in cases {
            let answer = f.world.lacks(group, app: f.main)
            #expect(answer.lacks == lacks && answer.mayBeUnprefixed == unprefixed, "\(group)")
            #expect(answer.lacks == !f.world.isEntitled(f.main, to: group))
            // Never a false "no": where prefixedGroup finds a group, lacks says it may.
            if f.world.prefixedGroup(for: group, of: f.main) != nil { #expect(answer.mayBeUnprefixed) }
        }
        // Changed declarations replace the answers: a group added later, and
        // an eleven-byte group whose bare name is empty.
        try f.world.addGroup("later", to: [f.plain])
        #expect(f.world.lacks("later", app: f.plain) == (true, true))
        let odd = try f.world.addApp(bundleID: "com.example.odd", name: "odd", teamID: teamA, keychainAccessGroups: ["\(teamA)."])
        #expect(f.world.lacks("", app: odd) == (true, true))
        #expect(f.world.prefixedGroup(for: "", of: odd) == "\(teamA).")
    }
}
