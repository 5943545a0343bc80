/// An access-control object (`SecAccessControlCreateWithFlags`): a protection
/// (an accessibility) and the authentication its use requires.
public struct AccessControl: Sendable, Hashable, CustomStringConvertible {
    /// One authentication constraint flag.
    public enum Flag: String, Sendable, Hashable, CaseIterable {
        case userPresence = "user-presence"
        case biometryAny = "biometry-any"
        case biometryCurrentSet = "biometry-current-set"
        case devicePasscode = "device-passcode"
        case applicationPassword = "application-password"

        public var constantName: String {
            switch self {
            case .userPresence: "kSecAccessControlUserPresence"
            case .biometryAny: "kSecAccessControlBiometryAny"
            case .biometryCurrentSet: "kSecAccessControlBiometryCurrentSet"
            case .devicePasscode: "kSecAccessControlDevicePasscode"
            case .applicationPassword: "kSecAccessControlApplicationPassword"
            }
        }
    }

    /// How several flags combine.
    public enum Combinator: String, Sendable, Hashable {
        case or, and
    }

    /// The accessibility the object protects with; when-unlocked when not named.
    public var protection: Accessibility
    /// Whether the protection was written explicitly (for messages only).
    public var protectionIsExplicit: Bool
    public var flags: [Flag]
    public var combinator: Combinator

    public init(protection: Accessibility? = nil, flags: [Flag], combinator: Combinator = .or) {
        self.protection = protection ?? .whenUnlocked
        self.protectionIsExplicit = protection != nil
        self.flags = flags
        self.combinator = combinator
    }

    /// Equal when they protect alike; how the protection was written does not count.
    public static func == (a: AccessControl, b: AccessControl) -> Bool {
        a.protection == b.protection && a.flags == b.flags && (a.flags.count < 2 || a.combinator == b.combinator)
    }

    public func hash(into h: inout Hasher) {
        h.combine(protection)
        h.combine(flags)
    }

    /// Whether using an item protected by this object needs a prompt.
    public var requiresAuthentication: Bool { !flags.isEmpty }

    /// Why `SecAccessControlCreateWithFlags` refuses these flags, or nil: it
    /// then returns NULL with errSecParam, so no call can carry them
    /// (OSX/sec/Security/SecAccessControl.m, Security-61901.0.87.0.1;
    /// `si_77_SecAccessControl.c` line 115 asserts the second rule).
    /// `withCombinator`: kSecAccessControlOr or kSecAccessControlAnd is among
    /// the flags, which counts as a flag beside user presence. (Or with And
    /// is refused too; callers report that in their own words.)
    public static func creationRefusal(_ flags: [Flag], withCombinator: Bool) -> String? {
        if flags.contains(.biometryAny) && flags.contains(.biometryCurrentSet) {
            return "only one bio constraint can be set"
        }
        if flags.contains(.userPresence),
           withCombinator || flags.contains(where: { $0 != .userPresence && $0 != .applicationPassword }) {
            return "kSecAccessControlUserPresence can be combined only with kSecAccessControlApplicationPassword "
                + "and kSecAccessControlPrivateKeyUsage"
        }
        return nil
    }

    public var description: String {
        var parts = [protection.rawValue]
        for (i, f) in flags.enumerated() {
            if i > 0 { parts.append(combinator.rawValue) }
            parts.append(f.rawValue)
        }
        return "[" + parts.joined(separator: ", ") + "]"
    }
}
