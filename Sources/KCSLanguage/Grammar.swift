/// The statement forms, one row each: the parser dispatches through this
/// table and help text is generated from it, so the two cannot drift.
public struct StatementForm: Sendable {
    public enum Kind: Sendable, CaseIterable {
        case platform, team, app, group, include, device, call, expect
        case passcode, lock, unlock, reboot, biometry, user
        case uninstall, install, transfer, sync, backup, restore
        case show, explain, reset
        case keep, context, wait
    }

    public var kind: Kind
    /// The word that starts the statement.
    public var keyword: String
    public var syntax: String
    public var summary: String
    public var example: String

    /// Every statement form, in the order help lists them.
    public static let all: [StatementForm] = [
        .init(kind: .platform, keyword: "platform", syntax: "platform ios|macos|catalyst|watchos VERSION",
              summary: "the platform to model; once, before the first app (default ios 18)",
              example: "platform ios 12"),
        .init(kind: .team, keyword: "team", syntax: "team TEAMID [as NAME]",
              summary: "a development team; the first is the default for later apps",
              example: "team SKMME9E2Y8"),
        .init(kind: .app, keyword: "app",
              syntax: "app BUNDLEID [as NAME] [team=T|none] [kind=app|extension|app-clip] [keychain-access-groups=[…]] [application-groups=[…]] [associated-application-identifier=[…]] [signing=provisioned|unprovisioned|no-app-id] [provisioned=false] [entitlements=\"PATH\"] | app NAME project=\"P.xcodeproj\" [target=T] [configuration=C] [team=T|none]",
              summary: "a target with its own entitlements; NAME defaults to the last bundle component",
              example: "app com.example.AppOne.Widget as Widget kind=extension"),
        .init(kind: .group, keyword: "group", syntax: "group NAME APP…",
              summary: "share a group the Xcode way: 'group.' names become app groups, others get the team prefix",
              example: "group com.example.SharedItems AppOne AppTwo"),
        .init(kind: .include, keyword: "include", syntax: "include \"PATH\"",
              summary: "run another script into this world (PATH relative to this file)",
              example: "include \"common.kcs\""),
        .init(kind: .device, keyword: "device", syntax: "device NAME [account=ID] [platform=ios|macos|catalyst|watchos VERSION]",
              summary: "a further device; without account= it shares this device's iCloud account; platform= gives it its own OS",
              example: "device OldPhone platform=ios 13"),
        .init(kind: .call, keyword: "as", syntax: "[on DEVICE] as APP add|find|update|delete CLASS ATTR=VALUE… [set ATTR=VALUE…]",
              summary: "a SecItem call made by APP",
              example: "as AppOne add generic-password service=\"auth\" account=\"alice\" data=\"s3cret\""),
        .init(kind: .expect, keyword: "expect",
              syntax: "expect status NAME|CODE [or …] | count N | data \"…\" | no-data | group ID | item ATTR=VALUE… | persistent-ref NAME | groups APP [ID, …] | default-group APP ID",
              summary: "check the last call or an app's access groups",
              example: "expect status errSecSuccess or errSecDuplicateItem"),
        .init(kind: .passcode, keyword: "passcode", syntax: "passcode on|off", summary: "turn the passcode on or off; off loses when-passcode-set items for good", example: "passcode off"),
        .init(kind: .lock, keyword: "lock", syntax: "lock", summary: "lock the device (no effect without a passcode)", example: "lock"),
        .init(kind: .unlock, keyword: "unlock", syntax: "unlock", summary: "unlock the device; the first unlock since boot opens after-first-unlock items", example: "unlock"),
        .init(kind: .reboot, keyword: "reboot", syntax: "reboot", summary: "restart the device: locked, not unlocked since boot", example: "reboot"),
        .init(kind: .biometry, keyword: "biometry", syntax: "biometry enroll|change|remove",
              summary: "enroll, change or remove biometry; a change invalidates biometry-current-set items", example: "biometry change"),
        .init(kind: .user, keyword: "user", syntax: "user approves|cancels|fails",
              summary: "queue the answer to the next authentication prompt", example: "user approves"),
        .init(kind: .context, keyword: "context", syntax: "context NAME [reuse=SECONDS] [interaction=true|false]",
              summary: "an authentication context (LAContext) for calls' context=NAME: one approval covers later reads",
              example: "context Session reuse=10 interaction=false"),
        .init(kind: .wait, keyword: "wait", syntax: "wait SECONDS",
              summary: "let time pass (for a context's reuse duration)", example: "wait 30"),
        .init(kind: .keep, keyword: "keep", syntax: "keep persistent-ref as NAME",
              summary: "keep the persistent reference the last call returned, for persistent-ref=NAME", example: "keep persistent-ref as Token"),
        .init(kind: .uninstall, keyword: "uninstall", syntax: "uninstall APP", summary: "remove an app from the device; its items stay", example: "uninstall AppOne"),
        .init(kind: .install, keyword: "install", syntax: "install APP", summary: "install an app again: it sees its items again", example: "install AppOne"),
        .init(kind: .transfer, keyword: "transfer", syntax: "transfer APP to TEAM",
              summary: "move an app to another team: new app ID and team-prefixed groups", example: "transfer AppOne to NEWTEAM123"),
        .init(kind: .sync, keyword: "sync", syntax: "sync", summary: "iCloud Keychain sync between devices of one account (last writer wins)", example: "sync"),
        .init(kind: .backup, keyword: "backup", syntax: "backup DEVICE as NAME", summary: "save a device's keychain under a name", example: "backup this as monday"),
        .init(kind: .restore, keyword: "restore", syntax: "restore NAME to DEVICE", summary: "restore a backup: everything on the same device, no this-device-only items on another", example: "restore monday to this"),
        .init(kind: .show, keyword: "show", syntax: "show apps|items|matrix | show app APP",
              summary: "print the apps, the items, or who can read which item", example: "show matrix"),
        .init(kind: .explain, keyword: "explain", syntax: "explain", summary: "print why the last call got its status", example: "explain"),
        .init(kind: .reset, keyword: "reset", syntax: "reset", summary: "start a fresh world", example: "reset"),
    ]

    private static let byKeyword = ByteTable(all.map { ($0.keyword, $0) })

    /// The form whose keyword is written at `range`, matched on bytes.
    static func form(_ bytes: [UInt8], _ range: SourceRange) -> StatementForm? {
        byKeyword.lookup(bytes, range)
    }

    /// Statement keywords, for completion and "did you mean".
    public static var keywords: [String] { all.map(\.keyword) + ["on"] }
}

/// The words that may follow `expect`, for the parser, completion and help.
public enum ExpectSubject {
    public static let all = ["status", "count", "data", "no-data", "group", "item", "persistent-ref", "groups", "default-group"]
}

/// The options of `app`, for the parser, completion and help.
public enum AppOption {
    public static let all = ["team", "kind", "keychain-access-groups", "application-groups", "provisioned", "signing",
                             "associated-application-identifier", "entitlements", "project", "target", "configuration"]
}
