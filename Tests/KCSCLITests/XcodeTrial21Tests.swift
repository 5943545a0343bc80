import Foundation
import KCSCodeCheck
import KCSLanguage
import KCSXcode
import KCSXcodeProject
import Testing

/// Real-project trial 21, each case reduced to the docs project with the
/// one change the trial's reproduction made.
extension XcodeRealProjectsTests {
    /// A source whose build file is filtered to macOS (`platformFilters =
    /// (macos, );`, Xcode's "Platforms: macOS" on one file) is not compiled
    /// in the iOS build: its call was checked there (Firezone's macOS-only
    /// CLI sources; real-project trial 21, D1). The share extension's only
    /// source names a group without its team prefix (KCS607).
    @Test func aSourceFilteredToAnotherPlatformIsNotCheckedInThisBuild() throws {
        for (filters, checked) in [([String]?.none, true), (["macos"], false), (["ios"], true), (["ios", "maccatalyst"], true), (["watchos"], false)] {
            var f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            if let filters { f.targets[2].sourceFilters = ["ShareViewController.swift": filters] }
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            #expect(lint.stderr.contains("ShareViewController.swift:6:") == checked, "\(filters ?? []): \(lint.stderr)")
            // KCS604's reason is the build's code too.
            #expect(lint.stderr.contains("kSecClass in ShareViewController.swift") == checked, "\(filters ?? []): \(lint.stderr)")
            // Its one source filtered out, it is not asked for want of one.
            #expect(lint.stderr.contains("target 'Share Extension' is embedded in 'App' but shares no group") == checked, "\(filters ?? []): \(lint.stderr)")
        }
        // A synchronized folder's exception set filters a file the same way
        // (`platformFiltersByRelativePath`).
        for filters in [["macos"], ["ios"]] {
            var f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            f.targets[2].sources = []
            f.targets[2].synchronizedFolders = ["ShareKit"]
            f.synchronizedPlatformFilters = [(folder: "ShareKit", target: "Share Extension", filters: ["Mac/Reader.swift": filters])]
            // The share extension's own source, moved into the folder.
            f.write("ShareKit/Mac/Reader.swift", try String(contentsOfFile: f.path("Share/ShareViewController.swift"), encoding: .utf8))
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            #expect(lint.stderr.contains("Reader.swift:6:") == (filters == ["ios"]), "\(filters): \(lint.stderr)")
        }
    }
}

extension XcodeRealProjectsTests {
    /// An entitlements file one configuration names but kcs cannot read
    /// grants groups kcs does not know: its KCS602 is the one finding, not
    /// a KCS605 and a KCS603 against it for each other configuration (Jami's
    /// deleted `NotificationService-release.entitlements` gave 7 warnings;
    /// real-project trial 21, D4). Either side: the lint's configuration
    /// (Release) or another.
    @Test func anUnreadableEntitlementsFileIsNotComparedWithTheOtherConfigurations() throws {
        for missing in ["Release", "Debug"] {
            var f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            f.configurations = ["Debug", "Development", "Release"]
            var widget = f.targets[1].settings["Release"] ?? [:]
            f.targets[1].settings["Development"] = widget
            widget["CODE_SIGN_ENTITLEMENTS"] = "Widget/Widget-gone.entitlements"
            f.targets[1].settings[missing] = widget
            f.projectSettings["Development"] = f.projectSettings["Release"]
            f.projectXCConfig["Development"] = f.projectXCConfig["Release"]
            f.targets[0].settings["Development"] = f.targets[0].settings["Release"]
            f.targets[2].settings["Development"] = f.targets[2].settings["Release"]
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            let widgetFindings = lint.stderr.split(separator: "\n").filter { $0.contains("warning:") && $0.contains("'Widget'") }
            #expect(widgetFindings.count == 1 && widgetFindings.first?.contains("Widget-gone.entitlements': no such file [KCS602]") == true,
                    "\(missing): \(lint.stderr)")
            #expect(!lint.stderr.contains("[KCS603]") && !lint.stderr.contains("signs with"), "\(missing): \(lint.stderr)")
        }
    }
}
