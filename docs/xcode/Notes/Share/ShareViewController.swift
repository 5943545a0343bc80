import Security

func read() -> OSStatus {
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrAccessGroup as String: "com.example.Notes.shared",
    ]
    return SecItemCopyMatching(query as CFDictionary, nil)
}
