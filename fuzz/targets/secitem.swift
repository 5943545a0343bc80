// libFuzzer target `secitem`: KCSSecItem's dictionary API (SecItemAdd,
// SecItemCopyMatching, SecItemUpdate, SecItemDelete over the engine).
//
// The input is read as a program of calls (`SecItemProgram`): the first byte
// picks the platform of a world with six apps (an extension, an app clip,
// another team's app and an unsigned one among them), then each call picks an
// operation, a calling app and dictionaries of up to eight entries. Keys come
// from the framework's constants (and sometimes arbitrary bytes), values are
// mostly of the type the key takes and sometimes of another, so both the
// engine's checks and the dictionary reader's refusals are reached. Oracles:
// every status is one the model knows (and the world's last result says the
// same); a failed call returns no result; an add without return keys returns
// none; a find that succeeds with return keys returns one.
import Foundation
import KCSLanguage
import KCSSecItem
import KeychainEngine

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var program = SecItemProgram(bytes: fuzzBytes(data, size))
    program.run()
    return 0
}

/// The worlds calls run in: one per platform, declared in kcs.
let secItemWorlds: [World] = ["ios 18", "ios 12", "macos 14", "catalyst 17", "watchos 10"].map { platform in
    var session = Session()
    let report = session.run(file: SourceFile(name: "world.kcs", text: """
        platform \(platform)
        team SKMME9E2Y8
        app com.example.One
        app com.example.One.Widget as Widget kind=extension
        app com.example.One.Clip as Clip kind=app-clip
        app com.example.Two
        team ABCDE12345 as Other
        app com.other.App team=Other
        app com.example.Unsigned as Unsigned team=none
        group com.example.Shared One Two Clip
        group group.com.example.Suite One Widget Clip
        """))
    require(report.diagnostics.isEmpty, "the secitem world does not declare: \(report.diagnostics.map(\.message))")
    return session.world
}

struct SecItemProgram {
    var bytes: [UInt8]
    var at = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { at >= bytes.count }

    mutating func next() -> UInt8 {
        guard at < bytes.count else { return 0 }
        defer { at += 1 }
        return bytes[at]
    }

    mutating func pick<T>(_ choices: [T]) -> T { choices[Int(next()) % choices.count] }

    static let keys: [String] = [
        kSecClass, kSecAttrAccessGroup, kSecAttrSynchronizable, kSecAttrAccessible, kSecAttrAccessControl,
        kSecValueData, kSecValueRef, kSecValuePersistentRef, kSecReturnData, kSecReturnAttributes, kSecReturnRef,
        kSecReturnPersistentRef, kSecMatchLimit, kSecUseDataProtectionKeychain, kSecUseAuthenticationUI,
        kSecUseNoAuthenticationUI, kSecUseOperationPrompt, "kSecAttrCreationDate", "kSecMatchCaseInsensitive",
    ] + ItemAttribute.allCases.map(\.constantName)

    static let classes = ItemClass.allCases.map(\.constantName) + ["kSecClassBogus"]
    static let protections = Accessibility.allCases.map(\.constantName)
    static let groups = ["SKMME9E2Y8.com.example.Shared", "SKMME9E2Y8.com.example.One", "SKMME9E2Y8.com.example.Two",
                         "group.com.example.Suite", "ABCDE12345.com.other.App", "com.apple.token", "*", ""]
    static let strings = ["a", "b", "auth", "alice", "", "s3cret"]

    /// A short string from the input (bytes as UTF-8, repaired).
    mutating func rawString() -> String {
        let n = Int(next()) % 16
        var out: [UInt8] = []
        for _ in 0..<n { out.append(next()) }
        return String(decoding: out, as: UTF8.self)
    }

    /// A value of the type `key` takes, most of the time.
    mutating func value(for key: String) -> Any {
        let mode = next() % 8
        switch mode {
        case 5: return rawString()
        case 6: return Int(Int8(bitPattern: next()))
        case 7: return pick([Double(next()) / 3, [rawString()] as [Any], Data([next()]), Int64.max, UInt64.max, [String: Any]()] as [Any])
        default: break
        }
        switch key {
        case kSecClass: return pick(Self.classes)
        case kSecAttrAccessGroup: return pick(Self.groups)
        case kSecAttrSynchronizable: return pick([true, false, kSecAttrSynchronizableAny] as [Any])
        case kSecAttrAccessible: return pick(Self.protections)
        case kSecAttrAccessControl:
            let flags = SecAccessControlCreateFlags(rawValue: UInt(next()) | UInt(next() & 0xC0) << 8)
            return SecAccessControlCreateWithFlags(nil, pick(Self.protections), flags, nil) as Any
        case kSecValueData: return next() % 2 == 0 ? Data(pick(Self.strings).utf8) : pick(Self.strings) as Any
        case kSecReturnData, kSecReturnAttributes, kSecReturnRef, kSecReturnPersistentRef,
             kSecUseDataProtectionKeychain, kSecUseNoAuthenticationUI:
            return next() % 2 == 0
        case kSecMatchLimit: return pick([kSecMatchLimitOne, kSecMatchLimitAll, 1, 2, 0, -1] as [Any])
        case kSecUseAuthenticationUI:
            return pick([kSecUseAuthenticationUIAllow, kSecUseAuthenticationUIFail, kSecUseAuthenticationUISkip])
        default:
            guard let attribute = ItemAttribute.allCases.first(where: { $0.constantName == key }) else { return rawString() }
            switch attribute.valueKind {
            case .string: return pick(Self.strings)
            case .integer: return Int(next() % 4)
            // Dates a caller may pass, the odd ones too (NaN, infinite, past Int).
            case .date: return Date(timeIntervalSinceReferenceDate: pick([0, 1, 759_974_400.5, -1e12, 1e19, .nan, .infinity]))
            case .enumerated(let values): return pick(values.map(\.constant))
            }
        }
    }

    mutating func dictionary() -> [String: Any] {
        var d: [String: Any] = [:]
        // Most dictionaries name a class, as real calls do.
        if next() % 4 != 0 { d[kSecClass] = pick(Self.classes) }
        for _ in 0..<(Int(next()) % 8) {
            let key = next() < 0xF0 ? pick(Self.keys) : rawString()
            d[key] = value(for: key)
        }
        return d
    }

    mutating func run() {
        let world = SecItemWorld(pick(secItemWorlds))
        let apps = world.world.appHandles
        var calls = 0
        while !atEnd && calls < 64 {
            calls += 1
            let op = next() % 6
            let client = world.client(for: apps[Int(next()) % apps.count])
            let viaFreeFunctions = next() % 2 == 0
            var result: CFTypeRef?
            let status: OSStatus
            let query = dictionary()
            let returns = [kSecReturnData, kSecReturnAttributes, kSecReturnRef, kSecReturnPersistentRef]
                .contains { query[$0] as? Bool == true }
            switch op {
            case 0:
                status = viaFreeFunctions ? client.run { SecItemAdd(query, &result) } : client.add(query, &result)
                if status == errSecSuccess && !returns { require(result == nil, "an add without return keys returned \(result ?? "")") }
            case 1, 2:
                status = viaFreeFunctions ? client.run { SecItemCopyMatching(query, &result) } : client.copyMatching(query, &result)
                // Data alone gives nothing for items stored without data (SecItem.m
                // asks for the attributes too and hands back kSecValueData alone), and
                // a reference alone nothing for a password off the Mac
                // (Platform.makesReferences(to:)).
                if status == errSecSuccess && returns && result == nil {
                    let explained: Bool
                    switch world.lastResult?.reason {
                    case .storedWithoutData?, .noReference?: explained = true
                    default: explained = false
                    }
                    require(explained, "a find with return keys succeeded with no result")
                }
            case 3:
                let changes = dictionary()
                status = viaFreeFunctions ? client.run { SecItemUpdate(query, changes) } : client.update(query, changes)
            case 4:
                status = viaFreeFunctions ? client.run { SecItemDelete(query) } : client.delete(query)
            default:
                world.answerPrompts(pick([.approve, .cancel, .fail] as [PromptAnswer]))
                continue
            }
            require(KeychainStatus(code: status) != nil, "status \(status) is not one the model knows")
            if status != errSecSuccess { require(result == nil, "a failed call (\(status)) returned a result") }
            if let last = world.lastResult { require(last.status.code == status || status == errSecParam || status == errSecNoSuchAttr || status == errSecUnimplemented,
                                                      "the world's last result \(last.status.code) differs from the status \(status)") }
        }
    }
}
