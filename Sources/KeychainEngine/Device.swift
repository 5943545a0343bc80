/// The state of a device that decides whether items can be used now.
///
/// A new device has a passcode, is unlocked and has been unlocked since boot.
public struct DeviceState: Sendable, Hashable {
    public var hasPasscode: Bool = true
    public var isLocked: Bool = false
    public var unlockedSinceBoot: Bool = true
    public var biometryEnrolled: Bool = true

    public init() {}

    /// The one place the engine decides whether items with a given
    /// accessibility are available in the current state.
    public func isAvailable(_ accessibility: Accessibility) -> Bool {
        // A device without a passcode is always unlocked.
        let unlocked = !hasPasscode || !isLocked
        switch accessibility.requirement {
        case .nothing: return true
        case .firstUnlockSinceBoot: return !hasPasscode || unlockedSinceBoot
        case .unlocked: return unlocked
        case .unlockedWithPasscode: return hasPasscode && unlocked
        }
    }
}

/// A device: its state and the keychain it owns.
public struct Device: Sendable {
    public var name: String
    /// The iCloud account; devices of one account sync.
    public var account: String
    public var state: DeviceState
    public var keychain: Keychain

    public init(name: String, account: String) {
        self.name = name
        self.account = account
        self.state = DeviceState()
        self.keychain = Keychain()
    }
}
