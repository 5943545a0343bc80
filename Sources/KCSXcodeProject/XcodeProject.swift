import KCSSyntax

/// An Xcode project read from its `project.pbxproj`: the project's and each
/// target's build configurations, the targets' kinds, sources and embedded
/// products. Build settings are resolved by ``resolve(_:configuration:platform:)``.
public struct XcodeProject: Sendable {
    /// The `.xcodeproj` folder as given.
    public var path: String
    /// The project's name: the folder's name without `.xcodeproj` (`PROJECT_NAME`).
    public var name: String
    /// `SRCROOT`: the folder holding the `.xcodeproj` (and `projectDirPath`),
    /// written from the project's path as given.
    public var sourceRoot: String
    /// The same folder as an absolute path: what `$(SRCROOT)` and
    /// `$(PROJECT_DIR)` expand to, as in Xcode.
    public var absoluteSourceRoot: String
    public var pbxprojPath: String
    /// The project-level configurations, in project order.
    public var configurations: [Configuration]
    /// `defaultConfigurationName` of the project's configuration list.
    public var defaultConfiguration: String
    public var targets: [Target] { didSet { targetIndex = Self.index(targets + packageModules) } }
    /// Modules of local Swift packages that targets link, read from each
    /// package's manifest when the project was loaded with a
    /// ``SwiftPackageReading`` (``Target/isPackageModule``); their IDs are
    /// among their linkers' ``Target/linkedTargets``.
    public var packageModules: [Target] = [] { didSet { targetIndex = Self.index(targets + packageModules) } }
    /// Each target's place in ``targets`` and then ``packageModules`` by its ID, the first when an ID
    /// repeats; kept with ``targets`` (``code(of:)`` follows links by ID for
    /// every target, and building it there was targets² for a project).
    fileprivate(set) var targetIndex: [String: Int]

    static func index(_ targets: [Target]) -> [String: Int] {
        Dictionary(targets.indices.map { (targets[$0].id, $0) }, uniquingKeysWith: { first, _ in first })
    }
    /// The `.entitlements` files the project lists, with the line of their file reference.
    public var entitlementsFiles: [FileReference]
    /// Problems found while reading (an object that is not what it should be).
    public var issues: [ProjectIssue]
    /// Build files of build phases looked up while loading: each phase's
    /// once however many targets list it (tests count it).
    package var buildFilesWalked = 0

    /// A file the project lists, and where.
    public struct FileReference: Sendable, Hashable {
        public var path: String
        public var location: ProjectLocation
    }

    let fileSystem: any ProjectFileSystem
    /// The xcconfig files and Info.plists read, and the settings budget,
    /// shared by every resolution of the project.
    private(set) var xcconfigs = XCConfigCache()

    /// Xcode's name of each platform kcs models in a build file's platform filter.
    public static let platformFilterNames = ["ios": "ios", "catalyst": "maccatalyst", "macos": "macos", "watchos": "watchos",
                                             "tvos": "tvos", "visionos": "xros"]

    /// The xcconfig files and Info.plists the project's resolutions have read so far.
    public var xcconfigFilesRead: [String] { xcconfigs.filesRead }

    /// Sets the budget of resolved settings (tests; real projects keep the default).
    public mutating func limitSettings(to count: Int) { xcconfigs = XCConfigCache(limit: count) }

    /// The code that runs in a target's process: its own Swift sources, then
    /// those of the project's targets and local packages' modules it links
    /// (``Target/linkedTargets``), and theirs in turn, each file once; `unread`,
    /// what of it is not Swift kcs reads (``Target/unreadCode``), a linked
    /// target's named ("… of 'Shared'"). A framework's SecItem calls are made with the entitlements of
    /// the app or extension that loads it (real projects keep their keychain
    /// code in a framework more often than not; found on a real-project trial).
    /// `owner` is the linked target a file comes from (none for its own);
    /// `compilers`, for a file more than one of them compiles, each of them
    /// (its `#if`s are answered with each one's flags).
    /// `platform`: the build's (``TargetSigning``'s), when known: a source
    /// whose build file names other platforms (`platformFilters = (macos, );`)
    /// is not compiled in it (Firezone's macOS-only CLI sources were checked
    /// in its iOS build; real-project trial 21, D1).
    public func code(of target: Target, platform: String? = nil)
        -> (swiftSources: [String], unread: [String], unreadCount: Int, owner: [String: Target], compilers: [String: [Target]]) {
        var sources: [String] = [], listed = Set<String>(), owner: [String: Target] = [:], compilers: [String: [Target]] = [:]
        var firstCompiler: [String: Target] = [:]
        // The first ones said, and how many in all.
        var unread: [String] = [], saidUnread = Set<String>(), unreadCount = 0
        var visited: Set<String> = [target.id], queue = [target]
        var next = 0
        while next < queue.count {
            let t = queue[next]
            next += 1
            for u in t.unreadCode where unread.count < Target.maxUnreadCode {
                let said = t.id == target.id ? u : u + " of '\(t.name)'"
                if saidUnread.insert(said).inserted { unread.append(said) }
            }
            unreadCount += t.unreadCode.count + t.unreadCodeMore
            for path in t.swiftSources where platform.map({ t.compiles(path, on: $0) }) ?? true {
                guard listed.insert(path).inserted else {
                    // Compiled again, by another target of the process.
                    if compilers[path] == nil, let first = firstCompiler[path] { compilers[path] = [first] }
                    if compilers[path]?.contains(where: { $0.id == t.id }) == false { compilers[path]?.append(t) }
                    continue
                }
                sources.append(path)
                firstCompiler[path] = t
                if t.id != target.id { owner[path] = t }
            }
            for id in t.linkedTargets where visited.insert(id).inserted {
                if let linked = targetIndex[id] {
                    queue.append(linked < targets.count ? targets[linked] : packageModules[linked - targets.count])
                }
            }
        }
        return (sources, unread, max(unreadCount, unread.count), owner, compilers)
    }

    /// One build configuration at one level: its settings, with lines, and
    /// the xcconfig file it is based on.
    public struct Configuration: Sendable {
        public var name: String
        /// The `buildSettings` dictionary's assignments, unconditional first.
        public var settings: [SettingAssignment]
        /// The base xcconfig file (`baseConfigurationReference`, or the anchor
        /// and relative path of newer projects), resolved against the project.
        public var baseConfiguration: String?
        public var location: ProjectLocation
    }

    /// A native target.
    public struct Target: Sendable {
        public var id: String
        public var name: String
        public var productType: String
        public var configurations: [Configuration]
        /// Swift files its Sources build phase compiles (or its synchronized
        /// folders hold), and the Objective-C files (`.m`, `.mm`) its Sources
        /// build phase compiles, which kcs reads too (``ObjectiveCSource``).
        public var swiftSources: [String]
        /// Targets whose products a Copy Files phase embeds in this one.
        public var embeddedTargets: [String]
        /// Xcode's platform filters of an embedded target's entry, by its ID
        /// (`platformFilter = ios;`, `platformFilters = (ios, maccatalyst, );`):
        /// the builds for other platforms do not embed it.
        public var embedFilters: [String: [String]] = [:]
        /// Xcode's platform filters of a source's entry in its Sources phase
        /// (or of its synchronized folder's exception set), by its path in
        /// ``swiftSources``: the builds for other platforms do not compile it.
        public var sourceFilters: [String: [String]] = [:]
        /// Targets of this project whose products its Frameworks phase links
        /// (frameworks and libraries): their code runs in this target's
        /// process, with its entitlements (``code(of:)``).
        public var linkedTargets: [String] = []
        /// What of its own code is not in `swiftSources`, each said once:
        /// sources in other languages, a framework, library or package
        /// linked but the SDK's and the project's own (``linkedTargets``)
        /// ("package product 'HsToolKit'", "2 Objective-C sources, the first
        /// 'Bridge.m'"). When not empty, kcs cannot tell what the target's
        /// code does, and KCS604's hint names these (it said only "code kcs
        /// does not read"; real-project trial 19, W3).
        /// At most ``maxUnreadCode``; ``unreadCodeMore`` counts the rest (a
        /// frameworks phase of 3,000 products another project makes, listed
        /// by each of 200 targets, kept 600,000 names; adversarial run 25, F4).
        public var unreadCode: [String] = []
        public var unreadCodeMore = 0
        public static let maxUnreadCode = 16
        /// `TargetAttributes` → `DevelopmentTeam`, which older Xcode versions wrote.
        public var attributesTeam: String?
        public var location: ProjectLocation

        /// The targets it embeds in its build for `platform`: an extension
        /// embedded with `platformFilter = ios` is not in the Mac Catalyst
        /// build, and was checked as if it were (Nostur's share extension;
        /// real-project trial 19, D5).
        public func embeddedTargets(on platform: String) -> [String] {
            guard let filter = XcodeProject.platformFilterNames[platform] else { return embeddedTargets }
            return embeddedTargets.filter { embedFilters[$0]?.contains(filter) ?? true }
        }

        /// Whether its build for `platform` (kcs's name: "ios", "catalyst", …)
        /// compiles `path`, one of its ``swiftSources``: its entry has no
        /// platform filter, or one naming that platform. A file under a folder
        /// filtered as a whole takes the folder's filters.
        public func compiles(_ path: String, on platform: String) -> Bool {
            guard !sourceFilters.isEmpty, let filter = XcodeProject.platformFilterNames[platform] else { return true }
            var p = path
            while true {
                if let filters = sourceFilters[p] { return filters.contains(filter) }
                let up = ProjectPath.directory(p)
                guard up != p, !up.isEmpty, up != "." else { return true }
                p = up
            }
        }

        /// The product type kcs gives a module of a local Swift package
        /// (``XcodeProject/packageModules``); Xcode has none.
        public static let packageModuleType = "kcs.swift-package-module"
        /// A module of a local Swift package, not a target of the project:
        /// it has no build settings of the project's.
        public var isPackageModule: Bool { productType == Self.packageModuleType }
        /// The target as a finding names what a target links: "package
        /// module 'Store'", or "'SharedKit'".
        public var linkedName: String { isPackageModule ? "package module '\(name)'" : "'\(name)'" }

        /// The kind of signed executable the product type makes, or nil for
        /// a framework, library, test bundle or other product.
        public var kind: ProductKind? { ProductKind(productType: productType) }
    }

    /// Products only macOS runs: a system extension, an XPC service and
    /// an Xcode source editor extension build for the Mac, whatever
    /// platforms the project lists (``platforms(of:configuration:)``).
    static let macOnlyProductTypes: Set<String> = [
        "com.apple.product-type.system-extension", "com.apple.product-type.xpc-service", "com.apple.product-type.xcode-extension",
    ]

    /// The signed executables kcs models, by Xcode product type.
    public enum ProductKind: String, Sendable, Hashable {
        case app, appExtension = "extension", appClip = "app-clip", watchApp = "watch-app", watchExtension = "watch-extension"

        init?(productType: String) {
            switch productType {
            case "com.apple.product-type.application", "com.apple.product-type.application.messages": self = .app
            case "com.apple.product-type.application.on-demand-install-capable": self = .appClip
            case "com.apple.product-type.application.watchapp2", "com.apple.product-type.application.watchapp",
                 "com.apple.product-type.application.watchapp2-container": self = .watchApp
            case "com.apple.product-type.watchkit2-extension", "com.apple.product-type.watchkit-extension": self = .watchExtension
            // An iMessage sticker pack (`…messages-sticker-pack`) has no
            // executable and never reads the keychain: not modelled (it was
            // asked to share its app's groups, KCS604, found on BlueWallet).
            case "com.apple.product-type.app-extension", "com.apple.product-type.app-extension.messages",
                 "com.apple.product-type.extensionkit-extension",
                 "com.apple.product-type.tv-app-extension",
                 // macOS: a system extension (a network extension, ProtonVPN's
                 // OpenVPN and WireGuard) and an XPC service are signed with
                 // their own entitlements and share groups with their app.
                 "com.apple.product-type.system-extension", "com.apple.product-type.xpc-service",
                 // An Xcode source editor extension is an app extension too
                 // (Copilot for Xcode's was dropped in silence; found on a
                 // real-project trial).
                 "com.apple.product-type.xcode-extension": self = .appExtension
            default: return nil
            }
        }

        /// The `kind=` a scenario gives it.
        public var scenarioKind: String {
            switch self {
            case .app, .watchApp: "app"
            case .appExtension, .watchExtension: "extension"
            case .appClip: "app-clip"
            }
        }
    }

    /// Reads `PATH/project.pbxproj`. A project that cannot be parsed is an
    /// error with its line and column.
    /// `packages` reads the manifests of local Swift packages the targets
    /// link (``packageModules``); without one, their code is not read.
    /// `again`: what the user does once the project is mended, in the
    /// words of the command that read it ("lint again", "import again").
    public static func load(_ path: String, fileSystem: any ProjectFileSystem = LocalProjectFileSystem(),
                            packages: (any SwiftPackageReading)? = nil, again: String = "lint again") -> Result<XcodeProject, ProjectIssue> {
        // Also accepted: the project.pbxproj itself, or a folder holding exactly one project.
        let folder: String
        switch ProjectInput.projectFolder(path, fileSystem: fileSystem) {
        case .success(let f): folder = f
        case .failure(let issue): return .failure(issue)
        }
        let pbxproj = ProjectPath.join(folder, "project.pbxproj")
        let bytes: [UInt8]
        switch fileSystem.read(pbxproj) {
        case .success(let b): bytes = b
        case .failure(let e):
            return .failure(ProjectIssue(.error, "cannot read '\(pbxproj)': \(e.message)", at: nil,
                                         hint: "give the .xcodeproj folder, which holds project.pbxproj"))
        }
        let root: PlistNode
        switch OldStylePlistParser.parse(bytes, isLate: { fileSystem.isPastDeadline }) {
        case .success(let r): root = r
        case .failure(let e):
            // A merge left unresolved is the usual cause (Raivo's had four;
            // found on a real-project trial): said, at its first marker.
            if !fileSystem.isPastDeadline, let marker = Self.conflictMarkerLine(bytes) {
                return .failure(ProjectIssue(.error, "project.pbxproj has an unresolved merge conflict",
                                             at: ProjectLocation(file: pbxproj, line: marker, column: 1),
                                             hint: "resolve the conflict between <<<<<<< and >>>>>>> first (git mergetool, or pick a side), then \(again)"))
            }
            return .failure(ProjectIssue(.error, "project.pbxproj is not a valid property list: \(e.message)",
                                         at: ProjectLocation(file: pbxproj, line: e.line, column: e.column), hint: e.hint))
        }
        var reader = ProjectReader(root: root, pbxproj: pbxproj, folder: folder, fileSystem: fileSystem, packages: packages)
        return reader.project()
    }
}

extension XcodeProject {
    /// The 1-based line of the first `<<<<<<< ` merge-conflict marker that
    /// starts a line, if any.
    static func conflictMarkerLine(_ bytes: [UInt8]) -> Int? {
        let marker = Array("<<<<<<< ".utf8)
        var line = 1, start = true
        var i = 0
        while i < bytes.count {
            if start, bytes.count - i >= marker.count, bytes[i..<i + marker.count].elementsEqual(marker) { return line }
            start = LineBreaks.ends(bytes, at: i)
            if start { line += 1 }
            i += 1
        }
        return nil
    }
}

/// Walks the objects of a parsed `project.pbxproj`.
private struct ProjectReader {
    let root: PlistNode
    let pbxproj: String
    let folder: String
    let fileSystem: any ProjectFileSystem
    let packages: (any SwiftPackageReading)?
    var objects: [String: PlistNode] = [:]
    var parents: [String: String] = [:]
    var issues: [ProjectIssue] = []
    var sourceRoot = "."
    /// Each walk of a folder once per set of exclusions, whichever targets
    /// and groups ask for it.
    var walks: [String: (swift: [String], otherSources: Bool)] = [:]

    /// Modules of local packages read so far, in the order found.
    var packageModules: [XcodeProject.Target] = [], packageModuleIDs = Set<String>()
    /// What local packages' manifests say that kcs does not follow, once said.
    var saidUnread = Set<ProjectIssue>()
    /// Products of local packages that local packages' modules depend on,
    /// found nowhere: said once each, by the product and the folders looked
    /// in, naming every module that depends on it, by the place of that
    /// issue in ``issues`` (Proton Pass's absent PassRustCore, which modules
    /// of two packages depend on, was said twice).
    var absentDependencies: [String: (issue: Int, dependents: [String])] = [:]
    /// Each manifest read once (nil: none kcs reads), by folder.
    var packagesByFolder: [String: (any SwiftPackage)?] = [:]
    /// Each product's module IDs once (nil: not readable), by its package's
    /// folder and its name, and by product dependency, however many targets
    /// and dependency objects name it.
    var productModules: [String: [String]?] = [:], dependencyModules: [String: [String]?] = [:]
    /// Folders the project lists that hold a `Package.swift`: local packages
    /// as Xcode before 15 added them (a folder reference, and product
    /// dependencies naming no package).
    var packageFolders: [String]?
    /// Products of local packages kcs could not read, by package, in the
    /// order met, with where the first was named: said once per package.
    /// `absent`: the folder of a referenced package that is not there, whose
    /// hint says what writes it.
    var unreadProducts: [(package: String, products: [String], location: ProjectLocation, absent: String?, productsAt: ProjectLocation?)] = []
    /// Other Xcode projects the project refers to whose products targets
    /// link (a `PBXReferenceProxy` in a Frameworks phase), by the ID of the
    /// `.xcodeproj` file reference, in the order met: their code is not
    /// read, said once per project.
    var otherProjects: [(reference: String, products: [String], linkers: [String])] = []
    /// Each of ``otherProjects`` by the ID of its file reference, with its
    /// products and linkers as sets: a search of the lists per build file
    /// was products² per target (adversarial run 25, F4).
    var otherProjectIndex: [String: (index: Int, products: Set<String>, linkers: Set<String>)] = [:]
    /// ``siblingWorkspaces()``, once read.
    var workspacesBeside: [(path: String, listing: ProjectInput.WorkspaceListing)]?
    /// Build files of phases looked up (``XcodeProject/buildFilesWalked``).
    var buildFilesWalked = 0
    /// The `XCLocalSwiftPackageReference` folders (in ID order) with no
    /// Package.swift, once looked for.
    var absentReferenceFolders: [String]?
    /// Whether the project names a remote package, once looked for.
    var hasRemotePackages: Bool?

    init(root: PlistNode, pbxproj: String, folder: String, fileSystem: any ProjectFileSystem, packages: (any SwiftPackageReading)?) {
        self.root = root
        self.pbxproj = pbxproj
        self.folder = folder
        self.fileSystem = fileSystem
        self.packages = packages
    }

    func at(_ node: PlistNode?) -> ProjectLocation {
        ProjectLocation(file: pbxproj, line: node?.line ?? 0, column: node?.column ?? 1)
    }

    mutating func project() -> Result<XcodeProject, ProjectIssue> {
        for entry in root["objects"]?.entries ?? [] { objects[entry.key] = entry.value }
        guard let rootID = root["rootObject"]?.string, let project = objects[rootID], project["isa"]?.string == "PBXProject" else {
            return .failure(ProjectIssue(.error, "project.pbxproj has no PBXProject root object", at: at(root["rootObject"] ?? root),
                                         hint: "is this an Xcode project file?"))
        }
        for (id, object) in objects {
            for child in object["children"]?.array ?? [] { if let c = child.string { parents[c] = id } }
        }
        sourceRoot = ProjectPath.join(ProjectPath.directory(folder), project["projectDirPath"]?.string ?? "")
        let list = objects[project["buildConfigurationList"]?.string ?? ""]
        let configurations = configurationList(list)
        // A default the list lacks (Proton Drive names `Release-External`,
        // an orphan object) is not an error: Xcode builds the list's first
        // configuration then (swift-build's getEffectiveConfiguration: the
        // named one, else the default's, else `buildConfigurations.first`).
        // kcs stopped with "no configuration" (found on a real-project trial).
        // A list naming no default keeps kcs's earlier choice, its last.
        let named = list?["defaultConfigurationName"]?.string
        let defaultName = named.flatMap { n in configurations.contains { $0.name == n } ? n : configurations.first?.name }
            ?? named ?? configurations.last?.name ?? "Release"
        let targetAttributes = project["attributes"]?["TargetAttributes"]
        var productOwner: [String: String] = [:]
        for id in project["targets"]?.array?.compactMap(\.string) ?? [] {
            if let product = objects[id]?["productReference"]?.string { productOwner[product] = id }
        }
        var targets: [XcodeProject.Target] = []
        let targetIDs = project["targets"]?.array ?? []
        if targetIDs.count > Self.maxTargets {
            issues.append(ProjectIssue(.warning, "the project has \(targetIDs.count) targets; kcs reads the first \(Self.maxTargets)",
                                       at: at(project["targets"])))
        }
        // The exception sets of synchronized folders, by the target they
        // name: for a target the folder does not belong to, its files are
        // added to that target (Xcode writes a file of A's folder ticked for
        // B that way).
        var exceptionsByTarget: [String: [(group: String, exception: String)]] = [:]
        // In the file's order of IDs: a dictionary's order differs from run to run.
        let synchronizedGroups = objects.filter { $0.value["isa"]?.string == "PBXFileSystemSynchronizedRootGroup" }
        for (groupID, group) in synchronizedGroups.sorted(by: { $0.key < $1.key }) {
            for exceptionID in group["exceptions"]?.array?.compactMap(\.string) ?? [] {
                guard let target = objects[exceptionID]?["target"]?.string else { continue }
                exceptionsByTarget[target, default: []].append((groupID, exceptionID))
            }
        }
        // A sources phase is worked out once, however many targets list it
        // (its Swift paths, and whether every file was a Swift source kcs
        // found): 1,000 targets sharing one phase of 3,300 files 60 groups
        // deep walked the groups 3.3 million times (154 s, 695 MB for a
        // 1 MB file; adversarial run 24, F7).
        var phaseSources: [String: (swift: [String], unread: [String])] = [:]
        // A frameworks phase too: what it links, what it names that kcs
        // does not read, and the other projects whose products it links,
        // deduplicated, worked out once (1,000 targets sharing a phase of
        // 3,000 products of another project took 34 s; adversarial run 25, F4).
        var phaseFrameworks: [String: (effects: [LinkEffect], portals: [String])] = [:]
        // Each phase's build files and the file references they name.
        var phaseFiles: [String: (buildFiles: [PlistNode], files: [String])] = [:]
        // Each file reference placed once, however many phases list it
        // (targets with phases of their own that list the same files walked
        // the groups again for each; review of session 18, R2).
        var placements: [String: Placement] = [:]
        // Source paths kept over all targets, charged before they are worked
        // out; past the budget no later sources are read, and that is said once.
        var sourceEntries = 0, sourceBudgetSpent = false
        for idNode in targetIDs.prefix(Self.maxTargets) {
            // Past the reader's time limit the rest is not worked out: the
            // caller stops at the project (``ProjectFileSystem/isPastDeadline``).
            if fileSystem.isPastDeadline { break }
            guard let id = idNode.string, let t = objects[id] else { continue }
            guard t["isa"]?.string == "PBXNativeTarget" else { continue }  // aggregate and legacy targets build nothing signed
            let name = t["name"]?.string ?? id
            var embedded: [String] = [], linked: [String] = [], embedFilters: [String: [String]] = [:]
            // Targets an entry embeds with no filter: in every build, whatever
            // another entry's filter says (one filtered entry made a target
            // embedded twice iOS-only; review 19, R14).
            var unfiltered: Set<String> = []
            var sources: [String] = []
            // Sources an entry compiles only for some platforms, and those
            // another entry compiles in every build.
            var sourceFilters: [String: [String]] = [:], unfilteredSources: Set<String> = []
            var unread: [String] = [], saidUnread = Set<String>(), unreadMore = 0
            func cannotRead(_ what: String) {
                guard saidUnread.insert(what).inserted else { return }
                if unread.count < XcodeProject.Target.maxUnreadCode { unread.append(what) } else { unreadMore += 1 }
            }
            // Products of Swift packages: a local package's modules are code
            // kcs reads (keychain code lives in a package in many projects);
            // a remote package's, or one kcs cannot read, is not.
            for dependency in t["packageProductDependencies"]?.array?.compactMap(\.string) ?? [] {
                guard let modules = packageProduct(dependency) else { cannotRead(productName(dependency)); continue }
                linked += modules
            }
            for phaseID in t["buildPhases"]?.array?.compactMap(\.string) ?? [] {
                guard let phase = objects[phaseID] else { continue }
                // Looked up once per phase, however many targets list it: a
                // lookup of its 3,000 build files for each of 200 targets
                // took 20 s (adversarial run 25, F4).
                if phaseFiles[phaseID] == nil {
                    let buildFiles = (phase["files"]?.array ?? []).compactMap { $0.string.flatMap { objects[$0] } }
                    phaseFiles[phaseID] = (buildFiles, buildFiles.compactMap { $0["fileRef"]?.string })
                    buildFilesWalked += buildFiles.count
                }
                guard let (buildFiles, files) = phaseFiles[phaseID] else { continue }
                switch phase["isa"]?.string {
                case "PBXCopyFilesBuildPhase":
                    for file in buildFiles {
                        guard let owner = file["fileRef"]?.string.flatMap({ productOwner[$0] }) else { continue }
                        embedded.append(owner)
                        let filters = Self.platformFilters(file)
                        if filters.isEmpty { unfiltered.insert(owner) } else { embedFilters[owner, default: []] += filters }
                    }
                case "PBXSourcesBuildPhase":
                    if !sourceBudgetSpent, sourceEntries + files.count > Self.maxSourceEntries {
                        sourceBudgetSpent = true
                        issues.append(ProjectIssue(
                            .warning, "the project's targets list more than \(Self.maxSourceEntries) sources in all; from target '\(name)' on, kcs reads no more of them",
                            at: at(objects[phaseID]), hint: "the groups that code names, if any, are not checked"))
                    }
                    guard !sourceBudgetSpent else { cannotRead("sources past the first \(Self.maxSourceEntries) of the project"); break }
                    if phaseSources[phaseID] == nil {
                        // Generated and lost sources counted apart: KCS604 called
                        // sources kcs could not place, and entries naming no
                        // file, generated (review 19, R21).
                        var paths: [String] = [], generated = 0, lost = 0
                        for ref in files {
                            let placed = placements[ref] ?? placement(of: ref)
                            placements[ref] = placed
                            switch placed {
                            case .found(let p): paths.append(p)
                            case .builtElsewhere: generated += 1  // generated by the build: nothing kcs can read
                            case .lost:
                                lost += 1
                                // A Swift source whose groups nest past 64 or loop
                                // is said, not dropped: its calls went unchecked
                                // while the lint passed (adversarial run 23, F2).
                                guard let object = objects[ref], let named = object["path"]?.string ?? object["name"]?.string,
                                      named.hasSuffix(".swift") else { continue }
                                issues.append(ProjectIssue(
                                    .warning, "cannot work out where '\(named)', a source of target '\(name)', is: its groups nest more than 64 deep or form a loop",
                                    at: at(object), hint: "the groups it names, if any, are not checked"))
                            }
                        }
                        // Swift and Objective-C are read; other languages are not.
                        let read = SourceFolder.isRead
                        phaseSources[phaseID] = (paths.filter(read),
                                                 [SourceFolder.unreadSources(paths.filter { !read($0) })].compactMap { $0 }
                                                 + (generated > 0 ? ["\(generated) source\(generated == 1 ? "" : "s") the build generates"] : [])
                                                 + (lost > 0 ? ["\(lost) source\(lost == 1 ? "" : "s") kcs cannot place"] : []))
                    }
                    guard let phase = phaseSources[phaseID] else { break }
                    phase.unread.forEach(cannotRead)
                    sourceEntries += files.count
                    sources += phase.swift
                    for file in buildFiles {
                        guard let ref = file["fileRef"]?.string, case .found(let p)? = placements[ref] else { continue }
                        let filters = Self.platformFilters(file)
                        if filters.isEmpty { unfilteredSources.insert(p) } else { sourceFilters[p, default: []] += filters }
                    }
                case "PBXFrameworksBuildPhase":
                    if phaseFrameworks[phaseID] == nil { phaseFrameworks[phaseID] = frameworks(buildFiles, productOwner: productOwner) }
                    guard let phase = phaseFrameworks[phaseID] else { break }
                    for portal in phase.portals { linkedFromAnotherProject(portal, by: name) }
                    for effect in phase.effects {
                        switch effect {
                        case .link(let modules): linked += modules
                        case .linkProduct(let owner, let otherwise):
                            // A target's own product in its phase links nothing.
                            if owner != id { linked.append(owner) } else if let otherwise { cannotRead(otherwise) }
                        case .unread(let what): cannotRead(what)
                        }
                    }
                default: break
                }
            }
            // A group, an exception set or a path named again adds nothing:
            // one folder listed 2,000 times was walked 2,000 times and its
            // files kept 2,000 times (51 s, 442 MB; found by adversarial testing).
            let ownGroups = t["fileSystemSynchronizedGroups"]?.array?.compactMap(\.string) ?? []
            var listed = Set(sources), seenGroups = Set<String>()
            for groupID in ownGroups where seenGroups.insert(groupID).inserted {
                // Files of the folder its exception set compiles only for
                // some platforms (`platformFiltersByRelativePath`).
                if let folder = path(of: groupID) {
                    for exceptionID in objects[groupID]?["exceptions"]?.array?.compactMap(\.string) ?? [] {
                        guard let e = objects[exceptionID], e["target"]?.string == id,
                              let byPath = e["platformFiltersByRelativePath"]?.entries else { continue }
                        for entry in byPath {
                            let names = entry.value.strings ?? []
                            if !names.isEmpty { sourceFilters[ProjectPath.join(folder, entry.key), default: []] += names }
                        }
                    }
                }
                let found = synchronizedSwiftFiles(groupID, target: id)
                if found.otherSources { cannotRead("sources that are not Swift in the folder '\(ProjectPath.lastComponent(path(of: groupID) ?? groupID))'") }
                for file in found.swift where listed.insert(file).inserted { sources.append(file) }
            }
            var seenPaths = Set<String>()
            for (groupID, exceptionID) in exceptionsByTarget[id] ?? [] where !seenGroups.contains(groupID) {
                guard let folder = path(of: groupID) else { continue }
                for f in objects[exceptionID]?["membershipExceptions"]?.array?.compactMap(\.string) ?? [] {
                    let p = ProjectPath.join(folder, f)
                    guard seenPaths.insert(p).inserted else { continue }
                    let read = SourceFolder.isRead(f)
                    if !read, SourceFolder.otherSourceSuffixes.contains(where: { f.hasSuffix($0) }), let said = SourceFolder.unreadSources([p]) { cannotRead(said) }
                    let found = read ? ([p], false) : self.sources(under: p, excluding: [])
                    if found.1 { cannotRead("sources that are not Swift in '\(f)'") }
                    for file in found.0 where listed.insert(file).inserted {
                        sources.append(file)
                    }
                }
            }
            var seenEmbeds = Set<String>(), seenLinks = Set<String>()
            embedded = embedded.filter { seenEmbeds.insert($0).inserted }
            linked = linked.filter { seenLinks.insert($0).inserted }
            var target = XcodeProject.Target(
                id: id, name: name, productType: t["productType"]?.string ?? "",
                configurations: configurationList(objects[t["buildConfigurationList"]?.string ?? ""]),
                swiftSources: sources, embeddedTargets: embedded, embedFilters: embedFilters.filter { !unfiltered.contains($0.key) },
                sourceFilters: sourceFilters.filter { !unfilteredSources.contains($0.key) }, linkedTargets: linked, unreadCode: unread,
                attributesTeam: targetAttributes?[id]?["DevelopmentTeam"]?.string, location: at(t))
            target.unreadCodeMore = unreadMore
            targets.append(target)
        }
        // Frameworks no target builds, said once for all past a few
        // (Provenance's 54 emulator cores were 54 warnings of 74; real-project
        // trial 23, W5).
        var unbuilt: [(product: String, linkers: [String], builder: String?, at: ProjectLocation)] = []
        for (reference, products, linkers) in otherProjects {
            let object = objects[reference]
            if object?["sourceTree"]?.string == "BUILT_PRODUCTS_DIR" {
                // The workspace's project that builds it, by its name.
                let product = products.first ?? ""
                let stem = String(product.dropLast(".framework".count))
                var builder: String?
                for workspace in siblingWorkspaces() where builder == nil {
                    builder = workspace.listing.projects.first { ProjectPath.lastComponent($0.path) == stem + ".xcodeproj" }
                        .map { "'\($0.path)', which '\(workspace.path)' lists, builds it" }
                }
                unbuilt.append((product, linkers, builder, at(object)))
                continue
            }
            let shown = path(of: reference) ?? object?["path"]?.string ?? reference
            // A project that lists no Swift source (a C library: iSH's
            // libarchive, Pyto's libffi) names no group kcs would check; an
            // absent one is said so (a submodule not checked out; real-project
            // trial 20, W4).
            let pbxproj = ProjectPath.join(shown, "project.pbxproj")
            let absent = path(of: reference) != nil && !fileSystem.isFile(pbxproj)
            if !absent, case .success(let bytes) = fileSystem.read(pbxproj, atMost: 64 << 20),
               !bytes.withUnsafeBufferPointer({ b in Array(".swift".utf8).withUnsafeBufferPointer { ByteSearch.contains(b, $0) } }) { continue }
            issues.append(ProjectIssue(
                .warning, "the code check does not read the code of '\(shown)', another Xcode project\(absent ? ", which is absent" : ""): target\(linkers.count == 1 ? "" : "s") "
                    + Self.quoted(linkers) + " link\(linkers.count == 1 ? "s" : "") its product\(products.count == 1 ? "" : "s") " + Self.quoted(products),
                at: at(object?["path"] ?? object),
                hint: (absent ? "a git submodule not checked out? (git submodule update --init); " : "")
                    + "the groups its code names, if any, are not checked: kcs reads the code of one project, its targets and local packages"))
        }
        if unbuilt.count <= Self.unbuiltSaidApart {
            for u in unbuilt {
                issues.append(ProjectIssue(
                    .warning, "the code check does not read the code of '\(u.product)', which no target of this project builds: target\(u.linkers.count == 1 ? "" : "s") "
                        + Self.quoted(u.linkers) + " link\(u.linkers.count == 1 ? "s" : "") it" + (u.builder.map { "; " + $0 } ?? ""),
                    at: u.at,
                    hint: "the groups its code names, if any, are not checked: kcs reads the code of one project, its targets and local packages"
                        + (u.builder == nil ? "" : "; lint that project too")))
            }
        } else {
            // In file order, the first said at its line, the next few as notes.
            unbuilt.sort { ($0.at.line, $0.at.column) < ($1.at.line, $1.at.column) }
            var linkers: [String] = [], seen = Set<String>()
            for u in unbuilt { for l in u.linkers where seen.insert(l).inserted { linkers.append(l) } }
            let built = unbuilt.filter { $0.builder != nil }.count
            var issue = ProjectIssue(
                .warning, "the code check does not read the code of \(unbuilt.count) frameworks no target of this project builds: "
                    + ProjectInput.listed(unbuilt.map { "'\($0.product)'" }, first: 3) + "; target\(linkers.count == 1 ? "" : "s") "
                    + Self.quoted(linkers) + " link\(linkers.count == 1 ? "s" : "") them",
                at: unbuilt[0].at,
                hint: "the groups their code names, if any, are not checked: kcs reads the code of one project, its targets and local packages"
                    + (built == 0 ? "" : "; \(built) of them \(built == 1 ? "is" : "are") built by projects a workspace beside it lists: lint those projects too"))
            issue.notes = unbuilt.dropFirst().prefix(2).map { ProjectIssue.Note("'\($0.product)' is referenced here", at: $0.at) }
            issues.append(issue)
        }
        if packages != nil, let pods = developmentPods() { issues.append(pods) }
        for (package, products, location, absent, productsAt) in unreadProducts {
            let shown = Self.quoted(products)
            // At the manifest's `products:` when that is what kcs does not
            // follow, as the other "does not follow" warnings are.
            issues.append(ProjectIssue(.warning, "the code check does not read product\(products.count == 1 ? "" : "s") \(shown) of \(package)",
                                       at: productsAt ?? location,
                                       hint: absent.map { (ProjectPath.generatedBy(ProjectPath.join($0, "Package.swift")) ?? "") + "the groups their code names, if any, are not checked" }
                                           ?? "the groups their code names, if any, are not checked; kcs reads a product its "
                                           + "Package.swift declares in a literal Package(products:targets:), lists written out or held in a top-level let"))
        }
        var entitlementsFiles: [XcodeProject.FileReference] = []
        for (id, object) in objects where object["isa"]?.string == "PBXFileReference" {
            guard object["path"]?.string?.hasSuffix(".entitlements") == true, let p = path(of: id) else { continue }
            // At the path value, which a warning underlines (the caret ran to
            // the end of the object's line: real-project trial 18, W2).
            entitlementsFiles.append(XcodeProject.FileReference(path: p, location: at(object["path"] ?? object)))
        }
        entitlementsFiles.sort { $0.location.line < $1.location.line }
        var name = ProjectPath.lastComponent(folder)
        if name.hasSuffix(".xcodeproj") { name.removeLast(10) }
        return .success(XcodeProject(path: folder, name: name, sourceRoot: sourceRoot,
                                     absoluteSourceRoot: ProjectPath.absolute(sourceRoot), pbxprojPath: pbxproj,
                                     configurations: configurations, defaultConfiguration: defaultName, targets: targets,
                                     packageModules: packageModules,
                                     targetIndex: XcodeProject.index(targets + packageModules), entitlementsFiles: entitlementsFiles,
                                     issues: issues, buildFilesWalked: buildFilesWalked, fileSystem: fileSystem))
    }

    /// Names quoted, the first eight, and how many more.
    /// Frameworks no target builds said one finding each, at most; more are one finding.
    static let unbuiltSaidApart = 3

    static func quoted(_ names: [String]) -> String { ProjectInput.listed(names.map { "'\($0)'" }, first: 8) }

    /// How a package product kcs cannot read is named.
    func productName(_ id: String) -> String { "package product '\(objects[id]?["productName"]?.string ?? id)'" }

    /// What one build file of a frameworks phase means for the target that
    /// links it, whichever target that is.
    enum LinkEffect: Hashable {
        /// Modules of a package product.
        case link([String])
        /// A framework or library another target builds (`otherwise`: what
        /// is said unread when that is the linking target itself).
        case linkProduct(String, otherwise: String?)
        /// Code kcs does not read.
        case unread(String)
    }

    /// A frameworks phase worked out once for every target that lists it:
    /// its effects in order, each once, and the `.xcodeproj` file
    /// references of other projects whose products it links, each once
    /// (their products noted in ``otherProjects``).
    mutating func frameworks(_ buildFiles: [PlistNode], productOwner: [String: String]) -> (effects: [LinkEffect], portals: [String]) {
        var effects: [LinkEffect] = [], seen = Set<LinkEffect>(), portals: [String] = [], seenPortals = Set<String>()
        func add(_ effect: LinkEffect) { if seen.insert(effect).inserted { effects.append(effect) } }
        // The SDK's frameworks are Apple's; another target's product
        // is code kcs reads with that target's sources; anything
        // else (a package, Pods, a vendored binary) is code kcs
        // does not read.
        for file in buildFiles {
            // A package product the phase links (`productRef`):
            // read as the target's package dependencies are, also
            // when the target does not list it among them (SideStore's
            // AltBackup; found on a real-project trial).
            if let product = file["productRef"]?.string {
                if let modules = packageProduct(product) { add(.link(modules)) } else {
                    add(.unread(productName(product)))
                }
                continue
            }
            guard let ref = file["fileRef"]?.string, let object = objects[ref] else { add(.unread("a framework or library it links")); continue }
            if object["isa"]?.string == "PBXReferenceProxy", let portal = productOfAnotherProject(object), seenPortals.insert(portal).inserted {
                portals.append(portal)
            }
            let tree = object["sourceTree"]?.string
            var otherwise: String?
            if tree != "SDKROOT" && tree != "DEVELOPER_DIR" {
                let linkedName = ProjectPath.lastComponent(object["path"]?.string ?? object["name"]?.string ?? ref)
                otherwise = (linkedName.hasSuffix("framework") ? "the framework '" : "the library '") + linkedName + "'"
            }
            // Only a framework or a library is code in this process:
            // an app's product listed here is none (an extension was
            // blamed for its app's groups; found by adversarial testing).
            if let owner = productOwner[ref] {
                let type = objects[owner]?["productType"]?.string ?? ""
                if type.contains("framework") || type.contains("library") {
                    add(.linkProduct(owner, otherwise: otherwise))
                    continue
                }
            }
            if let otherwise { add(.unread(otherwise)) }
            // A framework the build puts beside the product that no target
            // of the project builds: a sibling project of the workspace does
            // (KeePassiumLib.framework, Delta Chat's DcCore.framework), and
            // its code, where the apps' group code was, went unread in
            // silence (real-project trial 22, D3). Said with the projects
            // (``otherProjects``); CocoaPods' `Pods_*.framework` is said with Pods.
            if packages != nil, tree == "BUILT_PRODUCTS_DIR", productOwner[ref] == nil, object["isa"]?.string == "PBXFileReference",
               case let name = ProjectPath.lastComponent(object["path"]?.string ?? ""), name.hasSuffix(".framework"), !name.hasPrefix("Pods"),
               case let key = "\u{0}built:" + name, seenPortals.insert(key).inserted {
                // By name: each target may have a reference of its own.
                if otherProjectIndex[key] == nil {
                    otherProjectIndex[key] = (otherProjects.count, [name], [])
                    otherProjects.append((ref, [name], []))
                }
                portals.append(key)
            }
        }
        return (effects, portals)
    }

    /// Notes a product of another Xcode project that a frameworks phase
    /// links (a framework of a sibling `.xcodeproj` the project refers
    /// to), whose code the code check does not read (``otherProjects``),
    /// and returns that project's file reference. Only when the code is
    /// checked (a ``SwiftPackageReading`` given).
    mutating func productOfAnotherProject(_ proxy: PlistNode) -> String? {
        guard packages != nil, let remote = proxy["remoteRef"]?.string, let portal = objects[remote]?["containerPortal"]?.string,
              objects[portal]?["isa"]?.string == "PBXFileReference" else { return nil }
        let product = proxy["path"]?.string ?? proxy["name"]?.string ?? remote
        guard let known = otherProjectIndex[portal] else {
            otherProjectIndex[portal] = (otherProjects.count, [product], [])
            otherProjects.append((portal, [product], []))
            return portal
        }
        if otherProjectIndex[portal]?.products.insert(product).inserted == true { otherProjects[known.index].products.append(product) }
        return portal
    }

    /// Notes that `target` links products of the other project `portal`.
    mutating func linkedFromAnotherProject(_ portal: String, by target: String) {
        guard let known = otherProjectIndex[portal] else { return }
        if otherProjectIndex[portal]?.linkers.insert(target).inserted == true { otherProjects[known.index].linkers.append(target) }
    }

    /// CocoaPods' development pods (`pod 'Name', :path => '…'`) in the
    /// Podfile beside the project: CocoaPods builds them in its own
    /// project, whose code the code check does not read. Said once, at the
    /// first of them; nil when the Podfile names none.
    func developmentPods() -> ProjectIssue? {
        let podfile = ProjectPath.join(ProjectPath.directory(folder), "Podfile")
        guard fileSystem.isFile(podfile), case .success(let bytes) = fileSystem.read(podfile, atMost: 4 << 20) else { return nil }
        var pods: [String] = [], first: ProjectLocation?
        for (index, range) in LineBreaks.lines(bytes).enumerated() {
            let line = Substring(String(decoding: bytes[range], as: UTF8.self))
            let code = line.prefix { $0 != "#" }
            let words = code.drop { $0 == " " || $0 == "\t" }
            guard words.hasPrefix("pod "), let path = code.firstRange(of: ":path") ?? code.firstRange(of: "path:") else { continue }
            // The first quoted word is the pod's name, the one after `path` its folder.
            func quotedWord(_ text: Substring) -> Substring? {
                guard let open = text.firstIndex(where: { $0 == "'" || $0 == "\"" }) else { return nil }
                let rest = text[text.index(after: open)...]
                return rest.firstIndex(of: text[open]).map { rest[..<$0] }
            }
            guard let name = quotedWord(words), let folder = quotedWord(code[path.upperBound...]) else { continue }
            pods.append("'\(name)' (\(folder))")
            if first == nil { first = ProjectLocation(file: podfile, line: index + 1, column: code.utf8.count - words.utf8.count + 1) }
        }
        guard let first else { return nil }
        return ProjectIssue(.warning, "the code check does not read the code of development pod\(pods.count == 1 ? "" : "s") "
                                + ProjectInput.listed(pods, first: 8)
                                + ", which CocoaPods builds in its own project",
                            at: first, hint: "the groups its code names, if any, are not checked: kcs reads the code of one project, its targets and local packages")
    }

    /// Real projects have tens of targets and a handful of configurations;
    /// every target is resolved in every configuration, so both are bounded.
    static let maxTargets = 1000
    /// Source paths kept over all targets (a file each target compiles
    /// counts once per target); real projects list a few thousand.
    static let maxSourceEntries = 100_000
    static let maxConfigurations = 32

    mutating func configurationList(_ list: PlistNode?) -> [XcodeProject.Configuration] {
        var out: [XcodeProject.Configuration] = []
        let ids = list?["buildConfigurations"]?.array ?? []
        if ids.count > Self.maxConfigurations {
            issues.append(ProjectIssue(.warning, "a configuration list has \(ids.count) configurations; kcs reads the first \(Self.maxConfigurations)",
                                       at: at(list?["buildConfigurations"])))
        }
        for idNode in ids.prefix(Self.maxConfigurations) {
            guard let id = idNode.string, let c = objects[id] else {
                issues.append(ProjectIssue(.warning, "the configuration list names '\(idNode.string ?? "?")', which is not in the project",
                                           at: at(idNode)))
                continue
            }
            var plain: [SettingAssignment] = []
            var conditional: [SettingAssignment] = []
            for entry in c["buildSettings"]?.entries ?? [] {
                let here = ProjectLocation(file: pbxproj, line: entry.keyLine)
                guard let (name, conditions) = SettingAssignment.splitKey(entry.key) else {
                    issues.append(ProjectIssue(.warning, "cannot read the build setting name '\(entry.key)'", at: here))
                    continue
                }
                // A list value is the words of the setting, space-separated.
                guard let words = entry.value.strings else { continue }
                let a = SettingAssignment(name: name, conditions: conditions, value: words.joined(separator: " "), location: here)
                // Within one level a matching conditional value overrides the plain one.
                if conditions.isEmpty { plain.append(a) } else { conditional.append(a) }
            }
            var base: String?
            if let ref = c["baseConfigurationReference"]?.string {
                base = path(of: ref)
                if base == nil {
                    issues.append(ProjectIssue(.warning, "cannot locate the xcconfig file of configuration '\(c["name"]?.string ?? id)'",
                                               at: at(c["baseConfigurationReference"])))
                }
            } else if let anchor = c["baseConfigurationReferenceAnchor"]?.string,
                      let relative = c["baseConfigurationReferenceRelativePath"]?.string {
                if let folder = path(of: anchor) { base = ProjectPath.join(folder, relative) } else {
                    issues.append(ProjectIssue(.warning, "cannot locate the folder baseConfigurationReferenceAnchor names",
                                               at: at(c["baseConfigurationReferenceAnchor"])))
                }
            }
            out.append(XcodeProject.Configuration(name: c["name"]?.string ?? id, settings: plain + conditional,
                                                  baseConfiguration: base, location: at(c)))
        }
        return out
    }

    /// The path of a file reference or group, following its source tree
    /// through the enclosing groups; nil for products and SDK files.
    func path(of id: String) -> String? {
        if case .found(let p) = placement(of: id) { return p }
        return nil
    }

    /// Where a file reference or group is, or why kcs cannot say.
    enum Placement {
        case found(String)
        /// It, or a group around it, is relative to a folder only the build
        /// knows (a product, the SDK, generated sources).
        case builtElsewhere
        /// Its groups nest past 64 or form a loop, or name no object.
        case lost
    }

    func placement(of id: String) -> Placement {
        var components: [String] = []
        var current: String? = id
        var steps = 0
        while let c = current, let object = objects[c], steps < 64 {
            steps += 1
            let p = object["path"]?.string ?? ""
            switch object["sourceTree"]?.string ?? "<group>" {
            case "<absolute>":
                return .found(ProjectPath.normalize(([p] + components.reversed()).joined(separator: "/")))
            case "SOURCE_ROOT":
                return .found(ProjectPath.join(sourceRoot, ([p] + components.reversed()).filter { !$0.isEmpty }.joined(separator: "/")))
            case "<group>":
                if !p.isEmpty { components.append(p) }
                current = parents[c]
                if current == nil {
                    return .found(ProjectPath.join(sourceRoot, components.reversed().joined(separator: "/")))
                }
            default:
                return .builtElsewhere
            }
        }
        return .lost
    }

    /// A build file's platform filters (`platformFilters = (ios, maccatalyst, );`
    /// or the older `platformFilter = ios;`); none when it is in every build.
    static func platformFilters(_ file: PlistNode) -> [String] {
        file["platformFilters"]?.array?.compactMap(\.string) ?? file["platformFilter"]?.string.map { [$0] } ?? []
    }

    /// The `.swift` files under a synchronized folder (Xcode 16), less the
    /// files and folders an exception set takes out of this target (a
    /// folder unticked as a whole is written as its path: its files were
    /// checked for a target that does not compile them, found on a real project).
    mutating func synchronizedSwiftFiles(_ groupID: String, target: String) -> (swift: [String], otherSources: Bool) {
        guard let folder = path(of: groupID) else { return ([], false) }
        var excluded = Set<String>()
        for exceptionID in objects[groupID]?["exceptions"]?.array?.compactMap(\.string) ?? [] {
            guard let e = objects[exceptionID], e["target"]?.string == target else { continue }
            for f in e["membershipExceptions"]?.array?.compactMap(\.string) ?? [] { excluded.insert(ProjectPath.join(folder, f)) }
        }
        return sources(under: folder, excluding: excluded, at: at(objects[groupID]))
    }

    /// The `.swift` files below `folder`, without the files and folders in `excluded`.
    mutating func swiftFiles(under folder: String, excluding excluded: Set<String>) -> [String] {
        sources(under: folder, excluding: excluded).swift
    }

    /// The IDs of the package modules a product dependency
    /// (`XCSwiftPackageProductDependency`) links, or nil when kcs does not
    /// read its code: a remote package, a manifest kcs cannot follow, or no
    /// reader given. A build-tool plugin links none.
    mutating func packageProduct(_ id: String) -> [String]? {
        if let known = dependencyModules[id] { return known }
        var found: [String]?
        if let dependency = objects[id], let product = dependency["productName"]?.string {
            // A build-tool plugin (`plugin:SwiftLintPlugin`) runs at build
            // time: no code of the target's.
            if product.hasPrefix("plugin:") { return [] }
            if let ref = dependency["package"]?.string {
                if let folder = localPackageFolder(objects[ref]) { found = modules(of: product, inPackage: folder, at: dependency) }
            } else {
                for folder in localPackageFolders() {
                    found = modules(of: product, inPackage: folder, at: dependency)
                    if found != nil { break }
                }
            }
        }
        dependencyModules[id] = found
        // A local package kcs could not follow is said, once per package: the
        // check passed in silence over code it had not read (Mastodon,
        // Omnivore and isowords build lists in code; found on a
        // real-project trial).
        if found == nil, packages != nil, let dependency = objects[id], let product = dependency["productName"]?.string,
           let (package, absent, productsAt) = unreadLocalPackage(dependency) {
            if let i = unreadProducts.firstIndex(where: { $0.package == package }) {
                if !unreadProducts[i].products.contains(product) { unreadProducts[i].products.append(product) }
            } else {
                unreadProducts.append((package, [product], at(dependency), absent, productsAt))
            }
        }
        return found
    }

    /// The folder of an `XCLocalSwiftPackageReference` (nil for any other object).
    private func localPackageFolder(_ reference: PlistNode?) -> String? {
        guard reference?["isa"]?.string == "XCLocalSwiftPackageReference", let relative = reference?["relativePath"]?.string else { return nil }
        return ProjectPath.join(sourceRoot, relative)
    }

    /// The local package a product dependency names, as a finding says it,
    /// its folder when it is absent (nil for a remote package), and where
    /// its manifest's `products:` is when kcs does not follow it.
    private mutating func unreadLocalPackage(_ dependency: PlistNode) -> (String, absent: String?, productsAt: ProjectLocation?)? {
        /// A package whose `products:` kcs does not follow, said so.
        func unfollowed(_ folder: String) -> (String, absent: String?, productsAt: ProjectLocation?)? {
            guard let package = packagesByFolder[folder] ?? nil, let products = package.productsNotFollowed else { return nil }
            return ("the local package at '\(folder)', whose products: kcs does not follow (`\(products.shown)`)", nil, products.at)
        }
        // An absent package (a git submodule not checked out, a package a
        // script generates) is said as such, not as a manifest kcs cannot
        // follow (found on a real-project trial).
        func absent(_ folder: String) -> String {
            "the local package at '\(folder)', which is absent (no Package.swift there: a git submodule not checked out, "
                + "or a package the project's setup generates)"
        }
        if let ref = dependency["package"]?.string {
            guard let folder = localPackageFolder(objects[ref]) else { return nil }
            if !fileSystem.isFile(ProjectPath.join(folder, "Package.swift")) { return (absent(folder), folder, nil) }
            return unfollowed(folder) ?? ("the local package at '\(folder)'", nil, nil)
        }
        // No package named (Xcode before 15, and sometimes since): none of
        // the local packages the project holds declares it, or one it
        // refers to is absent (Flutter's generated plugin package under
        // Flutter/ephemeral; found on a real-project trial).
        let folders = packageFolders ?? []
        if absentReferenceFolders == nil {
            // Worked out once: asked per product kcs could not read.
            var missing: [String] = []
            var looked = 0
            for key in objects.keys.sorted() where looked < Self.maxPackages {
                guard let folder = localPackageFolder(objects[key]) else { continue }
                looked += 1
                if !fileSystem.isFile(ProjectPath.join(folder, "Package.swift")) { missing.append(folder) }
            }
            absentReferenceFolders = missing
        }
        // The one named like the product, if any (Flutter's is).
        let product = dependency["productName"]?.string ?? ""
        let candidates = absentReferenceFolders ?? []
        // Else the only absent one, when the project has no package kcs
        // reads (another product may be a readable package's; found by review).
        if let missing = candidates.first(where: { ProjectPath.lastComponent($0) == product })
            ?? (candidates.count == 1 && folders.isEmpty ? candidates.first : nil) {
            return (absent(missing), missing, nil)
        }
        // A local package whose products kcs does not follow may declare it.
        for folder in folders { if let said = unfollowed(folder) { return said } }
        // A project with remote packages may take it from one of them, and a
        // remote package's code is not read anywhere else either (CodeEdit's
        // three were said as not found; found on a real-project trial).
        if hasRemotePackages == nil {
            hasRemotePackages = objects.values.contains { $0["isa"]?.string == "XCRemoteSwiftPackageReference" }
        }
        if hasRemotePackages == true { return nil }
        return (folders.isEmpty ? "a package kcs did not find among the project's folders"
            : "a package none of the project's local packages declares (\(folders.map { "'\($0)'" }.joined(separator: ", ")))", nil, nil)
    }


    /// Local packages kcs reads at most, and their modules: a project names
    /// a handful (a hostile one, any number).
    static let maxPackages = 200, maxPackageModules = 5000

    /// The IDs of the modules `product` of the package in `folder` compiles,
    /// each added to ``packageModules`` once.
    private mutating func modules(of product: String, inPackage folder: String, at dependency: PlistNode, depth: Int = 0) -> [String]? {
        let key = folder + "\u{0}" + product
        if let known = productModules[key] { return known }
        // Products that depend on products, and so on, are followed this
        // deep: each level is a call on the caller's stack (11,000 chained
        // products overflowed it; found by adversarial testing).
        guard depth < 64 else { return nil }
        let package: (any SwiftPackage)?
        if let known = packagesByFolder[folder] {
            package = known
        } else {
            package = packagesByFolder.count < Self.maxPackages ? packages?.package(in: folder, fileSystem: fileSystem) : nil
            packagesByFolder[folder] = package
        }
        var ids: [String]?
        // Each folder walked once, however many modules and products name it
        // (found by adversarial testing).
        if let modules = package?.modules(of: product, fileSystem: fileSystem, walk: { sources(under: $0, excluding: $1) }),
           packageModules.count + modules.count <= Self.maxPackageModules {
            // Met again while its own dependencies are read (packages that
            // depend on each other): nothing more to add.
            productModules[key] = .some([])
            var all: [String] = []
            for m in modules {
                // A product of another local package it depends on is code
                // kcs reads too, its modules linked as the product's own.
                var unread = m.allSwift ? [] : ["code of package module '\(m.name)' kcs does not read"], others: [String] = []
                for other in m.localProducts {
                    var found: [String]?
                    for folder in other.packages {
                        found = self.modules(of: other.name, inPackage: folder, at: dependency, depth: depth + 1)
                        if found != nil { break }
                    }
                    // Xcode resolves a package by its identity: a local
                    // package of the project with the same folder name is
                    // used for `.package(path: "Sibling")`, which names a
                    // folder inside the depending package (feditext's
                    // packages side by side; they went unread without a
                    // word; real-project trial 16, D1).
                    let absent = other.packages.filter { !fileSystem.isFile(ProjectPath.join($0, "Package.swift")) }
                    if found == nil, !absent.isEmpty {
                        let identities = Set(absent.map { ProjectPath.lastComponent($0).lowercased() })
                        let locals = localPackageFolders().filter { identities.contains(ProjectPath.lastComponent($0).lowercased()) }
                        for local in locals {
                            found = self.modules(of: other.name, inPackage: local, at: dependency, depth: depth + 1)
                            if found != nil { break }
                        }
                        // Said when the package it names is nowhere: a product
                        // named alone may be a remote package's.
                        let named = Set(locals.map { ProjectPath.lastComponent($0).lowercased() })
                        let nowhere = absent.filter { !named.contains(ProjectPath.lastComponent($0).lowercased()) }
                        if found == nil, other.packageNamed, absent.count == other.packages.count, !nowhere.isEmpty {
                            saidAbsent(other.name, nowhere: nowhere, dependent: "'\(m.name)' of the local package at '\(folder)'", at: at(dependency))
                        }
                    }
                    if let found { others += found } else { unread.append("package product '\(other.name)'") }
                }
                let moduleID = "swiftpm:" + folder + ":" + m.name
                if packageModuleIDs.insert(moduleID).inserted {
                    // Said once, however many modules it leaves unread.
                    for issue in m.unread where saidUnread.insert(issue).inserted { issues.append(issue) }
                    packageModules.append(XcodeProject.Target(
                        id: moduleID, name: m.name, productType: XcodeProject.Target.packageModuleType, configurations: [],
                        swiftSources: m.swiftSources, embeddedTargets: [], linkedTargets: others, unreadCode: unread,
                        attributesTeam: nil, location: at(dependency)))
                }
                all.append(moduleID)
            }
            ids = all
        }
        productModules[key] = ids
        return ids
    }

    /// Says that product `name`, which `dependent` (a package module)
    /// depends on, is in none of the folders `nowhere`: once per product and
    /// folders, the modules that depend on it named together.
    private mutating func saidAbsent(_ name: String, nowhere: [String], dependent: String, at location: ProjectLocation) {
        let key = ([name] + nowhere.sorted()).joined(separator: "\u{0}")
        var dependents = absentDependencies[key]?.dependents ?? []
        guard !dependents.contains(dependent) else { return }
        dependents.append(dependent)
        let shown = dependents.count > 3 ? Array(dependents.prefix(3)) + ["\(dependents.count - 3) more"] : dependents
        let who = shown.count == 1 ? "package module \(shown[0]) depends on"
            : "package modules " + shown.dropLast().joined(separator: ", ") + " and " + shown[shown.count - 1] + " depend on"
        let issue = ProjectIssue(.warning, "the code check does not read product '\(name)', which \(who): no Package.swift at "
                                    + nowhere.prefix(3).map { "'\($0)'" }.joined(separator: ", ") + " and no local package of the project named so",
                                 at: location, hint: "the groups its code names, if any, are not checked")
        if let said = absentDependencies[key] {
            // Said where the first dependent was met.
            issues[said.issue].message = issue.message
            absentDependencies[key]?.dependents = dependents
        } else {
            absentDependencies[key] = (issues.count, dependents)
            issues.append(issue)
        }
    }

    /// Folders of the project that hold a `Package.swift`: a folder
    /// reference, a group or a synchronized folder, or a folder right below
    /// one of them (Xcode 16 keeps a project's packages in a synchronized
    /// `Modules` folder, as Anytype does; found on a real-project trial).
    mutating func localPackageFolders() -> [String] {
        if let known = packageFolders { return known }
        var out: [String] = [], seen = Set<String>(), listed = Set<String>()
        func consider(_ folder: String) {
            guard seen.insert(fileSystem.canonical(folder)).inserted, seen.count < 10_000 else { return }
            if fileSystem.isFile(ProjectPath.join(folder, "Package.swift")) { out.append(folder) }
        }
        // The local packages the project lists first: Xcode 15 may still
        // write a product dependency without `package =` (wallabag, Feather;
        // found on a real-project trial).
        for (_, object) in objects.sorted(by: { $0.key < $1.key }) {
            if let folder = localPackageFolder(object) { consider(folder) }
        }
        for (id, object) in objects.sorted(by: { $0.key < $1.key }) {
            let isa = object["isa"]?.string
            // A package's folder reference is `folder` or `wrapper`, or in
            // older projects any type for a name without an extension
            // (Pocket Casts' are `text`; found on a real-project trial).
            let type = object["lastKnownFileType"]?.string ?? object["explicitFileType"]?.string
            let extensionless = object["path"]?.string.map { !ProjectPath.lastComponent($0).contains(".") } ?? false
            let folderReference = isa == "PBXFileReference" && (type == "folder" || type == "wrapper" || extensionless)
            guard folderReference || isa == "PBXGroup" || isa == "PBXFileSystemSynchronizedRootGroup",
                  object["path"] != nil, let p = path(of: id) else { continue }
            consider(p)
            // Each folder listed once, however many groups name it (2,000
            // groups naming one large folder took 35 s; found by adversarial testing).
            if !folderReference, listed.insert(fileSystem.canonical(p)).inserted, listed.count <= 10_000 {
                for name in (fileSystem.contents(ofDirectory: p) ?? []).prefix(1000) where !name.hasPrefix(".") { consider(ProjectPath.join(p, name)) }
            }
        }
        // A package only the workspace beside the project lists
        // (`<FileRef location = "group:OpenHABCore">`): openHAB's targets
        // link its product with no `package =` and no reference to its
        // folder, and its code went unread in silence (real-project trial 22, D2).
        for workspace in siblingWorkspaces() {
            for other in workspace.listing.others { consider(other) }
        }
        packageFolders = out
        return out
    }

    /// The workspaces in the project's folder, with what each lists: read
    /// once, for the packages and projects only they name.
    mutating func siblingWorkspaces() -> [(path: String, listing: ProjectInput.WorkspaceListing)] {
        if let known = workspacesBeside { return known }
        let folder = ProjectPath.directory(ProjectPath.directory(pbxproj))
        var out: [(path: String, listing: ProjectInput.WorkspaceListing)] = []
        for name in (fileSystem.contents(ofDirectory: folder.isEmpty ? "." : folder) ?? []).prefix(1000).sorted()
        where name.hasSuffix(".xcworkspace") && out.count < 8 {
            let workspace = folder.isEmpty ? name : ProjectPath.join(folder, name)
            guard case .success(let bytes) = fileSystem.read(ProjectPath.join(workspace, "contents.xcworkspacedata"), atMost: 1 << 20) else { continue }
            out.append((workspace, ProjectInput.workspaceProjects(bytes, workspace: workspace)))
        }
        workspacesBeside = out
        return out
    }

    /// The `.swift` files below `folder`, and whether it holds sources in
    /// another language (Objective-C, C, C++), whose code kcs does not read.
    /// A walk stopped by a bound is said, at `location` (the synchronized
    /// group), once: its files past the bound went unchecked in silence
    /// (real-project trial 19, D4).
    mutating func sources(under folder: String, excluding excluded: Set<String>,
                          at location: ProjectLocation? = nil) -> (swift: [String], otherSources: Bool) {
        let key = ([folder] + excluded.sorted()).joined(separator: "\u{0}")
        if let known = walks[key] { return known }
        let found = SourceFolder.walkSayingBounds(folder, excluding: excluded, fileSystem: fileSystem)
        walks[key] = (found.swift, found.otherSources)
        if let bound = found.stoppedAfter {
            let issue = ProjectIssue(.warning, "kcs stopped reading the folder '\(folder)' after \(bound): the Swift files past them are not checked",
                                     at: location ?? ProjectLocation(file: pbxproj, line: 1),
                                     hint: "the code check and KCS604 see only the files read before; folders of assets (.xcassets, .lproj, …) are not counted")
            if !issues.contains(issue) { issues.append(issue) }
        }
        return (found.swift, found.otherSources)
    }
}
