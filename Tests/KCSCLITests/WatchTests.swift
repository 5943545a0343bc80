import Foundation
import Testing

/// `kcs run --watch` and `kcs check --watch` through the built binary: it
/// runs again when the script or an included file changes, and Ctrl-C ends it.
@Suite(.serialized)
struct WatchTests {
    /// A `kcs … --watch` process whose output goes to a file the test reads.
    final class Watched {
        let process = Process()
        let out: URL, err: URL

        init(_ arguments: [String], in dir: URL, executable: URL = BinaryRunner.binary) throws {
            out = dir.appendingPathComponent("stdout"); err = dir.appendingPathComponent("stderr")
            _ = FileManager.default.createFile(atPath: out.path, contents: nil)
            _ = FileManager.default.createFile(atPath: err.path, contents: nil)
            process.executableURL = executable
            process.arguments = arguments
            process.currentDirectoryURL = dir
            var env = ProcessInfo.processInfo.environment
            env["NO_COLOR"] = "1"
            process.environment = env
            process.standardOutput = try FileHandle(forWritingTo: out)
            process.standardError = try FileHandle(forWritingTo: err)
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        var stdout: String { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOf: err, encoding: .utf8)) ?? "" }

        /// Waits, at most `seconds`, until `done` holds for standard error and output.
        func wait(seconds: Double = 15, until done: (String, String) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if done(stdout, stderr) { return true }
                usleep(50_000)
            }
            return done(stdout, stderr)
        }

        /// Sends SIGINT and waits (bounded) for the exit; kills it if it hangs.
        func interrupt() -> Int32? {
            process.interrupt()
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit(); return nil }
            return process.terminationReason == .exit ? process.terminationStatus : -process.terminationStatus
        }

        deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    }

    func temp(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return dir
    }

    func count(_ s: String, _ of: String) -> Int { s.components(separatedBy: of).count - 1 }

    /// The changed file's name is escaped as every other name kcs prints:
    /// a bidi control in it reached the terminal raw (adversarial run 24, F2).
    @Test func theChangedFilesNameIsEscaped() throws {
        let name = "inc\u{202E}sck.kcs"
        let dir = try temp([name: "team SKMME9E2Y8\n", "main.kcs": "include \"inc\\u{202E}sck.kcs\"\napp com.example.A\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let watched = try Watched(["run", "--watch", "main.kcs"], in: dir)
        #expect(watched.wait { _, err in err.contains("watching 2 files") }, "first run: \(watched.stdout) \(watched.stderr)")
        try "team SKMME9E2Y8 \n".write(to: dir.appendingPathComponent(name), atomically: false, encoding: .utf8)
        #expect(watched.wait { out, _ in out.contains("--- run 2: inc\\u{202E}sck.kcs changed ---") }, "second run: \(watched.stdout)")
        #expect(!watched.stdout.unicodeScalars.contains("\u{202E}"), "\(watched.stdout)")
        #expect(watched.interrupt() == 130)
    }

    @Test func runReRunsWhenTheScriptOrAnIncludeChangesAndCtrlCExits130() throws {
        let dir = try temp([
            "common.kcs": "team SKMME9E2Y8\n",
            "main.kcs": "include \"common.kcs\"\napp com.example.AppOne\nshow apps\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let watched = try Watched(["run", "--watch", "main.kcs"], in: dir)
        #expect(watched.wait { out, err in out.contains("AppOne") && err.contains("watching 2 files") },
                "first run: \(watched.stdout) \(watched.stderr)")

        // The script changes: a second run shows the new app.
        try "include \"common.kcs\"\napp com.example.AppOne\napp com.example.AppTwo\nshow apps\n"
            .write(to: dir.appendingPathComponent("main.kcs"), atomically: false, encoding: .utf8)
        #expect(watched.wait { out, _ in out.contains("--- run 2: main.kcs changed ---") && out.contains("AppTwo") },
                "second run: \(watched.stdout)")

        // The included file changes (saved by renaming, as many editors do): a third run.
        try "team SKMME9E2Y8\napp com.example.AppThree\n"
            .write(to: dir.appendingPathComponent("common.kcs"), atomically: true, encoding: .utf8)
        #expect(watched.wait { out, _ in out.contains("--- run 3: common.kcs changed ---") && out.contains("AppThree") },
                "third run: \(watched.stdout)")
        let out = watched.stdout
        #expect(count(out, "0 passed, 0 failed") == 3, "\(out)")
        #expect(!out.contains("\u{1B}["), "no screen clearing when output is not a terminal")

        #expect(watched.interrupt() == 130)
    }

    @Test func checkWatchesAFolderAndAFileThatFailsKeepsWatching() throws {
        let dir = try temp(["a.md": "# A\n\n```kcs\nteam SKMME9E2Y8\napp com.example.A\nexpect groups A [SKMME9E2Y8.com.example.B]\n```\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let watched = try Watched(["check", "--watch", "."], in: dir)
        #expect(watched.wait { out, err in out.contains("0 passed, 1 failed") && err.contains("watching 1 file") },
                "first run: \(watched.stdout) \(watched.stderr)")
        // Fixing the expectation re-runs; so does a new document in the folder.
        try "# A\n\n```kcs\nteam SKMME9E2Y8\napp com.example.A\nexpect groups A [SKMME9E2Y8.com.example.A]\n```\n"
            .write(to: dir.appendingPathComponent("a.md"), atomically: false, encoding: .utf8)
        #expect(watched.wait { out, _ in out.contains("--- run 2:") && out.contains("1 passed, 0 failed") },
                "second run: \(watched.stdout)")
        try "```kcs\nteam SKMME9E2Y8\n```\n".write(to: dir.appendingPathComponent("b.md"), atomically: false, encoding: .utf8)
        #expect(watched.wait { out, err in out.contains("--- run 3:") && err.contains("watching 2 files") },
                "third run: \(watched.stdout) \(watched.stderr)")
        #expect(watched.interrupt() == 130)
    }

    /// On a terminal (util-linux `script` gives it one) each new run clears
    /// the screen first; `timeout` sends the SIGINT.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func onATerminalEachRunClearsTheScreen() throws {
        let dir = try temp(["main.kcs": "team SKMME9E2Y8\napp com.example.AppOne\nshow apps\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let command = "env -u NO_COLOR TERM=xterm timeout --preserve-status -s INT 5 '\(BinaryRunner.binary.path)' run --watch main.kcs"
        let watched = try Watched(["-qec", command, "/dev/null"], in: dir, executable: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(watched.wait { out, _ in out.contains("AppOne") }, "first run: \(watched.stdout)")
        try "team SKMME9E2Y8\napp com.example.AppTwo\nshow apps\n"
            .write(to: dir.appendingPathComponent("main.kcs"), atomically: false, encoding: .utf8)
        #expect(watched.wait { out, _ in out.contains("\u{1B}[H\u{1B}[2J\u{1B}[3J--- run 2: main.kcs changed ---") && out.contains("AppTwo") },
                "second run: \(watched.stdout.debugDescription)")
        let deadline = Date().addingTimeInterval(15)
        while watched.process.isRunning && Date() < deadline { usleep(50_000) }
        #expect(!watched.process.isRunning)
        #expect(watched.process.terminationStatus == 130)
    }

    @Test func watchRefusesStandardInput() throws {
        let out = try BinaryRunner.run(["run", "--watch", "-"], stdin: "sync\n")
        #expect(out.status == 64)
        #expect(out.stderr.contains("--watch cannot watch standard input"))
    }
}
