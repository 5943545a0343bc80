import Foundation
import KCSCodeCheck
import KCSLanguage
import KCSXcode
import KCSXcodeProject
import Testing

/// Real-project trial 22, each case reduced to a small project with the
/// one change the trial's reproduction made.
extension XcodeRealProjectsTests {
    /// A team-prefixed app group the target also lists as a keychain group
    /// (`$(AppIdentifierPrefix)group.x`, Delta Chat's and Proton Pass's
    /// shape) is no app group written with a prefix: "drop the prefix" would
    /// move the items out of the group the shipped build keeps them in. The
    /// wrong team gets "another team's prefix", a typo "did you mean"
    /// (real-project trial 22, D1).
    @Test func aTeamPrefixedGroupTheTargetListsAsAKeychainGroupIsNotToldToDropThePrefix() throws {
        let team = XcodeFixture.team
        // The code's team is wrong; the entitlements' keychain group is misspelt.
        for (listed, written, expected) in [
            ("group.com.example.app", "SKMME9E2Y9.group.com.example.app",
             "the group has another team's prefix: the target is signed by \(team), so write \"\(team).group.com.example.app\""),
            ("group.com.example.ap", "\(team).group.com.example.app",
             "did you mean \"\(team).group.com.example.ap\"? or, if the code is right, \(team).group.com.example.ap in its entitlements is the typo"),
        ] {
            let f = XcodeLintTests.oneApp(sources: ["Store.swift"])
            defer { f.remove() }
            f.writeEntitlements("App/App.entitlements", keychain: ["$(AppIdentifierPrefix)" + listed], appGroups: ["group.com.example.app"])
            f.write("App/Store.swift", "let a = Keychain(service: \"s\", accessGroup: \"\(written)\")\n")
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            #expect(lint.stderr.components(separatedBy: "[KCS607]").count == 2, "\(lint.stderr)")
            #expect(lint.stderr.contains("hint: " + expected), "\(lint.stderr)")
            #expect(!lint.stderr.contains("without the team prefix"), "\(lint.stderr)")
        }
    }
}
