/// Further devices, iCloud Keychain sync, backup and restore
/// (semantics.md section 5).
extension World {
    /// The next tick of the world's clock.
    mutating func tick() -> UInt64 {
        clock += 1
        return clock
    }

    /// Whether an item travels with iCloud Keychain to or from `device`:
    /// synchronizable, not this-device-only (CKKS skips device-bound items),
    /// and of a class that device's platform syncs (`Platform.syncedClasses`;
    /// each device's data source lists its own classes).
    ///
    /// An item whose access control needs the user (one an update made
    /// synchronizable: an add refuses the pair) never leaves: the upload
    /// reads its secret (CKKSOutgoingQueueEntry.m line 214,
    /// `SecDbItemCopyPListWithMask(item, kSecDbSyncFlag)` includes v_Data),
    /// which a daemon without the user cannot decrypt.
    ///
    /// Nor does an item of 1 MiB or more: CKKS makes no outgoing entry for
    /// an encrypted record that large ("CloudKit records cannot be over 1
    /// MB", CKKSOutgoingQueueEntry.m lines 392-403; Apple's
    /// `testAddLargeItemFailure`, CKKSTests+ItemSyncing.m lines 75-107).
    /// The record holds the data and the attributes, encrypted; kcs counts
    /// their bytes (conformance audit 23, F6).
    func travels(_ item: StoredItem, on device: DeviceHandle) -> Bool {
        syncs(item, on: device) && item.accessControl?.requiresAuthentication != true && !Self.tooLargeToUpload(item)
    }

    /// Whether the item's record passes CKKS's 1 MiB limit (above).
    static func tooLargeToUpload(_ item: StoredItem) -> Bool {
        let limit = 1 << 20
        var size = item.dataText?.count ?? 0
        for entry in item.attributes where size < limit {
            if case .string(let text) = entry.value { size += text.count }
        }
        return size >= limit
    }

    /// Whether the item is one iCloud Keychain keeps in step: its deletion
    /// travels as a tombstone, which needs no secret, even when the item
    /// itself could not be uploaded.
    private func syncs(_ item: StoredItem, on device: DeviceHandle) -> Bool {
        item.synchronizable && !item.accessibility.isThisDeviceOnly && platform(of: device).syncedClasses.contains(item.itemClass)
    }

    /// Whether a row answers its key's incoming deletion: a synchronizable
    /// row of a class the device syncs, whatever its protection or access
    /// control. CKKS deletes by the record's UUID with the query `class,
    /// kSecAttrUUID, sync=1` over every group and protection
    /// (`CKKSIncomingQueueOperation.m` `_onqueueHandleIQEDelete`, lines
    /// 1045-1070); kcs keys records by primary key. A row made
    /// this-device-only, or given an access control, after it synced keeps
    /// its UUID and goes too (conformance audit 24, F5: kcs kept it).
    private func answersDeletion(_ item: StoredItem, on device: DeviceHandle) -> Bool {
        item.synchronizable && platform(of: device).syncedClasses.contains(item.itemClass)
    }

    /// Whether a synchronizable row gives way to its key's synced version
    /// whatever the dates: a device-bound one. CKKS never uploads it ("Only
    /// synchronize items which can transfer between devices",
    /// `CKKSKeychainView.m` lines 1972-1978), so nothing competes with the
    /// record: an incoming change of its UUID replaces it ("same UUID is the
    /// normal update case", `CKKSIncomingQueueOperation.m`
    /// `_onqueueHandleIQEChange`, lines 875-960; a row of another UUID that
    /// CKKS's mirror does not know gives way too, "accept the cloud value"),
    /// and CKKS's local scan skips device-bound rows "with prejudice"
    /// (`CKKSScanLocalItemsOperation.m` lines 473-482), so their record's
    /// UUID counts as missing from the keychain and the mirror's version is
    /// applied again (lines 596-656, `retriggerMissingMirrorEntries`,
    /// 343-375). kcs's `sync` stands for that scan too: a synced item an app
    /// made this-device-only with an update reverts to the synced version at
    /// the next `sync` (conformance audit 24, F3 and F5; kcs kept the
    /// device-bound copy when it was newer).
    static func yieldsToSynced(_ item: StoredItem) -> Bool {
        item.synchronizable && item.accessibility.isThisDeviceOnly
    }

    /// An item as it arrives on another device: the access-control column
    /// has no sync flag (SecItemSchema.c `accc`), so only its protection
    /// class travels.
    static func arriving(_ item: StoredItem) -> StoredItem {
        guard item.accessControl != nil else { return item }
        var copy = item
        copy.accessControl = nil
        return copy
    }

    /// Records the deletion of a travelling item so the deletion syncs too;
    /// a delete (`leavesRow`) leaves its row as the tombstone.
    mutating func recordDeletion(_ item: StoredItem, on device: DeviceHandle, leavesRow: Bool = false) {
        guard syncs(item, on: device) else { return }
        let key = item.primaryKey
        devices[device.index].tombstones[key] = tick()
        if leavesRow { devices[device.index].tombstoneRows[key] = .init(of: item) }
    }

    /// Syncs every group of devices that share an account (or only the
    /// account of `device`). Each travelling item ends up on every device of
    /// the account in its newest version; a deletion newer than an item
    /// removes it everywhere. Returns how many items were written or removed.
    ///
    /// `stop` is asked, with the changes so far, every 64 accounts, before each device and
    /// every 1,024 changes: a sync of many devices can write devices × items
    /// copies, so the host's time and item limits must reach inside it. A
    /// stopped sync leaves some devices synced and others not.
    @discardableResult
    public mutating func sync(account device: DeviceHandle? = nil, stop: (Int) -> Bool = { _ in false }) -> Int {
        // Each account's devices, found in one pass: filtering every device
        // per account was accounts × devices (40,000 devices on their own
        // accounts took 44 s in one `sync`; adversarial run 27, F8).
        let accounts: [(account: String, members: [Int])]
        if let device {
            let account = devices[device.index].account
            accounts = [(account, devices.indices.filter { devices[$0].account == account })]
        } else {
            accounts = Dictionary(grouping: devices.indices, by: { devices[$0].account }).map { ($0.key, $0.value) }.sorted { $0.account < $1.account }
        }
        var changes = 0
        // Deletions copied to other devices: not changes, but held (the item limit).
        var copied = 0
        for (n, (account, members)) in accounts.enumerated() {
            // The clock is asked between accounts too, those with one device
            // included (it was asked only inside an account of several).
            if n % 64 == 63, stop(changes + copied) { return changes }
            guard members.count > 1 else { continue }
            // Nothing written, deleted or moved since this account's last full sync.
            if syncedAt[account] == syncMark(members) { continue }
            // The newest version of each travelling item, and the newest deletion.
            var newest: [PrimaryKey: (item: StoredItem, device: Int)] = [:]
            var deleted: [PrimaryKey: UInt64] = [:]
            for d in members {
                for (_, item) in devices[d].keychain.allItems where travels(item, on: DeviceHandle(index: d)) {
                    let key = item.primaryKey
                    if (newest[key]?.item.modified ?? 0) < item.modified { newest[key] = (item, d) }
                }
                for (key, stamp) in devices[d].tombstones where (deleted[key] ?? 0) < stamp { deleted[key] = stamp }
            }
            // In one order whatever the hash seed: by write time, then
            // device, then place (a sequence is per keychain, so ties
            // across devices went by dictionary order; found by review).
            // Sorted once per account, not once per device (adversarial run 27, F3).
            let ordered = newest.sorted {
                ($0.value.item.modified, $0.value.device, $0.value.item.sequence)
                    < ($1.value.item.modified, $1.value.device, $1.value.item.sequence)
            }
            for d in members {
                if stop(changes + copied) { return changes }
                for (key, stamp) in deleted {
                    if let id = devices[d].keychain.item(withKey: key), let item = devices[d].keychain[id],
                       item.modified < stamp, answersDeletion(item, on: DeviceHandle(index: d)) {
                        if devices[d].state.hasSyncKey(for: item.accessibility) {
                            removeSynced(id, key, on: d)
                            changes += 1
                        } else {
                            // Held in the incoming queue until the unlock.
                            devices[d].incoming[key] = .deletion(stamp: stamp, accessibility: item.accessibility)
                        }
                    } else if let queued = devices[d].incoming[key]?.heldVersion, queued.modified < stamp {
                        // A deletion newer than a version still queued (or in error) replaces it.
                        devices[d].incoming[key] = nil
                    }
                    // A deletion copied to a device is held there: the item
                    // limit is asked every 1,024 of them too (copied
                    // deletions went 14 M past it; found by review).
                    if devices[d].tombstones[key] == nil {
                        copied += 1
                        if copied % 1024 == 0, stop(changes + copied) { return changes }
                    }
                    devices[d].tombstones[key] = max(devices[d].tombstones[key] ?? 0, stamp)
                }
                for (key, (winner, from)) in ordered {
                    if let stamp = deleted[key], stamp > winner.modified { continue }
                    // A device whose platform does not sync the class takes nothing.
                    guard travels(winner, on: DeviceHandle(index: d)) else { continue }
                    switch receive(winner, from: from, key: key, on: d) {
                    case .written:
                        changes += 1
                        if changes % 1024 == 0, stop(changes + copied) { return changes }
                    case .queued:
                        // A queued version is held too (``World/itemCount``).
                        copied += 1
                        if copied % 1024 == 0, stop(changes + copied) { return changes }
                    case .nothing: break
                    }
                }
            }
            // Synced in full (a stopped sync returned above): marked as it is now.
            syncedAt[account] = syncMark(members)
        }
        return changes
    }

    /// What ``receive(_:from:key:on:)`` did with an incoming version.
    enum Receipt { case written, queued, nothing }

    /// Takes in a travelling item's newer version on device `d`: written
    /// over the device's older copy of its key, or as a new row; or, while
    /// the device lacks the CKKS class key for it, put in the device's
    /// incoming queue (``Device/incoming``), newest first, and not written:
    /// the keychain has no row for it until the unlock, so a find there is
    /// errSecItemNotFound, not the lock's error (Apple's
    /// `testReceiveClassCItemWhileALocked`, `CKKSTests+ItemSyncing.m` lines
    /// 1965-1966 and 1976-1977; conformance audit 24, F1).
    mutating func receive(_ version: StoredItem, from: Int, key: PrimaryKey, on d: Int) -> Receipt {
        let local = devices[d].keychain.item(withKey: key)
        if let id = local, let mine = devices[d].keychain[id], mine.modified >= version.modified,
           !Self.yieldsToSynced(mine) { return .nothing }
        // Deleted here after this version was sent (a queued version met by a later deletion).
        if local == nil, let stamp = devices[d].tombstones[key], stamp > version.modified { return .nothing }
        // A version already held, waiting or in error, arrives no newer:
        // nothing changed on the server, so CKKS makes no new entry for it.
        if let held = devices[d].incoming[key]?.heldVersion, held.modified >= version.modified { return .nothing }
        guard devices[d].state.hasSyncKey(for: version.accessibility) else {
            devices[d].incoming[key] = .version(version, from: from)
            return .queued
        }
        // The write meets the local row of the key through SQLite's UNIQUE
        // constraint, and SecDbItemInsertOrReplace decrypts that row with
        // its secret before CKKS's conflict block may run (SecDbItemIsCorrupt,
        // SecDbItem.c line 1540). CKKS has no credential: a row whose access
        // control needs the user answers errSecAuthNeeded
        // (SecDbKeychainItemV7.m lines 816-818), the entry is saved in error
        // (CKKSIncomingQueueOperation.m lines 983-1008) and the row stays.
        // The entry stays in error: no sync or unlock tries it again, a
        // newer version of the item replaces it (``Device/Incoming/errored``;
        // audit 26, F4; review 22b, R8). A lost or invalidated row is replaced.
        if let id = local, let mine = devices[d].keychain[id], mine.accessControl?.requiresAuthentication == true,
           !mine.isUndecodable(in: devices[d].state) {
            devices[d].incoming[key] = .errored(version, from: from)
            return .queued
        }
        devices[d].incoming[key] = nil
        if let id = local {
            devices[d].keychain.replace(id, with: Self.arriving(version))
        } else {
            devices[d].insert(Self.arriving(version))
        }
        return .written
    }

    /// Removes a synchronizable row because another device deleted its
    /// item: an incoming deletion leaves a tombstone in the row too.
    private mutating func removeSynced(_ id: ItemID, _ key: PrimaryKey, on d: Int) {
        guard let item = devices[d].keychain[id] else { return }
        devices[d].tombstoneRows[key] = .init(of: item)
        devices[d].keychain.remove(id)
        devices[d].incoming[key] = nil
    }

    /// Applies what the device's incoming queue holds that its state now
    /// lets CKKS decrypt: called when the device unlocks or loses its
    /// passcode, as CKKS processes the queue again on the lock state's
    /// change (`CKKSIncomingQueueOperation.m` lines 520-526, a pending flag
    /// with `OctagonPendingConditionsDeviceUnlocked`). Deletions first,
    /// then versions in the order a sync writes them.
    mutating func processIncoming(on device: DeviceHandle) {
        let d = device.index
        guard !devices[d].incoming.isEmpty else { return }
        var versions: [(key: PrimaryKey, item: StoredItem, from: Int)] = []
        for (key, entry) in devices[d].incoming {
            switch entry {
            case .version(let item, let from):
                if devices[d].state.hasSyncKey(for: item.accessibility) { versions.append((key, item, from)) }
            case .errored:
                // Not fetched again (state error; CKKSIncomingQueueOperation.m lines 609-615).
                continue
            case .deletion(let stamp, let accessibility):
                guard devices[d].state.hasSyncKey(for: accessibility) else { continue }
                devices[d].incoming[key] = nil
                if let id = devices[d].keychain.item(withKey: key), let item = devices[d].keychain[id],
                   item.modified < stamp, answersDeletion(item, on: device) {
                    removeSynced(id, key, on: d)
                }
            }
        }
        versions.sort { ($0.item.modified, $0.from, $0.item.sequence) < ($1.item.modified, $1.from, $1.item.sequence) }
        for (key, item, from) in versions {
            devices[d].incoming[key] = nil
            _ = receive(item, from: from, key: key, on: d)
        }
    }

    /// Whether a find of `request` by `app` would match a version that
    /// `device`'s incoming queue holds (``Device/incoming``): the call found
    /// nothing because the item waits for an unlock, not because the query
    /// is wrong (lint's near-miss hint is not given then).
    /// How many synced changes wait on a device for its unlock.
    public func incomingCount(on device: DeviceHandle) -> Int { devices[device.index].incoming.count }

    public func waitsInIncomingQueue(_ request: CallRequest, as app: AppHandle, on device: DeviceHandle) -> Bool {
        let queue = devices[device.index].incoming
        guard !queue.isEmpty, let itemClass = request.spec.itemClass else { return false }
        guard case .success(let groups) = searchScope(request.spec, cache(of: app, on: platform(of: device)), platform(of: device))
        else { return false }
        for case .version(let item, _) in queue.values
        where item.itemClass == itemClass.table && groups.contains(item.group) && Self.matches(item, request.spec) {
            return true
        }
        return false
    }

    /// Saves a copy of a device's keychain under a name, as the backup
    /// writer (`SecServerCopyKeychainPlist`, SecItemDb.c line 2070) reads it:
    /// without when-passcode-set items ("those are intentionally lost across
    /// restores"), without items whose access control needs the user (it
    /// sets `q_skip_acl_items`: a row that needs authentication is passed
    /// over, `s3dl_query` line 1073; a Face ID token is gone after a
    /// restore), and without App Clip items (`q_skip_app_clip_items`: `clip
    /// = 0` in its SQL, line 786; kcs takes every item of an installed
    /// clip's app-ID group as the clip's, as its uninstall does).
    /// `encrypted`: made with a backup password (``Backup/encrypted``).
    public mutating func backup(_ device: DeviceHandle, as name: String, encrypted: Bool = true) {
        var keychain = devices[device.index].keychain
        var clipGroups: Set<GroupID> = []
        for clip in apps.indices where isInstalled(AppHandle(index: clip), on: device) {
            if let group = appClipGroup(AppHandle(index: clip)) { clipGroups.insert(group) }
        }
        for (id, item) in keychain.allItems where item.accessibility == .whenPasscodeSetThisDeviceOnly
            || item.accessControl?.requiresAuthentication == true || clipGroups.contains(item.group) {
            keychain.remove(id)
        }
        if backups[name] == nil { backupNames.append(name) }
        backups[name] = Backup(deviceName: devices[device.index].name, keychain: keychain, encrypted: encrypted)
    }

    /// Restores a backup onto a device. The device's non-synchronizable
    /// items go first and its synchronizable ones stay ("Restoring backup
    /// should not remove stuff that got into the keychain before us",
    /// SecItemServer.c line 1508; `DELETE FROM … WHERE sync = 0`, SecItemDb.c
    /// line 2469: iCloud Keychain may have brought items down already). The
    /// backup's items come back with their persistent references
    /// (`SecServerImportItem`, line 2320: "preserving rowids"; the UUID
    /// always, a row ID when it is free: secd-33-keychain-backup.m line 219
    /// finds an item by a reference taken before the restore). A device
    /// with static (UUID) persistent references sets only the UUID, and a
    /// fresh one when the backup has none, from a device with row-ID
    /// references (`SecServerImportItem`, SecItemDb.c lines 2319-2344;
    /// `SecDbItemExtractUUIDPersistentRefFromBackupDictionary`,
    /// SecDbKeychainItem.m lines 1233-1262, never sets the row ID): the item
    /// takes the table's next row, so a row-ID reference taken on an iOS 14
    /// device finds nothing after a restore onto iOS 15 or later, or another
    /// row (conformance audit 24, F4: kcs kept the row ID). Onto the same
    /// device everything, onto another only items that are not
    /// this-device-only. A backup item whose key a kept synchronizable item
    /// has leaves that item alone, or, with static persistent references
    /// (iOS 15, macOS 12), replaces it when it was written later (the
    /// insert merges the two, SecDbItem.c line 1790, newer `mdat` wins) and
    /// gives the row the backup item's reference whichever copy wins
    /// (lines 1750-1757; conformance audit 27, F3).
    public mutating func restore(_ name: String, to device: DeviceHandle) throws(WorldError) -> Int {
        guard let backup = backups[name] else { throw .unknownBackup(name) }
        syncEpoch += 1
        let sameDevice = backup.deviceName == devices[device.index].name
        var keychain = devices[device.index].keychain
        for (id, item) in keychain.allItems where !item.synchronizable { keychain.remove(id) }
        // The rows taken, as table << 56 | row ID: the kept items' and each
        // restored item's as it got it (a taken row ID gets a new one).
        func row(_ itemClass: ItemClass, _ rowID: Int64) -> Int64 { Int64(itemClass.tableIndex) << 56 | rowID }
        func row(_ item: StoredItem) -> Int64 { row(item.itemClass, item.rowID) }
        var usedRows = Set(keychain.allItems.map { row($0.1) })
        // A tombstone holds its row too: a restored item is not given it.
        for (key, stone) in devices[device.index].tombstoneRows { usedRows.insert(row(key.itemClass, stone.rowID)) }
        // Static persistent references: the newer of two copies wins, and
        // the row ID is not restored; the UUID is when the backup has one.
        let newerWins = platform(of: device).persistentRefsUseUUID
        let backupHasUUIDs = self.device(named: backup.deviceName).map { platform(of: $0).persistentRefsUseUUID } ?? true
        var restored = 0
        // An unencrypted backup's keychain opens on the device that made it only.
        let items = sameDevice || backup.encrypted ? backup.keychain.allItems : []
        for (_, item) in items where sameDevice || !item.accessibility.isThisDeviceOnly {
            if let id = keychain.item(withKey: item.primaryKey), let kept = keychain[id] {
                guard newerWins else { continue }
                // SecDbItemInsert's merge (SecDbItem.c lines 1779-1805): the
                // newer copy wins (SecDbItemCopyMergedItem), and whichever
                // does takes the backup item's persistref (lines 1750-1757),
                // a fresh one where the backup has row IDs
                // (SecServerImportItem gives it one first, SecItemDb.c lines
                // 2328-2344). The row keeps its row ID.
                let uuid = backupHasUUIDs ? item.persistentUUID : keychain.freshUUID()
                let backupWins = kept.modified < item.modified
                keychain.replace(id, with: backupWins ? item : kept, persistentUUID: uuid)
                if backupWins { restored += 1 }
                continue
            }
            // Onto a tombstone of its key the item takes the tombstone's row
            // and reference, not the backup's (SecDbItemInsert's tombstone
            // branch comes first).
            let id = devices[device.index].takeTombstoneRow(of: item).map { keychain.insert(item, replacing: $0) }
                ?? keychain.insertRestored(item, rowIDFree: !newerWins && !usedRows.contains(row(item)),
                                           keepingUUID: !newerWins || backupHasUUIDs)
            if let given = keychain[id] { usedRows.insert(row(given)) }
            restored += 1
        }
        devices[device.index].keychain = keychain
        return restored
    }
}
