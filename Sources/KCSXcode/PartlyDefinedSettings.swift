import KCSLanguage
import KCSXcodeProject

/// Settings a value uses that its target leaves undefined in a
/// configuration, while another configuration of it, or another target,
/// defines them: a suffix only Debug adds (`BUNDLE_ID_SUFFIX = .dev`), or
/// one only the extensions add (`PROVISIONING_SUFFIX`). "No level of the
/// project defines" was untrue, and each target and value said it again:
/// 31 of Home Assistant's 34 warnings (real-project trial 15, D5). Said once
/// per setting, as a note naming where it is set and where it is not.
struct PartlyDefinedSettings {
    /// Where one setting is set: a target, a configuration, its value and line.
    struct Definition {
        var target: String
        var configuration: String
        var value: String
        var location: ProjectLocation?
    }

    private struct Use {
        var setting: String
        var target: String
        var configuration: String
        var location: ProjectLocation?
        /// The group it leaves with an empty part, and whether a keychain group.
        var emptyPart: String?
        var keychain = false
    }

    private var uses: [Use] = []
    /// Where each setting asked about is set, found once.
    private var known: [String: [Definition]] = [:]
    private let definitions: (String) -> [Definition]

    /// `definitions`: where the project sets a setting, in any target and configuration.
    init(definitions: @escaping (String) -> [Definition]) {
        self.definitions = definitions
    }

    private mutating func definitions(of setting: String) -> [Definition] {
        if let d = known[setting] { return d }
        let d = definitions(setting)
        known[setting] = d
        return d
    }

    /// Keeps `issue` if every setting it says is undefined is set elsewhere,
    /// and no xcconfig of the signing is unreadable: then the setting may
    /// well be in it (IceCubes' Debug xcconfig is a developer's own file),
    /// and the warning stays.
    mutating func take(_ issue: ProjectIssue, of s: TargetSigning) -> Bool {
        guard !issue.undefinedSettings.isEmpty, !issue.notPartial, !s.issues.contains(where: { $0.unreadXCConfig != nil }),
              issue.undefinedSettings.allSatisfy({ !definitions(of: $0).isEmpty }) else { return false }
        for setting in issue.undefinedSettings {
            uses.append(Use(setting: setting, target: s.target.name, configuration: s.configuration, location: issue.location,
                            emptyPart: issue.emptyPart, keychain: issue.emptyPartIsKeychainGroup))
        }
        return true
    }

    /// One note per setting and kind: set in other configurations of the
    /// targets that lack it, or only by other targets.
    func diagnostics(_ render: inout ProjectDiagnostics) -> [Diagnostic] {
        var out: [Diagnostic] = []
        var order: [String] = []
        var bySetting: [String: [Use]] = [:]
        for u in uses {
            if bySetting[u.setting] == nil { order.append(u.setting) }
            bySetting[u.setting, default: []].append(u)
        }
        for setting in order {
            let all = bySetting[setting] ?? [], defined = known[setting] ?? []
            let definers = Set(defined.map(\.target))
            // A target that sets it in another configuration, or one that never does.
            let (inOtherConfigurations, nowhere) = (all.filter { definers.contains($0.target) }, all.filter { !definers.contains($0.target) })
            // A group left with an empty part (the setting is its whole
            // name) is a mistake in the group, a warning as KCS510/KCS511 say
            // it elsewhere, not a suffix as meant: DuckDuckGo's
            // `$(AppIdentifierPrefix)$(VAULT_APP_GROUP)`, set only for Alpha,
            // was a note here and a warning in the imported scenario
            // (real-project trial 24, D3).
            func emptied(_ uses: [Use]) -> Use? { uses.first { $0.emptyPart != nil } }
            if !inOtherConfigurations.isEmpty {
                let targets = Set(inOtherConfigurations.map(\.target))
                let setIn = defined.filter { targets.contains($0.target) }
                let configurations = Self.names(Self.unique(setIn.map(\.configuration)), "configuration")
                let lacking = Self.unique(inOtherConfigurations.map(\.configuration)).map { "'\($0)'" }.joined(separator: ", ")
                let values = Self.unique(setIn.map(\.value))
                let empty = emptied(inOtherConfigurations)
                out.append(note(
                    "$(\(setting)) is set only in \(configurations)\(values.count == 1 ? " ('\(values[0])')" : ""): in \(lacking) Xcode expands it to nothing for "
                        + Self.names(Self.unique(inOtherConfigurations.map(\.target)), "target")
                        + (empty?.emptyPart.map { ", which leaves the group \($0) with an empty part" } ?? "") + Self.places(inOtherConfigurations),
                    at: (empty ?? inOtherConfigurations.first)?.location,
                    hint: empty == nil ? "a value only some builds add (a suffix for Debug) is as meant; if \(lacking) needs it too, define it there"
                        : "define it in \(lacking) too, or list the group only in the entitlements of the configurations that set it: "
                            + "a group with an empty part is no group another target shares",
                    setAt: setIn.first.map { ("'\($0.configuration)' sets it here", $0.location) }, emptyPart: empty, &render))
            }
            if !nowhere.isEmpty {
                let lacking = Self.names(Self.unique(nowhere.map(\.target)), "target")
                let empty = emptied(nowhere)
                out.append(note(
                    "$(\(setting)) is set by \(Self.names(Self.unique(defined.map(\.target)), "target")), not by \(lacking), where Xcode expands it to nothing"
                        + (empty?.emptyPart.map { ", which leaves the group \($0) with an empty part" } ?? "") + Self.places(nowhere),
                    at: (empty ?? nowhere.first)?.location,
                    hint: empty == nil ? "a value only some targets add (a suffix of the extensions' bundle IDs) is as meant; if \(lacking) needs it too, define it there"
                        : "define it for \(lacking) too, or take the group out of \(nowhere.count == 1 ? "its" : "their") entitlements: "
                            + "a group with an empty part is no group another target shares",
                    setAt: defined.first.map { ("target '\($0.target)' sets it here", $0.location) }, emptyPart: empty, &render))
            }
        }
        return out
    }

    /// A note, or for a use that leaves a group with an empty part, a warning (KCS510, or KCS511 for an app group).
    private func note(_ message: String, at: ProjectLocation?, hint: String, setAt: (String, ProjectLocation?)?, emptyPart: Use? = nil,
                      _ render: inout ProjectDiagnostics) -> Diagnostic {
        let code: DiagnosticCode = emptyPart.map { $0.keychain ? .lintUnprefixedEntitlement : .lintAppGroupShape } ?? .projectSetting
        var d = render.diagnostic(ProjectIssue(.warning, message, at: at, hint: hint), code: code,
                                  notes: setAt.map { [render.note($0.0, at: $0.1)] } ?? [])
        if emptyPart == nil { d.severity = .note }
        return d
    }

    private static func unique(_ list: [String]) -> [String] {
        var seen = Set<String>()
        return list.filter { seen.insert($0).inserted }
    }

    /// "target 'A'", "targets 'A', 'B' and 'C'", "targets 'A', 'B', 'C' and 9 more".
    private static func names(_ list: [String], _ kind: String) -> String {
        let quoted = list.map { "'\($0)'" }
        if quoted.count == 1 { return "\(kind) \(quoted[0])" }
        if quoted.count <= 4 { return "\(kind)s " + quoted.dropLast().joined(separator: ", ") + " and " + quoted[quoted.count - 1] }
        return "\(kind)s " + quoted.prefix(3).joined(separator: ", ") + " and \(quoted.count - 3) more"
    }

    /// " (at X:13, Y:35)": the distinct places that use it, three at most.
    private static func places(_ uses: [Use]) -> String {
        let at = unique(uses.compactMap { u in u.location.map { "\(ProjectPath.lastComponent($0.file)):\($0.line)" } })
        guard !at.isEmpty else { return "" }
        return " (at " + at.prefix(3).joined(separator: ", ") + (at.count > 3 ? " and \(at.count - 3) more" : "") + ")"
    }
}
