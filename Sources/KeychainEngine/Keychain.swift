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
    public var accessControl: AccessControl?
    public var attributes: AttributeList
    public var data: String?
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
    /// SecItemDb.c): given on insert, never reused, kept by an update.
    public internal(set) var rowID: Int64 = 0
    /// The row's persistent-reference UUID (`persistref`, SecItemSchema.c
    /// `v10itempersistentref`): fresh on insert, kept by an update, not
    /// synced and not backed up. Unique across the world's keychains.
    public internal(set) var persistentUUID: UInt64 = 0

    public init(itemClass: ItemClass, group: GroupID, synchronizable: Bool,
                accessibility: Accessibility, accessControl: AccessControl?,
                attributes: AttributeList, data: String?) {
        self.itemClass = itemClass
        self.group = group
        self.synchronizable = synchronizable
        self.accessibility = accessibility
        self.accessControl = accessControl
        self.attributes = attributes
        self.data = data
    }

    /// The item's primary key (SecItemSchema.c): class, group, sync and the
    /// class's key attributes, absent strings counting as empty.
    public var primaryKey: PrimaryKey {
        PrimaryKey(itemClass: itemClass, group: group, synchronizable: synchronizable,
                   values: itemClass.primaryKeyAttributes.map { attributes.effectiveValue($0) })
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
public struct Keychain: Sendable {
    /// Items by slot; a free slot holds an item with sequence 0.
    private var slots: [StoredItem] = []
    private var freeSlots: [Int32] = []
    private var byKey: [KeyValues: KeyEntries] = [:]
    /// Items by class, group and the value of the class's first key
    /// attribute (account for passwords): a query that names that attribute
    /// but not the whole key looks at these only, as SQLite uses the leading
    /// column of the primary-key index.
    private var byPrefix: [PrefixKey: [Int32]] = [:]
    private var buckets: [BucketKey: Bucket] = [:]
    private var nextSequence: UInt64 = 1
    public private(set) var count = 0
    /// The next row ID of each class's table: AUTOINCREMENT never hands out
    /// a row ID twice, even after the row is deleted.
    private var nextRowID: [Int64] = Array(repeating: 1, count: ItemClass.allCases.count)
    /// Makes persistent-reference UUIDs unique across keychains.
    private let uuidSalt: UInt64

    /// A primary key without its group and sync value.
    struct KeyValues: Hashable, Sendable {
        var itemClass: ItemClass
        var values: [AttributeValue]
    }

    /// The items sharing one set of key values; nearly always one.
    enum KeyEntries: Sendable {
        case one(Int32)
        case many([Int32])
    }

    struct BucketKey: Hashable, Sendable {
        var itemClass: ItemClass
        var group: GroupID
    }

    struct PrefixKey: Hashable, Sendable {
        var itemClass: ItemClass
        var group: GroupID
        var value: AttributeValue

        init(_ item: StoredItem) {
            itemClass = item.itemClass
            group = item.group
            value = item.itemClass.primaryKeyAttributes.first.map { item.attributes.effectiveValue($0) } ?? .string("")
        }

        init(_ itemClass: ItemClass, _ group: GroupID, _ value: AttributeValue) {
            self.itemClass = itemClass
            self.group = group
            self.value = value
        }
    }

    /// Item handles in insertion order. Deleted entries are tombstoned (-1) and
    /// compacted when they outnumber the live ones; sequences only grow, so
    /// appends keep the bucket sorted.
    struct Bucket: Sendable {
        var slots: [Int32] = []
        var sequences: [UInt64] = []
        var dead = 0
    }

    /// A keychain; `salt` keeps its persistent-reference UUIDs apart from
    /// every other keychain's.
    public init(salt: UInt64 = 0) { uuidSalt = salt }

    /// An empty keychain that continues this one's row-ID counters (a
    /// restore wipes the rows, SQLite's sequence table stays).
    func emptied(salt: UInt64) -> Keychain {
        var k = Keychain(salt: salt)
        k.nextRowID = nextRowID
        return k
    }

    private static let freeSlot = StoredItem(itemClass: .genericPassword, group: -1, synchronizable: false,
                                             accessibility: .always, accessControl: nil, attributes: AttributeList(),
                                             data: nil)

    public subscript(id: ItemID) -> StoredItem? {
        let i = Int(id.slot)
        guard i >= 0, i < slots.count, slots[i].sequence != 0 else { return nil }
        return slots[i]
    }

    /// An item's place in insertion order, without copying it.
    func sequence(of id: ItemID) -> UInt64 { slots[Int(id.slot)].sequence }

    /// The item with this primary key, if any.
    public func item(withKey key: PrimaryKey) -> ItemID? {
        var found: ItemID?
        forEach(withKeyValues: key.itemClass, key.values) { id, item in
            if item.group == key.group && item.synchronizable == key.synchronizable { found = id }
        }
        return found
    }

    /// Calls `body` for every item whose class and key values are these,
    /// whatever its group and sync value. One hash lookup.
    func forEach(withKeyValues itemClass: ItemClass, _ values: [AttributeValue],
                 _ body: (ItemID, StoredItem) -> Void) {
        switch byKey[KeyValues(itemClass: itemClass, values: values)] {
        case .one(let slot)?: body(ItemID(slot: slot), slots[Int(slot)])
        case .many(let list)?: for slot in list { body(ItemID(slot: slot), slots[Int(slot)]) }
        case nil: break
        }
    }

    /// The items with these key values whose group, sync value and
    /// accessibility pass `accept`, read in place without copying the items.
    func matching(keyValues itemClass: ItemClass, _ values: [AttributeValue],
                  _ accept: (GroupID, Bool, Accessibility) -> Bool) -> [ItemID] {
        guard let entries = byKey[KeyValues(itemClass: itemClass, values: values)] else { return [] }
        // Fields are read through the buffer so no item is copied.
        return slots.withUnsafeBufferPointer { buffer in
            var ids: [ItemID] = []
            func check(_ slot: Int32) {
                let i = Int(slot)
                if accept(buffer[i].group, buffer[i].synchronizable, buffer[i].accessibility) {
                    ids.append(ItemID(slot: slot))
                }
            }
            switch entries {
            case .one(let slot): check(slot)
            case .many(let list): for slot in list { check(slot) }
            }
            return ids
        }
    }

    /// Stores a new item at the end of insertion order. The caller has checked
    /// that its primary key is free.
    @discardableResult
    public mutating func insert(_ item: StoredItem) -> ItemID {
        var item = item
        item.sequence = nextSequence
        item.persistentUUID = uuidSalt << 32 | nextSequence
        nextSequence += 1
        let table = item.itemClass.tableIndex
        item.rowID = nextRowID[table]
        nextRowID[table] += 1
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            slots[Int(free)] = item
        } else {
            slot = Int32(slots.count)
            slots.append(item)
        }
        index(slot, item)
        indexPrefix(slot, item)
        buckets[BucketKey(itemClass: item.itemClass, group: item.group), default: Bucket()]
            .append(slot: slot, sequence: item.sequence)
        count += 1
        return ItemID(slot: slot)
    }

    private mutating func indexPrefix(_ slot: Int32, _ item: StoredItem) {
        byPrefix[PrefixKey(item), default: []].append(slot)
    }

    private mutating func unindexPrefix(_ slot: Int32, _ item: StoredItem) {
        let key = PrefixKey(item)
        guard var list = byPrefix[key] else { return }
        byPrefix[key] = nil
        list.removeAll { $0 == slot }
        if !list.isEmpty { byPrefix[key] = list }
    }

    /// Slots of the items of a class in a group whose first key attribute has this value.
    func slots(of itemClass: ItemClass, in group: GroupID, firstKeyValue: AttributeValue) -> [Int32] {
        byPrefix[PrefixKey(itemClass, group, firstKeyValue)] ?? []
    }

    /// The slots that pass `accept`, read in place.
    func filter(_ slots: [Int32], _ accept: (StoredItem) -> Bool) -> [ItemID] {
        self.slots.withUnsafeBufferPointer { buffer in
            var ids: [ItemID] = []
            for slot in slots where accept(buffer[Int(slot)]) { ids.append(ItemID(slot: slot)) }
            return ids
        }
    }

    private mutating func index(_ slot: Int32, _ item: StoredItem) {
        let key = KeyValues(itemClass: item.itemClass, values: item.primaryKeyValues)
        switch byKey[key] {
        case nil: byKey[key] = .one(slot)
        case .one(let other)?: byKey[key] = .many([other, slot])
        case .many(var list)?:
            byKey[key] = nil
            list.append(slot)
            byKey[key] = .many(list)
        }
    }

    private mutating func unindex(_ slot: Int32, _ item: StoredItem) {
        let key = KeyValues(itemClass: item.itemClass, values: item.primaryKeyValues)
        switch byKey[key] {
        case .one(let s)? where s == slot: byKey[key] = nil
        case .many(var list)?:
            list.removeAll { $0 == slot }
            byKey[key] = list.count == 1 ? .one(list[0]) : .many(list)
        default: break
        }
    }

    /// Removes an item for good.
    public mutating func remove(_ id: ItemID) {
        guard let item = self[id] else { return }
        unindex(id.slot, item)
        unindexPrefix(id.slot, item)
        let key = BucketKey(itemClass: item.itemClass, group: item.group)
        buckets[key]?.remove(sequence: item.sequence)
        if buckets[key]?.isEmpty == true { buckets[key] = nil }
        slots[Int(id.slot)] = Self.freeSlot
        freeSlots.append(id.slot)
        count -= 1
    }

    /// Replaces an item's contents in place: it keeps its handle and its place
    /// in insertion order, even when its primary key or group changes. The
    /// caller has checked that a new primary key is free.
    public mutating func replace(_ id: ItemID, with newItem: StoredItem) {
        guard let old = self[id] else { return }
        var updated = newItem
        updated.sequence = old.sequence
        // SecDbItemUpdate runs UPDATE … WHERE rowid=? and keeps the persistref.
        updated.rowID = old.rowID
        updated.persistentUUID = old.persistentUUID
        if old.primaryKeyValues != updated.primaryKeyValues || old.itemClass != updated.itemClass {
            unindex(id.slot, old)
            index(id.slot, updated)
        }
        if PrefixKey(old) != PrefixKey(updated) {
            unindexPrefix(id.slot, old)
            indexPrefix(id.slot, updated)
        }
        let oldBucket = BucketKey(itemClass: old.itemClass, group: old.group)
        let newBucket = BucketKey(itemClass: updated.itemClass, group: updated.group)
        if oldBucket != newBucket {
            buckets[oldBucket]?.remove(sequence: old.sequence)
            if buckets[oldBucket]?.isEmpty == true { buckets[oldBucket] = nil }
            buckets[newBucket, default: Bucket()].insert(slot: id.slot, sequence: old.sequence)
        }
        slots[Int(id.slot)] = updated
    }

    /// The items of one class in one group, in insertion order.
    public func items(of itemClass: ItemClass, in group: GroupID) -> [ItemID] {
        guard let bucket = buckets[BucketKey(itemClass: itemClass, group: group)] else { return [] }
        return bucket.slots.compactMap { $0 < 0 ? nil : ItemID(slot: $0) }
    }

    /// Calls `body` for each item of a class in a group, in insertion order,
    /// until it returns false.
    public func forEach(of itemClass: ItemClass, in group: GroupID,
                        _ body: (ItemID, StoredItem) -> Bool) {
        guard let bucket = buckets[BucketKey(itemClass: itemClass, group: group)] else { return }
        slots.withUnsafeBufferPointer { buffer in
            for slot in bucket.slots where slot >= 0 {
                if !body(ItemID(slot: slot), buffer[Int(slot)]) { return }
            }
        }
    }

    /// Every item in insertion order. For inspection and explanations, not
    /// for the call path.
    public var allItems: [(ItemID, StoredItem)] {
        var all: [(ItemID, StoredItem)] = []
        all.reserveCapacity(count)
        for (i, item) in slots.enumerated() where item.sequence != 0 {
            all.append((ItemID(slot: Int32(i)), item))
        }
        all.sort { $0.1.sequence < $1.1.sequence }
        return all
    }
}

extension StoredItem {
    /// The class's key attributes, absent ones as empty.
    var primaryKeyValues: [AttributeValue] {
        itemClass.primaryKeyAttributes.map { attributes.effectiveValue($0) }
    }
}

extension Keychain.Bucket {
    var isEmpty: Bool { slots.count == dead }

    mutating func append(slot: Int32, sequence: UInt64) {
        slots.append(slot)
        sequences.append(sequence)
    }

    /// The first position whose sequence is not below `sequence`.
    func position(of sequence: UInt64) -> Int {
        var lo = 0, hi = sequences.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sequences[mid] < sequence { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Inserts an item that moved in from another group at its place in
    /// insertion order.
    mutating func insert(slot: Int32, sequence: UInt64) {
        let at = position(of: sequence)
        if at == sequences.count { append(slot: slot, sequence: sequence); return }
        slots.insert(slot, at: at)
        sequences.insert(sequence, at: at)
    }

    mutating func remove(sequence: UInt64) {
        // Binary search: sequences are strictly increasing.
        let lo = position(of: sequence)
        guard lo < sequences.count, sequences[lo] == sequence, slots[lo] >= 0 else { return }
        slots[lo] = -1
        dead += 1
        if dead > 32 && dead * 2 > slots.count { compact() }
    }

    mutating func compact() {
        var newSlots: [Int32] = []
        var newSequences: [UInt64] = []
        newSlots.reserveCapacity(slots.count - dead)
        newSequences.reserveCapacity(slots.count - dead)
        for (s, q) in zip(slots, sequences) where s >= 0 {
            newSlots.append(s)
            newSequences.append(q)
        }
        slots = newSlots
        sequences = newSequences
        dead = 0
    }
}

extension ItemClass {
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
