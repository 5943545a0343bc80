import Foundation
import Testing

@Suite(.serialized)
struct CLITests {
    /// Every shipped example passes: exit 0 and no failures.
    @Test func everyExamplePasses() throws {
        let dir = BinaryRunner.root.appendingPathComponent("examples")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            .filter { $0.hasSuffix(".kcs") }.sorted()
        #expect(files.count >= 10, "examples/ should hold at least ten scenarios")
        for file in files {
            let out = try BinaryRunner.run(["run", "examples/" + file])
            #expect(out.status == 0, "\(file): \(out.stderr)")
            let summary = out.stdout.split(separator: "\n").last.map(String.init) ?? ""
            let passed = Int(summary.split(separator: " ").first ?? "") ?? 0
            #expect(summary.hasSuffix(" passed, 0 failed"), "\(file): \(out.stdout)")
            #expect(passed > 0, "\(file) checks nothing")
        }
    }

    /// Golden scenarios that must fail: Tests/Golden/NAME.kcs with NAME.expected
    /// holding the exit code, standard output and standard error exactly.
    /// KCS_UPDATE_GOLDEN=1 rewrites the expected files.
    @Test func goldenScenarios() throws {
        let dir = BinaryRunner.root.appendingPathComponent("Tests/Golden")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            .filter { $0.hasSuffix(".kcs") }.sorted()
        #expect(files.count >= 5)
        for file in files {
            let out = try BinaryRunner.run(["run", "Tests/Golden/" + file])
            let actual = "exit: \(out.status)\n--- stdout\n\(out.stdout)--- stderr\n\(out.stderr)"
            let expectedURL = dir.appendingPathComponent(file.replacingOccurrences(of: ".kcs", with: ".expected"))
            if ProcessInfo.processInfo.environment["KCS_UPDATE_GOLDEN"] == "1" {
                try actual.write(to: expectedURL, atomically: true, encoding: .utf8)
                continue
            }
            let expected = try String(contentsOf: expectedURL, encoding: .utf8)
            #expect(actual == expected, "\(file) differs from its .expected file")
            #expect(out.status != 0, "\(file) is a golden failure and must not pass")
        }
    }

    @Test func exitCodes() throws {
        #expect(try BinaryRunner.run(["run", "no/such/file.kcs"]).status == 66)
        #expect(try BinaryRunner.run(["run", "--no-such-flag", "x.kcs"]).status == 64)
        #expect(try BinaryRunner.run(["run"]).status == 64)
        #expect(try BinaryRunner.run(["run", "-"], stdin: "team SKMME9E2Y8\napp com.x.A\nexpect default-group A SKMME9E2Y8.com.x.A\n").status == 0)
        #expect(try BinaryRunner.run(["run", "-"], stdin: "tem X\n").status == 65)
        #expect(try BinaryRunner.run(["run", "-"], stdin: "team SKMME9E2Y8\napp com.x.A\nexpect default-group A X\n").status == 1)
    }

    @Test func missingFileMessage() throws {
        let out = try BinaryRunner.run(["run", "no/such/file.kcs"])
        #expect(out.stderr.contains("error: no such file: 'no/such/file.kcs'"))
        // The missing file is counted: not "0 passed, 0 failed" alone.
        #expect(out.stdout == "0 passed, 0 failed, 1 error\n")
    }

    @Test func standardInputAndSummaryLine() throws {
        let script = """
            team SKMME9E2Y8
            app com.x.A
            as A add generic-password account="a"
            expect status errSecSuccess
            as A add generic-password account="a"
            expect status errSecDuplicateItem
            """
        let out = try BinaryRunner.run(["run", "-"], stdin: script)
        #expect(out.status == 0)
        #expect(out.stdout == "2 passed, 0 failed\n")
        #expect(out.stderr.isEmpty)
    }

    @Test func verbosePrintsEveryCall() throws {
        let script = "team SKMME9E2Y8\napp com.x.A\nas A find generic-password account=\"a\"\nexpect status -25300\n"
        let out = try BinaryRunner.run(["run", "--verbose", "-"], stdin: script)
        #expect(out.stdout == """
            <stdin>:3: A find generic-password → errSecItemNotFound (-25300)
            1 passed, 0 failed

            """)
    }

    @Test func severalFilesAreSeparateWorlds() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.kcs"), b = dir.appendingPathComponent("b.kcs")
        try "team SKMME9E2Y8\napp com.x.A\nas A add generic-password account=\"a\"\nexpect status errSecSuccess\n"
            .write(to: a, atomically: true, encoding: .utf8)
        // In a fresh world the same add succeeds again, and A is unknown until declared.
        try "team SKMME9E2Y8\napp com.x.A\nas A add generic-password account=\"a\"\nexpect status errSecSuccess\n"
            .write(to: b, atomically: true, encoding: .utf8)
        let out = try BinaryRunner.run(["run", a.path, b.path])
        #expect(out.status == 0)
        #expect(out.stdout == "2 passed, 0 failed\n")
        let worst = try BinaryRunner.run(["run", a.path, dir.appendingPathComponent("missing.kcs").path])
        #expect(worst.status == 66)
    }
}
