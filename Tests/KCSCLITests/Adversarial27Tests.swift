import Foundation
import Testing

/// Adversarial run 27: inputs that took exponential or quadratic time. Each
/// test's input is scaled so that the old code misses its bound by far (a
/// time limit it ran into, or minutes to days), not by a factor a loaded
/// machine could explain.
@Suite("adversarial run 27: bounded time on hostile input")
struct Adversarial27Tests {
    /// `lint --project` of the docs project with `code` added to the app's
    /// keychain source: its output, how long it took, and whether its time
    /// limit stopped it.
    private func lint(appending code: String, file: String = "App/KeychainStore.swift") throws -> (out: BinaryRunner.Output, seconds: Double) {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let own = try String(contentsOfFile: f.path(file), encoding: .utf8)
        f.write(file, own + code)
        let started = Date()
        let out = try BinaryRunner.run(["lint", "--project", f.projectPath])
        return (out, Date().timeIntervalSince(started))
    }

    /// A local `let` interpolating the one before it 16 times, 9 levels
    /// deep, each wrapped in `( )!` so it is followed as an expression: it
    /// was worked out again at every reference, 16^8 times (a 727-byte file
    /// of 8 references per level held `lint --project` for its whole 60 s;
    /// adversarial run 27, F1).
    @Test func aLocalLetReferencedManyTimesPerLevelIsWorkedOutOnce() throws {
        var code = "func adv27() {\n    let a0 = (\"\")!\n"
        for i in 1...8 { code += "    let a\(i) = (\"" + String(repeating: "\\(a\(i - 1))", count: 16) + "\")!\n" }
        code += "    let a9 = (\"SKMME9E2Y8.com.example.Notes.other\\(a8)\")!\n"
        code += "    var q: [String: Any] = [:]\n    q[kSecAttrAccessGroup as String] = a9\n    _ = SecItemAdd(q as CFDictionary, nil)\n}\n"
        let (out, seconds) = try lint(appending: code)
        #expect(!out.stderr.contains("KCS311"), "\(out.stderr.prefix(2000))")
        #expect(seconds < 30, "took \(seconds) s")
        // The check went through: the share extension's finding is there.
        #expect(out.stderr.contains("ShareViewController.swift:"), "\(out.stderr.prefix(2000))")
    }
}
