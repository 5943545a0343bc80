import Foundation
import Testing

/// Review 23a's findings ("one source of truth"), checked on the built binary.
@Suite("Review 23a")
struct Review23aTests {
    static func run(_ arguments: [String], files: [String: String]) throws -> BinaryRunner.Output {
        try Review22aTests.run(arguments, files: files)
    }

    // MARK: R7: one code per declaration error, wherever the earlier app is

    static let misplaced = "error: 'platform' must come before the first 'app' [KCS212]"

    /// R7: `platform` after an app was KCS212 (exit 65, nothing ran) in one
    /// file, but KCS304 (exit 1, the rest ran) when the app was in an
    /// earlier Markdown block or the platform in an included file. Each is
    /// now the file's error: KCS212 at the `platform` line, exit 65, and
    /// nothing of the script or block runs.
    @Test func aPlatformAfterAnAppIsOneErrorWhereverTheAppIs() throws {
        let add = "as A add generic-password account=\"a\"\nexpect status errSecSuccess\n"
        let direct = try Self.run(["run", "t.kcs"], files: ["t.kcs": "app com.example.A\n" + add + "platform ios 17\n"])
        #expect(direct.status == 65 && direct.stderr.contains("t.kcs:4:1: " + Self.misplaced), "\(direct.stderr)")
        // The platform in the included file.
        let include = try Self.run(["run", "t.kcs"], files: ["t.kcs": "app com.example.A\n" + add + "include \"c.kcs\"\n",
                                                             "c.kcs": "platform ios 17\n"])
        #expect(include.status == 65 && include.stderr.contains("c.kcs:1:1: " + Self.misplaced), "\(include.stderr)")
        #expect(include.stdout.contains("0 passed, 0 failed, 1 error"), "\(include.stdout)")
        // The app in the included file (or in one it includes), the platform after it.
        let after = try Self.run(["run", "t.kcs"], files: ["t.kcs": "include \"a.kcs\"\n" + add + "platform ios 17\n",
                                                           "a.kcs": "include \"b.kcs\"\n", "b.kcs": "app com.example.A\n"])
        #expect(after.status == 65 && after.stderr.contains("t.kcs:4:1: " + Self.misplaced), "\(after.stderr)")
        // A `reset` in the include forgets the apps, as in one file.
        let reset = try Self.run(["run", "t.kcs"], files: ["t.kcs": "app com.example.A\ninclude \"r.kcs\"\nplatform ios 17\n",
                                                           "r.kcs": "reset\n"])
        #expect(reset.status == 0, "\(reset.stderr)")
        // The app in an earlier Markdown block: the block does not run.
        let blocks = "# t\n\n```kcs\napp com.example.A\n```\n\n```kcs\nplatform ios 17\nexpect status errSecSuccess\n```\n"
        let check = try Self.run(["check", "t.md"], files: ["t.md": blocks])
        #expect(check.status == 65 && check.stderr.contains("t.md:8:1: " + Self.misplaced), "\(check.stderr)")
        #expect(!check.stderr.contains("KCS306") && !check.stderr.contains("KCS304"), "\(check.stderr)")
    }

    // MARK: R17: the team ID's shape, said in one wording

    /// R17: "ten upper-case letters or digits" was written five times, with
    /// different endings. Every message about a malformed team ID or App ID
    /// prefix now says `Team.idShape`, read here from `kcs` itself.
    @Test func everyTeamIDMessageSaysTheOneShape() throws {
        let shape = "ten upper-case letters or digits"
        let team = try Self.run(["run", "t.kcs"], files: ["t.kcs": "team badteam\n"])
        #expect(team.status == 65 && team.stderr.contains("hint: a team ID is \(shape), e.g. SKMME9E2Y8"), "\(team.stderr)")
        let prefix = try Self.run(["run", "t.kcs"], files: ["t.kcs": "team SKMME9E2Y8\napp com.example.A app-id-prefix=bad\n"])
        #expect(prefix.status == 65 && prefix.stderr.contains("an App ID prefix is \(shape), as a team ID"), "\(prefix.stderr)")
        let transfer = try Self.run(["run", "t.kcs"], files: ["t.kcs": "team SKMME9E2Y8\napp com.example.A\ntransfer A to badteam\n"])
        #expect(transfer.status == 1 && transfer.stderr.contains("a team ID (\(shape))"), "\(transfer.stderr)")
        let lint = try Self.run(["lint", "--team", "bad", "--project", "P.xcodeproj"], files: [:])
        #expect(lint.status == 64 && lint.stderr.contains("--team takes a team ID: \(shape)"), "\(lint.stderr)")
    }

    // MARK: R16: the version, once

    /// R16: `kcs --version` and the language server's `serverInfo` each wrote
    /// "0.1.0"; the server now says what `--version` says.
    @Test func theLanguageServerGivesTheCommandsVersion() throws {
        let version = try BinaryRunner.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!version.isEmpty)
        let input = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#,
            #"{"jsonrpc":"2.0","method":"exit"}"#,
        ].map(LanguageServerEndToEndTests.frame).joined()
        let out = try BinaryRunner.run(["lsp"], stdin: input)
        let info = out.stdout.components(separatedBy: "serverInfo").dropFirst().first ?? ""
        #expect(info.contains("\"version\":\"\(version)\"") || info.contains("\"version\" : \"\(version)\""), "\(out.stdout)")
    }
}
