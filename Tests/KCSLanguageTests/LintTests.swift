import Foundation
import Testing
@testable import KCSLanguage

/// Every lint rule of semantics.md section 7 has a sample in examples/lint/
/// that runs cleanly but makes exactly that mistake.
@Suite struct LintTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ name: String) -> String { root.appendingPathComponent("examples/lint/" + name).path }

    @Test(arguments: [
        ("501-missing-team-prefix.kcs", DiagnosticCode.lintMissingTeamPrefix, 8),
        ("502-extension-group.kcs", .lintExtensionGroup, 10),
        ("503-sync-this-device-only.kcs", .lintSyncThisDeviceOnly, 6),
        ("504-deprecated-always.kcs", .lintDeprecatedAccessibility, 5),
        ("505-app-group-default.kcs", .lintAppGroupDefault, 9),
        ("506-macos-file-keychain-group.kcs", .lintFileKeychainGroup, 8),
        ("507-sync-filter.kcs", .lintSyncFilter, 8),
        ("508-service-account-mismatch.kcs", .lintServiceAccount, 9),
        ("509-update-moves-group.kcs", .lintGroupMove, 9),
    ])
    func eachRuleHasATriggeringSample(file: String, code: DiagnosticCode, line: Int) {
        let outcome = BatchRunner().lint(path: Self.path(file))
        #expect(outcome.diagnostics.map(\.code) == [code], "\(file): \(outcome.diagnostics.map(\.message))")
        let d = outcome.diagnostics.first
        #expect(d?.severity == .warning)
        #expect(d?.location?.line == line, "the warning names the line of the call")
        #expect(d?.hint?.isEmpty == false, "each warning says how to fix it")
        #expect(outcome.exitCode == 1)
        // The sample itself runs cleanly: warnings do not change the exit code.
        let run = BatchRunner().run(path: Self.path(file))
        #expect(run.exitCode == 0, "\(file)")
        #expect(run.diagnostics.map(\.code) == [code])
    }

    @Test func messagesSayTheMistakeAndTheFix() {
        let prefix = BatchRunner().lint(path: Self.path("501-missing-team-prefix.kcs")).diagnostics[0]
        #expect(prefix.message == "group \"com.example.Shared\" lacks the team prefix; AppOne is entitled to SKMME9E2Y8.com.example.Shared")
        #expect(prefix.hint?.contains("group=SKMME9E2Y8.com.example.Shared") == true)
        let service = BatchRunner().lint(path: Self.path("508-service-account-mismatch.kcs")).diagnostics[0]
        #expect(service.hint?.contains("service=\"com.example.auth\"") == true)
    }

    @Test func strictTurnsWarningsIntoErrorsAndOffSilencesThem() {
        let file = Self.path("504-deprecated-always.kcs")
        let strict = BatchRunner(lint: .strict).run(path: file)
        #expect(strict.exitCode == 1)
        #expect(strict.diagnostics.map(\.severity) == [.error])
        let off = BatchRunner(lint: .off).run(path: file)
        #expect(off.exitCode == 0 && off.diagnostics.isEmpty)
    }

    @Test func aCleanScriptHasNoWarnings() {
        let clean = BatchRunner().lint(SourceFile(name: "c.kcs", text: """
            team SKMME9E2Y8
            app com.example.AppOne
            app com.example.AppTwo
            group com.example.Shared AppOne AppTwo
            as AppOne add generic-password service="auth" account="alice"
            as AppTwo find generic-password service="auth" account="alice"
            expect status errSecSuccess
            """))
        #expect(clean.diagnostics.isEmpty)
        #expect(clean.exitCode == 0)
    }

    @Test func lintIsOffForEmbeddersUnlessAsked() {
        let script = "team SKMME9E2Y8\napp com.x.A\nas A add generic-password account=\"a\" accessible=always\n"
        #expect(Interpreter.run(source: script).diagnostics.isEmpty)
        var session = Session()
        session.lints = true
        let report = session.run(file: SourceFile(name: "s.kcs", text: script))
        #expect(report.diagnostics.map(\.code) == [.lintDeprecatedAccessibility])
        #expect(report.exitCode == 0)
    }

    @Test func syntaxErrorsStillStopLint() {
        let outcome = BatchRunner().lint(SourceFile(name: "s.kcs", text: "tem X\n"))
        #expect(outcome.exitCode == 65)
    }

    @Test func looksAlikeCatchesTyposCaseAndPrefixes() {
        #expect(Session.looksAlike("Auth", "auth"))
        #expect(Session.looksAlike("com.example.auth", "auth"))
        #expect(Session.looksAlike("token", "tokne"))
        #expect(!Session.looksAlike("alice", "private"))
        #expect(!Session.looksAlike("a", "b"))
    }

    @Test func theDocumentedSamplesAllRun() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("examples/lint").path)
            .filter { $0.hasSuffix(".kcs") }
        #expect(files.count >= 9)
    }
}
