import KCSSyntax
import KCSXcodeProject
import Foundation
import KeychainEngine

/// A target as it is signed in one configuration on one platform: its
/// resolved build settings, its entitlements file read and expanded the way
/// Xcode expands it at signing, and the access-group list that results.
public struct TargetSigning: Sendable {
    public var resolved: ResolvedTarget
    /// The decoded entitlements file, if the configuration names one that reads.
    public var entitlements: Entitlements?
    /// `keychain-access-groups`, expanded, with the line each was written on.
    public var keychainAccessGroups: [Located]
    /// `com.apple.security.application-groups`, expanded.
    public var applicationGroups: [Located]
    /// `com.apple.developer.associated-application-identifier` (Mac
    /// Catalyst), expanded: the iOS app's ID, which joins the access groups.
    public var associatedApplicationIdentifiers: [Located] = []
    /// Whether a scenario's `entitlements="…"` reads the file to the same
    /// groups: it uses no build setting other than the ones kcs expands.
    public var scenarioCanReadFile: Bool
    /// Whether every group expanded cleanly: no setting it uses is undefined
    /// or malformed, and the team prefix it needs is known.
    public var groupsResolve: Bool
    public var issues: [ProjectIssue]

    /// A value and where it was written.
    public struct Located: Sendable, Hashable {
        public var value: String
        public var location: ProjectLocation?
        /// A group that expands to nothing is none: no profile grants ""
        /// (real-project trial 22, D4). The one test of it (review 22a, R12).
        public var isNone: Bool { value.isEmpty }
    }

    /// The keychain access groups signing grants (``Located/isNone`` dropped).
    public var grantedKeychainAccessGroups: [Located] { keychainAccessGroups.filter { !$0.isNone } }
    /// The application groups signing grants (``Located/isNone`` dropped).
    public var grantedApplicationGroups: [Located] { applicationGroups.filter { !$0.isNone } }

    public var target: XcodeProject.Target { resolved.target }
    public var configuration: String { resolved.configuration }

    /// The engine's view of the target, when its bundle ID resolved.
    public var appTarget: AppTarget? {
        guard let bundleID = resolved.bundleID else { return nil }
        var app = AppTarget(name: target.name, bundleID: bundleID, teamID: resolved.teamID, kind: kind,
                            keychainAccessGroups: grantedKeychainAccessGroups.map(\.value),
                            applicationGroups: grantedApplicationGroups.map(\.value))
        // Dropped here, a Catalyst target got the wrong list and default
        // group, and an import failed its own `expect groups` (found by audit).
        app.associatedApplicationIdentifiers = associatedApplicationIdentifiers.map(\.value)
        return app
    }

    /// The access-group list in the order the system builds it.
    public var accessGroups: [String] { appTarget?.accessGroups ?? [] }

    public var kind: TargetKind {
        TargetKind(rawValue: target.kind?.scenarioKind ?? "app") ?? .app
    }

    /// The variables a scenario's `entitlements=` expands itself (Entitlements.expand).
    static let scenarioVariables = ["$(AppIdentifierPrefix)", "$(TeamIdentifierPrefix)", "$(PRODUCT_BUNDLE_IDENTIFIER)", "$(CFBundleIdentifier)"]

    /// Resolves a target and reads its entitlements. `team` stands in for a
    /// target whose project gives no team, or one that expands to nothing,
    /// also in the settings that use it (a bundle ID `com.$(DEVELOPMENT_TEAM).app`).
    /// Entitlements files read, decoded and indexed once, by real path:
    /// every target, configuration and platform that signs with a file
    /// decoded it again (100 targets sharing a 949 KB file took 27 s; found
    /// by adversarial testing). One per project load.
    public final class FileCache {
        struct Read {
            var decoded: Result<Entitlements, EntitlementsError>
            var text: String
            var lines: [String: Int]
            /// Values with a variable the scenario cannot expand itself.
            var unreadable: Set<String>
            /// Of each value that uses settings, the names it uses when
            /// every use is a plain `$(NAME)` or `${NAME}`.
            var plainReferences: [String: [String]]
        }
        var byPath: [String: Read] = [:]
        /// Expansions of values whose every setting is one of the extra
        /// variables (`$(AppIdentifierPrefix)com.example.g`), by the value and
        /// those variables' values: the same for every target that signs with
        /// the file and has the same team, so worked out once (100 targets
        /// sharing a file of 10,000 groups expanded a million values; adversarial
        /// run 25, F10).
        var expansions: [String: Expansion] = [:]
        /// Whole lists of a file expanded, by the path as written, the list
        /// and the values of the variables its values use, when every value
        /// is a literal or uses extra variables alone (``listUses``) and none
        /// raised an issue: the same for every target of the team signing
        /// with the file (100 targets sharing a file of 10,000 groups still
        /// built a million located values, past the 60 s limit; adversarial
        /// run 25, F10).
        var lists: [String: [Located]] = [:]
        /// By path and list: the variables its values use, nil when a value
        /// uses more than plain references.
        var listUses: [String: [String]?] = [:]
        /// Lists expanded value by value (tests count them).
        package internal(set) var listsExpanded = 0
        /// Values expanded in settings so far (tests count them).
        package private(set) var valuesExpanded = 0
        /// Each distinct content once, by its hash: hard links to one file
        /// have paths of their own (140 of a 30 MiB file took 3.9 GB;
        /// found by adversarial testing).
        var byContent: [Int: [(bytes: [UInt8], read: Read)]] = [:]
        public init() {}

        func read(canonical: String, _ bytes: () -> Result<[UInt8], ProjectFileError>) -> Result<Read, ProjectFileError> {
            if let known = byPath[canonical] { return .success(known) }
            let b: [UInt8]
            switch bytes() {
            case .success(let read): b = read
            case .failure(let e): return .failure(e)
            }
            let hash = b.hashValue
            if let same = byContent[hash]?.first(where: { $0.bytes == b }) {
                byPath[canonical] = same.read
                return .success(same.read)
            }
            let decoded = Entitlements.decode(b)
            var unreadable = Set<String>(), plainReferences: [String: [String]] = [:]
            if case .success(let e) = decoded {
                for value in (e.keychainAccessGroups ?? []) + (e.applicationGroups ?? []) + (e.associatedApplicationIdentifiers ?? [])
                where value.contains("$") {
                    if scenarioVariables.reduce(value, { $0.replacingOccurrences(of: $1, with: "") }).contains("$") { unreadable.insert(value) }
                    if let names = FileCache.plainReferences(in: value) { plainReferences[value] = names }
                }
            }
            // Each value's line, found in one pass: searched for value by
            // value, a 107 KB file took 17 s (found by adversarial testing).
            let lines = stringLines(b)
            // The text only where lines are found in it (a binary plist).
            let read = Read(decoded: decoded, text: lines.isEmpty ? String(decoding: b, as: UTF8.self) : "", lines: lines, unreadable: unreadable,
                            plainReferences: plainReferences)
            byPath[canonical] = read
            byContent[hash, default: []].append((b, read))
            return .success(read)
        }

        /// The names `value` uses, when each use is a plain `$(NAME)` or
        /// `${NAME}` (no operator, no reference inside); nil otherwise.
        static func plainReferences(in value: String) -> [String]? {
            var names: [String] = []
            for piece in BuildSettings.references(in: value) where piece.isReference {
                let scalars = Array(piece.text.unicodeScalars)
                guard scalars.count > 3, scalars[1] == "(" || scalars[1] == "{" else { return nil }
                let name = scalars[2..<(scalars.count - 1)]
                guard name.allSatisfy({ $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }) else { return nil }
                names.append(String(String.UnicodeScalarView(name)))
            }
            return names
        }

        /// `value` expanded in `settings` with `extra`: from the cache when
        /// every name it uses is one of `extra`'s, which then decide it alone.
        func expand(_ value: String, in settings: BuildSettings, extra: [String: String], file: Read) -> Expansion {
            guard let names = file.plainReferences[value], names.allSatisfy({ extra[$0] != nil }) else {
                valuesExpanded += 1
                return settings.expand(value, extra: extra)
            }
            let key = ([value] + names.map { extra[$0] ?? "" }).joined(separator: "\u{0}")
            if let known = expansions[key] { return known }
            valuesExpanded += 1
            let e = settings.expand(value, extra: extra)
            expansions[key] = e
            return e
        }
    }

    /// The `.entitlements` file beside `missing`, a path that names none,
    /// whose name is one or two letters from its name: the file meant.
    /// Else the one file of that very name the project lists (`listed`), at
    /// any depth, when it exists.
    public static func nearEntitlementsFile(_ missing: String, fileSystem: any ProjectFileSystem, listed: [String] = []) -> String? {
        let name = ProjectPath.lastComponent(missing), folder = ProjectPath.directory(missing)
        guard name.hasSuffix(".entitlements"), !fileSystem.isFile(missing) else { return nil }
        let names = (fileSystem.contents(ofDirectory: folder.isEmpty ? "." : folder) ?? []).prefix(10_000).filter { $0.hasSuffix(".entitlements") && $0 != name }
        var best: (String, Int)?
        for n in names.prefix(200) {
            if let d = Suggest.editDistance(n, name, atMost: 2), d < (best?.1 ?? 3) { best = (n, d) }
        }
        if let best { return folder.isEmpty ? best.0 : ProjectPath.join(folder, best.0) }
        // A file of that very name one folder down: the path misses a level
        // (Session's `…/X.entitlements` for `…/Meta/X.entitlements`;
        // real-project trial 22, W8).
        for sub in (fileSystem.contents(ofDirectory: folder.isEmpty ? "." : folder) ?? []).prefix(200).sorted() where !sub.hasPrefix(".") {
            let candidate = ProjectPath.join(folder.isEmpty ? sub : ProjectPath.join(folder, sub), name)
            if fileSystem.isFile(candidate) { return candidate }
        }
        // A level missing higher up, or in the middle: the one file of that
        // name the project lists (Provenance's
        // `Extensions/ThumbnailExtensionMacOS/X.entitlements` for
        // `Extensions/macOS/ThumbnailExtensionMacOS/X.entitlements`, which the
        // project references; real-project trial 23, D6).
        let same = Set(listed.prefix(10_000).filter { ProjectPath.lastComponent($0) == name })
        if same.count == 1, let only = same.first, fileSystem.isFile(only) { return only }
        return nil
    }

    public static func resolve(_ project: XcodeProject, _ target: XcodeProject.Target, configuration: String, platform: String,
                               team: String?, fileSystem: any ProjectFileSystem, files: FileCache = FileCache()) -> TargetSigning {
        var resolved = project.resolve(target, configuration: configuration, platform: platform, team: team)
        if resolved.teamID == nil { resolved.teamID = team }
        var signing = TargetSigning(resolved: resolved, entitlements: nil, keychainAccessGroups: [], applicationGroups: [],
                                    scenarioCanReadFile: true, groupsResolve: true, issues: resolved.issues)
        // A setting's value that uses one no level defines, one typo from a
        // defined one: did you mean it (Userscripts' `$(EXT_IDENTIFER)` in an
        // xcconfig's PRODUCT_BUNDLE_IDENTIFIER, `EXT_IDENTIFIER` defined;
        // real-project trial 24, W3). The names near, by issue.
        var nearNames: [Int: [String]] = [:]
        // Worked out only when a hint asks (a target may have many settings).
        var definedNames: [String] = []
        for i in signing.issues.indices where signing.issues[i].hint?.hasPrefix(ProjectIssue.checkSpelling) == true {
            if definedNames.isEmpty { definedNames = Array(Set(resolved.settings.assignments.map(\.name))).sorted() }
            let near = signing.issues[i].undefinedSettings.prefix(4).compactMap { name in
                // Not one that itself uses the undefined setting (as for entitlements values below).
                Suggest.closest(to: name, in: definedNames).flatMap { candidate in
                    resolved.settings.expand("$(\(candidate))").undefined.contains(name) ? nil : "$(\(candidate)) for $(\(name))"
                }
            }
            guard !near.isEmpty else { continue }
            nearNames[i] = near
            signing.issues[i].hint = "did you mean " + near.joined(separator: ", ") + "? " + (signing.issues[i].hint ?? "")
        }
        guard let path = resolved.entitlementsPath else { return signing }
        let file: FileCache.Read
        switch files.read(canonical: fileSystem.canonical(path), { fileSystem.read(path) }) {
        case .success(let f): file = f
        case .failure(let e):
            // A file one or two letters from it beside it is the one meant
            // (Unstoppable's `Widget-Dve.entitlements`; real-project trial 19, W4).
            let near = nearEntitlementsFile(path, fileSystem: fileSystem, listed: project.entitlementsFiles.map(\.path)).map { "did you mean '\($0)'? " } ?? ""
            signing.issues.append(ProjectIssue(.warning, "CODE_SIGN_ENTITLEMENTS of target '\(target.name)', configuration '\(configuration)' names '\(path)': \(e.message)",
                                               at: resolved.entitlementsLocation ?? target.location,
                                               hint: near + "the path is relative to the project folder (SRCROOT)"))
            return signing
        }
        let entitlements: Entitlements
        switch file.decoded {
        case .success(let e): entitlements = e
        case .failure(let e):
            signing.issues.append(ProjectIssue(.warning, "\(path): \(e.message)", at: ProjectLocation(file: path, line: 0), hint: e.hint))
            return signing
        }
        signing.entitlements = entitlements
        // CODE_SIGN_ENTITLEMENTS built with a setting no level defines, no
        // typo of a defined one, naming a file that exists: a hook a build
        // sets on the command line (CotEditor's CI passes
        // `CODE_SIGN_ENTITLEMENTS_SUFFIX=-AdHoc`; unset, it signs with
        // CotEditor.entitlements), a note as Home Assistant's
        // $(PROVISIONING_SUFFIX) is (real-project trial 24, W1).
        for i in signing.issues.indices where nearNames[i] == nil && !signing.issues[i].undefinedSettings.isEmpty
            && signing.issues[i].severity == .warning && signing.issues[i].location == resolved.entitlementsLocation
            && signing.issues[i].setting == "CODE_SIGN_ENTITLEMENTS" {
            let names = signing.issues[i].undefinedSettings.map { "$(\($0))" }.joined(separator: ", ")
            signing.issues[i].severity = .note
            signing.issues[i].hint = "unset, it names '\(path)', which exists: a hook a build sets on the command line "
                + "(xcodebuild … \(signing.issues[i].undefinedSettings[0])=…) is as meant; if every build needs \(names), define it"
        }
        let text = file.text, lines = file.lines
        let team = entitlements.teamID ?? resolved.teamID
        var extra: [String: String] = [:]
        if let team {
            extra["AppIdentifierPrefix"] = team + "."
            extra["TeamIdentifierPrefix"] = team + "."
        }
        if let bundleID = resolved.bundleID { extra["CFBundleIdentifier"] = bundleID }
        func expand(_ raw: [String]?, keychain: Bool) -> [Located] {
            (raw ?? []).map { value in
                let at = ProjectLocation(file: path, line: lines[value] ?? (lines.isEmpty ? line(of: value, in: text) : 0))
                if file.unreadable.contains(value) { signing.scenarioCanReadFile = false }
                if team == nil, value.contains("AppIdentifierPrefix") || value.contains("TeamIdentifierPrefix") {
                    signing.groupsResolve = false
                    var issue = ProjectIssue(.warning, "'\(value)' needs a team ID, and target '\(target.name)' has none in configuration '\(configuration)'",
                                             at: at, hint: "set DEVELOPMENT_TEAM, or give --team TEAMID")
                    // A team set to nothing is where the fix goes (Threema's
                    // white-label extensions' `DEVELOPMENT_TEAM = "";`;
                    // real-project trial 22, W5).
                    if let empty = resolved.settings.definition(of: "DEVELOPMENT_TEAM"), let setAt = empty.location,
                       empty.value.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\"" }) {
                        issue.notes.append(.init("DEVELOPMENT_TEAM is set to nothing here", at: setAt))
                        issue.hint = "set DEVELOPMENT_TEAM where it is set to nothing, or give --team TEAMID"
                    }
                    signing.issues.append(issue)
                }
                let e = files.expand(value, in: resolved.settings, extra: extra, file: file)
                if !e.problems.isEmpty || !e.undefined.isEmpty { signing.groupsResolve = false }
                for p in e.problems { signing.issues.append(ProjectIssue(.warning, "'\(value)': \(p)", at: at)) }
                // The team's prefixes are said missing once, above, not also as
                // settings to define (found on a real project).
                let undefined = team == nil ? e.undefined.filter { $0 != "AppIdentifierPrefix" && $0 != "TeamIdentifierPrefix" } : e.undefined
                if !undefined.isEmpty {
                    // A setting the value names may be where the misspelt
                    // name is written: a note there, and the defined setting
                    // one typo from it (real-project trial 16, D12).
                    let defined = Array(Set(resolved.settings.assignments.map(\.name)).union(extra.keys)).sorted()
                    // Not a setting that itself uses the undefined one: LoopFollow
                    // was asked "did you mean $(DEVELOPMENT_TEAM) for
                    // $(LF_DEVELOPMENT_TEAM)?", DEVELOPMENT_TEAM being
                    // `$(LF_DEVELOPMENT_TEAM)` (real-project trial 20, W1).
                    let near = undefined.prefix(4).compactMap { name in
                        Suggest.closest(to: name, in: defined).flatMap { candidate in
                            resolved.settings.expand("$(\(candidate))", extra: extra).undefined.contains(name) ? nil : "$(\(candidate)) for $(\(name))"
                        }
                    }
                    // The team, behind a setting no level defines: what gives a team.
                    let teamUndefined = resolved.settings.definition(of: "DEVELOPMENT_TEAM") == nil ? []
                        : resolved.settings.expand("$(DEVELOPMENT_TEAM)", extra: extra).undefined
                    let team = undefined.first { teamUndefined.contains($0) }.map { name in
                        "$(\(name)) is the team (DEVELOPMENT_TEAM uses it): "
                            + (project.absentTeamFile(holder: name, in: resolved.settings) ?? "define it as your team ID, or give --team TEAMID")
                    }
                    // Set only for another SDK (`X[sdk=iphonesimulator*]`): the
                    // device build expands it to nothing, the "works in the
                    // Simulator" trap; said as such, never as a suffix only
                    // some builds add (real-project trial 22, D4).
                    // The Simulator's of this platform first (Passepartout's
                    // tvOS line came before it), each condition said once.
                    let simulator = resolved.sdk.replacingOccurrences(of: "os", with: "simulator")
                    var seenConditions = Set<String>()
                    func isSimulator(_ a: SettingAssignment) -> Bool { a.conditions.contains { $0.key == "sdk" && $0.pattern.hasPrefix(simulator) } }
                    let conditioned = project.assignments(for: target, configuration: configuration, sdk: resolved.sdk).0.filter { a in
                        undefined.contains(a.name) && a.conditions.contains { $0.key == "sdk" }
                    }
                    let otherSDK = (conditioned.filter(isSimulator) + conditioned.filter { !isSimulator($0) })
                        .filter { seenConditions.insert($0.conditions.map { "[\($0.key)=\($0.pattern)]" }.joined()).inserted }
                    let forSimulator = otherSDK.first.map(isSimulator) ?? false
                    let sdkOnly = otherSDK.isEmpty ? nil
                        : "target '\(target.name)' sets only for " + otherSDK.prefix(3).map { $0.conditions.map { "[\($0.key)=\($0.pattern)]" }.joined() }.joined(separator: ", ")
                            + ", not for the \(resolved.sdk) SDK this build uses"
                    var issue = ProjectIssue.undefined("'\(value)'", uses: undefined, definedNowhere: sdkOnly ?? "target '\(target.name)' does not define",
                                                       at: at, hint: (near.isEmpty || sdkOnly != nil ? "" : "did you mean " + near.joined(separator: ", ") + "? ")
                                                           + (sdkOnly != nil ? "set it for \(resolved.sdk) too ([sdk=\(resolved.sdk)*], or no condition): the group is "
                                                               + "\(e.value.isEmpty ? "empty" : "'\(e.value)'") in this build"
                                                               + (forSimulator ? ", though the Simulator's build has it" : "")
                                                               : team ?? "define the build setting, or write the group out") + ProjectIssue.unreadMayDefine(resolved.issues))
                    // An empty group is no suffix a build leaves out.
                    issue.notPartial = sdkOnly != nil || e.value.isEmpty
                    // Nor is a group the setting leaves with an empty part
                    // (DuckDuckGo's `$(AppIdentifierPrefix)$(VAULT_APP_GROUP)`
                    // is `HKE973VLUW.` in Release; real-project trial 24, D3).
                    if !e.value.isEmpty, EntitlementShape.hasEmptyPart(e.value) {
                        issue.emptyPart = e.value
                        issue.emptyPartIsKeychainGroup = keychain
                    }
                    if let a = otherSDK.first, let setAt = a.location {
                        issue.notes.append(.init("\(a.name)" + a.conditions.map { "[\($0.key)=\($0.pattern)]" }.joined() + " is set here", at: setAt))
                    }
                    for name in undefined.prefix(4) {
                        if let a = resolved.settings.assignment(naming: name, from: value), let setAt = a.location {
                            issue.notes.append(.init("\(a.name) uses $(\(name)) here", at: setAt))
                        }
                    }
                    signing.issues.append(issue)
                }
                return Located(value: e.value, location: at)
            }
        }
        func expandOnce(_ raw: [String]?, _ list: String) -> [Located] {
            let listKey = path + "\u{1}" + list
            let uses: [String]?
            if let known = files.listUses[listKey] {
                uses = known
            } else {
                var names = Set<String>(), plain = true
                for value in raw ?? [] where value.contains("$") {
                    guard let used = file.plainReferences[value] else { plain = false; break }
                    names.formUnion(used)
                }
                uses = plain ? names.sorted() : nil
                files.listUses[listKey] = .some(uses)
            }
            guard let uses, uses.allSatisfy({ extra[$0] != nil }) else {
                files.listsExpanded += 1
                return expand(raw, keychain: list == "keychain")
            }
            let key = listKey + "\u{1}" + uses.map { extra[$0] ?? "" }.joined(separator: "\u{0}")
            if let known = files.lists[key] { return known }
            files.listsExpanded += 1
            let issues = signing.issues.count, readable = signing.scenarioCanReadFile, resolves = signing.groupsResolve
            let out = expand(raw, keychain: list == "keychain")
            if signing.issues.count == issues, signing.scenarioCanReadFile == readable, signing.groupsResolve == resolves { files.lists[key] = out }
            return out
        }
        signing.keychainAccessGroups = expandOnce(entitlements.keychainAccessGroups, "keychain")
        signing.applicationGroups = expandOnce(entitlements.applicationGroups, "application")
        signing.associatedApplicationIdentifiers = expandOnce(entitlements.associatedApplicationIdentifiers, "associated")
        return signing
    }

    /// The line of each `<string>…</string>` of an XML property list, by its
    /// value (the first, when a value is written twice; entities decoded).
    package static func stringLines(_ bytes: [UInt8]) -> [String: Int] {
        var out: [String: Int] = [:]
        let open = Array("<string>".utf8), close = Array("</string>".utf8)
        var line = 1, i = 0
        func at(_ j: Int, _ t: [UInt8]) -> Bool {
            guard j + t.count <= bytes.count else { return false }
            for k in t.indices where bytes[j + k] != t[k] { return false }
            return true
        }
        while i < bytes.count {
            if LineBreaks.ends(bytes, at: i) { line += 1; i += 1; continue }
            guard bytes[i] == UInt8(ascii: "<"), at(i, open) else { i += 1; continue }
            let start = i + open.count, startLine = line
            var j = start
            while j < bytes.count, !(bytes[j] == UInt8(ascii: "<") && at(j, close)) {
                if LineBreaks.ends(bytes, at: j) { line += 1 }
                j += 1
            }
            let raw = String(decoding: bytes[start..<min(j, bytes.count)], as: UTF8.self)
            let value = raw.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
                .replacingOccurrences(of: "&amp;", with: "&")
            if out[value] == nil { out[value] = startLine }
            i = j + close.count
        }
        return out
    }

    /// The line on which an entitlements file writes `<string>value</string>` (0 if not found).
    package static func line(of value: String, in text: String) -> Int {
        let escaped = value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        guard let r = text.range(of: ">" + escaped + "<") ?? text.range(of: value) else { return 0 }
        let bytes = Array(text.utf8)
        return 1 + LineBreaks.count(in: bytes, 0..<text.utf8.distance(from: text.utf8.startIndex, to: r.lowerBound))
    }
}
