import Foundation

/// Runs the built `kcs` binary, as a user would.
enum BinaryRunner {
    /// The package root, found from this file's path.
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `kcs` sits next to the test bundle in the build folder.
    static let binary: URL = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        var dir = bundle.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("kcs")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug/kcs")
    }()

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `kcs` (or `executable`) in the package root (or `directory`).
    /// `stdinPath` gives standard input from a file or device (`/dev/zero`)
    /// instead of `stdin`; `stdoutPath` sends standard output to one (`/dev/full`).
    static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
                    executable: URL = binary, stdinPath: String? = nil, stdoutPath: String? = nil,
                    directory: URL? = nil) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? root
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        // Output goes to files, so a large output can never block the child.
        let dir = FileManager.default.temporaryDirectory
        let outURL = dir.appendingPathComponent("kcs-out-\(UUID().uuidString)")
        let errURL = dir.appendingPathComponent("kcs-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let outHandle = try FileHandle(forWritingTo: outURL), errHandle = try FileHandle(forWritingTo: errURL)
        let input = Pipe()
        process.standardOutput = stdoutPath.map { FileHandle(forWritingAtPath: $0) as Any } ?? outHandle
        process.standardError = errHandle
        if let stdinPath {
            process.standardInput = FileHandle(forReadingAtPath: stdinPath)
        } else {
            process.standardInput = input
        }
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        let outBytes = try Data(contentsOf: outURL), errBytes = try Data(contentsOf: errURL)
        return Output(status: process.terminationStatus, stdout: String(decoding: outBytes, as: UTF8.self),
                      stderr: String(decoding: errBytes, as: UTF8.self))
    }

    /// A tool on the PATH, or nil.
    static func tool(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Runs another tool; its standard output and error together.
    static func exec(_ tool: String, _ arguments: [String], in dir: URL? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        if let dir { process.currentDirectoryURL = dir }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-tool-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }
}
