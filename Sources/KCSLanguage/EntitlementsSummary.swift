import KCSRuntime
import KeychainEngine

/// What `kcs lint --entitlements FILE` prints: the team, the application
/// identifier, the access-group list in order and an `app` line for a
/// scenario, with lint warnings about the groups.
public enum EntitlementsSummary {
    /// The text, the diagnostics and the exit code (0 clean, 1 warnings,
    /// 64 the file needs --team or --bundle-id, 66 unreadable or malformed).
    public static func describe(path: String, team: String? = nil, bundleID: String? = nil,
                                loader: any SourceLoader = FileSystemLoader()) -> (String, [Diagnostic], Verdict) {
        let source: SourceFile
        do { source = try loader.read(loader.resolve(path, relativeTo: nil)) } catch {
            return ("", [Diagnostic(error.code, error.message(for: path))], .missingInput)
        }
        switch Entitlements.decode(source.bytes) {
        case .failure(let e):
            return ("", [Diagnostic(.malformedEntitlements, "\(path): \(e.message)", hint: e.hint)], .missingInput)
        case .success(let e):
            return describe(e, path: path, team: team, bundleID: bundleID)
        }
    }

    static func describe(_ e: Entitlements, path: String, team: String?, bundleID: String?) -> (String, [Diagnostic], Verdict) {
        // A plain Xcode .entitlements file names neither: Xcode fills in the
        // team and the app ID when it signs. Ask for what is missing at once,
        // in the command line's own words (exit 64, a usage error).
        let variables = (e.keychainAccessGroups ?? []) + (e.applicationGroups ?? [])
        let needsTeam = e.teamID == nil && team == nil
            && variables.contains(where: AppTarget.needsTeam)
        let bundle = bundleID ?? e.bundleID
        if bundle == nil || needsTeam {
            var missing: [String] = [], flags: [String] = []
            if needsTeam { missing.append("no team for $(AppIdentifierPrefix)"); flags.append("--team TEAMID") }
            if bundle == nil { missing.append("no application-identifier naming the app"); flags.append("--bundle-id com.example.App") }
            return ("", [Diagnostic(.malformedEntitlements,
                                    "\(path): the file gives \(missing.joined(separator: " and ")), as an Xcode .entitlements file before signing does",
                                    hint: "give \(flags.count == 1 ? "it" : "them") on the command line: kcs lint --entitlements \(path) \(flags.joined(separator: " "))")],
                    .invalidRequest)
        }
        guard let bundle else { return ("", [], .invalidRequest) }
        let resolved: ResolvedEntitlements
        switch e.resolve(bundleID: bundle, scriptTeam: team, explicitTeam: team != nil) {
        case .success(let r): resolved = r
        case .failure(let err):
            return ("", [Diagnostic(.malformedEntitlements, "\(path): \(err.message)", hint: err.hint)], .missingInput)
        }
        let target = AppTarget(name: bundle.split(separator: ".").last.map(String.init) ?? bundle, bundleID: bundle,
                               teamID: resolved.teamID, keychainAccessGroups: resolved.keychainAccessGroups,
                               applicationGroups: resolved.applicationGroups)
        // Values from the file on one line each, line breaks and controls
        // written `\u{…}`: a newline in an identifier would otherwise start
        // a line of its own in the text to paste ("in a scenario:").
        func one(_ s: String) -> String { TerminalText.escaped(s) }
        var out = "\(one(path)): \(e.source == .profile ? "provisioning profile" : "entitlements")\n"
        out += "team: \(one(resolved.teamID ?? "none"))\n"
        out += "application-identifier: \(one(e.applicationIdentifier ?? target.appID.map { "\($0) (from the team and bundle ID)" } ?? "none"))\n"
        // The keys as the file spells them (Entitlements.Key).
        out += "\(Entitlements.Key.keychainAccessGroups.rawValue): [\(resolved.keychainAccessGroups.map(one).joined(separator: ", "))]\n"
        out += "\(Entitlements.Key.applicationGroups.rawValue): [\(resolved.applicationGroups.map(one).joined(separator: ", "))]\n"
        out += "access groups, in order:\n"
        if target.isUnsigned { out += "  none: unsigned (no team, no keychain-access-groups, no application groups)\n" }
        for (i, g) in target.accessGroups.enumerated() { out += "  \(i). \(one(g))\(i == 0 ? "  (default)" : "")\n" }
        out += "in a scenario:\n"
        // The team came from --team: the scenario must declare it.
        // Written as the script would read them back: a word, or a string
        // with its escapes (an identifier with a control character printed
        // escaped but unquoted did not parse; found by adversarial testing).
        if e.teamID == nil, let t = resolved.teamID { out += "  team \(ScriptText.literal(t))\n" }
        out += "  app \(ScriptText.literal(bundle)) entitlements=\(ScriptText.quoted(path))\n"
        var diagnostics: [Diagnostic] = []
        // The file does not say its platform: team-prefixed app groups,
        // valid on macOS, are not flagged.
        for f in EntitlementShape.check(keychainAccessGroups: resolved.keychainAccessGroups,
                                        applicationGroups: resolved.applicationGroups, teamID: resolved.teamID, macOS: true,
                                        bundleIDs: BundleIDIndex([bundle]), appIDPrefix: resolved.appIDPrefix,
                                        previousAppIDPrefixes: e.previousAppIDPrefixes, fromProfile: e.source == .profile) {
            diagnostics.append(Diagnostic(f.code, "\(path): \(f.message)", severity: .warning, hint: f.hint))
        }
        if resolved.keychainAccessGroups.contains(where: { $0.hasSuffix("*") }) {
            out += "note: a profile's wildcard group allows any group with that prefix; the signed app lists the ones it uses\n"
        }
        return (out, diagnostics, diagnostics.isEmpty ? .passed : .failed)
    }
}
