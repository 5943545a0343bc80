import Security

let sharedGroup = "SKMME9E2Y8.com.example.Notes.shared"

func save(_ data: Data) -> OSStatus {
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrAccessGroup as String: sharedGroup,
        kSecValueData as String: data,
    ]
    return SecItemAdd(query as CFDictionary, nil)
}
