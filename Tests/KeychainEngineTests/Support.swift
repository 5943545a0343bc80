@testable import KeychainEngine

/// Shared fixtures for the engine tests. Team IDs are well-formed (ten
/// upper-case letters or digits).
let teamA = "SKMME9E2Y8"
let teamB = "QWERTY1234"

let ios18 = Platform(.ios, 18)
let ios12 = Platform(.ios, 12)
let bothPlatforms = [ios18, ios12]

/// A world with three signed apps and one unsigned build:
/// - `main`: team A, keychain groups [A.shared, A.second], app ID A.com.example.main,
///   application groups [group.com.example];
/// - `plain`: team A, no keychain groups (default group = its app ID);
/// - `foreign`: team B, keychain group B.shared (same name as A's, other team);
/// - `unsigned`: no team and no keychain groups.
struct Fixture {
    var world = World()
    var main: AppHandle
    var plain: AppHandle
    var foreign: AppHandle
    var unsigned: AppHandle

    static let shared = "\(teamA).shared"
    static let second = "\(teamA).second"
    static let mainID = "\(teamA).com.example.main"
    static let appGroup = "group.com.example"
    static let plainID = "\(teamA).com.example.plain"
    static let foreignShared = "\(teamB).shared"

    init(platform: Platform = ios18) {
        var w = World()
        try! w.setPlatform(platform)
        try! w.addTeam(id: teamA)
        try! w.addTeam(id: teamB)
        main = try! w.addApp(bundleID: "com.example.main", name: "main", teamID: teamA,
                             keychainAccessGroups: ["$(AppIdentifierPrefix)shared", "$(TeamIdentifierPrefix)second"],
                             applicationGroups: ["group.com.example"])
        plain = try! w.addApp(bundleID: "com.example.plain", name: "plain", teamID: teamA)
        foreign = try! w.addApp(bundleID: "com.other.app", name: "foreign", teamID: teamB,
                                keychainAccessGroups: ["$(AppIdentifierPrefix)shared"])
        unsigned = try! w.addApp(bundleID: "com.example.unsigned", name: "unsigned", teamID: nil)
        world = w
    }

    mutating func call(_ op: Operation, _ spec: ItemSpec, changes: ItemSpec? = nil,
                       as app: AppHandle? = nil, prompt: @escaping (FoundItem) -> PromptAnswer? = { _ in nil })
        -> CallResult {
        world.perform(CallRequest(op, spec, changes: changes), as: app ?? main, prompt: prompt)
    }

    mutating func add(_ spec: ItemSpec, as app: AppHandle? = nil) -> CallResult { call(.add, spec, as: app) }
    mutating func find(_ spec: ItemSpec, as app: AppHandle? = nil) -> CallResult { call(.find, spec, as: app) }
    mutating func update(_ spec: ItemSpec, _ changes: ItemSpec, as app: AppHandle? = nil) -> CallResult {
        call(.update, spec, changes: changes, as: app)
    }
    mutating func delete(_ spec: ItemSpec, as app: AppHandle? = nil) -> CallResult { call(.delete, spec, as: app) }

    /// Adds and insists on success (a precondition of the test, not its subject).
    @discardableResult
    mutating func mustAdd(_ spec: ItemSpec, as app: AppHandle? = nil) -> CallResult {
        let r = add(spec, as: app)
        precondition(r.status == .success, "fixture add failed: \(r.status) \(r.reason)")
        return r
    }

    var keychain: Keychain { world[DeviceHandle.this].keychain }

    /// Every stored item in insertion order.
    var items: [StoredItem] { keychain.allItems.map(\.1) }

    func groupName(_ item: StoredItem) -> String { world.groupName(item.group) }

    var state: DeviceState {
        get { world[DeviceHandle.this].state }
        set { world[DeviceHandle.this].state = newValue }
    }
}

/// Builds an ItemSpec in one expression.
func spec(_ itemClass: ItemClass? = .genericPassword, _ attrs: [(ItemAttribute, AttributeValue)] = [],
          group: String? = nil, sync: SyncSelector? = nil, accessibility: Accessibility? = nil,
          accessControl: AccessControl? = nil, data: String? = nil, limit: MatchLimit? = nil,
          returns: ReturnKinds = [], authUI: AuthUI? = nil) -> ItemSpec {
    var s = ItemSpec(itemClass: itemClass)
    s.attributes = AttributeList(attrs)
    s.accessGroup = group
    s.synchronizable = sync
    s.accessibility = accessibility
    s.accessControl = accessControl
    s.data = data
    s.limit = limit
    s.returns = returns
    s.authUI = authUI
    return s
}

/// A generic password with account and (optional) service.
func gp(_ account: String?, service: String? = "svc", group: String? = nil, sync: SyncSelector? = nil,
        accessibility: Accessibility? = nil, data: String? = nil, limit: MatchLimit? = nil,
        returns: ReturnKinds = []) -> ItemSpec {
    var attrs: [(ItemAttribute, AttributeValue)] = []
    if let account { attrs.append((.account, .string(AttributeText(account)))) }
    if let service { attrs.append((.service, .string(AttributeText(service)))) }
    return spec(.genericPassword, attrs, group: group, sync: sync, accessibility: accessibility,
                data: data, limit: limit, returns: returns)
}

/// Query for all generic passwords, any sync state unless given.
func allGP(group: String? = nil, sync: SyncSelector? = nil, limit: MatchLimit? = .all) -> ItemSpec {
    spec(.genericPassword, group: group, sync: sync, limit: limit)
}

extension CallResult {
    /// The accounts of the returned items, in result order.
    var accounts: [String] {
        items.map { if case .string(let s)? = $0.item.attributes[.account] { s.string } else { "<none>" } }
    }
    var groups: [String] { items.map(\.groupName) }
}

func str(_ s: String) -> AttributeValue { .string(AttributeText(s)) }
func int(_ i: Int) -> AttributeValue { .integer(i) }
