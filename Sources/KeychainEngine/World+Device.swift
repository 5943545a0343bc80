/// Device state changes (semantics.md section 4).
extension World {
    /// Turns the passcode on or off. Removing it loses every
    /// when-passcode-set item for good (their class key is destroyed); a new
    /// passcode does not bring them back. The rows stay until a read skips
    /// them or a delete removes them (see `StoredItem.lost`). Returns how many
    /// items were lost.
    @discardableResult
    public mutating func setPasscode(_ on: Bool, on device: DeviceHandle = .this) -> Int {
        syncEpoch += 1
        devices[device.index].state.hasPasscode = on
        if on {
            // A new passcode: the device stays unlocked until it is locked.
            devices[device.index].state.isLocked = false
            processIncoming(on: device)
            return 0
        }
        // Biometry needs a passcode: turning it off removes Face ID and Touch
        // ID, so biometry-current-set items end as with `biometry remove`
        // (Apple's documentation of LocalAuthentication, whose code is
        // closed: LAErrorPasscodeNotSet; raised by a conformance audit).
        if devices[device.index].state.biometryEnrolled { changeBiometry(.remove, on: device) }
        let doomed = devices[device.index].keychain.allItems.filter {
            $0.1.accessibility == .whenPasscodeSetThisDeviceOnly && !$0.1.lost
        }
        for (id, item) in doomed {
            var lost = item
            lost.lost = true
            devices[device.index].keychain.replace(id, with: lost)
        }
        // Without a passcode every class key is there: what sync queued is applied.
        processIncoming(on: device)
        return doomed.count
    }

    /// Locks the device. Without a passcode a device is always unlocked, so
    /// this changes nothing there.
    public mutating func lock(_ device: DeviceHandle = .this) {
        if devices[device.index].state.hasPasscode { devices[device.index].state.isLocked = true }
    }

    /// Unlocks the device; the first unlock since boot makes
    /// after-first-unlock items available until the next reboot. What sync
    /// brought while the device was locked is written now
    /// (``processIncoming(on:)``).
    public mutating func unlock(_ device: DeviceHandle = .this) {
        devices[device.index].state.isLocked = false
        devices[device.index].state.unlockedSinceBoot = true
        processIncoming(on: device)
        // With biometry enrolled the unlock is taken to be a biometric one:
        // an LAContext's reuse duration counts from it.
        if devices[device.index].state.biometryEnrolled { devices[device.index].lastBiometricUnlock = now }
    }

    /// Restarts the device: locked (with a passcode) and not yet unlocked
    /// since boot. Every app process ends, and with it every `LAContext`
    /// authenticated there (``forgetContexts(on:of:)``).
    public mutating func reboot(_ device: DeviceHandle = .this) {
        let hasPasscode = devices[device.index].state.hasPasscode
        devices[device.index].state.isLocked = hasPasscode
        devices[device.index].state.unlockedSinceBoot = !hasPasscode
        forgetContexts(on: device)
    }

    /// Ends the authentication of the contexts authenticated on `device`
    /// (by `app`'s calls only, when given): an `LAContext` is an object of
    /// the app's process (SecItem.m `SecItemAuthDo`, lines 1513-1523, reads
    /// it from the caller's dictionary), so a process that ended takes it
    /// along, and what the relaunched app passes is a new one, never
    /// authenticated (audit 25, F5).
    mutating func forgetContexts(on device: DeviceHandle, of app: AppHandle? = nil) {
        for name in contextNames where contexts[name]?.authenticatedOn == device
            && (app == nil || contexts[name]?.authenticatedBy == app) {
            contexts[name]?.authenticatedOn = nil
            contexts[name]?.authenticatedBy = nil
            contexts[name]?.credentials = []
        }
    }

    /// Enrolls, changes or removes biometry. A change of the enrolled set (or
    /// its removal) makes biometry-current-set items unusable for good.
    public mutating func changeBiometry(_ change: BiometryEvent, on device: DeviceHandle = .this) {
        switch change {
        case .enroll:
            if !devices[device.index].state.biometryEnrolled { devices[device.index].state.biometrySet += 1 }
            devices[device.index].state.biometryEnrolled = true
        case .change:
            devices[device.index].state.biometryEnrolled = true
            devices[device.index].state.biometrySet += 1
        case .remove:
            devices[device.index].state.biometryEnrolled = false
            devices[device.index].state.biometrySet += 1
        }
    }
}

/// A change to the enrolled biometry.
public enum BiometryEvent: String, Sendable, Hashable, CaseIterable {
    case enroll, change, remove
}

extension StoredItem {
    /// A biometry-current-set item whose enrolled set has changed since it
    /// was added can no longer be used: it is not found (inferred: Apple's
    /// code for this is closed). With `or` and another constraint, that
    /// other way still opens it, so it stays; the application password is
    /// no such way (it is required beside the constraints, audit 25, F4).
    public func isInvalidated(by state: DeviceState) -> Bool {
        guard let ac = accessControl, ac.flags.contains(.biometryCurrentSet) else { return false }
        guard ac.requiresEveryConstraint else { return false }
        return biometrySet != state.biometrySet
    }

    /// Whether the row no longer decrypts (errSecDecode): a when-passcode-set
    /// row lost with the passcode (``lost``), or a biometry-current-set row
    /// whose enrolled set changed (``isInvalidated(by:)``, kcs's premise).
    /// securityd does not ask why a row fails to decode: a find or an update
    /// that reads it deletes it (``World`` `walk`), an add or an update of its
    /// key takes its place, and a delete removes it.
    public func isUndecodable(in state: DeviceState) -> Bool {
        lost || isInvalidated(by: state)
    }

    /// Whether the lock keeps the row's class away now, so that decrypting
    /// it answers errSecInteractionNotAllowed before anything else: the
    /// metadata is decrypted first, with a key the class key unwraps
    /// (`SecDbKeychainItem.m` `ks_decrypt_data` lines 467-485;
    /// `SecDbKeychainMetadataKeyStore.m` lines 161-185), and the lock drops
    /// every class A metadata key (lines 92-103, 123-131). That holds for a
    /// row that would not decode too (audit 25, F2). A lost when-passcode-set
    /// row has no passcode rule left to fail: only the lock answers
    /// (inferred: AppleKeyStore is closed).
    public func isLockedAway(in state: DeviceState) -> Bool {
        !state.isAvailable(lost ? .whenUnlocked : accessibility)
    }
}
