/// A keychain item class (`kSecClass`).
public enum ItemClass: String, Sendable, Hashable, CaseIterable {
    case genericPassword = "generic-password"
    case internetPassword = "internet-password"
    case certificate
    case key
    /// Not stored: an identity is a certificate together with its private key.
    case identity

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
    public var primaryKeyAttributes: [ItemAttribute] {
        // Stored lists: every call reads them, and a literal here would be
        // a new array each time.
        switch self {
        case .genericPassword: Self.genericPasswordKey
        case .internetPassword: Self.internetPasswordKey
        case .certificate: Self.certificateKey
        case .key: Self.keyKey
        case .identity: []
        }
    }

    private static let genericPasswordKey: [ItemAttribute] = [.account, .service]
    private static let internetPasswordKey: [ItemAttribute] =
        [.account, .securityDomain, .server, .protocol, .authenticationType, .port, .path]
    private static let certificateKey: [ItemAttribute] = [.certificateType, .issuer, .serialNumber]
    private static let keyKey: [ItemAttribute] =
        [.keyClass, .applicationLabel, .applicationTag, .creator, .keyType, .keySizeInBits,
         .effectiveKeySize, .startDate, .endDate]

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
