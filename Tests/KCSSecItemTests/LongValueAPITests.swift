import Foundation
import KCSSecItem
import Testing

/// Values past 15 bytes are interned by the engine (``AttributeText``): a
/// script's value and the API's String or Data with the same bytes and
/// type are one value, and results give back what went in.
@Suite("Long values through the API")
struct LongValueAPITests {
    static let service = "a.service.past.the.inline.limit"
    static let account = "Grüße, an account past the limit"
    static let secret = String(repeating: "s3cret-", count: 9)

    @Test("a script's long values are found by the API's Strings and come back as they went in")
    func scriptThenAPI() {
        let world = makeWorld("""
            team SKMME9E2Y8
            app com.example.One
            as One add generic-password service="\(Self.service)" account="\(Self.account)" data="\(Self.secret)"
            """)
        let one = world.client("One")
        let (s, r) = one.find(password(service: Self.service, account: Self.account,
                                       [kSecReturnAttributes: true, kSecReturnData: true]))
        #expect(s == errSecSuccess)
        let found = r as? [String: Any]
        #expect(found?[kSecAttrAccount] as? String == Self.account)
        #expect(found?[kSecAttrService] as? String == Self.service)
        #expect(found?[kSecValueData] as? Data == Data(Self.secret.utf8))
        // One byte more or less is another value; the same bytes as Data are another type.
        #expect(one.find(password(service: Self.service, account: Self.account + "!")).0 == errSecItemNotFound)
        #expect(one.find(password(service: Self.service, account: String(Self.account.dropLast()))).0 == errSecItemNotFound)
        #expect(one.find(password(service: Self.service, account: "x",
                                  [kSecAttrAccount: Data(Self.account.utf8)])).0 == errSecItemNotFound)
        #expect(one.add(password(service: Self.service, account: Self.account)) == errSecDuplicateItem)
    }

    @Test("long Data with bytes no String has is stored, matched and returned as those bytes")
    func oddBytes() {
        let one = standardWorld().client("One")
        let tag = Data([0xFF, 0xFE, 0x00, 0xC3] + Array(repeating: 0x80, count: 20))
        #expect(one.add([kSecClass: kSecClassKey, kSecAttrApplicationTag: tag, kSecValueData: tag]) == errSecSuccess)
        let (s, r) = one.find([kSecClass: kSecClassKey, kSecAttrApplicationTag: tag,
                               kSecReturnAttributes: true, kSecReturnData: true])
        #expect(s == errSecSuccess)
        let found = r as? [String: Any]
        #expect(found?[kSecAttrApplicationTag] as? Data == tag)
        #expect(found?[kSecValueData] as? Data == tag)
        var other = tag
        other[other.count - 1] = 0x81
        #expect(one.find([kSecClass: kSecClassKey, kSecAttrApplicationTag: other]).0 == errSecItemNotFound)
    }

    @Test("15 bytes and 16 bytes sharing their first 15 are two accounts")
    func atTheLimit() {
        let one = standardWorld().client("One")
        #expect(one.add(password(account: "exactly15bytes!")) == errSecSuccess)
        #expect(one.add(password(account: "exactly15bytes!!")) == errSecSuccess)
        #expect(one.add(password(account: "exactly15bytes!!")) == errSecDuplicateItem)
        let (s, r) = one.find(password(account: "exactly15bytes!!", [kSecReturnAttributes: true]))
        #expect(s == errSecSuccess)
        #expect((r as? [String: Any])?[kSecAttrAccount] as? String == "exactly15bytes!!")
    }
}
