import Foundation
import Testing

/// Values past 15 bytes are interned in the engine (by a number): the
/// built binary's every output shows their text, never a number.
@Suite struct LongValueCLITests {
    static let account = "Grüße, an account past the limit", secret = String(repeating: "s3cret-", count: 9)
    /// A find of the long values, then a data expectation that fails.
    static let script = ["team SKMME9E2Y8", "app com.example.One as One",
                         "as One add generic-password service=\"a.service.past.the.limit\" account=\"\(account)\" data=\"\(secret)\"",
                         "as One find generic-password service=\"a.service.past.the.limit\" account=\"\(account)\" return=data",
                         "expect status errSecSuccess", "expect data \"\(secret)!\"", ""].joined(separator: "\n")

    @Test func jsonAndTextOutputQuoteTheLongValues() throws {
        let text = try BinaryRunner.run(["run", "-"], stdin: Self.script + "show items\n")
        #expect(text.status == 1)
        let all = text.stdout + text.stderr
        #expect(all.contains(Self.account) && all.contains(Self.secret) && all.contains("a.service.past.the.limit"), "\(all)")
        let json = try BinaryRunner.run(["run", "--format", "json", "-"], stdin: Self.script)
        #expect(json.status == 1)
        #expect(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) is [String: Any])
        #expect(json.stdout.contains(Self.secret), "\(json.stdout)")
    }

    @Test func exportedSwiftHasTheLongValues() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-long-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.kcs")
        // Export takes a script that passes: the data expectation as it holds.
        try Self.script.replacingOccurrences(of: "\(Self.secret)!", with: Self.secret)
            .write(to: path, atomically: true, encoding: .utf8)
        let out = try BinaryRunner.run(["export", "--swift", path.path])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains(Self.account) && out.stdout.contains(Self.secret)
                && out.stdout.contains("a.service.past.the.limit"), "\(out.stdout)")
    }
}
