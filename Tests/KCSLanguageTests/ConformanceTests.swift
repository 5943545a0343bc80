import Foundation
import Testing
import KCSLanguage

/// Runs every ported Apple regression test in Tests/Conformance through the
/// language, in process. The files live outside any target folder, so SwiftPM
/// has nothing to declare; they are found relative to this file.
struct ConformanceTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Conformance")

    static func files() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".kcs") }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// The `expect` statements of a file (one per ported assertion), by line.
    static func expectLines(_ text: String) -> [Int] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { i, line in
            var words = line.split(separator: " ", omittingEmptySubsequences: true)
            // `on DEVICE expect …` aims an expectation at a device.
            if words.first == "on", words.count > 2 { words.removeFirst(2) }
            return words.first == "expect" ? i + 1 : nil
        }
    }

    @Test(arguments: files().map(\.lastPathComponent))
    func portedFileHolds(_ name: String) throws {
        let url = Self.folder.appendingPathComponent(name)
        let text = try String(contentsOf: url, encoding: .utf8)
        // Each file names what it ports before anything else.
        #expect(text.hasPrefix("# Source:"), "\(name): must open with '# Source:' lines")
        let report = Interpreter.run(path: url.path)
        let renderer = DiagnosticRenderer()
        for d in report.diagnostics where d.severity == .error {
            let loc = d.location.map { "\(name):\($0.line):\($0.column)" } ?? name
            Issue.record("\(loc): \(d.message)\n\(renderer.render(d))")
        }
        // Every expect line ran and held: none skipped by a stopped call.
        let expects = Self.expectLines(text).count
        #expect(expects > 0, "\(name): ports no assertion")
        #expect(report.passed == expects, "\(name): \(report.passed) of \(expects) expectations held")
    }

    /// The issue's floor: at least 200 assertions ported from Apple's tests.
    /// Files that pin a rule read from Apple's code, not from a test, say
    /// "code" on their first line and do not count.
    @Test func suiteHoldsEnoughAssertions() throws {
        var total = 0
        for url in Self.files() {
            let text = try String(contentsOf: url, encoding: .utf8)
            if text.prefix(while: { $0 != "\n" }).contains("code") { continue }
            total += Self.expectLines(text).count
        }
        #expect(total >= 200, "only \(total) assertions ported from Apple's tests")
    }
}
