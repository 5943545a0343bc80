#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Stand-ins for the Core Foundation names that keychain wrapper code uses,
// so code written against Security.framework compiles on Linux nearly
// unchanged (`query as CFDictionary`, `var result: CFTypeRef?`). They are
// plain Swift types: a dictionary keyed by constant names, `Any` values.
// On Apple platforms import Security instead of this module.

/// A status code returned by the SecItem functions (`errSecSuccess` is 0).
public typealias OSStatus = Int32

/// Any value a SecItem function accepts or returns.
public typealias CFTypeRef = Any

/// A query or attribute dictionary, keyed by constant names such as ``kSecClass``.
public typealias CFDictionary = [String: Any]

/// A string; the `kSec…` constants are strings holding their own names.
public typealias CFString = String

/// Bytes, as the framework's `CFData` bridges to `Data`.
public typealias CFData = Data

/// An array result (`kSecMatchLimitAll`).
public typealias CFArray = [Any]

/// `kCFBooleanTrue`: write `true` or this in a dictionary.
public let kCFBooleanTrue = true

/// `kCFBooleanFalse`.
public let kCFBooleanFalse = false

/// An allocator argument; only `nil` (the default allocator) exists here.
public enum CFAllocator: Sendable {}

/// An error reported through an `Unmanaged<CFError>?` out-parameter.
public final class CFError: Error, Sendable, CustomStringConvertible {
    /// The status the error stands for.
    public let code: OSStatus
    /// What went wrong.
    public let message: String

    /// Creates an error with a status and a message.
    public init(code: OSStatus, message: String) {
        self.code = code
        self.message = message
    }

    /// The message with its status.
    public var description: String { "\(message) (\(code))" }
}
