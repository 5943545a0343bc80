/// The four SecItem calls. Each rule cites the row of semantics.md it models.
extension World {
    /// Performs one SecItem call as `app` on `device`.
    ///
    /// - Parameter prompt: answers an authentication prompt for an item with
    ///   access control; nil means no answer was supplied.
    public mutating func perform(
        _ request: CallRequest, as app: AppHandle, on device: DeviceHandle = .this,
        prompt: (FoundItem) -> PromptAnswer? = { _ in nil }
    ) -> CallResult {
        let authenticatedBefore = request.spec.context.flatMap { contexts[$0]?.authenticatedOn }
        var result = route(request, as: app, on: device, prompt: prompt)
        // The context authenticated now belongs to the caller's process.
        if authenticatedBefore == nil, let name = request.spec.context, contexts[name]?.authenticatedOn != nil {
            contexts[name]?.authenticatedBy = app
        }
        // A find or an add that failed, wherever it stopped (the caller's
        // list, an unentitled group, the class, the lock), still asked for
        // what it asked for: the result says so, and `expect data` says the
        // call returned nothing, not that it asked for no data (QA s20).
        if result.status != .success, request.operation == .find || request.operation == .add {
            result.returns = request.spec.returns
        }
        return result
    }

    /// ``perform(_:as:on:prompt:)``'s route: the Mac's two keychains, or
    /// the data-protection keychain alone.
    private mutating func route(
        _ request: CallRequest, as app: AppHandle, on device: DeviceHandle,
        prompt: (FoundItem) -> PromptAnswer?
    ) -> CallResult {
        settleCaches()
        // macOS: calls without the data-protection flag (and not for
        // synchronizable items) go to the file-based keychain, queries to both.
        // A persistent reference names a row of one keychain.
        if platform(of: device).family == .macos {
            // Without kSecUseDataProtectionKeychain (SecItem.cpp SecItemUpdate
            // returns early only when it is true), an update to sync=false
            // moves the data-protection side's matches to the file keychain
            // (SecItemChangeSynchronizability), wherever the query goes.
            // sync=any among the changes is sync=false there: the client
            // reads the value as a number (`readNumber`, lines 4044-4066),
            // and "syna" is none, so 0 (`SecItemHasSynchronizableUpdate`,
            // 4248-4258, called at 5097); the move then writes false (4351).
            if let refused = Self.refusesReferenceRoute(request) { return refused }
            let movesToFile = request.operation == .update && request.spec.useDataProtectionKeychain != true
                && (request.changes?.synchronizable == .no || request.changes?.synchronizable == .any)
            if Self.reachesFileKeychain(request.spec, on: platform(of: device)) && request.spec.persistentRef?.inFileKeychain != false {
                // A merged query runs on the data-protection side first, unless
                // data-protection=false keeps it off that side
                // (SecItemCategorizeQuery: can_target_ios = the flag).
                let dp: CallResult? = request.operation == .add || request.spec.useDataProtectionKeychain == false ? nil
                    : movesToFile ? changeSynchronizability(request, toSyncable: false, as: app, on: device, prompt: prompt)
                    : performDataProtection(request, as: app, on: device, prompt: prompt)
                return performOnMac(request, as: app, on: device, prompt: prompt, dataProtection: dp)
            }
            if movesToFile { return changeSynchronizability(request, toSyncable: false, as: app, on: device, prompt: prompt) }
        }
        return performDataProtection(request, as: app, on: device, prompt: prompt)
    }

    /// A call on the data-protection keychain (iOS, Catalyst, watchOS, and
    /// macOS with the flag).
    mutating func performDataProtection(
        _ request: borrowing CallRequest, as app: AppHandle, on device: DeviceHandle,
        prompt: (FoundItem) -> PromptAnswer?
    ) -> CallResult {
        // The Mac's client (macOS and Mac Catalyst) takes
        // kSecAttrSynchronizable out of a data-protection dictionary that
        // holds a persistent reference, "as it will be rejected by secd"
        // (SecItem.cpp SecItemCopyTranslatedAttributes, lines 4786-4792, for
        // the query of every call and the attributes of an add): the call
        // is neither a reference with attributes nor filtered by sync, and
        // an add stores the default, not synchronizable (audit 18, F2).
        if request.spec.persistentRef != nil, request.spec.synchronizable != nil,
           platform(of: device).prunesUpdateAndDeleteQueries {
            var translated = copy request
            translated.spec.synchronizable = nil
            return performDataProtection(translated, as: app, on: device, prompt: prompt)
        }
        // A delete by an identity's persistent reference reads the identity
        // first (``deleteIdentity(byReference:as:on:prompt:)``).
        if request.operation == .delete, request.spec.persistentRef?.itemClass == .identity {
            return deleteIdentity(byReference: request, as: app, on: device, prompt: prompt)
        }
        // An update or a delete of kSecClassIdentity without a reference is
        // the same call made twice by the client, first as a certificate
        // query, then, if that succeeded, as a key query (SecItem.m
        // explode_identity, lines 591-604, and handleUpdateIdentity, lines
        // 663-676): each pass is an ordinary query of its class, so a key
        // attribute in the query is errSecNoSuchAttr in the first pass, and
        // a certificate the first pass deleted stays deleted whatever the
        // second finds. An update
        // does not (SecItemUpdateWithError calls only handleUpdateIdentity):
        // its certificate pass carries the identity's reference, whose class
        // is not the certificate's (errSecNoSuchClass, SecDbQuery.c
        // query_set_class), and nothing changes.
        if request.spec.itemClass == .identity,
           request.operation == .update || request.operation == .delete && request.spec.persistentRef == nil {
            var pass = copy request
            pass.spec.itemClass = .certificate
            let first = performDataProtection(pass, as: app, on: device, prompt: prompt)
            guard first.status == .success else { return first }
            pass.spec.itemClass = .key
            // The count is both passes' rows (audit 22, F3): the certificates
            // the first removed or changed stay so whatever the second finds.
            var second = performDataProtection(pass, as: app, on: device, prompt: prompt)
            if second.status == .success { second.items = first.items + second.items }
            return second
        }
        let platform = platform(of: device)
        // Client side first (SecItem.m SecItemAuthDoQuery): nothing reaches
        // securityd when these fail, whoever the caller is.
        let full = cache(of: app, on: platform)
        if let refused = clientChecks(request) { return refused }
        if full.isUnsigned, platform.listsTokenGroupForUnentitled {
            return unentitledTokenGroupCall(request, platform)
        }
        let (cache, refusal) = serverGroups(full, request.operation, platform)
        if let refusal { return CallResult(status: .missingEntitlement, reason: refusal) }
        // _SecItemUpdate and _SecItemDelete check the query's group before
        // they parse the query (and so before the class). Before iOS 13 there
        // is no such check: the group only narrows the search later.
        if request.operation == .update || request.operation == .delete, platform.rejectsUnentitledQueryGroups,
           let refused = searchScope(request.spec, cache, platform).result(cache) {
            return refused
        }
        // securityd reads the class before anything else of the query
        // (SecDbQuery.c `query_create_with_limit`, line 1085): a string that
        // names no class is errSecNoSuchClass ("can't find class named",
        // `query_get_class`, line 603); an absent one is errSecParam (605,
        // below). The same place for the four calls: after the caller's
        // list, and after an update's or delete's group check (SecItemServer.c
        // 2548-2588, 2696-2705, 3137-3160, 3248-3269). Audit 18, F3.
        if let name = request.spec.unknownClass, request.spec.itemClass == nil {
            return CallResult(status: .noSuchClass, reason: .unknownClass(name))
        }
        // A persistent reference is parsed with the query: it may give the class.
        if let ref = request.spec.persistentRef, let refused = Self.checkPersistentRef(ref, request, platform) {
            return CallResult(status: refused.status, reason: refused.reason)
        }
        // 3: a missing class is errSecParam.
        guard let itemClass = request.spec.itemClass ?? request.spec.persistentRef?.itemClass else {
            return CallResult(status: .param, reason: .missingClass)
        }
        // The rest of the dictionary is parsed next (SecDbQuery.c
        // `query_update_parse` → `query_applier`, after the class): a value
        // the parse refuses is answered here, after the caller's entitlement
        // and an update's or delete's query group (SecItemServer.c
        // 2550-2554 before 2588, 2697-2701 before 2705, 3137-3150 before
        // 3160, 3249-3260 before 3269). Audit 19, F5.
        if let refused = request.spec.pendingValue {
            return CallResult(status: refused.status, reason: .valueRefused(refused.key))
        }
        if let bad = firstForeignAttribute(request.spec, itemClass) {
            return CallResult(status: .noSuchAttr, reason: .attributeNotInClass(bad, itemClass))
        }
        // Without a class, an update by an identity's reference is an `idnt`
        // query to securityd, whose rows no update writes: Apple's
        // secitemfunctionality.m asserts errSecInternal (lines 383-396, the
        // same at Security-58286 and 59754; audit 13, F9).
        // A reference that names no identity any more finds nothing first
        // (inferred: the test covers a live one).
        if request.operation == .update, request.spec.itemClass == nil, itemClass == .identity {
            let live = !Self.matchingFoundItems(request.spec, .identity, in: cache.searchIDs, of: devices[device.index].keychain,
                                               names: groupTexts, certificateGroups: cache.searchIDs).isEmpty
            return CallResult(status: live ? .internalError : .itemNotFound, reason: live ? .identityReferenceUpdate : .noMatch)
        }
        // An identity add's dictionary goes whole into its certificate pass
        // (SecItem.m lines 503-507, 512), where a key attribute is no column
        // (SecItemDb.c lines 76-87): the key's own come with its reference
        // (SecKey.m lines 130-152), so only the caller can have written one
        // that no key reference carries (audit 13, F1).
        if request.operation == .add, itemClass == .identity,
           let bad = request.spec.attributes.entries.first(where: { !$0.attribute.applies(to: .certificate) && !$0.attribute.keyReferenceCarries })?.attribute {
            return CallResult(status: .noSuchAttr, reason: .attributeNotInClass(bad, .certificate))
        }
        // Accessibility and an access-control object in one dictionary, on
        // every call: the client passes the access control on in queries too
        // (SecItem.m SecItemAttributesPrepare), and securityd's parser turns
        // kSecAttrAccessible into a second access control that
        // query_set_access_control refuses, "conflicting kSecAccess and
        // kSecAccessControl attributes" (SecDbQuery.c; errSecItemIllegalQuery
        // is errSecParam), which query_parse returns before any search.
        if request.spec.accessibility != nil && request.spec.accessControl != nil {
            return CallResult(status: .param, reason: .accessibilityWithAccessControl)
        }
        switch request.operation {
        case .add:
            return add(request.spec, itemClass, cache, device, prompt)
        case .find:
            return find(request.spec, itemClass, cache, device, prompt)
        case .update:
            return update(request.spec, request.changes ?? ItemSpec(), itemClass, cache, device, platform, prompt)
        case .delete:
            return delete(request.spec, itemClass, cache, device)
        }
    }

    /// macOS: a `data-protection=` flag decides the route alone, before the
    /// client looks at a persistent reference (SecItem.cpp
    /// `SecItemCategorizeQuery`, lines 4136-4154 return before 4204-4212),
    /// so a reference to the other keychain's row fails there (audit 19, F1):
    /// - `false` with a data-protection reference: the file keychain only,
    ///   whose `CopyResolvedKeychainItem` (3522-3570) gets from
    ///   `SecKeychainItemCopyFromPersistentReference` (SecKeychainItem.cpp
    ///   677-697) an item without a keychain, which no attribute read takes
    ///   (Item.cpp 1211-1214, 1243-1246): errSecItemNotFound (SecItem.cpp
    ///   3659, 5226-5227; update and delete return it, 5415-5416, 5467-5468).
    /// - `true` with a file keychain's reference: the data-protection side
    ///   only, where `_SecItemParsePersistentRef` (SecItem.m 845-888) reads
    ///   no such shape and securityd answers errSecItemClassMissing or
    ///   errSecItemInvalidValue (SecDbQuery.c 585-611, 808): errSecParam.
    /// An add keeps its own routes.
    static func refusesReferenceRoute(_ request: CallRequest) -> CallResult? {
        guard request.operation != .add, let ref = request.spec.persistentRef,
              let flag = request.spec.useDataProtectionKeychain, flag == ref.inFileKeychain else { return nil }
        return CallResult(status: flag ? .param : .itemNotFound, reason: .persistentRefOtherKeychain(flag: flag))
    }

    /// The checks `_SecItemParsePersistentRef` and `query_set_class` make
    /// (SecDbQuery.c `query_add_value`) when the query is parsed. An add's
    /// row-ID reference is refused later (``addRefusesRowID(_:)``).
    static func checkPersistentRef(_ ref: PersistentRef, _ request: CallRequest,
                                   _ platform: Platform) -> StatusFailure? {
        // Before Security-60157 a 20-byte reference is not a valid one
        // (errSecItemInvalidValue, that is errSecParam).
        if case .uuid = ref.row, !platform.persistentRefsUseUUID {
            return StatusFailure(.param, .persistentRefUnreadable)
        }
        if let named = request.spec.itemClass, named != ref.itemClass {
            return StatusFailure(.noSuchClass, .persistentRefClassMismatch(named))
        }
        return nil
    }

    /// SecItemServer.c's refusal of a row-ID persistent reference in an add
    /// (`q->q_row_id`, line 2768: errSecValuePersistentRefUnsupported, which
    /// SecBasePriv.h maps to errSecParam), made after the query is parsed,
    /// the explicit group checked and the App Clip rules applied (lines 2705,
    /// 2714-2718, 2754-2757; audit 11, F3). A UUID reference sets no row ID
    /// (SecItem.m `_SecItemParsePersistentRef` gives one for the 12-byte
    /// shape only): the add goes on with its class and stores a new item
    /// under a fresh UUID (line 2749).
    static func addRefusesRowID(_ spec: ItemSpec) -> Bool {
        if let ref = spec.persistentRef, case .rowID = ref.row { return true }
        return false
    }

    /// Whether a query names attributes besides a persistent reference:
    /// s3dl_copy_matching refuses that (errSecItemIllegalQuery, errSecParam),
    /// and so do update and delete for row-ID references (SecItemDb.c
    /// `s3dl_query_update`, SecItemServer.c `SecServerItemDeleteWithCustomDb`); a UUID
    /// reference is ANDed with them there. They count `query_attr_count`,
    /// the attribute pairs; an access control is none: it goes to
    /// `q_access_control` only (SecDbQuery.c 356-366, `desc->kind !=
    /// kSecDbAccessControlAttr`), so a reference with one is no reference
    /// "with attributes" (conformance audit 20, F1).
    /// A find refuses one shape only, by the static-references flag
    /// (`s3dl_copy_matching`, SecItemDb.c lines 1115-1120): where references
    /// are UUIDs (`staticRefs`, from Security-60157) a row-ID reference, which
    /// `_SecItemParsePersistentRef` still reads (one an app stored before
    /// the upgrade), is ANDed with the attributes (conformance audit 21, F3).
    static func persistentRefHasCompany(_ spec: ItemSpec, _ operation: Operation, staticRefs: Bool = false) -> Bool {
        guard let ref = spec.persistentRef else { return false }
        if operation != .find, case .uuid = ref.row { return false }
        if operation == .find, staticRefs, case .rowID = ref.row { return false }
        let syncNamed = spec.synchronizable == .yes || spec.synchronizable == .no
        return !spec.attributes.isEmpty || spec.accessGroupText != nil || spec.accessibility != nil || syncNamed
    }

    private func firstForeignAttribute(_ spec: ItemSpec, _ itemClass: ItemClass) -> ItemAttribute? {
        // By index: `first(where:)` would copy each entry, value and all.
        let entries = spec.attributes.entries
        for i in entries.indices where !entries[i].attribute.applies(to: itemClass) { return entries[i].attribute }
        return nil
    }

    /// The checks `SecItemAuthDoQuery` (OSX/sec/Security/SecItem.m,
    /// Security-61901.0.87.0.1) makes before anything reaches securityd.
    private func clientChecks(_ request: borrowing CallRequest) -> CallResult? {
        // "item with kSecAttrAccessControl is not synchronizable": the new
        // item's attributes on add, the attributes to change on update. Every
        // access-control object has constraints (SecAccessControl.m
        // SecAccessControlCreateWithFlags adds kAKSKeyOpDefaultAcl without flags).
        // The fields are read in place: copying a dictionary retains all of it.
        let syncWithAC: Bool
        switch request.operation {
        case .add: syncWithAC = request.spec.synchronizable == .yes && request.spec.accessControl != nil
        case .update: syncWithAC = request.changes?.synchronizable == .yes && request.changes?.accessControl != nil
        case .find, .delete: syncWithAC = false
        }
        if syncWithAC {
            return CallResult(status: .param, reason: .syncWithAccessControl)
        }
        // "kSecUseAuthenticationUISkip is allowed only for SecItemCopyMatching".
        if request.operation != .find, request.spec.authUI == .skip {
            return CallResult(status: .param, reason: .skipOutsideFind)
        }
        return nil
    }

    /// The access groups securityd grants the caller on a device of
    /// `platform` (server_entitlement_helpers.c `SecTaskCopyAccessGroups`,
    /// built once per app in `cache(of:on:)`), or the call's end when there
    /// are none. The Mac's daemon (macOS, Catalyst) honours an app ID,
    /// associated IDs and application groups only when a provisioning profile
    /// validates them (keychain-access-groups always count) and appends
    /// com.apple.token unless an app ID was left with nothing (the Mac's rule
    /// in every Security version kcs models; KeychainEntitlementsTest testNoEntitlements,
    /// testInvalidEntitlementsAppID). Writes see the list without the
    /// read-only token group (SecItemServer.c
    /// `SecurityClientCopyWritableAccessGroups`); an empty writable list ends
    /// the call with errSecMissingEntitlement.
    /// `full` is the app's list; the refusal, when there is one, is
    /// errSecMissingEntitlement's reason (a small answer: a `Result`
    /// carrying a whole `CallResult` was copied on every call).
    private func serverGroups(_ full: AppCache, _ operation: Operation,
                              _ platform: Platform) -> (AppCache, StatusReason?) {
        let unsigned = full.isUnsigned
        // 1.6: an unsigned target gets errSecMissingEntitlement from every
        // call, except on the Mac, whose list then holds com.apple.token; an
        // empty Mac list (an app ID no profile validates, nothing else) too.
        if full.ids.isEmpty || (unsigned && !platform.usesMacDaemon) {
            return (full, unsigned ? .unsigned : .unprovisioned)
        }
        guard operation != .find else { return (full, nil) }
        if full.holdsTokenGroupAlone { return (full, .onlyTokenGroup) }
        return (full.writable, nil)
    }

    /// A call by a process without entitlements on iOS 10-13 (watchOS
    /// 3-6), whose list is `[com.apple.token]` alone
    /// (``Platform/listsTokenGroupForUnentitled``; QA s21, Q05: openradar
    /// 34838798, an unhosted test's add -34018 on iOS 10 and -50 on iOS 11;
    /// onmyway133/blog issue 92, its find -25300 on iOS 11). A find searches
    /// the token group, which holds none of kcs's items (SecItemServer.c
    /// `SecItemServerCopyMatching` refuses only an empty list); writes are
    /// errSecMissingEntitlement, except on iOS 11
    /// (``Platform/searchesTokenGroupOnWrites``): an add into the token
    /// group, element 0, is errSecParam, a named group it lacks
    /// errSecMissingEntitlement ("explicit accessGroup %@ not in client
    /// access"), and an update or a delete searches the token group (an
    /// update's `set group=` is errSecParam for the token group,
    /// errSecNoAccessForItem for another, Security-58286.1.32 lines 1705-1716).
    /// A find names what it searched (the token group; nothing for iOS 13's
    /// query without a group, which leaves the token group out; session
    /// 22), and a group other than the token group is refused as an
    /// entitled app's is (errSecMissingEntitlement from iOS 13; before, it
    /// finds nothing).
    private func unentitledTokenGroupCall(_ request: CallRequest, _ platform: Platform) -> CallResult {
        let refused = CallResult(status: .missingEntitlement, reason: .onlyTokenGroup)
        // Past the list check the query is parsed, its class first (as below).
        let unparsed: CallResult? = if let name = request.spec.unknownClass, request.spec.itemClass == nil {
            CallResult(status: .noSuchClass, reason: .unknownClass(name))
        } else if request.spec.itemClass == nil && request.spec.persistentRef?.itemClass == nil {
            CallResult(status: .param, reason: .missingClass)
        } else {
            nil
        }
        switch request.operation {
        case .find:
            if let unparsed { return unparsed }
            let token = groupIDs[AppTarget.tokenGroup].map { singleGroups[Int($0)] } ?? []
            guard let g = request.spec.accessGroupText else {
                return CallResult(status: .itemNotFound, reason: .unentitledTokenGroup,
                                  searchedGroupIDs: platform.dropsTokenGroupFromImplicitQueries ? [] : token)
            }
            guard g == AppTarget.tokenGroupText else {
                return platform.rejectsUnentitledQueryGroups ? CallResult(status: .missingEntitlement, reason: .groupNotEntitled(g))
                    : CallResult(status: .itemNotFound, reason: .groupNotEntitledFindsNothing(g))
            }
            return CallResult(status: .itemNotFound, reason: .unentitledTokenGroup, searchedGroupIDs: token)
        case .add:
            guard platform.searchesTokenGroupOnWrites else { return refused }
            if let unparsed { return unparsed }
            if let g = request.spec.accessGroupText, g != AppTarget.tokenGroupText {
                return CallResult(status: .missingEntitlement, reason: .groupNotEntitled(g))
            }
            return CallResult(status: .param, reason: .unentitledTokenGroup)
        case .update, .delete:
            guard platform.searchesTokenGroupOnWrites else { return refused }
            if let unparsed { return unparsed }
            // The query's own checks come before any search, whatever the
            // groups: return keys on an update (Security-58286.1.32
            // `_SecItemUpdate` lines 1696-1703), a match limit on a delete
            // (`_SecItemDelete` lines 1781-1784) or, after the new group, on
            // an update; the ordinary path's statuses (review 22a, R4).
            let prunes = platform.prunesUpdateAndDeleteQueries
            if request.operation == .delete, !prunes, request.spec.limit != nil {
                return CallResult(status: .param, reason: .limitOnDelete)
            }
            if request.operation == .update, !prunes, !request.spec.returns.isEmpty {
                return CallResult(status: .param, reason: .limitOrReturnOnUpdate)
            }
            if request.operation == .update, let g = request.changes?.accessGroupText {
                return g == AppTarget.tokenGroupText ? CallResult(status: .param, reason: .unentitledTokenGroup)
                    : CallResult(status: .noAccessForItem, reason: .moveNotEntitled(g))
            }
            if request.operation == .update, !prunes, request.spec.limit != nil {
                return CallResult(status: .param, reason: .limitOrReturnOnUpdate)
            }
            return CallResult(status: .itemNotFound, reason: .unentitledTokenGroup)
        }
    }

    /// The App Clip rules of `SecServerItemAdd/CopyMatching/Update/Delete`
    /// (keychain/securityd/SecItemServer.c, Security-59754.41.1 and later).
    private func appClipRefusal(_ cache: AppCache, syncRequested: Bool) -> CallResult? {
        guard cache.isAppClip else { return nil }
        if cache.restrictedClip {
            return CallResult(status: .restrictedAPI, reason: .appClipGroups)
        }
        if syncRequested {
            return CallResult(status: .restrictedAPI, reason: .appClipSync)
        }
        return nil
    }

    // MARK: Add

    /// The class of a tombstone holding `item`'s key, when the device keeps
    /// it locked: an add or update onto that key fails with the lock's error
    /// (``duplicateAdd``). The table's emptiness is asked in place first: a
    /// method called on the device through the array copied the device on
    /// every add (callgrind: +3.4 % on the judged workload).
    // Inlined here and below: called from mutating code on every call, a
    // method out of line was passed a copy of the 248-byte world.
    @inline(__always)
    private func lockedTombstone(of item: StoredItem, on device: DeviceHandle) -> Accessibility? {
        guard !devices[device.index].tombstoneRows.isEmpty, let stone = devices[device.index].tombstoneAccessibility(of: item),
              !devices[device.index].state.isAvailable(stone) else { return nil }
        return stone
    }

    /// An add whose key a stored row holds: that row is decrypted first
    /// (SecDbItemInsertOrReplace, SecDbItem.c line 1661). A class the
    /// device keeps locked is the lock's error; a biometry-current-set row
    /// whose enrolled set changed does not decrypt (errSecDecode), is
    /// corrupt to SecDbItemIsCorrupt (lines 1541-1560), and the add takes
    /// its place and row ID ("If old_item is corrupted pretend it's not
    /// there and just replace it", lines 1664-1690), as for a lost
    /// when-passcode-set row (audit 12; that the row answers errSecDecode
    /// is kcs's premise, see "Biometry"); a row whose access control needs
    /// the user asks first, as a find that reads it would (audit 26, F3:
    /// the decrypt answers errSecAuthNeeded, which the client's
    /// `SecItemAuthDo` turns into a prompt and a retry with the call's
    /// credential, `SecDbItemInsertOrReplace` line 1656), and is a
    /// duplicate once approved; any other is a duplicate. Off the common
    /// path: a new item is only built when it replaces the row.
    private mutating func duplicateAdd(_ spec: borrowing ItemSpec, _ id: ItemID, _ device: DeviceHandle, _ cache: AppCache,
                                       _ prompt: (FoundItem) -> PromptAnswer?,
                                       newItem: @autoclosure () -> StoredItem) -> CallResult {
        switch meetStoredRow(spec, id, device, prompt) {
        case .failed(let result): return result
        case .sound: return CallResult(status: .duplicateItem, reason: .duplicate(existing: id))
        case .undecodable: break
        }
        let old = devices[device.index].keychain.stored(id)
        devices[device.index].keychain.remove(id)
        let added = devices[device.index].keychain.insert(newItem(), intoCorruptRow: old.rowID)
        return CallResult(status: .success, reason: .succeeded,
                          searchedGroupIDs: singleGroups[Int(old.group)],
                          items: [FoundItem(id: added, item: devices[device.index].keychain.stored(added),
                                            groupText: groupTexts[Int(old.group)])],
                          returns: spec.returns)
    }

    /// What an add finds at the row that holds its key.
    private enum StoredRow {
        /// The lock's error, or the access control's prompt refused.
        case failed(CallResult)
        /// It would not decode: the add takes its place and row ID.
        case undecodable
        /// Sound (approved, if it asked): the add is a duplicate.
        case sound
    }

    /// The rule of ``duplicateAdd``, one place for every add that meets a
    /// stored row, an identity's halves included (each is a `SecItemAdd` of
    /// its own, `explode_identity`, SecItem.m lines 472-475 and 503-556, so
    /// each asks as an add does; review 22b, R3).
    private mutating func meetStoredRow(_ spec: borrowing ItemSpec, _ id: ItemID, _ device: DeviceHandle,
                                        _ prompt: (FoundItem) -> PromptAnswer?) -> StoredRow {
        let state = devices[device.index].state
        let old = devices[device.index].keychain.stored(id)
        if old.isLockedAway(in: state) {
            return .failed(CallResult(status: .interactionNotAllowed, reason: .lockedDuplicate(old.accessibility, existing: id)))
        }
        if old.isUndecodable(in: state) { return .undecodable }
        if let ac = old.accessControl, ac.requiresAuthentication {
            var context = contextUse(spec, device)
            let match = FoundItem(id: id, item: old, groupText: groupTexts[Int(old.group)])
            let asked = Self.askUser([ac], match, authUI: spec.authUI ?? .allow, state: state, context: &context, prompt: prompt)
            keepContext(context, named: spec.context, on: device)
            // auth-ui=skip never gets here (errSecParam on the client).
            if case .failure(let f) = asked {
                let reason: StatusReason = f.reason == .promptUnanswered ? f.reason : .protectedDuplicate(existing: id, f.reason)
                return .failed(CallResult(status: f.status, reason: reason))
            }
        }
        return .sound
    }

    private mutating func add(_ spec: borrowing ItemSpec, _ itemClass: ItemClass, _ cache: AppCache,
                              _ device: DeviceHandle, _ prompt: (FoundItem) -> PromptAnswer?) -> CallResult {
        func fail(_ status: KeychainStatus, _ reason: StatusReason) -> CallResult {
            CallResult(status: status, reason: reason)
        }
        // Explicit group must be in the caller's list, the empty string included.
        let group: GroupID
        if let named = spec.accessGroupText {
            guard let id = entitledGroup(named, cache) else {
                if named == AppTarget.tokenGroupText && platform(of: device).searchesTokenGroupOnWrites {
                    return fail(.param, .tokenGroupWrite)
                }
                return fail(.missingEntitlement, .groupNotEntitled(named))
            }
            group = id
        } else {
            group = cache.ids[0]  // 1.5: the default group is element 0.
        }
        if let refused = appClipRefusal(cache, syncRequested: spec.synchronizable == .yes) { return refused }
        if Self.addRefusesRowID(spec) { return fail(.param, .persistentRefOnAdd) }
        // s3dl_query_add (SecItemDb.c) opens with "if (query_match_count(q)
        // != 0) return errSecItemMatchUnsupported;" in a function returning
        // bool: a match limit reports success and stores nothing, before the
        // lock and duplicate checks. The Mac's client prunes it first.
        if spec.limit != nil && !platform(of: device).prunesUpdateAndDeleteQueries {
            return fail(.success, .matchLimitOnAdd)
        }
        let named = spec.accessControl?.protection ?? spec.accessibility
        let accessibility = named ?? itemClass.defaultAccessibility
        let state = devices[device.index].state
        if accessibility == .whenPasscodeSetThisDeviceOnly && !state.hasPasscode {
            let viaAC = spec.accessControl != nil
            return fail(viaAC ? .notAvailable : .authFailed, .passcodeRequired(viaAccessControl: viaAC))
        }
        // The access control is bound before the item is encrypted under its
        // class, so an unbindable one fails first (``DeviceState/canBind(_:)``).
        if let ac = spec.accessControl, !state.canBind(ac) { return fail(.authFailed, .accessControlUnbound) }
        // Locked before duplicate. An identity's halves are added one after
        // the other, each under its own class (below).
        if itemClass != .identity, !state.isAvailable(accessibility) { return fail(.interactionNotAllowed, .locked(accessibility)) }

        let biometrySet = state.biometrySet
        // sync=any on add stores a non-synchronizable item, no error.
        let sync = spec.synchronizable == .yes
        let stamp = tick()
        guard itemClass == .identity else {
            // Built again only when it replaces a corrupt row (``duplicateAdd``).
            func newItem() -> StoredItem {
                var item = StoredItem(itemClass: itemClass, group: group, synchronizable: sync,
                                      accessibility: accessibility, accessControl: spec.accessControl,
                                      attributes: spec.attributes, dataText: spec.dataText)
                item.biometrySet = biometrySet
                item.modified = stamp
                return item
            }
            let item = newItem()
            // A row with the key is decrypted before the add can call it a
            // duplicate or take its place (SecDbItemInsertOrReplace,
            // SecDbItem.c line 1661, SecDbItemIsCorrupt line 1540): a
            // class the device keeps locked fails the add with the lock's
            // error (errSecInteractionNotAllowed), whatever the new item's
            // class; nothing changes. A tombstone keeps its row's class.
            if let stone = lockedTombstone(of: item, on: device) {
                return fail(.interactionNotAllowed, .lockedDuplicate(stone, existing: nil))
            }
            // A tombstone of the key takes the item into its row (a deleted
            // synchronizable item's reference finds the new one). A
            // key with a tombstone has no live item (`Device.takeTombstoneRow`),
            // so taking it before the duplicate check loses nothing.
            let tombstone = devices[device.index].takeTombstoneRow(of: item)
            // Mutate in place through the array so the keychain is never copied.
            let (id, existed) = devices[device.index].keychain.insertUnlessPresent(consume item, replacing: tombstone)
            if existed { return duplicateAdd(spec, id, device, cache, prompt, newItem: newItem()) }
            return CallResult(status: .success, reason: .succeeded,
                              searchedGroupIDs: singleGroups[Int(group)],
                              items: [FoundItem(id: id, item: devices[device.index].keychain.stored(id),
                                                groupText: groupTexts[Int(group)])],
                              returns: spec.returns)
        }
        // 2.3: an identity is stored as its certificate and its key.
        var cert = AttributeList(), key = AttributeList()
        for e in spec.attributes {
            if e.attribute == .label { cert[.label] = e.value; key[.label] = e.value }
            else if e.attribute.applies(to: .certificate) { cert[e.attribute] = e.value }
            else { key[e.attribute] = e.value }
        }
        if key[.keyClass] == nil { key[.keyClass] = .string("private") }
        if cert[.publicKeyHash] == nil { cert[.publicKeyHash] = key.effectiveValue(.applicationLabel) }
        // explode_identity adds each half with the same dictionary, so
        // each takes its own class's default accessibility.
        var parts = [
            StoredItem(itemClass: .certificate, group: group, synchronizable: sync,
                       accessibility: named ?? ItemClass.certificate.defaultAccessibility,
                       accessControl: spec.accessControl, attributes: cert, dataText: spec.dataText),
            StoredItem(itemClass: .key, group: group, synchronizable: sync,
                       accessibility: named ?? ItemClass.key.defaultAccessibility,
                       accessControl: spec.accessControl, attributes: key, dataText: spec.dataText),
        ]
        for i in parts.indices {
            parts[i].biometrySet = biometrySet
            parts[i].modified = stamp
        }
        // explode_identity (SecItem.m lines 503-556) adds the certificate,
        // then the key, each an add of its own: a certificate already stored
        // is no error there (`duplicate_cert`), and the call is a duplicate
        // only if the key is stored too. Each half is encrypted under its own
        // class, so under the lock the certificate (`always` by default,
        // SecDbQuery.c lines 934-936) is stored and the key's (when-unlocked,
        // line 939) error is the call's; the certificate stays (audit 13, F2).
        if !state.isAvailable(parts[0].accessibility) {
            return fail(.interactionNotAllowed, .locked(parts[0].accessibility))
        }
        // The halves are of different classes: replacing one's row cannot
        // change the other's lookup.
        let oldCert: ItemID?, certID: ItemID
        switch addIdentityHalf(parts[0], spec, device, prompt) {
        case .failed(let result): return result
        case .added(let id): (oldCert, certID) = (nil, id)
        case .stored(let id): (oldCert, certID) = (id, id)
        }
        if !state.isAvailable(parts[1].accessibility) {
            return fail(.interactionNotAllowed, .locked(parts[1].accessibility))
        }
        let oldKey: ItemID?, keyID: ItemID
        switch addIdentityHalf(parts[1], spec, device, prompt) {
        case .failed(let result): return result
        case .added(let id): (oldKey, keyID) = (nil, id)
        case .stored(let id): (oldKey, keyID) = (id, id)
        }
        if let oldCert, oldKey != nil { return fail(.duplicateItem, .duplicate(existing: oldCert)) }
        let certificate = devices[device.index].keychain[certID] ?? parts[0]
        let keyHalf = FoundItem.IdentityKey(id: keyID, item: devices[device.index].keychain[keyID] ?? parts[1],
                                            groupText: groupTexts[Int(group)], certificateHasData: certificate.dataText != nil)
        let added = [FoundItem(id: certID, item: certificate, groupText: groupTexts[Int(group)], identityKey: keyHalf)]
        // The result is the certificate add's, turned into the identity's
        // persistent reference (lines 559-575): none when that add found the
        // certificate stored (its result stays NULL), and none for any other
        // return kind, which `_SecItemParsePersistentRef` refuses (line 848;
        // audit 13, F7).
        let returns: ReturnKinds = oldCert == nil && spec.returns == .persistentReference ? .persistentReference : []
        return CallResult(status: .success, reason: .succeeded,
                          searchedGroupIDs: singleGroups[Int(group)], items: added, returns: returns)
    }

    /// How one half of an identity add ended.
    private enum HalfAdd {
        /// Stored, in a new row or in the place of a row that would not decode.
        case added(ItemID)
        /// A row holding the half's key was stored already.
        case stored(ItemID)
        /// The half's add failed with this result.
        case failed(CallResult)
    }

    /// One half of an identity add. explode_identity (`SecItem.m` lines
    /// 503-556) adds each half with an add of its own, so a row holding the
    /// half's key is decrypted first, as for any add (``duplicateAdd``;
    /// `SecDbItemInsertOrReplace`, `SecDbItem.c` lines 1650-1697): under the
    /// lock its class's error ends the half's add and so the call (the
    /// certificate's error ends it before the key is tried, line 519; a
    /// certificate added before the key's error stays), a row that would not
    /// decode (lost with the passcode, or an invalidated biometry row) is
    /// replaced in its row, and any other row is the half stored already.
    private mutating func addIdentityHalf(_ part: StoredItem, _ spec: borrowing ItemSpec, _ device: DeviceHandle,
                                          _ prompt: (FoundItem) -> PromptAnswer?) -> HalfAdd {
        guard let id = devices[device.index].keychain.item(withKeyOf: part) else {
            return .added(devices[device.index].insert(part))
        }
        switch meetStoredRow(spec, id, device, prompt) {
        case .failed(let result): return .failed(result)
        case .sound: return .stored(id)
        case .undecodable: break
        }
        let old = devices[device.index].keychain.stored(id)
        devices[device.index].keychain.remove(id)
        return .added(devices[device.index].keychain.insert(part, intoCorruptRow: old.rowID))
    }

    /// The group's ID if the caller's list holds it.
    private func entitledGroup(_ name: AttributeText, _ cache: AppCache) -> GroupID? {
        cache.id(of: name)
    }

    // MARK: Queries

    /// The groups a query searches, or the result that ends the call:
    /// an explicit group narrows the search to it if entitled; otherwise
    /// errSecMissingEntitlement from iOS 13, errSecItemNotFound before.
    @inline(__always)
    func searchScope(_ spec: borrowing ItemSpec, _ cache: AppCache, _ platform: Platform) -> Scope {
        guard let named = spec.accessGroupText else {
            return .success(platform.dropsTokenGroupFromImplicitQueries ? cache.writable.searchIDs : cache.searchIDs)
        }
        if let id = entitledGroup(named, cache) { return .success(singleGroups[Int(id)]) }
        if platform.rejectsUnentitledQueryGroups {
            return .failure(StatusFailure(.missingEntitlement, .groupNotEntitled(named)))
        }
        return .failure(StatusFailure(.itemNotFound, .groupNotEntitledFindsNothing(named)))
    }

    /// The searched groups, or why the call ends (a status and a reason,
    /// not a whole result: the scope is asked on every query).
    enum Scope {
        case success([GroupID])
        case failure(StatusFailure)

        /// The call's result when the scope ends it.
        func result(_ cache: AppCache) -> CallResult? {
            guard case .failure(let f) = self else { return nil }
            return CallResult(status: f.status, reason: f.reason)
        }
    }

    /// Whether a stored item satisfies a query's filters (class and group
    /// aside); `sync`, when given, stands for the query's sync value
    /// (else ``ItemSpec/searchedSync``).
    static func matches(_ item: StoredItem, _ spec: ItemSpec, sync: SyncSelector? = nil) -> Bool {
        if let ref = spec.persistentRef {
            guard ref.itemClass.table == item.itemClass, ref.names(item), ref.inFileKeychain == (item.owner != nil) else { return false }
        }
        // 3: a query that does not mention synchronizable matches only
        // non-synchronizable items (SecDbQuery.c query_create_with_limit),
        // unless it carries a persistent reference.
        switch sync ?? spec.searchedSync {
        case .yes: if !item.synchronizable { return false }
        case .no: if item.synchronizable { return false }
        case .any: break
        }
        if let a = spec.accessibility, item.accessibility != a { return false }
        for e in spec.attributes where !item.matches(e.attribute, e.value) {
            return false
        }
        return true
    }

    /// Items of `itemClass` in `groups` that match `spec`, in insertion order.
    /// With a complete primary key in the query this is one hash lookup per
    /// group and sync value; otherwise it walks only the searched groups.
    /// `sync`, when given, replaces the query's sync value (lint asks what a
    /// query would match with another one, without copying the query).
    static func matchingItems(_ spec: borrowing ItemSpec, _ itemClass: ItemClass, in groups: [GroupID],
                              of keychain: Keychain, sync override: SyncSelector? = nil) -> [ItemID] {
        var ids: [ItemID] = []
        let keyAttributes = itemClass.keyAttributes
        let fullKey = !keyAttributes.isEmpty && keyAttributes.allSatisfy { spec.attributes.contains($0) }
        if fullKey {
            // One hash of the key values; the group and sync value are then
            // checked on the few items that share them.
            let sync = override ?? spec.searchedSync
            let onlyKeys = spec.attributes.count == keyAttributes.count && spec.persistentRef == nil
            // The closure captures the one field it reads: capturing `spec`
            // copied the whole query (callgrind: one copy per keyed query).
            let wantedAccessibility = spec.accessibility
            keychain.matching(itemClass, keyIn: spec.attributes, into: &ids) { group, synchronizable, accessibility in
                guard groups.contains(group) else { return false }
                switch sync {
                case .yes: if !synchronizable { return false }
                case .no: if synchronizable { return false }
                case .any: break
                }
                if let a = wantedAccessibility, a != accessibility { return false }
                return true
            }
            // Attributes beyond the key need the whole item.
            if !onlyKeys { ids.removeAll { id in keychain[id].map { !Self.matches($0, spec, sync: override) } ?? true } }
        } else if let first = keyAttributes.first, let value = spec.attributes[first] {
            // The leading key attribute is named: look only at items with it.
            for g in groups {
                keychain.matching(itemClass, in: g, firstKeyValue: value, into: &ids) { Self.matches($0, spec, sync: override) }
            }
        } else {
            var groupsWithMatches = 0
            for g in groups {
                let before = ids.count
                keychain.forEach(of: itemClass, in: g) { id, item in
                    if Self.matches(item, spec, sync: override) { ids.append(id) }
                    return true
                }
                if ids.count > before { groupsWithMatches += 1 }
            }
            if groupsWithMatches < 2 { return ids }
        }
        if ids.count > 1 {
            ids.sort { keychain.sequence(of: $0) < keychain.sequence(of: $1) }
        }
        return ids
    }

    /// Matches of a query as items, identities paired with their keys.
    ///
    /// Static, like `matchingItems` and `walk`: a mutating call that asked
    /// the world for them would copy the whole world to lend it.
    static func matchingFoundItems(_ spec: ItemSpec, _ itemClass: ItemClass, in groups: [GroupID],
                                   of keychain: Keychain, names groupTexts: [AttributeText],
                                   certificateGroups: [GroupID]? = nil) -> [FoundItem] {
        guard itemClass == .identity else {
            let ids = matchingItems(spec, itemClass, in: groups, of: keychain)
            guard !ids.isEmpty else { return [] }
            var found: [FoundItem] = []
            found.reserveCapacity(ids.count)
            for id in ids {
                let item = keychain.stored(id)
                found.append(FoundItem(id: id, item: item, groupText: groupTexts[Int(item.group)]))
            }
            return found
        }
        // An identity is a certificate whose public key hash is the
        // application label of a private key the caller can also see: one
        // result per (certificate, key) pair (SecItemDb.c line 858, a plain
        // join). The outer query sees the certificate's label, issuer,
        // serial, subject key ID and data, and the key's every column, so
        // the group, sync value and accessibility it names are the key's;
        // the certificate is held only to the caller's groups (`cert.agrp IN`).
        var certSpec = spec, keySpec = spec
        certSpec.attributes = AttributeList(spec.attributes.filter { $0.attribute.applies(to: .certificate) }
            .map { ($0.attribute, $0.value) })
        certSpec.synchronizable = .any
        certSpec.accessibility = nil
        certSpec.accessControl = nil
        // An attribute both halves have (the label) filters the certificate
        // only: SecItemDb.c SecDbAttrWithKey resolves an identity's attribute
        // in the certificate class first (si-42-identity.m "still finding
        // zomg ident" after the key's label changed).
        keySpec.attributes = AttributeList(spec.attributes.filter {
            !$0.attribute.applies(to: .certificate)
        }.map { ($0.attribute, $0.value) })
        // kcs pairs private keys only (the join's `keys.priv == 1`, SecItemDb.c
        // line 865, is kSecAttrIsPrivate, which a key reference sets for
        // public keys too: kcs's premise, as before); a key class the query
        // names is tested against the joined keys (line 874), so another
        // one finds nothing (audit 13, F8; inferred).
        if let named = spec.attributes[.keyClass], named != .string("private") { return [] }
        keySpec.attributes[.keyClass] = .string("private")
        // The reference names the certificate's row; the key pairs with it.
        keySpec.persistentRef = nil
        if spec.persistentRef != nil && spec.synchronizable == nil { keySpec.synchronizable = .any }
        let keysByLabel = keysByApplicationLabel(matchingItems(keySpec, .key, in: groups, of: keychain), in: keychain)
        var found: [FoundItem] = []
        for certID in matchingItems(certSpec, .certificate, in: certificateGroups ?? groups, of: keychain) {
            guard let cert = keychain[certID] else { continue }
            // The join's `pkhh = klbl` (SecItemDb.c): a certificate without a
            // public key hash (NULL, no default) pairs with no key.
            guard let hash = cert.comparedValue(.publicKeyHash) else { continue }
            for keyID in keysByLabel[hash] ?? [] {
                guard let key = keychain[keyID] else { continue }
                // securityd moves the certificate's data aside and merges
                // the certificate's attributes into the key's row (SecItemDb.c
                // lines 645-656): the identity's data is the key's (audit 13, F6).
                var paired = cert
                paired.dataText = key.dataText
                found.append(FoundItem(id: certID, item: paired, groupText: groupTexts[Int(cert.group)],
                                       identityKey: .init(id: keyID, item: key, groupText: groupTexts[Int(key.group)],
                                                          certificateHasData: cert.dataText != nil)))
            }
        }
        return found
    }

    /// Keys by application label, the column an identity's certificate
    /// joins on with its public key hash, so a join is linear (a nested
    /// loop took 26 s for 8,000 identities; found by adversarial testing).
    static func keysByApplicationLabel(_ keys: [ItemID], in keychain: Keychain) -> [AttributeValue: [ItemID]] {
        var byLabel: [AttributeValue: [ItemID]] = [:]
        for id in keys {
            if let label = keychain[id]?.comparedValue(.applicationLabel) { byLabel[label, default: []].append(id) }
        }
        return byLabel
    }

    /// Walks matches in insertion order, stopping the whole call at the first
    /// one the device state keeps locked (SecItemDb.c s3dl_query_row), and
    /// settles prompts for access-control items when the call authenticates
    /// (find and update; the context may stand in for the user).
    /// `lost`: the lost rows a find or an update read and passed over,
    /// which securityd then deletes (see below).
    private static func walk(_ matches: [FoundItem], cap: Int, authenticates: Bool, authUI: AuthUI,
                             state: DeviceState, deletes: Bool = false, context: inout ContextUse?, lost: inout [ItemID],
                             prompt: (FoundItem) -> PromptAnswer?) -> Result<[FoundItem], StatusFailure> {
        // Taken matches are a prefix of `matches` until one is passed over;
        // only then is a separate list built.
        var prefix = 0
        var taken: [FoundItem]?
        // The cap is SQL's LIMIT: it counts the rows read, also those passed
        // over below (an item skipped under auth-ui=skip, a lost one), not
        // only those taken (SecItemDb.c s3dl_query, lines 1070-1079: the walk
        // stops at `found >= q_limit`, but SQLite hands it no more than
        // LIMIT rows; audit 11, F2).
        var read = 0
        // By index: binding each match copied it, item and group name.
        for m in matches.indices {
            if read >= cap { break }
            read += 1
            // The lock answers first (`StoredItem.isLockedAway`): a find or
            // an update stops there with errSecInteractionNotAllowed, even
            // at a row that would not decode, and even under auth-ui=skip,
            // which clears errSecAuthNeeded only (s3dl_query, SecItemDb.c
            // lines 1070-1078; audit 25, F2). A delete goes on under the
            // lock: `s3dl_query_delete` asks `SecDbItemNeedAuth`, which
            // swallows every decryption error but errSecAuthNeeded, and
            // deletes the row by its ID (SecItemDb.c line 1393).
            let item = matches[m].item
            if item.isLockedAway(in: state) {
                if deletes { Self.take(matches, m, &taken, &prefix); continue }
                return .failure(StatusFailure(.interactionNotAllowed, .locked(item.accessibility)))
            }
            // A row that no longer decrypts (a when-passcode-set row lost
            // with the passcode, an invalidated biometry-current-set row:
            // `StoredItem.isUndecodable`) answers errSecDecode: reads pass
            // it over, a delete removes it (it needs no decryption:
            // SecItemDb.c s3dl_query_delete, kAKSKeyOpDelete; for every flag
            // set, SecAccessControl.m). The row a find or an update passes
            // over is deleted too: a find's decode error schedules `DELETE …
            // WHERE rowid` at once (s3dl_query_row, SecItemDb.c lines
            // 572-592; SecServerDeleteCorruptedItemAsync, SecItemServer.c
            // lines 2314-2356, delayed only under test), and an update
            // deletes it in its transaction (s3dl_query_update, lines
            // 1344-1361: "treat as if item is not found"). Neither asks why
            // the row fails to decode (audit 21, F1; audit 25, F1). An
            // identity's row is a join, no table a delete names: it stays.
            if item.isUndecodable(in: state) {
                if deletes { Self.take(matches, m, &taken, &prefix); continue }
                Self.passOver(matches, &taken, prefix)
                if matches[m].identityKey == nil { lost.append(matches[m].id) }
                continue
            }
            // An identity's key half is decrypted after the certificate.
            if let key = matches[m].identityKey {
                if key.item.isLockedAway(in: state) {
                    if deletes { Self.take(matches, m, &taken, &prefix); continue }
                    return .failure(StatusFailure(.interactionNotAllowed, .locked(key.item.accessibility)))
                }
                // The key half is decoded into the query's error, which
                // nothing clears ("TODO : if there is a errSecDecode error
                // here, we should cleanup", SecItemDb.c s3dl_query_row lines
                // 630-641): a key that no longer decrypts ends a find or an
                // update with errSecDecode, and nothing is deleted (audit 25,
                // F6).
                if key.item.isUndecodable(in: state) {
                    if deletes { Self.take(matches, m, &taken, &prefix); continue }
                    return .failure(StatusFailure(.decode, .identityKeyUndecodable))
                }
            }
            // Each half whose access control has constraints is decrypted
            // in full whatever the query returns (SecDbKeychainItem.m
            // ks_decrypt_data lines 482-485): the certificate's, then the
            // key's (s3dl_query_row lines 630-641; audit 25, F6). A key
            // with the certificate's own access control asks nothing more.
            if authenticates {
                var constraints: [AccessControl] = []
                if let ac = matches[m].item.accessControl, ac.requiresAuthentication { constraints.append(ac) }
                if let ac = matches[m].identityKey?.item.accessControl, ac.requiresAuthentication,
                   ac != matches[m].item.accessControl {
                    constraints.append(ac)
                }
                if !constraints.isEmpty {
                    switch Self.askUser(constraints, matches[m], authUI: authUI, state: state, context: &context, prompt: prompt) {
                    case .failure(let f): return .failure(f)
                    case .success(let skipped):
                        if skipped {
                            Self.passOver(matches, &taken, prefix)
                            continue
                        }
                    }
                }
            }
            Self.take(matches, m, &taken, &prefix)
        }
        if let taken { return .success(taken) }
        return .success(prefix == matches.count ? matches : Array(matches[..<prefix]))
    }

    /// The user's part when a call must decrypt a row whose access
    /// controls (`constraints`) need authentication: each one the context
    /// does not cover yet asks (SecItem.m `SecItemAuthDo`, which evaluates
    /// the row's access control on the call's context and retries),
    /// unless auth-ui forbids it. Success: whether auth-ui=skip passed the
    /// row over (a find only); failure: the call's status.
    static func askUser(_ constraints: [AccessControl], _ match: FoundItem, authUI: AuthUI, state: DeviceState,
                        context: inout ContextUse?, prompt: (FoundItem) -> PromptAnswer?) -> Result<Bool, StatusFailure> {
        for ac in constraints where !(context?.coversPrompt(for: ac, state: state) ?? false) {
            // A non-interactive context turns a prompt into a failure.
            let authUI = context?.context.interactionAllowed == false && authUI == .allow ? .fail : authUI
            switch authUI {
            case .skip:
                return .success(true)
            case .fail:
                let reason: StatusReason = context?.context.interactionAllowed == false ? .contextNotInteractive : .promptNotAllowed
                return .failure(StatusFailure(.interactionNotAllowed, reason))
            case .allow:
                // No way to authenticate (no biometry, no passcode): it fails.
                guard state.canSatisfy(ac) else { return .failure(StatusFailure(.authFailed, .promptImpossible)) }
                switch prompt(match) {
                case .approve?, .alwaysAllow?: context?.approve(ac, state: state)
                case .cancel?: return .failure(StatusFailure(.userCanceled, .promptCanceled))
                case .fail?: return .failure(StatusFailure(.authFailed, .promptFailed))
                case nil: return .failure(StatusFailure(.interactionNotAllowed, .promptUnanswered))
                }
            }
        }
        return .success(false)
    }

    /// How many of the rows a read deleted were invalidated
    /// biometry-current-set rows, not lost when-passcode-set ones (for the
    /// explanation).
    private func biometryRows(_ ids: [ItemID], _ device: DeviceHandle) -> Int {
        ids.reduce(0) { $0 + (devices[device.index].keychain[$1]?.lost == false ? 1 : 0) }
    }

    /// Takes a match in `walk`: while nothing was passed over, the taken
    /// ones are the first `prefix` matches.
    private static func take(_ matches: [FoundItem], _ m: Int, _ taken: inout [FoundItem]?, _ prefix: inout Int) {
        if taken == nil { prefix += 1 } else { taken?.append(matches[m]) }
    }

    /// Passes over a match in `walk`: from now on the taken ones are listed.
    private static func passOver(_ matches: [FoundItem], _ taken: inout [FoundItem]?, _ prefix: Int) {
        if taken == nil { taken = Array(matches[..<prefix]) }
    }

    struct StatusFailure: Error {
        var status: KeychainStatus
        var reason: StatusReason
        init(_ status: KeychainStatus, _ reason: StatusReason) { self.status = status; self.reason = reason }
    }

    // MARK: Find

    private mutating func find(_ spec: borrowing ItemSpec, _ itemClass: ItemClass, _ cache: AppCache, _ device: DeviceHandle,
                               _ prompt: (FoundItem) -> PromptAnswer?) -> CallResult {
        let groups: [GroupID]
        switch searchScope(spec, cache, platform(of: device)) {
        case .success(let g): groups = g
        case .failure(let f): return CallResult(status: f.status, reason: f.reason)
        }
        if let refused = appClipRefusal(cache, syncRequested: false) { return refused }
        let searched = groups
        if Self.persistentRefHasCompany(spec, .find, staticRefs: platform(of: device).persistentRefsUseUUID) {
            return CallResult(status: .param, reason: .persistentRefWithAttributes,
                              searchedGroupIDs: searched)
        }
        // An identity's SQL joins the keys with a few certificate columns
        // (`crowid, labl, issr, slnr, skid, tkid`, SecItemDb.c lines
        // 858-866); another certificate column in the query is no column
        // there, and SQLite's error is errSecNotAvailable (SecItem.m lines
        // 142-146; reported on a device, Apple forum thread 748892).
        if itemClass == .identity,
           let bad = spec.attributes.entries.first(where: { $0.attribute == .certificateType || $0.attribute == .publicKeyHash })?.attribute {
            return CallResult(status: .notAvailable, reason: .identityQueryColumn(bad), searchedGroupIDs: searched)
        }
        let matches = devices[device.index].keychain.foundItems(spec, itemClass, in: groups, names: groupTexts,
                                                                certificateGroups: cache.searchIDs)
        var context = contextUse(spec, device)
        var lost: [ItemID] = []
        defer {
            keepContext(context, named: spec.context, on: device)
            // Deleted whatever the call answers: the delete was scheduled
            // when the row was read.
            for id in lost { devices[device.index].keychain.remove(id) }
        }
        // Every query decrypts the secret part of an item whose access control
        // has constraints, whatever it returns (SecDbKeychainItem.m
        // ks_decrypt_data: "Should also try and decrypt if there are ACL
        // contraints"), so attributes alone, or nothing, prompt too
        // (secacltests/sec_acl_stress.c: auth-ui=fail → errSecInteractionNotAllowed);
        // the query's context may stand in for the prompt.
        switch Self.walk(matches, cap: (spec.limit ?? .one).cap, authenticates: true, authUI: spec.authUI ?? .allow,
                         state: devices[device.index].state, context: &context, lost: &lost, prompt: prompt) {
        case .failure(let f):
            return CallResult(status: f.status, reason: f.reason, searchedGroupIDs: searched)
        case .success(let taken) where taken.isEmpty:
            let cap = (spec.limit ?? .one).cap
            // The limit is the cause only when it stopped the read short.
            // Said so when every row read was lost; other rows passed over
            // too (a prompt under auth-ui=skip) keep the general reason and
            // their candidates (review of session 17, R4).
            let reason: StatusReason = !lost.isEmpty && lost.count == min(cap, matches.count)
                ? .lostRowsDeleted(count: lost.count, biometry: biometryRows(lost, device), more: cap < matches.count)
                : cap < matches.count ? .limitUsedUp(limit: cap) : .noMatch
            return CallResult(status: .itemNotFound, reason: reason, searchedGroupIDs: searched, returns: spec.returns)
        case .success(let taken):
            let returned = Self.returned(taken, spec.returns, platform(of: device))
            let reason: StatusReason = returned.count == taken.count ? .succeeded
                : spec.returns == .reference ? .noReference(found: taken.count) : .storedWithoutData(found: taken.count)
            return CallResult(status: .success, reason: reason, searchedGroupIDs: searched, items: returned, returns: spec.returns)
        }
    }

    /// The matches a caller gets back. Data alone is asked of securityd
    /// with the attributes too (SecItem.m `SecItemCopyMatching`, line 2063:
    /// "if wants_data && !wants_attributes" sets kSecReturnAttributes), and
    /// the client then hands back the dictionary's kSecValueData alone
    /// (`SecItemResultCopyPrepared`, line 1179): for an item stored without
    /// data that is nothing, a nil result for a match limit of one, and no
    /// element of an array (`SecItemResultProcess`, line 1323, appends only
    /// values). The status stays errSecSuccess: the server found the rows.
    /// A reference alone is nothing for an item the client makes no
    /// reference to (`Platform.makesReference(to:)`: passwords off the Mac,
    /// keys `SecKeyCreateWithData` refuses).
    static func returned(_ matches: [FoundItem], _ returns: ReturnKinds, _ platform: Platform) -> [FoundItem] {
        if returns == .reference {
            return matches.filter { platform.makesReference(to: $0) }
        }
        guard returns == .data, matches.contains(where: { $0.item.dataText == nil }) else { return matches }
        return matches.filter { $0.item.dataText != nil }
    }

    enum Matches {
        case failed(CallResult)
        /// `lost`: lost rows an update read (``walk``), deleted if it commits.
        case found([FoundItem], searched: [GroupID], lost: [ItemID])
    }

    /// Every match of an update's or delete's query, walked in insertion
    /// order (locked items stop the call), with the groups searched.
    /// An update decrypts each item (kAKSKeyOpDecrypt needs the user, or the
    /// query's context); a delete uses kAKSKeyOpDelete, which every flag set
    /// leaves open. Mutating only to reach the keychain in place
    /// (`Keychain.foundItems`).
    private mutating func everyMatch(_ query: ItemSpec, _ itemClass: ItemClass, _ cache: AppCache, _ device: DeviceHandle,
                            _ operation: Operation, authUI: AuthUI, context: inout ContextUse?,
                            prompt: (FoundItem) -> PromptAnswer?) -> Matches {
        let groups: [GroupID]
        switch searchScope(query, cache, platform(of: device)) {
        case .success(let g): groups = g
        case .failure(let f): return .failed(CallResult(status: f.status, reason: f.reason))
        }
        let searched = groups
        if Self.persistentRefHasCompany(query, operation) {
            return .failed(CallResult(status: .param, reason: .persistentRefWithAttributes,
                                      searchedGroupIDs: searched))
        }
        let matches = devices[device.index].keychain.foundItems(query, itemClass, in: groups, names: groupTexts,
                                                                certificateGroups: cache.searchIDs)
        let deletes = operation == .delete
        var lost: [ItemID] = []
        switch Self.walk(matches, cap: Int.max, authenticates: !deletes, authUI: authUI, state: devices[device.index].state,
                         deletes: deletes, context: &context, lost: &lost, prompt: prompt) {
        case .failure(let f):
            return .failed(CallResult(status: f.status, reason: f.reason, searchedGroupIDs: searched))
        case .success(let t):
            return .found(t, searched: searched, lost: lost)
        }
    }

    // MARK: Update

    private mutating func update(_ query: ItemSpec, _ changes: ItemSpec, _ itemClass: ItemClass,
                                 _ cache: AppCache, _ device: DeviceHandle, _ platform: Platform,
                                 _ prompt: (FoundItem) -> PromptAnswer?) -> CallResult {
        func fail(_ status: KeychainStatus, _ reason: StatusReason, _ searched: [GroupID] = []) -> CallResult {
            CallResult(status: status, reason: reason, searchedGroupIDs: searched)
        }
        // Order as SecServerItemUpdate (SecItemServer.c): App Clip rules,
        // return keys, the new group, then s3dl_query_update (SecItemDb.c):
        // a match limit in the query, then the attributes to change.
        if let refused = appClipRefusal(cache, syncRequested: query.synchronizable == .yes || changes.synchronizable == .yes) {
            return refused
        }
        // macOS and Catalyst: the client (SecItem.cpp SecItemUpdate) prunes
        // match limits and return keys from the query before securityd sees it.
        let prunes = platform.prunesUpdateAndDeleteQueries
        if !prunes && !query.returns.isEmpty { return fail(.param, .limitOrReturnOnUpdate) }
        // A group among the changes moves the item; it must be entitled.
        var newGroup: GroupID?
        if let named = changes.accessGroupText {
            guard let id = entitledGroup(named, cache) else {
                if named == AppTarget.tokenGroupText && platform.searchesTokenGroupOnWrites { return fail(.param, .tokenGroupWrite) }
                return fail(platform.unentitledMoveStatus, .moveNotEntitled(named))
            }
            newGroup = id
        }
        if !prunes && query.limit != nil { return fail(.param, .limitOrReturnOnUpdate) }
        // s3dl_query_update refuses a row-ID reference with attributes
        // before it parses the changes (SecItemDb.c lines 1304-1305, then
        // 1317-1318; audit 11, F4).
        if Self.persistentRefHasCompany(query, .update) { return fail(.param, .persistentRefWithAttributes) }
        // The attributes to change are parsed as attributes of the class
        // (SecDbQuery.c query_update_applier → SecDbAttrWithKey): a class, a
        // match limit or a return key there is errSecNoSuchAttr.
        // A value of the changes the parse refuses (``ItemSpec/pendingValue``).
        if let refused = changes.pendingValue { return fail(refused.status, .valueRefused(refused.key)) }
        if changes.itemClass != nil { return fail(.noSuchAttr, .notAnAttributeToChange("kSecClass")) }
        if changes.limit != nil { return fail(.noSuchAttr, .notAnAttributeToChange("kSecMatchLimit")) }
        if !changes.returns.isEmpty { return fail(.noSuchAttr, .notAnAttributeToChange("kSecReturn…")) }
        if changes.authUI != nil { return fail(.noSuchAttr, .notAnAttributeToChange("kSecUseAuthenticationUI")) }
        if let bad = firstForeignAttribute(changes, itemClass) {
            return fail(.noSuchAttr, .attributeNotInClass(bad, itemClass))
        }
        // query_update_applier takes every key but kSecValueData as an
        // attribute: a persistent reference or a context (which the client
        // turns into kSecUseCredentialReference) is no attribute of any
        // class (secd-81-item-acl.m: "ACM context is not allowed for update
        // attributes", errSecNoSuchAttr).
        if changes.persistentRef != nil || changes.context != nil {
            return fail(.noSuchAttr, .notAnAttributeToChange(changes.persistentRef != nil ? "kSecValuePersistentRef"
                                                                                          : "kSecUseAuthenticationContext"))
        }
        // securityd skips sync=any among the changes (SecDbQuery.c
        // query_add_attribute_with_desc: "skip the attribute"), so it changes
        // nothing here. On the Mac without the data-protection flag the
        // client moved the matches already (``perform(_:as:on:prompt:)``).
        if changes.accessibility != nil && changes.accessControl != nil {
            return fail(.param, .accessibilityWithAccessControl)
        }
        let taken: [FoundItem], searched: [GroupID], passedLost: [ItemID]
        var context = contextUse(query, device)
        defer {
            keepContext(context, named: query.context, on: device)
        }
        switch everyMatch(query, itemClass, cache, device, .update, authUI: query.authUI ?? .allow, context: &context,
                          prompt: prompt) {
        case .failed(let r): return r
        case .found(let t, let s, let l): (taken, searched, passedLost) = (t, s, l)
        }
        // The lost rows read are deleted in the update's transaction, which
        // commits when nothing else was found (the status is set after it,
        // SecItemDb.c lines 1383-1384) and is rolled back by a failure.
        if taken.isEmpty {
            let reason: StatusReason = passedLost.isEmpty ? .noMatch
                : .lostRowsDeleted(count: passedLost.count, biometry: biometryRows(passedLost, device), more: false)
            for id in passedLost { devices[device.index].keychain.remove(id) }
            return fail(.itemNotFound, reason, searched)
        }
        // Every update encrypts the item anew under its (new) class
        // (SecDbItemCopyWithUpdates drops the encrypted data, SecDbItem.c
        // line 1174; SecDbKeychainItemCopyEncryptedData, SecDbKeychainItem.m
        // line 1323), before the row is written: a class the device cannot
        // use now fails as an add's does and changes nothing. Without the
        // add's remap (SecItemDb.c line 346) a when-passcode-set class with no
        // passcode is the keybag's errSecDecode (inferred: AppleKeyStore is
        // closed); through access control errSecNotAvailable.
        if let newClass = changes.accessControl?.protection ?? changes.accessibility {
            let state = devices[device.index].state
            if newClass == .whenPasscodeSetThisDeviceOnly && !state.hasPasscode {
                let viaAC = changes.accessControl != nil
                return fail(viaAC ? .notAvailable : .decode, .passcodeRequired(viaAccessControl: viaAC), searched)
            }
            if let ac = changes.accessControl, !state.canBind(ac) { return fail(.authFailed, .accessControlUnbound, searched) }
            if !state.isAvailable(newClass) { return fail(.interactionNotAllowed, .locked(newClass), searched) }
        }

        // Every stored part the update touches, with its new contents.
        // Two certificates may pair with one key: touch each stored item once.
        var plan: [(ItemID, StoredItem)] = []
        // A lost when-passcode-set row with the new key is corrupt to
        // SecDbItemUpdate (SecDbItemIsCorrupt, SecDbItem.c line 1552: "item
        // is irrecoverably lost with older passcode"): the update takes its
        // place instead of failing (line 2000).
        var lostRows = passedLost
        func collision(_ item: StoredItem) -> ItemID? {
            guard let other = devices[device.index].keychain.item(withKeyOf: item) else { return nil }
            let row = devices[device.index].keychain.stored(other)
            // An invalidated biometry-current-set row is corrupt too (as on add).
            // Under the lock it is the lock's error (`duplicate`), lost or
            // not (audit 25, F2).
            if row.isUndecodable(in: devices[device.index].state) && !row.isLockedAway(in: devices[device.index].state) {
                lostRows.append(other)
                return nil
            }
            return other
        }
        // The row an update collides with is decrypted first, as an add's
        // (SecDbItemUpdate, SecDbItem.c line 1995): a locked class is the
        // lock's error, not errSecDuplicateItem (lines 2014-2020).
        let state = devices[device.index].state
        func duplicate(_ other: ItemID) -> CallResult {
            let old = devices[device.index].keychain.stored(other)
            if old.isLockedAway(in: state) {
                return fail(.interactionNotAllowed, .lockedDuplicate(old.accessibility, existing: other), searched)
            }
            return fail(.duplicateItem, .duplicate(existing: other), searched)
        }
        if taken.count == 1 && taken[0].identityKey == nil {
            // One item (the common case): nothing to deduplicate, and its
            // new key can only collide with another stored item.
            let item = Self.applying(changes, to: taken[0].item, group: newGroup)
            if let other = collision(item), other != taken[0].id {
                return duplicate(other)
            }
            if let stone = lockedTombstone(of: item, on: device) {
                return fail(.interactionNotAllowed, .lockedDuplicate(stone, existing: nil), searched)
            }
            plan.append((taken[0].id, item))
        } else {
            var planned = Set<ItemID>()
            for match in taken {
                if planned.insert(match.id).inserted {
                    plan.append((match.id, Self.applying(changes, to: match.item, group: newGroup)))
                }
                if let key = match.identityKey, planned.insert(key.id).inserted {
                    plan.append((key.id, Self.applying(changes, to: key.item, group: newGroup)))
                }
            }
            // All or nothing: a change that makes two items share a primary key
            // is errSecDuplicateItem and changes nothing.
            let touched = Set(plan.map(\.0))
            var newKeys = Set<PrimaryKey>()
            for (_, item) in plan {
                let key = item.primaryKey
                if !newKeys.insert(key).inserted {
                    let first = plan.first { $0.1.primaryKey == key }?.0 ?? plan[0].0
                    return fail(.duplicateItem, .duplicate(existing: first), searched)
                }
                if let other = collision(item), !touched.contains(other) {
                    return duplicate(other)
                }
                if let stone = lockedTombstone(of: item, on: device) {
                    return fail(.interactionNotAllowed, .lockedDuplicate(stone, existing: nil), searched)
                }
            }
        }
        // Rows are updated in place and keep their insertion order. The final
        // keys were checked above, so the order of replacement does not matter.
        var results: [FoundItem] = []
        for id in lostRows { devices[device.index].keychain.remove(id) }
        let stamp = tick()
        for (id, item) in plan {
            var item = item
            item.modified = stamp
            // A travelling item whose key changes leaves a deletion of the old key behind.
            if let old = devices[device.index].keychain[id], !Keychain.samePrimaryKey(old, item) {
                recordDeletion(old, on: device)
                // Onto a tombstone's key: SecDbItemUpdate deletes the item's
                // row and writes it over the tombstone's (SecDbItem.c lines
                // 1983-2008) with SecDbItemDoUpdate, which SETs every column
                // of the item, its row ID and persistref included (copied by
                // SecDbItemCopyWithUpdates, lines 1168-1189): the item keeps
                // both, and the tombstone's row is gone.
                _ = devices[device.index].takeTombstoneRow(of: item)
            }
            devices[device.index].keychain.replace(id, with: item)
            results.append(FoundItem(id: id, item: devices[device.index].keychain[id] ?? item,
                                     groupText: groupTexts[Int(item.group)]))
        }
        return CallResult(status: .success, reason: .succeeded,
                          searchedGroupIDs: searched, items: results)
    }

    static func applying(_ changes: ItemSpec, to item: StoredItem, group: GroupID?) -> StoredItem {
        var new = item
        for e in changes.attributes where e.attribute.applies(to: item.itemClass) {
            new.attributes[e.attribute] = e.value
        }
        if let group { new.group = group }
        if let s = changes.synchronizable, s != .any { new.synchronizable = s == .yes }
        if let a = changes.accessibility {
            new.accessibility = a
            new.accessControl = nil
        }
        if let ac = changes.accessControl {
            new.accessControl = ac
            new.accessibility = ac.protection
        }
        if let data = changes.dataText { new.dataText = data }
        return new
    }

    // MARK: Delete

    private mutating func delete(_ query: ItemSpec, _ itemClass: ItemClass, _ cache: AppCache,
                                 _ device: DeviceHandle) -> CallResult {
        if let refused = appClipRefusal(cache, syncRequested: false) { return refused }
        // SecServerItemDelete: any match limit is errSecParam, all included
        // (a limit other than all fails "q_limit != kSecMatchUnlimited", and
        // every kSecMatch key counts in query_match_count); macOS and Catalyst
        // prune the limit in the client first.
        if !platform(of: device).prunesUpdateAndDeleteQueries, query.limit != nil {
            return CallResult(status: .param, reason: .limitOnDelete)
        }
        let taken: [FoundItem], searched: [GroupID]
        // Deleting asks no one (kAKSKeyOpDelete is open for every flag set).
        var noContext: ContextUse?
        switch everyMatch(query, itemClass, cache, device, .delete, authUI: .allow, context: &noContext,
                          prompt: { _ in .approve }) {
        case .failed(let r): return r
        case .found(let t, let s, _): (taken, searched) = (t, s)
        }
        if taken.isEmpty {
            return CallResult(status: .itemNotFound, reason: .noMatch, searchedGroupIDs: searched)
        }
        let state = devices[device.index].state
        for match in taken {
            // Under the lock the sync flag cannot be read (it is in the
            // encrypted metadata), so `SecDbItemIsSyncable` says no and the
            // delete leaves no tombstone (s3dl_query_delete line 1447).
            // (An identity never gets here: the client splits its delete
            // into a certificate pass and a key pass, above.)
            if state.isAvailable(match.item.accessibility) { recordDeletion(match.item, on: device, leavesRow: true) }
            devices[device.index].keychain.remove(match.id)
        }
        return CallResult(status: .success, reason: .succeeded,
                          searchedGroupIDs: searched, items: taken)
    }

    /// SecItemDelete with an identity's persistent reference (SecItem.m
    /// `explode_persistent_identity_ref`, lines 2246-2270): the client reads
    /// the identity first (`SecItemCopyMatching` with the reference and
    /// kSecReturnRef), so a key the lock keeps, or one whose access control
    /// asks, ends the call as that read ends (audit 13, F5). It then deletes
    /// with the identity's reference in place of the persistent one
    /// (`explode_identity`, lines 503-556): the certificate by its
    /// reference's attributes (type, issuer, serial, public key hash;
    /// SecCertificate.c lines 6149-6169) and the caller's other keys, in
    /// every group of the caller and with the default sync filter, since
    /// neither reference carries a group or a sync value (F3, F4); then,
    /// unless another certificate still uses it, the key by its reference's
    /// (SecKey.m lines 130-152). A certificate pass that finds nothing goes
    /// on to the key (line 519); the key pass's status is the call's.
    private mutating func deleteIdentity(byReference request: borrowing CallRequest, as app: AppHandle, on device: DeviceHandle,
                                         prompt: (FoundItem) -> PromptAnswer?) -> CallResult {
        var read = ItemSpec()
        read.persistentRef = request.spec.persistentRef
        read.returns = .reference
        let found = performDataProtection(CallRequest(.find, read), as: app, on: device, prompt: prompt)
        guard found.status == .success else { return found }
        guard let identity = found.items.first, let key = identity.identityKey else {
            return CallResult(status: .itemNotFound, reason: .noMatch,
                              searchedGroupIDs: found.searchedGroupIDs)
        }
        func pass(_ itemClass: ItemClass, _ from: StoredItem, _ attributes: [ItemAttribute]) -> CallRequest {
            var spec = request.spec
            spec.persistentRef = nil
            spec.itemClass = itemClass
            // The caller's keys win over the reference's (SecItemAttributesPrepare).
            for a in attributes where spec.attributes[a] == nil {
                if let v = from.attributes[a] { spec.attributes[a] = v }
            }
            return CallRequest(.delete, spec)
        }
        let first = performDataProtection(pass(.certificate, identity.item, [.certificateType, .issuer, .serialNumber, .publicKeyHash]),
                                          as: app, on: device, prompt: prompt)
        guard first.status == .success || first.status == .itemNotFound else { return first }
        if keyInUse(key.item, cache(of: app, on: platform(of: device)), device) { return first }
        var second = performDataProtection(pass(.key, key.item, [.keyClass, .applicationLabel, .keyType, .keySizeInBits, .effectiveKeySize]),
                                           as: app, on: device, prompt: prompt)
        second.items = first.items + second.items
        return second
    }

    /// Deleting an identity by reference deletes its certificate, then its
    /// private key "if the key is still in use, skip deleting it"
    /// (SecItem.m `explode_identity`, lines 519-545): the client looks for a
    /// certificate whose public key hash is the key's application label
    /// with an ordinary query of the caller's (its groups, the default sync
    /// filter), after the first certificate is gone. A renewed certificate
    /// for the same key pair keeps the key.
    private func keyInUse(_ key: StoredItem, _ cache: AppCache, _ device: DeviceHandle) -> Bool {
        guard let label = key.comparedValue(.applicationLabel) else { return false }
        var query = ItemSpec()
        query.itemClass = .certificate
        query.attributes[.publicKeyHash] = label
        // SecItemCopyMatching(query, NULL) succeeds only for a certificate it
        // can read now: not lost, not locked away, no prompt it could ask.
        let state = devices[device.index].state
        return Self.matchingItems(query, .certificate, in: cache.searchIDs, of: devices[device.index].keychain).contains {
            guard let cert = devices[device.index].keychain[$0] else { return false }
            return !cert.lost && state.isAvailable(cert.accessibility) && cert.accessControl?.requiresAuthentication != true
        }
    }
}

extension Keychain {
    /// How many items `World.matchingItems` finds here, lent in place like
    /// `foundItems`.
    func matchCount(_ spec: ItemSpec, _ itemClass: ItemClass, in groups: [GroupID], sync: SyncSelector) -> Int {
        World.matchingItems(spec, itemClass, in: groups, of: self, sync: sync).count
    }

    /// `World.matchingFoundItems` on this keychain. Mutating though it
    /// changes nothing: a call path that is itself mutating then reaches the
    /// device's keychain in place (`devices[i].keychain.foundItems(…)`),
    /// where a read would copy the whole keychain to lend it (callgrind:
    /// one copy per query).
    mutating func foundItems(_ spec: ItemSpec, _ itemClass: ItemClass, in groups: [GroupID],
                    names groupTexts: [AttributeText], certificateGroups: [GroupID]? = nil) -> [FoundItem] {
        World.matchingFoundItems(spec, itemClass, in: groups, of: self, names: groupTexts, certificateGroups: certificateGroups)
    }
}

extension ItemSpec {
    /// The sync value a query searches with: its own, else securityd's
    /// default, non-synchronizable items only, or any with a persistent
    /// reference (SecDbQuery.c `query_create_with_limit`, lines 1092-1096).
    /// One rule for the search and for lint (review 22a, R5).
    public var searchedSync: SyncSelector { synchronizable ?? (persistentRef == nil ? .no : .any) }
}

/// An authentication context as one call uses it.
struct ContextUse {
    var context: AuthContext
    /// Whether the context is authenticated on the calling device (before
    /// the call, or by a prompt or a reuse during it).
    var authenticated: Bool
    /// Seconds since the device's last biometric unlock; nil if never.
    var sinceBiometricUnlock: Int?
    var reuseAllowed: Bool
    /// What the user gave at this call's prompts: a Face ID approval opens
    /// the items biometry opens, not a device-passcode one (SecItemAuthDo
    /// evaluates each item's access control on the call's context,
    /// SecItem.m line 1551; which credential satisfies which flag is
    /// LocalAuthentication's, closed: this follows the flags' documentation).
    /// An authenticated context's own credentials come first (what it
    /// was authenticated with, ``AuthContext/credentials``).
    var credentials: Set<Credential> = []

    /// What an approval gives. The application password is a credential of
    /// its own (`secd-81-item-acl.m` `set_app_password` adds a passphrase to
    /// the ACM context, lines 219-231): it satisfies the password the item
    /// requires and no constraint.
    enum Credential { case biometry, passcode, applicationPassword }

    /// Whether a prompt was answered with approval during this call.
    var approvedDuringCall: Bool { credentials.count > earlier }
    /// How many credentials the context brought into the call.
    var earlier = 0

    /// An approved prompt for `ac`: the credential the user gave.
    mutating func approve(_ ac: AccessControl, state: DeviceState) {
        func credential(_ flag: AccessControl.Flag) -> Credential? {
            switch flag {
            case .biometryAny, .biometryCurrentSet: .biometry
            case .devicePasscode: .passcode
            case .userPresence: state.biometryEnrolled ? .biometry : .passcode
            case .applicationPassword: nil
            }
        }
        let constraints = ac.constraintFlags.compactMap(credential)
        credentials.formUnion(ac.requiresEveryConstraint ? constraints : Array(constraints.prefix(1)))
        if ac.flags.contains(.applicationPassword) { credentials.insert(.applicationPassword) }
    }

    /// Whether an authenticated context covers a flag: every constraint once
    /// the user authenticated on it (inferred, see ``coversPrompt(for:state:)``),
    /// the application password only when it holds the password.
    func authenticationCovers(_ flag: AccessControl.Flag) -> Bool {
        flag == .applicationPassword ? credentials.contains(.applicationPassword)
            : credentials.contains(.biometry) || credentials.contains(.passcode)
    }

    /// Whether what the user gave in this call opens `ac`.
    func credentialsOpen(_ ac: AccessControl) -> Bool {
        func opens(_ flag: AccessControl.Flag) -> Bool {
            switch flag {
            case .biometryAny, .biometryCurrentSet: credentials.contains(.biometry)
            case .devicePasscode: credentials.contains(.passcode)
            case .userPresence: credentials.contains(.biometry) || credentials.contains(.passcode)
            case .applicationPassword: credentials.contains(.applicationPassword)
            }
        }
        return ac.isSatisfied(opens)
    }

    /// Whether the context makes a prompt for `ac` unnecessary: it is
    /// already authenticated ("If the specified context has been previously
    /// authenticated, the operation will succeed without asking user for
    /// authentication", SecItem.h `kSecUseAuthenticationContext`) as far
    /// as its credentials go: securityd decrypts under the context's ACM
    /// credentials and asks for authentication when they fall short, and
    /// the client evaluates the access control on that same context
    /// (SecItem.m `SecItemAuthDo` lines 1501-1563), so an application
    /// password in it opens the password and no constraint
    /// (`secd-81-item-acl.m` line 282; review 22a, R14); or a
    /// biometric unlock within its reuse duration stands in for a biometric
    /// check (LocalAuthentication `touchIDAuthenticationAllowableReuseDuration`;
    /// closed source, from Apple's documentation).
    mutating func coversPrompt(for ac: AccessControl, state: DeviceState) -> Bool {
        if authenticated && ac.isSatisfied(authenticationCovers) { return true }
        if approvedDuringCall && credentialsOpen(ac) { return true }
        guard reuseAllowed, context.reuseDuration > 0, let since = sinceBiometricUnlock,
              since <= context.reuseDuration, state.biometryEnrolled, state.hasPasscode else { return false }
        let biometric: Set<AccessControl.Flag> = [.userPresence, .biometryAny, .biometryCurrentSet]
        let ok = ac.isSatisfied(biometric.contains)
        if ok { authenticated = true; credentials.insert(.biometry) }
        return ok
    }
}

extension World {
    /// The platform a device runs: its own, else the world's.
    @inlinable @inline(__always)
    public func platform(of device: DeviceHandle) -> Platform {
        devices[device.index].platform ?? platform
    }

    /// The context a query names, as this device sees it; without one, the
    /// call's own: `SecItemAuthDo` makes one LAContext for the call and
    /// evaluates every protected match on it (SecItem.m lines 1516 and
    /// 1554), so one approval opens every match of the call, as a passed
    /// context's does.
    /// What a call leaves in the context it was passed: authenticated on
    /// this device, with the credentials it holds, once it was authenticated
    /// before or an approval during the call authenticated it (the approval
    /// puts its credential in the ACM context, `SecItemAuthDo` evaluating on
    /// the call's context, SecItem.m lines 1501-1563). One place for the
    /// add, find and update paths (review 22b, R1: the add's copy missed the
    /// credentials).
    mutating func keepContext(_ context: ContextUse?, named name: String?, on device: DeviceHandle) {
        guard let context, let name, context.authenticated || context.approvedDuringCall else { return }
        contexts[name]?.authenticatedOn = device
        contexts[name]?.credentials = context.credentials
    }

    @inline(__always)
    func contextUse(_ spec: ItemSpec, _ device: DeviceHandle) -> ContextUse? {
        guard let name = spec.context else {
            return ContextUse(context: AuthContext(), authenticated: false, sinceBiometricUnlock: nil, reuseAllowed: false)
        }
        guard let c = contexts[name] else { return nil }
        let since = devices[device.index].lastBiometricUnlock.map { now - $0 }
        // The reuse property is not available on watchOS (mockaksKeychain.m
        // testLAContext sets it only for iOS and macOS).
        var use = ContextUse(context: c, authenticated: c.authenticatedOn == device, sinceBiometricUnlock: since,
                             reuseAllowed: platform(of: device).family != .watchos)
        if use.authenticated {
            use.credentials = c.credentials
            use.earlier = c.credentials.count
        }
        return use
    }

    /// What a context named `name` brings to `ac` on a device, for an
    /// explanation: nil when it was not authenticated there, else whether
    /// its credentials open `ac` as a call's prompt check asks
    /// (``ContextUse/coversPrompt(for:state:)``'s first test) and the
    /// credentials it holds, in words ("the application password").
    public func contextStanding(_ name: String, for ac: AccessControl, on device: DeviceHandle) -> (opens: Bool, holds: [String])? {
        var spec = ItemSpec()
        spec.context = name
        guard let use = contextUse(spec, device), use.authenticated else { return nil }
        let words: [(ContextUse.Credential, String)] = [(.biometry, "biometry"), (.passcode, "the device passcode"),
                                                        (.applicationPassword, "the application password")]
        return (ac.isSatisfied(use.authenticationCovers), words.filter { use.credentials.contains($0.0) }.map(\.1))
    }

    /// Declares (or replaces with a fresh one) an authentication context.
    public mutating func declareContext(_ name: String, _ context: AuthContext) {
        if contexts[name] == nil { contextNames.append(name) }
        contexts[name] = context
    }

    /// Lets `seconds` of wall-clock time pass.
    public mutating func wait(_ seconds: Int) {
        now += max(seconds, 0)
    }
}
