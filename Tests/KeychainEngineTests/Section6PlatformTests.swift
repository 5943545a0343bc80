import Testing
@testable import KeychainEngine

/// semantics.md section 6: platforms, row by row.
struct Section6PlatformTests {
    func mac() -> Fixture { Fixture(platform: Platform(.macos, 15)) }

    func dp(_ s: ItemSpec) -> ItemSpec {
        var s = s
        s.useDataProtectionKeychain = true
        return s
    }

    @Test("6 macOS: an add without the flag goes to the file keychain, which ignores group, accessibility and sync")
    func fileKeychainAdd() {
        var f = mac()
        let r = f.add(gp("a", group: "no.such.group", accessibility: .always))
        #expect(r.status == .success)
        #expect(r.items.first?.groupName == World.fileKeychainGroupName)
        #expect(r.items.first?.item.owner == f.main)
        #expect(f.keychain.count == 0)
        #expect(f.world[DeviceHandle.this].fileKeychain.count == 1)
        // Group is not part of its identity there: the same key is a duplicate.
        #expect(f.add(gp("a", group: Fixture.shared)).status == .duplicateItem)
    }

    @Test("6 macOS: the flag, or a synchronizable item, chooses the data-protection keychain")
    func dataProtectionRouting() {
        var f = mac()
        #expect(f.add(dp(gp("a"))).items.first?.groupName == Fixture.shared)
        #expect(f.add(gp("b", sync: .yes)).items.first?.groupName == Fixture.shared)
        #expect(f.keychain.count == 2)
    }

    static let consent: [(PromptAnswer?, AuthUI?, KeychainStatus)] = [
        (.approve, nil, .success),
        (.cancel, nil, .authFailed),
        (.fail, nil, .authFailed),
        // SecItem.cpp never reads kSecUseAuthenticationUI: the file keychain
        // prompts whatever auth-ui says.
        (.approve, .fail, .success),
        (.approve, .skip, .success),
        (nil, .fail, .interactionNotAllowed),
    ]

    @Test("6 macOS file keychain: another app reading the data is prompted", arguments: consent)
    func otherAppPrompted(_ answer: PromptAnswer?, _ authUI: AuthUI?, _ expected: KeychainStatus) {
        var f = mac()
        f.mustAdd(gp("a", data: "d"))
        var q = gp("a", returns: .data)
        q.authUI = authUI
        #expect(f.call(.find, q, as: f.plain) { _ in answer }.status == expected)
        // The owner is never asked.
        #expect(f.call(.find, gp("a", returns: .data)) { _ in nil }.status == .success)
    }

    @Test("6 macOS file keychain: data for all matching passwords is errSecParam")
    func dataForAll() {
        var f = mac()
        f.mustAdd(gp("a"))
        #expect(f.find(spec(.genericPassword, limit: .all, returns: .data)).status == .param)
        #expect(f.find(dp(spec(.genericPassword, limit: .all, returns: .data))).status == .itemNotFound)
    }

    @Test("6 macOS: queries without the flag search both keychains and merge; DP missing-entitlement is dropped")
    func mergedQueries() {
        var f = mac()
        f.mustAdd(gp("file"))
        f.mustAdd(dp(gp("dp")))
        #expect(f.find(spec(.genericPassword, limit: .all)).count == 2)
        // Naming a group the caller lacks fails on the DP side only; the file side still answers.
        #expect(f.find(gp("file", group: "\(teamB).shared")).status == .success)
        #expect(f.delete(spec(.genericPassword)).count == 2)
    }

    @Test("6 macOS: the data-protection keychain needs a provisioned app; the file keychain does not")
    func provisioning() {
        var f = mac()
        f.world.setProvisioned(false, for: f.plain)
        #expect(f.add(dp(gp("a")), as: f.plain).status == .missingEntitlement)
        #expect(f.add(gp("a"), as: f.plain).status == .success)
        #expect(f.add(dp(gp("b")), as: f.unsigned).status == .missingEntitlement)
        #expect(f.add(gp("b"), as: f.unsigned).status == .success)
    }

    @Test("6 Mac Catalyst and watchOS use the data-protection keychain only")
    func catalystAndWatch() {
        for p in [Platform(.catalyst, 18), Platform(.watchos, 11)] {
            var f = Fixture(platform: p)
            #expect(f.add(gp("a")).items.first?.groupName == Fixture.shared)
            #expect(f.world[DeviceHandle.this].fileKeychain.count == 0)
        }
    }

    @Test("6 iOS 12 and earlier: unentitled explicit groups find nothing, moves give errSecNoAccessForItem")
    func iOS12Statuses() {
        var f = Fixture(platform: ios12)
        f.mustAdd(gp("a"))
        #expect(f.find(gp("a", group: Fixture.plainID)).status == .itemNotFound)
        #expect(f.update(gp("a"), spec(nil, group: Fixture.plainID)).status == .noAccessForItem)
    }
}
