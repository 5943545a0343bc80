#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import KeychainEngine

/// Reads a SecItem dictionary keyed by constant names into the engine's
/// ``ItemSpec``, or the status the call fails with.
///
/// Keys are dispatched the way SecDbQuery.c `query_applier` dispatches them:
/// class, match, return, use and value keys by their prefix, everything else
/// as an attribute of the class. An attribute the model does not know is
/// `errSecNoSuchAttr` (as an attribute missing from the class's schema is on a
/// device); an unknown match, return, use or value key, a key shorter than
/// four characters, or a value of the wrong type is `errSecParam`. Keys that
/// exist in Security but that the model does not cover (dates kept by the
/// keychain, key-usage flags, search lists) are `errSecUnimplemented`, so a
/// test never passes by silently ignoring them. An unknown class leaves the
/// class out, and the engine answers `errSecParam` at the point in its check
/// order where a missing class is detected.
enum DictionaryReader {
    /// Real Security keys outside the model: `errSecUnimplemented`.
    static let unmodelled: Set<String> = [
        "kSecAttrCreationDate", "kSecAttrModificationDate", "kSecAttrIsInvisible", "kSecAttrIsNegative",
        "kSecAttrIsPermanent", "kSecAttrIsSensitive", "kSecAttrIsExtractable", "kSecAttrCanEncrypt",
        "kSecAttrCanDecrypt", "kSecAttrCanDerive", "kSecAttrCanSign", "kSecAttrCanVerify", "kSecAttrCanWrap",
        "kSecAttrCanUnwrap", "kSecAttrSubject", "kSecAttrSubjectKeyID", "kSecAttrTokenID",
        "kSecAttrPersistantReference", "kSecAttrPersistentReference", "kSecAttrSyncViewHint",
        "kSecMatchCaseInsensitive", "kSecMatchItemList", "kSecMatchSearchList", "kSecMatchPolicy",
        "kSecMatchIssuers", "kSecMatchEmailAddressIfPresent", "kSecMatchSubjectContains",
        "kSecMatchSubjectStartsWith", "kSecMatchSubjectEndsWith", "kSecMatchSubjectWholeString",
        "kSecMatchDiacriticInsensitive", "kSecMatchWidthInsensitive", "kSecMatchTrustedOnly",
        "kSecMatchValidOnDate", "kSecValueRef", "kSecUseItemList",
        "kSecUseKeychain", "kSecUseAuthenticationContext",
        "kSecUseSystemKeychain", "kSecUseUserIndependentKeychain", "kSecUseCredentialReference",
        // Columns of their classes a device stores (SecItemSchema.c) that
        // the model has no place for.
        "kSecAttrIsPrivate", "kSecAttrIsModifiable", "kSecAttrAlias", "kSecAttrWasAlwaysSensitive",
        "kSecAttrWasNeverExtractable", "kSecAttrCanSignRecover", "kSecAttrCanVerifyRecover",
        "kSecAttrCertificateEncoding", "kSecAttrScriptCode", "kSecAttrHasCustomIcon",
    ]

    static let attributesByName: [String: ItemAttribute] = Dictionary(
        uniqueKeysWithValues: ItemAttribute.allCases.map { ($0.constantName, $0) })

    /// The status a dictionary is refused with.
    struct Refusal: Error {
        var status: KeychainStatus
    }

    /// `stringData`: whether `kSecValueData` may be a string. securityd
    /// takes data only (SecDbQuery.c `query_set_data`, line 752:
    /// errSecItemInvalidValue, that is errSecParam); only the Mac's
    /// file-based keychain converts a string on add (SecItem.cpp line 3002).
    static func read(_ dictionary: [String: Any], stringData: Bool = false) -> Result<ItemSpec, Refusal> {
        if !stringData, let value = dictionary[kSecValueData], value is String || value is Substring {
            return .failure(Refusal(status: .param))
        }
        var spec = ItemSpec()
        // Dictionaries have no order; read keys sorted so a dictionary with
        // two faults always reports the same one.
        for key in dictionary.keys.sorted() {
            guard let value = dictionary[key] else { continue }
            if let status = apply(key, value, to: &spec) { return .failure(Refusal(status: status)) }
        }
        // SecItem.m SecItemAuthCopyParams (lines 1594-1606): kSecUseAuthenticationUI
        // when present, else kSecUseNoAuthenticationUI equal to true means
        // fail; only the Fail and Skip values mean anything, every other
        // value is allow (no call refuses one).
        if let ui = dictionary[kSecUseAuthenticationUI] {
            let name = ui as? String
            spec.authUI = name == kSecUseAuthenticationUIFail ? .fail : name == kSecUseAuthenticationUISkip ? .skip : .allow
        } else if let no = dictionary[kSecUseNoAuthenticationUI] {
            if (no as? Bool) == true { spec.authUI = .fail }
        }
        return .success(spec)
    }

    /// Reads one entry into `spec`; the failing status, if any.
    private static func apply(_ key: String, _ value: Any, to spec: inout ItemSpec) -> KeychainStatus? {
        if key.utf8.count < 4 { return .param }
        if unmodelled.contains(key) { return .unimplemented }
        switch key {
        case kSecClass:
            // A string that names no class goes on to securityd, whose
            // answer is errSecNoSuchClass (``ItemSpec/unknownClass``); any
            // other value is errSecParam.
            if let name = value as? String, let c = ItemClass(name: name), c.constantName == name {
                spec.itemClass = c
            } else if let name = value as? String {
                spec.unknownClass = name
            } else {
                return .param
            }
        case kSecAttrAccessGroup:
            guard let group = value as? String else { return .param }
            spec.accessGroup = group
        case kSecAttrSynchronizable:
            // securityd reads it with copyNumber (SecDbQuery.c line 296): a
            // Boolean or any number, non-zero being true.
            if let b = value as? Bool { spec.synchronizable = b ? .yes : .no }
            else if let n = integer(value) { spec.synchronizable = n != 0 ? .yes : .no }
            else if let s = value as? String, s == kSecAttrSynchronizableAny { spec.synchronizable = .any }
            else { return .param }
        case kSecAttrAccessible:
            guard let name = value as? String,
                  let a = Accessibility.allCases.first(where: { $0.constantName == name }) else { return .param }
            spec.accessibility = a
        case kSecAttrAccessControl:
            guard let ac = value as? SecAccessControl else { return .param }
            spec.accessControl = ac.accessControl
        case kSecValueData:
            guard let bytes = ByteCodec.bytes(of: value) else { return .param }
            spec.data = ByteCodec.encode(bytes)
        case kSecValuePersistentRef:
            // Bytes a device cannot parse: errSecItemInvalidValue (errSecParam).
            guard let bytes = ByteCodec.dataBytes(of: value), let ref = PersistentRef(bytes: bytes) else { return .param }
            spec.persistentRef = ref
        case kSecReturnData, kSecReturnAttributes, kSecReturnRef, kSecReturnPersistentRef:
            guard let on = value as? Bool else { return .param }
            let kind: ReturnKinds = switch key {
            case kSecReturnData: .data
            case kSecReturnAttributes: .attributes
            case kSecReturnRef: .reference
            default: .persistentReference
            }
            if on { spec.returns.insert(kind) } else { spec.returns.remove(kind) }
        case kSecMatchLimit:
            if let s = value as? String, s == kSecMatchLimitOne { spec.limit = .one }
            else if let s = value as? String, s == kSecMatchLimitAll { spec.limit = .all }
            // A number as query_add_match takes it (CFNumberGetValue as a
            // CFIndex, a whole Double too): kCFNotFound (-1) is
            // kSecMatchUnlimited; SQLite reads a lower one as no limit and the
            // walk stops after the first row (SecDbQuery.c lines 478-480,
            // SecItemDb.c 1078; audit 14, K3): a list of one.
            else if let n = integer(value) ?? (value as? Double).flatMap({ Int(exactly: $0) }) {
                spec.limit = n == 1 ? .one : n == -1 ? .all : n < -1 ? .firstOnly : .count(n)
            }
            else { return .param }
        case kSecUseDataProtectionKeychain:
            // iOS ignores the key; the Mac's client reads it as a number
            // (SecItem.cpp readNumber): anything else is no flag.
            // Present with another value, it reads as 0 (readNumber; audit 14, K2).
            if let on = value as? Bool { spec.useDataProtectionKeychain = on }
            else if let n = integer(value) { spec.useDataProtectionKeychain = n != 0 }
            else { spec.useDataProtectionKeychain = false }
        case kSecUseAuthenticationUI, kSecUseNoAuthenticationUI:
            // Decided after the loop: one key wins over the other.
            break
        case kSecUseOperationPrompt:
            // Moved aside by the client without a type check (SecItem.m
            // lines 1579-1584; audit 14, K4): only shown at a prompt.
            break
        default:
            if let attribute = attributesByName[key] {
                guard let v = attributeValue(attribute, value) else { return .param }
                spec.attributes[attribute] = v
            } else if key.hasPrefix("kSecMatch") || key.hasPrefix("kSecReturn") || key.hasPrefix("kSecUse")
                        || key.hasPrefix("kSecValue") || key.hasPrefix("kSecClass") {
                return .param
            } else {
                return .noSuchAttr
            }
        }
        return nil
    }

    /// An integer from any Swift integer type; nil if it does not fit an `Int`.
    static func integer(_ value: Any) -> Int? {
        guard let i = value as? any BinaryInteger else { return nil }
        return Int(exactly: i)
    }

    /// The engine's value for an attribute, or nil for a value of the wrong type.
    static func attributeValue(_ attribute: ItemAttribute, _ value: Any) -> AttributeValue? {
        switch attribute.valueKind {
        case .date:
            // A device takes a `Date` only (SecDbItem.c `copyDate`, line 154:
            // CFDateGetTypeID, else errSecItemInvalidValue, that is errSecParam).
            // A date that is no number (NaN, infinite) is refused: NaN never
            // equals itself, so such a key could be added again and again
            // and found by no query (a kcs decision; found by adversarial testing).
            guard let date = value as? Date, date.timeIntervalSinceReferenceDate.isFinite else { return nil }
            return .date(date.timeIntervalSinceReferenceDate)
        case .string:
            // The client takes the issuer as data only (SecItem.m
            // SecItemAttributesPrepare, line 1447: CFCastWithError(CFData)).
            if attribute == .issuer, value is String || value is Substring { return nil }
            // Strings and bytes alike (kSecAttrGeneric, kSecAttrApplicationTag
            // and others are CFData on Apple platforms).
            guard let bytes = ByteCodec.bytes(of: value) else { return nil }
            return .string(AttributeText(ByteCodec.encode(bytes)))
        case .integer:
            if let text = value as? String { return AttributeValue.number(fromText: text).map(AttributeValue.integer) }
            // copyNumber turns a Boolean into 0 or 1 (SecDbItem.c line 136).
            if let b = value as? Bool { return .integer(b ? 1 : 0) }
            return integer(value).map(AttributeValue.integer)
        case .enumerated(let values):
            guard let name = value as? String, let v = values.first(where: { $0.constant == name }) else { return nil }
            return .string(AttributeText(v.stored))
        }
    }
}
