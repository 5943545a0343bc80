/// macOS (semantics.md section 6): the data-protection keychain behaves as on
/// iOS; the file-based keychain, the default target of an add without
/// `data-protection=true`, ignores access group, accessibility and
/// synchronizable, owns each item by the app that created it and prompts
/// other apps. Queries without the flag search both and merge the results.
extension World {
    /// Whether a macOS call goes to the data-protection keychain only
    /// (SecItem.cpp `SecItemCategorizeQuery`): an explicit
    /// `kSecUseDataProtectionKeychain` decides alone (the function returns
    /// before the other checks); otherwise an access control or the token
    /// group ("not defined for CDSA keychain") or a synchronizable item.
    public static func usesDataProtection(_ spec: ItemSpec) -> Bool {
        if let flag = spec.useDataProtectionKeychain { return flag }
        return spec.synchronizable == .yes || spec.accessControl != nil || spec.accessGroupText == AppTarget.tokenGroupText
    }

    /// Whether a call reaches the Mac's file-based keychain (on its own, or
    /// merged with the data-protection side for a query).
    public static func reachesFileKeychain(_ spec: ItemSpec, on platform: Platform) -> Bool {
        platform.family == .macos && !usesDataProtection(spec)
    }

    /// The pseudo-group every file-keychain item sits in, so the keychain's
    /// indexes work unchanged and messages can name it.
    public static let fileKeychainGroupName = "(file keychain)"
    /// ``fileKeychainGroupName`` as text, as a found item holds it.
    public static let fileKeychainGroupText = AttributeText(fileKeychainGroupName)
    /// Stands for the file-based keychain among the groups a call searched
    /// (``CallResult/searchedGroupIDs``); ``groupName(_:)`` names it.
    public static let fileKeychainSearchGroup = GroupID.max

    mutating func performOnMac(
        _ asked: CallRequest, as app: AppHandle, on device: DeviceHandle,
        prompt: (FoundItem) -> PromptAnswer?, dataProtection dp: CallResult?
    ) -> CallResult {
        var request = asked
        let cache = cache(of: app, on: platform(of: device))
        // A reference here is the file keychain's own: its item gives the
        // class, and the file side checks neither its company nor its class
        // against one named (SecItem.cpp lines 3029-3055, 3152-3165,
        // 3639-3660; audit 14, A5).
        if let ref = request.spec.persistentRef {
            let fileGroup = intern(Self.fileKeychainGroupName)
            let target = devices[device.index].fileKeychain.items(of: ref.itemClass.table, in: fileGroup)
                .first { devices[device.index].fileKeychain[$0].map(ref.names) == true }
            guard let target else {
                return CallResult(status: .itemNotFound, reason: .noMatch, searchedGroupIDs: [Self.fileKeychainSearchGroup])
            }
            // An add copies the referenced item into the keychain that holds
            // it (lines 5366-5384; audit 14, A6, likely).
            if request.operation == .add {
                return CallResult(status: .duplicateItem, reason: .duplicate(existing: target, inFileKeychain: true),
                                  searchedGroupIDs: [Self.fileKeychainSearchGroup])
            }
            request.spec.itemClass = ref.itemClass
            request.spec.attributes = AttributeList()
        }
        guard let itemClass = request.spec.itemClass else {
            return CallResult(status: .param, reason: .missingClass)
        }
        // The file keychain reads each class's own attributes from a table
        // and passes over the rest ("if we got here, we aren't interested in
        // this item", SecItem.cpp _ConvertNewFormatToOldFormat line 592;
        // gGenericPasswordAttributes line 343, gCertificateAttributes 384,
        // gKeyAttributes 399, in the query, the item and the changes
        // alike): no attribute is errSecNoSuchAttr there. The
        // data-protection side still refuses one (SecDbAttrWithKey), and
        // the merge then goes with the file side (audit 12).
        func kept(_ list: AttributeList) -> AttributeList {
            AttributeList(list.filter { $0.attribute.inFileKeychainTable(of: itemClass) }.map { ($0.attribute, $0.value) })
        }
        if request.spec.attributes.contains(where: { !$0.attribute.inFileKeychainTable(of: itemClass) }) {
            request.spec.attributes = kept(request.spec.attributes)
        }
        if let changes = request.changes, changes.attributes.contains(where: { !$0.attribute.inFileKeychainTable(of: itemClass) }) {
            request.changes?.attributes = kept(changes.attributes)
        }
        let fileGroup = intern(Self.fileKeychainGroupName)
        switch request.operation {
        case .add:
            return fileAdd(request.spec, itemClass, app, cache, device, fileGroup)
        case .find, .update, .delete:
            // The file side keeps the match limit on update and delete
            // (SecItem.cpp SecItemUpdate/SecItemDelete translate with
            // pruneMatch=false) and drops return keys (pruneReturn=true).
            let file = request.operation == .find && Self.fileKeychainRefusesDataForAll(request.spec, itemClass)
                ? CallResult(status: .param, reason: .fileKeychainDataForAll,
                             searchedGroupIDs: [Self.fileKeychainSearchGroup])
                : request.operation == .update && request.changes?.synchronizable == .yes
                ? changeSynchronizability(movingToDataProtection(request, changes: asked.changes), toSyncable: true,
                                          as: app, on: device, prompt: prompt)
                : fileQuery(request, itemClass, app, cache, device, fileGroup, prompt: prompt)
            return Self.merged(dataProtection: dp, file: file, request, cache)
        }
    }

    /// An update to sync=true that moves file-keychain items to the
    /// data-protection side: the items are found with the file side's
    /// query, but the changes go, as written, into a data-protection add
    /// (SecItem.cpp SecItemChangeSynchronizability, lines 4333-4336, from
    /// SecItemUpdate line 5115), which refuses an attribute of another
    /// class (errSecNoSuchAttr; review 6).
    private func movingToDataProtection(_ request: CallRequest, changes: ItemSpec?) -> CallRequest {
        var moving = request
        moving.changes = changes
        return moving
    }

    /// A query that ran on both keychains, as SecItem.cpp
    /// `SecItemMergeResults` (line 4882) combines them: a data-protection
    /// side refused for a missing entitlement counts as not asked; a
    /// data-protection side that failed otherwise leaves the file side's
    /// status and result; one that succeeded wins over any failure of the
    /// file side ("ignoring it, iOS succeeded fine", line 4906: a cancelled
    /// prompt, errSecParam for data of all passwords); when both succeed,
    /// two arrays are folded, data-protection items first, and a single
    /// result is the data-protection side's. Each side applied its own match
    /// limit, so a folded array can hold twice the limit. A dropped failure
    /// of the data-protection side stays with the answer for the
    /// explanation (``CallResult/droppedDataProtection``).
    static func merged(dataProtection dp: CallResult?, file: CallResult, _ request: CallRequest,
                       _ cache: AppCache) -> CallResult {
        guard var dp, dp.status == .success else {
            guard let dp, dp.status != .itemNotFound, dp.status != .missingEntitlement else { return file }
            var kept = file
            kept.droppedDataProtection = CallResult.DroppedSide(dp.status, dp.reason)
            return kept
        }
        dp.searchedGroupIDs = cache.searchIDs + [Self.fileKeychainSearchGroup]
        guard file.status == .success else { return dp }
        let single = request.operation == .find && (request.spec.limit ?? .one).givesSingleResult
        if !single {
            dp.items += file.items
            dp.fileKeychainAsked = file.fileKeychainAsked
        }
        return dp
    }

    /// An update without kSecUseDataProtectionKeychain whose changes set
    /// kSecAttrSynchronizable against a side's own value moves that side's
    /// matches to the other keychain instead of changing them (SecItem.cpp
    /// `SecItemUpdate` line 5096 and 5112, `SecItemChangeSynchronizability`
    /// line 4277): `set sync=true` takes file-keychain items into the
    /// data-protection keychain as synchronizable ones (in the caller's
    /// default group unless the changes name one), `set sync=false` takes
    /// data-protection items into the file keychain. Each side first finds
    /// its matches as SecItemCopyMatching does (one unless the query says
    /// otherwise, prompts and refusals included), adds each with the changes
    /// to the other keychain (a duplicate there is updated instead), and on
    /// success deletes the original, as a query with the synchronizable
    /// value the move implies: a non-synchronizable data-protection item
    /// "moved" to the file keychain is copied, and its delete finds nothing
    /// (errSecItemNotFound).
    mutating func changeSynchronizability(_ request: CallRequest, toSyncable: Bool, as app: AppHandle, on device: DeviceHandle,
                                          prompt: (FoundItem) -> PromptAnswer?) -> CallResult {
        let changes = request.changes ?? ItemSpec()
        var query = request.spec
        query.returns = changes.dataText == nil ? [.attributes, .data] : [.attributes]
        // The data-protection side's query was translated with pruneMatch
        // (SecItemUpdate's attrs_ios, line 5094): no match limit, so its
        // SecItemCopyMatching finds one item; the file side keeps the limit.
        if !toSyncable { query.limit = nil }
        // The changes go into an add on the other side: an attribute the
        // class lacks is errSecNoSuchAttr there.
        if let itemClass = query.itemClass ?? query.persistentRef?.itemClass,
           let bad = changes.attributes.first(where: { !$0.attribute.applies(to: itemClass) })?.attribute {
            return CallResult(status: .noSuchAttr, reason: .attributeNotInClass(bad, itemClass))
        }
        let found = toSyncable
            ? performOnMac(CallRequest(.find, query), as: app, on: device, prompt: prompt, dataProtection: nil)
            : performDataProtection(CallRequest(.find, query), as: app, on: device, prompt: prompt)
        guard found.status == .success else { return found }
        guard !found.items.isEmpty else {
            return CallResult(status: .itemNotFound, reason: .noMatch,
                              searchedGroupIDs: found.searchedGroupIDs)
        }
        var failure: CallResult?
        var moved: [FoundItem] = []
        for match in found.items {
            let item = match.item
            var copy = ItemSpec(itemClass: item.itemClass)
            copy.attributes = item.attributes
            for e in changes.attributes where e.attribute.applies(to: item.itemClass) { copy.attributes[e.attribute] = e.value }
            copy.dataText = changes.dataText ?? item.dataText
            copy.accessGroupText = changes.accessGroupText
            copy.accessibility = changes.accessibility
            copy.accessControl = changes.accessControl
            copy.synchronizable = toSyncable ? .yes : .no
            // The existing twin, found by the moved item's attributes (the
            // dates left out), with the changes applied to it.
            var twin = ItemSpec(itemClass: item.itemClass)
            twin.attributes = item.attributes
            // Its whole primary key, absent parts as their defaults: the twin
            // is found by one lookup, not a walk of the keychain (a walk per
            // moved item made one update quadratic; found by adversarial testing).
            for a in item.itemClass.keyAttributes where twin.attributes[a] == nil {
                twin.attributes[a] = AttributeValue.absent(for: a)
            }
            twin.synchronizable = toSyncable ? .yes : .no
            var changeTwin = changes
            changeTwin.synchronizable = nil
            var status: KeychainStatus
            var last: CallResult
            if toSyncable {
                last = performDataProtection(CallRequest(.add, copy), as: app, on: device, prompt: prompt)
                if last.status == .duplicateItem {
                    twin.useDataProtectionKeychain = true
                    last = performDataProtection(CallRequest(.update, twin, changes: changeTwin), as: app, on: device, prompt: prompt)
                }
                status = last.status
                // The original goes by SecItemDelete_osx: a password whose
                // access list does not name the caller is refused without a
                // prompt (errSecInvalidOwnerEdit, as any delete there; review
                // 8). Reading its data for the copy asked in the find above,
                // which asks for no data when the changes carry new data
                // (SecItemChangeSynchronizability, SecItem.cpp lines
                // 4284-4287; review 19, R1). A refusal leaves it, and the
                // copy already made stays too.
                if status == .success, fileItemCheck(.delete, readsData: false, changesData: false, ruleClass: item.itemClass.table,
                                                     app, item, on: device) == .refusedAsNotOwner {
                    status = .invalidOwnerEdit
                    last = CallResult(status: .invalidOwnerEdit, reason: .fileKeychainNotOwner)
                }
                if status == .success {
                    removeFileItem(match.id, on: device)
                    moved.append(match)
                }
            } else {
                copy.useDataProtectionKeychain = false
                last = perform(CallRequest(.add, copy), as: app, on: device, prompt: prompt)
                if last.status == .duplicateItem {
                    twin.useDataProtectionKeychain = false
                    last = perform(CallRequest(.update, twin, changes: changeTwin), as: app, on: device, prompt: prompt)
                }
                status = last.status
                if status == .success {
                    if item.synchronizable {
                        recordDeletion(item, on: device)
                        devices[device.index].keychain.remove(match.id)
                        moved.append(match)
                    } else {
                        status = .itemNotFound
                        last = CallResult(status: .itemNotFound, reason: .noMatch)
                    }
                }
            }
            if status != .success { failure = last }
        }
        if let failure { return failure }
        return CallResult(status: .success, reason: .movedBetweenKeychains(toDataProtection: toSyncable), searchedGroupIDs: found.searchedGroupIDs, items: moved)
    }

    private mutating func fileAdd(_ spec: ItemSpec, _ itemClass: ItemClass, _ app: AppHandle, _ cache: AppCache,
                                  _ device: DeviceHandle, _ fileGroup: GroupID) -> CallResult {
        // By class identity the file side sets `returnIdentity`, which
        // SecItemAdd_osx refuses (SecItem.cpp lines 2728-2732, 5280; audit 14, A3).
        if itemClass == .identity {
            return CallResult(status: .param, reason: .fileKeychainIdentityAdd,
                              searchedGroupIDs: [Self.fileKeychainSearchGroup])
        }
        // The add shares the find's parse (`_CreateSecItemParamsFromDictionary`,
        // SecItemAdd_osx line 5272), passwords' data refused for every match
        // (lines 3144-3150): nothing is stored (audit 22, F2).
        if Self.fileKeychainRefusesDataForAll(spec, itemClass) {
            return CallResult(status: .param, reason: .fileKeychainDataForAll,
                              searchedGroupIDs: [Self.fileKeychainSearchGroup])
        }
        var attributes = spec.attributes
        if attributes[.label] == nil, let label = Self.defaultFileLabel(attributes, itemClass) { attributes[.label] = label }
        var item = StoredItem(itemClass: itemClass, group: fileGroup,
                              synchronizable: false, accessibility: itemClass.defaultAccessibility, accessControl: nil,
                              attributes: attributes, dataText: spec.dataText)
        item.owner = app
        item.modified = tick()
        if let existing = devices[device.index].fileKeychain.item(withKey: item.primaryKey) {
            return CallResult(status: .duplicateItem, reason: .duplicate(existing: existing, inFileKeychain: true),
                              searchedGroupIDs: [Self.fileKeychainSearchGroup])
        }
        let id = devices[device.index].fileKeychain.insert(item)
        let stored = devices[device.index].fileKeychain[id] ?? item
        // The item's key is made by the caller, with its partition
        // (LocalKey::setOwner → createClientPartitionID, securityd/src/localkey.cpp
        // lines 84-97); a certificate has no ACL to hold one.
        if itemClass.table != .certificate {
            devices[device.index].fileKeychainPartitions[stored.sequence] = FileKeychainPartitionList(fileKeychainPartitionID(app, on: device))
        }
        if let signature = devices[device.index].signatures[app] {
            devices[device.index].fileKeychainOwnerSignature[stored.sequence] = signature
        }
        return CallResult(status: .success, reason: .succeeded,
                          searchedGroupIDs: [Self.fileKeychainSearchGroup],
                          items: [FoundItem(id: id, item: stored, groupText: Self.fileKeychainGroupText)],
                          returns: spec.returns)
    }

    /// Whether `app` is on the access list of the file-keychain item by
    /// name: its owner, or an app the user answered "Always Allow" for.
    /// `_SafeSecKeychainItemDelete` (SecItem.cpp lines 2177-2291) compares
    /// the decrypt ACL's application names (`_AppNameFromSecTrustedApplication`)
    /// with the caller's and lets such an app delete a password, whatever
    /// its code signature.
    public func fileKeychainNames(_ app: AppHandle, _ item: StoredItem, on device: DeviceHandle) -> Bool {
        item.owner == app || devices[device.index].fileKeychainAccess[item.sequence]?[app] != nil
    }

    /// Whether the file-keychain item's ACL trusts `app` as it is signed
    /// now: on the list with the signature it has (``resign(_:on:)`` makes
    /// a new one). Such an app reads the item's data without a prompt. The
    /// ACL's code-signature subject holds the app's designated requirement
    /// (`CodeSignatureAclSubject::toList`, acl_codesigning.cpp), and
    /// securityd checks the caller against it alone when there is one
    /// (`CodeSignatures::verify`, securityd/src/codesigdb.cpp lines 73-95).
    public func fileKeychainLists(_ app: AppHandle, _ item: StoredItem, on device: DeviceHandle) -> Bool {
        let d = devices[device.index]
        let now = d.signatures[app] ?? 0
        if item.owner == app && (d.fileKeychainOwnerSignature[item.sequence] ?? 0) == now { return true }
        return d.fileKeychainAccess[item.sequence]?[app] == now
    }

    /// Whether `app` reads the file-keychain item's data without a prompt:
    /// the one rule behind a find and both access matrices (review 19, R3).
    public func fileKeychainReadsUnasked(_ app: AppHandle, _ item: StoredItem, on device: DeviceHandle) -> Bool {
        fileItemCheck(.find, readsData: true, changesData: false, ruleClass: item.itemClass.table, app, item, on: device) == .free
    }

    /// The app's XARA partition ID: `teamid:TEAM` for an App Store,
    /// TestFlight, Developer ID or development signature
    /// (`ClientIdentification::partitionIdForProcess`, securityd/src/clientid.cpp
    /// lines 187-287), so the apps of one team share it. An app without a
    /// team is taken as ad-hoc signed, whose partition is its code's hash
    /// (`cdhash:`): its own, new with each signature.
    func fileKeychainPartitionID(_ app: AppHandle, on device: DeviceHandle) -> FileKeychainPartition {
        if let team = apps[app.index].teamID { return .team(team) }
        return .adHoc(app, signature: devices[device.index].signatures[app] ?? 0)
    }

    /// Whether the file-keychain item's partition list holds the caller's
    /// partition (`SecurityServerAcl::validatePartition`, securityd/src/acls.cpp
    /// lines 149-205). An item with no list recorded passes.
    public func fileKeychainPartitionHolds(_ app: AppHandle, _ item: StoredItem, on device: DeviceHandle) -> Bool {
        devices[device.index].fileKeychainPartitions[item.sequence]?.contains(fileKeychainPartitionID(app, on: device)) ?? true
    }

    /// The user's "Always Allow" to a prompt: SecurityAgent adds the caller
    /// as it is signed now to the item's ACL when the ACL asked, and its
    /// partition when the partition asked (`extendPartition` adds it only
    /// for that answer: acls.cpp lines 228-234 with acl_keychain.cpp lines
    /// 271-274; review 19, R22). A plain Allow lets the one call through and
    /// records nothing.
    mutating func fileKeychainAlwaysAllow(_ app: AppHandle, _ item: StoredItem, acl: Bool, partition: Bool, on device: DeviceHandle) {
        if acl {
            devices[device.index].fileKeychainAccess[item.sequence, default: [:]][app] = devices[device.index].signatures[app] ?? 0
        }
        let id = fileKeychainPartitionID(app, on: device)
        // An ad-hoc app's new signature replaces its earlier ones
        // (``FileKeychainPartitionList``; adversarial run 26, F5).
        if partition { devices[device.index].fileKeychainPartitions[item.sequence]?.insert(id) }
    }

    /// Removes a file-keychain item with what is kept beside it by its
    /// sequence (access list, signature, partition).
    mutating func removeFileItem(_ id: ItemID, on device: DeviceHandle) {
        guard let item = devices[device.index].fileKeychain[id] else { return }
        devices[device.index].fileKeychain.remove(id)
        devices[device.index].fileKeychainAccess[item.sequence] = nil
        devices[device.index].fileKeychainOwnerSignature[item.sequence] = nil
        devices[device.index].fileKeychainPartitions[item.sequence] = nil
    }

    /// What another app's (or a re-signed or transferred app's) call meets
    /// on one file-keychain item (conformance audit 23). The ACL guards
    /// reading only: decrypt, sign, MAC, derive and export go to the
    /// trusted-application list, while encrypting, which writing new data
    /// needs, is allowed to all (`Access::makeStandard`,
    /// OSX/libsecurity_keychain/lib/Access.cpp lines 88-116). So:
    /// - a read of a password's or key's data asks when the ACL does not
    ///   trust the caller as signed now (``fileKeychainLists(_:_:on:)``) or
    ///   its partition is not on the item's list (`SecurityServerAcl::validate`,
    ///   acls.cpp lines 111-137);
    /// - an update carrying a password's new data asks nothing: a new item
    ///   key under the old ACL (`ItemImpl::updateSSGroup`, Item.cpp lines
    ///   886-1052; `kc-16-item-update-password.c` lines 51-52, 69-70 count
    ///   no prompt);
    /// - an update of attributes (or a key's) asks only when the caller's
    ///   partition is not on the list: rewriting the integrity entry checks
    ///   the partition alone (`SecurityServerAcl::changeAcl`, acls.cpp lines
    ///   71-97; `ItemImpl::setIntegrity`, Item.cpp lines 531-542);
    /// - a certificate has no ACL ("Certs can't have access controls",
    ///   `Certificate::copyTo`, Certificate.cpp lines 1160-1168);
    /// - a delete asks nothing; a password (not a web form's) whose list
    ///   does not name the caller is refused (``deleteChecksOwner(_:)``).
    enum FileItemCheck: Equatable {
        case free
        case refusedAsNotOwner
        /// A prompt: `acl`, the ACL does not trust the caller; `partition`,
        /// its partition is not on the list (what an Always Allow adds).
        case asks(acl: Bool, partition: Bool)
    }

    func fileItemCheck(_ operation: Operation, readsData: Bool, changesData: Bool, ruleClass: ItemClass,
                       _ app: AppHandle, _ item: StoredItem, on device: DeviceHandle) -> FileItemCheck {
        guard ruleClass != .certificate else { return .free }
        switch operation {
        case .delete:
            return Self.deleteChecksOwner(item) && !fileKeychainNames(app, item, on: device) ? .refusedAsNotOwner : .free
        case .find, .add:
            guard readsData else { return .free }
            let acl = !fileKeychainLists(app, item, on: device)
            let partition = !fileKeychainPartitionHolds(app, item, on: device)
            return acl || partition ? .asks(acl: acl, partition: partition) : .free
        case .update:
            if changesData && ruleClass != .key { return .free }
            return fileKeychainPartitionHolds(app, item, on: device) ? .free : .asks(acl: false, partition: true)
        }
    }

    /// Why a file-keychain prompt was refused, for the explanation.
    func fileKeychainDenial(_ check: FileItemCheck, _ app: AppHandle, _ item: StoredItem, on device: DeviceHandle) -> FileKeychainDenial {
        guard case .asks(let acl, _) = check else { return .otherApp }
        if !acl { return .partition }
        return fileKeychainNames(app, item, on: device) ? .resigned : .otherApp
    }

    /// Whether the file keychain's parse refuses the call: a password's data
    /// for every match (`_CreateSecItemParamsFromDictionary`, SecItem.cpp
    /// lines 3144-3150, errSecReturnDataUnsupported = errSecParam), in a find
    /// and in an add, which shares that parse.
    public static func fileKeychainRefusesDataForAll(_ spec: ItemSpec, _ itemClass: ItemClass) -> Bool {
        (itemClass == .genericPassword || itemClass == .internetPassword) && spec.returns.contains(.data) && spec.limit == .all
    }

    /// The label a file-keychain item gets when its add names none
    /// (`ItemImpl::addWithCopyInfo`, OSX/libsecurity_keychain/lib/Item.cpp
    /// lines 680-707): a generic password's service, an internet password's
    /// server, failing that the account, as given (an empty value is one
    /// value, `label->size()` counting values); another class only its
    /// account, which keys and certificates do not have.
    /// A find by that label then matches it (audit 22, F4).
    static func defaultFileLabel(_ attributes: AttributeList, _ itemClass: ItemClass) -> AttributeValue? {
        let first: ItemAttribute? = switch itemClass {
        case .genericPassword: .service
        case .internetPassword: .server
        default: nil
        }
        return first.flatMap { attributes[$0] } ?? attributes[.account]
    }

    /// A query as the file keychain reads it: group, accessibility and sync
    /// mean nothing there.
    static func fileSideQuery(_ spec: ItemSpec) -> ItemSpec {
        var query = spec
        query.accessGroupText = nil
        query.accessibility = nil
        query.synchronizable = .any
        return query
    }

    /// How many of the file keychain's items on `device` the query of
    /// `request` matches by its attributes (no prompt, no owner check): what
    /// the file side of a Mac call had to offer, for explanations when the
    /// merge kept the data-protection side's answer (real-world problem P23,
    /// session 18).
    public func fileKeychainMatchCount(for request: CallRequest, on device: DeviceHandle) -> Int {
        fileKeychainMatches(for: request, on: device).count
    }

    /// The file keychain's items on `device` that the query of `request`
    /// matches by its attributes (as ``fileKeychainMatchCount(for:on:)``).
    public func fileKeychainMatches(for request: CallRequest, on device: DeviceHandle) -> [ItemID] {
        guard let itemClass = request.spec.itemClass, let fileGroup = groupID(Self.fileKeychainGroupName) else { return [] }
        return Self.matchingItems(Self.fileSideQuery(request.spec), itemClass.table, in: [fileGroup],
                                  of: devices[device.index].fileKeychain)
    }

    private mutating func fileQuery(_ request: CallRequest, _ itemClass: ItemClass, _ app: AppHandle, _ cache: AppCache,
                                    _ device: DeviceHandle, _ fileGroup: GroupID,
                                    prompt: (FoundItem) -> PromptAnswer?) -> CallResult {
        let query = Self.fileSideQuery(request.spec)
        let storedClass = itemClass.table
        var ids = Self.matchingItems(query, storedClass, in: [fileGroup], of: devices[device.index].fileKeychain)
        // An identity there is found by walking private keys and pairing each
        // with its certificate (SecIdentitySearchCreate, SecItem.cpp line 3213;
        // IdentityCursor.cpp line 241): a certificate without a private key
        // is no identity (audit 14, A7, likely).
        // The keys by application label, once per call (a scan per
        // certificate would be certificates × keys).
        var keysByLabel: [AttributeValue: [ItemID]] = [:]
        if itemClass == .identity {
            let keychain = devices[device.index].fileKeychain
            keysByLabel = Self.keysByApplicationLabel(keychain.items(of: .key, in: fileGroup), in: keychain)
            ids = ids.filter { pairedKeys($0, device, keysByLabel, keyClass: .string("private")).first != nil }
        }
        // SecItemCopyMatching_osx returns one match unless the query says
        // otherwise, and SecItemUpdate_osx and SecItemDelete_osx act on what
        // it returns: without limit=all they change or delete the first match only.
        let cap = (request.spec.limit ?? .one).cap
        var taken: [FoundItem] = []
        // Another app's item: reading its data asks the user through the
        // item's ACL, changing it its partition (``fileItemCheck``).
        // SecItem.cpp never reads kSecUseAuthenticationUI, so auth-ui
        // changes nothing here. A certificate's data needs no ACL
        // (SecCertificateCopyData, lines 3929-3948; audit 14, A4). An
        // identity's update changes its private key (below).
        let readsData = request.spec.returns.contains(.data)
        let changesData = request.changes?.dataText != nil
        let ruleClass: ItemClass = itemClass == .identity && request.operation == .update ? .key : storedClass
        // Update and delete go on past an item that fails and say the last
        // failure (SecItemUpdate_osx lines 5438-5444, SecItemDelete_osx
        // 5493-5505, _UpdateAggregateStatus 2623-2640; audit 14, A2).
        // Each failure with its place among the matches: the last in item
        // order is the call's, whichever step found it (review 8).
        var failure: (place: Int, status: KeychainStatus, reason: StatusReason)?
        func fail(_ place: Int, _ status: KeychainStatus, _ reason: StatusReason) {
            if failure.map({ $0.place < place }) ?? true { failure = (place, status, reason) }
        }
        var places: [ItemID: Int] = [:]
        var read = 0
        // Why the first prompt the user let through asked (QA s22, Q26, Q27).
        var asked: FileKeychainDenial?
        func result(_ status: KeychainStatus, _ reason: StatusReason, _ searched: [GroupID], items: [FoundItem],
                    returns: ReturnKinds = []) -> CallResult {
            var out = CallResult(status: status, reason: reason, searchedGroupIDs: searched, items: items, returns: returns)
            out.fileKeychainAsked = asked
            return out
        }
        for id in ids where read < cap {
            guard let item = devices[device.index].fileKeychain[id] else { continue }
            read += 1
            places[id] = read
            let found = FoundItem(id: id, item: item, groupText: Self.fileKeychainGroupText)
            // An identity's update changes its private key (below): the
            // key's partition decides (review 19, R19).
            var checked = item
            if itemClass == .identity && ruleClass == .key,
               let key = pairedKeys(id, device, keysByLabel, keyClass: .string("private")).first,
               let stored = devices[device.index].fileKeychain[key] {
                checked = stored
            }
            let check = fileItemCheck(request.operation, readsData: readsData, changesData: changesData, ruleClass: ruleClass,
                                      app, checked, on: device)
            switch check {
            case .free: break
            case .refusedAsNotOwner:
                fail(read, .invalidOwnerEdit, .fileKeychainNotOwner)
                continue
            case .asks(let acl, let partition):
                switch prompt(found) {
                case .approve?:
                    if asked == nil { asked = fileKeychainDenial(check, app, checked, on: device) }
                case .alwaysAllow?:
                    // Why it asked, before the answer changes the lists.
                    if asked == nil { asked = fileKeychainDenial(check, app, checked, on: device) }
                    fileKeychainAlwaysAllow(app, checked, acl: acl, partition: partition, on: device)
                case .cancel?, .fail?:
                    let reason = StatusReason.fileKeychainDenied(fileKeychainDenial(check, app, checked, on: device))
                    if request.operation == .find {
                        return CallResult(status: .authFailed, reason: reason, searchedGroupIDs: [Self.fileKeychainSearchGroup])
                    }
                    fail(read, .authFailed, reason)
                    continue
                case nil:
                    return CallResult(status: .interactionNotAllowed, reason: .promptUnanswered, searchedGroupIDs: [Self.fileKeychainSearchGroup])
                }
            }
            taken.append(found)
        }
        let searched = cache.searchIDs + [Self.fileKeychainSearchGroup]
        guard !taken.isEmpty || failure != nil else {
            return CallResult(status: .itemNotFound, reason: .noMatch, searchedGroupIDs: searched,
                              returns: request.spec.returns)
        }
        switch request.operation {
        case .add, .find:
            return result(.success, .succeeded, searched, items: taken, returns: request.spec.returns)
        case .update:
            var results: [FoundItem] = []
            let stamp = tick()
            for found in taken {
                var changes = request.changes ?? ItemSpec()
                changes.accessGroupText = nil
                changes.synchronizable = nil
                // An identity's update changes its private key: "since we
                // can't really change the certificate's attributes, assume we
                // want to update the private key" (_UpdateKeychainItem,
                // SecItem.cpp lines 2459-2462), with the key's attribute table
                // (lines 2494-2500), which drops the certificate's attributes
                // (conformance audit 21, F2).
                var target = found.id, current = found.item
                if itemClass == .identity {
                    guard let key = pairedKeys(found.id, device, keysByLabel, keyClass: .string("private")).first,
                          let stored = devices[device.index].fileKeychain[key] else { continue }
                    (target, current) = (key, stored)
                    changes.attributes = AttributeList(changes.attributes.filter { $0.attribute.inFileKeychainTable(of: .key) }
                        .map { ($0.attribute, $0.value) })
                }
                var updated = Self.applying(changes, to: current, group: nil)
                updated.modified = stamp
                if let other = devices[device.index].fileKeychain.item(withKey: updated.primaryKey), other != target {
                    fail(places[found.id] ?? 0, .duplicateItem, .duplicate(existing: other, inFileKeychain: true))
                    continue
                }
                devices[device.index].fileKeychain.replace(target, with: updated)
                // New data, a new item key made by the caller: its partition
                // alone, the ACL copied without the old partition entries
                // (ItemImpl::updateSSGroup, Item.cpp lines 926-933;
                // LocalKey::setOwner, securityd/src/localkey.cpp lines 84-97).
                if changesData, updated.itemClass == .genericPassword || updated.itemClass == .internetPassword {
                    devices[device.index].fileKeychainPartitions[updated.sequence] = FileKeychainPartitionList(fileKeychainPartitionID(app, on: device))
                }
                results.append(FoundItem(id: target, item: updated, groupText: found.groupText))
            }
            return result(failure?.status ?? .success, failure?.reason ?? .succeeded, searched, items: results)
        case .delete:
            for found in taken {
                // An identity goes with its public and private keys
                // (_DeleteIdentity, lines 2591-2620; audit 14, A7).
                if itemClass == .identity {
                    for key in pairedKeys(found.id, device, keysByLabel, keyClass: nil) {
                        removeFileItem(key, on: device)
                    }
                }
                removeFileItem(found.id, on: device)
            }
            return result(failure?.status ?? .success, failure?.reason ?? .succeeded, searched, items: taken)
        }
    }

    /// The file keychain's keys whose application label is the certificate's
    /// public key hash (from `byLabel`), of one key class or of any.
    private func pairedKeys(_ certificate: ItemID, _ device: DeviceHandle, _ byLabel: [AttributeValue: [ItemID]],
                            keyClass: AttributeValue?) -> [ItemID] {
        let keychain = devices[device.index].fileKeychain
        guard let hash = keychain[certificate]?.comparedValue(.publicKeyHash) else { return [] }
        return (byLabel[hash] ?? []).filter { id in
            guard let key = keychain[id] else { return false }
            return keyClass.map { key.comparedValue(.keyClass) == $0 } ?? true
        }
    }

    /// Whether deleting the file item compares its access list with the
    /// caller: passwords, but not internet passwords of an HTML form
    /// (SecItem.cpp lines 2194-2213).
    static func deleteChecksOwner(_ item: StoredItem) -> Bool {
        switch item.itemClass {
        case .genericPassword: true
        case .internetPassword: item.attributes[.authenticationType] != .string("html-form")
        default: false
        }
    }
}
