import KCSSyntax
import KCSXcodeProject

/// Turns findings about an Xcode project into diagnostics that show the
/// line they are about, reading each file once.
public struct ProjectDiagnostics {
    package let fileSystem: any ProjectFileSystem
    private var files: [String: SourceFile?] = [:]

    public init(fileSystem: any ProjectFileSystem) { self.fileSystem = fileSystem }

    /// The file's text, for excerpts and line lookups; nil if it cannot be read.
    public mutating func sourceFile(_ path: String) -> SourceFile? {
        if let cached = files[path] { return cached }
        let file: SourceFile? = switch fileSystem.read(path) {
        case .success(let bytes): SourceFile(name: path, bytes: bytes)
        case .failure: nil
        }
        files[path] = file
        return file
    }

    /// A diagnostic at the issue's place: the file and line, the caret under
    /// `length` characters from the column, or under the rest of the line.
    public mutating func diagnostic(_ issue: ProjectIssue, code: DiagnosticCode, length: Int? = nil,
                                    notes given: [DiagnosticNote] = []) -> Diagnostic {
        let severity: Severity = issue.severity == .error ? .error : issue.severity == .note ? .note : .warning
        var notes = given
        for n in issue.notes { notes.append(note(n.message, at: n.location)) }
        guard let at = issue.location else {
            return Diagnostic(code, issue.message, severity: severity, hint: issue.hint, notes: notes)
        }
        guard at.line > 0, let file = sourceFile(at.file) else {
            return Diagnostic(code, issue.message, file: SourceFile(name: at.file, bytes: []), severity: severity, hint: issue.hint, notes: notes)
        }
        return Diagnostic(code, issue.message, file: file, range: Self.range(in: file, line: at.line, column: at.column, length: length),
                          severity: severity, hint: issue.hint, notes: notes)
    }

    /// A note pointing at a place in a project file.
    public mutating func note(_ message: String, at location: ProjectLocation?) -> DiagnosticNote {
        guard let location, location.line > 0, let file = sourceFile(location.file) else { return DiagnosticNote(message) }
        // A place known by its line alone points at what the line holds, as
        // the warnings do (it pointed at column 1, before the indentation).
        return DiagnosticNote(message, file: file, range: Self.range(in: file, line: location.line, column: location.column,
                                                                     length: location.column <= 1 ? nil : 1))
    }

    /// How many characters the property-list value at `location` takes
    /// as written: a quoted string to its closing quote, else up to the `;`,
    /// `,`, `)` or blank after it; nil when the file does not read.
    public mutating func valueLength(at location: ProjectLocation) -> Int? {
        guard location.line > 0, let file = sourceFile(location.file), let bounds = file.lineBounds(location.line) else { return nil }
        let bytes = file.bytes
        let start = bounds.lowerBound + max(0, location.column - 1)
        guard start < bounds.upperBound else { return nil }
        var i = start
        if bytes[i] == UInt8(ascii: "\"") {
            i += 1
            while i < bounds.upperBound, bytes[i] != UInt8(ascii: "\"") { i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1 }
            i = min(i + 1, bounds.upperBound)
        } else {
            let ends: Set<UInt8> = [UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: ")"), 0x20, 0x09]
            while i < bounds.upperBound, !ends.contains(bytes[i]) { i += 1 }
        }
        // In characters, as `range(in:line:column:length:)` counts them.
        return String(decoding: bytes[start..<i], as: UTF8.self).unicodeScalars.count
    }

    /// The byte range of `length` scalars from a 1-based line and column
    /// (in UTF-8 bytes, as swift-syntax and the property-list reader count
    /// it); without a length, from the first non-blank character to the
    /// line's end.
    public static func range(in file: SourceFile, line: Int, column: Int, length: Int?) -> SourceRange {
        let bytes = file.bytes
        // The file's own line index and a byte column: walking to the line
        // or the column per diagnostic was quadratic (a file with thousands
        // of warnings; thousands of warnings on one 140 KB line).
        let bounds = file.lineBounds(line) ?? bytes.count..<bytes.count
        let start = bounds.lowerBound
        var end = bounds.upperBound
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        /// The byte offset `count` Unicode scalars after `from`, at most `end`.
        func skip(_ count: Int, from: Int) -> Int {
            var i = from, n = 0
            while n < count, i < end {
                i += 1
                while i < end, bytes[i] & 0xC0 == 0x80 { i += 1 }
                n += 1
            }
            return i
        }
        var offset = min(end, start + max(0, column - 1))
        while offset > start, offset < end, bytes[offset] & 0xC0 == 0x80 { offset -= 1 }
        guard let length else {
            if column <= 1 { while offset < end, bytes[offset] == 0x20 || bytes[offset] == 0x09 { offset += 1 } }
            return SourceRange(offset, end)
        }
        return SourceRange(offset, skip(length, from: offset))
    }
}

/// Reads project files through a script's loader, so a rooted or
/// file-less host keeps its limits for `app … project=`.
public struct LoaderProjectFileSystem: ProjectFileSystem {
    package let loader: any SourceLoader
    /// The run's deadline (``RunBudget/deadline``): past it nothing more is
    /// read, listed or looked up, so reading a project that is slow to read
    /// (thousands of folders to walk, xcconfig files to follow) ends there,
    /// and the run stops at its `app … project=` line. Reading a project has
    /// no statement to stop at: it was bounded by sizes alone, and ran for
    /// minutes under `kcs run --timeout 2` and in the language server.
    package var deadline: ContinuousClock.Instant?

    public init(loader: any SourceLoader) { self.loader = loader }

    package init(loader: any SourceLoader, deadline: ContinuousClock.Instant?) {
        self.loader = loader
        self.deadline = deadline
    }

    /// Whether the deadline has passed: what is left of the project is not
    /// read, nor parsed (a 61 MB project.pbxproj was parsed for 37 s under
    /// `kcs run --timeout 1`).
    public var isPastDeadline: Bool { isLate }

    private var isLate: Bool {
        guard let deadline else { return false }
        return ContinuousClock.now > deadline
    }

    public func read(_ path: String) -> Result<[UInt8], ProjectFileError> {
        if isLate { return .failure(ProjectFileError("the run's time limit has passed")) }
        do throws(LoadError) {
            return .success(try loader.read(loader.resolve(path, relativeTo: nil)).bytes)
        } catch {
            return .failure(ProjectFileError(error.reason))
        }
    }

    /// Folders as the loader lists them (none for a host without files).
    public func contents(ofDirectory path: String) -> [String]? {
        isLate ? nil : loader.contents(ofDirectory: loader.resolve(path, relativeTo: nil))
    }

    public func canonical(_ path: String) -> String { isLate ? path : loader.canonical(loader.resolve(path, relativeTo: nil)) }

    public func isDirectory(_ path: String) -> Bool { !isLate && loader.isDirectory(loader.resolve(path, relativeTo: nil)) }

    public func isFile(_ path: String) -> Bool { !isLate && loader.isFile(loader.resolve(path, relativeTo: nil)) }

    public func fileSize(_ path: String) -> Int? { isLate ? nil : loader.fileSize(loader.resolve(path, relativeTo: nil)) }
}
