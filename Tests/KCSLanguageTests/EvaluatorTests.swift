import Testing
import KeychainEngine
@testable import KCSLanguage

struct EvaluatorTests {
    func run(_ source: String) -> RunReport { Interpreter.run(source: source, name: "t.kcs") }

    @Test func briefScenarioPasses() {
        let report = run("""
            team SKMME9E2Y8
            app com.example.AppOne
            app com.example.AppTwo
            group com.example.SharedItems AppOne AppTwo
            as AppOne add generic-password service="auth" account="alice" data="s3cret"
            as AppTwo find generic-password service="auth" account="alice" return=data
            expect status errSecSuccess
            expect data "s3cret"
            expect group SKMME9E2Y8.com.example.SharedItems
            expect count 1
            expect item service="auth" account="alice" accessible=when-unlocked sync=false
            """)
        #expect(report.diagnostics.isEmpty)
        #expect(report.passed == 5)
        #expect(report.failed == 0)
        #expect(report.exitCode == 0)
    }

    @Test func countsFailedExpectationsAndSetsExitCode() {
        let report = run("""
            team SKMME9E2Y8
            app com.example.A
            as A find generic-password account="x"
            expect status errSecSuccess
            expect status errSecItemNotFound
            expect count 1
            """)
        #expect(report.passed == 1)
        #expect(report.failed == 2)
        #expect(report.exitCode == 1)
        #expect(report.diagnostics.map(\.code) == [.expectationFailed, .expectationFailed])
    }

    @Test func syntaxErrorsStopEverything() {
        let report = run("team SKMME9E2Y8\napp com.x.A\nas A add generic-password service=s\nexpect status errSecSucces\n")
        #expect(report.calls == 0)
        #expect(report.exitCode == 65)
    }

    @Test func runtimeErrorStopsTheCallNotTheScript() {
        let report = run("""
            team SKMME9E2Y8
            app com.x.A
            as B add generic-password account="a"
            expect status errSecSuccess
            as A add generic-password account="a"
            expect status errSecSuccess
            """)
        #expect(report.diagnostics.map(\.code) == [.unknownApp, .callDidNotRun])
        #expect(report.passed == 1)
        #expect(report.exitCode == 1)
    }

    @Test func expectationAfterAFailedCallSaysSo() {
        let report = run("""
            team SKMME9E2Y8
            app com.x.A
            as A add generic-password account="a"
            as B find generic-password account="a"
            expect status errSecSuccess
            """)
        #expect(report.diagnostics.map(\.code) == [.unknownApp, .callDidNotRun])
        #expect(report.diagnostics.last?.notes.first?.range != nil)
    }

    @Test func notModelledStatementsAreClearRuntimeErrors() {
        let report = run("team SKMME9E2Y8\nsync\n")
        #expect(report.diagnostics.map(\.code) == [.notModelledYet])
        #expect(report.diagnostics.first?.location?.line == 2)
        #expect(report.exitCode == 1)
    }

    @Test func expectGroupsExpandsPrefixVariables() {
        let report = run("""
            team SKMME9E2Y8
            app com.x.A keychain-access-groups=[$(AppIdentifierPrefix)com.x.Shared] application-groups=[group.com.x]
            expect groups A [$(TeamIdentifierPrefix)com.x.Shared, SKMME9E2Y8.com.x.A, group.com.x]
            expect default-group A SKMME9E2Y8.com.x.Shared
            """)
        #expect(report.passed == 2, "\(report.diagnostics)")
    }

    @Test func expectDataNeedsReturnData() {
        let report = run("""
            team SKMME9E2Y8
            app com.x.A
            as A add generic-password account="a" data="d"
            as A find generic-password account="a"
            expect data "d"
            """)
        #expect(report.failed == 1)
        #expect(report.diagnostics.first?.hint == "add return=data to the call")
    }

    @Test func showAndExplainProduceOutput() {
        var outputs: [String] = []
        _ = Interpreter.run(source: """
            team SKMME9E2Y8
            app com.x.A
            app com.x.B
            as A add generic-password account="a" data="d"
            show items
            show matrix
            show apps
            show app A
            explain
            """, observer: { if case .output(let text) = $0 { outputs.append(text) } })
        #expect(outputs.count == 5)
        #expect(outputs[0].contains("generic-password  SKMME9E2Y8.com.x.A  account=\"a\""))
        #expect(outputs[1].contains("read  -"))
        #expect(outputs[2].contains("A    com.x.A"))
        #expect(outputs[3].contains("0. SKMME9E2Y8.com.x.A  (default)"))
        #expect(outputs[4].contains("why: added to SKMME9E2Y8.com.x.A, A's default group"))
    }

    @Test func resetStartsAFreshWorld() {
        let report = run("""
            team SKMME9E2Y8
            app com.x.A
            as A add generic-password account="a"
            reset
            team SKMME9E2Y8
            app com.x.A
            as A find generic-password account="a"
            expect status errSecItemNotFound
            """)
        #expect(report.passed == 1, "\(report.diagnostics)")
    }

    @Test func includeRunsIntoTheSameWorld() {
        let loader = MemoryLoader(files: [
            "dir/main.kcs": "include \"common.kcs\"\nas A find generic-password account=\"a\"\nexpect status errSecSuccess\n",
            "dir/common.kcs": "team SKMME9E2Y8\napp com.x.A\nas A add generic-password account=\"a\"\n",
        ])
        let report = Interpreter.run(path: "dir/main.kcs", loader: loader)
        #expect(report.passed == 1, "\(report.diagnostics)")
    }

    @Test func includeCyclesAndMissingIncludesAreSyntaxTimeErrors() {
        let loader = MemoryLoader(files: [
            "a.kcs": "include \"b.kcs\"\n", "b.kcs": "include \"a.kcs\"\n",
            "c.kcs": "include \"missing.kcs\"\nteam SKMME9E2Y8\n",
        ])
        #expect(Interpreter.run(path: "a.kcs", loader: loader).diagnostics.map(\.code).contains(.includeCycle))
        let missing = Interpreter.run(path: "c.kcs", loader: loader)
        #expect(missing.diagnostics.map(\.code) == [.fileNotFound])
        #expect(missing.diagnostics.first?.location?.line == 1)
        #expect(missing.exitCode == 65)
        #expect(Interpreter.run(path: "nowhere.kcs", loader: loader).exitCode == 66)
    }

    @Test func platformIOS12ChangesOnlyTheListedStatuses() {
        let body = """
            team SKMME9E2Y8
            app com.x.A
            app com.x.B
            as B add generic-password account="b"
            as A find generic-password account="b" group=SKMME9E2Y8.com.x.B
            """
        let ios13 = run(body + "\nexpect status errSecMissingEntitlement\n")
        let ios12 = run("platform ios 12\n" + body + "\nexpect status errSecItemNotFound\n")
        #expect(ios13.passed == 1)
        #expect(ios12.passed == 1)
    }
}

/// Scripts held in memory, for include tests.
struct MemoryLoader: SourceLoader {
    var files: [String: String]

    func resolve(_ path: String, relativeTo including: String?) -> String {
        FileSystemLoader().resolve(path, relativeTo: including)
    }

    func read(_ resolved: String) throws(LoadError) -> SourceFile {
        guard let text = files[resolved] else { throw .notFound(resolved) }
        return SourceFile(name: resolved, text: text)
    }
}
