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

    var cap: Int {
        switch self {
        case .one: 1
        case .all: Int.max
        case .count(let n): max(n, 0)
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
public struct ItemSpec: Sendable, Hashable {
    public var itemClass: ItemClass?
    public var attributes = AttributeList()
    public var accessGroup: String?
    public var synchronizable: SyncSelector?
    public var accessibility: Accessibility?
    public var accessControl: AccessControl?
    public var data: String?
    public var limit: MatchLimit?
    public var returns: ReturnKinds = []
    public var useDataProtectionKeychain: Bool?
    public var authUI: AuthUI?
    /// `kSecValuePersistentRef`: the item a persistent reference names.
    public var persistentRef: PersistentRef?
    /// `kSecUseAuthenticationContext`: the name of a declared context.
    public var context: String?

    public init(itemClass: ItemClass? = nil) {
        self.itemClass = itemClass
    }
}

/// A SecItem call: the operation, its query (or new item) and, for update,
/// the attributes to change.
public struct CallRequest: Sendable, Hashable {
    public var operation: Operation
    public var spec: ItemSpec
    public var changes: ItemSpec?

    public init(_ operation: Operation, _ spec: ItemSpec, changes: ItemSpec? = nil) {
        self.operation = operation
        self.spec = spec
        self.changes = changes
    }
}

/// A device's answer to an authentication prompt.
public enum PromptAnswer: Sendable, Hashable {
    case approve, cancel, fail
}
