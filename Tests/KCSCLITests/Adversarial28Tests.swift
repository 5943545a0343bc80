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
}
