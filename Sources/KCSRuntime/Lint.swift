import KCSSyntax
import KeychainEngine

/// How a batch run treats lint warnings (semantics.md section 7).
public enum LintMode: String, Sendable, Hashable, CaseIterable {
    /// No lint checks (`--no-lint`).
    case off
    /// Warnings, which do not change the exit code (the default).
    case warn
    /// Warnings count as errors: exit 1 (`--strict`).
    case strict
}

/// The common mistakes of semantics.md section 7, checked after each call
/// against the world the call ran in. Each warning names the line, says
/// what is wrong and how to fix it.
extension Session {
    func lintWarnings(after call: CallStatement, _ s: Statement, _ file: SourceFile) -> [Diagnostic] {
        // Every rule below fires only under one of these conditions; a call
        // that meets none (the common case in a long scenario) costs these
        // few comparisons and copies nothing: the request and the result are
        // read in place, and the app is looked at only when a rule needs it.
        // The last call's fields read in place: binding it copied the record.
        guard hasLast else { return [] }
        let status = lastRecord.status, lastApp = lastRecord.app, lastDevice = lastRecord.device
        let operation = call.request.operation
        let missed = operation != .add && status == .itemNotFound
        let chosenAccessibility = call.request.spec.accessibility != nil || call.request.spec.accessControl != nil
            || operation == .update && (call.request.changes.map { $0.accessibility != nil || $0.accessControl != nil } ?? false)
        let addToDefault = operation == .add && call.request.spec.accessGroupText == nil && status == .success
            && (world.hasApplicationGroups(lastApp) || world.kind(of: lastApp) == .extension)
        let limitOnAdd = operation == .add && call.request.spec.limit != nil
        let referenceAlone = call.request.spec.returns == .reference && operation != .update && operation != .delete
        // A named group the caller is entitled to fires a rule only on macOS
        // (the file keychain), in a group move, or for an extension's read.
        let groupRule = namedGroupCanFire(call.request, lastApp, lastDevice, status)
        // A miss fires only through the sync filter (when the keychain holds
        // synchronizable items), a near miss (in a small keychain) or an
        // extension reading its app's groups.
        let syncSkipped = call.request.spec.synchronizable == nil && world.synchronizableCount(on: lastDevice) > 0
        let missRule = missed && (syncSkipped
            || world.keychainCount(on: lastDevice) <= Self.nearMissLimit
            || world.kind(of: lastApp) == .extension)
        // A query that succeeds and reads or removes every match (a delete, an
        // update, a find for all of them) may still have left synchronizable
        // ones out: the "delete all" of a wrapper that leaves iCloud items behind.
        let allRule = syncSkipped && status == .success && Self.countsLeftOutSync(call.request, on: lastDevice, world)
        // An update that writes data through a query naming only the class
        // (WordPress-iOS pull request 2757; QA s21, Q27).
        let classOnlyUpdate = operation == .update && status == .success && lastRecord.result.count > 1
        // A delete after a find the lock stopped (flutter_secure_storage
        // issue 727; QA s22, Q30).
        let lockedDelete = operation == .delete && status == .success && !lockedReads.isEmpty
        // An attribute of another class (OAuthKit issue 81; QA s22, Q14).
        let foreign = Self.foreignAttribute(call.request) != nil
        // An update after an add that met errSecDuplicateItem with another
        // class (expo pull request 49128; QA s23, Q20). An update that sets
        // a class is `chosenAccessibility`.
        let keptClass = operation == .update && status == .success && !duplicateAdds.isEmpty
        guard groupRule || missRule || allRule || chosenAccessibility || addToDefault || limitOnAdd || referenceAlone
                || classOnlyUpdate || lockedDelete || foreign || keptClass else { return [] }
        return lintWarnings(call.request, lastRecord, s, file, missed: missed, chosenAccessibility: chosenAccessibility,
                            addToDefault: addToDefault)
    }

    /// Whether securityd's default sync filter applies to a query and could
    /// have left something out: it says nothing of sync and names no
    /// persistent reference (SecDbQuery.c `query_create_with_limit`, lines
    /// 1092-1096), it reaches the data-protection keychain (not the Mac's file
    /// keychain alone, where synchronizable means nothing: SecItem.cpp
    /// 4136-4139), and the device holds a synchronizable item. One test for
    /// KCS507 and for `explain`.
    static func syncFilterSkips(_ spec: ItemSpec, on device: DeviceHandle, _ world: World) -> Bool {
        guard spec.synchronizable == nil, spec.persistentRef == nil, world.synchronizableCount(on: device) > 0 else { return false }
        return reachesDataProtection(spec, on: device, world)
    }

    /// Whether a call reaches the data-protection keychain: not a Mac call
    /// with data-protection=false, which reaches the file keychain alone,
    /// where neither synchronizable nor an accessibility class means
    /// anything (SecItem.cpp 4136-4139; kcs's file keychain ignores both).
    /// For KCS507 and KCS516.
    static func reachesDataProtection(_ spec: ItemSpec, on device: DeviceHandle, _ world: World) -> Bool {
        !(world.platform(of: device).family == .macos && spec.useDataProtectionKeychain == false)
    }

    /// Whether the synchronizable matches a successful call left out are
    /// counted (KCS507, `explain`): it takes every match, and the keychain is
    /// small, as for the near misses: each delete of a large one would walk
    /// its matches again.
    static func countsLeftOutSync(_ request: CallRequest, on device: DeviceHandle, _ world: World) -> Bool {
        takesEveryMatch(request) && world.keychainCount(on: device) <= nearMissLimit
    }

    /// Whether a call acts on every match of its query: a delete, an update
    /// (securityd changes every match), a find for all or several.
    static func takesEveryMatch(_ request: CallRequest) -> Bool {
        switch request.operation {
        case .add: false
        case .update, .delete: true
        case .find:
            switch request.spec.limit {
            case .all?: true
            case .count(let n)?: n > 1
            default: false
            }
        }
    }

    /// The first attribute the call names (in its query or its changes)
    /// that is not of its class, by the one table of which attributes each
    /// class has (``ItemAttribute/applies(to:)``, SecItemSchema.c), with
    /// the class. An identity takes its certificate's and its key's.
    static func foreignAttribute(_ request: CallRequest) -> (ItemAttribute, ItemClass)? {
        guard let itemClass = request.spec.itemClass else { return nil }
        // By index: `first(where:)` would copy each entry, value and all.
        let entries = request.spec.attributes.entries
        for i in entries.indices where !entries[i].attribute.applies(to: itemClass) { return (entries[i].attribute, itemClass) }
        if request.operation == .update, let changes = request.changes?.attributes.entries {
            for i in changes.indices where !changes[i].attribute.applies(to: itemClass) { return (changes[i].attribute, itemClass) }
        }
        return nil
    }

    /// The route for a writer that cannot name a group (KCS505, KCS502):
    /// a library without an access-group option stores in the default
    /// group, element 0 of the list, so one Keychain Sharing group first in
    /// both targets' keychain-access-groups is both default groups
    /// (react-native-encrypted-storage issue 93, GTMAppAuth issue 95; QA s22, Q02).
    static func noGroupOptionRoute(_ writer: String, _ reader: String) -> String {
        "; or, when the writer cannot pass a group (a library without an access-group option, such as react-native-encrypted-storage "
            + "or GTMAppAuth), list one Keychain Sharing group first in the keychain-access-groups of both \(writer) and \(reader): "
            + "it becomes the default group of both"
    }

    /// The attributes a class has, by kcs name: `service, account, …`.
    static func attributeNames(of itemClass: ItemClass) -> String {
        ItemAttribute.allCases.filter { $0.applies(to: itemClass) }.map { Vocabulary.name(of: $0) }.joined(separator: ", ")
    }

    /// Whether a group named in the call (`group=` or `set group=`) can make
    /// a rule fire: one the caller lacks, any on macOS, a move, or any for
    /// an extension (which may read what its app writes).
    @inline(__always)  // out of line, it was passed a copy of the world
    private func namedGroupCanFire(_ request: CallRequest, _ app: AppHandle, _ device: DeviceHandle, _ status: KeychainStatus) -> Bool {
        if request.operation == .update, request.changes?.accessGroupText != nil { return true }
        // Only an update has attributes to change (the lowering refuses `set`
        // elsewhere), so past this line the call names at most the query's
        // group; the optional changes are not read again (each read copied them).
        guard let g = request.spec.accessGroupText else { return false }
        let platform = world.platform(of: device)
        if platform.family == .macos || world.kind(of: app) == .extension { return true }
        // A call succeeds only with groups in the caller's list (add and the
        // queries check them first); where the engine asks the same list as
        // `isEntitled` (not the Mac daemon's), success settles it.
        if status == .success && !platform.usesMacDaemon { return false }
        return lackedGroupCanFire(g, app)
    }

    /// Whether the team-prefix rules can fire for a group the call names:
    /// the caller lacks it and it holds a variable, names an entitled group
    /// without its prefix, or puts a team prefix before an app group. The
    /// group of other apps (the common unentitled case) is none of these,
    /// and costs a pass or two over its bytes.
    /// Out of line, and reading the session's world: passed the world, it
    /// was inlined into the gate, and the copy of the world `lacks` needs
    /// was made for every call, not only for the calls that name a group.
    /// The group is read as the call's text, its bytes in place: no String
    /// is made for it.
    @inline(never)
    private func lackedGroupCanFire(_ g: AttributeText, _ app: AppHandle) -> Bool {
        let (lacks, mayBeUnprefixed) = world.lacks(g, app: app)
        guard lacks else { return false }
        if mayBeUnprefixed { return true }
        let target = world[app]
        return g.bytesPass { b in
            if AppTarget.hasBuildVariable(in: b) || EntitlementShape.mayPrefixAppGroup(bytes: b) { return true }
            // The team ID alone (QA s20, Q08): one comparison of ten bytes.
            func isBytes(of s: String?) -> Bool { s.map { $0.utf8.count == b.count && b.elementsEqual($0.utf8) } ?? false }
            return isBytes(of: target.teamID) || isBytes(of: target.appIDPrefix)
        }
    }

    /// The rules, for a call that passed the cheap test above.
    private func lintWarnings(_ request: CallRequest, _ last: LastCall, _ s: Statement, _ file: SourceFile, missed: Bool,
                              chosenAccessibility: Bool, addToDefault: Bool) -> [Diagnostic] {
        let result = last.result
        let spec = request.spec
        let app = world[last.app]
        var out: [Diagnostic] = []
        func warn(_ code: DiagnosticCode, _ message: String, _ hint: String, notes: [DiagnosticNote] = [],
                  fixIts: [FixIt] = []) {
            var d = Diagnostic(code, message, file: file, range: s.range, severity: .warning, hint: hint, notes: notes)
            d.fixIts = fixIts
            out.append(d)
        }
        let namedGroups = [spec.accessGroup, request.changes?.accessGroup].compactMap { $0 }
        /// A group another app lists, or items live in: a real group, whatever its shape.
        func isHeld(_ g: String) -> Bool {
            world.firstOtherApp(accessing: g, besides: last.app) != nil || world.holdsItems(inGroup: g, on: last.device)
        }

        // A Keychain Sharing group written without its team prefix.
        for g in namedGroups where !world.isEntitled(last.app, to: g) {
            if AppTarget.hasBuildVariable(g) {
                warn(.lintMissingTeamPrefix, "group \"\(g)\" holds a build variable: only the entitlements file is expanded, and code passes this text as it is",
                     "write the group with the team ID, e.g. group=\(AppTarget.expandEntitlement(g, teamID: app.teamID ?? "TEAMID"))")
            } else if let prefixed = app.prefixedGroup(for: g) {
                let fix = Self.valueRanges(of: .group, in: s, file).first { file.text($0).trimmingQuotes == g }
                    .map { [FixIt("write group=\(prefixed)", range: $0, replacement: prefixed)] } ?? []
                warn(.lintMissingTeamPrefix, "group \"\(g)\" lacks the team prefix; \(app.name) is entitled to \(prefixed)",
                     "did you mean \(prefixed)? write group=\(prefixed): Keychain Sharing groups carry the team ID in code",
                     fixIts: fix)
            } else if g == app.teamID || g == app.appIDPrefix, let example = app.accessGroups.first(where: { $0.hasPrefix(g + ".") }) {
                // The team ID alone, flutterfire's "team group ID" (QA s20, Q08).
                warn(.lintMissingTeamPrefix, "group \"\(g)\" is \(app.name.possessive) team ID alone, not a group: a keychain group is the team ID and a name",
                     "write the group in full, e.g. group=\(example)")
            } else if app.listsApplicationGroups, let f = EntitlementShape.callGroup(g, callerName: app.name, isEntitled: { world.isEntitled(last.app, to: $0) },
                                                              isHeld: isHeld) {
                warn(f.code, f.message, f.hint)
            }
        }
        /// The group a fix should name: the one the other warnings correct it to.
        func corrected(_ g: String) -> String {
            if app.accessGroups.contains(g) { return g }
            if let prefixed = app.prefixedGroup(for: g) { return prefixed }
            if app.listsApplicationGroups, let team = EntitlementShape.teamPrefix(of: g), EntitlementShape.callGroup(g, caller: app, isHeld: isHeld) != nil {
                return String(g.dropFirst(team.count + 1))
            }
            return g
        }

        // An extension reading what its containing app writes, without the group.
        if app.kind == .extension, request.operation != .add, let container = containingApp(of: app) {
            var missing: [String] = []
            for g in namedGroups where !world.isEntitled(last.app, to: g) && container.accessGroups.contains(g) {
                missing.append(g)
            }
            if namedGroups.isEmpty, result.status == .itemNotFound {
                let lacking = container.accessGroups.filter { !world.isEntitled(last.app, to: $0) }
                missing += world.groupsWithMatches(of: request, in: lacking, on: last.device)
            }
            if let g = missing.first {
                // When the two already share a group, the fix is to use it (as
                // KCS505 says on the add), not to add another; otherwise the fix
                // adds the group to the extension only: the app has it.
                // A Keychain Sharing group the app lists is meant to be
                // shared: listing it in the extension comes first, the fix
                // expo-share-extension issue 90 took (QA s20, Q13). The app's
                // private group is not offered.
                let fix = container.accessGroups.first { $0 != g && app.accessGroups.contains($0) }.map { shared in
                    container.keychainAccessGroups.contains(g)
                        ? "give \(app.name) the group too (\(app.groupStatement(g))), or store the item in \(shared), "
                            + "which \(container.name) and \(app.name) already share (group=\(shared) on the add)"
                        : "\(container.name) and \(app.name) already share \(shared): store the item there (group=\(shared) on the add)"
                        + (namedGroups.isEmpty ? Self.noGroupOptionRoute(container.name, app.name) : "")
                } ?? "give \(app.name) the group too (\(app.groupStatement(g)))"
                warn(.lintExtensionGroup,
                     "\(app.name) is an extension of \(container.name) and reads \(g), which \(container.name) writes but \(app.name) does not list",
                     "an extension inherits nothing from its app: " + fix)
            }
        }

        // Synchronizable with a this-device-only accessibility; deprecated `always`.
        for (what, item) in chosenAccessibility ? [("", Optional(spec)), ("set ", request.changes)] : [] {
            guard let item else { continue }
            let accessibility = item.accessibility ?? item.accessControl.flatMap { $0.protectionIsExplicit ? $0.protection : nil }
            // With an access control the call itself is refused (errSecParam:
            // access control is never synchronizable), and "stored but never
            // synced" misled (found checking reported device behaviour).
            if request.operation == .add || !what.isEmpty, item.synchronizable == .yes, item.accessControl == nil,
               let a = accessibility, a.isThisDeviceOnly {
                // Never suggest what KCS504 warns about: `always` becomes after-first-unlock.
                let synced = a.isDeprecated ? "after-first-unlock" : a.rawValue.replacingThisDeviceOnly
                warn(.lintSyncThisDeviceOnly, "\(what)sync=true with \(a.rawValue): the item is stored but never synced",
                     "this-device-only items never leave the device; drop sync=true, or use \(synced)")
            }
            if let a = accessibility, a.isDeprecated {
                warn(.lintDeprecatedAccessibility, "accessibility \(a.rawValue) (\(a.constantName)) is deprecated since iOS 12",
                     "use \(a == .always ? "after-first-unlock" : "after-first-unlock-this-device-only"): the nearest class that is not deprecated, readable from the first unlock after a restart (\(a.rawValue) needs no unlock)")
            }
        }

        // An app group relied on as the default group: one of the groups the
        // caller gets. An App Clip's app groups are not among them (securityd
        // ignores them for a clip), and naming one is errSecMissingEntitlement
        // (real-project trial 18, D2: KCS505 told Delta Chat's clip to).
        // An extension whose first keychain group is its own, while its
        // app's default group comes later in its list: what each adds
        // without a group lands in its own default group, so the app never
        // sees the extension's items (rdar 20744541, DTS: "the default value
        // is the first array element in the effective keychain access groups
        // list"; a Watch extension listed …watchkitextension first; QA s23, Q03).
        var ownFirst = false
        if addToDefault, app.kind == .extension, let stored = result.items.first?.groupName, stored != World.fileKeychainGroupName,
           let container = containingApp(of: app), let containerHandle = world.app(named: container.name),
           let shared = world.defaultGroup(of: containerHandle, on: last.device), shared != stored,
           world.accessGroups(of: last.app, on: last.device).contains(shared),
           !world.accessGroups(of: containerHandle, on: last.device).contains(stored) {
            ownFirst = true
            warn(.lintAppGroupDefault,
                 "this add stores the item in \(stored), \(app.name)'s default group (element 0 of its list), which \(container.name) cannot read; "
                    + "\(container.name)'s default group, \(shared), comes later in \(app.name)'s list",
                 "list \(shared) first in \(app.name)'s keychain-access-groups, as \(container.name) does, so that both store what names no group there; "
                    + "or name it, group=\(shared)")
        }

        if !ownFirst, addToDefault, let stored = result.items.first?.groupName, app.listsApplicationGroups, !app.applicationGroups.isEmpty {
            let defaultShared = world.firstOtherApp(accessing: stored, besides: last.app) != nil
            // App groups appear in other apps' lists only as app groups (they start "group.").
            if !defaultShared,
               let (shared, partnerHandle) = app.applicationGroups.lazy
                   .compactMap({ g in world.firstOtherApp(accessing: g, besides: last.app).map { (g, $0) } }).first {
                let partner = world[partnerHandle]
                warn(.lintAppGroupDefault,
                     "this add stores the item in \(stored), \(app.name)'s default group, not in \(shared), which \(partner.name) shares",
                     (app.applicationGroups.contains(stored)
                         ? "the default group is element 0 of the list: name the shared one, group=\(shared)"
                         : "an app group is never the default group while the app has an app ID or keychain-access-groups: name it, group=\(shared)")
                        + Self.noGroupOptionRoute(app.name, partner.name))
            }
        }

        // macOS: a group in a call that goes to the file-based keychain.
        // Not for the group of a move to the data-protection keychain (`set
        // sync=true group=…`: the moved item is added to it).
        let movesToDataProtection = request.operation == .update && request.changes?.synchronizable == .yes
        if world.platform(of: last.device).family == .macos, !namedGroups.isEmpty, !World.usesDataProtection(spec),
           !(movesToDataProtection && spec.accessGroupText == nil) {
            // A query searches both keychains: the group counts on the data-protection side only.
            // A caller no keychain entitlement counts for (a bare command-line
            // tool, an app without a provisioning profile) gets errSecMissingEntitlement
            // there (its list is com.apple.token alone, server_entitlement_helpers.c
            // lines 166-176): the flag is no fix for it (KeychainAccess issue 382; QA s22, Q26).
            // An empty list (an app ID no profile validates, nothing else) is refused as well.
            let noEntitlement = world.hasOnlyTokenGroup(last.app, on: last.device) || world.accessGroups(of: last.app, on: last.device).isEmpty
            warn(.lintFileKeychainGroup, request.operation == .add
                    ? "on macOS this call goes to the file-based keychain, which ignores group="
                    : "on macOS this query also searches the file-based keychain, which ignores group=",
                 noEntitlement
                    ? "\(app.name) has no keychain entitlement that counts on the Mac (no app ID a provisioning profile validates, no keychain-access-groups; "
                        + "a bare command-line tool cannot carry a profile), so data-protection=true gives it errSecMissingEntitlement: keep the file keychain and put "
                        + "\(app.name) on the item's access list (Always Allow, or the SecAccess trusted applications of the add), or ship it as an app-like bundle with its own provisioning profile"
                    : "add data-protection=true (kSecUseDataProtectionKeychain) so the access group counts")
        }

        // A query that skips synchronizable items because it says nothing
        // of sync: asked through the indexes, so it costs one lookup. Not for
        // the Mac's file keychain alone (data-protection=false), where
        // synchronizable means nothing. A miss, or a call that takes every
        // match (`delete`, `update`, `limit=all`) and so leaves them behind.
        if missed || result.status == .success && Self.countsLeftOutSync(request, on: last.device, world),
           Self.syncFilterSkips(spec, on: last.device, world) {
            let syncOnly = world.matchCount(of: request, as: last.app, on: last.device, sync: .yes)
            if syncOnly > 0 {
                let one = syncOnly == 1
                let items = "\(syncOnly) synchronizable item\(one ? "" : "s")"
                let (message, fix) = switch (missed, request.operation) {
                case (true, _): ("the query does not say sync=, so it skips synchronizable items; \(items) would match", "find both kinds")
                case (false, .delete):
                    ("the delete does not say sync=, so it leaves synchronizable items; \(items) matching it \(one ? "stays" : "stay")", "delete both kinds")
                case (false, .update):
                    ("the update does not say sync=, so it leaves synchronizable items unchanged; \(items) \(one ? "matches" : "match")", "change both kinds")
                default:
                    ("the query does not say sync=, so it skips synchronizable items; \(items) also \(one ? "matches" : "match")", "find both kinds")
                }
                warn(.lintSyncFilter, message, "add sync=any (kSecAttrSynchronizableAny) to \(fix), or sync=true")
            }
        }

        // An accessibility in a read query (QA s21, Q14/Q21/Q06; s19 Q20,
        // s20 Q26): securityd keeps kSecAttrAccessible in a query as a
        // search attribute (SecDbQuery.c query_add_attribute_with_desc), so
        // the items an older build or another code path stored with another
        // class are not found, changed or deleted. Not for an update that
        // sets a class: a migration selects by the old class on purpose. Not
        // for a Mac call on the file keychain alone, which has no classes
        // (review 22a, R7).
        if request.operation != .add, let wanted = spec.accessibility, Self.reachesDataProtection(spec, on: last.device, world),
           !(request.operation == .update && (request.changes.map { $0.accessibility != nil || $0.accessControl != nil } ?? false)) {
            var wide = request
            wide.spec.accessibility = nil
            let sync = spec.searchedSync
            let leftOut = world.matchCount(of: wide, as: last.app, on: last.device, sync: sync)
                - world.matchCount(of: request, as: last.app, on: last.device, sync: sync)
            let items = "\(leftOut) item\(leftOut == 1 ? "" : "s") stored with another class"
            let verb = switch request.operation {
            case .find: "find"
            case .update: "update"
            default: "delete"
            }
            // Under the lock the filter may be what lets the call succeed: an
            // unfiltered find stops at the first when-unlocked match with
            // errSecInteractionNotAllowed (SecItemDb.c s3dl_query_row, lines
            // 593-603), and SAMKeychain pull request 94 fixed its background
            // fetchAll by adding the class to the query. Dropping the filter,
            // as the usual hint says, brings the error back (QA s23, Q21).
            // Asked of a copy of the world, only here: a find that left
            // items out while the device is locked.
            var lockedOut: Accessibility?
            if !missed, leftOut > 0, request.operation == .find, !world[last.device].state.isUnlocked {
                var probe = world
                if probe.perform(wide, as: last.app, on: last.device).status == .interactionNotAllowed {
                    let state = world[last.device].state
                    lockedOut = world.matches(for: wide, as: last.app, on: last.device)
                        .first { !state.isAvailable($0.item.accessibility) }?.item.accessibility
                }
            }
            let message: String? = switch (missed, leftOut > 0) {
            case (true, true): "accessible=\(wanted.rawValue) in a query is a filter: this \(verb) skips \(items), which would match without it"
            case (true, false):
                "accessible=\(wanted.rawValue) in a query is a filter, not a setting: an item an older build or another code path stored with another class (when-unlocked by default) is not found"
            case (false, true):
                lockedOut.map { held in
                    "accessible=\(wanted.rawValue) in a query is a filter: this \(verb) leaves out \(items) (\(held.rawValue)), and that is what lets it succeed "
                        + "while \(world[last.device].label) is locked: without the filter it stops at that item with errSecInteractionNotAllowed"
                } ?? "accessible=\(wanted.rawValue) in a query is a filter: this \(verb) leaves out \(items)"
            case (false, false): nil
            }
            if let message {
                warn(.lintAccessibilityFilter, message, lockedOut != nil
                     ? "keep the filter until no item of another class is left: move the left-out item while the device is unlocked "
                        + "(update … set accessible=\(wanted.rawValue), kSecAttrAccessible in the attributes to update), then drop accessible= from the query"
                     : "drop accessible= from the query: set the class on add, and move existing items with update … set accessible=\(wanted.rawValue) (kSecAttrAccessible in the attributes to update)")
            }
        }

        // A class-only update that writes data: SecItemUpdate changes every
        // match (no match limit: _SecItemUpdate makes its query with
        // kSecMatchUnlimited, SecItemServer.c), so every password the app
        // reaches now holds the same data (WordPress-iOS pull request 2757
        // passed an empty dictionary from a find that returned nothing as
        // the query, "effectively replacing the password of every item in
        // the keychain"; QA s21, Q27).
        if request.operation == .update, result.status == .success, result.count > 1, request.changes?.dataText != nil,
           spec.attributes.isEmpty, spec.accessGroupText == nil, spec.persistentRef == nil, let itemClass = spec.itemClass {
            warn(.lintClassOnlyUpdate,
                 "this update's query names only the class: it wrote the same data into all \(result.count) \(itemClass.rawValue) items \(app.name) reaches",
                 "name the item in the query (service= and account= for a password): SecItemUpdate changes every item that matches")
        }

        // An attribute the class does not have (OAuthKit issue 81: an
        // application tag on generic passwords passed a year of macOS CI and
        // failed on visionOS; QA s22, Q14). The data-protection keychain
        // refuses it (SecItemDb.c line 86, "attribute %@ not found in class
        // %@": errSecNoSuchAttr); the Mac's file keychain converts through the
        // class's attribute table and drops what is not there (SecItem.cpp
        // _ConvertNewFormatToOldFormat, lines 1467-1472).
        if let (attribute, itemClass) = Self.foreignAttribute(request) {
            let name = "\(Vocabulary.name(of: attribute)) (\(attribute.constantName))"
            let article = itemClass == .internetPassword || itemClass == .identity ? "an" : "a"
            let drops = World.reachesFileKeychain(spec, on: world.platform(of: last.device))
            warn(.lintAttributeOfAnotherClass,
                 drops
                    ? "\(name) is not \(article) \(itemClass.rawValue) attribute: the Mac's file-based keychain drops it without a word, so this call "
                        + "\(result.status == .success ? "succeeds" : "goes on") and a test on macOS alone passes; iOS, watchOS, Mac Catalyst and data-protection=true answer errSecNoSuchAttr"
                    : "\(name) is not \(article) \(itemClass.rawValue) attribute: the data-protection keychain answers errSecNoSuchAttr "
                        + "(iOS, watchOS, Mac Catalyst, data-protection=true); only the Mac's file-based keychain takes the call, and drops it",
                 "drop \(Vocabulary.name(of: attribute))=: \(itemClass.rawValue) items have \(Self.attributeNames(of: itemClass))")
        }

        // A delete of an item an earlier find got errSecInteractionNotAllowed
        // for, while the device is still locked: the read's status said the
        // item exists; the delete needs no class key (SecItemDb.c
        // s3dl_query_delete, line 1407), so the data is gone. The
        // catch-the-read-error, delete, regenerate pattern (flutter_secure_storage
        // issue 727, and issue 354's "best workaround" deleteAll(); QA s22, Q30).
        if request.operation == .delete, result.status == .success, !lockedReads.isEmpty {
            let state = world[last.device].state
            var hit: (item: FoundItem, read: LockedReads.Read)?
            var count = 0
            for found in result.items where !state.isAvailable(found.item.accessibility) {
                guard let read = lockedReads.read(of: found, on: last.device) else { continue }
                count += 1
                if hit == nil { hit = (found, read) }
            }
            if let (found, read) = hit {
                let at = read.file == file.name ? "line \(read.line)" : "\(read.file):\(read.line)"
                let device = world[last.device].label
                warn(.lintDeleteAfterLockedRead,
                     "this delete removes \(count == 1 ? "an item" : "\(count) items") the find at \(at) got errSecInteractionNotAllowed for "
                        + "(\(Explainer.describe(found.item, groupName: found.groupName)), \(found.item.accessibility.rawValue)): "
                        + "\(count == 1 ? "it" : "they") existed and \(device) is locked, so \(count == 1 ? "its" : "their") data is lost for good",
                     "errSecInteractionNotAllowed on a read means the item exists and the device is locked, not that it is broken: "
                        + "do not delete or regenerate on it; retry after the unlock (UIApplication.protectedDataDidBecomeAvailableNotification), "
                        + "or store the item after-first-unlock if it must be read in the background")
            }
        }

        // The upsert of keychain wrappers: add with the class the caller
        // wants, and on errSecDuplicateItem update the data alone. An update
        // changes only what its attributes to update name
        // (SecItemServer.c _SecItemUpdate), so the item keeps the class it
        // was first stored with, and a read under the lock goes on failing
        // with no error anywhere: expo-secure-store until pull request 49128,
        // SwiftKeychainWrapper (pull request 128's README note),
        // capacitor-secure-storage-plugin issue 54 (QA s23, Q20, Q11).
        if request.operation == .update, result.status == .success, !duplicateAdds.isEmpty,
           request.changes.map({ $0.accessibility == nil && $0.accessControl == nil }) ?? true {
            let keychain = world[last.device].keychain
            for found in result.items where found.groupName != World.fileKeychainGroupName {
                guard let now = keychain[found.id], let add = duplicateAdds.add(of: now, id: found.id, on: last.device),
                      add.differs(from: now) else { continue }
                let at = add.file == file.name ? "line \(add.line)" : "\(add.file):\(add.line)"
                let kept = now.accessControl == nil || add.accessControl != nil && now.accessControl != add.accessControl
                    ? now.accessibility.rawValue + (now.accessControl == nil ? "" : " and its access control") : now.accessibility.rawValue
                warn(.lintUpdateKeepsClass,
                     "this update leaves \(Explainer.describe(now, groupName: found.groupName)) \(kept): the add at \(at) asked \(add.asked) "
                        + "and met errSecDuplicateItem, so its class never applied, and an update changes only what its set names",
                     "put the class in the update: set … \(add.asked) (\(add.constant) in the attributes to update), as expo pull request 49128 did; "
                        + "the update may select by the old class, not by the new one")
                break
            }
        }

        if missed {
            // Looking for near misses walks the caller's searched groups:
            // only in small keychains, so a large generated scenario stays linear.
            // Service or account differing between the writer and the reader,
            // and nothing else (a typo, a case or a prefix, not another item).
            // An item synced onto a locked device waits for the unlock: no typo.
            // The queue is walked too: only while it is as small (a find per
            // queued item was finds × queue; review 20, R8).
            if world.keychainCount(on: last.device) <= Self.nearMissLimit,
               world.incomingCount(on: last.device) <= Self.nearMissLimit,
               !world.waitsInIncomingQueue(request, as: last.app, on: last.device),
               let c = world.firstNearMiss(for: request, as: last.app, on: last.device, accepting: { a, have, wanted in
                   guard a == .service || a == .account, case .string(let have) = have, case .string(let wanted) = wanted
                   else { return false }
                   return Self.looksAlike(have.string, wanted.string)
               }),
               case .attribute(let a, .string(let have), .string(let wanted)) = c.reasons.first {
                let name = Vocabulary.name(of: a)
                // Two targets' bundle IDs as the services: a wrapper's default
                // service (Locksmith, SwiftKeychainWrapper and KeychainAccess
                // take Bundle.main.bundleIdentifier), which differs per target.
                let bundleIDs = a == .service && [have.string, wanted.string].allSatisfy { s in world.apps.contains { $0.bundleID == s } }
                warn(.lintServiceAccount,
                     "the query asks \(name)=\(Self.quoted(wanted.string)), but the stored item has \(name)=\(Self.quoted(have.string)); nothing else differs",
                     "writer and reader must use the same service and account: write \(name)=\(Self.quoted(have.string))"
                        + (bundleIDs ? "; both are bundle IDs, as a keychain wrapper's default service (Bundle.main.bundleIdentifier) is "
                            + "in each target: give the wrapper one service name in both" : ""),
                     notes: [DiagnosticNote("the item: " + Explainer.describe(c.item, groupName: c.groupName))])
            }
        }

        // A match limit on an add: securityd's s3dl_query_add (SecItemDb.c)
        // answers errSecItemMatchUnsupported from a bool function, so iOS and
        // watchOS report success and store nothing; the Mac's client drops it.
        if request.operation == .add, spec.limit != nil {
            warn(.lintLimitOnAdd, "this add names a match limit: on iOS and watchOS such an add reports errSecSuccess and stores nothing",
                 "drop limit= from the add: a match limit belongs to a find")
        }

        // A reference alone to a password where the client makes none
        // (Platform.makesReferences(to:)): success and nothing back.
        if spec.returns == .reference, request.operation == .add || request.operation == .find,
           let itemClass = spec.itemClass, !world.platform(of: last.device).makesReferences(to: itemClass) {
            warn(.lintPasswordReference, "return=ref alone gives nothing for a \(itemClass.rawValue) on \(world.platform(of: last.device).family.rawValue): the SecItem client makes references to passwords only on the Mac",
                 "ask for return=persistent-ref (a handle that finds the item again) or return=attributes")
        }

        // Moving items with update into a group the caller lacks: refused,
        // with a status that changed in iOS 13. A move into a group it has
        // works on every modelled version (SecServerItemUpdate checks only
        // the new group against the caller's, Security-57336 to 61901;
        // conformance audit 24, F2: this warned on every move).
        if request.operation == .update, let g = request.changes?.accessGroup, !world.isEntitled(last.app, to: g) {
            let fix = corrected(g)
            // The release that changed the status, the calling device's
            // (a macOS script was told of iOS 13; QA s20, Q04).
            let from: String
            switch world.platform(of: last.device).family {
            case .ios, .catalyst: from = "iOS 13"
            case .watchos: from = "watchOS 6"
            case .macos: from = "macOS 10.15"
            }
            warn(.lintGroupMove, "this update moves items to \(Self.quoted(g)), a group \(app.name) lacks: refused, errSecMissingEntitlement from \(from), errSecNoAccessForItem before",
                 "a move into a group the app has works on every version: "
                    + (fix != g && world.isEntitled(last.app, to: fix) ? "move it to \(fix)" : "give \(app.name) the group, or move it to one it has"))
        }
        return out
    }

    package static func quoted(_ s: String) -> String { "\"" + s + "\"" }

    /// Where the values of `key` are written in a statement (`group=X`,
    /// `kSecAttrAccessGroup="X"`), found with the lexer and the vocabulary:
    /// for a fix that rewrites the value. Only on the warning path.
    static func valueRanges(of key: ArgumentKey, in s: Statement, _ file: SourceFile) -> [SourceRange] {
        // The statement alone is lexed, so the cost does not grow with the file.
        let start = s.range.start
        let statement = SourceFile(name: file.name, bytes: Array(file.bytes[start..<min(s.range.end, file.bytes.count)]))
        var lexer = Lexer(file: statement)
        var tokens: [Token] = []
        while true {
            let t = lexer.next()
            if case .end = t.kind { break }
            tokens.append(t)
        }
        var out: [SourceRange] = []
        for i in tokens.indices.dropLast(2) {
            guard case .word = tokens[i].kind, case .equals = tokens[i + 1].kind,
                  Vocabulary.argumentKey(named: statement.text(tokens[i].range)) == key else { continue }
            switch tokens[i + 2].kind {
            case .word, .string: out.append(SourceRange(start + tokens[i + 2].range.start, start + tokens[i + 2].range.end))
            default: break
            }
        }
        return out
    }

    /// Keychains up to this size are searched for service/account near misses;
    /// the same bound keeps the other searches for a likely cause (a
    /// delete's synchronizable matches, the match a locked query stopped at,
    /// other apps' default groups) from walking a generated world per call.
    static let nearMissLimit = 200

    /// Whether two names are probably meant to be the same: equal but for
    /// case, one inside the other (a bundle-ID prefix), or one typo apart.
    package static func looksAlike(_ a: String, _ b: String) -> Bool {
        guard a != b, !a.isEmpty, !b.isEmpty else { return false }
        let la = a.lowercased(), lb = b.lowercased()
        if la == lb || la.hasSuffix("." + lb) || lb.hasSuffix("." + la) || la.hasPrefix(lb + ".") || lb.hasPrefix(la + ".") {
            return true
        }
        return min(a.count, b.count) >= 4 && Suggest.closest(to: a, in: [b]) != nil
    }

    /// The app an extension belongs to: the longest bundle ID that prefixes
    /// the extension's, among the apps of the same team. Asked of the
    /// session's index by the extension's dot-prefixes, longest first (a
    /// filter over every app per call took 30 s for 20,000 apps; found by
    /// adversarial testing).
    func containingApp(of ext: AppTarget) -> AppTarget? {
        let apps = world.apps
        guard appIndex.count == apps.count else {
            return apps.filter { $0.kind != .extension && $0.teamID == ext.teamID && ext.bundleID.hasPrefix($0.bundleID + ".") }
                .max { $0.bundleID.count < $1.bundleID.count }
        }
        var rest = Substring(ext.bundleID)
        while let dot = rest.lastIndex(of: ".") {
            rest = rest[..<dot]
            for i in appIndex.byBundleID[String(rest)] ?? [] where apps[i].kind != .extension && apps[i].teamID == ext.teamID {
                return apps[i]
            }
        }
        return nil
    }

    /// Entitlement-shape warnings for an app just declared: its inline
    /// lists or its entitlements file, checked by ``EntitlementShape``.
    func entitlementWarnings(_ decl: AppDeclaration, _ file: SourceFile, _ range: SourceRange) -> [Diagnostic] {
        guard let handle = world.app(named: decl.name) else { return [] }
        let app = world[handle]
        // The file's previous-application-identifiers, whose groups are the
        // app's own (trial 15, D2): read again here, the one place that
        // needs them, rather than kept on every app of the world.
        var previous: Set<String> = []
        var fromProfile = false
        if let path = decl.entitlements, let source = try? loader.read(loader.resolve(path.text, relativeTo: file.name)),
           case .success(let e) = Entitlements.decode(source.bytes) {
            previous = e.previousAppIDPrefixes
            fromProfile = e.source == .profile
        }
        let findings = EntitlementShape.check(keychainAccessGroups: app.keychainAccessGroups,
                                              applicationGroups: app.applicationGroups, teamID: app.teamID,
                                              // A Mac device in the scenario takes Mac app groups
                                              // (TEAMID.name) too: the app runs there as well.
                                              macOS: world.platform.family == .macos
                                                  || world.devices.contains { $0.platform?.family == .macos },
                                              bundleIDs: appIndex.count == world.apps.count ? appIndex.bundleIDs
                                                  : BundleIDIndex(world.apps.map(\.bundleID)),
                                              appIDPrefix: app.appIDPrefix, previousAppIDPrefixes: previous,
                                              fromProfile: fromProfile)
        // Where each group was first written, by name: a search of the list
        // per finding was the square of a 100,000-group list (found by
        // adversarial testing).
        var writtenAt: [String: SourceRange] = [:]
        for name in (decl.keychainAccessGroups ?? []) + (decl.applicationGroups ?? []) where writtenAt[name.text] == nil {
            writtenAt[name.text] = name.range
        }
        var out = findings.map { f in
            if let path = decl.entitlements {
                return Diagnostic(f.code, "\(path.text): \(f.message)", file: file, range: path.range, severity: .warning, hint: f.hint)
            }
            let at = writtenAt[f.group] ?? range
            return Diagnostic(f.code, f.message, file: file, range: at, severity: .warning, hint: f.hint)
        }
        if let d = unlaunchedWarning(handle, file, decl.entitlements?.range ?? range) { out.append(d) }
        return out
    }

    /// Whether the world has a device that runs Mac apps (macOS or Mac Catalyst).
    var hasMacDevice: Bool { world.hasMacDevice }

    /// KCS514. keychain-access-groups is a restricted entitlement on the
    /// Mac: a profile must allow it, or AMFI refuses to launch the app
    /// ("Restricted entitlements not validated"; Apple's TN3125). securityd
    /// honours the groups without validation for that reason ("AMFI would
    /// not allow client to run if it would have k-a-g entitlement and not
    /// being properly signed", server_entitlement_helpers.c line 122, in
    /// SecTaskCopyAccessGroups), but no call is ever made. Asked where the
    /// app is declared, where `group` gives it a first keychain group, and
    /// where a first Mac device is declared (found by review).
    /// `resign` off the Mac (KCS515): only the Mac's file keychain trusts
    /// an app by its code signature (its access lists keep the designated
    /// requirement); the data-protection keychain, the only one on iOS,
    /// watchOS and for Mac Catalyst apps, goes by the access groups of the
    /// app's entitlements, which a new signature keeps (semantics-notes.md,
    /// "resign"). The statement runs and changes nothing: said, so a
    /// scenario that expects a re-signed app to lose its items knows why
    /// it does not (review 19, R17).
    func resignWarning(_ platform: Platform, _ file: SourceFile, _ range: SourceRange) -> Diagnostic {
        let on = switch platform.family {
        case .ios: "an iOS device"
        case .watchos: "a watch"
        case .catalyst: "a Mac Catalyst device"
        case .macos: "a Mac"
        }
        return Diagnostic(.lintResignWithoutFileKeychain,
                          "resign changes nothing on \(on): only the Mac's file keychain trusts an app by its code signature; "
                            + "the data-protection keychain goes by the access groups of its entitlements, which a new signature keeps",
                          file: file, range: range, severity: .warning,
                          hint: "to model the app losing its groups, give it other entitlements (transfer APP to TEAM, or another app line); "
                            + "on a Mac (platform macos), resign makes the file keychain's items it made ask it again")
    }

    func unlaunchedWarning(_ handle: AppHandle, _ file: SourceFile, _ range: SourceRange) -> Diagnostic? {
        let app = world[handle]
        guard app.signing == .unprovisioned, !app.keychainAccessGroups.isEmpty, hasMacDevice else { return nil }
        return Diagnostic(.lintUnprovisionedKeychainGroups,
                          "\(app.name) has keychain-access-groups and no provisioning profile: the Mac does not launch it "
                            + "(keychain-access-groups is a restricted entitlement; AMFI: \"restricted entitlements not validated\"); "
                            + "its calls below get what securityd would answer if it ran",
                          file: file, range: range, severity: .warning,
                          hint: "embed a provisioning profile that allows the groups (development or Developer ID), "
                            + "or drop keychain-access-groups and use the file-based keychain")
    }
}

/// The items finds got errSecInteractionNotAllowed for because of the lock
/// (KCS518), by device and slot, with the item as it was then (a slot freed
/// and used again holds another item) and where the find was.
struct LockedReads: Sendable {
    struct Read: Sendable {
        var item: StoredItem
        var file: String
        var line: Int
    }

    private var reads: [DeviceHandle: [ItemID: Read]] = [:]
    /// Items kept at most: a generated scenario of locked finds stays bounded.
    static let limit = 1_000
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func note(_ found: FoundItem, on device: DeviceHandle, file: String, line: Int) {
        guard count < Self.limit || reads[device]?[found.id] != nil else { return }
        if reads[device]?[found.id] == nil { count += 1 }
        reads[device, default: [:]][found.id] = Read(item: found.item, file: file, line: line)
    }

    func read(of found: FoundItem, on device: DeviceHandle) -> Read? {
        guard let read = reads[device]?[found.id], read.item == found.item else { return nil }
        return read
    }
}

/// The adds that met errSecDuplicateItem asking for a class (or an access
/// control) the existing item does not have (KCS521), by device and slot,
/// with the item's primary key then (a slot freed and used again holds
/// another item) and where the add was.
struct DuplicateAdds: Sendable {
    struct Add: Sendable {
        var key: PrimaryKey
        var accessibility: Accessibility?
        var accessControl: AccessControl?
        var file: String
        var line: Int

        /// What the add asked, as the script writes it.
        var asked: String {
            accessControl == nil ? "accessible=\(accessibility?.rawValue ?? "")" : "access-control="
        }
        var constant: String { accessControl == nil ? "kSecAttrAccessible" : "kSecAttrAccessControl" }

        /// Whether the item still lacks what the add asked for.
        func differs(from item: StoredItem) -> Bool {
            if let accessControl { return item.accessControl != accessControl }
            return accessibility.map { $0 != item.accessibility } ?? false
        }
    }

    private var adds: [DeviceHandle: [ItemID: Add]] = [:]
    /// Adds kept at most: a generated scenario stays bounded.
    static let limit = 1_000
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func note(_ add: Add, id: ItemID, on device: DeviceHandle) {
        guard count < Self.limit || adds[device]?[id] != nil else { return }
        if adds[device]?[id] == nil { count += 1 }
        adds[device, default: [:]][id] = add
    }

    /// The add noted for the item in this slot, if it is still that item.
    func add(of item: StoredItem, id: ItemID, on device: DeviceHandle) -> Add? {
        guard let add = adds[device]?[id], add.key == item.primaryKey else { return nil }
        return add
    }
}

extension Session {
    /// Keeps an add that met errSecDuplicateItem asking for another class
    /// or an access control than the existing item has (KCS521): the
    /// upsert's update that follows keeps the old one.
    mutating func noteDuplicateAdd(_ s: Statement, _ file: SourceFile) {
        guard case .duplicate(let existing, false) = lastRecord.result.reason else { return }
        let spec = lastRecord.call.request.spec
        guard spec.accessibility != nil || spec.accessControl != nil,
              let item = world[lastRecord.device].keychain[existing] else { return }
        let add = DuplicateAdds.Add(key: item.primaryKey,
                                    accessibility: spec.accessibility ?? spec.accessControl?.protection, accessControl: spec.accessControl,
                                    file: file.name, line: file.location(of: s.range.start).line)
        guard add.differs(from: item) else { return }
        duplicateAdds.note(add, id: existing, on: lastRecord.device)
    }

    /// Keeps the matches a find stopped at under the lock (KCS518): the
    /// locked ones among its matches, in keychains of up to
    /// ``nearMissLimit`` items as the other searches for a cause.
    mutating func noteLockedRead(_ s: Statement, _ file: SourceFile) {
        guard case .locked = lastRecord.result.reason, world.keychainCount(on: lastRecord.device) <= Self.nearMissLimit else { return }
        let device = lastRecord.device
        let state = world[device].state
        let line = file.location(of: s.range.start).line
        for found in world.matches(for: lastRecord.call.request, as: lastRecord.app, on: device)
        where !state.isAvailable(found.item.accessibility) {
            lockedReads.note(found, on: device, file: file.name, line: line)
        }
    }
}

extension String {
    /// The text without the double quotes around a string token.
    var trimmingQuotes: String {
        hasPrefix("\"") && hasSuffix("\"") && count >= 2 ? String(dropFirst().dropLast()) : self
    }

    /// `when-unlocked-this-device-only` → `when-unlocked`.
    var replacingThisDeviceOnly: String {
        if self == "when-passcode-set-this-device-only" { return "when-unlocked" }
        return hasSuffix("-this-device-only") ? String(dropLast("-this-device-only".count)) : self
    }
}

extension Session {
    /// Whether a byte of `range` is past ASCII, eight bytes at a time: run
    /// before every statement, where a slice and a closure cost some 300
    /// instructions a line.
    static func hasNonASCII(_ bytes: [UInt8], _ range: SourceRange) -> Bool {
        let start = max(range.start, 0), end = min(range.end, bytes.count)
        guard start < end else { return false }
        return bytes.withUnsafeBytes { raw in
            var i = start
            while i + 8 <= end {
                if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return true }
                i += 8
            }
            while i < end {
                if raw[i] >= 0x80 { return true }
                i += 1
            }
            return false
        }
    }

    /// KCS520: a word of the statement that mixes scripts.
    func mixedScriptWarnings(_ s: Statement, _ file: SourceFile) -> [Diagnostic] {
        // Letters of two scripts need a byte past ASCII: most lines have none.
        // A file of ASCII alone (the source file knows) has no such word.
        guard !file.isASCII, Self.hasNonASCII(file.bytes, s.range) else { return [] }
        let text = Substring(file.text(s.range))
        return MixedScripts.words(in: text).map { word, scripts in
            let names = scripts.map(\.rawValue).joined(separator: " and ")
            let start = s.range.start + text.utf8.distance(from: text.startIndex, to: word.startIndex)
            return Diagnostic(.lintMixedScripts, "'\(TerminalText.escaped(String(word)))' mixes \(names) letters: it can look like another name",
                              file: file, range: SourceRange(start, start + word.utf8.count), severity: .warning,
                              hint: "spell names in one script; look-alike letters make two names read the same")
        }
    }
}

/// The declared apps' bundle IDs, kept with the session for the lint and
/// extended as apps are declared (``Session/appIndex``): each rule asks it
/// in constant time what it asked of every app.
struct AppLintIndex: Sendable {
    /// How many of the world's apps it holds (apps are only ever appended;
    /// `reset` starts it again).
    private(set) var count = 0
    private(set) var bundleIDs = BundleIDIndex()
    /// The apps' places in the world by bundle ID.
    private(set) var byBundleID: [String: [Int]] = [:]

    mutating func update(_ apps: [AppTarget]) {
        if apps.count < count { self = AppLintIndex() }
        for i in count..<apps.count {
            bundleIDs.insert(apps[i].bundleID)
            byBundleID[apps[i].bundleID, default: []].append(i)
        }
        count = apps.count
    }
}
