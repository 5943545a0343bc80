import KCSSyntax
import KeychainEngine

/// Turns a call's outcome into sentences: the caller's groups, the groups
/// searched or refused, the rule that decided the status, and for a query
/// that matched nothing, each candidate and why it was passed over.
package struct Explainer {
    package let world: World
    /// Candidates listed at most; the rest are counted.
    var candidateLimit = 8

    /// Each line made safe to show: names and groups (from a script or an
    /// entitlements file) may hold line breaks, and a line of output that
    /// began `::error` was a workflow command to GitHub's runner (found by
    /// adversarial testing).
    package func explain(_ last: LastCall) -> [String] {
        explanation(last).map { TerminalText.escaped($0) }
    }

    private func explanation(_ last: LastCall) -> [String] {
        let app = world[last.app]
        var lines: [String] = []
        let result = last.result
        if last.stoppedAtPrompt {
            // No status reached the caller: the prompt is still waiting.
            lines.append("\(last.call.request.operation.functionName) → stopped at an authentication prompt, no status")
        } else {
            lines.append("\(last.call.request.operation.functionName) → \(result.status.description)")
        }
        // The list as the calling device builds it (the Mac's daemon drops
        // unvalidated entitlements and adds com.apple.token).
        let groups = world.accessGroups(of: last.app, on: last.device)
        let defaultGroup = world.defaultGroup(of: last.app, on: last.device)
        let platform = world.platform(of: last.device)
        if groups.isEmpty, app.isUnsigned, platform.listsTokenGroupForUnentitled {
            lines.append("\(app.name.possessive) access groups: com.apple.token alone (\(Self.tokenEra(platform)) give it to a process without entitlements)")
        } else if groups.isEmpty {
            lines.append("\(app.name.possessive) access groups: " + (app.isUnsigned
                ? "none (unsigned: no app ID, no keychain-access-groups, no application groups)"
                : "none (no provisioning profile validates its app ID, and it has no keychain-access-groups)"))
        } else {
            lines.append("\(app.name.possessive) access groups, in order: " + groups.enumerated().map { i, g in
                i == 0 && g == defaultGroup ? "\(g) (default)" : g
            }.joined(separator: ", "))
        }
        if !result.searchedGroupIDs.isEmpty && last.call.request.operation != .add {
            lines.append("searched: " + result.searchedGroups(in: world).joined(separator: ", "))
        }
        if !last.answers.isEmpty {
            lines.append("prompts answered: " + last.answers.map(\.verb).joined(separator: ", "))
            if let asked = result.fileKeychainAsked { lines.append(approvedPrompt(asked, last)) }
        }
        lines.append("why: " + reason(result, last))
        if let dropped = result.droppedDataProtection {
            lines.append(droppedSide(dropped, last))
        }
        if last.call.request.operation != .add && last.call.request.spec.persistentRef == nil
            && (result.reason == .noMatch || result.reason.isGroupRefusal || {
                switch result.reason {
                case .limitUsedUp, .lostRowsDeleted: true
                default: false
                }
            }()) {
            // After lost rows were deleted, "none exist" would read as if
            // nothing had been there: the why line has said what was.
            var quiet = false
            if case .lostRowsDeleted = result.reason { quiet = true }
            lines += candidates(last, quietWhenNone: quiet)
        }
        return lines
    }

    private func reason(_ result: CallResult, _ last: LastCall) -> String {
        let app = world[last.app]
        let request = last.call.request
        switch result.reason {
        case .succeeded:
            switch request.operation {
            case .add:
                let group = result.items.first?.groupName ?? "?"
                if group == World.fileKeychainGroupName {
                    // The route a key from SecKeyCreateWithData takes as
                    // kSecValueRef (QA s20, Q05: Tartelet's key).
                    let keyRoute = request.spec.itemClass == .key || request.spec.itemClass == .identity
                        ? "; so does a key made by SecKeyCreateWithData or SecKeyCreateRandomKey (not a CDSA key) passed as kSecValueRef "
                            + "(SecItem.cpp SecItemCategorizeQuery, lines 4157-4166): write data-protection=true to model one"
                        : ""
                    return "added to the Mac's file-based keychain, where access groups, accessibility and sync do not apply "
                        + "(data-protection=true, sync=true or an access control send an add to the data-protection keychain\(keyRoute))"
                        + fileKeychainDropped(request.spec)
                }
                // kSecAttrSynchronizableAny is a query value: an add stores
                // a non-synchronizable item (cordova-plugin-ios-keychain pull
                // request 17; real-world Q10).
                let anySync = request.spec.synchronizable == .any
                    ? "; sync=any (kSecAttrSynchronizableAny) selects in a query, and an add with it stores an item that does not sync: say sync=true"
                    : ""
                return (request.spec.accessGroup == nil
                    ? "added to \(group), \(app.name.possessive) default group (element 0 of its list)"
                    : "added to \(group), the group the call named") + anySync
            case .find:
                return "found \(result.count) item\(result.count == 1 ? "" : "s"); the first is in \(result.items.first?.groupName ?? "?")"
                    + syncLeftOut(last) + fileSideLeftOut(result, last) + dataDoesNotSelect(request)
            case .update: return "changed \(result.count) item\(result.count == 1 ? "" : "s")" + acrossGroups(result, last) + syncLeftOut(last)
                + fileSideFirstOnly(result, last) + dataDoesNotSelect(request)
            case .delete: return "deleted \(result.count) item\(result.count == 1 ? "" : "s")" + acrossGroups(result, last) + syncLeftOut(last)
                + fileSideFirstOnly(result, last) + sharedWithOthers(result, last) + deletedUnderTheLock(result, last) + dataDoesNotSelect(request)
            }
        case .unsigned:
            return "\(app.name) is unsigned (no app ID, no keychain-access-groups, no application groups): every keychain call fails with errSecMissingEntitlement"
        case .missingClass:
            return "the call names no item class; every SecItem call needs kSecClass"
        case .unknownClass(let name):
            return "kSecClass is \"\(name)\", which names no item class: securityd answers errSecNoSuchClass"
        case .valueRefused(let key):
            return result.status == .unimplemented
                ? "the value of \(key) is one kcs does not model"
                : "securityd's parse refuses the value of \(key)"
        case .attributeNotInClass(let a, let c):
            return "\(a.constantName) is not an attribute of \(c.rawValue) items"
        case .accessibilityWithAccessControl:
            return "accessible= and access-control= together are errSecParam: put the accessibility first in the access-control list"
        case .syncWithAccessControl:
            return "an item with access control cannot be synchronizable (SecItem.m)"
        case .groupNotEntitled(let g):
            if let listed = Self.tokenGroupNotWritable(g, app, world.platform(of: last.device)) { return listed }
            return "the call names group \"\(g)\", which is not in \(app.name.possessive) access groups" + teamPrefixHint(g.string, app, last)
        case .groupNotEntitledFindsNothing(let g):
            return "the call names group \"\(g)\", which is not in \(app.name.possessive) access groups; before iOS 13 that finds nothing instead of failing with errSecMissingEntitlement" + teamPrefixHint(g.string, app, last)
        case .moveNotEntitled(let g):
            if let listed = Self.tokenGroupNotWritable(g, app, world.platform(of: last.device)) { return listed }
            return "the update would move items into \"\(g)\", which is not in \(app.name.possessive) access groups" + teamPrefixHint(g.string, app, last)
        case .passcodeRequired(let viaAC):
            return "when-passcode-set items need a device passcode" + (viaAC ? " (through access control: errSecNotAvailable)" : " (\(result.status.name))")
        case .locked(let a):
            let state = world[last.device].state
            let device = world[last.device].label
            switch a.requirement {
            case .firstUnlockSinceBoot:
                return "\(device) has not been unlocked since it booted, and \(a.rawValue) items need that"
                    + (last.call.request.operation == .add ? " (checked before the duplicate check)" : "")
            case .unlockedWithPasscode where !state.hasPasscode:
                return "\(a.rawValue) items need a passcode, and \(device) has none"
            default:
                if last.call.request.operation == .add {
                    return "\(device) is locked, and \(a.rawValue) items need it unlocked (checked before the duplicate check)"
                }
                // Which item stopped the query: a developer who stores with
                // after-first-unlock is stopped by an older when-unlocked
                // match (found checking developers' reports).
                return "\(device) is locked, and \(a.rawValue) items need it unlocked; " + lockedMatch(last, state)
            }
        case .lockedDuplicate(let a, let existing):
            let device = world[last.device].label
            let row = existing.flatMap { world[last.device].keychain[$0] }
                .map { "an item with the same primary key exists (\(Self.describe($0, groupName: world.groupName($0.group))))" }
                ?? "a deleted synchronizable item's tombstone holds the same primary key"
            return row + ", and \(device) keeps its class, \(a.rawValue), locked: securityd decrypts that row before it can call the call a duplicate, "
                + "and the lock's error wins (SecDbItemIsCorrupt)"
        case .protectedDuplicate(let existing, let asked):
            let row = world[last.device].keychain[existing]
                .map { "an item with the same primary key exists (\(Self.describe($0, groupName: world.groupName($0.group))))" }
                ?? "an item with the same primary key exists"
            var inner = result
            inner.reason = asked
            return row + " and has an access control: securityd decrypts that row before it can call the add a duplicate, "
                + "which needs the user (SecDbItemIsCorrupt; the client's SecItemAuthDo asks as for a find); " + reason(inner, last)
        case .duplicate(let existing, let inFileKeychain):
            // The file keychain's slots are its own: looked up in the other
            // keychain, an ID names nothing or another item (real-world Q29).
            let keychain = inFileKeychain ? world[last.device].fileKeychain : world[last.device].keychain
            guard let item = keychain[existing] else { return "an item with the same primary key already exists" }
            // The key in full, absent attributes at their defaults: two
            // items told apart only by generic= or label= collide on an
            // empty account and service (found checking developers' reports).
            var text = "an item with the same primary key already exists: "
                + Self.describe(item, groupName: world.groupName(item.group), absentKeys: true)
            let written = (request.operation == .update ? request.changes : request.spec) ?? ItemSpec()
            let keyAttributes = item.itemClass.primaryKeyAttributes
            var outside = written.attributes.map(\.attribute).filter { !keyAttributes.contains($0) }
                .map { Vocabulary.name(of: $0) }
            if written.accessibility != nil { outside.append(ArgumentKey.accessible.name) }
            if written.accessControl != nil { outside.append(ArgumentKey.accessControl.name) }
            if written.dataText != nil { outside.append(ArgumentKey.data.name) }
            if !outside.isEmpty {
                let names = keyAttributes.map { Vocabulary.name(of: $0) }
                let article = "aeiou".contains(item.itemClass.rawValue.first ?? "x") ? "an" : "a"
                // The file keychain has neither groups nor sync (QA s21,
                // Q08, Q19: "its group and sync" for a certificate there).
                let key = inFileKeychain ? (names.count > 1 ? names.dropLast().joined(separator: ", ") + " and " + names.last! : names.joined())
                    : (names + ["its group"]).joined(separator: ", ") + " and sync"
                text += "; \(article) \(item.itemClass.rawValue)'s primary key\(inFileKeychain ? " in the file-based keychain" : "") is " + key
                    + ": " + outside.map { $0 + "=" }.joined(separator: ", ")
                    + " do\(outside.count == 1 ? "es" : "") not tell items apart"
            }
            // A batch update is one transaction (SecItemServer.c
            // _SecItemUpdate, kc_transaction around s3dl_query_update,
            // lines 3219-3223): one collision and nothing moved (amplify-swift
            // pull request 3811; QA s22, Q15).
            if request.operation == .update, !inFileKeychain {
                let matched = world.matchCount(of: request, as: last.app, on: last.device, sync: request.spec.searchedSync)
                if matched > 1 {
                    text += "; the update is one transaction (SecItemServer.c kc_transaction): none of the \(matched) items it matched changed"
                }
            }
            // Two keys with one tag and no label: a key added by reference
            // (SecKeyCreateRandomKey with kSecAttrIsPermanent, kSecValueRef)
            // is given its public key's SHA-1 as kSecAttrApplicationLabel
            // (SecKey.m SecKeyCopyAttributeDictionaryWithLocalKey; SecItem.m
            // uses it for a kSecValueRef), so generated keys do not collide
            // (QA s21, Q01: developer forums thread 113787).
            if item.itemClass == .key, item.attributes[.applicationLabel] == nil, written.attributes[.applicationLabel] == nil {
                text += "; a key added by reference (SecKeyCreateRandomKey, kSecValueRef) carries its public key's hash as "
                    + "application-label, so two generated keys with one tag do not collide: give each add its own application-label= to model that"
            }
            return text
        case .noMatch:
            if let ref = request.spec.persistentRef {
                // A row-ID reference beside attributes is ANDed with them
                // (review of session 17, R6).
                let company = !request.spec.attributes.isEmpty ? ", or it does not match the query's other attributes" : ""
                return "no item in the searched groups is the row the persistent reference names (\(ref)): it was deleted or restored over, "
                    + "it is in a group \(app.name) cannot see, or the reference was made on another device\(company)"
            }
            if result.droppedDataProtection != nil {
                // The merge kept the file side's answer: the data-protection
                // side's matches were not "no match" (QA s20, Q05).
                return "no \(request.spec.itemClass?.rawValue ?? "") item in the Mac's file-based keychain matches the query"
            }
            return "no \(request.spec.itemClass?.rawValue ?? "") item in the searched groups matches the query" + tokenGroupOnly(last)
        case .limitUsedUp(let limit):
            return limit == 0
                ? "limit=0 reads no row: securityd's match limit is SQL's LIMIT (SecItemDb.c SecDbAppendLimit), so nothing is found"
                : "items match, but the \(limit == 1 ? "row" : "\(limit) rows") the match limit lets securityd read (SQL's LIMIT) \(limit == 1 ? "was" : "were") passed over "
                    + "(needing authentication under auth-ui=skip, or lost when the passcode was removed), and no further row is read"
        case .lostRowsDeleted(let count, let biometry, let more):
            let one = count == 1
            let what = biometry == 0
                ? (one ? "was a when-passcode-set item" : "were when-passcode-set items") + " lost when the passcode was removed"
                : biometry == count
                ? (one ? "was a biometry-current-set item" : "were biometry-current-set items") + " invalidated by a change of the enrolled biometry"
                : "were items lost with the passcode or invalidated by a change of the enrolled biometry"
            return "the \(one ? "match" : "\(count) matches") securityd read \(what): \(one ? "it" : "they") cannot be decrypted, and securityd deleted \(one ? "it" : "them") "
                + "as it read \(one ? "it" : "them") (SecItemDb.c \(last.call.request.operation == .update ? "s3dl_query_update" : "s3dl_query_row"))"
                + (more ? "; the match limit let it read no further row, and the next call reads past \(one ? "it" : "them")" : "")
        case .limitOrReturnOnUpdate:
            return "SecItemUpdate takes no match limit and no return keys"
        case .limitOnDelete:
            return "SecItemDelete takes no match limit, not even all: it always deletes every match"
        case .movedBetweenKeychains(let toDataProtection):
            return toDataProtection
                ? "on the Mac, set sync=true without data-protection=true moves the file-keychain item into the data-protection keychain as a synchronizable one (SecItemChangeSynchronizability)"
                : "on the Mac, set sync=false without data-protection=true moves the data-protection item into the file-based keychain (SecItemChangeSynchronizability)"
        case .storedWithoutData(let found):
            let left = found - result.count
            return "found \(found) item\(found == 1 ? "" : "s"); \(left == found ? (found == 1 ? "it was" : "they were") : "\(left) were") "
                + "stored without data, and return=data alone gives nothing for \(left == 1 ? "it" : "them") (SecItem.m asks "
                + "securityd for the attributes too, then hands back kSecValueData alone)"
        case .noReference(let found):
            return "found \(found) item\(found == 1 ? "" : "s"), but return=ref alone gives nothing for \(found == 1 ? "it" : "them") here: the SecItem "
                + "client makes references to certificates, identities and the keys SecKeyCreateWithData rebuilds (RSA or EC, "
                + "with data; no symmetric key), and to passwords only on the Mac (SecItemCreateFromAttributeDictionary, "
                + "SecItem.m); ask for persistent-ref or attributes instead"
        case .matchLimitOnAdd:
            return "the add named a match limit: securityd reports success for such an add and stores nothing (s3dl_query_add)"
        case .skipOutsideFind:
            return "auth-ui=skip is allowed only for SecItemCopyMatching (find)"
        case .appClipGroups:
            return "\(app.name) is an App Clip: it may use only its app ID as access group, and its entitlements list others"
        case .appClipSync:
            return "\(app.name) is an App Clip: App Clips may not store synchronizable items"
        case .notAnAttributeToChange(let key):
            return "\(key) is not an attribute of the class, so it cannot be among the attributes to change (set …): it belongs in SecItemUpdate's query (errSecNoSuchAttr)"
        case .promptCanceled: return "the user canceled the authentication prompt (errSecUserCanceled)"
        // Every LocalAuthentication error but a user cancel, a parameter error
        // and not-interactive is errSecAuthFailed (SecItem.m
        // osstatus_for_localauthentication_error): a sheet the system
        // dismissed reads as a bad credential (bitwarden/ios pull request
        // 783; real-world Q32, session 19).
        case .promptFailed:
            return "authentication failed (errSecAuthFailed): a wrong face, finger or passcode, too many tries, "
                + "or a prompt the system dismissed (the device locked, the app went to the background), "
                + "which LocalAuthentication reports the same way; only a user's cancel is errSecUserCanceled"

        case .promptNotAllowed: return "the item needs a prompt and auth-ui=fail forbids one" + accessControlNotClass(last)
        case .identityQueryColumn(let a):
            return "an identity query selects only the certificate's label, issuer, serial number, subject key ID and token ID "
                + "beside the key's columns: \(a.constantName) is no column there, and SQLite's error is errSecNotAvailable; "
                + "find the certificate by it, then the identity by issuer and serial number"
        case .identityKeyUndecodable:
            return "the identity's private key can no longer be decrypted (a when-passcode-set key lost with the passcode, "
                + "or a biometry-current-set key invalidated by a change of the enrolled biometry): securityd decodes the key half "
                + "into the query's error, which ends the query with errSecDecode and deletes nothing (SecItemDb.c s3dl_query_row); "
                + "delete the key and make a new one"
        case .identityReferenceUpdate:
            return "an update by an identity's persistent reference without class=identity reaches securityd as an identity query, "
                + "which no update writes (errSecInternal, asserted by Apple's secitemfunctionality test); "
                + "update the certificate and the key by their own references, or by class=identity and their attributes"
        case .accessControlUnbound:
            return "the access control cannot be bound on \(world[last.device].label): an item is stored with its access control "
                + "bound by LocalAuthentication, which fails for biometry with none enrolled (even beside 'or device-passcode') "
                + "and for user-presence or device-passcode on a device without a passcode"
        case .promptImpossible:
            return "the item's access control cannot be satisfied on \(world[last.device].label): no enrolled biometry or no passcode for the flags it names"
        case .promptUnanswered: return "the item needs an authentication prompt and no answer was queued"
        case .unprovisioned:
            // keychain-swift's README concluded "macOS sync does not work"
            // from this status: the flag-less call succeeds in the file
            // keychain (QA s22, Q17).
            let routed = request.spec.synchronizable == .yes && request.spec.useDataProtectionKeychain == nil && request.spec.accessControl == nil
                ? "; sync=true sent the call there (SecItem.cpp SecItemCategorizeQuery): without it the call goes to the file-based keychain, which needs no entitlement"
                : ""
            return "\(app.name) has an app ID but no provisioning profile validates it, and it has no keychain-access-groups: no entitlement counts on the Mac's data-protection keychain"
                + routed
        case .onlyTokenGroup:
            let platform = world.platform(of: last.device)
            let source = platform.listsTokenGroupForUnentitled
                ? "\(app.name) has no entitlements, and \(Self.tokenEra(platform)) give such a process the token group alone"
                : "no keychain entitlement counts here; the Mac lists the token group for a process without any"
            return "\(app.name.possessive) only access group is com.apple.token (\(source)), which is read-only: add, update and delete fail, queries find only token items"
        case .unentitledTokenGroup:
            let platform = world.platform(of: last.device)
            let head = "\(app.name) has no entitlements (an unhosted test bundle, a bare tool), and \(Self.tokenEra(platform)) give such a process com.apple.token alone"
            let name = Self.familyName(platform)
            let releases = platform.tokenGroupForUnentitledReleases ?? 0...0
            let othersText = Self.releaseList(releases.filter { $0 != platform.tokenGroupSearchedOnWritesRelease })
            return result.status == .param
                ? head + ": the add goes to element 0 of the list, the token group, and securityd refuses it: \(Self.tokenGroupStoreRefusal) (errSecParam; \(name) \(othersText) answer errSecMissingEntitlement)"
                : head + ", so the query searches that group, which holds none of kcs's items (from \(name) \(releases.upperBound + 1) every call is errSecMissingEntitlement)"
        case .tokenGroupWrite:
            let platform = world.platform(of: last.device)
            let name = Self.familyName(platform)
            let releases = platform.tokenGroupForUnentitledReleases ?? 0...0
            let writes = platform.tokenGroupSearchedOnWritesRelease ?? releases.lowerBound
            let later = Self.releaseList(releases.filter { $0 > writes })
            return Self.tokenGroupListed(app, platform) + ", and \(name) \(writes)'s securityd refuses to write there: "
                + Self.tokenGroupStoreRefusal + " (errSecParam; \(name) \(later) leave it out of the groups a write may use: errSecMissingEntitlement)"
        case .fileKeychainDataForAll:
            return request.operation == .add
                ? "the macOS file-based keychain's add parses limit= and return= as a find does, and returns no data for all matching passwords: nothing was stored; an add needs no limit="
                : "the macOS file-based keychain does not return data for all matching passwords: use limit=one, or data-protection=true"
        case .fileKeychainDenied(.resigned):
            return fileKeychainAsked(.resigned, last) + ", so reading the data asked, and the user denied access"
        case .fileKeychainDenied(.partition):
            return fileKeychainAsked(.partition, last) + ", so the call asked, and the user denied access; an Always Allow adds the caller's partition"
        case .fileKeychainDenied(.otherApp):
            return fileKeychainAsked(.otherApp, last) + ", and the user denied access"
        case .fileKeychainNotOwner:
            // Named, as the denial above names it (QA s21, Q30: a Python
            // tool's -25244 after the interpreter was upgraded).
            let owner = world.fileKeychainMatches(for: request, on: last.device).lazy
                .compactMap { id in world[last.device].fileKeychain[id].flatMap { world.fileKeychainNames(last.app, $0, on: last.device) ? nil : $0.owner } }
                .first
            let whose = owner.map { " (here \(world[$0].name)'s, \(world[$0].bundleID))" } ?? ""
            return "the macOS file-based keychain lets an app delete only the passwords whose access list names it; "
                + "another app's password\(whose) is refused without a prompt (errSecInvalidOwnerEdit), and the call goes on with the other matches"
        case .fileKeychainIdentityAdd:
            return "the macOS file-based keychain takes no add by class identity (SecItemAdd_osx: errSecParam): "
                + "add it with data-protection=true, or add the certificate and the key"
        case .contextNotInteractive:
            return "the item needs a prompt, and the call's context \(request.spec.context ?? "?") does not allow interaction (interaction=false): errSecInteractionNotAllowed"
        case .persistentRefOnAdd:
            return "SecItemAdd takes no row-ID persistent reference (errSecValuePersistentRefUnsupported, that is errSecParam)"
        case .persistentRefWithAttributes:
            return request.operation == .find
                ? "a query by persistent reference may not name attributes too (errSecItemIllegalQuery, that is errSecParam)"
                : "a row-ID persistent reference may not be combined with attributes (errSecItemIllegalQuery, that is errSecParam); UUID references (from \(Platform.uuidPersistentRefsBegin)) may"
        case .persistentRefUnreadable:
            return "\(world[last.device].label) runs \(world.platform(of: last.device)), which reads only row-ID persistent references; this UUID reference is not a valid one (errSecParam)"
        case .persistentRefClassMismatch(let c):
            return "the call names class \(c.rawValue), the persistent reference names another (errSecNoSuchClass)"
        case .persistentRefOtherKeychain(let flag):
            return flag
                ? "data-protection=true sends the call to the data-protection keychain only, which cannot read a file keychain's persistent reference (errSecParam)"
                : "data-protection=false sends the call to the file keychain only, which cannot resolve a data-protection item's persistent reference (errSecItemNotFound)"
        }
    }

    /// What a query that takes every match left out by saying nothing of
    /// sync: securityd adds `kSecAttrSynchronizable=false` to such a query
    /// (SecDbQuery.c `query_create_with_limit`, lines 1092-1096).
    private func syncLeftOut(_ last: LastCall) -> String {
        let request = last.call.request
        guard Session.countsLeftOutSync(request, on: last.device, world),
              Session.syncFilterSkips(request.spec, on: last.device, world) else { return "" }
        let n = world.matchCount(of: request, as: last.app, on: last.device, sync: .yes)
        guard n > 0 else { return "" }
        return "; \(n) synchronizable item\(n == 1 ? "" : "s") matching the rest \(n == 1 ? "was" : "were") left out: "
            + "a query that does not say sync= takes non-synchronizable items only (sync=any takes both)"
    }

    /// The match a query stopped at under the lock, and what else matched:
    /// in keychains of up to ``Session/nearMissLimit`` items, as the other
    /// searches for a likely cause (each failed expectation of a large
    /// generated scenario would build every match).
    private func lockedMatch(_ last: LastCall, _ state: DeviceState) -> String {
        guard world.keychainCount(on: last.device) <= Session.nearMissLimit else {
            return "a query stops at the first locked match in insertion order"
        }
        let matches = world.matches(for: last.call.request, as: last.app, on: last.device)
        func locked(_ f: FoundItem) -> Bool {
            !state.isAvailable(f.item.accessibility) || f.identityKey.map { !state.isAvailable($0.item.accessibility) } == true
        }
        guard let first = matches.firstIndex(where: locked) else {
            return "a query stops at the first locked match in insertion order"
        }
        let item = matches[first].identityKey.map { key in
            state.isAvailable(matches[first].item.accessibility) ? key.item : matches[first].item
        } ?? matches[first].item
        let readable = matches.count - matches.filter(locked).count
        return "the query stopped at its first locked match in insertion order, "
            + "\(Self.describe(matches[first].item, groupName: matches[first].groupName)) (\(item.accessibility.rawValue))"
            + (readable > 0 ? "; \(readable) other match\(readable == 1 ? " is" : "es are") readable while locked" : "")
    }

    /// "did you mean TEAM.g" when a prefixed group of that name is entitled.
    private func teamPrefixHint(_ group: String, _ app: AppTarget, _ last: LastCall) -> String {
        if group == AppTarget.tokenGroup {
            return "; com.apple.token (kSecAttrAccessGroupToken) is CryptoTokenKit's group, read-only: no entitlement lets an app store items there"
        }
        if let prefixed = app.prefixedGroup(for: group) {
            return "; did you mean \(prefixed)? Keychain Sharing groups carry the team prefix in code"
        }
        // The team ID alone, which flutterfire's docs called the "team group
        // ID" (flutterfire issues 6547, 6552; QA s20, Q08).
        if let example = Self.bareTeamIDExample(group, last, in: world) {
            return "; \(group) is \(app.name.possessive) team ID, not a group: a keychain group is the team ID and a name, e.g. \(example)"
        }
        // The right group under another prefix: another team's, or the Team
        // ID where the App ID prefix is a legacy one (home-assistant/iOS pull
        // request 61, MSAL pull request 872; real-world Q26, Q27).
        if let g = Self.groupUnderOtherPrefix(group, last, in: world) {
            let prefix = String(g.prefix(10))
            let whose = prefix == app.appIDPrefix ? "its App ID prefix" : prefix == app.teamID ? "its team ID" : "as its entitlements say"
            var hint = "; it differs from \(g) only in its prefix: \(app.name.possessive) groups carry \(prefix) (\(whose))"
            // A prefix that is no team ID: a library took it from a default
            // group without one (MSAL.NET issue 746; QA s20, Q11).
            if let dot = group.firstIndex(of: "."), !Team.isWellFormedID(String(group[..<dot])) {
                hint += "; \"\(group[..<dot])\" is no team ID"
                // A Mac app group written the iOS way (Valet pull request 230; QA s22, Q08).
                if group[..<dot] == "group", world.platform(of: last.device).family == .macos, app.applicationGroups.contains(g) {
                    hint += ": \(app.name.possessive) app group is \(g), in the Mac's TEAMID.name form; a Mac app group may also be group.name, with a provisioning profile that grants it (macOS 15 and later), but that is another group"
                }
                if let d = world.defaultGroup(of: last.app, on: last.device), let dd = d.firstIndex(of: "."),
                   !Team.isWellFormedID(String(d[..<dd])), d.hasPrefix(group[..<dot] + ".") {
                    hint += ": a library that takes the prefix from the default group (\(d), unprefixed) gets this"
                }
            }
            if app.appIDPrefix != nil, let team = app.teamID, group.hasPrefix(team + ".") {
                hint += ", not the team ID \(team): $(AppIdentifierPrefix) gives the App ID prefix"
            }
            return hint
        }
        // A group of the caller's own team that no entitlement lists: the
        // fix is to list it (MSAL.NET issue 634: the library's default
        // group com.microsoft.adalcache, prefixed at run time, and the
        // maintainer's "add the group to keychain sharing"; QA s23, Q06).
        // Not an app group written with a prefix (KCS511 says that), not
        // for an App Clip (it gets no keychain-access-groups).
        if let team = EntitlementShape.teamPrefix(of: group).map(String.init), team == app.appIDPrefix || team == app.teamID,
           !EntitlementShape.mayPrefixAppGroup(group), app.kind != .appClip, !app.isUnsigned,
           // An unprovisioned Mac app with keychain-access-groups is not launched (KCS514).
           !(world.platform(of: last.device).usesMacDaemon && app.signing != .provisioned) {
            let rest = group.dropFirst(team.count + 1)
            let entry = team == (app.appIDPrefix ?? app.teamID) ? "$(AppIdentifierPrefix)\(rest)" : group
            return "; to use it, list it in \(app.name.possessive) keychain-access-groups entitlement (Keychain Sharing: \(entry) in the entitlements file)"
        }
        return ""
    }

    /// The caller's group that `group` differs from only in its 10-character
    /// prefix, if any: the one explanation and hint both say.
    private static func groupUnderOtherPrefix(_ group: String, _ last: LastCall, in world: World) -> String? {
        guard let dot = group.firstIndex(of: ".") else { return nil }
        let rest = group[dot...]
        let groups = world.accessGroups(of: last.app, on: last.device)
        if group.distance(from: group.startIndex, to: dot) == 10, Team.isWellFormedID(String(group[..<dot])) {
            return groups.first { $0.hasSuffix(rest) && $0.utf8.count == group.utf8.count }
        }
        // A prefix that is no team ID ("com" of com.com.microsoft.adalcache):
        // a group of the caller's with a team prefix and the same rest.
        return groups.first { g in
            g.utf8.count == rest.utf8.count + 10 && g.hasSuffix(rest) && Team.isWellFormedID(String(g.prefix(10)))
        }
    }

    /// A group of the caller's under `group`, when `group` is the caller's
    /// team ID or App ID prefix alone (no name): an example to write.
    private static func bareTeamIDExample(_ group: String, _ last: LastCall, in world: World) -> String? {
        let app = world[last.app]
        guard group == app.teamID || group == app.appIDPrefix else { return nil }
        return world.accessGroups(of: last.app, on: last.device).first { $0.hasPrefix(group + ".") }
    }

    /// An update or delete that names no group acts in every group the
    /// caller has: said when its items came from more than one, which a
    /// developer cleaning up a migrated copy did not expect
    /// (keychain-swift issue 91; session 18, P35).
    private func acrossGroups(_ result: CallResult, _ last: LastCall) -> String {
        guard last.call.request.spec.accessGroup == nil else { return "" }
        // The Mac's file keychain is no group of the list (review of session 18, R6).
        var groups: [String] = []
        for item in result.items where item.groupName != World.fileKeychainGroupName && !groups.contains(item.groupName) {
            groups.append(item.groupName)
        }
        guard groups.count > 1 else { return "" }
        return " in \(groups.count) groups (\(groups.joined(separator: ", "))): a call that names no group= acts in every group of the caller's list"
    }

    /// The groups of deleted items that are another app's default group: a delete by
    /// service and account in a shared default group removes another
    /// app's item (GoogleSignIn-iOS pull request 567's fresh-install
    /// cleanup; QA s20, Q17, where "deleted 1 item" did not say whose).
    /// At most three groups are named.
    private func sharedWithOthers(_ result: CallResult, _ last: LastCall) -> String {
        guard world.apps.count > 1 else { return "" }
        var groups: [String] = []
        for item in result.items where item.groupName != World.fileKeychainGroupName && !groups.contains(item.groupName) {
            groups.append(item.groupName)
            if groups.count == 3 { break }
        }
        // Only a group that is another app's default: its adds without
        // group= go there, so what was deleted may be its own.
        let parts = groups.compactMap { g -> String? in
            guard let other = world.firstOtherApp(accessing: g, besides: last.app,
                                                  where: { world.defaultGroup(of: $0, on: last.device) == g }) else { return nil }
            let name = world[other].name
            return "\(g) is \(name.possessive) default group too (its adds without group= go there), so \(result.count == 1 ? "the item" : "the items") may be \(name.possessive)"
        }
        guard !parts.isEmpty else { return "" }
        return "; " + parts.joined(separator: "; ")
    }

    /// On the Mac a find without the data-protection flag asks both
    /// keychains and merges the answers (SecItem.cpp `SecItemMergeResults`,
    /// lines 4882-4935): a single result is the data-protection side's, and a
    /// file side that failed is dropped when the other succeeded. Said when
    /// the file keychain held matches the answer leaves out, which "found 1
    /// item" hid (flutter_secure_storage pull request 712; session 18, P23).
    private func fileSideLeftOut(_ result: CallResult, _ last: LastCall) -> String {
        let request = last.call.request
        guard World.reachesFileKeychain(request.spec, on: world.platform(of: last.device)),
              !result.items.contains(where: { $0.groupName == World.fileKeychainGroupName }) else { return "" }
        let n = world.fileKeychainMatchCount(for: request, on: last.device)
        guard n > 0 else { return "" }
        let items = "\(n) item\(n == 1 ? "" : "s")"
        if (request.spec.limit ?? .one).givesSingleResult {
            return "; the file-based keychain matched \(items) too, which the merge leaves out: a single result is the data-protection keychain's"
        }
        return "; the file-based keychain matched \(items) but failed (\(fileSideFailure(request))), and the merge keeps the data-protection keychain's answer alone"
    }

    /// For a read an access control stopped: the access control asks on
    /// every read that brings no authenticated context, whatever the item's
    /// class, which governs the lock state only (stackoverflow question
    /// 51468573: after-first-unlock-this-device-only with biometry "always
    /// prompted"; QA s22, Q23). In small keychains, as the other searches.
    private func accessControlNotClass(_ last: LastCall) -> String {
        guard world.keychainCount(on: last.device) <= Session.nearMissLimit,
              let ac = world.matches(for: last.call.request, as: last.app, on: last.device).lazy
                .compactMap({ $0.item.accessControl }).first(where: \.requiresAuthentication) else { return "" }
        let flags = ac.flags.map(\.rawValue).joined(separator: ", ")
        // A call that passed a context is told what that context lacks, not
        // to pass one (review 22b, R12).
        if let name = last.call.request.spec.context {
            guard let standing = world.contextStanding(name, for: ac, on: last.device) else {
                return ": its access control (\(flags)) asks unless the context passed is authenticated, and context \(name) "
                    + "was not authenticated on \(world[last.device].label): authenticate it with one prompt (a call without auth-ui=fail) and reuse it"
            }
            if !standing.opens {
                let held = standing.holds.isEmpty ? "nothing" : standing.holds.joined(separator: " and ")
                return ": its access control (\(flags)) is not opened by context \(name), which was authenticated with \(held) only: "
                    + "an application password opens the item's password and no user-presence, biometry or passcode constraint "
                    + "(secd-81-item-acl.m line 282); authenticate \(name) with a prompt this access control asks (a call without auth-ui=fail)"
            }
        }
        return ": its access control (\(flags)) asks on every read without an authenticated context=, "
            + "while its class, \(ac.protection.rawValue), governs the lock state only; pass one LAContext (context=NAME, "
            + "kSecUseAuthenticationContext) to ask once and reuse it"
    }

    /// Why the Mac's file keychain asked: said for a denial and, on its
    /// own line, for a prompt the user let through (QA s22, Q26: an embedded
    /// command-line tool, Q27: an ad-hoc rebuild; s21 Q24), where the
    /// approved path said only "prompts answered: approves".
    private func fileKeychainAsked(_ why: FileKeychainDenial, _ last: LastCall) -> String {
        switch why {
        case .resigned:
            return "the item's access list in the macOS file-based keychain trusts the app as it was signed before "
                + "('resign' or 'transfer': the list holds its designated requirement)"
        case .partition:
            return "the item's partition list in the macOS file-based keychain holds another team (or, for ad-hoc code, another signature) than the caller's"
        case .otherApp:
            // Named: a developer who renamed the bundle needs to see that the
            // item is the old app's (keychain-swift issue 117; QA s20, Q27).
            let owner = world.fileKeychainMatches(for: last.call.request, on: last.device).lazy
                .compactMap { world[last.device].fileKeychain[$0]?.owner }.first { $0 != last.app }
            let whose = owner.map { "another app, \(world[$0].name) (\(world[$0].bundleID))" } ?? "another app"
            return "the item in the macOS file-based keychain belongs to \(whose)"
        }
    }

    /// The line for a file-keychain prompt the user let through: why it
    /// asked, and what stops it asking.
    private func approvedPrompt(_ why: FileKeychainDenial, _ last: LastCall) -> String {
        let app = world[last.app]
        let always = last.answers.contains(.alwaysAllow)
        let fix: String
        switch why {
        case .otherApp:
            let group = last.call.request.spec.accessGroup == nil ? ""
                : " (the group= the call names does not count in the file keychain)"
            fix = "its access list trusts the app that made it, not \(app.name)\(group); "
                + (always ? "Always Allow put \(app.name) on the list, so it is not asked again"
                   : "Always Allow would put \(app.name) on the list; apps that share items without prompts use the data-protection keychain "
                    + "(data-protection=true) with a keychain group both are entitled to")
        case .resigned:
            fix = "its code signature changed, so the list no longer trusts it as it is now; "
                + (always ? "Always Allow trusts it as signed now" : "a build signed with the same certificate keeps its designated requirement and is not asked (ad-hoc signing changes it with every build)")
        case .partition:
            fix = always ? "Always Allow added \(app.name.possessive) partition" : "Always Allow would add \(app.name.possessive) partition"
        }
        return "asked because: " + fileKeychainAsked(why, last) + ": " + fix
    }

    /// The attributes a file-keychain add left out: the file keychain reads
    /// each class's own from a table and passes over the rest (SecItem.cpp
    /// _ConvertNewFormatToOldFormat; gGenericPasswordAttributes line 343,
    /// gKeyAttributes 399, which leaves out a key's creator and dates,
    /// lines 401-415), while the data-protection keychain refuses an
    /// attribute of another class (QA s22, Q14: OAuthKit's application tag
    /// on generic passwords passed its macOS CI for a year).
    private func fileKeychainDropped(_ spec: ItemSpec) -> String {
        guard let itemClass = spec.itemClass else { return "" }
        var foreign: [String] = [], untabled: [String] = []
        for entry in spec.attributes where !entry.attribute.inFileKeychainTable(of: itemClass) {
            if entry.attribute.applies(to: itemClass) {
                untabled.append(Vocabulary.name(of: entry.attribute))
            } else {
                foreign.append(Vocabulary.name(of: entry.attribute))
            }
        }
        var text = ""
        if !foreign.isEmpty {
            let one = foreign.count == 1
            text += "; it dropped \(foreign.joined(separator: ", ")), which \(one ? "is not a" : "are not") \(itemClass.rawValue) attribute\(one ? "" : "s"): "
                + "the data-protection keychain (iOS, watchOS, Mac Catalyst, data-protection=true) refuses \(one ? "it" : "them") with errSecNoSuchAttr"
        }
        if !untabled.isEmpty {
            text += "; it dropped \(untabled.joined(separator: ", ")): the file keychain's \(itemClass.rawValue) table does not hold \(untabled.count == 1 ? "it" : "them")"
        }
        return text
    }

    /// `data=` in a query (a find's, an update's, a delete's) selects
    /// nothing: securityd keeps kSecValueData aside for an add
    /// (SecDbQuery.c `query_set_data`, lines 752-760; only `s3dl_query_add`
    /// reads `q_data`, SecItemDb.c line 307) and builds the search from the
    /// attributes. Two reviews of code that deleted with the add's
    /// dictionary said the delete "no-ops on any value change" (OneKey pull
    /// request 8881, deltachat-ios pull request 1650; QA s23, Q08): "deleted
    /// 1 item" did not say whether the data took part.
    private func dataDoesNotSelect(_ request: CallRequest) -> String {
        guard request.spec.dataText != nil else { return "" }
        return "; data= in the query selected nothing: securityd keeps kSecValueData aside for an add "
            + "(SecDbQuery.c query_set_data, lines 752-760) and matches items on their attributes alone"
            + (request.operation == .update ? " (the data an update writes goes in its set)" : "")
    }

    /// A delete that removed items the device cannot decrypt now: a delete
    /// needs no class key (SecItemDb.c `s3dl_query_delete`, line 1407;
    /// `SecDbItemNeedAuth` swallows decryption errors, line 1393), so the
    /// items existed and were unreadable only because of the lock, and their
    /// data is gone: the catch-the-read-error, delete, regenerate pattern of
    /// flutter_secure_storage issues 727 and 354 (QA s22, Q30), where
    /// "deleted 1 item" did not say so.
    private func deletedUnderTheLock(_ result: CallResult, _ last: LastCall) -> String {
        let state = world[last.device].state
        var unreadable: [FoundItem] = []
        for item in result.items where item.groupName != World.fileKeychainGroupName && !state.isAvailable(item.item.accessibility) {
            unreadable.append(item)
        }
        guard let first = unreadable.first else { return "" }
        let one = unreadable.count == 1
        let device = world[last.device].label
        let classes = Set(unreadable.map(\.item.accessibility)).map(\.rawValue).sorted().joined(separator: ", ")
        return "; \(one ? "it" : "\(unreadable.count) of them") (\(one ? Self.describe(first.item, groupName: first.groupName) + ", " : "")\(classes)) "
            + "existed and could not be read only because \(device) is locked: a delete needs no class key (SecItemDb.c s3dl_query_delete), "
            + "so \(one ? "its" : "their") data is gone for good. errSecInteractionNotAllowed from a read means the item exists and the device is locked: "
            + "retry after the unlock (UIApplication.protectedDataDidBecomeAvailableNotification) rather than delete and regenerate"
    }

    /// On the Mac an update or a delete acts on what the file keychain's
    /// find returns, one match unless the call says otherwise
    /// (SecItemUpdate_osx, SecItemDelete_osx; `_CreateSecItemParamsFromDictionary`:
    /// "default is kSecMatchLimitOne"): said when matches were left, which
    /// "deleted 1 item" hid (keychain-swift issue 19; real-world Q23).
    private func fileSideFirstOnly(_ result: CallResult, _ last: LastCall) -> String {
        let request = last.call.request
        // An identity's matches are pairs, not the certificates the matcher counts (review 19, R20).
        guard request.spec.limit != .all, request.spec.itemClass != .identity,
              World.reachesFileKeychain(request.spec, on: world.platform(of: last.device)) else { return "" }
        var acted = Set<ItemID>()
        for item in result.items where item.groupName == World.fileKeychainGroupName { acted.insert(item.id) }
        let left = world.fileKeychainMatches(for: request, on: last.device).count { !acted.contains($0) }
        guard left > 0 else { return "" }
        return "; the Mac's file-based keychain \(request.operation == .delete ? "deletes" : "changes") only what its find returns, "
            + "one match unless the call says limit=all: \(left) more match\(left == 1 ? "" : "es") there"
    }

    /// Why the file side of a find for every match failed: the one refusal
    /// it makes before matching that the merge hides.
    private func fileSideFailure(_ request: CallRequest) -> String {
        guard let itemClass = request.spec.itemClass else { return "it returned nothing" }
        return World.fileKeychainRefusesDataForAll(request.spec, itemClass)
            ? "errSecParam: it returns no data for all matching passwords" : "it returned nothing"
    }

    private func candidates(_ last: LastCall, quietWhenNone: Bool = false) -> [String] {
        let (shown, total) = world.candidates(for: last.call.request, as: last.app, on: last.device, first: candidateLimit)
        let cls = last.call.request.spec.itemClass?.rawValue ?? "?"
        // On the Mac a call the data-protection keychain takes alone does not
        // see the file-based keychain's items: "none exist" misled a
        // developer whose plain add had stored one there (found checking
        // reported device behaviour).
        let spec = last.call.request.spec, platform = world.platform(of: last.device)
        var unsearched: [String] = []
        if platform.family == .macos, let c = spec.itemClass {
            let n = world.fileKeychainCount(of: c, on: last.device)
            let counted = "\(n) \(c.table.rawValue) item\(n == 1 ? "" : "s")"
            if n > 0, !World.reachesFileKeychain(spec, on: platform) {
                unsearched = ["the Mac's file-based keychain holds \(counted), which this call does not search: "
                              + "with sync=true, an access control or data-protection=true it goes to the data-protection keychain only"]
            } else if n > 0 {
                // Searched, and none matched: "none exist" was wrong there too.
                unsearched = ["the Mac's file-based keychain holds \(counted), which this call searched: none matches the query's attributes"]
            }
        }
        guard total > 0 else {
            if quietWhenNone { return unsearched + elsewhere(last) }
            let none = unsearched.isEmpty ? "no \(cls) items exist on \(world[last.device].label)"
                : "no \(cls) items in the data-protection keychain of \(world[last.device].label)"
            return [none] + unsearched + otherPasswordClass(last) + elsewhere(last)
        }
        let appName = world[last.app].name
        var lines = ["\(cls) items on the device:"]
        let owners = shown.contains { $0.reasons.contains(.groupNotAccessible) } ? defaultGroupOwners(last) : [:]
        for c in shown {
            var why = c.reasons.isEmpty ? passedOver(c.item, last) : c.reasons.map { Self.describe($0, appName) }.joined(separator: "; ")
            // Whose default group holds it: an item the reader cannot see is
            // most often one its writer added without group=, into its own
            // element 0 (an extension listing its group before the shared one).
            if c.reasons.contains(.groupNotAccessible), let writer = owners[c.groupName] {
                why += " (it is \(writer.possessive) default group, where \(writer) adds what names no group=)"
            }
            lines.append("  - \(Self.describe(c.item, groupName: c.groupName)): \(why)")
        }
        if total > candidateLimit { lines.append("  … and \(total - candidateLimit) more") }
        return lines + unsearched + elsewhere(last)
    }

    /// No item of the query's password class exists, but the other
    /// password class holds the account: a wrapper that stores generic
    /// passwords meets an internet password another app (Safari) saved
    /// (SAMKeychain issue 167; QA s20, Q14).
    private func otherPasswordClass(_ last: LastCall) -> [String] {
        let spec = last.call.request.spec
        guard let c = spec.itemClass, c == .genericPassword || c == .internetPassword else { return [] }
        let other: ItemClass = c == .genericPassword ? .internetPassword : .genericPassword
        // The query's name for the item against the other class's: the
        // account, and a wrapper's key, which an internet password keeps as
        // its server (react-native-keychain's setInternetCredentials(server,
        // username, password) read back as a generic password's account by
        // a widget; QA s22, Q05).
        let pairs: [(ItemAttribute, ItemAttribute)] = c == .genericPassword
            ? [(.account, .account), (.account, .server), (.service, .server)]
            : [(.account, .account), (.server, .service), (.server, .account)]
        guard pairs.contains(where: { spec.attributes[$0.0] != nil }) else { return [] }
        // Only in small keychains, as the near misses: a full match of the
        // other class per failed expectation was failures × items (4,000
        // of each took 28 s; adversarial run 27, F9).
        guard world.keychainCount(on: last.device) <= Session.nearMissLimit,
              world.fileKeychainCount(of: other, on: last.device) <= Session.nearMissLimit else { return [] }
        for (asked, stored) in pairs {
            guard let value = spec.attributes[asked] else { continue }
            var query = ItemSpec(itemClass: other)
            query.attributes[stored] = value
            query.accessGroup = spec.accessGroup
            query.synchronizable = .any
            query.useDataProtectionKeychain = spec.useDataProtectionKeychain
            let request = CallRequest(.find, query)
            var found = world.matches(for: request, as: last.app, on: last.device).map { ($0.item, $0.groupName) }
            if World.reachesFileKeychain(query, on: world.platform(of: last.device)) {
                let file = world[last.device].fileKeychain
                found += world.fileKeychainMatches(for: request, on: last.device).compactMap { id in
                    file[id].map { ($0, World.fileKeychainGroupName) }
                }
            }
            guard let first = found.first else { continue }
            let n = found.count
            let name = Vocabulary.name(of: stored)
            let keyedByServer = stored == .server || asked == .server
                ? " (a wrapper's setInternetCredentials(server, username, password) stores an internet password whose server is the key the app passes)" : ""
            return ["\(n) \(other.rawValue) item\(n == 1 ? " has" : "s have") \(name) \(value.described(upTo: Self.describedLength))"
                    + (asked == stored ? "" : ", the query's \(Vocabulary.name(of: asked))")
                    + ", e.g. \(Self.describe(first.0, groupName: first.1)): a query for \(c.constantName) does not see "
                    + "\(other.constantName) items; ask for class \(other.rawValue)" + keyedByServer]
        }
        return []
    }

    /// The other apps' default groups on the call's device, each by the
    /// first app that has it: worked out once per explanation, in worlds of
    /// up to ``Session/nearMissLimit`` apps (a note, not worth a walk of a
    /// generated world's every app per failed expectation).
    private func defaultGroupOwners(_ last: LastCall) -> [String: String] {
        guard world.apps.count <= Session.nearMissLimit else { return [:] }
        var owners: [String: String] = [:]
        for app in world.appHandles where app != last.app {
            if let g = world.defaultGroup(of: app, on: last.device), owners[g] == nil { owners[g] = world[app].name }
        }
        return owners
    }

    /// A caller whose whole list is `com.apple.token` (no keychain
    /// entitlement counts: a Mac app without an app ID) can store nothing
    /// in the data-protection keychain, so a find there never finds its
    /// own items: said, as the add's refusal says it, because the find is
    /// what a library reports (supabase-swift issue 516; QA s20, Q29).
    private func tokenGroupOnly(_ last: LastCall) -> String {
        let request = last.call.request
        guard !World.reachesFileKeychain(request.spec, on: world.platform(of: last.device)),
              world.hasOnlyTokenGroup(last.app, on: last.device) else { return "" }
        return "; \(world[last.app].name) has no keychain entitlement here: its only access group is \(AppTarget.tokenGroup), "
            + "which is read-only, so none of its own items can exist in the data-protection keychain "
            + "(its adds fail with errSecMissingEntitlement)"
    }

    /// What the data-protection side of a merged query answered before the
    /// merge dropped it (SecItem.cpp `SecItemMergeResults`, lines 4893-4900:
    /// "iOS keychain failed … go with results from OSX keychain").
    private func droppedSide(_ dropped: CallResult.DroppedSide, _ last: LastCall) -> String {
        let why = reason(CallResult(status: dropped.status, reason: dropped.reason), last)
        return "the data-protection keychain answered \(dropped.status.description): \(why); "
            + "a query that names no keychain on the Mac returns the file-based keychain's answer when the data-protection side "
            + "fails with anything but errSecMissingEntitlement (SecItem.cpp SecItemMergeResults, lines 4893-4900): "
            + "add data-protection=true to get its status"
    }

    /// An item that matches the query's attributes: why the call still did
    /// not return it.
    private func passedOver(_ item: StoredItem, _ last: LastCall) -> String {
        let state = world[last.device].state
        if item.lost {
            return "it matches, but the passcode was removed after it was added: it can never be decrypted again (a delete removes it, and so does a read or an update of its class that meets it)"
        }
        if item.isInvalidated(by: state) {
            return "it matches, but a biometry change since it was added invalidated its biometry-current-set access control"
        }
        if let ac = item.accessControl, ac.requiresAuthentication, last.call.request.spec.authUI == .skip {
            return "it matches, but it needs a prompt and auth-ui=skip passes such items over"
        }
        // On the Mac the merge drops a locked data-protection side, and the
        // item is listed among the candidates (QA s20, Q05).
        if !state.isAvailable(item.accessibility) {
            let why = item.accessibility.requirement == .firstUnlockSinceBoot ? "has not been unlocked since it booted"
                : state.hasPasscode ? "is locked" : "has no passcode"
            return "it matches, but \(world[last.device].label) \(why), which keeps \(item.accessibility.rawValue) items out of reach"
        }
        return "matches"
    }

    /// Items that would match on another device, and why they are not here.
    private func elsewhere(_ last: LastCall) -> [String] {
        guard last.result.reason == .noMatch else { return [] }
        var lines: [String] = [], more = 0
        let here = world[last.device]
        // Only the devices whose keychains are small, as the near misses:
        // each failed expectation matched every other device's items
        // (4,000 items beside 4,000 failures took 30 s; adversarial run 27, F9).
        for other in world.deviceHandles where other != last.device && world.keychainCount(on: other) <= Session.nearMissLimit {
            let device = world[other]
            for c in world.matches(for: last.call.request, as: last.app, on: other) {
                // What would carry it here: sync, and a backup restored here
                // (which brings no this-device-only item, and leaves out one
                // whose access control needs the user; found checking reported
                // device behaviour: a missing key was blamed on sync alone).
                // A backup of that device made without a password holds the
                // item and brings it nowhere else (QA s21, Q23: "restored
                // from a backup" was not named).
                let unencrypted = world.backupNames.first { name in
                    guard let b = world.backups[name], !b.encrypted, b.deviceName == device.name else { return false }
                    return b.keychain.item(withKey: c.item.primaryKey) != nil
                }
                let restore = c.item.accessibility.isThisDeviceOnly
                    ? "; a backup restored onto another device brings no \(c.item.accessibility.rawValue) item either"
                    : c.item.accessControl?.requiresAuthentication == true
                    ? "; a backup leaves out an item whose access control needs the user"
                    : unencrypted.map { "; a backup made without a password (\($0), encrypted=false) opens on \(device.label) only: "
                        + "restored onto another device it brings no keychain item" } ?? ""
                let why: String
                if !c.item.synchronizable {
                    why = "it is not synchronizable, so iCloud Keychain does not carry it" + restore
                } else if c.item.accessibility.isThisDeviceOnly {
                    why = "it is \(c.item.accessibility.rawValue), so it never leaves \(device.name)"
                } else if device.account != here.account {
                    why = "\(device.name) uses another iCloud account"
                } else if case .version? = here.incoming[c.item.primaryKey] {
                    // Synced onto a locked device: CKKS lacks its class key (audit 24, F1).
                    why = "it was synced, and waits in iCloud Keychain's incoming queue until "
                        + (last.device == .this ? "this device" : here.name) + " is unlocked"
                } else if case .errored? = here.incoming[c.item.primaryKey] {
                    // Its write met a row that needs the user (audit 26, F4; review 22b, R8).
                    why = "it was synced, but iCloud Keychain could not write it over "
                        + (last.device == .this ? "this device" : here.name) + "'s item of the same key, whose access control needs the user; "
                        + "the entry stays in error, and neither a sync nor an unlock tries it again: a newer version of the item does"
                } else {
                    why = "it has not been synced yet ('sync')"
                }
                // As many as the device's own list shows; the rest counted.
                if lines.count < candidateLimit {
                    lines.append("  - on \(device.name): \(Self.describe(c.item, groupName: c.groupName)) would match; \(why)")
                } else {
                    more += 1
                }
            }
        }
        if more > 0 { lines.append("  … and \(more) more") }
        return lines.isEmpty ? [] : ["on other devices:"] + lines
    }

    /// Scalars of a value an explanation quotes; the rest is counted.
    package static let describedLength = 200

    package static func describe(_ r: PassOverReason, _ appName: String) -> String {
        switch r {
        case .groupNotAccessible: return "its group is not in \(appName.possessive) access groups"
        case .groupNotSearched: return "its group was not the one the call named"
        case .synchronizable(let item, let wanted):
            if item {
                return "it is synchronizable and the query did not say sync=true or sync=any"
            }
            return "it is not synchronizable and the query asked for sync=\(wanted == .yes ? "true" : "false")"
        case .accessibility(let item, let wanted): return "accessible is \(item.rawValue), the query asks \(wanted.rawValue)"
        case .attribute(let a, let item, let wanted):
            let name = Vocabulary.name(of: a)
            return "\(name) is \(item.described(upTo: describedLength)), the query asks \(wanted.described(upTo: describedLength))"
        case .attributeNotSet(let a, let wanted):
            let name = Vocabulary.name(of: a)
            return "it has no \(name) (not even \"\"), the query asks \(wanted.described(upTo: describedLength))"
        case .noPairedKey: return "no private key with its public key hash is visible"
        }
    }

    /// `generic-password service="auth" account="alice" in GROUP`; with
    /// `absentKeys`, a key attribute the item has no value for is shown at
    /// the default it compares as (`account=""`).
    package static func describe(_ item: StoredItem, groupName: String, absentKeys: Bool = false) -> String {
        var parts = [item.itemClass.rawValue]
        for a in item.itemClass.primaryKeyAttributes {
            if let v = item.attributes[a] ?? (absentKeys ? AttributeValue.absent(for: a) : nil) {
                parts.append("\(Vocabulary.name(of: a))=\(v.described(upTo: describedLength))")
            }
        }
        if item.synchronizable { parts.append("sync=true") }
        parts.append("in \(groupName)")
        return parts.joined(separator: " ")
    }

    /// The releases that give a process without entitlements the token
    /// group (``Platform/listsTokenGroupForUnentitled``).
    static func tokenEra(_ platform: Platform) -> String {
        let releases = platform.tokenGroupForUnentitledReleases ?? 0...0
        return "\(familyName(platform)) \(releases.lowerBound) to \(releases.upperBound)"
    }

    /// The token group in an entitled app's list (iOS 10 to 13, watchOS 3 to 6).
    static func tokenGroupListed(_ app: AppTarget, _ platform: Platform) -> String {
        "com.apple.token is in \(app.name.possessive) list (\(tokenEra(platform)) append it to every app's), but it is CryptoTokenKit's read-only group"
    }

    /// A write naming the token group where the app's list shows it
    /// (review 22b, R7: "not in A's access groups" under a list that holds
    /// it): after the release whose writes search it, the groups a write may
    /// use leave it out (`SecurityClientCopyWritableAccessGroups`,
    /// Security-58286.200.222 to 59306); before it, securityd stored the item
    /// there (Security-57740.60.18 `_SecItemAdd`), which kcs does not model.
    static func tokenGroupNotWritable(_ g: AttributeText, _ app: AppTarget, _ platform: Platform) -> String? {
        guard g == AppTarget.tokenGroupText, platform.appendsTokenGroup,
              let writes = platform.tokenGroupSearchedOnWritesRelease else { return nil }
        let name = familyName(platform)
        return platform.version > writes
            ? tokenGroupListed(app, platform) + ": \(name) \(platform.version) leaves it out of the groups a write may use (SecurityClientCopyWritableAccessGroups), so the write is errSecMissingEntitlement"
            : tokenGroupListed(app, platform) + "; \(name) \(platform.version)'s securityd stores the item there, which kcs does not model: it answers errSecMissingEntitlement"
    }

    /// securityd's words when an add goes to the token group (iOS 11's and
    /// watchOS 4's `_SecItemAdd`, `SecItemServer.c` lines 1549-1580), quoted
    /// by the explanations of both reasons that meet it.
    static let tokenGroupStoreRefusal = "\"storing items into kSecAttrAccessGroupToken is not allowed\""

    /// Release numbers as prose: "12", "12 and 13", "10, 12 and 13".
    static func releaseList(_ releases: [Int]) -> String {
        let texts = releases.map(String.init)
        guard let last = texts.last, texts.count > 1 else { return texts.joined() }
        return texts.dropLast().joined(separator: ", ") + " and " + last
    }

    /// The family as Apple writes it, for the token-group eras.
    static func familyName(_ platform: Platform) -> String {
        platform.family == .watchos ? "watchOS" : "iOS"
    }

    /// A one-line hint for a failed status expectation.
    /// `declaredWithoutTeam`: the app was declared `team=none` after a team.
    package static func hint(for result: CallResult, last: LastCall, world: World, declaredWithoutTeam: Bool = false) -> String? {
        switch result.reason {
        case .groupNotEntitled(let text), .groupNotEntitledFindsNothing(let text), .moveNotEntitled(let text):
            let g = text.string, app = world[last.app]
            // `group com.apple.token App` would make a team-prefixed group,
            // not this one (QA s20, Q10).
            if g == AppTarget.tokenGroup {
                return last.call.request.operation == .find || last.call.request.operation == .delete
                    ? "com.apple.token holds CryptoTokenKit's smart-card items (not modelled), and no entitlement makes it an app's own: drop group="
                    : "com.apple.token is CryptoTokenKit's read-only group: drop group= to store in \(app.name.possessive) default group, or name a keychain group it has"
            }
            if let p = app.prefixedGroup(for: g) {
                return "write the group with its team prefix: group=\(p)"
            }
            if app.kind == .appClip {
                // Adding the group cannot help a clip: its app groups do not
                // count, and any other group makes every call
                // errSecRestrictedAPI (appClipHasAcceptableAccessGroups).
                // The hint said to add one the clip listed (trial 18, D2).
                let use = last.call.request.operation == .add ? "store in" : "use"
                return "\(app.name) is an App Clip, whose one keychain group is its app ID\(app.appID.map { ", \($0)" } ?? ""): its app groups do not count, "
                    + "and listing another keychain group makes every call errSecRestrictedAPI; drop group= to \(use) the app ID "
                    + "(the full app takes its items over when it replaces the clip, iOS 16 on)"
            }
            if let right = groupUnderOtherPrefix(g, last, in: world) { return "write group=\(right), the group under the prefix its entitlements give" }
            if let example = bareTeamIDExample(g, last, in: world) {
                return "\(g) is \(app.name.possessive) team ID: a keychain group is the team ID and a name, e.g. group=\(example)"
            }
            return "add the group to \(app.name.possessive) entitlements (\(app.groupStatement(g))) or name one it has"
        case .unsigned, .onlyTokenGroup, .unentitledTokenGroup:
            // A script that declares a team and signs the app with none
            // means it (an unhosted test bundle): a team before the app
            // would not be the fix (QA s21, Q05).
            // The token group's refusals had no hint on the Mac: kept so.
            guard world[last.app].isUnsigned,
                  result.reason == .unsigned || world.platform(of: last.device).listsTokenGroupForUnentitled else { return nil }
            guard declaredWithoutTeam || world[last.app].signing == .noAppID else { return "declare a team before the app, or give the app team=TEAMID" }
            let appID = world[last.app].signing == .noAppID ? "an app ID (no signing=no-app-id)" : "an app ID (team=TEAMID)"
            return "\(world[last.app].name) has no entitlements: give it \(appID), or, for tests, a host app (an XCTest bundle hosted in an app runs with the app's entitlements)"
        case .noMatch:
            if let dropped = result.droppedDataProtection {
                var hint = "the data-protection keychain answered \(dropped.status.description), which the merge of the two keychains hides: "
                    + "add data-protection=true to the query to get it"
                if case .locked(let a) = dropped.reason, a.requirement == .unlocked {
                    let background = a.isThisDeviceOnly ? Accessibility.afterFirstUnlockThisDeviceOnly : .afterFirstUnlock
                    hint += "; store what is read while the Mac is locked with accessible=\(background.rawValue)"
                }
                return hint
            }
            return "run 'explain' after the call, or see the candidates above"
        case .limitUsedUp(let limit): return limit == 0 ? "give a limit of 1 or more, or limit=all" : "use limit=all, or a larger limit"
        case .lostRowsDeleted(let count, let biometry, let more):
            if more { return "call again, or use limit=all: the lost \(count == 1 ? "row is" : "rows are") gone now" }
            return biometry == 0
                ? "the item is gone for good with the passcode: add it again, with a class that survives a passcode's removal if it must"
                : "the item is gone for good with the enrolled biometry: authenticate the user another way and add it again"
        case .locked(let a) where a.requirement == .firstUnlockSinceBoot:
            // The notification is UIKit's; a Mac app has no such lock to wait for.
            let wait = world.platform(of: last.device).family == .ios
                ? " (UIApplication.protectedDataDidBecomeAvailableNotification)" : ""
            return "the device has not been unlocked since it booted: wait for protected data\(wait) before reading or writing the keychain"
        case .locked(let a) where a == .whenPasscodeSetThisDeviceOnly && world[last.device].state.hasPasscode:
            // By design: no class readable under the lock keeps the passcode rule.
            return "when-passcode-set items are readable only while the device is unlocked: make the call then, "
                + "or narrow the query (e.g. accessible=) so it matches no when-passcode-set item"
        case .locked(let a) where a.requirement == .unlocked:
            // What the developers' threads settled on: data read in the
            // background is stored after-first-unlock (this-device-only kept
            // when the item is: it stays out of backups and other devices),
            // and a query that must not stop at older items says which it wants.
            let background = a.isThisDeviceOnly ? Accessibility.afterFirstUnlockThisDeviceOnly : .afterFirstUnlock
            return last.call.request.operation == .add
                ? "unlock first, or store what is written while the device is locked with accessible=\(background.rawValue)"
                : "store what is read while the device is locked with accessible=\(background.rawValue), "
                    + "or narrow the query (e.g. accessible=\(background.rawValue)) so it matches no \(a.rawValue) item"
        default: return nil
        }
    }
}

extension String {
    /// "Notes's" reads badly: "Notes'" for a name ending in s.
    var possessive: String { hasSuffix("s") ? self + "'" : self + "'s" }
}

extension AppTarget {
    /// How a scenario gives this app the keychain group `group`: the
    /// `group` statement, which adds the team itself; but a name starting
    /// `group.` is an app group to that statement, so a keychain group
    /// `TEAMID.group.x` goes on the app line's keychain-access-groups (the
    /// hint's `group group.x Ext` added the app group Ext already had;
    /// real-project trial 22, D8).
    func groupStatement(_ group: String) -> String {
        let bare = withoutTeamPrefix(group)
        guard bare.hasPrefix("group."), bare.count != group.count else { return "group \(bare) \(name)" }
        return "list \(group) in keychain-access-groups=[…] on the app line of \(name), or $(AppIdentifierPrefix)\(bare) in its entitlements file; "
            + "group \(bare) would add the app group \(bare)"
    }
}

extension Device {
    /// The device as a message names it: "this device", or its name.
    package var label: String { name == "this" ? "this device" : name }
}

extension PromptAnswer {
    /// As written in `user …`.
    var verb: String {
        switch self {
        case .approve: "approves"
        case .cancel: "cancels"
        case .fail: "fails"
        case .alwaysAllow: "always-allows"
        }
    }
}

extension StatusReason {
    var isGroupRefusal: Bool {
        switch self {
        case .groupNotEntitled, .groupNotEntitledFindsNothing: true
        default: false
        }
    }
}

extension String {
    package var trimmingTrailingSpace: String {
        var s = self
        while let last = s.last, last == " " || last == "\n" || last == "\t" || last == "\r" { s.removeLast() }
        return s
    }
}
