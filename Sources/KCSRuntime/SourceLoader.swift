import KCSSyntax
import KCSXcodeProject
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
    /// Larger than the host reads (`size` when it was known before reading).
    case tooLarge(String, size: Int?, limit: Int)
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
    /// One name per file however it is reached (through links, `..`), so an
    /// include cycle is found whatever path spells it. Defaults to `resolved`.
    func canonical(_ resolved: String) -> String
    /// The names in a folder (an Xcode project's synchronized folders), or
    /// nil. Defaults to nil: a host without files lists none.
    func contents(ofDirectory resolved: String) -> [String]?
    /// Whether a path is a folder this loader would list, without listing it.
    func isDirectory(_ resolved: String) -> Bool
    /// Whether a path is a file this loader would read, without reading it.
    /// Defaults to reading it.
    func isFile(_ resolved: String) -> Bool
    /// The size in bytes of a file this loader would read, without reading
    /// it, where it can tell; nil when it cannot (the default).
    func fileSize(_ resolved: String) -> Int?
}

extension SourceLoader {
    public func canonical(_ resolved: String) -> String { resolved }
    public func contents(ofDirectory resolved: String) -> [String]? { nil }
    public func isDirectory(_ resolved: String) -> Bool { contents(ofDirectory: resolved) != nil }
    public func isFile(_ resolved: String) -> Bool { (try? read(resolved)) != nil }
    public func fileSize(_ resolved: String) -> Int? { nil }
}

/// Reads from the file system; includes resolve relative to the including file.
public struct FileSystemLoader: SourceLoader {
    /// The largest file it reads: reading stops there, so a device such as
    /// /dev/zero cannot exhaust memory.
    public var maxBytes: Int

    public init(maxBytes: Int = 256 << 20) { self.maxBytes = maxBytes }

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

    package static func normalise(_ path: String) -> String {
        // One path arithmetic for scripts and Xcode projects.
        ProjectPath.normalize(path)
    }

    public func read(_ resolved: String) throws(LoadError) -> SourceFile {
        try Self.refuseNUL(resolved)
        try Self.refuseSystemFolder(resolved)
        return SourceFile(name: resolved, bytes: try Self.readRegularFile(resolved, maxBytes: maxBytes))
    }

    /// Refuses a path holding a NUL: the system reads a path up to its first
    /// one, so `include "a.kcs\u{0}x"` read a.kcs (found by adversarial testing).
    static func refuseNUL(_ path: String) throws(LoadError) {
        if path.utf8.contains(0) { throw .unreadable(path, reason: "a path cannot hold a NUL character (\\u{0})") }
    }

    /// Refuses a path that leads, through any links, into a system folder
    /// (``ProjectPath/systemFolders``).
    static func refuseSystemFolder(_ path: String) throws(LoadError) {
        if let folder = ProjectPath.systemFolder(holding: path) {
            throw .forbidden(path, reason: "it is in \(folder), which describes this machine, not a script")
        }
    }

    public func isDirectory(_ resolved: String) -> Bool {
        var info = stat()
        return ProjectPath.systemFolder(holding: resolved) == nil && stat(resolved, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    public func isFile(_ resolved: String) -> Bool {
        var info = stat()
        return ProjectPath.systemFolder(holding: resolved) == nil && stat(resolved, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    public func fileSize(_ resolved: String) -> Int? {
        var info = stat()
        guard ProjectPath.systemFolder(holding: resolved) == nil, stat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The names in a folder, sorted; nil when it is no folder or a system one.
    public func contents(ofDirectory resolved: String) -> [String]? {
        if ProjectPath.systemFolder(holding: resolved) != nil { return nil }
        var info = stat()
        guard stat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return (try? FileManager.default.contentsOfDirectory(atPath: resolved))?.sorted()
    }

    /// The path with its links resolved, when it exists.
    public func canonical(_ resolved: String) -> String { Self.realPath(resolved) ?? resolved }

    /// Reads a regular file, at most `maxBytes` of it, straight into bytes.
    /// Devices, FIFOs and directories are refused before anything is read,
    /// so a path can neither hang the reader nor feed it forever.
    package static func readRegularFile(_ path: String, maxBytes: Int) throws(LoadError) -> [UInt8] {
        try refuseNUL(path)
        let fd = open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw .notFound(path) }
            throw .unreadable(path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path, reason: "it cannot be examined") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .unreadable(path, reason: "not a regular file (" + Self.kind(info.st_mode) + ")")
        }
        guard Int(info.st_size) <= maxBytes else {
            throw .tooLarge(path, size: Int(info.st_size), limit: maxBytes)
        }
        return try readAll(fd, name: path, maxBytes: maxBytes, expected: Int(info.st_size))
    }

    /// Reads standard input (a pipe, a file or a device such as /dev/zero),
    /// stopping with an error once it passes `maxBytes`.
    public static func readStandardInput(maxBytes: Int, seconds: Double? = nil) throws(LoadError) -> [UInt8] {
        // A limit past a few decades is no limit (`--timeout 1e300` would
        // overflow the clock).
        guard let limit = seconds, limit.isFinite, limit < 1e9 else { return try readAll(0, name: "<stdin>", maxBytes: maxBytes, expected: 0) }
        // At least a second: a limit of milliseconds, meant for the run, is
        // shorter than a pipe takes to bring megabytes.
        let seconds = max(limit, 1)
        // Under a time limit each read waits only for what is left of it: a
        // producer that stalled held `--timeout 2` open for as long as it
        // liked, the clock starting after the input ended (adversarial run
        // 24, F10).
        return try readAll(0, name: "<stdin>", maxBytes: maxBytes, expected: 0, within: seconds)
    }

    /// Reads a descriptor to its end, never keeping more than `maxBytes`;
    /// with `seconds`, each read waits only for what is left of that long.
    package static func readAll(_ fd: Int32, name: String, maxBytes: Int, expected: Int,
                                within seconds: Double? = nil) throws(LoadError) -> [UInt8] {
        let known = min(expected, maxBytes)
        var bytes = try readKnownSize(fd, name: name, known)
        if bytes.count < known { return bytes }  // the end came early: the file shrank
        let chunkSize = 1 << 16
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { chunk.deallocate() }
        let clock = ContinuousClock(), end = seconds.map { clock.now + .seconds($0) }
        while true {
            if let end, let seconds {
                let left = clock.now.duration(to: end)
                let milliseconds = min(Double(Int32.max), max(0, Double(left.components.seconds) * 1000 + Double(left.components.attoseconds) / 1e15))
                var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&waiting, 1, Int32(milliseconds))
                if ready < 0 && errno == EINTR { continue }
                if ready == 0 { throw .unreadable(name, reason: "nothing more arrived within the time limit of \(seconds) s") }
            }
            // Never read past the cap plus one byte: enough to know it is over.
            let room = min(chunkSize, maxBytes + 1 - bytes.count)
            let n = try readSome(fd, chunk, room, name)
            if n == 0 { return bytes }
            bytes.append(contentsOf: UnsafeBufferPointer(start: chunk, count: n))
            if bytes.count > maxBytes {
                throw .tooLarge(name, size: nil, limit: maxBytes)
            }
        }
    }

    /// Reads up to `size` bytes straight into the array that keeps them
    /// (through a chunk, every byte of a file was copied a second time).
    /// Stops early at the end of the file; the caller reads on past `size`.
    private static func readKnownSize(_ fd: Int32, name: String, _ size: Int) throws(LoadError) -> [UInt8] {
        guard size > 0 else { return [] }
        var failure: LoadError?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            guard let base = buffer.baseAddress else { return }
            do throws(LoadError) {
                while count < size {
                    let n = try readSome(fd, base + count, size - count, name)
                    if n == 0 { return }
                    count += n
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// One `read` of at most `count` bytes, retried when a signal interrupts
    /// it: how many it read, 0 at the end.
    private static func readSome(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int,
                             _ name: String) throws(LoadError) -> Int {
        while true {
            #if canImport(Glibc)
            let n = Glibc.read(fd, buffer, count)
            #else
            let n = Darwin.read(fd, buffer, count)
            #endif
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw errno == EAGAIN ? .unreadable(name, reason: "it has nothing to read yet (a FIFO or socket?)")
                                  : .unreadable(name, reason: String(cString: strerror(errno)))
        }
    }

    /// What a non-regular file is, in words.
    package static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a file"
        }
    }

    /// The path with every symbolic link resolved, or nil if it does not exist.
    public static func realPath(_ path: String) -> String? { ProjectPath.realPath(path) }
}

/// The included scripts of a run, parsed once per file: keyed by the first
/// spelling that reached each file (so diagnostics name it as written),
/// with other spellings of the same canonical path (`d1/f.kcs`,
/// `d2/d1/f.kcs` through symlinks to `.`) mapped to it. Keyed by spelling
/// alone, a few symlinks made every level parse its files again: F^D parses.
package struct IncludedPrograms {
    package init() {}
    private var programs: [String: Program] = [:]
    private var firstSpelling: [String: String] = [:]

    package subscript(resolved: String) -> Program? {
        get { programs[resolved] }
        set { programs[resolved] = newValue }
    }

    /// The key a file is kept under: the first spelling of its canonical path.
    package mutating func key(for resolved: String, canonical: String) -> String {
        if let first = firstSpelling[canonical] { return first }
        firstSpelling[canonical] = resolved
        return resolved
    }
}

/// Parses a script and, recursively, what it includes.
public enum ScriptLoader {
    /// Past `deadline` (a run's time limit) it stops where it is, with the
    /// limit error at that line.
    package static func parse(_ file: SourceFile, loader: any SourceLoader, stack: [String],
                      includes: inout IncludedPrograms, diagnostics: inout [Diagnostic], limits: Limits = Limits(),
                      deadline: ContinuousClock.Instant? = nil) -> Program {
        // The host's limits hold for included files as for the script itself.
        if file.bytes.count > limits.sourceBytes {
            diagnostics.append(Diagnostic(.inputLimit, "the included script is \(file.bytes.count) bytes, over the limit of \(limits.sourceBytes)",
                                          file: file))
            return Program(file: file, statements: [])
        }
        var parser = Parser(file: file, maxListLength: limits.listLength)
        var statements: [Statement] = []
        while let s = parser.next() {
            if let deadline, ContinuousClock.now > deadline {
                diagnostics.append(RunBudget.limitDiagnostic(RunBudget.overTimeMessage(limits), file, s.range))
                return Program(file: file, statements: statements)
            }
            statements.append(s)
        }
        var program = Program(file: file, statements: statements)
        diagnostics += parser.finalDiagnostics
        for i in program.statements.indices {
            guard case .include(let path, _) = program.statements[i].kind else { continue }
            let spelled = loader.resolve(path, relativeTo: file.name)
            let range = program.statements[i].range
            if let cycle = cycleDiagnostic(path, resolved: spelled, from: file, at: range, loader: loader, stack: stack) {
                diagnostics.append(cycle)
                continue
            }
            let resolved = includes.key(for: spelled, canonical: loader.canonical(spelled))
            program.statements[i].kind = .include(path: path, resolved: resolved)
            // The stack first (above): a file being parsed already has a
            // placeholder in `includes`, and skipping it there is how a cycle
            // that does not pass through the top file used to slip through.
            if includes[resolved] != nil { continue }
            diagnostics += loadInclude(path, resolved: resolved, from: file, at: range, loader: loader,
                                       includes: &includes, stack: stack, limits: limits, deadline: deadline)
        }
        return program
    }

    /// Reads and parses one included script (and what it includes) into
    /// `includes`; returns its errors, reported at the `include` line.
    static func loadInclude(_ path: String, resolved: String, from file: SourceFile, at range: SourceRange,
                            loader: any SourceLoader, includes: inout IncludedPrograms,
                            stack: [String]? = nil, limits: Limits = Limits(),
                            deadline: ContinuousClock.Instant? = nil) -> [Diagnostic] {
        let maxDepth = limits.includeDepth
        let stack = stack ?? [loader.canonical(loader.resolve(file.name, relativeTo: nil))]
        if stack.count > maxDepth {
            return [Diagnostic(.inputLimit, "includes nest deeper than the limit of \(maxDepth)", file: file, range: range,
                               hint: "the host running this script sets the limits")]
        }
        if let cycle = cycleDiagnostic(path, resolved: resolved, from: file, at: range, loader: loader, stack: stack) {
            return [cycle]
        }
        var diagnostics: [Diagnostic] = []
        do {
            let included = try loader.read(resolved)
            includes[resolved] = Program(file: included, statements: [])
            includes[resolved] = parse(included, loader: loader, stack: stack + [loader.canonical(resolved)],
                                       includes: &includes, diagnostics: &diagnostics, limits: limits, deadline: deadline)
        } catch {
            diagnostics.append(Diagnostic(error.code, error.message(for: path), file: file, range: range,
                                          hint: error.hint(otherwise: "paths in include are relative to the including file")))
        }
        return diagnostics
    }
}

extension ScriptLoader {
    /// An include cycle error when `resolved` names a file on the include
    /// stack (compared by canonical path), else nil.
    static func cycleDiagnostic(_ path: String, resolved: String, from file: SourceFile, at range: SourceRange,
                                loader: any SourceLoader, stack: [String]) -> Diagnostic? {
        guard stack.contains(loader.canonical(resolved)) else { return nil }
        return Diagnostic(.includeCycle, "'\(path)' includes itself (through \(stack.joined(separator: " → ")))",
                          file: file, range: range, hint: "remove one of the include lines")
    }
}

extension LoadError {
    /// The diagnostic code for this failure.
    public var code: DiagnosticCode {
        switch self {
        case .notFound: .fileNotFound
        case .unreadable, .forbidden, .tooLarge: .fileUnreadable
        }
    }

    /// What to do about it: for a refused path, where reads may go; else `otherwise`.
    public func hint(otherwise: String) -> String {
        switch self {
        case .forbidden: "this run reads only what its host allows (kcs: --root and --untrusted; see docs/limits.md)"
        case .tooLarge: "kcs run and kcs check read up to \(Limits().sourceBytes >> 20) MiB a file, \(Limits.untrusted.sourceBytes >> 20) MiB with --untrusted; a host embedding kcs sets its own limit (see docs/limits.md)"
        case .notFound, .unreadable: otherwise
        }
    }

    /// What went wrong, for a message that names the file itself
    /// ("cannot read the xcconfig file 'X': no such file").
    public var reason: String {
        switch self {
        case .notFound: "no such file"
        case .unreadable(_, let reason): reason
        case .forbidden(_, let reason): "kcs may not read it: \(reason)"
        case .tooLarge(_, let size?, let limit): "it is \(size) bytes, more than the \(limit) this host reads"
        case .tooLarge(_, nil, let limit): "it is more than the \(limit) bytes this host reads"
        }
    }

    /// The message, naming `path` as the user wrote it.
    public func message(for path: String) -> String {
        switch self {
        case .notFound(let p) where p.unicodeScalars.contains("\u{FFFD}"):
            // Names reach kcs as text: one that is not UTF-8 was repaired on
            // the way and names another file (found by adversarial testing).
            "cannot open '\(path)': its name is not valid UTF-8 (shown with U+FFFD), and kcs names files by UTF-8 text; rename it"
        case .notFound(let p): p == path ? "no such file: '\(path)'" : "no such file: '\(path)' (looked for '\(p)')"
        case .unreadable(let p, let reason): "cannot read '\(p)': \(reason)"
        case .tooLarge: "cannot read '\(path)': \(reason)"
        case .forbidden(let p, let reason): "may not read '\(p)': \(reason)"
        }
    }
}

/// Reads files only inside a root folder: includes that resolve outside it
/// are refused. For hosts that run scripts they did not write.
public struct RootedFileLoader: SourceLoader {
    public let root: String
    private let files: FileSystemLoader

    /// Whether `include` and `entitlements=` may name absolute paths (inside the root).
    public let allowsAbsolutePaths: Bool
    /// What ``resolve(_:relativeTo:)`` puts before an absolute path it does not allow,
    /// so ``read(_:)`` refuses it with a reason.
    private static let refusedMark = "<absolute>"

    public init(root: String, maxBytes: Int = FileSystemLoader().maxBytes, allowsAbsolutePaths: Bool = true) {
        self.root = FileSystemLoader.normalise(root)
        self.files = FileSystemLoader(maxBytes: maxBytes)
        self.allowsAbsolutePaths = allowsAbsolutePaths
    }

    public func canonical(_ resolved: String) -> String { files.canonical(resolved) }

    public func isDirectory(_ resolved: String) -> Bool { inside(resolved) && files.isDirectory(resolved) }

    public func isFile(_ resolved: String) -> Bool { inside(resolved) && files.isFile(resolved) }

    public func fileSize(_ resolved: String) -> Int? { inside(resolved) ? files.fileSize(resolved) : nil }

    /// Whether a path leads, through any links, inside the root.
    private func inside(_ resolved: String) -> Bool {
        guard let realRoot = FileSystemLoader.realPath(root), let real = FileSystemLoader.realPath(resolved) else { return false }
        return real == realRoot || real.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/")
    }

    /// A folder inside the root, listed; none outside it.
    public func contents(ofDirectory resolved: String) -> [String]? {
        guard inside(resolved), let real = FileSystemLoader.realPath(resolved) else { return nil }
        return files.contents(ofDirectory: real)
    }

    public func resolve(_ path: String, relativeTo including: String?) -> String {
        // Paths written in a script are refused when absolute; the host's
        // own (no including file) are not.
        if !allowsAbsolutePaths, including != nil, path.hasPrefix("/") { return Self.refusedMark + path }
        return files.resolve(path, relativeTo: including)
    }

    public func read(_ resolved: String) throws(LoadError) -> SourceFile {
        if resolved.hasPrefix(Self.refusedMark) {
            throw .forbidden(String(resolved.dropFirst(Self.refusedMark.count)), reason: "absolute paths are not allowed here")
        }
        try FileSystemLoader.refuseNUL(resolved)
        let path = FileSystemLoader.normalise(resolved)
        // First as written: a path that climbs out is refused whether or not it exists.
        let lexicalPrefix = root.hasSuffix("/") ? root : root + "/"
        let writtenInside = root == "." ? !path.hasPrefix("/") && path != ".." && !path.hasPrefix("../")
                                        : path == root || path.hasPrefix(lexicalPrefix) || !path.hasPrefix("/")
        guard writtenInside else { throw .forbidden(resolved, reason: "it is outside \(root)") }
        // Then as stored: a symbolic link inside the root cannot lead out.
        guard let realRoot = FileSystemLoader.realPath(root) else {
            throw .forbidden(resolved, reason: "the root \(root) does not exist")
        }
        guard let real = FileSystemLoader.realPath(path) else { throw .notFound(resolved) }
        let prefix = realRoot.hasSuffix("/") ? realRoot : realRoot + "/"
        guard real == realRoot || real.hasPrefix(prefix) else {
            throw .forbidden(resolved, reason: "it is outside \(root)")
        }
        try FileSystemLoader.refuseSystemFolder(real)
        return SourceFile(name: path, bytes: try FileSystemLoader.readRegularFile(real, maxBytes: files.maxBytes))
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
