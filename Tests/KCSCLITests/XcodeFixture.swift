import Foundation

/// Writes a small Xcode project into a fresh temporary folder: the tests
/// make their own projects, so no third-party project file is committed.
struct XcodeFixture {
    struct Target {
        var name: String
        /// The folder (and group) of its sources; the target's name by default.
        var folder: String?
        var productType = "com.apple.product-type.application"
        /// Build settings by configuration name.
        var settings: [String: [String: String]] = [:]
        /// xcconfig file (relative to the project folder) by configuration name.
        var xcconfig: [String: String] = [:]
        /// Swift sources, relative to the target's folder (a group named after the target).
        var sources: [String] = []
        /// Platform filters of a source's entry in the Sources phase (`["macos"]`), by its name in `sources`.
        var sourceFilters: [String: [String]] = [:]
        /// Other files its group lists, in no build phase (an entitlements file), relative to its folder.
        var listed: [String] = []
        /// Targets whose products a Copy Files phase embeds.
        var embeds: [String] = []
        /// The platform filter of an embedded target's entry (`ios`), by its name.
        var embedFilters: [String: String] = [:]
        /// Embedded targets with a second Copy Files entry, without a filter.
        var embeddedAgain: Set<String> = []
        /// Frameworks its Frameworks phase links: `System/Library/Frameworks/X.framework`
        /// is the SDK's (sourceTree SDKROOT), anything else is built (BUILT_PRODUCTS_DIR).
        var frameworks: [String] = []
        /// Targets of the project whose products its Frameworks phase links.
        var links: [String] = []
        /// TargetAttributes → DevelopmentTeam.
        var attributesTeam: String?
        /// Synchronized folders (Xcode 16) of the target, relative to the project folder.
        var synchronizedFolders: [String] = []
        /// Products of Swift packages it links.
        var packageProducts: [PackageProduct] = []
    }

    /// A product of a Swift package: a local one by its folder (relative to
    /// the project folder), as Xcode 15 writes it (`XCLocalSwiftPackageReference`)
    /// or, `legacy`, as earlier versions did (a folder reference, and a
    /// product dependency naming no package); a remote one when `local` is nil.
    struct PackageProduct {
        var name: String
        var local: String?
        var legacy = false
        /// For a `legacy` one, whether the project refers to its folder:
        /// without, only a workspace lists it (openHAB's OpenHABCore).
        var folderReferenced = true
    }

    /// Exception sets of synchronized folders: for a target the folder
    /// belongs to, paths taken out of it; for another, paths added to it.
    var synchronizedExceptions: [(folder: String, target: String, paths: [String])] = []
    /// `platformFiltersByRelativePath` of a synchronized folder's exception set for a target.
    var synchronizedPlatformFilters: [(folder: String, target: String, filters: [String: [String]])] = []

    let root: URL
    var name = "App"
    var configurations = ["Debug", "Release"]
    var defaultConfiguration = "Release"
    var projectSettings: [String: [String: String]] = [:]
    var projectXCConfig: [String: String] = [:]
    /// xcconfig reached through `baseConfigurationReferenceAnchor` (a
    /// synchronized folder) and a relative path, by configuration name.
    var anchoredXCConfig: [String: (folder: String, file: String)] = [:]
    var targets: [Target] = []

    init(name: String = "App") {
        self.name = name
        root = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-xcode-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    var projectPath: String { root.appendingPathComponent("\(name).xcodeproj").path }

    func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Writes a file under the project folder, creating folders.
    func write(_ relative: String, _ text: String) {
        let url = root.appendingPathComponent(relative)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(text.utf8).write(to: url)
    }

    /// An entitlements file with these keychain and app groups.
    func writeEntitlements(_ relative: String, keychain: [String], appGroups: [String] = []) {
        func array(_ key: String, _ values: [String]) -> String {
            values.isEmpty ? "" : "\t<key>\(key)</key>\n\t<array>\n" + values.map { "\t\t<string>\($0)</string>\n" }.joined() + "\t</array>\n"
        }
        write(relative, """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \(array("keychain-access-groups", keychain))\(array("com.apple.security.application-groups", appGroups))</dict>
            </plist>

            """)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    /// An app whose bundle ID starts with a team-shaped word, Monal's
    /// `G7YU7X7KRJ.SworIM`, embedding its widget `….widget` (no Share):
    /// entitlements files named, not written.
    static func appWithTeamShapedBundleID() -> XcodeFixture {
        var f = appWidgetShare()
        let app = ["PRODUCT_BUNDLE_IDENTIFIER": "G7YU7X7KRJ.SworIM", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]
        f.targets[0].settings = ["Debug": app, "Release": app]
        let widget = ["PRODUCT_BUNDLE_IDENTIFIER": "G7YU7X7KRJ.SworIM.widget", "CODE_SIGN_ENTITLEMENTS": "Widget/Widget.entitlements"]
        f.targets[1].settings = ["Debug": widget, "Release": widget]
        f.targets.removeLast()
        f.targets[0].embeds = ["Widget"]
        return f
    }

    /// `count` copies of the Share extension (`Share0`, `Share1`, …, each its
    /// own bundle ID), embedded in the app: many extensions over one code.
    mutating func embedShareCopies(_ count: Int) {
        let share = targets[2]
        for i in 0..<count {
            var t = share
            t.name = "Share\(i)"
            t.settings = share.settings.mapValues { var s = $0; s["PRODUCT_BUNDLE_IDENTIFIER"] = "com.example.Notes.Share\(i)"; return s }
            targets.append(t)
            targets[0].embeds.append(t.name)
        }
    }

    /// `App.xcworkspace` beside the project, listing these locations (`group:Kit`).
    func writeWorkspace(_ locations: [String]) {
        write("\(name).xcworkspace/contents.xcworkspacedata", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Workspace version = \"1.0\">\n"
              + locations.map { "   <FileRef location = \"\($0)\"></FileRef>\n" }.joined() + "</Workspace>\n")
    }

    /// Writes `NAME.xcodeproj/project.pbxproj`.
    func writeProject() {
        var counter = 0
        func id() -> String {
            counter += 1
            return String(format: "A1B2C3D4E5F6%012X", counter)
        }
        func q(_ s: String) -> String {
            "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        var objects: [String] = []
        func object(_ id: String, _ comment: String, _ fields: [(String, String)]) {
            objects.append("\t\t\(id) /* \(comment) */ = {" + fields.map { "\($0.0) = \($0.1);" }.joined(separator: " ") + "};")
        }
        func list(_ items: [String]) -> String { "(" + items.map { $0 + ", " }.joined() + ")" }
        func settings(_ dict: [String: String]) -> String {
            "{\n" + dict.keys.sorted().map { "\t\t\t\t\(q($0)) = \(q(dict[$0] ?? ""));\n" }.joined() + "\t\t\t}"
        }
        var fileRefs: [String: String] = [:]
        func sourceRootRef(_ path: String) -> String {
            if let existing = fileRefs[path] { return existing }
            let ref = id()
            object(ref, path, [("isa", "PBXFileReference"), ("path", q(path)), ("sourceTree", "SOURCE_ROOT")])
            fileRefs[path] = ref
            return ref
        }
        var anchors: [String: String] = [:]
        func configurationList(_ owner: String, _ perConfig: [String: [String: String]], _ xcconfig: [String: String],
                               anchored: [String: (folder: String, file: String)] = [:]) -> String {
            var ids: [String] = []
            for c in configurations {
                let cid = id()
                var fields = [("isa", "XCBuildConfiguration"), ("buildSettings", settings(perConfig[c] ?? [:])), ("name", q(c))]
                if let x = xcconfig[c] { fields.append(("baseConfigurationReference", sourceRootRef(x))) }
                if let a = anchored[c] {
                    let anchor = anchors[a.folder] ?? {
                        let gid = id()
                        object(gid, a.folder, [("isa", "PBXFileSystemSynchronizedRootGroup"), ("path", q(a.folder)), ("sourceTree", "\"<group>\"")])
                        anchors[a.folder] = gid
                        return gid
                    }()
                    fields += [("baseConfigurationReferenceAnchor", anchor), ("baseConfigurationReferenceRelativePath", q(a.file))]
                }
                object(cid, c, fields)
                ids.append(cid)
            }
            let lid = id()
            object(lid, "Build configuration list for \(owner)", [("isa", "XCConfigurationList"), ("buildConfigurations", list(ids)),
                                                                   ("defaultConfigurationIsVisible", "0"),
                                                                   ("defaultConfigurationName", q(defaultConfiguration))])
            return lid
        }
        var targetIDs: [String: String] = [:]
        var productRefs: [String: String] = [:]
        for t in targets {
            targetIDs[t.name] = id()
            let product = id()
            object(product, t.name, [("isa", "PBXFileReference"), ("path", q(t.name + ".app")), ("sourceTree", "BUILT_PRODUCTS_DIR")])
            productRefs[t.name] = product
        }
        var groupChildren: [String] = []
        var synchronized: [String: String] = [:]
        for folder in Set(targets.flatMap(\.synchronizedFolders) + synchronizedExceptions.map(\.folder)).sorted() {
            var exceptions = synchronizedExceptions.filter { $0.folder == folder }.map { e -> String in
                let eid = id()
                object(eid, "Exceptions for \(folder) in \(e.target)", [("isa", "PBXFileSystemSynchronizedBuildFileExceptionSet"),
                                                                         ("membershipExceptions", list(e.paths.map(q))),
                                                                         ("target", targetIDs[e.target] ?? "")])
                return eid
            }
            for e in synchronizedPlatformFilters where e.folder == folder {
                let eid = id()
                let byPath = "{" + e.filters.keys.sorted().map { "\(q($0)) = \(list(e.filters[$0] ?? [])); " }.joined() + "}"
                object(eid, "Platform filters for \(folder) in \(e.target)", [("isa", "PBXFileSystemSynchronizedBuildFileExceptionSet"),
                                                                               ("platformFiltersByRelativePath", byPath),
                                                                               ("target", targetIDs[e.target] ?? "")])
                exceptions.append(eid)
            }
            let gid = id()
            object(gid, folder, [("isa", "PBXFileSystemSynchronizedRootGroup"), ("exceptions", list(exceptions)), ("path", q(folder)),
                                 ("sourceTree", "\"<group>\"")])
            synchronized[folder] = gid
            groupChildren.append(gid)
        }
        var packageRefs: [String: String] = [:], legacyFolders: [String: String] = [:]
        func packageProductDependency(_ p: PackageProduct) -> String {
            let dep = id()
            var fields = [("isa", "XCSwiftPackageProductDependency")]
            if let local = p.local, p.legacy {
                if legacyFolders[local] == nil, p.folderReferenced {
                    let ref = id()
                    object(ref, local, [("isa", "PBXFileReference"), ("lastKnownFileType", "folder"), ("path", q(local)),
                                        ("sourceTree", "\"<group>\"")])
                    legacyFolders[local] = ref
                    groupChildren.append(ref)
                }
            } else {
                let key = p.local ?? "remote"
                let ref = packageRefs[key] ?? {
                    let ref = id()
                    if let local = p.local {
                        object(ref, local, [("isa", "XCLocalSwiftPackageReference"), ("relativePath", q(local))])
                    } else {
                        object(ref, "remote", [("isa", "XCRemoteSwiftPackageReference"), ("repositoryURL", q("https://example.com/kit.git")),
                                               ("requirement", "{kind = upToNextMajorVersion; minimumVersion = 1.0.0; }")])
                    }
                    packageRefs[key] = ref
                    return ref
                }()
                fields.append(("package", ref))
            }
            fields.append(("productName", q(p.name)))
            object(dep, p.name, fields)
            return dep
        }
        var attributes: [String] = []
        for t in targets {
            guard let tid = targetIDs[t.name] else { continue }
            // Sources sit in a group named after the target: paths resolve through the group.
            var children: [String] = []
            var buildFiles: [String] = []
            for s in t.sources {
                let ref = id()
                object(ref, s, [("isa", "PBXFileReference"), ("path", q(s)), ("sourceTree", "\"<group>\"")])
                children.append(ref)
                let bf = id()
                object(bf, "\(s) in Sources", [("isa", "PBXBuildFile"), ("fileRef", ref)] + (t.sourceFilters[s].map { [("platformFilters", list($0))] } ?? []))
                buildFiles.append(bf)
            }
            for l in t.listed {
                let ref = id()
                object(ref, l, [("isa", "PBXFileReference"), ("path", q(l)), ("sourceTree", "\"<group>\"")])
                children.append(ref)
            }
            let group = id()
            object(group, t.name, [("isa", "PBXGroup"), ("children", list(children)), ("path", q(t.folder ?? t.name)), ("sourceTree", "\"<group>\"")])
            groupChildren.append(group)
            var phases: [String] = []
            let sourcesPhase = id()
            object(sourcesPhase, "Sources", [("isa", "PBXSourcesBuildPhase"), ("files", list(buildFiles))])
            phases.append(sourcesPhase)
            if !t.frameworks.isEmpty || !t.links.isEmpty {
                let linked = t.frameworks.map { path -> String in
                    let ref = id(), bf = id()
                    object(ref, path, [("isa", "PBXFileReference"), ("path", q(path)),
                                       ("sourceTree", path.hasPrefix("System/") ? "SDKROOT" : "BUILT_PRODUCTS_DIR")])
                    object(bf, "\(path) in Frameworks", [("isa", "PBXBuildFile"), ("fileRef", ref)])
                    return bf
                } + t.links.compactMap { productRefs[$0] }.map { ref -> String in
                    let bf = id()
                    object(bf, "linked in Frameworks", [("isa", "PBXBuildFile"), ("fileRef", ref)])
                    return bf
                }
                let phase = id()
                object(phase, "Frameworks", [("isa", "PBXFrameworksBuildPhase"), ("files", list(linked))])
                phases.append(phase)
            }
            if !t.embeds.isEmpty {
                let embedded = t.embeds.compactMap { name in productRefs[name].map { (name, $0) } }.flatMap { name, ref -> [String] in
                    let bf = id()
                    object(bf, "embedded", [("isa", "PBXBuildFile"), ("fileRef", ref)] + (t.embedFilters[name].map { [("platformFilter", $0)] } ?? []))
                    guard t.embeddedAgain.contains(name) else { return [bf] }
                    let again = id()
                    object(again, "embedded again", [("isa", "PBXBuildFile"), ("fileRef", ref)])
                    return [bf, again]
                }
                let copy = id()
                object(copy, "Embed Foundation Extensions", [("isa", "PBXCopyFilesBuildPhase"), ("dstSubfolderSpec", "13"), ("files", list(embedded))])
                phases.append(copy)
            }
            let configs = configurationList("PBXNativeTarget \"\(t.name)\"", t.settings, t.xcconfig)
            var fields = [("isa", "PBXNativeTarget"), ("buildConfigurationList", configs), ("buildPhases", list(phases))]
            if !t.synchronizedFolders.isEmpty {
                fields.append(("fileSystemSynchronizedGroups", list(t.synchronizedFolders.compactMap { synchronized[$0] })))
            }
            if !t.packageProducts.isEmpty {
                fields.append(("packageProductDependencies", list(t.packageProducts.map(packageProductDependency))))
            }
            fields += [("name", q(t.name)), ("productName", q(t.name)), ("productReference", productRefs[t.name] ?? ""),
                       ("productType", q(t.productType))]
            object(tid, t.name, fields)
            if let team = t.attributesTeam { attributes.append("\(tid) = {DevelopmentTeam = \(team); };") }
        }
        let mainGroup = id()
        object(mainGroup, "main", [("isa", "PBXGroup"), ("children", list(groupChildren)), ("sourceTree", "\"<group>\"")])
        let projectConfigs = configurationList("PBXProject \"\(name)\"", projectSettings, projectXCConfig, anchored: anchoredXCConfig)
        let rootID = id()
        var projectFields = [("isa", "PBXProject"), ("attributes", "{TargetAttributes = {\(attributes.joined(separator: " "))}; }"),
                             ("buildConfigurationList", projectConfigs), ("mainGroup", mainGroup)]
        if !packageRefs.isEmpty { projectFields.append(("packageReferences", list(packageRefs.keys.sorted().compactMap { packageRefs[$0] }))) }
        projectFields += [("projectDirPath", "\"\""), ("targets", list(targets.compactMap { targetIDs[$0.name] }))]
        object(rootID, "Project object", projectFields)
        let text = """
            // !$*UTF8*$!
            {
            \tarchiveVersion = 1;
            \tclasses = {
            \t};
            \tobjectVersion = 77;
            \tobjects = {
            \(objects.joined(separator: "\n"))
            \t};
            \trootObject = \(rootID) /* Project object */;
            }

            """
        write("\(name).xcodeproj/project.pbxproj", text)
    }
}

extension XcodeFixture {
    static let team = "SKMME9E2Y8"

    /// The docs project whose app links the product Kit of the local
    /// package in Kit/, whose Package.swift is the package `Kit` with
    /// `arguments` after its name (the project is not written yet).
    static func appLinkingKit(_ arguments: String) -> XcodeFixture {
        var f = appWidgetShare()
        f.targets[0].packageProducts = [.init(name: "Kit", local: "Kit")]
        f.write("Kit/Package.swift", "import PackageDescription\nlet package = Package(\n    name: \"Kit\",\n" + arguments)
        return f
    }

    /// Module `name` of Kit: one file adding an item to `TEAM.com.example.NAME`.
    func writeKitModule(_ name: String) {
        write("Kit/Sources/\(name)/\(name).swift", "import Security\nfunc f() { _ = SecItemAdd([kSecAttrAccessGroup as String: "
              + "\"\(Self.team).com.example.\(name)\"] as CFDictionary, nil) }\n")
    }

    /// The project the docs walk through: an app, a widget and a share
    /// extension, Debug and Release, bundle IDs from an xcconfig with an
    /// #include, entitlements with $(AppIdentifierPrefix).
    static func appWidgetShare(name: String = "App") -> XcodeFixture {
        var f = XcodeFixture(name: name)
        f.write("Config/Base.xcconfig", """
            // Shared by every target
            #include "Team.xcconfig"
            #include? "Local.xcconfig"
            BUNDLE_PREFIX = com.example
            PRODUCT_BUNDLE_IDENTIFIER = $(BUNDLE_PREFIX).$(PRODUCT_NAME:rfc1034identifier)
            IPHONEOS_DEPLOYMENT_TARGET = 17.0

            """)
        f.write("Config/Team.xcconfig", "DEVELOPMENT_TEAM = \(team)\n")
        f.projectXCConfig = ["Debug": "Config/Base.xcconfig", "Release": "Config/Base.xcconfig"]
        f.projectSettings = ["Debug": ["SDKROOT": "iphoneos"], "Release": ["SDKROOT": "iphoneos"]]
        let app = ["PRODUCT_NAME": "Notes", "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]
        f.targets = [
            Target(name: "App", settings: ["Debug": app, "Release": app], sources: ["KeychainStore.swift"], embeds: ["Widget", "Share Extension"]),
            Target(name: "Widget", productType: "com.apple.product-type.app-extension",
                   settings: ["Debug": ["PRODUCT_BUNDLE_IDENTIFIER": "$(inherited).Widget", "PRODUCT_NAME": "Notes",
                                        "CODE_SIGN_ENTITLEMENTS": "Widget/Widget.entitlements"],
                              "Release": ["PRODUCT_BUNDLE_IDENTIFIER": "$(inherited).Widget", "PRODUCT_NAME": "Notes",
                                          "CODE_SIGN_ENTITLEMENTS": "Widget/Widget.entitlements"]],
                   sources: ["Provider.swift"]),
            Target(name: "Share Extension", folder: "Share", productType: "com.apple.product-type.app-extension",
                   settings: ["Debug": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Notes.Share", "CODE_SIGN_ENTITLEMENTS": "Share/Share.entitlements"],
                              "Release": ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Notes.Share", "CODE_SIGN_ENTITLEMENTS": "Share/Share.entitlements"]],
                   sources: ["ShareViewController.swift"]),
        ]
        f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"], appGroups: ["group.com.example.notes"])
        f.writeEntitlements("Widget/Widget.entitlements", keychain: ["$(AppIdentifierPrefix)com.example.Notes.shared"])
        f.writeEntitlements("Share/Share.entitlements", keychain: ["$(AppIdentifierPrefix)$(CFBundleIdentifier)"])
        f.write("App/KeychainStore.swift", """
            import Security

            let sharedGroup = "\(team).com.example.Notes.shared"

            func save(_ data: Data) -> OSStatus {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrAccessGroup as String: sharedGroup,
                    kSecValueData as String: data,
                ]
                return SecItemAdd(query as CFDictionary, nil)
            }

            """)
        f.write("Widget/Provider.swift", """
            import Security

            func read() -> OSStatus {
                var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
                query[kSecAttrAccessGroup as String] = "\(team).com.example.Notes.shared"
                return SecItemCopyMatching(query as CFDictionary, nil)
            }

            """)
        f.write("Share/ShareViewController.swift", """
            import Security

            func read() -> OSStatus {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrAccessGroup as String: "com.example.Notes.shared",
                ]
                return SecItemCopyMatching(query as CFDictionary, nil)
            }

            """)
        f.writeProject()
        return f
    }
}
