/// A keychain item class (`kSecClass`).
public enum ItemClass: String, Sendable, Hashable, CaseIterable {
    case genericPassword = "generic-password"
    case internetPassword = "internet-password"
    case certificate
    case key
    /// Not stored: an identity is a certificate together with its private key.
    case identity

    /// The class whose table holds this class's items: an identity is
    /// stored as its certificate, found with its private key beside it.
    public var table: ItemClass { self == .identity ? .certificate : self }

    /// The Security framework's constant name.
    public var constantName: String {
        switch self {
        case .genericPassword: "kSecClassGenericPassword"
        case .internetPassword: "kSecClassInternetPassword"
        case .certificate: "kSecClassCertificate"
        case .key: "kSecClassKey"
        case .identity: "kSecClassIdentity"
        }
    }

    /// The attributes that together with access group and synchronizable make
    /// an item's primary key (keychain/securityd/SecItemSchema.c).
    public var primaryKeyAttributes: [ItemAttribute] { Array(keyAttributes) }

    /// The primary-key attributes as two words, not an array: the call path
    /// reads them several times a call, and each read of a stored array
    /// paid a lazy-initialization check, a retain and a release
    /// (callgrind: some 40 instructions a read).
    var keyAttributes: KeyAttributes {
        switch self {
        case .genericPassword: KeyAttributes().with(.account).with(.service)
        case .internetPassword:
            KeyAttributes().with(.account).with(.securityDomain).with(.server).with(.protocol)
                .with(.authenticationType).with(.port).with(.path)
        case .certificate: KeyAttributes().with(.certificateType).with(.issuer).with(.serialNumber)
        case .key:
            KeyAttributes().with(.keyClass).with(.applicationLabel).with(.applicationTag).with(.creator)
                .with(.keyType).with(.keySizeInBits).with(.effectiveKeySize).with(.startDate).with(.endDate)
        case .identity: KeyAttributes()
        }
    }

    /// The accessibility an item of this class gets when the add names none:
    /// when-unlocked for passwords and keys, always for certificates
    /// (SecDbQuery.c `query_infer_keyclass`).
    public var defaultAccessibility: Accessibility {
        switch self {
        case .certificate: .always
        case .genericPassword, .internetPassword, .key, .identity: .whenUnlocked
        }
    }

    /// Finds a class by short name or `kSecClass…` constant name.
    public init?(name: String) {
        if let c = ItemClass(rawValue: name) { self = c; return }
        guard let c = ItemClass.allCases.first(where: { $0.constantName == name }) else { return nil }
        self = c
    }
}

/// An item's accessibility (`kSecAttrAccessible`), most restrictive first.
public enum Accessibility: String, Sendable, Hashable, CaseIterable {
    case whenPasscodeSetThisDeviceOnly = "when-passcode-set-this-device-only"
    case whenUnlocked = "when-unlocked"
    case whenUnlockedThisDeviceOnly = "when-unlocked-this-device-only"
    case afterFirstUnlock = "after-first-unlock"
    case afterFirstUnlockThisDeviceOnly = "after-first-unlock-this-device-only"
    case always
    case alwaysThisDeviceOnly = "always-this-device-only"

    public var constantName: String {
        switch self {
        case .whenPasscodeSetThisDeviceOnly: "kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly"
        case .whenUnlocked: "kSecAttrAccessibleWhenUnlocked"
        case .whenUnlockedThisDeviceOnly: "kSecAttrAccessibleWhenUnlockedThisDeviceOnly"
        case .afterFirstUnlock: "kSecAttrAccessibleAfterFirstUnlock"
        case .afterFirstUnlockThisDeviceOnly: "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly"
        case .always: "kSecAttrAccessibleAlways"
        case .alwaysThisDeviceOnly: "kSecAttrAccessibleAlwaysThisDeviceOnly"
        }
    }

    /// The constant's value on a device (SecItemConstants.c lines 178-184),
    /// the class securityd parses (SecDbKeychainItem.m `kc_parse_keyclass`,
    /// lines 781-802) and attribute dumps print (`pdmn = ak`). The one table
    /// of the codes: a script and kcs's SecItem shim take them too.
    public var code: String {
        switch self {
        case .whenPasscodeSetThisDeviceOnly: "akpu"
        case .whenUnlocked: "ak"
        case .whenUnlockedThisDeviceOnly: "aku"
        case .afterFirstUnlock: "ck"
        case .afterFirstUnlockThisDeviceOnly: "cku"
        case .always: "dk"
        case .alwaysThisDeviceOnly: "dku"
        }
    }

    /// A `kSecAttrAccessible` value as code passes it: the constant (in
    /// kcs's SecItem shim, whose constants are their names, its name) or
    /// its code (`ck`). Anything else securityd answers with errSecParam,
    /// "accessible attribute %@ unknown" (SecDbKeychainItem.m line 799).
    public init?(constantOrCode s: String) {
        guard let a = Accessibility.allCases.first(where: { $0.constantName == s || $0.code == s }) else { return nil }
        self = a
    }

    /// Whether the item never leaves the device (backup to another device, sync).
    public var isThisDeviceOnly: Bool {
        switch self {
        case .whenPasscodeSetThisDeviceOnly, .whenUnlockedThisDeviceOnly,
             .afterFirstUnlockThisDeviceOnly, .alwaysThisDeviceOnly: true
        case .whenUnlocked, .afterFirstUnlock, .always: false
        }
    }

    /// Deprecated since iOS 12 (the `always` pair).
    public var isDeprecated: Bool { self == .always || self == .alwaysThisDeviceOnly }

    /// What the device must have done for items of this accessibility to be readable.
    public var requirement: AvailabilityRequirement {
        switch self {
        case .whenPasscodeSetThisDeviceOnly: .unlockedWithPasscode
        case .whenUnlocked, .whenUnlockedThisDeviceOnly: .unlocked
        case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly: .firstUnlockSinceBoot
        case .always, .alwaysThisDeviceOnly: .nothing
        }
    }
}

/// What the device state must satisfy before an item's data can be used.
public enum AvailabilityRequirement: Sendable, Hashable {
    case unlockedWithPasscode, unlocked, firstUnlockSinceBoot, nothing
}

/// Up to 16 attributes, one byte each in two words: a class's primary-key
/// attributes, built from constants so that no array is made or read.
struct KeyAttributes: RandomAccessCollection, Sendable {
    private var w0: UInt64 = 0
    private var w1: UInt64 = 0
    private(set) var count = 0

    init() {}

    /// This list with `attribute` appended.
    func with(_ attribute: ItemAttribute) -> KeyAttributes {
        var next = self
        let byte = UInt64(attribute.rawValue)
        if count < 8 { next.w0 |= byte << UInt64(count * 8) } else { next.w1 |= byte << UInt64((count - 8) * 8) }
        next.count += 1
        return next
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(i: Int) -> ItemAttribute {
        let word = i < 8 ? w0 >> UInt64(i * 8) : w1 >> UInt64((i - 8) * 8)
        // Every byte below `count` was an attribute's raw value.
        return ItemAttribute(rawValue: UInt8(truncatingIfNeeded: word)).unsafelyUnwrapped
    }
}
