/// Which of the four SecItem calls.
public enum Operation: String, Sendable, Hashable, CaseIterable {
    case add, find, update, delete

    /// The Security framework function the operation stands for.
    public var functionName: String {
        switch self {
        case .add: "SecItemAdd"
        case .find: "SecItemCopyMatching"
        case .update: "SecItemUpdate"
        case .delete: "SecItemDelete"
        }
    }
}

/// `kSecAttrSynchronizable` as written in a call.
public enum SyncSelector: Sendable, Hashable {
    case yes, no, any
}

/// `kSecMatchLimit`.
public enum MatchLimit: Sendable, Hashable {
    case one, all
    case count(Int)
    /// A number below kCFNotFound: SQL reads every row (a negative LIMIT),
    /// and the walk stops after the first (`++count >= q_limit`), in a list.
    case firstOnly

    /// How many rows the query reads: the limit is SQL's `LIMIT`
    /// (`SecDbAppendLimit`, SecItemDb.c lines 840-842, appended by
    /// `s3dl_create_select_sql` at 890-893), so a limit of 0 (which
    /// query_add_match takes as any other number, SecDbQuery.c line 479)
    /// reads no row and finds nothing (line 1098), and every row read counts,
    /// also one passed over afterwards (audit 11, F1 and F2). The Mac's
    /// file keychain stops as soon (`SecItemCopyMatching_osx`, SecItem.cpp
    /// line 5205: `matchCount >= maxMatches`).
    var cap: Int {
        switch self {
        case .one: 1
        case .all: Int.max
        case .count(let n): max(n, 0)
        case .firstOnly: 1
        }
    }

    /// Whether the result is one value, not an array: s3dl_query makes an
    /// array unless `q_limit == 1` (line 1052).
    public var givesSingleResult: Bool {
        switch self {
        case .one, .count(1): true
        case .all, .count, .firstOnly: false
        }
    }
}

/// `kSecUseAuthenticationUI`: what to do with items that need a prompt.
public enum AuthUI: String, Sendable, Hashable, CaseIterable {
    case allow, fail, skip
}

/// The `kSecReturn…` keys of a query.
public struct ReturnKinds: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let data = ReturnKinds(rawValue: 1)
    public static let attributes = ReturnKinds(rawValue: 2)
    public static let reference = ReturnKinds(rawValue: 4)
    public static let persistentReference = ReturnKinds(rawValue: 8)
}

/// One dictionary passed to a SecItem call: a query, the attributes of a new
/// item, or the attributes to change.
///
/// The keys most calls never write (access control, match limit, the
/// data-protection flag, auth-ui, a persistent reference, a context) live in
/// one shared box, absent when none is set: a request moves from the
/// lowering to the engine and into the last call, and each move of the
/// spec copies and releases its fields.
public struct ItemSpec: Sendable, Hashable {
    public var itemClass: ItemClass?
    public var attributes = AttributeList()
    /// `kSecAttrAccessGroup` as its bytes: the front end makes it from a
    /// script's bytes, and the engine finds its group by comparing the
    /// text's two words with those of the caller's list (as a `String` it
    /// was retained by every copy of the request and hashed per call).
    public var accessGroupText: AttributeText?
    public var synchronizable: SyncSelector?
    public var accessibility: Accessibility?
    /// `kSecValueData` as its bytes: the front end makes it from a script's
    /// bytes with no String (making one cost some 220 instructions a call),
    /// and the engine stores it as it is.
    public var dataText: AttributeText?
    public var returns: ReturnKinds = []
    /// The rarely written keys; nil when all of them are unset.
    private var rare: Rare?

    public init(itemClass: ItemClass? = nil) {
        self.itemClass = itemClass
    }

    /// The access group as text (``accessGroupText``).
    public var accessGroup: String? {
        get { accessGroupText?.string }
        set { accessGroupText = newValue.map { AttributeText($0) } }
    }
    /// The data as text (``dataText``).
    public var data: String? {
        get { dataText?.string }
        set { dataText = newValue.map { AttributeText($0) } }
    }
    public var accessControl: AccessControl? { get { self[rare: \.accessControl] } set { self[rare: \.accessControl] = newValue } }
    public var limit: MatchLimit? { get { self[rare: \.limit] } set { self[rare: \.limit] = newValue } }
    public var useDataProtectionKeychain: Bool? {
        get { self[rare: \.useDataProtectionKeychain] } set { self[rare: \.useDataProtectionKeychain] = newValue }
    }
    public var authUI: AuthUI? { get { self[rare: \.authUI] } set { self[rare: \.authUI] = newValue } }
    /// `kSecValuePersistentRef`: the item a persistent reference names.
    public var persistentRef: PersistentRef? { get { self[rare: \.persistentRef] } set { self[rare: \.persistentRef] = newValue } }
    /// `kSecUseAuthenticationContext`: the name of a declared context.
    public var context: String? { get { self[rare: \.context] } set { self[rare: \.context] = newValue } }
    /// A `kSecClass` string that names no class (only the SecItem-shaped
    /// API can pass one): securityd's `query_get_class` answers
    /// errSecNoSuchClass, where an absent class is errSecParam.
    public var unknownClass: String? { get { self[rare: \.unknownClass] } set { self[rare: \.unknownClass] = newValue } }
    /// The first value securityd's parse refuses (only the SecItem-shaped
    /// API can pass one: a value of the wrong type, an unknown key): the
    /// engine answers it where securityd parses the dictionary, after the
    /// caller's entitlement and, for update and delete, the query's group
    /// (SecItemServer.c 2550-2588, 2697-2705, 3137-3160, 3249-3269).
    /// Only the data-protection side answers it; the Mac's file keychain
    /// reads its own dictionary (audit 19, F5).
    /// Read without a key path: the engine asks on every call.
    public var pendingValue: PendingValue? {
        get { rare?.fields.pendingValue } set { self[rare: \.pendingValue] = newValue }
    }

    /// A rare key: nil at once when no box is there (the common read).
    private subscript<T>(rare key: WritableKeyPath<RareFields, T?>) -> T? {
        get { rare?.fields[keyPath: key] }
        set { updateRare { $0[keyPath: key] = newValue } }
    }

    /// Writes through a fresh box (boxes are shared by copies of the spec
    /// and never changed in place); no box when every rare key is unset, so
    /// specs that differ only by an emptied box stay equal.
    private mutating func updateRare(_ change: (inout RareFields) -> Void) {
        var fields = rare?.fields ?? RareFields()
        change(&fields)
        rare = fields == RareFields() ? nil : Rare(fields)
    }

    private struct RareFields: Sendable, Hashable {
        var accessControl: AccessControl?
        var limit: MatchLimit?
        var useDataProtectionKeychain: Bool?
        var authUI: AuthUI?
        var persistentRef: PersistentRef?
        var context: String?
        var unknownClass: String?
        var pendingValue: PendingValue?
    }

    /// Compared and hashed by its fields, so the synthesized equality of
    /// specs is equality of what they say.
    private final class Rare: Sendable, Hashable {
        let fields: RareFields
        init(_ fields: RareFields) { self.fields = fields }
        static func == (a: Rare, b: Rare) -> Bool { a === b || a.fields == b.fields }
        func hash(into h: inout Hasher) { h.combine(fields) }
    }
}

/// A value securityd's parse refuses, kept until the engine reaches the
/// parse (``ItemSpec/pendingValue``).
public struct PendingValue: Sendable, Hashable {
    /// What securityd answers (errSecParam, errSecNoSuchAttr), or
    /// errSecUnimplemented for a value kcs does not model.
    public var status: KeychainStatus
    /// The dictionary key whose value is refused.
    public var key: String

    public init(_ status: KeychainStatus, key: String) {
        self.status = status
        self.key = key
    }
}

/// A SecItem call: the operation, its query (or new item) and, for update,
/// the attributes to change.
public struct CallRequest: Sendable, Hashable {
    public var operation: Operation
    public var spec: ItemSpec
    /// The attributes to change (update), in a shared box: only an update
    /// has them, and inline they doubled the size of every request.
    public var changes: ItemSpec? {
        get { changesBox?.spec }
        set { changesBox = newValue.map(ChangesBox.init) }
    }
    @usableFromInline var changesBox: ChangesBox?

    // Inlinable: the front end, in another module, builds one per call, and
    // through an opaque init the request was copied out and destroyed.
    @inlinable
    public init(_ operation: Operation, _ spec: consuming ItemSpec, changes: consuming ItemSpec? = nil) {
        self.operation = operation
        self.spec = spec
        self.changesBox = changes.map(ChangesBox.init)
    }

    @usableFromInline
    final class ChangesBox: Sendable, Hashable {
        let spec: ItemSpec
        @usableFromInline init(_ spec: ItemSpec) { self.spec = spec }
        @usableFromInline static func == (a: ChangesBox, b: ChangesBox) -> Bool { a === b || a.spec == b.spec }
        @usableFromInline func hash(into h: inout Hasher) { h.combine(spec) }
    }
}

/// A device's answer to an authentication prompt.
public enum PromptAnswer: Sendable, Hashable {
    case approve, cancel, fail
    /// "Always Allow" in the Mac's file-keychain prompt: the caller joins the
    /// item's access list and is not asked again (nor refused the item's
    /// delete). Any other prompt has no such button: it approves.
    case alwaysAllow
}
