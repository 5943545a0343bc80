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
    func travels(_ item: StoredItem, on device: DeviceHandle) -> Bool {
        item.synchronizable && !item.accessibility.isThisDeviceOnly
            && platform(of: device).syncedClasses.contains(item.itemClass)
    }

    /// Records the deletion of a travelling item so the deletion syncs too.
    mutating func recordDeletion(_ item: StoredItem, on device: DeviceHandle) {
        guard travels(item, on: device) else { return }
        devices[device.index].tombstones[item.primaryKey] = tick()
    }

    /// Syncs every group of devices that share an account (or only the
    /// account of `device`). Each travelling item ends up on every device of
    /// the account in its newest version; a deletion newer than an item
    /// removes it everywhere. Returns how many items were written or removed.
    ///
    /// `stop` is asked, with the changes so far, before each device and
    /// every 1,024 changes: a sync of many devices can write devices × items
    /// copies, so the host's time and item limits must reach inside it. A
    /// stopped sync leaves some devices synced and others not.
    @discardableResult
    public mutating func sync(account device: DeviceHandle? = nil, stop: (Int) -> Bool = { _ in false }) -> Int {
        let accounts = device.map { [devices[$0.index].account] } ?? Array(Set(devices.map(\.account))).sorted()
        var changes = 0
        for account in accounts {
            let members = devices.indices.filter { devices[$0].account == account }
            guard members.count > 1 else { continue }
            // The newest version of each travelling item, and the newest deletion.
            var newest: [PrimaryKey: StoredItem] = [:]
            var deleted: [PrimaryKey: UInt64] = [:]
            for d in members {
                for (_, item) in devices[d].keychain.allItems where travels(item, on: DeviceHandle(index: d)) {
                    let key = item.primaryKey
                    if (newest[key]?.modified ?? 0) < item.modified { newest[key] = item }
                }
                for (key, stamp) in devices[d].tombstones where (deleted[key] ?? 0) < stamp { deleted[key] = stamp }
            }
            for d in members {
                if stop(changes) { return changes }
                for (key, stamp) in deleted {
                    if let id = devices[d].keychain.item(withKey: key), let item = devices[d].keychain[id],
                       item.modified < stamp, travels(item, on: DeviceHandle(index: d)) {
                        devices[d].keychain.remove(id)
                        changes += 1
                    }
                    devices[d].tombstones[key] = max(devices[d].tombstones[key] ?? 0, stamp)
                }
                for (key, winner) in newest.sorted(by: { $0.value.sequence < $1.value.sequence }) {
                    if let stamp = deleted[key], stamp > winner.modified { continue }
                    // A device whose platform does not sync the class takes nothing.
                    guard travels(winner, on: DeviceHandle(index: d)) else { continue }
                    if let id = devices[d].keychain.item(withKey: key), let mine = devices[d].keychain[id] {
                        if mine.modified < winner.modified {
                            devices[d].keychain.replace(id, with: winner)
                            changes += 1
                        }
                    } else {
                        devices[d].keychain.insert(winner)
                        changes += 1
                        if changes % 1024 == 0, stop(changes) { return changes }
                    }
                }
            }
        }
        return changes
    }

    /// Saves a copy of a device's keychain under a name. When-passcode-set
    /// items are left out: "those are intentionally lost across restores"
    /// (SecItemDb.c, the backup writer, Security-61901.0.87.0.1).
    public mutating func backup(_ device: DeviceHandle, as name: String) {
        var keychain = devices[device.index].keychain
        for (id, item) in keychain.allItems where item.accessibility == .whenPasscodeSetThisDeviceOnly {
            keychain.remove(id)
        }
        backups[name] = Backup(deviceName: devices[device.index].name, keychain: keychain)
    }

    /// Restores a backup onto a device, replacing its keychain: onto the same
    /// device everything comes back; onto another only items that are not
    /// this-device-only.
    public mutating func restore(_ name: String, to device: DeviceHandle) throws(WorldError) -> Int {
        guard let backup = backups[name] else { throw .unknownBackup(name, known: backups.keys.sorted()) }
        // A restore inserts the rows anew: new row IDs and new persistref
        // UUIDs (neither is in the backup: SecItemSchema.c gives
        // v10itempersistentref no kSecDbInBackupFlag), so persistent
        // references made before the restore find nothing.
        let sameDevice = backup.deviceName == devices[device.index].name
        restoredKeychains += 1
        var keychain = devices[device.index].keychain.emptied(salt: (1 << 30) + restoredKeychains)
        for (_, item) in backup.keychain.allItems where sameDevice || !item.accessibility.isThisDeviceOnly {
            keychain.insert(item)
        }
        if sameDevice {
            devices[device.index].keychain = keychain
            return keychain.count
        }
        devices[device.index].keychain = keychain
        devices[device.index].tombstones = [:]
        return keychain.count
    }
}
