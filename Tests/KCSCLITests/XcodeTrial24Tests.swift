import Foundation
import Testing

/// Real-project trial 24, each case reduced to a small project with the
/// one change the trial's reproduction made.
extension XcodeRealProjectsTests {
    /// An imported scenario's `expect groups` are worked out for the platform
    /// version its `platform` line says: an iOS 12 app's list ends in
    /// com.apple.token, and its own run passes (Mumble's
    /// `IPHONEOS_DEPLOYMENT_TARGET = 12.0`; real-project trial 24, D1).
    @Test func anImportExpectsTheGroupsOfTheVersionItWrites() throws {
        for (deployment, written, token) in [("12.0", 12, true), ("13.0", 13, true), ("14.0", 14, false)] {
            let f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            let base = (try? String(contentsOfFile: f.path("Config/Base.xcconfig"), encoding: .utf8)) ?? ""
            f.write("Config/Base.xcconfig", base.replacingOccurrences(of: "IPHONEOS_DEPLOYMENT_TARGET = 17.0", with: "IPHONEOS_DEPLOYMENT_TARGET = \(deployment)"))
            let scenario = f.path("imported.kcs")
            let imported = try BinaryRunner.run(["import", "xcode", f.projectPath, "-o", scenario])
            #expect(imported.status == 0, "\(imported.stderr)")
            let text = (try? String(contentsOfFile: scenario, encoding: .utf8)) ?? ""
            #expect(text.contains("platform ios \(written)\n"), "\(text)")
            // The app's list (`kcs fmt` may break it over lines).
            let app = text.range(of: "expect groups App ").map { String(text[$0.upperBound...].prefix { $0 != "]" }) } ?? ""
            #expect(app.contains("com.apple.token") == token, "\(text)")
            let run = try BinaryRunner.run(["run", scenario])
            #expect(run.status == 0 && run.stdout.contains(" passed, 0 failed") && !run.stderr.contains("[KCS401]"), "\(run.stdout)\(run.stderr)")
        }
    }
}
