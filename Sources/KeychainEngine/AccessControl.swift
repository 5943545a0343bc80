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
        a.protection == b.protection && a.flags == b.flags && (a.requiresEveryConstraint == b.requiresEveryConstraint)
    }

    public func hash(into h: inout Hasher) {
        h.combine(protection)
        h.combine(flags)
    }

    /// Whether using an item protected by this object needs a prompt.
    public var requiresAuthentication: Bool { !flags.isEmpty }

    /// The flags that are constraints: all but the application password,
    /// which adds none and only requires the password on top
    /// (`SecAccessControlCreateWithFlags` sets `kAKSKeyAclParamRequirePasscode`,
    /// SecAccessControl.m line 219, `SecAccessControlSetRequirePassword`
    /// lines 451-454; the constraints array, lines 187-215, never holds it).
    public var constraintFlags: [Flag] { flags.filter { $0 != .applicationPassword } }

    /// Whether every constraint is required: `and`, or fewer than two
    /// constraints, where `or` has nothing to choose between (the k-of-n
    /// is built only for two or more, SecAccessControl.m lines 222-249).
    public var requiresEveryConstraint: Bool { combinator == .and || constraintFlags.count < 2 }

    /// Whether the object is satisfied when `holds` tells which flags are:
    /// the constraints as combined, and the application password beside
    /// them whatever the combinator (audit 25, F4).
    public func isSatisfied(_ holds: (Flag) -> Bool) -> Bool {
        let constraints = constraintFlags
        let met = requiresEveryConstraint ? constraints.allSatisfy(holds) : constraints.contains(where: holds)
        return met && (!flags.contains(.applicationPassword) || holds(.applicationPassword))
    }

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
