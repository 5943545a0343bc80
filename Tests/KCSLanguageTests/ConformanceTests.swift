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

    /// Whether a file pins a rule read from Apple's code ("code" on its first
    /// line) rather than porting a test.
    static func isCode(_ text: String) -> Bool { text.prefix(while: { $0 != "\n" }).contains("code") }

    /// docs/conformance.md's coverage table lists every file once, with its
    /// kind and its number of expectations, and its summary sentence adds
    /// them up: the page cannot drift from the suite.
    @Test func coverageTableMatchesTheFiles() throws {
        let page = Self.folder.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/conformance.md")
        let doc = try String(contentsOf: page, encoding: .utf8)
        var rows: [String: (kind: String, count: Int)] = [:]
        for line in doc.split(separator: "\n") where line.hasPrefix("| [`") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 5, let open = cells[1].firstIndex(of: "`") else { continue }
            let name = cells[1][cells[1].index(after: open)...].prefix { $0 != "`" }
            #expect(rows[String(name)] == nil, "\(name) is listed twice")
            rows[String(name)] = (cells[3], Int(cells[4]) ?? -1)
        }
        var total = 0, fromTests = 0
        for url in Self.files() {
            let name = url.lastPathComponent
            let text = try String(contentsOf: url, encoding: .utf8)
            let count = Self.expectLines(text).count, kind = Self.isCode(text) ? "code" : "test"
            total += count
            if kind == "test" { fromTests += count }
            guard let row = rows.removeValue(forKey: name) else {
                Issue.record("docs/conformance.md does not list \(name) (\(kind), \(count) expects)")
                continue
            }
            #expect(row.kind == kind, "\(name): the table says \(row.kind), the file is \(kind)")
            #expect(row.count == count, "\(name): the table says \(row.count) expects, the file has \(count)")
        }
        #expect(rows.isEmpty, "docs/conformance.md lists files that do not exist: \(rows.keys.sorted())")
        // The summary sentence: "N expectations in M files: T from Apple's tests … C from its code".
        let flat = doc.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        func number(before words: String) -> Int? {
            guard let r = flat.range(of: "[0-9]+ " + words, options: .regularExpression) else { return nil }
            return Int(flat[r].prefix { $0.isNumber })
        }
        #expect(number(before: "expectations in") == total, "the summary should say \(total) expectations")
        #expect(number(before: "files:") == Self.files().count, "the summary should say \(Self.files().count) files")
        #expect(number(before: "from Apple's tests") == fromTests, "the summary should say \(fromTests) from Apple's tests")
        #expect(number(before: "from its code") == total - fromTests, "the summary should say \(total - fromTests) from its code")
    }

    /// The issue's floor: at least 200 assertions ported from Apple's tests.
    /// Files that pin a rule read from Apple's code, not from a test, say
    /// "code" on their first line and do not count.
    @Test func suiteHoldsEnoughAssertions() throws {
        var total = 0
        for url in Self.files() {
            let text = try String(contentsOf: url, encoding: .utf8)
            if Self.isCode(text) { continue }
            total += Self.expectLines(text).count
        }
        #expect(total >= 200, "only \(total) assertions ported from Apple's tests")
    }
}
