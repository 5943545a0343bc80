/// A handle to a declared app target.
public struct AppHandle: Sendable, Hashable {
    public let index: Int
}

/// A handle to a device; `this` is the first one, present from the start.
public struct DeviceHandle: Sendable, Hashable {
    public let index: Int
    public static let this = DeviceHandle(index: 0)
}

/// Why a declaration was refused. Each case carries what a message needs.
public enum WorldError: Error, Sendable, Hashable {
    case platformAfterApps
    case malformedTeamID(String)
    case duplicateTeam(String)
    case unknownTeam(String, known: [String])
    case duplicateApp(String)
    case unknownApp(String, known: [String])
    case duplicateDevice(String)
    case unknownDevice(String, known: [String])
    /// A keychain group needs a team prefix and the app has no team.
    case groupNeedsTeam(group: String, app: String)
    case unknownBackup(String, known: [String])
}

/// A device's keychain as it was backed up.
public struct Backup: Sendable {
    public var deviceName: String
    public var keychain: Keychain
}

/// The whole modelled world: platform, teams, app targets and devices, each
/// device owning its keychain. A value: copying it snapshots everything.
public struct World: Sendable {
    public private(set) var platform: Platform = .defaultPlatform
    public private(set) var teams: [Team] = []
    public internal(set) var apps: [AppTarget] = []
    public internal(set) var devices: [Device] = [Device(name: "this", account: "default")]
    /// Backups by name: the device they came from and its keychain then.
    public internal(set) var backups: [String: Backup] = [:]
    /// A logical clock for last-writer-wins sync.
    var clock: UInt64 = 0
    /// Wall-clock seconds since the scenario began, advanced by `wait`.
    public internal(set) var now = 0
    /// Keychains made by restores so far, so each gets its own UUID salt.
    var restoredKeychains: UInt64 = 0
    /// Authentication contexts (`LAContext`) by name.
    public internal(set) var contexts: [String: AuthContext] = [:]
    /// Persistent references kept by name (`keep persistent-ref as NAME`).
    public internal(set) var persistentRefs: [String: PersistentRef] = [:]

    private var appsByName: [String: Int] = [:]
    private var teamsByName: [String: Int] = [:]
    var groupNames: [String] = []
    var groupIDs: [String: GroupID] = [:]
    /// Each app's access-group list, resolved once; rebuilt when its entitlements change.
    private var appCaches: [AppCache] = []
    /// The same as the Mac's keychain daemon builds them (macOS, Catalyst).
    private var macCaches: [AppCache] = []

    /// An app's access groups as the call path needs them.
    struct AppCache: Sendable {
        var names: [String]
        var ids: [GroupID]
        /// The list without repeats, in first-seen order: the groups a query searches.
        var searchIDs: [GroupID]
        var searchNames: [String]
        /// An App Clip (`com.apple.developer.on-demand-install-capable`)
        /// whose list is not its app ID alone: every call is
        /// errSecRestrictedAPI (SecItemServer.c `appClipHasAcceptableAccessGroups`,
        /// Security-59754.41.1 and later).
        var restrictedClip = false
        /// An App Clip: synchronizable items are refused.
        var isAppClip = false

        /// The groups add, update and delete may use: all but the read-only
        /// token group. The names stay whole for messages.
        func writable(tokenGroup: GroupID?) -> AppCache {
            guard let token = tokenGroup, ids.contains(token) else { return self }
            var c = self
            c.ids.removeAll { $0 == token }
            c.searchIDs.removeAll { $0 == token }
            c.searchNames.removeAll { $0 == AppTarget.tokenGroup }
            return c
        }
    }

    public init() {}

    // MARK: Declarations

    /// Sets the platform; only before the first app.
    public mutating func setPlatform(_ platform: Platform) throws(WorldError) {
        guard apps.isEmpty else { throw .platformAfterApps }
        self.platform = platform
    }

    /// Declares a team. The first team is the default for later apps.
    @discardableResult
    public mutating func addTeam(id: String, name: String? = nil) throws(WorldError) -> Team {
        guard Team.isWellFormedID(id) else { throw .malformedTeamID(id) }
        let team = Team(id: id, name: name)
        guard teamsByName[team.name] == nil else { throw .duplicateTeam(team.name) }
        teamsByName[team.name] = teams.count
        if teamsByName[id] == nil { teamsByName[id] = teams.count }
        teams.append(team)
        return team
    }

    /// Finds a team by its name or ID.
    public func team(named name: String) -> Team? {
        teamsByName[name].map { teams[$0] }
    }

    /// The team later apps get when they name none: the first declared.
    public var defaultTeam: Team? { teams.first }

    /// Declares an app target. List values are expanded as in an entitlements file.
    @discardableResult
    public mutating func addApp(bundleID: String, name: String, teamID: String?,
                                kind: TargetKind = .app, keychainAccessGroups: [String] = [],
                                applicationGroups: [String] = []) throws(WorldError) -> AppHandle {
        guard appsByName[name] == nil else { throw .duplicateApp(name) }
        let app = AppTarget(
            name: name, bundleID: bundleID, teamID: teamID, kind: kind,
            keychainAccessGroups: keychainAccessGroups.map { AppTarget.expandEntitlement($0, teamID: teamID) },
            applicationGroups: applicationGroups.map { AppTarget.expandEntitlement($0, teamID: teamID) })
        let handle = AppHandle(index: apps.count)
        appsByName[name] = handle.index
        apps.append(app)
        appCaches.append(makeCache(names: app.accessGroups, of: app))
        macCaches.append(makeCache(names: app.macAccessGroups, of: app))
        return handle
    }

    /// Finds an app by name.
    /// Marks an app as signed without a provisioning profile (macOS).
    public mutating func setProvisioned(_ provisioned: Bool, for app: AppHandle) {
        setSigning(provisioned ? .provisioned : .unprovisioned, for: app)
    }

    /// Sets how an app is signed (macOS and Catalyst tell the shades apart).
    public mutating func setSigning(_ signing: Signing, for app: AppHandle) {
        apps[app.index].signing = signing
        refreshCache(app)
    }

    /// Sets an app's associated application identifiers (Mac Catalyst),
    /// expanded as in an entitlements file.
    public mutating func setAssociatedApplicationIdentifiers(_ ids: [String], for app: AppHandle) {
        apps[app.index].associatedApplicationIdentifiers = ids.map {
            AppTarget.expandEntitlement($0, teamID: apps[app.index].teamID)
        }
        refreshCache(app)
    }

    public func app(named name: String) -> AppHandle? {
        appsByName[name].map(AppHandle.init(index:))
    }

    public subscript(app: AppHandle) -> AppTarget { apps[app.index] }

    /// Apps other than `app` whose access groups include `group`, found
    /// through the cached lists without copying any app. For lint.
    public func otherApps(accessing group: String, besides app: AppHandle) -> [AppHandle] {
        guard let id = groupIDs[group] else { return [] }
        return appCaches.indices.filter { $0 != app.index && appCaches[$0].ids.contains(id) }
            .map(AppHandle.init(index:))
    }

    /// Whether `group` is in the app's access-group list, asked of the cached
    /// list: one hash of the name, no list built.
    public func isEntitled(_ app: AppHandle, to group: String) -> Bool {
        guard let id = groupIDs[group] else { return false }
        return appCaches[app.index].ids.contains(id)
    }

    /// How many items the device's data-protection keychain holds, without
    /// copying the device.
    public func keychainCount(on device: DeviceHandle) -> Int { devices[device.index].keychain.count }

    /// Every declared app, in declaration order.
    public var appHandles: [AppHandle] { apps.indices.map(AppHandle.init(index:)) }

    /// Xcode-capability style sharing: a `group.` name is appended to each
    /// app's application groups; any other name is prefixed with the app's
    /// team ID and appended to its keychain access groups.
    public mutating func addGroup(_ name: String, to targets: [AppHandle]) throws(WorldError) {
        for handle in targets {
            var app = apps[handle.index]
            if name.hasPrefix("group.") {
                app.applicationGroups.append(name)
            } else {
                guard let teamID = app.teamID else { throw .groupNeedsTeam(group: name, app: app.name) }
                app.keychainAccessGroups.append("\(teamID).\(name)")
            }
            apps[handle.index] = app
            refreshCache(handle)
        }
    }

    /// Rebuilds an app's cached access groups after its entitlements changed.
    mutating func refreshCache(_ app: AppHandle) {
        let target = apps[app.index]
        appCaches[app.index] = makeCache(names: target.accessGroups, of: target)
        macCaches[app.index] = makeCache(names: target.macAccessGroups, of: target)
    }

    /// Declares a further device. Without an account it shares `this` device's.
    @discardableResult
    public mutating func addDevice(name: String, account: String?, platform: Platform? = nil) throws(WorldError) -> DeviceHandle {
        guard !devices.contains(where: { $0.name == name }) else { throw .duplicateDevice(name) }
        devices.append(Device(name: name, account: account ?? devices[0].account, serial: UInt64(devices.count)))
        devices[devices.count - 1].platform = platform
        return DeviceHandle(index: devices.count - 1)
    }

    /// Items stored on every device, in both keychains.
    public var itemCount: Int { devices.reduce(0) { $0 + $1.keychain.count + $1.fileKeychain.count } }

    /// Every device, `this` first.
    public var deviceHandles: [DeviceHandle] { devices.indices.map(DeviceHandle.init(index:)) }

    /// Finds a device by name.
    public func device(named name: String) -> DeviceHandle? {
        devices.firstIndex(where: { $0.name == name }).map(DeviceHandle.init(index:))
    }

    public subscript(device: DeviceHandle) -> Device {
        get { devices[device.index] }
        set { devices[device.index] = newValue }
    }

    // MARK: Access groups

    /// The name of an interned group.
    public func groupName(_ id: GroupID) -> String { groupNames[Int(id)] }

    /// The interned ID of a group name, if any item or app ever used it.
    public func groupID(_ name: String) -> GroupID? { groupIDs[name] }

    /// An app's access-group list as a device of `platform` builds it.
    func cache(of app: AppHandle, on platform: Platform) -> AppCache {
        platform.usesMacDaemon ? macCaches[app.index] : appCaches[app.index]
    }

    /// An app's access groups on a device, in order.
    public func accessGroups(of app: AppHandle, on device: DeviceHandle = .this) -> [String] {
        cache(of: app, on: platform(of: device)).names
    }

    /// The group an add without `group=` uses on a device: element 0 of the
    /// list, never the read-only token group.
    public func defaultGroup(of app: AppHandle, on device: DeviceHandle = .this) -> String? {
        guard platform(of: device).usesMacDaemon else { return apps[app.index].defaultGroup }
        return macCaches[app.index].names.first.flatMap { $0 == AppTarget.tokenGroup ? nil : $0 }
    }

    /// A cache for an app's list as one platform builds it, with the App
    /// Clip rules (SecItemServer.c `appClipHasAcceptableAccessGroups`).
    private mutating func makeCache(names: [String], of app: AppTarget) -> AppCache {
        var cache = makeCache(names)
        if app.kind == .appClip {
            cache.isAppClip = true
            // Acceptable: the app ID alone, or with the token group.
            let own = [app.appID].compactMap { $0 }
            cache.restrictedClip = cache.names != own && cache.names != own + [AppTarget.tokenGroup]
        }
        return cache
    }

    /// A cache for a list of access groups, in order.
    private mutating func makeCache(_ names: [String]) -> AppCache {
        let ids = names.map { intern($0) }
        var seen = Set<GroupID>()
        let searchIDs = ids.filter { seen.insert($0).inserted }
        return AppCache(names: names, ids: ids, searchIDs: searchIDs, searchNames: searchIDs.map { groupNames[Int($0)] })
    }

    mutating func intern(_ name: String) -> GroupID {
        if let id = groupIDs[name] { return id }
        let id = GroupID(groupNames.count)
        groupNames.append(name)
        groupIDs[name] = id
        return id
    }
}
