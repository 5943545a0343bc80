import KCSLanguage
import Foundation
import KCSXcodeProject
import KeychainEngine

/// The whole-project checks of `kcs lint --project`: configurations that
/// disagree, embedded extensions that share nothing with their app,
/// entitlements files nothing signs with, and groups a profile does not grant.
public struct ProjectLint {
    public let project: XcodeProject
    /// Every signed target in every configuration, on its first platform
    /// (or on the one the lint was given, for the targets that build for it).
    public let signings: [TargetSigning]
    /// The configuration the single-configuration checks use.
    public let configuration: String
    public let fileSystem: any ProjectFileSystem
    /// Why targets were left out in some configuration: kcs cannot tell
    /// which platform they build for (an xcconfig that sets SDKROOT is
    /// missing). Said by ``run(profile:profilePath:)``: the lint passed
    /// silently while the import failed (found on a real-project trial).
    var unplaced: [ProjectIssue] = []
    /// Where each target's signing in `configuration` is in `signings`.
    var signingIndex: [String: Int]?
    /// With `--platform`, when no signed target builds for it: the
    /// platforms the targets do build for. The lint checked nothing and
    /// said "no warnings" (review 19, R7); the CLI says it as the import does.
    public private(set) var noTargetFor: (platform: String, built: [String])?

    /// Reads the project and resolves every signed target in every configuration.
    /// `platform` (`--platform`): the targets that build for it are checked
    /// on it, and the others not at all; without it, each on its first (a
    /// Mac Catalyst build signing with another file was never compared
    /// with the code, and lint had no --platform; real-project trial 19, D5).
    /// `settingsBudget`: the settings all resolutions may hold together (tests).
    public static func load(_ path: String, configuration: String? = nil, team: String? = nil, platform chosen: String? = nil,
                            fileSystem given: any ProjectFileSystem = LocalProjectFileSystem(),
                            settingsBudget: Int? = nil, packages: (any SwiftPackageReading)? = nil) -> Result<ProjectLint, ProjectIssue> {
        // Paths as a Mac finds them, whatever the case (CaseFoldingFileSystem);
        // the lint's `fileSystem` is this one, for the code check and excerpts.
        let fileSystem = CaseFoldingFileSystem(given)
        var project: XcodeProject
        switch XcodeProject.load(path, fileSystem: fileSystem, packages: packages) {
        case .success(let p): project = p
        case .failure(let issue): return .failure(issue)
        }
        if let settingsBudget { project.limitSettings(to: settingsBudget) }
        var signings: [TargetSigning] = [], unplaced: [ProjectIssue] = [], built: [String] = []
        let files = TargetSigning.FileCache()
        for t in project.targets where t.kind != nil {
            for c in project.configurations {
                let (platforms, issues, taken) = project.platforms(of: t, configuration: c.name, given: chosen, doing: "checked")
                guard let first = platforms.first else {
                    unplaced += issues
                    continue
                }
                for p in platforms where !built.contains(p) { built.append(p) }
                // Taken from --platform: still said, with the hint saying so.
                if taken { unplaced += issues }
                if let chosen, !platforms.contains(chosen) { continue }
                let platform = chosen ?? first
                signings.append(TargetSigning.resolve(project, t, configuration: c.name, platform: platform, team: team, fileSystem: fileSystem, files: files))
            }
        }
        var lint = ProjectLint(project: project, signings: signings, configuration: configuration ?? project.defaultConfiguration,
                               fileSystem: fileSystem)
        lint.unplaced = unplaced
        var index: [String: Int] = [:]
        for (i, s) in signings.enumerated() where s.configuration == lint.configuration && index[s.target.id] == nil { index[s.target.id] = i }
        lint.signingIndex = index
        if let chosen, signings.isEmpty, !built.isEmpty { lint.noTargetFor = (chosen, built) }
        return .success(lint)
    }

    /// The signing of a target in the lint's configuration.
    /// By the index of the lint's configuration, when ``load`` made one:
    /// a search of every signing per host and extension was targets³
    /// (1,000 extensions embedding each other, 62 s; adversarial run 25, F10).
    public func signing(of target: XcodeProject.Target) -> TargetSigning? {
        guard let signingIndex else { return signings.first { $0.target.id == target.id && $0.configuration == configuration } }
        return signingIndex[target.id].map { signings[$0] }
    }

    /// The code that runs in a target's process in the build the lint
    /// checks (``XcodeProject/code(of:platform:)``): a source its entry
    /// filters to other platforms (`platformFilters = (macos, );`) is not
    /// compiled there (real-project trial 21, D1).
    public func code(of target: XcodeProject.Target)
        -> (swiftSources: [String], unread: [String], unreadCount: Int, owner: [String: XcodeProject.Target], compilers: [String: [XcodeProject.Target]]) {
        project.code(of: target, platform: signing(of: target)?.resolved.platform)
    }

    /// Every finding, resolution warnings first, in a stable order.
    public func run(profile: Entitlements? = nil, profilePath: String? = nil) -> [Diagnostic] {
        var render = ProjectDiagnostics(fileSystem: fileSystem)
        var out = project.issues.map { render.diagnostic($0, code: .projectSetting) }
        var seen = Set<String>()
        // Every configuration's: a setting that does not resolve in Debug
        // matters too. The same words from several configurations (one
        // missing xcconfig that twelve configurations name) are said once,
        // where the first names it; the same finding in several
        // configurations is said once, naming them all, where the first is
        // (Secretive's undefined setting came three times, WireGuard's
        // twice per target).
        var groups: [(issue: ProjectIssue, configurations: [String], target: String?)] = []
        var groupIndex: [String: Int] = [:]
        var pods = MissingPods()
        // By message: one missing file reached as a base configuration and
        // through an #include has two hints, and was said twice (Flutter's
        // Generated.xcconfig; found on a real-project trial). An issue that
        // differs from an earlier one only in its hint is dropped.
        for issue in unplaced where seen.insert(issue.message).inserted {
            groups.append((issue, [], nil))
        }
        // Where each setting is set, in any target and configuration.
        let all = signings
        var partly = PartlyDefinedSettings { setting in
            all.compactMap { s in
                s.resolved.settings.definition(of: setting).map {
                    PartlyDefinedSettings.Definition(target: s.target.name, configuration: s.configuration,
                                                     value: s.resolved.settings.value(of: setting).value, location: $0.location)
                }
            }
        }
        for s in signings {
            for issue in s.issues where !partly.take(issue, of: s) && seen.insert(issue.message).inserted && !pods.take(issue) {
                let marker = "configuration '\(s.configuration)'"
                let key = issue.message.replacingOccurrences(of: marker, with: "\u{0}") + "\u{0}" + (issue.hint ?? "")
                if issue.message.contains(marker), let i = groupIndex[key] {
                    groups[i].configurations.append(s.configuration)
                } else {
                    groupIndex[key] = groups.count
                    groups.append((issue, issue.message.contains(marker) ? [s.configuration] : [], s.target.name))
                }
            }
        }
        if let issue = pods.issue { out.append(render.diagnostic(issue, code: .projectSetting)) }
        out += partly.diagnostics(&render)
        // The same finding at the same place for several targets (a line of
        // an xcconfig file they all use) is said once, naming each target
        // with its configurations: one undefined setting in a shared
        // xcconfig was a warning per target whose configurations differ
        // (real-project trial 18, W1). Told apart by everything but the
        // target and its configurations: place, words, hint and notes.
        var merged: [(issue: ProjectIssue, configurations: [String], targets: [(name: String, configurations: [String])])] = []
        var mergedIndex: [ProjectIssue: Int] = [:]
        for (issue, configurations, target) in groups {
            if let target, let first = configurations.first, issue.location != nil,
               case let segment = "target '\(target)', configuration '\(first)'", issue.message.contains(segment) {
                var key = issue
                key.message = issue.message.replacingOccurrences(of: segment, with: "\u{0}")
                if let i = mergedIndex[key] {
                    merged[i].targets.append((target, configurations))
                    continue
                }
                mergedIndex[key] = merged.count
                merged.append((issue, configurations, [(target, configurations)]))
            } else {
                merged.append((issue, configurations, []))
            }
        }
        var saidIssues: [ProjectIssue] = []
        for (issue, configurations, targets) in merged {
            var said = issue
            if targets.count > 1 {
                let named = targets.allSatisfy { $0.configurations == configurations }
                    ? "targets " + targets.map { "'\($0.name)'" }.joined(separator: ", ") + ", " + Self.configurationsNamed(configurations)
                    : targets.map { "target '\($0.name)', " + Self.configurationsNamed($0.configurations) }.joined(separator: "; ")
                said.message = issue.message.replacingOccurrences(of: "target '\(targets[0].name)', configuration '\(configurations[0])'", with: named)
            } else if configurations.count > 1 {
                said.message = issue.message.replacingOccurrences(of: "configuration '\(configurations[0])'", with: Self.configurationsNamed(configurations))
            }
            saidIssues.append(said)
        }
        for said in Self.foldedIntoUnreadXCConfig(saidIssues) { out.append(render.diagnostic(said, code: .projectSetting)) }
        // Targets past the budget are not resolved: they would look unsigned.
        if project.settingsBudgetExhausted {
            if seen.insert(project.budgetMessage).inserted {
                out.append(render.diagnostic(ProjectIssue(.warning, project.budgetMessage, at: ProjectLocation(file: project.pbxprojPath, line: 1)),
                                             code: .projectSetting))
            }
            return out
        }
        out += entitlementShapes(&render)
        out += machServiceNames(&render)
        out += configurationsDiffer(&render)
        out += extensionsSharingNothing(&render)
        out += unusedEntitlements(&render)
        if let profile { out += notInProfile(profile, path: profilePath ?? "the profile", &render) }
        return out
    }

    /// The findings of a setting no level defines that an xcconfig kcs
    /// could not read may define, said once, at the warning that it
    /// cannot be read, with notes at the first three: one absent private
    /// xcconfig outside the repository gave 29 warnings in AdGuard for
    /// Safari, three per target (real-project trial 21, W4).
    static func foldedIntoUnreadXCConfig(_ issues: [ProjectIssue]) -> [ProjectIssue] {
        var out = issues, dropped = Set<Int>()
        for (i, unread) in issues.enumerated() {
            guard let file = unread.unreadXCConfig,
                  !issues[..<i].contains(where: { $0.unreadXCConfig.map(ProjectPath.lastComponent) == ProjectPath.lastComponent(file) }) else { continue }
            let phrase = "; '\(ProjectPath.lastComponent(file))', which kcs could not read, may define it"
            let uses = issues.indices.filter { j in
                j != i && !dropped.contains(j) && issues[j].unreadXCConfig == nil && issues[j].hint?.hasSuffix(phrase) == true && issues[j].location != nil
            }
            guard uses.count > 1 else { continue }
            var names: [String] = []
            for j in uses {
                for name in issues[j].undefinedSettings.isEmpty ? Self.usedNames(issues[j].message) : issues[j].undefinedSettings where !names.contains(name) {
                    names.append(name)
                }
            }
            var said = unread
            said.message += " (said once for the \(uses.count) values that use settings no level of the project defines, which it may define"
                + (names.isEmpty ? "" : ": " + names.prefix(6).map { "$(\($0))" }.joined(separator: ", ") + (names.count > 6 ? ", …" : "")) + ")"
            said.notes += uses.prefix(3).compactMap { j in
                issues[j].location.map { ProjectIssue.Note(Self.withoutExpansion(issues[j].message), at: $0) }
            }
            if uses.count > 3 { said.hint = (said.hint.map { $0 + "; " } ?? "") + (uses.count == 4 ? "1 more value uses them" : "\(uses.count - 3) more values use them") }
            out[i] = said
            dropped.formUnion(uses)
        }
        return out.indices.compactMap { dropped.contains($0) ? nil : out[$0] }
    }

    /// The `$(NAME)`s a finding's message says a value uses ("… uses
    /// $(CONFIG_GROUP), which …").
    static func usedNames(_ message: String) -> [String] {
        guard let uses = message.range(of: " uses ") else { return [] }
        var names: [String] = [], rest = message[uses.upperBound...]
        while rest.hasPrefix("$("), let close = rest.firstIndex(of: ")") {
            names.append(String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close]))
            rest = rest[rest.index(after: close)...]
            if rest.hasPrefix(", $(") { rest = rest.dropFirst(2) } else if rest.hasPrefix(" and $(") { rest = rest.dropFirst(5) }
        }
        return names
    }

    /// A finding's message without "; Xcode expands it to nothing", for a note.
    static func withoutExpansion(_ message: String) -> String {
        message.range(of: "; Xcode expands").map { String(message[..<$0.lowerBound]) } ?? message
    }

    /// "configuration 'Debug'", "configurations 'Debug', 'Release'".
    static func configurationsNamed(_ configurations: [String]) -> String {
        (configurations.count == 1 ? "configuration " : "configurations ") + configurations.map { "'\($0)'" }.joined(separator: ", ")
    }

    /// KCS510 and KCS511: the shape of each group in the entitlements files
    /// the targets sign with, expanded (a team prefix missing or written
    /// twice, an app group among the keychain groups), with the rules and
    /// wording of `kcs lint --entitlements` (`EntitlementShape`). Each group
    /// of each file once, whichever targets and configurations use it.
    func entitlementShapes(_ render: inout ProjectDiagnostics) -> [Diagnostic] {
        // Each finding once, with the configurations that sign with the
        // group (the target alone was named, for configurations that sign
        // with another file too; found on a real-project trial).
        var found: [(target: String, configurations: [String], at: ProjectLocation, finding: EntitlementShape.Finding)] = []
        var index: [String: Int] = [:]
        var emptyPartNotes: [Int: [(String, ProjectLocation)]] = [:]
        // The project's bundle IDs: an extension may hold its app's app ID.
        let bundleIDs = BundleIDIndex(signings.compactMap(\.resolved.bundleID))
        // Who lists each keychain group, for a did-you-mean naming the group
        // a sibling holds (trial 15, D2).
        var listedBy: [String: String] = [:]
        for s in signings where s.groupsResolve {
            for g in s.keychainAccessGroups where listedBy[g.value] == nil { listedBy[g.value] = "target '\(s.target.name)'" }
        }
        // Signings with the same groups, team, kind of platform and earlier
        // prefixes get the same findings: checked once (100 targets sharing
        // a file of 10,000 groups checked a million groups; adversarial run
        // 25, F10).
        struct Inputs: Hashable {
            var keychain: [String], app: [String], team: String?, macOS: Bool, previous: Set<String>
        }
        var checked: [Inputs: [EntitlementShape.Finding]] = [:]
        for s in signings where s.groupsResolve {
            let inputs = Inputs(keychain: s.keychainAccessGroups.map(\.value), app: s.applicationGroups.map(\.value), team: s.resolved.teamID,
                                macOS: s.resolved.platform == "macos", previous: s.entitlements?.previousAppIDPrefixes ?? [])
            let findings = checked[inputs] ?? EntitlementShape.check(keychainAccessGroups: inputs.keychain, applicationGroups: inputs.app,
                                                                    teamID: inputs.team, macOS: inputs.macOS, bundleIDs: bundleIDs,
                                                                    previousAppIDPrefixes: inputs.previous,
                                                                    // Its own list is no sibling's: a group it lists makes the hint "already lists".
                                                                    listedBy: listedBy)
            checked[inputs] = findings
            // Where each group is listed, looked up once per signing with findings.
            var listedAt: [String: ProjectLocation?] = [:], appListedAt: [String: ProjectLocation?] = [:]
            if !findings.isEmpty {
                for g in s.keychainAccessGroups where listedAt[g.value] == nil { listedAt[g.value] = g.location }
                for g in s.applicationGroups where appListedAt[g.value] == nil { appListedAt[g.value] = g.location }
            }
            // A team that is a placeholder (a template copied as it is,
            // WireGuard's `DEVELOPMENT_TEAM = <team_id>`) is said already
            // (KCS602): a group built from it (`$(DEVELOPMENT_TEAM).group.…`)
            // has the right shape but for the team, and "did you mean
            // group.<team_id>.group.…" said nothing true (real-project trial 18, W3).
            let team = s.resolved.settings.value(of: "DEVELOPMENT_TEAM").value
            let placeholder = team.isEmpty || Team.isWellFormedID(team) ? nil : team
            for f in findings where !(placeholder.map { f.group.contains($0) } ?? false) {
                let at = ((f.code == .lintAppGroupShape ? appListedAt : listedAt)[f.group] ?? nil) ?? s.resolved.entitlementsLocation ?? s.target.location
                // The message too: configurations signed by different teams
                // get different findings and fixes, each said for its own
                // (Userscripts' Release, team J74Q8V8V8N, was folded into
                // Debug's finding for team XXXXXXXXXX and told to write
                // XXXXXXXXXX.…; real-project trial 24, D2).
                let key = "\(at.file):\(at.line):\(at.column):\(f.group)\u{0}\(f.message)"
                if let i = index[key] {
                    if !found[i].configurations.contains(s.configuration) { found[i].configurations.append(s.configuration) }
                    continue
                }
                index[key] = found.count
                found.append((s.target.name, [s.configuration], at, f))
                // A group with an empty part from a setting whose value has
                // a dot at an end: a note at that setting, where the fix goes
                // (DuckDuckGo's `GROUP_ID_PREFIX = group.com.duckduckgo.`;
                // real-project trial 24, W4).
                if EntitlementShape.hasEmptyPart(f.group) {
                    let raws = f.code == .lintAppGroupShape ? zip(s.entitlements?.applicationGroups ?? [], s.applicationGroups)
                                                            : zip(s.entitlements?.keychainAccessGroups ?? [], s.keychainAccessGroups)
                    if let raw = raws.first(where: { $0.1.value == f.group })?.0 {
                        for piece in BuildSettings.references(in: raw) where piece.isReference && piece.text.count > 3 {
                            let name = String(piece.text.dropFirst(2).dropLast().prefix { $0 != ":" })
                            let value = s.resolved.settings.value(of: name).value
                            guard value.hasPrefix(".") || value.hasSuffix("."), let setAt = s.resolved.settings.definition(of: name)?.location else { continue }
                            emptyPartNotes[found.count - 1, default: []].append(("\(name) is '\(value)' here, \(value.hasSuffix(".") ? "ending" : "starting") with a dot", setAt))
                        }
                    }
                }
            }
        }
        return found.enumerated().map { i, entry in
            let (t, configurations, at, f) = entry
            return render.diagnostic(ProjectIssue(.warning, "target '\(t)' (\(Self.configurationsNamed(configurations))): " + f.message, at: at, hint: f.hint),
                                     code: f.code, notes: (emptyPartNotes[i] ?? []).map { render.note($0.0, at: $0.1) })
        }
    }

    /// KCS511: a Mac network extension's Mach service, Info.plist
    /// `NetworkExtension` → `NEMachServiceName`, under none of its app
    /// groups. A system extension's Mach service is named after an app group
    /// it belongs to: the group itself or a name under it (`GROUP.name`;
    /// Apple DTS, "the Mach service name should be a 'descendent' of a app
    /// group that you have access to", developer forums thread 708017), or
    /// macOS neither activates nor lets the app reach it. LuLu's extension
    /// with the group `…lul`, one letter from the app's `…lulu` and from its
    /// own service's name, was silent, since its code names no group API
    /// (real-project trial 23, D8). Only where the name and the groups are
    /// known: a target whose entitlements cannot be read is not judged.
    func machServiceNames(_ render: inout ProjectDiagnostics) -> [Diagnostic] {
        var found: [(target: String, configurations: [String], name: String, at: ProjectLocation?, hint: String, groups: [String])] = []
        var index: [String: Int] = [:]
        for s in signings where s.groupsResolve && s.entitlements != nil && s.resolved.platform == "macos" {
            guard case .value(let name, let at, _) = project.infoPlistString("NEMachServiceName", of: s.resolved), !name.isEmpty else { continue }
            let groups = s.applicationGroups.map(\.value)
            func under(_ g: String) -> Bool { name == g || name.hasPrefix(g + ".") }
            if groups.contains(where: under) { continue }
            let key = "\(s.target.id)\u{0}\(name)"
            if let i = index[key] {
                if !found[i].configurations.contains(s.configuration) { found[i].configurations.append(s.configuration) }
                continue
            }
            // Another target (its app) in the group the name is under: the
            // extension's own list lacks it, or misspells it.
            let other = signings.lazy.filter { $0.target.id != s.target.id && $0.configuration == s.configuration }
                .compactMap { o in o.applicationGroups.first { under($0.value) }.map { (o.target.name, $0.value) } }.first
            let hint = other.map { "'\($0.0)' lists \($0.1): add it to the com.apple.security.application-groups of '\(s.target.name)'"
                + (groups.isEmpty ? "" : ", whose \(groups.joined(separator: ", ")) may be the typo") }
                ?? "name the service under one of its app groups (GROUP or GROUP.name), or add the group it is under to its com.apple.security.application-groups"
            index[key] = found.count
            found.append((s.target.name, [s.configuration], name, at ?? s.resolved.entitlementsLocation, hint, groups))
        }
        return found.map { f in
            render.diagnostic(ProjectIssue(
                .warning, "target '\(f.target)' (\(Self.configurationsNamed(f.configurations))): its Mach service NEMachServiceName \(f.name) is under none of its app groups "
                    + "(\(f.groups.isEmpty ? "it has none" : f.groups.joined(separator: ", "))): a system extension's Mach service is named after an app group it belongs to, "
                    + "or macOS does not let the app reach the extension", at: f.at, hint: f.hint), code: .lintAppGroupShape)
        }
    }

    /// For a target that signs with no entitlements file in the lint's
    /// configuration: the first other configuration whose readable file
    /// lists `group` (a keychain or app group), and that file. Its fix is
    /// CODE_SIGN_ENTITLEMENTS for this configuration, not a group added to
    /// a file it does not have (Linphone's notification service with no
    /// file in Release; real-project trial 21, W1).
    public func fileListing(_ group: String, elsewhereFor target: XcodeProject.Target) -> (configuration: String, file: String)? {
        guard let mine = signing(of: target), mine.resolved.entitlementsPath == nil else { return nil }
        for s in signings where s.target.id == target.id && s.configuration != configuration {
            guard let file = s.resolved.entitlementsPath, s.entitlements != nil,
                  s.accessGroups.contains(group) || s.applicationGroups.contains(where: { $0.value == group }) else { continue }
            return (s.configuration, file)
        }
        return nil
    }

    /// The hint for a target that signs with no entitlements file in the
    /// lint's configuration and lacks `group`: set CODE_SIGN_ENTITLEMENTS
    /// (to the file another configuration signs with, when it lists the
    /// group); nil when it signs with a file.
    public func noFileHint(_ group: String, for target: XcodeProject.Target) -> String? {
        guard let mine = signing(of: target), mine.resolved.entitlementsPath == nil else { return nil }
        let said = "'\(target.name)' signs with no entitlements file in configuration '\(configuration)': "
        if let (other, file) = fileListing(group, elsewhereFor: target) {
            return said + "set its CODE_SIGN_ENTITLEMENTS for '\(configuration)' to '\(file)', which '\(other)' signs with and which lists \(group)"
        }
        return said + "set its CODE_SIGN_ENTITLEMENTS to a file that lists \(group)"
    }

    /// Whether a signing names an entitlements file kcs could not read.
    static func unreadable(_ s: TargetSigning) -> Bool { s.resolved.entitlementsPath != nil && s.entitlements == nil }

    /// KCS603 and the disagreeing half of KCS605: a target whose
    /// configurations sign with different groups or different files.
    func configurationsDiffer(_ render: inout ProjectDiagnostics) -> [Diagnostic] {
        var out: [Diagnostic] = []
        for t in project.targets where t.kind != nil {
            let all = signings.filter { $0.target.id == t.id }
            guard let reference = all.first(where: { $0.configuration == configuration }) else { continue }
            // KCS603's findings of this target, said after the loop: several
            // configurations that differ at one line are one finding.
            var differing: [(at: ProjectLocation, configuration: String, parts: [String], risk: String)] = []
            for other in all where other.configuration != configuration {
                // A configuration that builds another bundle ID is another app
                // (com.example.App.debug beside com.example.App): projects give
                // it its own groups and file on purpose, and it never reads
                // what the other stores. Seen in NetNewsWire and Simplenote.
                if let mine = other.resolved.bundleID, let theirs = reference.resolved.bundleID, mine != theirs { continue }
                // A bundle ID with a setting defined nowhere (reported, KCS602)
                // may be any app: comparing its files and groups would be a guess.
                if !other.resolved.bundleIDResolves || !reference.resolved.bundleIDResolves { continue }
                // A file named but unreadable (its KCS602 says why) grants
                // groups kcs does not know: comparing it with the other's
                // file and groups is a guess. Jami's deleted release file gave
                // a KCS605 and a KCS603 for each of three configurations
                // (real-project trial 21, D4).
                if Self.unreadable(other) || Self.unreadable(reference) { continue }
                let a = reference.keychainAccessGroups.map(\.value) + reference.applicationGroups.map(\.value)
                let b = other.keychainAccessGroups.map(\.value) + other.applicationGroups.map(\.value)
                // Two files that grant the same groups are what the hint asks
                // for (BlueWallet's Debug and Release files are identical), and
                // so are a file and none when the file grants no group
                // (MonitorControl's Debug file only disables library
                // validation; real-project trial 16, D9). A file kcs could not
                // read grants groups it does not know.
                let known = { (s: TargetSigning) in s.groupsResolve && (s.resolved.entitlementsPath == nil || s.entitlements != nil) }
                let sameGroups = a == b && known(reference) && known(other)
                var foldedGroups = false
                if other.resolved.entitlementsPath.map(fileSystem.canonical) != reference.resolved.entitlementsPath.map(fileSystem.canonical),
                   !sameGroups {
                    let mine = other.resolved.entitlementsPath.map { "'\($0)'" } ?? "no entitlements file"
                    let theirs = reference.resolved.entitlementsPath.map { "'\($0)'" } ?? "no entitlements file"
                    // One of them with no file: the groups the other's lists
                    // are what the missing setting loses, said here rather
                    // than as a KCS603 too (Linphone's notification service
                    // gave both for one missing line; real-project trial 21, W1).
                    var hint = "point CODE_SIGN_ENTITLEMENTS of every configuration at one file, or keep the files' groups the same"
                    for (without, with, withGroups) in [(reference, other, b), (other, reference, a)]
                    where without.resolved.entitlementsPath == nil && !withGroups.isEmpty {
                        if let file = with.resolved.entitlementsPath {
                            hint = "set CODE_SIGN_ENTITLEMENTS of '\(without.configuration)' to '\(file)' too: without a file it has none of the groups "
                                + "\(withGroups.joined(separator: ", ")), so a build that works in \(with.configuration) may fail in \(without.configuration)"
                            foldedGroups = true
                        }
                    }
                    out.append(render.diagnostic(ProjectIssue(
                        .warning, "target '\(t.name)': configuration '\(other.configuration)' signs with \(mine), '\(configuration)' with \(theirs)",
                        at: other.resolved.entitlementsLocation ?? reference.resolved.entitlementsLocation ?? t.location,
                        hint: hint),
                        code: .projectEntitlementsFile,
                        notes: [render.note("'\(configuration)' sets it here", at: reference.resolved.entitlementsLocation)]))
                }
                if foldedGroups { continue }
                // Groups built from a setting that does not resolve are already
                // reported (KCS602); comparing what they expand to would be a guess.
                if a != b, reference.groupsResolve, other.groupsResolve {
                    let missing = a.filter { !b.contains($0) }, extra = b.filter { !a.contains($0) }
                    var parts: [String] = []
                    if !missing.isEmpty { parts.append("lacks \(missing.joined(separator: ", "))") }
                    if !extra.isEmpty { parts.append("adds \(extra.joined(separator: ", "))") }
                    if parts.isEmpty { parts.append("lists them in another order") }
                    let at = (other.keychainAccessGroups + other.applicationGroups).first { extra.contains($0.value) }?.location
                        ?? other.resolved.entitlementsLocation ?? t.location
                    // Which build may fail follows which lacks a group
                    // (real-project trial 20, D6: "works in Release may fail in
                    // Debug" where Release lacked the group).
                    let risk = !missing.isEmpty && !extra.isEmpty ? "each lists a group the other lacks, so a build that works in one may fail in the other"
                        : !extra.isEmpty ? "a build that works in \(other.configuration) may fail in \(configuration)"
                        : !missing.isEmpty ? "a build that works in \(configuration) may fail in \(other.configuration)"
                        : reference.keychainAccessGroups.first?.value != other.keychainAccessGroups.first?.value
                        ? "the first keychain group is the default one, where code that names no group stores, so the two store in different groups"
                        : "only the order differs"
                    differing.append((at, other.configuration, parts, risk))
                }
            }
            out += configurationsDifferAt(t.name, differing, &render)
        }
        return out
    }

    /// KCS603 for one target: one finding per line, naming each
    /// configuration that differs there from the lint's, those that differ
    /// alike together (DuckDuckGo's sandbox-test-tool gave three at one
    /// `$(DBP_APP_GROUP)`, for Debug, CI and Review; real-project trial 21, W6).
    private func configurationsDifferAt(_ target: String, _ differing: [(at: ProjectLocation, configuration: String, parts: [String], risk: String)],
                                        _ render: inout ProjectDiagnostics) -> [Diagnostic] {
        var places: [ProjectLocation] = [], byPlace: [ProjectLocation: [Int]] = [:]
        for (i, d) in differing.enumerated() {
            if byPlace[d.at] == nil { places.append(d.at) }
            byPlace[d.at, default: []].append(i)
        }
        return places.map { at in
            let here = (byPlace[at] ?? []).map { differing[$0] }
            // Configurations that differ alike, in the order they came.
            var alike: [(configurations: [String], parts: [String])] = []
            for d in here {
                if let k = alike.firstIndex(where: { $0.parts == d.parts }) { alike[k].configurations.append(d.configuration) } else { alike.append(([d.configuration], d.parts)) }
            }
            let said = alike.map { a in
                a.configurations.count == 1
                    ? "configuration '\(a.configurations[0])' " + a.parts.joined(separator: " and ")
                    : "configurations " + a.configurations.map { "'\($0)'" }.joined(separator: ", ") + " "
                        + a.parts.map { p in ["lacks ": "lack ", "adds ": "add ", "lists ": "list "].first { p.hasPrefix($0.key) }.map { $0.value + p.dropFirst($0.key.count) } ?? p }
                        .joined(separator: " and ")
            }.joined(separator: "; ")
            var risks: [String] = []
            for d in here where !risks.contains(d.risk) { risks.append(d.risk) }
            let inOrder = here.allSatisfy { $0.parts == ["lists them in another order"] }
            return render.diagnostic(ProjectIssue(
                .warning, "target '\(target)': \(said) compared with '\(configuration)'",
                at: at, hint: "\(risks.joined(separator: "; ")): give \(here.count == 1 ? "both" : "them all") the same groups\(inOrder ? ", in the same order" : "")"),
                code: .projectConfigurationsDiffer)
        }
    }

    /// A group an embedded target lists that is one or two letters from
    /// one its host lists: the extension's copy of the app's group, misspelt.
    /// Or, `hostSide`, the host's keychain group one or two letters from its
    /// own app ID, which the embedded target lists: the app's group misspelt
    /// (``hostNearMisses(child:host:)``).
    public struct NearMiss {
        /// The misspelt group, where it is written.
        var mine: TargetSigning.Located
        /// The group it is near, as the other side lists it.
        public var theirs: String
        var distance: Int
        public var keychain: Bool
        /// Both are the first keychain group: the default one, where code
        /// that names no group stores.
        var bothDefault: Bool
        public var hostSide = false

        /// The host's group: the one the embedded target cannot read.
        public var hostGroup: String { hostSide ? mine.value : theirs }

        /// "the keychain group X, one letter from Y"
        var said: String {
            "the \(keychain ? "keychain" : "app") group \(mine.value), \(distance == 1 ? "one letter" : "two letters") from \(hostSide ? "its own app ID " : "")\(theirs)"
        }
    }

    /// Which entitlements files list each group in this configuration (two
    /// at most), and the app IDs: an app ID is a real group, whoever holds
    /// it (a share extension's `$(AppIdentifierPrefix)$(CFBundleIdentifier)`,
    /// TEAM.….Notes.Share, is two letters from TEAM.….Notes.shared).
    public struct GroupWriters {
        var writtenIn: [String: Set<String>] = [:]
        var appIDs = Set<String>()
    }

    public func groupWriters() -> GroupWriters {
        var out = GroupWriters()
        for s in signings where s.configuration == configuration {
            if let id = s.appTarget?.appID { out.appIDs.insert(id) }
            guard let path = s.resolved.entitlementsPath.map(fileSystem.canonical) else { continue }
            for g in s.keychainAccessGroups.map(\.value) + s.applicationGroups.map(\.value) where out.writtenIn[g]?.count ?? 0 < 2 {
                out.writtenIn[g, default: []].insert(path)
            }
        }
        return out
    }

    /// Every near miss between an embedded target and its host that KCS604
    /// says: the child's (``nearMisses(child:host:heldElsewhere:)``) and the
    /// host's (``hostNearMisses(child:host:)``). The code check's "shares
    /// only an app group" leaves these to it.
    public func nearMisses(child c: TargetSigning, host h: TargetSigning, writers: GroupWriters) -> [NearMiss] {
        let own = c.resolved.entitlementsPath.map(fileSystem.canonical)
        return Self.nearMisses(child: c, host: h) { g in writers.appIDs.contains(g) || (writers.writtenIn[g] ?? []).contains { $0 != own } }
            + Self.hostNearMisses(child: c, host: h)
    }

    /// The host's keychain groups one or two letters from its own app ID,
    /// which the child lists and the host does not: the app stores in the
    /// misspelt group, the extension reads the app ID's (Cryptomator's app
    /// listing `…org.cryptomator.iso`; real-project trial 20, D3). The
    /// child's near miss passes over an app ID, a real group.
    static func hostNearMisses(child c: TargetSigning, host h: TargetSigning) -> [NearMiss] {
        guard let appID = h.appTarget?.appID else { return [] }
        let mine = h.keychainAccessGroups, theirs = c.keychainAccessGroups.map(\.value)
        guard theirs.contains(appID), !mine.contains(where: { $0.value == appID }) else { return [] }
        var out: [NearMiss] = []
        for g in mine where !theirs.contains(g.value) && g.value.count >= 12 {
            guard let d = Suggest.editDistance(g.value, appID, atMost: 2), d > 0 else { continue }
            out.append(NearMiss(mine: g, theirs: appID, distance: d, keychain: true,
                                bothDefault: g.value == mine.first?.value && appID == theirs.first, hostSide: true))
        }
        return out
    }

    /// The near misses of a child's groups against its host's: a group of the
    /// child's that the host lacks and no other target holds (another
    /// target's is a real group), at most two edits from one of the host's
    /// groups the child lacks, compared as written (Home Assistant's
    /// extensions listed `…HomeAsistant…`; real-project trial 15, D1).
    /// `heldElsewhere`: whether the group is an app ID, or another
    /// entitlements file than the child's lists it too: written twice, it is
    /// meant (nine of Home Assistant's targets, two of them on the watch,
    /// sign with the one misspelt file: they do not make the group real).
    /// The most pairs of groups a near-miss search compares by edit
    /// distance (sets of 10,000 groups per pair took 99 s; adversarial run
    /// 25, F10): past it, no near miss is looked for.
    static let nearMissPairLimit = 10_000
    /// The walk for stray `.entitlements` copies below a target's folder
    /// (KCS605) stops after this many directory entries, or this many folders.
    static let strayWalkEntries = 20_000, strayWalkFolders = 2_000

    static func nearMisses(child c: TargetSigning, host h: TargetSigning, heldElsewhere: (String) -> Bool) -> [NearMiss] {
        var out: [NearMiss] = []
        for keychain in [true, false] {
            let mine = keychain ? c.keychainAccessGroups : c.applicationGroups
            // Among a few hundred groups at most: each pair is an edit
            // distance. Tested before anything is built (sets of 10,000
            // groups per pair took 99 s; adversarial run 25, F10).
            guard mine.count * (keychain ? h.keychainAccessGroups.count : h.applicationGroups.count) <= nearMissPairLimit else { continue }
            let theirs = keychain ? h.keychainAccessGroups.map(\.value) : h.applicationGroups.map(\.value)
            let mineSet = Set(mine.map(\.value)), theirSet = Set(theirs)
            for g in mine where !theirSet.contains(g.value) && g.value.count >= 12 && !heldElsewhere(g.value) {
                var best: (String, Int)?
                for t in theirs where !mineSet.contains(t) {
                    if let d = Suggest.editDistance(g.value, t, atMost: 2), d > 0, d < (best?.1 ?? 3) { best = (t, d) }
                }
                guard let (t, d) = best else { continue }
                out.append(NearMiss(mine: g, theirs: t, distance: d, keychain: keychain,
                                    bothDefault: keychain && g.value == mine.first?.value && t == theirs.first))
            }
        }
        // The nearest first, in the order written.
        return out.enumerated().sorted { ($0.element.distance, $0.offset) < ($1.element.distance, $1.offset) }.map(\.element)
    }

    /// The embedded targets signed by another team than an app that embeds
    /// them (in the build for the app's platform, both teams known), by
    /// ID, with those apps and their teams, in the order met. Keychain
    /// groups are `TEAMID.…` and app groups belong to a team: the two share
    /// nothing whatever their entitlements list, and groups compared as
    /// text told to add a group both files held (GlucoseDirect's widget
    /// with a DEVELOPMENT_TEAM of its own; real-project trial 21, D3).
    public func signedByAnotherTeam() -> [(child: XcodeProject.Target, hosts: [(host: XcodeProject.Target, team: String)])] {
        var out: [(child: XcodeProject.Target, hosts: [(host: XcodeProject.Target, team: String)])] = [], index: [String: Int] = [:]
        var targetByID: [String: XcodeProject.Target] = [:]
        for t in project.targets where targetByID[t.id] == nil { targetByID[t.id] = t }
        for host in project.targets where host.kind != nil {
            guard let h = signing(of: host), let hostTeam = h.resolved.teamID else { continue }
            for id in host.embeddedTargets(on: h.resolved.platform) {
                guard let child = targetByID[id], child.kind != nil, child.kind != .app, let c = signing(of: child),
                      c.resolved.platform == h.resolved.platform, let team = c.resolved.teamID, team != hostTeam else { continue }
                if let i = index[id] {
                    if !out[i].hosts.contains(where: { $0.host.id == host.id }) { out[i].hosts.append((host, hostTeam)) }
                } else {
                    index[id] = out.count
                    out.append((child, [(host, hostTeam)]))
                }
            }
        }
        return out
    }

    /// KCS604: an extension signed by another team than the app that
    /// embeds it (``signedByAnotherTeam()``), said once at its team.
    func signedByAnotherTeam(_ render: inout ProjectDiagnostics) -> (diagnostics: [Diagnostic], children: Set<String>) {
        var out: [Diagnostic] = [], children = Set<String>()
        for (child, hosts) in signedByAnotherTeam() {
            guard let c = signing(of: child), let team = c.resolved.teamID, let first = hosts.first else { continue }
            children.insert(child.id)
            let names = hosts.map { "'\($0.host.name)'" }
            let embedded = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
            let teams = Set(hosts.map(\.team)).count == 1 ? "by \(first.team)" : "by " + hosts.map { "\($0.team) ('\($0.host.name)')" }.joined(separator: ", ")
            // Its bundle ID not under the app's: Xcode's embedded-binary
            // validation refuses it too (m19: `com.8ABCD2DG9D.libre-direct.Widgets`).
            var bundle = ""
            if let mine = c.resolved.bundleID, let h = signing(of: first.host), let theirs = h.resolved.bundleID, !mine.hasPrefix(theirs + ".") {
                bundle = "; its bundle ID \(mine) is not under \(theirs), '\(first.host.name)''s, as an embedded bundle's must be"
            }
            var notes: [DiagnosticNote] = []
            if let h = signing(of: first.host) {
                notes.append(render.note("'\(first.host.name)''s team is set here", at: h.resolved.settings.definition(of: "DEVELOPMENT_TEAM")?.location ?? first.host.location))
            }
            out.append(render.diagnostic(ProjectIssue(
                .warning, "target '\(child.name)' is signed by team \(team), and \(embedded), which \(hosts.count == 1 ? "embeds" : "embed") it, \(teams) (configuration '\(configuration)'): "
                    + "it shares no keychain or app group with \(hosts.count == 1 ? "it" : "them"), whatever the entitlements files list\(bundle)",
                at: c.resolved.settings.definition(of: "DEVELOPMENT_TEAM")?.location ?? child.location,
                hint: "sign '\(child.name)' with \(Set(hosts.map(\.team)).count == 1 ? "team \(first.team)" : "its app's team") (its DEVELOPMENT_TEAM): an app and the extensions it embeds are signed by one team, "
                    + "whose prefix its keychain groups carry and to which its app groups belong"),
                code: .projectExtensionGroup, notes: notes))
        }
        return (out, children)
    }

    /// Product types whose bundle ID Xcode's embedded-binary validation
    /// wants under the app's that embeds them ("Embedded binary's bundle
    /// identifier is not prefixed with the parent app's bundle identifier").
    static let prefixedProducts: Set<String> = [
        "com.apple.product-type.app-extension", "com.apple.product-type.app-extension.messages",
        "com.apple.product-type.extensionkit-extension", "com.apple.product-type.watchkit2-extension",
        "com.apple.product-type.application.watchapp2", "com.apple.product-type.application.on-demand-install-capable",
    ]

    /// KCS604: embedded extensions (watch apps, App Clips) whose bundle ID
    /// is not under the app's: Xcode refuses to build the app. Once per
    /// app; at the app's bundle ID when none of two or more is under it
    /// (the app's changed: ownCloud's `com.owncloud.ios-app2`, with every
    /// group built from `$(PRODUCT_BUNDLE_IDENTIFIER)`, gave five "shares
    /// no group" and never the cause), else at the first extension's
    /// (real-project trial 22, D7). An extension of another team is said
    /// with its team (``signedByAnotherTeam(_:)``).
    /// `moved`: (app, extension) pairs whose "shares no group" the finding
    /// says: the app's groups are built from its bundle ID and the
    /// extensions list them under the old one (ownCloud's five KCS604s after
    /// the one at the changed line; real-project trial 22, D7).
    func notUnderTheirApp(_ render: inout ProjectDiagnostics, skipping otherTeam: Set<String>) -> (diagnostics: [Diagnostic], moved: Set<String>) {
        var out: [Diagnostic] = [], moved = Set<String>()
        var targetByID: [String: XcodeProject.Target] = [:]
        for t in project.targets where targetByID[t.id] == nil { targetByID[t.id] = t }
        for host in project.targets where host.kind == .app {
            guard let h = signing(of: host), h.resolved.bundleIDResolves, let mine = h.resolved.bundleID, !mine.isEmpty else { continue }
            var all: [(XcodeProject.Target, TargetSigning, String)] = [], outside: [(XcodeProject.Target, TargetSigning, String)] = []
            for id in host.embeddedTargets(on: h.resolved.platform) where !otherTeam.contains(id) {
                guard let child = targetByID[id], Self.prefixedProducts.contains(child.productType), let c = signing(of: child),
                      c.resolved.bundleIDResolves, let theirs = c.resolved.bundleID, !theirs.isEmpty else { continue }
                all.append((child, c, theirs))
                if !theirs.hasPrefix(mine + ".") { outside.append((child, c, theirs)) }
            }
            guard let (_, firstSigning, _) = outside.first else { continue }
            let listed = outside.prefix(4).map { "'\($0.0.name)' (\($0.2))" }.joined(separator: ", ") + (outside.count > 4 ? " and \(outside.count - 4) more" : "")
            let appLine = h.resolved.settings.definition(of: "PRODUCT_BUNDLE_IDENTIFIER")?.location
            let hostsFault = outside.count >= 2 && outside.count == all.count
            // What they are all under: the app's bundle ID meant.
            let parents = Set(outside.map { id in String(id.2[..<(id.2.lastIndex(of: ".") ?? id.2.endIndex)]) })
            var hint = hostsFault
                ? (parents.count == 1 ? "they are all under \(parents.first ?? ""): did the bundle ID of '\(host.name)' change? " : "")
                    + "an app's embedded bundles have IDs under its own (APP.NAME), and groups built from $(PRODUCT_BUNDLE_IDENTIFIER) move with it"
                : "give \(outside.count == 1 ? "it" : "each") a bundle ID under \(mine) (\(mine).NAME), as Xcode requires of an embedded bundle"
            // The app's groups that name its bundle ID, which the extensions
            // list under the old one: their "shares no group" is this finding.
            if hostsFault, parents.count == 1, let old = parents.first {
                let ownGroups = Set(h.keychainAccessGroups.map(\.value) + h.applicationGroups.map(\.value))
                let wasGroups = Set(ownGroups.filter { $0.contains(mine) }.map { $0.replacingOccurrences(of: mine, with: old) })
                var kids: [(name: String, was: String)] = []
                for (child, c, _) in outside {
                    let theirs = Set(c.keychainAccessGroups.map(\.value) + c.applicationGroups.map(\.value))
                    guard theirs.isDisjoint(with: ownGroups), let was = theirs.intersection(wasGroups).min() else { continue }
                    moved.insert(host.id + "\u{0}" + child.id)
                    kids.append((child.name, was))
                }
                if let first = kids.first {
                    // One group they all list is said once.
                    let same = kids.allSatisfy { $0.was == first.was }
                    let names = kids.prefix(4).map { same ? "'\($0.name)'" : "'\($0.name)' (\($0.was))" }
                    let listed = names.joined(separator: ", ") + (kids.count > 4 ? " and \(kids.count - 4) more" : "")
                    let one = kids.count == 1
                    hint += "; its groups moved with it, so \(listed) \(one ? "lists" : "list") "
                        + (same ? "\(first.was), of the old bundle ID, and" : "groups of the old bundle ID and") + " \(one ? "shares" : "share") no group with it"
                }
            }
            out.append(render.diagnostic(ProjectIssue(
                .warning, "target '\(host.name)' (bundle ID \(mine), configuration '\(configuration)') embeds \(listed), whose bundle ID\(outside.count == 1 ? " is" : "s are") not under its own: "
                    + "Xcode refuses to build it (\"Embedded binary's bundle identifier is not prefixed with the parent app's bundle identifier\")",
                at: (hostsFault ? appLine : firstSigning.resolved.settings.definition(of: "PRODUCT_BUNDLE_IDENTIFIER")?.location) ?? host.location,
                hint: hint),
                code: .projectExtensionGroup,
                notes: hostsFault ? [] : [render.note("'\(host.name)''s bundle ID is set here", at: appLine ?? host.location)]))
        }
        return (out, moved)
    }

    /// KCS604: an extension (or watch app, App Clip) embedded in an app that
    /// shares groups, without any of them, or that lists one of the app's
    /// groups misspelt (a near miss), even when it shares another.
    func extensionsSharingNothing(_ render: inout ProjectDiagnostics) -> [Diagnostic] {
        // An extension signed by another team shares nothing: that is its
        // one finding, not its groups compared as text.
        var (out, otherTeam) = signedByAnotherTeam(&render)
        let (notUnder, moved) = notUnderTheirApp(&render, skipping: otherTeam)
        out += notUnder
        var words: [String: SharedDataScan] = [:]
        let mentions = SharedMentions()
        // Each extension once, naming every app that embeds it (Secretive's
        // three XPC services, each in two apps, made six warnings at three
        // places; real-project trial 14, D8).
        var hostsByChild: [String: [(host: XcodeProject.Target, shared: [String])]] = [:]
        var children: [(target: XcodeProject.Target, signing: TargetSigning)] = []
        // Near misses of children that share some group, by place and
        // groups: one entitlements file several extensions sign with is
        // said once, naming them all.
        var misses: [(miss: NearMiss, host: XcodeProject.Target, hostSigning: TargetSigning, children: [(XcodeProject.Target, TargetSigning)])] = []
        var missIndex: [String: Int] = [:]
        var nearMissesOf: [String: [NearMiss]] = [:]
        let writers = groupWriters()
        // Targets and signings by ID, each child's groups and entitlements
        // path once: per host and child they were linear searches (1,000
        // extensions embedding each other took 62 s; adversarial run 25, F10).
        var targetByID: [String: XcodeProject.Target] = [:]
        for t in project.targets where targetByID[t.id] == nil { targetByID[t.id] = t }
        var childGroups: [String: (groups: Set<String>, own: String?)] = [:]
        for host in project.targets where host.kind != nil {
            guard let h = signing(of: host) else { continue }
            // A group whose setting expands to nothing is no group to share
            // ("stores in" and nothing after it; found on a real-project trial).
            let shared = Set(h.keychainAccessGroups.map(\.value) + h.applicationGroups.map(\.value)).subtracting([""])
            guard !shared.isEmpty else { continue }
            var sortedShared: [String]?
            for id in host.embeddedTargets(on: h.resolved.platform) {
                guard let child = targetByID[id], let c = signing(of: child) else { continue }
                // An app copied into another (a login item in
                // Contents/Library/LoginItems) is a program of its own, with
                // no reason to share: the rule is for extensions and App Clips.
                if child.kind == .app { continue }
                // A watch app embedded in an iPhone app runs on the watch, with
                // the watch's keychain: no group would let it read the phone's items.
                guard c.resolved.platform == h.resolved.platform else { continue }
                // An entitlements file named but unreadable is said already
                // (KCS602): what it shares is not known (real-project trial 19, W4).
                if c.resolved.entitlementsPath != nil, c.entitlements == nil { continue }
                if otherTeam.contains(id) { continue }
                let known = childGroups[id] ?? (Set(c.keychainAccessGroups.map(\.value) + c.applicationGroups.map(\.value)),
                                                c.resolved.entitlementsPath.map(fileSystem.canonical))
                childGroups[id] = known
                let theirs = known.groups
                let near = nearMisses(child: c, host: h, writers: writers)
                guard shared.isDisjoint(with: theirs) else {
                    for m in near {
                        let key = "\(m.mine.location.map { "\($0.file):\($0.line)" } ?? (m.hostSide ? host.id : child.id))\u{0}\(m.mine.value)\u{0}\(m.theirs)\u{0}\(host.id)"
                        if let i = missIndex[key] {
                            if !misses[i].children.contains(where: { $0.0.id == child.id }) { misses[i].children.append((child, c)) }
                        } else {
                            missIndex[key] = misses.count
                            misses.append((m, host, h, [(child, c)]))
                        }
                    }
                    continue
                }
                // Said with the app's changed bundle ID.
                if moved.contains(host.id + "\u{0}" + child.id) { continue }
                if hostsByChild[child.id] == nil { children.append((child, c)) }
                if nearMissesOf[child.id] == nil, !near.isEmpty { nearMissesOf[child.id] = near }
                if sortedShared == nil { sortedShared = shared.sorted() }
                hostsByChild[child.id, default: []].append((host, sortedShared ?? []))
            }
        }
        for (child, c) in children {
            let hosts = hostsByChild[child.id] ?? []
            // Each extension read once, however many apps embed it (a
            // shared one was read again per host; found by adversarial testing).
            guard let reason = sharedDataReason(child, &render, words: &words, mentions: mentions), let first = hosts.first else { continue }
            let names = hosts.map { "'\($0.host.name)'" }
            let embedded = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
            // A group built from a setting no level defines is said as
            // written: IceCubes' Debug "stores in Z6P74P6T99..IceCubesApp,
            // group..IceCubesApp" printed what the undefined
            // $(BUNDLE_ID_PREFIX) left as if real (real-project trial 24, W10).
            func shown(_ groups: [String], of host: XcodeProject.Target) -> String {
                guard let h = signing(of: host), !h.groupsResolve else { return groups.joined(separator: ", ") }
                let undefinedAt = Set(h.issues.filter { !$0.undefinedSettings.isEmpty }.compactMap(\.location))
                var written: [String: String] = [:]
                for (raw, located) in Array(zip(h.entitlements?.keychainAccessGroups ?? [], h.keychainAccessGroups))
                    + Array(zip(h.entitlements?.applicationGroups ?? [], h.applicationGroups))
                where located.location.map(undefinedAt.contains) ?? false && written[located.value] == nil {
                    written[located.value] = raw
                }
                return groups.map { written[$0] ?? $0 }.joined(separator: ", ")
            }
            let stores = hosts.allSatisfy({ $0.shared == first.shared })
                ? "what \(embedded) \(hosts.count == 1 ? "stores" : "store") in \(shown(first.shared, of: first.host))"
                : hosts.map { "what '\($0.host.name)' stores in \(shown($0.shared, of: $0.host))" }.joined(separator: ", or ")
            // A group one or two letters from the app's is the likely fix
            // (Joplin's share extension's group.net.cozic.jopin; real-project
            // trial 15, D1b).
            let near = (nearMissesOf[child.id] ?? []).first
            var didYouMean = near.map { "did you mean \($0.theirs)? '\($0.hostSide ? first.host.name : child.name)' lists \($0.said); " } ?? ""
            // Or the app's group one or two letters from the extension's:
            // the app's entitlements may hold the typo, which the app's own
            // code then tells (the watch app's `…nigthguard`, its code and
            // its complication on `…nightguard`; real-project trial 20, W9).
            // Only a group of the app's no other file lists, against one of
            // the extension's that another file lists too (a real group),
            // neither an app ID (the extension's own `…Notes.Share` is no
            // misspelt `…Notes.shared`).
            // Bounded as the near misses are (review 22b, R9: 2,000 groups a
            // side took over 60 s).
            if near == nil, let (theirs, own) = childGroups[child.id], first.shared.count * theirs.count <= Self.nearMissPairLimit {
                var found: (mine: String, theirs: String, distance: Int)?
                let real = theirs.sorted().filter { !writers.appIDs.contains($0) && (writers.writtenIn[$0] ?? []).contains(where: { $0 != own }) }
                search: for mine in first.shared where !writers.appIDs.contains(mine) && (writers.writtenIn[mine]?.count ?? 0) <= 1 {
                    for g in real {
                        if let d = Suggest.editDistance(mine, g, atMost: 2), d > 0 { found = (mine, g, d); break search }
                    }
                }
                if let miss = found {
                    let letters = miss.distance == 1 ? "one letter" : "two letters"
                    let host = first.host.name
                    didYouMean = codeNames(miss.theirs, in: first.host, &render) && !codeNames(miss.mine, in: first.host, &render)
                        ? "'\(host)' lists \(miss.mine), \(letters) from \(miss.theirs), which '\(child.name)' lists and the code of '\(host)' names: "
                            + "did you mean \(miss.theirs) in the entitlements of '\(host)'? "
                        : "'\(host)' lists \(miss.mine), \(letters) from \(miss.theirs), which '\(child.name)' lists: one of the two is a typo; "
                }
            }
            // No file in this configuration: the fix is the setting, and
            // another configuration's file may already list what it shares
            // (real-project trial 21, W1).
            var fix = "add the group \(hosts.count == 1 ? "the two" : "they") should share to "
                + "\(hosts.count == 1 ? "both" : "all their") entitlements files (an extension inherits nothing from its app)"
            if near == nil, c.resolved.entitlementsPath == nil {
                let elsewhere = first.shared.lazy.compactMap { g in self.fileListing(g, elsewhereFor: child).map { (g, $0) } }.first
                fix = "'\(child.name)' signs with no entitlements file in configuration '\(configuration)': " + (elsewhere.map { g, found in
                    "set its CODE_SIGN_ENTITLEMENTS for '\(configuration)' to '\(found.file)', which '\(found.configuration)' signs with and which lists \(g)"
                } ?? "set its CODE_SIGN_ENTITLEMENTS to a file that lists the group \(hosts.count == 1 ? "the two" : "they") should share")
            }
            out.append(render.diagnostic(ProjectIssue(
                .warning, "target '\(child.name)' is embedded in \(embedded) but shares no group with \(hosts.count == 1 ? "it" : "them") (configuration '\(configuration)'): it cannot read \(stores)",
                // At the misspelt group, where the fix goes (real-project trial 19, W7).
                at: near?.mine.location ?? c.resolved.entitlementsLocation ?? child.location,
                hint: didYouMean + "asked because \(reason): " + fix),
                code: .projectExtensionGroup))
        }
        // A near miss beside a group they share: the shared app group hid
        // a misspelt keychain group, and every read of the app's tokens from
        // the extensions failed (Home Assistant; real-project trial 15, D1).
        for (m, hostTarget, h, kids) in misses {
            let host = hostTarget.name
            // Only extensions whose code may read what the app stores, as above.
            let asked = kids.filter { child, _ in sharedDataReason(child, &render, words: &words, mentions: mentions) != nil }
            guard let (firstChild, firstSigning) = asked.first else { continue }
            let names = asked.map { "'\($0.0.name)'" }
            let who = names.count == 1 ? "target \(names[0])" : "targets " + names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
            let them = names.count == 1 ? "it" : "them", they = names.count == 1 ? "it" : "they"
            let list = names.count == 1 ? "lists" : "list"
            var message = m.hostSide
                ? "target '\(host)' lists \(m.said), which \(who), embedded in it, \(list) (configuration '\(configuration)'): "
                    + "\(they) cannot read what '\(host)' stores in \(m.mine.value)"
                : "\(who) \(list) \(m.said) of '\(host)', which embeds \(them) (configuration '\(configuration)'): "
                    + "\(they) cannot read what '\(host)' stores in \(m.theirs)"
            if m.bothDefault { message += "; both are the default keychain group, where code that names no group stores and reads" }
            let written = m.hostSide ? names[0] : "'\(host)'"
            var hint = "did you mean \(m.theirs)? write it as the entitlements of \(written) do"
                + (m.hostSide ? "" : " (an extension inherits nothing from its app)")
            var at = m.mine.location
            // The child's spelling is not always the typo: when the host's
            // own code names it, and not the host's, the host's entitlements
            // are (the app's `…sahred`, with the app's code and the widget
            // on `…shared`, was told to copy it into the widget while KCS607
            // said the app's file was wrong; real-project trial 22, D10).
            if !m.hostSide, codeNames(m.mine.value, in: hostTarget, &render) {
                let whose = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
                let caveat = " (items already stored live in the group the shipped build used)"
                if codeNames(m.theirs, in: hostTarget, &render) {
                    hint = "one of the two is a typo, and the code of '\(host)' names both: write \(m.theirs) in the entitlements of \(whose) as '\(host)' lists it, "
                        + "or \(m.mine.value) in the entitlements of '\(host)'" + caveat
                } else {
                    hint = "the entitlements of '\(host)' hold the typo: its own code names \(m.mine.value), as \(whose) \(list) it, and never \(m.theirs); "
                        + "write \(m.mine.value) in the entitlements of '\(host)'" + caveat
                    at = (m.keychain ? h.keychainAccessGroups : h.applicationGroups).first { $0.value == m.theirs }?.location ?? at
                }
            }
            out.append(render.diagnostic(ProjectIssue(
                .warning, message,
                at: at ?? firstSigning.resolved.entitlementsLocation ?? firstChild.location,
                hint: hint),
                code: .projectExtensionGroup))
        }
        return out
    }

    /// Whether a target's Swift code names a group as a string: the group
    /// between quotes (`"TEAMID.x"`) or, for `TEAMID.…`, the rest after an
    /// interpolation of the team (`"\(team).x"`). Not any literal that
    /// merely ends so: `"group.com.example.x"` does not name `TEAMID.com.example.x`
    /// (review 22a, R13). The first 5,000 files, as the KCS604 scan.
    func codeNames(_ group: String, in target: XcodeProject.Target, _ render: inout ProjectDiagnostics) -> Bool {
        var patterns = [Array(("\"" + group + "\"").utf8)]
        if let rest = Team.withoutPrefix(group) {
            patterns.append(Array((")." + rest + "\"").utf8))
        }
        for path in code(of: target).swiftSources.prefix(5000) {
            guard let bytes = reasonSource(path, &render)?.bytes else { continue }
            let found = bytes.withUnsafeBufferPointer { b in
                patterns.contains { p in p.withUnsafeBufferPointer { ByteSearch.contains(b, $0) } }
            }
            if found { return true }
        }
        return false
    }

    /// A source of a target's code as KCS604's reason reads it: nil, unread,
    /// past ``maxReadableSourceBytes`` (a 70 MB source was read whole for the
    /// reason; adversarial run 28).
    func reasonSource(_ path: String, _ render: inout ProjectDiagnostics) -> SourceFile? {
        if let size = fileSystem.fileSize(path), size > Self.maxReadableSourceBytes { return nil }
        return render.sourceFile(path)
    }

    /// The size past which a source is not read at all, by the code check
    /// (which reads a file up to it to ask whether it may name a group) and
    /// by KCS604's reason alike: one bound (review 23b, B9).
    package static let maxReadableSourceBytes = 16 << 20

    /// Why a target's code may read what another stores, said in KCS604's
    /// hint (a developer asked because of a linked package could not find a
    /// call to fix; found on a real-project trial): its code uses keychain
    /// or app-group API, or a keychain wrapper it does not declare
    /// (``SharedDataScan``), or kcs cannot read all of it (sources in other
    /// languages or missing, frameworks or packages linked, no Swift at
    /// all). Nil when it cannot: a notification service extension that only
    /// rewrites a title has nothing to share, and asking it to was noise
    /// (found on 2PASS and Secretive's XPC services).
    /// `words`: what each file's code names, found once per file
    /// however many extensions link it (found by adversarial testing).
    /// `mentions`: which names each file uses, kept for every extension.
    package func sharedDataReason(_ target: XcodeProject.Target, _ render: inout ProjectDiagnostics,
                                  words: inout [String: SharedDataScan], mentions: SharedMentions) -> String? {
        // Its own code and that of the project's frameworks it links.
        let code = self.code(of: target)
        // What its code says first: a word of the keychain or an app group
        // is a better reason than code kcs cannot read beside it (Focus's
        // intent extension calls UserDefaults(suiteName:) and was asked
        // because of an .intentdefinition; found on a real-project trial).
        var unreadable: String?
        var scans: [(path: String, scan: SharedDataScan)] = []
        /// Words in linked code, with what each file declares.
        var linkedWords: [(path: String, word: String, names: Set<String>)] = []
        for path in code.swiftSources {
            guard let file = reasonSource(path, &render) else {
                if unreadable == nil { unreadable = "kcs cannot read its source '\(path)'" }
                continue
            }
            let scan: SharedDataScan
            if let known = words[path] {
                scan = known
            } else {
                scan = file.bytes.withUnsafeBufferPointer { SharedDataScan(path: path, $0) }
                words[path] = scan
            }
            // In a package module or framework it links, that is named too
            // (Cryptomator's Intents: CryptomatorKeychain.swift is package
            // CryptomatorCommonCore's; real-project trial 20, W8).
            if let word = scan.word {
                // In a framework's or package module's file, a word counts
                // when some other file of its code names what the file
                // declares, as KCS607 asks (Secretive's XPC services were
                // asked for CertificateKit's CertificateStore.swift, which
                // nothing they compile names; real-project trial 21, D5).
                // Reached by its file-scope names, or, for a file of
                // `extension` members alone, by theirs; every such file is
                // looked at, however many (a cap made the ninth a reason
                // unchecked; review 20, R2).
                let names = scan.topLevel.isEmpty ? scan.exported : scan.topLevel
                if code.owner[path] != nil, !names.isEmpty {
                    linkedWords.append((path, word, names))
                } else {
                    return "its code names the keychain or an app group (\(word) in \(ProjectPath.lastComponent(path))\(Self.via(code.owner[path])))"
                }
            }
            scans.append((path, scan))
        }
        if !linkedWords.isEmpty {
            let names = linkedWords.reduce(into: Set<String>()) { $0.formUnion($1.names) }
            // Each name with two of the files that mention it, at most: a
            // linked file is used when a file other than itself mentions one
            // of its names. (Each linked file tested against every file
            // mentioning a name was files²: a module of 4,000 keychain files
            // took 11 s; adversarial run 27, F7.)
            var mentionedBy: [String: [String]] = [:]
            // Each file's answer for these names kept for the next
            // extension: each extension lexed every file again (16 sharing
            // a 1 MiB file took 51 s; adversarial run 28, F9).
            var known = mentions.take(names)
            defer { mentions.keep(known, for: names) }
            for path in code.swiftSources.prefix(5000) {
                let used: Set<String>
                if let answer = known[path] {
                    used = answer
                } else {
                    guard let file = reasonSource(path, &render) else { continue }
                    used = file.bytes.withUnsafeBufferPointer { SharedDataScan.mentioned(names, in: $0, path: path) }
                    mentions.scanned += 1
                    known[path] = used
                }
                for name in used {
                    let by = mentionedBy[name, default: []]
                    if by.count < 2, !by.contains(path) { mentionedBy[name, default: []].append(path) }
                }
            }
            for (path, word, declared) in linkedWords where declared.contains(where: { mentionedBy[$0]?.contains { $0 != path } == true }) {
                return "its code names the keychain or an app group (\(word) in \(ProjectPath.lastComponent(path))\(Self.via(code.owner[path])))"
            }
        }
        // A `group.` literal in a property's value: a reason when its code
        // uses the property (real-project trial 21, D5). The properties
        // are looked for together, each file read once (per literal file it
        // read every file; review 20, R3).
        let properties = Set(scans.compactMap { $0.scan.groupLiteral == nil ? nil : $0.scan.groupLiteralProperty })
        if !properties.isEmpty {
            var used: Set<String> = []
            for other in scans {
                guard let file = reasonSource(other.path, &render) else { continue }
                used.formUnion(file.bytes.withUnsafeBufferPointer { SharedDataScan.mentioned(properties, in: $0, path: other.path) })
                if used == properties { break }
            }
            for (path, scan) in scans {
                if let literal = scan.groupLiteral, let property = scan.groupLiteralProperty, used.contains(property) {
                    return "its code names the keychain or an app group (\(literal) in \(ProjectPath.lastComponent(path)))"
                }
            }
        }
        // A wrapper's name its code uses but does not declare: a keychain
        // wrapper from a package kcs does not read (`KeychainSwift()`).
        let declared = scans.reduce(into: Set<String>()) { $0.formUnion($1.scan.declared) }
        for (path, scan) in scans {
            if let name = scan.wrapperNames.first(where: { !declared.contains($0) }) {
                return "its code names the keychain or an app group (\(name) in \(ProjectPath.lastComponent(path))\(Self.via(code.owner[path])))"
            }
        }
        if !code.unread.isEmpty { return "it has code kcs does not read (" + ProjectInput.listed(Array(code.unread.prefix(3)), of: code.unreadCount) + ")" }
        // Sources it has, all filtered to other platforms: this build
        // compiles none of them, and that is known (real-project trial 21, D1).
        if code.swiftSources.isEmpty { return project.code(of: target).swiftSources.isEmpty ? "kcs finds no Swift source of it" : unreadable }
        return unreadable
    }

    /// ", in package module 'X', which it links" for a file of a module or
    /// framework the target links; nothing for its own.
    public static func via(_ owner: XcodeProject.Target?) -> String { owner.map { ", in \($0.linkedName), which it links" } ?? "" }

    /// A target's folders: the one named after it, and the top folders its
    /// Swift sources sit in (a widget target `BitkitWidgetExtension` keeps
    /// them in `BitkitWidget/`, whose stale entitlements file went unsaid;
    /// found on a real-project trial). At most 8.
    /// `own`: the folder named after the target and the one holding most
    /// of its sources (the first of them on a tie): a folder the target
    /// only borrows a file from is another target's (KeePassium's app
    /// compiles one file of its AutoFill extension's folder; found on a
    /// real-project trial).
    func targetFolders(_ t: XcodeProject.Target) -> (all: [String], own: Set<String>) {
        let named = ProjectPath.join(project.sourceRoot, t.name)
        var out = [named], counts: [String: Int] = [:]
        let root = ProjectPath.normalize(project.sourceRoot)
        for source in t.swiftSources {
            let path = ProjectPath.normalize(source)
            guard root == "." || path.hasPrefix(root + "/") else { continue }
            let relative = root == "." ? path : String(path.dropFirst(root.count + 1))
            guard let top = relative.split(separator: "/").first, relative.contains("/"), top != "..", top != "." else { continue }
            let folder = ProjectPath.join(project.sourceRoot, String(top))
            counts[folder, default: 0] += 1
            if out.count < 8, !out.contains(folder) { out.append(folder) }
        }
        let most = out.max { counts[$0, default: 0] < counts[$1, default: 0] }
        var own: Set<String> = [named]
        if let most, let first = out.first(where: { counts[$0, default: 0] == counts[most, default: 0] }) { own.insert(first) }
        return (out, own)
    }

    /// KCS605: `.entitlements` files in the project or in a target's folder
    /// that no configuration of any target signs with.
    func unusedEntitlements(_ render: inout ProjectDiagnostics) -> [Diagnostic] {
        // By canonical path: a project may spell a file in another case, as
        // the Mac's file system lets it (CaseFoldingFileSystem).
        var written = signings.compactMap(\.resolved.entitlementsPath)
        var used = Set(written.map(fileSystem.canonical))
        // The other platforms a target builds for may sign with another file
        // (`CODE_SIGN_ENTITLEMENTS[sdk=macosx*]` for Mac Catalyst, as in Home Assistant).
        for s in signings {
            for platform in project.platforms(of: s.target, configuration: s.configuration).platforms where platform != s.resolved.platform {
                if let path = project.resolve(s.target, configuration: s.configuration, platform: platform).entitlementsPath { written.append(path); used.insert(fileSystem.canonical(path)) }
            }
        }
        // Targets on a platform kcs does not model (tvOS, visionOS), and of a
        // product type it does not (a dynamic library or a command-line tool
        // signed as a daemon: AltStore's AltDaemon), sign with their files too
        // (Valet's tvOS host app was said to sign with none).
        let modelled = Set(signings.map(\.target.id))
        // A file another setting names (Provenance's Build.xcconfig:
        // `IOS_CODE_SIGN_ENTITLEMENTS_JB = Provenance/Provenance-JB.entitlements`,
        // selected by `$(DEVELOPER_ACCOUNT_PAID)`, and the tvOS files of
        // `CODE_SIGN_ENTITLEMENTS_appletvos`) is chosen on some machine or
        // platform: "delete it" was wrong (real-project trial 23, D5). Each
        // value expanded once per target and configuration, a few hundred at most.
        var expansions = 0
        func settingsName(_ r: ResolvedTarget) {
            for a in r.settings.assignments where a.name != "CODE_SIGN_ENTITLEMENTS" && expansions < 2_000 {
                let v = a.value.trimmingCharacters(in: .whitespaces)
                guard v.hasSuffix(".entitlements") || v.hasSuffix(".entitlements\"") else { continue }
                expansions += 1
                let value = r.settings.expand(v).value.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
                if !value.isEmpty { used.insert(fileSystem.canonical(project.path(fromSetting: value))) }
            }
        }
        for s in signings { settingsName(s.resolved) }
        for t in project.targets where !modelled.contains(t.id) {
            for c in project.configurations {
                let r = project.resolve(t, configuration: c.name, platform: "")
                if let path = r.entitlementsPath { written.append(path); used.insert(fileSystem.canonical(path)) }
                settingsName(r)
            }
        }
        let selectable = signings.compactMap(entitlementsPattern)
        var candidates: [(String, ProjectLocation?)] = project.entitlementsFiles.map { ($0.path, $0.location) }
        // Each file once, by its real path (compared pairwise, 2,000 stray
        // files took minutes; found by adversarial testing); folders as the
        // project writes them, so messages keep its paths.
        var listed = Set(candidates.map { fileSystem.canonical($0.0) })
        var folders = Set(written.map(ProjectPath.directory))
        // Each target's folder and those below it, two levels down: a stale
        // copy in `Resources/` is the file someone edits by mistake
        // (ChatSecure; found on a real-project trial). Bounded in entries
        // looked at and folders kept (``strayWalkEntries``, ``strayWalkFolders``).
        var entries = 0
        // Worked out once per target: asked per file and target, each asking
        // walked the target's sources.
        var foldersOf: [String: [String]] = [:], ownFolders: [String: Set<String>] = [:]
        for t in project.targets where t.kind != nil { (foldersOf[t.id], ownFolders[t.id]) = targetFolders(t) }
        // Each folder walked once, however many targets it belongs to (1,000
        // targets over one 60,000-file folder took 27 s; found by adversarial
        // testing). The target's folder is walked even when a signed file sits in it.
        var walked = Set<String>()
        for t in project.targets where t.kind != nil {
            var level = (foldersOf[t.id] ?? []).filter { walked.insert(fileSystem.canonical($0)).inserted }
            for f in level { folders.insert(f) }
            for _ in 0..<2 {
                var next: [String] = []
                for folder in level {
                    for name in fileSystem.contents(ofDirectory: folder) ?? [] where !name.hasPrefix(".") && !name.contains(".") {
                        entries += 1
                        if entries > Self.strayWalkEntries || folders.count > Self.strayWalkFolders { break }
                        let child = ProjectPath.join(folder, name)
                        if fileSystem.isDirectory(child), folders.insert(child).inserted { next.append(child) }
                    }
                }
                level = next
            }
        }
        var searched = Set<String>()
        for folder in folders.sorted() where searched.insert(fileSystem.canonical(folder)).inserted {
            for name in fileSystem.contents(ofDirectory: folder) ?? [] where name.hasSuffix(".entitlements") {
                let p = ProjectPath.join(folder, name)
                if listed.insert(fileSystem.canonical(p)).inserted { candidates.append((p, nil)) }
            }
        }
        var out: [Diagnostic] = []
        // A file a setting that is empty here selects (NetNewsWire's
        // `App$(DEVELOPER_ENTITLEMENTS).entitlements`, set to `-dev` in a
        // developer's own xcconfig) is in use on some machine: not reported.
        // A file's owner, to compare it with: the target named like it
        // (`ROM_File_ProviderUI.entitlements`, 'ROM File ProviderUI'), else
        // the one target of the nearest folder that holds it: a folder holding
        // a target's sources or signed file, or one of its folders (a target
        // whose own folder it is before one that borrows a file there). A
        // folder of several is none's: Provenance's `Extensions/` named
        // 'Spotlight' for eight files of other extensions (real-project
        // trial 16, D10). Found by the file's folders, not by asking every
        // target per file (20,000 stray files over 2,000 targets took 20 s;
        // found by adversarial testing).
        var holdersAt: [String: [Int]] = [:], ownersAt: [String: [Int]] = [:], nearAt: [String: [Int]] = [:]
        var byName: [String: [Int]] = [:]
        func add(_ i: Int, _ folder: String, _ table: inout [String: [Int]]) {
            let key = ProjectPath.normalize(folder)
            if table[key]?.last != i { table[key, default: []].append(i) }
        }
        for (i, t) in project.targets.enumerated() where t.kind != nil {
            for folder in foldersOf[t.id] ?? [] { add(i, folder, &holdersAt) }
            for folder in ownFolders[t.id] ?? [] { add(i, folder, &ownersAt) }
            for source in t.swiftSources.prefix(200) { add(i, ProjectPath.directory(source), &nearAt) }
            byName[Self.nameKey(t.name), default: []].append(i)
        }
        let indexOf = Dictionary(project.targets.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        for s in signings {
            if let p = s.resolved.entitlementsPath, let i = indexOf[s.target.id] { add(i, ProjectPath.directory(p), &nearAt) }
        }
        var ownerOfFolder: [String: Int?] = [:]
        func owner(of path: String) -> XcodeProject.Target? {
            let file = ProjectPath.lastComponent(path)
            let key = Self.nameKey(file.hasSuffix(".entitlements") ? String(file.dropLast(".entitlements".count)) : file)
            if !key.isEmpty, let named = byName[key], named.count == 1 { return project.targets[named[0]] }
            let start = ProjectPath.normalize(ProjectPath.directory(path))
            // Worked out once per folder, however many stray files it holds.
            if let known = ownerOfFolder[start] { return known.map { project.targets[$0] } }
            var folder = start, found: Int?
            for _ in 0..<64 {
                let near = Set(nearAt[folder] ?? []), owners = Set(ownersAt[folder] ?? []), holders = Set(holdersAt[folder] ?? [])
                if !near.isEmpty || !owners.isEmpty || !holders.isEmpty {
                    let all = near.union(owners).union(holders)
                    // Several: the one named after the folder, else the only one whose folder it is.
                    let named = all.filter { Self.nameKey(project.targets[$0].name) == Self.nameKey(ProjectPath.lastComponent(folder)) }
                    let one = all.count == 1 ? all : named.count == 1 ? named : owners.count == 1 ? owners : near.count == 1 ? near : []
                    found = one.first
                    break
                }
                let up = ProjectPath.directory(folder)
                if up == folder || up.isEmpty { break }
                folder = up
            }
            ownerOfFolder[start] = .some(found)
            return found.map { project.targets[$0] }
        }
        var signedBy: [String: [String]] = [:]
        for s in signings { if let p = s.resolved.entitlementsPath { signedBy[s.target.id, default: []].append(p) } }
        // Files CODE_SIGN_ENTITLEMENTS[sdk=macosx*] names for a target that
        // does not build for the Mac: found once, when a file is unused
        // (Woo's `Woo-Release-macOS.entitlements`, named in the pbxproj, was
        // said unused without why; real-project trial 15, D14).
        var forTheMac: [String: (target: String, at: ProjectLocation?)]?
        func namedForTheMac(_ path: String) -> (target: String, at: ProjectLocation?)? {
            if forTheMac == nil {
                var found: [String: (target: String, at: ProjectLocation?)] = [:]
                for t in project.targets where t.kind != nil {
                    for c in project.configurations {
                        let platforms = project.platforms(of: t, configuration: c.name).platforms
                        guard !platforms.isEmpty, !platforms.contains("catalyst"), !platforms.contains("macos") else { continue }
                        let r = project.resolve(t, configuration: c.name, platform: "catalyst")
                        if let p = r.entitlementsPath, found[fileSystem.canonical(p)] == nil { found[fileSystem.canonical(p)] = (t.name, r.entitlementsLocation) }
                    }
                }
                forTheMac = found
            }
            return forTheMac?[fileSystem.canonical(path)]
        }
        // A file a misspelt CODE_SIGN_ENTITLEMENTS meant: its KCS602 says
        // "did you mean" it, and "delete it" was advice to delete the right
        // file (real-project trial 19, W4).
        let listedEntitlements = project.entitlementsFiles.map(\.path)
        let meant = Set(signings.compactMap { s in s.entitlements == nil ? s.resolved.entitlementsPath : nil }
            .compactMap { TargetSigning.nearEntitlementsFile($0, fileSystem: fileSystem, listed: listedEntitlements).map(fileSystem.canonical) })
        for (path, location) in candidates where !used.contains(fileSystem.canonical(path)) && !selectable.contains(where: { Glob.matches($0, path) })
            && !meant.contains(fileSystem.canonical(path)) {
            if let mac = namedForTheMac(path) {
                out.append(render.diagnostic(ProjectIssue(
                    .warning, "no configuration signs with '\(path)': CODE_SIGN_ENTITLEMENTS of target '\(mac.target)' names it for the Mac SDK "
                        + "(sdk=macosx*), and the target does not build for the Mac (SUPPORTS_MACCATALYST is not YES)",
                    at: mac.at ?? location ?? ProjectLocation(file: path, line: 1),
                    hint: "set SUPPORTS_MACCATALYST = YES if the target is to run on the Mac; else delete the file and the setting"),
                    code: .projectEntitlementsFile))
                continue
            }
            // A file the project lists that is not there: pointing a setting
            // at it, or deleting it, makes no sense (LuLu's Base.lproj variant
            // of Extension.entitlements; real-project trial 16, D11).
            if location != nil, !fileSystem.isFile(path) {
                out.append(render.diagnostic(ProjectIssue(
                    .warning, "the project lists '\(path)', which does not exist, and no configuration signs with it",
                    at: location, hint: "remove the reference from the project (Xcode shows it in red)"),
                    code: .projectEntitlementsFile, length: location.flatMap { render.valueLength(at: $0) }))
                continue
            }
            let owner = owner(of: path)
            let users = owner.map { signedBy[$0.id] ?? [] } ?? []
            var message = "no configuration signs with '\(path)'"
            // What a target on a platform kcs does not model signs with is
            // not known there: "signs with no entitlements file" was false
            // for Provenance's tvOS app (real-project trial 23, D5).
            if let owner, modelled.contains(owner.id) {
                message += users.isEmpty ? "; target '\(owner.name)' signs with no entitlements file"
                    : "; target '\(owner.name)' signs with '\(Set(users).sorted().joined(separator: "', '"))'"
            }
            // A file that grants no group (`<dict/>`, iCloud or the sandbox
            // only) can cause no keychain or app-group mistake: a note, not
            // counted (four of four such findings on real-project trial 20,
            // W2; WWDC's `…-ForRamboBuildsOnly.entitlements`).
            let grantsNoGroup: Bool
            if case .success(let bytes) = fileSystem.read(path) {
                grantsNoGroup = bytes.withUnsafeBufferPointer { b in
                    [Entitlements.Key.keychainAccessGroups, .applicationGroups].allSatisfy { key in
                        Array(key.rawValue.utf8).withUnsafeBufferPointer { !ByteSearch.contains(b, $0) }
                    }
                }
            } else {
                grantsNoGroup = false
            }
            if grantsNoGroup { message += "; it grants no keychain or app group" }
            out.append(render.diagnostic(ProjectIssue(grantsNoGroup ? .note : .warning, message, at: location ?? ProjectLocation(file: path, line: 1),
                                                      hint: "point CODE_SIGN_ENTITLEMENTS at it, or delete it so nobody edits the wrong file"),
                                         code: .projectEntitlementsFile, length: location.flatMap { render.valueLength(at: $0) }))
        }
        return out
    }

    /// A target's name as compared with an entitlements file's: its letters
    /// and digits, lower-cased (`ROM File ProviderUI`, `ROM_File_ProviderUI`).
    static func nameKey(_ name: String) -> String { String(name.lowercased().filter { $0.isLetter || $0.isNumber }) }

    /// The files `CODE_SIGN_ENTITLEMENTS` can name on other machines: its
    /// value with each reference that expands to nothing here as `*`; nil
    /// when it has no such reference.
    func entitlementsPattern(_ s: TargetSigning) -> String? {
        guard let raw = s.resolved.settings.definition(of: "CODE_SIGN_ENTITLEMENTS")?.value, raw.contains("$") else { return nil }
        var pattern = ""
        var hole = false
        for piece in BuildSettings.references(in: raw) {
            if piece.isReference {
                let value = s.resolved.settings.expand(piece.text).value
                if value.isEmpty { hole = true }
                pattern += value.isEmpty ? "*" : value
            } else {
                pattern += piece.text
            }
        }
        return hole ? ProjectPath.join(project.sourceRoot, pattern) : nil
    }

    /// KCS606: keychain and app groups the provisioning profile does not
    /// grant, for the targets whose app ID it covers.
    func notInProfile(_ profile: Entitlements, path: String, _ render: inout ProjectDiagnostics) -> [Diagnostic] {
        var out: [Diagnostic] = []
        var covered = false
        for s in signings {
            guard let bundleID = s.resolved.bundleID, let team = s.resolved.teamID ?? profile.teamID,
                  profile.allows(bundleID: bundleID, teamID: team) else { continue }
            covered = true
            let lists: [([TargetSigning.Located], [String]?, String)] = [
                (s.keychainAccessGroups, profile.keychainAccessGroups, Entitlements.Key.keychainAccessGroups.rawValue),
                (s.applicationGroups, profile.applicationGroups, Entitlements.Key.applicationGroups.rawValue),
            ]
            for (groups, granted, key) in lists {
                for g in groups where !Self.grants(granted ?? [], g.value, team: team) {
                    out.append(render.diagnostic(ProjectIssue(
                        .warning, "target '\(s.target.name)', configuration '\(s.configuration)': \(g.value) is not in the \(key) of \(path)",
                        at: g.location ?? s.resolved.entitlementsLocation ?? s.target.location,
                        hint: "the profile grants: " + ((granted ?? []).isEmpty ? "none" : (granted ?? []).joined(separator: ", "))
                            + "; add the group to the App ID (or app groups) and download the profile again"),
                        code: .projectProfile))
                }
            }
        }
        if !covered {
            out.append(Diagnostic(.projectProfile, "\(path) is for \(profile.applicationIdentifier ?? "no application identifier"), which no target of the project is",
                                  severity: .warning, hint: "give the profile of one of the project's targets"))
        }
        return out
    }

    /// Whether a profile's list grants `group`: exactly, or through a
    /// trailing `*` (`TEAMID.*`), with the team prefix variables expanded.
    public static func grants(_ granted: [String], _ group: String, team: String) -> Bool {
        granted.contains { pattern in
            let p = pattern.replacingOccurrences(of: "$(AppIdentifierPrefix)", with: team + ".")
                .replacingOccurrences(of: "$(TeamIdentifierPrefix)", with: team + ".")
            return p.hasSuffix("*") ? group.hasPrefix(p.dropLast()) : p == group
        }
    }
}

/// CocoaPods' xcconfig files, absent until `pod install`: one warning for
/// all of them, where the first is named (3 targets × 6 configurations gave
/// 18; the import said each apart while the lint said one, found on a
/// real-project trial).
struct MissingPods {
    private var first: ProjectIssue?
    private var files: Set<String> = []

    /// Keeps `issue` if it is about such a file.
    mutating func take(_ issue: ProjectIssue) -> Bool {
        guard let file = issue.missingPodsFile else { return false }
        if first == nil { first = issue }
        files.insert(file)
        return true
    }

    /// The one warning, when a file was missing.
    var issue: ProjectIssue? {
        guard let first, let file = first.missingPodsFile else { return nil }
        let n = files.count
        let said = "cannot read the xcconfig file '\(file)': "
        let reason = first.message.hasPrefix(said) ? String(first.message.dropFirst(said.count)) : first.message
        return ProjectIssue(.warning, n == 1 ? first.message : "cannot read \(n) xcconfig files CocoaPods writes, the first of them '\(file)' (\(reason))",
                            at: first.location,
                            hint: "run `pod install` first: the Pods folder is CocoaPods' output, absent from a fresh clone; "
                                + "the settings \(n == 1 ? "it" : "they") would give are left out")
    }
}
