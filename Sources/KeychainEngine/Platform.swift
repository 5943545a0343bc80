/// The operating system a world models, with its major version.
///
/// Only the differences listed in semantics.md section 6 depend on it.
public struct Platform: Sendable, Hashable, CustomStringConvertible {
    /// The operating-system family.
    public enum Family: String, Sendable, Hashable, CaseIterable {
        case ios, macos, catalyst, watchos
    }

    public var family: Family
    public var version: Int

    public init(_ family: Family, _ version: Int) {
        self.family = family
        self.version = version
    }

    /// The default platform of a new world: iOS 18.
    public static let defaultPlatform = Platform(.ios, 18)

    /// Whether a query naming an access group the caller lacks fails with
    /// `errSecMissingEntitlement` (iOS 13 / macOS 10.15 and later) rather than
    /// finding nothing (iOS 12 and earlier; Security-58286 has no such check).
    public var rejectsUnentitledQueryGroups: Bool {
        switch family {
        case .ios, .catalyst: version >= 13
        case .watchos: version >= 6
        case .macos: version >= 11  // 10.15 is written "macos 10" only by approximation; treated as older
        }
    }

    /// The status for moving an item by update into a group the caller lacks:
    /// `errSecMissingEntitlement` from iOS 13, `errSecNoAccessForItem` before.
    public var unentitledMoveStatus: KeychainStatus {
        rejectsUnentitledQueryGroups ? .missingEntitlement : .noAccessForItem
    }

    /// Whether the keychain daemon is the Mac's (macOS and Mac Catalyst):
    /// `#if TARGET_OS_OSX` code in securityd applies, such as entitlement
    /// validation and the implicit `com.apple.token` group.
    public var usesMacDaemon: Bool { family == .macos || family == .catalyst }

    public var description: String { "\(family.rawValue) \(version)" }
}
