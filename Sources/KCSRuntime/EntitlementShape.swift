import KCSSyntax
import KeychainEngine

/// Mistakes in the shape of entitlement values, wherever they are written:
/// an `.entitlements` file (`kcs lint --entitlements`, `app … entitlements=`),
/// an inline `keychain-access-groups=[…]` or `application-groups=[…]`, or a
/// group named in a call. One check and one wording serve all of them, so
/// the same mistake gets the same warning and the same fix everywhere.
public enum EntitlementShape {
    /// One mistake: the group as written, what is wrong, and the fix.
    public struct Finding: Sendable, Hashable {
        public var code: DiagnosticCode
        public var group: String
        public var message: String
        public var hint: String
        /// The value the fix writes instead, when there is one.
        public var fix: String?
        /// When following the fix would do harm (the group has shipped and
        /// holds items), said in the hint, and kept when the hint becomes
        /// "already lists …: drop …".
        public var caveat: String?
    }

    /// Apple's own groups, such as `com.apple.token` (kSecAttrAccessGroupToken
    /// for CryptoTokenKit items), carry no team prefix and are no mistake.
    static func isApples(_ group: String) -> Bool { group.hasPrefix("com.apple.") }

    /// A group with an empty part: a dot at either end, or two together.
    public static func hasEmptyPart(_ group: String) -> Bool {
        group.contains("..") || group.hasPrefix(".") || group.hasSuffix(".")
    }

    /// The first component, when it is a team ID: `SKMME9E2Y8.x` → `SKMME9E2Y8`.
    static func teamPrefix(of group: String) -> Substring? { Team.prefix(of: group) }

    /// A `keychain-access-groups` value, expanded: an app group among the
    /// keychain groups, or a group without the team prefix.
    /// `bundleIDs`: the bundle IDs of the apps in view, whose app IDs
    /// (`TEAM.` + bundle ID) are groups of their own even when the bundle ID
    /// starts with something shaped like a team ID.
    /// `appIDPrefix`: a legacy App ID prefix, whose groups are the app's own.
    /// `previousAppIDPrefixes`: the prefixes of `previous-application-identifiers`
    /// (``Entitlements/previousAppIDPrefixes``), whose groups are the app's
    /// own from before a transfer.
    /// `listedBy`: who else lists a group (`target 'Share'`), by group, for
    /// a did-you-mean that names the group a sibling holds.
    /// `fromProfile`: the list is a provisioning profile's, whose team
    /// wildcard (`TEAMID.*`) is what a profile grants, no mistake (review 22a, R11).
    public static func keychainGroup(_ group: String, teamID: String?, bundleIDs: BundleIDIndex = BundleIDIndex(),
                                     appIDPrefix: String? = nil, previousAppIDPrefixes: Set<String> = [],
                                     listedBy: [String: String] = [:], fromProfile: Bool = false) -> Finding? {
        if group.contains("$(") || isApples(group) { return nil }
        if fromProfile && group.hasSuffix("*") && teamPrefix(of: group) != nil { return nil }
        // A provisioning profile's TEAMID.* copied into the signed
        // entitlements (fastlane sigh resign without the app's entitlements
        // takes the profile's; fastlane issue 4397): securityd treats only a
        // bare "*" specially (SecItemServer.c `CFArrayContainsValue(accessGroups,
        // …, CFSTR("*"))`), so this is one literal group, holding nothing the
        // app's real groups hold (QA s21, Q11).
        // The group is valid, and when it is the first, the default one,
        // items stored without kSecAttrAccessGroup live in it: the shipped
        // caveat, as for the other renames (Blockstream Green lists
        // D9W37S9468.* first in its app and extension, and reads its old
        // items from it; real-project trial 23, W1).
        if group.hasSuffix(".*"), let team = teamPrefix(of: group), group.count == team.count + 2 {
            let caveat = shippedGroupCaveat(group) + "; when it is listed first, it is the default group, which holds every item stored without kSecAttrAccessGroup"
            return Finding(code: .lintUnprefixedEntitlement, group: group,
                           message: "keychain group \(group) is a provisioning profile's wildcard: in an app's signed entitlements it is one group "
                               + "of that literal name (securityd expands only a bare \"*\"), which shares items only with targets that list the same literal",
                           hint: "list the groups the app uses, each with the team prefix ($(AppIdentifierPrefix)com.example.shared); "
                               + "a re-signing tool that takes the profile's entitlements (fastlane sigh resign without --entitlements) copies the wildcard; "
                               + caveat,
                           fix: nil, caveat: caveat)
        }
        // "*" is every group to securityd (SecServerAccessGroupsAllows), a
        // right of Apple's own processes; TEAMID.* is a provisioning
        // profile's wildcard, never a group a signed app holds.
        if group.contains("*") {
            return Finding(code: .lintUnprefixedEntitlement, group: group,
                           message: "keychain group \(group) is a wildcard, which an app's signed entitlements never hold",
                           hint: "list the groups the app uses, each with the team prefix "
                               + "($(AppIdentifierPrefix)com.example.shared); a wildcard belongs in a provisioning profile",
                           fix: nil)
        }
        // An empty part: a setting that expands to nothing, or a dot too many
        // (eduVPN's `$(AppIdentifierPrefix).$(APP_ID)` gave TEAM..org.…; found
        // on a real-project trial). The group is valid, but no other
        // target writes it so.
        if hasEmptyPart(group) {
            let fixed = group.split(separator: ".", omittingEmptySubsequences: true).joined(separator: ".")
            // The team prefix and nothing after it (`HKE973VLUW.`, from
            // `$(AppIdentifierPrefix)$(VAULT_APP_GROUP)` where the setting is
            // unset): the group's name is what is missing, and "did you mean
            // HKE973VLUW?" offered a bare team ID (real-project trial 24, D3).
            if let team = teamPrefix(of: group), fixed == team {
                return Finding(code: .lintUnprefixedEntitlement, group: group,
                               message: "keychain group \(group) has an empty part: it is the team prefix with no name after it",
                               hint: "a setting that names the group expands to nothing here: define it, or take the entry out",
                               fix: nil)
            }
            return Finding(code: .lintUnprefixedEntitlement, group: group,
                           message: "keychain group \(group) has an empty part",
                           hint: "a setting expands to nothing, or the value has a dot too many ($(AppIdentifierPrefix) ends with one): did you mean \(fixed)?",
                           fix: fixed)
        }
        if group.hasPrefix("group.") {
            return Finding(code: .lintUnprefixedEntitlement, group: group,
                           message: "keychain-access-groups lists the app group \(group)",
                           hint: "app groups belong in application-groups (com.apple.security.application-groups)", fix: nil)
        }
        if let prefix = teamPrefix(of: group) {
            if let doubled = doubledPrefix(group, bundleIDs: bundleIDs, previousAppIDPrefixes: previousAppIDPrefixes, listedBy: listedBy) {
                return doubled
            }
            guard let teamID, prefix != teamID, String(prefix) != appIDPrefix, !previousAppIDPrefixes.contains(String(prefix)),
                  doubledPrefixParts(group) == nil else { return nil }
            // A bundle ID shaped like TEAM.x, written without the prefix.
            if bundleIDs.isOrPrefixes(group) { return unprefixed(group, teamID) }
            return otherTeams(group, prefix: String(prefix), teamID: teamID)
        }
        guard let teamID else { return nil }
        return unprefixed(group, teamID)
    }

    /// A keychain group without the team prefix. A provisioning profile
    /// grants `TEAMID.*` keychain groups only, and a restricted entitlement
    /// the profile does not allow stops the app (AMFI: on the Mac it is
    /// killed at launch, zoidsh/meru pull request 842, "The application
    /// "Meru.app" can't be opened"; on iOS it does not install): said in
    /// the message, as for another team's prefix (QA s21, Q32: kcs answered
    /// the calls of an app that cannot run, and said only "does not carry
    /// the team prefix").
    private static func unprefixed(_ group: String, _ teamID: String) -> Finding {
        let fixed = "\(teamID).\(group)"
        return Finding(code: .lintUnprefixedEntitlement, group: group,
                       message: "keychain group \(group) does not carry the team prefix \(teamID).: no provisioning profile allows it "
                           + "(\(teamID)'s profiles grant \(teamID).* groups), so a device does not launch an app signed with it (on iOS it does not install)",
                       hint: "did you mean \(fixed)? keychain groups carry the team ID: write \(fixed) "
                           + "(in an .entitlements file $(AppIdentifierPrefix)\(group), as Xcode's Keychain Sharing writes it)",
                       fix: fixed)
    }

    /// A keychain group with another team's prefix. securityd compares
    /// strings and would share it (SecServerAccessGroupsAllows,
    /// SecItemServer.c), but a provisioning profile grants only its own
    /// team's groups (`TEAMID.*`), and a device refuses to launch an app
    /// whose signed entitlements the profile does not allow: access groups
    /// share items within one team (found by a conformance audit; kcs let
    /// the app read the other team's items).
    private static func otherTeams(_ group: String, prefix: String, teamID: String) -> Finding {
        let bare = String(group.dropFirst(prefix.count + 1)), fixed = "\(teamID).\(bare)"
        // No third-party project is named in the hint ("IceCubes ships such
        // a group" meant nothing to a user; real-project trial 24, W5).
        let caveat = "unless \(prefix) is the app's own legacy App ID "
            + "prefix (an App ID made before 2011 has one, and its profile grants \(prefix).* groups), "
            + "which a scenario says with app-id-prefix=, or the app came from team \(prefix) by a transfer, which "
            + "previous-application-identifiers says (\(prefix).BUNDLEID): then the group holds the items its users stored before"
        return Finding(code: .lintUnprefixedEntitlement, group: group,
                       message: "keychain group \(group) carries the prefix of team \(prefix), but the app is signed by team \(teamID)",
                       hint: "a provisioning profile of \(teamID) grants only \(teamID).* groups, and a device does not launch an app "
                           + "its profile does not allow: keychain groups share items within one team. Write \(fixed) "
                           + "($(AppIdentifierPrefix)\(bare) in an .entitlements file); " + caveat,
                       fix: fixed, caveat: caveat)
    }

    /// A keychain group with a second team ID after the first, as
    /// `$(AppIdentifierPrefix)TEAMID.com.example.shared` writes it: the
    /// prefix already adds the team (found on SimpleLogin, whose three
    /// targets share the doubled group and use the default one).
    /// `TEAM.TEAM.x` (or `TEAM.OTHER.x`) → `TEAM.x`; nil for any other shape.
    public static func withoutDoubledPrefix(_ group: String) -> String? {
        doubledPrefixParts(group).map { "\($0.first).\($0.bare)" }
    }

    /// `TEAM.OTHER.x` → (`TEAM`, `OTHER`, `x`).
    private static func doubledPrefixParts(_ group: String) -> (first: String, second: String, bare: String)? {
        guard let first = teamPrefix(of: group) else { return nil }
        let rest = String(group.dropFirst(first.count + 1))
        guard let second = teamPrefix(of: rest) else { return nil }
        return (String(first), String(second), String(rest.dropFirst(second.count + 1)))
    }

    private static func doubledPrefix(_ group: String, bundleIDs: BundleIDIndex, previousAppIDPrefixes: Set<String>,
                                      listedBy: [String: String]) -> Finding? {
        guard let (first, second, bare) = doubledPrefixParts(group) else { return nil }
        // An app ID whose bundle ID starts with a team-shaped word is no
        // doubled prefix: Monal's bundle ID is G7YU7X7KRJ.SworIM, and
        // $(AppIdentifierPrefix)G7YU7X7KRJ.SworIM is its app ID, shared with
        // its extension (the fix said to write $(AppIdentifierPrefix)SworIM,
        // a group neither holds; found on a real-project trial).
        let rest = String(group.dropFirst(first.count + 1))
        // The app ID of an app in view, a group under it, or that of the app
        // an extension in view sits in (its bundle ID is the app's plus more).
        if bundleIDs.isOrPrefixes(rest) || bundleIDs.hasOne(under: rest) { return nil }
        // A bundle ID in view starts with the second word: the group is
        // under that app's ID, misspelt or not, and no team's. A typo of
        // Monal's app ID ($(AppIdentifierPrefix)G7YU7X7KRJ.SwrIM) was told to
        // drop G7YU7X7KRJ, where KCS604's near miss names the app ID
        // (real-project trial 23, D4).
        if bundleIDs.isOrPrefixes(second) { return nil }
        let caveat = shippedGroupCaveat(group)
        // The second prefix is the app's previous one, or a sibling lists the
        // group under it: that group is the one meant, written out, not the
        // team's (Simplenote's intents extension wrote
        // $(AppIdentifierPrefix)4ESDVWK654.… "to match share extension",
        // which lists 4ESDVWK654.…; real-project trial 15, D2).
        let previous = "\(second).\(bare)"
        if first != second, previousAppIDPrefixes.contains(second) || listedBy[previous] != nil {
            var why: [String] = []
            if previousAppIDPrefixes.contains(second) { why.append("\(second) is the app's previous App ID prefix (previous-application-identifiers)") }
            if let who = listedBy[previous] { why.append("\(who) lists it") }
            return Finding(code: .lintUnprefixedEntitlement, group: group,
                           message: "keychain group \(group) carries two team prefixes, \(first). and \(second).",
                           hint: "did you mean \(previous), as \(why.joined(separator: " and "))? $(AppIdentifierPrefix) adds "
                               + "the team ID \(first): write \(previous) without it in the .entitlements file; " + caveat,
                           fix: previous, caveat: caveat)
        }
        let fixed = "\(first).\(bare)"
        return Finding(code: .lintUnprefixedEntitlement, group: group,
                       message: first == second ? "keychain group \(group) repeats the team prefix \(first)."
                                                : "keychain group \(group) carries two team prefixes, \(first). and \(second).",
                       hint: "did you mean \(fixed)? $(AppIdentifierPrefix) adds the team ID: write "
                           + "$(AppIdentifierPrefix)\(bare) in the .entitlements file; " + caveat,
                       fix: fixed, caveat: caveat)
    }

    /// A group that has shipped holds its users' items: renaming it in the
    /// entitlements strands them (SimpleLogin's doubled group is every
    /// target's default; following the hint would lose the stored login
    /// after an update; real-project trial 14, D7).
    public static func shippedGroupCaveat(_ group: String) -> String {
        "but if a build with \(group) has shipped, its items are stored there: keep the group (valid, if not tidy), "
            + "or move the items to the new one first (SecItemUpdate with the new kSecAttrAccessGroup)"
    }

    /// An `application-groups` value, expanded: it must start with `group.`,
    /// and a team prefix in front of `group.` is a mistake on iOS. macOS
    /// also takes `TEAMID.` and any name after it ("For macOS … begin the
    /// group identifier with your team identifier", App Groups
    /// Entitlement), `group.` included: WireGuard's and ProtonVPN's Mac apps
    /// ship `TEAMID.group.…` groups, and renaming one loses its container.
    public static func applicationGroup(_ group: String, teamID: String?, macOS: Bool) -> Finding? {
        // A setting left empty (Orbot empties its Debug settings on purpose):
        // "did you mean group.?" fixed nothing (found on a real-project trial).
        if group.isEmpty {
            return Finding(code: .lintAppGroupShape, group: group, message: "an app group is empty: the setting that names it expands to nothing",
                           hint: "give the setting a value (group.…) in this configuration, or take the entry out of the entitlements file",
                           fix: nil)
        }
        // An empty part, as for a keychain group: an xcconfig prefix with a
        // trailing dot (`GROUP_ID_PREFIX = group.com.duckduckgo.`) made
        // `group.com.duckduckgo..bookmarks`, said nowhere (real-project trial 24, W4).
        if !group.contains("$("), hasEmptyPart(group) {
            let fixed = group.split(separator: ".", omittingEmptySubsequences: true).joined(separator: ".")
            let named = fixed.contains(".") && fixed != "group" && teamPrefix(of: group).map { fixed != $0 } ?? true
            return Finding(code: .lintAppGroupShape, group: group, message: "app group \(group) has an empty part",
                           hint: named ? "a setting expands to nothing, or the value (or a setting in it) has a dot too many: did you mean \(fixed)?"
                               : "a setting that names the group expands to nothing here: define it, or take the entry out",
                           fix: named ? fixed : nil)
        }
        if group.contains("$(") || isApples(group) || group.hasPrefix("group.") { return nil }
        var fixed = "group." + group
        if let team = teamPrefix(of: group) {
            let rest = group.dropFirst(team.count + 1)
            // A Mac app group's team prefix is the signing team's: "Different
            // developer teams can't use the same app group" (Apple, Accessing
            // app group containers in your existing macOS app). Sequel Ace's
            // `NKQ4HJ66PY.sequel-ace` for team NKQ4HJ66PX passed (real-project
            // trial 23, D7).
            if macOS, let teamID, Team.isWellFormedID(teamID), String(team) != teamID {
                let fixed = "\(teamID).\(rest)"
                return Finding(code: .lintAppGroupShape, group: group,
                               message: "app group \(group) carries the prefix of team \(team), but the app is signed by team \(teamID)",
                               hint: "a macOS app group's prefix is the ID of the team that signs its apps (different teams cannot share an app group): "
                                   + "did you mean \(fixed)? write $(TeamIdentifierPrefix)\(rest) in the .entitlements file",
                               fix: fixed)
            }
            if macOS { return nil }
            if rest.hasPrefix("group.") { return teamPrefixedAppGroup(group, String(rest)) }
            // The Mac's shape (TEAMID.name) on iOS: the name is what an iOS
            // app group takes, not group.TEAMID.name (found checking
            // reported device behaviour).
            fixed = "group." + rest
        }
        // A Mac app's usual shape is the team prefix (a `group.` name there
        // needs a provisioning profile): offered first (found on a
        // real-project trial).
        if macOS, let teamID {
            let prefixed = "\(teamID).\(group)"
            return Finding(code: .lintAppGroupShape, group: group,
                           message: "app group \(group) starts with neither the team prefix nor group.",
                           hint: "did you mean \(prefixed)? a Mac app's groups carry the team prefix (group.… ones need a provisioning profile)",
                           fix: prefixed)
        }
        return Finding(code: .lintAppGroupShape, group: group,
                       message: "app group \(group) does not start with group.",
                       hint: "did you mean \(fixed)? app groups are named group.…: write \(fixed)"
                           + (macOS ? " (or, on macOS, with the team prefix)" : ""),
                       fix: fixed)
    }

    /// A group named in a call (`group=`): a team prefix in front of an app
    /// group. `isHeld` says whether the group is a real one all the same:
    /// another app lists it, or items live in it.
    public static func callGroup(_ group: String, caller: AppTarget, isHeld: (String) -> Bool = { _ in false }) -> Finding? {
        let groups = caller.accessGroups
        return callGroup(group, callerName: caller.name, isEntitled: { groups.contains($0) }, isHeld: isHeld)
    }

    /// The same, asking `isEntitled` (the world's cached lists) instead of
    /// building the caller's list: lint runs it after every call naming a
    /// group the caller lacks. The cheap shape tests come first.
    /// `TEAMID.group.…` is a common name for a Keychain Sharing group
    /// (`$(AppIdentifierPrefix)group.…`): when another app of the world lists
    /// it, or items live in it, it is that group, not an app group with a
    /// prefix, and `group.…` would find nothing (real-project trial 18, D1).
    static func callGroup(_ group: String, callerName: String, isEntitled: (String) -> Bool,
                          isHeld: (String) -> Bool = { _ in false }) -> Finding? {
        guard mayPrefixAppGroup(group), let team = teamPrefix(of: group) else { return nil }
        let rest = String(group.dropFirst(team.count + 1))
        guard rest.hasPrefix("group."), !isEntitled(group), !isHeld(group) else { return nil }
        // A did-you-mean only when the caller has the app group.
        return teamPrefixedAppGroup(group, rest, lacking: isEntitled(rest) ? nil : callerName)
    }

    /// Whether `group` reads `X.group.…`: the shape ``callGroup(_:callerName:isEntitled:)``
    /// looks for, decided on bytes (lint asks it of every group a caller lacks).
    static func mayPrefixAppGroup(_ group: String) -> Bool {
        group.utf8.withContiguousStorageIfAvailable { mayPrefixAppGroup(bytes: $0) } ?? true  // not contiguous: let the full test decide
    }

    /// The same of a group's bytes.
    static func mayPrefixAppGroup(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")) else { return false }
        // Compared as bytes: `starts(with: "group.".utf8)` walked the
        // literal's view, some 95 instructions a group.
        let rest = UnsafeBufferPointer(rebasing: bytes[(dot + 1)...])
        return rest.count >= 6 && rest[0] == UInt8(ascii: "g") && rest[1] == UInt8(ascii: "r") && rest[2] == UInt8(ascii: "o")
            && rest[3] == UInt8(ascii: "u") && rest[4] == UInt8(ascii: "p") && rest[5] == UInt8(ascii: ".")
    }

    private static func teamPrefixedAppGroup(_ group: String, _ bare: String, lacking app: String? = nil) -> Finding {
        let rule = "app groups carry no team prefix, in entitlements or in code: write \(bare)"
        return Finding(code: .lintAppGroupShape, group: group,
                       message: "\(group) puts a team prefix in front of the app group \(bare)",
                       hint: app.map { "\(rule), and give \($0) the app group" } ?? "did you mean \(bare)? \(rule)",
                       fix: bare)
    }

    /// Every finding for an app's entitlements, in the order written. A fix
    /// never adds a group the list already has: then the fix is to drop the
    /// misspelt one, with the finding's caveat (a shipped group holds items).
    public static func check(keychainAccessGroups: [String], applicationGroups: [String], teamID: String?,
                             macOS: Bool, bundleIDs: BundleIDIndex = BundleIDIndex(), appIDPrefix: String? = nil,
                             previousAppIDPrefixes: Set<String> = [], listedBy: [String: String] = [:],
                             fromProfile: Bool = false) -> [Finding] {
        // The lists as sets: a search of the list per finding was the square
        // of a 100,000-group list (66 s; found by adversarial testing).
        let keychainSet = Set(keychainAccessGroups), appSet = Set(applicationGroups)
        let keychain = keychainAccessGroups.compactMap {
            keychainGroup($0, teamID: teamID, bundleIDs: bundleIDs, appIDPrefix: appIDPrefix,
                          previousAppIDPrefixes: previousAppIDPrefixes, listedBy: listedBy, fromProfile: fromProfile)
        }.map {
            dropping($0, ifListed: keychainSet, "keychain-access-groups")
        }
        let app = applicationGroups.compactMap { applicationGroup($0, teamID: teamID, macOS: macOS) }.map { f in
            var out = dropping(f, ifListed: appSet, "application-groups")
            // A keychain group's shape (TEAMID.name) written among the app
            // groups beside the app group it names: meant for Keychain
            // Sharing, it belongs in keychain-access-groups (Mattermost's
            // share extension; real-project trial 22, W7).
            if out.hint != f.hint, teamPrefix(of: f.group) != nil, !keychainSet.contains(f.group) {
                out.hint += ", or, for keychain sharing, move it to keychain-access-groups"
            }
            return out
        }
        return keychain + app
    }

    private static func dropping(_ f: Finding, ifListed list: Set<String>, _ key: String) -> Finding {
        guard let fix = f.fix, list.contains(fix) else { return f }
        var out = f
        // The caveat stays: dropping a group that has shipped strands its
        // items, as renaming it does (Simplenote's pre-transfer group was
        // said to drop; real-project trial 15, D2).
        out.hint = "\(key) already lists \(fix): drop \(f.group)" + (f.caveat.map { "; " + $0 } ?? "")
        return out
    }
}

/// Bundle IDs in view, for the shape checks: whether a name is one of them
/// or a dot-prefix of one, and whether one of them is a dot-prefix of a
/// name, each a set lookup. A scan of every bundle ID per group made
/// declaring 64,000 apps take 29 s (found by adversarial testing).
public struct BundleIDIndex: Sendable {
    private var ids = Set<String>(), prefixes = Set<String>(), long: [String] = []

    public init(_ list: some Sequence<String> = [String]()) {
        for id in list { insert(id) }
    }

    /// Dot-prefixes are kept for the first levels of a bundle ID of a real
    /// length only: each is a string of its own, and one ID of 70,000 parts
    /// held their squares (an abort; found by adversarial testing). A
    /// bundle ID is at most 155 characters (App Store Connect).
    static let maxIndexedLength = 255, maxIndexedLevels = 16

    public mutating func insert(_ id: String) {
        guard ids.insert(id).inserted else { return }
        // Past the limits, asked by a scan, a thousand at most: a group
        // naming such an ID got a false KCS510 (found by adversarial testing).
        guard id.utf8.count <= Self.maxIndexedLength, id.utf8.count(where: { $0 == UInt8(ascii: ".") }) <= Self.maxIndexedLevels else {
            if long.count < 1000 { long.append(id) }
            return
        }
        var levels: [Substring] = []
        var rest = Substring(id)
        while let dot = rest.lastIndex(of: ".") {
            rest = rest[..<dot]
            levels.append(rest)
        }
        for prefix in levels { prefixes.insert(String(prefix)) }
    }

    /// `name` is a bundle ID, or a bundle ID starts with `name.`.
    public func isOrPrefixes(_ name: String) -> Bool {
        ids.contains(name) || prefixes.contains(name) || long.contains { $0.hasPrefix(name + ".") }
    }

    /// `name` starts with a bundle ID and a dot (an extension's under its app's).
    public func hasOne(under name: String) -> Bool {
        if long.contains(where: { name.hasPrefix($0 + ".") }) { return true }
        guard name.utf8.count <= 4 * Self.maxIndexedLength else { return false }
        var rest = Substring(name)
        while let dot = rest.lastIndex(of: ".") {
            rest = rest[..<dot]
            if ids.contains(String(rest)) { return true }
        }
        return false
    }
}
