/// Why an item of the right class did not answer a query.
public enum PassOverReason: Sendable, Hashable {
    /// The item's group is not in the caller's list at all.
    case groupNotAccessible
    /// The caller may see the group, but the query named another.
    case groupNotSearched
    case synchronizable(item: Bool, wanted: SyncSelector?)
    case accessibility(item: Accessibility, wanted: Accessibility)
    case attribute(ItemAttribute, item: AttributeValue, wanted: AttributeValue)
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
        guard let itemClass = request.spec.itemClass else { return [] }
        let spec = request.spec
        let cache = cache(of: app, on: platform(of: device))
        let searched: [GroupID]
        if let named = spec.accessGroup {
            searched = groupIDs[named].map { [$0] } ?? []
        } else {
            searched = cache.searchIDs
        }
        let classes: [ItemClass] = itemClass == .identity ? [.certificate] : [itemClass]
        var result: [Candidate] = []
        for (_, item) in devices[device.index].keychain.allItems where classes.contains(item.itemClass) {
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
                let have = item.attributes.effectiveValue(e.attribute)
                if have != e.value { reasons.append(.attribute(e.attribute, item: have, wanted: e.value)) }
            }
            if itemClass == .identity && reasons.isEmpty {
                let found = Self.matchingFoundItems(spec, .identity, in: searched, of: devices[device.index].keychain,
                                                   names: groupNames)
                if !found.contains(where: { $0.item.sequence == item.sequence }) { reasons.append(.noPairedKey) }
            }
            result.append(Candidate(item: item, groupName: groupNames[Int(item.group)], reasons: reasons))
        }
        return result
    }

    /// How many items a query would match, with the sync filter replaced,
    /// through the indexes (no walk of the whole keychain). For lint.
    public func matchCount(of request: CallRequest, as app: AppHandle, on device: DeviceHandle = .this,
                           sync: SyncSelector) -> Int {
        guard let itemClass = request.spec.itemClass, itemClass != .identity else { return 0 }
        let cache = cache(of: app, on: platform(of: device))
        let groups: [GroupID]
        if let named = request.spec.accessGroup {
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

    /// Whether `app` could read `item` by naming it: its group is in the
    /// app's list and the device state lets it be read. For `show matrix`.
    public func canRead(_ item: StoredItem, as app: AppHandle, on device: DeviceHandle = .this) -> Bool {
        !apps[app.index].isUnsigned && cache(of: app, on: platform(of: device)).ids.contains(item.group)
            && devices[device.index].state.isAvailable(item.accessibility)
    }
}
