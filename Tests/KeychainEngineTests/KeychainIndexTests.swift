import Testing
@testable import KeychainEngine

/// The Keychain index directly: primary-key lookups and per-(class, group)
/// buckets that stay in insertion order.
@Suite("Keychain index")
struct KeychainIndexTests {

    static func item(_ account: String, group: GroupID, _ c: ItemClass = .genericPassword,
                     sync: Bool = false) -> StoredItem {
        StoredItem(itemClass: c, group: group, synchronizable: sync, accessibility: .whenUnlocked,
                   accessControl: nil, attributes: AttributeList([(.account, .string(AttributeText(account)))]), data: nil)
    }

    static func account(_ k: Keychain, _ id: ItemID) -> String? {
        if case .string(let s)? = k[id]?.attributes[.account] { return s.string }
        return nil
    }

    /// Checks every invariant the call path relies on.
    static func checkInvariants(_ k: Keychain, groups: [GroupID], classes: [ItemClass] = [.genericPassword]) {
        let all = k.allItems
        #expect(all.count == k.count)
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.1.sequence < $1.1.sequence })
        // The first few of a class, as explanations take them, are the sorted list's.
        for limit in [0, 1, 3, 8, all.count + 1] {
            let ofClass = all.filter { classes.contains($0.1.itemClass) }
            let first = k.firstItems(of: classes, limit: limit)
            #expect(first.total == ofClass.count)
            #expect(first.items.map(\.0) == ofClass.prefix(limit).map(\.0))
        }
        var seen = 0
        for c in classes {
            for g in groups {
                let ids = k.items(of: c, in: g)
                let seqs = ids.compactMap { k[$0]?.sequence }
                #expect(seqs.count == ids.count)
                #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }, "bucket \(c) \(g) out of order")
                #expect(ids.allSatisfy { k[$0]?.group == g && k[$0]?.itemClass == c })
                var walked: [ItemID] = []
                k.forEach(of: c, in: g) { id, _ in walked.append(id); return true }
                #expect(walked == ids)
                for id in ids { #expect(k.item(withKey: k[id]!.primaryKey) == id) }
                seen += ids.count
            }
        }
        #expect(seen == k.count)
    }

    /// The last 1-7 bytes of a name are read as one word ending the buffer
    /// when the name has 8 bytes or more: every byte must still count, and
    /// equal names built differently must agree.
    @Test("name fingerprints: every length 0-40, each end byte counts, equal names agree")
    func nameFingerprintsByLength() {
        let seed: UInt64 = 0x5eed
        for n in 0...40 {
            let bytes = (0..<n).map { UInt8(0x61 + $0 % 26) }
            let name = String(decoding: bytes, as: UTF8.self)
            let rebuilt = String(("x" + name).dropFirst())
            #expect(World.nameFingerprint(name, seed: seed) == World.nameFingerprint(rebuilt, seed: seed), "length \(n)")
            for at in [0, n - 1, n - 8] where at >= 0 && at < n {
                var changed = bytes
                changed[at] ^= 1
                #expect(World.nameFingerprint(name, seed: seed)
                        != World.nameFingerprint(String(decoding: changed, as: UTF8.self), seed: seed),
                        "length \(n), byte \(at)")
            }
        }
    }

    @Test("index: many items across groups, buckets in insertion order")
    func manyItems() {
        var k = Keychain()
        let groups: [GroupID] = [0, 1, 2, 3]
        var ids: [String: ItemID] = [:]
        for i in 0..<400 {
            let g = groups[(i * 7) % groups.count]
            ids["a\(i)"] = k.insert(Self.item("a\(i)", group: g))
        }
        #expect(k.count == 400)
        for g in groups {
            let accounts = k.items(of: .genericPassword, in: g).compactMap { Self.account(k, $0) }
            let expected = (0..<400).filter { groups[($0 * 7) % groups.count] == g }.map { "a\($0)" }
            #expect(accounts == expected)
        }
        #expect(k.items(of: .key, in: 0).isEmpty)
        #expect(k.items(of: .genericPassword, in: 99).isEmpty)
        Self.checkInvariants(k, groups: groups)
        // Primary-key lookups find each item.
        let id = ids["a123"]!
        #expect(k.item(withKey: k[id]!.primaryKey) == id)
        #expect(k.item(withKey: Self.item("a123", group: 3 - k[id]!.group).primaryKey) == nil)
    }

    @Test("index: delete and re-add (with compaction) keeps buckets in insertion order")
    func deleteReAdd() {
        var k = Keychain()
        let groups: [GroupID] = [0, 1]
        var ids: [ItemID] = []
        for i in 0..<200 { ids.append(k.insert(Self.item("a\(i)", group: groups[i % 2]))) }
        // Delete most of group 0 (enough to force compaction) and a few of group 1.
        for i in stride(from: 0, to: 180, by: 2) { k.remove(ids[i]) }
        for i in [1, 51, 101] { k.remove(ids[i]) }
        #expect(k.count == 200 - 90 - 3)
        Self.checkInvariants(k, groups: groups)
        #expect(k[ids[0]] == nil)
        #expect(k.item(withKey: Self.item("a0", group: 0).primaryKey) == nil)
        // Re-adding goes to the end of its bucket even if it reuses a slot.
        let again = k.insert(Self.item("a0", group: 0))
        #expect(k.items(of: .genericPassword, in: 0).last == again)
        #expect(Self.account(k, again) == "a0")
        let g0 = k.items(of: .genericPassword, in: 0).compactMap { Self.account(k, $0) }
        #expect(g0 == (180..<200).filter { $0 % 2 == 0 }.map { "a\($0)" } + ["a0"])
        // Removing everything empties the buckets.
        for (id, _) in k.allItems { k.remove(id) }
        #expect(k.count == 0)
        #expect(k.items(of: .genericPassword, in: 0).isEmpty)
        #expect(k.items(of: .genericPassword, in: 1).isEmpty)
        let fresh = k.insert(Self.item("x", group: 1))
        #expect(k.items(of: .genericPassword, in: 1) == [fresh])
        Self.checkInvariants(k, groups: groups)
    }

    @Test("index: removing an item twice is harmless")
    func doubleRemove() {
        var k = Keychain()
        let a = k.insert(Self.item("a", group: 0))
        let b = k.insert(Self.item("b", group: 0))
        k.remove(a)
        k.remove(a)
        #expect(k.count == 1)
        #expect(k.items(of: .genericPassword, in: 0) == [b])
    }

    @Test("index: update moving groups keeps insertion order")
    func replaceMovesGroup() {
        var k = Keychain()
        var ids: [ItemID] = []
        for i in 0..<10 { ids.append(k.insert(Self.item("a\(i)", group: GroupID(i % 2)))) }
        // Move a5 (group 1) and a0 (group 0) into the other group.
        var moved = k[ids[5]]!
        moved.group = 0
        k.replace(ids[5], with: moved)
        moved = k[ids[0]]!
        moved.group = 1
        k.replace(ids[0], with: moved)
        let g0 = k.items(of: .genericPassword, in: 0).compactMap { Self.account(k, $0) }
        let g1 = k.items(of: .genericPassword, in: 1).compactMap { Self.account(k, $0) }
        #expect(g0 == ["a2", "a4", "a5", "a6", "a8"])
        #expect(g1 == ["a0", "a1", "a3", "a7", "a9"])
        #expect(k.allItems.map { Self.account(k, $0.0) } == (0..<10).map { "a\($0)" })
        // The handle and sequence survive; the old key is free, the new one indexed.
        #expect(k[ids[5]]?.group == 0)
        #expect(k.item(withKey: Self.item("a5", group: 1).primaryKey) == nil)
        #expect(k.item(withKey: Self.item("a5", group: 0).primaryKey) == ids[5])
        Self.checkInvariants(k, groups: [0, 1])
    }

    @Test("index: replace changing the primary key keeps the handle and order")
    func replaceChangesKey() {
        var k = Keychain()
        let a = k.insert(Self.item("a", group: 0))
        let b = k.insert(Self.item("b", group: 0))
        let seq = k[a]!.sequence
        k.replace(a, with: Self.item("z", group: 0))
        #expect(k[a]?.sequence == seq)
        #expect(k.items(of: .genericPassword, in: 0) == [a, b])
        #expect(k.item(withKey: Self.item("a", group: 0).primaryKey) == nil)
        #expect(k.item(withKey: Self.item("z", group: 0).primaryKey) == a)
        Self.checkInvariants(k, groups: [0])
    }

    @Test("index: classes and sync values are separate keys and buckets")
    func classesSeparate() {
        var k = Keychain()
        let g = k.insert(Self.item("a", group: 0))
        let i = k.insert(Self.item("a", group: 0, .internetPassword))
        let s = k.insert(Self.item("a", group: 0, sync: true))
        #expect(Set([g, i, s]).count == 3)
        #expect(k.items(of: .genericPassword, in: 0) == [g, s])
        #expect(k.items(of: .internetPassword, in: 0) == [i])
        #expect(k.item(withKey: Self.item("a", group: 0, sync: true).primaryKey) == s)
        Self.checkInvariants(k, groups: [0], classes: [.genericPassword, .internetPassword])
    }

    @Test("index: many moves and deletes through the World keep find in insertion order")
    func worldChurn() {
        var f = Fixture()
        let groups = [Fixture.shared, Fixture.second, Fixture.mainID, Fixture.appGroup]
        for i in 0..<120 { f.mustAdd(gp("a\(i)", group: groups[i % 4])) }
        // Move every third item to the next group, delete every fifth.
        for i in stride(from: 0, to: 120, by: 3) {
            #expect(f.update(gp("a\(i)"), moveTo(groups[(i + 1) % 4])).status == .success)
        }
        for i in stride(from: 0, to: 120, by: 5) { #expect(f.delete(gp("a\(i)")).status == .success) }
        let expected = (0..<120).filter { $0 % 5 != 0 }.map { "a\($0)" }
        #expect(f.find(allGP()).accounts == expected)
        for (gi, g) in groups.enumerated() {
            let inGroup = (0..<120).filter { $0 % 5 != 0 && (($0 % 3 == 0) ? ($0 + 1) % 4 : $0 % 4) == gi }
            #expect(f.find(allGP(group: g)).accounts == inGroup.map { "a\($0)" })
        }
        let ids = f.groupIDsOfMain
        Self.checkInvariants(f.keychain, groups: ids)
    }
}

/// The fingerprint-keyed tables under the indexes: chains of items that
/// share key values, and fingerprints that share a table bucket.
@Suite("Keychain fingerprint index")
struct KeychainFingerprintTests {
    static func item(_ account: String, group: GroupID, sync: Bool = false,
                     service: String? = nil) -> StoredItem {
        var attributes = AttributeList([(.account, .string(AttributeText(account)))])
        if let service { attributes[.service] = .string(AttributeText(service)) }
        return StoredItem(itemClass: .genericPassword, group: group, synchronizable: sync, accessibility: .whenUnlocked,
                          accessControl: nil, attributes: attributes, data: nil)
    }

    /// Every item the keychain holds, found again through both indexes.
    static func checkLookups(_ k: Keychain) {
        for (id, item) in k.allItems {
            #expect(k.item(withKey: item.primaryKey) == id)
            #expect(k.item(withKeyOf: item) == id)
            var byKey: [ItemID] = []
            let query = AttributeList([(.account, item.attributes.effectiveValue(.account)),
                                       (.service, item.attributes.effectiveValue(.service))])
            k.matching(.genericPassword, keyIn: query, into: &byKey) { group, sync, _ in
                group == item.group && sync == item.synchronizable
            }
            #expect(byKey == [id])
            var byPrefix: [ItemID] = []
            k.matching(.genericPassword, in: item.group, firstKeyValue: item.attributes.effectiveValue(.account),
                       into: &byPrefix) { $0.synchronizable == item.synchronizable
                && $0.attributes.effectiveValue(.service) == item.attributes.effectiveValue(.service) }
            #expect(byPrefix == [id])
        }
    }

    @Test("slot table: entries sharing a home bucket survive removals in any order")
    func collidingHomes() {
        var table = SlotTable()
        // Low bits equal: every key starts probing at the same place.
        let keys = (1...200).map { UInt64($0) << 20 | 5 }
        for (i, key) in keys.enumerated() { table.setHead(key, Int32(i)) }
        for (i, key) in keys.enumerated() { #expect(table.head(key) == Int32(i)) }
        var removed = Set<UInt64>()
        for key in keys where (key >> 20) % 3 != 1 {
            table.remove(key)
            removed.insert(key)
        }
        for (i, key) in keys.enumerated() {
            #expect(table.head(key) == (removed.contains(key) ? -1 : Int32(i)))
        }
        table.remove(12345)  // absent: nothing changes
        table.setHead(keys[1], 999)
        #expect(table.head(keys[1]) == 999)
        #expect(table.head(keys[0]) == 0)
        #expect(table.head(keys[2]) == -1)
    }

    @Test("key chains: one key in many groups and sync values, removed from the middle")
    func sharedKeyValues() {
        var k = Keychain()
        var ids: [ItemID] = []
        for g in 0..<6 {
            for sync in [false, true] { ids.append(k.insert(Self.item("a", group: GroupID(g), sync: sync, service: "s"))) }
        }
        ids.append(k.insert(Self.item("b", group: 0, service: "s")))
        Self.checkLookups(k)
        for i in [0, 5, 6, 11] { k.remove(ids[i]) }
        #expect(k.item(withKey: Self.item("a", group: 0, service: "s").primaryKey) == nil)
        // ids[g * 2 + (sync ? 1 : 0)]: group 2's synchronizable one went, its other stays.
        #expect(k.item(withKey: Self.item("a", group: 2, sync: true, service: "s").primaryKey) == nil)
        #expect(k.item(withKey: Self.item("a", group: 2, service: "s").primaryKey) == ids[4])
        Self.checkLookups(k)
        // All of one key, in insertion order after the caller's sort.
        var all: [ItemID] = []
        k.matching(.genericPassword, keyIn: AttributeList([(.account, .string("a")), (.service, .string("s"))]),
                   into: &all) { _, _, _ in true }
        #expect(Set(all) == Set(ids[0..<12]).subtracting([ids[0], ids[5], ids[6], ids[11]]))
        // An absent key attribute is the empty string in both directions.
        let bare = k.insert(Self.item("", group: 9))
        #expect(k.item(withKey: Self.item("", group: 9, service: "").primaryKey) == bare)
        Self.checkLookups(k)
    }

    @Test("seeds: a full-key query across groups answers in insertion order whatever the chain order")
    func orderIndependentOfSeed() {
        let groups = [Fixture.second, Fixture.appGroup, Fixture.shared, Fixture.mainID]
        // Every world's keychain draws its own seed, so the chains are in a
        // different order each time; the answer must not be.
        for _ in 0..<20 {
            var f = Fixture()
            for g in groups { f.mustAdd(gp("a", group: g, data: g)) }
            #expect(f.find(gp("a", limit: .all)).groups == groups)
            #expect(f.find(gp("a")).groups == [groups[0]])
            #expect(f.delete(gp("a", group: groups[1])).status == .success)
            #expect(f.find(gp("a", limit: .all)).groups == [groups[0], groups[2], groups[3]])
        }
    }

    /// One prefix chain holding every item (no account): removals from its
    /// tail (oldest first, as a restore clears a device), its middle and its
    /// head, and re-adds into freed slots, leave exactly the live items on it.
    @Test("prefix chains: removed from the tail, the middle and the head, then refilled")
    func prefixChainRemovals() {
        var k = Keychain()
        var ids: [ItemID] = []
        for i in 0..<60 { ids.append(k.insert(Self.item("", group: 1, service: "s\(i)"))) }
        func onChain() -> Set<String> {
            var found: [ItemID] = []
            k.matching(.genericPassword, in: 1, firstKeyValue: .string(""), into: &found) { _ in true }
            #expect(Set(found).count == found.count, "an item is on the chain twice")
            return Set(found.compactMap { id -> String? in
                if case .string(let s)? = k[id]?.attributes[.service] { return s.string }
                return nil
            })
        }
        var live = Set((0..<60).map { "s\($0)" })
        #expect(onChain() == live)
        for i in Array(0..<20) + [40, 30, 35] + Array((50..<60).reversed()) {
            k.remove(ids[i])
            live.remove("s\(i)")
            #expect(onChain() == live, "after removing s\(i)")
        }
        for i in 60..<70 {
            _ = k.insert(Self.item("", group: 1, service: "s\(i)"))
            live.insert("s\(i)")
        }
        #expect(onChain() == live)
        // A replace that moves an item to another chain (a new account) and
        // back unlinks it from the middle and links it at the head.
        let moved = ids[25]
        var changed = k[moved]!
        changed.attributes[.account] = .string("other")
        k.replace(moved, with: changed)
        live.remove("s25")
        #expect(onChain() == live)
        changed.attributes[.account] = .string("")
        k.replace(moved, with: changed)
        live.insert("s25")
        #expect(onChain() == live)
        Self.checkLookups(k)
    }

    @Test("key chains: replace moves an item between chains and keeps the others")
    func replaceAcrossChains() {
        var k = Keychain()
        var ids: [ItemID] = []
        for i in 0..<40 { ids.append(k.insert(Self.item("a\(i % 4)", group: GroupID(i % 5), service: "s\(i)"))) }
        // New account (key and prefix change), new group (prefix and bucket change),
        // data only (nothing changes).
        var changed = k[ids[3]]!
        changed.attributes[.account] = .string("zz")
        k.replace(ids[3], with: changed)
        changed = k[ids[7]]!
        changed.group = 3
        k.replace(ids[7], with: changed)
        changed = k[ids[9]]!
        changed.data = "new"
        k.replace(ids[9], with: changed)
        Self.checkLookups(k)
        #expect(k.item(withKey: Self.item("a3", group: 3, service: "s3").primaryKey) == nil)
        #expect(k.item(withKey: Self.item("zz", group: 3, service: "s3").primaryKey) == ids[3])
        #expect(k[ids[9]]?.data == "new")
        for id in ids.shuffled() { k.remove(id) }
        #expect(k.count == 0)
        #expect(k.allItems.isEmpty)
    }
}

extension Fixture {
    var groupIDsOfMain: [GroupID] {
        world[main].accessGroups.compactMap { world.groupID($0) }
    }
}
