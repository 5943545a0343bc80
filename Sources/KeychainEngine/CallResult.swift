/// An item a call added, found, updated or removed, with its group's name.
public struct FoundItem: Sendable, Hashable {
    public var id: ItemID
    public var item: StoredItem
    /// The group's name as text (the world's, ``World/groupName(_:)``):
    /// two words to copy, where a String was retained with every result.
    public var groupText: AttributeText
    public var groupName: String { groupText.string }
    /// The class the caller asked for: an identity (a certificate `item`
    /// with its key) or the item's own.
    public var resultClass: ItemClass { keyBox == nil ? item.itemClass : .identity }

    /// For an identity: the private key that pairs with the certificate `item`.
    public var identityKey: IdentityKey? {
        get { keyBox?.key }
        set { keyBox = newValue.map(KeyBox.init) }
    }
    /// The key half out of line: inline, it doubled the size of every
    /// found item, and so of every result list and every move of one.
    private var keyBox: KeyBox?

    public struct IdentityKey: Sendable, Hashable {
        public var id: ItemID
        public var item: StoredItem
        public var groupText: AttributeText
        public var groupName: String { groupText.string }
        /// Whether the certificate row holds data: the identity's `item`
        /// carries the key's data in its place (securityd moves the
        /// certificate's aside, SecItemDb.c lines 645-656), and the client
        /// makes the identity's certificate, so its reference, from it
        /// (``Platform/makesReference(to:)``).
        public var certificateHasData = true
    }

    /// An identity's key half, shared by copies of the found item.
    private final class KeyBox: Sendable, Hashable {
        let key: IdentityKey
        init(_ key: IdentityKey) { self.key = key }
        static func == (a: KeyBox, b: KeyBox) -> Bool { a.key == b.key }
        func hash(into h: inout Hasher) { h.combine(key) }
    }

    init(id: ItemID, item: StoredItem, groupText: AttributeText, identityKey: IdentityKey? = nil) {
        self.id = id
        self.item = item
        self.groupText = groupText
        self.keyBox = identityKey.map(KeyBox.init)
    }
}

/// Why a call got its status: the rule of semantics.md that decided it.
public enum StatusReason: Sendable, Hashable {
    case succeeded
    /// Neither an app ID nor keychain access groups (semantics 1.6).
    case unsigned
    case missingClass
    /// A `kSecClass` string that names no class (the SecItem-shaped API).
    case unknownClass(String)
    /// A value securityd's parse refuses (the SecItem-shaped API): its key
    /// (the key alone, so the payload is no larger than the others').
    case valueRefused(String)
    case attributeNotInClass(ItemAttribute, ItemClass)
    case accessibilityWithAccessControl
    case syncWithAccessControl
    /// An explicit group the caller's list lacks (add; queries from iOS 13).
    case groupNotEntitled(AttributeText)
    /// iOS 12 and earlier: an unentitled explicit group simply finds nothing.
    case groupNotEntitledFindsNothing(AttributeText)
    /// Update moving items into a group the caller lacks.
    case moveNotEntitled(AttributeText)
    /// when-passcode-set on a device without a passcode.
    case passcodeRequired(viaAccessControl: Bool)
    /// The device state keeps this accessibility's items out of reach.
    case locked(Accessibility)
    /// `inFileKeychain`: the existing item is the Mac file keychain's (an
    /// ``ItemID`` names a slot of one keychain).
    case duplicate(existing: ItemID, inFileKeychain: Bool = false)
    /// An add or update met a row with its key (a live item, or a
    /// tombstone: `existing` nil) whose class the device state keeps
    /// locked: securityd decrypts that row before it can call the call a
    /// duplicate, and the lock's error wins (SecDbItemIsCorrupt).
    case lockedDuplicate(Accessibility, existing: ItemID?)
    /// An add met a row with its key whose access control needs the
    /// user: securityd decrypts that row first, the client asks, and this
    /// is how the asking ended (`promptCanceled`, `promptNotAllowed`, …);
    /// approved, the add is a plain duplicate (audit 26, F3).
    indirect case protectedDuplicate(existing: ItemID, StatusReason)
    case noMatch
    /// Items matched, but the rows the match limit let securityd read were
    /// all passed over (needing authentication under auth-ui=skip, lost),
    /// or the limit was 0: SQL's LIMIT (``MatchLimit/cap``).
    case limitUsedUp(limit: Int)
    /// Nothing found but rows that no longer decrypt, which the read
    /// deleted (``World`` `walk`); `biometry`: how many of them were
    /// invalidated biometry-current-set rows (the others: when-passcode-set
    /// rows lost with the passcode); `more`: the match limit stopped it
    /// before further matches, which the next call reads.
    case lostRowsDeleted(count: Int, biometry: Int = 0, more: Bool)
    case limitOrReturnOnUpdate
    /// SecItemDelete with a match limit, all included (iOS, watchOS).
    case limitOnDelete
    /// SecItemAdd with a match limit (iOS, watchOS): success, nothing stored.
    case matchLimitOnAdd
    /// macOS: an update that changed kSecAttrSynchronizable without the
    /// data-protection flag moved its matches to the other keychain.
    case movedBetweenKeychains(toDataProtection: Bool)
    /// A find of data alone that matched `found` items, some stored without
    /// data: those give no value, so the result leaves them out (success).
    case storedWithoutData(found: Int)
    /// A find of a reference alone that matched `found` items the client
    /// makes no reference to (passwords off the Mac): success, no values.
    case noReference(found: Int)
    case promptCanceled
    case promptFailed
    case promptNotAllowed
    /// The access control cannot be satisfied on this device (no biometry
    /// enrolled, no passcode).
    case promptImpossible
    /// An add, or an update's new access control, that LocalAuthentication
    /// cannot bind: biometry named with none enrolled (``DeviceState/canBind(_:)``).
    case accessControlUnbound
    /// An update by an identity's persistent reference that names no class:
    /// securityd gets an `idnt` query, which no update can write (Apple's
    /// secitemfunctionality.m lines 383-396 assert errSecInternal).
    case identityReferenceUpdate
    /// An identity query naming a certificate column the identity's SQL does
    /// not select (errSecNotAvailable, from SQLite's error).
    case identityQueryColumn(ItemAttribute)
    /// An identity whose key half no longer decrypts (lost with the
    /// passcode, or an invalidated biometry-current-set key): the key's
    /// errSecDecode ends the query (SecItemDb.c s3dl_query_row).
    case identityKeyUndecodable
    /// macOS and Catalyst: no entitlement counts (an app ID without a
    /// validating profile and no keychain-access-groups).
    case unprovisioned
    /// Add, update or delete by a caller whose only group is the read-only
    /// com.apple.token (on the Mac, a process without entitlements).
    case onlyTokenGroup
    /// iOS 10-13, watchOS 3-6: a process without entitlements, whose one
    /// group is com.apple.token: a query searches it (errSecItemNotFound),
    /// and an iOS 11 add stores into it (errSecParam).
    case unentitledTokenGroup
    /// iOS 11, watchOS 4: an add into com.apple.token, or an update moving
    /// an item there, by an app whose list holds it (every app's there):
    /// "storing items into kSecAttrAccessGroupToken is not allowed".
    case tokenGroupWrite
    /// macOS file keychain: returning data for all matching passwords.
    case fileKeychainDataForAll
    /// macOS file keychain: a prompt the user denied, and why it asked.
    case fileKeychainDenied(FileKeychainDenial)
    /// macOS file keychain: a delete of another app's password, refused
    /// without a prompt (errSecInvalidOwnerEdit).
    case fileKeychainNotOwner
    /// macOS file keychain: an add by class identity (errSecParam).
    case fileKeychainIdentityAdd
    /// An item needed a prompt and no answer was supplied.
    case promptUnanswered
    /// `auth-ui=skip` outside SecItemCopyMatching (client-side errSecParam).
    case skipOutsideFind
    /// An App Clip whose access groups are not its app ID alone.
    case appClipGroups
    /// An App Clip adding or updating to a synchronizable item.
    case appClipSync
    /// A key in the attributes to change that is no attribute of the class
    /// (kSecClass, a match limit, a return key, kSecUseAuthenticationUI, a
    /// persistent reference, an authentication context): errSecNoSuchAttr.
    case notAnAttributeToChange(String)
    /// A non-interactive authentication context (`interactionNotAllowed`)
    /// would have needed a prompt.
    case contextNotInteractive
    /// A row-ID `kSecValuePersistentRef` in an add.
    case persistentRefOnAdd
    /// A persistent reference together with attributes to match (find; and
    /// update or delete with row-ID references): errSecItemIllegalQuery.
    case persistentRefWithAttributes
    /// A UUID persistent reference on a device whose Security predates them.
    case persistentRefUnreadable
    /// The class named disagrees with the persistent reference's.
    case persistentRefClassMismatch(ItemClass)
    /// macOS: `data-protection=` sent the call to the other keychain than
    /// the one whose row the persistent reference names
    /// (``World/refusesReferenceRoute(_:)``).
    case persistentRefOtherKeychain(flag: Bool)
}

/// The outcome of one SecItem call.
public struct CallResult: Sendable {
    public var status: KeychainStatus
    public var reason: StatusReason
    /// The groups a query searched (all of the caller's, or the one named),
    /// as IDs: ``searchedGroups(in:)`` names them. (The caller's list is
    /// ``World/accessGroups(of:on:)``.)
    public var searchedGroupIDs: [GroupID]
    /// Added items (add), matches (find, up to the limit), changed items
    /// (update, after the change) or removed items (delete).
    public var items: [FoundItem]
    /// What the call asked to get back (find and add).
    public var returns: ReturnKinds
    /// macOS: a query on both keychains whose data-protection side failed
    /// (with anything but errSecItemNotFound or errSecMissingEntitlement),
    /// which `SecItemMergeResults` drops for the file side's answer: that
    /// side's status and reason, for the explanation (QA s20, Q05). Boxed:
    /// rare, and every result carries the field.
    public var droppedDataProtection: DroppedSide?
    /// macOS: why the file keychain asked before a prompt the user let
    /// through (Allow, Always Allow), for the explanation; a denial says it
    /// in ``reason`` (QA s22, Q26, Q27: the approved prompt was unexplained).
    public var fileKeychainAsked: FileKeychainDenial?

    /// The failure of the data-protection side of a merged query
    /// (``droppedDataProtection``).
    public final class DroppedSide: Sendable {
        public let status: KeychainStatus
        public let reason: StatusReason
        init(_ status: KeychainStatus, _ reason: StatusReason) { self.status = status; self.reason = reason }
    }

    /// Items returned (find) or removed (delete) or changed (update).
    public var count: Int { items.count }

    /// The names of the groups the query searched, in `world`, which made
    /// the call (or a later state of it: names are never forgotten).
    public func searchedGroups(in world: World) -> [String] { searchedGroupIDs.map(world.groupName) }

    package init(status: KeychainStatus, reason: StatusReason, searchedGroupIDs: [GroupID] = [],
                 items: [FoundItem] = [], returns: ReturnKinds = []) {
        self.status = status
        self.reason = reason
        self.searchedGroupIDs = searchedGroupIDs
        self.items = items
        self.returns = returns
    }
}

/// Why the Mac file keychain asked before a call (``StatusReason/fileKeychainDenied(_:)``).
public enum FileKeychainDenial: Sendable, Hashable {
    /// Another app's item: its access list does not name the caller.
    case otherApp
    /// The list names the caller as it was signed before (``World/resign(_:on:)``,
    /// a transfer).
    case resigned
    /// The access list lets the caller in, its partition (its team, or for
    /// ad-hoc code its signature) is not on the item's list.
    case partition
}
