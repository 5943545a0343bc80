import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The built `kcs` binary running on a pseudo-terminal, driven like a user at
/// a keyboard. Every wait is bounded and the child is killed at the end, so a
/// broken REPL fails a test instead of hanging it.
final class PseudoTerminal {
    struct Timeout: Error, CustomStringConvertible {
        var waitingFor: String
        var output: String
        var description: String { "timed out waiting for \(waitingFor.debugDescription); output so far:\n\(output)" }
    }

    let pid: pid_t
    private let master: Int32
    /// Everything the child wrote, as bytes (a read may end inside a character).
    private var bytes: [UInt8] = []
    /// Where the next ``waitFor(_:timeout:)`` starts looking, in bytes.
    private var cursor = 0
    /// Everything the child wrote.
    var output: String { String(decoding: bytes, as: UTF8.self) }
    private var exitStatus: Int32?

    /// A scratch home for HOME and KCS_HISTORY.
    let home: URL

    /// `kcs` sits next to the test bundle in the build folder.
    static let binary: URL = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        var dir = bundle.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("kcs")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/kcs")
    }()

    /// Starts `kcs ARGUMENTS` on a fresh terminal of 500 columns (so readline
    /// never has to scroll a long line) with a private HOME and history file.
    init(_ arguments: [String] = [], environment: [String: String] = [:], home: URL? = nil) throws {
        let home = home ?? FileManager.default.temporaryDirectory.appendingPathComponent("kcs-repl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        self.home = home
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home.path
        env["KCS_HISTORY"] = home.appendingPathComponent("history").path
        env["TERM"] = "dumb"
        env["NO_COLOR"] = "1"
        env["INPUTRC"] = "/dev/null"
        for (k, v) in environment { env[k] = v }

        // Everything the child needs is made before fork: after it, only exec.
        let path = try #require(strdup(Self.binary.path))
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup("kcs")] + arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            free(path)
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var fd: Int32 = -1
        var size = winsize(ws_row: 40, ws_col: 500, ws_xpixel: 0, ws_ypixel: 0)
        let child = forkpty(&fd, nil, nil, &size)
        if child == 0 {
            execve(path, &argv, &envp)
            _exit(127)
        }
        guard child > 0 else { throw POSIXError(.EAGAIN) }
        pid = child
        master = fd
    }

    deinit {
        kill()
        close(master)
    }

    /// Types text (`\r` is Return, `\t` Tab, `\u{3}` Ctrl-C, `\u{4}` Ctrl-D).
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Waits until `needle` appears after the previous match; returns the
    /// output between them (the needle included).
    @discardableResult
    func waitFor(_ needle: String, timeout: Double = 15) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        let want = Array(needle.utf8)
        while true {
            if let end = find(want) {
                let seen = String(decoding: bytes[cursor..<end], as: UTF8.self)
                cursor = end
                return seen
            }
            if Date() >= deadline || !pump(milliseconds: 200) {
                throw Timeout(waitingFor: needle, output: output)
            }
        }
    }

    /// The end of the first match of `want` at or after the cursor.
    private func find(_ want: [UInt8]) -> Int? {
        guard !want.isEmpty, bytes.count - cursor >= want.count else { return want.isEmpty ? cursor : nil }
        var i = cursor
        while i + want.count <= bytes.count {
            if bytes[i] == want[0] && Array(bytes[i..<(i + want.count)]) == want { return i + want.count }
            i += 1
        }
        return nil
    }

    /// Waits for the child to exit; its exit code, or nil on timeout.
    func waitForExit(timeout: Double = 15) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            _ = pump(milliseconds: 50)
            if let s = reap() { return s }
        }
        return nil
    }

    /// Reads what is there within the time; false when the terminal closed.
    private func pump(milliseconds: Int32) -> Bool {
        var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let ready = poll(&p, 1, max(0, milliseconds))
        guard ready > 0 else { _ = reap(); return true }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(master, &buffer, buffer.count)
        guard n > 0 else { _ = reap(); return false }  // EIO once the child is gone
        bytes += buffer[0..<n]
        return true
    }

    private func reap() -> Int32? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        // WIFEXITED / WEXITSTATUS, spelled out (the macros are not imported).
        exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return exitStatus
    }

    /// Ends the child if it is still running.
    func kill() {
        guard reap() == nil else { return }
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        exitStatus = 128 + SIGKILL
    }
}
