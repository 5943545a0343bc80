#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file was not written. Every case names the path; failures of the
/// system carry its reason (`strerror`).
public enum WriteError: Error, Sendable, Hashable {
    /// The file changed on disk after it was read: writing would lose that change.
    case changedSinceRead(String)
    /// The file exists and the caller asked not to replace it.
    case exists(String)
    /// A system call failed: what was being done and why.
    case failed(String, step: String, reason: String)
    /// The file is read-only (no write permission for anyone): replacing it
    /// by a rename would ignore that.
    case readOnly(String)
    /// The file has other names (hard links): a new file under this name
    /// would leave them holding the old text.
    case hardLinked(String, links: Int)
    /// The path is no regular file that can be replaced (a folder, a
    /// socket, a symbolic link loop): what it is instead.
    case notRegular(String, what: String)
    /// The output is a file the run read: writing it would replace its input.
    case isInput(String, input: String)
    /// The file belongs to another user (or group) whom the new file cannot
    /// be given to: replacing it would take it from them.
    case ownedByOther(String)
    /// The file exists and is not one the command wrote before (it does not
    /// begin with the command's header): someone's own file.
    case notGenerated(String, what: String)

    public var message: String {
        switch self {
        case .changedSinceRead(let p): "'\(p)' changed since it was read; it was not overwritten"
        case .exists(let p): "'\(p)' already exists"
        case .failed(let p, let step, let reason): "cannot write '\(p)': \(step): \(reason)"
        case .readOnly(let p): "'\(p)' is read-only; it was not overwritten"
        case .hardLinked(let p, let links): "'\(p)' has \(links) hard links, and a new file would split them; it was not overwritten"
        case .notRegular(let p, let what): "'\(p)' is \(what), not a file kcs can write"
        case .isInput(let p, let input): "'\(p)' is '\(input)', which this run reads; it was not overwritten"
        case .ownedByOther(let p): "'\(p)' belongs to another user or group, whom the new file could not be given to; it was not overwritten"
        case .notGenerated(let p, let what):
            "'\(p)' exists and is no \(what) wrote; it was not overwritten (write to a new file, or delete this one first)"
        }
    }
}

/// Writes whole files so that a reader, or a crash at any moment, sees
/// either the old contents or the new, byte for byte: the new text goes to
/// a temporary file beside the target, is flushed to disk and renamed over
/// it. The target keeps its permissions, owner and group (a file the writer
/// cannot give back to its owner is refused, not taken over; the writer's
/// own file in a group it cannot give it to takes the writer's group, without
/// a set-group-ID bit); a symbolic link is followed and
/// its target replaced, so the link stays a link. A read-only file, or one
/// with other hard links, is refused rather than replaced behind them. A
/// character device or a pipe (`-o /dev/stdout`) is written to as it is,
/// never replaced: renaming over one turned `/dev/null` into a plain file
/// for the whole machine (found by adversarial testing, as root).
public enum AtomicFile {
    /// What is replaced and how.
    public enum Mode: Sendable, Hashable {
        /// Create the file or replace it.
        case replace
        /// Create the file; refuse if it exists (atomically: no race with
        /// another writer creating it meanwhile).
        case createOnly
        /// Replace the file only if it still holds exactly these bytes (what
        /// was read); a file changed by someone else is left alone.
        case replaceIfUnchanged([UInt8])
        /// A generated file: created, or replaced only when it is an earlier
        /// one (it begins with `header`), and never when it is one of
        /// `inputs` (the same file, however it is reached). An output naming
        /// the run's input replaced what it was made from (`export -o` given
        /// the scenario); `export -o` replaced Package.swift and a
        /// hand-written scenario, and an import the template a hint says to
        /// copy (found by adversarial testing).
        /// `marker`: text the header's first line must also hold (a generic
        /// header, `# Imported from `, could begin someone's own notes).
        case replaceGenerated(inputs: [String], header: String, marker: String? = nil, what: String)
    }

    /// The descriptor a path names when it is the caller's own standard
    /// output or error, as written (`/dev/stdout`, `/dev/fd/1`,
    /// `/proc/self/fd/2`): a shell may redirect them to a file. Nothing else
    /// under /dev or /proc counts (`/dev/fd/../cwd/…` reached a template;
    /// found by adversarial testing).
    static func ownOutput(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1": 1
        case "/dev/stderr", "/dev/fd/2", "/proc/self/fd/2": 2
        default: nil
        }
    }

    /// Writes `bytes` to `path`.
    public static func write(_ bytes: [UInt8], to path: String, mode: Mode = .replace) throws(WriteError) {
        // The system would write the path up to its first NUL, another file.
        if path.utf8.contains(0) { throw .notRegular(path, what: "a path holding a NUL character (\\u{0})") }
        // What the path is, asking the kernel to follow every link (also
        // /dev/stdout → /proc/self/fd/1 → a pipe, which is no path to follow by hand).
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            switch info.st_mode & S_IFMT {
            case S_IFCHR, S_IFIFO:
                switch mode {
                case .replace, .replaceGenerated: break
                case .createOnly, .replaceIfUnchanged: throw .notRegular(path, what: "a device or a pipe")
                }
                return try writeInPlace(bytes, to: path)
            case S_IFDIR: throw .notRegular(path, what: "a folder")
            default: throw .notRegular(path, what: "neither a file, a device nor a pipe")
            }
        }
        // The caller's own output, redirected by a shell to a file: written
        // through the descriptor, as the shell set it up (`>>` appends,
        // `1<>` writes from the start). Reopened by its name, the file was
        // replaced (found by adversarial testing).
        if let fd = ownOutput(path) {
            switch mode {
            case .createOnly, .replaceIfUnchanged: throw .notRegular(path, what: "the standard output or error")
            case .replace, .replaceGenerated(inputs: _, header: _, marker: _, what: _): break
            }
            // Redirected to a file the run read (`1<>s.kcs`): that file is not written.
            if case .replaceGenerated(let inputs, _, _, _) = mode, fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
                try refuseInput(info, inputs, path)
            }
            guard Descriptor.writeAll(fd, bytes) == 0 else { throw failure(path, "write") }
            return
        }
        let target = try followLinks(path)
        let exists = stat(target, &info) == 0
        if exists, case .replaceGenerated(let inputs, let header, let marker, let what) = mode {
            try refuseInput(info, inputs, path)
            // The file written, not only the name typed. An empty file holds
            // nothing to lose.
            if info.st_size > 0 && !firstLine(of: target, begins: header, holding: marker) {
                throw .notGenerated(path, what: what)
            }
        }
        if exists, case .createOnly = mode { throw .exists(path) }
        // Found by adversarial testing: the rename replaced a chmod 444 file
        // and left a hard link's other names with the old text.
        if exists && info.st_mode & 0o222 == 0 { throw .readOnly(path) }
        if exists && info.st_nlink > 1 { throw .hardLinked(path, links: Int(info.st_nlink)) }
        if case .replaceIfUnchanged(let expected) = mode {
            guard exists, holds(target, expected) else { throw .changedSinceRead(path) }
        }
        var permissions: mode_t = exists ? info.st_mode & 0o7777 : 0o644
        let slash = target.lastIndex(of: "/")
        let dir = slash.map { String(target[..<$0]) } ?? "."
        let base = slash.map { String(target[target.index(after: $0)...]) } ?? target
        var template = Array(((dir.isEmpty ? "" : dir + "/") + "." + base + ".kcs-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buf -> Int32 in
            guard let base = buf.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard fd >= 0 else { throw failure(path, "create a temporary file beside it") }
        let temp = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var done = false
        defer { if !done { unlink(temp) } }
        do {
            defer { close(fd) }
            guard Descriptor.writeAll(fd, bytes) == 0 else { throw failure(path, "write") }
            // The new file is the writer's: given back to the old one's owner
            // and group, or refused (a `kcs fmt` by another user, or by root,
            // took the file over, and a set-user-ID file stayed one with its
            // new owner; found by adversarial testing).
            if exists && (info.st_uid != geteuid() || info.st_gid != getegid()),
               fchown(fd, info.st_uid, info.st_gid) != 0 {
                // The writer's own file in a group it cannot give it: it
                // stays the writer's, in the writer's group, and a set-group-ID
                // bit is not carried to that group (found by adversarial testing).
                guard info.st_uid == geteuid() else { throw .ownedByOther(path) }
                permissions &= ~mode_t(0o2000)
            }
            guard fchmod(fd, permissions) == 0 else { throw failure(path, "keep its permissions") }
            guard fsync(fd) == 0 else { throw failure(path, "flush to disk") }
        }
        switch mode {
        case .createOnly:
            // link(2) never replaces: a file that appeared meanwhile is kept.
            guard link(temp, target) == 0 else {
                if errno == EEXIST { throw .exists(path) }
                throw failure(path, "create it")
            }
        case .replaceIfUnchanged(let expected):
            // Checked again as late as possible: an editor may have saved meanwhile.
            guard holds(target, expected) else { throw .changedSinceRead(path) }
            guard rename(temp, target) == 0 else { throw failure(path, "replace it") }
            done = true
        case .replace, .replaceGenerated:
            guard rename(temp, target) == 0 else { throw failure(path, "replace it") }
            done = true
        }
        // The rename itself is durable once the folder is flushed.
        let dirFD = open(dir.isEmpty ? "/" : dir, O_RDONLY)
        if dirFD >= 0 { _ = fsync(dirFD); close(dirFD) }
    }

    /// A device or a pipe, written as a shell's `>` would (no rename, no
    /// temporary file, nothing to make durable).
    /// A pipe nobody reads is refused at once (opened without waiting, it
    /// answers ENXIO; a blocking open waited for a reader forever, whatever
    /// the run's time limit).
    private static func writeInPlace(_ bytes: [UInt8], to path: String) throws(WriteError) {
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENXIO { throw .notRegular(path, what: "a pipe nobody reads") }
            throw failure(path, "open it")
        }
        defer { close(fd) }
        // Then as a shell's `>` writes: blocking while the reader catches up.
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else { throw failure(path, "open it") }
        guard Descriptor.writeAll(fd, bytes) == 0 else { throw failure(path, "write") }
    }

    /// The file a chain of symbolic links leads to (the path itself when it
    /// is not a link, or when the link dangles: then the link's target is
    /// created); a chain of more than 40 links (a loop), or a link to a name
    /// that is not UTF-8, is refused.
    static func followLinks(_ path: String) throws(WriteError) -> String {
        var current = path
        for _ in 0..<40 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n > 0 else { return current }
            // A name that is not UTF-8 cannot be carried as text: decoded,
            // it named another file, and the write was refused as "changed
            // since it was read" (found by adversarial testing).
            guard let link = String(validating: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) else {
                throw .notRegular(path, what: "a symbolic link to a name that is not UTF-8")
            }
            if link.hasPrefix("/") {
                current = link
            } else if let slash = current.lastIndex(of: "/") {
                current = String(current[...slash]) + link
            } else {
                current = link
            }
        }
        throw .notRegular(path, what: "a loop of symbolic links")
    }

    /// Refuses the file `info` describes when it is one of `inputs` (the
    /// same file, however it is reached).
    private static func refuseInput(_ info: stat, _ inputs: [String], _ path: String) throws(WriteError) {
        var other = stat()
        for input in inputs where stat(input, &other) == 0 && other.st_dev == info.st_dev && other.st_ino == info.st_ino {
            throw .isInput(path, input: input)
        }
    }

    /// Whether the file's first line begins with `prefix` and holds
    /// `marker` (its first 4 KB only are read).
    static func firstLine(of path: String, begins prefix: String, holding marker: String?) -> Bool {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 4096)
        var got = 0
        while got < head.count {
            let n = head.withUnsafeMutableBufferPointer { buf -> Int in
                guard let base = buf.baseAddress else { return 0 }
                #if canImport(Glibc)
                return Glibc.read(fd, base + got, buf.count - got)
                #else
                return Darwin.read(fd, base + got, buf.count - got)
                #endif
            }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            got += n
        }
        let line = String(decoding: head[..<got].prefix { $0 != 0x0A }, as: UTF8.self)
        return line.hasPrefix(prefix) && (marker.map { line.contains($0) } ?? true)
    }

    /// Whether the file at `path` holds exactly `expected`.
    static func holds(_ path: String, _ expected: [UInt8]) -> Bool {
        guard let now = try? FileSystemLoader.readRegularFile(path, maxBytes: expected.count) else { return false }
        return now == expected
    }

    private static func failure(_ path: String, _ step: String) -> WriteError {
        .failed(path, step: step, reason: String(cString: strerror(errno)))
    }
}

/// Writing to a file descriptor with plain system calls (no shared
/// `FILE*` state): the one loop the atomic writer, the REPL's terminal
/// output and `kcs`'s standard streams share.
public enum Descriptor {
    /// Writes every byte, again after a signal interrupts a write. Returns 0
    /// when all were written, else the error number of the failed write
    /// (`EIO` for a write that wrote nothing), which `errno` also holds.
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress else { return 0 }
            var offset = 0
            while offset < buf.count {
                #if canImport(Glibc)
                let n = Glibc.write(fd, base + offset, buf.count - offset)
                #else
                let n = Darwin.write(fd, base + offset, buf.count - offset)
                #endif
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    if n == 0 { errno = EIO }
                    return errno
                }
                offset += n
            }
            return 0
        }
    }
}
