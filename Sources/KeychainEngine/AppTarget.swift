/// A development team: the ten-character prefix Apple issues (`SKMME9E2Y8`).
public struct Team: Sendable, Hashable {
    public var id: String
    /// The name scripts use; the ID unless the declaration gave another.
    public var name: String

    public init(id: String, name: String? = nil) {
        self.id = id
        self.name = name ?? id
    }

    /// Whether `id` has the shape of a team ID: ten upper-case letters or digits.
    public static func isWellFormedID(_ id: String) -> Bool {
        id.utf8.count == 10 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
    }
}

/// What kind of executable a target is. Each has its own entitlements; an
/// extension inherits nothing from its containing app.
public enum TargetKind: String, Sendable, Hashable, CaseIterable {
    case app
    case `extension`
    case appClip = "app-clip"
}

/// An executable target with its own signed entitlements.
public struct AppTarget: Sendable, Hashable {
    public var name: String
    public var bundleID: String
    /// The team ID; nil for an unsigned build.
    public var teamID: String?
    public var kind: TargetKind
    /// `keychain-access-groups`, expanded, in entitlement order.
    public var keychainAccessGroups: [String]
    /// `com.apple.security.application-groups`, in entitlement order.
    public var applicationGroups: [String]
    /// Whether a provisioning profile validates the entitlements. On macOS an
    /// unprovisioned app cannot use the data-protection keychain.
    public var provisioned = true

    public init(name: String, bundleID: String, teamID: String?, kind: TargetKind = .app,
                keychainAccessGroups: [String] = [], applicationGroups: [String] = []) {
        self.name = name
        self.bundleID = bundleID
        self.teamID = teamID
        self.kind = kind
        self.keychainAccessGroups = keychainAccessGroups
        self.applicationGroups = applicationGroups
    }

    /// The application identifier, `TEAMID.BUNDLEID`; nil when unsigned.
    public var appID: String? { teamID.map { "\($0).\(bundleID)" } }

    /// The access-group list in the order `SecTaskCopyAccessGroups` builds it
    /// (OSX/sec/ipc/server_entitlement_helpers.c, Security-61901.0.87.0.1):
    /// keychain-access-groups, the app ID, then application groups. Nothing
    /// is removed or reordered, except that an App Clip (on-demand-install
    /// capable) gets no application groups: securityd ignores them for it.
    public var accessGroups: [String] {
        var list = keychainAccessGroups
        if let appID { list.append(appID) }
        if kind != .appClip { list.append(contentsOf: applicationGroups) }
        // com.apple.token is read-only, so it goes last: a write without an
        // explicit group must never default to it.
        if let i = list.firstIndex(of: Self.tokenGroup) {
            list.remove(at: i)
            list.append(Self.tokenGroup)
        }
        return list
    }

    /// `kSecAttrAccessGroupToken`: the read-only group of smart-card items.
    public static let tokenGroup = "com.apple.token"

    /// A target with neither an app ID nor keychain access groups is unsigned:
    /// every call fails with `errSecMissingEntitlement`.
    public var isUnsigned: Bool { appID == nil && keychainAccessGroups.isEmpty }

    /// Element 0 of the list, which is never an application group: the first
    /// keychain access group if there is one, else the app ID.
    public var defaultGroup: String? {
        if let first = keychainAccessGroups.first { return first }
        return appID
    }

    /// The entitled group that `group` names without its team prefix:
    /// `com.example.Shared` for `SKMME9E2Y8.com.example.Shared`.
    public func prefixedGroup(for group: String) -> String? {
        // A ten-character team ID and a dot, then exactly `group`; compared
        // on bytes, without building the list.
        let n = group.utf8.count
        func prefixes(_ entitled: String) -> Bool {
            let u = entitled.utf8
            return u.count == n + 11 && u.dropFirst(10).first == UInt8(ascii: ".")
                && u.dropFirst(11).elementsEqual(group.utf8)
        }
        if let g = keychainAccessGroups.first(where: prefixes) { return g }
        if let appID, prefixes(appID) { return appID }
        return applicationGroups.first(where: prefixes)
    }

    /// A group as `group NAME` writes it: without this app's team prefix,
    /// which that statement adds itself.
    public func withoutTeamPrefix(_ group: String) -> Substring {
        guard let teamID, group.hasPrefix(teamID + ".") else { return Substring(group) }
        return group.dropFirst(teamID.count + 1)
    }

    /// Whether `value` holds a `$(…)` build-setting reference, decided on
    /// its bytes (String.contains goes through the generic substring search).
    public static func hasBuildVariable(_ value: String) -> Bool {
        var dollar = false
        for b in value.utf8 {
            if dollar && b == UInt8(ascii: "(") { return true }
            dollar = b == UInt8(ascii: "$")
        }
        return false
    }

    /// Expands `$(AppIdentifierPrefix)` and `$(TeamIdentifierPrefix)` to `TEAMID.`,
    /// as the signed binary carries them.
    public static func expandEntitlement(_ value: String, teamID: String?) -> String {
        guard hasBuildVariable(value) else { return value }
        let prefix = teamID.map { $0 + "." } ?? ""
        return value
            .replacingOccurrences(of: "$(AppIdentifierPrefix)", with: prefix)
            .replacingOccurrences(of: "$(TeamIdentifierPrefix)", with: prefix)
    }
}

extension String {
    /// A dependency-free replace, so the engine needs no Foundation.
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let r = rest.range(of: target) {
            result += rest[..<r.lowerBound]
            result += replacement
            rest = rest[r.upperBound...]
        }
        result += rest
        return result
    }
}

extension Substring {
    func range(of target: String) -> Range<Substring.Index>? {
        let t = Array(target.utf8)
        let u = self.utf8
        var i = u.startIndex
        while i != u.endIndex {
            var j = i, k = 0
            while k < t.count, j != u.endIndex, u[j] == t[k] { j = u.index(after: j); k += 1 }
            if k == t.count { return i..<j }
            i = u.index(after: i)
        }
        return nil
    }
}
