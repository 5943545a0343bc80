/// Reads a local Swift package's manifest (`Package.swift`) for the project
/// reader, which has no Swift parser of its own: the code check gives it one
/// (`KCSCodeCheck.PackageManifestReader`), so the modules a target links from
/// a package in the repository are code kcs reads, as a linked framework's is.
public protocol SwiftPackageReading: Sendable {
    /// The package whose manifest is in `folder`, or nil when there is none
    /// kcs can read.
    func package(in folder: String, fileSystem: any ProjectFileSystem) -> (any SwiftPackage)?
}

/// A local Swift package, as its manifest declares it.
public protocol SwiftPackage {
    /// The modules that `product` compiles: the product's own and those they
    /// depend on in the package, each with its Swift files. Nil when the
    /// manifest does not declare the product, or declares it in code kcs
    /// cannot follow.
    /// `walk` lists a module's folder: the `.swift` files below it (less
    /// those excluded) and whether it holds sources in another language
    /// (``SourceFolder/walk(_:excluding:fileSystem:)``, remembered by the caller).
    func modules(of product: String, fileSystem: any ProjectFileSystem,
                 walk: (String, Set<String>) -> (swift: [String], otherSources: Bool)) -> [PackageModule]?
    /// The manifest's `products:` when kcs does not follow it (built in a
    /// closure or a function): as written, cut short, and where.
    var productsNotFollowed: (shown: String, at: ProjectLocation)? { get }
}

/// One module of a local Swift package, as ``SwiftPackageReading`` finds it.
public struct PackageModule: Sendable, Hashable {
    public var name: String
    public var swiftSources: [String]
    /// Whether all its code is in `swiftSources` and `localProducts`: no
    /// sources in another language, no binary or system-library module, no
    /// product of a remote package among its dependencies.
    public var allSwift: Bool
    /// Products of other local packages (`.package(path:)`) it depends on,
    /// each with the folders of the packages that may declare it.
    public var localProducts: [LocalProduct]
    /// What its manifest says of it that kcs does not follow (a list built
    /// in code), each at its place: said when a target links it.
    public var unread: [ProjectIssue]

    public struct LocalProduct: Sendable, Hashable {
        public var name: String
        public var packages: [String]
        /// Whether the dependency names its package (`.product(name:package:)`),
        /// rather than a name alone, which may be a remote package's product.
        public var packageNamed: Bool
        public init(name: String, packages: [String], packageNamed: Bool = false) {
            self.name = name
            self.packages = packages
            self.packageNamed = packageNamed
        }
    }

    public init(name: String, swiftSources: [String], allSwift: Bool, localProducts: [LocalProduct] = [], unread: [ProjectIssue] = []) {
        self.name = name
        self.swiftSources = swiftSources
        self.allSwift = allSwift
        self.localProducts = localProducts
        self.unread = unread
    }
}

/// The source files below a folder: a synchronized folder of a project, or a
/// package module's.
public enum SourceFolder {
    /// Suffixes of sources in another language, whose code kcs does not
    /// read, with the language's name.
    public static let otherSourceLanguages = [(".c", "C"), (".cc", "C++"), (".cpp", "C++"), (".cxx", "C++")]

    /// Whether kcs reads the source at `path`: Swift, or Objective-C
    /// (``ObjectiveCSource``). The one place that says so.
    public static func isRead(_ path: String) -> Bool { path.hasSuffix(".swift") || ObjectiveCSource.isObjectiveC(path) }
    public static let otherSourceSuffixes = otherSourceLanguages.map(\.0)

    /// Sources a target compiles that are not Swift, said for KCS604's hint
    /// ("the Objective-C source 'Bridge.m'", "3 C sources, the first
    /// 'a.c'", "2 sources that are not Swift, the first 'Intents.intentdefinition'").
    public static func unreadSources(_ paths: [String]) -> String? {
        guard let first = paths.first.map(ProjectPath.lastComponent) else { return nil }
        let languages = Set(paths.map { p in otherSourceLanguages.first { p.hasSuffix($0.0) }?.1 ?? "" })
        let language = languages.count == 1 ? languages.first ?? "" : ""
        if paths.count == 1 { return language.isEmpty ? "the source '\(first)', which is not Swift" : "the \(language) source '\(first)'" }
        return (language.isEmpty ? "\(paths.count) sources that are not Swift" : "\(paths.count) \(language) sources") + ", the first '\(first)'"
    }

    /// Folders that hold no source a target compiles: bundles of assets,
    /// localizations, models and documentation, whose many folders used up
    /// the walk's bound (2,500 `.imageset` folders before a folder of
    /// Swift; real-project trial 19, D4).
    public static let resourceFolderSuffixes = [
        ".xcassets", ".lproj", ".bundle", ".xcdatamodeld", ".xcdatamodel", ".xcmappingmodel", ".scnassets", ".spriteatlas",
        ".docc", ".playground", ".framework", ".xcframework", ".mlmodelc", ".mlpackage", ".rcproject", ".reality",
        ".storyboardc", ".nib", ".iconset", ".icon", ".xcstickers", ".app", ".appex",
    ]

    /// The walk's bounds: files kept, folders looked into, entries looked at.
    public static let maxFiles = 5000, maxFolders = 2000, maxEntries = 100_000

    /// The `.swift`, `.m` and `.mm` files below `folder`, sorted, and
    /// whether it holds sources in another language (C, C++).
    public static func walk(_ folder: String, excluding excluded: Set<String>,
                            fileSystem: any ProjectFileSystem) -> (swift: [String], otherSources: Bool) {
        let w = walkSayingBounds(folder, excluding: excluded, fileSystem: fileSystem)
        return (w.swift, w.otherSources)
    }

    /// ``walk(_:excluding:fileSystem:)``, and which bound stopped it
    /// (`"2,000 folders"`), if one did: the files past it are not read.
    public static func walkSayingBounds(_ folder: String, excluding excluded: Set<String>,
                                        fileSystem: any ProjectFileSystem) -> (swift: [String], otherSources: Bool, stoppedAfter: String?) {
        var found: [String] = []
        var otherSources = false
        var pending = [(folder, 0)]
        var visited = 0
        // Each folder and file once, however links reach it: two links to
        // "." made one file some 2,000 paths, each read and parsed (a 100 KB
        // file took 100 s and 670 MB; found by adversarial testing).
        var seenFolders: Set<String> = [fileSystem.canonical(folder)], seenFiles: Set<String> = []
        // Bounded in files, folders, entries looked at and depth: a
        // synchronized folder may hold anything (2,000 links to one folder of
        // 20,000 files listed it 2,000 times: 45 s; found by adversarial
        // testing). A folder is known by its canonical name before it is
        // looked into, and told from a file without listing it.
        var entries = 0
        while let (dir, depth) = pending.popLast(), found.count < maxFiles, visited < maxFolders, entries < maxEntries {
            visited += 1
            for name in fileSystem.contents(ofDirectory: dir) ?? [] where !name.hasPrefix(".") {
                entries += 1
                if entries >= maxEntries { break }
                let p = ProjectPath.join(dir, name)
                // A folder named `X.swift` is a folder: Xcode compiles what it
                // holds (Anytype keeps a file in one; it was reported as a
                // source kcs could not read, and its calls were missed).
                // Objective-C is read too (``ObjectiveCSource``).
                if isRead(name), !fileSystem.isDirectory(p) {
                    if !excluded.contains(p), seenFiles.insert(fileSystem.canonical(p)).inserted { found.append(p) }
                } else if otherSourceSuffixes.contains(where: { name.hasSuffix($0) }) {
                    if !excluded.contains(p) { otherSources = true }
                } else if resourceFolderSuffixes.contains(where: { name.hasSuffix($0) }) {
                    continue
                } else if depth < 16, !excluded.contains(p), seenFolders.insert(fileSystem.canonical(p)).inserted, fileSystem.isDirectory(p) {
                    // A folder holding a Package.swift is a package of its own,
                    // which Xcode builds as such, not as sources of the target
                    // whose folder holds it (Mlem keeps its packages in a
                    // synchronized folder; their tests were read as the app's
                    // code; found on a real-project trial).
                    if fileSystem.isFile(ProjectPath.join(p, "Package.swift")) { continue }
                    pending.append((p, depth + 1))
                }
            }
        }
        // A bound reached with folders still to read stopped the walk (the
        // last folder filling it is no loss).
        func grouped(_ n: Int) -> String {
            let digits = Array(String(n))
            return String(digits.enumerated().flatMap { i, d in (i > 0 && (digits.count - i) % 3 == 0 ? [","] : []) + [d] })
        }
        let stopped: String? = entries >= maxEntries ? "\(grouped(maxEntries)) entries"
            : pending.isEmpty ? nil
            : found.count >= maxFiles ? "\(grouped(maxFiles)) Swift files"
            : visited >= maxFolders ? "\(grouped(maxFolders)) folders" : nil
        return (found.sorted(), otherSources, stopped)
    }
}
