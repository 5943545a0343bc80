import KCSSyntax
import KeychainEngine

/// Declarations: apps from options, entitlements files and Xcode projects, and how they are signed.
extension Session {
    /// Declares the app; returns warnings (a project setting defined nowhere).
    /// `budget`: the run's, whose time limit holds while a project is read.
    mutating func declareApp(_ decl: AppDeclaration, _ file: SourceFile, _ range: SourceRange,
                             _ budget: RunBudget) throws(Diagnostic) -> [Diagnostic] {
        if decl.entitlements != nil {
            try declareApp(fromEntitlements: decl, file)
            return []
        }
        if decl.project != nil {
            // Session+Project.swift resolves the target; the world is changed here.
            let p = try projectApp(decl, file, budget)
            do throws(WorldError) {
                let handle = try world.addApp(bundleID: p.bundleID, name: decl.name, teamID: p.teamID, kind: p.kind,
                                              keychainAccessGroups: p.keychainAccessGroups, applicationGroups: p.applicationGroups)
                if !decl.provisioned { world.setProvisioned(false, for: handle) }
                if !p.associatedApplicationIdentifiers.isEmpty {
                    world.setAssociatedApplicationIdentifiers(p.associatedApplicationIdentifiers, for: handle)
                }
            } catch {
                throw worldError(error, file, decl.bundleID.range)
            }
            return p.warnings
        }
        var teamID: String?
        if let t = decl.team {
            if t.text == "none" && !world.teams.isEmpty { appsWithoutTeam.insert(decl.name) }
            if t.text != "none" {
                guard let team = world.team(named: t.text) else {
                    let known = world.teams.lazy.map(\.name)
                    throw Diagnostic(.unknownTeam, "unknown team '\(Suggest.shown(t.text))'", file: file, range: t.range,
                                     hint: suggestion(for: t.text, in: \.teams)
                                        ?? (known.isEmpty ? "declare it first: team \(t.text)" : Suggest.listing("declared teams", known)))
                }
                teamID = team.id
            }
        } else {
            teamID = world.defaultTeam?.id
        }
        do throws(WorldError) {
            let handle = try world.addApp(bundleID: decl.bundleID.text, name: decl.name, teamID: teamID, kind: decl.kind,
                                          keychainAccessGroups: decl.keychainAccessGroups?.map(\.text) ?? [],
                                          applicationGroups: decl.applicationGroups?.map(\.text) ?? [],
                                          appIDPrefix: decl.appIDPrefix?.text)
            applySigning(decl, handle)
        } catch {
            throw worldError(error, file, decl.alias?.range ?? decl.bundleID.range)
        }
        return []
    }

    /// `app BUNDLEID entitlements="PATH"`: the team, app ID and groups come from the file.
    mutating func declareApp(fromEntitlements decl: AppDeclaration, _ file: SourceFile) throws(Diagnostic) {
        guard let path = decl.entitlements else { return }
        let entitlements = try decodedEntitlements(path, file)
        var scriptTeam: String?
        if let t = decl.team {
            if t.text == "none" && !world.teams.isEmpty { appsWithoutTeam.insert(decl.name) }
            if t.text != "none" {
                guard let team = world.team(named: t.text) else {
                    throw Diagnostic(.unknownTeam, "unknown team '\(Suggest.shown(t.text))'", file: file, range: t.range,
                                     hint: "declare it first: team \(t.text)")
                }
                scriptTeam = team.id
            }
        } else {
            scriptTeam = world.defaultTeam?.id
        }
        let resolved: ResolvedEntitlements
        switch entitlements.resolve(bundleID: decl.bundleID.text, scriptTeam: scriptTeam, explicitTeam: decl.team != nil) {
        case .success(let r): resolved = r
        case .failure(let e):
            throw Diagnostic(.invalidDeclaration, "\(path.text): \(e.message)", file: file, range: path.range, hint: e.hint)
        }
        do throws(WorldError) {
            let handle = try world.addApp(bundleID: decl.bundleID.text, name: decl.name, teamID: resolved.teamID, kind: decl.kind,
                                          keychainAccessGroups: resolved.keychainAccessGroups,
                                          applicationGroups: resolved.applicationGroups, appIDPrefix: resolved.appIDPrefix)
            if !resolved.associatedApplicationIdentifiers.isEmpty {
                world.setAssociatedApplicationIdentifiers(resolved.associatedApplicationIdentifiers, for: handle)
            }
            applySigning(decl, handle)
        } catch {
            throw worldError(error, file, decl.alias?.range ?? decl.bundleID.range)
        }
    }

    /// The entitlements file `path` names, read and decoded once per run
    /// (``DeclarationFiles``).
    private mutating func decodedEntitlements(_ path: Name, _ file: SourceFile) throws(Diagnostic) -> Entitlements {
        let resolvedPath = loader.resolve(path.text, relativeTo: file.name)
        if let known = declarationFiles.entitlements[resolvedPath] { return known }
        let source: SourceFile
        do throws(LoadError) { source = try loader.read(resolvedPath) } catch {
            throw Diagnostic(error.code, error.message(for: path.text), file: file, range: path.range,
                             hint: error.hint(otherwise: "paths in entitlements= are relative to the script"))
        }
        switch Entitlements.decode(source.bytes) {
        case .success(let e):
            declarationFiles.entitlements[resolvedPath] = e
            return e
        case .failure(let e):
            throw Diagnostic(.malformedEntitlements, "\(path.text): \(e.message)", file: file, range: path.range, hint: e.hint)
        }
    }

    /// The signing shade and associated application identifiers of a declared app.
    mutating func applySigning(_ decl: AppDeclaration, _ handle: AppHandle) {
        if decl.effectiveSigning != .provisioned { world.setSigning(decl.effectiveSigning, for: handle) }
        if let ids = decl.associatedApplicationIdentifiers {
            world.setAssociatedApplicationIdentifiers(ids.map(\.text), for: handle)
        }
    }
}
