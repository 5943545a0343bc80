import Foundation
import KCSSyntax
import struct KeychainEngine.Team

/// A target's signing facts for one configuration and platform: what the
/// build settings give for its bundle ID, team and entitlements file.
public struct ResolvedTarget: Sendable {
    public var target: XcodeProject.Target
    public var configuration: String
    /// The platform family as a scenario writes it: `ios`, `macos`, `catalyst`, `watchos`.
    public var platform: String
    /// The SDK name `[sdk=…]` conditions matched: `iphoneos`, `macosx`, `watchos`.
    public var sdk: String
    public var settings: BuildSettings
    /// Whether every xcconfig file of its levels was read: a setting they
    /// leave undefined is then undefined in the build too.
    public var settingsAreComplete = true
    /// `PRODUCT_BUNDLE_IDENTIFIER`, expanded; nil when it cannot be resolved.
    public var bundleID: String?
    /// Whether the bundle ID expanded cleanly: no setting in it is defined
    /// nowhere (a bundle ID with a hole is not compared with another).
    public var bundleIDResolves = true
    /// `DEVELOPMENT_TEAM` (or the target attributes' team when no level sets
    /// it; a level that sets it empty means no team).
    public var teamID: String?
    /// `CODE_SIGN_ENTITLEMENTS`, resolved against the project folder.
    public var entitlementsPath: String?
    /// Where `CODE_SIGN_ENTITLEMENTS` was set.
    public var entitlementsLocation: ProjectLocation?
    /// The major version of the deployment target, when set.
    public var deploymentVersion: Int?
    public var issues: [ProjectIssue]
    /// The settings set empty that left the bundle ID no bundle ID
    /// (`com..loopkit.Loop`): Loop's `LOOP_DEVELOPMENT_TEAM`.
    public var bundleIDEmptiedBy: [String] = []
    /// Whether `DEVELOPMENT_TEAM` expanding to nothing is among the causes:
    /// `--team` then stands in.
    public var bundleIDEmptiedByTeam = false
}

extension XcodeProject {
    /// The SDK a scenario platform builds with.
    public static func sdk(for platform: String) -> String? {
        switch platform {
        case "ios": "iphoneos"
        case "macos", "catalyst": "macosx"
        case "watchos": "watchos"
        default: nil
        }
    }

    /// A file a build setting names, written as the project's other paths
    /// are (from its path as given): relative to the project folder, or
    /// under `$(SRCROOT)`, which is absolute (a relative project path made
    /// "$(SRCROOT)/App/App.entitlements" name App/App.entitlements under
    /// the project folder twice over; found on Brave's project).
    public func path(fromSetting value: String) -> String {
        guard value.hasPrefix("/") else { return ProjectPath.join(sourceRoot, value) }
        let v = ProjectPath.normalize(value), root = absoluteSourceRoot
        if v == root { return sourceRoot }
        if root != "/", v.hasPrefix(root + "/") { return ProjectPath.join(sourceRoot, String(v.dropFirst(root.count + 1))) }
        return v
    }

    /// The platform families kcs models, as `--platform` accepts them.
    public static let platformNames = ["ios", "macos", "catalyst", "watchos"]

    /// Said once (the same words for every target refused): past the
    /// budget targets are not resolved, and checks across them are skipped.
    public var budgetMessage: String {
        "the project's targets and configurations come to more than \(xcconfigs.limit) build settings and conditions; "
            + "kcs resolves no more of them, and skips the checks across targets and of the code"
    }

    /// Whether the project's budget of resolved settings ran out: some
    /// targets are not resolved, so comparing targets would mislead.
    public var settingsBudgetExhausted: Bool { xcconfigs.exhausted }

    /// The assignments of one target in one configuration, lowest precedence
    /// first: build-system defaults, the project's xcconfig, the project, the
    /// target's xcconfig, the target.
    public func assignments(for target: Target, configuration: String, sdk: String) -> ([SettingAssignment], [ProjectIssue]) {
        var issues: [ProjectIssue] = []
        var stack: [SettingAssignment] = []
        let context = BuiltinSettings.Context(projectName: name, projectPath: path, sourceRoot: absoluteSourceRoot, targetName: target.name,
                                              productType: target.productType, configuration: configuration, sdk: sdk)
        for (name, value) in BuiltinSettings.values(context) {
            stack.append(SettingAssignment(name: name, value: value, location: nil))
        }
        let levels: [(Configuration?, String)] = [
            (configurations.first { $0.name == configuration }, "project"),
            (target.configurations.first { $0.name == configuration }, "target '\(target.name)'"),
        ]
        for (config, level) in levels {
            guard let config else {
                issues.append(ProjectIssue(.warning, "the \(level) has no configuration named '\(configuration)'", at: target.location,
                                           hint: "configurations: " + (level == "project" ? configurations : target.configurations).map(\.name).joined(separator: ", ")))
                continue
            }
            if let base = config.baseConfiguration {
                let (read, readIssues) = xcconfigs.read(base, from: config.location, fileSystem: fileSystem, searchRoot: sourceRoot)
                stack += read
                issues += readIssues
            }
            stack += config.settings
        }
        // Every target in every configuration on every platform holds its
        // stack: the project as a whole has a budget (40 targets sharing an
        // xcconfig of 50,000 settings took 65 s and 849 MB; found by
        // adversarial testing).
        // A setting's conditions count too: each is matched in every
        // resolution, and one assignment with 100,000 `[sdk=*]` shared by
        // 1,000 targets took 72 s (adversarial run 25, F7).
        guard xcconfigs.spend(stack.reduce(stack.count) { $0 + $1.conditions.count }, for: "\(target.id)\u{0}\(configuration)\u{0}\(sdk)") else {
            let builtins = stack.prefix { $0.location == nil }
            return (Array(builtins), issues + [ProjectIssue(.warning, budgetMessage, at: target.location)])
        }
        return (stack, issues)
    }

    /// The platforms a target builds for, from `SDKROOT`,
    /// `SUPPORTED_PLATFORMS` and `SUPPORTS_MACCATALYST`. With `given`
    /// (`--platform`), a target whose platform kcs cannot tell builds for
    /// that one, as the user says (`taken`), and its warning's hint says so:
    /// "imported as building for ios, as --platform says" (`doing`: "imported",
    /// "checked"; real-project trial 19, D1).
    public func platforms(of target: Target, configuration: String, given: String? = nil,
                          doing: String = "imported") -> (platforms: [String], issues: [ProjectIssue], taken: Bool) {
        let (sdks, settings, issues) = platformSDKs(of: target, configuration: configuration)
        var platforms: [String] = []
        for sdk in sdks {
            if let p = Self.modelled(sdk), !platforms.contains(p) { platforms.append(p) }
        }
        // SDKROOT's own platform first, when the target builds for it: the
        // checks of one configuration take the first (with "macosx iphoneos"
        // the iOS build went unchecked; found by adversarial testing).
        if let root = Self.modelled(ProjectPath.lastComponent(settings.value(of: "SDKROOT").value.lowercased())),
           let i = platforms.firstIndex(of: root), i > 0 {
            platforms.remove(at: i)
            platforms.insert(root, at: 0)
        }
        if platforms.isEmpty, sdks.isEmpty, target.kind == .watchApp || target.kind == .watchExtension { platforms = ["watchos"] }
        if platforms.contains("ios"), settings.value(of: "SUPPORTS_MACCATALYST").value == "YES" { platforms.append("catalyst") }
        var out = issues
        let others = platforms.isEmpty ? otherPlatformNames(sdks) : []
        // A target only for a platform kcs does not model (tvOS, visionOS)
        // that signs with no entitlements has nothing to check: React
        // Native's old template leaves a `-tvOS` target in many apps, and
        // each made the lint exit 1 (found on a real-project trial).
        // A target the budget left unresolved has no settings: "SDKROOT is
        // not set" for each of them was false, the budget is said once
        // (adversarial run 25, F5).
        let unresolved = issues.contains { $0.message == budgetMessage }
        if platforms.isEmpty, !unresolved, others.isEmpty || !settings.value(of: "CODE_SIGN_ENTITLEMENTS").value.isEmpty {
            let sdkroot = settings.value(of: "SDKROOT").value
            // An xcconfig that cannot be read may be where SDKROOT is set
            // (Authenticator's Carthage xcconfigs; real-project trial 19, D1).
            let unread = issues.compactMap(\.unreadXCConfig)
            let hint = others.isEmpty && given != nil ? "\(doing) as building for \(given ?? ""), as --platform says"
                : others.isEmpty && !unread.isEmpty
                ? "SDKROOT may be set in '\(unread[0])', which kcs cannot read (above): make it readable, or import with --platform ios "
                    + "(or macos, catalyst, watchos); until then the target's groups and code are not checked"
                : others.isEmpty ? "kcs models iOS, macOS, Mac Catalyst and watchOS; until SDKROOT names one, the target's groups and code are not checked"
                : "kcs models iOS, macOS, Mac Catalyst and watchOS"
            // A platform kcs does not model is nothing to fix: a note, which
            // does not fail the lint (sing-box's and Yattee's tvOS targets
            // made a clean project exit 1; real-project trial 19, W6).
            out.append(ProjectIssue(others.isEmpty ? .warning : .note, others.isEmpty
                                        ? "cannot tell which platform target '\(target.name)' builds for: " + (sdkroot.isEmpty ? "SDKROOT is not set" : "SDKROOT is '\(sdkroot)'")
                                        : "target '\(target.name)' builds for \(others.joined(separator: ", ")), which kcs does not model",
                                    at: settings.definition(of: "SUPPORTED_PLATFORMS")?.location ?? settings.definition(of: "SDKROOT")?.location
                                        ?? target.location,
                                    hint: hint))
        }
        if let given, platforms.isEmpty, others.isEmpty, !unresolved { return ([given], out, true) }
        return (platforms, out, false)
    }

    /// The platforms a target also builds for that kcs does not model
    /// (tvOS, visionOS): a `#if os(tvOS)` branch of such a target may be compiled.
    public func otherPlatforms(of target: Target, configuration: String) -> [String] {
        otherPlatformNames(platformSDKs(of: target, configuration: configuration).sdks)
    }

    private func otherPlatformNames(_ sdks: [String]) -> [String] {
        var out: [String] = []
        for sdk in sdks {
            if let p = Self.sdkPlatforms.first(where: { !$0.modelled && sdk.hasPrefix($0.sdk) })?.platform, !out.contains(p) { out.append(p) }
        }
        return out
    }

    /// Each SDK name, the platform it builds for, and whether kcs models it.
    private static let sdkPlatforms: [(sdk: String, platform: String, modelled: Bool)] = [
        ("iphoneos", "ios", true), ("macosx", "macos", true), ("watchos", "watchos", true),
        ("appletvos", "tvos", false), ("xros", "visionos", false),
    ]

    /// The platform kcs models that an SDK name builds for.
    private static func modelled(_ sdk: String) -> String? {
        sdkPlatforms.first { $0.modelled && sdk.hasPrefix($0.sdk) }?.platform
    }

    /// The SDKs a target builds with: `SUPPORTED_PLATFORMS` when it names
    /// them (Xcode builds for any of them, the destination picks; SDKROOT
    /// is only the default: sing-box's iOS tunnel sets SDKROOT = macosx and
    /// was left out of the iOS app; found on a real-project trial), else
    /// `SDKROOT`. Simulators are left out. A list the target only inherits
    /// from the project gives way to an SDKROOT the target sets itself, and
    /// a product only the Mac runs builds for the Mac (AltStore's project
    /// lists iOS and macOS for every target: its Mac app and XPC service
    /// were imported for iOS, its iPhone app for macOS; found on a
    /// real-project trial).
    private func platformSDKs(of target: Target, configuration: String) -> (sdks: [String], settings: BuildSettings, issues: [ProjectIssue]) {
        xcconfigs.platforms(target.id + "\u{0}" + configuration) { readPlatformSDKs(of: target, configuration: configuration) }
    }

    private func readPlatformSDKs(of target: Target, configuration: String) -> (sdks: [String], settings: BuildSettings, issues: [ProjectIssue]) {
        let (stack, issues) = assignments(for: target, configuration: configuration, sdk: "")
        let settings = BuildSettings(stack, context: SettingContext(sdk: "", configuration: configuration))
        if XcodeProject.macOnlyProductTypes.contains(target.productType) { return (["macosx"], settings, issues) }
        let sdkroot = settings.value(of: "SDKROOT").value.lowercased()
        // Distinct words, and only the platforms kcs knows of: a list naming
        // none (driverkit, a typo) falls back to SDKROOT (such a target was
        // skipped silently; found by adversarial testing).
        var seen = Set<String>()
        // A real list is a few words; its first 4 KB are read (20,000 words
        // split for each of 300 targets took 6 s; found by adversarial testing).
        let supported = settings.value(of: "SUPPORTED_PLATFORMS").value.prefix(4096).lowercased().split(separator: " ")
            .map(String.init).filter { !$0.hasSuffix("simulator") && !$0.isEmpty && seen.insert($0).inserted }
            .filter { Self.modelled($0) != nil || !otherPlatformNames([$0]).isEmpty }
        let root = Self.sdkName(sdkroot)
        if !supported.isEmpty {
            let own = targetLevelNames(target, configuration: configuration)
            if let root, !own.contains("SUPPORTED_PLATFORMS"), own.contains("SDKROOT"), supported.contains(root) { return ([root], settings, issues) }
            return (supported, settings, issues)
        }
        return (root.map { [$0] } ?? [], settings, issues)
    }

    /// The SDK an SDKROOT value names: `iphoneos`, `macosx`, or a path to
    /// an SDK (`…/iPhoneOS17.0.sdk`) by its platform; nil for `auto` or none.
    private static func sdkName(_ sdkroot: String) -> String? {
        if sdkroot == "auto" || sdkroot.isEmpty { return nil }
        let last = ProjectPath.lastComponent(sdkroot)
        return sdkPlatforms.map(\.sdk).first { last.hasPrefix($0) || last.contains($0 + ".") } ?? last
    }

    /// The settings the target's own level assigns in a configuration (its
    /// build settings and its xcconfig), not those it inherits from the project's.
    private func targetLevelNames(_ target: Target, configuration: String) -> Set<String> {
        guard let config = target.configurations.first(where: { $0.name == configuration }) else { return [] }
        var names = Set(config.settings.map(\.name))
        if let base = config.baseConfiguration {
            names.formUnion(xcconfigs.read(base, from: config.location, fileSystem: fileSystem, searchRoot: sourceRoot).0.map(\.name))
        }
        return names
    }

    /// The bundle ID, team and entitlements file of a target in one
    /// configuration on one platform. Nothing is guessed: a setting that does
    /// not resolve is left nil with a warning at the line that sets it.
    /// `team` (`--team`) stands in for a team the project leaves out or sets
    /// to something that expands to nothing, in every setting that uses it:
    /// Loop's `DEVELOPMENT_TEAM = $(LOOP_DEVELOPMENT_TEAM)`, left empty for
    /// a developer's override file, made its bundle IDs `com..loopkit.Loop`,
    /// and `--team` was ignored (real-project trial 14, D5).
    public func resolve(_ target: Target, configuration: String, platform: String, team given: String? = nil) -> ResolvedTarget {
        let sdk = Self.sdk(for: platform) ?? platform
        var (stack, stackIssues) = assignments(for: target, configuration: configuration, sdk: sdk)
        let settingContext = SettingContext(sdk: sdk, configuration: configuration)
        var settings = BuildSettings(stack, context: settingContext)
        // Refused by the budget: nothing is resolved, and nothing is said of
        // the target but the budget ("PRODUCT_BUNDLE_IDENTIFIER is not set"
        // was false; adversarial run 25, F5).
        if stackIssues.contains(where: { $0.message == budgetMessage }) {
            return ResolvedTarget(target: target, configuration: configuration, platform: platform, sdk: sdk, settings: settings,
                                  settingsAreComplete: false, bundleID: nil, bundleIDResolves: false, teamID: nil, entitlementsPath: nil,
                                  entitlementsLocation: nil, deploymentVersion: nil, issues: stackIssues)
        }
        // Also for a placeholder that is no team ID (Trio's `##TEAM_ID##`,
        // for a developer's override file; real-project trial 15, D7).
        let projectTeam = settings.value(of: "DEVELOPMENT_TEAM").value
        if let given, projectTeam.isEmpty && (settings.isDefined("DEVELOPMENT_TEAM") || (target.attributesTeam ?? "").isEmpty)
            || !projectTeam.isEmpty && !Team.isWellFormedID(projectTeam) {
            stack.append(SettingAssignment(name: "DEVELOPMENT_TEAM", value: given, location: nil))
            settings = BuildSettings(stack, context: settingContext)
        }
        var issues = stackIssues
        let context = "target '\(target.name)', configuration '\(configuration)'"

        var holes: Set<String> = []
        var emptiedBy: [String] = [], emptiedTeam = false
        // An xcconfig kcs could not read may be where an undefined setting
        // lives: said in the hint (WireGuard's unread Developer.xcconfig
        // holds $(APP_ID_IOS); real-project trial 18, W4).
        let undefinedHint = ProjectIssue.checkSpelling + ProjectIssue.unreadMayDefine(issues)
        /// Settings whose expansion failed (a cycle, a value cut at the
        /// length limit): what they give is no value.
        var broken: Set<String> = []
        /// The expanded value of a setting, with a warning for each problem.
        func value(_ name: String) -> String? {
            guard let definition = settings.definition(of: name) else { return nil }
            let e = settings.value(of: name)
            if !e.undefined.isEmpty || !e.problems.isEmpty { holes.insert(name) }
            if !e.problems.isEmpty { broken.insert(name) }
            let at = definition.location ?? target.location
            for p in e.problems { issues.append(ProjectIssue(.warning, "\(name) (\(context)): \(p)", at: at)) }
            if !e.undefined.isEmpty {
                // The team behind a setting each developer defines in a file
                // of their own (LoopFollow's `DEVELOPMENT_TEAM =
                // $(LF_DEVELOPMENT_TEAM)`, set in an absent `#include?` file):
                // the team's advice, not "check its spelling" (real-project trial 20, W1).
                // A setting that uses the team gets the same advice.
                let teamUndefined = name == "DEVELOPMENT_TEAM" ? e.undefined
                    : settings.definition(of: "DEVELOPMENT_TEAM") == nil ? [] : settings.value(of: "DEVELOPMENT_TEAM").undefined
                let hint = e.undefined.first(where: teamUndefined.contains).map { holder in
                    (name == "DEVELOPMENT_TEAM" ? "" : "$(\(holder)) is the team (DEVELOPMENT_TEAM uses it): ")
                        + (absentTeamFile(holder: holder, in: settings) ?? "define \(holder) as your team ID, or give --team TEAMID")
                        + ProjectIssue.unreadMayDefine(issues)
                } ?? undefinedHint
                var issue = ProjectIssue.undefined("\(name) (\(context))", uses: e.undefined, definedNowhere: "no level of the project defines",
                                                   at: at, hint: hint)
                issue.setting = name
                // What it leaves: an empty bundle ID is no app's (real-project trial 24, W3).
                if name == "PRODUCT_BUNDLE_IDENTIFIER", e.value.isEmpty { issue.message += ", which leaves the bundle ID empty" }
                issues.append(issue)
            }
            return e.value
        }

        var bundleID = value("PRODUCT_BUNDLE_IDENTIFIER")
        var bundleIDLocation = settings.definition(of: "PRODUCT_BUNDLE_IDENTIFIER")?.location ?? target.location
        if bundleID == nil, let plist = value("INFOPLIST_FILE"), !plist.isEmpty {
            // Older projects spell the bundle ID in Info.plist, with build settings in it.
            let path = self.path(fromSetting: plist)
            if let (raw, line) = xcconfigs.infoPlist(path, fileSystem: fileSystem)?["CFBundleIdentifier"] {
                let at = ProjectLocation(file: path, line: line)
                let e = settings.expand(raw)
                for p in e.problems { issues.append(ProjectIssue(.warning, "CFBundleIdentifier (\(context)): \(p)", at: at)) }
                if !e.undefined.isEmpty {
                    issues.append(.undefined("CFBundleIdentifier (\(context))", uses: e.undefined, definedNowhere: "no level of the project defines",
                                             at: at, hint: undefinedHint))
                }
                bundleID = e.value
                bundleIDLocation = at
                if !e.undefined.isEmpty || !e.problems.isEmpty { holes.insert("PRODUCT_BUNDLE_IDENTIFIER") }
                if !e.problems.isEmpty { broken.insert("PRODUCT_BUNDLE_IDENTIFIER") }
            }
        }
        // A bundle ID cut at the expansion limit was imported as the app's
        // (131,000 characters; found by adversarial testing): the warnings
        // say why, and the target is left out as unresolved.
        if broken.contains("PRODUCT_BUNDLE_IDENTIFIER") {
            bundleID = nil
        } else if bundleID == nil {
            issues.append(ProjectIssue(.warning, "PRODUCT_BUNDLE_IDENTIFIER is not set for \(context), and Info.plist gives no CFBundleIdentifier",
                                       at: target.location, hint: "set it in the target's build settings"))
        } else if let b = bundleID, b.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
                    || !b.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) {
            // A setting no level defines is already said at this line (KCS602).
            if b.isEmpty, let own = settings.definition(of: "PRODUCT_BUNDLE_IDENTIFIER"), own.value.allSatisfy(\.isWhitespace) {
                // Set empty on purpose, for each developer to fill in
                // (OnionBrowser's Config.xcconfig): what to set, not the shape
                // of a bundle ID (real-project trial 19, W8).
                let team = settings.definition(of: "DEVELOPMENT_TEAM").map { $0.value.allSatisfy(\.isWhitespace) } ?? false
                issues.append(ProjectIssue(.warning, "PRODUCT_BUNDLE_IDENTIFIER is set empty here for \(context)",
                                           at: bundleIDLocation,
                                           hint: "set it to the app's bundle ID" + (team ? ", and DEVELOPMENT_TEAM, also empty here, to your team ID" : "")
                                               + " (a project that leaves them for each developer to fill in: fill them in your copy)"))
            } else if !holes.contains("PRODUCT_BUNDLE_IDENTIFIER") {
                // Name what expanded to nothing, down to the setting set
                // empty: a team left empty for a developer's own override
                // file (Loop's `com..loopkit.Loop`).
                let empty = Self.emptied("PRODUCT_BUNDLE_IDENTIFIER", in: settings)
                emptiedBy = empty.flatMap(\.setEmpty)
                emptiedTeam = empty.contains { $0.team }
                var hint = ""
                if !empty.isEmpty {
                    hint = empty.map { "$(\($0.name))" }.joined(separator: ", ") + (empty.count == 1 ? " is" : " are") + " set to nothing here ("
                        + empty.flatMap(\.why).joined(separator: "; ") + ")"
                    var seen = Set<String>(), advice: [String] = []
                    let set = emptiedBy.filter { seen.insert($0).inserted }
                    if !set.isEmpty { advice.append("set " + set.joined(separator: ", ")) }
                    if emptiedTeam { advice.append("give --team TEAMID, which stands in for a team that expands to nothing") }
                    hint += (advice.isEmpty ? "" : ": " + advice.joined(separator: ", or ")) + "; "
                }
                issues.append(ProjectIssue(.warning, "the bundle ID of \(context) expands to '\(b.prefix(200))', which is not a bundle ID",
                                           at: bundleIDLocation, hint: hint + "a bundle ID is dot-separated parts of letters, digits and '-'"))
            }
            bundleID = nil
        }
        if platform == "catalyst", let b = bundleID, value("DERIVE_MACCATALYST_PRODUCT_BUNDLE_IDENTIFIER") == "YES" {
            bundleID = "maccatalyst." + b
        }

        let teamSetting = value("DEVELOPMENT_TEAM")
        var team = teamSetting.flatMap { $0.isEmpty ? nil : $0 }
        // Older Xcode versions kept the team in TargetAttributes; the build
        // setting wins when any level sets it, even to nothing (Simplenote's
        // `"DEVELOPMENT_TEAM[sdk=macosx*]" = ""` builds without a team; the
        // attributes' team was taken, with its groups, found on a real project).
        if teamSetting == nil, let attributes = target.attributesTeam, !attributes.isEmpty { team = attributes }
        if let t = team, !Team.isWellFormedID(t) {
            // The developer's own file the project expects (Trio's
            // ConfigOverride.xcconfig) is the fix; the setting that holds
            // the placeholder (Trio's DEVELOPER_TEAM) is what it sets.
            let holder = settings.assignments.last { $0.value == t }?.name ?? "DEVELOPMENT_TEAM"
            let override = absentTeamFile(holder: holder, in: settings).map { $0 + "; " } ?? "give --team TEAMID, which stands in for it; "
            issues.append(ProjectIssue(.warning, "DEVELOPMENT_TEAM of \(context) is '\(t)', which is not a team ID",
                                       at: settings.definition(of: "DEVELOPMENT_TEAM")?.location ?? target.location,
                                       hint: override + "a team ID is \(Team.idShape)"))
            team = nil
        }

        // A bundle ID that uses the team, itself a setting no level defines
        // (LoopFollow's `com.$(unique_id).LoopFollow`, `unique_id =
        // ${DEVELOPMENT_TEAM}`, `DEVELOPMENT_TEAM = $(LF_DEVELOPMENT_TEAM)`):
        // --team stands in for it, as for a team set to nothing (real-project trial 20, W1).
        if holes.contains("PRODUCT_BUNDLE_IDENTIFIER"), settings.definition(of: "DEVELOPMENT_TEAM") != nil,
           settings.definition(of: "PRODUCT_BUNDLE_IDENTIFIER") != nil {
            let teamUndefined = Set(settings.value(of: "DEVELOPMENT_TEAM").undefined)
            if !teamUndefined.isEmpty, !teamUndefined.isDisjoint(with: settings.value(of: "PRODUCT_BUNDLE_IDENTIFIER").undefined) { emptiedTeam = true }
        }

        var entitlementsPath: String?
        if let e = value("CODE_SIGN_ENTITLEMENTS"), !e.isEmpty { entitlementsPath = path(fromSetting: e) }

        let versionSetting = switch platform {
        case "macos": "MACOSX_DEPLOYMENT_TARGET"
        case "watchos": "WATCHOS_DEPLOYMENT_TARGET"
        default: "IPHONEOS_DEPLOYMENT_TARGET"
        }
        let version = value(versionSetting).flatMap { Int($0.split(separator: ".").first ?? "") }

        return ResolvedTarget(target: target, configuration: configuration, platform: platform, sdk: sdk, settings: settings,
                              settingsAreComplete: stackIssues.isEmpty,
                              bundleID: bundleID, bundleIDResolves: bundleID != nil && !holes.contains("PRODUCT_BUNDLE_IDENTIFIER"),
                              teamID: team, entitlementsPath: entitlementsPath,
                              entitlementsLocation: settings.definition(of: "CODE_SIGN_ENTITLEMENTS")?.location,
                              deploymentVersion: version, issues: issues, bundleIDEmptiedBy: emptiedBy, bundleIDEmptiedByTeam: emptiedTeam)
    }

    /// The settings `name`'s value uses, directly or through others (and
    /// `$(inherited)`), that expand to nothing, each with why: the
    /// assignments down to the one that sets a setting empty (`setEmpty`),
    /// and whether `DEVELOPMENT_TEAM` is among them.
    static func emptied(_ name: String, in settings: BuildSettings) -> [(name: String, why: [String], setEmpty: [String], team: Bool)] {
        /// The names an assignment of `n` and those below it that `$(inherited)` reaches use.
        func references(_ n: String) -> [String] {
            var out: [String] = [], below = settings.assignments.count, layers = 0
            while layers < 16, let i = settings.index(of: n, below: below) {
                layers += 1
                let names = referencedNames(in: settings.assignments[i].value)
                out += names.filter { $0 != "inherited" && $0 != n }
                guard names.contains("inherited") || names.contains(n) else { break }
                below = i
            }
            return out
        }
        func place(_ a: SettingAssignment) -> String {
            a.location.map { " (\(ProjectPath.lastComponent($0.file)):\($0.line))" } ?? ""
        }
        func isEmpty(_ n: String) -> Bool { settings.isDefined(n) && settings.value(of: n).value.isEmpty }
        var out: [(name: String, why: [String], setEmpty: [String], team: Bool)] = []
        var seen: Set<String> = [name], pending = references(name).reversed() as [String]
        while let n = pending.popLast(), seen.count < 64 {
            guard seen.insert(n).inserted, settings.isDefined(n) else { continue }
            guard isEmpty(n) else {
                pending += references(n).reversed()
                continue
            }
            var why: [String] = [], setEmpty: [String] = [], team = false
            var chain = [n], visited = Set<String>()
            while let m = chain.popLast(), visited.count < 16 {
                guard visited.insert(m).inserted, let d = settings.definition(of: m) else { continue }
                if m == "DEVELOPMENT_TEAM" { team = true }
                let next = references(m).filter(isEmpty)
                let v = d.value.trimmingCharacters(in: .whitespaces)
                if next.isEmpty {
                    why.append("\(m) is set " + (v.isEmpty || v == "\"\"" ? "empty" : "to '\(v.prefix(60))'") + place(d))
                    setEmpty.append(m)
                } else {
                    why.append("\(m) = \(v.prefix(60))" + place(d))
                    chain += next.reversed()
                }
            }
            out.append((n, why, setEmpty, team))
        }
        return out
    }

    /// What a target's Info.plist gives for a key.
    public enum InfoPlistString: Sendable {
        /// The string with build settings expanded, where it is set, and
        /// the build settings it names with the line that sets each, where
        /// a misspelt value would be (Linphone's APP_GROUP_NAME in
        /// Shared.xcconfig; real-project trial 15, D13).
        case value(String, location: ProjectLocation?, settings: [(name: String, location: ProjectLocation)])
        /// No Info.plist of the target sets it, and kcs read all that could:
        /// at run time the lookup gives nil.
        case unset
        /// Set, at `location`, to a value that names settings no level
        /// defines (they expand to nothing) or is malformed (`problems`).
        case unresolved(location: ProjectLocation?, undefined: [String], problems: [String])
        /// kcs could not read everything that may set it: why.
        case unread(String)
    }

    /// A string of a target's Info.plist with build settings expanded, and
    /// where it is: from the file `INFOPLIST_FILE` names, or, for a
    /// generated Info.plist, the `INFOPLIST_KEY_<key>` setting.
    public func infoPlistString(_ key: String, of target: ResolvedTarget) -> InfoPlistString {
        let settings = target.settings
        // The build expands these in Info.plist as in entitlements.
        let extra = target.teamID.map { ["AppIdentifierPrefix": $0 + ".", "TeamIdentifierPrefix": $0 + "."] } ?? [:]
        let file = settings.value(of: "INFOPLIST_FILE").value
        // Each Info.plist read and scanned once for all its keys (150 keys of
        // an 8 MB file read it 150 times; found by adversarial testing).
        // `KEY-iphoneos` or `KEY-macos` is KEY on that platform: CoreFoundation
        // folds it in when it loads the Info.plist (`_CFBundleInfoPlistProcessInfoDictionary`;
        // Userscripts' Safari extensions name their group so; real-project trial 14, D3).
        let platformKey = Self.infoPlistPlatformName(target.platform).map { key + "-" + $0 }
        let strings = file.isEmpty ? nil : xcconfigs.infoPlist(path(fromSetting: file), fileSystem: fileSystem)
        if let strings, let (raw, line) = platformKey.flatMap({ strings[$0] }) ?? strings[key] {
            let e = settings.expand(raw, extra: extra)
            let at = ProjectLocation(file: path(fromSetting: file), line: line)
            guard e.undefined.isEmpty && e.problems.isEmpty else { return .unresolved(location: at, undefined: e.undefined, problems: e.problems) }
            let named = Self.referencedNames(in: raw).compactMap { name in settings.definition(of: name)?.location.map { (name, $0) } }
            return .value(e.value, location: at, settings: named)
        }
        guard let definition = settings.definition(of: "INFOPLIST_KEY_" + key) else {
            if !file.isEmpty && strings == nil { return .unread("its Info.plist '\(path(fromSetting: file))' cannot be read") }
            if !target.settingsAreComplete { return .unread("not every xcconfig file of the target was read") }
            return .unset
        }
        let e = settings.expand("$(INFOPLIST_KEY_\(key))", extra: extra)
        guard e.undefined.isEmpty && e.problems.isEmpty else { return .unresolved(location: definition.location, undefined: e.undefined, problems: e.problems) }
        return .value(e.value, location: definition.location, settings: [])
    }

    /// The Info.plist file `INFOPLIST_FILE` names for a target, and the
    /// keys it sets with their lines (nil when it cannot be read): for a
    /// key no Info.plist of the target sets, the one a letter or two from
    /// it (Linphone's `APP_GROUP_NAM`; real-project trial 21, W3). Nil
    /// without a file.
    public func infoPlistKeys(of target: ResolvedTarget) -> (file: String, keys: [(key: String, location: ProjectLocation)]?)? {
        let file = target.settings.value(of: "INFOPLIST_FILE").value
        guard !file.isEmpty else { return nil }
        let path = path(fromSetting: file)
        let strings = xcconfigs.infoPlist(path, fileSystem: fileSystem)
        return (path, strings.map { $0.map { (key: $0.key, location: ProjectLocation(file: path, line: $0.value.1)) }.sorted { $0.key < $1.key } })
    }

    /// ``infoPlistKeys(of:)`` made once per Info.plist file (by its
    /// `INFOPLIST_FILE`), for every target that names it (adversarial run 28, F11).
    public final class InfoPlistKeyTables {
        private var tables: [String: (file: String, keys: [(key: String, location: ProjectLocation)]?)] = [:]
        /// Tables made.
        public private(set) var made = 0

        public init() {}

        public func keys(of target: ResolvedTarget, in project: XcodeProject) -> (file: String, keys: [(key: String, location: ProjectLocation)]?)? {
            let file = target.settings.value(of: "INFOPLIST_FILE").value
            guard !file.isEmpty else { return nil }
            if let known = tables[file] { return known }
            guard let table = project.infoPlistKeys(of: target) else { return nil }
            made += 1
            tables[file] = table
            return table
        }
    }

    /// How to give a target the team `holder` should hold: the optional
    /// includes absent beside where the team is set, the developer's own
    /// file the project expects (Trio's ConfigOverride.xcconfig,
    /// LoopFollow's LoopFollowConfigOverride.xcconfig): "F includes the
    /// absent I (#include?): create it with HOLDER = TEAMID, or give --team
    /// TEAMID"; nil when there is none.
    public func absentTeamFile(holder: String, in settings: BuildSettings) -> String? {
        // Every level that assigns the team or a setting it names (a
        // target's `DEVELOPER_TEAM = $(DEVELOPER_TEAM)` is the level below's).
        let names = Set(["DEVELOPMENT_TEAM"] + settings.assignments.filter { $0.name == "DEVELOPMENT_TEAM" }.flatMap { Self.referencedNames(in: $0.value) })
        var files: [String] = [], others: [String] = []
        for a in settings.assignments.reversed() {
            guard let file = a.location?.file, file.hasSuffix(".xcconfig") else { continue }
            if names.contains(a.name) {
                if !files.contains(file), files.count < 4 { files.append(file) }
            } else if !others.contains(file), others.count < 4 {
                others.append(file)
            }
        }
        // The one beside the file first (Trio tries ../../, ../ and its own
        // folder); else one of the target's other xcconfig files (LoopFollow
        // sets the team in the project, and Config.xcconfig includes the
        // absent LoopFollowConfigOverride.xcconfig; real-project trial 20, W1).
        func firstAbsent(in files: [String]) -> (String, String)? {
            files.flatMap { file in absentOptionalIncludes(of: file).map { (file, $0) } }
                .min { $0.1.split(separator: "/").count < $1.1.split(separator: "/").count }
        }
        let absent = firstAbsent(in: files) ?? firstAbsent(in: others.filter { !files.contains($0) })
        return absent.map { file, include in
            "\(ProjectPath.lastComponent(file)) includes the absent \(include) (#include?): create it with \(holder) = TEAMID, or give --team TEAMID"
        }
    }

    /// The files an xcconfig includes with `#include?` that do not exist,
    /// as written (a few at most).
    func absentOptionalIncludes(of file: String) -> [String] {
        guard file.hasSuffix(".xcconfig"), case .success(let bytes) = fileSystem.read(file, atMost: 1 << 20) else { return [] }
        var out: [String] = []
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) where out.count < 4 {
            let text = line.trimmingPrefix(while: { $0 == " " || $0 == "\t" })
            guard text.hasPrefix("#include?"), let open = text.firstIndex(of: "\"") else { continue }
            let rest = text[text.index(after: open)...]
            guard let close = rest.firstIndex(of: "\"") else { continue }
            let include = String(rest[..<close])
            let path = include.hasPrefix("/") ? include : ProjectPath.join(ProjectPath.directory(file), include)
            if !fileSystem.isFile(path) { out.append(include) }
        }
        return out
    }

    /// The platform CoreFoundation names in an Info.plist key's `-platform`
    /// suffix: `iphoneos` for iOS and watchOS, `macos` for the Mac. Nil for
    /// Mac Catalyst, whose name there kcs does not know (the plain key is read).
    static func infoPlistPlatformName(_ platform: String) -> String? {
        switch platform {
        case "ios", "watchos": "iphoneos"
        case "macos": "macos"
        default: nil
        }
    }

    /// The setting names a value refers to directly (`$(NAME)`, `$(NAME:op)`,
    /// `${NAME}`), each once, in order. One pass over the bytes: searching
    /// the rest for `$(` before each `${`, and each name among those found,
    /// took minutes for 10,000 references, and a `$(` anywhere hid every
    /// `${…}` before it (adversarial run 23, F1).
    static func referencedNames(in value: String) -> [String] {
        var names: [String] = []
        var seen = Set<Substring>()
        let utf8 = value.utf8
        var i = utf8.startIndex
        func isNameByte(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b >= 0x80
        }
        while i < utf8.endIndex {
            guard utf8[i] == UInt8(ascii: "$") else { utf8.formIndex(after: &i); continue }
            let open = utf8.index(after: i)
            guard open < utf8.endIndex, utf8[open] == UInt8(ascii: "(") || utf8[open] == UInt8(ascii: "{") else {
                i = open
                continue
            }
            let start = utf8.index(after: open)
            var end = start
            while end < utf8.endIndex, isNameByte(utf8[end]) { utf8.formIndex(after: &end) }
            // Non-ASCII bytes are kept whole and then trimmed to what the
            // old rule took: letters and digits (Character.isLetter/isNumber).
            let name = Substring(value[start..<end]).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if !name.isEmpty, seen.insert(name).inserted { names.append(String(name)) }
            i = start
        }
        return names
    }

    /// Every `<key>K</key>` followed by a `<string>` of an XML Info.plist,
    /// with its line, in one pass (the first of a key wins), found by
    /// scanning: a source Info.plist is XML, nothing else is needed from it,
    /// so nothing is decoded and nesting does not matter.
    static func infoPlistStrings(_ bytes: [UInt8]) -> [String: (String, Int)] {
        // On bytes: each search starts where the last ended, so the scan is
        // one pass however many keys the file has.
        func find(_ needle: String, from start: Int) -> Int? {
            let n = Array(needle.utf8)
            guard !n.isEmpty, bytes.count >= n.count else { return nil }
            var i = start
            while i + n.count <= bytes.count {
                if bytes[i] == n[0], bytes[i..<(i + n.count)].elementsEqual(n) { return i }
                i += 1
            }
            return nil
        }
        func text(_ range: Range<Int>) -> String {
            String(decoding: bytes[range], as: UTF8.self)
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        }
        var out: [String: (String, Int)] = [:]
        var line = 1, counted = 0, i = 0
        while let key = find("<key>", from: i), let keyEnd = find("</key>", from: key + 5) {
            let name = text((key + 5)..<keyEnd)
            var j = keyEnd + 6
            while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0A || bytes[j] == 0x0D { j += 1 }
            i = j
            guard bytes[j...].starts(with: "<string>".utf8) else { continue }
            // No closing tag after this one: none after any later key either.
            guard let close = find("</string>", from: j + 8) else { break }
            line += LineBreaks.count(in: bytes, counted..<(j + 8))
            counted = j + 8
            if out[name] == nil { out[name] = (text((j + 8)..<close), line) }
            i = close + 9
        }
        return out
    }
}
