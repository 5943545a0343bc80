import Foundation
import KCSSecItem
import Testing

/// Unit tests of an app's keychain wrapper, run against the model: the
/// kind of test the SecItem-shaped API exists for.
@Suite("KeychainStore wrapper")
struct KeychainStoreTests {
    let world = standardWorld()

    @Test("save, read, overwrite, delete")
    func roundTrip() throws {
        try world.client("One").run {
            let store = KeychainStore(service: "api")
            #expect(try store.read(for: "alice") == nil)
            try store.save(Data("t1".utf8), for: "alice")
            #expect(try store.read(for: "alice") == Data("t1".utf8))
            try store.save(Data("t2".utf8), for: "alice")
            #expect(try store.read(for: "alice") == Data("t2".utf8))
            try store.save(Data([0xFF, 0x00]), for: "bob")
            #expect(try store.accounts() == ["alice", "bob"])
            try store.delete(for: "alice")
            #expect(try store.read(for: "alice") == nil)
            try store.delete(for: "alice")  // deleting twice is fine
            #expect(try store.read(for: "bob") == Data([0xFF, 0x00]))
        }
    }

    @Test("two apps sharing a group see each other's secrets")
    func sharedGroup() throws {
        let shared = KeychainStore(service: "api", accessGroup: "SKMME9E2Y8.com.example.Shared")
        try world.client("One").run { try shared.save(Data("tok".utf8), for: "alice") }
        #expect(try world.client("Two").run { try shared.read(for: "alice") } == Data("tok".utf8))
        // Without naming the group Two finds it too: it searches its whole list.
        #expect(try world.client("Two").run { try KeychainStore(service: "api").read(for: "alice") }
                == Data("tok".utf8))
    }

    @Test("an extension without the entitlement: nil, or -34018 when the group is named")
    func extensionWithoutEntitlement() throws {
        try world.client("One").run { try KeychainStore(service: "api").save(Data("tok".utf8), for: "alice") }
        try world.client("Widget").run { () throws in
            // The bug users ship: the widget silently reads nothing.
            #expect(try KeychainStore(service: "api").read(for: "alice") == nil)
            let named = KeychainStore(service: "api", accessGroup: "SKMME9E2Y8.com.example.Shared")
            #expect(throws: KeychainStore.KeychainError.unhandled(errSecMissingEntitlement)) {
                try named.read(for: "alice")
            }
        }
    }

    @Test("after-first-unlock items: readable while locked, not after a reboot")
    func deviceState() throws {
        let one = world.client("One")
        try one.run { try KeychainStore(service: "api").save(Data("tok".utf8), for: "alice") }
        world.modify { $0.lock() }
        #expect(try one.run { try KeychainStore(service: "api").read(for: "alice") } == Data("tok".utf8))
        world.modify { $0.reboot() }
        #expect(throws: KeychainStore.KeychainError.unhandled(errSecInteractionNotAllowed)) {
            try one.run { try KeychainStore(service: "api").read(for: "alice") }
        }
        world.modify { $0.unlock() }
        #expect(try one.run { try KeychainStore(service: "api").read(for: "alice") } == Data("tok".utf8))
    }

    @Test("an unsigned test host gets -34018 from every call")
    func unsignedHost() {
        let world = makeWorld("app com.example.Tests as Host team=none")
        #expect(throws: KeychainStore.KeychainError.unhandled(errSecMissingEntitlement)) {
            try world.client("Host").run { try KeychainStore(service: "api").save(Data(), for: "a") }
        }
    }
}
