import KeychainEngine

/// The SecItem calls of one app on one device of a ``SecItemWorld``.
///
/// Call its methods directly, or bind it with ``run(_:)-(()->R)`` so the free
/// functions (``SecItemAdd(_:_:)`` and the others) act as this app, the way
/// code written for Apple platforms calls them.
public struct SecItemClient: Sendable {
    /// The client the free SecItem functions use in the current task; nil
    /// outside ``run(_:)-(()->R)``.
    @TaskLocal public static var current: SecItemClient?

    /// The world the calls act on.
    public let world: SecItemWorld
    /// The calling app.
    public let app: AppHandle
    /// The device the calls run on.
    public let device: DeviceHandle

    /// Creates a client; ``SecItemWorld/client(for:on:)`` is the usual way.
    public init(world: SecItemWorld, app: AppHandle, device: DeviceHandle = .this) {
        self.world = world
        self.app = app
        self.device = device
    }

    /// Runs `body` with this client bound, so the free SecItem functions
    /// called inside it (also from nested calls) act as this app.
    public func run<R>(_ body: () throws -> R) rethrows -> R {
        try Self.$current.withValue(self, operation: body)
    }

    /// The asynchronous form of ``run(_:)-(()->R)``.
    public func run<R>(isolation: isolated (any Actor)? = #isolation,
                       _ body: () async throws -> R) async rethrows -> R {
        try await Self.$current.withValue(self, operation: body, isolation: isolation)
    }

    /// Adds an item, as `SecItemAdd`; `result` receives what the return keys ask for.
    public func add(_ attributes: [String: Any], _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
        result?.pointee = nil
        let spec: ItemSpec
        // A string for kSecValueData: only an add to the Mac's file-based
        // keychain converts it; securityd refuses it.
        switch read(attributes, .add, stringData: true) {
        case .success(let s): spec = s
        case .failure(let refusal): return refusal.status.code
        }
        let outcome = world.perform(CallRequest(.add, spec), as: app, on: device)
        if outcome.status == .success {
            result?.pointee = ResultBuilder.result(outcome.items, returns: spec.returns, single: true,
                                                   platform: world.world.platform(of: device), find: false,
                                                   fileKeychain: usesFileKeychain(spec))
        }
        return outcome.status.code
    }

    /// A dictionary read for the keychain the call goes to: a call that
    /// reaches the Mac's file-based keychain is read again with its bytes
    /// for values (``DictionaryReader/fileKeychainValue(_:_:)``) and its
    /// client's own checks; `changes` are read for the keychain `query`
    /// goes to. `stringData`: a string for kSecValueData is taken on the
    /// file route (an add there converts it).
    private func read(_ dictionary: [String: Any], _ operation: KeychainEngine.Operation, stringData: Bool = false,
                      for query: ItemSpec? = nil) -> Result<ItemSpec, DictionaryReader.Refusal> {
        let typed = DictionaryReader.read(dictionary, operation: operation)
        guard case .success(let spec) = typed, usesFileKeychain(query ?? spec) else { return typed }
        return DictionaryReader.read(dictionary, operation: operation, stringData: stringData, fileKeychain: true)
    }

    /// Whether a call goes to the Mac's file-based keychain, whose results
    /// SecItem.cpp shapes (only what was asked for), not SecItem.m.
    private func usesFileKeychain(_ spec: ItemSpec) -> Bool {
        World.reachesFileKeychain(spec, on: world.world.platform(of: device))
    }

    /// A query as the Mac's client passes it on (macOS and Mac Catalyst).
    /// Its translation (SecItem.cpp `SecItemCopyTranslatedAttributes`,
    /// 4699-4729) drops kSecValueData from a find's, an update's and a
    /// delete's query (`pruneData`), which securityd would refuse as a
    /// string (one dictionary with a string password, reused for all four
    /// calls, works on a Mac); elsewhere the query goes as it is. From an
    /// update's and a delete's query it also drops the return keys on
    /// both sides (`pruneReturn`) and the match keys on the
    /// data-protection side (`pruneMatch`; 5078-5079, 5091-5092,
    /// 5108-5109, 5150-5151, 5162-5163), so securityd's checks of their
    /// types never run (audit 19, F3): a match limit stays only when the
    /// call reaches the file keychain, whose client reads a string other
    /// than All as one (3131-3135) and checks the type itself (2982).
    private func macPruned(_ query: [String: Any], _ operation: KeychainEngine.Operation) -> [String: Any] {
        guard world.world.platform(of: device).usesMacDaemon else { return query }
        var pruned = query
        pruned[kSecValueData] = nil
        guard operation == .update || operation == .delete else { return pruned }
        for key in [kSecReturnData, kSecReturnAttributes, kSecReturnRef, kSecReturnPersistentRef] { pruned[key] = nil }
        if let limit = pruned[kSecMatchLimit] {
            if case .success(let spec) = DictionaryReader.read(pruned, operation: operation), usesFileKeychain(spec) {
                if let s = limit as? String, s != kSecMatchLimitAll { pruned[kSecMatchLimit] = kSecMatchLimitOne }
            } else {
                pruned[kSecMatchLimit] = nil
            }
        }
        return pruned
    }

    /// Finds items, as `SecItemCopyMatching`; `result` receives a single value
    /// for a match limit of one (the default) and an array otherwise.
    public func copyMatching(_ query: [String: Any], _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
        result?.pointee = nil
        let spec: ItemSpec
        switch read(macPruned(query, .find), .find) {
        case .success(let s): spec = s
        case .failure(let refusal): return refusal.status.code
        }
        let outcome = world.perform(CallRequest(.find, spec), as: app, on: device)
        if outcome.status == .success {
            result?.pointee = ResultBuilder.result(outcome.items, returns: spec.returns,
                                                   single: (spec.limit ?? .one).givesSingleResult,
                                                   platform: world.world.platform(of: device), find: true,
                                                   fileKeychain: usesFileKeychain(spec))
        }
        return outcome.status.code
    }

    /// Changes every item the query matches, as `SecItemUpdate`.
    public func update(_ query: [String: Any], _ attributesToUpdate: [String: Any]) -> OSStatus {
        // kSecClass among the changes is refused whatever its value (a device
        // parses the changes key by key, and "class" is no attribute): it is
        // kept aside so that the engine refuses it at its place in the order.
        var attributes = attributesToUpdate
        let classAmongChanges = attributes.removeValue(forKey: kSecClass) != nil
        let spec: ItemSpec
        var changes: ItemSpec
        let readQuery = read(macPruned(query, .update), .update)
        let readChanges = readQuery.flatMap { q in read(attributes, .update, for: q) }
        switch (readQuery, readChanges) {
        case (.failure(let refusal), _), (_, .failure(let refusal)): return refusal.status.code
        case (.success(let q), .success(let c)): (spec, changes) = (q, c)
        }
        // Without a class in the query the engine stops earlier (errSecParam).
        if classAmongChanges { changes.itemClass = spec.itemClass }
        return world.perform(CallRequest(.update, spec, changes: changes), as: app, on: device).status.code
    }

    /// Deletes every item the query matches, as `SecItemDelete`.
    public func delete(_ query: [String: Any]) -> OSStatus {
        let spec: ItemSpec
        switch read(macPruned(query, .delete), .delete) {
        case .success(let s): spec = s
        case .failure(let refusal): return refusal.status.code
        }
        return world.perform(CallRequest(.delete, spec), as: app, on: device).status.code
    }
}
