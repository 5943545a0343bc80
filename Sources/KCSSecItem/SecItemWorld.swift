import KeychainEngine

/// A world shared by SecItem clients: the engine's ``World`` behind a lock,
/// the prompt answers queued for it, and the result of the last call.
///
/// Several clients (an app and its extension, two apps of one team) can
/// share one world, so what one adds the other finds exactly as the access
/// groups allow. Build the world with the engine's API (or take
/// `Session.world` after running a scenario's declarations) and hand it over.
public final class SecItemWorld: Sendable {
    struct State {
        var world: World
        var promptAnswers: [PromptAnswer] = []
        var lastResult: CallResult?
    }

    private let state: Locked<State>

    /// Wraps a world; its apps, devices and items are kept.
    public init(_ world: World) {
        state = Locked(State(world: world))
    }

    /// A snapshot of the world now (a value: later calls do not change it).
    public var world: World { state.withLock { $0.world } }

    /// Changes the world in place: lock the device, reboot, add an app, sync.
    @discardableResult
    public func modify<R>(_ body: (inout World) throws -> R) rethrows -> R {
        try state.withLock { try body(&$0.world) }
    }

    /// The engine's result of the most recent call: its status, the rule that
    /// decided it, the caller's groups and the groups searched.
    public var lastResult: CallResult? { state.withLock { $0.lastResult } }

    /// Queues answers for authentication prompts (items with access control
    /// read with ``kSecReturnData``), used oldest first. A prompt with no
    /// answer queued fails the call with `errSecInteractionNotAllowed`.
    public func answerPrompts(_ answers: PromptAnswer...) {
        state.withLock { $0.promptAnswers += answers }
    }

    /// A client calling as `app` on `device`.
    public func client(for app: AppHandle, on device: DeviceHandle = .this) -> SecItemClient {
        SecItemClient(world: self, app: app, device: device)
    }

    /// A client calling as the app declared under `name`; nil if there is none.
    public func client(named name: String, on device: DeviceHandle = .this) -> SecItemClient? {
        guard let app = world.app(named: name) else { return nil }
        return client(for: app, on: device)
    }

    /// Runs one call under the lock, answering prompts from the queue.
    func perform(_ request: CallRequest, as app: AppHandle, on device: DeviceHandle) -> CallResult {
        state.withLock { s in
            var answers = s.promptAnswers
            let result = s.world.perform(request, as: app, on: device, prompt: { _ in
                answers.isEmpty ? nil : answers.removeFirst()
            })
            s.promptAnswers = answers
            s.lastResult = result
            return result
        }
    }
}
