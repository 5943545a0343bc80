import Testing
@testable import KeychainEngine

/// semantics.md section 5: devices, sync, backup, lifecycle, row by row.
struct Section5DevicesTests {
    /// A fixture with a second device on the same account and a third on another.
    func devices() -> (Fixture, DeviceHandle, DeviceHandle) {
        var f = Fixture()
        let pad = try! f.world.addDevice(name: "iPad", account: nil)
        let work = try! f.world.addDevice(name: "Work", account: "work")
        return (f, pad, work)
    }

    func find(_ f: inout Fixture, _ q: ItemSpec, on d: DeviceHandle) -> CallResult {
        f.world.perform(CallRequest(.find, q), as: f.main, on: d)
    }

    static let travel: [(SyncSelector?, Accessibility?, Bool)] = [
        (.yes, nil, true),
        (.yes, .afterFirstUnlock, true),
        (.yes, .whenUnlockedThisDeviceOnly, false),
        (.yes, .afterFirstUnlockThisDeviceOnly, false),
        (nil, nil, false),
        (.no, .always, false),
    ]

    @Test("5 synchronizable items that are not this-device-only travel; others stay", arguments: travel)
    func travels(_ sync: SyncSelector?, _ accessibility: Accessibility?, _ travels: Bool) {
        var (f, pad, work) = devices()
        f.mustAdd(gp("a", sync: sync, accessibility: accessibility))
        f.world.sync()
        #expect((find(&f, gp("a", sync: .any), on: pad).status == .success) == travels)
        #expect(find(&f, gp("a", sync: .any), on: work).status == .itemNotFound)
    }

    /// CKKS makes no outgoing entry for a record of 1 MiB or more
    /// (CKKSOutgoingQueueEntry.m lines 392-403; Apple's testAddLargeItemFailure):
    /// the item stays on its device, a small one beside it travels, and an
    /// attribute's bytes count with the data's (conformance audit 23, F6).
    @Test("5 an item of 1 MiB or more does not travel")
    func largeItemsStay() {
        var (f, pad, _) = devices()
        f.mustAdd(gp("big", sync: .yes, data: String(repeating: "x", count: 1 << 20)))
        // Clearly under: kcs counts data and attributes, not the encrypted
        // record's overhead, so the last kilobytes below 1 MiB are not
        // asserted either way (review 19, R18).
        f.mustAdd(gp("under", sync: .yes, data: String(repeating: "x", count: 900 << 10)))
        var labelled = gp("labelled", sync: .yes, data: String(repeating: "x", count: (1 << 20) - 100))
        labelled.attributes[.label] = .string(AttributeText(String(repeating: "l", count: 200)))
        f.mustAdd(labelled)
        f.mustAdd(gp("small", sync: .yes, data: "d"))
        f.world.sync()
        #expect(find(&f, gp("big", sync: .any), on: pad).status == .itemNotFound)
        #expect(find(&f, gp("labelled", sync: .any), on: pad).status == .itemNotFound)
        #expect(find(&f, gp("under", sync: .any), on: pad).status == .success)
        #expect(find(&f, gp("small", sync: .any), on: pad).status == .success)
        #expect(f.find(gp("big", sync: .yes)).status == .success)
    }

    @Test("5 deletions travel")
    func deletionsTravel() {
        var (f, pad, _) = devices()
        f.mustAdd(gp("a", sync: .yes))
        f.world.sync()
        #expect(f.world.perform(CallRequest(.delete, gp("a", sync: .yes)), as: f.main, on: pad).status == .success)
        f.world.sync()
        #expect(f.find(gp("a", sync: .yes)).status == .itemNotFound)
        // A later add of the same key is newer than the deletion and survives.
        f.mustAdd(gp("a", sync: .yes, data: "again"))
        f.world.sync()
        #expect(find(&f, gp("a", sync: .yes, returns: .data), on: pad).items.first?.item.data == "again")
    }

    @Test("5 conflicts: the last writer wins")
    func lastWriterWins() {
        var (f, pad, _) = devices()
        f.mustAdd(gp("a", sync: .yes, data: "v1"))
        f.world.sync()
        _ = f.world.perform(CallRequest(.update, gp("a", sync: .yes), changes: spec(nil, data: "pad")), as: f.main, on: pad)
        _ = f.update(gp("a", sync: .yes), spec(nil, data: "phone"))
        f.world.sync()
        #expect(find(&f, gp("a", sync: .yes, returns: .data), on: pad).items.first?.item.data == "phone")
        #expect(f.find(gp("a", sync: .yes, returns: .data)).items.first?.item.data == "phone")
    }

    @Test("5 restore: same device brings back everything; another device no this-device-only items")
    func backupRestore() throws {
        var (f, pad, _) = devices()
        f.mustAdd(gp("plain"))
        f.mustAdd(gp("bound", accessibility: .whenUnlockedThisDeviceOnly))
        f.world.backup(.this, as: "monday")
        _ = f.delete(allGP(limit: nil))
        #expect(f.keychain.count == 0)
        #expect(try f.world.restore("monday", to: .this) == 2)
        #expect(f.keychain.count == 2)
        #expect(try f.world.restore("monday", to: pad) == 1)
        #expect(find(&f, gp("plain"), on: pad).status == .success)
        #expect(find(&f, gp("bound"), on: pad).status == .itemNotFound)
        #expect(throws: WorldError.self) { try f.world.restore("tuesday", to: pad) }
    }

    /// SecItemDb.c, the backup writer (Security-61901.0.87.0.1): "Skip akpu
    /// items when backing up, those are intentionally lost across restores".
    @Test("5 backups leave when-passcode-set items out, even for the same device")
    func backupSkipsPasscodeSet() throws {
        var f = Fixture()
        f.mustAdd(gp("plain"))
        f.mustAdd(gp("akpu", accessibility: .whenPasscodeSetThisDeviceOnly))
        f.world.backup(.this, as: "monday")
        #expect(try f.world.restore("monday", to: .this) == 1)
        #expect(f.find(gp("akpu")).status == .itemNotFound)
        #expect(f.find(gp("plain")).status == .success)
    }

    @Test("5 uninstall leaves items; reinstalling sees them again")
    func uninstallInstall() {
        var f = Fixture()
        f.mustAdd(gp("a"))
        f.world.uninstall(f.main)
        #expect(!f.world.isInstalled(f.main))
        #expect(f.keychain.count == 1)
        f.world.install(f.main)
        #expect(f.find(gp("a")).status == .success)
    }

    /// A world with the fixture's `main` app and its App Clip, the clip
    /// having stored one plain item and one that needs the user.
    func withClip(_ platform: Platform = ios18) -> (Fixture, AppHandle) {
        var f = Fixture(platform: platform)
        let clip = try! f.world.addApp(bundleID: "com.example.main.Clip", name: "clip", teamID: teamA, kind: .appClip)
        f.mustAdd(gp("token", data: "secret"), as: clip)
        var bio = gp("card")
        bio.accessControl = AccessControl(protection: .whenUnlocked, flags: [.biometryAny], combinator: .or)
        f.mustAdd(bio, as: clip)
        return (f, clip)
    }

    @Test("5 uninstalling an App Clip deletes its items (SecServerDeleteForAppClipApplicationIdentifier)")
    func appClipUninstall() {
        let (fixture, clip) = withClip()
        var f = fixture
        f.mustAdd(gp("mine"))
        f.world.uninstall(clip)
        #expect(f.items.map { f.groupName($0) } == [Fixture.shared])
        f.world.install(clip)
        #expect(f.find(gp("token"), as: clip).status == .itemNotFound)
    }

    @Test("5 installing the full app promotes the clip's items from iOS 16, deletes them before",
          arguments: [(ios18, true), (Platform(.ios, 16), true), (Platform(.ios, 15), false)])
    func appClipPromotion(_ platform: Platform, _ promotes: Bool) {
        let (fixture, clip) = withClip(platform)
        var f = fixture
        f.world.install(f.main)
        #expect(!f.world.isInstalled(clip), "the full app replaces its clip")
        // The item that needs authentication is never promoted, and the
        // leftovers are deleted.
        #expect(f.items.map { f.groupName($0) } == (promotes ? [Fixture.mainID] : []))
        #expect(f.find(gp("token", group: Fixture.mainID)).status == (promotes ? .success : .itemNotFound))
    }

    @Test("5 promotion replaces an item of the same key and fails as a whole while locked")
    func appClipPromotionEdges() {
        let (fixture, clip) = withClip()
        var f = fixture
        f.mustAdd(gp("token", group: Fixture.mainID, data: "the app's own"))
        f.world.install(f.main)
        #expect(f.find(gp("token", group: Fixture.mainID, returns: .data)).items.first?.item.data == "secret")
        #expect(f.items.count == 1)

        let (second, clip2) = withClip()
        var g = second
        g.mustAdd(gp("mine"))
        g.state.isLocked = true
        g.world.install(g.main)
        #expect(!g.world.isInstalled(clip2))
        #expect(g.items.map { g.groupName($0) } == ["\(teamA).com.example.main.Clip", "\(teamA).com.example.main.Clip", Fixture.shared],
                "nothing moved and nothing was deleted")
        #expect(!f.world.isInstalled(clip))

        // Under the lock an item behind access control fails the promotion
        // too: the class key is refused before the ACL is looked at.
        let (third, clip3) = withClip()
        var h = third
        _ = h.delete(gp("token"), as: clip3)
        h.state.isLocked = true
        h.world.install(h.main)
        #expect(h.items.map { h.groupName($0) } == ["\(teamA).com.example.main.Clip"])
    }

    @Test("5 transfer: new app ID and team prefix; old items unreachable; app groups move with the app")
    func transfer() {
        var f = Fixture()
        f.mustAdd(gp("a"))                                  // in A.shared (the default)
        f.mustAdd(gp("g", group: Fixture.appGroup))
        f.world.transfer(f.main, to: teamB)
        #expect(f.world[f.main].accessGroups == ["\(teamB).shared", "\(teamB).second", "\(teamB).com.example.main",
                                                 Fixture.appGroup])
        #expect(f.find(gp("a")).status == .itemNotFound)
        #expect(f.find(gp("a", group: Fixture.shared)).status == .missingEntitlement)
        #expect(f.find(gp("g")).status == .success)
    }
}
