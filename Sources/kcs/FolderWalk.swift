import Foundation

/// The documents below folders, for `kcs check DIR` and `kcs fmt DIR`:
/// sorted, hidden files and folders (.git, .build) skipped, symbolic links
/// not followed, and every folder that could not be listed kept with the
/// OS's reason. FileManager's enumerator dropped those silently, so a
/// document in a folder too deep or unreadable was never checked and the
/// run passed.
struct FolderWalk {
    /// The paths to check: files given, and the documents found in folders.
    var files: [String] = []
    /// Folders that could not be listed, with why.
    var unlisted: [String: String] = [:]
    /// Links to documents found in folders and left out (``init(_:followsFileLinks:keep:)``).
    var skippedLinks: [String] = []

    /// Why a folder cannot be listed, or nil when it can.
    static func listError(_ folder: String) -> String? {
        guard let dir = opendir(folder) else { return String(cString: strerror(errno)) }
        closedir(dir)
        return nil
    }

    /// `followsFileLinks`: whether a link in a folder to a document counts
    /// as the document. A reader (`kcs check`) follows it; a writer
    /// (`kcs fmt`) does not: the link may come from a pull request and point
    /// at any file the user can write (found by adversarial testing; gofmt
    /// and rustfmt skip links too). A file named itself is always taken.
    init(_ paths: [String], followsFileLinks: Bool = true, keep: (String) -> Bool) {
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                files.append(path)
                continue
            }
            var found: [String] = []
            // A stack, not recursion: a tree of thousands of nested folders
            // must not exhaust the call stack.
            var pending = [path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path]
            while let folder = pending.popLast() {
                guard let dir = opendir(folder) else {
                    unlisted[folder] = String(cString: strerror(errno))
                    continue
                }
                while let entry = readdir(dir) {
                    let name = withUnsafePointer(to: entry.pointee.d_name) {
                        $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
                    }
                    if name.hasPrefix(".") { continue }
                    let child = folder + "/" + name
                    var kind = entry.pointee.d_type
                    if kind == UInt8(DT_UNKNOWN) {
                        var info = stat()
                        if lstat(child, &info) == 0 {
                            let format = info.st_mode & S_IFMT
                            kind = format == S_IFDIR ? UInt8(DT_DIR) : format == S_IFREG ? UInt8(DT_REG) : UInt8(DT_UNKNOWN)
                        }
                    }
                    // A link to a document is checked; a link to a folder
                    // is not followed (`loop -> .` would never end).
                    if kind == UInt8(DT_LNK) {
                        var info = stat()
                        if stat(child, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
                            if followsFileLinks { kind = UInt8(DT_REG) } else if keep(child) { skippedLinks.append(child) }
                        }
                    }
                    if kind == UInt8(DT_DIR) {
                        pending.append(child)
                    } else if kind == UInt8(DT_REG), keep(child) {
                        found.append(child)
                    }
                }
                closedir(dir)
            }
            files += found.sorted()
        }
    }
}
