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

        /// The flags in the order `SecAccessControlCreateWithFlags` tests
        /// their bits and builds their constraints (SecAccessControl.m
        /// lines 184-219).
        static let creationOrder: [Flag] = [.userPresence, .devicePasscode, .biometryAny, .biometryCurrentSet,
                                            .applicationPassword]

        var bit: UInt8 { 1 << UInt8(Self.creationOrder.firstIndex(of: self)!) }
    }

    /// How several flags combine: the one place `or` and `and` are spelt
    /// (the lowering, the vocabulary and completion read them here).
    public enum Combinator: String, Sendable, Hashable, CaseIterable {
        case or, and
    }

    /// The accessibility the object protects with; when-unlocked when not named.
    public var protection: Accessibility
    /// Whether the protection was written explicitly (for messages only).
    public var protectionIsExplicit: Bool
    /// The flags as `SecAccessControlCreateFlags` holds them, a bit each:
    /// a flag written twice is one constraint, and the order they were
    /// written in does not count (review 22a, R3).
    private var bits: UInt8
    /// The flags, in ``Flag/creationOrder``.
    public var flags: [Flag] {
        get { Flag.creationOrder.filter { bits & $0.bit != 0 } }
        set { bits = newValue.reduce(0) { $0 | $1.bit } }
    }
    /// The combinator given (kSecAccessControlOr or kSecAccessControlAnd);
    /// nil for none, which requires every constraint (k = n,
    /// SecAccessControl.m lines 222-224) and is the one form user presence
    /// with the application password takes (lines 179-181: or/and beside
    /// user presence is refused). Kept as given, so it is printed and
    /// exported as written (review 22a, R2).
    public var combinator: Combinator?

    public init(protection: Accessibility? = nil, flags: [Flag], combinator: Combinator? = nil) {
        self.protection = protection ?? .whenUnlocked
        self.protectionIsExplicit = protection != nil
        self.bits = flags.reduce(0) { $0 | $1.bit }
        self.combinator = combinator
    }

    /// Equal when they protect alike; how the protection was written does not count.
    public static func == (a: AccessControl, b: AccessControl) -> Bool {
        a.protection == b.protection && a.bits == b.bits && (a.requiresEveryConstraint == b.requiresEveryConstraint)
    }

    public func hash(into h: inout Hasher) {
        h.combine(protection)
        h.combine(bits)
    }

    /// Whether using an item protected by this object needs a prompt.
    public var requiresAuthentication: Bool { bits != 0 }

    /// The flags that are constraints: all but the application password,
    /// which adds none and only requires the password on top
    /// (`SecAccessControlCreateWithFlags` sets `kAKSKeyAclParamRequirePasscode`,
    /// SecAccessControl.m line 219, `SecAccessControlSetRequirePassword`
    /// lines 451-454; the constraints array, lines 187-215, never holds it).
    public var constraintFlags: [Flag] { flags.filter { $0 != .applicationPassword } }

    /// Whether every constraint is required: `and`, or fewer than two
    /// constraints, where `or` has nothing to choose between (the k-of-n
    /// is built only for two or more, SecAccessControl.m lines 222-249).
    public var requiresEveryConstraint: Bool { combinator != .or || constraintFlags.count < 2 }

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

    /// As a script writes it (`kcs` reads it back): the combinator between
    /// the flags only when one was given.
    public var description: String {
        var parts = [protection.rawValue]
        for (i, f) in flags.enumerated() {
            if i > 0, let combinator { parts.append(combinator.rawValue) }
            parts.append(f.rawValue)
        }
        return "[" + parts.joined(separator: ", ") + "]"
    }
}
