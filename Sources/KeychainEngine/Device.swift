/// The state of a device that decides whether items can be used now.
///
/// A new device has a passcode, is unlocked and has been unlocked since boot.
public struct DeviceState: Sendable, Hashable {
    public var hasPasscode: Bool = true
    public var isLocked: Bool = false
    public var unlockedSinceBoot: Bool = true
    public var biometryEnrolled: Bool = true
    /// Which enrolled set of fingers or faces is current; a change makes
    /// biometry-current-set items unusable.
    public var biometrySet: Int = 1

    public init() {}

    /// Whether the device is unlocked now (always, without a passcode).
    public var isUnlocked: Bool { !hasPasscode || !isLocked }

    /// Whether an access-control constraint can be satisfied at all in this
    /// state: biometry needs enrolled biometry, a device passcode needs a
    /// passcode, user presence needs either.
    public func canSatisfy(_ ac: AccessControl) -> Bool {
        func can(_ flag: AccessControl.Flag) -> Bool {
            switch flag {
            // Biometry works only with a passcode set (LAErrorPasscodeNotSet).
            case .biometryAny, .biometryCurrentSet: biometryEnrolled && hasPasscode
            case .devicePasscode, .userPresence: hasPasscode
            case .applicationPassword: true
            }
        }
        return ac.isSatisfied(can)
    }

    /// Whether an item can be stored with this access control now. Every
    /// flag but the application password and private-key usage leaves it
    /// unbound (SecAccessControlTests.m `testImplicitBound`), so storing
    /// the item fails with errSecAuthNeeded (SecDbKeychainItemV7.m
    /// `wrapToAKS`, lines 661-665) and the client asks LocalAuthentication
    /// to bind it (SecItem.m lines 1553-1567), whose failure is
    /// errSecAuthFailed (lines 204-215). Binding a biometry flag with no
    /// biometry enrolled fails, even beside `or device-passcode`
    /// (LocalAuthentication is closed; react-native-keychain issues 752 and
    /// 362 report it on devices). So does a user-presence or passcode flag
    /// on a device without a passcode, where no owner authentication can be
    /// evaluated (TesserPG-iOS issue 53 reports the save failing;
    /// real-world problem Q39, session 19). The application password binds.
    public func canBind(_ ac: AccessControl) -> Bool {
        if !biometryEnrolled, ac.flags.contains(where: { $0 == .biometryAny || $0 == .biometryCurrentSet }) { return false }
        return hasPasscode || !ac.flags.contains { $0 == .userPresence || $0 == .devicePasscode }
    }

    /// Whether iCloud Keychain (CKKS) can decrypt an incoming item of this
    /// protection class now. CKKS wraps each item under one of its zone's
    /// class keys: `when-unlocked` under class A, `after-first-unlock` and
    /// `always` under class C (`CKKSOutgoingQueueEntry.m` `keyForItem:`,
    /// lines 114-121), and keeps those keys in the keychain, class A
    /// when-unlocked and class C after-first-unlock
    /// (`CKKSKeychainBackedKey.m` `saveKeyMaterialToKeychain:`, lines
    /// 305-310). So a locked device cannot take a `when-unlocked` item in,
    /// and before its first unlock since boot it cannot take any, not even
    /// an `always` one (which ``isAvailable(_:)`` lets a local read have).
    public func hasSyncKey(for accessibility: Accessibility) -> Bool {
        switch accessibility.requirement {
        case .unlocked, .unlockedWithPasscode: isUnlocked
        case .firstUnlockSinceBoot, .nothing: !hasPasscode || unlockedSinceBoot
        }
    }

    /// The one place the engine decides whether items with a given
    /// accessibility are available in the current state.
    public func isAvailable(_ accessibility: Accessibility) -> Bool {
        // A device without a passcode is always unlocked.
        let unlocked = !hasPasscode || !isLocked
        switch accessibility.requirement {
        case .nothing: return true
        case .firstUnlockSinceBoot: return !hasPasscode || unlockedSinceBoot
        case .unlocked: return unlocked
        case .unlockedWithPasscode: return hasPasscode && unlocked
        }
    }
}

/// A device: its state and the keychain it owns.
/// A XARA partition ID (``World/fileKeychainPartitionID(_:on:)``), kept
/// small: a team, or an ad-hoc signed app and its signature. As the string
/// `cdhash:BUNDLEID#N` it cost the bundle ID's length per Always Allow and
/// was searched linearly (a 10 MB script took 3.7 GB; adversarial run 26, F5).
public enum FileKeychainPartition: Sendable, Hashable {
    /// `teamid:TEAM`.
    case team(String)
    /// `cdhash:…`: the app's code as signed the `signature`th time.
    case adHoc(AppHandle, signature: UInt32)
}

/// One item's partition list: its teams, and per ad-hoc app the signature
/// let in. An app's earlier signatures can never ask again (a signature
/// only grows), so the new one replaces them: an item holds at most one
/// entry per app and per team, however often an app is re-signed and let
/// in, and each question is a hash lookup.
public struct FileKeychainPartitionList: Sendable, Hashable {
    public private(set) var teams: Set<String> = []
    public private(set) var adHoc: [AppHandle: UInt32] = [:]

    public init(_ first: FileKeychainPartition) { insert(first) }

    public func contains(_ p: FileKeychainPartition) -> Bool {
        switch p {
        case .team(let team): teams.contains(team)
        case .adHoc(let app, let signature): adHoc[app] == signature
        }
    }

    public mutating func insert(_ p: FileKeychainPartition) {
        switch p {
        case .team(let team): teams.insert(team)
        case .adHoc(let app, let signature): adHoc[app] = signature
        }
    }

    /// Entries held.
    public var count: Int { teams.count + adHoc.count }
}

public struct Device: Sendable {
    public var name: String
    /// The iCloud account; devices of one account sync.
    public var account: String
    public var state: DeviceState
    public var keychain: Keychain
    /// The macOS file-based keychain (the login keychain): used on macOS by
    /// calls without `data-protection=true` that are not synchronizable.
    public var fileKeychain: Keychain
    /// Apps removed from this device; every declared app starts installed.
    public var uninstalled: Set<AppHandle> = []
    /// The apps the user answered "Always Allow" for, by file-keychain item
    /// (its insertion sequence, which an update keeps and no later item
    /// takes, as a freed slot's ``ItemID`` would be), each with the
    /// signature it had then (``signatures``): added to the item's access
    /// list beside its owner.
    public var fileKeychainAccess: [UInt64: [AppHandle: UInt32]] = [:]
    /// The owner's signature when it made a file-keychain item, by item;
    /// absent for the first signature (0).
    public var fileKeychainOwnerSignature: [UInt64: UInt32] = [:]
    /// Each app's signature on this device, counted by ``World/resign(_:on:)``
    /// from 0: an access list trusts the signature it took in
    /// (``World/fileKeychainLists(_:_:on:)``).
    public var signatures: [AppHandle: UInt32] = [:]
    /// A file-keychain item's XARA partition list, by item (its insertion
    /// sequence): the partition IDs of the app that made its key and of
    /// those a prompt let in (``World/fileKeychainPartitionHolds(_:_:on:)``).
    public var fileKeychainPartitions: [UInt64: FileKeychainPartitionList] = [:]
    /// Deleted synchronizable items, by primary key, with when they were
    /// deleted: deletions travel with sync.
    public var tombstones: [PrimaryKey: UInt64] = [:]
    /// The rows those deletions left, by key: a tombstone overwrites the
    /// deleted item in place (SecDbItemDelete, SecDbItem.c line 2043),
    /// keeping its row ID, its `persistref` and its access class
    /// (SecDbItemCopyTombstone, lines 1216-1248, copies what
    /// `SecDbIsTombstoneDbUpdateAttr`, lines 239-242, names: the primary
    /// key, kSecDbAccessAttr, the row ID and the authenticated-data columns,
    /// `persistref` among them: SecItemSchema.c line 215 gives
    /// `v10_1itempersistentref` the `U` flag). The row stays encrypted
    /// under its class.
    public var tombstoneRows: [PrimaryKey: TombstoneRow] = [:]

    public struct TombstoneRow: Sendable, Hashable {
        public var rowID: Int64
        public var persistentUUID: UInt64
        public var accessibility: Accessibility

        /// The tombstone a deletion of `item` leaves in its row.
        init(of item: StoredItem) {
            rowID = item.rowID
            persistentUUID = item.persistentUUID
            accessibility = item.accessibility
        }
    }

    /// iCloud Keychain's incoming queue on this device, by key: what a
    /// `sync` brought while the device lacked the CKKS class key to decrypt
    /// it (``DeviceState/hasSyncKey(for:)``), applied when an unlock gives
    /// the key. CKKS leaves such an entry in its incoming queue ("Keychain
    /// is locked; can't decrypt IQE", `CKKSIncomingQueueOperation.m` lines
    /// 147-158) and processes it again once the device unlocks (lines
    /// 520-526); until then the keychain has no row for it. Also a version
    /// whose write failed, held in error (``Incoming/errored``), which no
    /// unlock applies.
    public var incoming: [PrimaryKey: Incoming] = [:]

    /// An entry of ``incoming``: a version of an item, with the device it
    /// came from (for a fixed order), or a deletion, with its time and the
    /// protection class of the row it deletes (CKKS decrypts the record to
    /// learn it: "we currently unencrypt the item before deleting it",
    /// `CKKSIncomingQueueOperation.m` lines 138-140).
    public enum Incoming: Sendable {
        case version(StoredItem, from: Int)
        case deletion(stamp: UInt64, accessibility: Accessibility)
        /// A version whose write failed (the device's row of its key needs
        /// the user, and CKKS has no credential): saved in state error
        /// (`CKKSIncomingQueueOperation.m` lines 995-1008), which the
        /// queue's pass never fetches again (it fetches state new only,
        /// lines 609-615), so neither a sync nor an unlock tries it; only
        /// a newer version of the item replaces it (`CKKSItem.m` lines
        /// 576-600 delete a record's entries "in any state" when it changes).
        case errored(StoredItem, from: Int)

        /// The version the entry holds, waiting or in error.
        var heldVersion: StoredItem? {
            switch self {
            case .version(let item, _), .errored(let item, _): item
            case .deletion: nil
            }
        }
    }

    /// The platform this device runs; nil: the world's (`platform …`).
    public var platform: Platform?
    /// When the device was last unlocked with biometry, on the world's
    /// wall clock (seconds): an `LAContext` reuse duration counts from it.
    public var lastBiometricUnlock: Int?

    /// A device; `serial` keeps its keychains' persistent references apart
    /// from every other device's.
    public init(name: String, account: String, serial: UInt64 = 0) {
        self.name = name
        self.account = account
        self.state = DeviceState()
        self.keychain = Keychain(salt: serial * 2 + 1)
        self.fileKeychain = Keychain(salt: serial * 2 + 2)
    }

    /// The row a tombstone of the item's key leaves for it, given up: every
    /// insert of a key takes its tombstone's row (`Keychain.insert`), so a
    /// live item and a row for its key never coexist.
    /// The common add (not synchronizable, or no tombstone at all) computes no key.
    mutating func takeTombstoneRow(of item: StoredItem) -> TombstoneRow? {
        guard item.synchronizable, !tombstoneRows.isEmpty else { return nil }
        return tombstoneRows.removeValue(forKey: item.primaryKey)
    }

    /// The access class of the tombstone with `item`'s key, if there is one.
    func tombstoneAccessibility(of item: StoredItem) -> Accessibility? {
        guard item.synchronizable, !tombstoneRows.isEmpty else { return nil }
        return tombstoneRows[item.primaryKey]?.accessibility
    }

    /// Inserts an item into the data-protection keychain, into its
    /// tombstone's row if its key has one. The caller has checked that the
    /// key is free.
    @discardableResult
    mutating func insert(_ item: StoredItem) -> ItemID {
        keychain.insert(item, replacing: takeTombstoneRow(of: item))
    }
}
