/// Why an item of the right class did not answer a query.
public enum PassOverReason: Sendable, Hashable {
    /// The item's group is not in the caller's list at all.
    case groupNotAccessible
    /// The caller may see the group, but the query named another.
    case groupNotSearched
    case synchronizable(item: Bool, wanted: SyncSelector?)
    case accessibility(item: Accessibility, wanted: Accessibility)
    case attribute(ItemAttribute, item: AttributeValue, wanted: AttributeValue)
    /// The item has no value for an attribute outside the key (NULL), which
    /// equals nothing, not even "".
    case attributeNotSet(ItemAttribute, wanted: AttributeValue)
    /// An identity's certificate without a private key the caller can see.
    case noPairedKey
}

/// An item of the queried class and why it was or was not a match.
public struct Candidate: Sendable, Hashable {
    public var item: StoredItem
    public var groupName: String
    /// Empty when the item matches the query.
    public var reasons: [PassOverReason]
}

extension World {
    /// The items of the call's class on `device`, in insertion order, each
    /// with the reasons it was passed over. For explanations only: this walks
    /// the whole keychain.
    public func candidates(for request: CallRequest, as app: AppHandle,
                           on device: DeviceHandle = .this) -> [Candidate] {
        candidates(for: request, as: app, on: device, first: Int.max).shown
    }

    /// How many items of a class the Mac's file-based keychain of `device`
    /// holds: what a call that goes to the data-protection keychain alone
    /// does not search, said when it finds nothing there.
    public func fileKeychainCount(of itemClass: ItemClass, on device: DeviceHandle) -> Int {
        devices[device.index].fileKeychain.firstItems(of: [itemClass.table], limit: 0).total
    }

    /// The items a find of `request` by `app` would match on `device`, by
    /// the engine's own matching (the searched groups, the sync selector,
    /// the attributes): which other device holds what the call missed,
    /// without walking that device's every item per failure (calls each
    /// followed by a failed expectation, beside a device of 5,000 items,
    /// took 73 s; found by review).
    public func matches(for request: CallRequest, as app: AppHandle, on device: DeviceHandle) -> [FoundItem] {
        guard let itemClass = request.spec.itemClass else { return [] }
        let cache = cache(of: app, on: platform(of: device))
        guard case .success(let groups) = searchScope(request.spec, cache, platform(of: device)) else { return [] }
        return Self.matchingFoundItems(request.spec, itemClass, in: groups, of: devices[device.index].keychain, names: groupTexts,
                                       certificateGroups: cache.searchIDs)
    }

    /// The first `first` of them, with their reasons, and how many there
    /// are in all: a failed expectation shows a few, and working out every
    /// item's reasons for each one was failures × items (5,000 of each
    /// took 39 s; found by adversarial testing).
    public func candidates(for request: CallRequest, as app: AppHandle, on device: DeviceHandle = .this,
                           first: Int) -> (shown: [Candidate], total: Int) {
        guard let itemClass = request.spec.itemClass else { return ([], 0) }
        let spec = request.spec
        let cache = cache(of: app, on: platform(of: device))
        let searched: [GroupID]
        if let named = spec.accessGroup {
            searched = groupIDs[named].map { [$0] } ?? []
        } else {
            searched = cache.searchIDs
        }
        let classes = [itemClass.table]
        var result: [Candidate] = []
        let keychain = devices[device.index].keychain
        let (items, total) = keychain.firstItems(of: classes, limit: first)
        for (_, item) in items {
            var reasons: [PassOverReason] = []
            if !cache.ids.contains(item.group) {
                reasons.append(.groupNotAccessible)
            } else if !searched.contains(item.group) {
                reasons.append(.groupNotSearched)
            }
            switch spec.synchronizable ?? .no {
            case .yes where !item.synchronizable, .no where item.synchronizable:
                reasons.append(.synchronizable(item: item.synchronizable, wanted: spec.synchronizable))
            default: break
            }
            if let a = spec.accessibility, a != item.accessibility {
                reasons.append(.accessibility(item: item.accessibility, wanted: a))
            }
            for e in spec.attributes where e.attribute.applies(to: item.itemClass) {
                guard let have = item.comparedValue(e.attribute) else {
                    reasons.append(.attributeNotSet(e.attribute, wanted: e.value))
                    continue
                }
                if have != e.value { reasons.append(.attribute(e.attribute, item: have, wanted: e.value)) }
            }
            if itemClass == .identity && reasons.isEmpty {
                let found = Self.matchingFoundItems(spec, .identity, in: searched, of: devices[device.index].keychain,
                                                   names: groupTexts)
                if !found.contains(where: { $0.item.sequence == item.sequence }) { reasons.append(.noPairedKey) }
            }
            result.append(Candidate(item: item, groupName: groupTexts[Int(item.group)].string, reasons: reasons))
        }
        return (result, total)
    }

    /// The first item, in insertion order, that ``candidates(for:as:on:)``
    /// would list with one reason only, a differing attribute that `accept`
    /// takes (the attribute, the item's value, the query's). For lint's near
    /// misses: an item outside the searched groups has a group reason, so
    /// only the searched groups' buckets of the class are walked, and a
    /// candidate is built only for the item returned.
    public func firstNearMiss(for request: CallRequest, as app: AppHandle, on device: DeviceHandle = .this,
                              accepting accept: (ItemAttribute, AttributeValue, AttributeValue) -> Bool) -> Candidate? {
        guard let itemClass = request.spec.itemClass else { return nil }
        let cache = cache(of: app, on: platform(of: device))
        // The groups searched are the caller's: a named one only if the
        // list holds it. (Tested per group against the list, it cost the
        // square of the list per find: 100,000 groups and 10 finds took 49 s;
        // found by adversarial testing.)
        let searched: [GroupID]
        if let named = request.spec.accessGroup {
            searched = groupIDs[named].map { cache.ids.contains($0) ? [$0] : [] } ?? []
        } else {
            searched = cache.searchIDs
        }
        let table = itemClass.table
        var best: (sequence: UInt64, item: StoredItem, difference: PassOverReason)?
        for g in searched {
            devices[device.index].keychain.forEach(of: table, in: g) { _, item in
                // A bucket is in insertion order: nothing after a found item can come first.
                if let found = best, item.sequence > found.sequence { return false }
                guard let (a, have, wanted) = Self.onlyDifference(item, request.spec), accept(a, have, wanted) else { return true }
                best = (item.sequence, item, .attribute(a, item: have, wanted: wanted))
                return false
            }
        }
        return best.map { Candidate(item: $0.item, groupName: groupTexts[Int($0.item.group)].string, reasons: [$0.difference]) }
    }

    /// The one attribute in which an item of a searched group differs from
    /// a query, as ``candidates(for:as:on:)`` compares them, when nothing
    /// else differs (sync, accessibility, other attributes).
    private static func onlyDifference(_ item: StoredItem, _ spec: ItemSpec) -> (ItemAttribute, AttributeValue, AttributeValue)? {
        switch spec.synchronizable ?? .no {
        case .yes where !item.synchronizable, .no where item.synchronizable: return nil
        default: break
        }
        if let a = spec.accessibility, a != item.accessibility { return nil }
        var differing: ItemAttribute?
        let entries = spec.attributes.entries
        for i in entries.indices where entries[i].attribute.applies(to: item.itemClass) {
            if item.matches(entries[i].attribute, entries[i].value) { continue }
            if differing != nil { return nil }
            differing = entries[i].attribute
        }
        // An attribute the item lacks (NULL) has no value to suggest.
        guard let a = differing, let wanted = spec.attributes[a], let have = item.comparedValue(a) else { return nil }
        return (a, have, wanted)
    }

    /// How many items a query would match, with the sync filter replaced,
    /// through the indexes (no walk of the whole keychain). For lint.
    public func matchCount(of request: CallRequest, as app: AppHandle, on device: DeviceHandle = .this,
                           sync: SyncSelector) -> Int {
        guard let itemClass = request.spec.itemClass, itemClass != .identity else { return 0 }
        let cache = cache(of: app, on: platform(of: device))
        let groups: [GroupID]
        if let named = request.spec.accessGroupText {
            guard let id = cache.id(of: named) else { return 0 }
            groups = singleGroups[Int(id)]
        } else {
            groups = cache.searchIDs
        }
        return devices[device.index].keychain.matchCount(request.spec, itemClass, in: groups, sync: sync)
    }

    /// The groups among `groupNames` in which a query has matches, through
    /// the indexes. For lint ("it is in a group you do not list").
    public func groupsWithMatches(of request: CallRequest, in groupNames: [String],
                                  on device: DeviceHandle = .this) -> [String] {
        guard let itemClass = request.spec.itemClass, itemClass != .identity else { return [] }
        return groupNames.filter { name in
            guard let id = groupIDs[name] else { return false }
            return !Self.matchingItems(request.spec, itemClass, in: [id], of: devices[device.index].keychain).isEmpty
        }
    }

    /// Whether the device's keychain holds any item in the group named
    /// `name`. For lint (a group items live in is a real one).
    public func holdsItems(inGroup name: String, on device: DeviceHandle = .this) -> Bool {
        guard let id = groupIDs[name] else { return false }
        let keychain = devices[device.index].keychain
        return ItemClass.allCases.contains { c in
            var found = false
            keychain.forEach(of: c, in: id) { _, _ in found = true; return false }
            return found
        }
    }

    /// Whether `app` could read `item` by naming it: its group is in the
    /// app's list and the device state lets it be read. For `show matrix`.
    public func canRead(_ item: StoredItem, as app: AppHandle, on device: DeviceHandle = .this) -> Bool {
        !apps[app.index].isUnsigned && cache(of: app, on: platform(of: device)).ids.contains(item.group)
            && devices[device.index].state.isAvailable(item.accessibility)
    }
}
