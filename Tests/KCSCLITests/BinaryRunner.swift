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

    /// `stdinPath` gives standard input from a file or device (`/dev/zero`)
    /// instead of `stdin`; `directory` is the working directory (default: the package root).
    static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
                    stdinPath: String? = nil, directory: URL? = nil) throws -> Output {
        let process = Process()
        process.executableURL = binary
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
        process.standardOutput = outHandle
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
}
