import Foundation
import KCSLanguage
import KCSSyntax
@testable import KCSLanguageServer
import Testing

/// A client in the test's process: frames requests, and unframes and
/// decodes what the server sends back.
final class Client {
    var sent: [[String: Any]] = []
    var server: LanguageServer!
    var nextID = 1

    /// A client that has already said `initialize`, unless told not to.
    init(initialize: Bool = true) {
        server = LanguageServer { [unowned self] bytes in
            // One frame per call: split header and body.
            let text = bytes
            guard let split = text.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
            let body = Data(text[split.upperBound...])
            if let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] { self.sent.append(object) }
        }
        if initialize { request("initialize", ["capabilities": [String: Any]()]) }
    }

    func message(_ object: [String: Any]) {
        var object = object
        object["jsonrpc"] = "2.0"
        server.handle([UInt8](try! JSONSerialization.data(withJSONObject: object)))
    }

    /// Sends a request; returns its response's result (NSNull when null).
    @discardableResult
    func request(_ method: String, _ params: [String: Any]) -> Any? {
        let id = nextID
        nextID += 1
        message(["id": id, "method": method, "params": params])
        let response = sent.last { ($0["id"] as? Int) == id }
        return response?["result"] ?? response?["error"]
    }

    func notify(_ method: String, _ params: [String: Any]) { message(["method": method, "params": params]) }

    /// The last diagnostics published for a URI.
    func diagnostics(_ uri: String) -> [[String: Any]] {
        let published = sent.last {
            ($0["method"] as? String) == "textDocument/publishDiagnostics" && (($0["params"] as? [String: Any])?["uri"] as? String) == uri
        }
        return ((published?["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]]) ?? []
    }

    func open(_ uri: String, _ text: String) {
        notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "kcs", "version": 1, "text": text]])
    }

    func at(_ uri: String, _ line: Int, _ character: Int) -> [String: Any] {
        ["textDocument": ["uri": uri], "position": ["line": line, "character": character]]
    }
}

@Suite struct LanguageServerTests {
    static let script = """
        team SKMME9E2Y8
        app com.example.AppOne
        app com.example.AppTwo
        group com.example.Shared AppOne AppTwo
        as AppOne add generic-password service="auth" account="alice" data="s3cret"
        expect status errSecSuccess
        as AppTwo find generic-password service="auth" account="alice" return=data
        expect status errSecItemNotFound

        """
    let uri = "file:///tmp/kcs-lsp-test/a.kcs"

    func opened() -> Client {
        let c = Client(initialize: false)
        c.request("initialize", ["processId": NSNull(), "rootUri": NSNull(), "capabilities": [String: Any]()])
        c.notify("initialized", [:])
        c.open(uri, Self.script)
        return c
    }

    @Test func initializeAnnouncesEveryMethodImplemented() throws {
        let c = Client(initialize: false)
        let result = try #require(c.request("initialize", ["capabilities": [String: Any]()]) as? [String: Any])
        let caps = try #require(result["capabilities"] as? [String: Any])
        for key in ["hoverProvider", "inlayHintProvider", "definitionProvider", "referencesProvider",
                    "documentSymbolProvider", "codeActionProvider", "documentFormattingProvider"] {
            #expect(caps[key] as? Bool == true, "\(key)")
        }
        #expect(caps["completionProvider"] != nil)
        #expect(((caps["textDocumentSync"] as? [String: Any])?["change"] as? Int) == 1)
    }

    @Test func diagnosticsAsYouType() throws {
        let c = opened()
        // The find succeeds, so `expect status errSecItemNotFound` fails at line 8.
        let d = c.diagnostics(uri)
        #expect(d.count == 1)
        let range = try #require(d.first?["range"] as? [String: Any])
        #expect(((range["start"] as? [String: Any])?["line"] as? Int) == 7)
        #expect((d.first?["message"] as? String)?.contains("errSecItemNotFound") == true)
        // A syntax error replaces them; fixing it clears everything.
        c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2],
                                            "contentChanges": [["text": "team SKMME9E2Y8\napp com.example.A kind=plugin\n"]]])
        let syntax = c.diagnostics(uri)
        #expect(syntax.count == 1)
        #expect((syntax.first?["code"] as? String)?.hasPrefix("KCS") == true)
        #expect((syntax.first?["severity"] as? Int) == 1)
        c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 3],
                                            "contentChanges": [["text": "team SKMME9E2Y8\napp com.example.A\n"]]])
        #expect(c.diagnostics(uri).isEmpty)
    }

    /// Ranged changes apply in order, each to the text the one before left;
    /// a message whose changes would move more text than the budget drops
    /// the document and says why, in bounded time (a 99 KB message against
    /// a 1 MB document took over a minute; found by adversarial testing).
    /// Many diagnostics on one long line with wide characters: each
    /// column is counted from a checkpoint, and agrees with counting the
    /// UTF-16 units from the line's start (which was quadratic: found by
    /// adversarial testing, a minute for a 4 MB line); a position maps back
    /// to its offset through the same checkpoints.
    @Test func columnsOnALongLineWithWideCharacters() throws {
        var line = "team SKMME9E2Y8"
        for i in 0..<300 { line += " é😀\(i) \u{1}" }
        let file = SourceFile(name: "long.kcs", text: line + "\r\nlock\n")
        let index = TextIndex(file.bytes)
        var offsets = Array(stride(from: 0, to: file.bytes.count, by: 37)) + [line.utf8.count, file.bytes.count]
        offsets.shuffle()
        for offset in offsets {
            // Counted on scalar starts, as the front end's offsets are.
            guard offset == file.bytes.count || file.bytes[offset] & 0xC0 != 0x80 else { continue }
            let location = file.location(of: offset)
            let start = file.lineBounds(location.line)?.lowerBound ?? 0
            let p = index.position(of: offset)
            #expect(p.line == location.line - 1)
            #expect(p.character == TextIndex.utf16Count(file.bytes, from: start, to: offset), "offset \(offset)")
            #expect(index.offset(of: p) == offset, "offset \(offset)")
        }
        #expect(index.bounds(ofLine: 0) == 0..<line.utf8.count)
        #expect(index.offset(of: Position(line: 0, character: 1 << 40)) == line.utf8.count)
        // Through the server: one diagnostic per control character.
        let c = opened()
        c.open("file:///tmp/kcs-lsp-test/long.kcs", line + "\n")
        #expect(c.diagnostics("file:///tmp/kcs-lsp-test/long.kcs").count >= 300)
    }

    /// Many positions on one long line cost a bounded walk each: the
    /// line's end is known without searching the line, and a column is
    /// counted from the checkpoint before it. Searching for the end and
    /// counting from the start made F2's 9,999 diagnostics on a line ending
    /// in a 1 MiB comment take 46 s at each change, and F1's 80,000
    /// references on one `group` line 41 s (adversarial run 29); a
    /// references answer holds at most ``LanguageServer/maxReferences``.
    @Test func positionsOnOneLongLineWalkABoundedPartOfIt() throws {
        let groups = (0..<2_000).map { "g\($0)" }.joined(separator: ",")
        let text = "team SKMME9E2Y8\napp com.example.A keychain-access-groups=[\(groups)]  # é😀"
            + String(repeating: "c", count: 1 << 18) + "\n"
        let analysis = Analysis(path: "/tmp/kcs-lsp-test/long.kcs", bytes: Array(text.utf8), loader: FileSystemLoader())
        let warnings = analysis.diagnostics.filter { $0.code == .lintUnprefixedEntitlement }
        #expect(warnings.count == 2_000)
        var indexes = FileIndexes(document: analysis.file, index: analysis.index)
        let lineStart = "team SKMME9E2Y8\n".utf8.count
        for d in warnings {
            let range = d.lspRange(&indexes), bytes = try #require(d.range)
            #expect(range.start == Position(line: 1, character: bytes.start - lineStart))
            #expect(range.end == Position(line: 1, character: bytes.end - lineStart))
        }
        #expect(indexes.scanned <= warnings.count * 2 * (TextIndex.stride + 4), "\(indexes.scanned) bytes walked")
        // The references' shape: a name every two bytes of a group line.
        let names = String(repeating: " A", count: LanguageServer.maxReferences + 50)
        let script = "team SKMME9E2Y8\napp com.example.A\ngroup group.com.example.G" + names + String(repeating: " ", count: 1 << 16) + "\n"
        let index = TextIndex(Array(script.utf8))
        var scanned = 0
        let groupLine = script.utf8.count - names.utf8.count - (1 << 16) - 1 - "group group.com.example.G".utf8.count
        for name in stride(from: script.utf8.count - names.utf8.count - (1 << 16) - 1, to: script.utf8.count - (1 << 16) - 1, by: 2) {
            #expect(index.position(of: name + 1, scanned: &scanned) == Position(line: 2, character: name + 1 - groupLine))
        }
        #expect(scanned <= (LanguageServer.maxReferences + 50) * (TextIndex.stride + 4), "\(scanned) bytes walked")
        let c = Client()
        c.open(uri, script)
        let found = try #require(c.request("textDocument/references", c.at(uri, 2, 27)) as? [[String: Any]])
        #expect(found.count == LanguageServer.maxReferences)
        let last = (found.last?["range"] as? [String: Any])?["start"] as? [String: Any]
        #expect(last?["line"] as? Int == 2)
        #expect(last?["character"] as? Int == "group group.com.example.G".utf8.count + 2 * (LanguageServer.maxReferences - 1) - 1)
    }

    @Test func rangedChangesApplyAndAreBounded() throws {
        let c = Client()
        func range(_ l0: Int, _ c0: Int, _ l1: Int, _ c1: Int) -> [String: Any] {
            ["start": ["line": l0, "character": c0], "end": ["line": l1, "character": c1]]
        }
        c.open(uri, "team SKMME9E2Y8\napp com.example.Ä\nzz\n")
        #expect(c.diagnostics(uri).count == 1)
        // Replace "zz" (line 2), then insert after "Ä" (one UTF-16 unit, two bytes).
        c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [
            ["range": range(2, 0, 2, 2), "text": "show apps"],
            ["range": range(1, 17, 1, 17), "text": "B as A"],
        ]])
        #expect(c.diagnostics(uri).isEmpty, "\(c.diagnostics(uri))")
        let edits = try #require(c.request("textDocument/formatting", ["textDocument": ["uri": uri],
                                                                         "options": ["tabSize": 4, "insertSpaces": true]]) as? [Any])
        #expect(edits.isEmpty)
        // A flood of ranged changes against a large document (the budget
        // scaled down with the document).
        c.server.changeBudget = 4 << 20
        let big = "# " + String(repeating: "x", count: 64 << 10) + "\n"
        c.open(uri, big)
        // Each inserts at the top: the whole text moves every time.
        // The work is counted, not timed (a 30 s bound could flake on a
        // loaded machine): the server stops at its budget of bytes moved,
        // and the log says so; without the budget the flood moves 128 MiB
        // and nothing is logged.
        let flood = Array(repeating: ["range": range(0, 0, 0, 0), "text": "#"] as [String: Any], count: 2_000)
        c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": flood])
        let log = c.sent.last { ($0["method"] as? String) == "window/logMessage" }
        #expect(((log?["params"] as? [String: Any])?["message"] as? String)?.contains("moved more than 4096 KiB of text; the document is out of sync") == true)
        #expect(c.diagnostics(uri).map { $0["message"] as? String } == [
            "kcs does not have this document's text as the editor has it (one change message moved more than 4096 KiB of text); "
            + "it is checked again when the editor sends the whole text: edit it, or close and reopen it"])
    }

    /// Neovim deletes the last line with a range that ends at the start of
    /// the line after it, `{line: lineCount, character: 0}`: the protocol's
    /// way to take in a line with its line break, here the end of the text.
    /// It left the document out of sync (the range was read as reaching a
    /// line the text does not have).
    @Test func aRangeEndingAtTheLineAfterTheLastEndsAtTheEnd() throws {
        let c = Client()
        func change(_ l0: Int, _ c0: Int, _ l1: Int, _ c1: Int, _ text: String) {
            c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [
                ["range": ["start": ["line": l0, "character": c0], "end": ["line": l1, "character": c1]], "text": text]]])
        }
        func formatted() -> [Any]? {
            c.request("textDocument/formatting", ["textDocument": ["uri": uri], "options": ["tabSize": 4, "insertSpaces": true]]) as? [Any]
        }
        // No line break at the end: two lines, the last deleted.
        c.open(uri, "team SKMME9E2Y8\nzz")
        #expect(c.diagnostics(uri).count == 1)
        change(1, 0, 2, 0, "")
        #expect(c.diagnostics(uri).isEmpty, "\(c.diagnostics(uri))")
        #expect(formatted()?.isEmpty == true)
        // A line break at the end: three lines, the last one empty.
        c.open(uri, "team SKMME9E2Y8\nzz\n")
        change(1, 0, 3, 0, "show apps\n")
        #expect(c.diagnostics(uri).isEmpty, "\(c.diagnostics(uri))")
        #expect(formatted()?.isEmpty == true)
        // An insertion there appends.
        change(3, 0, 3, 0, "zz\n")
        #expect(c.diagnostics(uri).compactMap { (($0["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int } == [2])
    }

    /// A change the server cannot apply left the text as it was, with only
    /// a log message: the editor showed the old text's diagnostics for the
    /// text it had changed (a range past the end was applied at the end).
    /// The document is out of sync: one error at its top says so, ranged
    /// changes are ignored, and the next whole text brings it back.
    @Test func aChangeThatCannotApplyLeavesTheDocumentOutOfSync() throws {
        let c = Client()
        func range(_ l0: Int, _ c0: Int, _ l1: Int, _ c1: Int) -> [String: Any] {
            ["start": ["line": l0, "character": c0], "end": ["line": l1, "character": c1]]
        }
        let zeros = "[" + String(repeating: "0,", count: 1_200_000) + "0]"
        let refused: [(change: () -> Void, reason: String)] = [
            ({ c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [
                ["range": range(0, 0, 0, 0), "text": "x"], ["range": range(9, 0, 9, 0), "text": "x"]]]) },
             "a change's range reaches line 10 of a text of 3 lines"),
            // Past the last line only the start of the line after it is a
            // position (the end of the text): not a character on that line,
            // nor the line after that.
            ({ c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [["range": range(2, 0, 3, 1), "text": "x"]]]) },
             "a change's range reaches line 4 of a text of 3 lines"),
            ({ c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [["range": range(1, 0, 4, 0), "text": "x"]]]) },
             "a change's range reaches line 5 of a text of 3 lines"),
            ({ c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [["range": range(1, 0, 0, 0), "text": "x"]]]) },
             "a change's range ends before it starts"),
            ({ c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": 7]) },
             "a change to it did not decode"),
            ({ c.server.handle(Array(("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{\"version\":2,"
                                      + "\"uri\":\"\(uri)\"},\"contentChanges\":[{\"text\":\"x\"}],\"more\":\(zeros)}}").utf8)) },
             "a change of more than 1,000,000 JSON values was not read"),
            // An emoji deleted one UTF-16 unit at a time: the first unit's
            // position is inside the character (it was rounded past it,
            // and the next change deleted the next character; adversarial
            // run 26, F2).
            ({ c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [
                ["range": range(1, 0, 1, 0), "text": "\u{1F600}"], ["range": range(1, 1, 1, 2), "text": ""]]]) },
             "a change's range starts or ends between the two UTF-16 units of one character"),
            // Nested past what the JSON decoder reads, under the value
            // budget: a "parse error" to a notification, the change dropped
            // silently (adversarial run 26, F3).
            ({ c.server.handle(Array(("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{\"version\":2,"
                                      + "\"uri\":\"\(uri)\"},\"contentChanges\":[{\"text\":\"x\"}],\"x\":" + String(repeating: "[", count: 600)
                                      + String(repeating: "]", count: 600) + "}}").utf8)) },
             "a change nested more than 500 levels deep was not read"),
        ]
        for (change, reason) in refused {
            c.open(uri, "team SKMME9E2Y8\nzz\n")
            #expect(c.diagnostics(uri).count == 1)
            change()
            #expect(c.diagnostics(uri).map { $0["message"] as? String } == ["kcs does not have this document's text as the editor has it (\(reason)); "
                                                                          + "it is checked again when the editor sends the whole text: edit it, or close and reopen it"])
            #expect(c.diagnostics(uri).first?["severity"] as? Int == 1)
            // Ranged changes wait for the whole text; requests see no text.
            c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 3], "contentChanges": [["range": range(0, 0, 0, 0), "text": "x"]]])
            #expect(c.request("textDocument/formatting", ["textDocument": ["uri": uri], "options": ["tabSize": 4, "insertSpaces": true]]) is NSNull)
            c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 4], "contentChanges": [["text": "team SKMME9E2Y8\n"]]])
            #expect(c.diagnostics(uri).isEmpty, "\(reason): \(c.diagnostics(uri))")
        }
    }

    /// A document past the analysis limit, or past the total the server
    /// keeps, is not kept, and the client is told why (20 documents of
    /// 10 MiB of line breaks aborted the server; found by adversarial testing).
    @Test func documentsPastTheLimitsAreNotKept() throws {
        let c = Client()
        c.open(uri, String(repeating: "\n", count: (8 << 20) + 1))
        var log = c.sent.last { ($0["method"] as? String) == "window/logMessage" }
        #expect(((log?["params"] as? [String: Any])?["message"] as? String)?.contains("over the server's limit of 8 MiB; it is not analysed") == true)
        #expect(c.request("textDocument/formatting", ["textDocument": ["uri": uri], "options": ["tabSize": 4, "insertSpaces": true]]) is NSNull)
        c.server.maxOpenBytes = 1 << 20
        let small = String(repeating: "# x\n", count: 200_000)
        c.open("file:///tmp/one.kcs", small)
        c.open("file:///tmp/two.kcs", small)
        log = c.sent.last { ($0["method"] as? String) == "window/logMessage" }
        #expect(((log?["params"] as? [String: Any])?["message"] as? String)?.contains("file:///tmp/two.kcs: the open documents come to more than 1 MiB") == true)
        // Ranged changes to a dropped document are ignored until it comes
        // back whole (they were applied to nothing; found by review).
        c.notify("textDocument/didChange", ["textDocument": ["uri": "file:///tmp/two.kcs", "version": 2],
                                            "contentChanges": [["range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]], "text": "lock\n"]]])
        #expect(c.diagnostics("file:///tmp/two.kcs").isEmpty)
        #expect(c.request("textDocument/formatting", ["textDocument": ["uri": "file:///tmp/two.kcs"],
                                                      "options": ["tabSize": 4, "insertSpaces": true]]) is NSNull)
        // Closing one makes room.
        c.notify("textDocument/didClose", ["textDocument": ["uri": "file:///tmp/one.kcs"]])
        let before = c.sent.count
        c.open("file:///tmp/two.kcs", small)
        #expect(!c.sent[before...].contains { ($0["method"] as? String) == "window/logMessage" })
    }

    /// Text that is not JSON is a parse error; JSON that is not a request
    /// is an invalid request, answered with a null id.
    @Test func malformedMessagesGetTheRightErrors() throws {
        let c = Client()
        func lastError(_ raw: String) -> Int? {
            c.server.handle(Array(raw.utf8))
            return ((c.sent.last?["error"] as? [String: Any])?["code"] as? Int)
        }
        #expect(lastError("{") == -32700)
        #expect(lastError("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"shutdown\"}") == -32600)
        #expect(lastError("{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"shutdown\"}") == -32600)
        #expect(lastError("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":7}") == -32600)
        #expect(lastError("7") == -32600)
        #expect(c.sent.last?["id"] is NSNull)
        // Nested past the decoder's depth, the request is answered by its id
        // (it was a parse error with a null id; adversarial run 26, F3).
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(lastError("{\"jsonrpc\":\"2.0\",\"id\":600,\"method\":\"textDocument/hover\",\"x\":\(deep)}") == -32600)
        #expect(c.sent.last?["id"] as? Int == 600, "\(c.sent.last ?? [:])")
    }

    /// A URI counts against the open documents' budget as text does: 400
    /// empty documents with 1 MB URIs held 1.17 GB (adversarial run 26, F9).
    @Test func aDocumentsURICountsAgainstTheOpenBudget() throws {
        let c = Client()
        c.server.maxOpenBytes = 30_000
        let long = "file:///tmp/" + String(repeating: "a", count: 10_000) + ".kcs"
        c.open(long, "")
        let log = c.sent.last { ($0["method"] as? String) == "window/logMessage" }
        #expect(((log?["params"] as? [String: Any])?["message"] as? String)?.contains("the open documents come to more than") == true, "\(log ?? [:])")
        #expect(c.request("textDocument/formatting", ["textDocument": ["uri": long], "options": ["tabSize": 4, "insertSpaces": true]]) is NSNull)
        c.open(uri, "team SKMME9E2Y8\n")
        #expect(c.diagnostics(uri).isEmpty)
    }

    /// A refused change names its document with JSON's escapes decoded:
    /// `\u00e9` was read `u00e9`, no open document matched, and it stayed
    /// stale with only a log line (adversarial run 26, F10).
    @Test func aRefusedChangesURIIsReadWithItsEscapes() throws {
        let c = Client()
        let accented = "file:///tmp/adv26_\u{E9}\u{1F600}\n.kcs"
        c.open(accented, "team SKMME9E2Y8\n")
        #expect(c.diagnostics(accented).isEmpty)
        let zeros = "[" + String(repeating: "0,", count: 1_200_000) + "0]"
        c.server.handle(Array(("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{\"version\":2,"
                               + "\"uri\":\"file:\\/\\/\\/tmp\\/adv26_\\u00e9\\ud83d\\ude00\\n.kcs\"},\"contentChanges\":[{\"text\":\"x\"}],\"more\":\(zeros)}}").utf8))
        #expect(c.diagnostics(accented).first?["message"] as? String
                == "kcs does not have this document's text as the editor has it (a change of more than 1,000,000 JSON values was not read); "
                + "it is checked again when the editor sends the whole text: edit it, or close and reopen it", "\(c.diagnostics(accented))")
        #expect(topLevelIDAndMethod(Array("{\"method\":\"a\\tb\\\"c\\\\\"}".utf8)).method == "a\tb\"c\\")
    }

    /// A notification whose params do not decode gets no reply, so the
    /// server says why in a log message rather than drop it in silence.
    @Test func undecodableNotificationsAreLogged() throws {
        let c = Client()
        c.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "kcs", "version": 1, "text": 7]])
        let log = c.sent.last { ($0["method"] as? String) == "window/logMessage" }
        #expect(((log?["params"] as? [String: Any])?["message"] as? String) == "kcs lsp: invalid params for textDocument/didOpen; ignored")
        // And nothing was tracked: no diagnostics were published for it.
        #expect(!c.sent.contains { ($0["method"] as? String) == "textDocument/publishDiagnostics" })
    }

    @Test func lintWarningsArePublishedAsWarnings() throws {
        let c = Client()
        c.open(uri, "team SKMME9E2Y8\napp com.example.A\ngroup com.example.S A\nas A add generic-password account=\"a\" group=com.example.S\n")
        let d = c.diagnostics(uri)
        #expect(d.contains { ($0["severity"] as? Int) == 2 && ($0["code"] as? String) == "KCS501" })
    }

    @Test func completionOffersTheGrammarAndTheDocumentsNames() throws {
        let c = opened()
        c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2],
                                            "contentChanges": [["text": Self.script + "as App\n"]]])
        let apps = try #require(c.request("textDocument/completion", c.at(uri, 8, 6)) as? [[String: Any]])
        #expect(Set(apps.compactMap { $0["label"] as? String }) == ["AppOne", "AppTwo"])
        c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 3],
                                            "contentChanges": [["text": Self.script + "expect status errSecItemN\n"]]])
        let statuses = try #require(c.request("textDocument/completion", c.at(uri, 8, 25)) as? [[String: Any]])
        #expect(statuses.compactMap { $0["label"] as? String } == ["errSecItemNotFound"])
        let keywords = try #require(c.request("textDocument/completion", c.at(uri, 8, 0)) as? [[String: Any]])
        #expect(keywords.contains { ($0["label"] as? String) == "expect" && ($0["kind"] as? Int) == 14 })
    }

    @Test func hoverExplainsStatementsAppsAndCalls() throws {
        let c = opened()
        func hover(_ line: Int, _ character: Int) throws -> String {
            let result = try #require(c.request("textDocument/hover", c.at(uri, line, character)) as? [String: Any])
            return try #require((result["contents"] as? [String: Any])?["value"] as? String)
        }
        #expect(try hover(0, 1).contains("team TEAMID"))
        let app = try hover(4, 5)  // AppOne in the add
        #expect(app.contains("SKMME9E2Y8.com.example.Shared"))
        #expect(app.contains("SKMME9E2Y8.com.example.AppOne"))
        let call = try hover(6, 0)  // 'as' of the find
        #expect(call.contains("errSecSuccess"))
        #expect(try hover(7, 16).contains("-25300"))
        #expect(try hover(4, 35).contains("kSecAttrService"))
    }

    /// A name holding a line of backticks, a heading and a link: the call's
    /// hover keeps it inside its code block (adversarial 18, E2; names in
    /// bold are ``MarkdownTextTests``'s).
    @Test func hoverKeepsHostileNamesInside() throws {
        let c = Client()
        let name = "A\\n```\\n# Heading\\n[click](https://example.invalid)**"
        let script = "team SKMME9E2Y8\napp com.example.A as \"\(name)\"\nas \"\(name)\" add generic-password account=\"x\"\n"
        c.open(uri, script)
        for (line, character) in [(2, 0)] {
            let result = try #require(c.request("textDocument/hover", c.at(uri, line, character)) as? [String: Any])
            let value = try #require((result["contents"] as? [String: Any])?["value"] as? String)
            let lines = value.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(!lines.contains { $0.hasPrefix("# ") || $0.hasPrefix("[click]") }, "\(value)")
            #expect(!value.contains("**A\\u{A}```"), "\(value)")
        }
    }

    /// A hover on an app of 2,000 groups (about 100 KB of `show app`, and as
    /// much of `explain` for the call) shows the first 16 KiB of each and
    /// says how much more there was: one output event
    /// was kept whole in a cache bounded in entries only, 58 MB a document
    /// (adversarial run 24, F6).
    @Test func aLongHoverIsCutAndSaid() throws {
        let c = Client()
        let groups = (0..<2_000).map { "$(AppIdentifierPrefix)com.example.group\($0).with.a.longer.name" }.joined(separator: ", ")
        c.open(uri, "team SKMME9E2Y8\napp com.example.A keychain-access-groups=[\(groups)]\nas A add generic-password account=\"x\"\n")
        let result = try #require(c.request("textDocument/hover", c.at(uri, 2, 3)) as? [String: Any])
        let value = try #require((result["contents"] as? [String: Any])?["value"] as? String)
        #expect(value.utf8.count < 40_000, "\(value.utf8.count) bytes: \(value.prefix(200)) … \(value.suffix(400))")
        #expect(value.contains("more bytes not shown"), "\(value.suffix(300))")
        #expect(value.contains("com.example.group0.with"), "\(value.prefix(300))")
    }

    /// A hover shows what concerns the hovered thing only: the script's own
    /// `show`/`explain` output above it is not prepended (editor trial 20,
    /// E2: the hover on A0 was 60 copies of `show apps`, cut at 16 KiB
    /// before A0's part; the call's explain block the same).
    @Test func aHoverShowsNoOutputOfTheStatementsAbove() throws {
        let c = Client()
        let apps = (0..<20).map { "app com.example.A\($0) keychain-access-groups=[$(AppIdentifierPrefix)com.example.group.\($0)]" }
        let shows = Array(repeating: "show apps", count: 60)
        c.open(uri, (["team SKMME9E2Y8"] + apps + shows + ["show app A7", "explain", "as A0 add generic-password account=\"x\""])
            .joined(separator: "\n") + "\n")
        for character in [0, 3] {  // the call's `as` (its explain), the app (show app)
            let result = try #require(c.request("textDocument/hover", c.at(uri, 83, character)) as? [String: Any])
            let value = try #require((result["contents"] as? [String: Any])?["value"] as? String)
            #expect(!value.contains("more bytes not shown"), "\(value.prefix(300))")
            #expect(!value.contains("com.example.A7"), "\(value.prefix(300))")
            #expect(value.contains("com.example.A0"), "\(value.prefix(300))")
        }
    }

    /// A quoted name hovers as a word does (adversarial 19, P3).
    @Test func hoverOnAQuotedName() throws {
        let c = Client()
        c.open(uri, "team SKMME9E2Y8\napp com.example.B as \"My App\"\nas \"My App\" add generic-password account=\"x\"\n")
        let result = try #require(c.request("textDocument/hover", c.at(uri, 2, 6)) as? [String: Any])
        let value = try #require((result["contents"] as? [String: Any])?["value"] as? String)
        #expect(value.contains("app **My App** here") && value.contains("SKMME9E2Y8.com.example.B"), "\(value)")
    }

    @Test func inlayHintsShowEachCallsStatus() throws {
        let c = opened()
        let hints = try #require(c.request("textDocument/inlayHint", ["textDocument": ["uri": uri],
            "range": ["start": ["line": 0, "character": 0], "end": ["line": 20, "character": 0]]]) as? [[String: Any]])
        #expect(hints.compactMap { $0["label"] as? String } == ["→ errSecSuccess", "→ errSecSuccess (1)"])
        #expect(((hints.first?["position"] as? [String: Any])?["line"] as? Int) == 4)
    }

    @Test func definitionReferencesAndSymbols() throws {
        let c = opened()
        let definition = try #require(c.request("textDocument/definition", c.at(uri, 6, 4)) as? [[String: Any]])
        let start = (definition.first?["range"] as? [String: Any])?["start"] as? [String: Any]
        #expect(start?["line"] as? Int == 2)
        #expect(start?["character"] as? Int == 16)  // "AppTwo" in com.example.AppTwo
        let references = try #require(c.request("textDocument/references", c.at(uri, 6, 4)) as? [[String: Any]])
        #expect(references.count == 3)  // declaration, group, find
        let symbols = try #require(c.request("textDocument/documentSymbol", ["textDocument": ["uri": uri]]) as? [[String: Any]])
        #expect(symbols.compactMap { $0["name"] as? String } == ["SKMME9E2Y8", "AppOne", "AppTwo", "com.example.Shared"])
    }

    /// A numeric status hovers with its name; references without the
    /// declaration when the client asks so (editor trial 20, E9: nothing,
    /// and the declaration anyway).
    @Test func numericStatusHoverAndReferencesWithoutTheDeclaration() throws {
        let c = opened()
        c.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2],
                                            "contentChanges": [["text": Self.script + "expect status errSecSuccess or -25300\n"]]])
        let result = try #require(c.request("textDocument/hover", c.at(uri, 8, 33)) as? [String: Any])
        #expect((result["contents"] as? [String: Any])?["value"] as? String == "**errSecItemNotFound** = -25300", "\(result)")
        var params = c.at(uri, 6, 4)
        params["context"] = ["includeDeclaration": false]
        let references = try #require(c.request("textDocument/references", params) as? [[String: Any]])
        let lines = references.compactMap { (($0["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int }
        #expect(lines == [3, 6], "group and find, not the declaration at line 2: \(lines)")
    }

    /// An app named by a quoted bundle ID (no `as`): its name's range is
    /// inside the quotes (it was one character right; editor trial 20, E7).
    @Test func definitionOfAnAppNamedByAQuotedBundleID() throws {
        let c = Client()
        c.open(uri, "team SKMME9E2Y8\napp \"com.example.My App\"\nas \"My App\" add generic-password account=\"x\"\n")
        let found = try #require(c.request("textDocument/definition", c.at(uri, 2, 5)) as? [[String: Any]])
        let range = try #require(found.first?["range"] as? [String: Any])
        let start = range["start"] as? [String: Any], end = range["end"] as? [String: Any]
        #expect(start?["line"] as? Int == 1 && start?["character"] as? Int == 17 && end?["character"] as? Int == 23, "\(range)")
    }

    /// A line being corrected (a misspelt attribute) lowers to nothing, but
    /// its app and device still lead to their declarations.
    @Test func definitionWorksOnALineWithAnError() throws {
        let c = Client()
        c.open(uri, "team SKMME9E2Y8\ndevice Pad\napp com.example.AppOne\non Pad as AppOne add generic-password acount=\"a\"\n")
        let app = try #require(c.request("textDocument/definition", c.at(uri, 3, 12)) as? [[String: Any]])
        let appStart = (app.first?["range"] as? [String: Any])?["start"] as? [String: Any]
        #expect(appStart?["line"] as? Int == 2 && appStart?["character"] as? Int == 16)
        let device = try #require(c.request("textDocument/definition", c.at(uri, 3, 4)) as? [[String: Any]])
        #expect(((device.first?["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int == 1)
    }

    /// An include whose file is not found leads nowhere: the path as
    /// written made a relative, malformed URI (`file://inc.kcs`; adversarial run 23).
    @Test func definitionOfAMissingIncludeIsNothing() throws {
        let c = Client()
        c.open(uri, "include \"nowhere-at-all.kcs\"\n")
        let definition = try #require(c.request("textDocument/definition", c.at(uri, 0, 12)) as? [Any])
        #expect(definition.isEmpty, "\(definition)")
    }

    /// An includer is checked again when an include it read changes, is
    /// saved or closed: it kept the errors of an include text that no longer
    /// existed until it was edited itself (editor trial 20, E14).
    @Test func anIncludersDiagnosticsFollowTheInclude() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-lsp-e14-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let broken = "team SKMME9E2Y8\napp com.example.A\nas A add generic-password acount=\"x\"\n"
        let fixed = broken.replacingOccurrences(of: "acount", with: "account")
        let incURL = dir.appendingPathComponent("inc.kcs")
        try broken.write(to: incURL, atomically: true, encoding: .utf8)
        let main = LanguageServer.uri(of: dir.appendingPathComponent("main.kcs").path)
        let inc = LanguageServer.uri(of: incURL.path)
        let c = Client()
        c.open(main, "include \"inc.kcs\"\nas A find generic-password\n")
        func mainSays() -> [String] { c.diagnostics(main).compactMap { $0["message"] as? String } }
        #expect(mainSays().contains { $0.contains("acount") }, "\(mainSays())")
        c.open(inc, broken)
        c.notify("textDocument/didChange", ["textDocument": ["uri": inc, "version": 2], "contentChanges": [["text": fixed]]])
        #expect(mainSays().isEmpty, "after the include's fix: \(mainSays())")
        c.notify("textDocument/didChange", ["textDocument": ["uri": inc, "version": 3], "contentChanges": [["text": broken + "bogus\n"]]])
        #expect(mainSays().contains { $0.contains("bogus") }, "a new error in the include: \(mainSays())")
        // Closed, the include is read from the disk again (the broken text).
        c.notify("textDocument/didClose", ["textDocument": ["uri": inc]])
        #expect(mainSays().contains { $0.contains("acount") } && !mainSays().contains { $0.contains("bogus") }, "\(mainSays())")
        // Saved by another program, then a didSave.
        try fixed.write(to: incURL, atomically: true, encoding: .utf8)
        c.notify("textDocument/didSave", ["textDocument": ["uri": inc]])
        #expect(mainSays().isEmpty, "after the save: \(mainSays())")
    }

    /// Going to an include opens its file; a name the include declares goes
    /// there; a hover runs with the include read (editor trial 20, E12: no
    /// answer to either, and empty `show app`/`explain` blocks).
    @Test func includesAreNavigableAndHoversReadThem() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-lsp-e12-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let incURL = dir.appendingPathComponent("lib.kcs")
        try "team SKMME9E2Y8\napp com.example.LibApp\n".write(to: incURL, atomically: true, encoding: .utf8)
        let main = LanguageServer.uri(of: dir.appendingPathComponent("main.kcs").path)
        let c = Client()
        c.open(main, "include \"lib.kcs\"\nas LibApp add generic-password account=\"x\"\n")
        #expect(c.diagnostics(main).isEmpty, "\(c.diagnostics(main))")
        func location(_ line: Int, _ character: Int) throws -> (uri: String?, line: Int?, character: Int?) {
            let found = try #require(c.request("textDocument/definition", c.at(main, line, character)) as? [[String: Any]])
            let start = (found.first?["range"] as? [String: Any])?["start"] as? [String: Any]
            return (found.first?["uri"] as? String, start?["line"] as? Int, start?["character"] as? Int)
        }
        for character in [0, 9, 12] {
            let l = try location(0, character)
            #expect(l.uri == LanguageServer.uri(of: incURL.path) && l.line == 0 && l.character == 0, "\(character): \(l)")
        }
        let app = try location(1, 4)
        #expect(app.uri == LanguageServer.uri(of: incURL.path) && app.line == 1 && app.character == 16, "\(app)")
        for character in [0, 4] {  // the call (its explain), the app (show app)
            let result = try #require(c.request("textDocument/hover", c.at(main, 1, character)) as? [String: Any])
            let value = try #require((result["contents"] as? [String: Any])?["value"] as? String)
            #expect(value.contains("SKMME9E2Y8.com.example.LibApp"), "\(character): \(value)")
        }
    }

    @Test func codeActionsTurnDidYouMeanIntoEdits() throws {
        let c = Client()
        c.open(uri, "team SKMME9E2Y8\napp com.example.A\nas A find generic-pasword account=\"a\"\n")
        let actions = try #require(c.request("textDocument/codeAction", ["textDocument": ["uri": uri],
            "range": ["start": ["line": 2, "character": 0], "end": ["line": 2, "character": 30]],
            "context": ["diagnostics": [Any]()]]) as? [[String: Any]])
        let edit = (((actions.first?["edit"] as? [String: Any])?["changes"] as? [String: Any])?[uri] as? [[String: Any]])?.first
        #expect(edit?["newText"] as? String == "generic-password")
        let start = (edit?["range"] as? [String: Any])?["start"] as? [String: Any]
        #expect(start?["line"] as? Int == 2 && start?["character"] as? Int == 10)
    }

    /// The context's diagnostics are whatever the editor shows on the range:
    /// another server's, without code, source or severity, or with a number
    /// for a code, are valid LSP and must not refuse the request (editor
    /// trial 20, E5: -32602, and the quick fix was lost); `only` without
    /// `quickfix` asks for none.
    @Test func codeActionsAcceptAnyDiagnosticsAndHonourOnly() throws {
        let c = Client()
        c.open(uri, "team SKMME9E2Y8\napp com.example.A\nas A find generic-pasword account=\"a\"\n")
        let range: [String: Any] = ["start": ["line": 2, "character": 0], "end": ["line": 2, "character": 30]]
        let own = try #require(c.diagnostics(uri).first)
        let foreign: [[String: Any]] = [
            ["range": range, "message": "Unknown word (pasword)"],
            ["range": range, "message": "E501", "code": 501, "severity": 3, "source": "lint"],
            ["range": range, "message": "x", "code": "a", "codeDescription": ["href": "https://example.com"], "tags": [1], "data": ["k": [1, 2]]],
        ]
        for context: [String: Any] in [["diagnostics": foreign], ["diagnostics": [own] + foreign],
                                       ["diagnostics": [own], "only": ["quickfix"]], ["diagnostics": [Any](), "only": [""]]] {
            let actions = try #require(c.request("textDocument/codeAction", ["textDocument": ["uri": uri], "range": range,
                                                                             "context": context]) as? [[String: Any]], "\(context)")
            #expect(actions.map { $0["title"] as? String } == ["replace 'generic-pasword' with 'generic-password'"], "\(context)")
        }
        for only in [["source.organizeImports"], ["refactor"], ["quickfixes"]] {
            let actions = try #require(c.request("textDocument/codeAction", ["textDocument": ["uri": uri], "range": range,
                                                                             "context": ["diagnostics": [own], "only": only]]) as? [Any])
            #expect(actions.isEmpty, "\(only)")
        }
    }

    @Test func formattingReturnsTheCanonicalLayout() throws {
        let c = Client()
        c.open(uri, "team   SKMME9E2Y8\n\n\napp com.example.A   # x\n")
        let edits = try #require(c.request("textDocument/formatting", ["textDocument": ["uri": uri],
            "options": ["tabSize": 4, "insertSpaces": true]]) as? [[String: Any]])
        #expect(edits.first?["newText"] as? String == "team SKMME9E2Y8\n\napp com.example.A  # x\n")
    }

    @Test func markdownBlocksGetDiagnosticsAtTheDocumentsLines() throws {
        let c = Client()
        let doc = "file:///tmp/kcs-lsp-test/d.md"
        c.open(doc, "# Title\n\n```kcs\nteam SKMME9E2Y8\nlok\n```\n")
        let d = c.diagnostics(doc)
        #expect(d.count == 1)
        #expect((((d.first?["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int) == 4)
    }

    @Test func unknownRequestsAndBadParamsGetErrors() throws {
        let c = Client()
        let unknown = c.request("textDocument/rename", ["textDocument": ["uri": uri]]) as? [String: Any]
        #expect(unknown?["code"] as? Int == -32601)
        let bad = c.request("textDocument/hover", ["nope": 1]) as? [String: Any]
        #expect(bad?["code"] as? Int == -32602)
        c.server.handle(Array("{not json".utf8))
        #expect((c.sent.last?["error"] as? [String: Any])?["code"] as? Int == -32700)
    }

    /// The protocol's rule before `initialize`: requests get -32002
    /// ServerNotInitialized, notifications are dropped, exit still ends.
    @Test func beforeInitializeRequestsAreRefusedAndNotificationsDropped() throws {
        let c = Client(initialize: false)
        let hover = try #require(c.request("textDocument/hover", c.at(uri, 0, 0)) as? [String: Any])
        #expect(hover["code"] as? Int == -32002)
        c.open(uri, Self.script)
        #expect(!c.sent.contains { ($0["method"] as? String) == "textDocument/publishDiagnostics" })
        #expect(c.request("initialize", ["capabilities": [String: Any]()]) is [String: Any])
        c.open(uri, Self.script)
        #expect(c.sent.contains { ($0["method"] as? String) == "textDocument/publishDiagnostics" })
        c.notify("exit", [:])
        #expect(c.server.exitStatus == .failed)
    }

    @Test func shutdownThenExitEndsWithZero() {
        let c = Client()
        c.request("shutdown", [:])
        // After shutdown a request is InvalidRequest and a document is not analysed.
        c.request("textDocument/hover", c.at(uri, 0, 0))
        #expect(((c.sent.last?["error"] as? [String: Any])?["code"] as? Int) == -32600)
        let published = c.sent.count
        c.open(uri, Self.script)
        #expect(c.sent.count == published)
        c.notify("exit", [:])
        #expect(c.server.exitStatus == .passed)
    }

    @Test func symbolNamesAreEscaped() throws {
        let c = Client()
        c.open(uri, "team SKMME9E2Y8\napp com.example.A as \"A\u{1B}[2J\"\n")
        let symbols = try #require(c.request("textDocument/documentSymbol", ["textDocument": ["uri": uri]]) as? [[String: Any]])
        let names = symbols.compactMap { $0["name"] as? String }
        #expect(names.count == 2 && !names.contains { $0.unicodeScalars.contains { $0.value == 0x1B } }, "\(names)")
    }
}

@Suite struct JSONValueBudgetTests {
    /// A message of millions of JSON values is refused before it is
    /// decoded: a 62 MB array of zeros in a hover's params took 1.7 GB
    /// (adversarial run 24, F8). A long document text is one value.
    @Test func aMessageOfMillionsOfValuesIsRefusedUndecoded() throws {
        let zeros = "[" + String(repeating: "0,", count: 1_200_000) + "0]"
        let body = Array("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"textDocument/hover\",\"params\":\(zeros)}".utf8)
        #expect(exceedsJSONValueBudget(body))
        let text = String(repeating: "a,", count: 1_200_000)
        #expect(!exceedsJSONValueBudget(Array("{\"params\":{\"text\":\"\(text)\"}}".utf8)))
        let c = Client()
        c.server.handle(body)
        let error = try #require(c.sent.last?["error"] as? [String: Any])
        #expect(error["code"] as? Int == -32600)
        #expect(c.sent.last?["id"] as? Int == 7, "the refusal answers the request's id (review R7)")
        #expect((error["message"] as? String)?.contains("1,000,000 JSON values") == true, "\(error)")
        // A notification is not answered; the client is told in a log message.
        let note = Array("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":\(zeros)}".utf8)
        c.server.handle(note)
        #expect(c.sent.last?["id"] == nil && c.sent.last?["method"] as? String == "window/logMessage", "\(c.sent.last ?? [:])")
    }

    /// The scan of a refused message kept a key for every level it was
    /// nested: a 60 MB `[[[…]]]` took 700 MB (review 19, R6). It keeps the
    /// two keys the document's path needs, and finds them at any depth of
    /// the rest. (The peak resident size is read on Linux: /proc's
    /// high-water mark, reset before the scan.)
    @Test func theRefusedMessageScanDoesNotGrowWithItsNesting() throws {
        let depth = 8_000_000
        var body = Array("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"deep\":".utf8)
        body += Array(repeating: UInt8(ascii: "["), count: depth) + Array(repeating: UInt8(ascii: "]"), count: depth)
        body += Array(",\"textDocument\":{\"uri\":\"file:///a.kcs\"}},\"id\":7}".utf8)
        #if os(Linux)
        func peakKiB() -> Int {
            let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs")
        let reset = (try? handle?.write(contentsOf: Data("5".utf8))) != nil
        try? handle?.close()
        let before = peakKiB()
        #endif
        let found = topLevelIDAndMethod(body)
        #expect(found.method == "textDocument/didChange" && found.document == "file:///a.kcs")
        #expect(found.id == .number(7))
        #if os(Linux)
        // A key a level took 128 MB and more here; other tests run alongside.
        if reset { #expect(peakKiB() - before < 48 << 10, "\(peakKiB() - before) KiB") }
        #endif
    }
}

@Suite struct MessageReaderTests {
    func reader(_ chunks: [String]) -> MessageReader {
        var rest = chunks.map { Array($0.utf8) }
        return MessageReader { rest.isEmpty ? nil : rest.removeFirst() }
    }

    @Test func framesSplitAcrossReads() throws {
        var r = reader(["Content-Le", "ngth: 2\r\nContent-Type: x\r\n\r", "\n{}Content-Length: 3\r\n\r\n[1]"])
        #expect(try r.next() == Array("{}".utf8))
        #expect(try r.next() == Array("[1]".utf8))
        #expect(throws: MessageReader.Failure.endOfInput) { try r.next() }
    }

    @Test func refusesWhatItCannotFrame() {
        var tooLarge = reader(["Content-Length: 999999999999\r\n\r\n"])
        #expect(throws: MessageReader.Failure.tooLarge(999_999_999_999)) { try tooLarge.next() }
        var noLength = reader(["X: 1\r\n\r\n{}"])
        #expect(throws: MessageReader.Failure.badHeader("no Content-Length")) { try noLength.next() }
        var endless = reader([String(repeating: "a", count: 10_000)])
        #expect(throws: MessageReader.Failure.self) { try endless.next() }
    }

    /// A header block that never ends is refused once it passes 8 KiB,
    /// however short its lines, and each read scans only that much: it was
    /// scanned from its start on every read and held whole (2.2 MB of
    /// headers took 27 s; adversarial run 24, F1).
    @Test func endlessHeadersAreRefusedEarly() throws {
        let line = "X-Junk: " + String(repeating: "a", count: 100) + "\r\n"
        let chunks = ["Content-Length: 2\r\n"] + Array(repeating: line, count: 20_000)
        var pulled = 0
        var rest = chunks.map { Array($0.utf8) }
        var r = MessageReader { pulled += 1; return rest.isEmpty ? nil : rest.removeFirst() }
        #expect(throws: MessageReader.Failure.badHeader("headers longer than 8 KiB")) { try r.next() }
        #expect(pulled < 100, "read \(pulled) chunks before refusing")
        var fits = reader(["Content-Length: 2\r\n" + String(repeating: line, count: 70) + "\r\n{}"])
        #expect(try fits.next() == Array("{}".utf8))
    }

    /// Pipelined messages that never end on a read's boundary: the bytes
    /// already handed out are dropped, so what is held stays near one read
    /// and one message, not the whole session.
    @Test func consumedBytesAreDropped() throws {
        let body = "{\"pad\":\"" + String(repeating: "y", count: 50_000) + "\"}"
        let message = Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
        let messages = 400, chunk = 65_536
        var stream: [UInt8] = []
        for _ in 0..<messages { stream += message }
        var offset = 0
        var r = MessageReader {
            guard offset < stream.count else { return nil }
            defer { offset += chunk }
            return Array(stream[offset..<min(offset + chunk, stream.count)])
        }
        var most = 0
        for _ in 0..<messages {
            #expect(try r.next().count == body.utf8.count)
            most = max(most, r.bufferedBytes)
        }
        #expect(most <= 2 * (chunk + message.count), "held \(most) bytes of \(stream.count)")
    }
}

@Suite struct LintQuickFixTests {
    @Test func aGroupWithoutItsTeamPrefixGetsTheFixAsAnEdit() throws {
        let c = Client()
        let uri = "file:///tmp/kcs-lsp-test/l.kcs"
        c.open(uri, "team SKMME9E2Y8\napp com.example.A\ngroup com.example.S A\nas A add generic-password account=\"a\" group=\"com.example.S\"\n")
        let actions = try #require(c.request("textDocument/codeAction", ["textDocument": ["uri": uri],
            "range": ["start": ["line": 3, "character": 0], "end": ["line": 3, "character": 10]],
            "context": ["diagnostics": [Any]()]]) as? [[String: Any]])
        let action = try #require(actions.first)
        #expect(action["title"] as? String == "write group=SKMME9E2Y8.com.example.S")
        let edit = (((action["edit"] as? [String: Any])?["changes"] as? [String: Any])?[uri] as? [[String: Any]])?.first
        #expect(edit?["newText"] as? String == "SKMME9E2Y8.com.example.S")
        let range = edit?["range"] as? [String: Any]
        #expect(((range?["start"] as? [String: Any])?["character"] as? Int) == 44)
        #expect(((range?["end"] as? [String: Any])?["character"] as? Int) == 59)
    }
}

/// An open document keeps nothing of the files it includes but the
/// diagnostics it was sent: 150 documents including one 3 MB file took 890 MB
/// (adversarial 18, B2).
@Suite struct AnalysisRetentionTests {
    @Test func keepsOnlyItsOwnCallsAndDiagnostics() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-lsp-inc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var shared = "team SKMME9E2Y8\napp com.example.A\n"
        for i in 0..<200 { shared += "as A add generic-password account=\"a\(i)\"\n" }
        shared += "expect status errSecItemNotFound\n"
        try shared.write(to: dir.appendingPathComponent("shared.kcs"), atomically: true, encoding: .utf8)
        let path = dir.appendingPathComponent("doc.kcs").path
        let text = "include \"shared.kcs\"\nas A find generic-password account=\"a1\"\nexpect status errSecSuccess\n"
        let analysis = Analysis(path: path, bytes: Array(text.utf8), loader: FileSystemLoader())
        #expect(analysis.calls.count == 1, "the document's own call only: \(analysis.calls.count)")
        #expect(analysis.calls.allSatisfy { $0.file === analysis.file })
        #expect(analysis.diagnostics.allSatisfy { $0.file === analysis.file })
        // What the client was sent still names the included file's failure.
        #expect(analysis.lspDiagnostics.contains { $0.message.contains("shared.kcs") && $0.message.contains("errSecItemNotFound") },
                "\(analysis.lspDiagnostics.map(\.message))")
    }
}

/// Blanking walks the error offsets beside the statements, once: a search of
/// every offset per statement cost 4.3 s per change of a document with 1,000
/// syntax errors (adversarial 20, L1). Whatever the offsets' order, repeats
/// and strays, it blanks what each offset blanks on its own.
@Suite struct BlankingTests {
    @Test func blanksTheStatementsTheOffsetsFallIn() {
        let text = "team SKMME9E2Y8\n\u{1}\napp com.a.A\r\nas A add generic-password account=\"x\"\n\n\u{1} oops\nreset"
        let file = SourceFile(name: "doc.kcs", bytes: Array(text.utf8))
        let n = file.bytes.count
        let alone = (-2...(n + 2)).map { Analysis.blanking(file, statementsAt: [$0]) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let offsets = (0..<Int.random(in: 0...6, using: &generator)).map { _ in Int.random(in: -2...(n + 2), using: &generator) }
            var expected = file.bytes
            for o in offsets {
                for i in expected.indices where alone[o + 2][i] != file.bytes[i] { expected[i] = alone[o + 2][i] }
            }
            #expect(Analysis.blanking(file, statementsAt: offsets) == expected, "\(offsets)")
        }
        // Out of order and repeated: the last statement and the second.
        let blanked = String(decoding: Analysis.blanking(file, statementsAt: [n - 1, 17, n - 2, 16]), as: UTF8.self)
        #expect(blanked == "team SKMME9E2Y8\n \napp com.a.A\r\nas A add generic-password account=\"x\"\n\n\u{1} oops\n     ")
    }
}

/// Findings of adversarial round 21 in the server.
@Suite struct Adversarial21ServerTests {
    let uri = "file:///tmp/kcs-lsp-test/a21.kcs"

    /// Each candidate's kind is a set lookup: completion after `as` in a
    /// document of 100,000 apps took 13 s when each was searched in the list
    /// of apps (F5). Here it must cost less than the document's analysis,
    /// which is linear in the apps. 5,000 apps: with 10,000 the analysis of
    /// a debug build on a loaded machine passed its 2-second limit and
    /// declared fewer (8,191 of them), and the count below failed.
    @Test func completionIsLinearInDeclaredApps() throws {
        let c = Client()
        let apps = 5_000
        var text = "team SKMME9E2Y8\n"
        for i in 0..<apps { text += "app com.a.A\(i)\n" }
        text += "as "
        let clock = ContinuousClock()
        let opening = clock.measure { c.open(uri, text) }
        var items: [[String: Any]] = []
        let completing = clock.measure {
            items = (c.request("textDocument/completion", c.at(uri, apps + 1, 3)) as? [[String: Any]]) ?? []
        }
        // On a machine loaded past the analysis's 2-second limit, fewer apps
        // are declared and the document says so: then completion offers
        // those (the count failed CI-like runs with 4,654 of 5,000). The
        // run that stops is the one without the line in error (`as `),
        // whose limit was once left unsaid (4,397 of 5,000 with no
        // diagnostic at load 20; review 21, R19).
        let overTime = c.diagnostics(uri).contains { ($0["message"] as? String)?.contains("longer than its time limit") == true }
        #expect(overTime ? (items.count > 0 && items.count <= apps) : items.count == apps, "\(items.count) of \(apps)")
        #expect(items.allSatisfy { ($0["kind"] as? Int) == 6 })
        #expect(completing < opening, "completion \(completing), analysis \(opening)")
    }

    /// A document with a syntax error runs again without the line in error,
    /// for names, hovers and completion. A limit that stops that run is
    /// said at its line: unsaid, completion offered the apps declared
    /// before the stop as if they were all (review 21, R19). Here the line
    /// in error comes first, so only that run makes the calls, and the
    /// output limit (each call's line counts) stops it before `Late`.
    @Test func aLimitThatStopsTheRunWithoutTheLineInErrorIsSaid() throws {
        let c = Client()
        let name = String(repeating: "A", count: 250)
        var text = "team SKMME9E2Y8\napp com.a.\(name)\nas \n"
        for _ in 0..<5_000 { text += "as \(name) find generic-password\n" }
        text += "app com.a.Late\n"
        c.open(uri, text)
        func line(_ d: [String: Any]) -> Int? { ((d["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int }
        let said = c.diagnostics(uri)
        #expect(said.contains { line($0) == 2 }, "\(said)")
        let stop = try #require(said.first { ($0["message"] as? String)?.contains("nothing after this line ran") == true }, "\(said)")
        #expect((3..<5_003).contains(line(stop) ?? -1), "\(stop)")
        let items = (c.request("textDocument/completion", c.at(uri, 2, 3)) as? [[String: Any]]) ?? []
        #expect(items.contains { ($0["label"] as? String) == name }, "\(items.count)")
        #expect(!items.contains { ($0["label"] as? String) == "Late" }, "\(items.count)")
    }

    /// Message, notes and hint are escaped as the terminal shows them:
    /// raw ESC, BEL and a direction override reached the Problems panel (F1).
    @Test func diagnosticTextIsEscaped() throws {
        let c = Client()
        c.open(uri, """
            team SKMME9E2Y8
            app com.a.A as "A\\u{1B}[31m\\u{202E}x\\u{7}"
            as "A\\u{1B}[31m\\u{202E}x\\u{7}" add generic-password account="\\u{1B}]0;pwn\\u{7}" data="\\u{9B}31m"
            expect data "\\u{1B}[2J"
            as "Z\\u{1B}[2J" find generic-password

            """)
        let messages = c.diagnostics(uri).compactMap { $0["message"] as? String }
        #expect(messages.count >= 2)
        for m in messages {
            #expect(!m.unicodeScalars.contains { $0 != "\n" && TerminalText.needsEscape($0) }, "\(m.debugDescription)")
        }
        #expect(messages.contains { $0.contains("unknown app 'Z\\u{1B}[2J'") && $0.contains("A\\u{1B}[31m\\u{202E}x\\u{7}") },
                "\(messages)")
    }

    private func range(_ l0: Int, _ c0: Int, _ l1: Int, _ c1: Int) -> [String: Any] {
        ["start": ["line": l0, "character": c0], "end": ["line": l1, "character": c1]]
    }

    /// The protocol's lines end at LF, CR LF and a CR alone, both ways (F6).
    @Test func textIndexUsesTheProtocolsLines() {
        let text = Array("a\rbé\r\ncc\n\rd".utf8)
        let index = TextIndex(text)
        // (line, character) of each scalar start and of the end.
        let expected: [(Int, Int, Int)] = [(0, 0, 0), (1, 0, 1), (2, 1, 0), (3, 1, 1), (5, 1, 2), (7, 2, 0), (8, 2, 1),
                                           (9, 2, 2), (10, 3, 0), (11, 4, 0), (12, 4, 1)]
        for (offset, line, character) in expected {
            #expect(index.position(of: offset) == Position(line: line, character: character), "offset \(offset)")
            let p = Position(line: line, character: character)
            #expect(index.offset(of: p) == offset, "\(p)")
            #expect(TextIndex.offset(in: text, of: p) == offset, "\(p)")
        }
        // Past a line's end: its end, before the line break.
        #expect(index.offset(of: Position(line: 1, character: 9)) == 5)
        #expect(TextIndex.offset(in: text, of: Position(line: 1, character: 9)) == 5)
        #expect(index.offset(of: Position(line: 9, character: 0)) == text.count)
        // A line the text does not have: no offset for a change to apply at,
        // but for the start of the line after the last, the text's end (R9).
        #expect(index.lineCount == 5)
        #expect(TextIndex.offset(in: text, of: Position(line: 5, character: 0)) == text.count)
        #expect(TextIndex.offset(in: text, of: Position(line: 5, character: 1)) == nil)
        #expect(TextIndex.offset(in: text, of: Position(line: 6, character: 0)) == nil)
        #expect(index.all.end == Position(line: 4, character: 1))
    }

    /// The finding's steps: a CR-only Markdown document, a ranged edit at
    /// the place the server reported, then formatting, whose edit covers
    /// the client's whole text and keeps its CRs.
    @Test func aCROnlyDocumentIsEditedWhereTheClientSays() throws {
        let c = Client()
        let doc = "file:///tmp/kcs-lsp-test/cr2.md"
        c.open(doc, "# Doc\r\r```kcs\rteam  SKMME9E2Y8\rapp com.a.A\ras B add generic-password account=\"x\"\r```\r\rEnd.\r")
        let d = c.diagnostics(doc)
        let start = try #require((d.first?["range"] as? [String: Any])?["start"] as? [String: Any])
        #expect(d.count == 1 && start["line"] as? Int == 5 && start["character"] as? Int == 3, "\(d)")
        c.notify("textDocument/didChange", ["textDocument": ["uri": doc, "version": 2],
                                            "contentChanges": [["range": range(5, 3, 5, 4), "text": "A"]]])
        #expect(c.diagnostics(doc).isEmpty, "\(c.diagnostics(doc))")
        let edits = try #require(c.request("textDocument/formatting", ["textDocument": ["uri": doc],
                                                                         "options": ["tabSize": 4, "insertSpaces": true]]) as? [[String: Any]])
        let edit = try #require(edits.first)
        let end = try #require((edit["range"] as? [String: Any])?["end"] as? [String: Any])
        #expect(end["line"] as? Int == 9 && end["character"] as? Int == 0, "\(edit)")
        // The document's own line breaks, as `kcs fmt FILE` keeps them.
        let newText = try #require(edit["newText"] as? String)
        #expect(newText.hasPrefix("# Doc\r\r```kcs\r") && newText.contains("as A add"), "\(newText.debugDescription)")
    }

    /// A lone CR is a line break to the client, and an error to kcs
    /// (KCS012, adversarial run 25, F9): placed at the client's lines, the
    /// error is at the CR, and a later one on the client's fourth line.
    @Test func scriptDiagnosticsAtTheProtocolsLines() throws {
        let c = Client()
        c.open(uri, "team SKMME9E2Y8 # note\rsecond half\napp com.a.A\nlok\n")
        let d = c.diagnostics(uri)
        let range = try #require(d.first?["range"] as? [String: Any])
        let start = try #require(range["start"] as? [String: Any]), end = try #require(range["end"] as? [String: Any])
        #expect(d.count == 1 && d.first?["code"] as? String == "KCS012", "\(d)")
        #expect(start["line"] as? Int == 0 && start["character"] as? Int == 22 && end["line"] as? Int == 1 && end["character"] as? Int == 0, "\(d)")
        c.open(uri, "team SKMME9E2Y8 # note\r\nsecond half\napp com.a.A\nlok\n")
        let later = try #require(c.diagnostics(uri).first?["range"] as? [String: Any])
        #expect((later["start"] as? [String: Any])?["line"] as? Int == 1, "\(later)")
    }

    /// A session fed through ``LanguageServer/serve(_:)``: the first message
    /// from the blocking read, the rest as input already there.
    private func serve(_ c: Client, _ messages: [[String: Any]]) {
        var chunks = messages.map { object -> [UInt8] in
            var object = object
            object["jsonrpc"] = "2.0"
            let body = [UInt8](try! JSONSerialization.data(withJSONObject: object))
            return Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        }
        var first = true
        var reader = MessageReader(pull: {
            guard first, !chunks.isEmpty else { return nil }
            first = false
            return chunks.removeFirst()
        }, available: {
            chunks.isEmpty ? nil : chunks.removeFirst()
        })
        _ = c.server.serve(&reader)
    }

    private func published(_ c: Client, _ uri: String) -> Int {
        c.sent.count { ($0["method"] as? String) == "textDocument/publishDiagnostics" && (($0["params"] as? [String: Any])?["uri"] as? String) == uri }
    }

    /// Changes already queued behind a change are applied, and the document
    /// analysed once; a request between them sees the text before it; a
    /// request cancelled before it is worked on is answered RequestCancelled.
    /// Every keystroke of a burst was analysed in full (F7).
    @Test func queuedChangesAreCoalescedAndCancelledRequestsSkipped() throws {
        let c = Client()
        var messages: [[String: Any]] = [
            ["method": "textDocument/didOpen", "params": ["textDocument": ["uri": uri, "languageId": "kcs", "version": 1,
                                                                           "text": "team SKMME9E2Y8\napp com.a.A\nas A find generic-password\n"]]],
        ]
        for k in 0..<10 {
            messages.append(["method": "textDocument/didChange", "params": ["textDocument": ["uri": uri, "version": k + 2],
                "contentChanges": [["range": range(3, k, 3, k), "text": "x"]]]])
        }
        // The symbols see "xxxxxxxxxx" as the last line; then it becomes an app.
        messages.append(["id": 7, "method": "textDocument/documentSymbol", "params": ["textDocument": ["uri": uri]]])
        messages.append(["method": "textDocument/didChange", "params": ["textDocument": ["uri": uri, "version": 12],
            "contentChanges": [["range": range(3, 0, 3, 0), "text": "app com.a."]]]])
        messages.append(["id": 8, "method": "textDocument/hover", "params": ["textDocument": ["uri": uri], "position": ["line": 0, "character": 1]]])
        messages.append(["method": "$/cancelRequest", "params": ["id": 8]])
        messages.append(["id": 9, "method": "textDocument/documentSymbol", "params": ["textDocument": ["uri": uri]]])
        serve(c, messages)
        // One analysis for the symbols (after ten changes), one at the end.
        #expect(published(c, uri) == 2)
        let symbols = try #require(c.sent.first { ($0["id"] as? Int) == 7 }?["result"] as? [[String: Any]])
        #expect(symbols.compactMap { $0["name"] as? String } == ["SKMME9E2Y8", "A"])
        let cancelled = try #require(c.sent.first { ($0["id"] as? Int) == 8 }?["error"] as? [String: Any])
        #expect(cancelled["code"] as? Int == -32800)
        let after = try #require(c.sent.first { ($0["id"] as? Int) == 9 }?["result"] as? [[String: Any]])
        #expect(after.compactMap { $0["name"] as? String } == ["SKMME9E2Y8", "A", "xxxxxxxxxx"])
        // The first diagnostics: the line of x's, an unknown statement.
        let first = c.sent.first { ($0["method"] as? String) == "textDocument/publishDiagnostics" }
        let d = (first?["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]]
        #expect(d?.count == 1 && (((d?.first?["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int) == 3)
        #expect(c.diagnostics(uri).isEmpty, "\(c.diagnostics(uri))")
    }

    /// A change left unanalysed because another was read ahead, which does
    /// not apply (its params do not decode): the document kept the
    /// diagnostics of the text before (review of session 16); it is out of
    /// sync, and one diagnostic says so.
    @Test func aFailedChangeAfterAQueuedOneLeavesTheDocumentOutOfSync() throws {
        let c = Client()
        serve(c, [
            ["method": "textDocument/didOpen", "params": ["textDocument": ["uri": uri, "languageId": "kcs", "version": 1,
                                                                           "text": "team SKMME9E2Y8\n"]]],
            ["method": "textDocument/didChange", "params": ["textDocument": ["uri": uri, "version": 2],
                "contentChanges": [["range": range(1, 0, 1, 0), "text": "zz\n"]]]],
            ["method": "textDocument/didChange", "params": ["textDocument": ["uri": uri, "version": 3]]],
        ])
        // The open and the change were read ahead of the broken one: no
        // analysis, and the one publication says the text is out of sync.
        #expect(published(c, uri) == 1)
        #expect((c.diagnostics(uri).first?["message"] as? String)?.contains("(a change to it did not decode)") == true, "\(c.diagnostics(uri))")
    }

    /// A change to a closed document is ignored: applied to nothing, it
    /// brought the document back with diagnostics no editor clears.
    @Test func aChangeAfterTheCloseIsIgnored() throws {
        let c = Client()
        serve(c, [
            ["method": "textDocument/didOpen", "params": ["textDocument": ["uri": uri, "languageId": "kcs", "version": 1,
                                                                           "text": "team SKMME9E2Y8\n"]]],
            ["method": "textDocument/didClose", "params": ["textDocument": ["uri": uri]]],
            ["method": "textDocument/didChange", "params": ["textDocument": ["uri": uri, "version": 2],
                "contentChanges": [["range": range(0, 0, 0, 0), "text": "zz\n"]]]],
        ])
        #expect(c.diagnostics(uri).isEmpty, "\(c.diagnostics(uri))")
        #expect(published(c, uri) == 1, "the close's (the open was read ahead of it), none after")
    }

    /// A cancel for a request already answered, or not yet made, changes nothing.
    @Test func aLateCancelIsIgnored() throws {
        let c = Client()
        serve(c, [["id": 3, "method": "textDocument/documentSymbol", "params": ["textDocument": ["uri": uri]]]])
        serve(c, [
            ["method": "$/cancelRequest", "params": ["id": 3]],
            ["method": "$/cancelRequest", "params": ["id": 4]],
            ["id": 4, "method": "textDocument/documentSymbol", "params": ["textDocument": ["uri": uri]]],
            ["id": 3, "method": "textDocument/documentSymbol", "params": ["textDocument": ["uri": uri]]],
        ])
        #expect(c.sent.filter { ($0["id"] as? Int) == 3 }.map { $0["result"] is [Any] } == [true, true])
        #expect(c.sent.first { ($0["id"] as? Int) == 4 }?["result"] is [Any])
    }

    /// An include's change analyses at most 16 of its open includers at
    /// once; the others are marked stale, analysed while no message waits,
    /// or when a request needs one. All 200 were analysed on each keystroke
    /// in the include (review 20, R5): N includers made N analyses a change.
    @Test func anIncludesChangeAnalysesFewIncludersAtOnce() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-lsp-r5-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = "team SKMME9E2Y8\napp com.example.A\n"
        try good.write(to: dir.appendingPathComponent("common.kcs"), atomically: true, encoding: .utf8)
        let common = LanguageServer.uri(of: dir.appendingPathComponent("common.kcs").path)
        let includers = (0..<200).map { LanguageServer.uri(of: dir.appendingPathComponent("s\($0).kcs").path) }
        let c = Client()
        for u in includers { c.open(u, "include \"common.kcs\"\nas A find generic-password\n") }
        c.open(common, good)
        func publishes() -> Int { c.sent.count { ($0["method"] as? String) == "textDocument/publishDiagnostics" } }
        func saysBogus(_ u: String) -> Bool { c.diagnostics(u).contains { ($0["message"] as? String)?.contains("bogus") == true } }
        let before = publishes()
        c.notify("textDocument/didChange", ["textDocument": ["uri": common, "version": 2], "contentChanges": [["text": good + "bogus\n"]]])
        #expect(publishes() - before == 1 + LanguageServer.readersAnalysedAtOnce, "the include and 16 includers, not all 200")
        #expect(includers.count(where: saysBogus) == LanguageServer.readersAnalysedAtOnce)
        // A request on a stale includer sees the include's new text.
        let last = try #require(includers.last)
        #expect(!saysBogus(last))
        _ = c.request("textDocument/hover", c.at(last, 1, 6))
        #expect(saysBogus(last), "analysed for the request")
        // With no message waiting, the rest are analysed, each once.
        let idle = publishes()
        serve(c, [])
        #expect(includers.count(where: saysBogus) == includers.count)
        #expect(publishes() - idle == includers.count - LanguageServer.readersAnalysedAtOnce - 1)
    }
}
