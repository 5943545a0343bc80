/// A handle to a declared app target.
public struct AppHandle: Sendable, Hashable {
    public let index: Int
    @usableFromInline init(index: Int) { self.index = index }
    /// No app: what a host holds before it has one (never looked up).
    package static let none = AppHandle(index: -1)
}

/// A handle to a device; `this` is the first one, present from the start.
public struct DeviceHandle: Sendable, Hashable {
    public let index: Int
    public static let this = DeviceHandle(index: 0)
}

/// Why a declaration was refused. Each case carries what a message needs;
/// the names a "did you mean" chooses from are the host's (`KCSRuntime`'s
/// `DeclaredNames`), not copied into each error.
public enum WorldError: Error, Sendable, Hashable {
    case platformAfterApps
    case malformedTeamID(String)
    case duplicateTeam(String)
    case unknownTeam(String)
    case duplicateApp(String)
    case unknownApp(String)
    case duplicateDevice(String)
    case unknownDevice(String)
    /// A keychain group needs a team prefix and the app has no team.
    case groupNeedsTeam(group: String, app: String)
    case unknownBackup(String)
}

/// A device's keychain as it was backed up.
public struct Backup: Sendable {
    public var deviceName: String
    public var keychain: Keychain
    /// Made with a backup password. Without one the keychain stays
    /// protected by a key derived from the device's UID, "which is why
    /// keychain items migrate to a new device only if a backup password is
    /// set" (Apple Platform Security, "Keybags for Data Protection"; the
    /// keybag is AppleKeyStore's, closed; freeotp-ios issue 262, real-world
    /// Q11): restored onto another device it brings no item.
    public var encrypted = true
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

    @usableFromInline var appsByName: [String: Int] = [:]
    /// The calling app is looked up by name on every call: this table finds
    /// it with one seeded fingerprint of the name's bytes and one
    /// comparison (hashing the name for `appsByName` took some 400
    /// instructions a call). `appsByName` stays the record, and answers
    /// for a name whose fingerprint another app's took first.
    @usableFromInline var appsByFingerprint = SlotTable()
    @usableFromInline let nameSeed = UInt64.random(in: .min ... .max)
    private var teamsByName: [String: Int] = [:]
    /// Each interned group's name, by ID, as text: a found item takes its
    /// group's two words, and ``groupName(_:)`` makes the String.
    var groupTexts: [AttributeText] = []
    var groupIDs: [String: GroupID] = [:]
    /// Per group: a one-element list of its ID, made once, so a call on
    /// one group shares it instead of building an array.
    var singleGroups: [[GroupID]] = []
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
    /// The same with the token group appended, as iOS 10-13 and watchOS 3-6
    /// build them (``Platform/appendsTokenGroup``): kept only once a device
    /// of such a platform is declared (``keepsTokenCaches``), so a world
    /// without one builds two lists per app, not three.
    private var tokenCaches: [AppCache] = []
    /// Whether ``tokenCaches`` is kept.
    private var keepsTokenCaches = false
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
    /// Per stale app, the groups its `group` lines appended since its lists
    /// were settled: settling inserts only those (``AppCache/insert(_:text:applicationGroup:bare:isUnsigned:)``).
    private var appendedGroups: [Int: [AppendedGroup]] = [:]

    struct AppendedGroup {
        var id: GroupID
        /// Appended to the application groups, not the keychain access groups.
        var applicationGroup: Bool
    }

    struct DeclaredGroups {
        var keychainAccessGroups: Set<String>
        var applicationGroups: Set<String>
    }

    /// An app's access groups as the call path needs them, built once per
    /// app and platform kind and replaced when a declaration changes them.
    /// A shared object: a call holds it with one reference count, and
    /// copying the world shares it. It holds group IDs only (names are the
    /// world's, ``World/groupName(_:)``), so a `group` line's name is
    /// inserted in place when the world holds the only reference (and into
    /// a copy of the IDs otherwise): a list rebuilt or copied as names per
    /// `group` line and call made 20,000 such pairs take 28 s (found by
    /// adversarial testing). Changed only through ``World``, never while a
    /// call or another world holds it: its properties go without the
    /// run-time exclusivity check (a check per read on every call cost 3 %
    /// of the judged workload's instructions).
    final class AppCache: @unchecked Sendable {
        @exclusivity(unchecked) private(set) var ids: [GroupID]
        /// The names of `ids` as listed, as text, so a lookup of a group a
        /// call names compares two words per entry and hashes nothing.
        @exclusivity(unchecked) private var idTexts: [AttributeText]
        /// The list without repeats, in first-seen order, when it has
        /// repeats; nil when `ids` has none.
        @exclusivity(unchecked) private var distinctIDs: [GroupID]?
        /// The list's members, made at the first insertion, to tell whether
        /// an inserted group repeats one.
        @exclusivity(unchecked) private var members: Set<GroupID>?
        /// Where a keychain access group appended later joins the list, and
        /// an application group (nil: it does not join this list).
        @exclusivity(unchecked) private var keychainGroupsEnd: Int
        @exclusivity(unchecked) private var applicationGroupsEnd: Int?
        /// An App Clip (`com.apple.developer.on-demand-install-capable`)
        /// whose list is not its app ID alone: every call is
        /// errSecRestrictedAPI (SecItemServer.c `appClipHasAcceptableAccessGroups`,
        /// Security-59754.41.1 and later).
        let restrictedClip: Bool
        /// An App Clip: synchronizable items are refused.
        let isAppClip: Bool
        /// Neither an app ID nor keychain access groups (semantics 1.6).
        @exclusivity(unchecked) private(set) var isUnsigned: Bool
        /// The list without the read-only token group, when it holds it.
        @exclusivity(unchecked) private var writableList: AppCache?
        /// The part after `TEAMID.` of the groups, as text,
        /// ``AppTarget/prefixedGroup(for:)`` looks in: whether a group a call
        /// names is one of them without its prefix is then one comparison
        /// per group (lint asks it of every group the caller lacks).
        @exclusivity(unchecked) private(set) var bareTexts: [AttributeText]

        init(ids: [GroupID], idTexts: [AttributeText], keychainGroupsEnd: Int, applicationGroupsEnd: Int?,
             restrictedClip: Bool = false, isAppClip: Bool = false, isUnsigned: Bool = false,
             tokenGroup: GroupID? = nil, bareTexts: [AttributeText] = []) {
            self.ids = ids
            self.idTexts = idTexts
            self.distinctIDs = World.withoutRepeats(ids)
            self.keychainGroupsEnd = keychainGroupsEnd
            self.applicationGroupsEnd = applicationGroupsEnd
            self.bareTexts = bareTexts
            self.restrictedClip = restrictedClip
            self.isAppClip = isAppClip
            self.isUnsigned = isUnsigned
            if let token = tokenGroup, ids.contains(token) {
                // The ends less the tokens before them.
                func end(_ e: Int) -> Int { e - ids[..<e].lazy.filter { $0 == token }.count }
                let kept = ids.indices.filter { ids[$0] != token }
                writableList = AppCache(ids: kept.map { ids[$0] }, idTexts: kept.map { idTexts[$0] },
                                        keychainGroupsEnd: end(keychainGroupsEnd), applicationGroupsEnd: applicationGroupsEnd.map(end),
                                        restrictedClip: restrictedClip, isAppClip: isAppClip, isUnsigned: isUnsigned)
            } else {
                writableList = nil
            }
        }

        /// A copy to change, for a world that shares this one.
        private init(copying other: AppCache) {
            ids = other.ids
            idTexts = other.idTexts
            distinctIDs = other.distinctIDs
            members = other.members
            keychainGroupsEnd = other.keychainGroupsEnd
            applicationGroupsEnd = other.applicationGroupsEnd
            restrictedClip = other.restrictedClip
            isAppClip = other.isAppClip
            isUnsigned = other.isUnsigned
            writableList = other.writableList.map(AppCache.init(copying:))
            bareTexts = other.bareTexts
        }

        /// The list without repeats: the groups a query searches.
        var searchIDs: [GroupID] { distinctIDs ?? ids }

        /// The groups add, update and delete may use: all but the read-only
        /// token group.
        var writable: AppCache { writableList ?? self }

        /// The list is com.apple.token alone: no keychain entitlement
        /// counts (a Mac app without an app ID a profile validates, a bare
        /// tool; an unentitled process on iOS 10-13), so every write is
        /// refused (``World/hasOnlyTokenGroup(_:on:)``).
        var holdsTokenGroupAlone: Bool { !ids.isEmpty && writable.ids.isEmpty }

        /// The ID of `name` if the list holds it: its bytes are those of
        /// a listed name (securityd compares the CFStrings,
        /// `CFArrayContainsValue`), two words compared per entry.
        func id(of name: AttributeText) -> GroupID? {
            for i in idTexts.indices where idTexts[i] == name { return ids[i] }
            return nil
        }

        /// `cache`, or a copy of it when something else holds it, ready to change.
        static func unique(_ cache: inout AppCache) {
            if !isKnownUniquelyReferenced(&cache) { cache = AppCache(copying: cache) }
        }

        /// Inserts a group a `group` line appended to the app's keychain
        /// access groups (or application groups) where the list takes it:
        /// at the end of that run. `text` is its name, `bare` its name past
        /// `TEAMID.`, when it has that shape.
        func insert(_ id: GroupID, text: AttributeText, applicationGroup: Bool, bare: AttributeText?, isUnsigned: Bool) {
            self.isUnsigned = isUnsigned
            if let bare { bareTexts.append(bare) }
            let at: Int
            if applicationGroup {
                guard let end = applicationGroupsEnd else { return }
                at = end
            } else {
                at = keychainGroupsEnd
                keychainGroupsEnd += 1
            }
            if let end = applicationGroupsEnd, end >= at { applicationGroupsEnd = end + 1 }
            if members == nil { members = Set(ids) }
            let repeated = !members!.insert(id).inserted
            ids.insert(id, at: at)
            idTexts.insert(text, at: at)
            // A repeat, new or old: the search list is made again.
            if repeated || distinctIDs != nil { distinctIDs = World.withoutRepeats(ids) }
            if writableList != nil {
                if !isKnownUniquelyReferenced(&writableList!) { writableList = AppCache(copying: writableList!) }
                writableList!.insert(id, text: text, applicationGroup: applicationGroup, bare: nil, isUnsigned: isUnsigned)
            }
        }
    }

    public init() {}

    // MARK: Declarations

    /// Sets the platform; only before the first app.
    public mutating func setPlatform(_ platform: Platform) throws(WorldError) {
        guard apps.isEmpty else { throw .platformAfterApps }
        self.platform = platform
        syncEpoch += 1
        if platform.appendsTokenGroup { keepTokenCaches() }
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
        appCaches.append(makeCache(of: app, macDaemon: false))
        for id in appCaches[handle.index].searchIDs { groupHolders[id, default: Holders()].insert(handle.index) }
        macCaches.append(makeCache(of: app, macDaemon: true))
        if keepsTokenCaches { tokenCaches.append(makeCache(of: app, macDaemon: false, appendsToken: true)) }
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

    /// Inlined into the caller: out of line, the caller (another module)
    /// passed a copy of the 248-byte world.
    @inlinable @inline(__always)
    public func app(named name: String) -> AppHandle? {
        let first = appsByFingerprint.head(nameFingerprint(name))
        if first >= 0 && apps[Int(first)].name == name { return AppHandle(index: Int(first)) }
        return appsByName[name].map(AppHandle.init(index:))
    }

    /// A seeded fingerprint of an app's name.
    @inlinable
    func nameFingerprint(_ name: String) -> UInt64 { Self.nameFingerprint(name, seed: nameSeed) }

    @usableFromInline
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

    /// The first app other than `app`, in declaration order, whose access
    /// groups include `group` and that `wanted` accepts: the first other
    /// holder when it is accepted, else a walk of the group's holders. For
    /// explanations (review 22a, R10: only the first holder was asked).
    public func firstOtherApp(accessing group: String, besides app: AppHandle, where wanted: (AppHandle) -> Bool) -> AppHandle? {
        guard let id = groupIDs[group], let holders = groupHolders[id] else { return nil }
        if let first = holders.firstOther(than: app.index), wanted(AppHandle(index: first)) { return AppHandle(index: first) }
        var best: Int?
        for m in holders.members where m != app.index && best.map({ m < $0 }) ?? true && wanted(AppHandle(index: m)) { best = m }
        return best.map(AppHandle.init(index:))
    }

    /// Whether `group` is in the app's access-group list, asked of the cached
    /// list: a comparison per entry, no hashing, no list built.
    public func isEntitled(_ app: AppHandle, to group: String) -> Bool {
        isEntitled(app, to: AttributeText(group))
    }

    /// The same, of a group as text (as a call names it).
    public func isEntitled(_ app: AppHandle, to group: AttributeText) -> Bool {
        listCache(app).id(of: group) != nil
    }

    /// Whether the app lacks `group` and whether `group` may be one of its
    /// groups without the team prefix (``prefixedGroup(for:of:)`` then says
    /// which), with one pass over the group's bytes: lint asks this of every
    /// group a call names.
    public func lacks(_ group: String, app: AppHandle) -> (lacks: Bool, mayBeUnprefixed: Bool) {
        lacks(AttributeText(group), app: app)
    }

    /// The same, of a group as text (as a call names it): two words
    /// compared per group of the list, no hashing.
    public func lacks(_ group: AttributeText, app: AppHandle) -> (lacks: Bool, mayBeUnprefixed: Bool) {
        let cache = listCache(app)
        guard cache.id(of: group) == nil else { return (false, false) }
        return (true, cache.bareTexts.contains(group))
    }

    /// How many synchronizable items the device's data-protection keychain
    /// holds, without copying the device. For lint.
    @inlinable public func synchronizableCount(on device: DeviceHandle) -> Int { devices[device.index].keychain.synchronizableCount }

    /// What kind of target an app is, read in place. For lint.
    @inlinable public func kind(of app: AppHandle) -> TargetKind { apps[app.index].kind }

    /// Whether an app lists application groups, read in place. For lint.
    @inlinable public func hasApplicationGroups(_ app: AppHandle) -> Bool { !apps[app.index].applicationGroups.isEmpty }

    /// ``AppTarget/prefixedGroup(for:)`` of an app, read in place. For lint.
    public func prefixedGroup(for group: String, of app: AppHandle) -> String? { apps[app.index].prefixedGroup(for: group) }

    /// How many items the device's data-protection keychain holds, without
    /// copying the device.
    @inlinable public func keychainCount(on device: DeviceHandle) -> Int { devices[device.index].keychain.count }

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
            appendedGroups[handle.index, default: []].append(AppendedGroup(id: id, applicationGroup: isApplicationGroup))
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
        let names = groupTexts
        for index in staleCaches.sorted() {
            let target = apps[index], appended = appendedGroups[index] ?? []
            if Self.extends(appCaches[index], target) {
                Self.extend(&appCaches[index], with: appended, of: target, names: names)
            } else {
                appCaches[index] = makeCache(of: target, macDaemon: false)
            }
            if Self.extends(macCaches[index], target) {
                Self.extend(&macCaches[index], with: appended, of: target, names: names)
            } else {
                macCaches[index] = makeCache(of: target, macDaemon: true)
            }
            guard keepsTokenCaches else { continue }
            if Self.extends(tokenCaches[index], target) {
                Self.extend(&tokenCaches[index], with: appended, of: target, names: names)
            } else {
                tokenCaches[index] = makeCache(of: target, macDaemon: false, appendsToken: true)
            }
        }
        staleCaches.removeAll()
        appendedGroups.removeAll()
    }

    /// Whether `group` lines' names can be inserted into a list: not an App
    /// Clip's (its list follows its own rules), nor an empty list (the
    /// Mac's daemon then adds the token group to what is appended).
    private static func extends(_ cache: AppCache, _ app: AppTarget) -> Bool {
        app.kind != .appClip && !cache.ids.isEmpty
    }

    /// An app's list after its `group` lines appended `appended` (and
    /// nothing else changed it): each group is inserted where the list
    /// takes it, and only its name is hashed. Rebuilt whole, a `group` line
    /// and a call of the same app, 4,000 times over, took 5.8 s; copied as
    /// names, 20,000 times over, 28 s (found by adversarial testing).
    private static func extend(_ cache: inout AppCache, with appended: [AppendedGroup], of app: AppTarget,
                               names: [AttributeText]) {
        AppCache.unique(&cache)
        for group in appended {
            let name = names[Int(group.id)]
            cache.insert(group.id, text: name, applicationGroup: group.applicationGroup,
                         bare: bareName(name.string).map { AttributeText(String($0)) }, isUnsigned: app.isUnsigned)
        }
    }

    /// Rebuilds an app's cached access groups after its entitlements changed.
    mutating func refreshCache(_ app: AppHandle) {
        settleCaches()
        declaredGroups[app.index] = nil
        let target = apps[app.index]
        let old = Set(appCaches[app.index].ids)
        appCaches[app.index] = makeCache(of: target, macDaemon: false)
        let new = Set(appCaches[app.index].ids)
        for id in old.subtracting(new) { groupHolders[id]?.remove(app.index) }
        for id in new.subtracting(old) { groupHolders[id, default: Holders()].insert(app.index) }
        macCaches[app.index] = makeCache(of: target, macDaemon: true)
        if keepsTokenCaches { tokenCaches[app.index] = makeCache(of: target, macDaemon: false, appendsToken: true) }
    }

    /// Starts keeping ``tokenCaches``, for a device whose daemon appends the
    /// token group.
    private mutating func keepTokenCaches() {
        guard !keepsTokenCaches else { return }
        settleCaches()
        keepsTokenCaches = true
        tokenCaches.reserveCapacity(apps.count)
        for app in apps { tokenCaches.append(makeCache(of: app, macDaemon: false, appendsToken: true)) }
    }

    /// Declares a further device. Without an account it shares `this` device's.
    @discardableResult
    public mutating func addDevice(name: String, account: String?, platform: Platform? = nil) throws(WorldError) -> DeviceHandle {
        guard deviceIndex[name] == nil else { throw .duplicateDevice(name) }
        deviceIndex[name] = devices.count
        syncEpoch += 1
        devices.append(Device(name: name, account: account ?? devices[0].account, serial: UInt64(devices.count)))
        devices[devices.count - 1].platform = platform
        if platform?.usesMacDaemon == true { ownMacDevices += 1 }
        if platform?.appendsTokenGroup == true { keepTokenCaches() }
        devices[devices.count - 1].state.biometryEnrolled = (platform ?? self.platform).hasBiometry
        return DeviceHandle(index: devices.count - 1)
    }

    /// Items held in all: every device's keychains and every backup (a
    /// backup is a copy of a keychain: a script changing one item between
    /// backups held a full copy per backup, 2 GB from 700 KB; found by
    /// adversarial testing). The item limit counts them all.
    /// Tombstones count too: a deletion is kept as one, and 427 KB of
    /// deletes and syncs made eight million (548 MB; found by adversarial testing).
    /// So do the versions a locked device's incoming queue holds.
    public var itemCount: Int {
        devices.reduce(0) { $0 + $1.keychain.count + $1.fileKeychain.count + $1.tombstones.count + $1.incoming.count }
            + backups.values.reduce(0) { $0 + $1.keychain.count }
    }

    /// Every device, `this` first.
    public var deviceHandles: [DeviceHandle] { devices.indices.map(DeviceHandle.init(index:)) }

    /// Devices declared with a Mac platform of their own, for ``hasMacDevice``.
    private var ownMacDevices = 0

    /// Whether a device runs Mac apps (macOS or Mac Catalyst): one declared
    /// so, or `this` (on the world's platform) when that is the Mac's.
    /// Counted as devices are added: a walk of every device per `device`
    /// statement made declaring them quadratic (40,000 took 38 s;
    /// adversarial run 27, F8).
    public var hasMacDevice: Bool { ownMacDevices > 0 || platform.usesMacDaemon }

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
    public func groupName(_ id: GroupID) -> String {
        id == Self.fileKeychainSearchGroup ? Self.fileKeychainGroupName : groupTexts[Int(id)].string
    }

    /// The interned ID of a group name, if any item or app ever used it.
    public func groupID(_ name: String) -> GroupID? { groupIDs[name] }

    /// An app's access-group list as a device of `platform` builds it.
    /// Inlined, with the two below: read from mutating code on every call,
    /// a method out of line was passed a copy of the 248-byte world.
    @inline(__always)
    func cache(of app: AppHandle, on platform: Platform) -> AppCache {
        platform.usesMacDaemon ? macCache(app) : platform.appendsTokenGroup ? tokenCache(app) : listCache(app)
    }

    /// An app's list as devices other than the Mac build it; built aside
    /// when a declaration left it out of date.
    @inline(__always)
    private func listCache(_ app: AppHandle) -> AppCache {
        guard staleCaches.contains(app.index) else { return appCaches[app.index] }
        return Self.cacheOfInterned(of: apps[app.index], macDaemon: false, groupIDs)
    }

    /// The same, as the Mac's keychain daemon builds it.
    @inline(__always)
    private func macCache(_ app: AppHandle) -> AppCache {
        guard staleCaches.contains(app.index) else { return macCaches[app.index] }
        return Self.cacheOfInterned(of: apps[app.index], macDaemon: true, groupIDs)
    }

    /// The same with the token group appended (iOS 10-13, watchOS 3-6).
    private func tokenCache(_ app: AppHandle) -> AppCache {
        guard !keepsTokenCaches || staleCaches.contains(app.index) else { return tokenCaches[app.index] }
        return Self.cacheOfInterned(of: apps[app.index], macDaemon: false, appendsToken: true, groupIDs)
    }

    /// An app's access groups on a device, in order.
    public func accessGroups(of app: AppHandle, on device: DeviceHandle = .this) -> [String] {
        cache(of: app, on: platform(of: device)).ids.map { groupTexts[Int($0)].string }
    }

    /// Whether the app's list on the device is com.apple.token alone, the
    /// read-only group: its writes are errSecMissingEntitlement
    /// (``StatusReason/onlyTokenGroup``) and none of its items can exist in
    /// the data-protection keychain. The one test the engine, the
    /// explanation and the lint ask (review 22b, R5).
    public func hasOnlyTokenGroup(_ app: AppHandle, on device: DeviceHandle = .this) -> Bool {
        cache(of: app, on: platform(of: device)).holdsTokenGroupAlone
    }

    /// The group an add without `group=` uses on a device: element 0 of the
    /// list, never the read-only token group.
    public func defaultGroup(of app: AppHandle, on device: DeviceHandle = .this) -> String? {
        guard platform(of: device).usesMacDaemon else { return apps[app.index].defaultGroup }
        return macCache(app).ids.first.map { groupTexts[Int($0)].string }.flatMap { $0 == AppTarget.tokenGroup ? nil : $0 }
    }

    /// A cache for an app's list as one platform kind builds it, with the
    /// App Clip rules (SecItemServer.c `appClipHasAcceptableAccessGroups`).
    private mutating func makeCache(of app: AppTarget, macDaemon: Bool, appendsToken: Bool = false) -> AppCache {
        Self.builtCache(of: app, macDaemon: macDaemon, appendsToken: appendsToken) { intern($0) }
    }

    /// The same, of names already interned (every name of a declared app's
    /// lists is: ``makeCache(of:macDaemon:)`` and ``addGroup(_:to:)`` intern them).
    /// Static, given the two fields it reads: a method, called on the
    /// caches' out-of-date path, made every call copy the 248-byte world
    /// first (the copy was made before the test that skips it).
    private static func cacheOfInterned(of app: AppTarget, macDaemon: Bool, appendsToken: Bool = false,
                                        _ groupIDs: [String: GroupID]) -> AppCache {
        builtCache(of: app, macDaemon: macDaemon, appendsToken: appendsToken) { groupIDs[$0] ?? World.uninternedGroup }
    }

    /// The cache of an app's list, in ``AppTarget/forEachAccessGroup(macDaemon:_:)``'s
    /// order; `id` gives a name's ID (each name hashed once for it).
    private static func builtCache(of app: AppTarget, macDaemon: Bool, appendsToken: Bool = false,
                                   id: (String) -> GroupID) -> AppCache {
        var ids: [GroupID] = [], texts: [AttributeText] = []
        var keychainGroupsEnd = 0, end = 0
        var token: GroupID?
        let joins = app.forEachAccessGroup(macDaemon: macDaemon, appendsToken: appendsToken) { name, source in
            let groupID = id(name)
            ids.append(groupID)
            texts.append(AttributeText(name))
            if source == .keychainAccessGroups { keychainGroupsEnd = ids.count }
            if source == .tokenGroup { token = groupID } else { end = ids.count }
        }
        var restrictedClip = false
        if app.kind == .appClip {
            // Acceptable: the app ID alone, or with the token group.
            let names = app.list(macDaemon: macDaemon, appendsToken: appendsToken)
            let own = [app.appID].compactMap { $0 }
            restrictedClip = names != own && names != own + [AppTarget.tokenGroup]
        }
        var bare: [AttributeText] = []
        for name in app.keychainAccessGroups + [app.appID].compactMap({ $0 }) + app.applicationGroups {
            if let b = bareName(name) { bare.append(AttributeText(String(b))) }
        }
        return AppCache(ids: ids, idTexts: texts, keychainGroupsEnd: keychainGroupsEnd, applicationGroupsEnd: joins ? end : nil,
                        restrictedClip: restrictedClip, isAppClip: app.kind == .appClip, isUnsigned: app.isUnsigned,
                        tokenGroup: token, bareTexts: bare)
    }

    /// A list without repeats, in first-seen order; nil when it has none.
    static func withoutRepeats(_ ids: [GroupID]) -> [GroupID]? {
        if ids.count <= 16 {
            // Short lists, the usual ones, are compared pairwise, without a set.
            var repeats = false
            for i in ids.indices where !repeats { repeats = ids[..<i].contains(ids[i]) }
            if !repeats { return nil }
        }
        var seen = Set<GroupID>(minimumCapacity: ids.count)
        var searchIDs: [GroupID] = []
        for id in ids where seen.insert(id).inserted { searchIDs.append(id) }
        return searchIDs.count == ids.count ? nil : searchIDs
    }

    /// Where `prefixedGroup(for:)` looks: a name of eleven bytes or more
    /// whose eleventh is the dot after a team ID, past that dot.
    private static func bareName(_ name: String) -> Substring? {
        let u = name.utf8
        guard u.count >= 11, u.dropFirst(10).first == UInt8(ascii: ".") else { return nil }
        return Substring(u.dropFirst(11))
    }

    /// Stands for a name that was never interned, which no list holds: no
    /// item has it.
    static let uninternedGroup = GroupID.min

    mutating func intern(_ name: String) -> GroupID {
        if let id = groupIDs[name] { return id }
        let id = GroupID(groupTexts.count)
        groupTexts.append(AttributeText(name))
        groupIDs[name] = id
        singleGroups.append([id])
        return id
    }
}
