#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a script could not be read.
public enum LoadError: Error, Sendable, Hashable {
    case notFound(String)
    case unreadable(String, reason: String)
    /// The host does not allow reading this path.
    case forbidden(String, reason: String)
}

/// How scripts and their includes are read. A host embedding the interpreter
/// supplies its own to keep scripts inside a root or away from the disk.
public protocol SourceLoader: Sendable {
    /// Resolves `path` as written in `include` relative to the including file.
    func resolve(_ path: String, relativeTo including: String?) -> String
    /// Reads a resolved path.
    func read(_ resolved: String) throws(LoadError) -> SourceFile
}

/// Reads from the file system; includes resolve relative to the including file.
public struct FileSystemLoader: SourceLoader {
    public init() {}

    /// Joins `path` to the including file's folder and normalises `.` and
    /// `..`, so one file always has one name (include cycles are caught
    /// however the path is written).
    public func resolve(_ path: String, relativeTo including: String?) -> String {
        var joined = path
        if !path.hasPrefix("/"), let including, let slash = including.lastIndex(of: "/") {
            joined = String(including[...slash]) + path
        }
        return Self.normalise(joined)
    }

    static func normalise(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            if part == "..", absolute { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    public func read(_ resolved: String) throws(LoadError) -> SourceFile {
        guard FileManager.default.fileExists(atPath: resolved) else { throw .notFound(resolved) }
        guard let bytes = Self.readAll(resolved) else {
            throw .unreadable(resolved, reason: "it is a directory, or permission was denied")
        }
        return SourceFile(name: resolved, bytes: bytes)
    }

    /// Reads a whole file straight into bytes (no intermediate Data copy).
    private static func readAll(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            #if canImport(Glibc)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            #else
            let n = chunk.withUnsafeMutableBytes { Darwin.read(fd, $0.baseAddress, $0.count) }
            #endif
            if n < 0 { return nil }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }
}

/// Parses a script and, recursively, what it includes.
public enum ScriptLoader {
    static func parse(_ file: SourceFile, loader: any SourceLoader, stack: [String],
                      includes: inout [String: Program], diagnostics: inout [Diagnostic], maxDepth: Int = 32) -> Program {
        var (program, diags) = Parser.parse(file)
        diagnostics += diags
        for i in program.statements.indices {
            guard case .include(let path, _) = program.statements[i].kind else { continue }
            let resolved = loader.resolve(path, relativeTo: file.name)
            program.statements[i].kind = .include(path: path, resolved: resolved)
            let range = program.statements[i].range
            if includes[resolved] != nil { continue }
            diagnostics += loadInclude(path, resolved: resolved, from: file, at: range, loader: loader,
                                       includes: &includes, stack: stack, maxDepth: maxDepth)
        }
        return program
    }

    /// Reads and parses one included script (and what it includes) into
    /// `includes`; returns its errors, reported at the `include` line.
    static func loadInclude(_ path: String, resolved: String, from file: SourceFile, at range: SourceRange,
                            loader: any SourceLoader, includes: inout [String: Program],
                            stack: [String]? = nil, maxDepth: Int = 32) -> [Diagnostic] {
        let stack = stack ?? [loader.resolve(file.name, relativeTo: nil)]
        if stack.count > maxDepth {
            return [Diagnostic(.inputLimit, "includes nest deeper than the limit of \(maxDepth)", file: file, range: range)]
        }
        if stack.contains(resolved) {
            return [Diagnostic(.includeCycle, "'\(path)' includes itself (through \(stack.joined(separator: " → ")))",
                               file: file, range: range, hint: "remove one of the include lines")]
        }
        var diagnostics: [Diagnostic] = []
        do {
            let included = try loader.read(resolved)
            includes[resolved] = Program(file: included, statements: [])
            includes[resolved] = parse(included, loader: loader, stack: stack + [resolved],
                                       includes: &includes, diagnostics: &diagnostics, maxDepth: maxDepth)
        } catch {
            diagnostics.append(Diagnostic(error.code, error.message(for: path), file: file, range: range,
                                          hint: "paths in include are relative to the including file"))
        }
        return diagnostics
    }
}

extension LoadError {
    var code: DiagnosticCode {
        switch self {
        case .notFound: .fileNotFound
        case .unreadable, .forbidden: .fileUnreadable
        }
    }

    func message(for path: String) -> String {
        switch self {
        case .notFound(let p): "no such file: '\(p == path ? path : "\(path)' (looked for '\(p)")'"
        case .unreadable(let p, let reason): "cannot read '\(p)': \(reason)"
        case .forbidden(let p, let reason): "may not read '\(p)': \(reason)"
        }
    }
}

/// Reads files only inside a root folder: includes that resolve outside it
/// are refused. For hosts that run scripts they did not write.
public struct RootedFileLoader: SourceLoader {
    public let root: String
    private let files = FileSystemLoader()

    public init(root: String) { self.root = FileSystemLoader.normalise(root) }

    public func resolve(_ path: String, relativeTo including: String?) -> String {
        files.resolve(path, relativeTo: including)
    }

    public func read(_ resolved: String) throws(LoadError) -> SourceFile {
        let path = FileSystemLoader.normalise(resolved)
        let prefix = root.hasSuffix("/") ? root : root + "/"
        // Root "." is the working folder: any relative path that does not climb out.
        let inside = root == "." ? !path.hasPrefix("/") && path != ".." && !path.hasPrefix("../")
                                 : path == root || path.hasPrefix(prefix)
        guard inside else {
            throw .forbidden(resolved, reason: "it is outside \(root)")
        }
        return try files.read(path)
    }
}

/// Reads nothing: scripts run from strings only, and `include` is refused.
public struct NoFilesLoader: SourceLoader {
    public init() {}

    public func resolve(_ path: String, relativeTo including: String?) -> String { path }

    public func read(_ resolved: String) throws(LoadError) -> SourceFile {
        throw .forbidden(resolved, reason: "this host does not allow reading files")
    }
}
