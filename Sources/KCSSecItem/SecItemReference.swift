import KeychainEngine

/// What ``kSecReturnRef`` returns: a reference to a stored item (on Apple
/// platforms a `SecKeychainItem`, `SecKey`, `SecCertificate` or `SecIdentity`).
public struct SecItemReference: Sendable, Hashable {
    /// The item's class; ``ItemClass/identity`` for a certificate with its key.
    public let itemClass: ItemClass
    /// The access group holding the item.
    public let accessGroup: String
    /// The same bytes ``kSecReturnPersistentRef`` returns for the item.
    public let persistentReference: [UInt8]
}
