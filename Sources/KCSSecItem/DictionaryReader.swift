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
/// four characters, or a value of the wrong type is `errSecParam`, which
/// the engine answers where securityd parses (``Fault/atParse(_:)``). Keys that
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

    /// What an entry's fault does to the call.
    enum Fault {
        /// The call ends before the engine runs: a check of Apple's client
        /// (SecItem.m `SecItemAuthDoQuery`, lines 1646-1673: the access
        /// control's type, the issuer's), the Mac's file keychain's own
        /// reading, or a key kcs does not model.
        case now(KeychainStatus)
        /// securityd's parse refuses the value: the first such fault goes
        /// into the spec (``ItemSpec/pendingValue``) and the engine answers
        /// it at its parse, after the caller's entitlement (audit 19, F5).
        case atParse(KeychainStatus)
    }

    /// A `kSecAttrAccessGroup` that is no string where securityd checks the
    /// raw value against the caller's groups (`SecServerAccessGroupsAllows`,
    /// SecItemServer.c 1436-1442: false for anything but a string): a
    /// group no app can have, so the engine's group check answers
    /// errSecMissingEntitlement at its place (audit 19, F4).
    static let groupNotAString = "(an access group that is no string)"

    /// `stringData`: whether `kSecValueData` may be a string. securityd
    /// takes data only (SecDbQuery.c `query_set_data`, line 752:
    /// errSecItemInvalidValue, that is errSecParam); only the Mac's
    /// file-based keychain converts a string on add (SecItem.cpp line 3002).
    /// `fileKeychain`: the call goes to the Mac's file-based keychain,
    /// whose attributes are bytes (``fileKeychainValue(_:_:)``) and whose
    /// client checks its values itself (a fault there ends the call), but
    /// drops or ignores the return keys, accessibility, group and sync
    /// (SecItem.cpp 3115-3124, 4820-4824), whose faults stay for the
    /// data-protection side. `operation`: the call, for how a group that
    /// is no string reads (``accessGroup(_:_:)``); the changes of an update
    /// read as `.update`.
    static func read(_ dictionary: [String: Any], operation: KeychainEngine.Operation = .find, stringData: Bool = false,
                     fileKeychain: Bool = false) -> Result<ItemSpec, Refusal> {
        var spec = ItemSpec()
        var syncNotBoolean = false
        // Dictionaries have no order; read keys sorted so a dictionary with
        // two faults always reports the same one.
        for key in dictionary.keys.sorted() {
            guard let value = dictionary[key] else { continue }
            if key == kSecAttrSynchronizable { syncNotBoolean = !(value is Bool) }
            switch apply(key, value, to: &spec, Context(operation: operation, stringData: stringData, fileKeychain: fileKeychain)) {
            case .now(let status)?: return .failure(Refusal(status: status))
            case .atParse(let status)?: if spec.pendingValue == nil { spec.pendingValue = PendingValue(status, key: key) }
            case nil: break
            }
        }
        // The client's "item with kSecAttrAccessControl is not
        // synchronizable" compares the value with kCFBooleanTrue only
        // (SecItem.m 1657-1660), and no check of securityd refuses the
        // pair: `"1"` (or any other value that reads as synchronizable)
        // with an access control stores a synchronizable item with access
        // control, which kcs does not model (audit 19, F2).
        if syncNotBoolean, spec.synchronizable == .yes, spec.accessControl != nil,
           operation == .add || operation == .update {
            return .failure(Refusal(status: .unimplemented))
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

    /// How one dictionary is read.
    struct Context {
        var operation: KeychainEngine.Operation
        var stringData: Bool
        var fileKeychain: Bool

        /// A fault of securityd's parse: at the parse, but at once where
        /// the file keychain's client reads the key itself.
        func parse(_ status: KeychainStatus) -> Fault { fileKeychain ? .now(status) : .atParse(status) }
    }

    /// Reads one entry into `spec`; the fault, if any.
    private static func apply(_ key: String, _ value: Any, to spec: inout ItemSpec, _ context: Context) -> Fault? {
        if key.utf8.count < 4 { return context.parse(.param) }
        if unmodelled.contains(key) { return .now(.unimplemented) }
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
                return context.parse(.param)
            }
        case kSecAttrAccessGroup:
            switch accessGroup(value, context.operation) {
            case .success(let group): spec.accessGroup = group
            case .failure(let refusal): return .atParse(refusal.status)
            }
        case kSecAttrSynchronizable:
            return synchronizable(value, &spec)
        case kSecAttrAccessible:
            guard let name = value as? String,
                  let a = Accessibility(constantOrCode: name) else { return .atParse(.param) }
            spec.accessibility = a
        case kSecAttrAccessControl:
            // The client's check (SecItem.m 1653-1655).
            guard let ac = value as? SecAccessControl else { return .now(.param) }
            spec.accessControl = ac.accessControl
        case kSecValueData:
            if !context.stringData, value is String || value is Substring { return context.parse(.param) }
            guard let bytes = ByteCodec.bytes(of: value) else { return context.parse(.param) }
            spec.data = ByteCodec.encode(bytes)
        case kSecValuePersistentRef:
            // Bytes a device cannot parse: errSecItemInvalidValue (errSecParam).
            guard let bytes = ByteCodec.dataBytes(of: value), let ref = PersistentRef(bytes: bytes) else { return context.parse(.param) }
            spec.persistentRef = ref
        case kSecReturnData, kSecReturnAttributes, kSecReturnRef, kSecReturnPersistentRef:
            // securityd takes a Boolean only (SecDbQuery.c `query_add_return`,
            // 627-633); the file keychain reads "equals kCFBooleanTrue" and
            // takes any other value as false (SecItem.cpp 3115-3124).
            guard let on = value as? Bool else { return .atParse(.param) }
            let kind: ReturnKinds = switch key {
            case kSecReturnData: .data
            case kSecReturnAttributes: .attributes
            case kSecReturnRef: .reference
            default: .persistentReference
            }
            if on { spec.returns.insert(kind) } else { spec.returns.remove(kind) }
        case kSecMatchLimit:
            return matchLimit(value, &spec, context)
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
                // The client takes the issuer as data only (SecItem.m
                // SecItemAttributesPrepare, line 1447: CFCastWithError(CFData)).
                if attribute == .issuer, bytes(value) == nil { return .now(.param) }
                let v = context.fileKeychain ? fileKeychainValue(attribute, value) : attributeValue(attribute, value)
                guard let v else { return context.parse(.param) }
                spec.attributes[attribute] = v
            } else if key.hasPrefix("kSecMatch") || key.hasPrefix("kSecReturn") || key.hasPrefix("kSecUse")
                        || key.hasPrefix("kSecValue") || key.hasPrefix("kSecClass") {
                return context.parse(.param)
            } else {
                return context.parse(.noSuchAttr)
            }
        }
        return nil
    }

    /// `kSecAttrAccessGroup` (audit 19, F4). `agrp` is a String column
    /// (SecItemSchema.c 86), which `copyString` fills from a string or
    /// from a data's UTF-8, and refuses otherwise (SecDbItem.c 61-72, via
    /// SecDbQuery.c 324: errSecParam). Which value the group check sees
    /// depends on the call:
    /// - find: the parse comes first (SecItemServer.c 2588) and the check
    ///   reads the converted value (2590-2600): a data is its string.
    /// - add: the parse comes first (2705), the check reads the raw value
    ///   (2707-2719): a data is no string (``groupNotAString``).
    /// - update and delete, and an update's changes: the raw value is
    ///   checked before any parse (3145-3150, 3255-3260, 3204-3213): any
    ///   value that is no string is ``groupNotAString``.
    /// The failure is the parse's errSecParam.
    static func accessGroup(_ value: Any, _ operation: KeychainEngine.Operation) -> Result<String, Refusal> {
        if let group = string(value) { return .success(group) }
        if operation == .update || operation == .delete { return .success(groupNotAString) }
        guard let data = ByteCodec.dataBytes(of: value), let text = String(validating: data, as: UTF8.self) else {
            return .failure(Refusal(status: .param))
        }
        return .success(operation == .find ? text : groupNotAString)
    }

    /// `kSecAttrSynchronizable` (audit 19, F2). securityd reads it with
    /// `copyNumber` (the `sync` column is a Number, SecItemSchema.c 88;
    /// SecDbQuery.c 302-304): a number as it is, a Boolean as 0 or 1, a
    /// string as its integer when `"%ld"` prints it back ("1", "0"),
    /// any other string as text (SecDbItem.c 131-151); the column is SQL
    /// INTEGER (SecItemDb.c 114-117), so a whole Double is stored as an
    /// integer. Only 1 is synchronizable (SecDbItem.c 634-640, 1449-1454)
    /// and a query without the key looks for 0 (SecDbQuery.c 1092-1096): a
    /// stored 2, 1.5 or "yes" syncs nowhere and is found only by
    /// `kSecAttrSynchronizableAny`, which kcs does not model:
    /// errSecUnimplemented at the parse. The Mac's client routes by
    /// `readNumber` (SecItem.cpp 4044-4075: non-zero is synchronizable, a
    /// string that is no number is 0), so the spec keeps that reading.
    private static func synchronizable(_ value: Any, _ spec: inout ItemSpec) -> Fault? {
        if let s = string(value), s == kSecAttrSynchronizableAny {
            spec.synchronizable = .any
            return nil
        }
        let stored: Int?, routed: Bool
        if let b = value as? Bool {
            (stored, routed) = (b ? 1 : 0, b)
        } else if let n = integer(value) {
            (stored, routed) = (n, Int32(truncatingIfNeeded: n) != 0)
        } else if let d = value as? Double {
            (stored, routed) = (Int(exactly: d), d.isFinite && Int32(exactly: d.rounded(.towardZero)).map { $0 != 0 } ?? true)
        } else if let s = string(value) {
            let n = AttributeValue.number(fromText: s)
            (stored, routed) = (n, (n ?? 0) != 0)
        } else {
            return .atParse(.param)
        }
        spec.synchronizable = stored == 1 || stored != 0 && routed ? .yes : .no
        return stored == 0 || stored == 1 ? nil : .atParse(.unimplemented)
    }

    /// `kSecMatchLimit`. securityd: kSecMatchLimitOne or All, or a number
    /// as query_add_match takes it (CFNumberGetValue as a CFIndex, a whole
    /// Double too): kCFNotFound (-1) is kSecMatchUnlimited; SQLite reads a
    /// lower one as no limit and the walk stops after the first row
    /// (SecDbQuery.c lines 476-487, SecItemDb.c 1078; audit 14, K3): a list
    /// of one. The Mac's file keychain takes a string or a number only
    /// (SecItem.cpp 2982), reads a string other than All as one and a
    /// number as an int (3131-3137); securityd's refusal of the others
    /// stays for the data-protection side (audit 19, F3).
    private static func matchLimit(_ value: Any, _ spec: inout ItemSpec, _ context: Context) -> Fault? {
        if let s = value as? String, s == kSecMatchLimitOne { spec.limit = .one }
        else if let s = value as? String, s == kSecMatchLimitAll { spec.limit = .all }
        else if let n = integer(value) ?? (value as? Double).flatMap({ Int(exactly: $0) }) {
            spec.limit = n == 1 ? .one : n == -1 ? .all : n < -1 ? .firstOnly : .count(n)
        } else if context.fileKeychain, value is String {
            spec.limit = .one
            return .atParse(.param)
        } else if context.fileKeychain, let d = value as? Double, let n = Int32(exactly: d.rounded(.towardZero)) {
            spec.limit = n == 1 ? .one : n == -1 ? .all : n < -1 ? .firstOnly : .count(Int(n))
            return .atParse(.param)
        } else {
            return context.parse(.param)
        }
        return nil
    }

    /// An integer from any Swift integer type; nil if it does not fit an `Int`.
    static func integer(_ value: Any) -> Int? {
        guard let i = value as? any BinaryInteger else { return nil }
        return Int(exactly: i)
    }

    /// The engine's value for an attribute, or nil for a value of the wrong
    /// type: what securityd's conversion for the attribute's column keeps
    /// of the value (SecDbQuery.c `query_add_attribute_with_desc`, lines
    /// 287-310, the same for an add, a query and the changes of an update),
    /// with its type where the column keeps one (``AttributeValue``).
    static func attributeValue(_ attribute: ItemAttribute, _ value: Any) -> AttributeValue? {
        switch attribute.column {
        case .date:
            // A device takes a `Date` only (SecDbItem.c `copyDate`, line 154:
            // CFDateGetTypeID, else errSecItemInvalidValue, that is errSecParam).
            // A date that is no number (NaN, infinite) is refused: NaN never
            // equals itself, so such a key could be added again and again
            // and found by no query (a kcs decision; found by adversarial testing).
            guard let date = value as? Date, date.timeIntervalSinceReferenceDate.isFinite else { return nil }
            return .date(date.timeIntervalSinceReferenceDate)
        case .data:
            // The client takes the issuer as data only (SecItem.m
            // SecItemAttributesPrepare, line 1447: CFCastWithError(CFData)).
            if attribute == .issuer, bytes(value) == nil { return nil }
            // `copyData` (SecDbItem.c lines 74-87): a string's UTF-8 bytes,
            // a number's four bytes as an SInt32 (kcs refuses one that does
            // not fit, whose conversion is lossy).
            if let n = integer(value) {
                guard let n32 = Int32(exactly: n) else { return nil }
                return .string(AttributeText(ByteCodec.encode(withUnsafeBytes(of: n32.littleEndian) { Array($0) })))
            }
            guard let bytes = ByteCodec.bytes(of: value) else { return nil }
            return .string(AttributeText(ByteCodec.encode(bytes)))
        case .blob:
            // `copyBlob` (SecDbItem.c lines 108-119) keeps a string, a data
            // or a number, each as its own kind; a Boolean is none of them.
            if let text = string(value) { return enumeratedOrText(attribute, text) }
            if let bytes = bytes(value) { return bytes.withUnsafeBufferPointer { .string(AttributeText(bytes: $0, kind: .bytes)) } }
            return integer(value).map(AttributeValue.integer)
        case .number:
            // copyNumber turns a Boolean into 0 or 1 (SecDbItem.c line 136).
            if let b = value as? Bool { return number(attribute, b ? 1 : 0) }
            if let n = integer(value) { return number(attribute, n) }
            guard let text = string(value) else { return nil }
            if case .enumerated(let values) = attribute.valueKind,
               let v = values.first(where: { $0.constant == text }) { return .string(AttributeText(v.stored)) }
            if let n = AttributeValue.number(fromText: text) { return number(attribute, n) }
            // Any other string is kept as text (SecDbItem.c lines 139-147),
            // which the column's INTEGER affinity turns into a number when
            // SQLite reads it as one ("0443", "1.5"): such a value matches
            // numbers kcs cannot tell, so kcs refuses it (a kcs decision).
            if AttributeValue.sqliteReadsAsNumber(text) { return nil }
            return .string(AttributeText(text, kind: .verbatim))
        }
    }

    /// The engine's value for an attribute of a call to the Mac's
    /// file-based keychain, or nil for a value of the wrong type. Its
    /// client stores attributes as bytes, not typed SQLite values: it makes
    /// each from a string's UTF-8 or a data's bytes (SecItem.cpp
    /// `_CFDataCreateAttribute` and `_CFStringCreateAttribute`, lines
    /// 1396-1450; a key's label and tag take either type, lines 1564-1585).
    /// kcs reads a String and a Data there as the same bytes and refuses a
    /// number or a string kept as given, as it did before values had types
    /// (how each of that client's paths treats the other type is not
    /// modelled).
    static func fileKeychainValue(_ attribute: ItemAttribute, _ value: Any) -> AttributeValue? {
        switch attribute.valueKind {
        case .enumerated: guard value is String else { return nil }
        case .string: guard ByteCodec.bytes(of: value) != nil else { return nil }
        case .integer, .date: break
        }
        let v = attributeValue(attribute, value)
        guard case .string(let t)? = v else { return v }
        switch t.kind {
        case .text: return v
        case .bytes: return .string(AttributeText(ByteCodec.encode(t.withBytes { Array($0) })))
        case .verbatim: return nil
        }
    }

    /// The bytes of a `Data` or `[UInt8]` value (a CFData).
    private static func bytes(_ value: Any) -> [UInt8]? {
        ByteCodec.dataBytes(of: value) ?? (value as? [UInt8])
    }

    /// A `String` or `Substring` value as a String.
    private static func string(_ value: Any) -> String? {
        (value as? String) ?? (value as? Substring).map(String.init)
    }

    /// A string for a Blob column: an enumerated attribute's constant by its
    /// short name, any other string of such an attribute as given
    /// (``AttributeText/Kind/verbatim``), and plain text otherwise.
    private static func enumeratedOrText(_ attribute: ItemAttribute, _ text: String) -> AttributeValue {
        guard case .enumerated(let values) = attribute.valueKind else { return .string(AttributeText(text)) }
        if let v = values.first(where: { $0.constant == text }) { return .string(AttributeText(v.stored)) }
        return .string(AttributeText(text, kind: .verbatim))
    }

    /// A number for a Number column: an enumerated attribute's constant
    /// whose string is that number (kSecAttrKeyTypeRSA is "42", which
    /// `copyNumber` stores as 42: OSX/sec/Security/SecItemConstants.c lines 239-244), else
    /// the number.
    private static func number(_ attribute: ItemAttribute, _ n: Int) -> AttributeValue {
        if case .enumerated(let values) = attribute.valueKind,
           let v = values.first(where: { $0.value == String(n) }) { return .string(AttributeText(v.stored)) }
        return .integer(n)
    }
}
