import Foundation
import KCSSyntax

/// How the project reader reaches files, so a host can root or forbid it.
public protocol ProjectFileSystem: Sendable {
    /// The bytes of a regular file, or why not.
    func read(_ path: String) -> Result<[UInt8], ProjectFileError>
    /// The names in a folder (not recursive), or nil if it is not one.
    func contents(ofDirectory path: String) -> [String]?
    /// One name per file or folder however it is reached (through links,
    /// `..`), so a walk visits each once. Defaults to `path`.
    func canonical(_ path: String) -> String
    /// Whether `path` is a folder, without listing it. Defaults to asking
    /// for its contents.
    func isDirectory(_ path: String) -> Bool
    /// Whether `path` is a regular file, without reading it. Defaults to
    /// reading it (a test for a `Package.swift` read 30 MiB files in full;
    /// found by adversarial testing).
    func isFile(_ path: String) -> Bool
    /// The size in bytes of a regular file, without reading it, where the
    /// file system can tell; nil when it cannot (the default).
    func fileSize(_ path: String) -> Int?
    /// Whether the reader's time limit has passed (a run's deadline):
    /// parsing `project.pbxproj` and walking its targets ask it as they go,
    /// and stop. Defaults to never.
    var isPastDeadline: Bool { get }
}

extension ProjectFileSystem {
    public func canonical(_ path: String) -> String { path }
    public func isDirectory(_ path: String) -> Bool { contents(ofDirectory: path) != nil }
    public func isFile(_ path: String) -> Bool {
        if case .success = read(path) { return true }
        return false
    }
    public func fileSize(_ path: String) -> Int? { nil }
    public var isPastDeadline: Bool { false }

    /// The bytes of a file of at most `limit` bytes, else a failure: the
    /// size is asked first, so a larger file is refused unread where the
    /// file system can tell (eight sparse 250 MB workspace files beside a
    /// project were each read whole before a 1 MiB test, 14 s and 271 MB;
    /// review 22a, R9). The one place for "read, then test the count".
    public func read(_ path: String, atMost limit: Int) -> Result<[UInt8], ProjectFileError> {
        let tooLarge = ProjectFileError("the file is larger than \(limit) bytes")
        if let size = fileSize(path), size > limit { return .failure(tooLarge) }
        let result = read(path)
        if case .success(let bytes) = result, bytes.count > limit { return .failure(tooLarge) }
        return result
    }
}

/// Why a project file could not be read.
public struct ProjectFileError: Error, Sendable, Hashable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// The local file system, with a size cap per file.
public struct LocalProjectFileSystem: ProjectFileSystem {
    /// A project.pbxproj of a very large app is a few MB.
    public var maxFileSize: Int

    public init(maxFileSize: Int = 32 << 20) { self.maxFileSize = maxFileSize }

    public func read(_ path: String) -> Result<[UInt8], ProjectFileError> {
        if let folder = ProjectPath.systemFolder(holding: path) { return .failure(ProjectPath.systemFolderRefusal(folder)) }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            return .failure(ProjectFileError("no such file"))
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { return .failure(ProjectFileError("not a regular file")) }
        if let size = attributes[.size] as? Int, size > maxFileSize {
            return .failure(ProjectFileError("the file is larger than \(maxFileSize) bytes"))
        }
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(ProjectFileError("cannot read the file")) }
        guard data.count <= maxFileSize else { return .failure(ProjectFileError("the file is larger than \(maxFileSize) bytes")) }
        return .success([UInt8](data))
    }

    public func contents(ofDirectory path: String) -> [String]? {
        if ProjectPath.systemFolder(holding: path) != nil { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        return (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted()
    }

    public func canonical(_ path: String) -> String { ProjectPath.realPath(path) ?? path }

    public func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return ProjectPath.systemFolder(holding: path) == nil
            && FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    public func isFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return ProjectPath.systemFolder(holding: path) == nil
            && FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    public func fileSize(_ path: String) -> Int? {
        guard ProjectPath.systemFolder(holding: path) == nil, let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular else { return nil }
        return attributes[.size] as? Int
    }
}

/// Reads `.xcconfig` files: `NAME[cond] = value` lines, `//` comments and
/// `#include "path"` / `#include? "path"` (relative to the including file).
struct XCConfigReader {
    /// Include chains deeper than this are refused (Xcode projects use two or three).
    static let maxDepth = 16
    /// At most this many files are read for one configuration.
    static let maxFiles = 128
    /// At most this many bytes and settings are read for one configuration,
    /// a file included again counting again: 100 includes of one 884 KB
    /// file held 1.9 GB of settings and took 362 s (found by adversarial
    /// testing). Real configurations hold hundreds of settings.
    static let maxBytes = 8 << 20
    static let maxSettings = 100_000

    let fileSystem: any ProjectFileSystem
    var issues: [ProjectIssue] = []
    private var filesRead = 0
    private var bytesRead = 0
    /// Git submodules by folder, for the hint on a missing file.
    fileprivate(set) var gitmodules = ProjectPath.Submodules()
    private var settingsRead = 0
    /// Set once a budget is spent: nothing more is read, and it was said once.
    private var exhausted = false
    /// Where a relative `#include` is looked for when the including file's
    /// folder does not hold it: the project's source root, as Xcode looks
    /// (swift-build's MacroConfigFileLoader: "we look first in the includer's
    /// directory and after that in the search paths", which are
    /// `[project.sourceRoot]`). Flutter's `Flutter/Debug.xcconfig` includes
    /// `Pods/Target Support Files/…` this way, and every Flutter app with
    /// CocoaPods lost its settings (found on a real-project trial).
    let searchRoot: String?

    init(fileSystem: any ProjectFileSystem, gitmodules: ProjectPath.Submodules = ProjectPath.Submodules(),
         searchRoot: String? = nil) {
        self.fileSystem = fileSystem
        self.gitmodules = gitmodules
        self.searchRoot = searchRoot
    }

    /// The assignments of `path` and its includes, in file order.
    mutating func read(_ path: String, optional: Bool = false, from: ProjectLocation?) -> [SettingAssignment] {
        var out: [SettingAssignment] = []
        read(path, optional: optional, from: from, chain: [], into: &out)
        return out
    }

    /// `orElse`: where an `#include` is read when `path` cannot be (the
    /// search root's copy); a problem is said of `path`.
    private mutating func read(_ path: String, optional: Bool, from: ProjectLocation?, chain: [String], into out: inout [SettingAssignment],
                               orElse: String? = nil) {
        guard !exhausted else { return }
        if chain.contains(path) {
            issues.append(ProjectIssue(.warning, "'\(path)' includes itself (through \(chain.map(ProjectPath.lastComponent).joined(separator: " → ")))",
                                       at: from, hint: "remove the #include that closes the cycle"))
            return
        }
        guard chain.count < Self.maxDepth else {
            issues.append(ProjectIssue(.warning, "#include nests more than \(Self.maxDepth) files deep", at: from))
            return
        }
        guard filesRead < Self.maxFiles else {
            issues.append(ProjectIssue(.warning, "more than \(Self.maxFiles) xcconfig files; the rest are not read", at: from))
            return
        }
        let bytes: [UInt8]
        switch fileSystem.read(path) {
        case .success(let b): bytes = b
        case .failure(let e):
            if let other = orElse, fileSystem.isFile(other) {
                return read(other, optional: optional, from: from, chain: chain, into: &out)
            }
            if !optional {
                // Where CocoaPods writes an included Pods file, and Xcode finds
                // it: the source root, not beside the includer (found by review).
                let missing = orElse.flatMap { ("/" + $0).contains("/Pods/") ? $0 : nil } ?? path
                // A file a project ships as a template for each developer to
                // copy (IVPN's release.template.xcconfig; Mullvad, WireGuard
                // and Brave do the same): say so, it is the fix.
                let template = ProjectPath.template(of: missing, in: fileSystem)
                let fix = template.map { ProjectPath.copyAdvice($0, to: missing) + "; " }
                    ?? ProjectPath.generatedBy(missing)
                    ?? ProjectPath.submodule(of: missing, in: fileSystem, known: &gitmodules).map {
                        "it is in the git submodule \($0), not checked out: run `git submodule update --init`; "
                    } ?? ""
                var issue = ProjectIssue(.warning, "cannot read the xcconfig file '\(missing)': \(e.message)", at: from,
                                         hint: fix + "settings it would give are left out"
                                             + (chain.isEmpty ? "" : "; #include? marks a file that may be absent"))
                if ProjectPath.isCocoaPodsSupportFile(missing) { issue.missingPodsFile = missing }
                issue.unreadXCConfig = missing
                issues.append(issue)
            }
            return
        }
        guard bytesRead + bytes.count <= Self.maxBytes else {
            exhausted = true
            issues.append(ProjectIssue(.warning, "the xcconfig files of this configuration come to more than "
                                       + "\(Self.maxBytes >> 20) MiB (a file included again counts again); '\(path)' and the rest are not read",
                                       at: from))
            return
        }
        bytesRead += bytes.count
        filesRead += 1
        var lineNumber = 0
        // Lines as every location counts them (``LineBreaks``): split on
        // the Character "\n", a CR LF file was one line (a CR LF is one
        // Character), and its settings were lost.
        for range in LineBreaks.lines(bytes) {
            let rawLine = Substring(String(decoding: bytes[range], as: UTF8.self))
            if exhausted { return }
            lineNumber += 1
            let here = ProjectLocation(file: path, line: lineNumber)
            var line = Substring(Self.stripComment(rawLine)).trimmedSubstring
            if line.isEmpty { continue }
            if line.hasPrefix("#include") {
                line = line.dropFirst(8)
                let mayBeAbsent = line.hasPrefix("?")
                if mayBeAbsent { line = line.dropFirst() }
                line = line.trimmedSubstring
                guard line.count >= 2, line.first == "\"", line.last == "\"" else {
                    issues.append(ProjectIssue(.warning, "cannot read this #include; kcs expects #include \"path\"", at: here))
                    continue
                }
                let target = String(line.dropFirst().dropLast())
                if target.hasPrefix("<") {
                    issues.append(ProjectIssue(.warning, "#include \"\(target)\" names a folder of the developer tools, which kcs does not have", at: here))
                    continue
                }
                let beside = ProjectPath.join(ProjectPath.directory(path), target)
                let inRoot = target.hasPrefix("/") ? nil : searchRoot.map { ProjectPath.join($0, target) }
                read(beside, optional: mayBeAbsent, from: here, chain: chain + [path], into: &out,
                     orElse: inRoot == beside ? nil : inRoot)
                continue
            }
            if line.hasSuffix(";") { line = line.dropLast().trimmedSubstring }
            guard let eq = Self.assignment(in: line), let (name, conditions) = SettingAssignment.splitKey(String(line[..<eq])),
                  name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                issues.append(ProjectIssue(.warning, "cannot read this line of an xcconfig file; expected NAME = value", at: here))
                continue
            }
            guard settingsRead < Self.maxSettings else {
                exhausted = true
                issues.append(ProjectIssue(.warning, "the xcconfig files of this configuration set more than "
                                           + "\(Self.maxSettings) settings (a file included again counts again); the rest are not read",
                                           at: here))
                return
            }
            settingsRead += 1
            out.append(SettingAssignment(name: name, conditions: conditions, value: String(line[line.index(after: eq)...]).trimmed,
                                         location: here))
        }
    }

    /// The `=` of `NAME[cond=…] = value`: the first one outside the condition brackets.
    static func assignment(in line: Substring) -> Substring.Index? {
        var depth = 0
        for i in line.indices {
            switch line[i] {
            case "[": depth += 1
            case "]": depth -= 1
            case "=" where depth == 0: return i
            default: break
            }
        }
        return nil
    }

    /// The line without its `//` comment. xcconfig files have no string
    /// quoting, so `//` always starts a comment (URLs are written `/$()/`).
    static func stripComment(_ line: Substring) -> Substring {
        var previous: Character = " "
        for i in line.indices {
            if line[i] == "/" && previous == "/" { return line[..<line.index(before: i)] }
            previous = line[i]
        }
        return line
    }
}

extension Substring {
    var trimmedSubstring: Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return s
    }
}

extension ProjectPath {
    /// System folders whose files are not files: they describe the running
    /// machine (`/proc/self/environ` is the environment, secrets included).
    /// Scripts, their includes and Xcode projects alike never read them.
    public static let systemFolders = ["/proc", "/sys", "/dev"]

    /// The system folder `path` leads into through any links, if any.
    public static func systemFolder(holding path: String) -> String? {
        guard let real = realPath(path) else { return nil }
        return systemFolders.first { real == $0 || real.hasPrefix($0 + "/") }
    }

    /// Why a file in a system folder is not read.
    static func systemFolderRefusal(_ folder: String) -> ProjectFileError {
        ProjectFileError("it is in \(folder), which describes this machine, not a project")
    }

    /// The path with every symbolic link resolved, or nil if it does not exist.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `path` from the root: as is when it is absolute, else under the
    /// current directory.
    public static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? normalize(path) : join(FileManager.default.currentDirectoryPath, path)
    }
}

/// The xcconfig files of one project, each read once (with its includes)
/// however many targets and configurations are based on it, its Info.plist
/// strings, each file scanned once, and the project's budget of resolved
/// settings. Shared by the copies of an
/// `XcodeProject`; a lock keeps it safe to share across threads.
final class XCConfigCache: @unchecked Sendable {
    /// Settings all resolutions of a project may hold together.
    static let maxSettings = 2_000_000
    /// This project's budget (`maxSettings` but in tests).
    let limit: Int
    private let lock = NSLock()
    private var files: [String: (assignments: [SettingAssignment], issues: [ProjectIssue])] = [:]
    private var infoPlists: [String: [String: (String, Int)]?] = [:]
    /// Git submodules by folder, for the hints on missing files.
    private var gitmodules = ProjectPath.Submodules()
    /// Each target's platforms in each configuration, worked out once (300
    /// targets × 20,000 words of SUPPORTED_PLATFORMS, split again at every
    /// question, took 20 s; found by adversarial testing).
    private var platformSets: [String: (sdks: [String], settings: BuildSettings, issues: [ProjectIssue])] = [:]

    /// The xcconfig files and Info.plists read so far (with those that could not be).
    var filesRead: [String] {
        lock.lock()
        defer { lock.unlock() }
        return (Array(files.keys) + Array(infoPlists.keys)).sorted()
    }

    func platforms(_ key: String, _ make: () -> (sdks: [String], settings: BuildSettings, issues: [ProjectIssue]))
        -> (sdks: [String], settings: BuildSettings, issues: [ProjectIssue]) {
        memo(\.platformSets, key, make)
    }

    /// What `table` holds under `key`, made the first time outside the lock
    /// (a make may read files; two threads making the same key store the same).
    private func memo<Value>(_ table: ReferenceWritableKeyPath<XCConfigCache, [String: Value]>, _ key: String,
                             _ make: () -> Value) -> Value {
        lock.lock()
        if let known = self[keyPath: table][key] { lock.unlock(); return known }
        lock.unlock()
        let made = make()
        lock.lock()
        self[keyPath: table][key] = made
        lock.unlock()
        return made
    }
    private var spent = 0
    private var charged: Set<String> = []
    /// Whether some resolution was refused: what the project's targets have
    /// in common can no longer be compared.
    private(set) var exhausted = false

    init(limit: Int = XCConfigCache.maxSettings) { self.limit = limit }

    /// The assignments of `path` and its includes, and the problems reading
    /// them, the first time said where the first configuration names it.
    /// `searchRoot`: the project's source root, where an `#include` not
    /// beside its includer is looked for.
    func read(_ path: String, from: ProjectLocation?, fileSystem: any ProjectFileSystem,
              searchRoot: String? = nil) -> ([SettingAssignment], [ProjectIssue]) {
        lock.lock()
        defer { lock.unlock() }
        if let known = files[path] { return (known.assignments, known.issues) }
        // The submodules found so far go from reader to reader: one per
        // xcconfig re-read a 30 MiB .gitmodules 302 times (found by
        // adversarial testing).
        var reader = XCConfigReader(fileSystem: fileSystem, gitmodules: gitmodules, searchRoot: searchRoot)
        let assignments = reader.read(path, from: from)
        gitmodules = reader.gitmodules
        files[path] = (assignments, reader.issues)
        return (assignments, reader.issues)
    }

    /// The strings of an Info.plist, read once per project.
    func infoPlist(_ path: String, fileSystem: any ProjectFileSystem) -> [String: (String, Int)]? {
        memo(\.infoPlists, path) {
            guard case .success(let bytes) = fileSystem.read(path) else { return nil }
            return XcodeProject.infoPlistStrings(bytes)
        }
    }

    /// Counts `n` settings of one target, configuration and SDK (`key`)
    /// against the budget, once however often it is resolved; false once
    /// the budget is spent.
    func spend(_ n: Int, for key: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if charged.contains(key) { return true }
        guard spent + n <= limit else { exhausted = true; return false }
        spent += n
        charged.insert(key)
        return true
    }
}

/// A project's files as a Mac finds them: its file system ignores case, so
/// a project that names `xdrip/xDrip.entitlements` for `xDrip/xdrip.entitlements`
/// builds there, and a Linux CI must find the file too (xDrip4iOS's four
/// warnings were false on Linux, and its main app went unchecked; found on
/// a real project). A path that is not found as written is looked up again
/// component by component, ignoring case; each folder is listed once.
public final class CaseFoldingFileSystem: ProjectFileSystem, @unchecked Sendable {
    public let base: any ProjectFileSystem
    private let lock = NSLock()
    /// Each folder's names, and the same by their lowercased form (the
    /// first in sorted order wins).
    private var listings: [String: (exact: Set<String>, folded: [String: String])] = [:]

    public init(_ base: any ProjectFileSystem) {
        self.base = (base as? CaseFoldingFileSystem)?.base ?? base
    }

    public func read(_ path: String) -> Result<[UInt8], ProjectFileError> {
        let first = base.read(path)
        if case .success = first { return first }
        guard let found = folded(path), found != path else { return first }
        return base.read(found)
    }

    public func contents(ofDirectory path: String) -> [String]? {
        base.contents(ofDirectory: path) ?? folded(path).flatMap { base.contents(ofDirectory: $0) }
    }

    public func canonical(_ path: String) -> String { base.canonical(folded(path) ?? path) }

    /// `path` spelled as the file system spells it (the same path when
    /// nothing matches it ignoring case): what a scenario written for Linux
    /// must name (an import wrote `AdGuardPro/…` for `AdguardPro/…`, and its
    /// scenario failed to run; found on a real-project trial).
    public func spelled(_ path: String) -> String { folded(path) ?? path }

    public func isDirectory(_ path: String) -> Bool {
        base.isDirectory(path) || folded(path).map { $0 != path && base.isDirectory($0) } ?? false
    }

    public func isFile(_ path: String) -> Bool {
        base.isFile(path) || folded(path).map { $0 != path && base.isFile($0) } ?? false
    }

    public func fileSize(_ path: String) -> Int? { base.fileSize(path) ?? folded(path).flatMap { $0 != path ? base.fileSize($0) : nil } }

    public var isPastDeadline: Bool { base.isPastDeadline }

    /// The path as the file system spells it, found ignoring case; nil
    /// when some component matches nothing.
    func folded(_ path: String) -> String? {
        let absolute = path.hasPrefix("/")
        var current = absolute ? "/" : "."
        var out: [String] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true).map(String.init) {
            if component == "." || component == ".." {
                out.append(component)
                current = ProjectPath.join(current, component)
                continue
            }
            guard let names = listing(current) else { return nil }
            guard let name = names.exact.contains(component) ? component : names.folded[component.lowercased()] else { return nil }
            out.append(name)
            current = ProjectPath.join(current, name)
        }
        let joined = out.joined(separator: "/")
        return absolute ? "/" + joined : joined
    }

    /// Names kept in all: past this a path not found as written is not
    /// looked for again (links to one folder under many spellings each
    /// listed it anew: 2.9 GB; found by adversarial testing).
    static let maxEntries = 200_000
    private var entries = 0

    /// Each folder's real path, by how it was written (one `realpath` per spelling).
    private var realPaths: [String: String] = [:]

    private func listing(_ written: String) -> (exact: Set<String>, folded: [String: String])? {
        // By the folder's real path: each folder once, however it is reached.
        lock.lock()
        let knownReal = realPaths[written]
        lock.unlock()
        let folder = knownReal ?? base.canonical(written)
        lock.lock()
        if knownReal == nil, realPaths.count < Self.maxEntries { realPaths[written] = folder }
        if let known = listings[folder] { lock.unlock(); return known }
        let full = entries >= Self.maxEntries
        lock.unlock()
        guard !full, let names = base.contents(ofDirectory: written) else { return nil }
        var byLowercase: [String: String] = [:]
        for name in names.sorted() where byLowercase[name.lowercased()] == nil { byLowercase[name.lowercased()] = name }
        let found = (exact: Set(names), folded: byLowercase)
        lock.lock()
        listings[folder] = found
        entries += names.count
        lock.unlock()
        return found
    }
}
