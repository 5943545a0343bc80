import Foundation
import Testing

/// `kcs lsp` as editors run it: the built binary over standard input and output.
@Suite(.serialized)
struct LanguageServerEndToEndTests {
    static func frame(_ json: String) -> String { "Content-Length: \(json.utf8.count)\r\n\r\n" + json }

    @Test func aSessionOverStandardInputEndsCleanly() throws {
        let text = "team SKMME9E2Y8\\napp com.example.A\\nexpect groups A [nope]\\n"
        let input = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
            #"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
            #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:a.kcs","languageId":"kcs","version":1,"text":"\#(text)"}}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#,
            #"{"jsonrpc":"2.0","method":"exit"}"#,
        ].map(Self.frame).joined()
        let out = try BinaryRunner.run(["lsp"], stdin: input)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains(#""serverInfo":{"#) || out.stdout.contains(#""serverInfo" : {"#))
        #expect(out.stdout.contains("textDocument/publishDiagnostics"))
        #expect(out.stdout.contains("KCS"))
        #expect(out.stdout.contains(#""id":2"#))
    }

    @Test func endOfInputWithoutShutdownIsAFailure() throws {
        let out = try BinaryRunner.run(["lsp"], stdin: Self.frame(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#))
        #expect(out.status == 1)
    }

    static var neovim: String? {
        for dir in ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"] where FileManager.default.isExecutableFile(atPath: dir + "/nvim") {
            return dir + "/nvim"
        }
        return nil
    }

    /// A real editor client: Neovim's built-in LSP client opens a script,
    /// waits for diagnostics, asks for completion, hover and formatting
    /// (Tests/Editors/neovim-lsp.lua). CI installs neovim (.ci/run); where
    /// it is missing outside CI the test is skipped, in CI it fails.
    @Test func neovimsClientGetsDiagnosticsCompletionHoverAndFormatting() throws {
        guard let nvim = Self.neovim else {
            #expect(ProcessInfo.processInfo.environment["CI"] == nil, "CI must install neovim (.ci/run)")
            return
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-nvim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("t.kcs")
        try """
            team    SKMME9E2Y8
            app com.example.AppOne
            app com.example.AppTwo
            group com.example.Shared AppOne AppTwo
            as AppOne add generic-password service="auth" account="alice" data="s3cret"
            expect status errSecSuccess
            as AppTwo find generic-password service="auth" account="alice" return=data
            expect status errSecItemNotFound

            """.write(to: script, atomically: true, encoding: .utf8)
        let lua = BinaryRunner.root.appendingPathComponent("Tests/Editors/neovim-lsp.lua").path
        let out = try BinaryRunner.run(["--headless", "--clean", "-u", "NONE", "-c", "luafile \(lua)", script.path],
                                       environment: ["KCS": BinaryRunner.binary.path, "HOME": dir.path],
                                       executable: URL(fileURLWithPath: nvim))
        #expect(out.status == 0, "\(out.stdout)\(out.stderr)")
        #expect(out.stdout.contains("LSP TEST PASSED"), "\(out.stdout)\(out.stderr)")
    }
}
