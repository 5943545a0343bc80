import Foundation
import KCSSecItem
import Testing

/// What a column keeps of a value's type (conformance audit 15, F1 and F2):
/// securityd binds a CFString as TEXT and a CFData as a BLOB (SecDb.c lines
/// 1575-1583), `copyBlob` keeps a number (SecDbItem.c lines 108-119) and
/// `copyNumber` keeps a string that is no number (lines 139-147); SQLite
/// never equates values of different kinds.
@Suite("Value types")
struct ValueTypeTests {
    /// KeychainAPITests.m `testServerUsingDataType` (lines 177-208) and the
    /// audit's sketch: a Blob column keeps text and bytes apart.
    @Test("Blob attributes keep their CF type (audit 15, F1)")
    func blobTypes() {
        let one = standardWorld().client("One")
        #expect(one.add([kSecClass: kSecClassInternetPassword, kSecAttrLabel: "testentry",
                         kSecAttrServer: Data("string".utf8)]) == errSecSuccess)
        let (s, r) = one.find([kSecClass: kSecClassInternetPassword, kSecAttrLabel: "testentry",
                               kSecReturnAttributes: true])
        #expect(s == errSecSuccess)
        #expect((r as? [String: Any])?[kSecAttrServer] as? Data == Data("string".utf8))
        // Stored as Data, queried as String: SQLite text never equals a blob.
        #expect(one.find([kSecClass: kSecClassInternetPassword, kSecAttrServer: "string"]).0 == errSecItemNotFound)
        // A key tagged with Data, looked up with a String tag.
        #expect(one.add([kSecClass: kSecClassKey, kSecAttrApplicationTag: Data("tag".utf8)]) == errSecSuccess)
        #expect(one.find([kSecClass: kSecClassKey, kSecAttrApplicationTag: "tag"]).0 == errSecItemNotFound)
        #expect(one.find([kSecClass: kSecClassKey, kSecAttrApplicationTag: Data("tag".utf8)]).0 == errSecSuccess)
        // Same bytes, other type: another row (UNIQUE sees text != blob).
        #expect(one.add(password(account: "acct", [kSecAttrService: "svc"])) == errSecSuccess)
        #expect(one.add(password(account: "x", [kSecAttrAccount: Data("acct".utf8), kSecAttrService: "svc"]))
                == errSecSuccess)
        let (all, list) = one.find([kSecClass: kSecClassGenericPassword, kSecAttrService: "svc",
                                    kSecMatchLimit: kSecMatchLimitAll, kSecReturnAttributes: true])
        #expect(all == errSecSuccess)
        let accounts = (list as? [[String: Any]])?.map { $0[kSecAttrAccount] } ?? []
        #expect(accounts.count == 2 && accounts.contains { $0 as? String == "acct" }
                && accounts.contains { $0 as? Data == Data("acct".utf8) })
        // A delete by the String leaves the Data row.
        #expect(one.delete(password(account: "acct", [kSecAttrService: "svc"])) == errSecSuccess)
        #expect(one.find(password(account: "x", [kSecAttrAccount: Data("acct".utf8), kSecAttrService: "svc"])).0
                == errSecSuccess)
    }

    /// Results carry the type the value was given in: a generic password's
    /// generic attribute added as a String comes back a String.
    @Test("a returned Blob attribute has the type it was added with", arguments: [true, false])
    func returnedTypes(asData: Bool) {
        let one = standardWorld().client("One")
        let generic: Any = asData ? Data("g".utf8) : "g"
        #expect(one.add(password([kSecAttrGeneric: generic, kSecAttrLabel: generic])) == errSecSuccess)
        let attributes = one.find(password([kSecReturnAttributes: true])).1 as? [String: Any]
        for key in [kSecAttrGeneric, kSecAttrLabel] {
            if asData { #expect(attributes?[key] as? Data == Data("g".utf8), "\(key)") }
            else { #expect(attributes?[key] as? String == "g", "\(key)") }
        }
        // The account and service were Strings.
        #expect(attributes?[kSecAttrAccount] as? String == "alice")
    }

    /// Bytes that are no UTF-8 are kept and given back exactly.
    @Test("bytes that are no UTF-8 in a Blob column")
    func rawBytes() {
        let one = standardWorld().client("One")
        let tag = Data([0xFF, 0x00, 0xFE])
        #expect(one.add([kSecClass: kSecClassKey, kSecAttrApplicationTag: tag]) == errSecSuccess)
        let (s, r) = one.find([kSecClass: kSecClassKey, kSecAttrApplicationTag: tag, kSecReturnAttributes: true])
        #expect(s == errSecSuccess)
        #expect((r as? [String: Any])?[kSecAttrApplicationTag] as? Data == tag)
    }

    /// SecDb.c lines 1578-1582: an empty CFData is bound as the text '', the
    /// default `query_pre_add` gives an absent Blob column (SecItemDb.c line
    /// 1267): empty data and no account are one key. An absent account
    /// comes back as ""; so does empty data in kcs, where a device gives
    /// empty data (a gap kept for the cost of every comparison:
    /// semantics-notes.md, "A value's type").
    @Test("empty data is the empty text")
    func emptyData() {
        let one = standardWorld().client("One")
        #expect(one.add([kSecClass: kSecClassGenericPassword, kSecAttrService: "s", kSecAttrAccount: Data()]) == errSecSuccess)
        #expect(one.add([kSecClass: kSecClassGenericPassword, kSecAttrService: "s"]) == errSecDuplicateItem)
        #expect(one.add([kSecClass: kSecClassGenericPassword, kSecAttrService: "s", kSecAttrAccount: ""]) == errSecDuplicateItem)
        let found = one.find([kSecClass: kSecClassGenericPassword, kSecAttrService: "s", kSecAttrAccount: "",
                              kSecReturnAttributes: true]).1 as? [String: Any]
        #expect(found?[kSecAttrAccount] as? String == "")
        #expect(one.add([kSecClass: kSecClassGenericPassword, kSecAttrService: "t", kSecReturnAttributes: true]) == errSecSuccess)
        let absent = one.find([kSecClass: kSecClassGenericPassword, kSecAttrService: "t",
                               kSecAttrAccount: Data(), kSecReturnAttributes: true]).1 as? [String: Any]
        #expect(absent?[kSecAttrAccount] as? String == "")
    }

    /// `copyData` (SecDbItem.c lines 74-87) turns a string into its bytes: in
    /// a Data column a String and a Data are one value, returned as Data.
    @Test("a Data column takes a String as its bytes")
    func dataColumns() {
        let one = standardWorld().client("One")
        #expect(one.add([kSecClass: kSecClassKey, kSecAttrApplicationLabel: "label"]) == errSecSuccess)
        #expect(one.add([kSecClass: kSecClassKey, kSecAttrApplicationLabel: Data("label".utf8)]) == errSecDuplicateItem)
        let (s, r) = one.find([kSecClass: kSecClassKey, kSecAttrApplicationLabel: Data("label".utf8),
                               kSecReturnAttributes: true])
        #expect(s == errSecSuccess)
        #expect((r as? [String: Any])?[kSecAttrApplicationLabel] as? Data == Data("label".utf8))
        // A number is its four bytes as an SInt32 (little-endian).
        #expect(one.add([kSecClass: kSecClassKey, kSecAttrApplicationLabel: 7]) == errSecSuccess)
        #expect(one.find([kSecClass: kSecClassKey, kSecAttrApplicationLabel: Data([7, 0, 0, 0])]).0 == errSecSuccess)
    }

    /// The audit's sketch: a number in a Blob column, a string in a Number
    /// column.
    @Test("numbers in Blob and Number columns (audit 15, F2)")
    func numbersInBlobs() {
        let one = standardWorld().client("One")
        // copyBlob keeps a CFNumber (SecDbItem.c lines 108-119).
        #expect(one.add(password([kSecAttrAccount: 42])) == errSecSuccess)
        #expect(one.find(password([kSecAttrAccount: 42])).0 == errSecSuccess)
        #expect(one.find(password([kSecAttrAccount: "42"])).0 == errSecItemNotFound)  // integer != text
        #expect(one.find(password([kSecAttrAccount: Data("42".utf8)])).0 == errSecItemNotFound)
        #expect(one.add(password([kSecAttrAccount: "42"])) == errSecSuccess)
        let attributes = one.find(password([kSecAttrAccount: 42, kSecReturnAttributes: true])).1 as? [String: Any]
        #expect(attributes?[kSecAttrAccount] as? Int == 42)
        // copyNumber keeps a string that is no integer (SecDbItem.c lines 139-147).
        #expect(one.add([kSecClass: kSecClassInternetPassword, kSecAttrServer: "example.com",
                         kSecAttrProtocol: "https"]) == errSecSuccess)
    }

    /// A string kept in a Number column, or one that names no constant of
    /// an enumerated attribute, is its own value: kSecAttrProtocolHTTPS
    /// ("htps" on a device) is not "https".
    @Test("a string that is no number, and no constant, is kept as given")
    func verbatimStrings() {
        let one = standardWorld().client("One")
        let server: [String: Any] = [kSecClass: kSecClassInternetPassword, kSecAttrServer: "example.com"]
        func with(_ extra: [String: Any]) -> [String: Any] { server.merging(extra) { _, b in b } }
        #expect(one.add(with([kSecAttrProtocol: kSecAttrProtocolHTTPS])) == errSecSuccess)
        #expect(one.add(with([kSecAttrProtocol: "https"])) == errSecSuccess)
        #expect(one.add(with([kSecAttrProtocol: "https"])) == errSecDuplicateItem)
        let found = one.find(with([kSecAttrProtocol: "https", kSecReturnAttributes: true])).1 as? [String: Any]
        #expect(found?[kSecAttrProtocol] as? String == "https")
        #expect(one.delete(with([kSecAttrProtocol: "https"])) == errSecSuccess)
        #expect(one.find(with([kSecAttrProtocol: kSecAttrProtocolHTTPS])).0 == errSecSuccess)
        // A port that is no number; a custom authentication type (a Blob column).
        #expect(one.add(with([kSecAttrPort: "eighty", kSecAttrAuthenticationType: "custom"])) == errSecSuccess)
        #expect(one.find(with([kSecAttrPort: "eighty"])).0 == errSecSuccess)
        #expect(one.find(with([kSecAttrAuthenticationType: "custom"])).0 == errSecSuccess)
        #expect(one.find(with([kSecAttrAuthenticationType: Data("custom".utf8)])).0 == errSecItemNotFound)
        // Text SQLite's INTEGER affinity reads as a number: kcs refuses it.
        #expect(one.add(with([kSecAttrPort: "0443"])) == errSecParam)
        #expect(one.add(with([kSecAttrPort: " 1.5"])) == errSecParam)
    }

    /// `copyNumber` stores kSecAttrKeyTypeRSA ("42") as 42 and
    /// kSecAttrKeyClassPrivate ("1") as 1 (SecItemConstants.c lines
    /// 239-244, OSX/sec/Security): the number finds the constant's key.
    @Test("a number names a key class or key type")
    func keyNumbers() {
        let one = standardWorld().client("One")
        #expect(one.add([kSecClass: kSecClassKey, kSecAttrApplicationTag: "t", kSecAttrKeyType: kSecAttrKeyTypeRSA,
                         kSecAttrKeyClass: kSecAttrKeyClassPrivate]) == errSecSuccess)
        #expect(one.find([kSecClass: kSecClassKey, kSecAttrKeyType: 42, kSecAttrKeyClass: 1]).0 == errSecSuccess)
        #expect(one.add([kSecClass: kSecClassKey, kSecAttrApplicationTag: "t", kSecAttrKeyType: 42,
                         kSecAttrKeyClass: 1]) == errSecDuplicateItem)
        #expect(one.find([kSecClass: kSecClassKey, kSecAttrKeyType: 73]).0 == errSecItemNotFound)
        #expect(one.find([kSecClass: kSecClassKey, kSecAttrKeyType: 5]).0 == errSecItemNotFound)
    }

    /// A key type given as a string that is no constant ("rsa" is not
    /// kSecAttrKeyTypeRSA, which is "42") is a type the client cannot make
    /// a key of (SecKey.m lines 1480, 1555): no reference.
    @Test("a key type that is no constant makes no reference")
    func verbatimKeyType() {
        let one = standardWorld().client("One")
        #expect(one.add([kSecClass: kSecClassKey, kSecAttrApplicationTag: "a", kSecAttrKeyClass: kSecAttrKeyClassPrivate,
                         kSecAttrKeyType: "rsa", kSecValueData: Data("k".utf8)]) == errSecSuccess)
        #expect(one.add([kSecClass: kSecClassKey, kSecAttrApplicationTag: "b", kSecAttrKeyClass: kSecAttrKeyClassPrivate,
                         kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecValueData: Data("k".utf8)]) == errSecSuccess)
        let (s, none) = one.find([kSecClass: kSecClassKey, kSecAttrApplicationTag: "a", kSecReturnRef: true])
        #expect(s == errSecSuccess && none == nil)
        #expect(one.find([kSecClass: kSecClassKey, kSecAttrApplicationTag: "b", kSecReturnRef: true]).1 is SecItemReference)
    }

    /// An update's changes keep their type too: the account changed to
    /// bytes is no longer found by its text.
    @Test("an update stores the type it is given")
    func updateTypes() {
        let one = standardWorld().client("One")
        #expect(one.add(password()) == errSecSuccess)
        #expect(one.update(password(), [kSecAttrAccount: Data("alice".utf8)]) == errSecSuccess)
        #expect(one.find(password()).0 == errSecItemNotFound)
        #expect(one.find(password([kSecAttrAccount: Data("alice".utf8)])).0 == errSecSuccess)
        #expect(one.add(password()) == errSecSuccess)
    }

    /// The Mac's file-based keychain stores attributes as bytes (SecItem.cpp
    /// lines 1396-1450): there a String and a Data are one value, and kcs
    /// refuses a number, as before.
    @Test("the Mac's file keychain compares bytes")
    func fileKeychainBytes() {
        let one = standardWorld(platform: "macos 15").client("One")
        #expect(one.add(password()) == errSecSuccess)
        #expect(one.add(password([kSecAttrAccount: Data("alice".utf8)])) == errSecDuplicateItem)
        #expect(one.find(password([kSecAttrAccount: Data("alice".utf8)])).0 == errSecSuccess)
        #expect(one.add(password([kSecAttrAccount: 42])) == errSecParam)
        // The data-protection keychain on the same Mac keeps the types.
        let dp: [String: Any] = [kSecUseDataProtectionKeychain: true]
        #expect(one.add(password(dp)) == errSecSuccess)
        #expect(one.add(password(dp.merging([kSecAttrAccount: Data("alice".utf8)]) { _, b in b })) == errSecSuccess)
    }
}
