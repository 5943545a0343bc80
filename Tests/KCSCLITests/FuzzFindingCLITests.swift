import Foundation
import Testing

/// Fuzz findings that crash the process: run through the built binary, so a
/// crash fails the test instead of ending the test run
/// (Tests/KCSLanguageTests/FuzzFindings/README.md).
struct FuzzFindingCLITests {
    /// Writes an input in the fuzz targets' `%%% NAME` form as files in a
    /// fresh folder; returns the main file's path.
    static func materialise(_ name: String) throws -> String {
        let input = try String(contentsOf: BinaryRunner.root.appendingPathComponent("Tests/KCSLanguageTests/FuzzFindings/\(name)"),
                               encoding: .utf8)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-finding-\(UUID().uuidString)")
        var files: [(String, [Substring])] = [("main.kcs", [])]
        for line in input.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("%%% ") { files.append((String(line.dropFirst(4)), [])) } else { files[files.count - 1].1.append(line) }
        }
        for (file, lines) in files {
            let url = dir.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(lines.joined(separator: "\n").utf8).write(to: url)
        }
        return dir.appendingPathComponent("main.kcs").path
    }

    @Test func anIncludeCycleBelowTheTopFileIsAnErrorNotACrash() throws {
        let main = try Self.materialise("language-include-cycle-below-top.kcs")
        defer { try? FileManager.default.removeItem(atPath: (main as NSString).deletingLastPathComponent) }
        let result = try BinaryRunner.run(["run", main])
        // A located error about the include (65 or 66), not a signal.
        #expect([65, 66].contains(result.status), "\(result.stderr)")
        #expect(result.stderr.contains("includes itself"), "\(result.stderr)")
    }

    /// `kcs lint --entitlements` and a script's `entitlements=` refuse the
    /// binary plist that named a key twice, the same way every time (each
    /// run a new process, so a new hash seed).
    @Test func aDuplicateBinaryPlistKeyIsRefusedInEveryProcess() throws {
        let path = "Tests/KCSLanguageTests/FuzzFindings/entitlements-duplicate-key.bplist"
        for _ in 0..<4 {
            let lint = try BinaryRunner.run(["lint", "--entitlements", path])
            #expect(lint.status == 66)
            #expect(lint.stderr.contains("the property list gives the key 'application-identifier' twice in one dictionary [KCS008]"))
        }
        let script = "team SKMME9E2Y8\napp com.example.AppTwo entitlements=\"\(BinaryRunner.root.path)/\(path)\"\n"
        let run = try BinaryRunner.run(["run", "-"], stdin: script)
        #expect(run.status == 66, "\(run.stderr)")
        #expect(run.stderr.contains("twice in one dictionary"), "\(run.stderr)")
    }
}
