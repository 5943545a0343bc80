/// The operating system a world models, with its major version.
///
/// Only the differences listed in semantics.md section 6 depend on it.
public struct Platform: Sendable, Hashable, CustomStringConvertible {
    /// The operating-system family.
    public enum Family: String, Sendable, Hashable, CaseIterable {
        case ios, macos, catalyst, watchos

        /// The oldest major version kcs answers for. Its version rules are
        /// read from Security-58286 (iOS 11, watchOS 4, macOS 10.13) on, and
        /// the release before (iOS 10, watchOS 3) is modelled as "before"
        /// them; Mac Catalyst began with iOS 13, and `macos 10` stands for
        /// 10.13-10.15. An older version would get a newer device's answers
        /// in silence (OS X 10.10's update reported errSecMissingEntitlement
        /// and changed the item, Security-57031; found checking reported
        /// device behaviour), so the language refuses it.
        public var oldestModelled: Int {
            switch self {
            case .ios, .macos: 10
            case .watchos: 3
            case .catalyst: 13
            }
        }
    }

    /// Major versions are below this: a larger one is a typo (`ios 180`).
    public static let versionBound = 100

    public var family: Family
    public var version: Int

    public init(_ family: Family, _ version: Int) {
        self.family = family
        self.version = version
    }

    /// The default platform of a new world: iOS 18.
    public static let defaultPlatform = Platform(.ios, 18)

    /// Whether a query naming an access group the caller lacks fails with
    /// `errSecMissingEntitlement` (iOS 13 / macOS 10.15 and later) rather than
    /// finding nothing (iOS 12 and earlier; Security-58286 has no such check).
    public var rejectsUnentitledQueryGroups: Bool {
        switch family {
        case .ios, .catalyst: version >= 13
        case .watchos: version >= 6
        case .macos: version >= 11  // 10.15 is written "macos 10" only by approximation; treated as older
        }
    }

    /// The status for moving an item by update into a group the caller lacks:
    /// `errSecMissingEntitlement` from iOS 13, `errSecNoAccessForItem` before.
    public var unentitledMoveStatus: KeychainStatus {
        rejectsUnentitledQueryGroups ? .missingEntitlement : .noAccessForItem
    }

    /// Whether SecItemUpdate and SecItemDelete drop match limits and return
    /// keys from the query before securityd sees them: the macOS client
    /// (OSX/libsecurity_keychain/lib/SecItem.cpp `SecItemCopyTranslatedAttributes`
    /// with pruneMatch and pruneReturn), which Mac Catalyst apps use too. Its
    /// SecItemAdd prunes match keys the same way (pruneMatch).
    public var prunesUpdateAndDeleteQueries: Bool { family == .macos || family == .catalyst }

    /// The item classes iCloud Keychain syncs (SecItemDataSource.c
    /// `dsSyncedClasses`): passwords and keys always; certificates from
    /// Security-58286.1.32 (iOS 11, watchOS 4, macOS 10.13), whose data
    /// source adds cert_class(); Security-57740.60.18 (iOS 10) lists genp,
    /// inet and keys only. A synchronizable certificate stays put before that.
    public var syncedClasses: Set<ItemClass> {
        let certificates: Bool
        switch family {
        case .ios: certificates = version >= 11
        case .watchos: certificates = version >= 4
        case .macos, .catalyst: certificates = true  // kcs writes macOS 10.13-10.15 as "macos 10"
        }
        return certificates ? Self.syncedWithCertificates : Self.syncedWithoutCertificates
    }
    // Built once: a set built per item per device was a sixth of a sync
    // (adversarial run 27, F3).
    private static let syncedWithCertificates: Set<ItemClass> = [.genericPassword, .internetPassword, .key, .certificate]
    private static let syncedWithoutCertificates: Set<ItemClass> = [.genericPassword, .internetPassword, .key]

    /// Whether the keychain daemon is the Mac's (macOS and Mac Catalyst):
    /// `#if TARGET_OS_OSX` code in securityd applies, such as entitlement
    /// validation and the implicit `com.apple.token` group. (Security-58286
    /// and 59306 appended that group on every platform; kcs models it on the
    /// Mac only, where 59754 and later keep it.)
    public var usesMacDaemon: Bool { family == .macos || family == .catalyst }

    /// Whether securityd gives a process without entitlements (no app ID,
    /// no keychain-access-groups, no application groups: an unhosted test
    /// bundle) the list `[com.apple.token]` rather than none: iOS 10 to 13
    /// and watchOS 3 to 6, whose `SecTaskCopyAccessGroups` appends the
    /// token group for every process (Security-57740.60.18
    /// `OSX/sec/ipc/server.c` lines 158-171; Security-58286.1.32 to
    /// 59306.140.5 `server_entitlement_helpers.c`, "We would like to add
    /// implicit token access group always"). Security-59754.41.1 (iOS 14)
    /// moved that under `#if TARGET_OS_OSX`: from then on such a process has
    /// no list and every call is errSecMissingEntitlement. The Mac's rule
    /// is its own (``usesMacDaemon``).
    public var listsTokenGroupForUnentitled: Bool {
        tokenGroupForUnentitledReleases.map { version <= $0.upperBound } ?? false
    }

    /// The releases of this family that give a process without
    /// entitlements the token group (``listsTokenGroupForUnentitled``), as
    /// data, so the explanations name the releases the rule decides by
    /// (review 22a, R8); nil for the Mac, whose rule is its own.
    public var tokenGroupForUnentitledReleases: ClosedRange<Int>? {
        switch family {
        case .ios: 10...13
        case .watchos: 3...6
        case .macos, .catalyst: nil
        }
    }

    /// The release of this family whose writes search the token group
    /// (``searchesTokenGroupOnWrites``), nil for none.
    public var tokenGroupSearchedOnWritesRelease: Int? {
        switch family {
        case .ios: 11
        case .watchos: 4
        case .macos, .catalyst: nil
        }
    }

    /// Whether securityd appends `com.apple.token` to the list of every
    /// process with entitlements off the Mac: iOS 10 to 13 and watchOS 3 to
    /// 6. Security-57740.60.18 `OSX/sec/ipc/server.c`
    /// `SecTaskCopyAccessGroups` lines 158-171 ("Always allow access to
    /// com.apple.token access group, unless entitlement validation
    /// explicitly failed", and iOS validates always); Security-58286.1.32
    /// `server_entitlement_helpers.c` lines 102-118 the same; 58286.200.222
    /// to 59306.140.5 lines 137-146, leaving it out only for an app ID left
    /// with nothing, which iOS never has. Security-59754.41.1 (iOS 14) moved
    /// it under `#if TARGET_OS_OSX`. The Mac's rule is ``usesMacDaemon``'s.
    public var appendsTokenGroup: Bool { listsTokenGroupForUnentitled }

    /// Whether a query that names no group leaves the token group out of
    /// its search: Security-59306 (iOS 13, watchOS 6) `_SecItemCopyMatching`
    /// (`keychain/securityd/SecItemServer.c` lines 1653-1664 at 59306.140.5, "On iOS, drop
    /// 'com.apple.token' AG from allowed accessGroups ... If the application
    /// on iOS wants to access token items, it needs explicitly specify
    /// kSecAttrAccessGroup=kSecAttrAccessGroupToken"). Not in 57740 or
    /// 58286; from 59754 the token group is no longer appended off the Mac.
    /// 59306 is the last release that appends the token group, so this is
    /// the last of ``tokenGroupForUnentitledReleases`` (review 22b, R10).
    public var dropsTokenGroupFromImplicitQueries: Bool {
        tokenGroupForUnentitledReleases.map { version == $0.upperBound } ?? false
    }

    /// Whether a write into `com.apple.token` is errSecParam rather than
    /// errSecMissingEntitlement: iOS 11 and watchOS 4 (Security-58286.1.32
    /// to 58286.70.7), whose `_SecItemAdd` refuses only an empty list and
    /// then "storing items into kSecAttrAccessGroupToken is not allowed"
    /// (`SecItemServer.c` lines 1549-1580), and whose update and delete
    /// search the list they get. Security-57740 (iOS 10) refused a
    /// token-only list in add, update and delete (lines 1295, 1374, 1458);
    /// 58286.200.222 (iOS 12) on writes through
    /// `SecurityClientCopyWritableAccessGroups`, which drops the token group.
    public var searchesTokenGroupOnWrites: Bool { tokenGroupSearchedOnWritesRelease == version }

    /// Whether the SecItem client makes a reference (`kSecReturnRef`) for an
    /// item of this class. `SecItemCreateFromAttributeDictionary`
    /// (OSX/sec/Security/SecItem.m line 442) makes keys, certificates and
    /// identities; passwords only through its `SECITEM_SHIM_OSX` branch
    /// (line 462), which exists in the Mac's build of the client
    /// (OSX/sec/ipc/client.c line 31, `#if TARGET_OS_OSX`), the one Mac
    /// Catalyst apps load too. Elsewhere a password's reference is NULL:
    /// a nil result for ref alone, no element of an array
    /// (`SecItemResultProcess`, line 1323) and no kSecValueRef in a
    /// dictionary (`SecItemResultCopyPrepared`, line 1274).
    public func makesReferences(to itemClass: ItemClass) -> Bool {
        switch itemClass {
        case .genericPassword, .internetPassword: usesMacDaemon
        case .key, .certificate, .identity: true
        }
    }

    /// Whether the client makes a reference to this found item: its class
    /// allows one, and a key of the data-protection keychain is one
    /// `SecKeyCreateWithData` takes (OSX/sec/Security/SecKey.m): not a
    /// symmetric key ("Unsupported symmetric key type", lines 1559-1560), a
    /// key type it knows (kcs models RSA and EC; the default type 0 is
    /// "Unsupported … key type", lines 1480 and 1555), with data (line
    /// 1395). Otherwise the reference is NULL and the call still succeeds:
    /// the same as a password's off the Mac (conformance audit 16, F1). An
    /// identity's reference is made from its key's (SecItem.m lines 449-458:
    /// no key, no identity; audit 17, F1). A certificate's is made from its
    /// data (`SecCertificateCreateFromAttributeDictionary`, SecCertificate.c
    /// lines 6183-6189: no data, NULL), and an identity's needs its
    /// certificate's too (SecItem.m lines 449-458: `if (key && cert)`;
    /// conformance audit 20, F2). The Mac's file keychain makes its
    /// key references through CSSM.
    public func makesReference(to found: FoundItem) -> Bool {
        guard makesReferences(to: found.resultClass) else { return false }
        switch found.resultClass {
        case .key: return Self.rebuildsKey(found.item)
        case .certificate: return found.item.owner != nil || found.item.dataText != nil
        case .identity:
            guard let key = found.identityKey else { return true }
            return (found.item.owner != nil || key.certificateHasData) && Self.rebuildsKey(key.item)
        case .genericPassword, .internetPassword: return true
        }
    }

    /// Whether `SecKeyCreateWithData` makes a key of a stored key (see
    /// ``makesReference(to:)``).
    static func rebuildsKey(_ item: StoredItem) -> Bool {
        guard item.owner == nil else { return true }
        // A key class or key type the SecItem API gave as a string that is
        // no constant (text of kind `verbatim`) names none the client knows
        // (SecKey.m lines 1480, 1555: no key is made; audit 15, F2).
        guard item.dataText != nil, case .string(let keyClass) = item.attributes.effectiveValue(.keyClass),
              keyClass.kind == .text, keyClass.string != "symmetric",
              case .string(let keyType) = item.attributes.effectiveValue(.keyType), keyType.kind == .text else { return false }
        return ItemAttribute.keyTypes.contains { $0.stored == keyType.string }
    }

    /// Whether a result hands back the item's data. Asked for, it does; and
    /// a dictionary that asks for a reference the client cannot make (a
    /// password off the Mac) keeps the data securityd sent to make it with:
    /// securityd returns data and attributes for a reference (SecItemDb.c
    /// line 257), and `SecItemResultCopyPrepared` (SecItem.m lines
    /// 1212-1215) removes the data only once a reference was made and data
    /// was not asked for (line 1277). `[ref, attributes]` on an iPhone's
    /// password carries the secret.
    public func resultCarriesData(_ returns: ReturnKinds, of found: FoundItem) -> Bool {
        if returns.contains(.data) { return true }
        return returns.contains(.reference) && returns != .reference && !makesReference(to: found)
    }

    /// Whether a dictionary result carries the item's attributes: asked for,
    /// or along with a reference (securityd returns them to make it with,
    /// SecItemDb.c line 257, and the client's dictionary is a copy of
    /// securityd's, SecItem.m line 1209), or in a find that asks for data
    /// without them (the client asks for attributes too, SecItem.m lines
    /// 2064-2067: `[data, persistent-ref]` has every attribute).
    public func resultCarriesAttributes(_ returns: ReturnKinds, find: Bool) -> Bool {
        if returns.contains(.attributes) { return true }
        let dictionary = returns.rawValue & (returns.rawValue - 1) != 0
        return dictionary && (returns.contains(.reference) || find && returns.contains(.data))
    }

    /// Whether the device has a biometric sensor: no Apple Watch has Face ID
    /// or Touch ID (watchOS authenticates with the passcode and wrist
    /// detection, `LAPolicy.deviceOwnerAuthenticationWithWristDetection`),
    /// so a watch starts with no biometry and cannot enrol any.
    public var hasBiometry: Bool { family != .watchos }

    /// Whether App Clips run here: iPhone and iPad from iOS 14, where they
    /// came (Security-59754, iOS 14, is the first to hold securityd's App
    /// Clip rules: `SecServerDeleteForAppClipApplicationIdentifier` and the
    /// clip's single access group). No Mac, Catalyst or watch runs one.
    public var runsAppClips: Bool { family == .ios && version >= 14 }

    public var description: String { "\(family.rawValue) \(version)" }
}
