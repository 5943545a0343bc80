/// An OSStatus result of a keychain call, as declared in Security's `SecBase.h`.
///
/// Every status the model can produce is a case; ``name`` and ``code`` give the
/// framework's constant name and number so diagnostics can show both.
public enum KeychainStatus: Int32, CaseIterable, Sendable, Hashable {
    case success = 0
    case unimplemented = -4
    case param = -50
    case allocate = -108
    case userCanceled = -128
    case badReq = -909
    case internalComponent = -2070
    case noAccessForItem = -25243
    case invalidOwnerEdit = -25244
    case notAvailable = -25291
    case authFailed = -25293
    case duplicateItem = -25299
    case itemNotFound = -25300
    case noSuchAttr = -25303
    case noSuchClass = -25306
    case interactionNotAllowed = -25308
    case readOnlyAttr = -25309
    case interactionRequired = -25315
    case decode = -26275
    /// `errSecInternal`, declared in SecBasePriv.h (not the SDK's SecBase.h).
    case internalError = -26276
    case missingEntitlement = -34018
    case restrictedAPI = -34020

    /// The OSStatus number.
    public var code: Int32 { rawValue }

    /// The Security framework's constant name, such as `errSecItemNotFound`.
    public var name: String {
        switch self {
        case .success: "errSecSuccess"
        case .unimplemented: "errSecUnimplemented"
        case .param: "errSecParam"
        case .allocate: "errSecAllocate"
        case .userCanceled: "errSecUserCanceled"
        case .badReq: "errSecBadReq"
        case .internalComponent: "errSecInternalComponent"
        case .noAccessForItem: "errSecNoAccessForItem"
        case .invalidOwnerEdit: "errSecInvalidOwnerEdit"
        case .notAvailable: "errSecNotAvailable"
        case .authFailed: "errSecAuthFailed"
        case .duplicateItem: "errSecDuplicateItem"
        case .itemNotFound: "errSecItemNotFound"
        case .noSuchAttr: "errSecNoSuchAttr"
        case .noSuchClass: "errSecNoSuchClass"
        case .interactionNotAllowed: "errSecInteractionNotAllowed"
        case .readOnlyAttr: "errSecReadOnlyAttr"
        case .interactionRequired: "errSecInteractionRequired"
        case .decode: "errSecDecode"
        case .internalError: "errSecInternal"
        case .missingEntitlement: "errSecMissingEntitlement"
        case .restrictedAPI: "errSecRestrictedAPI"
        }
    }

    /// Whether the SDK's headers declare the constant: `errSecInternal` is
    /// SecBasePriv.h's, so code an app compiles spells it by number.
    public var isInSDK: Bool { self != .internalError }

    /// `errSecItemNotFound (-25300)`: the form used in messages.
    public var description: String { "\(name) (\(code))" }

    /// Looks a status up by its constant name.
    public init?(name: String) {
        guard let found = KeychainStatus.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }

    /// Looks a status up by its number.
    public init?(code: Int32) {
        self.init(rawValue: code)
    }
}
