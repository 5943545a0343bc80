import Testing
@testable import KeychainEngine

/// Where the conformance rules and the forms meet: every query of an
/// access-control item authenticates (SecDbKeychainItem.m ks_decrypt_data),
/// and a context stands in for that prompt.
extension AuthContextEngineTests {
    @Test("a context authenticated once covers a later attributes-only find and an update")
    func contextCoversEveryAuthenticatingCall() {
        var f = fixture()
        // Without a context an attributes-only find prompts too.
        #expect(f.call(.find, gp("a", returns: .attributes)).reason == .promptUnanswered)
        f.world.declareContext("s", AuthContext())
        var read = gp("a", returns: .data)
        read.context = "s"
        #expect(f.call(.find, read, prompt: { _ in .approve }).status == .success)
        var attributes = gp("a", returns: .attributes)
        attributes.context = "s"
        attributes.authUI = .fail
        #expect(f.call(.find, attributes).status == .success)
        var query = gp("a")
        query.context = "s"
        #expect(f.call(.update, query, changes: spec(nil, [(.label, .string("l"))])).status == .success)
    }

    @Test("an update's context is authenticated by the update's prompt")
    func updateAuthenticatesItsContext() {
        var f = fixture()
        f.world.declareContext("u", AuthContext())
        var query = gp("a")
        query.context = "u"
        #expect(f.call(.update, query, changes: spec(nil, [(.label, .string("l"))]), prompt: { _ in .approve }).status
                == .success)
        var read = gp("a", returns: .data)
        read.context = "u"
        #expect(f.call(.find, read).status == .success)
    }

    @Test("a non-interactive context fails an update that would prompt")
    func nonInteractiveUpdate() {
        var f = fixture()
        f.world.declareContext("q", AuthContext(interactionAllowed: false))
        var query = gp("a")
        query.context = "q"
        let r = f.call(.update, query, changes: spec(nil, [(.label, .string("l"))]), prompt: { _ in .approve })
        #expect(r.status == .interactionNotAllowed)
        #expect(r.reason == .contextNotInteractive)
    }

}

/// Rules the platform decides are the calling device's (sync classes, the
/// Mac's access-group list, App Clips on each platform).
struct PerDevicePlatformRulesEngineTests {
    @Test("a synchronizable certificate syncs between iOS 11+ devices only (each device's dsSyncedClasses)")
    func syncClassesPerDevice() throws {
        var f = Fixture(platform: Platform(.ios, 18))
        let pad = try f.world.addDevice(name: "pad", account: nil)
        let old = try f.world.addDevice(name: "old", account: nil, platform: Platform(.ios, 10))
        let cert = spec(.certificate, [(.issuer, .string("CA")), (.serialNumber, .string("1"))], sync: .yes, data: "c")
        f.mustAdd(cert)
        f.world.sync()
        let query = spec(.certificate, [(.issuer, .string("CA"))], sync: .yes)
        #expect(f.world.perform(CallRequest(.find, query), as: f.main, on: pad).status == .success)
        #expect(f.world.perform(CallRequest(.find, query), as: f.main, on: old).status == .itemNotFound)
        // Passwords travel to every device.
        f.mustAdd(gp("p", sync: .yes, data: "1"))
        f.world.sync()
        #expect(f.world.perform(CallRequest(.find, gp("p", sync: .yes)), as: f.main, on: old).status == .success)
    }

    @Test("an unsigned app: errSecMissingEntitlement on iOS, the token group on a Mac device of the same world")
    func unsignedPerDevice() throws {
        var f = Fixture()
        let mac = try f.world.addDevice(name: "mac", account: nil, platform: Platform(.macos, 15))
        var query = gp("a")
        query.useDataProtectionKeychain = true
        #expect(f.find(query, as: f.unsigned).status == .missingEntitlement)
        #expect(f.world.perform(CallRequest(.find, query), as: f.unsigned, on: mac).status == .itemNotFound)
        #expect(f.world.perform(CallRequest(.add, query), as: f.unsigned, on: mac).reason == .onlyTokenGroup)
        #expect(f.world.accessGroups(of: f.unsigned, on: mac) == [AppTarget.tokenGroup])
        #expect(f.world.accessGroups(of: f.unsigned) == [])
    }

    @Test("an App Clip keeps its rules on every device: its app ID alone, or with the Mac's token group")
    func appClipOnEachPlatform() throws {
        var w = World()
        try w.addTeam(id: teamA)
        let clip = try w.addApp(bundleID: "com.example.clip", name: "clip", teamID: teamA, kind: .appClip,
                                applicationGroups: ["group.com.example"])
        let mac = try w.addDevice(name: "mac", account: nil, platform: Platform(.catalyst, 18))
        #expect(w.accessGroups(of: clip) == ["\(teamA).com.example.clip"])
        #expect(w.accessGroups(of: clip, on: mac) == ["\(teamA).com.example.clip", AppTarget.tokenGroup])
        #expect(w.perform(CallRequest(.add, gp("a", data: "1")), as: clip).status == .success)
        #expect(w.perform(CallRequest(.add, gp("a", data: "1")), as: clip, on: mac).status == .success)
        var sync = gp("s", data: "1")
        sync.synchronizable = .yes
        #expect(w.perform(CallRequest(.add, sync), as: clip, on: mac).status == .restrictedAPI)
    }
}
