import Testing
@testable import KeychainEngine

/// semantics.md section 4: device state, row by row.
struct Section4DeviceStateTests {
    /// (accessibility, passcode, locked, unlocked since boot) → available.
    static let availability: [(Accessibility, Bool, Bool, Bool, Bool)] = [
        // with a passcode, unlocked
        (.whenUnlocked, true, false, true, true),
        (.whenPasscodeSetThisDeviceOnly, true, false, true, true),
        (.afterFirstUnlock, true, false, true, true),
        (.always, true, false, true, true),
        // locked after the first unlock
        (.whenUnlocked, true, true, true, false),
        (.whenUnlockedThisDeviceOnly, true, true, true, false),
        (.whenPasscodeSetThisDeviceOnly, true, true, true, false),
        (.afterFirstUnlock, true, true, true, true),
        (.afterFirstUnlockThisDeviceOnly, true, true, true, true),
        (.always, true, true, true, true),
        // locked since boot, never unlocked
        (.afterFirstUnlock, true, true, false, false),
        (.always, true, true, false, true),
        (.alwaysThisDeviceOnly, true, true, false, true),
        // no passcode: always unlocked, but when-passcode-set needs one
        (.whenUnlocked, false, true, false, true),
        (.afterFirstUnlock, false, true, false, true),
        (.whenPasscodeSetThisDeviceOnly, false, false, true, false),
    ]

    @Test("4 which accessibility is available in which state", arguments: availability)
    func available(_ a: Accessibility, _ passcode: Bool, _ locked: Bool, _ sinceBoot: Bool, _ expected: Bool) {
        var state = DeviceState()
        state.hasPasscode = passcode
        state.isLocked = locked
        state.unlockedSinceBoot = sinceBoot
        #expect(state.isAvailable(a) == expected)
    }

    @Test("4 start state: passcode on, unlocked, first unlock done")
    func startState() {
        let s = DeviceState()
        #expect(s.hasPasscode && !s.isLocked && s.unlockedSinceBoot && s.biometryEnrolled)
    }

    @Test("4 lock and unlock; lock without a passcode changes nothing")
    func lockUnlock() {
        var f = Fixture()
        f.mustAdd(gp("a"))
        f.world.lock()
        #expect(f.find(gp("a")).status == .interactionNotAllowed)
        f.world.unlock()
        #expect(f.find(gp("a")).status == .success)
        f.world.setPasscode(false)
        f.world.lock()
        #expect(f.find(gp("a")).status == .success)
    }

    @Test("4 reboot clears first unlock; unlock sets it")
    func reboot() {
        var f = Fixture()
        f.mustAdd(gp("afu", accessibility: .afterFirstUnlock))
        f.world.lock()
        #expect(f.find(gp("afu")).status == .success)
        f.world.reboot()
        #expect(f.find(gp("afu")).status == .interactionNotAllowed)
        f.world.unlock()
        f.world.lock()
        #expect(f.find(gp("afu")).status == .success)
    }

    /// secd-81-item-acl.m item_with_akpu (not found, for good),
    /// sec_acl_stress.c line 299 (the lost row can still be deleted), and
    /// SecItemDb.c s3dl_query_row (a read that meets it deletes it).
    @Test("4 removing the passcode loses when-passcode-set items for good; a read or a delete removes the row")
    func passcodeRemoval() {
        var f = Fixture()
        f.mustAdd(gp("wps", accessibility: .whenPasscodeSetThisDeviceOnly))
        f.mustAdd(gp("unread", accessibility: .whenPasscodeSetThisDeviceOnly))
        f.mustAdd(gp("wu", accessibility: .whenUnlocked))
        #expect(f.world.setPasscode(false) == 2)
        let read = f.find(gp("wps"))
        #expect(read.status == .itemNotFound)
        #expect(read.reason == .lostRowsDeleted(count: 1, more: false))
        f.world.setPasscode(true)
        #expect(f.find(gp("wps")).status == .itemNotFound)
        #expect(f.find(gp("wps")).reason == .noMatch)
        #expect(f.find(gp("wu")).status == .success)
        #expect(f.delete(gp("unread")).status == .success)
        #expect(f.delete(gp("unread")).status == .itemNotFound)
        #expect(f.delete(gp("wps")).status == .itemNotFound)
        // Re-adding a lost item's key works: the lost row is no duplicate.
        f.mustAdd(gp("again", accessibility: .whenPasscodeSetThisDeviceOnly))
        f.world.setPasscode(false)
        f.world.setPasscode(true)
        #expect(f.add(gp("again", accessibility: .whenPasscodeSetThisDeviceOnly)).status == .success)
        #expect(f.find(gp("again")).status == .success)
    }

    @Test("3 add: when-passcode-set without a passcode: errSecAuthFailed plain, errSecNotAvailable through access control")
    func passcodeSetWithoutPasscode() {
        var f = Fixture()
        f.world.setPasscode(false)
        #expect(f.add(gp("a", accessibility: .whenPasscodeSetThisDeviceOnly)).status == .authFailed)
        let ac = AccessControl(protection: .whenPasscodeSetThisDeviceOnly, flags: [.userPresence])
        #expect(f.add(spec(.genericPassword, [(.account, str("b"))], accessControl: ac)).status == .notAvailable)
    }

    @Test("3 add: locked is checked before the duplicate check")
    func lockedBeforeDuplicate() {
        var f = Fixture()
        f.mustAdd(gp("a"))
        f.world.lock()
        #expect(f.add(gp("a")).status == .interactionNotAllowed)
        #expect(f.add(gp("b", accessibility: .afterFirstUnlock)).status == .success)
        #expect(f.add(gp("b", accessibility: .afterFirstUnlock)).status == .duplicateItem)
    }

    @Test("3 find: the first locked match in insertion order fails the call; limit one succeeds when an accessible one comes first")
    func lockedWalk() {
        var f = Fixture()
        f.mustAdd(gp("open", accessibility: .afterFirstUnlock))
        f.mustAdd(gp("closed", accessibility: .whenUnlocked))
        f.world.lock()
        #expect(f.find(spec(.genericPassword, [(.service, str("svc"))])).status == .success)
        #expect(f.find(spec(.genericPassword, [(.service, str("svc"))], limit: .all)).status == .interactionNotAllowed)
        var g = Fixture()
        g.mustAdd(gp("closed", accessibility: .whenUnlocked))
        g.mustAdd(gp("open", accessibility: .afterFirstUnlock))
        g.world.lock()
        #expect(g.find(spec(.genericPassword, [(.service, str("svc"))])).status == .interactionNotAllowed)
    }

    /// Biometry needs a passcode (LAErrorPasscodeNotSet): turning the
    /// passcode off removes it, and only a new enrollment brings it back.
    @Test("4 passcode off removes biometry")
    func passcodeOffRemovesBiometry() {
        var f = Fixture()
        var item = gp("face", data: "f")
        item.accessControl = AccessControl(flags: [.biometryAny])
        f.mustAdd(item)
        let read = gp("face", returns: .data)
        #expect(f.call(.find, read, prompt: { _ in .approve }).status == .success)
        f.world.setPasscode(false)
        #expect(f.call(.find, read, prompt: { _ in .approve }).status == .authFailed)
        f.world.setPasscode(true)
        #expect(f.call(.find, read, prompt: { _ in .approve }).status == .authFailed, "no biometry until enrolled again")
        f.world.changeBiometry(.enroll)
        #expect(f.call(.find, read, prompt: { _ in .approve }).status == .success)
    }

    /// An update decrypts and fails under the lock; a delete does not
    /// (SecItemDb.c s3dl_query_delete: SecDbItemNeedAuth swallows the lock's
    /// error and the row goes by its ID), and leaves no tombstone.
    @Test("3 update locked as find; delete goes on under the lock")
    func lockedUpdateDelete() throws {
        var f = Fixture()
        let pad = try f.world.addDevice(name: "pad", account: nil)
        f.mustAdd(gp("a"))
        f.mustAdd(gp("s", sync: .yes))
        f.world.sync()
        f.world.lock()
        #expect(f.update(gp("a"), spec(nil, [(.label, str("x"))])).status == .interactionNotAllowed)
        #expect(f.delete(gp("a")).status == .success)
        #expect(f.delete(gp("s", sync: .yes)).status == .success)
        f.world.unlock()
        #expect(f.find(gp("a")).status == .itemNotFound)
        // No tombstone: the pad's copy comes back with the next sync.
        f.world.sync()
        #expect(f.find(gp("s", sync: .yes)).status == .success)
        _ = pad
    }

    static let prompts: [(PromptAnswer?, AuthUI?, KeychainStatus)] = [
        (.approve, nil, .success),
        (.cancel, nil, .userCanceled),
        (.fail, nil, .authFailed),
        (.approve, .fail, .interactionNotAllowed),
        (.approve, .skip, .itemNotFound),
    ]

    @Test("3 find: access-control items need authentication", arguments: prompts)
    func prompt(_ answer: PromptAnswer?, _ authUI: AuthUI?, _ expected: KeychainStatus) {
        var f = Fixture()
        let ac = AccessControl(flags: [.biometryAny])
        f.mustAdd(spec(.genericPassword, [(.account, str("a"))], accessControl: ac, data: "d"))
        var asked = 0
        let r = f.call(.find, spec(.genericPassword, [(.account, str("a"))], returns: .data, authUI: authUI)) { _ in
            asked += 1
            return answer
        }
        #expect(r.status == expected)
        #expect(asked == (authUI == nil ? 1 : 0))
    }

    /// Every query decrypts the secret part of an item whose access control
    /// has constraints (SecDbKeychainItem.m ks_decrypt_data,
    /// Security-61901.0.87.0.1), so attributes alone, or no return key, prompt.
    @Test("3 find: reading only attributes of an access-control item prompts too",
          arguments: [ReturnKinds.attributes, [], .persistentReference])
    func promptWithoutData(returns: ReturnKinds) {
        var f = Fixture()
        f.mustAdd(spec(.genericPassword, [(.account, str("a"))], accessControl: AccessControl(flags: [.userPresence])))
        var asked = false
        let r = f.call(.find, gp("a", service: nil, returns: returns)) { _ in asked = true; return .approve }
        #expect(r.status == .success)
        #expect(asked)
    }

    /// Update decrypts each match (kAKSKeyOpDecrypt) and prompts; delete uses
    /// kAKSKeyOpDelete, which SecAccessControlCreateWithFlags sets to true.
    @Test("3 update prompts for an access-control item, delete does not")
    func updatePromptsDeleteDoesNot() {
        var f = Fixture()
        f.mustAdd(spec(.genericPassword, [(.account, str("a"))], accessControl: AccessControl(flags: [.userPresence])))
        var asked = 0
        var changes = ItemSpec()
        changes.attributes[.label] = str("l")
        let u = f.call(.update, gp("a", service: nil), changes: changes) { _ in
            asked += 1
            return .cancel
        }
        #expect(u.status == .userCanceled)
        let d = f.call(.delete, gp("a", service: nil)) { _ in asked += 1; return .cancel }
        #expect(d.status == .success)
        #expect(asked == 1)
    }

    @Test("3 find: an unanswered prompt is reported as such")
    func unanswered() {
        var f = Fixture()
        f.mustAdd(spec(.genericPassword, [(.account, str("a"))], accessControl: AccessControl(flags: [.userPresence])))
        #expect(f.find(gp("a", service: nil, returns: .data)).reason == .promptUnanswered)
    }

    @Test("4 biometry change invalidates biometry-current-set items (inferred); biometry-any stays")
    func biometryChange() {
        var f = Fixture()
        f.mustAdd(spec(.genericPassword, [(.account, str("cur"))], accessControl: AccessControl(flags: [.biometryCurrentSet])))
        f.mustAdd(spec(.genericPassword, [(.account, str("unread"))], accessControl: AccessControl(flags: [.biometryCurrentSet])))
        f.mustAdd(spec(.genericPassword, [(.account, str("any"))], accessControl: AccessControl(flags: [.biometryAny])))
        f.mustAdd(spec(.genericPassword, [(.account, str("or"))],
                       accessControl: AccessControl(flags: [.biometryCurrentSet, .devicePasscode], combinator: .or)))
        f.world.changeBiometry(.change)
        #expect(f.find(gp("cur", service: nil)).status == .itemNotFound)
        #expect(f.call(.find, gp("any", service: nil)) { _ in .approve }.status == .success)
        #expect(f.call(.find, gp("or", service: nil)) { _ in .approve }.status == .success)
        // Delete needs no authentication (kAKSKeyOpDelete is true), so it
        // removes an invalidated item no read met; the one the find read is
        // gone already (audit 25, F1).
        #expect(f.delete(gp("unread", service: nil)).status == .success)
        #expect(f.delete(gp("unread", service: nil)).status == .itemNotFound)
        #expect(f.delete(gp("cur", service: nil)).status == .itemNotFound)
    }

    /// SecItemDb.c s3dl_query_row (lines 572-592) and s3dl_query_update
    /// (lines 1344-1361) delete a row that answers errSecDecode whatever
    /// made it so: an invalidated biometry-current-set row as a lost
    /// when-passcode-set one (audit 25, F1).
    @Test("4 a find or an update that meets an invalidated biometry-current-set row deletes it")
    func invalidatedBiometryRowDeletedOnRead() {
        var f = Fixture()
        let bio = AccessControl(flags: [.biometryCurrentSet])
        f.mustAdd(spec(.genericPassword, [(.account, str("a")), (.service, str("s"))], accessControl: bio, data: "1"))
        f.mustAdd(spec(.genericPassword, [(.account, str("b")), (.service, str("s"))], data: "2"))
        f.world.changeBiometry(.change)
        let query = spec(.genericPassword, [(.service, str("s"))], returns: .data)
        let first = f.find(query)
        #expect(first.status == .itemNotFound)
        #expect(first.reason == .lostRowsDeleted(count: 1, biometry: 1, more: true))
        let second = f.find(query)
        #expect(second.status == .success)
        #expect(second.accounts == ["b"])
        // An update over an invalidated row and a plain one changes the
        // plain one and deletes the other in its transaction.
        var g = Fixture()
        g.mustAdd(spec(.genericPassword, [(.account, str("a")), (.service, str("s"))], accessControl: bio, data: "1"))
        g.mustAdd(spec(.genericPassword, [(.account, str("b")), (.service, str("s"))], data: "2"))
        g.world.changeBiometry(.change)
        #expect(g.update(spec(.genericPassword, [(.service, str("s"))]), spec(nil, [(.label, str("x"))])).status == .success)
        #expect(g.items.count == 1)
        // An update that meets only such a row finds nothing and deletes it.
        var h = Fixture()
        h.mustAdd(spec(.genericPassword, [(.account, str("a")), (.service, str("s"))], accessControl: bio, data: "1"))
        h.world.changeBiometry(.change)
        let updated = h.update(spec(.genericPassword, [(.service, str("s"))]), spec(nil, [(.label, str("x"))]))
        #expect(updated.status == .itemNotFound)
        #expect(updated.reason == .lostRowsDeleted(count: 1, biometry: 1, more: false))
        #expect(h.items.isEmpty)
    }

    /// SecDbKeychainItem.m ks_decrypt_data decrypts the metadata first with
    /// a class key the lock takes away, so a row that would not decode
    /// answers errSecInteractionNotAllowed under the lock, which stops the
    /// query (SecItemDb.c lines 1070-1078) and is an add's error when the
    /// row holds its key (SecDbItemInsertOrReplace; audit 25, F2).
    @Test("4 under the lock an undecodable row is the lock's error: find, update and add; a delete removes it")
    func undecodableRowsUnderLock() {
        var f = Fixture()
        f.mustAdd(spec(.genericPassword, [(.account, str("bio"))], accessControl: AccessControl(flags: [.biometryCurrentSet])))
        f.world.changeBiometry(.change)
        f.world.lock()
        #expect(f.find(gp("bio", service: nil)).status == .interactionNotAllowed)
        #expect(f.find(spec(.genericPassword, [(.account, str("bio"))], authUI: .skip)).status == .interactionNotAllowed)
        #expect(f.update(gp("bio", service: nil), spec(nil, [(.label, str("x"))])).status == .interactionNotAllowed)
        #expect(f.items.count == 1)
        #expect(f.delete(gp("bio", service: nil)).status == .success)
        // A lost when-passcode-set row under a new passcode, locked.
        var g = Fixture()
        g.mustAdd(gp("akpu", accessibility: .whenPasscodeSetThisDeviceOnly))
        g.world.setPasscode(false)
        g.world.setPasscode(true)
        g.world.lock()
        #expect(g.find(gp("akpu")).status == .interactionNotAllowed)
        #expect(g.add(gp("akpu", accessibility: .afterFirstUnlock)).status == .interactionNotAllowed)
        g.mustAdd(gp("other", accessibility: .afterFirstUnlock))
        #expect(g.update(gp("other"), spec(nil, [(.account, str("akpu"))])).status == .interactionNotAllowed)
        #expect(g.items.count == 2)
        g.world.unlock()
        #expect(g.add(gp("akpu", accessibility: .afterFirstUnlock)).status == .success)
        #expect(g.items.count == 2)
    }

    /// SecItemDb.c s3dl_query_row decodes an identity's key half into the
    /// query's error (lines 630-641): its access control prompts as the
    /// key's own read does, and a key that no longer decrypts ends the
    /// query with errSecDecode (audit 25, F6).
    @Test("an identity's private key is decrypted with its access control; an undecodable key is errSecDecode")
    func identityKeyHalf() {
        func fixture(_ key: (inout ItemSpec) -> Void) -> Fixture {
            var f = Fixture()
            f.mustAdd(spec(.certificate, [(.label, str("c")), (.publicKeyHash, str("h")), (.issuer, str("i")),
                                          (.serialNumber, str("1"))], data: "cert"))
            var k = spec(.key, [(.label, str("k")), (.keyClass, str("private")), (.applicationLabel, str("h")),
                                (.keyType, str("ec"))], data: "key")
            key(&k)
            f.mustAdd(k)
            return f
        }
        var f = fixture { $0.accessControl = AccessControl(flags: [.userPresence]) }
        #expect(f.find(spec(.identity, authUI: .fail)).status == .interactionNotAllowed)
        #expect(f.find(spec(.identity, authUI: .skip)).status == .itemNotFound)
        var asked = 0
        #expect(f.call(.find, spec(.identity, returns: .reference)) { _ in asked += 1; return .cancel }.status == .userCanceled)
        #expect(asked == 1)
        #expect(f.call(.find, spec(.identity)) { _ in .approve }.status == .success)
        // An invalidated biometry-current-set key.
        var g = fixture { $0.accessControl = AccessControl(flags: [.biometryCurrentSet]) }
        g.world.changeBiometry(.change)
        let bio = g.find(spec(.identity, authUI: .fail))
        #expect(bio.status == .decode)
        #expect(bio.reason == .identityKeyUndecodable)
        #expect(g.items.count == 2)
        // A lost when-passcode-set key, limit one or all.
        var h = fixture { $0.accessibility = .whenPasscodeSetThisDeviceOnly }
        #expect(h.find(spec(.identity)).status == .success)
        h.world.setPasscode(false)
        #expect(h.find(spec(.identity)).status == .decode)
        #expect(h.find(spec(.identity, limit: .all)).status == .decode)
        #expect(h.items.count == 2)
        #expect(h.delete(spec(.identity)).status == .success)
    }

    /// SecAccessControl.m: the application password adds no constraint
    /// (line 219) and `or` is read only for two constraints or more (lines
    /// 222-236), so it is required beside the one constraint (audit 25, F4).
    @Test("4 or with application-password: the password is no way round an invalidated biometry constraint")
    func applicationPasswordIsNoAlternative() {
        var f = Fixture()
        f.mustAdd(spec(.genericPassword, [(.account, str("bio"))],
                       accessControl: AccessControl(flags: [.biometryCurrentSet, .applicationPassword], combinator: .or)))
        f.world.changeBiometry(.change)
        #expect(f.call(.find, gp("bio", service: nil)) { _ in .approve }.status == .itemNotFound)
        #expect(AccessControl(flags: [.biometryAny, .applicationPassword], combinator: .or)
            == AccessControl(flags: [.biometryAny, .applicationPassword], combinator: .and))
    }

    @Test("4 no enrolled biometry: a biometry-only item cannot be opened")
    func biometryRemoved() {
        var f = Fixture()
        f.mustAdd(spec(.genericPassword, [(.account, str("any"))], accessControl: AccessControl(flags: [.biometryAny])))
        f.world.changeBiometry(.remove)
        let r = f.call(.find, gp("any", service: nil, returns: .data)) { _ in .approve }
        #expect(r.status == .authFailed)
        #expect(r.reason == .promptImpossible)
        f.world.changeBiometry(.enroll)
        #expect(f.call(.find, gp("any", service: nil, returns: .data)) { _ in .approve }.status == .success)
    }

    static let constraints: [([AccessControl.Flag], AccessControl.Combinator, Bool, Bool, Bool)] = [
        // flags, combinator, biometry, passcode → satisfiable
        ([.biometryAny], .or, true, true, true),
        ([.biometryAny], .or, false, true, false),
        ([.devicePasscode], .or, true, false, false),
        ([.userPresence], .or, false, true, true),
        ([.userPresence], .or, false, false, false),
        ([.biometryAny, .devicePasscode], .or, false, true, true),
        ([.biometryAny, .devicePasscode], .and, false, true, false),
        ([.applicationPassword], .or, false, false, true),
        // The application password is no alternative (audit 25, F4).
        ([.devicePasscode, .applicationPassword], .or, true, false, false),
        ([.biometryAny, .applicationPassword], .or, false, true, false),
    ]

    @Test("4 access-control flags with or/and", arguments: constraints)
    func satisfiable(_ flags: [AccessControl.Flag], _ c: AccessControl.Combinator, _ bio: Bool, _ pass: Bool, _ ok: Bool) {
        var s = DeviceState()
        s.biometryEnrolled = bio
        s.hasPasscode = pass
        #expect(s.canSatisfy(AccessControl(flags: flags, combinator: c)) == ok)
    }
}
