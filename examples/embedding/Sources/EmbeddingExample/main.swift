// Runs a keychain scenario in process and drives the same kind of world
// through the SecItem-shaped API, using only the public API of KCSLanguage
// and KCSSecItem.
import Foundation
import KCSLanguage
import KCSSecItem

// 1. A scenario from a string, with a structured report.
let scenario = """
    team SKMME9E2Y8
    app com.example.App
    app com.example.App.Widget as Widget kind=extension
    group com.example.Shared App
    as App add generic-password service="auth" account="alice" data="s3cret"
    expect status errSecSuccess
    as Widget find generic-password service="auth" account="alice" return=data
    expect status errSecSuccess
    """

var calls: [String] = []
let report = Interpreter.run(source: scenario, name: "widget.kcs",
                             options: RunOptions(reportCalls: true)) { event in
    if case .call(let call) = event {
        calls.append("\(call.app) \(call.operation.functionName) → \(call.status.name)")
    }
}
print("scenario: \(report.passed) passed, \(report.failed) failed, exit code \(report.exitCode)")
for line in calls { print("  call: \(line)") }
let renderer = DiagnosticRenderer()
for diagnostic in report.diagnostics {
    print(renderer.render(diagnostic))
}

// 2. The SecItem-shaped API over a world declared in kcs syntax.
var session = Session()
_ = session.run(file: SourceFile(name: "world.kcs", text: """
    team SKMME9E2Y8
    app com.example.App
    app com.example.App.Widget as Widget kind=extension
    group com.example.Shared App Widget
    """))
let world = SecItemWorld(session.world)

/// A wrapper as app code writes it.
struct TokenStore {
    func save(_ token: String) -> OSStatus {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "auth",
            kSecAttrAccount as String: "alice",
            kSecValueData as String: Data(token.utf8),
        ]
        return SecItemAdd(query as CFDictionary, nil)
    }

    func load() -> (OSStatus, String?) {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "auth",
            kSecAttrAccount as String: "alice",
            kSecReturnData as String: true,
        ]
        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        return (status, (item as? Data).map { String(decoding: $0, as: UTF8.self) })
    }
}

let saved = world.client(named: "App").map { app in app.run { TokenStore().save("s3cret") } }
let loaded = world.client(named: "Widget").map { widget in widget.run { TokenStore().load() } }
print("App SecItemAdd → \(saved.flatMap { SecCopyErrorMessageString($0, nil) } ?? "no such app")")
if let (status, token) = loaded {
    print("Widget SecItemCopyMatching → \(SecCopyErrorMessageString(status, nil) ?? "\(status)"), data \(token ?? "none")")
}
if let last = world.lastResult {
    print("searched: \(last.searchedGroups.joined(separator: ", "))")
}
