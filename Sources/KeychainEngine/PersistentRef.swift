/// What `kSecReturnPersistentRef` returns and `kSecValuePersistentRef` takes:
/// the item's table and the row it is in, valid on the device that made it.
///
/// SecItem.m `_SecItemCreatePersistentRef` writes the class's four-letter
/// table name and the row ID (12 bytes); from Security-60157 (iOS 15,
/// macOS 12, watchOS 8) `_SecItemCreateUUIDBasedPersistentRef` writes the
/// table name and the row's `persistref` UUID instead (20 bytes), because the
/// `SecKeychainStaticPersistentRefs` feature flag ships enabled
/// (`featureflags/Security.plist`, 60157 to 61123; hard-wired on from 61439,
/// keychain/ot/Affordance_OTConstants.m; audit 22, F1). Newer code parses
/// both shapes (`_SecItemParsePersistentRef`); older code knows only row IDs.
public struct PersistentRef: Sendable, Hashable, CustomStringConvertible {
    /// How the row is named.
    public enum Row: Sendable, Hashable {
        case rowID(Int64)
        case uuid(UInt64)
    }

    /// The class written in the reference; `identity` for an identity (the
    /// row is then its certificate's).
    public var itemClass: ItemClass
    public var row: Row
    /// Whether the row is in the macOS file-based keychain.
    public var inFileKeychain: Bool

    public init(itemClass: ItemClass, row: Row, inFileKeychain: Bool = false) {
        self.itemClass = itemClass
        self.row = row
        self.inFileKeychain = inFileKeychain
    }

    /// The four-letter table name that starts the reference's bytes.
    public var tableName: String {
        switch itemClass {
        case .genericPassword: "genp"
        case .internetPassword: "inet"
        case .certificate: "cert"
        case .key: "keys"
        case .identity: "idnt"
        }
    }

    /// Whether this reference names `item` (a row of the same table). A
    /// file-keychain reference names a primary key, not a row
    /// (``fileKeyDigest(of:)``).
    func names(_ item: StoredItem) -> Bool {
        if inFileKeychain { return payload == Self.fileKeyDigest(of: item) }
        switch row {
        case .rowID(let id): return item.rowID == id
        case .uuid(let u): return item.persistentUUID == u
        }
    }

    /// The reference's last eight bytes, whatever its shape.
    var payload: UInt64 {
        switch row {
        case .rowID(let id): UInt64(bitPattern: id)
        case .uuid(let u): u
        }
    }

    /// What a Mac file-keychain reference carries for its item: the
    /// keychain's identifier and the item's CSSM primary key
    /// (`ItemImpl::copyPersistentReference`, Item.cpp lines 1883-1911),
    /// which `ItemImpl::makeFromPersistentReference` (lines 1850-1881) looks
    /// up again by that key (`KeychainImpl::item`, Keychains.cpp lines
    /// 1029-1060): a delete and an add of the same key give the reference a
    /// live item again, and an update that changes the key leaves it naming
    /// nothing (audit 26, F1 and F2). kcs writes a 64-bit FNV-1a digest of
    /// the class and the key's values in place of the key's bytes; the
    /// keychain is the device the call runs on.
    static func fileKeyDigest(of item: StoredItem) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        func mix64(_ v: UInt64) { for shift in stride(from: 0, to: 64, by: 8) { mix(UInt8(truncatingIfNeeded: v >> UInt64(shift))) } }
        for byte in item.itemClass.rawValue.utf8 { mix(byte) }
        for value in item.primaryKey.values {
            switch value {
            case .string(let text):
                mix(1)
                mix(text.kind.rawValue)
                mix64(UInt64(text.count))
                text.withBytes { for byte in $0 { mix(byte) } }
            case .integer(let n):
                mix(2)
                mix64(UInt64(bitPattern: Int64(n)))
            case .date(let d):
                mix(3)
                mix64(d.bitPattern)
            }
        }
        return h
    }

    /// The bytes the framework hands out: the table name, then a big-endian
    /// row ID (12 bytes) or the 16-byte UUID (20 bytes), as SecItem.m lays
    /// them out. A file-keychain reference carries one more byte, `f`, and
    /// its eight bytes are the digest of the item's primary key
    /// (``fileKeyDigest(of:)``): the legacy keychain's own format, a
    /// flattened dictionary, is not modelled.
    public var bytes: [UInt8] {
        var out = Array(tableName.utf8)
        switch row {
        case .rowID(let id):
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: UInt64(bitPattern: id) >> UInt64(shift))) }
        case .uuid(let u):
            out += [UInt8](repeating: 0, count: 8)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: u >> UInt64(shift))) }
        }
        if inFileKeychain { out.append(UInt8(ascii: "f")) }
        return out
    }

    /// Reads bytes made by ``bytes``; nil for anything else (a device answers
    /// errSecParam to a reference it cannot parse).
    public init?(bytes: [UInt8]) {
        var b = bytes
        let file = b.count == 13 || b.count == 21
        if file {
            guard b.last == UInt8(ascii: "f") else { return nil }
            b.removeLast()
        }
        guard b.count == 12 || b.count == 20,
              let c = [ItemClass.genericPassword, .internetPassword, .certificate, .key, .identity]
                .first(where: { Array(PersistentRef(itemClass: $0, row: .rowID(0)).tableName.utf8) == Array(b[0..<4]) })
        else { return nil }
        var value: UInt64 = 0
        for byte in b[(b.count - 8)...] { value = value << 8 | UInt64(byte) }
        if b.count == 12 {
            self.init(itemClass: c, row: .rowID(Int64(bitPattern: value)), inFileKeychain: file)
        } else {
            guard b[4..<12].allSatisfy({ $0 == 0 }) else { return nil }
            self.init(itemClass: c, row: .uuid(value), inFileKeychain: file)
        }
    }

    public var description: String {
        if inFileKeychain { return "\(tableName) key \(String(payload, radix: 16)) (file keychain)" }
        switch row {
        case .rowID(let id): return "\(tableName) row \(id)"
        case .uuid(let u): return "\(tableName) uuid \(String(u, radix: 16))"
        }
    }
}

extension Platform {
    /// Whether persistent references name rows by UUID (Security-60157 and
    /// later) rather than by row ID.
    public var persistentRefsUseUUID: Bool { version >= family.firstUUIDPersistentRefVersion }

    /// Where UUID references begin, for messages: "ios 15, macos 12, watchos 8".
    public static var uuidPersistentRefsBegin: String {
        [Family.ios, .macos, .watchos].map { Platform($0, $0.firstUUIDPersistentRefVersion).description }.joined(separator: ", ")
    }
}

extension Platform.Family {
    /// The first major version of Security-60157, whose persistent references
    /// are UUIDs: iOS and Catalyst 15, macOS 12, watchOS 8.
    public var firstUUIDPersistentRefVersion: Int {
        switch self {
        case .ios, .catalyst: 15
        case .macos: 12
        case .watchos: 8
        }
    }
}

extension FoundItem {
    /// The persistent reference a call returns for this item on a device of
    /// `platform`: an identity's names its certificate's row.
    public func persistentRef(on platform: Platform) -> PersistentRef {
        let itemClass = resultClass
        // A file-keychain reference names the item's primary key (above).
        let inFile = item.owner != nil
        let uuid = inFile ? PersistentRef.fileKeyDigest(of: item) : item.persistentUUID
        let rowID = inFile ? Int64(bitPattern: uuid) : item.rowID
        let row: PersistentRef.Row = platform.persistentRefsUseUUID ? .uuid(uuid) : .rowID(rowID)
        return PersistentRef(itemClass: itemClass, row: row, inFileKeychain: inFile)
    }
}

/// An authentication context (`LAContext`) passed as
/// `kSecUseAuthenticationContext`: one approval on it covers later calls.
public struct AuthContext: Sendable, Hashable {
    /// `touchIDAuthenticationAllowableReuseDuration`, in seconds: a biometric
    /// device unlock this recent stands in for a prompt. LocalAuthentication
    /// caps it at `LATouchIDAuthenticationMaximumAllowableReuseDuration` (300).
    public var reuseDuration: Int
    /// `interactionNotAllowed`: a prompt it would need fails instead with
    /// errSecInteractionNotAllowed (SecItem.m
    /// `osstatus_for_localauthentication_error`: LAErrorNotInteractive).
    public var interactionAllowed: Bool
    /// The device on which the context has been authenticated, if any.
    public var authenticatedOn: DeviceHandle?
    /// The app whose call authenticated it: the `LAContext` is an object of
    /// that app's process, which neither a restart of the device nor an
    /// uninstall of the app keeps (``World/reboot(_:)``, ``World/uninstall(_:from:)``).
    public var authenticatedBy: AppHandle?
    /// What it was authenticated with there: a context that holds only the
    /// application password does not open a constraint.
    var credentials: Set<ContextUse.Credential> = []

    /// The longest reuse duration LocalAuthentication honours.
    public static let maximumReuseDuration = 300

    public init(reuseDuration: Int = 0, interactionAllowed: Bool = true) {
        self.reuseDuration = min(max(reuseDuration, 0), Self.maximumReuseDuration)
        self.interactionAllowed = interactionAllowed
    }
}

extension World {
    /// Keeps a persistent reference under a name, replacing any kept before.
    public mutating func keep(_ ref: PersistentRef, as name: String) {
        if persistentRefs[name] == nil { persistentRefNames.append(name) }
        persistentRefs[name] = ref
    }
}
