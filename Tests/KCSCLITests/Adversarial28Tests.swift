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
        f.embedShareCopies(8)
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

    /// A header reached again through a link to its own folder (`l/C.h`,
    /// `l/l/C.h`, …) was read and tokenised again under each path, until
    /// the read budget was spent (adversarial run 28, F7). Counted: it is
    /// read once, and the use of its macro is checked.
    @Test func aHeaderIsReadOncePerRealFile() throws {
        let f = share(["S.m"])
        defer { f.remove() }
        f.write("Share/C.h", "#import \"l/C.h\"\n#define G @\"com.example.Notes.typo\"\n")
        f.write("Share/S.m", "#import \"C.h\"\n" + Self.use.replacingOccurrences(of: "%@", with: "G"))
        try FileManager.default.createSymbolicLink(atPath: f.path("Share/l"), withDestinationPath: ".")
        f.writeProject()
        let files = XcodeLintTests.CountingFileSystem()
        let found = CodeCheck.run(try ProjectLint.load(f.projectPath, fileSystem: files).get())
        // Once to read it, once for the finding's note (the old code: once per path, `l/C.h`, `l/l/C.h`, … some 40).
        #expect((files.reads["C.h"] ?? 0) <= 2, "\(files.reads)")
        #expect(found.contains { $0.code == .codeGroupNotEntitled && $0.message.contains("com.example.Notes.typo") }, "\(found.map(\.message))")
    }

    /// A source over 1 MiB is refused on its size, unread (past 16 MiB),
    /// and spends no read budget: a 70 MB one was read whole and hid every
    /// later source's findings (adversarial run 28, F5). Counted: not read.
    @Test func aLargeSourceIsRefusedOnItsSize() throws {
        let f = share(["Big.swift", "W.m"])
        defer { f.remove() }
        f.write("Share/Big.swift", "")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: f.path("Share/Big.swift")))
        try handle.truncate(atOffset: 70 << 20)
        try handle.close()
        f.write("Share/W.m", Self.use.replacingOccurrences(of: "%@", with: "@\"com.example.Notes.wrong\""))
        f.writeProject()
        let files = XcodeLintTests.CountingFileSystem(maxFileSize: 256 << 20)
        let found = CodeCheck.run(try ProjectLint.load(f.projectPath, fileSystem: files).get())
        #expect(files.reads["Big.swift"] == nil, "\(files.reads)")
        #expect(found.contains { $0.message.contains("Big.swift': it is larger than 1 MiB") }, "\(found.map(\.message))")
        #expect(!found.contains { $0.message.contains("MiB of Swift") }, "\(found.map(\.message))")
        #expect(found.contains { $0.message.contains("com.example.Notes.wrong") }, "W.m is checked: \(found.map(\.message))")
    }

    /// One repeated `#import` line looked in every folder of the target
    /// again per line (1 MiB of them and 200 folders: past 60 s;
    /// adversarial run 28, F1). Timed: 30,000 lines and 200 folders, some
    /// 32 s of the old release build and several times that in a debug
    /// one; each `(header, folder)` is now looked at once.
    @Test func aRepeatedImportIsLookedForOnce() throws {
        let folders = (0..<200).map { "d\($0)/x\($0).m" }
        let f = share(["Big.m"] + folders)
        defer { f.remove() }
        f.write("Share/Big.m", String(repeating: "#import \"a.h\"\n", count: 30_000))
        for (i, p) in folders.enumerated() { f.write("Share/" + p, "int x\(i);\n") }
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath).get()
        let started = Date()
        let found = CodeCheck.run(lint)
        let seconds = Date().timeIntervalSince(started)
        #expect(seconds < 40, "took \(seconds) s")
        #expect(found.contains { $0.file?.name.hasSuffix("ShareViewController.swift") == true }, "\(found.map(\.message))")
    }

    /// Headers are found by name in the folders that list them: a look in
    /// each folder for each header spent the 4,000 looks on misses, and a
    /// macro of a later header was then "no definition" (200 folders and
    /// 30 headers; adversarial run 28, F10).
    @Test func headersAreFoundByNameInManyFolders() throws {
        let folders = (0..<200).map { "d\($0)/m\($0).m" }
        let f = share(folders)
        defer { f.remove() }
        let imports = (0..<30).map { "#import \"h\($0).h\"\n" }.joined()
        for (i, p) in folders.enumerated() { f.write("Share/" + p, imports + Self.use.replacingOccurrences(of: "save", with: "save\(i)").replacingOccurrences(of: "%@", with: "G29")) }
        for j in 0..<30 { f.write("Share/d199/h\(j).h", "#define G\(j) @\"com.example.Notes.typo\(j)\"\n") }
        f.writeProject()
        let found = CodeCheck.run(try ProjectLint.load(f.projectPath).get())
        #expect(!found.contains { $0.message.contains("finds no definition") }, "\(found.map(\.message))")
        #expect(found.contains { $0.code == .codeGroupNotEntitled && $0.message.contains("com.example.Notes.typo29") }, "\(found.map(\.message))")
    }

    /// A header macro of many parts was worked out again by each `.m`
    /// file's resolver (600 files using a 1 MiB macro took 48 s;
    /// adversarial run 28, F2). Timed: 1,000 files using a 200,000-part
    /// macro, some 30 s of the old release build and several times that in
    /// a debug one; now it is worked out once.
    @Test func aHeaderMacroIsWorkedOutOnce() throws {
        let files = (0..<1000).map { "m\($0).m" }
        let f = share(files)
        defer { f.remove() }
        f.write("Share/big.h", "#define E @\"\"\n#define BIG" + String(repeating: " E", count: 200_000) + " @\"com.example.Notes.typo\"\n")
        for (i, p) in files.enumerated() {
            f.write("Share/" + p, "#import \"big.h\"\n" + Self.use.replacingOccurrences(of: "save", with: "save\(i)").replacingOccurrences(of: "%@", with: "BIG"))
        }
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath).get()
        let started = Date()
        let found = CodeCheck.run(lint)
        let seconds = Date().timeIntervalSince(started)
        #expect(seconds < 45, "took \(seconds) s")
        #expect(found.contains { $0.code == .codeGroupNotEntitled && $0.message.contains("com.example.Notes.typo") }, "\(found.map(\.message))")
    }

    /// The near-key table of an Info.plist is made once per file, not per
    /// target that names it (150 extensions sharing one 200,000-key file
    /// kept 150 tables, 1.5 GB; adversarial run 28, F11).
    @Test func anInfoPlistKeyTableIsMadeOncePerFile() throws {
        var f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        for i in [1, 2] {
            for c in ["Debug", "Release"] { f.targets[i].settings[c]?["INFOPLIST_FILE"] = "Shared/Info.plist" }
        }
        f.write("Shared/Info.plist", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>APP_GROUP_I</key><string>x</string></dict></plist>\n")
        f.writeProject()
        let lint = try ProjectLint.load(f.projectPath).get()
        let tables = XcodeProject.InfoPlistKeyTables()
        let signings = lint.signings.filter { $0.target.name == "Widget" || $0.target.name == "Share Extension" }
        #expect(signings.count >= 2)
        for s in signings { #expect(tables.keys(of: s.resolved, in: lint.project)?.keys?.map(\.key) == ["APP_GROUP_I"]) }
        #expect(tables.made == 1)
    }

    /// An `.m` under 1 MiB whose invalid UTF-8 puts it past 1 MiB once
    /// each invalid byte is read as U+FFFD (three bytes): its end was cut
    /// without a word (adversarial run 28, F13). Now said.
    @Test func aFileCutByRepairedUTF8IsSaid() throws {
        let f = share(["Bad.m"])
        defer { f.remove() }
        let use = Self.use.replacingOccurrences(of: "%@", with: "@\"com.example.Notes.wrong\"")
        try Data(Array("/* ".utf8) + Array(repeating: 0xFF, count: 400_000) + Array(" */\n".utf8) + Array(use.utf8))
            .write(to: URL(fileURLWithPath: f.path("Share/Bad.m")))
        f.writeProject()
        let found = CodeCheck.run(try ProjectLint.load(f.projectPath).get())
        #expect(found.contains { $0.code == .codeGroupNotCheckable && $0.message.contains("cannot fully check") && $0.message.contains("Bad.m") },
                "\(found.map(\.message))")
    }
}
