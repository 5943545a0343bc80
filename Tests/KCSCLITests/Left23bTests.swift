import Foundation
import KCSCodeCheck
import KCSRuntime
import KCSSyntax
import KCSXcode
import KCSXcodeProject
import Testing

/// Adversarial run 28's low findings (F3, F4, F6, F8) and real-project
/// trial 23's macOS app groups (D8, D9).
@Suite("adversarial run 28 (low) and trial 23 (macOS app groups)")
struct Left23bTests {
    /// The docs project with the share extension compiling `sources`
    /// (relative to Share/) besides its own Swift file.
    private func share(_ sources: [String]) -> XcodeFixture {
        var f = XcodeFixture.appWidgetShare()
        f.targets[2].sources = ["ShareViewController.swift"] + sources
        return f
    }

    /// The line of `lint`'s output that names `place`.
    private func line(_ output: String, _ place: String) -> Substring? {
        output.split(separator: "\n").first { $0.contains(place) }
    }

    /// A lone CR ends a line for the Objective-C reader and swift-syntax,
    /// which say where a use is; the location shown counted only LF, so the
    /// finding named another line (`}`) and a column clamped to it
    /// (adversarial run 28, F6). One rule now: LF, CR LF or a lone CR.
    @Test func aLoneCarriageReturnEndsALineEverywhere() throws {
        let f = share(["Cr.m", "Cr2.swift"])
        defer { f.remove() }
        f.write("Share/Cr.m", "// a comment that ends in a lone CR\r\n@implementation Cr\r- (void)save:(NSMutableDictionary *)q {\n"
                + "    q[(__bridge id)kSecAttrAccessGroup] = @\"SKMME9E2Y8.com.example.wrong\";\n}\n@end\n")
        f.write("Share/Cr2.swift", "import Security\r// a lone CR here\rfunc f(_ q: inout [String: Any]) {\n"
                + "    q[kSecAttrAccessGroup as String] = \"SKMME9E2Y8.com.example.wrong2\"\n}\n")
        f.writeProject()
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(line(lint.stderr, "Cr.m:4:43: warning")?.contains("SKMME9E2Y8.com.example.wrong,") == true, "\(lint.stderr)")
        #expect(lint.stderr.contains(" 4 |     q[(__bridge id)kSecAttrAccessGroup] = @\"SKMME9E2Y8.com.example.wrong\";"), "\(lint.stderr)")
        #expect(line(lint.stderr, "Cr2.swift:4:40: warning")?.contains("SKMME9E2Y8.com.example.wrong2") == true, "\(lint.stderr)")
        #expect(lint.stderr.contains(" 4 |     q[kSecAttrAccessGroup as String] = \"SKMME9E2Y8.com.example.wrong2\""), "\(lint.stderr)")
    }

    /// The same rule in the project's own files: an xcconfig file written
    /// with CR LF was one line to the reader (split on the Character "\n",
    /// which a CR LF is not), so its settings were lost; its lines and a
    /// pbxproj's are counted as the excerpt counts them.
    @Test func crLFAndLoneCRInProjectFilesCountAsTheExcerptCounts() throws {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        f.writeProject()
        let base = try String(contentsOfFile: f.path("Config/Base.xcconfig"), encoding: .utf8)
        f.write("Config/Base.xcconfig", base.replacingOccurrences(of: "\n", with: "\r\n"))
        f.write("Config/Team.xcconfig", "// the team\rDEVELOPMENT_TEAM = SKMME9E2Y8\r\n")
        let pbxproj = try String(contentsOfFile: f.path("App.xcodeproj/project.pbxproj"), encoding: .utf8)
        // A lone CR high in the project file: the line of each setting below it is one more.
        f.write("App.xcodeproj/project.pbxproj", pbxproj.replacingOccurrences(of: "\n", with: "\r", options: [], range: pbxproj.range(of: "\n")))
        let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
        #expect(!lint.stderr.contains("needs a team ID"), "the team is read from a CR LF xcconfig: \(lint.stderr)")
        // KCS604 at the Share Extension's CODE_SIGN_ENTITLEMENTS: the line the
        // reader names is one that sets it, counting the lone CR as a break.
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: f.path("App.xcodeproj/project.pbxproj"))))
        let lines = LineBreaks.lines(bytes).enumerated().filter { String(decoding: bytes[$0.element], as: UTF8.self).contains("Share/Share.entitlements") }.map { $0.offset + 1 }
        let reported = line(lint.stderr, "[KCS604]").flatMap { $0.split(separator: ":").dropFirst().first }.flatMap { Int($0) }
        #expect(reported.map { lines.contains($0) } == true, "\(String(describing: reported)) in \(lines): \(lint.stderr)")
        #expect(!lint.stderr.contains("cannot read this line"), "\(lint.stderr)")
        // The Share Extension's finding on its entitlements and code, as in the docs.
        #expect(lint.stderr.contains("[KCS604]") && lint.stderr.contains("[KCS607]"), "\(lint.stderr)")
        // Every excerpt shows the line its location names.
        let file = SourceFile(name: "p", bytes: Array("a\rb\r\nc\nd\r".utf8))
        #expect((1...5).map { file.lineText($0) } == ["a", "b", "c", "d", ""])
        #expect(file.location(of: 5).line == 3 && file.location(of: 5).column == 1)
        #expect(LineBreaks.lines(Array("a\rb\r\nc\nd\r".utf8)).count == 5)
    }

    private static let use = """
        void save%@(NSMutableDictionary *q) {
            q[(__bridge id)kSecAttrAccessGroup] = %@;
        }

        """

    /// `use` in a function named `save<name>`, passing `value`.
    private func use(_ name: String, _ value: String) -> String {
        Self.use.replacingOccurrences(of: "save%@", with: "save" + name).replacingOccurrences(of: "%@", with: value)
    }

    /// The reader's C was not the compiler's in four places (adversarial
    /// run 28, F3): a `//` comment and a string ending in `\` go on to the
    /// next line; `#if 0` is off and its `#else` is compiled; an `.mm` raw
    /// string is a string. Each checked as the compiler reads it.
    @Test func theObjectiveCReaderPreprocessesAsTheCompilerDoes() throws {
        let f = share(["Cmt.m", "Str.m", "If0.m", "Raw.mm"])
        defer { f.remove() }
        f.write("Share/Cmt.m", "void saveA(NSMutableDictionary *q) {\n    // note \\\n    q[(__bridge id)kSecAttrAccessGroup] = @\"com.example.Notes.commentedOut\";\n"
                + "    // crlf \\\r\n    q[(__bridge id)kSecAttrAccessGroup] = @\"com.example.Notes.commentedOut2\";\n}\n")
        f.write("Share/Str.m", "NSString *s = @\"continued \\\n\"; void saveS(NSMutableDictionary *q) { q[(__bridge id)kSecAttrAccessGroup] = @\"com.example.Notes.hidden\"; }\n")
        f.write("Share/If0.m", "#if 0\n" + use("A", "@\"com.example.Notes.disabled\"") + "#else\n" + use("B", "@\"com.example.Notes.compiledWrong\"") + "#endif\n"
                + "#if 0\n#define G @\"com.example.Notes.Share\"\n#elif 0\n#define G @\"x\"\n#else\n#define G @\"com.example.Notes.elseDefined\"\n#endif\n" + use("C", "G")
                + "#if 1\n" + use("D", "@\"com.example.Notes.onlyBranch\"") + "#else\n" + use("E", "@\"com.example.Notes.deadElse\"") + "#endif\n")
        f.write("Share/Raw.mm", "auto s = R\"(\" q[(__bridge id)kSecAttrAccessGroup] = @\"com.example.Notes.inRawString\"; \")\";\n"
                + "auto t = u8R\"x(\n)\" \" q[(__bridge id)kSecAttrAccessGroup] = @\"com.example.Notes.inRawString2\"; )x\";\n" + use("R", "@\"com.example.Notes.afterRaw\""))
        f.writeProject()
        let found = CodeCheck.run(try ProjectLint.load(f.projectPath).get()).map(\.message)
        for absent in ["commentedOut", "commentedOut2", "disabled", "deadElse", "inRawString", "inRawString2", "another value"] {
            #expect(!found.contains { $0.contains("com.example.Notes.\(absent) ") || $0.contains("com.example.Notes.\(absent),") || ($0.contains(absent) && absent == "another value") },
                    "\(absent): \(found)")
        }
        for present in ["hidden", "compiledWrong", "elseDefined", "onlyBranch", "afterRaw"] {
            #expect(found.contains { $0.contains("names the access group com.example.Notes.\(present)") }, "\(present): \(found)")
        }
        // The same bytes in a `.m` (no raw strings in Objective-C): the string `"("` and then code.
        let m = ObjectiveCSource(Array("auto s = R\"(\" q[(__bridge id)kSecAttrAccessGroup] = @\"a\"; \")\";\n".utf8))
        #expect(m.uses.count == 1)
    }

    /// `G=\"a\"\"b\"` in GCC_PREPROCESSOR_DEFINITIONS is two adjacent C
    /// string literals, one string to the compiler; the quotes between them
    /// were kept (`a""b`), a false KCS607 (adversarial run 28, F8).
    @Test func adjacentLiteralsInADefinitionAreOneString() throws {
        var f = share(["Defs.m"])
        defer { f.remove() }
        for c in ["Debug", "Release"] {
            f.targets[2].settings[c]?["GCC_PREPROCESSOR_DEFINITIONS"] = #"$(inherited) G=\"SKMME9E2Y8.com.example.\"\"Notes.Share\" "H=@\"SKMME9E2Y8.com.\" @\"example.Notes.Shar\"" BAD=\"a\"x"#
        }
        f.write("Share/Defs.m", use("G", "G") + use("H", "H") + use("B", "BAD"))
        f.writeProject()
        let found = CodeCheck.run(try ProjectLint.load(f.projectPath).get()).map(\.message)
        #expect(!found.contains { $0.contains("\"\"") || $0.contains("Notes.Share,") }, "\(found)")
        #expect(found.contains { $0.contains("names the access group SKMME9E2Y8.com.example.Notes.Shar,") }, "\(found)")
        #expect(ObjectiveCSource.stringMacros(fromDefinitions: #"G=\"a.\"\"b\" H=\"x\" \"y\" BAD=\"a\"x"#) == ["G": "a.b", "H": "x"], "an unquoted space ends an item")
        #expect(ObjectiveCSource.stringMacros(fromDefinitions: #"G="\"a.\" \"b\"" BAD=\"a\"x"#) == ["G": "a.b"])
    }

    /// A chain of macros cut at 16 levels memoised the cut for every name
    /// on its path: after a use of M0 (21 levels), a use of M15 (5 levels)
    /// was "built at run time" too, and in the other order both resolved
    /// (adversarial run 28, F4). Now each answer is the same in either
    /// order, and the cut is said as such.
    @Test func aMacroChainAnswersTheSameInAnyOrder() throws {
        let defines = (0..<20).map { "#define M\($0) M\($0 + 1)\n" }.joined() + "#define M20 @\"com.example.Notes.typo\"\n"
        var answers: [Set<String>] = []
        for order in [["M0", "M15"], ["M15", "M0"]] {
            let f = share(["Dep.m"])
            defer { f.remove() }
            f.write("Share/Dep.m", defines + order.map { use($0, $0) }.joined())
            f.writeProject()
            let found = CodeCheck.run(try ProjectLint.load(f.projectPath).get()).filter { $0.file?.name.hasSuffix("Dep.m") == true }
            answers.append(Set(found.map(\.message)))
        }
        #expect(answers[0] == answers[1], "\(answers)")
        #expect(answers[0].count == 2, "\(answers)")
        #expect(answers[0].contains { $0.contains("names the access group com.example.Notes.typo") }, "M15 resolves: \(answers)")
        #expect(answers[0].contains { $0.contains("a value of macros nested more than 16 deep") }, "M0 is cut, said as such: \(answers)")
        #expect(!answers[0].contains { $0.contains("built at run time") }, "\(answers)")
    }

    /// An entitlements file with the sandbox on or off, and these app groups.
    private func macEntitlements(_ f: XcodeFixture, _ path: String, sandbox: Bool, appGroups: [String]) {
        f.write(path, """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>com.apple.security.app-sandbox</key>
            \t<\(sandbox)/>
            \t<key>com.apple.security.application-groups</key>
            \t<array>
            \(appGroups.map { "\t\t<string>\($0)</string>\n" }.joined())\t</array>
            </dict>
            </plist>

            """)
    }

    /// A Mac network extension's Mach service (`NEMachServiceName`) is named
    /// after one of its app groups. LuLu's extension listing `…lul`, one
    /// letter from the app's `…lulu` and its service's, was silent, since
    /// its code names no group API (real-project trial 23, D8).
    @Test func aMacNetworkExtensionsMachServiceIsUnderOneOfItsAppGroups() throws {
        var answers: [String] = []
        for (group, service) in [("com.example.lul", "com.example.lulu"), ("com.example.lulu", "com.example.lulu"), ("com.example.lulu", "com.example.lulu.xpc")] {
            var f = XcodeLintTests.oneApp(sources: [])
            defer { f.remove() }
            f.projectSettings["Release"]?["SDKROOT"] = "macosx"
            f.targets[0].embeds = ["Extension"]
            f.targets.append(XcodeFixture.Target(name: "Extension", productType: "com.apple.product-type.system-extension", settings: ["Release": [
                "PRODUCT_BUNDLE_IDENTIFIER": "com.example.App.extension", "CODE_SIGN_ENTITLEMENTS": "Extension/Extension.entitlements",
                "INFOPLIST_FILE": "Extension/Info.plist"]]))
            macEntitlements(f, "App/App.entitlements", sandbox: true, appGroups: ["$(TeamIdentifierPrefix)com.example.lulu"])
            macEntitlements(f, "Extension/Extension.entitlements", sandbox: true, appGroups: ["$(TeamIdentifierPrefix)" + group])
            f.write("Extension/Info.plist", """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0">
                <dict>
                \t<key>NetworkExtension</key>
                \t<dict>
                \t\t<key>NEMachServiceName</key>
                \t\t<string>$(TeamIdentifierPrefix)\(service)</string>
                \t</dict>
                </dict>
                </plist>

                """)
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            answers.append(lint.stderr.split(separator: "\n").filter { $0.contains("[KCS511]") || $0.hasPrefix("hint: 'App'") }.joined(separator: "\n"))
        }
        #expect(answers[0].contains("Info.plist:7:3: warning: target 'Extension' (configuration 'Release'): its Mach service NEMachServiceName SKMME9E2Y8.com.example.lulu is under none of its app groups (SKMME9E2Y8.com.example.lul)"), "\(answers[0])")
        #expect(answers[0].contains("hint: 'App' lists SKMME9E2Y8.com.example.lulu: add it to the com.apple.security.application-groups of 'Extension', whose SKMME9E2Y8.com.example.lul may be the typo"), "\(answers[0])")
        #expect(answers[1].isEmpty && answers[2].isEmpty, "the group itself, and a name under it: \(answers)")
    }

    /// A sandboxed Mac app reaches only the app groups it lists; where
    /// containerURL returns a URL for any group, as Apple documents. Its
    /// code naming a group it lacks was never checked on macOS (real-project
    /// trial 23, D9: Gifski's `…Gifsky`); now it is, for a sandboxed target,
    /// `group.` and `TEAMID.` groups alike. An app that is not sandboxed
    /// needs no claim, and is not told.
    @Test func aSandboxedMacAppsAppGroupCallsAreChecked() throws {
        var answers: [[String]] = []
        // The third: sandboxed by the build setting ENABLE_APP_SANDBOX (Xcode
        // adds the entitlement), not in the file (review 23b, B4).
        for (sandbox, setting) in [(true, false), (false, false), (false, true)] {
            var f = XcodeLintTests.oneApp(sources: ["Shared.swift"])
            defer { f.remove() }
            f.projectSettings["Release"]?["SDKROOT"] = "macosx"
            if setting { f.projectSettings["Release"]?["ENABLE_APP_SANDBOX"] = "YES" }
            macEntitlements(f, "App/App.entitlements", sandbox: sandbox, appGroups: ["group.com.example.shared", "$(TeamIdentifierPrefix)com.example.shared"])
            f.write("App/Shared.swift", """
                import Foundation
                let defaults = UserDefaults(suiteName: "group.com.example.sahred")
                let folder = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "\(XcodeFixture.team).com.example.sharde")
                let fine = UserDefaults(suiteName: "group.com.example.shared")
                let own = UserDefaults(suiteName: "com.example.App.debug")

                """)
            f.writeProject()
            let lint = try BinaryRunner.run(["lint", "--project", f.projectPath])
            answers.append(lint.stderr.split(separator: "\n").filter { $0.contains("[KCS607]") || $0.contains("[KCS608]") }.map(String.init))
        }
        #expect(answers[0].count == 2, "\(answers[0])")
        #expect(answers[0].contains { $0.contains("Shared.swift:2:") && $0.contains("names the app group group.com.example.sahred, which it is not entitled to: UserDefaults(suiteName:)") }, "\(answers[0])")
        #expect(answers[0].contains { $0.contains("Shared.swift:3:") && $0.contains("SKMME9E2Y8.com.example.sharde") && $0.contains("which the sandbox does not let it use") }, "\(answers[0])")
        #expect(answers[1].isEmpty, "not sandboxed: \(answers[1])")
        // (Each run's project is in a folder of its own: compare past it.)
        let relative = { (lines: [String]) in lines.map { $0.components(separatedBy: "/App/").last ?? $0 } }
        #expect(relative(answers[2]) == relative(answers[0]), "sandboxed by ENABLE_APP_SANDBOX: \(answers[2])")
    }
    /// KCS604's reason read an extension's sources whole, any size (a 70 MB
    /// one was read for it; adversarial run 28). Bounded as the code check
    /// bounds the files it reads for a word: past 16 MiB, not read.
    @Test func kcs604sReasonDoesNotReadAHugeSource() throws {
        var f = share(["Big.swift"])
        defer { f.remove() }
        f.targets[2].sources = ["Big.swift"]
        f.write("Share/Big.swift", "")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: f.path("Share/Big.swift")))
        try handle.truncate(atOffset: 70 << 20)
        try handle.close()
        f.writeProject()
        let files = XcodeLintTests.CountingFileSystem(maxFileSize: 256 << 20)
        let lint = try ProjectLint.load(f.projectPath, fileSystem: files).get()
        var render = ProjectDiagnostics(fileSystem: lint.fileSystem)
        var words: [String: SharedDataScan] = [:]
        let share = try #require(lint.project.targets.first { $0.name == "Share Extension" })
        let reason = lint.sharedDataReason(share, &render, words: &words, mentions: SharedMentions())
        #expect(files.reads["Big.swift"] == nil, "\(files.reads)")
        #expect(reason?.contains("Big.swift") == true, "said as a source kcs cannot read: \(reason ?? "nil")")
    }

}
