import Foundation
import KCSCodeCheck
import KCSLanguage
import KCSXcode
import KCSXcodeProject
import Testing

/// Items real-project trial 20 left open, each reduced to the docs
/// project with the one change the trial's reproduction made.
extension XcodeRealProjectsTests {
    /// A manifest that adds its products and targets after the call,
    /// through the variable holding it (`package.products.append(contentsOf:
    /// […])`, the Composable Architecture's reference app isowords: 15
    /// products "of a package none of the project's local packages
    /// declares"; real-project trial 20, D5): they are read, under `if`
    /// too; a statement that sets a list otherwise is said at the manifest
    /// when a product is not found.
    @Test func productsAManifestAppendsAfterTheCallAreRead() throws {
        let manifests = [
            """
            var package = Package(name: "Kit", products: [], targets: [])
            package.products.append(contentsOf: [.library(name: "Kit", targets: ["Kit"])])
            package.targets.append(contentsOf: [.target(name: "Kit")])

            """,
            """
            var package = Package(name: "Kit")
            if ProcessInfo.processInfo.environment["SERVER"] == nil {
                package.products.append(.library(name: "Kit", targets: ["Kit"]))
            }
            package.targets += [.target(name: "Kit")]

            """,
        ]
        for manifest in manifests {
            var f = XcodeFixture.appWidgetShare()
            defer { f.remove() }
            f.targets[0].packageProducts = [.init(name: "Kit", local: "Kit")]
            f.write("Kit/Package.swift", "// swift-tools-version:5.9\nimport Foundation\nimport PackageDescription\n" + manifest)
            f.writeKitModule("Kit")
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            #expect(lint.stderr.contains("Kit.swift:2:59: warning: target 'App' (configuration 'Release') (in package module 'Kit', which it links) names the access group "
                + "\(XcodeFixture.team).com.example.Kit"), "\(manifest): \(lint.stderr)")
            #expect(!lint.stderr.contains("does not read product"), "\(manifest): \(lint.stderr)")
        }
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets[0].packageProducts = [.init(name: "Kit", local: "Kit")]
        f.write("Kit/Package.swift", "// swift-tools-version:5.9\nimport PackageDescription\n"
            + "var package = Package(name: \"Kit\", targets: [.target(name: \"Kit\")])\npackage.products = makeProducts()\n")
        f.writeKitModule("Kit")
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(lint.stderr.contains("Kit/Package.swift:4:1: warning: the code check does not read product 'Kit' of the local package at '\(f.path("Kit"))', "
            + "whose products: kcs does not follow (`package.products = makeProducts()`)"), "\(lint.stderr)")
    }
}
