import Foundation
import KCSCodeCheck
import KCSLanguage
import KCSRuntime
import KCSSyntax
import KCSXcode
import KCSXcodeProject
import Testing

/// Adversarial run 28: bounds in `lint --project`'s code check. Counted
/// where a count shows the work (files read, files lexed, tables made);
/// timed only where time alone shows it, with a bound the old code
/// exceeds by far.
@Suite("adversarial run 28: the code check's bounds")
struct Adversarial28Tests {
    /// The docs project with the share extension compiling `sources`
    /// (relative to Share/) besides its own Swift file.
    private func share(_ sources: [String]) -> XcodeFixture {
        var f = XcodeFixture.appWidgetShare()
        f.targets[2].sources = ["ShareViewController.swift"] + sources
        return f
    }

    private static let use = """
        void save(NSMutableDictionary *q) {
            q[(__bridge id)kSecAttrAccessGroup] = %@;
        }

        """

    /// An Objective-C file holding a name the target's Swift looks up
    /// was parsed as Swift, past the pre-scan that keeps swift-syntax's
    /// exponential nesting out: 26 nested `[[…]]` in a 126-byte `.m` took
    /// 55 s, each level twice as long (adversarial run 28, F12). At 32
    /// levels the old code runs into the 60 s limit (KCS311) by far.
    @Test func anObjectiveCFileIsNotParsedAsSwift() throws {
        let f = share(["U.swift", "G.m"])
        defer { f.remove() }
        f.write("Share/U.swift", "import Security\nfunc u(_ q: inout [String: Any]) {\n    q[kSecAttrAccessGroup as String] = kGroup\n}\n")
        f.write("Share/G.m", "NSString *const kGroup = @\"com.example.Notes.typo\";\nid g = " + String(repeating: "[", count: 32) + String(repeating: "]", count: 32) + ";\n")
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(!lint.stderr.contains("KCS311"), "\(lint.stderr.prefix(2000))")
        let finding = lint.stderr.split(separator: "\n").first { $0.contains("U.swift:3:") }
        #expect(finding?.contains("com.example.Notes.typo") == true && finding?.contains("[KCS607]") == true, "\(lint.stderr)")
        #expect(lint.stderr.contains("G.m:1"), "the constant's definition is noted: \(lint.stderr)")
    }

    /// KCS604's reason in a linked framework's file: extensions that link
    /// the same framework and compile the same file lexed it again, each
    /// (16 extensions over one 1 MiB `.m` took 51 s; adversarial run 28,
    /// F9). Counted: each file is lexed once for all of them.
    @Test func kcs604LexesEachFileOnceForAllExtensions() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.targets.append(XcodeFixture.Target(name: "Kit", productType: "com.apple.product-type.framework", sources: ["Kc.swift"]))
        f.write("Kit/Kc.swift", "import Security\npublic func kcThing() -> OSStatus { SecItemAdd([:] as CFDictionary, nil) }\n")
        f.write("Share/Big.m", String(repeating: "a ", count: 5000) + "\n")
        f.targets[2].sources = ["Big.m"]
        f.targets[2].links = ["Kit"]
        let share = f.targets[2]
        for i in 0..<8 {
            var t = share
            t.name = "Share\(i)"
            t.settings = share.settings.mapValues { var s = $0; s["PRODUCT_BUNDLE_IDENTIFIER"] = "com.example.Notes.Share\(i)"; return s }
            f.targets.append(t)
            f.targets[0].embeds.append(t.name)
        }
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath).get()
        var render = ProjectDiagnostics(fileSystem: lint.fileSystem)
        var words: [String: SharedDataScan] = [:]
        let mentions = SharedMentions()
        let extensions = lint.project.targets.filter { $0.name.hasPrefix("Share") }
        #expect(extensions.count == 9)
        var reasons: [String?] = []
        for t in extensions { reasons.append(lint.sharedDataReason(t, &render, words: &words, mentions: mentions)) }
        // Big.m and Kc.swift, once each (the old code: 9 times each).
        #expect(mentions.scanned == 2, "\(mentions.scanned)")
        #expect(Set(reasons.map { $0 ?? "nil" }).count == 1, "each extension answered alike: \(reasons)")
    }

    /// A keychain name is told on bytes, as before on `Substring`s.
    @Test func keychainNamesAreToldOnBytes() {
        for name in ["SecItemAdd", "SecAccessControlCreateWithFlags", "kSecClass", "kSecAttrAccessGroup", "kSecReturnData", "kSecUseDataProtectionKeychain"] {
            #expect(KeychainNames.isKeychainName(Substring(name)), "\(name)")
        }
        for name in ["kSecAttrKeyTypeEC", "kSecRandomDefault", "Sec", "secItem", "", "SecKey", "ké"] {
            #expect(!KeychainNames.isKeychainName(Substring(name)), "\(name)")
        }
        for name in ["KeychainSwift", "keychain", "SAMKeyChain", "Valet", "myKeychainStore"] {
            #expect(KeychainNames.isWrapperName(Substring(name)), "\(name)")
        }
        for name in ["Keys", "key", "chain", "valet", ""] {
            #expect(!KeychainNames.isWrapperName(Substring(name)), "\(name)")
        }
    }
}
