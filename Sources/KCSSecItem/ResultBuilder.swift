#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import KeychainEngine

/// Shapes found or added items the way the SecItem functions return them.
///
/// One return kind gives that value alone (`Data` for data or a persistent
/// reference, ``SecItemReference`` for a reference); attributes, or more than
/// one kind, give a dictionary keyed by constant names with the data under
/// ``kSecValueData``. A match limit of one gives a single value; any other
/// limit an array, even with one element. Nothing asked to be returned: nil
/// for a limit of one, an empty array for a find with another limit, but for
/// the Mac's file keychain, which returns a reference then.
enum ResultBuilder {
    /// `find`: a find's (which asks securityd for attributes with data
    /// alone), not an add's. `fileKeychain`: the Mac's file-based keychain,
    /// whose client returns only what was asked for.
    static func result(_ items: [FoundItem], returns: ReturnKinds, single: Bool, platform: Platform, find: Bool,
                       fileKeychain: Bool = false) -> Any? {
        guard !returns.isEmpty else {
            // The Mac's file keychain returns a reference when nothing is
            // asked for (SecItem.cpp lines 3126-3130), and the merge passes
            // its result on whenever the data-protection side has none
            // (lines 4893-4899, 4925-4928): a query without return keys
            // gets a reference to a file-keychain match (audit 16, F2).
            // Otherwise securityd makes the result an array whenever the
            // limit is not one (SecItemDb.c s3dl_query, lines 1052-1056) and
            // appends nothing for a row without return keys (kCFNull,
            // lines 475-477 and 674-686); the client makes a new array of
            // the reply and appends nothing to it (SecItem.m
            // SecItemResultProcess, lines 1306-1325): a find by a limit
            // other than one gets an empty array, an add nil (audit 21, F4).
            let fileMatches = items.filter { $0.item.owner != nil }
            guard find, fileKeychain, !fileMatches.isEmpty else { return find && !single ? [Any]() : nil }
            return result(fileMatches, returns: .reference, single: single, platform: platform, find: true, fileKeychain: true)
        }
        let values = items.compactMap { value(of: $0, returns, platform, find: find, fileKeychain: fileKeychain) }
        if single { return values.first }
        return values
    }

    /// nil for a reference the client does not make (a password off the Mac).
    static func value(of found: FoundItem, _ returns: ReturnKinds, _ platform: Platform, find: Bool, fileKeychain: Bool) -> Any? {
        switch returns {
        case .data: return data(of: found.item)
        case .persistentReference: return Data(found.persistentRef(on: platform).bytes)
        case .reference: return reference(found, platform)
        default:
            // What securityd sent and the client kept (Platform.resultCarries…).
            var dictionary: [String: Any] = [:]
            if fileKeychain ? returns.contains(.attributes) : platform.resultCarriesAttributes(returns, find: find) {
                dictionary = attributes(of: found)
            }
            // No stored data: no kSecValueData key (SecItemDb.c handle_result).
            // Data alone is empty data for an add (securityd's empty CFData);
            // a find leaves such items out (World.returned, SecItem.m).
            if platform.resultCarriesData(returns, of: found), found.item.dataText != nil {
                dictionary[kSecValueData] = data(of: found.item)
            }
            if returns.contains(.reference), let ref = reference(found, platform) { dictionary[kSecValueRef] = ref }
            if returns.contains(.persistentReference) {
                dictionary[kSecValuePersistentRef] = Data(found.persistentRef(on: platform).bytes)
            }
            return dictionary
        }
    }

    static func data(of item: StoredItem) -> Data {
        Data(ByteCodec.decode(item.data ?? ""))
    }

    static func reference(_ found: FoundItem, _ platform: Platform) -> SecItemReference? {
        let itemClass = found.resultClass
        guard platform.makesReference(to: found) else { return nil }
        return SecItemReference(itemClass: itemClass, accessGroup: found.groupName,
                                persistentReference: found.persistentRef(on: platform).bytes)
    }

    /// An item's attributes keyed by constant names: class, access group,
    /// synchronizable, accessibility (and access control), every
    /// primary-key attribute (absent ones as empty, as the keychain stores
    /// them) and every other attribute set. An identity has its
    /// certificate's and its key's.
    static func attributes(of found: FoundItem) -> [String: Any] {
        var dictionary: [String: Any] = [:]
        func addAll(_ item: StoredItem) {
            for attribute in item.itemClass.primaryKeyAttributes where item.attributes[attribute] != nil
                || (attribute != .startDate && attribute != .endDate) {
                dictionary[attribute.constantName] = value(attribute, item.attributes.effectiveValue(attribute))
            }
            for entry in item.attributes {
                dictionary[entry.attribute.constantName] = value(entry.attribute, entry.value)
            }
        }
        if let key = found.identityKey { addAll(key.item) }
        addAll(found.item)
        let item = found.item
        dictionary[kSecClass] = found.resultClass.constantName
        dictionary[kSecAttrAccessGroup] = found.groupName
        dictionary[kSecAttrSynchronizable] = item.synchronizable
        dictionary[kSecAttrAccessible] = item.accessibility.constantName
        if let ac = item.accessControl { dictionary[kSecAttrAccessControl] = SecAccessControl(ac) }
        return dictionary
    }

    /// A stored value as the framework returns it: the type it was given
    /// in, which a device keeps in the item's encrypted attributes and reads
    /// back from a column by the stored type (SecDbItem.c lines 1062-1078:
    /// SQLITE_TEXT a CFString, SQLITE_BLOB a CFData; empty data is kept as
    /// the empty text, ``AttributeText/init(bytes:kind:)``, and comes back
    /// a String). `Int` for a number,
    /// the constant name of an enumerated value, `Data` for bytes and for
    /// any value of a Data column (`copyData` stores bytes, SecDbItem.c
    /// lines 74-87, and an absent one is empty data, `query_pre_add`,
    /// SecItemDb.c lines 1263-1265), `String` otherwise (an absent Blob
    /// column's default is the empty CFString, line 1267).
    static func value(_ attribute: ItemAttribute, _ value: AttributeValue) -> Any {
        switch value {
        case .integer(let i):
            return i
        case .date(let seconds):
            return Date(timeIntervalSinceReferenceDate: seconds)
        case .string(let text):
            switch text.kind {
            case .bytes: return text.withBytes { Data($0) }
            case .verbatim: return text.string
            case .text: break
            }
            let s = text.string
            if case .enumerated(let values) = attribute.valueKind,
               let v = values.first(where: { $0.short == s }) {
                return v.constant
            }
            if attribute.column == .data || s.hasPrefix(ByteCodec.marker) {
                return Data(ByteCodec.decode(s))
            }
            return s
        }
    }
}
