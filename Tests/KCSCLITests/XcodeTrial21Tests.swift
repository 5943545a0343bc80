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
