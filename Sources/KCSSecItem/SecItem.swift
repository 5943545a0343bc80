import KeychainEngine

// The four SecItem functions with Security.framework's shapes. They act as
// the client bound with `SecItemClient.run`; with none bound there is no
// keychain, and every call returns errSecNotAvailable (-25291).

/// Adds an item (`SecItemAdd`) as the bound app; `result` receives what the
/// return keys ask for, or nil.
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    guard let client = SecItemClient.current else { result?.pointee = nil; return errSecNotAvailable }
    return client.add(attributes, result)
}

/// Finds items (`SecItemCopyMatching`) as the bound app: one value for a
/// match limit of one, an array for ``kSecMatchLimitAll`` or a number.
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    guard let client = SecItemClient.current else { result?.pointee = nil; return errSecNotAvailable }
    return client.copyMatching(query, result)
}

/// Changes the items a query matches (`SecItemUpdate`) as the bound app.
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    guard let client = SecItemClient.current else { return errSecNotAvailable }
    return client.update(query, attributesToUpdate)
}

/// Deletes the items a query matches (`SecItemDelete`) as the bound app.
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    guard let client = SecItemClient.current else { return errSecNotAvailable }
    return client.delete(query)
}

/// The status's constant name and number, such as
/// `errSecItemNotFound (-25300)` (`SecCopyErrorMessageString`); nil for a
/// status the model does not know.
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> String? {
    KeychainStatus(code: status)?.description
}
