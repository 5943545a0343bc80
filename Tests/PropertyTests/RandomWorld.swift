import KeychainEngine

/// Random worlds and random call sequences over a small vocabulary, so that
/// collisions, shared groups and unentitled groups come up often.
enum RandomWorld {
    static let teams = ["SKMME9E2Y8", "ABCDE12345"]
    static let keychainGroups = ["SKMME9E2Y8.g1", "SKMME9E2Y8.g2", "SKMME9E2Y8.g3", "ABCDE12345.g1"]
    static let applicationGroups = ["group.x", "group.y"]

    /// Every group name a call may name: keychain groups, app groups, app
    /// IDs of the generated apps (some of another app) and the empty string.
    static func nameableGroups(_ world: World) -> [String] {
        keychainGroups + applicationGroups + world.appHandles.compactMap { world[$0].appID } + [""]
    }

    /// Two to four apps on `platform`, mostly of the first team, with random
    /// keychain groups of their own team and random app groups; one in ten
    /// is unsigned.
    static func make(platform: Platform, using rng: inout SeededGenerator) throws -> World {
        var world = World()
        try world.setPlatform(platform)
        for t in teams { try world.addTeam(id: t) }
        for i in 0..<Int.random(in: 2...4, using: &rng) {
            if rng.chance(10) {
                try world.addApp(bundleID: "com.ex.unsigned\(i)", name: "A\(i)", teamID: nil)
                continue
            }
            let team = rng.chance(80) ? teams[0] : teams[1]
            let own = keychainGroups.filter { $0.hasPrefix(team + ".") }
            try world.addApp(bundleID: "com.ex.a\(i)", name: "A\(i)", teamID: team,
                             keychainAccessGroups: rng.subset(own, max: 2),
                             applicationGroups: rng.subset(applicationGroups, max: 1))
        }
        return world
    }

    /// One step of a sequence: a call or a change of device state.
    enum Step: CustomStringConvertible {
        case call(CallRequest, AppHandle)
        case lock, unlock, reboot

        var description: String {
            switch self {
            case .call(let r, let app): "app \(app.index) \(r.operation) \(r.spec) changes: \(String(describing: r.changes))"
            case .lock: "lock"
            case .unlock: "unlock"
            case .reboot: "reboot"
            }
        }
    }

    static func step(in world: World, using rng: inout SeededGenerator) -> Step {
        let roll = Int.random(in: 0..<100, using: &rng)
        if roll < 2 { return .lock }
        if roll < 5 { return .unlock }
        if roll < 6 { return .reboot }
        let app = rng.pick(world.appHandles)
        let operation: Operation = switch Int.random(in: 0..<100, using: &rng) {
        case 0..<40: .add
        case 40..<65: .find
        case 65..<85: .update
        default: .delete
        }
        var spec = itemSpec(in: world, using: &rng)
        switch operation {
        case .add:
            spec.data = "d\(Int.random(in: 0..<5, using: &rng))"
        case .find:
            spec.limit = rng.pick([nil, .one, .all, .count(2)])
            if rng.chance(50) { spec.returns.insert(.data) }
            if rng.chance(50) { spec.returns.insert(.attributes) }
        case .update, .delete:
            // Broad queries half the time, so that many of them match.
            if rng.chance(50) { (spec.accessibility, spec.synchronizable, spec.accessGroup) = (nil, nil, nil) }
            if rng.chance(50) { spec.attributes[.service] = nil }
            if rng.chance(5) { spec.limit = .all }
        }
        var changes: ItemSpec?
        if operation == .update {
            var c = ItemSpec()
            if rng.chance(40) { c.attributes[.account] = .string(AttributeText(rng.pick(["a", "b", "c"]))) }
            if rng.chance(50) { c.data = "u\(Int.random(in: 0..<5, using: &rng))" }
            if rng.chance(30) { c.attributes[.label] = .string(AttributeText(rng.pick(["l1", "l2"]))) }
            if rng.chance(25) { c.accessGroup = rng.pick(nameableGroups(world)) }
            if rng.chance(10) { c.synchronizable = rng.pick([.yes, .no]) }
            changes = c
        }
        return .call(CallRequest(operation, spec, changes: changes), app)
    }

    private static func itemSpec(in world: World, using rng: inout SeededGenerator) -> ItemSpec {
        var spec = ItemSpec(itemClass: rng.chance(2) ? nil : (rng.chance(80) ? .genericPassword : .internetPassword))
        if rng.chance(90) { spec.attributes[.account] = .string(AttributeText(rng.pick(["a", "b", "c"]))) }
        switch spec.itemClass {
        case .genericPassword?: if rng.chance(70) { spec.attributes[.service] = .string(AttributeText(rng.pick(["s", "t"]))) }
        case .internetPassword?: if rng.chance(70) { spec.attributes[.server] = .string("x.com") }
        default: break
        }
        if rng.chance(35) { spec.accessGroup = rng.pick(nameableGroups(world)) }
        if rng.chance(40) { spec.synchronizable = rng.pick([.yes, .no, .any]) }
        if rng.chance(25) {
            spec.accessibility = rng.pick([.whenUnlocked, .afterFirstUnlock, .always, .whenUnlockedThisDeviceOnly])
        }
        return spec
    }

    /// Applies a step; the call's result, if it was a call.
    @discardableResult
    static func apply(_ step: Step, to world: inout World) -> CallResult? {
        switch step {
        case .call(let request, let app): return world.perform(request, as: app)
        case .lock: world.lock(); return nil
        case .unlock: world.unlock(); return nil
        case .reboot: world.reboot(); return nil
        }
    }

    /// The device's items as comparable values: sequence, group name and item.
    static func snapshot(_ world: World) -> [UInt64: (group: String, item: StoredItem)] {
        var items: [UInt64: (group: String, item: StoredItem)] = [:]
        for (_, item) in world[DeviceHandle.this].keychain.allItems {
            items[item.sequence] = (world.groupName(item.group), item)
        }
        return items
    }
}
