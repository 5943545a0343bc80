import Foundation
import KeychainEngine
import Testing

/// KCSSecItem's constants are Swift declarations (`public let kSecAttrService
/// = "kSecAttrService"`), so they are written out; the engine owns the
/// spellings. This test holds the file to the engine: every class, attribute
/// and accessibility the engine names is declared with its own name as its
/// value, and every status with the engine's code. (Access-control flags are
/// `SecAccessControlCreateFlags` members, as in Security, not strings.)
@Suite struct ConstantsTests {
    static let source: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("Sources/KCSSecItem/Constants.swift"), encoding: .utf8)) ?? ""
    }()

    /// `public let NAME = "NAME"` declarations, by name.
    static let strings: [String: String] = {
        var out: [String: String] = [:]
        for line in source.split(separator: "\n") where line.hasPrefix("public let ") && line.contains(" = \"") {
            let parts = line.dropFirst("public let ".count).split(separator: " = ", maxSplits: 1)
            guard parts.count == 2 else { continue }
            out[String(parts[0])] = String(parts[1]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return out
    }()

    @Test func everyEngineSpellingIsDeclaredAsItself() {
        #expect(!Self.source.isEmpty)
        let names = ItemClass.allCases.map(\.constantName) + ItemAttribute.allCases.map(\.constantName)
            + Accessibility.allCases.map(\.constantName)
        for name in names {
            #expect(Self.strings[name] == name, "\(name) is not declared as itself in Constants.swift")
        }
    }

    @Test func everyStatusHasTheEnginesCode() {
        for status in KeychainStatus.allCases {
            #expect(Self.source.contains("public let \(status.name): OSStatus = \(status.code)\n"),
                    "\(status.name) (\(status.code)) is missing or has another code in Constants.swift")
        }
    }
}
