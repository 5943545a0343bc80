import KCSLanguage
import KCSXcodeProject
import KeychainEngine

/// What `kcs import xcode` is asked for.
public struct XcodeImportOptions: Sendable {
    /// The configuration to resolve; the project's default when nil.
    public var configuration: String?
    /// The team for targets whose project sets none.
    public var team: String?
    /// `ios`, `macos`, `catalyst` or `watchos`; the first app's platform when nil.
    public var platform: String?
    /// The folder the scenario will be read from: entitlements paths are
    /// written relative to it.
    public var scenarioFolder: String
    /// Where relative paths start: a relative project and an absolute
    /// scenario folder (or one that climbs out, `../x`) are compared from
    /// there. The project's paths stay as given in what is said (an
    /// absolute `-o` made them absolute; found on a real-project trial).
    public var workingDirectory: String?
    /// The scenario's bound: the generated-text limit (``Limits/generatedBytes``).
    public var maxScenarioBytes: Int

    public init(configuration: String? = nil, team: String? = nil, platform: String? = nil, scenarioFolder: String = ".",
                workingDirectory: String? = nil, maxScenarioBytes: Int = Limits().generatedBytes) {
        self.maxScenarioBytes = maxScenarioBytes
        self.configuration = configuration
        self.team = team
        self.platform = platform
        self.scenarioFolder = scenarioFolder
        self.workingDirectory = workingDirectory
    }

    /// `path` (from here) as the scenario reaches it.
    func fromScenario(_ path: String) -> String {
        var path = path, folder = scenarioFolder
        if let workingDirectory, path.hasPrefix("/") != folder.hasPrefix("/") || ProjectPath.normalize(folder).split(separator: "/").contains("..") {
            path = ProjectPath.join(workingDirectory, path)
            folder = ProjectPath.join(workingDirectory, folder)
        }
        return XcodeImporter.relativePath(path, from: folder)
    }
}

/// A generated scenario, the warnings met on the way, and how the import
/// ended: passed (a scenario was written), failed (no target could be
/// imported), invalid request (no such configuration), invalid input
/// (project.pbxproj does not parse), missing input (unreadable project).
public struct XcodeImport: Sendable {
    public var scenario: String
    public var diagnostics: [Diagnostic]
    public var verdict: Verdict
    /// The project's files the import read (project.pbxproj, the
    /// entitlements and xcconfig files): an output must not replace one.
    public var filesRead: [String] = []
}

/// Writes a scenario from an Xcode project: a `team`, one `app` per signed
/// target with its kind, bundle ID and entitlements, and an `expect groups`
/// per app that pins the access-group list the import worked out.
public enum XcodeImporter {
    /// The hint when no target builds for the platform asked for, for the
    /// import and `lint --project` alike (`doing`: "import", "lint"): the
    /// platforms the targets do build for, and the option that takes the first.
    public static func builtFor(_ built: [String], not platform: String, doing: String) -> String? {
        built.isEmpty ? nil : "its targets build for " + built.joined(separator: ", ")
            + (built.contains(platform) ? "" : ": \(doing) with --platform " + built[0])
    }

    /// How every imported scenario begins, and what its first line holds
    /// further on: `-o` replaces only a file whose first line has both.
    public static let header = "# Imported from "
    public static let headerMarker = " by kcs import xcode: configuration "

    public static func importProject(_ path: String, options: XcodeImportOptions,
                                     fileSystem given: any ProjectFileSystem = LocalProjectFileSystem()) -> XcodeImport {
        // Paths as a Mac finds them, whatever the case (CaseFoldingFileSystem).
        let fileSystem = CaseFoldingFileSystem(given)
        var render = ProjectDiagnostics(fileSystem: fileSystem)
        let project: XcodeProject
        switch XcodeProject.load(path, fileSystem: fileSystem, again: "import again") {
        case .success(let p): project = p
        case .failure(let issue):
            return XcodeImport(scenario: "", diagnostics: [render.diagnostic(issue, code: .projectUnreadable, length: 1)],
                               verdict: issue.isUnreadable ? .missingInput : .invalidInput)
        }
        var diagnostics = project.issues.map { render.diagnostic($0, code: .projectSetting) }
        let configuration = options.configuration ?? project.defaultConfiguration
        if !project.configurations.contains(where: { $0.name == configuration }) {
            let names = project.configurations.map(\.name)
            diagnostics.append(Diagnostic(.projectSetting, "the project has no configuration '\(configuration)'",
                                          hint: "configurations: " + names.joined(separator: ", ")))
            return XcodeImport(scenario: "", diagnostics: diagnostics, verdict: .invalidRequest)
        }

        // Which platform: the one asked for, else the first app's first.
        let signed = project.targets.filter { $0.kind != nil }
        var platformsByTarget: [String: [String]] = [:]
        // Targets share xcconfig files: a file that does not read is reported once, not once per target.
        var seen = Set<ProjectIssue>()
        // A missing xcconfig two files #include is one file: said once, where
        // the first names it, as the lint says it (real-project trial 19, W10).
        var unread = Set<String>()
        func firstTime(_ issue: ProjectIssue) -> Bool {
            seen.insert(issue).inserted && (issue.unreadXCConfig.map { unread.insert($0).inserted } ?? true)
        }
        var pods = MissingPods()
        // Targets whose platform kcs cannot tell (SDKROOT in an xcconfig it
        // cannot read): --platform says which (real-project trial 19, D1).
        var unknownPlatform: [String] = []
        for t in signed {
            let (platforms, issues, _) = project.platforms(of: t, configuration: configuration, given: options.platform, doing: "imported")
            platformsByTarget[t.id] = platforms
            if platforms.isEmpty, project.otherPlatforms(of: t, configuration: configuration).isEmpty {
                unknownPlatform.append(t.name)
            }
            for issue in issues where firstTime(issue) && !pods.take(issue) {
                diagnostics.append(render.diagnostic(issue, code: .projectSetting))
            }
        }
        // The first app whose platform kcs can tell: MSAL's first app is one
        // whose SDKROOT sits in an absent submodule's xcconfig, and its iOS
        // and macOS apps were not imported without --platform (real-project
        // trial 24, W8). The others are named in the scenario's comments.
        let known = signed.filter { !(platformsByTarget[$0.id] ?? []).isEmpty }
        let firstApp = known.first { $0.kind == .app || $0.kind == .watchApp } ?? known.first
        guard let platform = options.platform ?? firstApp.flatMap({ platformsByTarget[$0.id]?.first }) else {
            if let issue = pods.issue { diagnostics.append(render.diagnostic(issue, code: .projectSetting)) }
            let n = unknownPlatform.count
            diagnostics.append(Diagnostic(.projectSetting, "\(path) has no app or extension target kcs can import",
                                          hint: n > 0 ? "\(n == 1 ? "its target" : "its \(n) targets") \(unknownPlatform.prefix(3).map { "'\($0)'" }.joined(separator: ", "))\(n > 3 ? " and \(n - 3) more" : "") "
                                              + "\(n == 1 ? "is" : "are") left out as kcs cannot tell which platform \(n == 1 ? "it builds" : "they build") for (above): import with --platform ios (or macos, catalyst, watchos)"
                                              : "kcs imports apps, app extensions, App Clips, watch apps and their extensions"))
            return XcodeImport(scenario: "", diagnostics: diagnostics, verdict: .failed)
        }

        // Names from the project are written as script literals, so none can end a comment line.
        var lines = [header + "\(ScriptText.literal(ProjectPath.lastComponent(project.path)))" + headerMarker
                     + "\(ScriptText.literal(configuration)), platform \(platform)."]
        var apps: [String] = []
        var expectations: [String] = []
        var written = 0
        let maxScenarioBytes = options.maxScenarioBytes
        var teams: [String] = []
        var names = Set<String>()
        // The platform version the scenario says: its `platform` line and every
        // `expect groups` use this one value. The lists were worked out for
        // iOS 18 while the line said the deployment target, so an iOS 12 app's
        // own run lacked com.apple.token (real-project trial 24, D1). The
        // first app (or watch app) on the platform whose bundle ID resolves
        // and that names a deployment target gives it.
        let scenarioVersion: Int = {
            let deployment = signed.lazy.filter { t in
                (t.kind == .app || t.kind == .watchApp) && (platformsByTarget[t.id] ?? []).contains(platform)
            }.compactMap { t -> Int? in
                let resolved = project.resolve(t, configuration: configuration, platform: platform, team: options.team)
                return resolved.bundleID == nil ? nil : resolved.deploymentVersion
            }.first
            let defaultVersion = ["ios": 18, "catalyst": 18, "macos": 15, "watchos": 11][platform] ?? 18
            // An old deployment target is written as the oldest version kcs models.
            let floor = Platform.Family(rawValue: platform)?.oldestModelled ?? 1
            return min(max(deployment ?? defaultVersion, floor), Platform.versionBound - 1)
        }()
        var otherPlatforms: [String] = [], unmodelled: [String] = [], unknown: [String] = [], unresolved: [String] = [], listedOnly: [String] = []
        /// Why bundle IDs do not resolve: settings set empty, a team that
        /// expands to nothing, and a configuration where one does resolve.
        var emptiedBy: [String] = [], emptiedTeam = false, otherConfiguration: String?
        let files = TargetSigning.FileCache()
        // One finding at one place for several targets (a line of an
        // xcconfig file they all use) is said once, naming them, as the
        // lint says it: the import said Blink's `project.pbxproj:4835:5` once
        // per target (real-project trial 20, W7). The index of each in
        // `diagnostics`, by the finding with its target left out.
        var sharedFindings: [ProjectIssue: (index: Int, issue: ProjectIssue, targets: [String])] = [:]
        /// `issue` about `target`, whose message names it as `words(target)`
        /// ("target 'App', configuration 'Release'"); said for several as
        /// `several(targets)`, with `plural`'s words put in.
        func say(_ issue: ProjectIssue, of target: String, length: Int? = nil,
                 words: (String) -> String = { "target '\($0)', configuration '\(configuration)'" },
                 several: ([String]) -> String = { "targets " + $0.map { "'\($0)'" }.joined(separator: ", ") + ", configuration '\(configuration)'" },
                 plural: [(String, String)] = []) {
            let segment = words(target)
            guard issue.location != nil, issue.message.contains(segment) else {
                diagnostics.append(render.diagnostic(issue, code: .projectSetting, length: length))
                return
            }
            var key = issue
            key.message = issue.message.replacingOccurrences(of: segment, with: "\u{0}")
            guard var found = sharedFindings[key] else {
                sharedFindings[key] = (diagnostics.count, issue, [target])
                diagnostics.append(render.diagnostic(issue, code: .projectSetting, length: length))
                return
            }
            found.targets.append(target)
            sharedFindings[key] = found
            var said = found.issue
            said.message = found.issue.message.replacingOccurrences(of: words(found.targets[0]), with: several(found.targets))
            for (one, many) in plural { said.message = said.message.replacingOccurrences(of: one, with: many) }
            diagnostics[found.index] = render.diagnostic(said, code: .projectSetting, length: length)
        }
        var filesRead = [project.pbxprojPath]
        // Where a setting is set, in any signed target and configuration:
        // each resolved once, when a value uses a setting left undefined.
        var resolvedSettings: [(target: String, configuration: String, settings: BuildSettings)]?
        var partly = PartlyDefinedSettings { setting in
            if resolvedSettings == nil {
                resolvedSettings = signed.flatMap { t in
                    project.configurations.map { c in
                        (t.name, c.name, project.resolve(t, configuration: c.name, platform: platform, team: options.team).settings)
                    }
                }
            }
            return (resolvedSettings ?? []).compactMap { r in
                r.settings.definition(of: setting).map {
                    PartlyDefinedSettings.Definition(target: r.target, configuration: r.configuration,
                                                     value: r.settings.value(of: setting).value, location: $0.location)
                }
            }
        }
        for t in signed {
            let platforms = platformsByTarget[t.id] ?? []
            guard platforms.contains(platform) else {
                // No --platform imports a target kcs models on no platform
                // (a tvOS one): it is not offered (found on a real-project trial).
                if unknownPlatform.contains(t.name) { unknown.append(ScriptText.literal(t.name)) }
                else if platforms.isEmpty { unmodelled.append(ScriptText.literal(t.name)) }
                else { otherPlatforms.append("\(ScriptText.literal(t.name)) (\(platforms.joined(separator: ", ")))") }
                continue
            }
            // SDKROOT's platform comes first: on another, only SUPPORTED_PLATFORMS
            // has it there (AltStore's iPhone app, on macOS by the project's list).
            if let first = platforms.first, first != platform, platform != "catalyst" {
                listedOnly.append("\(ScriptText.literal(t.name)) (\(first))")
            }
            let signing = TargetSigning.resolve(project, t, configuration: configuration, platform: platform, team: options.team,
                                                fileSystem: fileSystem, files: files)
            if let file = signing.resolved.entitlementsPath { filesRead.append(file) }
            for issue in signing.issues where !partly.take(issue, of: signing) && firstTime(issue) && !pods.take(issue) {
                say(issue, of: t.name)
            }
            guard let bundleID = signing.resolved.bundleID else {
                lines.append("# target \(ScriptText.literal(t.name)) is left out: its bundle ID does not resolve (see the warnings)")
                unresolved.append(t.name)
                for name in signing.resolved.bundleIDEmptiedBy where !emptiedBy.contains(name) { emptiedBy.append(name) }
                if signing.resolved.bundleIDEmptiedByTeam { emptiedTeam = true }
                // Another configuration where it resolves, if any: only then
                // is --configuration advice (Loop's are all alike).
                if otherConfiguration == nil {
                    otherConfiguration = project.configurations.map(\.name).first { c in
                        c != configuration && project.resolve(t, configuration: c, platform: platform, team: options.team).bundleID != nil
                    }
                }
                continue
            }
            var name = scenarioName(t.name)
            while names.contains(name) { name += "_" }
            names.insert(name)
            var app = "app \(ScriptText.literal(bundleID)) as \(ScriptText.literal(name))"
            if let team = signing.resolved.teamID {
                if teams.isEmpty { teams.append(team) }
                if team != teams[0] {
                    if !teams.contains(team) { teams.append(team) }
                    app += " team=\(team)"
                }
            } else {
                app += " team=none"
                // At the line that empties the team, when one does (Jami's
                // `DEVELOPMENT_TEAM = ""` was blamed on the target).
                let teamLine = signing.resolved.settings.definition(of: "DEVELOPMENT_TEAM")?.location ?? t.location
                say(ProjectIssue(
                    .warning, "target '\(t.name)' has no team in configuration '\(configuration)' (DEVELOPMENT_TEAM is unset or empty): it is imported unsigned"
                        + (signing.entitlements == nil ? "" : ", with the groups of its entitlements that need no team"),
                    at: teamLine, hint: "give --team TEAMID for targets without a team"), of: t.name,
                    // A setting's line without its column: from its first
                    // character, as the lint says it (the caret sat under the
                    // indentation, at column 1; real-project trial 21, W10).
                    length: teamLine.column <= 1 ? nil : 1,
                    words: { "target '\($0)' has no team" },
                    several: { "targets " + $0.map { "'\($0)'" }.joined(separator: ", ") + " have no team" },
                    plural: [("): it is imported", "): they are imported"), ("groups of its entitlements", "groups of their entitlements")])
            }
            app += " kind=\(t.kind?.scenarioKind ?? "app")"
            if signing.resolved.teamID == nil, signing.entitlements != nil {
                // Without a team, $(AppIdentifierPrefix) cannot expand, but app
                // groups (and groups written out) need none: an unsigned
                // build that lists them still has them (the import dropped
                // Jami's app group; found on a real-project trial).
                func teamless(_ raw: [String]?, _ expanded: [TargetSigning.Located]) -> [String] {
                    zip(raw ?? [], expanded).filter { w, e in
                        !AppTarget.needsTeam(w) && !e.isNone && !AppTarget.hasBuildVariable(e.value)
                    }.map { ScriptText.literal($0.1.value) }
                }
                let kag = teamless(signing.entitlements?.keychainAccessGroups, signing.keychainAccessGroups)
                let ag = teamless(signing.entitlements?.applicationGroups, signing.applicationGroups)
                if !kag.isEmpty { app += " keychain-access-groups=[\(kag.joined(separator: ", "))]" }
                if !ag.isEmpty { app += " application-groups=[\(ag.joined(separator: ", "))]" }
            }
            if let file = signing.resolved.entitlementsPath, signing.entitlements != nil, signing.resolved.teamID != nil {
                if signing.scenarioCanReadFile {
                    app += " entitlements=" + ScriptText.quoted(options.fromScenario(fileSystem.spelled(file)))
                } else {
                    // The file uses build settings a scenario cannot expand: write what they expand to.
                    let kag = signing.grantedKeychainAccessGroups.map { ScriptText.literal($0.value) }
                    let ag = signing.grantedApplicationGroups.map { ScriptText.literal($0.value) }
                    if !kag.isEmpty { app += " keychain-access-groups=[\(kag.joined(separator: ", "))]" }
                    if !ag.isEmpty { app += " application-groups=[\(ag.joined(separator: ", "))]" }
                    let associated = signing.associatedApplicationIdentifiers.map { ScriptText.literal($0.value) }
                    if !associated.isEmpty { app += " associated-application-identifier=[\(associated.joined(separator: ", "))]" }
                    apps.append("# \(name): the groups of \(ScriptText.literal(options.fromScenario(fileSystem.spelled(file)))), expanded with the project's build settings"
                                + (signing.groupsResolve ? "" : "; some use a setting no level defines, expanded to nothing as Xcode does (see the warnings)"))
                }
            }
            apps.append(app)
            written += app.utf8.count + 1
            if signing.resolved.teamID != nil {
                // The list as a device of the scenario's platform builds it (the Mac's differs).
                let family = Platform.Family(rawValue: platform) ?? .ios
                let groups = signing.appTarget?.accessGroups(on: Platform(family, scenarioVersion)) ?? signing.accessGroups
                expectations.append("expect groups \(ScriptText.literal(name)) [\(groups.map(ScriptText.literal).joined(separator: ", "))]")
                written += expectations[expectations.count - 1].utf8.count + 1
            }
            // The scenario is bounded as any generated text is (`Limits.generatedBytes`):
            // 1,000 targets sharing 10,000 groups wrote 339 MB in 211 s, which
            // `kcs run` then refused (adversarial run 25, F12).
            if written > maxScenarioBytes {
                diagnostics.append(render.diagnostic(ProjectIssue(
                    .error, "the imported scenario passes \(written) bytes at target '\(t.name)', over the output limit of \(maxScenarioBytes); nothing was written",
                    at: t.location, hint: "a scenario that large is more than a run should read: write the targets you need by hand, or trim the groups the entitlements list"), code: .runLimit))
                return XcodeImport(scenario: "", diagnostics: diagnostics, verdict: .failed)
            }
        }
        if let issue = pods.issue { diagnostics.append(render.diagnostic(issue, code: .projectSetting)) }
        diagnostics += partly.diagnostics(&render)
        if !otherPlatforms.isEmpty {
            lines.append("# not on \(platform): \(otherPlatforms.joined(separator: ", ")) (import them with --platform)")
        }
        if !listedOnly.isEmpty {
            lines.append("# on \(platform) by SUPPORTED_PLATFORMS, though SDKROOT names another platform: \(listedOnly.joined(separator: ", "))")
        }
        if !unknown.isEmpty {
            lines.append("# not imported: \(unknown.joined(separator: ", ")), whose platform kcs cannot tell (see the warnings; import them with --platform)")
        }
        if !unmodelled.isEmpty {
            lines.append("# not imported: \(unmodelled.joined(separator: ", ")), for no platform kcs models (it models iOS, macOS, Mac Catalyst and watchOS)")
        }
        if apps.isEmpty {
            // Say which platforms the targets do build for (KeePassium: iOS and Catalyst, asked for macOS).
            var built: [String] = []
            for t in signed { for p in platformsByTarget[t.id] ?? [] where !built.contains(p) { built.append(p) } }
            // Targets on this platform whose bundle IDs do not resolve: the
            // platform is not the cause (the hint named the platform already
            // in use; found on a real-project trial).
            // What can help: the settings set empty, --team for a team that
            // expands to nothing, another configuration only where one
            // resolves (Loop was told to give --configuration, which could
            // not help, and its --team was ignored; real-project trial 14, D5).
            var advice = emptiedBy.isEmpty ? ["define the settings it uses"] : ["set " + emptiedBy.prefix(8).joined(separator: ", ")]
            if emptiedTeam, options.team == nil { advice.append("give --team TEAMID") }
            if let otherConfiguration { advice.append("give --configuration \(ScriptText.literal(otherConfiguration)), where it resolves") }
            let hint = !unresolved.isEmpty
                ? "the bundle ID of \(unresolved.map { "'\($0)'" }.joined(separator: ", ")) does not resolve here (see the warnings above): "
                    + advice.joined(separator: ", or ")
                : Self.builtFor(built, not: platform, doing: "import")
            diagnostics.append(Diagnostic(.projectSetting, "no target of \(path) could be imported for \(platform)", hint: hint))
            return XcodeImport(scenario: "", diagnostics: diagnostics, verdict: .failed)
        }
        lines.append("platform \(platform) \(scenarioVersion)")
        lines += teams.map { "team \($0)" }
        lines += apps
        if !expectations.isEmpty {
            lines.append("# The access groups each target is signed with, as the import worked them out:")
            lines += expectations
        }
        // Warnings do not stop the scenario: it holds every target that resolved.
        // In the canonical layout of `kcs fmt`, so an imported scenario is
        // formatted as it is written.
        let text = Array((lines.joined(separator: "\n") + "\n").utf8)
        let formatted = (try? CanonicalLayout.format(SourceFile(name: path, bytes: text))) ?? text
        return XcodeImport(scenario: String(decoding: formatted, as: UTF8.self), diagnostics: diagnostics, verdict: .passed,
                           filesRead: filesRead + project.xcconfigFilesRead)
    }

    /// The target's name with every character other than letters, digits,
    /// `.`, `-` and `_` replaced by `_`.
    public static func scenarioName(_ target: String) -> String {
        let name = String(target.unicodeScalars.map {
            ($0 >= "A" && $0 <= "Z") || ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "." || $0 == "-" || $0 == "_"
                ? Character($0) : "_"
        })
        return name.isEmpty ? "_" : name
    }

    /// `path` relative to the folder `base` (both relative to the working
    /// directory, or both absolute); absolute when they share no root.
    public static func relativePath(_ path: String, from base: String) -> String {
        let p = ProjectPath.normalize(path), b = ProjectPath.normalize(base)
        guard p.hasPrefix("/") == b.hasPrefix("/") else { return p }
        let pc = p.split(separator: "/").filter { $0 != "." }, bc = b.split(separator: "/").filter { $0 != "." }
        var common = 0
        while common < pc.count, common < bc.count, pc[common] == bc[common] { common += 1 }
        // A base that climbs out (../x) cannot be walked back into.
        if bc[common...].contains("..") { return p }
        let up = Array(repeating: "..", count: bc.count - common)
        let rest = up + pc[common...].map(String.init)
        return rest.isEmpty ? "." : rest.joined(separator: "/")
    }
}
