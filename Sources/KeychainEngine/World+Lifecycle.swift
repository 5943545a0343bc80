/// App lifecycle: uninstall, install, transfer to another team, re-signing
/// (semantics.md section 5).
extension World {
    /// Whether an app is installed on a device.
    @inlinable @inline(__always)
    public func isInstalled(_ app: AppHandle, on device: DeviceHandle = .this) -> Bool {
        !devices[device.index].uninstalled.contains(app)
    }

    /// Why `app` can make no call at all on `device`, or nil when it can.
    /// Not a status: no device would answer such a call, as none is made.
    /// Inlined into the caller (the session, before every call): out of
    /// line, it was passed a copy of the 248-byte world.
    @inlinable @inline(__always)
    public func callBarrier(_ app: AppHandle, on device: DeviceHandle = .this) -> CallBarrier? {
        if !isInstalled(app, on: device) { return .notInstalled }
        if apps[app.index].kind == .appClip && !platform(of: device).runsAppClips { return .runsNoAppClips }
        return nil
    }

    /// Removes an app from a device. Its items stay in place; reinstalling
    /// the same app (same team and bundle ID) sees them again. An App Clip
    /// is the exception: its items go with it (below).
    public mutating func uninstall(_ app: AppHandle, from device: DeviceHandle = .this) {
        syncEpoch += 1
        devices[device.index].uninstalled.insert(app)
        forgetContexts(on: device, of: app)
        if apps[app.index].kind == .appClip { deleteAppClipItems(app, on: device) }
    }

    /// Installs an app on a device. Installing a full app replaces its App
    /// Clip (one whose bundle ID extends the app's, in the same team) when
    /// that clip is installed there: from iOS 16 the clip's items move to
    /// the app first (below), before that they go with the clip.
    public mutating func install(_ app: AppHandle, on device: DeviceHandle = .this) {
        syncEpoch += 1
        devices[device.index].uninstalled.remove(app)
        let parent = apps[app.index]
        guard parent.kind != .appClip, let parentID = parent.appID else { return }
        for clip in apps.indices where apps[clip].kind == .appClip && apps[clip].teamID == parent.teamID
            && apps[clip].bundleID.hasPrefix(parent.bundleID + ".") && isInstalled(AppHandle(index: clip), on: device) {
            let handle = AppHandle(index: clip)
            let platform = platform(of: device)
            if platform.family == .ios && platform.version >= 16, !promoteAppClipItems(handle, to: parentID, on: device) {
                // A failed promotion keeps the clip's items where they are
                // (kcs decision: who retries is the installer's, closed).
                devices[device.index].uninstalled.insert(handle)
                continue
            }
            uninstall(handle, from: device)
        }
    }

    /// The App Clip's items leave with it: `SecServerDeleteForAppClipApplicationIdentifier`
    /// (keychain/securityd/SecItemDb.c, from Security-59754.41.1, iOS 14;
    /// SecItemPriv.h: "At uninstallation time an App Clip should not leave
    /// behind any data") deletes every row of every class `WHERE agrp = ?
    /// AND clip = 1`, the group being the clip's application identifier.
    /// kcs stores no clip flag: an App Clip can write only to its app ID
    /// (`appClipHasAcceptableAccessGroups`), so every item in that group is
    /// taken as the clip's (an item another app wrote there would stay on a
    /// device).
    mutating func deleteAppClipItems(_ clip: AppHandle, on device: DeviceHandle) {
        guard let group = appClipGroup(clip) else { return }
        for itemClass in ItemClass.allCases {
            for id in devices[device.index].keychain.items(of: itemClass, in: group) {
                devices[device.index].keychain.remove(id)
            }
        }
    }

    /// The group whose items are an App Clip's: its application identifier
    /// (kcs stores no clip flag; see ``deleteAppClipItems(_:on:)``).
    func appClipGroup(_ clip: AppHandle) -> GroupID? {
        guard apps[clip.index].kind == .appClip, let appID = apps[clip.index].appID else { return nil }
        return groupID(appID)
    }

    /// Moves an App Clip's items to its full app's application identifier
    /// when the full app replaces it: `SecServerPromoteAppClipItemsToParentApp`
    /// (SecItemDb.c, from Security-60158.100.133, iOS 15.4; kcs applies it
    /// from iOS 16). In one transaction it copies each item of the clip's
    /// group with `kSecAttrAccessGroup` set to the parent's app ID, replacing
    /// an item of the same primary key there (`SecDbItemInsertOrReplace`);
    /// items it cannot decrypt because they need authentication
    /// (`errSecAuthNeeded`) or are lost (`errSecDecode`) are passed over; an
    /// item out of reach under the lock (`errSecInteractionNotAllowed`)
    /// fails the whole promotion, which then changes nothing and keeps the
    /// leftovers. A promoted item keeps the clip item's persistent
    /// reference (conformance audit 27, F4). On success the clip's remaining
    /// items are deleted (by the caller, through ``deleteAppClipItems(_:on:)``).
    /// False when it failed.
    mutating func promoteAppClipItems(_ clip: AppHandle, to parentID: String, on device: DeviceHandle) -> Bool {
        guard let appID = apps[clip.index].appID, let group = groupID(appID) else { return true }
        let state = devices[device.index].state
        var moving: [StoredItem] = []
        for itemClass in ItemClass.allCases {
            for id in devices[device.index].keychain.items(of: itemClass, in: group) {
                let item = devices[device.index].keychain.stored(id)
                if item.lost { continue }
                // The class key first: under the lock even an item behind
                // access control fails the promotion (kcs reading: the keybag
                // refuses before the ACL is evaluated).
                guard state.isAvailable(item.accessibility) else { return false }
                if item.accessControl?.requiresAuthentication == true { continue }
                moving.append(item)
            }
        }
        let parentGroup = intern(parentID)
        let stamp = tick()
        for var item in moving {
            item.group = parentGroup
            item.modified = stamp
            // The copy keeps the clip item's persistref, over a parent item
            // of its key too (SecDbItemDoUpdate keeps the copy's): the full
            // app finds it by the clip's reference. A clip item is never
            // synchronizable, so no tombstone holds its key.
            if let existing = devices[device.index].keychain.item(withKey: item.primaryKey) {
                devices[device.index].keychain.remove(existing)
            }
            devices[device.index].keychain.insertKeepingUUID(item)
        }
        return true
    }

    /// Moves an app to another team: its app ID and its team-prefixed
    /// keychain groups take the new prefix; application groups move with the
    /// app unchanged. Items stored under the old prefix become unreachable.
    /// A legacy App ID prefix (``AppTarget/appIDPrefix``) gives way to the
    /// team ID too, and so do the groups `$(AppIdentifierPrefix)` gave it:
    /// to the app's own team, this is the migration from a unique App ID
    /// prefix to the Team ID that Apple's DTS describes ("App ID Prefix
    /// Change and Keychain Access", developer forums thread 706128).
    /// Returns whether anything changed (a transfer to the team the app is
    /// already in, with no legacy prefix, changes nothing).
    @discardableResult
    public mutating func transfer(_ app: AppHandle, to teamID: String) -> Bool {
        var target = apps[app.index]
        guard target.teamID != teamID || target.appIDPrefix != nil else { return false }
        syncEpoch += 1
        let old = [target.appIDPrefix, target.teamID].compactMap { $0.map { $0 + "." } }
        target.keychainAccessGroups = target.keychainAccessGroups.map { group in
            for prefix in old where group.hasPrefix(prefix) { return teamID + "." + group.dropFirst(prefix.count) }
            return group
        }
        target.teamID = teamID
        target.appIDPrefix = nil
        apps[app.index] = target
        refreshCache(app)
        // The new team signs it: a new signature on every device.
        for device in devices.indices { resign(app, on: DeviceHandle(index: device)) }
        return true
    }

    /// The app's code signature changes on `device`: an ad-hoc rebuild, a
    /// build signed with another developer's certificate, another team's.
    /// Its designated requirement comes from the signing certificate
    /// (`DRMaker::make`, OSX/libsecurity_codesigning/lib/drmaker.cpp: the
    /// leaf's subject CN for Apple Development, the team's OU for Developer
    /// ID; an ad-hoc signature has none and its code hash stands in), so the
    /// Mac file keychain's ACLs that trusted the old signature trust the app
    /// no more (``fileKeychainLists(_:_:on:)``): reading those items' data
    /// asks, until the user answers Always Allow. Its name stays on them, so
    /// it may still delete its passwords; an app without a team is taken as
    /// ad-hoc, so its partition changes too. The data-protection keychain
    /// goes by entitlements and sees no change.
    /// A count, not a walk of the items: each access list keeps the
    /// signature it trusts (a walk per `resign` was items × resigns; review
    /// 19, R5).
    public mutating func resign(_ app: AppHandle, on device: DeviceHandle = .this) {
        devices[device.index].signatures[app, default: 0] &+= 1
    }
}

/// Why an app can make no call on a device (``World/callBarrier(_:on:)``).
public enum CallBarrier: Sendable, Hashable {
    /// Uninstalled from the device.
    case notInstalled
    /// An App Clip on a device that runs none (``Platform/runsAppClips``).
    case runsNoAppClips
}
