import Foundation
import Testing
import KeychainEngine
@testable import KCSLanguage
@testable import KCSRuntime
@testable import KCSSyntax

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
        #expect(r.verdict == .invalidInput)
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

    /// A quote in a tag must not hide the tags after it from the count.
    @Test func quotesDoNotHideTags() {
        let xml = Array(("<?xml version=\"1.0\"?><plist><array\">" + String(repeating: "<array>", count: 1000) + "\"").utf8)
        #expect(PlistGuard.check(xml, maxDepth: 64) == .tooDeep(limit: 64))
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

    /// One string object referred to thousands of times: few values, but
    /// gigabytes once decoded (a 905 KB file took `kcs run --untrusted` to
    /// 3.9 GB and a crash; adversarial run 24, F12).
    @Test func binarySharedStringIsRefusedBeforeItExpands() {
        func bigEndian(_ v: Int) -> [UInt8] { (0..<4).reversed().map { UInt8((v >> ($0 * 8)) & 0xFF) } }
        func shared(references n: Int, bytes l: Int) -> [UInt8] {
            var out = Array("bplist00".utf8)
            let array = out.count
            out += [0xAF, 0x12] + bigEndian(n) + [UInt8](repeating: 1, count: n)
            let string = out.count
            out += [0x5F, 0x12] + bigEndian(l) + [UInt8](repeating: 0x61, count: l)
            let table = out.count
            out += bigEndian(array) + bigEndian(string) + [0, 0, 0, 0, 0, 0, 4, 1]
            for v in [2, 0, table] { out += (0..<8).reversed().map { UInt8((v >> ($0 * 8)) & 0xFF) } }
            return out
        }
        #expect(PlistGuard.check(shared(references: 5_000, bytes: 10_000), maxDepth: 64) == .expandsPast(bytes: PlistGuard.maxExpandedBytes))
        #expect(PlistGuard.check(shared(references: 10, bytes: 1_000), maxDepth: 64) == nil)
    }

    /// A UTF-16 string object claiming 2^62 + 1 characters after the
    /// shared string: its size, doubled with wrapping, went negative and
    /// cancelled the 16 MiB bound (adversarial run 25, F8).
    @Test func binaryStringCountPastTheFileIsMalformedNotANegativeSize() {
        func bigEndian(_ v: Int, _ width: Int) -> [UInt8] { (0..<width).reversed().map { UInt8((v >> ($0 * 8)) & 0xFF) } }
        var out = Array("bplist00".utf8)
        let array = out.count
        out += [0xAF, 0x12] + bigEndian(5_001, 4) + [UInt8](repeating: 1, count: 5_000) + [2]
        let string = out.count
        out += [0x5F, 0x12] + bigEndian(10_000, 4) + [UInt8](repeating: 0x61, count: 10_000)
        let wide = out.count
        out += [0x6F, 0x13] + bigEndian((1 << 62) + 1, 8) + [0, 0x61]
        let table = out.count
        out += bigEndian(array, 4) + bigEndian(string, 4) + bigEndian(wide, 4) + [0, 0, 0, 0, 0, 0, 4, 1]
        for v in [3, 0, table] { out += bigEndian(v, 8) }
        #expect(PlistGuard.check(out, maxDepth: 64) == .malformedBinary("a string or data object runs past the file"))
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

/// Issue 10, item 2: nothing super-linear. Sizes are chosen so the old
/// behaviour (re-lexing the document per block, an n·m diff table, a
/// quadratic de-duplication) would take minutes or gigabytes; the bounds
/// are generous so a loaded machine does not fail them.
@Suite struct LinearityTests {
    /// 30 000 blocks: each block is lexed on its own bytes, with the
    /// document's line numbers, and no block copies the world (keeping the
    /// session to roll back to made each block's first add copy every item).
    @Test func manyBlocksAreCheckedInLinearTime() {
        var doc = "# Many\n\n```kcs\nteam SKMME9E2Y8\napp com.x.A\n```\n"
        for i in 0..<30_000 { doc += "\n```kcs\nas A add generic-password account=\"\(i)\"\nexpect status errSecSuccess\n```\n" }
        doc += "\n```kcs\nexpect status errSecItemNotFound\n```\n"
        let clock = ContinuousClock()
        var outcome = FileOutcome(path: "")
        let took = clock.measure {
            outcome = BatchRunner(lint: .off).check(markdown: SourceFile(name: "many.md", text: doc))
        }
        #expect(outcome.passed == 30_000)
        #expect(outcome.failed == 1)
        // The failure names the document's own line.
        let lastLine = doc.split(separator: "\n", omittingEmptySubsequences: false).count - 2
        #expect(outcome.diagnostics.first { $0.code == .expectationFailed }?.location?.line == lastLine)
        // A few seconds in a debug build; re-lexing the document per block
        // read some 250 GB here, and copying the world per block moved
        // 450 million items.
        #expect(took < .seconds(120), "\(took)")
    }

    /// Without the copy, a block whose include has a syntax error still
    /// changes nothing: blocks with includes keep it.
    @Test func aBlockWhoseIncludeFailsChangesNothing() {
        let loader = MemoryLoader(files: ["bad.kcs": "tem X\n"])
        let doc = "```kcs\nteam SKMME9E2Y8\napp com.x.A\n```\n\n```kcs\nas A add generic-password account=\"a\"\ninclude \"bad.kcs\"\n```\n\n"
            + "```kcs\nas A find generic-password account=\"a\"\nexpect status errSecItemNotFound\n```\n"
        let outcome = BatchRunner(loader: loader, lint: .off).check(markdown: SourceFile(name: "d.md", text: doc))
        #expect(outcome.diagnostics.map(\.code) == [.unknownStatement])
        #expect(outcome.passed == 1)
    }

    @Test func blockLinesAndColumnsAreTheDocumentsOwn() {
        let doc = "intro\n\n  ```kcs\n  team SKMME9E2Y8\n  tem X\n  ```\n"
        let outcome = BatchRunner().check(markdown: SourceFile(name: "d.md", text: doc))
        let d = outcome.diagnostics.first
        #expect(d?.code == .unknownStatement)
        #expect(d?.location == SourceLocation(line: 5, column: 3))
        #expect(DiagnosticRenderer().render(d!).contains(" 5 |   tem X\n"))
    }

    /// Two outputs of 8000 lines, every line different: the old table was
    /// 8001 × 8001 integers (half a gigabyte).
    @Test func outputDiffIsBoundedAndShowsTheFirstDifferences() {
        let a = (0..<8000).map { "expected \($0)\n" }.joined()
        let b = (0..<8000).map { "actual \($0)\n" }.joined()
        let lines = LineDiff.lines(expected: a, actual: b)
        #expect(lines.count <= LineDiff.maxLines + 4)
        #expect(lines[2] == "- expected 0")
        #expect(lines.last?.hasPrefix("… and ") == true)
    }

    @Test func diffFindsTheFewChangesInALongOutput() {
        var a = (0..<20000).map { "line \($0)" }
        var b = a
        b[100] = "changed"
        b.insert("inserted", at: 15000)
        a.remove(at: 19000)
        let lines = LineDiff.lines(expected: a.joined(separator: "\n") + "\n", actual: b.joined(separator: "\n") + "\n")
        #expect(lines.filter { $0.hasPrefix("- ") } == ["- line 100"])
        #expect(lines.filter { $0.hasPrefix("+ ") } == ["+ changed", "+ inserted", "+ line 19000"])
        #expect(lines.count < 40)
    }

    @Test func myersIsMinimal() {
        let a: [Substring] = ["a", "b", "c", "a", "b", "b", "a"], b: [Substring] = ["c", "b", "a", "b", "a", "c"]
        let ops = LineDiff.myers(a, b, maxEdits: 100) ?? []
        #expect(ops.filter { if case .same = $0 { false } else { true } }.count == 5)
        #expect(LineDiff.myers(a, b, maxEdits: 4) == nil)
    }

    /// 100 000 lines with a syntax error each: the parse stops at its
    /// limit of errors, and says where.
    @Test func manySyntaxErrorsStopAtTheLimit() {
        let text = String(repeating: "tem X\n", count: 100_000)
        let diagnostics = Parser.parse(SourceFile(name: "e.kcs", text: text)).diagnostics
        #expect(diagnostics.count == SyntaxParser.maxErrors + 1)
        #expect(diagnostics.last?.code == .inputLimit)
    }

    @Test func diagnosticsPerFileAreCappedWithACount() {
        let text = "team SKMME9E2Y8\n" + String(repeating: "tem X\n", count: 1000)
        let outcome = BatchRunner(maxDiagnostics: 50).run(SourceFile(name: "e.kcs", text: text))
        #expect(outcome.diagnostics.count == 51)
        #expect(outcome.diagnostics.last?.code == .moreDiagnostics)
        #expect(outcome.diagnostics.last?.message.hasPrefix("950 more diagnostics") == true)
        #expect(outcome.verdict == .invalidInput)
    }

    /// An error at the end of a line of a megabyte shows a window around
    /// the caret, marked with ellipses, and the caret under the error.
    @Test func hugeLineShowsAWindow() {
        let text = "team SKMME9E2Y8" + String(repeating: " ", count: 1 << 20) + "zzz\n"
        let r = Interpreter.run(source: text, name: "w.kcs", loader: NoFilesLoader())
        guard let d = r.diagnostics.first else { Issue.record("no diagnostic"); return }
        let shown = DiagnosticRenderer().render(d)
        #expect(shown.utf8.count < 2000)
        let lines = shown.split(separator: "\n").map(String.init)
        let source = lines[1], caret = lines[2]
        #expect(source.contains("…"))
        let caretColumn = caret.distance(from: caret.startIndex, to: caret.firstIndex(of: "^") ?? caret.startIndex)
        let zzz = source.range(of: "zzz").map { source.distance(from: source.startIndex, to: $0.lowerBound) }
        #expect(zzz == caretColumn)
    }
}

/// A word of a megabyte quoted in a message is cut, not copied whole into
/// the diagnostic (and every output format).
@Suite struct LongWordTests {
    @Test func messagesQuotingAHugeWordAreShortened() {
        let word = String(repeating: "x", count: 1 << 20) + "END"
        let r = Interpreter.run(source: "team SKMME9E2Y8 \(word)\n", name: "w.kcs", loader: NoFilesLoader())
        let d = r.diagnostics.first
        #expect(d?.code == .unexpectedToken)
        #expect((d?.message.utf8.count ?? 0) <= String.diagnosticTextLimit + 3)
        #expect(d?.message.hasPrefix("unexpected 'xxx") == true)
        #expect(d?.message.hasSuffix("END' after the statement") == true)
        #expect(d.map { DiagnosticRenderer().render($0).utf8.count } ?? 0 < 3000)
    }
}

/// Item 3: limits a host (or the command line) sets.
@Suite struct RunLimitTests {
    /// The clock is read before every statement: a limit of zero stops the
    /// run at the first statement, not the 64th.
    @Test func timeLimitIsCheckedOnEveryStatement() {
        let text = "team SKMME9E2Y8\napp com.x.A\n" + String(repeating: "as A find generic-password\n", count: 10)
        Self.expectStopped(text, at: 1) { $0.seconds = 0.000_001 }
    }

    /// `text` run under limits `set` changes stops with one run-limit error at `line`.
    static func expectStopped(_ text: String, at line: Int, _ set: (inout Limits) -> Void) {
        var limits = Limits()
        set(&limits)
        let r = Interpreter.run(source: text, name: "t.kcs", loader: NoFilesLoader(), options: RunOptions(limits: limits))
        #expect(r.diagnostics.map(\.code) == [.runLimit], "\(r.diagnostics.map(\.message))")
        #expect(r.diagnostics.first?.location?.line == line)
    }

    /// An update that changes the key of synchronizable items leaves a
    /// tombstone per item: the item count is taken again after it, and a
    /// run past the limit is stopped (it ended with 21 million items,
    /// unreported; found by adversarial testing).
    @Test func tombstonesAnUpdateLeavesCountTowardTheItemLimit() {
        var text = "team SKMME9E2Y8\napp com.x.A\n"
        for i in 0..<30 { text += "as A add generic-password service=\"s\" account=\"\(i)\" sync=true\n" }
        text += "as A update generic-password service=\"s\" sync=true set service=\"t\"\nexpect count 30\nwait 1\n"
        Self.expectStopped(text, at: 34) { $0.items = 50 }
    }

    /// A Mac move to sync=true of another app's passwords makes its copies
    /// and then fails (errSecInvalidOwnerEdit): a failed update is counted
    /// again (301,000 items went past a limit of 100,000, unreported; found
    /// by adversarial testing).
    @Test func aFailedMoveStillCountsTowardTheItemLimit() {
        var text = "platform macos 15\nteam SKMME9E2Y8\napp com.x.A as A\napp com.x.B as B\n"
        for i in 0..<30 { text += "as A add generic-password service=\"s\" account=\"\(i)\" data=\"x\"\n" }
        text += String(repeating: "user approves\n", count: 90)
        text += "as B update generic-password service=\"s\" limit=all set sync=true data=\"y\" service=\"u\"\nwait 1\n"
        Self.expectStopped(text, at: 126) { $0.items = 50 }
    }

    /// Inside one long statement: a matrix of many rows stops at the limit.
    @Test func outputLimitStopsShowMatrixInsideTheStatement() {
        var text = "team SKMME9E2Y8\napp com.x.A\n"
        for i in 0..<2000 { text += "as A add generic-password account=\"\(i)\"\n" }
        text += "show matrix\n"
        var limits = Limits()
        limits.outputBytes = 10_000
        var printed = 0
        let r = Interpreter.run(file: SourceFile(name: "m.kcs", text: text), loader: NoFilesLoader(),
                                options: RunOptions(limits: limits)) { event in
            if case .output(let s) = event { printed += s.utf8.count }
        }
        #expect(r.diagnostics.map(\.code) == [.runLimit])
        #expect(r.diagnostics.first?.location?.line == 2003)
        #expect(printed == 0)
    }

    /// A table is counted as it prints, padded: one long value no longer
    /// widens every row past the limit (241 KB printed 200 MB), and a cell
    /// shows at most `maxCellWidth` characters.
    @Test func oneLongValueDoesNotWidenEveryRow() {
        let long = String(repeating: "s", count: 50_000)
        var text = "team SKMME9E2Y8\napp com.x.A\nas A add generic-password service=\"\(long)\"\n"
        for i in 0..<300 { text += "as A add generic-password account=\"\(i)\"\n" }
        text += "show matrix\nshow items\n"
        var limits = Limits()
        limits.outputBytes = 1 << 20
        var printed = 0
        let r = Interpreter.run(file: SourceFile(name: "m.kcs", text: text), loader: NoFilesLoader(),
                                options: RunOptions(limits: limits)) { event in
            if case .output(let s) = event { printed += s.utf8.count }
        }
        #expect(r.diagnostics.isEmpty, "\(r.diagnostics.map(\.message))")
        // 301 rows of at most a few hundred bytes each, twice.
        #expect(printed > 0 && printed < 200_000, "\(printed)")
        // Counted padded: a limit the unpadded cells pass but the table does not is a limit error.
        var table = TextTable(header: ["a", "b"])
        table.rows = [[String(repeating: "x", count: 99), "y"]] + Array(repeating: ["x", "y"], count: 1000)
        #expect(table.renderedBytes == table.render().utf8.count)
        #expect(table.renderedBytes > 100_000)
        #expect(TextTable.shown(long).count == TextTable.maxCellWidth && TextTable.shown(long).hasSuffix("…"))
    }

    /// A Markdown document's blocks share one deadline.
    @Test func markdownBlocksShareTheDeadline() {
        var doc = "```kcs\nteam SKMME9E2Y8\napp com.x.A\n```\n"
        for _ in 0..<50 { doc += "```kcs\nas A find generic-password\n```\n" }
        var limits = Limits()
        limits.seconds = 0.000_001
        let outcome = BatchRunner(limits: limits).check(markdown: SourceFile(name: "d.md", text: doc))
        #expect(outcome.diagnostics.filter { $0.code == .runLimit }.count == 1)
        #expect(outcome.verdict == .failed)
    }

    @Test func standardInputIsCapped() {
        // Reading descriptor 0 of the test process would block; the cap
        // itself is checked through a file descriptor on a pipe.
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let payload = [UInt8](repeating: 0x41, count: 5000)
        _ = payload.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        close(fds[1])
        defer { close(fds[0]) }
        #expect(throws: LoadError.tooLarge("<stdin>", size: nil, limit: 1000)) {
            _ = try FileSystemLoader.readAll(fds[0], name: "<stdin>", maxBytes: 1000, expected: 0)
        }
    }

    /// A file whose size changed between `fstat` and the read (it grew or
    /// shrank) is read to its real end, straight into the kept bytes, and
    /// still never past the cap, whatever size it stated.
    @Test func sizeChangedWhileReading() throws {
        let payload = (0..<3000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        /// A descriptor that reads `payload` and then ends.
        func reader() -> Int32 {
            var fds: [Int32] = [0, 0]
            #expect(pipe(&fds) == 0)
            _ = payload.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
            close(fds[1])
            return fds[0]
        }
        for (stated, cap) in [(1000, 10_000), (9000, 10_000), (3000, 3000)] {
            let fd = reader()
            defer { close(fd) }
            #expect(try FileSystemLoader.readAll(fd, name: "f", maxBytes: cap, expected: stated) == payload)
        }
        for stated in [2999, 5000] {
            let fd = reader()
            defer { close(fd) }
            #expect(throws: LoadError.tooLarge("f", size: nil, limit: 2999)) {
                _ = try FileSystemLoader.readAll(fd, name: "f", maxBytes: 2999, expected: stated)
            }
        }
    }

    @Test func notARegularFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("f").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [(fifo, "a FIFO"), (dir.path, "a directory"), ("/dev/null", "")] {
            do {
                _ = try FileSystemLoader().read(path)
                Issue.record("\(path) was read")
            } catch {
                #expect(error.message(for: path).contains(kind.isEmpty ? "may not read" : "not a regular file (\(kind))"), "\(error)")
            }
        }
    }

    @Test func rootedLoaderRefusesAbsolutePathsWhenAsked() throws {
        let loader = RootedFileLoader(root: ".", allowsAbsolutePaths: false)
        let resolved = loader.resolve("/etc/hostname", relativeTo: "a.kcs")
        #expect(throws: LoadError.forbidden("/etc/hostname", reason: "absolute paths are not allowed here")) {
            _ = try loader.read(resolved)
        }
    }
}

/// Item 4: a document is the old or the new version, byte for byte.
@Suite struct AtomicFileTests {
    static func withFolder(_ body: (URL) throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try body(dir)
    }

    @Test func aFileChangedSinceItWasReadIsNotOverwritten() throws {
        try Self.withFolder { dir in
            let path = dir.appendingPathComponent("d.md").path
            try "read\n".write(toFile: path, atomically: false, encoding: .utf8)
            let read = Array("read\n".utf8)
            try "someone saved this\n".write(toFile: path, atomically: false, encoding: .utf8)
            #expect(throws: WriteError.changedSinceRead(path)) {
                try AtomicFile.write(Array("new\n".utf8), to: path, mode: .replaceIfUnchanged(read))
            }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "someone saved this\n")
            try AtomicFile.write(Array("new\n".utf8), to: path, mode: .replaceIfUnchanged(Array("someone saved this\n".utf8)))
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["d.md"])
        }
    }

    @Test func modeAndSymbolicLinkAreKept() throws {
        try Self.withFolder { dir in
            let target = dir.appendingPathComponent("real.md").path, link = dir.appendingPathComponent("link.md").path
            try "old\n".write(toFile: target, atomically: false, encoding: .utf8)
            #expect(chmod(target, 0o604) == 0)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.md")
            try AtomicFile.write(Array("new\n".utf8), to: link)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.md")
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "new\n")
            #expect(try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int == 0o604)
        }
    }

    /// Found by adversarial testing (as root, where permissions do not stop
    /// a rename): a read-only file was replaced, and a file with a second
    /// hard link left the other name with the old text.
    @Test func readOnlyAndHardLinkedFilesAreNotReplaced() throws {
        try Self.withFolder { dir in
            let path = dir.appendingPathComponent("ro.kcs").path
            try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
            #expect(chmod(path, 0o444) == 0)
            #expect(throws: WriteError.readOnly(path)) { try AtomicFile.write(Array("new\n".utf8), to: path) }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
            #expect(chmod(path, 0o644) == 0)
            let other = dir.appendingPathComponent("other.kcs").path
            #expect(link(path, other) == 0)
            #expect(throws: WriteError.hardLinked(path, links: 2)) { try AtomicFile.write(Array("new\n".utf8), to: path) }
            #expect(try String(contentsOfFile: other, encoding: .utf8) == "old\n")
            #expect(unlink(other) == 0)
            try AtomicFile.write(Array("new\n".utf8), to: path)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
            // Another user's file keeps its owner, group and set-user-ID bit
            // when root rewrites it (it became root's, set-user-ID included).
            if geteuid() == 0 {
                let theirs = dir.appendingPathComponent("theirs.kcs").path
                try "old\n".write(toFile: theirs, atomically: false, encoding: .utf8)
                #expect(chown(theirs, 65534, 65534) == 0 && chmod(theirs, 0o4664) == 0)
                try AtomicFile.write(Array("new\n".utf8), to: theirs)
                var after = stat()
                #expect(stat(theirs, &after) == 0)
                #expect(after.st_uid == 65534 && after.st_gid == 65534 && after.st_mode & 0o7777 == 0o4664)
                #expect(try String(contentsOfFile: theirs, encoding: .utf8) == "new\n")
            }
        }
    }

    /// Found by adversarial testing, as root: `-o /dev/stdout` with standard
    /// output sent to /dev/null renamed a temporary file over /dev/null. A
    /// pipe or a device is written to, never replaced; a folder or a loop
    /// of links is refused.
    @Test func pipesAreWrittenToAndFoldersAndLinkLoopsRefused() throws {
        try Self.withFolder { dir in
            let fifo = dir.appendingPathComponent("pipe").path
            #expect(mkfifo(fifo, 0o600) == 0)
            // Nobody reads yet: refused at once, never a wait without end.
            #expect(throws: WriteError.notRegular(fifo, what: "a pipe nobody reads")) {
                try AtomicFile.write(Array("x".utf8), to: fifo)
            }
            // A reader on the other end, opened first without waiting, so
            // the write finds it; the bytes must arrive.
            let readEnd = open(fifo, O_RDONLY | O_NONBLOCK)
            #expect(readEnd >= 0)
            defer { close(readEnd) }
            try AtomicFile.write(Array("through\n".utf8), to: fifo)
            var buffer = [UInt8](repeating: 0, count: 64)
            let n = read(readEnd, &buffer, buffer.count)
            #expect(n == 8 && Array(buffer[0..<8]) == Array("through\n".utf8), "the bytes went through the pipe")
            var info = stat()
            #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the pipe is still a pipe")
            #expect(throws: WriteError.notRegular(fifo, what: "a device or a pipe")) {
                try AtomicFile.write(Array("x".utf8), to: fifo, mode: .createOnly)
            }
            #expect(throws: WriteError.notRegular(dir.path, what: "a folder")) { try AtomicFile.write(Array("x".utf8), to: dir.path) }
            let a = dir.appendingPathComponent("a").path, b = dir.appendingPathComponent("b").path
            try FileManager.default.createSymbolicLink(atPath: a, withDestinationPath: "b")
            try FileManager.default.createSymbolicLink(atPath: b, withDestinationPath: "a")
            #expect(throws: WriteError.notRegular(a, what: "a loop of symbolic links")) { try AtomicFile.write(Array("x".utf8), to: a) }
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: a) == "b")
        }
    }

    @Test func createOnlyNeverReplacesAndErrorsNameTheReason() throws {
        try Self.withFolder { dir in
            let path = dir.appendingPathComponent("s.kcs").path
            try AtomicFile.write(Array("one\n".utf8), to: path, mode: .createOnly)
            #expect(throws: WriteError.exists(path)) { try AtomicFile.write(Array("two\n".utf8), to: path, mode: .createOnly) }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "one\n")
            let missing = dir.appendingPathComponent("no/such/x.kcs").path
            do throws(WriteError) {
                try AtomicFile.write([], to: missing)
                Issue.record("wrote into a missing folder")
            } catch {
                #expect(error.message.hasSuffix(": No such file or directory"), "\(error.message)")
            }
        }
    }
}

/// Item 5: Trojan Source and look-alike names.
@Suite struct UnicodeSafetyTests {
    @Test(arguments: [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C] as [UInt32])
    func everyBidiControlIsAnErrorAtItsLineAndColumn(value: UInt32) throws {
        let control = String(Character(try #require(Unicode.Scalar(value))))
        let text = "team SKMME9E2Y8\napp com.x.A  # is \(control)admin\n"
        let r = Interpreter.run(source: text, name: "b.kcs", loader: NoFilesLoader())
        #expect(r.diagnostics.map(\.code) == [.bidiControl])
        #expect(r.diagnostics.first?.location == SourceLocation(line: 2, column: 19))
        #expect(r.verdict == .invalidInput)
        // Shown escaped, never raw.
        let shown = DiagnosticRenderer().render(try #require(r.diagnostics.first))
        #expect(!shown.contains(control))
        #expect(shown.contains(TerminalText.escape(try #require(Unicode.Scalar(value)))))
    }

    @Test func bidiControlWrittenAsAnEscapeInAStringIsData() {
        let text = "team SKMME9E2Y8\napp com.x.A\nas A add generic-password account=\"\\u{202E}x\"\nexpect status errSecSuccess\n"
        #expect(Interpreter.run(source: text, name: "b.kcs", loader: NoFilesLoader()).verdict == .passed)
    }

    @Test func mixedScriptNamesWarnWithACode() {
        let text = "team SKMME9E2Y8\napp com.x.Pay\napp com.x.P\u{0430}y\nas P\u{0430}y add generic-password account=\"P\u{0430}y is fine in a string\"\n"
        let outcome = BatchRunner().lint(SourceFile(name: "m.kcs", text: text))
        #expect(outcome.diagnostics.map(\.code) == [.lintMixedScripts, .lintMixedScripts])
        #expect(outcome.diagnostics.map { $0.location?.line } == [3, 4])
        #expect(outcome.diagnostics.first?.message == "'com.x.P\u{0430}y' mixes Latin and Cyrillic letters: it can look like another name")
        #expect(outcome.verdict == .failed)
    }

    @Test func oneScriptNamesAndJapaneseDoNotWarn() {
        #expect(MixedScripts.mixed("Приложение") == nil)
        #expect(MixedScripts.mixed("com.example.App2") == nil)
        #expect(MixedScripts.mixed("アプリ漢字ひらがな") == nil)
        #expect(MixedScripts.mixed("Αpp") == [.greek, .latin])
    }

    @Test func escapedTextKeepsLayoutWhenAsked() {
        #expect(TerminalText.escaped("a\u{1B}[31mb\nc\td") == "a\\u{1B}[31mb\\u{A}c\\u{9}d")
        #expect(TerminalText.escaped("a\u{9B}b\nc\td", keepingLayout: true) == "a\\u{9B}b\nc\td")
    }
}

/// Columns on a line of megabytes: each diagnostic there costs a bounded
/// count, not the line (10 000 locations on an 8 MB line were 80 billion
/// steps before).
@Suite struct LongLineLocationTests {
    @Test func manyLocationsOnAHugeLineAreCheap() {
        let line = String(repeating: "é", count: 4 << 20)  // 8 MB, two bytes a scalar
        let file = SourceFile(name: "l.kcs", text: "x\n" + line + "\nyz")
        let clock = ContinuousClock()
        var last = SourceLocation(line: 0, column: 0)
        let took = clock.measure {
            for k in 0..<10_000 { last = file.location(of: 2 + ((8 << 20) - 2 - 2 * k)) }
        }
        // 8 MB − 2 − 2k bytes into the line are 4 Mi − 1 − k scalars.
        #expect(last == SourceLocation(line: 2, column: (4 << 20) - 9_999))
        #expect(took < .seconds(30), "\(took)")
    }

    @Test func checkpointedColumnsMatchCounting() {
        let text = "ab\n" + String(repeating: "aé€😀", count: 20_000) + "\nz"
        let file = SourceFile(name: "c.kcs", text: text)
        let bytes = Array(text.utf8)
        var column = 1
        for offset in 3..<(bytes.count - 2) where bytes[offset] & 0xC0 != 0x80 {
            if file.location(of: offset) != SourceLocation(line: 2, column: column) {
                Issue.record("offset \(offset): \(file.location(of: offset)), expected column \(column)")
                return
            }
            column += 1
        }
        #expect(column == 80_001)
        #expect(file.location(of: bytes.count) == SourceLocation(line: 3, column: 2))
    }
}

/// `--update` of many blocks: one pass over the document, not one per block.
@Suite struct UpdateManyBlocksTests {
    @Test func manyOutputBlocksAreRewrittenInOnePass() {
        var doc = "```kcs\nteam SKMME9E2Y8\napp com.x.A\n```\n"
        for i in 0..<5000 { doc += "\n```kcs\nas A add generic-password account=\"\(i)\"\n```\n\n```output\nstale\n```\n" }
        let outcome = BatchRunner(lint: .off).check(markdown: SourceFile(name: "u.md", text: doc), update: true)
        #expect(outcome.updatedBlocks == 5000)
        let updated = String(decoding: outcome.updatedContent ?? [], as: UTF8.self)
        #expect(!updated.contains("stale"))
        #expect(updated.contains("```output\nA add generic-password → errSecSuccess (0)\n```\n"))
        let again = BatchRunner(lint: .off).check(markdown: SourceFile(name: "u.md", text: updated))
        #expect(again.verdict == .passed)
        #expect(again.passed == 5000)
    }

    @Test func insertionBeforeAClosingFenceKeepsOrder() {
        let bytes = Array("ab```cd".utf8)
        let out = BatchRunner.applying([(SourceRange(2, 5), "````"), (SourceRange(2, 2), "X\n")], to: bytes)
        #expect(String(decoding: out, as: UTF8.self) == "abX\n````cd")
    }
}

/// Errors by the thousand end in bounded memory (found by adversarial testing:
/// 6 MB of bad lines held 1.25 GB of diagnostics, 1.3 million failing
/// statements held 350 MB of events).
@Suite struct ErrorFloodTests {
    /// One line can hold a million errors (a string of bad escapes, control
    /// bytes between spaces, numbers too large): the lexer made one each,
    /// and the limit, counted at statements, never stopped it (32 MB: 4.8 GB,
    /// 22 s past `--timeout 2`; adversarial 21, F2).
    @Test func oneLineOfErrorsStopsAtTheLimit() {
        let n = SyntaxParser.maxErrors * 50
        for (name, line) in [("escapes", "as A add generic-password account=\"" + String(repeating: "\\q", count: n) + "\""),
                             ("control", "as A find generic-password " + String(repeating: "\u{1} ", count: n)),
                             ("numbers", "as A find generic-password limit=[" + String(repeating: "99999999999999999999999,", count: n) + "]")] {
            let file = SourceFile(name: "\(name).kcs", text: "team SKMME9E2Y8\napp com.a.A\n" + line + "\n")
            let d = Interpreter.run(file: file, loader: NoFilesLoader()).diagnostics
            // The lexer's thousand, the statement's own error (the list is
            // no limit), and where reading stopped.
            #expect((SyntaxParser.maxErrors + 1...SyntaxParser.maxErrors + 2).contains(d.count), "\(name): \(d.count)")
            #expect(d.last?.code == .inputLimit && d.last?.message.contains("the rest of the file was not read") == true, "\(name)")
        }
    }

    @Test func syntaxErrorsStopAtTheLimit() {
        let lines = SyntaxParser.maxErrors * 3
        let file = SourceFile(name: "flood.kcs", text: String(repeating: "zz\n", count: lines))
        let report = Interpreter.run(file: file, loader: NoFilesLoader())
        let errors = report.diagnostics.filter { $0.code == .unknownStatement }
        #expect(errors.count == SyntaxParser.maxErrors)
        let stop = report.diagnostics.last
        #expect(stop?.code == .inputLimit)
        #expect(stop?.message == "more than \(SyntaxParser.maxErrors) errors: the rest of the file was not read")
        // Located where reading stopped: the first statement not read.
        #expect(stop.flatMap { d in d.range.map { file.location(of: $0.start).line } } == SyntaxParser.maxErrors + 1)
        // A file that ends at the limit has nothing unread, and no stop.
        let exact = String(repeating: "zz\n", count: SyntaxParser.maxErrors) + "\n\n"
        let atEnd = Interpreter.run(file: SourceFile(name: "f.kcs", text: exact), loader: NoFilesLoader())
        #expect(atEnd.diagnostics.count == SyntaxParser.maxErrors)
        #expect(!atEnd.diagnostics.contains { $0.code == .inputLimit })
        // Lowering errors count toward the same limit.
        let lowering = SourceFile(name: "f.kcs", text: String(repeating: "team nope\n", count: lines))
        let lowered = Interpreter.run(file: lowering, loader: NoFilesLoader())
        #expect(lowered.diagnostics.filter { $0.code == .malformedTeamID }.count == SyntaxParser.maxErrors)
        #expect(lowered.diagnostics.last?.code == .inputLimit)
        // A file under the limit reports every error and no stop.
        let few = Interpreter.run(file: SourceFile(name: "f.kcs", text: "zz\nzz\n"), loader: NoFilesLoader())
        #expect(few.diagnostics.map(\.code) == [.unknownStatement, .unknownStatement])
    }

    @Test func heldEventsStopAtTheReportsCap() {
        let n = RunReport.keptDiagnostics + 2_500
        let text = String(repeating: "team SKMME9E2Y8\n", count: n + 1)
        var session = Session()
        var seen = 0
        let report = session.run(file: SourceFile(name: "t.kcs", text: text), loader: NoFilesLoader()) { event in
            if case .diagnostic = event { seen += 1 }
        }
        #expect(seen == RunReport.keptDiagnostics)
        #expect(report.diagnostics.count == RunReport.keptDiagnostics)
        #expect(report.droppedDiagnostics == n - RunReport.keptDiagnostics)
        // The batch runner's note counts every error it does not show.
        let outcome = BatchRunner(loader: NoFilesLoader(), lint: .off, collectChecks: false)
            .run(SourceFile(name: "t.kcs", text: text))
        let shown = outcome.diagnostics.filter { $0.code == .invalidDeclaration }.count
        #expect(outcome.diagnostics.last?.message == "\(n - shown) more diagnostics in t.kcs not shown")
    }
}

/// `show matrix` holds its table whole before printing it: bounded by the
/// limit of generated text even when the run's output is not (a 1 MB script
/// built 909 MB at 2.7 GB; adversarial run 24, F14).
@Test func showMatrixIsBoundedWithoutAnOutputLimit() {
    var lines = ["team SKMME9E2Y8"] + (0..<60).map { "app com.example.App\($0) as \"" + String(repeating: "n", count: 90) + "\($0)\"" }
    lines += (0..<60).map { "as \"" + String(repeating: "n", count: 90) + "0\" add generic-password service=\"s\($0)\"" }
    lines.append("show matrix")
    var limits = Limits()
    limits.generatedBytes = 100_000
    var messages: [String] = []
    var printed = 0
    let report = Interpreter.run(source: lines.joined(separator: "\n") + "\n", options: RunOptions(limits: limits)) { event in
        if case .diagnostic(let d) = event { messages.append(d.message) }
        if case .output(let text) = event { printed += text.utf8.count }
    }
    #expect(report.verdict != .passed)
    #expect(messages.contains { $0.hasPrefix("this statement's text would pass its limit of 100000 bytes") }, "\(messages)")
    #expect(printed < 100_000)
}
