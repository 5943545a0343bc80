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

extension XcodeRealProjectsTests {
    /// An access group in a stored `static var` (or a global `var`): its
    /// value is the constant's when no file the target compiles assigns
    /// the name. ProtonVPN keeps `static var keychainAccessGroup: String =
    /// "\(appIdentifierPrefix)prt.ProtonVPN"` in three places: "built at
    /// run time", and a widget without its group went unseen (real-project
    /// trial 20, D2's `static var` form, plant m15).
    @Test func anAccessGroupInAStoredVarNoFileAssignsIsChecked() throws {
        let shapes = [
            // ProtonVPN's: the var over a computed Info.plist read (`Self.x`), used as `Self.x` in the type.
            """
            enum Env {
                static var keychainAccessGroup: String = "\\(Self.appIdentifierPrefix)com.example.Notes.GROUP"
                static var appIdentifierPrefix: String {
                    return Bundle.main.infoDictionary!["AppIdentifierPrefix"] as! String
                }
                static let query: [String: Any] = [kSecAttrAccessGroup as String: Self.keychainAccessGroup]
            }

            func read() -> OSStatus { SecItemCopyMatching(Env.query as CFDictionary, nil) }

            """,
            // `Type.x` from outside, and a bare use in a static function of the type.
            """
            enum Env {
                static var group = "SKMME9E2Y8.com.example.Notes.GROUP"
                static func read() -> OSStatus {
                    SecItemCopyMatching([kSecAttrAccessGroup as String: group] as CFDictionary, nil)
                }
            }

            func read() -> OSStatus { SecItemCopyMatching([kSecAttrAccessGroup as String: Env.group] as CFDictionary, nil) }

            """,
            // A global var, declared in the file or another one.
            """
            var widgetGroup = "SKMME9E2Y8.com.example.Notes.GROUP"

            func read() -> OSStatus { SecItemCopyMatching([kSecAttrAccessGroup as String: widgetGroup] as CFDictionary, nil) }

            """,
        ]
        for (i, shape) in shapes.enumerated() {
            let lint = try Self.lintRightAndMisspelt(shape, Self.infoPlistPrefix)
            #expect(!lint.right.contains("Provider.swift"), "shape \(i): \(lint.right)")
            #expect(lint.misspelt.contains(Self.misspeltGroupFound), "shape \(i): \(lint.misspelt)")
            #expect(!lint.misspelt.contains("KCS608"), "shape \(i): \(lint.misspelt)")
        }
    }

    /// `kcs lint --project` of the project `make` writes from `code`, with
    /// `GROUP` spelt `shared` (right) and `sharde` (misspelt): the stderr of each.
    static func lintRightAndMisspelt(_ code: String, _ make: (String) -> XcodeFixture) throws -> (right: String, misspelt: String) {
        let right = make(code.replacingOccurrences(of: "GROUP", with: "shared"))
        defer { right.remove() }
        let misspelt = make(code.replacingOccurrences(of: "GROUP", with: "sharde"))
        defer { misspelt.remove() }
        return (try BinaryRunner.run(["lint", "--project", right.projectPath]).stderr, try BinaryRunner.run(["lint", "--project", misspelt.projectPath]).stderr)
    }

    /// What the lint says of the widget's misspelt group.
    static let misspeltGroupFound = "warning: target 'Widget' (configuration 'Release') names the access group SKMME9E2Y8.com.example.Notes.sharde, "
        + "which it is not entitled to"

    /// A stored var some file assigns (`=`, `+=`, a mutating call, `&`),
    /// or one another module may set (`public`), stays a value built at
    /// run time: the group it starts with may not be the one used.
    @Test func aStoredVarAFileChangesIsNoConstant() throws {
        let changes = [
            "Env.group = \"SKMME9E2Y8.com.example.Notes.other\"",
            "Env.group += \".other\"",
            "Env.group.append(\".other\")",
            "swap(&Env.group, &other)",
        ]
        let code = """
            enum Env {
                DECL group = "SKMME9E2Y8.com.example.Notes.sharde"
            }

            func read() -> OSStatus { SecItemCopyMatching([kSecAttrAccessGroup as String: Env.group] as CFDictionary, nil) }

            """
        for change in changes {
            var f = Self.infoPlistPrefix(code.replacingOccurrences(of: "DECL", with: "static var"))
            defer { f.remove() }
            // In a file that names no group, read only because it says the name.
            f.write("Widget/Setup.swift", "import Foundation\n\nvar other = \"\"\n\nfunc setUp() {\n    \(change)\n}\n")
            f.targets[1].sources.append("Setup.swift")
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            #expect(lint.stderr.contains("passes kSecAttrAccessGroup a value built at run time (Env.group)"), "\(change): \(lint.stderr)")
            #expect(!lint.stderr.contains("names the access group SKMME9E2Y8.com.example.Notes.sharde"), "\(change): \(lint.stderr)")
        }
        let f = Self.infoPlistPrefix(code.replacingOccurrences(of: "DECL", with: "public static var"))
        defer { f.remove() }
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(lint.stderr.contains("passes kSecAttrAccessGroup a value built at run time (Env.group)"), "\(lint.stderr)")
    }
}
