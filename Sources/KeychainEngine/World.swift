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
    /// Devices by name (devices are only ever appended): a scan per name
    /// made 20,000 declarations quadratic (found by adversarial testing).
    private var deviceIndex: [String: Int] = ["this": 0]
    /// Backups by name: the device they came from and its keychain then.
    public internal(set) var backups: [String: Backup] = [:]
    /// A logical clock for last-writer-wins sync.
    var clock: UInt64 = 0
    /// Bumped by what changes which items travel without a tick of the
    /// clock (a device, a restore, an install, an uninstall, a transfer, a
    /// passcode): with the clock, it says an account needs no new sync.
    var syncEpoch = 0
    /// Each account's state when it was last synced in full: a sync with
    /// nothing new since is no work (5,000 items and 5,000 syncs took 46 s;
    /// found by adversarial testing).
    var syncedAt: [String: SyncMark] = [:]

    /// The clock, the epoch, the account's devices and their keychains'
    /// and tombstones' versions.
    struct SyncMark: Hashable {
        var clock: UInt64
        var epoch: Int
        var members: [Int]
        var versions: [UInt64]
    }

    func syncMark(_ members: [Int]) -> SyncMark {
        SyncMark(clock: clock, epoch: syncEpoch, members: members,
                 versions: members.flatMap { [devices[$0].keychain.version, UInt64(devices[$0].tombstones.count)] })
    }
    /// Wall-clock seconds since the scenario began, advanced by `wait`.
    public internal(set) var now = 0
    /// Authentication contexts (`LAContext`) by name.
    public internal(set) var contexts: [String: AuthContext] = [:]
    /// Persistent references kept by name (`keep persistent-ref as NAME`).
    public internal(set) var persistentRefs: [String: PersistentRef] = [:]
    /// The names of ``backups``, ``contexts`` and ``persistentRefs`` in the
    /// order first given: only ever appended, so a reader that indexes
    /// them ("did you mean") takes just the new ones.
    public internal(set) var backupNames: [String] = []
    public internal(set) var contextNames: [String] = []
    public internal(set) var persistentRefNames: [String] = []

    private var appsByName: [String: Int] = [:]
    /// The calling app is looked up by name on every call: this table finds
    /// it with one seeded fingerprint of the name's bytes and one
    /// comparison (hashing the name for `appsByName` took some 400
    /// instructions a call). `appsByName` stays the record, and answers
    /// for a name whose fingerprint another app's took first.
    private var appsByFingerprint = SlotTable()
    private let nameSeed = UInt64.random(in: .min ... .max)
    private var teamsByName: [String: Int] = [:]
    var groupNames: [String] = []
    var groupIDs: [String: GroupID] = [:]
    /// Per group: a one-element list of its ID and of its name, made once,
    /// so a call on one group shares them instead of building arrays.
    var singleGroups: [[GroupID]] = []
    var singleGroupNames: [[String]] = []
    /// Each app's access-group list, resolved once; rebuilt when its entitlements change.
    private var appCaches: [AppCache] = []
    /// The apps whose lists hold each group, kept with `appCaches`: lint
    /// asks after every add whether another app shares a group, and a scan
    /// of every app per app group per add was cubic (a 223 KB script took
    /// 30 s; found by adversarial testing).
    private var groupHolders: [GroupID: Holders] = [:]

    /// The apps holding one group, and the first two in declaration order
    /// (lint asks for the first other than the caller): an ordered list
    /// made each app joining a group of 400,000 scan it (25 s; found by
    /// adversarial testing). The members past the first two wait in a
    /// min-heap, so removing the first or the second takes the next from
    /// it: a scan of the group per removal made 60,000 transfers over a
    /// group of 200,000 holders take 19 s (found by adversarial testing).
    struct Holders {
        private(set) var members: Set<Int> = []
        /// The two smallest members.
        private var first: Int?
        private var second: Int?
        /// Members other than `first` and `second`, smallest on top; an
        /// entry whose app has left (or is `first` or `second` again) is
        /// skipped when it comes up.
        private var rest: [Int] = []

        mutating func insert(_ app: Int) {
            guard members.insert(app).inserted else { return }
            guard let f = first else { first = app; return }
            if app < f {
                if let s = second { push(s) }
                (first, second) = (app, f)
            } else if let s = second {
                if app < s { push(s); second = app } else { push(app) }
            } else {
                second = app
            }
        }

        mutating func remove(_ app: Int) {
            guard members.remove(app) != nil else { return }
            if app == first {
                first = second
                second = nextWaiting()
            } else if app == second {
                second = nextWaiting()
            }
        }

        /// The smallest member still waiting, taken off the heap.
        private mutating func nextWaiting() -> Int? {
            while let top = popSmallest() {
                if members.contains(top) && top != first && top != second { return top }
            }
            return nil
        }

        private mutating func push(_ value: Int) {
            // Entries of apps that left stay until they come up: rebuilt
            // from the members when they outnumber them, so a group whose
            // holders come and go (transfers) keeps a heap of its size.
            if rest.count > 2 * members.count + 16 {
                rest = members.filter { $0 != first && $0 != second && $0 != value }.sorted()
            }
            rest.append(value)
            var i = rest.count - 1
            while i > 0, rest[(i - 1) / 2] > rest[i] {
                rest.swapAt(i, (i - 1) / 2)
                i = (i - 1) / 2
            }
        }

        private mutating func popSmallest() -> Int? {
            guard let top = rest.first else { return nil }
            let last = rest.removeLast()
            if rest.isEmpty { return top }
            rest[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < rest.count, rest[l] < rest[m] { m = l }
                if r < rest.count, rest[r] < rest[m] { m = r }
                if m == i { return top }
                rest.swapAt(i, m)
                i = m
            }
        }

        /// The first member other than `app`, in declaration order.
        func firstOther(than app: Int) -> Int? { first == app ? second : first }
    }
    /// The same as the Mac's keychain daemon builds them (macOS, Catalyst).
    private var macCaches: [AppCache] = []
    /// Apps whose cached lists `group` declarations have made out of date:
    /// rebuilt once, when a call needs them (``settleCaches()``), and built
    /// aside meanwhile for a question that cannot store them. Rebuilt at
    /// every declaration, 20,000 `group G APP` lines for one app took 100 s
    /// (found by adversarial testing); the group holders stay current.
    private var staleCaches: Set<Int> = [] {
        didSet { hasStaleCaches = !staleCaches.isEmpty }
    }
    /// Whether ``staleCaches`` holds any app: tested before every statement
    /// and every call, where asking the set itself cost some 85 instructions.
    @usableFromInline private(set) var hasStaleCaches = false
    /// Per app, the names its two declared lists hold, for `group` lines: a
    /// search of a list per line was quadratic too (100,000 lines: 32 s).
    /// Made at an app's first `group` line; dropped when anything else
    /// changes its entitlements.
    private var declaredGroups: [Int: DeclaredGroups] = [:]
    /// Per stale app, the names its `group` lines appended since its lists
    /// were built: settling then hashes only those (``extendedCache(_:names:appended:of:)``).
    private var appendedGroups: [Int: [String]] = [:]

    struct DeclaredGroups {
        var keychainAccessGroups: Set<String>
        var applicationGroups: Set<String>
    }

    /// An app's access groups as the call path needs them, built once per
    /// app and platform kind and replaced when a declaration changes them.
    /// A shared immutable object: a call holds it with one reference count,
    /// and copying the world shares it.
    final class AppCache: Sendable {
        let names: [String]
        let ids: [GroupID]
        /// The name of each entry of `ids`: `names` itself, except in the
        /// writable list, whose `names` stay whole for messages.
        private let idNames: [String]
        /// The list without repeats, in first-seen order: the groups a query searches.
        let searchIDs: [GroupID]
        let searchNames: [String]
        /// An App Clip (`com.apple.developer.on-demand-install-capable`)
        /// whose list is not its app ID alone: every call is
        /// errSecRestrictedAPI (SecItemServer.c `appClipHasAcceptableAccessGroups`,
        /// Security-59754.41.1 and later).
        let restrictedClip: Bool
        /// An App Clip: synchronizable items are refused.
        let isAppClip: Bool
        /// Neither an app ID nor keychain access groups (semantics 1.6).
        let isUnsigned: Bool
        /// The list without the read-only token group, when it holds it.
        private let writableList: AppCache?
        /// Fingerprints (``World/nameFingerprint(_:)``) of `idNames`, so a
        /// lookup hashes the name once and compares integers.
        fileprivate let idPrints: [UInt64]
        /// Fingerprints of the part after `TEAMID.` of the groups
        /// ``AppTarget/prefixedGroup(for:)`` looks in: whether a group a call
        /// names is one of them without its prefix is then one comparison
        /// per group (lint asks it of every group the caller lacks).
        let barePrints: [UInt64]

        init(names: [String], ids: [GroupID], idNames: [String]? = nil, idPrints: [UInt64], searchIDs: [GroupID],
             searchNames: [String], restrictedClip: Bool = false, isAppClip: Bool = false, isUnsigned: Bool = false,
             tokenGroup: GroupID? = nil, barePrints: [UInt64] = []) {
            self.names = names
            self.ids = ids
            self.idNames = idNames ?? names
            self.idPrints = idPrints
            self.barePrints = barePrints
            self.searchIDs = searchIDs
            self.searchNames = searchNames
            self.restrictedClip = restrictedClip
            self.isAppClip = isAppClip
            self.isUnsigned = isUnsigned
            if let token = tokenGroup, ids.contains(token) {
                let kept = ids.indices.filter { ids[$0] != token }
                writableList = AppCache(names: names, ids: kept.map { ids[$0] }, idNames: kept.map { names[$0] },
                                        idPrints: kept.map { idPrints[$0] }, searchIDs: searchIDs.filter { $0 != token },
                                        searchNames: searchNames.filter { $0 != AppTarget.tokenGroup },
                                        restrictedClip: restrictedClip, isAppClip: isAppClip, isUnsigned: isUnsigned)
            } else {
                writableList = nil
            }
        }

        /// The groups add, update and delete may use: all but the read-only
        /// token group. The names stay whole for messages.
        var writable: AppCache { writableList ?? self }

        /// The ID of `name` if the list holds it; `print` is its
        /// fingerprint. Fingerprints are compared first, then the names
        /// (String's `==`, as the world's name table compares).
        func id(of name: String, print: UInt64) -> GroupID? {
            for i in idPrints.indices where idPrints[i] == print && idNames[i] == name { return ids[i] }
            return nil
        }
    }

    public init() {}

    // MARK: Declarations

    /// Sets the platform; only before the first app.
    public mutating func setPlatform(_ platform: Platform) throws(WorldError) {
        guard apps.isEmpty else { throw .platformAfterApps }
        self.platform = platform
        syncEpoch += 1
        for i in devices.indices where devices[i].platform == nil { devices[i].state.biometryEnrolled = platform.hasBiometry }
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
    /// `appIDPrefix`: an App ID prefix other than the team ID (``AppTarget/appIDPrefix``).
    @discardableResult
    public mutating func addApp(bundleID: String, name: String, teamID: String?,
                                kind: TargetKind = .app, keychainAccessGroups: [String] = [],
                                applicationGroups: [String] = [], appIDPrefix: String? = nil) throws(WorldError) -> AppHandle {
        guard appsByName[name] == nil else { throw .duplicateApp(name) }
        let prefix = appIDPrefix == teamID ? nil : appIDPrefix
        var app = AppTarget(
            name: name, bundleID: bundleID, teamID: teamID, kind: kind,
            keychainAccessGroups: keychainAccessGroups.map { AppTarget.expandEntitlement($0, teamID: teamID, appIDPrefix: prefix) },
            applicationGroups: applicationGroups.map { AppTarget.expandEntitlement($0, teamID: teamID, appIDPrefix: prefix) })
        app.appIDPrefix = prefix
        let handle = AppHandle(index: apps.count)
        appsByName[name] = handle.index
        let print = nameFingerprint(name)
        if appsByFingerprint.head(print) < 0 { appsByFingerprint.setHead(print, Int32(handle.index)) }
        apps.append(app)
        appCaches.append(makeCache(names: app.accessGroups, of: app))
        for id in Set(appCaches[handle.index].ids) { groupHolders[id, default: Holders()].insert(handle.index) }
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
            AppTarget.expandEntitlement($0, teamID: apps[app.index].teamID, appIDPrefix: apps[app.index].appIDPrefix)
        }
        refreshCache(app)
    }

    public func app(named name: String) -> AppHandle? {
        let first = appsByFingerprint.head(nameFingerprint(name))
        if first >= 0 && apps[Int(first)].name == name { return AppHandle(index: Int(first)) }
        return appsByName[name].map(AppHandle.init(index:))
    }

    /// A seeded fingerprint of a name (apps, access groups).
    func nameFingerprint(_ name: String) -> UInt64 { Self.nameFingerprint(name, seed: nameSeed) }

    static func nameFingerprint(_ name: String, seed: UInt64) -> UInt64 {
        var print = KeyFingerprint(seed: seed)
        print.add(string: name)
        return print.value
    }

    public subscript(app: AppHandle) -> AppTarget { apps[app.index] }

    /// The first app other than `app`, in declaration order, whose access
    /// groups include `group`, from the holders kept with the cached lists.
    /// For lint.
    public func firstOtherApp(accessing group: String, besides app: AppHandle) -> AppHandle? {
        guard let id = groupIDs[group] else { return nil }
        return groupHolders[id]?.firstOther(than: app.index).map(AppHandle.init(index:))
    }

    /// Whether `group` is in the app's access-group list, asked of the cached
    /// list: a comparison per entry, no hashing, no list built.
    public func isEntitled(_ app: AppHandle, to group: String) -> Bool {
        listCache(app).id(of: group, print: nameFingerprint(group)) != nil
    }

    /// Whether the app lacks `group` and whether `group` may be one of its
    /// groups without the team prefix (``prefixedGroup(for:of:)`` then says
    /// which), with one pass over the group's bytes: lint asks this of every
    /// group a call names.
    public func lacks(_ group: String, app: AppHandle) -> (lacks: Bool, mayBeUnprefixed: Bool) {
        let print = nameFingerprint(group), cache = listCache(app)
        guard cache.id(of: group, print: print) == nil else { return (false, false) }
        return (true, cache.barePrints.contains(print))
    }

    /// How many synchronizable items the device's data-protection keychain
    /// holds, without copying the device. For lint.
    public func synchronizableCount(on device: DeviceHandle) -> Int { devices[device.index].keychain.synchronizableCount }

    /// What kind of target an app is, read in place. For lint.
    public func kind(of app: AppHandle) -> TargetKind { apps[app.index].kind }

    /// Whether an app lists application groups, read in place. For lint.
    public func hasApplicationGroups(_ app: AppHandle) -> Bool { !apps[app.index].applicationGroups.isEmpty }

    /// ``AppTarget/prefixedGroup(for:)`` of an app, read in place. For lint.
    public func prefixedGroup(for group: String, of app: AppHandle) -> String? { apps[app.index].prefixedGroup(for: group) }

    /// How many items the device's data-protection keychain holds, without
    /// copying the device.
    public func keychainCount(on device: DeviceHandle) -> Int { devices[device.index].keychain.count }

    /// Every declared app, in declaration order.
    public var appHandles: [AppHandle] { apps.indices.map(AppHandle.init(index:)) }

    /// Xcode-capability style sharing: a `group.` name is appended to each
    /// app's application groups; any other name is prefixed with the app's
    /// team ID and appended to its keychain access groups.
    /// An app named twice, or one that has the group already, gets it once:
    /// each app's list was rebuilt per name, so `group G A A A …` with 8,000
    /// names took 54 s (found by adversarial testing).
    public mutating func addGroup(_ name: String, to targets: [AppHandle]) throws(WorldError) {
        var done = Set<Int>()
        let isApplicationGroup = name.hasPrefix("group.")
        for handle in targets where done.insert(handle.index).inserted {
            // The sets are changed in place in the table, and the lists in
            // the app: a copy of either made every line copy it whole.
            if declaredGroups[handle.index] == nil {
                declaredGroups[handle.index] = DeclaredGroups(
                    keychainAccessGroups: Set(apps[handle.index].keychainAccessGroups),
                    applicationGroups: Set(apps[handle.index].applicationGroups))
            }
            let listed: String
            if isApplicationGroup {
                guard declaredGroups[handle.index]?.applicationGroups.insert(name).inserted == true else { continue }
                apps[handle.index].applicationGroups.append(name)
                listed = name
            } else {
                guard let teamID = apps[handle.index].teamID else {
                    throw .groupNeedsTeam(group: name, app: apps[handle.index].name)
                }
                listed = "\(teamID).\(name)"
                guard declaredGroups[handle.index]?.keychainAccessGroups.insert(listed).inserted == true else { continue }
                apps[handle.index].keychainAccessGroups.append(listed)
            }
            // An appended name can only join the list: its ID and holder now,
            // the list itself when a call needs it.
            let id = intern(listed)
            if !isApplicationGroup || apps[handle.index].listsApplicationGroups {
                groupHolders[id, default: Holders()].insert(handle.index)
            }
            staleCaches.insert(handle.index)
            appendedGroups[handle.index, default: []].append(listed)
        }
    }

    /// Rebuilds the lists `group` declarations left out of date; the call
    /// path starts here, and a host calls it before a statement that reads
    /// the lists (a `show`, an expectation): read out of date, a list is
    /// built aside at every question, and `show matrix` asks one per cell
    /// (found by review).
    @inlinable public mutating func settleCaches() {
        if hasStaleCaches { settleStaleCaches() }
    }

    @usableFromInline mutating func settleStaleCaches() {
        for index in staleCaches.sorted() {
            let target = apps[index], appended = appendedGroups[index] ?? []
            appCaches[index] = extendedCache(appCaches[index], names: target.accessGroups, appended: appended, of: target)
            macCaches[index] = extendedCache(macCaches[index], names: target.macAccessGroups, appended: appended, of: target)
        }
        staleCaches.removeAll()
        appendedGroups.removeAll()
    }

    /// An app's list rebuilt after its `group` lines appended `appended`
    /// (and nothing else changed it): every name the old list held keeps its
    /// ID and fingerprint, so only the appended names are hashed. Rebuilt
    /// whole, a `group` line and a call of the same app, 4,000 times over,
    /// took 5.8 s (found by adversarial testing). The values are those of
    /// the names, so a name matched to the wrong old entry costs hashing
    /// only, never a wrong list.
    private mutating func extendedCache(_ old: AppCache, names: [String], appended: [String], of app: AppTarget) -> AppCache {
        // An App Clip's list follows its own rules: built whole.
        guard app.kind != .appClip else { return makeCache(names: names, of: app) }
        var ids: [GroupID] = [], prints: [UInt64] = [], added: [GroupID] = []
        ids.reserveCapacity(names.count)
        prints.reserveCapacity(names.count)
        var j = 0
        for name in names {
            // The new list holds the old one in order, with names inserted.
            if j < old.names.count, name == old.names[j] {
                ids.append(old.ids[j])
                prints.append(old.idPrints[j])
                j += 1
            } else {
                let id = intern(name)
                ids.append(id)
                prints.append(nameFingerprint(name))
                added.append(id)
            }
        }
        // The search list is the list while neither the old list nor an
        // added name repeats one; a few added names are looked for among
        // the IDs, more go through a set.
        let repeats = old.searchIDs.count != old.ids.count
            || (added.count > 8 ? Set(ids).count != ids.count : added.contains { a in ids.lazy.filter { $0 == a }.count > 1 })
        let (searchIDs, searchNames) = repeats ? Self.withoutRepeats(ids, names) : (ids, names)
        return AppCache(names: names, ids: ids, idPrints: prints, searchIDs: searchIDs, searchNames: searchNames,
                        isUnsigned: app.isUnsigned, tokenGroup: groupIDs[AppTarget.tokenGroup],
                        barePrints: old.barePrints + Self.bareNames(appended).map { nameFingerprint(String($0)) })
    }

    /// Rebuilds an app's cached access groups after its entitlements changed.
    mutating func refreshCache(_ app: AppHandle) {
        settleCaches()
        declaredGroups[app.index] = nil
        let target = apps[app.index]
        let old = Set(appCaches[app.index].ids)
        appCaches[app.index] = makeCache(names: target.accessGroups, of: target)
        let new = Set(appCaches[app.index].ids)
        for id in old.subtracting(new) { groupHolders[id]?.remove(app.index) }
        for id in new.subtracting(old) { groupHolders[id, default: Holders()].insert(app.index) }
        macCaches[app.index] = makeCache(names: target.macAccessGroups, of: target)
    }

    /// Declares a further device. Without an account it shares `this` device's.
    @discardableResult
    public mutating func addDevice(name: String, account: String?, platform: Platform? = nil) throws(WorldError) -> DeviceHandle {
        guard deviceIndex[name] == nil else { throw .duplicateDevice(name) }
        deviceIndex[name] = devices.count
        syncEpoch += 1
        devices.append(Device(name: name, account: account ?? devices[0].account, serial: UInt64(devices.count)))
        devices[devices.count - 1].platform = platform
        devices[devices.count - 1].state.biometryEnrolled = (platform ?? self.platform).hasBiometry
        return DeviceHandle(index: devices.count - 1)
    }

    /// Items held in all: every device's keychains and every backup (a
    /// backup is a copy of a keychain: a script changing one item between
    /// backups held a full copy per backup, 2 GB from 700 KB; found by
    /// adversarial testing). The item limit counts them all.
    /// Tombstones count too: a deletion is kept as one, and 427 KB of
    /// deletes and syncs made eight million (548 MB; found by adversarial testing).
    public var itemCount: Int {
        devices.reduce(0) { $0 + $1.keychain.count + $1.fileKeychain.count + $1.tombstones.count }
            + backups.values.reduce(0) { $0 + $1.keychain.count }
    }

    /// Every device, `this` first.
    public var deviceHandles: [DeviceHandle] { devices.indices.map(DeviceHandle.init(index:)) }

    /// Finds a device by name.
    public func device(named name: String) -> DeviceHandle? {
        deviceIndex[name].map(DeviceHandle.init(index:))
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
        platform.usesMacDaemon ? macCache(app) : listCache(app)
    }

    /// An app's list as devices other than the Mac build it; built aside
    /// when a declaration left it out of date.
    private func listCache(_ app: AppHandle) -> AppCache {
        guard staleCaches.contains(app.index) else { return appCaches[app.index] }
        return cacheOfInterned(names: apps[app.index].accessGroups, of: apps[app.index])
    }

    /// The same, as the Mac's keychain daemon builds it.
    private func macCache(_ app: AppHandle) -> AppCache {
        guard staleCaches.contains(app.index) else { return macCaches[app.index] }
        return cacheOfInterned(names: apps[app.index].macAccessGroups, of: apps[app.index])
    }

    /// An app's access groups on a device, in order.
    public func accessGroups(of app: AppHandle, on device: DeviceHandle = .this) -> [String] {
        cache(of: app, on: platform(of: device)).names
    }

    /// The group an add without `group=` uses on a device: element 0 of the
    /// list, never the read-only token group.
    public func defaultGroup(of app: AppHandle, on device: DeviceHandle = .this) -> String? {
        guard platform(of: device).usesMacDaemon else { return apps[app.index].defaultGroup }
        return macCache(app).names.first.flatMap { $0 == AppTarget.tokenGroup ? nil : $0 }
    }

    /// A cache for an app's list as one platform builds it, with the App
    /// Clip rules (SecItemServer.c `appClipHasAcceptableAccessGroups`).
    private mutating func makeCache(names: [String], of app: AppTarget) -> AppCache {
        // Interned first, apart: `self` is read for the call before its
        // arguments run, and the build looks up the token group's ID.
        let ids = names.map { intern($0) }
        return builtCache(names: names, ids: ids, of: app)
    }

    /// The same, of names already interned (every name of a declared app's
    /// lists is: ``makeCache(names:of:)`` and ``addGroup(_:to:)`` intern them).
    private func cacheOfInterned(names: [String], of app: AppTarget) -> AppCache {
        builtCache(names: names, ids: names.map { groupIDs[$0] ?? World.uninternedGroup }, of: app)
    }

    /// The cache of a list whose names have these IDs (each name hashed
    /// once: interned, then looked up again, made every rebuild hash it twice).
    private func builtCache(names: [String], ids: [GroupID], of app: AppTarget) -> AppCache {
        let (searchIDs, searchNames) = Self.withoutRepeats(ids, names)
        var restrictedClip = false
        if app.kind == .appClip {
            // Acceptable: the app ID alone, or with the token group.
            let own = [app.appID].compactMap { $0 }
            restrictedClip = names != own && names != own + [AppTarget.tokenGroup]
        }
        let bare = Self.bareNames(app.keychainAccessGroups + [app.appID].compactMap { $0 } + app.applicationGroups)
        return AppCache(names: names, ids: ids, idPrints: names.map(nameFingerprint), searchIDs: searchIDs,
                        searchNames: searchNames, restrictedClip: restrictedClip, isAppClip: app.kind == .appClip,
                        isUnsigned: app.isUnsigned, tokenGroup: groupIDs[AppTarget.tokenGroup],
                        barePrints: bare.map { nameFingerprint(String($0)) })
    }

    /// A list without repeats, in first-seen order, with its names.
    private static func withoutRepeats(_ ids: [GroupID], _ names: [String]) -> ([GroupID], [String]) {
        var seen = Set<GroupID>()
        var searchIDs: [GroupID] = [], searchNames: [String] = []
        for (id, name) in zip(ids, names) where seen.insert(id).inserted {
            searchIDs.append(id)
            searchNames.append(name)
        }
        return (searchIDs, searchNames)
    }

    /// Where `prefixedGroup(for:)` looks: names of eleven bytes or more
    /// whose eleventh is the dot after a team ID, past that dot.
    private static func bareNames(_ names: [String]) -> [Substring] {
        names.compactMap { g -> Substring? in
            let u = g.utf8
            guard u.count >= 11, u.dropFirst(10).first == UInt8(ascii: ".") else { return nil }
            return Substring(u.dropFirst(11))
        }
    }

    /// Stands for a name that was never interned, which no list holds: no
    /// item has it.
    static let uninternedGroup = GroupID.min

    mutating func intern(_ name: String) -> GroupID {
        if let id = groupIDs[name] { return id }
        let id = GroupID(groupNames.count)
        groupNames.append(name)
        groupIDs[name] = id
        singleGroups.append([id])
        singleGroupNames.append([name])
        return id
    }
}
