import KCSSyntax

/// What a path given for a project names: the `.xcodeproj` folder, or why
/// it is not one. A workspace, a Swift package, XcodeGen's or Tuist's
/// description of a project, or a folder of several projects was read as
/// `PATH/project.pbxproj`, a path that cannot exist (found on a
/// real-project trial): each is said for what it is, with what to give.
public enum ProjectInput {
    /// The `.xcodeproj` folder `path` names: itself, the folder of its
    /// `project.pbxproj`, a folder holding `project.pbxproj`, or the one
    /// project in a folder. A path that cannot be read at all is returned
    /// as it is: reading its project.pbxproj says why.
    static func projectFolder(_ path: String, fileSystem: any ProjectFileSystem) -> Result<String, ProjectIssue> {
        var folder = path
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        if ProjectPath.lastComponent(folder) == "project.pbxproj" { return .success(ProjectPath.directory(folder)) }
        if folder.hasSuffix(".xcodeproj") { return ungenerated(folder, fileSystem: fileSystem).map { .failure($0) } ?? .success(folder) }
        // A project's own workspace (`App.xcodeproj/project.xcworkspace`) is that project.
        if folder.hasSuffix(".xcworkspace"), ProjectPath.directory(folder).hasSuffix(".xcodeproj") { return .success(ProjectPath.directory(folder)) }
        if folder.hasSuffix(".xcworkspace") {
            return .failure(workspace(folder, "'\(folder)' is an Xcode workspace, which kcs does not read", fileSystem: fileSystem))
        }
        guard let names = fileSystem.contents(ofDirectory: folder) else {
            guard fileSystem.isFile(folder) else {
                if case .failure(let e) = fileSystem.read(folder) {
                    return .failure(issue("cannot read '\(folder)': \(e.message)", hint: giveProject, at: nil))
                }
                return .success(folder)
            }
            if ProjectPath.lastComponent(folder) == "Package.swift" {
                return .failure(issue("'\(folder)' is a Swift package's manifest, not an Xcode project",
                                      hint: packageHint + ": kcs reads a local package's code through the targets that link it", at: folder))
            }
            // XcodeGen's or Tuist's description given itself: said as its
            // folder is (it was "a file, not an .xcodeproj folder"; real-project trial 14, D6).
            for (file, tool, command) in generators where ProjectPath.lastComponent(folder) == file {
                return .failure(issue("'\(folder)' is \(tool)'s description of a project, not an Xcode project",
                                      hint: generateHint(command, in: ProjectPath.directory(folder)), at: folder))
            }
            // A spec under another name (Tuta's mail-project.yml; real-project trial 15, D11).
            if isYAML(folder) {
                let name = ProjectPath.lastComponent(folder)
                return .failure(issue(isXcodeGenSpec(folder, fileSystem: fileSystem)
                                        ? "'\(folder)' is XcodeGen's description of a project, not an Xcode project"
                                        : "'\(folder)' is a YAML file, not an Xcode project: XcodeGen's description of one?",
                                      hint: generateHint("xcodegen generate --spec \(name)", in: ProjectPath.directory(folder)), at: folder))
            }
            return .failure(issue("'\(folder)' is a file, not an .xcodeproj folder", hint: giveProject + " (or that file)", at: nil))
        }
        if names.contains("project.pbxproj") { return .success(folder) }
        let projects = names.filter { $0.hasSuffix(".xcodeproj") }.sorted()
        if projects.count == 1 {
            let project = ProjectPath.join(folder, projects[0])
            return ungenerated(project, fileSystem: fileSystem).map { .failure($0) } ?? .success(project)
        }
        if projects.count > 1 {
            return .failure(issue("'\(folder)' holds \(projects.count) Xcode projects: " + listed(projects.map { ProjectPath.join(folder, $0) }),
                                  hint: "give one of them", at: nil))
        }
        if let w = names.filter({ $0.hasSuffix(".xcworkspace") }).sorted().first {
            let path = ProjectPath.join(folder, w)
            // A workspace of projects XcodeGen writes from the folder's specs,
            // none of them generated yet: the specs are the way (Tuta's
            // tuta.xcworkspace and mail-project.yml; real-project trial 15, D11).
            // Not a tool's own settings (`.swiftlint.yml`); specs named as
            // projects first, alone when there are such (`common.yml` is included by them).
            let yaml = names.filter { isYAML($0) && !$0.hasPrefix(".") }.sorted()
            let named = yaml.filter { $0.lowercased().contains("project") }
            let specs = named.isEmpty ? yaml : named
            if !specs.isEmpty, case .success(let bytes) = fileSystem.read(ProjectPath.join(path, "contents.xcworkspacedata"), atMost: 1 << 20),
               case let listed = workspaceProjects(bytes, workspace: path).projects, !listed.isEmpty,
               !listed.contains(where: { fileSystem.isDirectory($0.path) }) {
                return .failure(issue("'\(folder)' holds no .xcodeproj, and none of the projects its workspace '\(path)' lists exists; "
                                      + "it holds the YAML files " + self.listed(specs) + ", XcodeGen's descriptions of them?",
                                      hint: generateHint("xcodegen generate --spec \(specs[0])", in: folder) + " (one run per description)",
                                      at: ProjectPath.join(folder, specs[0])))
            }
            // A workspace that lists no project, or whose contents.xcworkspacedata
            // is not committed (only its xcshareddata), names nothing to
            // give: an XcodeGen spec beside it is the way (AlphaWallet's
            // project.yml; real-project trial 21, D8). Only a spec with
            // XcodeGen's `name:` and `targets:`.
            let contents = fileSystem.read(ProjectPath.join(path, "contents.xcworkspacedata"))
            let listsNothing: String? = switch contents {
            case .failure(let e): "its contents.xcworkspacedata cannot be read (\(e.message))"
            case .success(let bytes): { listing in
                listing.projects.isEmpty && listing.firstUnfollowed == nil ? "it lists no .xcodeproj" : nil
            }(workspaceProjects(bytes, workspace: path))
            }
            let xcodegen = specs.prefix(16).filter { isXcodeGenSpec(ProjectPath.join(folder, $0), fileSystem: fileSystem) }
            if let listsNothing, let first = xcodegen.first {
                return .failure(issue("'\(folder)' holds no .xcodeproj, and its Xcode workspace '\(path)' names none: \(listsNothing); "
                                      + "it holds XcodeGen's description" + (xcodegen.count == 1 ? " of a project, '\(first)'" : "s of projects " + self.listed(xcodegen)),
                                      hint: generateHint("xcodegen generate --spec \(first)", in: folder) + (xcodegen.count == 1 ? "" : " (one run per description)"),
                                      at: ProjectPath.join(folder, first)))
            }
            return .failure(workspace(path, "'\(folder)' holds no .xcodeproj, but the Xcode workspace '\(path)', which kcs does not read",
                                      fileSystem: fileSystem))
        }
        // Descriptions a tool turns into an .xcodeproj (bitwarden/ios and
        // Element X keep only XcodeGen's; found on a real-project trial).
        for (file, tool, command) in generators where names.contains(file) {
            return .failure(issue("'\(folder)' holds no .xcodeproj, but \(tool)'s \(file)",
                                  hint: generateHint(command, in: folder), at: ProjectPath.join(folder, file)))
        }
        // XcodeGen's description under another name (bitwarden's
        // project-bwa.yml: "holds no .xcodeproj" and nothing more;
        // real-project trial 16, D6). A few YAML files are looked into.
        let specs = names.filter { isYAML($0) && !$0.hasPrefix(".") }.sorted().prefix(16)
            .filter { isXcodeGenSpec(ProjectPath.join(folder, $0), fileSystem: fileSystem) }
        if let first = specs.first {
            return .failure(issue("'\(folder)' holds no .xcodeproj, but XcodeGen's description" + (specs.count == 1 ? " of a project, '\(first)'" : "s of projects " + listed(specs)),
                                  hint: generateHint("xcodegen generate --spec \(first)", in: folder) + (specs.count == 1 ? "" : " (one run per description)"),
                                  at: ProjectPath.join(folder, first)))
        }
        if names.contains("Package.swift") {
            return .failure(issue("'\(folder)' holds no .xcodeproj, but a Swift package (Package.swift), which is not an Xcode project",
                                  hint: packageHint, at: ProjectPath.join(folder, "Package.swift")))
        }
        return .failure(issue("'\(folder)' holds no .xcodeproj", hint: giveProject, at: nil))
    }

    /// An .xcodeproj that holds no project.pbxproj, beside a description a
    /// tool writes it from: the shared schemes of a generated project are
    /// committed, the project is not (element-ios's Riot.xcodeproj and its
    /// project.yml; "cannot read project.pbxproj, give the .xcodeproj"
    /// was said of the .xcodeproj given; real-project trial 16, D5).
    static func ungenerated(_ project: String, fileSystem: any ProjectFileSystem) -> ProjectIssue? {
        guard let inside = fileSystem.contents(ofDirectory: project), !inside.contains("project.pbxproj") else { return nil }
        let folder = ProjectPath.directory(project)
        guard let beside = fileSystem.contents(ofDirectory: folder),
              let (file, tool, command) = generators.first(where: { beside.contains($0.0) }) else { return nil }
        return issue("'\(project)' holds no project.pbxproj" + (inside.isEmpty ? "" : " (only " + listed(inside.sorted()) + ")")
                     + ", but \(tool)'s \(file) is beside it: the project is generated from it",
                     hint: generateHint(command, in: folder), at: ProjectPath.join(folder, file))
    }

    /// Descriptions a tool turns into an .xcodeproj, the tool, and its command.
    static let generators = [("project.yml", "XcodeGen", "xcodegen generate"), ("project.yaml", "XcodeGen", "xcodegen generate"),
                             ("Project.swift", "Tuist", "tuist generate")]
    /// File names `kcs lint` reads as `--project` rather than as a script.
    static let projectFileNames: Set<String> = Set(generators.map(\.0)).union(["Package.swift", "project.pbxproj"])

    /// Whether `kcs lint` reads the file as `--project`, which says what it
    /// is, rather than as a script: a project's own files, and YAML (an
    /// XcodeGen spec under any name; 350 syntax errors for Tuta's
    /// mail-project.yml, real-project trial 15, D11).
    public static func isProjectFile(_ path: String) -> Bool {
        projectFileNames.contains(ProjectPath.lastComponent(path)) || isYAML(path)
    }

    static func isYAML(_ path: String) -> Bool { path.hasSuffix(".yml") || path.hasSuffix(".yaml") }

    /// Whether a YAML file is an XcodeGen spec: `name:` and `targets:` at
    /// its top level, as every spec has them (a file past 4 MiB is none).
    /// Its size is asked first: each of 16 YAML files was read whole before
    /// the test (16 of 200 MB took 25 s to say a folder holds no project;
    /// adversarial run 27, F4).
    static func isXcodeGenSpec(_ path: String, fileSystem: any ProjectFileSystem) -> Bool {
        guard case .success(let bytes) = fileSystem.read(path, atMost: 4 << 20) else { return false }
        var keys = Set<String>()
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
            for key in ["name:", "targets:"] where line.hasPrefix(key) { keys.insert(key) }
        }
        return keys.count == 2
    }

    static func generateHint(_ command: String, in folder: String) -> String {
        "run `\(command)` in '\(folder)' first, then give the .xcodeproj it writes"
    }

    static let giveProject = "give the .xcodeproj folder, which holds project.pbxproj"
    static let packageHint = "give the .xcodeproj of an app that links the package"

    /// An issue about the input itself: at the start of `file`, if there is one.
    static func issue(_ message: String, hint: String, at file: String?, line: Int = 1, column: Int = 1) -> ProjectIssue {
        var out = ProjectIssue(.error, message, at: file.map { ProjectLocation(file: $0, line: line, column: column) }, hint: hint)
        out.namesNoProject = true
        return out
    }

    /// Names in quotes, the first ten of them.
    static func listed(_ names: [String]) -> String { listed(names.map { "'\($0)'" }, first: 10) }

    /// The first `first` items, and how many more.
    public static func listed(_ items: [String], first: Int) -> String { listed(Array(items.prefix(first)), of: items.count) }

    /// The first items of a list of `count`, and how many more.
    public static func listed(_ first: [String], of count: Int) -> String {
        first.joined(separator: ", ") + (count > first.count ? " and \(count - first.count) more" : "")
    }

    /// A workspace: `said`, then the projects its contents.xcworkspacedata
    /// lists, at the first of them.
    static func workspace(_ path: String, _ said: String, fileSystem: any ProjectFileSystem) -> ProjectIssue {
        let contents = ProjectPath.join(path, "contents.xcworkspacedata")
        let bytes: [UInt8]
        switch fileSystem.read(contents) {
        case .success(let b): bytes = b
        case .failure(let e):
            return issue(said + "; its contents.xcworkspacedata cannot be read (\(e.message))",
                         hint: "give the .xcodeproj folder of the project you want", at: nil)
        }
        let listing = workspaceProjects(bytes, workspace: path)
        let projects = listing.projects
        // Projects past the bounds are counted, not dropped without a word
        // (review 18, R9): the list is what the user picks from.
        var beyond = ""
        var notes: [ProjectIssue.Note] = []
        if let far = listing.firstUnfollowed {
            beyond = "; \(listing.unfollowed) more \(listing.unfollowed == 1 ? "project sits" : "projects sit") in groups nested more than "
                + "\(maxWorkspaceGroupDepth) deep or past \(maxWorkspacePathBytes / 1024) KiB of path, which kcs does not follow"
            notes = [ProjectIssue.Note("the first project kcs does not follow", at: ProjectLocation(file: contents, line: far.line, column: far.column))]
        }
        func withNotes(_ i: ProjectIssue) -> ProjectIssue { var i = i; i.notes = notes; return i }
        guard let first = projects.first else {
            let far = listing.firstUnfollowed
            return issue(said + (far == nil ? "; it lists no .xcodeproj" : "; it lists no .xcodeproj kcs follows") + beyond, hint: giveProject,
                         at: contents, line: far?.line ?? 1, column: far?.column ?? 1)
        }
        if projects.count == 1 {
            return withNotes(issue(said + "; it lists one project, '\(first.path)'" + beyond, hint: "give that project", at: contents,
                                   line: first.line, column: first.column))
        }
        return withNotes(issue(said + "; it lists the projects " + listed(projects.map(\.path)) + beyond,
                               hint: "give one of its projects: kcs reads one .xcodeproj at a time", at: contents, line: first.line, column: first.column))
    }

    /// The `.xcodeproj` paths a workspace's contents.xcworkspacedata lists
    /// (`<FileRef location = "group:App.xcodeproj">`, in `<Group>`s), each
    /// from where the workspace is, with the line and byte column of its
    /// `location`. `group:` is relative to the group around it, `container:`
    /// to the workspace's folder, `self:` the project holding the workspace.
    /// Those past the bounds below are counted.
    static func workspaceProjects(_ b: [UInt8], workspace: String) -> WorkspaceListing {
        let root = ProjectPath.directory(workspace)
        var out = WorkspaceListing()
        func unfollowed(_ location: (value: String, line: Int, column: Int)?) {
            guard let location, location.value.hasSuffix(".xcodeproj") else { return }
            out.unfollowed += 1
            if out.firstUnfollowed == nil { out.firstUnfollowed = (location.line, location.column) }
        }
        // Each open group's folder; nil past 64 groups deep or 4 KiB of path
        // (PATH_MAX), where nothing is listed: a chain of thousands of nested
        // groups held a joined path per level, quadratic in time and memory
        // (5,000 in 425 KB took 35 s and 700 MB; adversarial run 24, F5).
        var groups: [String?] = []
        var line = 1, lineStart = 0, i = 0
        func isName(_ c: UInt8) -> Bool { c >= 0x41 && c <= 0x5A || c >= 0x61 && c <= 0x7A || c >= 0x30 && c <= 0x39 || c == 0x5F || c == 0x2D }
        func newline(_ at: Int) { line += 1; lineStart = at + 1 }
        while i < b.count {
            if LineBreaks.ends(b, at: i) { newline(i) }
            guard b[i] == UInt8(ascii: "<") else { i += 1; continue }
            var j = i + 1
            let closing = j < b.count && b[j] == UInt8(ascii: "/")
            if closing { j += 1 }
            let nameStart = j
            while j < b.count, isName(b[j]) { j += 1 }
            let tag = String(decoding: b[nameStart..<j], as: UTF8.self)
            // The tag's attributes, to its `>`: `location = "…"` kept.
            var location: (value: String, line: Int, column: Int)?
            var lastName = "", nameAt = (line: line, column: 1), selfClosing = false
            while j < b.count, b[j] != UInt8(ascii: ">") {
                let c = b[j]
                if LineBreaks.ends(b, at: j) { newline(j) }
                if isName(c) {
                    let start = j
                    nameAt = (line, start - lineStart + 1)
                    while j < b.count, isName(b[j]) { j += 1 }
                    lastName = String(decoding: b[start..<j], as: UTF8.self)
                    continue
                }
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                    var k = j + 1
                    while k < b.count, b[k] != c { if LineBreaks.ends(b, at: k) { newline(k) }; k += 1 }
                    if lastName == "location" { location = (unescaped(b[min(j + 1, k)..<k]), nameAt.line, nameAt.column) }
                    lastName = ""
                    j = k + 1
                    continue
                }
                selfClosing = c == UInt8(ascii: "/")
                j += 1
            }
            i = j + 1
            if closing {
                if tag == "Group" { _ = groups.popLast() }
                continue
            }
            guard let parent = groups.last ?? root else {
                if tag == "Group", !selfClosing { groups.append(nil) }
                if tag == "FileRef" { unfollowed(location) }
                continue
            }
            let resolved = location.flatMap { resolve($0.value, in: parent, root: root) }
            if tag == "Group", !selfClosing {
                let folder = resolved ?? parent
                groups.append(groups.count < Self.maxWorkspaceGroupDepth && folder.utf8.count <= Self.maxWorkspacePathBytes ? folder : nil)
            }
            if tag == "FileRef", let path = resolved, !path.hasSuffix(".xcodeproj"), out.others.count < 200, path.utf8.count <= Self.maxWorkspacePathBytes {
                out.others.append(path)
            }
            if tag == "FileRef", let location, let path = resolved, path.hasSuffix(".xcodeproj") {
                if path.utf8.count <= Self.maxWorkspacePathBytes {
                    out.projects.append((path, location.line, location.column))
                } else {
                    unfollowed(location)
                }
            }
        }
        return out
    }

    /// The projects a workspace lists, and how many more it lists past the
    /// bounds, with where the first of those is.
    struct WorkspaceListing {
        var projects: [(path: String, line: Int, column: Int)] = []
        /// The other files and folders it lists (a local package, `group:Core`).
        var others: [String] = []
        var unfollowed = 0
        var firstUnfollowed: (line: Int, column: Int)?
    }

    /// Groups of a workspace followed this deep, and paths this long; past
    /// them a workspace's projects are counted, not listed (Xcode's own nest a few deep).
    static let maxWorkspaceGroupDepth = 64
    static let maxWorkspacePathBytes = 4096

    /// A workspace location (`group:A.xcodeproj`) as a path, or nil for a kind not followed.
    static func resolve(_ location: String, in parent: String, root: String) -> String? {
        guard let colon = location.firstIndex(of: ":") else { return nil }
        let rest = String(location[location.index(after: colon)...])
        switch location[..<colon] {
        case "group": return rest.isEmpty ? parent : ProjectPath.join(parent, rest)
        case "container": return rest.isEmpty ? root : ProjectPath.join(root, rest)
        case "absolute": return rest
        case "self": return root
        default: return nil
        }
    }

    /// XML's five entities worked out.
    static func unescaped(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("&") else { return text }
        let entities: [Substring: String] = ["lt": "<", "gt": ">", "quot": "\"", "apos": "'", "amp": "&"]
        var out = "", rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semicolon = after.prefix(5).firstIndex(of: ";"), let character = entities[after[..<semicolon]] {
                out += character
                rest = after[after.index(after: semicolon)...]
            } else {
                out += "&"
                rest = after
            }
        }
        return out + rest
    }
}
