/// The grammar table: every statement form with its words, options and value
/// sets, one row each. The parser dispatches through it and checks options
/// and words against it; completion, help, the language server's hover, the
/// editor grammars and the reference table in grammar.md are generated from
/// it. A new option, word or expectation subject is added here and nowhere
/// else (a test enumerates the table against each consumer).
///
/// Sets of values whose spellings are the framework's (item classes,
/// statuses, attributes, platforms…) are named by ``ValueSet``; the engine
/// owns their members and the runtime supplies them where a table is rendered.
public struct StatementForm: Sendable {
    public enum Kind: Int, Sendable, CaseIterable {
        case platform, team, app, group, include, device, call, expect
        case passcode, lock, unlock, reboot, biometry, user
        case uninstall, install, resign, transfer, sync, backup, restore
        case show, explain, reset
        case keep, context, wait
    }

    public var kind: Kind
    /// The word that starts the statement.
    public var keyword: String
    /// The fixed part of the syntax, with `{set}` standing for the members of
    /// a ``ValueSet`` (`platform {platformFamily} VERSION`).
    public var head: String
    /// The words that may follow the keyword, each with what follows it
    /// (`passcode on|off`, `expect status …`); empty when the form takes none.
    public var choices: [Choice]
    /// `KEY=VALUE` options after the head, each at most once.
    public var options: [OptionSpec]
    public var summary: String
    public var example: String

    package init(_ kind: Kind, _ keyword: String, head: String? = nil, choices: [Choice] = [], options: [OptionSpec] = [],
         summary: String, example: String) {
        self.kind = kind
        self.keyword = keyword
        self.head = head ?? keyword
        self.choices = choices
        self.options = options
        self.summary = summary
        self.example = example
    }

    /// Every statement form, in the order help lists them.
    public static let all: [StatementForm] = [
        .init(.platform, "platform", head: "platform {platformFamily} VERSION",
              summary: "the platform to model; once, before the first app (default ios 18)",
              example: "platform ios 12"),
        .init(.team, "team", head: "team TEAMID [as NAME]",
              summary: "a development team; the first is the default for later apps",
              example: "team SKMME9E2Y8"),
        .init(.app, "app", head: "app BUNDLEID|NAME [as NAME]",
              options: [
                  .init(.team, .name, shown: "T|none"),
                  .init(.kind, .set(.targetKind)),
                  .init(.keychainAccessGroups, .nameList),
                  .init(.applicationGroups, .nameList),
                  .init(.associatedApplicationIdentifier, .nameList),
                  .init(.signing, .set(.signing)),
                  .init(.provisioned, .boolean, shown: "false"),
                  .init(.appIDPrefix, .name, shown: "PREFIX"),
                  .init(.entitlements, .path, shown: "\"PATH\""),
                  .init(.project, .path, shown: "\"P.xcodeproj\""),
                  .init(.target, .name, shown: "T"),
                  .init(.configuration, .name, shown: "C"),
              ],
              summary: "a target with its own entitlements; NAME defaults to the last bundle component (with project=, the word after app names the Xcode target)",
              example: "app com.example.AppOne.Widget as Widget kind=extension"),
        .init(.group, "group", head: "group NAME APP…",
              summary: "share a group the Xcode way: 'group.' names become app groups, others get the team prefix",
              example: "group com.example.SharedItems AppOne AppTwo"),
        .init(.include, "include", head: "include \"PATH\"",
              summary: "run another script into this world (PATH relative to this file)",
              example: "include \"common.kcs\""),
        .init(.device, "device", head: "device NAME",
              options: [.init(.account, .name, shown: "ID"), .init(.platform, .platform)],
              summary: "a further device; without account= it shares this device's iCloud account; platform= gives it its own OS",
              example: "device OldPhone platform=ios 13"),
        .init(.call, "as", head: "[on DEVICE] as APP {operation} [CLASS] ATTR=VALUE… [set ATTR=VALUE…]",
              summary: "a SecItem call made by APP",
              example: "as AppOne add generic-password service=\"auth\" account=\"alice\" data=\"s3cret\""),
        .init(.expect, "expect",
              choices: ExpectSubject.allCases.map { Choice($0.rawValue, $0.rest) },
              summary: "check the last call or an app's access groups",
              example: "expect status errSecSuccess or errSecDuplicateItem"),
        .init(.passcode, "passcode", choices: [.init("on"), .init("off")],
              summary: "turn the passcode on or off; off loses when-passcode-set items for good and removes biometry",
              example: "passcode off"),
        .init(.lock, "lock", summary: "lock the device (no effect without a passcode)", example: "lock"),
        .init(.unlock, "unlock", summary: "unlock the device; the first unlock since boot opens after-first-unlock items",
              example: "unlock"),
        .init(.reboot, "reboot", summary: "restart the device: locked, not unlocked since boot; apps' authentication contexts end", example: "reboot"),
        .init(.biometry, "biometry", choices: [.init("enroll"), .init("change"), .init("remove")],
              summary: "enroll (none before), change (a finger or face added, Face ID re-enrolled) or remove biometry; a change invalidates biometry-current-set items",
              example: "biometry change"),
        .init(.user, "user", choices: [.init("approves"), .init("cancels"), .init("fails"), .init("always-allows")],
              summary: "queue the answer to the next authentication prompt (always-allows: the Mac's file-keychain prompt's Always Allow)",
              example: "user approves"),
        .init(.context, "context", head: "context NAME",
              options: [.init(.reuse, .integer, shown: "SECONDS"), .init(.interaction, .boolean)],
              summary: "an authentication context (LAContext) for calls' context=NAME: one approval covers later reads",
              example: "context Session reuse=10 interaction=false"),
        .init(.wait, "wait", head: "wait SECONDS",
              summary: "let time pass (for a context's reuse duration)", example: "wait 30"),
        .init(.keep, "keep", head: "keep persistent-ref as NAME",
              summary: "keep the persistent reference the last call returned, for persistent-ref=NAME",
              example: "keep persistent-ref as Token"),
        .init(.uninstall, "uninstall", head: "uninstall APP", summary: "remove an app from the device; its items stay (an App Clip's go with it)",
              example: "uninstall AppOne"),
        .init(.install, "install", head: "install APP", summary: "install an app again: it sees its items again; a full app replaces its App Clip",
              example: "install AppOne"),
        .init(.resign, "resign", head: "resign APP",
              summary: "sign an app anew (an ad-hoc rebuild, another certificate): the Mac file keychain's items it made or always allowed ask it again; nothing changes off the Mac (lint KCS515)",
              example: "resign AppOne"),
        .init(.transfer, "transfer", head: "transfer APP to TEAM",
              summary: "move an app to another team: new app ID and team-prefixed groups (a legacy App ID prefix gives way to the team ID)", example: "transfer AppOne to NEWTEAM123"),
        .init(.sync, "sync", summary: "iCloud Keychain sync between devices of one account (last writer wins)", example: "sync"),
        .init(.backup, "backup", head: "backup DEVICE as NAME", options: [.init(.encrypted, .boolean)],
              summary: "save a device's keychain under a name (encrypted=false: a backup without a password, whose keychain opens only on that device)",
              example: "backup this as monday"),
        .init(.restore, "restore", head: "restore BACKUP to DEVICE",
              summary: "restore a backup, references kept, the device's synchronizable items left: all it holds on the same device, no this-device-only items on another",
              example: "restore monday to this"),
        .init(.show, "show", choices: [.init("apps"), .init("items"), .init("matrix"), .init("app", "APP")],
              summary: "print the apps, the items, or who can read which item", example: "show matrix"),
        .init(.explain, "explain", summary: "print why the last call got its status", example: "explain"),
        .init(.reset, "reset", summary: "start a fresh world", example: "reset"),
    ]

    /// The keywords, matched on bytes, with each one's kind: a parser keeps
    /// it (read through the static at each statement, it cost a lazy
    /// initialization check).
    package final class KeywordTable: Sendable {
        private let index: ByteIndex
        private let kinds: [Kind]

        init(_ forms: [StatementForm]) {
            index = ByteIndex(forms.map(\.keyword))
            kinds = forms.map(\.kind)
        }

        /// The form whose keyword is written at `range`.
        package func kind(_ bytes: [UInt8], _ range: SourceRange) -> Kind? {
            index.index(bytes, range).map { kinds[$0] }
        }
    }
    package static let keywordTable = KeywordTable(all)
    /// The rows by ``Kind``'s raw value.
    private static let byKind: [StatementForm] = Kind.allCases.map { k in all.first { $0.kind == k } ?? all[0] }

    /// The row of a form.
    public static func form(_ kind: Kind) -> StatementForm {
        // Every kind has a row (a test checks it).
        byKind[kind.rawValue]
    }

    /// Statement keywords, for completion and "did you mean".
    public static var keywords: [String] { all.map(\.keyword) + ["on"] }

    /// Whether a word of a syntax string is a literal to type as it is
    /// (`to`, `persistent-ref`), as opposed to a placeholder (`APP`, `"PATH"`).
    public static func isLiteral(_ word: Substring) -> Bool {
        !word.isEmpty && word.allSatisfy { ("a"..."z").contains($0) || $0 == "-" }
    }

    /// The option named `key`, if the form takes it.
    public func option(_ key: String) -> OptionSpec? { options.first { $0.key == key } }

    /// The syntax as help prints it, with each value set spelt out by `values`
    /// (the runtime passes the engine's spellings).
    public func syntax(values: (ValueSet) -> [String]) -> String {
        var out = ValueSet.expand(head, values)
        if !choices.isEmpty {
            // Words without a tail share one alternative (`on|off`); a word
            // with a tail is an alternative of its own (`count N`).
            var groups: [String] = []
            var bare: [String] = []
            for c in choices {
                if c.rest.isEmpty { bare.append(c.word); continue }
                if !bare.isEmpty { groups.append(bare.joined(separator: "|")); bare = [] }
                groups.append(c.word + " " + c.rest)
            }
            if !bare.isEmpty { groups.append(bare.joined(separator: "|")) }
            out += " " + groups.joined(separator: " | ")
        }
        for o in options {
            out += " [" + o.key + "=" + o.shown(values) + "]"
        }
        return out
    }
}

/// What `expect` checks: the word after `expect`, one case each. The
/// syntax parser switches over it with no default, so a subject added here
/// must be parsed (review 23a, R3: an unknown subject was parsed as
/// `default-group APP ID`).
public enum ExpectSubject: String, Sendable, CaseIterable {
    case status, count, data, noData = "no-data", group, item, persistentRef = "persistent-ref", groups
    case defaultGroup = "default-group"

    /// What follows the word, as help shows it.
    public var rest: String {
        switch self {
        case .status: "NAME|CODE [or …]"
        case .count: "N"
        case .data: "\"…\""
        case .noData: ""
        case .group: "ID"
        case .item: "ATTR=VALUE…"
        case .persistentRef: "NAME"
        case .groups: "APP [ID, …]"
        case .defaultGroup: "APP ID"
        }
    }
}

/// A word a form takes after its keyword, and what follows it.
public struct Choice: Sendable {
    public var word: String
    /// What follows the word, as help shows it (empty for nothing).
    public var rest: String
    package init(_ word: String, _ rest: String = "") {
        self.word = word
        self.rest = rest
    }
}

/// One `KEY=VALUE` option of a statement form.
public struct OptionSpec: Sendable {
    /// Every option key of every form, one case each. The runtime's
    /// lowering switches over it with no default, so an option added to the
    /// table is lowered or does not compile (review 23a, R2: a new key fell
    /// through in silence, or was taken as associated-application-identifier).
    public enum Key: String, Sendable, CaseIterable {
        // app
        case team, kind, keychainAccessGroups = "keychain-access-groups", applicationGroups = "application-groups"
        case associatedApplicationIdentifier = "associated-application-identifier", signing, provisioned
        case appIDPrefix = "app-id-prefix", entitlements, project, target, configuration
        // device
        case account, platform
        // context
        case reuse, interaction
        // backup
        case encrypted

        /// An `app` option that says what `project=` reads from the
        /// project (the kind, the groups, the App ID), so not given with it.
        public var isGivenByProject: Bool {
            switch self {
            case .kind, .keychainAccessGroups, .applicationGroups, .entitlements, .appIDPrefix: true
            case .team, .associatedApplicationIdentifier, .signing, .provisioned, .project, .target, .configuration,
                 .account, .platform, .reuse, .interaction, .encrypted: false
            }
        }
    }

    /// What an option's value must look like; the parser checks the shape,
    /// the runtime the meaning.
    public enum Value: Sendable, Equatable {
        /// A word or a string.
        case name
        /// A non-empty string or word naming a file.
        case path
        /// `true` or `false`.
        case boolean
        /// A whole number.
        case integer
        /// A list of names: `[a, b]`.
        case nameList
        /// A platform: a family and a major version (`ios 13`).
        case platform
        /// A member of a value set the engine spells.
        case set(ValueSet)
    }

    public var id: Key
    /// The key as written.
    public var key: String { id.rawValue }
    public var value: Value
    /// How help shows the value, when it is not derived from `value`.
    private var shownText: String?

    package init(_ id: Key, _ value: Value, shown: String? = nil) {
        self.id = id
        self.value = value
        self.shownText = shown
    }

    /// The value as help shows it.
    public func shown(_ values: (ValueSet) -> [String]) -> String {
        if let shownText { return shownText }
        switch value {
        case .name, .path: return "NAME"
        case .boolean: return Self.booleans.joined(separator: "|")
        case .integer: return "N"
        case .nameList: return "[…]"
        case .platform: return values(.platformFamily).joined(separator: "|") + " VERSION"
        case .set(let s): return values(s).joined(separator: "|")
        }
    }

    /// The words of a boolean option.
    public static let booleans = ["true", "false"]
}

/// A set of values whose spellings belong to the keychain model, not to the
/// syntax: the runtime's vocabulary lists the members.
public enum ValueSet: String, Sendable, CaseIterable {
    case platformFamily, operation, itemClass, status, attribute, targetKind, signing

    /// `text` with each `{set}` replaced by the set's members joined with `|`.
    package static func expand(_ text: String, _ values: (ValueSet) -> [String]) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            if let set = ValueSet(rawValue: name) {
                out += values(set).joined(separator: "|")
            } else {
                out += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }
}
