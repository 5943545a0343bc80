/// App lifecycle: uninstall, install, transfer to another team
/// (semantics.md section 5).
extension World {
    /// Whether an app is installed on a device.
    public func isInstalled(_ app: AppHandle, on device: DeviceHandle = .this) -> Bool {
        !devices[device.index].uninstalled.contains(app)
    }

    /// Removes an app from a device. Its items stay in place; reinstalling
    /// the same app (same team and bundle ID) sees them again.
    public mutating func uninstall(_ app: AppHandle, from device: DeviceHandle = .this) {
        devices[device.index].uninstalled.insert(app)
    }

    /// Installs an app on a device again.
    public mutating func install(_ app: AppHandle, on device: DeviceHandle = .this) {
        devices[device.index].uninstalled.remove(app)
    }

    /// Moves an app to another team: its app ID and its team-prefixed
    /// keychain groups take the new prefix; application groups move with the
    /// app unchanged. Items stored under the old prefix become unreachable.
    public mutating func transfer(_ app: AppHandle, to teamID: String) {
        var target = apps[app.index]
        let old = target.teamID.map { $0 + "." }
        target.keychainAccessGroups = target.keychainAccessGroups.map { group in
            if let old, group.hasPrefix(old) { return teamID + "." + group.dropFirst(old.count) }
            return group
        }
        target.teamID = teamID
        apps[app.index] = target
        refreshCache(app)
    }
}
