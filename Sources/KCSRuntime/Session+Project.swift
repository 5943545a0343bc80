import KCSSyntax
import KCSXcodeProject
import KeychainEngine

/// An app as an Xcode project builds it, for `app NAME project="…"`.
package struct ProjectApp {
    package var bundleID: String
    package var teamID: String?
    package var kind: TargetKind
    package var keychainAccessGroups: [String]
    package var applicationGroups: [String]
    /// `com.apple.developer.associated-application-identifier` (Mac Catalyst).
    package var associatedApplicationIdentifiers: [String]
    /// Settings the project uses and defines nowhere, expanded to nothing as
    /// Xcode does, and xcconfig files that do not read: warnings at the
    /// declaration.
    package var warnings: [Diagnostic]
}

extension Session {
    /// Resolves `app NAME project="App.xcodeproj" [target="T"] [configuration="C"]`
    /// through the same code as `kcs import xcode`, on the script's platform.
    /// Anything that does not resolve is an error at the declaration, with a
    /// note at the project line responsible: a script never runs on a guess.
    /// Two kinds are warnings, as in `kcs import xcode` and `kcs lint
    /// --project`, and the app is declared: a setting no level defines, which
    /// Xcode expands to nothing (real projects leave `$(BUNDLE_ID_SUFFIX)`
    /// unset for Release), so the value is the one Xcode builds; and an
    /// xcconfig file that cannot be read, its settings left out (CocoaPods'
    /// `Pods/Target Support Files/…` before `pod install`, a template not
    /// copied yet: every target of a fresh CocoaPods clone was refused, while
    /// the import carried on; real-project trial 18, D3/D4). What a value then
    /// leaves undefined, or a team it lacks, is said in its turn. Everything
    /// else stays an error: no bundle ID, a team that is no team ID, an
    /// entitlements file that does not read or a group that needs a team
    /// (the app's groups would be a guess), an xcconfig kcs cannot follow.
    ///
    /// The run's time limit holds while the project is read (`budget`'s
    /// deadline, ``LoaderProjectFileSystem/deadline``): past it, the run
    /// stops at the project's name, what was read left unused.
    mutating func projectApp(_ decl: AppDeclaration, _ file: SourceFile, _ budget: RunBudget) throws(Diagnostic) -> ProjectApp {
        guard let projectName = decl.project else {
            throw Diagnostic(.invalidDeclaration, "no project= given", file: file, range: decl.bundleID.range)
        }
        // Paths as a Mac finds them, whatever the case (CaseFoldingFileSystem).
        let fileSystem = CaseFoldingFileSystem(LoaderProjectFileSystem(loader: loader, deadline: budget.deadline))
        /// Throws when the deadline passed while the project was read.
        func stopIfLate() throws(Diagnostic) {
            guard budget.isOverTime else { return }
            throw RunBudget.limitDiagnostic(RunBudget.overTimeMessage(budget.limits) + " while '\(projectName.text)' was read",
                                            file, projectName.range)
        }
        var render = ProjectDiagnostics(fileSystem: fileSystem)
        let project: XcodeProject
        let resolvedPath = loader.resolve(projectName.text, relativeTo: file.name)
        switch declarationFiles.projects[resolvedPath].map({ .success($0) })
                ?? XcodeProject.load(resolvedPath, fileSystem: fileSystem, again: "run the script again") {
        case .success(let p):
            try stopIfLate()
            project = p
            declarationFiles.projects[resolvedPath] = p
        case .failure(let issue):
            try stopIfLate()
            throw Diagnostic(.projectUnreadable, issue.message, file: file, range: projectName.range,
                             hint: issue.hint ?? "paths in project= are relative to the script",
                             notes: issue.location == nil ? [] : [render.note("here", at: issue.location)])
        }
        let targetName = decl.target ?? decl.bundleID
        guard let target = project.targets.first(where: { $0.name == targetName.text }) else {
            let names = project.targets.map(\.name)
            throw Diagnostic(.invalidDeclaration, "\(projectName.text) has no target '\(targetName.text)'", file: file, range: targetName.range,
                             hint: Suggest.hint(for: targetName.text, in: names) ?? "targets: " + names.joined(separator: ", "))
        }
        guard let productKind = target.kind else {
            throw Diagnostic(.invalidDeclaration, "target '\(target.name)' builds \(target.productType), not an app or extension",
                             file: file, range: targetName.range, notes: [render.note("the target", at: target.location)])
        }
        let configuration = decl.configuration?.text ?? project.defaultConfiguration
        guard project.configurations.contains(where: { $0.name == configuration }) else {
            let names = project.configurations.map(\.name)
            throw Diagnostic(.invalidDeclaration, "\(projectName.text) has no configuration '\(configuration)'", file: file,
                             range: decl.configuration?.range ?? projectName.range,
                             hint: Suggest.hint(for: configuration, in: names) ?? "configurations: " + names.joined(separator: ", "))
        }
        let platform = world.platform.family.rawValue
        let platforms = project.platforms(of: target, configuration: configuration).platforms
        guard platforms.contains(platform) else {
            // The declaration that helps, or that none does (real-project trial 19, W11).
            let others = project.otherPlatforms(of: target, configuration: configuration)
            let hint = !platforms.isEmpty ? "declare 'platform \(platforms[0])' before the first app"
                : !others.isEmpty ? "it builds for \(others.joined(separator: ", ")), which kcs does not model: no 'platform' declaration brings it in"
                : "kcs cannot tell which platform it builds for (SDKROOT is not set, or set in an xcconfig kcs cannot read)"
            throw Diagnostic(.invalidDeclaration, "target '\(target.name)' does not build for \(platform) (it builds for \(platforms.isEmpty ? "no platform kcs models" : platforms.joined(separator: ", ")))",
                             file: file, range: targetName.range, hint: hint)
        }
        // team= stands in for a target whose project sets no team; team=none signs nothing.
        var fallbackTeam = world.defaultTeam?.id
        if let t = decl.team {
            fallbackTeam = t.text == "none" ? nil : try resolveTeamID(t, file)
        }
        let signing = TargetSigning.resolve(project, target, configuration: configuration, platform: platform, team: fallbackTeam,
                                            fileSystem: fileSystem)
        try stopIfLate()
        // An xcconfig that does not read may be why the app cannot be built
        // (its bundle ID or team was there): said with the error.
        let unread = signing.issues.filter { $0.unreadXCConfig != nil }.map { render.note($0.message, at: $0.location) }
        if let issue = signing.issues.first(where: { $0.undefinedSettings.isEmpty && $0.unreadXCConfig == nil }) {
            throw Diagnostic(.projectSetting, issue.message, file: file, range: projectName.range, hint: issue.hint.map(Self.inScript),
                             notes: [render.note("here", at: issue.location)] + unread)
        }
        guard let bundleID = signing.resolved.bundleID else {
            // The cause at the project line responsible: a setting defined
            // nowhere, or an xcconfig not read, with its advice (the template
            // to copy; real-project trial 20, D8: the error came bare).
            let causes = signing.issues.filter { !$0.undefinedSettings.isEmpty || $0.unreadXCConfig != nil }
            throw Diagnostic(.projectSetting, "the bundle ID of target '\(target.name)' does not resolve", file: file, range: targetName.range,
                             hint: causes.lazy.compactMap(\.hint).first.map(Self.inScript),
                             notes: causes.map { render.note($0.message, at: $0.location) })
        }
        return ProjectApp(bundleID: bundleID, teamID: decl.team?.text == "none" ? nil : signing.resolved.teamID,
                          kind: TargetKind(rawValue: productKind.scenarioKind) ?? .app,
                          keychainAccessGroups: signing.keychainAccessGroups.map(\.value),
                          applicationGroups: signing.applicationGroups.map(\.value),
                          associatedApplicationIdentifiers: signing.associatedApplicationIdentifiers.map(\.value),
                          warnings: signing.issues.map {
                              Diagnostic(.projectSetting, $0.message, file: file, range: projectName.range, severity: .warning, hint: $0.hint.map(Self.inScript),
                                         notes: [render.note("here", at: $0.location)])
                          })
    }

    /// A project finding's advice as a script gives it: `team=TEAMID` on
    /// the app's line where the command line gives `--team TEAMID`
    /// (real-project trial 20, D8).
    static func inScript(_ hint: String) -> String {
        hint.replacingOccurrences(of: "--team TEAMID", with: "team=TEAMID on the app's line")
    }
}
