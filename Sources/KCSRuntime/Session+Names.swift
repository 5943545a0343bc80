import KCSSyntax
import KeychainEngine

/// Names: apps, teams and devices looked up with "did you mean", and world errors as diagnostics.
extension Session {

    func resolveApp(_ name: Name, _ file: SourceFile) throws(Diagnostic) -> AppHandle {
        if let h = world.app(named: name.text) { return h }
        if let at = failedDeclarations[name.text] {
            throw Diagnostic(.unknownApp, "app '\(Suggest.shown(name.text))' was not declared: its declaration at \(at) failed",
                             file: file, range: name.range, hint: "fix the error reported there; nothing can use the app until it is declared")
        }
        let known = world.apps.map(\.name)
        var hint = Suggest.hint(for: name.text, in: known)
        if hint == nil, let byBundle = world.apps.first(where: { $0.bundleID == name.text }) {
            hint = "apps are named by the last bundle component or 'as NAME': did you mean '\(byBundle.name)'?"
        }
        throw Diagnostic(.unknownApp, "unknown app '\(Suggest.shown(name.text))'", file: file, range: name.range,
                         hint: hint ?? (known.isEmpty ? "declare it first: app com.example.\(Suggest.shown(name.text))"
                                                      : Suggest.listing("declared apps", known)))
    }

    /// A kept persistent reference or a declared context, by name.
    package func named<T>(_ name: Name, in table: [String: T], _ what: String, _ how: String, _ file: SourceFile,
                  hint: String) throws(Diagnostic) -> T {
        if let value = table[name.text] { return value }
        throw Diagnostic(.unknownName, "no \(what) named '\(name.text)' has been \(how)", file: file,
                         range: name.range, hint: Suggest.hint(for: name.text, in: table.keys.sorted()) ?? hint)
    }

    /// A team for `transfer`: a declared team's name or ID, or any well-formed team ID.
    func resolveTeamID(_ name: Name, _ file: SourceFile) throws(Diagnostic) -> String {
        if let team = world.team(named: name.text) { return team.id }
        if Team.isWellFormedID(name.text) { return name.text }
        let known = world.teams.map(\.name)
        throw Diagnostic(.unknownTeam, "unknown team '\(Suggest.shown(name.text))'", file: file, range: name.range,
                         hint: Suggest.hint(for: name.text, in: known)
                            ?? "name a declared team or a ten-character team ID")
    }

    func resolveDevice(_ name: Name?, _ file: SourceFile) throws(Diagnostic) -> DeviceHandle {
        guard let name else { return .this }
        if let d = world.device(named: name.text) { return d }
        let known = world.devices.map(\.name)
        throw Diagnostic(.unknownDevice, "unknown device '\(Suggest.shown(name.text))'", file: file, range: name.range,
                         hint: Suggest.hint(for: name.text, in: known) ?? Suggest.listing("devices", known))
    }

    func worldError(_ e: WorldError, _ file: SourceFile, _ range: SourceRange) -> Diagnostic {
        switch e {
        case .platformAfterApps:
            Diagnostic(.invalidDeclaration, "'platform' must come before the first 'app'", file: file, range: range)
        case .malformedTeamID(let id):
            Diagnostic(.invalidDeclaration, "'\(id)' is not a team ID", file: file, range: range,
                       hint: "a team ID is ten upper-case letters or digits")
        case .duplicateTeam(let n):
            Diagnostic(.invalidDeclaration, "team '\(n)' is already declared", file: file, range: range)
        case .unknownTeam(let n, let known):
            Diagnostic(.unknownTeam, "unknown team '\(n)'", file: file, range: range, hint: Suggest.hint(for: n, in: known))
        case .duplicateApp(let n):
            Diagnostic(.invalidDeclaration, "an app named '\(n)' is already declared", file: file, range: range,
                       hint: "give one of them another name with 'as NAME'")
        case .unknownApp(let n, let known):
            Diagnostic(.unknownApp, "unknown app '\(n)'", file: file, range: range, hint: Suggest.hint(for: n, in: known))
                .didYouMean(n, in: known)
        case .duplicateDevice(let n):
            Diagnostic(.invalidDeclaration, "device '\(n)' is already declared", file: file, range: range)
        case .unknownDevice(let n, let known):
            Diagnostic(.unknownDevice, "unknown device '\(n)'", file: file, range: range, hint: Suggest.hint(for: n, in: known))
        case .unknownBackup(let n, let known):
            Diagnostic(.unknownBackup, "no backup named '\(n)'", file: file, range: range,
                       hint: Suggest.hint(for: n, in: known) ?? "make one first: backup DEVICE as \(n)")
        case .groupNeedsTeam(let g, let app):
            Diagnostic(.invalidDeclaration, "'\(app)' has no team, so keychain group '\(g)' has no prefix", file: file,
                       range: range, hint: "declare a team before the app, or use an app group ('group.…')")
        }
    }
}
