import Foundation
import KCSLanguage
import KCSSecItem
import Testing

/// A world declared in kcs syntax (declarations only), ready for SecItem calls.
func makeWorld(_ declarations: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> SecItemWorld {
    var session = Session()
    let report = session.run(file: SourceFile(name: "world.kcs", text: declarations))
    #expect(report.diagnostics.isEmpty, "declarations refused: \(report.diagnostics)", sourceLocation: sourceLocation)
    return SecItemWorld(session.world)
}

/// The usual two apps of team SKMME9E2Y8 sharing `com.example.Shared`, an
/// extension of the first without the entitlement, and an app of another team.
func standardWorld(platform: String = "ios 18") -> SecItemWorld {
    makeWorld("""
        platform \(platform)
        team SKMME9E2Y8
        team ABCDE12345
        app com.example.One
        app com.example.Two
        app com.example.One.Widget as Widget kind=extension
        app com.other.App as Other team=ABCDE12345
        group com.example.Shared One Two
        """)
}

extension SecItemWorld {
    /// The client of a declared app; fails the test if there is none.
    func client(_ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> SecItemClient {
        guard let c = client(named: name) else {
            Issue.record("no app \(name)", sourceLocation: sourceLocation)
            return client(for: world.appHandles[0])
        }
        return c
    }
}

extension SecItemClient {
    /// Adds and returns only the status.
    func add(_ attributes: [String: Any]) -> OSStatus {
        add(attributes, nil)
    }

    /// Finds and returns the status with the result.
    func find(_ query: [String: Any]) -> (OSStatus, Any?) {
        var result: CFTypeRef?
        let status = copyMatching(query, &result)
        return (status, result)
    }
}

/// A generic password's dictionary.
func password(service: String = "auth", account: String = "alice", _ extra: [String: Any] = [:]) -> [String: Any] {
    var d: [String: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrService: service, kSecAttrAccount: account]
    for (k, v) in extra { d[k] = v }
    return d
}

/// The status's name, for readable failures.
func name(_ status: OSStatus) -> String {
    SecCopyErrorMessageString(status, nil) ?? String(status)
}
