import KeychainEngine

/// The flags of ``SecAccessControlCreateWithFlags(_:_:_:_:)``: which
/// authentication an item's use requires, and how several combine.
public struct SecAccessControlCreateFlags: OptionSet, Sendable, Hashable {
    /// The raw bits, as in Security's `SecAccessControlCreateFlags`.
    public let rawValue: UInt

    /// Creates flags from raw bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Biometry or the device passcode.
    public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
    /// Any enrolled biometry, surviving changes to the enrolled set.
    public static let biometryAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    /// The biometry enrolled now; a change to the enrolled set makes the item unusable.
    public static let biometryCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    /// The device passcode.
    public static let devicePasscode = SecAccessControlCreateFlags(rawValue: 1 << 4)
    /// Any one of the constraints suffices.
    public static let or = SecAccessControlCreateFlags(rawValue: 1 << 14)
    /// Every constraint is required.
    public static let and = SecAccessControlCreateFlags(rawValue: 1 << 15)
    /// Private-key usage (Secure Enclave keys); not modelled: creation fails.
    public static let privateKeyUsage = SecAccessControlCreateFlags(rawValue: 1 << 30)
    /// An application-supplied password.
    public static let applicationPassword = SecAccessControlCreateFlags(rawValue: 1 << 31)

    /// Each modelled constraint with the engine's flag, in the engine's order.
    static let constraints: [(SecAccessControlCreateFlags, AccessControl.Flag)] = [
        (.userPresence, .userPresence), (.biometryAny, .biometryAny),
        (.biometryCurrentSet, .biometryCurrentSet), (.devicePasscode, .devicePasscode),
        (.applicationPassword, .applicationPassword),
    ]
}

/// An access-control object: the value of ``kSecAttrAccessControl``.
public final class SecAccessControl: Sendable, Hashable, CustomStringConvertible {
    /// The engine's form of the object.
    public let accessControl: AccessControl

    /// Wraps an engine access-control value.
    public init(_ accessControl: AccessControl) {
        self.accessControl = accessControl
    }

    /// Equal when they protect alike.
    public static func == (a: SecAccessControl, b: SecAccessControl) -> Bool {
        a.accessControl == b.accessControl
    }

    /// Hashes the protection and flags.
    public func hash(into hasher: inout Hasher) { hasher.combine(accessControl) }

    /// The engine's rendering, such as `[when-unlocked, user-presence]`.
    public var description: String { accessControl.description }
}

/// Creates an access-control object, as `SecAccessControlCreateWithFlags` does.
///
/// `protection` is one of the `kSecAttrAccessible…` constants. Returns nil
/// (and sets `error` when given) for an unknown protection, for both `.or`
/// and `.and`, or for `.privateKeyUsage`, which the model does not cover.
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? {
    func fail(_ message: String) -> SecAccessControl? {
        error?.pointee = Unmanaged.passRetained(CFError(code: errSecParam, message: message))
        return nil
    }
    guard let name = protection as? String,
          let accessibility = Accessibility(constantOrCode: name) else {
        return fail("protection must be one of the kSecAttrAccessible… constants")
    }
    if flags.contains(.or) && flags.contains(.and) { return fail("both .or and .and") }
    if flags.contains(.privateKeyUsage) { return fail("privateKeyUsage is not modelled") }
    let engineFlags = SecAccessControlCreateFlags.constraints.filter { flags.contains($0.0) }.map(\.1)
    if let why = AccessControl.creationRefusal(engineFlags, withCombinator: flags.contains(.or) || flags.contains(.and)) {
        return fail(why)
    }
    // Several constraints without .or are all required: SecAccessControl.m
    // builds a k-of-n constraint with k = 1 for .or and k = n otherwise.
    return SecAccessControl(AccessControl(protection: accessibility, flags: engineFlags,
                                          combinator: flags.contains(.or) ? .or : flags.contains(.and) ? .and : nil))
}
