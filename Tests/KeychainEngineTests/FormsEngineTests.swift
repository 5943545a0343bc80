import Testing
@testable import KeychainEngine

/// The engine behind the language forms of issue 11 item 3: persistent
/// references, authentication contexts, per-device platforms, signing
/// shades, associated application identifiers. Sources: docs/semantics-notes.md.
struct PersistentRefEngineTests {
    /// The reference a find returns for the first match.
    func ref(_ f: inout Fixture, _ query: ItemSpec, as app: AppHandle? = nil, on device: DeviceHandle = .this) -> PersistentRef? {
        var q = query
        q.returns = [.persistentReference]
        let r = f.world.perform(CallRequest(.find, q), as: app ?? f.main, on: device)
        return r.items.first?.persistentRef(on: f.world.platform(of: device))
    }

    func byRef(_ r: PersistentRef, _ itemClass: ItemClass? = nil) -> ItemSpec {
        var s = ItemSpec(itemClass: itemClass)
        s.persistentRef = r
        return s
    }

    @Test("the shape follows the platform: row IDs before iOS 15, UUIDs from iOS 15 (Security-60157, audit 22)")
    func shapeByPlatform() throws {
        var new = Fixture(platform: Platform(.ios, 15))
        new.mustAdd(gp("a"))
        let u = try #require(ref(&new, gp("a")))
        guard case .uuid = u.row else { Issue.record("iOS 15 gives \(u)"); return }
        var old = Fixture(platform: Platform(.ios, 14))
        old.mustAdd(gp("a"))
        let r = try #require(ref(&old, gp("a")))
        #expect(r.row == .rowID(1))
        #expect(r.tableName == "genp")
    }

    @Test("a find by reference takes the class from it, ignores the sync filter and keeps to the caller's groups")
    func findByReference() throws {
        var f = Fixture()
        f.mustAdd(gp("a", sync: .yes, data: "x"))
        let r = try #require(ref(&f, gp("a", sync: .yes)))
        var q = byRef(r)
        q.returns = .data
        let found = f.find(q)
        #expect(found.status == .success)
        #expect(found.items.first?.item.data == "x")
        #expect(f.find(byRef(r), as: f.plain).status == .itemNotFound)
        #expect(f.find(byRef(r, .key)).status == .noSuchClass)
    }

    @Test("find: a reference with attributes is errSecParam; update and delete AND them with a UUID, refuse them with a row ID")
    func referenceWithAttributes() throws {
        for platform in [Platform(.ios, 18), Platform(.ios, 14)] {
            var f = Fixture(platform: platform)
            f.mustAdd(gp("a"))
            let r = try #require(ref(&f, gp("a")))
            var q = byRef(r)
            q.attributes[.account] = str("a")
            #expect(f.find(q).status == .param)
            let update = f.update(q, spec(nil, data: "new"))
            if case .uuid = r.row {
                #expect(update.status == .success)
                q.attributes[.account] = str("other")
                #expect(f.delete(q).status == .itemNotFound)
            } else {
                #expect(update.status == .param)
                #expect(f.delete(q).status == .param)
            }
        }
    }

    /// SecItemServer.c refuses a row-ID reference in an add (`q_row_id`);
    /// a UUID reference sets no row ID, and the add stores a new item.
    @Test("an add with a row-ID reference is errSecParam, with a UUID one it adds; an update keeps it; a delete ends it for good")
    func lifecycle() throws {
        for platform in [Platform(.ios, 18), Platform(.ios, 14)] {
            var f = Fixture(platform: platform)
            f.mustAdd(gp("a"))
            let r = try #require(ref(&f, gp("a")))
            var add = gp("b")
            add.persistentRef = r
            #expect(f.add(add).status == (platform.persistentRefsUseUUID ? .success : .param))
            #expect(f.find(gp("b")).status == (platform.persistentRefsUseUUID ? .success : .itemNotFound))
            #expect(f.update(byRef(r), spec(nil, [(.account, str("renamed"))])).status == .success)
            #expect(ref(&f, gp("renamed")) == r)
            #expect(f.delete(byRef(r)).count == 1)
            // AUTOINCREMENT: the next row does not take the deleted one's ID.
            f.mustAdd(gp("a"))
            #expect(f.find(byRef(r)).status == .itemNotFound)
        }
    }

    /// SecItemDb.c SecServerImportItem keeps each row's reference through a
    /// restore ("preserving rowids"; secd-33-keychain-backup.m line 219).
    @Test("a synced copy has a reference of its own; a restore keeps every reference")
    func devicesAndRestore() throws {
        var f = Fixture()
        let pad = try f.world.addDevice(name: "pad", account: nil)
        f.mustAdd(gp("a", sync: .yes))
        f.world.sync()
        let mine = try #require(ref(&f, gp("a", sync: .yes)))
        let theirs = try #require(ref(&f, gp("a", sync: .yes), on: pad))
        #expect(mine != theirs)
        #expect(f.world.perform(CallRequest(.find, byRef(mine)), as: f.main, on: pad).status == .itemNotFound)
        f.world.backup(.this, as: "b")
        _ = try f.world.restore("b", to: .this)
        #expect(f.find(byRef(mine)).status == .success)
        #expect(f.find(gp("a", sync: .yes)).status == .success)
    }

    /// A restored row keeps its row ID only when no row of its table has it
    /// there (SecServerImportItem retries a clash without one); every row
    /// still has an ID of its own (found by review: a second item kept a
    /// row ID the first had just been given).
    @Test("a restore never gives two rows one row ID")
    func restoredRowIDsStayUnique() throws {
        var f = Fixture(platform: Platform(.ios, 14))
        let other = try f.world.addDevice(name: "other", account: "elsewhere")
        for account in ["a", "b", "c"] {
            _ = f.world.perform(CallRequest(.add, gp(account, data: account.uppercased())), as: f.main, on: other)
        }
        f.world.backup(other, as: "ob")
        f.mustAdd(gp("kept", sync: .yes))
        _ = try f.world.restore("ob", to: .this)
        let rows = f.world[DeviceHandle.this].keychain.allItems.map { $0.1.rowID }
        #expect(rows.count == 4)
        #expect(Set(rows).count == rows.count, "row IDs: \(rows)")
    }

    /// A backup without a backup password opens only on the device that
    /// made it (Apple Platform Security; real-world Q11, freeotp-ios #262).
    @Test("an unencrypted backup brings no item to another device")
    func unencryptedBackupStaysOnItsDevice() throws {
        var f = Fixture()
        let other = try f.world.addDevice(name: "other", account: "new-owner")
        f.mustAdd(gp("a", accessibility: .afterFirstUnlock, data: "A"))
        f.world.backup(.this, as: "plain", encrypted: false)
        f.world.backup(.this, as: "locked")
        #expect(try f.world.restore("plain", to: other) == 0)
        #expect(f.world.perform(CallRequest(.find, gp("a")), as: f.main, on: other).status == .itemNotFound)
        #expect(try f.world.restore("locked", to: other) == 1)
        #expect(f.world.perform(CallRequest(.find, gp("a")), as: f.main, on: other).status == .success)
        _ = f.world.perform(CallRequest(.delete, gp("a")), as: f.main, on: .this)
        #expect(try f.world.restore("plain", to: .this) == 1)
        #expect(f.find(gp("a")).status == .success)
    }

    /// A teamless (ad-hoc) app re-signed and let in by Always Allow again
    /// and again holds one partition entry on the item, its latest: each
    /// signature added a `cdhash:BUNDLEID#N` string, searched linearly on
    /// every read (a 10 MB script took 3.7 GB; adversarial run 26, F5).
    @Test func anAdHocAppLetInAfterEachResignHoldsOnePartition() throws {
        var f = Fixture(platform: Platform(.macos, 15))
        let adHoc = try f.world.addApp(bundleID: "com.example.adhoc", name: "adhoc", teamID: nil)
        #expect(f.world.perform(CallRequest(.add, gp("a", data: "x")), as: f.main).status == .success)
        var prompts = 0
        for _ in 0..<50 {
            f.world.resign(adHoc)
            #expect(f.world.perform(CallRequest(.find, gp("a", returns: [.data])), as: adHoc) { _ in prompts += 1; return .alwaysAllow }.status == .success)
        }
        #expect(prompts == 50, "each new signature is asked about")
        let lists = f.world[DeviceHandle.this].fileKeychainPartitions
        #expect(lists.count == 1 && lists.values.first?.count == 2, "\(lists)")
        // The latest signature is let in without a prompt.
        #expect(f.world.perform(CallRequest(.find, gp("a", returns: [.data])), as: adHoc) { _ in prompts += 1; return .cancel }.status == .success)
        #expect(prompts == 50)
    }

    /// What the Mac file keychain keeps beside an item by its sequence (an
    /// Always Allow, the owner's signature, the partition list) goes with
    /// the item, and `resign` walks nothing (review 19, R5 and R12).
    @Test("a file-keychain item's access list goes with it")
    func fileKeychainSideTablesGoWithTheItem() {
        var f = Fixture(platform: Platform(.macos, 15))
        f.world.resign(f.main)
        #expect(f.world.perform(CallRequest(.add, gp("a", data: "x")), as: f.main).status == .success)
        #expect(f.world.perform(CallRequest(.find, gp("a", returns: [.data])), as: f.plain) { _ in .alwaysAllow }.status == .success)
        let device = f.world[DeviceHandle.this]
        #expect(device.fileKeychainAccess.count == 1)
        #expect(device.fileKeychainOwnerSignature.count == 1)
        #expect(device.fileKeychainPartitions.count == 1)
        #expect(f.world.perform(CallRequest(.delete, gp("a")), as: f.main).status == .success)
        let after = f.world[DeviceHandle.this]
        #expect(after.fileKeychain.allItems.isEmpty)
        #expect(after.fileKeychainAccess.isEmpty && after.fileKeychainOwnerSignature.isEmpty && after.fileKeychainPartitions.isEmpty)
        for _ in 0..<3 { f.world.resign(f.plain) }
        #expect(f.world[DeviceHandle.this].signatures[f.plain] == 3)
    }

    @Test("a UUID reference is not readable before Security-60157")
    func uuidOnAnOldDevice() throws {
        var f = Fixture()
        let old = try f.world.addDevice(name: "old", account: nil, platform: Platform(.ios, 14))
        f.mustAdd(gp("a", sync: .yes))
        let r = try #require(ref(&f, gp("a", sync: .yes)))
        #expect(f.world.perform(CallRequest(.find, byRef(r)), as: f.main, on: old).status == .param)
    }

    @Test("macOS: a reference is looked up in the keychain it came from")
    func macKeychains() throws {
        var f = Fixture(platform: Platform(.macos, 15))
        f.mustAdd(gp("file", data: "f"))
        var dpItem = gp("dp", data: "d")
        dpItem.useDataProtectionKeychain = true
        f.mustAdd(dpItem)
        let file = try #require(ref(&f, gp("file")))
        #expect(file.inFileKeychain)
        var dpQuery = gp("dp")
        dpQuery.useDataProtectionKeychain = true
        let dp = try #require(ref(&f, dpQuery))
        #expect(!dp.inFileKeychain)
        #expect(f.find(byRef(file)).items.first?.item.data == "f")
        #expect(f.find(byRef(dp)).items.first?.item.data == "d")
        #expect(f.delete(byRef(file)).status == .success)
        #expect(f.world[DeviceHandle.this].fileKeychain.count == 0)
        #expect(f.find(byRef(dp)).status == .success)
    }

    @Test("an identity's reference names its certificate's row and finds the pair")
    func identity() throws {
        var f = Fixture()
        let id = spec(.identity, [(.issuer, str("CA")), (.serialNumber, str("1")), (.applicationLabel, str("L"))])
        f.mustAdd(id)
        let r = try #require(ref(&f, spec(.identity)))
        #expect(r.tableName == "idnt")
        let found = f.find(byRef(r))
        #expect(found.status == .success)
        #expect(found.items.first?.identityKey != nil)
        #expect(f.find(byRef(r, .certificate)).status == .noSuchClass)
    }
}

struct AuthContextEngineTests {
    let protected = AccessControl(flags: [.userPresence])

    func fixture() -> Fixture {
        var f = Fixture()
        var a = gp("a", data: "1")
        a.accessControl = protected
        var b = gp("b", data: "2")
        b.accessControl = protected
        f.mustAdd(a)
        f.mustAdd(b)
        return f
    }

    func read(_ account: String, context: String?, authUI: AuthUI? = nil) -> ItemSpec {
        var s = gp(account, returns: .data)
        s.context = context
        s.authUI = authUI
        return s
    }

    @Test("without a context every read prompts; with one, the first approval covers the next reads")
    func oneApproval() {
        var f = fixture()
        var prompts = 0
        let approve: (FoundItem) -> PromptAnswer? = { _ in prompts += 1; return .approve }
        _ = f.call(.find, read("a", context: nil), prompt: approve)
        _ = f.call(.find, read("b", context: nil), prompt: approve)
        #expect(prompts == 2)
        f.world.declareContext("s", AuthContext())
        _ = f.call(.find, read("a", context: "s"), prompt: approve)
        let second = f.call(.find, read("b", context: "s"), prompt: { _ in nil })
        #expect(prompts == 3)
        #expect(second.status == .success)
        // Authenticated: neither fail nor skip stops it.
        #expect(f.call(.find, read("a", context: "s", authUI: .fail)).status == .success)
        #expect(f.call(.find, read("a", context: "s", authUI: .skip)).count == 1)
    }

    /// An LAContext is an object of the app's process (SecItem.m
    /// SecItemAuthDo, lines 1513-1523): a reboot ends every process, an
    /// uninstall the app's; another app's context stays (audit 25, F5).
    @Test("a reboot, or an uninstall of the app that authenticated it, ends a context's authentication")
    func contextEndsWithItsProcess() {
        var f = fixture()
        f.world.declareContext("s", AuthContext())
        #expect(f.call(.find, read("a", context: "s"), prompt: { _ in .approve }).status == .success)
        #expect(f.call(.find, read("a", context: "s", authUI: .fail)).status == .success)
        f.world.reboot()
        f.world.unlock()
        #expect(f.call(.find, read("a", context: "s", authUI: .fail)).status == .interactionNotAllowed)
        // An uninstall of the app that authenticated it.
        #expect(f.call(.find, read("a", context: "s"), prompt: { _ in .approve }).status == .success)
        // Another app's context stays.
        var own = gp("p", data: "3")
        own.accessControl = protected
        f.mustAdd(own, as: f.plain)
        f.world.declareContext("other", AuthContext())
        #expect(f.call(.find, read("p", context: "other"), as: f.plain, prompt: { _ in .approve }).status == .success)
        f.world.uninstall(f.main)
        f.world.install(f.main)
        #expect(f.call(.find, read("a", context: "s", authUI: .fail)).status == .interactionNotAllowed)
        #expect(f.call(.find, read("p", context: "other", authUI: .fail), as: f.plain).status == .success)
    }

    @Test("a canceled prompt leaves the context unauthenticated")
    func canceled() {
        var f = fixture()
        f.world.declareContext("s", AuthContext())
        #expect(f.call(.find, read("a", context: "s"), prompt: { _ in .cancel }).status == .userCanceled)
        #expect(f.call(.find, read("a", context: "s"), prompt: { _ in nil }).reason == .promptUnanswered)
    }

    @Test("interactionNotAllowed: errSecInteractionNotAllowed where a prompt would be needed")
    func nonInteractive() {
        var f = fixture()
        f.world.declareContext("q", AuthContext(interactionAllowed: false))
        let r = f.call(.find, read("a", context: "q"), prompt: { _ in .approve })
        #expect(r.status == .interactionNotAllowed)
        #expect(r.reason == .contextNotInteractive)
        // Unprotected items need no prompt.
        f.mustAdd(gp("plain", data: "p"))
        #expect(f.call(.find, read("plain", context: "q")).status == .success)
    }

    @Test("reuse: a biometric unlock within the duration stands in for the prompt; not after it, not on watchOS")
    func reuse() throws {
        var f = fixture()
        f.world.lock()
        f.world.unlock()
        f.world.declareContext("r", AuthContext(reuseDuration: 10, interactionAllowed: false))
        f.world.wait(10)
        #expect(f.call(.find, read("a", context: "r")).status == .success)
        f.world.declareContext("late", AuthContext(reuseDuration: 10, interactionAllowed: false))
        f.world.wait(1)
        #expect(f.call(.find, read("a", context: "late")).status == .interactionNotAllowed)
        #expect(AuthContext(reuseDuration: 1000).reuseDuration == AuthContext.maximumReuseDuration)

        var w = fixture()
        let watch = try w.world.addDevice(name: "watch", account: nil, platform: Platform(.watchos, 11))
        var item = gp("w", data: "1")
        item.accessControl = protected
        _ = w.world.perform(CallRequest(.add, item), as: w.main, on: watch)
        w.world.unlock(watch)
        w.world.declareContext("r", AuthContext(reuseDuration: 300, interactionAllowed: false))
        #expect(w.world.perform(CallRequest(.find, read("w", context: "r")), as: w.main, on: watch).status
                == .interactionNotAllowed)
    }

    @Test("a context authenticated on one device is not on another")
    func perDevice() throws {
        var f = fixture()
        let pad = try f.world.addDevice(name: "pad", account: nil)
        var item = gp("a", data: "1")
        item.accessControl = protected
        _ = f.world.perform(CallRequest(.add, item), as: f.main, on: pad)
        f.world.declareContext("s", AuthContext())
        _ = f.call(.find, read("a", context: "s"), prompt: { _ in .approve })
        #expect(f.world.perform(CallRequest(.find, read("a", context: "s")), as: f.main, on: pad).reason == .promptUnanswered)
    }
}

struct PlatformAndSigningEngineTests {
    @Test("each device answers with its own platform's rules")
    func perDevicePlatform() throws {
        var f = Fixture()
        let old = try f.world.addDevice(name: "old", account: nil, platform: ios12)
        #expect(f.find(gp(nil, group: Fixture.foreignShared)).status == .missingEntitlement)
        #expect(f.world.perform(CallRequest(.find, gp(nil, group: Fixture.foreignShared)), as: f.main, on: old).status
                == .itemNotFound)
        let mac = try f.world.addDevice(name: "mac", account: nil, platform: Platform(.macos, 15))
        let r = f.world.perform(CallRequest(.add, gp("a")), as: f.main, on: mac)
        #expect(r.items.first?.groupName == World.fileKeychainGroupName)
    }

    @Test("the Mac's list: validated entitlements, then com.apple.token unless an app ID found nothing")
    func macLists() throws {
        var w = World()
        try w.setPlatform(Platform(.macos, 15))
        try w.addTeam(id: teamA)
        let prov = try w.addApp(bundleID: "p", name: "prov", teamID: teamA, applicationGroups: ["group.g"])
        let unprov = try w.addApp(bundleID: "u", name: "unprov", teamID: teamA, applicationGroups: ["group.g"])
        w.setSigning(.unprovisioned, for: unprov)
        let kag = try w.addApp(bundleID: "k", name: "kag", teamID: teamA, keychainAccessGroups: ["$(AppIdentifierPrefix)s"])
        w.setSigning(.unprovisioned, for: kag)
        let none = try w.addApp(bundleID: "n", name: "none", teamID: teamA)
        w.setSigning(.noAppID, for: none)
        let listed = try w.addApp(bundleID: "t", name: "listed", teamID: teamA, keychainAccessGroups: ["com.apple.token", "x"])
        #expect(w.accessGroups(of: prov) == ["\(teamA).p", "group.g", "com.apple.token"])
        #expect(w.accessGroups(of: unprov) == [])
        #expect(w.accessGroups(of: kag) == ["\(teamA).s", "com.apple.token"])
        #expect(w.accessGroups(of: none) == ["com.apple.token"])
        #expect(w.accessGroups(of: listed) == ["x", "\(teamA).t", "com.apple.token"])
        #expect(w.defaultGroup(of: none) == nil)

        func dp(_ s: ItemSpec) -> ItemSpec { var s = s; s.useDataProtectionKeychain = true; return s }
        #expect(w.perform(CallRequest(.find, dp(gp("a"))), as: unprov).status == .missingEntitlement)
        #expect(w.perform(CallRequest(.add, dp(gp("a"))), as: kag).status == .success)
        #expect(w.perform(CallRequest(.add, dp(gp("a"))), as: none).reason == .onlyTokenGroup)
        #expect(w.perform(CallRequest(.find, dp(gp("a"))), as: none).status == .itemNotFound)
        #expect(w.perform(CallRequest(.delete, dp(gp("a"))), as: none).status == .missingEntitlement)
        #expect(w.perform(CallRequest(.add, dp(gp("t", group: "com.apple.token"))), as: prov).status == .missingEntitlement)
        #expect(w.perform(CallRequest(.find, dp(gp("t", group: "com.apple.token"))), as: prov).status == .itemNotFound)
    }

    @Test("associated application identifiers come after keychain-access-groups, before the app ID; validated only")
    func associated() throws {
        var w = World()
        try w.setPlatform(Platform(.catalyst, 18))
        try w.addTeam(id: teamA)
        let app = try w.addApp(bundleID: "mac", name: "mac", teamID: teamA)
        w.setAssociatedApplicationIdentifiers(["$(AppIdentifierPrefix)ios"], for: app)
        #expect(w.accessGroups(of: app) == ["\(teamA).ios", "\(teamA).mac", "com.apple.token"])
        #expect(w.defaultGroup(of: app) == "\(teamA).ios")
        #expect(w[app].accessGroups == ["\(teamA).ios", "\(teamA).mac"])
        w.setSigning(.unprovisioned, for: app)
        #expect(w.accessGroups(of: app) == [])
    }
}
