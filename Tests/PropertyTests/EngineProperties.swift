import KeychainEngine
import Testing

/// Properties of the engine over random call sequences on random worlds.
/// Each test runs fixed seeds (bounded, well under two seconds in a debug
/// build); a failure names the seed and the step, so it can be replayed.
@Suite("Engine properties")
struct EngineProperties {
    static let seeds: ClosedRange<UInt64> = 1...120
    static let steps = 40

    /// Runs `body` for every seed with a fresh world and generator.
    func forEachSeed(platform: Platform = Platform(.ios, 18),
                     _ body: (UInt64, inout World, inout SeededGenerator) throws -> Void) throws {
        for seed in Self.seeds {
            var rng = SeededGenerator(seed: seed)
            var world = try RandomWorld.make(platform: platform, using: &rng)
            try body(seed, &world, &rng)
        }
    }

    @Test("every item is in exactly one group, and that group is a known one")
    func exactlyOneGroup() throws {
        try forEachSeed { seed, world, rng in
            for i in 0..<Self.steps {
                RandomWorld.apply(RandomWorld.step(in: world, using: &rng), to: &world)
                let known = Set(world.appHandles.flatMap { world[$0].accessGroups }.compactMap { world.groupID($0) })
                let keychain = world[DeviceHandle.this].keychain
                for (id, item) in keychain.allItems {
                    #expect(known.contains(item.group), "seed \(seed) step \(i): item in unknown group \(item.group)")
                    guard known.contains(item.group) else { return }
                    #expect(world.groupID(world.groupName(item.group)) == item.group, "seed \(seed) step \(i)")
                    // The index lists it under its own group and no other.
                    let listings = known.filter { keychain.items(of: item.itemClass, in: $0).contains(id) }
                    #expect(listings == [item.group], "seed \(seed) step \(i): listed in \(listings)")
                }
            }
        }
    }

    @Test("no call by an app changes an item in a group it cannot access")
    func isolation() throws {
        var guarded = 0
        try forEachSeed { seed, world, rng in
            for i in 0..<Self.steps {
                let step = RandomWorld.step(in: world, using: &rng)
                guard case .call(_, let app) = step else { RandomWorld.apply(step, to: &world); continue }
                let allowed = Set(world[app].accessGroups)
                let before = RandomWorld.snapshot(world)
                guarded += before.values.filter { !allowed.contains($0.group) }.count
                RandomWorld.apply(step, to: &world)
                let after = RandomWorld.snapshot(world)
                // Nothing outside the caller's groups was removed or changed…
                for (sequence, old) in before where !allowed.contains(old.group) {
                    #expect(after[sequence]?.item == old.item, "seed \(seed) step \(i): \(step) touched \(old)")
                }
                // …and nothing appeared there (added or moved in).
                for (sequence, new) in after where !allowed.contains(new.group) {
                    #expect(before[sequence]?.item == new.item, "seed \(seed) step \(i): \(step) wrote \(new)")
                }
            }
        }
        #expect(guarded > 1000, "only \(guarded) items outside the caller's groups")
    }

    @Test("what an app adds without a group it finds again on an unlocked device")
    func findsWhatItAdded() throws {
        var checked = 0
        try forEachSeed { seed, world, rng in
            for i in 0..<Self.steps {
                let step = RandomWorld.step(in: world, using: &rng)
                let result = RandomWorld.apply(step, to: &world)
                guard case .call(let request, let app) = step, request.operation == .add,
                      request.spec.accessGroup == nil, result?.status == .success,
                      world[DeviceHandle.this].state.isUnlocked,
                      let added = result?.items.first else { continue }
                var query = ItemSpec(itemClass: request.spec.itemClass)
                query.attributes = request.spec.attributes
                query.synchronizable = request.spec.synchronizable == .yes ? .yes : nil
                query.limit = .all
                var copy = world
                let found = copy.perform(CallRequest(.find, query), as: app)
                checked += 1
                #expect(found.status == .success, "seed \(seed) step \(i): \(step) then find: \(found.status)")
                #expect(found.items.contains { $0.item.sequence == added.item.sequence }, "seed \(seed) step \(i)")
            }
        }
        // Not vacuous: many adds were checked.
        #expect(checked > 200, "only \(checked) adds checked")
    }

    @Test("find after update sees the update")
    func findAfterUpdate() throws {
        var checked = 0
        try forEachSeed { seed, world, rng in
            for i in 0..<Self.steps {
                let step = RandomWorld.step(in: world, using: &rng)
                let result = RandomWorld.apply(step, to: &world)
                guard case .call(let request, let app) = step, request.operation == .update,
                      result?.status == .success, let changes = request.changes, let items = result?.items else {
                    continue
                }
                for changed in items {
                    var query = ItemSpec(itemClass: changed.item.itemClass)
                    for a in changed.item.itemClass.primaryKeyAttributes {
                        query.attributes[a] = changed.item.attributes.effectiveValue(a)
                    }
                    query.accessGroup = changed.groupName
                    query.synchronizable = changed.item.synchronizable ? .yes : .no
                    query.returns = [.data, .attributes]
                    var copy = world
                    let found = copy.perform(CallRequest(.find, query), as: app)
                    #expect(found.status == .success, "seed \(seed) step \(i): \(step) then find: \(found.status)")
                    guard let item = found.items.first?.item else { continue }
                    checked += 1
                    #expect(item.sequence == changed.item.sequence, "seed \(seed) step \(i)")
                    if let data = changes.data { #expect(item.data == data, "seed \(seed) step \(i)") }
                    for e in changes.attributes {
                        #expect(item.attributes[e.attribute] == e.value, "seed \(seed) step \(i)")
                    }
                    if let group = changes.accessGroup { #expect(found.items.first?.groupName == group) }
                }
            }
        }
        #expect(checked > 50, "only \(checked) updated items checked")
    }

    @Test("iOS 12 and iOS 13 differ only where semantics.md says")
    func ios12Against13() throws {
        var differences = 0
        for seed in Self.seeds {
            var rng12 = SeededGenerator(seed: seed), rng13 = SeededGenerator(seed: seed)
            var old = try RandomWorld.make(platform: Platform(.ios, 12), using: &rng12)
            var new = try RandomWorld.make(platform: Platform(.ios, 13), using: &rng13)
            var rng = rng13
            for i in 0..<Self.steps {
                let step = RandomWorld.step(in: new, using: &rng)
                let a = RandomWorld.apply(step, to: &old), b = RandomWorld.apply(step, to: &new)
                if let a, let b, a.status != b.status, case .call(let request, let app) = step {
                    let groups = Set(new[app].accessGroups)
                    let unentitledQuery = request.operation != .add
                        && request.spec.accessGroup.map { !groups.contains($0) } == true
                    let unentitledMove = request.operation == .update
                        && request.changes?.accessGroup.map { !groups.contains($0) } == true
                    // An unentitled group named in a query: missing entitlement
                    // from iOS 13; before, the call fails some other way.
                    let queryRow = unentitledQuery && b.status == .missingEntitlement
                        && a.status != .success && a.status != .missingEntitlement
                    // A move into an unentitled group: no access before iOS 13.
                    let moveRow = unentitledMove && a.status == .noAccessForItem && b.status == .missingEntitlement
                    differences += 1
                    #expect(queryRow || moveRow,
                            "seed \(seed) step \(i): \(step): iOS 12 \(a.status), iOS 13 \(b.status)")
                }
                // Both keychains hold the same items.
                let x = RandomWorld.snapshot(old), y = RandomWorld.snapshot(new)
                #expect(x.keys.sorted() == y.keys.sorted(), "seed \(seed) step \(i): \(step)")
                for (k, v) in x where y[k]?.item != v.item || y[k]?.group != v.group {
                    Issue.record("seed \(seed) step \(i): \(step): item \(k) differs")
                }
            }
        }
        // Not vacuous: the sequences do reach the rows that differ.
        #expect(differences > 20, "only \(differences) differing statuses")
    }

    @Test("the generator is deterministic")
    func deterministic() {
        var a = SeededGenerator(seed: 42), b = SeededGenerator(seed: 42)
        #expect((0..<10).map { _ in a.next() } == (0..<10).map { _ in b.next() })
    }
}
