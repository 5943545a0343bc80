import KCSSyntax
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import KeychainEngine

/// The keychain-relevant part of an entitlements property list: a
/// `.entitlements` source file, what `codesign -d --entitlements :-` prints,
/// or the property list inside a provisioning profile.
public struct Entitlements: Sendable, Hashable {
    /// Where the entitlements came from, which decides how to read them.
    public enum Source: String, Sendable, Hashable {
        /// An XML property list of entitlements (an Xcode `.entitlements`
        /// file or `codesign` output).
        case entitlements
        /// A provisioning profile: its `Entitlements` dictionary and `TeamIdentifier`.
        case profile
    }

    public var source: Source
    /// `com.apple.developer.team-identifier`, else the profile's
    /// `TeamIdentifier`, else the prefix of `application-identifier`: a
    /// team ID, or the file is refused (a build setting reference, as in
    /// a source file, is read as no team).
    public var teamID: String?
    /// `application-identifier` (iOS) or `com.apple.application-identifier`
    /// (macOS), as written; a profile's may end in `*`.
    public var applicationIdentifier: String?
    /// `keychain-access-groups`, as written (variables not yet expanded).
    public var keychainAccessGroups: [String]?
    /// `com.apple.security.application-groups`, as written.
    public var applicationGroups: [String]?
    /// `com.apple.developer.associated-application-identifier` (Mac Catalyst), as written.
    public var associatedApplicationIdentifiers: [String]?
    /// `previous-application-identifiers`, as written: the application
    /// identifiers the app had before a transfer to another team (or a
    /// change of its App ID prefix), whose keychain groups hold the items
    /// its users stored then.
    public var previousApplicationIdentifiers: [String]?
    /// `com.apple.security.app-sandbox` (macOS): a sandboxed Mac app reaches
    /// the container of an app group only when it lists the group; nil
    /// when the file does not say, or says it in another shape.
    public var appSandbox: Bool?

    public init(source: Source = .entitlements, teamID: String? = nil, applicationIdentifier: String? = nil,
                keychainAccessGroups: [String]? = nil, applicationGroups: [String]? = nil,
                associatedApplicationIdentifiers: [String]? = nil, previousApplicationIdentifiers: [String]? = nil,
                appSandbox: Bool? = nil) {
        self.appSandbox = appSandbox
        self.source = source
        self.teamID = teamID
        self.applicationIdentifier = applicationIdentifier
        self.keychainAccessGroups = keychainAccessGroups
        self.applicationGroups = applicationGroups
        self.associatedApplicationIdentifiers = associatedApplicationIdentifiers
        self.previousApplicationIdentifiers = previousApplicationIdentifiers
    }

    /// The team-shaped prefixes of `previous-application-identifiers`
    /// (`4ESDVWK654.com.codality.NotationalFlow` gives `4ESDVWK654`): a
    /// group under one is the app's own from before the change, not another
    /// team's (Simplenote, transferred between teams, keeps its old group;
    /// real-project trial 15, D2).
    public var previousAppIDPrefixes: Set<String> {
        Set((previousApplicationIdentifiers ?? []).compactMap { id in
            guard let dot = id.firstIndex(of: ".") else { return nil }
            let head = String(id[..<dot])
            return Team.isWellFormedID(head) ? head : nil
        })
    }

    /// The bundle ID part of the application identifier, when it names one
    /// app (not a wildcard).
    public var bundleID: String? {
        guard let appID = applicationIdentifier, !appID.hasSuffix("*"), let dot = appID.firstIndex(of: ".") else { return nil }
        return String(appID[appID.index(after: dot)...])
    }

    /// Whether the application identifier allows `TEAMID.bundleID`
    /// (exactly, or through a profile's trailing `*`).
    public func allows(bundleID: String, teamID: String) -> Bool {
        guard let appID = applicationIdentifier else { return true }
        let wanted = "\(teamID).\(bundleID)"
        if appID.hasSuffix("*") { return wanted.hasPrefix(appID.dropLast()) }
        return appID == wanted
    }

    /// Expands the Xcode variables a source `.entitlements` file may hold.
    /// `$(AppIdentifierPrefix)` and `$(TeamIdentifierPrefix)` become `TEAMID.`;
    /// `$(PRODUCT_BUNDLE_IDENTIFIER)` the bundle ID. Any other `$(…)` is
    /// returned as the problem.
    public static func expand(_ value: String, teamID: String?, appIDPrefix: String? = nil, bundleID: String) -> Result<String, ExpansionProblem> {
        guard AppTarget.hasBuildVariable(value) else { return .success(value) }
        if teamID == nil && AppTarget.needsTeam(value) {
            return .failure(.noTeam(value))
        }
        var v = AppTarget.expandEntitlement(value, teamID: teamID, appIDPrefix: appIDPrefix)
        let names = ["$(PRODUCT_BUNDLE_IDENTIFIER)", "$(CFBundleIdentifier)"]
        // Sized before it is made: a value of 35,000 references to a
        // 30,000-byte bundle ID expanded to a gigabyte inside one statement,
        // past every limit (found by adversarial testing).
        let size = v.utf8.count + names.reduce(0) { $0 + v.ranges(of: $1).count * (bundleID.utf8.count - $1.utf8.count) }
        if size > maxExpandedBytes { return .failure(.tooLong(value, size: size)) }
        for name in names {
            v = v.replacing(name, with: bundleID)
        }
        if let start = v.firstRange(of: "$(") {
            let rest = v[start.lowerBound...]
            let end = rest.firstIndex(of: ")").map { rest.index(after: $0) } ?? rest.endIndex
            return .failure(.unknownVariable(String(rest[..<end]), in: value))
        }
        return .success(v)
    }

    /// The largest entitlements file or profile kcs decodes.
    public static let maxFileBytes = 8 << 20

    /// The longest value an expansion may make. An access group is a team
    /// ID and a bundle ID or a name of the developer's, tens of bytes.
    public static let maxExpandedBytes = 4096

    /// Why a value could not be expanded.
    public enum ExpansionProblem: Error, Sendable, Hashable {
        case noTeam(String)
        case unknownVariable(String, in: String)
        /// The value would expand past ``Entitlements/maxExpandedBytes``.
        case tooLong(String, size: Int)

        public var message: String {
            switch self {
            case .noTeam(let v): "'\(v)' needs a team ID, and neither the file nor the script gives one"
            case .unknownVariable(let name, let v): "'\(v)' uses the build setting \(name), which kcs cannot expand"
            case .tooLong(let v, let size):
                "'\(Suggest.shown(v))' would expand to \(size) bytes, past the limit of \(Entitlements.maxExpandedBytes) for one value"
            }
        }

        public var hint: String {
            switch self {
            case .noTeam: "declare a team before the app, or give team=TEAMID"
            case .unknownVariable: "write the value the build gives, or import the project with kcs import xcode"
            case .tooLong: "an access group is a team ID and a name of tens of bytes: check the bundle ID and the $(…) references"
            }
        }
    }
}

/// Why an entitlements file could not be read as one.
public struct EntitlementsError: Error, Sendable, Hashable {
    public var message: String
    public var hint: String?

    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }
}

extension Entitlements {
    /// Real entitlements and profiles nest a few levels; this is plenty.
    static let maxNesting = 64

    /// Decodes an entitlements file, a `codesign` print-out or a provisioning
    /// profile. The property list itself is decoded by Foundation's
    /// `PropertyListDecoder`; this only finds it (a profile wraps it in a
    /// signed CMS envelope, codesign may put a blob header in front).
    public static func decode(_ bytes: [UInt8]) -> Result<Entitlements, EntitlementsError> {
        guard !bytes.isEmpty else {
            return .failure(EntitlementsError("the file is empty", hint: "an entitlements file is an XML property list"))
        }
        // Decoding is one step no time limit interrupts, at some twenty
        // times the file in memory: a 72 MB file ran 45 s past a 2 s limit
        // (found by adversarial testing).
        guard bytes.count <= maxFileBytes else {
            return .failure(EntitlementsError("the file is \(bytes.count) bytes, over the limit of \(maxFileBytes) for entitlements or a profile",
                                              hint: "entitlements files and provisioning profiles are kilobytes; this limit holds 100,000 groups"))
        }
        let plist: [UInt8]
        if bytes.starts(with: Array("bplist00".utf8)) {
            plist = bytes
        } else if let xml = xmlPropertyList(in: bytes) {
            plist = xml
        } else {
            let text = String(decoding: bytes.prefix(64), as: UTF8.self)
            if text.hasPrefix("[Dict]") || text.hasPrefix("Executable=") {
                return .failure(EntitlementsError(
                    "this is codesign's text form of the entitlements, not a property list",
                    hint: "print them as XML: codesign -d --entitlements :- --xml APP (or redirect 'codesign -d --entitlements :- APP')"))
            }
            return .failure(EntitlementsError(
                "no property list found (no '<?xml … </plist>' and not a binary plist)",
                hint: "give an .entitlements file, the output of 'codesign -d --entitlements :- APP', or an embedded.mobileprovision"))
        }
        // Foundation's decoder recurses once per nesting level: bound the
        // real structure first, so a crafted file cannot overflow the stack.
        if let problem = PlistGuard.check(plist, maxDepth: maxNesting) {
            return .failure(EntitlementsError(problem.message,
                hint: "entitlements are a dictionary of strings, booleans and arrays of strings"))
        }
        let data = Data(plist)
        // A profile is a dictionary with an `Entitlements` dictionary inside.
        do {
            let probe = try PropertyListDecoder().decode(ProfileProbe.self, from: data)
            if probe.isProfile {
                let profile = try PropertyListDecoder().decode(ProfilePlist.self, from: data)
                guard let e = profile.entitlements else {
                    return .failure(EntitlementsError("the provisioning profile has no 'Entitlements' dictionary"))
                }
                let team: String?
                switch (teamID(e.teamIdentifier, key: "Entitlements → " + EntitlementsPlist.CodingKeys.teamIdentifier.rawValue),
                        teamID(profile.teamIdentifier?.first, key: "TeamIdentifier → [0]")) {
                case (.failure(let problem), _): return .failure(problem)
                case (.success(let own?), _): team = own
                case (_, .failure(let problem)): return .failure(problem)
                case (_, .success(let listed)): team = listed ?? e.appIDPrefix
                }
                return .success(Entitlements(
                    source: .profile,
                    teamID: team,
                    applicationIdentifier: e.applicationIdentifier ?? e.macApplicationIdentifier,
                    keychainAccessGroups: e.keychainAccessGroups, applicationGroups: e.applicationGroups,
                    associatedApplicationIdentifiers: e.associatedApplicationIdentifiers,
                    previousApplicationIdentifiers: e.previousApplicationIdentifiers?.values))
            }
            let e = try PropertyListDecoder().decode(EntitlementsPlist.self, from: data)
            let team: String?
            switch teamID(e.teamIdentifier, key: EntitlementsPlist.CodingKeys.teamIdentifier.rawValue) {
            case .failure(let problem): return .failure(problem)
            case .success(let own): team = own ?? e.appIDPrefix
            }
            return .success(Entitlements(
                source: .entitlements, teamID: team,
                applicationIdentifier: e.applicationIdentifier ?? e.macApplicationIdentifier,
                keychainAccessGroups: e.keychainAccessGroups, applicationGroups: e.applicationGroups,
                associatedApplicationIdentifiers: e.associatedApplicationIdentifiers,
                previousApplicationIdentifiers: e.previousApplicationIdentifiers?.values, appSandbox: e.appSandbox?.value))
        } catch let error as DecodingError {
            return .failure(describe(error))
        } catch {
            // Not a DecodingError: the reader's own (a binary list whose
            // strings or offsets are damaged), whose description is a Swift
            // debug dump, not words for a user.
            return .failure(Self.undecodable)
        }
    }

    /// The team a file's `key` gives: a team ID (the one rule,
    /// ``Team/isWellFormedID(_:)``, as for the script's `team`), or nil for
    /// none, or for a build setting in any form Xcode expands in a source
    /// `.entitlements` file (`$(DEVELOPMENT_TEAM)`, `${DEVELOPMENT_TEAM}`,
    /// `$DEVELOPMENT_TEAM`: a `$`, which no team ID holds), which is the
    /// team the build gives: the script's. Any other value is refused,
    /// naming the key: it was taken as it was, so an empty one made the app
    /// ID `.com.example.A` and `SKMME9E2Y8.evil` a team (adversarial run 29,
    /// F3).
    static func teamID(_ value: String?, key: String) -> Result<String?, EntitlementsError> {
        guard let value, !value.utf8.contains(UInt8(ascii: "$")) else { return .success(nil) }
        guard Team.isWellFormedID(value) else {
            return .failure(EntitlementsError("'\(key)' is \(value.isEmpty ? "empty" : "'\(Suggest.shown(value))'"), not a team ID",
                                              hint: Team.idHint))
        }
        return .success(value)
    }

    /// A property list the decoder refused without saying where.
    static let undecodable = EntitlementsError("the property list cannot be decoded: it is damaged (a binary list's strings or offsets?)",
                                               hint: "check it with plutil -lint, or write it again as XML (plutil -convert xml1)")

    /// The bytes from `<?xml` (or `<plist`) through the first `</plist>` after it.
    static func xmlPropertyList(in bytes: [UInt8]) -> [UInt8]? {
        let start = find(Array("<?xml".utf8), in: bytes, from: 0) ?? find(Array("<plist".utf8), in: bytes, from: 0)
        guard let start else { return nil }
        let close = Array("</plist>".utf8)
        guard let end = find(close, in: bytes, from: start) else { return Array(bytes[start...]) }
        return Array(bytes[start..<(end + close.count)])
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        var i = from
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    private static func describe(_ error: DecodingError) -> EntitlementsError {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: " → ")
        }
        switch error {
        case .typeMismatch(let type, let ctx):
            let what = type == [String].self || "\(type)".hasPrefix("Array") ? "an array of strings" : "a string"
            return EntitlementsError("'\(path(ctx.codingPath))' should be \(what)",
                                     hint: "keychain-access-groups and com.apple.security.application-groups are <array> of <string>")
        case .valueNotFound(_, let ctx), .keyNotFound(_, let ctx):
            return EntitlementsError("'\(path(ctx.codingPath))' is missing a value")
        case .dataCorrupted(let ctx):
            var detail = ""
            if let cocoa = ctx.underlyingError as? CocoaError,
               let text = cocoa.userInfo["NSDebugDescription"] as? String, !text.isEmpty {
                // Foundation's line numbers are not reliable here: drop them.
                var words = text.split(separator: " ").map(String.init)
                if let i = words.firstIndex(of: "on"), i + 2 < words.count + 1, i + 1 < words.count, words[i + 1] == "line" {
                    words.removeSubrange(i..<min(i + 3, words.count))
                }
                detail = ": " + words.joined(separator: " ").prefix(200).lowercasedFirst
            }
            if ctx.codingPath.isEmpty {
                return EntitlementsError("the XML is not a valid property list" + detail,
                                         hint: "check that every <key> has a value and every tag is closed")
            }
            return EntitlementsError("'\(path(ctx.codingPath))' is not valid" + detail)
        @unknown default:
            return Self.undecodable
        }
    }
}

/// Whether a property list is a provisioning profile: it has `Entitlements`
/// and profile-only keys.
private struct ProfileProbe: Decodable {
    var isProfile: Bool

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    package init(from decoder: any Decoder) throws {
        // A top level that is not a dictionary is reported by the real decode.
        guard let c = try? decoder.container(keyedBy: Key.self) else {
            isProfile = false
            return
        }
        isProfile = c.contains(Key(stringValue: "Entitlements"))
            && (c.contains(Key(stringValue: "TeamIdentifier")) || c.contains(Key(stringValue: "ProvisionedDevices"))
                || c.contains(Key(stringValue: "UUID")))
    }
}

private struct ProfilePlist: Decodable {
    var teamIdentifier: [String]?
    package var entitlements: EntitlementsPlist?

    package enum CodingKeys: String, CodingKey {
        case teamIdentifier = "TeamIdentifier"
        case entitlements = "Entitlements"
    }
}

private struct EntitlementsPlist: Decodable {
    var teamIdentifier: String?
    package var applicationIdentifier: String?
    var macApplicationIdentifier: String?
    package var keychainAccessGroups: [String]?
    package var applicationGroups: [String]?
    package var associatedApplicationIdentifiers: [String]?
    /// Read leniently: kcs does not otherwise check the key, and a value of
    /// another shape must not make the whole file unreadable.
    package var previousApplicationIdentifiers: LenientStrings?
    /// Read leniently, as the key above.
    package var appSandbox: LenientBool?

    typealias CodingKeys = Entitlements.Key

    /// The team ID in front of the application identifier.
    package var appIDPrefix: String? {
        guard let appID = applicationIdentifier ?? macApplicationIdentifier,
              let dot = appID.firstIndex(of: ".") else { return nil }
        let prefix = String(appID[..<dot])
        return Team.isWellFormedID(prefix) ? prefix : nil
    }
}

extension Entitlements {
    /// The entitlement keys kcs reads, as the files spell them: the one
    /// place they are written (the decoder's keys; the lint's search, its
    /// labels and the printed summaries read them here).
    package enum Key: String, CodingKey {
        case appSandbox = "com.apple.security.app-sandbox"
        case teamIdentifier = "com.apple.developer.team-identifier"
        case applicationIdentifier = "application-identifier"
        case macApplicationIdentifier = "com.apple.application-identifier"
        case keychainAccessGroups = "keychain-access-groups"
        case applicationGroups = "com.apple.security.application-groups"
        case associatedApplicationIdentifiers = "com.apple.developer.associated-application-identifier"
        case previousApplicationIdentifiers = "previous-application-identifiers"
    }
}

/// A Boolean, or nil when the value is of another shape.
package struct LenientBool: Decodable {
    package var value: Bool?

    package init(from decoder: any Decoder) throws {
        value = try? decoder.singleValueContainer().decode(Bool.self)
    }
}

/// An array of strings, or nil when the value is of another shape.
package struct LenientStrings: Decodable {
    package var values: [String]?

    package init(from decoder: any Decoder) throws {
        values = try? decoder.singleValueContainer().decode([String].self)
    }
}

/// An app declaration's entitlements, read and reconciled with the script.
package struct ResolvedEntitlements {
    package var teamID: String?
    package var keychainAccessGroups: [String]
    package var applicationGroups: [String]
    package var associatedApplicationIdentifiers: [String]
    /// The application-identifier's prefix when it is not the team's (a legacy App ID).
    package var appIDPrefix: String?
}

extension Entitlements {
    /// Reconciles the file with the declaration: the team, the bundle ID and
    /// the variables. `scriptTeam` is the team the script gives (`team=` or
    /// the default team); `explicitTeam` whether `team=` was written.
    package func resolve(bundleID: String, scriptTeam: String?, explicitTeam: Bool) -> Result<ResolvedEntitlements, EntitlementsError> {
        if explicitTeam, let own = teamID, let script = scriptTeam, own != script {
            return .failure(EntitlementsError("the entitlements are signed for team \(own), the declaration says team \(script)",
                                              hint: "remove team= to take the team from the file"))
        }
        let team = teamID ?? scriptTeam
        // An App ID made before 2011 keeps its own prefix, which the signed
        // application-identifier carries and securityd uses as it is: the
        // file of such an app names the team apart (audit 10, F1).
        var prefix: String?
        if let team, let appID = applicationIdentifier, !appID.hasSuffix("*"), appID.hasSuffix("." + bundleID) {
            let head = String(appID.dropLast(bundleID.count + 1))
            if head != team, Team.isWellFormedID(head) { prefix = head }
        }
        if let team, prefix == nil, !allows(bundleID: bundleID, teamID: team), let appID = applicationIdentifier {
            return .failure(EntitlementsError("the entitlements are for \(appID), not \(team).\(bundleID)",
                                              hint: "declare the app with the bundle ID the file was signed for"))
        }
        var lists: [[String]] = [[], [], []]
        for (list, into) in [(keychainAccessGroups ?? [], 0), (applicationGroups ?? [], 1),
                             (associatedApplicationIdentifiers ?? [], 2)] {
            for value in list {
                switch Self.expand(value, teamID: team, appIDPrefix: prefix, bundleID: bundleID) {
                case .success(let v): lists[into].append(v)
                case .failure(let p):
                    return .failure(EntitlementsError(p.message, hint: p.hint))
                }
            }
        }
        return .success(ResolvedEntitlements(teamID: team, keychainAccessGroups: lists[0], applicationGroups: lists[1],
                                             associatedApplicationIdentifiers: lists[2], appIDPrefix: prefix))
    }
}

extension StringProtocol {
    /// "Close tag" → "close tag", to continue a sentence.
    var lowercasedFirst: String {
        guard let f = first else { return "" }
        return f.lowercased() + dropFirst()
    }
}
