import Foundation
import Testing

/// The conformance suite through the built binary, as docs/conformance.md
/// tells a user to run it: every file, one run, every expectation held.
/// (`KCSLanguageTests.ConformanceTests` runs the same files in process, file
/// by file, and checks the coverage table.)
struct ConformanceBinaryTests {
    @Test func theSuitePassesThroughTheBinary() throws {
        let folder = BinaryRunner.root.appendingPathComponent("Tests/Conformance")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".kcs") }.sorted().map { "Tests/Conformance/" + $0 }
        #expect(files.count >= 40)
        let out = try BinaryRunner.run(["run"] + files)
        #expect(out.status == 0, "\(out.stdout)\(out.stderr)")
        // The closing line counts the expectations: none failed, none skipped by an error.
        let last = out.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasSuffix(" passed, 0 failed"), "closing line: \(last)")
        let passed = Int(last.prefix { $0.isNumber }) ?? 0
        #expect(passed >= 700, "only \(passed) expectations held")
    }
}
