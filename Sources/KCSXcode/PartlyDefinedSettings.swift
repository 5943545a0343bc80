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
            uses.append(Use(setting: setting, target: s.target.name, configuration: s.configuration, location: issue.location))
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
            if !inOtherConfigurations.isEmpty {
                let targets = Set(inOtherConfigurations.map(\.target))
                let setIn = defined.filter { targets.contains($0.target) }
                let configurations = Self.names(Self.unique(setIn.map(\.configuration)), "configuration")
                let lacking = Self.unique(inOtherConfigurations.map(\.configuration)).map { "'\($0)'" }.joined(separator: ", ")
                let values = Self.unique(setIn.map(\.value))
                out.append(note(
                    "$(\(setting)) is set only in \(configurations)\(values.count == 1 ? " ('\(values[0])')" : ""): in \(lacking) Xcode expands it to nothing for "
                        + Self.names(Self.unique(inOtherConfigurations.map(\.target)), "target") + Self.places(inOtherConfigurations),
                    at: inOtherConfigurations.first?.location,
                    hint: "a value only some builds add (a suffix for Debug) is as meant; if \(lacking) needs it too, define it there",
                    setAt: setIn.first.map { ("'\($0.configuration)' sets it here", $0.location) }, &render))
            }
            if !nowhere.isEmpty {
                let lacking = Self.names(Self.unique(nowhere.map(\.target)), "target")
                out.append(note(
                    "$(\(setting)) is set by \(Self.names(Self.unique(defined.map(\.target)), "target")), not by \(lacking), where Xcode expands it to nothing"
                        + Self.places(nowhere),
                    at: nowhere.first?.location,
                    hint: "a value only some targets add (a suffix of the extensions' bundle IDs) is as meant; if \(lacking) needs it too, define it there",
                    setAt: defined.first.map { ("target '\($0.target)' sets it here", $0.location) }, &render))
            }
        }
        return out
    }

    private func note(_ message: String, at: ProjectLocation?, hint: String, setAt: (String, ProjectLocation?)?,
                      _ render: inout ProjectDiagnostics) -> Diagnostic {
        var d = render.diagnostic(ProjectIssue(.warning, message, at: at, hint: hint), code: .projectSetting,
                                  notes: setAt.map { [render.note($0.0, at: $0.1)] } ?? [])
        d.severity = .note
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
