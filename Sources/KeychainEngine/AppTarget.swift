/// A development team: the ten-character prefix Apple issues (`SKMME9E2Y8`).
public struct Team: Sendable, Hashable {
    public var id: String
    /// The name scripts use; the ID unless the declaration gave another.
    public var name: String

    public init(id: String, name: String? = nil) {
        self.id = id
        self.name = name ?? id
    }

    /// A team ID's shape as messages say it (``isWellFormedID(_:)`` is the rule).
    public static let idShape = "ten upper-case letters or digits"
    /// The hint said wherever a text is refused as a team ID.
    public static let idHint = "a team ID is \(idShape), e.g. SKMME9E2Y8"

    /// Whether `id` has the shape of a team ID: ten upper-case letters or digits.
    public static func isWellFormedID(_ id: String) -> Bool {
        id.utf8.count == 10 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) }
    }

    /// A group's first component when it is a team ID: `SKMME9E2Y8.x` →
    /// `SKMME9E2Y8`; nil for `group.x` or `helloworld.x` (ten characters,
    /// but no team ID). The one test of "a team prefix" (review 22a, R12:
    /// it was re-derived as "ten characters and a dot").
    public static func prefix(of group: String) -> Substring? {
        guard let dot = group.firstIndex(of: ".") else { return nil }
        let head = group[..<dot]
        return isWellFormedID(String(head)) ? head : nil
    }

    /// The rest of a group after its team prefix: `SKMME9E2Y8.x` → `x`.
    public static func withoutPrefix(_ group: String) -> Substring? {
        prefix(of: group).map { group[group.index(after: $0.endIndex)...] }
    }
}

/// What kind of executable a target is. Each has its own entitlements; an
/// extension inherits nothing from its containing app.
public enum TargetKind: String, Sendable, Hashable, CaseIterable {
    case app
    case `extension`
    case appClip = "app-clip"
}

/// How a target is signed, which on macOS (and Mac Catalyst, whose keychain
/// daemon is the Mac's) decides which entitlements count
/// (server_entitlement_helpers.c `SecTaskCopyAccessGroups`).
public enum Signing: String, Sendable, Hashable, CaseIterable {
    /// A provisioning profile validates the entitlements.
    case provisioned
    /// Signed with an app ID but no profile: `SecTaskEntitlementsValidated`
    /// is false, so only keychain-access-groups count.
    case unprovisioned
    /// Signed (a team) but without an application-identifier entitlement,
    /// e.g. Developer ID without keychain entitlements.
    case noAppID = "no-app-id"
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
    /// How the target is signed; matters on macOS and Mac Catalyst.
    public var signing: Signing = .provisioned
    /// `com.apple.developer.associated-application-identifier` (Mac Catalyst):
    /// app IDs that join the access groups after keychain-access-groups.
    public var associatedApplicationIdentifiers: [String] = []
    /// The App ID prefix when it is not the team ID: an App ID made before
    /// 2011 kept its own "bundle seed ID". The signed application-identifier
    /// carries it and securityd appends that string as it is
    /// (`SecTaskCopyApplicationIdentifier`, server_entitlement_helpers.c
    /// lines 104 and 127-128; the team identifier is never read for access
    /// groups). `$(AppIdentifierPrefix)` expands to it, `$(TeamIdentifierPrefix)`
    /// to the team. Nil: the team ID.
    public var appIDPrefix: String?

    /// Whether a provisioning profile validates the entitlements.
    public var provisioned: Bool {
        get { signing == .provisioned }
        set { signing = newValue ? .provisioned : .unprovisioned }
    }

    /// The group of CryptoTokenKit items, readable by every app and never
    /// writable (SecItem.h `kSecAttrAccessGroupToken`).
    public static let tokenGroup = "com.apple.token"
    /// ``tokenGroup`` as text, as a call's group is compared.
    public static let tokenGroupText = AttributeText(tokenGroup)

    public init(name: String, bundleID: String, teamID: String?, kind: TargetKind = .app,
                keychainAccessGroups: [String] = [], applicationGroups: [String] = []) {
        self.name = name
        self.bundleID = bundleID
        self.teamID = teamID
        self.kind = kind
        self.keychainAccessGroups = keychainAccessGroups
        self.applicationGroups = applicationGroups
    }

    /// The application identifier, `TEAMID.BUNDLEID`; nil when unsigned or
    /// signed without one (`signing=no-app-id`).
    public var appID: String? { signing == .noAppID ? nil : teamID.map { "\(appIDPrefix ?? $0).\(bundleID)" } }

    /// Whether the app's application groups are among its access groups: an
    /// App Clip's are ignored (`SecTaskCopyAccessGroups`, "Ignoring … because
    /// client is API-restricted").
    public var listsApplicationGroups: Bool { kind != .appClip }

    /// The access-group list in the order `SecTaskCopyAccessGroups` builds it
    /// (OSX/sec/ipc/server_entitlement_helpers.c, Security-61901.0.87.0.1):
    /// keychain-access-groups, associated application identifiers, the app
    /// ID, then application groups. Nothing is removed or reordered, except
    /// that an App Clip (on-demand-install capable) gets no application
    /// groups (securityd ignores them for it) and a listed `com.apple.token`
    /// moves to the end.
    public var accessGroups: [String] { list(macDaemon: false) }

    /// The list as a device of `platform` builds it: the Mac's daemon
    /// (macOS, Mac Catalyst) builds ``macAccessGroups``, the others
    /// ``accessGroups``.
    public func accessGroups(on platform: Platform) -> [String] {
        list(macDaemon: platform.usesMacDaemon, appendsToken: platform.appendsTokenGroup)
    }

    /// The list the Mac's keychain daemon builds (macOS and Mac Catalyst):
    /// without a validating profile only keychain-access-groups count; then
    /// `com.apple.token` is appended, unless the app has an app ID and
    /// nothing counted ("entitlementsFailure": the app meant to use the
    /// keychain and should see errSecMissingEntitlement). Security-59754 and
    /// later (`#if TARGET_OS_OSX` in `SecTaskCopyAccessGroups`), and on every
    /// platform in Security-58286 and 59306 (macOS 10.13-10.15).
    public var macAccessGroups: [String] { list(macDaemon: true) }

    func list(macDaemon: Bool, appendsToken: Bool = false) -> [String] {
        var list: [String] = []
        list.reserveCapacity(keychainAccessGroups.count + applicationGroups.count + 2)
        forEachAccessGroup(macDaemon: macDaemon, appendsToken: appendsToken) { name, _ in list.append(name) }
        return list
    }

    /// Where an entry of an access-group list comes from; the cases are in
    /// list order.
    public enum GroupSource: Sendable, Hashable {
        case keychainAccessGroups, associatedApplicationIdentifiers, appID, applicationGroups
        /// The read-only token group, moved or appended to the end.
        case tokenGroup
    }

    /// The list entry by entry, with where each comes from: the one
    /// statement of the order, for ``accessGroups``, ``macAccessGroups`` and
    /// the world's cached lists, which insert a keychain access group or an
    /// application group appended later at the end of its run. Off the Mac
    /// only the first listed `com.apple.token` moves to the end; the Mac's
    /// daemon drops every listed one and appends it once (unless an app ID
    /// was left with nothing). Returns whether an application group
    /// appended later joins this list (not an App Clip's, nor on the Mac
    /// without a validating profile).
    /// `appendsToken`: a device whose daemon appends the token group to the
    /// list of every process with entitlements (iOS 10-13, watchOS 3-6:
    /// ``Platform/appendsTokenGroup``); as on the Mac, a listed one goes
    /// to the end once.
    @discardableResult
    public func forEachAccessGroup(macDaemon: Bool, appendsToken: Bool = false,
                                   _ body: (String, GroupSource) -> Void) -> Bool {
        let token = Self.tokenGroup
        let keychainGroupsOnly = macDaemon && signing == .unprovisioned
        let appended = macDaemon || appendsToken
        var tokenListed = false, any = false
        func run(_ names: some Sequence<String>, _ source: GroupSource) {
            for name in names {
                any = true
                // com.apple.token is read-only, so it goes last: a write
                // without an explicit group must never default to it.
                if name == token && (appended || !tokenListed) { tokenListed = true; continue }
                body(name, source)
            }
        }
        run(keychainAccessGroups, .keychainAccessGroups)
        if !keychainGroupsOnly {
            run(associatedApplicationIdentifiers, .associatedApplicationIdentifiers)
            if let appID { run(CollectionOfOne(appID), .appID) }
            if listsApplicationGroups { run(applicationGroups, .applicationGroups) }
        }
        // Off the Mac a process without entitlements keeps an empty list
        // here: its calls are answered apart (``World`` `unentitledTokenGroupCall`).
        if tokenListed || (macDaemon && (any || appID == nil)) || (appendsToken && any) { body(token, .tokenGroup) }
        return !keychainGroupsOnly && listsApplicationGroups
    }

    /// A target whose list is empty off the Mac, with neither an app ID,
    /// keychain access groups nor application groups (an App Clip's do not
    /// count), is unsigned: every call fails with `errSecMissingEntitlement`
    /// (SecItemServer.c refuses an empty list only, `SecEntitlementError`;
    /// `SecTaskCopyAccessGroups` adds application groups with or without an
    /// app ID, server_entitlement_helpers.c line 127).
    public var isUnsigned: Bool {
        // Whether there is an app ID, without building it (this is on every call's path).
        (teamID == nil || signing == .noAppID) && keychainAccessGroups.isEmpty && associatedApplicationIdentifiers.isEmpty
            && (applicationGroups.isEmpty || !listsApplicationGroups)
    }

    /// Element 0 of the list, never the read-only token group (an add
    /// without a group takes `client->accessGroups[0]`, SecItemServer.c
    /// line 2721; writes drop the token group,
    /// `SecurityClientCopyWritableAccessGroups`): the first keychain access
    /// group if there is one, else the first associated application
    /// identifier, else the app ID; an application group only when there is
    /// none of those (an app without an app ID whose only entitlement is
    /// application-groups).
    public var defaultGroup: String? {
        (keychainAccessGroups + associatedApplicationIdentifiers + [appID].compactMap { $0 }
            + (listsApplicationGroups ? applicationGroups : []))
            .first { $0 != Self.tokenGroup }
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
        // The app ID is TEAMID.BUNDLEID: with a ten-character team ID that
        // is the bundle ID, compared without building the app ID.
        if signing != .noAppID, let teamID {
            if teamID.utf8.count == 10 {
                if bundleID == group { return appID }
            } else if let appID, prefixes(appID) {
                return appID
            }
        }
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
        // In place when the string is contiguous (native strings are): lint
        // asks this of every group a call names and the caller lacks.
        value.utf8.withContiguousStorageIfAvailable { hasBuildVariable(in: $0) } ?? hasBuildVariable(bytes: value.utf8)
    }

    /// The same in place, eight bytes at a time: a word without a '$' holds
    /// no start of "$(" (byte by byte, a group of 30 bytes took some 240
    /// instructions, asked of every group a call names and lacks).
    public static func hasBuildVariable(in b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = b.count
        guard n >= 2, let base = b.baseAddress else { return false }
        var i = 0
        while i &+ 8 <= n {
            // A zero byte of x is a '$' of the word (the exact has-zero test).
            let x = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ 0x2424_2424_2424_2424
            if (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0 { break }
            i &+= 8
        }
        while i &+ 1 < n {
            if base[i] == UInt8(ascii: "$") && base[i &+ 1] == UInt8(ascii: "(") { return true }
            i &+= 1
        }
        return false
    }

    private static func hasBuildVariable(bytes: some Sequence<UInt8>) -> Bool {
        var dollar = false
        for b in bytes {
            if dollar && b == UInt8(ascii: "(") { return true }
            dollar = b == UInt8(ascii: "$")
        }
        return false
    }

    /// Whether an entitlement value needs a team to expand: it names
    /// `$(AppIdentifierPrefix)` or `$(TeamIdentifierPrefix)`.
    public static func needsTeam(_ value: String) -> Bool {
        value.contains("$(AppIdentifierPrefix)") || value.contains("$(TeamIdentifierPrefix)")
    }

    /// Expands `$(AppIdentifierPrefix)` to the App ID prefix (`appIDPrefix`,
    /// else the team ID) and `$(TeamIdentifierPrefix)` to the team ID, each
    /// with its dot, as the signed binary carries them.
    public static func expandEntitlement(_ value: String, teamID: String?, appIDPrefix: String? = nil) -> String {
        guard hasBuildVariable(value) else { return value }
        let team = teamID.map { $0 + "." } ?? ""
        let app = teamID == nil ? "" : appIDPrefix.map { $0 + "." } ?? team
        return value
            .replacingOccurrences(of: "$(AppIdentifierPrefix)", with: app)
            .replacingOccurrences(of: "$(TeamIdentifierPrefix)", with: team)
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
