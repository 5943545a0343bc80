import KeychainEngine

/// SecItem-shaped functions over the keychain model (issue 6: not built yet).
public enum SecItemModel {}
