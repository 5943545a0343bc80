import Foundation
import Testing
import KeychainEngine
@testable import KCSLanguage
@testable import KCSRuntime
@testable import KCSSyntax

/// Host control and limits for untrusted scripts (issue 6).
struct LimitsTests {
    func run(_ source: String, _ limits: Limits, loader: any SourceLoader = NoFilesLoader(),
             answer: PromptAnswer? = nil) -> RunReport {
        Interpreter.run(source: source, name: "t.kcs", loader: loader,
                        options: RunOptions(limits: limits, defaultPromptAnswer: answer))
    }

    let header = "team SKMME9E2Y8\napp com.x.A\n"

    @Test func sourceSize() {
        var limits = Limits()
        limits.sourceBytes = 10
        let r = run(header, limits)
        #expect(r.diagnostics.map(\.code) == [.inputLimit])
        #expect(r.verdict == .invalidInput)
    }

    @Test func statementsStopTheRunAtTheLineThatWentOver() {
        var limits = Limits()
        limits.statements = 3
        let calls = (0..<10).map { "as A add generic-password account=\"\($0)\"\n" }.joined()
        let r = run(header + calls, limits)
        #expect(r.diagnostics.map(\.code) == [.runLimit])
        #expect(r.diagnostics.first?.location?.line == 4)
        #expect(r.verdict == .failed)
        #expect(r.calls == 1)
    }

    @Test func itemsStored() {
        var limits = Limits()
        limits.items = 2
        let calls = (0..<5).map { "as A add generic-password account=\"\($0)\"\n" }.joined()
        let r = run(header + calls, limits)
        #expect(r.diagnostics.map(\.code) == [.runLimit])
        #expect(r.calls == 3)
    }

    /// Deletions of synchronizable items are kept to sync: they count (eight
    /// million from 427 KB took 548 MB).
    @Test func deletionsKeptToSyncCountAsItems() {
        var limits = Limits()
        limits.items = 3
        let calls = (0..<5).map {
            "as A add generic-password account=\"\($0)\" sync=true\nas A delete generic-password account=\"\($0)\" sync=true\n"
        }.joined()
        let r = run(header + calls, limits)
        #expect(r.diagnostics.map(\.code) == [.runLimit])
        #expect(r.calls == 7)
    }

    @Test func listLength() {
        var limits = Limits()
        limits.listLength = 3
        let r = run("team SKMME9E2Y8\napp com.x.A keychain-access-groups=[a, b, c, d]\n", limits)
        #expect(r.diagnostics.map(\.code) == [.inputLimit])
        #expect(r.verdict == .invalidInput)
    }

    @Test func wallClock() {
        var limits = Limits()
        limits.seconds = 0
        let calls = (0..<200).map { "as A find generic-password account=\"\($0)\"\n" }.joined()
        let r = run(header + calls, limits)
        #expect(r.diagnostics.map(\.code) == [.runLimit])
        #expect(r.calls < 200)
    }

    /// A Markdown document's blocks share its deadline and one bound of
    /// syntax errors: blocks that fail to parse run no statement, so the
    /// clock was never read, and each block's error was kept (300,000 of
    /// them: 8 s under --timeout 2; adversarial 21, F9).
    @Test func markdownBlocksWithSyntaxErrorsShareTheDeadlineAndTheErrorBound() {
        let blocks = String(repeating: "```kcs\nas A add generic-pasword\n```\n\n", count: 1_500)
        let document = SourceFile(name: "d.md", text: "# D\n\n" + blocks)
        var limits = Limits()
        limits.seconds = 0
        let late = BatchRunner(loader: NoFilesLoader(), limits: limits, maxDiagnostics: 10_000).check(markdown: document)
        #expect(late.diagnostics.map(\.code) == [.runLimit], "\(late.diagnostics.prefix(3).map(\.message))")
        #expect(late.diagnostics.first?.range.map { document.location(of: $0.start).line } == 3)
        let all = BatchRunner(loader: NoFilesLoader(), maxDiagnostics: 10_000).check(markdown: document)
        #expect(all.diagnostics.count { $0.code == .unknownClass } == SyntaxParser.maxErrors)
        let stop = all.diagnostics.last
        #expect(stop?.code == .inputLimit && stop?.message.contains("more than 1000 syntax errors") == true, "\(stop?.message ?? "")")
        #expect(all.verdict == .invalidInput)
    }

    @Test func includeDepth() {
        var files: [String: String] = [:]
        for i in 0..<6 { files["f\(i).kcs"] = "include \"f\(i + 1).kcs\"\n" }
        files["f6.kcs"] = "team SKMME9E2Y8\n"
        var limits = Limits()
        limits.includeDepth = 3
        let r = Interpreter.run(path: "f0.kcs", loader: MemoryLoader(files: files), options: RunOptions(limits: limits))
        #expect(r.diagnostics.map(\.code).contains(.inputLimit))
        #expect(Interpreter.run(path: "f0.kcs", loader: MemoryLoader(files: files)).diagnostics.isEmpty)
    }

    @Test func untrustedDefaultsAreTight() {
        #expect(Limits.untrusted.statements < Limits().statements)
        #expect(Limits.untrusted.seconds != nil)
    }

    @Test func hostMayForbidFiles() {
        let r = run("include \"/etc/passwd\"\n", Limits())
        #expect(r.diagnostics.map(\.code) == [.fileUnreadable])
        #expect(r.diagnostics.first?.message.contains("does not allow reading files") == true)
    }

    @Test func rootedLoaderRefusesPathsOutsideItsRoot() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-root-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("inside"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "include \"../secret.kcs\"\n".write(to: dir.appendingPathComponent("inside/main.kcs"), atomically: true, encoding: .utf8)
        try "include \"common.kcs\"\n".write(to: dir.appendingPathComponent("inside/ok.kcs"), atomically: true, encoding: .utf8)
        try "team SKMME9E2Y8\n".write(to: dir.appendingPathComponent("inside/common.kcs"), atomically: true, encoding: .utf8)
        try "team SKMME9E2Y8\n".write(to: dir.appendingPathComponent("secret.kcs"), atomically: true, encoding: .utf8)
        let loader = RootedFileLoader(root: dir.appendingPathComponent("inside").path)
        let refused = Interpreter.run(path: dir.appendingPathComponent("inside/main.kcs").path, loader: loader)
        #expect(refused.diagnostics.first?.message.contains("outside") == true)
        let fine = Interpreter.run(path: dir.appendingPathComponent("inside/ok.kcs").path, loader: loader)
        #expect(fine.diagnostics.isEmpty)
    }

    @Test func hostSuppliesTheDefaultPromptAnswer() {
        let source = header + """
            as A add generic-password account="a" access-control=[user-presence] data="d"
            as A find generic-password account="a" return=data
            expect status errSecUserCanceled
            """
        #expect(run(source, Limits(), answer: .cancel).passed == 1)
        #expect(run(source, Limits()).diagnostics.first?.code == .promptUnanswered)
    }
}

struct RootedLoaderPathTests {
    @Test func workingFolderRoot() {
        let loader = RootedFileLoader(root: ".")
        #expect(throws: LoadError.forbidden("../x.kcs", reason: "it is outside .")) { try loader.read("../x.kcs") }
        #expect(throws: LoadError.forbidden("/etc/passwd", reason: "it is outside .")) { try loader.read("/etc/passwd") }
        #expect(throws: LoadError.notFound("no/such.kcs")) { try loader.read("no/such.kcs") }
    }
}

/// Findings of the second review, pinned.
struct UntrustedInputTests {
    func dir() throws -> URL {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-untrusted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: d.appendingPathComponent("root"), withIntermediateDirectories: true)
        return d
    }

    @Test func symbolicLinksCannotLeaveTheRoot() throws {
        let d = try dir()
        defer { try? FileManager.default.removeItem(at: d) }
        try "team SKMME9E2Y8\n".write(to: d.appendingPathComponent("secret.kcs"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: d.appendingPathComponent("root/link.kcs"),
                                                   withDestinationURL: d.appendingPathComponent("secret.kcs"))
        try "include \"link.kcs\"\n".write(to: d.appendingPathComponent("root/main.kcs"), atomically: true, encoding: .utf8)
        let loader = RootedFileLoader(root: d.appendingPathComponent("root").path)
        let r = Interpreter.run(path: d.appendingPathComponent("root/main.kcs").path, loader: loader)
        #expect(r.diagnostics.first?.message.contains("outside") == true)
    }

    @Test func devicesAndFIFOsAreRefusedWithoutReading() throws {
        let d = try dir()
        defer { try? FileManager.default.removeItem(at: d) }
        let fifo = d.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for path in ["/dev/zero", fifo] {
            let r = Interpreter.run(source: "include \"\(path)\"\n", name: "t.kcs")
            #expect(r.diagnostics.map(\.code) == [.fileUnreadable], "\(path)")
        }
        let big = d.appendingPathComponent("big.kcs")
        try String(repeating: "# padding\n", count: 10).write(to: big, atomically: true, encoding: .utf8)
        #expect(throws: LoadError.self) { try FileSystemLoader(maxBytes: 4).read(big.path) }
        #expect(try FileSystemLoader(maxBytes: 1000).read(big.path).bytes.count == 100)
    }

    @Test func includedFilesObeyTheLimits() throws {
        let loader = MemoryLoader(files: [
            "main.kcs": "include \"big.kcs\"\n",
            "big.kcs": "team SKMME9E2Y8\napp com.x.A keychain-access-groups=[a, b, c, d, e]\n",
        ])
        var limits = Limits()
        limits.listLength = 3
        let r = Interpreter.run(path: "main.kcs", loader: loader, options: RunOptions(limits: limits))
        #expect(r.diagnostics.map(\.code) == [.inputLimit])
        limits = Limits()
        limits.sourceBytes = 30
        let big = Interpreter.run(path: "main.kcs", loader: loader, options: RunOptions(limits: limits))
        #expect(big.diagnostics.map(\.code) == [.inputLimit])
    }

    @Test func deeplyNestedPropertyListsAreRefused() {
        let n = 20_000
        let xml = "<plist><dict><key>keychain-access-groups</key>" + String(repeating: "<array>", count: n)
            + String(repeating: "</array>", count: n) + "</dict></plist>"
        guard case .failure(let e) = Entitlements.decode(Array(xml.utf8)) else {
            Issue.record("a 20,000-deep plist decoded")
            return
        }
        #expect(e.message.contains("nests deeper"))
    }
}
