import KeychainEngine

/// What `kcs lint --entitlements FILE` prints: the team, the application
/// identifier, the access-group list in order and an `app` line for a
/// scenario, with lint warnings about the groups.
public enum EntitlementsSummary {
    /// The text, the diagnostics and the exit code (0 clean, 1 warnings,
    /// 66 unreadable or malformed).
    public static func describe(path: String, team: String? = nil, bundleID: String? = nil,
                                loader: any SourceLoader = FileSystemLoader()) -> (String, [Diagnostic], Int32) {
        let source: SourceFile
        do { source = try loader.read(loader.resolve(path, relativeTo: nil)) } catch {
            return ("", [Diagnostic(error.code, error.message(for: path))], 66)
        }
        switch Entitlements.decode(source.bytes) {
        case .failure(let e):
            return ("", [Diagnostic(.malformedEntitlements, "\(path): \(e.message)", hint: e.hint)], 66)
        case .success(let e):
            return describe(e, path: path, team: team, bundleID: bundleID)
        }
    }

    static func describe(_ e: Entitlements, path: String, team: String?, bundleID: String?) -> (String, [Diagnostic], Int32) {
        guard let bundle = bundleID ?? e.bundleID else {
            return ("", [Diagnostic(.malformedEntitlements,
                                    "\(path): no application-identifier names the app (or it ends in *)",
                                    hint: "give the bundle ID: --bundle-id com.example.App")], 66)
        }
        let resolved: ResolvedEntitlements
        switch e.resolve(bundleID: bundle, scriptTeam: team, explicitTeam: team != nil) {
        case .success(let r): resolved = r
        case .failure(let err):
            return ("", [Diagnostic(.malformedEntitlements, "\(path): \(err.message)", hint: err.hint)], 66)
        }
        let target = AppTarget(name: bundle.split(separator: ".").last.map(String.init) ?? bundle, bundleID: bundle,
                               teamID: resolved.teamID, keychainAccessGroups: resolved.keychainAccessGroups,
                               applicationGroups: resolved.applicationGroups)
        var out = "\(path): \(e.source == .profile ? "provisioning profile" : "entitlements")\n"
        out += "team: \(resolved.teamID ?? "none")\n"
        out += "application-identifier: \(e.applicationIdentifier ?? target.appID.map { "\($0) (from the team and bundle ID)" } ?? "none")\n"
        out += "keychain-access-groups: [\(resolved.keychainAccessGroups.joined(separator: ", "))]\n"
        out += "com.apple.security.application-groups: [\(resolved.applicationGroups.joined(separator: ", "))]\n"
        out += "access groups, in order:\n"
        if target.isUnsigned { out += "  none: unsigned (no team, no keychain-access-groups)\n" }
        for (i, g) in target.accessGroups.enumerated() { out += "  \(i). \(g)\(i == 0 ? "  (default)" : "")\n" }
        out += "in a scenario:\n  app \(bundle) entitlements=\"\(path)\"\n"
        var diagnostics: [Diagnostic] = []
        for (message, hint) in Session.lintEntitlementGroups(resolved.keychainAccessGroups, teamID: resolved.teamID) {
            diagnostics.append(Diagnostic(.lintUnprefixedEntitlement, "\(path): \(message)", severity: .warning, hint: hint))
        }
        if resolved.keychainAccessGroups.contains(where: { $0.hasSuffix("*") }) {
            out += "note: a profile's wildcard group allows any group with that prefix; the signed app lists the ones it uses\n"
        }
        return (out, diagnostics, diagnostics.isEmpty ? 0 : 1)
    }
}
