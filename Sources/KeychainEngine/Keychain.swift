/// An interned access-group name. Group names are interned once per world so
/// that the hot path compares integers.
public typealias GroupID = Int32

/// A handle to a stored item, valid until the item is deleted.
public struct ItemID: Sendable, Hashable, Comparable {
    let slot: Int32
    public static func < (a: ItemID, b: ItemID) -> Bool { a.slot < b.slot }
}

/// An item as stored: one class, exactly one access group.
public struct StoredItem: Sendable, Hashable {
    public var itemClass: ItemClass
    public var group: GroupID
    public var synchronizable: Bool
    public var accessibility: Accessibility
    public var accessControl: AccessControl? {
        get { accessControlBox?.value }
        set { accessControlBox = newValue.map(AccessControlBox.init) }
    }
    /// Out of line and shared by copies: an optional access-control object
    /// inline made every copy of an item a switch over its layout with a
    /// retain of its flags (callgrind: some 100 instructions a copy, and an
    /// add, a find and the result copy items several times a call). Few
    /// items have one.
    private var accessControlBox: AccessControlBox?
    public var attributes: AttributeList
    /// The item's data as its bytes, stored as the call gave it (``ItemSpec/dataText``).
    public var dataText: AttributeText?
    /// The data as text (``dataText``).
    public var data: String? {
        get { dataText?.string }
        set { dataText = newValue.map { AttributeText($0) } }
    }
    /// The enrolled biometry set when the item was added, for
    /// biometry-current-set access control.
    public var biometrySet: Int = 0
    /// When the item was last written, on the world's clock: iCloud Keychain
    /// sync keeps the newest version of each item (last writer wins).
    public var modified: UInt64 = 0
    /// In the macOS file-based keychain: the app that created the item (other
    /// apps are prompted). Nil in the data-protection keychain.
    public var owner: AppHandle?
    /// A when-passcode-set item whose passcode was removed: its class key is
    /// gone, so it can never be decrypted again. The row stays until a read
    /// notices it (SecItemDb.c s3dl_query_row: errSecDecode → "ignoring
    /// corrupt", SecServerDeleteCorruptedItemAsync) or a delete removes it
    /// (secacltests/sec_acl_stress.c line 299: "delete local - AKPU" succeeds).
    public var lost = false
    /// Insertion order (the SQLite rowid). An update keeps it even when the
    /// primary key changes: SecDbItem.c `SecDbItemUpdate` runs
    /// `UPDATE … WHERE rowid=?` in place.
    public internal(set) var sequence: UInt64 = 0
    /// The row's ID in its class's table (`INTEGER PRIMARY KEY AUTOINCREMENT`,
    /// SecItemDb.c): given on insert, never reused, kept by an update (onto
    /// a tombstone's key too); an insert into a tombstone's row takes the
    /// tombstone's (`Device.insert`).
    public internal(set) var rowID: Int64 = 0
    /// The row's persistent-reference UUID (`persistref`, SecItemSchema.c
    /// `v10_1itempersistentref`, line 215): fresh on insert, kept by an
    /// update, not synced; a backup keeps it, and so does a tombstone, for
    /// the next insert of its key (`insert(_:prints:tombstone:)`). Unique
    /// across the world's keychains but for those.
    public internal(set) var persistentUUID: UInt64 = 0

    /// The value a query compares `attribute` with: a primary-key attribute
    /// the add left out holds its default (``AttributeValue/absent(for:)``);
    /// any other is SQL NULL, and nil here: `column = ?` (SecItemDb.c
    /// SecDbAppendWhereAttrs) is never true of NULL, so `label=""` does not
    /// find an item added without a label.
    public func comparedValue(_ attribute: ItemAttribute) -> AttributeValue? {
        itemClass.keyAttributes.contains(attribute) ? attributes.effectiveValue(attribute) : attributes[attribute]
    }

    /// Whether a query's `attribute=value` matches this item (see ``comparedValue(_:)``).
    func matches(_ attribute: ItemAttribute, _ value: AttributeValue) -> Bool {
        itemClass.keyAttributes.contains(attribute)
            ? attributes.effectiveValue(attribute, is: value) : attributes.holds(attribute, value)
    }

    public init(itemClass: ItemClass, group: GroupID, synchronizable: Bool,
                accessibility: Accessibility, accessControl: AccessControl?,
                attributes: AttributeList, data: String?) {
        self.init(itemClass: itemClass, group: group, synchronizable: synchronizable, accessibility: accessibility,
                  accessControl: accessControl, attributes: attributes, dataText: data.map { AttributeText($0) })
    }

    public init(itemClass: ItemClass, group: GroupID, synchronizable: Bool,
                accessibility: Accessibility, accessControl: AccessControl?,
                attributes: AttributeList, dataText: AttributeText?) {
        self.itemClass = itemClass
        self.group = group
        self.synchronizable = synchronizable
        self.accessibility = accessibility
        self.accessControlBox = accessControl.map(AccessControlBox.init)
        self.attributes = attributes
        self.dataText = dataText
    }

    /// An access-control object, immutable, compared by value.
    private final class AccessControlBox: Sendable, Hashable {
        let value: AccessControl
        init(_ value: AccessControl) { self.value = value }
        static func == (a: AccessControlBox, b: AccessControlBox) -> Bool { a.value == b.value }
        func hash(into h: inout Hasher) { h.combine(value) }
    }

    /// The item's primary key (SecItemSchema.c): class, group, sync and the
    /// class's key attributes, absent strings counting as empty.
    public var primaryKey: PrimaryKey {
        PrimaryKey(itemClass: itemClass, group: group, synchronizable: synchronizable,
                   values: itemClass.keyAttributes.map { attributes.effectiveValue($0) })
    }
}

/// What makes two items of one class collide.
public struct PrimaryKey: Sendable, Hashable {
    public var itemClass: ItemClass
    public var group: GroupID
    public var synchronizable: Bool
    public var values: [AttributeValue]
}

/// The items of one device, indexed by primary-key values and by (class, group).
///
/// No operation scans the whole keychain: a query with a complete primary key
/// hashes the key's values once and checks the few items that share them
/// (one per group and sync value at most); other queries walk only the
/// buckets of the groups they search.
///
/// The indexes are keyed by fixed-size fingerprints (`KeyFingerprint`, a
/// fast non-cryptographic hash of the values' bytes) in open-addressing
/// tables whose entries head chains of slots; every lookup compares the real
/// values, so two keys that share a fingerprint only share a chain. Nothing
/// on the call path builds an array of key values or hashes a `String` with
/// SipHash. Each keychain seeds its fingerprints at random, as Swift seeds
/// its own hashing, so a scenario cannot be written to make the chains or
/// the tables' probe runs long (results never depend on the seed: matches
/// are put in insertion order).
public struct Keychain: Sendable {
    /// Items by slot, each with its place in the two chained indexes; a
    /// free slot holds an item with sequence 0. One array, so an insert
    /// grows one table of slots, not one per field.
    private var slots: [Slot] = []
    private var freeSlots: [Int32] = []
    /// Chains of items sharing a class and key values (group and sync aside).
    private var byKey = SlotTable()
    /// Chains of items sharing a class, a group and the value of the class's
    /// first key attribute (account for passwords): a query that names that
    /// attribute but not the whole key looks at these only, as SQLite uses
    /// the leading column of the primary-key index.
    private var byPrefix = SlotTable()
    /// Buckets by `bucketIndex(class, group)`; group IDs are small and dense.
    private var buckets: [Bucket] = []
    private var nextSequence: UInt64 = 1
    public private(set) var count = 0
    /// Removals and replacements so far; with the inserts' sequence numbers,
    /// ``version`` says whether anything changed (a sync with nothing new
    /// is no work).
    private var edits: UInt64 = 0
    /// Grows with every insert, removal and replacement.
    var version: UInt64 { nextSequence &+ edits }
    /// How many stored items are synchronizable: lint's sync-filter rule
    /// asks the indexes only when there are some.
    public private(set) var synchronizableCount = 0
    /// The next row ID of each class's table: AUTOINCREMENT never hands out
    /// a row ID twice, even after the row is deleted.
    private var nextRowID: [Int64] = Array(repeating: 1, count: ItemClass.allCases.count)
    /// Makes persistent-reference UUIDs unique across keychains.
    private let uuidSalt: UInt64
    /// Seeds every fingerprint of this keychain.
    private let seed = UInt64.random(in: .min ... .max)

    /// A stored item and its links.
    struct Slot: Sendable {
        var item: StoredItem
        var links = SlotLinks()
    }

    /// A slot's place in the two chained indexes.
    struct SlotLinks: Sendable {
        var key: UInt64 = 0
        var prefix: UInt64 = 0
        var nextKey: Int32 = -1
        var nextPrefix: Int32 = -1
        /// The prefix chain is linked both ways: a chain can hold every item
        /// of a class and group (no first key attribute), and unlinking from
        /// a singly linked one walked it, so removing a device's items
        /// oldest first (a restore) was quadratic (found by adversarial testing:
        /// 16,000 items took 7.7 s).
        var previousPrefix: Int32 = -1
    }

    /// Item handles in insertion order. Deleted entries are tombstoned (-1) and
    /// compacted when they outnumber the live ones; sequences only grow, so
    /// appends keep the bucket sorted.
    struct Bucket: Sendable {
        /// One array, not one per field: an insert appends once.
        var entries: [Entry] = []
        var dead = 0

        struct Entry: Sendable {
            var slot: Int32
            var sequence: UInt64
        }
    }

    /// A keychain; `salt` keeps its persistent-reference UUIDs apart from
    /// every other keychain's.
    public init(salt: UInt64 = 0) { uuidSalt = salt }

    private static let freeSlot = StoredItem(itemClass: .genericPassword, group: -1, synchronizable: false,
                                             accessibility: .always, accessControl: nil, attributes: AttributeList(),
                                             data: nil)

    public subscript(id: ItemID) -> StoredItem? {
        let i = Int(id.slot)
        guard i >= 0, i < slots.count, slots[i].item.sequence != 0 else { return nil }
        return slots[i].item
    }

    /// A live item by a handle the caller just got from this keychain.
    func stored(_ id: ItemID) -> StoredItem { slots[Int(id.slot)].item }

    /// An item's place in insertion order, without copying it.
    func sequence(of id: ItemID) -> UInt64 { slots[Int(id.slot)].item.sequence }

    /// The item with this primary key, if any.
    public func item(withKey key: PrimaryKey) -> ItemID? {
        let attributes = key.itemClass.keyAttributes
        guard attributes.count == key.values.count else { return nil }
        var print = KeyFingerprint(key.itemClass, seed: seed)
        for v in key.values { print.add(v) }
        var slot = byKey.head(print.value)
        while slot >= 0 {
            let item = slots[Int(slot)].item
            if item.itemClass == key.itemClass && item.group == key.group && item.synchronizable == key.synchronizable
                && zip(attributes, key.values).allSatisfy({ item.attributes.effectiveValue($0.0) == $0.1 }) {
                return ItemID(slot: slot)
            }
            slot = slots[Int(slot)].links.nextKey
        }
        return nil
    }

    /// The stored item with the primary key `item` has (its class, group,
    /// sync value and key values), without building the key.
    func item(withKeyOf item: StoredItem) -> ItemID? {
        self.item(withKeyOf: item, fingerprint: KeyFingerprint.key(of: item, seed: seed))
    }

    /// The same, with the key's fingerprint already computed.
    func item(withKeyOf item: StoredItem, fingerprint: UInt64) -> ItemID? {
        var slot = byKey.head(fingerprint)
        while slot >= 0 {
            let i = Int(slot)
            if slots[i].item.group == item.group && slots[i].item.synchronizable == item.synchronizable
                && Self.sameKeyValues(slots[i].item, item) {
                return ItemID(slot: slot)
            }
            slot = slots[i].links.nextKey
        }
        return nil
    }

    /// Whether two items have the same class and key values (group and
    /// sync aside), compared in place.
    static func sameKeyValues(_ a: StoredItem, _ b: StoredItem) -> Bool {
        guard a.itemClass == b.itemClass else { return false }
        for attribute in a.itemClass.keyAttributes
        where !a.attributes.sameEffectiveValue(attribute, as: b.attributes) {
            return false
        }
        return true
    }

    /// Whether two items have the same primary key, compared in place.
    static func samePrimaryKey(_ a: StoredItem, _ b: StoredItem) -> Bool {
        a.group == b.group && a.synchronizable == b.synchronizable && sameKeyValues(a, b)
    }

    /// The items of `itemClass` whose key values are the ones `query` names
    /// (every key attribute present) and whose group, sync value and
    /// accessibility pass `accept`, read in place without copying the items.
    /// Appends to `ids`.
    func matching(_ itemClass: ItemClass, keyIn query: AttributeList, into ids: inout [ItemID],
                  _ accept: (GroupID, Bool, Accessibility) -> Bool) {
        var print = KeyFingerprint(itemClass, seed: seed)
        let attributes = itemClass.keyAttributes
        for a in attributes {
            guard let i = query.index(of: a) else { return }
            print.add(query.entries[i].value)
        }
        var slot = byKey.head(print.value)
        guard slot >= 0 else { return }
        // Fields are read through the buffers so no item is copied.
        slots.withUnsafeBufferPointer { slots in
            while slot >= 0 {
                let i = Int(slot)
                if slots[i].item.itemClass == itemClass,
                   accept(slots[i].item.group, slots[i].item.synchronizable, slots[i].item.accessibility),
                   attributes.allSatisfy({ slots[i].item.attributes.sameEffectiveValue($0, as: query) }) {
                    ids.append(ItemID(slot: slot))
                }
                slot = slots[i].links.nextKey
            }
        }
    }

    /// Stores a new item at the end of insertion order. The caller has checked
    /// that its primary key is free.
    /// `tombstone`: the row a deleted item with the same key left, whose
    /// row ID and `persistref` the new item takes.
    @discardableResult
    public mutating func insert(_ item: StoredItem, replacing tombstone: Device.TombstoneRow? = nil) -> ItemID {
        insert(item, prints: KeyFingerprint.keyAndPrefix(of: item, seed: seed), tombstone: tombstone)
    }

    /// Inserts an item into the row of a corrupt one of its key (lost, or
    /// undecodable), which the caller has removed: it takes the row ID and
    /// keeps its own fresh `persistref` (SecDbItemInsertOrReplace's corrupt
    /// branch, SecDbItem.c lines 1663-1690, writes the new item over the
    /// row by row ID; SecDbItemDoUpdate keeps its reference).
    @discardableResult
    mutating func insert(_ item: consuming StoredItem, intoCorruptRow rowID: Int64) -> ItemID {
        item.rowID = rowID
        return insert(item, prints: KeyFingerprint.keyAndPrefix(of: item, seed: seed), keepingRowID: true)
    }

    /// Inserts `item` unless a row with its primary key is stored, lost or
    /// not: the caller decides what such a row means (`World`'s
    /// `duplicateAdd`: the lock's error, a duplicate, or a corrupt row the
    /// add replaces). One fingerprint serves the lookup and the insert.
    mutating func insertUnlessPresent(_ item: consuming StoredItem,
                                      replacing tombstone: Device.TombstoneRow? = nil) -> (id: ItemID, existed: Bool) {
        let prints = KeyFingerprint.keyAndPrefix(of: item, seed: seed)
        if let old = self.item(withKeyOf: item, fingerprint: prints.key) { return (old, true) }
        return (insert(item, prints: prints, tombstone: tombstone), false)
    }

    /// Inserts an item into a tombstone's row, or a new row. Every insert
    /// of the key (an add, an item arriving by sync, a restored one) takes
    /// the tombstone's row ID (SecDbItemInsertOrReplace, SecDbItem.c line
    /// 1674) and its `persistref`: the tombstone keeps the deleted item's
    /// (`Device.TombstoneRow`), the tombstone branch of SecDbItemInsert
    /// (lines 1763-1778) copies it onto the new item, and SecDbItemDoUpdate
    /// (lines 1857-1871) keeps it, as the old row has one of 16 bytes (CKKS
    /// copies it onto an incoming item the same way,
    /// CKKSIncomingQueueOperation.m lines 963-978). So a reference to the
    /// deleted item, row ID or UUID, names the new one.
    private mutating func insert(_ item: consuming StoredItem, prints: (key: UInt64, prefix: UInt64),
                                 tombstone: Device.TombstoneRow?) -> ItemID {
        guard let tombstone else { return insert(item, prints: prints) }
        item.rowID = tombstone.rowID
        item.persistentUUID = tombstone.persistentUUID
        return insert(item, prints: prints, keepingUUID: true, keepingRowID: true)
    }

    /// Inserts an item a backup held with the persistent references it had:
    /// its UUID (unless `keepingUUID` is false), and its row ID when
    /// `rowIDFree` (`SecServerImportItem` sets both from the backup, and
    /// SQLite takes an explicit row ID that is free; a taken one is retried
    /// without; with static references it sets only the UUID).
    @discardableResult
    mutating func insertRestored(_ item: StoredItem, rowIDFree: Bool, keepingUUID: Bool = true) -> ItemID {
        insert(item, prints: KeyFingerprint.keyAndPrefix(of: item, seed: seed), keepingUUID: keepingUUID, keepingRowID: rowIDFree)
    }

    /// Inserts a copy of a row under a new row ID, keeping its
    /// `persistref`: an App Clip's item promoted to its parent app
    /// (`SecServerPromoteAppClipItemsToParentApp`, SecItemDb.c lines
    /// 1760-1860, copies it with SecDbItemCopyWithUpdates, which changes
    /// only `clip` and `agrp`, and clears only the row ID).
    @discardableResult
    mutating func insertKeepingUUID(_ item: StoredItem) -> ItemID {
        insert(item, prints: KeyFingerprint.keyAndPrefix(of: item, seed: seed), keepingUUID: true)
    }

    /// A `persistref` no row has had: the keychain's salt and the next
    /// sequence number (the caller then moves the sequence on).
    private var unusedUUID: UInt64 { uuidSalt << 32 | nextSequence }

    /// A `persistref` no row has had, used up: for a row that takes a new one.
    mutating func freshUUID() -> UInt64 {
        defer { nextSequence += 1 }
        return unusedUUID
    }

    /// The same as `insert`, with the item's fingerprints already computed.
    /// Consumes the item: it moves into its slot without a copy.
    private mutating func insert(_ item: consuming StoredItem, prints: (key: UInt64, prefix: UInt64),
                                 keepingUUID: Bool = false, keepingRowID: Bool = false) -> ItemID {
        item.sequence = nextSequence
        if !keepingUUID { item.persistentUUID = unusedUUID }
        nextSequence += 1
        let table = item.itemClass.tableIndex
        if keepingRowID {
            // AUTOINCREMENT keeps the largest row ID ever used.
            nextRowID[table] = max(nextRowID[table], item.rowID + 1)
        } else {
            item.rowID = nextRowID[table]
            nextRowID[table] += 1
        }
        let b = bucketIndex(item.itemClass, item.group), sequence = item.sequence
        if item.synchronizable { synchronizableCount += 1 }
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            slots[Int(free)] = Slot(item: item)
        } else {
            slot = Int32(slots.count)
            slots.append(Slot(item: item))
        }
        link(slot, key: prints.key, prefix: prints.prefix)
        if b >= buckets.count { buckets += Array(repeating: Bucket(), count: b + 1 - buckets.count) }
        buckets[b].append(slot: slot, sequence: sequence)
        count += 1
        return ItemID(slot: slot)
    }

    /// Puts a slot at the head of its two chains.
    private mutating func link(_ slot: Int32, key: UInt64, prefix: UInt64) {
        let nextKey = byKey.exchangeHead(key, slot), nextPrefix = byPrefix.exchangeHead(prefix, slot)
        slots[Int(slot)].links = SlotLinks(key: key, prefix: prefix, nextKey: nextKey, nextPrefix: nextPrefix)
        if nextPrefix >= 0 { slots[Int(nextPrefix)].links.previousPrefix = slot }
    }

    /// Takes a slot out of its key chain.
    private mutating func unlinkKey(_ slot: Int32) {
        let fingerprint = slots[Int(slot)].links.key, next = slots[Int(slot)].links.nextKey
        var at = byKey.head(fingerprint)
        if at == slot {
            if next >= 0 { byKey.setHead(fingerprint, next) } else { byKey.remove(fingerprint) }
            return
        }
        while at >= 0 {
            if slots[Int(at)].links.nextKey == slot { slots[Int(at)].links.nextKey = next; return }
            at = slots[Int(at)].links.nextKey
        }
    }

    /// Takes a slot out of its prefix chain.
    private mutating func unlinkPrefix(_ slot: Int32) {
        let links = slots[Int(slot)].links
        let next = links.nextPrefix, previous = links.previousPrefix
        if next >= 0 { slots[Int(next)].links.previousPrefix = previous }
        if previous >= 0 {
            slots[Int(previous)].links.nextPrefix = next
        } else if next >= 0 {
            byPrefix.setHead(links.prefix, next)
        } else {
            byPrefix.remove(links.prefix)
        }
        slots[Int(slot)].links.nextPrefix = -1
        slots[Int(slot)].links.previousPrefix = -1
    }

    /// The items of a class in a group whose first key attribute has this
    /// value and that pass `accept`, read in place. Appends to `ids`.
    func matching(_ itemClass: ItemClass, in group: GroupID, firstKeyValue: AttributeValue,
                  into ids: inout [ItemID], _ accept: (StoredItem) -> Bool) {
        guard let first = itemClass.keyAttributes.first else { return }
        var slot = byPrefix.head(KeyFingerprint.prefix(itemClass, group, firstKeyValue, seed: seed))
        guard slot >= 0 else { return }
        slots.withUnsafeBufferPointer { slots in
            while slot >= 0 {
                let i = Int(slot)
                if slots[i].item.itemClass == itemClass && slots[i].item.group == group
                    && slots[i].item.attributes.effectiveValue(first, is: firstKeyValue) && accept(slots[i].item) {
                    ids.append(ItemID(slot: slot))
                }
                slot = slots[i].links.nextPrefix
            }
        }
    }

    /// Removes an item for good.
    public mutating func remove(_ id: ItemID) {
        edits &+= 1
        let i = Int(id.slot)
        guard i >= 0, i < slots.count, slots[i].item.sequence != 0 else { return }
        unlinkKey(id.slot)
        unlinkPrefix(id.slot)
        let b = bucketIndex(slots[i].item.itemClass, slots[i].item.group)
        buckets[b].remove(sequence: slots[i].item.sequence)
        if buckets[b].isEmpty { buckets[b] = Bucket() }
        if slots[i].item.synchronizable { synchronizableCount -= 1 }
        slots[i] = Slot(item: Self.freeSlot)
        freeSlots.append(id.slot)
        count -= 1
    }

    /// Replaces an item's contents in place: it keeps its handle and its place
    /// in insertion order, even when its primary key or group changes. The
    /// caller has checked that a new primary key is free.
    /// It keeps its own row ID and `persistref`, also onto a tombstone's
    /// key (the caller drops the tombstone: `World.update`), unless given
    /// `persistentUUID` (a restore's merge, `World.restore(_:to:)`).
    public mutating func replace(_ id: ItemID, with newItem: StoredItem, persistentUUID: UInt64? = nil) {
        edits &+= 1
        let i = Int(id.slot)
        guard i >= 0, i < slots.count, slots[i].item.sequence != 0 else { return }
        let oldClass = slots[i].item.itemClass, oldGroup = slots[i].item.group, sequence = slots[i].item.sequence
        var updated = newItem
        updated.sequence = sequence
        // SecDbItemUpdate runs UPDATE … WHERE rowid=? and keeps the persistref.
        updated.rowID = slots[i].item.rowID
        updated.persistentUUID = persistentUUID ?? slots[i].item.persistentUUID
        // A chain holds every item with its fingerprint: only a new
        // fingerprint moves the slot to another chain.
        let (key, prefix) = KeyFingerprint.keyAndPrefix(of: updated, seed: seed)
        if key != slots[i].links.key || prefix != slots[i].links.prefix {
            unlinkKey(id.slot)
            unlinkPrefix(id.slot)
            link(id.slot, key: key, prefix: prefix)
        }
        if oldClass != updated.itemClass || oldGroup != updated.group {
            let from = bucketIndex(oldClass, oldGroup), to = bucketIndex(updated.itemClass, updated.group)
            buckets[from].remove(sequence: sequence)
            if buckets[from].isEmpty { buckets[from] = Bucket() }
            if to >= buckets.count { buckets += Array(repeating: Bucket(), count: to + 1 - buckets.count) }
            buckets[to].insert(slot: id.slot, sequence: sequence)
        }
        if slots[i].item.synchronizable != updated.synchronizable { synchronizableCount += updated.synchronizable ? 1 : -1 }
        slots[i].item = updated
    }

    /// Where a class's bucket in a group sits in `buckets`.
    private func bucketIndex(_ itemClass: ItemClass, _ group: GroupID) -> Int {
        Int(group) * ItemClass.tableCount + itemClass.tableIndex
    }

    /// The bucket of a class in a group, if it has ever held an item.
    private func bucket(_ itemClass: ItemClass, _ group: GroupID) -> Bucket? {
        guard group >= 0 else { return nil }
        let b = bucketIndex(itemClass, group)
        return b < buckets.count ? buckets[b] : nil
    }

    /// The items of one class in one group, in insertion order.
    public func items(of itemClass: ItemClass, in group: GroupID) -> [ItemID] {
        guard let bucket = bucket(itemClass, group) else { return [] }
        return bucket.entries.compactMap { $0.slot < 0 ? nil : ItemID(slot: $0.slot) }
    }

    /// Calls `body` for each item of a class in a group, in insertion order,
    /// until it returns false.
    public func forEach(of itemClass: ItemClass, in group: GroupID,
                        _ body: (ItemID, StoredItem) -> Bool) {
        guard let bucket = bucket(itemClass, group) else { return }
        slots.withUnsafeBufferPointer { buffer in
            for entry in bucket.entries where entry.slot >= 0 {
                if !body(ItemID(slot: entry.slot), buffer[Int(entry.slot)].item) { return }
            }
        }
    }

    /// The first `limit` items of `classes` in insertion order, and how many
    /// there are in all: one pass keeping the lowest sequences, without
    /// copying and sorting every item (``allItems``) each time an
    /// explanation shows a few.
    public func firstItems(of classes: [ItemClass], limit: Int) -> (items: [(ItemID, StoredItem)], total: Int) {
        // From the buckets of those classes, each in insertion order: the
        // count from their sizes, the first ones from each bucket's head
        // (a scan of every slot per failed expectation was failures × items).
        var total = 0
        var heads: [Bucket.Entry] = []
        // Buckets exist for every group up to the highest an item ever sat
        // in: when they outnumber the items, the items are read instead
        // (one item in the 20,000th group made each failure read 100,000
        // buckets; found by adversarial testing).
        if buckets.count > count {
            for (i, slot) in slots.enumerated() where slot.item.sequence != 0 && classes.contains(slot.item.itemClass) {
                total += 1
                heads.append(Bucket.Entry(slot: Int32(i), sequence: slot.item.sequence))
            }
        } else {
            for b in buckets.indices where classes.contains(where: { b % ItemClass.tableCount == $0.tableIndex }) {
                let bucket = buckets[b]
                total += bucket.entries.count - bucket.dead
                guard limit > 0 else { continue }
                var taken = 0
                for e in bucket.entries where e.slot >= 0 {
                    heads.append(e)
                    taken += 1
                    if taken >= limit { break }
                }
            }
        }
        heads.sort { $0.sequence < $1.sequence }
        let items = heads.prefix(max(0, limit)).map { (ItemID(slot: $0.slot), slots[Int($0.slot)].item) }
        return (items, total)
    }

    /// Every item in insertion order. For inspection and explanations, not
    /// for the call path.
    public var allItems: [(ItemID, StoredItem)] {
        var all: [(ItemID, StoredItem)] = []
        all.reserveCapacity(count)
        for (i, slot) in slots.enumerated() where slot.item.sequence != 0 {
            all.append((ItemID(slot: Int32(i)), slot.item))
        }
        all.sort { $0.1.sequence < $1.1.sequence }
        return all
    }
}

/// A 64-bit fingerprint of an item class and attribute values: a
/// multiply-and-fold over the values' UTF-8 bytes, eight at a time
/// (strings compare as bytes, so equal values have equal fingerprints),
/// finished with a 64-bit mixer so that the tables' low bits spread. Not cryptographic: the tables compare the real values.
struct KeyFingerprint {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    init(_ itemClass: ItemClass, seed: UInt64) {
        state ^= seed
        add(word: UInt64(itemClass.tableIndex))
    }

    private mutating func add(word: UInt64) {
        state = (state ^ word) &* 0x0000_0100_0000_01b3
    }

    /// A fingerprint of strings alone (a name table's).
    init(seed: UInt64) {
        state ^= seed
    }

    mutating func add(string s: String) {
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { bytes in
            add(bytes: UnsafeRawBufferPointer(bytes))
        }
        if done == nil {
            var copy = s
            copy.withUTF8 { add(bytes: UnsafeRawBufferPointer($0)) }
        }
        // The length ends the value, so ("ab", "c") and ("a", "bc") differ.
        add(word: UInt64(s.utf8.count) | 1 << 40)
    }

    /// A text by its two words: its bytes and count when it is short, its
    /// interned number and count when it is long (``AttributeText``), so a
    /// long text is not read (reading it takes the intern table's lock).
    /// The number depends on the order texts were first made, and so does
    /// where a long text's item sits in a table; nothing reads a table in
    /// its order (`firstItems(of:limit:)` and `allItems` sort by
    /// insertion).
    mutating func add(text t: AttributeText) {
        mix(t.w0)
        mix(t.w1)
    }

    /// Adds bytes eight at a time (the last word zero-padded): a byte at a
    /// time cost some 50 instructions a value (callgrind, 200,000 calls:
    /// 48 M of the engine's 628 M). Each word goes through a multiply and
    /// a fold so its high bytes reach the low bits the tables index by.
    private mutating func add(bytes: UnsafeRawBufferPointer) {
        var at = 0
        let n = bytes.count
        while at + 8 <= n {
            mix(bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            at += 8
        }
        if at < n {
            // The last 1-7 bytes as one word, low byte first. With eight
            // bytes or more in all, the word that ends the buffer holds
            // them in its high bytes: one load and a shift, not a loop
            // over bytes (group and app names are 10-30 bytes long).
            let rest = n - at
            var tail: UInt64 = 0
            if n >= 8 {
                tail = bytes.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) >> UInt64((8 - rest) * 8)
            } else {
                withUnsafeMutableBytes(of: &tail) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[at..<n])) }
            }
            mix(tail)
        }
    }

    private mutating func mix(_ word: UInt64) {
        state = (state ^ word) &* 0x9e37_79b9_7f4a_7c15
        state ^= state >> 29
    }

    mutating func add(_ value: AttributeValue) {
        switch value {
        case .string(let t):
            add(text: t)
        case .integer(let i):
            add(word: UInt64(bitPattern: Int64(i)) ^ 2 << 60)
        case .date(let seconds):
            // -0 and 0 are one instant, and equal: one fingerprint.
            add(word: (seconds == 0 ? 0 : seconds).bitPattern ^ 3 << 60)
        }
    }

    /// The fingerprint, never 0 (the tables' empty mark).
    var value: UInt64 {
        var h = state
        h ^= h >> 33
        h = h &* 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h = h &* 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        return h == 0 ? 1 : h
    }

    /// Adds the effective value of `attribute` in `list`, read in place.
    private mutating func add(_ attribute: ItemAttribute, of list: AttributeList) {
        if let i = list.index(of: attribute) { add(list.entries[i].value) } else { add(.absent(for: attribute)) }
    }

    /// An item's class and key values, absent attributes as empty.
    static func key(of item: StoredItem, seed: UInt64) -> UInt64 {
        var print = KeyFingerprint(item.itemClass, seed: seed)
        for a in item.itemClass.keyAttributes { print.add(a, of: item.attributes) }
        return print.value
    }

    /// An item's key fingerprint and its prefix fingerprint (class, first
    /// key value, group) in one walk over its key values: the prefix is
    /// the key's state after the first value, with the group added, so the
    /// first value (the account, for passwords) is looked up and hashed
    /// once for both tables.
    static func keyAndPrefix(of item: StoredItem, seed: UInt64) -> (key: UInt64, prefix: UInt64) {
        var print = KeyFingerprint(item.itemClass, seed: seed)
        let attributes = item.itemClass.keyAttributes
        guard let first = attributes.first else {
            var prefix = print
            prefix.add(.string(""))
            prefix.add(group: item.group)
            return (print.value, prefix.value)
        }
        print.add(first, of: item.attributes)
        var prefix = print
        prefix.add(group: item.group)
        for a in attributes.dropFirst() { print.add(a, of: item.attributes) }
        return (print.value, prefix.value)
    }

    /// The prefix fingerprint `keyAndPrefix` gives an item of this class
    /// and group whose first key value is `first`.
    static func prefix(_ itemClass: ItemClass, _ group: GroupID, _ first: AttributeValue, seed: UInt64) -> UInt64 {
        var print = KeyFingerprint(itemClass, seed: seed)
        print.add(first)
        print.add(group: group)
        return print.value
    }

    private mutating func add(group: GroupID) {
        add(word: UInt64(UInt32(bitPattern: group)) | 1 << 50)
    }
}

/// An open-addressing table (linear probing, at most half full) from
/// fingerprints to the first slot of a chain.
///
/// A fingerprint and its slot share one 16-byte entry, so a probe in a
/// table of tens of thousands of chains touches one cache line, not one in
/// each of two arrays.
@usableFromInline
struct SlotTable: Sendable {
    struct Entry: Sendable {
        /// 0 marks an empty entry; fingerprints are never 0.
        var key: UInt64 = 0
        var head: Int32 = -1
    }

    private var entries: [Entry] = []
    private var used = 0

    /// The chain's first slot, or -1.
    @usableFromInline
    func head(_ key: UInt64) -> Int32 {
        entries.withUnsafeBufferPointer { e in
            guard !e.isEmpty else { return -1 }
            let mask = e.count - 1
            var i = Int(truncatingIfNeeded: key) & mask
            while true {
                let k = e[i].key
                if k == key { return e[i].head }
                if k == 0 { return -1 }
                i = (i + 1) & mask
            }
        }
    }

    /// Sets (or adds) the chain's first slot.
    mutating func setHead(_ key: UInt64, _ slot: Int32) {
        _ = exchangeHead(key, slot)
    }

    /// Sets (or adds) the chain's first slot and returns the one it
    /// replaces, or -1: an insert links its slot with one probe, not two.
    mutating func exchangeHead(_ key: UInt64, _ slot: Int32) -> Int32 {
        if (used + 1) * 2 > entries.count { grow() }
        let old = entries.withUnsafeMutableBufferPointer { e in
            let mask = e.count - 1
            var i = Int(truncatingIfNeeded: key) & mask
            while e[i].key != 0 && e[i].key != key { i = (i + 1) & mask }
            let old = e[i].key == 0 ? Int32(-2) : e[i].head
            e[i] = Entry(key: key, head: slot)
            return old
        }
        if old == -2 { used += 1; return -1 }
        return old
    }

    /// Removes a chain, shifting later entries back so no probe sequence breaks.
    mutating func remove(_ key: UInt64) {
        guard !entries.isEmpty else { return }
        let removed = entries.withUnsafeMutableBufferPointer { e in
            let mask = e.count - 1
            var i = Int(truncatingIfNeeded: key) & mask
            while e[i].key != key {
                if e[i].key == 0 { return false }
                i = (i + 1) & mask
            }
            var j = i
            while true {
                j = (j + 1) & mask
                if e[j].key == 0 { break }
                let home = Int(truncatingIfNeeded: e[j].key) & mask
                // Entry j may move to the hole at i unless its home lies in (i, j].
                let stays = i <= j ? (i < home && home <= j) : (i < home || home <= j)
                if stays { continue }
                e[i] = e[j]
                i = j
            }
            e[i] = Entry()
            return true
        }
        if removed { used -= 1 }
    }

    /// Doubles the table. Keys are distinct, so each entry goes to the
    /// first empty place from its home, written straight into the new
    /// buffer: through `setHead` each moved entry paid the fill check, a
    /// uniqueness check and key comparisons (callgrind: the rehashes were
    /// some 70 instructions an insert).
    private mutating func grow() {
        let old = entries
        var grown = [Entry](repeating: Entry(), count: max(16, entries.count * 2))
        grown.withUnsafeMutableBufferPointer { e in
            let mask = e.count - 1
            old.withUnsafeBufferPointer { old in
                for entry in old where entry.key != 0 {
                    var i = Int(truncatingIfNeeded: entry.key) & mask
                    while e[i].key != 0 { i = (i + 1) & mask }
                    e[i] = entry
                }
            }
        }
        entries = grown
    }
}

extension Keychain.Bucket {
    var isEmpty: Bool { entries.count == dead }

    mutating func append(slot: Int32, sequence: UInt64) {
        entries.append(Entry(slot: slot, sequence: sequence))
    }

    /// The first position whose sequence is not below `sequence`.
    func position(of sequence: UInt64) -> Int {
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].sequence < sequence { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Inserts an item that moved in from another group at its place in
    /// insertion order.
    mutating func insert(slot: Int32, sequence: UInt64) {
        entries.insert(Entry(slot: slot, sequence: sequence), at: position(of: sequence))
    }

    mutating func remove(sequence: UInt64) {
        // Binary search: sequences are strictly increasing.
        let lo = position(of: sequence)
        guard lo < entries.count, entries[lo].sequence == sequence, entries[lo].slot >= 0 else { return }
        entries[lo].slot = -1
        dead += 1
        if dead > 32 && dead * 2 > entries.count { compact() }
    }

    mutating func compact() {
        entries.removeAll { $0.slot < 0 }
        dead = 0
    }
}

extension ItemClass {
    /// How many `tableIndex` values there are.
    static let tableCount = 5

    /// A small index per class, for per-table counters.
    var tableIndex: Int {
        switch self {
        case .genericPassword: 0
        case .internetPassword: 1
        case .certificate: 2
        case .key: 3
        case .identity: 4
        }
    }
}
