import KCSSyntax
import KeychainEngine

/// What an `ATTR=` names: a stored attribute or one of the keys the engine
/// treats specially.
public enum ArgumentKey: Sendable, Hashable {
    case attribute(ItemAttribute)
    case group, accessible, accessControl, sync, data, dataProtection, authUI, limit
    /// `persistent-ref=NAME`: a persistent reference kept with `keep`.
    case persistentRef
    /// `context=NAME`: an authentication context declared with `context`.
    case context
    /// `return=[…]`.
    case returns
    /// `kSecReturnData=true` and its siblings.
    case returnFlag(ReturnKinds)

    /// A distinct bit position below 64, for sets of keys.
    package var bit: Int {
        switch self {
        case .attribute(let a): Int(a.rawValue)
        case .group: 32
        case .accessible: 33
        case .accessControl: 34
        case .sync: 35
        case .data: 36
        case .dataProtection: 37
        case .authUI: 38
        case .limit: 39
        case .returns: 40
        case .persistentRef: 41
        case .context: 42
        case .returnFlag(let r): 48 + r.rawValue.trailingZeroBitCount
        }
    }

    /// A key that says how to search or what to return, not a value an
    /// item holds: `expect item` refuses it ("a query option, not an item
    /// attribute") and an update's changes get errSecNoSuchAttr for it
    /// (all but data-protection, which changes nothing there either), so
    /// completion offers it after neither.
    public var isQueryOption: Bool {
        switch self {
        case .dataProtection, .authUI, .limit, .returns, .returnFlag, .persistentRef, .context: true
        case .attribute, .group, .accessible, .accessControl, .sync, .data: false
        }
    }

    /// The short name used in messages; an attribute without one by its
    /// constant's name.
    public var name: String {
        if let short = Vocabulary.shortName[self] { return short }
        if case .attribute(let a) = self { return a.constantName }
        return "?"
    }
}

/// The words of the language: short names, framework constant names, and the
/// tables completion and help are generated from.
public enum Vocabulary {
    /// Short attribute names, as language.md lists them (plus a few more).
    static let shortArguments: [(String, ArgumentKey)] = [
        ("service", .attribute(.service)), ("account", .attribute(.account)), ("group", .group),
        ("accessible", .accessible), ("access-control", .accessControl), ("sync", .sync), ("data", .data),
        ("label", .attribute(.label)), ("generic", .attribute(.generic)), ("comment", .attribute(.comment)),
        ("description", .attribute(.description)), ("server", .attribute(.server)),
        ("protocol", .attribute(.protocol)), ("port", .attribute(.port)), ("path", .attribute(.path)),
        ("security-domain", .attribute(.securityDomain)),
        ("authentication-type", .attribute(.authenticationType)),
        ("certificate-type", .attribute(.certificateType)), ("issuer", .attribute(.issuer)),
        ("serial-number", .attribute(.serialNumber)), ("key-class", .attribute(.keyClass)),
        ("application-label", .attribute(.applicationLabel)),
        ("application-tag", .attribute(.applicationTag)), ("key-type", .attribute(.keyType)),
        ("key-size", .attribute(.keySizeInBits)), ("effective-key-size", .attribute(.effectiveKeySize)),
        ("creator", .attribute(.creator)), ("type", .attribute(.type)),
        ("public-key-hash", .attribute(.publicKeyHash)), ("start-date", .attribute(.startDate)),
        ("end-date", .attribute(.endDate)),
        ("data-protection", .dataProtection), ("auth-ui", .authUI), ("limit", .limit), ("return", .returns),
        ("persistent-ref", .persistentRef), ("context", .context),
    ]

    /// Framework spellings of the same keys.
    static let constantArguments: [(String, ArgumentKey)] =
        ItemAttribute.allCases.map { ($0.constantName, ArgumentKey.attribute($0)) } + [
            ("kSecAttrAccessGroup", .group), ("kSecAttrAccessible", .accessible),
            ("kSecAttrAccessControl", .accessControl), ("kSecAttrSynchronizable", .sync),
            ("kSecValueData", .data), ("kSecUseDataProtectionKeychain", .dataProtection),
            ("kSecUseAuthenticationUI", .authUI), ("kSecMatchLimit", .limit),
            ("kSecReturnData", .returnFlag(.data)), ("kSecReturnAttributes", .returnFlag(.attributes)),
            ("kSecReturnRef", .returnFlag(.reference)),
            ("kSecReturnPersistentRef", .returnFlag(.persistentReference)),
            ("kSecValuePersistentRef", .persistentRef), ("kSecUseAuthenticationContext", .context),
        ]

    static let argumentTable = NameTable(shortArguments + constantArguments)

    /// The argument key written at `range`, matched on bytes.
    package static func argument(_ bytes: [UInt8], _ range: SourceRange) -> ArgumentKey? {
        argumentTable.value(bytes, range)
    }

    static let shortName: [ArgumentKey: String] = {
        var d: [ArgumentKey: String] = [:]
        for (n, k) in shortArguments where d[k] == nil { d[k] = n }
        d[.returnFlag(.data)] = "kSecReturnData"
        d[.returnFlag(.attributes)] = "kSecReturnAttributes"
        d[.returnFlag(.reference)] = "kSecReturnRef"
        d[.returnFlag(.persistentReference)] = "kSecReturnPersistentRef"
        return d
    }()

    /// How a message writes an attribute (``ArgumentKey/name``).
    static func name(of attribute: ItemAttribute) -> String { ArgumentKey.attribute(attribute).name }

    /// Every attribute name a call accepts, short names first.
    public static var argumentNames: [String] { (shortArguments + constantArguments).map(\.0) }

    /// Class names: short and `kSecClass…`.
    public static var classNames: [String] {
        ItemClass.allCases.map(\.rawValue) + ItemClass.allCases.map(\.constantName)
    }

    /// Accessibility values: short, `kSecAttrAccessible…` and the codes
    /// the constants stand for (`ck`; QA s22, Q29).
    public static var accessibilityNames: [String] {
        Accessibility.allCases.map(\.rawValue) + Accessibility.allCases.map(\.constantName) + Accessibility.allCases.map(\.code)
    }

    package static func accessibility(named s: String) -> Accessibility? {
        Accessibility(rawValue: s) ?? Accessibility(constantOrCode: s)
    }

    static let limitNames: [(String, MatchLimit)] = [
        ("one", .one), ("all", .all), ("kSecMatchLimitOne", .one), ("kSecMatchLimitAll", .all),
    ]

    static let authUINames: [(String, AuthUI)] = [
        ("allow", .allow), ("fail", .fail), ("skip", .skip),
        ("kSecUseAuthenticationUIAllow", .allow), ("kSecUseAuthenticationUIFail", .fail),
        ("kSecUseAuthenticationUISkip", .skip),
    ]

    static let returnNames: [(String, ReturnKinds)] = [
        ("data", .data), ("attributes", .attributes), ("ref", .reference),
        ("persistent-ref", .persistentReference),
        ("kSecReturnData", .data), ("kSecReturnAttributes", .attributes), ("kSecReturnRef", .reference),
        ("kSecReturnPersistentRef", .persistentReference),
    ]

    static let syncNames: [(String, SyncSelector)] = [
        ("true", .yes), ("false", .no), ("any", .any), ("kSecAttrSynchronizableAny", .any),
    ]

    static let flagNames: [(String, AccessControl.Flag)] =
        AccessControl.Flag.allCases.map { ($0.rawValue, $0) } + AccessControl.Flag.allCases.map { ($0.constantName, $0) }

    /// The access-control flag written `s` (short or constant name), or nil.
    package static func accessControlFlag(named s: String) -> AccessControl.Flag? {
        flagNames.first { $0.0 == s }?.1
    }

    /// Every access-control flag's spelling, short names first.
    package static var accessControlFlagNames: [String] { flagNames.map(\.0) }

    /// The values an enumerated key takes, for completion and "did you mean".
    public static func valueNames(for key: ArgumentKey) -> [String] {
        switch key {
        case .accessible: accessibilityNames
        case .limit: limitNames.map(\.0)
        case .authUI: authUINames.map(\.0)
        case .returns: returnNames.map(\.0)
        case .sync: syncNames.map(\.0)
        case .dataProtection, .returnFlag: ["true", "false"]
        case .accessControl: accessibilityNames + flagNames.map(\.0) + AccessControl.Combinator.allCases.map(\.rawValue)
        case .attribute(let a):
            if case .enumerated(let values) = a.valueKind { values.map(\.short) + values.map(\.constant) } else { [] }
        case .group, .data, .persistentRef, .context: []
        }
    }

    /// Status names, for `expect status`.
    public static var statusNames: [String] { KeychainStatus.allCases.map(\.name) }

    /// The members of a value set the grammar table names, as scripts spell them.
    public static func names(of set: ValueSet) -> [String] {
        switch set {
        case .platformFamily: Platform.Family.allCases.map(\.rawValue)
        case .operation: Operation.allCases.map(\.rawValue)
        case .itemClass: classNames
        case .status: statusNames
        case .attribute: argumentNames
        case .targetKind: TargetKind.allCases.map(\.rawValue)
        case .signing: Signing.allCases.map(\.rawValue)
        }
    }

    /// The operations, the item classes (short or `kSecClass…` name) and
    /// the statuses, matched on bytes (``Parser`` holds them).
    static let operationTable = NameTable(Operation.allCases.map { ($0.rawValue, $0) })
    static let classTable = NameTable(ItemClass.allCases.map { ($0.rawValue, $0) } + ItemClass.allCases.map { ($0.constantName, $0) })
    static let statusTable = NameTable(KeychainStatus.allCases.map { ($0.name, $0) })
}

extension StatementForm {
    /// The syntax as help prints it, the engine's value sets spelt out.
    public var usage: String { syntax(values: Vocabulary.names(of:)) }
}

/// Names matched on bytes and the values they stand for, in one object: a
/// lookup reads one lazily built static, not an index and a value array
/// apiece. The first spelling of a name listed twice wins (``ByteIndex``).
final class NameTable<Value: Sendable>: Sendable {
    private let index: ByteIndex
    private let values: [Value]

    init(_ pairs: [(String, Value)]) {
        index = ByteIndex(pairs.map(\.0))
        values = pairs.map(\.1)
    }

    func value(_ bytes: [UInt8], _ range: SourceRange) -> Value? {
        index.index(bytes, range).map { values[$0] }
    }
}
