import KCSSyntax
import KeychainEngine

/// The declared names "did you mean" chooses from, indexed as they are
/// declared (names are only ever added; `reset` starts again): each unknown
/// name was compared with every declared one, and 2,000 misspellings of
/// 2,000 devices took 42 s (adversarial 20, M3).
struct DeclaredNames: Sendable {
    private(set) var apps = Suggest.Index()
    private(set) var teams = Suggest.Index()
    private(set) var devices = Suggest.Index()
    private(set) var backups = Suggest.Index()
    private(set) var contexts = Suggest.Index()
    private(set) var persistentRefs = Suggest.Index()
    /// The first app of each bundle ID, by name.
    private(set) var appsByBundleID: [String: String] = [:]

    /// Takes the names the world gained since the last update.
    /// Called before every statement: the counts are compared first, as
    /// taking a slice of each list cost some 500 instructions a statement
    /// (6 % of the judged workload).
    ///
    /// The counts are compared inline and the world is passed `inout`
    /// though only read: passed by value, the 248-byte world was copied to
    /// the stack before every statement; only a statement that declared
    /// something goes on to take the names.
    @inline(__always)
    mutating func update(_ world: inout World) {
        if world.apps.count > apps.count || world.teams.count > teams.count || world.devices.count > devices.count
            || world.backupNames.count > backups.count || world.contextNames.count > contexts.count
            || world.persistentRefNames.count > persistentRefs.count {
            take(&world)
        }
    }

    @inline(never)
    private mutating func take(_ world: inout World) {
        if world.apps.count > apps.count {
            for app in world.apps[apps.count...] {
                apps.insert(app.name)
                if appsByBundleID[app.bundleID] == nil { appsByBundleID[app.bundleID] = app.name }
            }
        }
        if world.teams.count > teams.count { for team in world.teams[teams.count...] { teams.insert(team.name) } }
        if world.devices.count > devices.count { for device in world.devices[devices.count...] { devices.insert(device.name) } }
        if world.backupNames.count > backups.count { for name in world.backupNames[backups.count...] { backups.insert(name) } }
        if world.contextNames.count > contexts.count { for name in world.contextNames[contexts.count...] { contexts.insert(name) } }
        if world.persistentRefNames.count > persistentRefs.count {
            for name in world.persistentRefNames[persistentRefs.count...] { persistentRefs.insert(name) }
        }
    }
}

/// The apps calls named lately, by the name's bytes as written (up to 15):
/// finding a call's app by its name hashed the text and compared it (some
/// 180 instructions a call); a hit here compares two words and the app's
/// name. Only names the world knew are kept, and a hit is checked against
/// the world (the app at the handle has that name, and names are unique),
/// so a reset world or a session rolled back cannot make it wrong.
struct AppNameCache: Sendable {
    private struct Slot: Sendable {
        var k0: UInt64 = 0
        var k1: UInt64 = 0
        var app: AppHandle?
    }
    /// 256 slots (6 KB): with 64, the 40 apps of the judged workload
    /// collided in nearly half the calls.
    private static let slotBits = 8
    /// Made at the first call: a session that makes none pays nothing.
    private var slots: [Slot] = []

    /// The words and the slot of a name of 1 to 15 bytes at `range` of `bytes`; nil for any other.
    @inline(__always)
    static func key(_ bytes: [UInt8], _ range: SourceRange) -> (k0: UInt64, k1: UInt64, slot: Int)? {
        let n = range.end &- range.start
        guard n > 0, n <= 15, range.start >= 0, range.end <= bytes.count else { return nil }
        let (w0, w1) = bytes.withUnsafeBufferPointer { ByteIndex.shortWords($0, range.start, range.end) }
        let k1 = w1 | UInt64(n) << 56
        return (w0, k1, Int(truncatingIfNeeded: ((w0 ^ k1) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - slotBits)))
    }

    @inline(__always)
    func app(_ key: (k0: UInt64, k1: UInt64, slot: Int)) -> AppHandle? {
        guard !slots.isEmpty, slots[key.slot].k0 == key.k0, slots[key.slot].k1 == key.k1 else { return nil }
        return slots[key.slot].app
    }

    mutating func set(_ key: (k0: UInt64, k1: UInt64, slot: Int), _ app: AppHandle) {
        if slots.isEmpty { slots = [Slot](repeating: Slot(), count: 1 << Self.slotBits) }
        slots[key.slot] = Slot(k0: key.k0, k1: key.k1, app: app)
    }
}

/// Names: apps, teams and devices looked up with "did you mean", and world errors as diagnostics.
extension Session {
    /// A call's app, through the cache of apps calls named lately.
    @inline(__always)
    mutating func resolveCallApp(_ name: Name, _ file: SourceFile) throws(Diagnostic) -> AppHandle {
        guard let key = AppNameCache.key(file.bytes, name.range) else { return try resolveApp(name, file) }
        if let app = callApps.app(key), app.index < world.apps.count, world.apps[app.index].name == name.text { return app }
        let app = try resolveApp(name, file)
        callApps.set(key, app)
        return app
    }

    /// "did you mean 'X'?" from a kind of declared names, or nil.
    func suggestion(for word: String, in names: KeyPath<DeclaredNames, Suggest.Index>) -> String? {
        declared[keyPath: names].closest(to: word).map { "did you mean '\($0)'?" }
    }

    func resolveApp(_ name: Name, _ file: SourceFile) throws(Diagnostic) -> AppHandle {
        if let h = world.app(named: name.text) { return h }
        if let at = failedDeclarations[name.text] {
            throw Diagnostic(.unknownApp, "app '\(Suggest.shown(name.text))' was not declared: its declaration at \(at) failed",
                             file: file, range: name.range, hint: "fix the error reported there; nothing can use the app until it is declared")
        }
        var hint = suggestion(for: name.text, in: \.apps)
        if hint == nil, let byBundle = declared.appsByBundleID[name.text] {
            hint = "apps are named by the last bundle component or 'as NAME': did you mean '\(byBundle)'?"
        }
        let known = world.apps.lazy.map(\.name)
        throw Diagnostic(.unknownApp, "unknown app '\(Suggest.shown(name.text))'", file: file, range: name.range,
                         hint: hint ?? (known.isEmpty ? "declare it first: app com.example.\(Suggest.shown(name.text))"
                                                      : Suggest.listing("declared apps", known)))
    }

    /// A kept persistent reference or a declared context, by name.
    func named<T>(_ name: Name, in table: [String: T], _ names: KeyPath<DeclaredNames, Suggest.Index>,
                          _ what: String, _ how: String, _ file: SourceFile, hint: String) throws(Diagnostic) -> T {
        if let value = table[name.text] { return value }
        throw Diagnostic(.unknownName, "no \(what) named '\(name.text)' has been \(how)", file: file,
                         range: name.range, hint: suggestion(for: name.text, in: names) ?? hint)
    }

    /// A team for `transfer`: a declared team's name or ID, or any well-formed team ID.
    func resolveTeamID(_ name: Name, _ file: SourceFile) throws(Diagnostic) -> String {
        if let team = world.team(named: name.text) { return team.id }
        if Team.isWellFormedID(name.text) { return name.text }
        throw Diagnostic(.unknownTeam, "unknown team '\(Suggest.shown(name.text))'", file: file, range: name.range,
                         hint: suggestion(for: name.text, in: \.teams) ?? "name a declared team or a team ID (\(Team.idShape))")
    }

    func resolveDevice(_ name: Name?, _ file: SourceFile) throws(Diagnostic) -> DeviceHandle {
        guard let name else { return .this }
        if let d = world.device(named: name.text) { return d }
        throw Diagnostic(.unknownDevice, "unknown device '\(Suggest.shown(name.text))'", file: file, range: name.range,
                         hint: suggestion(for: name.text, in: \.devices) ?? Suggest.listing("devices", world.devices.lazy.map(\.name)))
    }

    func worldError(_ e: WorldError, _ file: SourceFile, _ range: SourceRange) -> Diagnostic {
        switch e {
        // The parser finds these first (KCS212, KCS213); said the same way
        // when the engine does (review 23a, R7).
        case .platformAfterApps:
            .platformAfterApp(file, range)
        case .malformedTeamID(let id):
            .malformedTeamID(id, file, range)
        case .duplicateTeam(let n):
            Diagnostic(.invalidDeclaration, "team '\(n)' is already declared", file: file, range: range)
        case .unknownTeam(let n):
            Diagnostic(.unknownTeam, "unknown team '\(n)'", file: file, range: range, hint: suggestion(for: n, in: \.teams))
        case .duplicateApp(let n):
            Diagnostic(.invalidDeclaration, "an app named '\(n)' is already declared", file: file, range: range,
                       hint: "give one of them another name with 'as NAME'")
        case .unknownApp(let n):
            Diagnostic(.unknownApp, "unknown app '\(n)'", file: file, range: range, hint: suggestion(for: n, in: \.apps))
                .didYouMean(n, in: declared.apps)
        case .duplicateDevice(let n):
            Diagnostic(.invalidDeclaration, "device '\(n)' is already declared", file: file, range: range)
        case .unknownDevice(let n):
            Diagnostic(.unknownDevice, "unknown device '\(n)'", file: file, range: range, hint: suggestion(for: n, in: \.devices))
        case .unknownBackup(let n):
            Diagnostic(.unknownBackup, "no backup named '\(n)'", file: file, range: range,
                       hint: suggestion(for: n, in: \.backups) ?? "make one first: backup DEVICE as \(n)")
        case .groupNeedsTeam(let g, let app):
            Diagnostic(.invalidDeclaration, "'\(app)' has no team, so keychain group '\(g)' has no prefix", file: file,
                       range: range, hint: "declare a team before the app, or use an app group ('group.…')")
        }
    }
}
