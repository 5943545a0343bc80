import Foundation
import Testing

/// Every command that reports a file's diagnostics caps them as `kcs run`
/// does: the first 200 and a count of the rest, so a file of many errors
/// prints a screenful (found by the differential test: `export --swift`
/// and `matrix` printed every one).
@Suite struct DiagnosticCapTests {
    @Test(arguments: [["run"], ["export", "--swift"], ["matrix"]])
    func manyErrorsPrintAScreenful(_ command: [String]) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-cap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("many.kcs")
        // 300 lines, each with an unknown statement: 300 syntax errors.
        try String(repeating: "frobnicate now\n", count: 300).write(to: file, atomically: true, encoding: .utf8)
        let out = try BinaryRunner.run(command + [file.path])
        #expect(out.status == 65, "\(command)")
        let errors = out.stderr.components(separatedBy: "\n").filter { $0.contains("error:") }
        #expect(errors.count == 200, "\(command): \(errors.count) errors printed")
        #expect(out.stderr.contains("100 more diagnostics in"), "\(command)")
    }

    /// The closing line counts every error, shown or not, past the list's
    /// cap and past the 10,000 a report keeps: it said "200 errors" of a
    /// run whose note counted 11,800 more (the REPL's `:load`: ReplLoopTests).
    @Test func theClosingLineCountsEveryError() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-cap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("flood.kcs")
        // 12,000 runtime errors (an unknown app) and 2 failed expectations.
        try ("team SKMME9E2Y8\napp com.example.A\n" + String(repeating: "as B add generic-password\n", count: 12_000)
             + "as A find generic-password\nexpect status errSecSuccess\nexpect count 1\n").write(to: file, atomically: true, encoding: .utf8)
        let out = try BinaryRunner.run(["run", file.path])
        #expect(out.stdout.hasSuffix("0 passed, 2 failed, 12000 errors\n"), "\(out.stdout)")
        #expect(out.stderr.contains("11802 more diagnostics in"), "\(out.stderr.suffix(300))")
        // TAP's plan and JUnit's counts match their test cases: one per
        // listed error and one that counts the hidden ones (the formats
        // fuzzer found a plan of 271 over 201 lines).
        let tap = try BinaryRunner.run(["run", "--format", "tap", file.path]).stdout
        let tests = tap.split(separator: "\n").filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }
        #expect(tap.hasSuffix("1..\(tests.count)\n"), "\(tap.suffix(200))")
        #expect(tests.dropLast().last?.hasSuffix(": 11800 more errors not shown") == true, "\(tests.suffix(2))")
        // The two failed checks come after the 10,000 diagnostics kept.
        #expect(tests.last?.hasSuffix(": 2 more failed checks not shown (a run lists the first 10000 diagnostics)") == true, "\(tests.suffix(2))")
        let junit = try BinaryRunner.run(["run", "--format", "junit", file.path]).stdout
        let cases = junit.components(separatedBy: "<testcase ").count - 1
        #expect(junit.contains("<testsuites name=\"kcs\" tests=\"\(cases)\" "), "\(junit.prefix(300))")
        #expect(junit.contains("<error message=\"11800 more errors not shown\"/>"), "\(junit.suffix(300))")
        let json = try BinaryRunner.run(["run", "--format", "json", file.path]).stdout
        #expect(json.contains("\"errors\": 12000"), "\(json.prefix(300))")
    }

    /// Failed checks past the 10,000 diagnostics a run keeps are counted:
    /// JSON, JUnit and TAP said "10000 failed" of 12,000, with no note. Now
    /// the count is whole, and JUnit and TAP give the checks not listed one
    /// test case that names them, their counts matching their cases.
    @Test func failedChecksPastTheKeptDiagnosticsAreCounted() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-cap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("fails.kcs")
        try ("team SKMME9E2Y8\napp com.example.A\nas A find generic-password\n" + String(repeating: "expect status errSecSuccess\n", count: 12_000)
             + "expect status errSecItemNotFound\n").write(to: file, atomically: true, encoding: .utf8)
        let json = try BinaryRunner.run(["run", "--format", "json", file.path])
        #expect(json.status == 1)
        #expect(json.stdout.contains("\"summary\": \"1 passed, 12000 failed\""), "\(json.stdout.suffix(300))")
        let tap = try BinaryRunner.run(["run", "--format", "tap", file.path]).stdout
        let tests = tap.split(separator: "\n").filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }
        #expect(tests.count == 10_000 + 2 && tap.hasSuffix("1..\(tests.count)\n"), "\(tap.suffix(200))")
        #expect(tests.last?.hasSuffix(": 2000 more failed checks not shown (a run lists the first 10000 diagnostics)") == true, "\(tests.last ?? "")")
        let junit = try BinaryRunner.run(["run", "--format", "junit", file.path]).stdout
        let cases = junit.components(separatedBy: "<testcase ").count - 1
        #expect(cases == 10_002)
        #expect(junit.contains("<testsuites name=\"kcs\" tests=\"\(cases)\" failures=\"\(cases - 1)\" "), "\(junit.prefix(300))")
        #expect(junit.contains("<failure message=\"2000 more failed checks not shown (a run lists the first 10000 diagnostics)\"/>"), "\(junit.suffix(300))")
    }
}
