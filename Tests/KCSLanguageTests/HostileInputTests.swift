import Foundation
import Testing
import KeychainEngine
@testable import KCSLanguage

/// Issue 10: hostile input ends in a located error or a clean refusal, in
/// bounded time and memory.
@Suite struct HostileInputTests {
    // MARK: Include cycles

    /// A cycle that does not pass through the top file used to recurse until
    /// the stack overflowed.
    @Test func includeCycleBelowTheTopFile() {
        let loader = MemoryLoader(files: ["top.kcs": "include \"s.kcs\"\n", "s.kcs": "include \"s.kcs\"\n"])
        let r = Interpreter.run(source: "include \"s.kcs\"\n", name: "top.kcs", loader: loader)
        #expect(r.diagnostics.map(\.code) == [.includeCycle])
        #expect(r.diagnostics.first?.file?.name == "s.kcs")
        #expect(r.exitCode == 65)
    }

    @Test func longerCycleBelowTheTopFile() {
        let loader = MemoryLoader(files: ["a.kcs": "include \"b.kcs\"\n", "b.kcs": "include \"c.kcs\"\n",
                                          "c.kcs": "include \"./sub/../a.kcs\"\n"])
        let r = Interpreter.run(source: "include \"a.kcs\"\n", name: "top.kcs", loader: loader)
        #expect(r.diagnostics.map(\.code) == [.includeCycle])
    }

    /// Two spellings of one file (a symbolic link) are one file on the stack.
    @Test func cycleThroughASymbolicLinkIsFoundByCanonicalPath() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-cycle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "include \"link.kcs\"\n".write(to: dir.appendingPathComponent("s.kcs"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.kcs").path,
                                                   withDestinationPath: "s.kcs")
        let r = Interpreter.run(source: "include \"s.kcs\"\n", name: dir.appendingPathComponent("top.kcs").path)
        #expect(r.diagnostics.map(\.code) == [.includeCycle])
    }

    /// A chain deeper than the limit stops at the limit (no cycle, every
    /// file distinct).
    @Test func deepIncludeChainIsBounded() {
        var files: [String: String] = [:]
        for i in 0..<500 { files["f\(i).kcs"] = "include \"f\(i + 1).kcs\"\n" }
        files["f500.kcs"] = "team SKMME9E2Y8\n"
        let r = Interpreter.run(source: "include \"f0.kcs\"\n", name: "top.kcs", loader: MemoryLoader(files: files))
        #expect(r.diagnostics.map(\.code) == [.inputLimit])
    }

    // MARK: Property lists

    static func nested(_ open: String, _ close: String, _ n: Int) -> [UInt8] {
        Array(("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">" + String(repeating: open, count: n)
               + String(repeating: close, count: n) + "</plist>").utf8)
    }

    /// Every spelling of a start tag counts: the old guard looked for the
    /// exact bytes `<array>` only.
    @Test(arguments: ["<array>", "<array >", "<array\n>", "<dict\t>", "<array foo=\"a>b\">", "<x>"])
    func deepXMLIsRefusedHoweverTheTagIsSpelt(open: String) {
        let close = open.hasPrefix("<dict") ? "</dict>" : open == "<x>" ? "</x>" : "</array>"
        switch Entitlements.decode(Self.nested(open, close, 100_000)) {
        case .success: Issue.record("a 100000-deep plist decoded")
        case .failure(let e): #expect(e.message.contains("nests deeper"), "\(e.message)")
        }
    }

    @Test func shallowXMLWithCommentsAndSelfClosingTagsIsMeasuredRight() throws {
        let xml = Array("""
            <?xml version="1.0"?><!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "x.dtd">
            <plist><!-- <array><array> --><dict><key>a</key><array/><key>b</key><true/>
            <key>c</key><string><![CDATA[<array><array>]]></string></dict></plist>
            """.utf8)
        #expect(try PlistGuard.xmlDepth(xml).get() == 3)
    }

    @Test func entityDeclarationsAreRefused() {
        let xml = Array("<?xml version=\"1.0\"?><!DOCTYPE plist [<!ENTITY a \"aaaa\">]><plist><string>&a;</string></plist>".utf8)
        #expect(PlistGuard.check(xml, maxDepth: 64) == .entityDeclaration)
    }

    /// A binary plist built by hand: objects are arrays of one-byte references.
    static func binary(_ arrays: [[Int]]) -> [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for refs in arrays {
            offsets.append(out.count)
            out.append(0xA0 | UInt8(refs.count))
            out += refs.map { UInt8($0) }
        }
        let table = out.count
        out += offsets.map { UInt8($0) }
        out += [0, 0, 0, 0, 0, 0, 1, 1]
        for v in [arrays.count, 0, table] { out += (0..<8).reversed().map { UInt8((v >> ($0 * 8)) & 0xFF) } }
        return out
    }

    @Test func binaryCycleIsRefused() {
        #expect(PlistGuard.check(Self.binary([[1], [0]]), maxDepth: 64) == .cyclic)
    }

    /// Forty levels of two references to the next: 2^40 values once decoded.
    @Test func binarySharedGraphIsRefusedBeforeItExpands() {
        let arrays = (0..<40).map { [$0 + 1, $0 + 1] } + [[]]
        #expect(PlistGuard.check(Self.binary(arrays), maxDepth: 64) == .tooLarge(limit: 1_000_000))
    }

    @Test func binaryDepthIsMeasured() {
        let deep = (0..<100).map { [$0 + 1] } + [[]]
        #expect(PlistGuard.check(Self.binary(deep), maxDepth: 64) == .tooDeep(limit: 64))
        let shallow = (0..<10).map { [$0 + 1] } + [[]]
        #expect(PlistGuard.check(Self.binary(shallow), maxDepth: 64) == nil)
    }

    @Test func truncatedBinaryIsMalformedNotACrash() {
        let b = Self.binary([[1], []])
        for cut in [9, 20, b.count - 1] {
            if case .malformedBinary = PlistGuard.check(Array(b.prefix(cut)), maxDepth: 64) {} else {
                Issue.record("cut at \(cut) was not refused as malformed")
            }
        }
    }

    /// A real binary plist from Foundation's encoder passes the guard and decodes.
    @Test func foundationBinaryPlistStillDecodes() throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let data = try encoder.encode(["application-identifier": "SKMME9E2Y8.com.x.A"])
        let bytes = [UInt8](data)
        #expect(PlistGuard.check(bytes, maxDepth: 64) == nil)
        #expect(try Entitlements.decode(bytes).get().applicationIdentifier == "SKMME9E2Y8.com.x.A")
    }

    /// A provisioning profile's CMS envelope around a deep plist.
    @Test func deepPlistInsideAProfileEnvelopeIsRefused() {
        let envelope: [UInt8] = [0x30, 0x82, 0x10, 0x00, 0x06, 0x09] + Self.nested("<array\r\n>", "</array>", 50_000) + [0x00, 0x31]
        switch Entitlements.decode(envelope) {
        case .success: Issue.record("decoded")
        case .failure(let e): #expect(e.message.contains("nests deeper"))
        }
    }
}
