import Security

func read() -> OSStatus {
    var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
    query[kSecAttrAccessGroup as String] = "SKMME9E2Y8.com.example.Notes.shared"
    return SecItemCopyMatching(query as CFDictionary, nil)
}
