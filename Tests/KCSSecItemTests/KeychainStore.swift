// A keychain wrapper written the way app code is: it calls the Security
// framework's functions with dictionaries keyed by the kSec constants. The
// only line that differs from the Apple-platform version is the import, so
// the same file runs its unit tests on Linux against the kcs model.
#if canImport(Security)
import Security
#else
import KCSSecItem
#endif
import Foundation

/// Stores secrets as generic passwords of one service, optionally in a shared access group.
struct KeychainStore {
    enum KeychainError: Error, Equatable {
        case unhandled(OSStatus)
        case unexpectedData
    }

    let service: String
    /// The shared keychain group, written with its team prefix; nil for the app's default.
    let accessGroup: String?

    init(service: String, accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    private func baseQuery(for account: String) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    /// Saves `data` for `account`, replacing what was there.
    func save(_ data: Data, for account: String) throws {
        let query = baseQuery(for: account)
        let changes: [String: Any] = [kSecValueData as String: data]
        var status = SecItemUpdate(query as CFDictionary, changes as CFDictionary)
        if status == errSecItemNotFound {
            var attributes = query
            attributes[kSecValueData as String] = data
            attributes[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
            status = SecItemAdd(attributes as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw KeychainError.unhandled(status) }
    }

    /// The data saved for `account`, or nil if there is none.
    func read(for account: String) throws -> Data? {
        var query = baseQuery(for: account)
        query[kSecReturnData as String] = kCFBooleanTrue
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw KeychainError.unhandled(status) }
        guard let data = item as? Data else { throw KeychainError.unexpectedData }
        return data
    }

    /// Removes what was saved for `account`; nothing saved is not an error.
    func delete(for account: String) throws {
        let status = SecItemDelete(baseQuery(for: account) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw KeychainError.unhandled(status)
        }
    }

    /// Every account saved under the service.
    func accounts() throws -> [String] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecReturnAttributes as String: true,
            kSecMatchLimit as String: kSecMatchLimitAll,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        var items: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &items)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess else { throw KeychainError.unhandled(status) }
        guard let list = items as? [[String: Any]] else { throw KeychainError.unexpectedData }
        return list.compactMap { $0[kSecAttrAccount as String] as? String }
    }
}
