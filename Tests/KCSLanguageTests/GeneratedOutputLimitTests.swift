import Testing
import KeychainEngine
@testable import KCSLanguage
@testable import KCSRuntime
@testable import KCSSyntax

/// Generated files and reports stop at ``Limits/generatedBytes`` with a
/// located error: includes repeat statements, and 103 KB of scripts made
/// `kcs export --swift` abort at 2.7 GB, `--format json` at 2.5 GB
/// (adversarial 20, M6).
struct GeneratedOutputLimitTests {
    /// `main.kcs` including `body.kcs` (`lines` calls, each with an
    /// expectation) `times` times.
    static func fanOut(times: Int, lines: Int) -> MemoryLoader {
        var body = ""
        for i in 0..<lines { body += "as A add generic-password account=\"a\(i)\"\nexpect status errSecSuccess\n" }
        var main = "team SKMME9E2Y8\napp com.a.A\n"
        for _ in 0..<times { main += "include \"body.kcs\"\nreset\nteam SKMME9E2Y8\napp com.a.A\n" }
        return MemoryLoader(files: ["main.kcs": main, "body.kcs": body])
    }

    @Test func anExportPastTheLimitIsRefusedWhereItPassedIt() throws {
        let loader = Self.fanOut(times: 50, lines: 20)
        let main = try loader.read("main.kcs")
        var limits = Limits()
        limits.generatedBytes = 40_000
        let (result, _) = SwiftExporter(loader: loader, limits: limits).exportReporting(main)
        guard case .failure(let failure) = result else {
            Issue.record("exported past the limit")
            return
        }
        let d = try #require(failure.diagnostics.first)
        #expect(failure.diagnostics.count == 1)
        #expect(d.code == .runLimit)
        #expect(d.message.hasSuffix("over the output limit of 40000; nothing was written"), "\(d.message)")
        // At a statement of the included file, some way in.
        #expect(d.file?.name == "body.kcs")
        #expect(d.range != nil)
        // Under the default limit the same script is written in full.
        guard case .success(let code) = SwiftExporter(loader: loader).export(main) else {
            Issue.record("not exported under the default limit")
            return
        }
        #expect(code.utf8.count > 40_000)
        #expect(code.hasSuffix("    }\n}\n"))
        #expect(Limits().generatedBytes == 64 << 20)
        #expect(Limits.untrusted.generatedBytes == 1 << 20)
    }

    @Test func expectationsAddedAfterACallStayInItsBlock() throws {
        let loader = MemoryLoader(files: ["t.kcs": """
            team SKMME9E2Y8
            app com.a.A
            as A add generic-password account="a" data="x"
            as A find generic-password account="a" return=data
            lock
            expect count 1
            as A find generic-password account="a" return=data
            expect data "x"

            """])
        guard case .success(let code) = SwiftExporter(loader: loader).export(try loader.read("t.kcs")) else {
            Issue.record("not exported")
            return
        }
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let count = try #require(lines.firstIndex { $0.contains("#expect(Self.count(result) == 1") })
        let lock = try #require(lines.firstIndex { $0.contains("line 5: lock") })
        let data = try #require(lines.firstIndex { $0.contains("#expect(Self.firstData(result) == \"x\"") })
        // Inside the first find's block, before the lock's comment; then the second's.
        #expect(count < lock && lock < data)
        #expect(lines[count + 1] == "            _ = result" || lines[count - 1] == "            _ = result")
        #expect(lines[lock - 2] == "        }")
    }

    @Test func aReportPastTheLimitStopsTheRunWhereItPassedIt() throws {
        let loader = Self.fanOut(times: 200, lines: 20)
        var limits = Limits()
        limits.generatedBytes = 30_000
        let outcome = BatchRunner(loader: loader, collectChecks: true, limits: limits).run(try loader.read("main.kcs"))
        let stop = try #require(outcome.diagnostics.first { $0.code == .runLimit })
        #expect(stop.message.contains("make a report of more than its limit of 30000 bytes"), "\(stop.message)")
        #expect(stop.file?.name == "body.kcs")
        #expect(stop.location?.line.isMultiple(of: 2) == true)  // an expectation's line
        // The checks listed fit in the limit.
        #expect(outcome.checks.count * Limits.bytesPerCheck <= 30_000)
        #expect(outcome.checks.count > 100)
        #expect(outcome.verdict == .failed)
        // Counted, not listed (text output): no limit on the number.
        let counted = BatchRunner(loader: loader, collectChecks: false, limits: limits).run(try loader.read("main.kcs"))
        #expect(counted.passed == 200 * 20)
        #expect(!counted.diagnostics.contains { $0.code == .runLimit })
    }

    @Test func aDocumentsBlocksShareTheReportLimit() throws {
        var block = "```kcs\nteam SKMME9E2Y8\napp com.a.A\n"
        for i in 0..<40 { block += "as A add generic-password account=\"a\(i)\"\nexpect status errSecSuccess\n" }
        block += "```\n\n"
        let doc = String(repeating: "```kcs fresh\n" + block.dropFirst(7), count: 20)
        var limits = Limits()
        limits.generatedBytes = 20_000
        let outcome = BatchRunner(loader: MemoryLoader(files: [:]), limits: limits)
            .check(markdown: SourceFile(name: "d.md", text: doc))
        #expect(outcome.diagnostics.contains { $0.code == .runLimit && $0.message.contains("limit of 20000 bytes") })
        #expect(outcome.checks.count * Limits.bytesPerCheck <= 20_000)
    }
}
