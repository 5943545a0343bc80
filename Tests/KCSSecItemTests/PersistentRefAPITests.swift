import Foundation
import KCSSecItem
import KeychainEngine
import Testing

/// kSecReturnPersistentRef and kSecValuePersistentRef through the SecItem API,
/// and an item stored without data (docs/semantics-notes.md).
@Suite("Persistent references and empty data through the SecItem API")
struct PersistentRefAPITests {
    @Test("a reference has SecItem.m's layout: table name, then a row ID (iOS 14) or a UUID (iOS 15)")
    func layout() throws {
        for (platform, length) in [("ios 14", 12), ("ios 15", 20)] {
            let one = standardWorld(platform: platform).client("One")
            var result: CFTypeRef?
            #expect(one.add(password([kSecReturnPersistentRef: true]), &result) == errSecSuccess)
            let ref = try #require(result as? Data)
            #expect(ref.count == length)
            #expect(Array(ref.prefix(4)) == Array("genp".utf8))
        }
    }

    @Test("find, update and delete by kSecValuePersistentRef; a stranger finds nothing; garbage is errSecParam")
    func useByReference() throws {
        let world = standardWorld()
        let one = world.client("One")
        var result: CFTypeRef?
        #expect(one.add(password([kSecValueData: Data("s3cret".utf8), kSecReturnPersistentRef: true]), &result) == errSecSuccess)
        let ref = try #require(result as? Data)
        let (status, data) = one.find([kSecValuePersistentRef: ref, kSecReturnData: true])
        #expect(status == errSecSuccess)
        #expect(data as? Data == Data("s3cret".utf8))
        #expect(world.client("Other").find([kSecValuePersistentRef: ref]).0 == errSecItemNotFound)
        #expect(one.find([kSecValuePersistentRef: Data("nonsense".utf8)]).0 == errSecParam)
        #expect(one.find([kSecValuePersistentRef: "a string"]).0 == errSecParam)
        #expect(one.update([kSecValuePersistentRef: ref], [kSecValueData: Data("new".utf8)]) == errSecSuccess)
        #expect(one.delete([kSecValuePersistentRef: ref]) == errSecSuccess)
        #expect(one.find([kSecValuePersistentRef: ref]).0 == errSecItemNotFound)
    }

    /// SecItem.m SecItemCopyMatching asks securityd for the attributes with
    /// data alone, then hands back the dictionary's kSecValueData: none.
    @Test("an item without data: no result for data alone, no kSecValueData in a dictionary")
    func noData() throws {
        let one = standardWorld().client("One")
        #expect(one.add(password()) == errSecSuccess)
        let alone = one.find(password([kSecReturnData: true]))
        #expect(alone.0 == errSecSuccess)
        #expect(alone.1 == nil)
        let dictionary = try #require(one.find(password([kSecReturnData: true, kSecReturnAttributes: true])).1 as? [String: Any])
        #expect(dictionary[kSecValueData] == nil)
        #expect(dictionary[kSecAttrAccount] as? String == "alice")
    }
}
