#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import KCSLanguage
import KeychainEngine

/// A Language Server Protocol server for `.kcs` scripts and the kcs blocks
/// of Markdown documents, on the same parser, grammar table, session and
/// lint as the command line. Single-threaded: messages are answered in
/// order, one at a time, reading ahead only what has already arrived (see
/// ``serve(_:)``); a document's run is bounded by ``Analysis/limits``.
///
/// Methods: initialize, initialized, shutdown, exit; textDocument/didOpen,
/// didChange (full text), didSave, didClose, publishDiagnostics;
/// completion, hover, inlayHint, definition, references, documentSymbol,
/// codeAction, formatting. Other requests get MethodNotFound.
public final class LanguageServer {
    private let send: ([UInt8]) -> Void
    private var documents: [String: Analysis] = [:]
    /// What a hover ran, by document, statement end and what it ran after:
    /// a hover re-ran the document, up to 2 s each (found by adversarial
    /// testing). Cleared when the document changes; 64 kept per document
    /// and 256 in all, each at most 16 KiB of output: the entries, bounded
    /// per document only and up to 1 MiB each, held 58 MB a document
    /// (adversarial run 24, F6).
    private var hoverRuns: [String: [String: String]] = [:]
    private var hoverRunCount = 0
    static let hoverOutputBytes = 16_384
    private var texts: [String: [UInt8]] = [:]
    /// The open `file://` documents' texts by path, kept up to date as they
    /// change: an include reads what is typed. Built anew from every open
    /// document on each change, 16,000 open documents took five minutes
    /// (found by adversarial testing).
    private let openFiles = OpenFiles()
    /// The paths each open document's last analysis read through its loader
    /// (its includes, theirs, files its declarations name), and the other
    /// way round: the documents to check again when one of those changes.
    /// Only the changed document was analysed, so an includer kept the
    /// errors of an include text that no longer existed (editor trial 20, E14).
    private var readPaths: [String: Set<String>] = [:]
    private var readers: [String: Set<String>] = [:]
    private var shutdownRequested = false
    /// Whether `initialize` has been answered: before it the protocol lets
    /// only `exit` through (requests get ServerNotInitialized, notifications
    /// are dropped).
    private var initialized = false
    /// Set by `exit`: how the session ended (the protocol: passed after
    /// `shutdown`, failed without it).
    public private(set) var exitStatus: Verdict?

    /// `send` writes one framed message to the client.
    public init(send: @escaping ([UInt8]) -> Void) { self.send = send }

    /// Reads and answers messages until `exit` or the end of input; returns
    /// how the session ended (passed after shutdown, failed otherwise).
    ///
    /// Before each message it reads ahead the messages that have already
    /// arrived (without waiting for more): a document's change followed by
    /// another change, an open or a close of it is applied but not analysed
    /// (a request between them still sees the text it follows), and a
    /// request cancelled by a `$/cancelRequest` behind it is answered with
    /// RequestCancelled without being worked on. Analysing every keystroke
    /// of a burst in full answered the hover after them 23 s late
    /// (adversarial 21, F7).
    public func serve(_ reader: inout MessageReader) -> Verdict {
        var failure: MessageReader.Failure?
        while exitStatus == nil {
            if failure == nil {
                do throws(MessageReader.Failure) {
                    // Nothing queued: includers left stale by an include's
                    // change are analysed one at a time while no message waits.
                    if queue.isEmpty, waitingReaderCount > 0 {
                        guard let body = try reader.nextIfReady() else {
                            analyseWaitingReader()
                            continue
                        }
                        enqueue(body)
                    }
                    if queue.isEmpty { enqueue(try reader.next()) }
                    while queue.count < Self.readAheadMessages, queuedBytes < Self.readAheadBytes,
                          let body = try reader.nextIfReady() {
                        enqueue(body)
                    }
                } catch {
                    // Said once the messages before it are answered.
                    failure = error
                }
            }
            guard !queue.isEmpty else {
                if case .endOfInput = failure { return shutdownRequested ? .passed : .failed }
                // A framing error leaves the stream unusable: say so and stop.
                notify("window/logMessage", LogMessage(type: 1, message: "kcs lsp: unreadable message: \(failure.map { "\($0)" } ?? "")"))
                return .failed
            }
            let (body, peek) = queue.removeFirst()
            queuedBytes -= body.count
            if let uri = peek.changedDocument {
                pendingChanges[uri, default: 1] -= 1
                if pendingChanges[uri] == 0 { pendingChanges[uri] = nil }
            }
            handle(body)
            // The change read ahead of a stale document may not have applied
            // (it did not decode): with none left queued for it, the text it
            // holds is analysed and published now (found by review).
            if let uri = peek.changedDocument, pendingChanges[uri] == nil, stale.contains(uri) { analyse(uri) }
        }
        return exitStatus ?? .failed
    }

    /// Messages read ahead, at most this many and this many bytes.
    static let readAheadMessages = 1_000
    static let readAheadBytes = MessageReader.maxMessageBytes
    /// Messages read but not yet answered, in order, with what they are.
    private var queue: [(body: [UInt8], peek: Peek)] = []
    private var queuedBytes = 0
    /// Documents by URI with that many opens, changes or closes read ahead.
    private var pendingChanges: [String: Int] = [:]
    /// Requests read ahead that a `$/cancelRequest` read ahead cancels.
    private var cancelled = Set<RequestID>()
    /// Documents whose text changed but is not analysed yet (a later change
    /// was read ahead): analysed when a request needs them.
    private var stale = Set<String>()

    /// What a message read ahead is, as far as coalescing needs to know.
    struct Peek: Decodable {
        struct Params: Decodable {
            struct Document: Decodable { var uri: String }
            var textDocument: Document?
            var id: RequestID?
        }
        var id: RequestID?
        var method: String?
        var params: Params?

        /// The document an open, a change or a close changes.
        var changedDocument: String? {
            switch method {
            case "textDocument/didOpen", "textDocument/didChange", "textDocument/didClose": params?.textDocument?.uri
            default: nil
            }
        }
    }

    private func enqueue(_ body: [UInt8]) {
        let peek = exceedsJSONValueBudget(body) ? Peek() : (try? JSONDecoder().decode(Peek.self, from: Data(body))) ?? Peek()
        if let uri = peek.changedDocument { pendingChanges[uri, default: 0] += 1 }
        // Only a request still waiting is marked: a cancel for one already
        // answered is ignored, as the protocol allows, and not kept.
        if peek.method == "$/cancelRequest", let target = peek.params?.id,
           queue.contains(where: { $0.peek.id == target && $0.peek.method != nil }) {
            cancelled.insert(target)
        }
        queue.append((body, peek))
        queuedBytes += body.count
    }

    struct LogMessage: Codable { var type: Int; var message: String }

    /// Bytes the ranged changes of one `didChange` may move in all (tests
    /// set a smaller one): four times the largest document the server
    /// analyses (8 MiB, ``Analysis/limits``). 256 MiB let one message keep
    /// the server from answering for half a minute (found by adversarial testing).
    package var changeBudget = 32 << 20

    /// Stops tracking a document and clears its diagnostics (or publishes
    /// `saying`); with a reason, tells the client why (a `window/logMessage` error).
    private func forget(_ uri: String, because reason: String?, saying: [LSPDiagnostic] = []) {
        // Dropped for a reason: later ranged changes have no text to apply
        // to, and are ignored until the client sends the whole text again
        // (they were applied to nothing, and formatting answered an edit
        // over the user's text; found by review).
        if reason != nil { dropped.insert(uri) } else { dropped.remove(uri) }
        documents[uri] = nil
        stale.remove(uri)
        hoverRunCount -= hoverRuns.removeValue(forKey: uri)?.count ?? 0
        openBytes -= texts[uri].map { Self.cost(uri, $0) } ?? 0
        texts[uri] = nil
        if uri.hasPrefix("file://") { openFiles.texts[Self.path(of: uri)] = nil }
        setReads(uri, [])
        notify("textDocument/publishDiagnostics", PublishDiagnosticsParams(uri: uri, diagnostics: saying))
        if let reason { notify("window/logMessage", LogMessage(type: 1, message: "kcs lsp: \(uri): \(reason)")) }
        // Its includers read the disk from now on.
        refreshReaders(of: uri)
    }

    /// A change the server cannot apply (a range the text does not have,
    /// one that ends before it starts, params that do not decode, a message
    /// refused undecoded, one that moves too much text): the client's text
    /// is no longer the server's. The text was kept as it was, with only a
    /// log message, and the editor showed its diagnostics for text it had
    /// changed. Now the document is dropped until its whole text comes (the
    /// next change sends it, the server syncing in full, or a reopen), and
    /// one error at its top says so in place of its diagnostics.
    private func lostTrack(of uri: String, because reason: String) {
        let top = Position(line: 0, character: 0)
        forget(uri, because: reason + "; the document is out of sync until its whole text is sent", saying: [LSPDiagnostic(
            range: LSPRange(start: top, end: top), severity: 1, code: "", source: "kcs",
            message: "kcs does not have this document's text as the editor has it (\(reason)); it is checked again when the editor "
                + "sends the whole text: edit it, or close and reopen it")])
    }

    // MARK: Dispatch

    /// A message refused without being decoded (`being` what it is): a
    /// request is answered by its id, a change marks its document out of
    /// sync, anything else is said in a log message.
    private func refuseUndecoded(_ body: [UInt8], being what: String, request: String) {
        let (id, method, document) = topLevelIDAndMethod(body)
        if let id {
            respond(id, Optional<Bool>.none, error: ResponseError(code: -32600, message: "invalid request: " + request))
        } else if method == "textDocument/didChange", let document, texts[document] != nil {
            lostTrack(of: document, because: "a change \(what) was not read")
        } else {
            // A notification gets no answer; a change kcs did not apply is said.
            notify("window/logMessage", LogMessage(type: 1, message: "kcs lsp: a \(TerminalText.escaped(String((method ?? "message").prefix(64)))) "
                                                   + "\(what) was not read; documents it changes are out of date until sent whole"))
        }
    }

    /// JSON nested deeper than this may fail to decode (Foundation's limit
    /// lies between 512 and 600 levels); no real message nests a tenth of it.
    static let decodedNesting = 500

    /// Answers one message (a JSON body without framing).
    public func handle(_ body: [UInt8]) {
        guard !exceedsJSONValueBudget(body) else {
            refuseUndecoded(body, being: "of more than 1,000,000 JSON values", request: "more than 1,000,000 JSON values")
            return
        }
        let data = Data(body)
        let decoder = JSONDecoder()
        guard let envelope = try? decoder.decode(Envelope.self, from: data) else {
            // JSON-RPC: -32700 is for text that is not JSON; JSON that is not
            // a request (an id of the wrong type, a method that is not a
            // string) is -32600 (found by adversarial testing).
            let isJSON = (try? decoder.decode(AnyJSON.self, from: data)) != nil
            // Nested past what Foundation's decoder reads (some 512 levels),
            // JSON under the value budget failed as "parse error" with a
            // null id: a request never had its answer, and a change was
            // dropped with the document left stale, silently (adversarial
            // run 26, F3). Refused as too large a message is, by its id.
            if !isJSON, jsonNesting(body) > Self.decodedNesting {
                let deep = "nested more than \(Self.decodedNesting) levels deep"
                refuseUndecoded(body, being: deep, request: deep)
                return
            }
            respond(nil, Optional<Bool>.none, error: isJSON ? ResponseError(code: -32600, message: "invalid request")
                                                            : ResponseError(code: -32700, message: "parse error"))
            return
        }
        guard let method = envelope.method else { return }  // a response to us: none are sent
        let id = envelope.id
        // LSP, "$/cancelRequest": a request cancelled before it was worked
        // on "should return an error with code RequestCancelled" (-32800).
        if let id, cancelled.remove(id) != nil {
            respond(id, Optional<Bool>.none, error: ResponseError(code: -32800, message: "request cancelled"))
            return
        }
        func params<P: Decodable>(_ type: P.Type) -> P? {
            guard let p = try? decoder.decode(Params<P>.self, from: data).params else {
                if id != nil {
                    respond(id, Optional<Bool>.none, error: ResponseError(code: -32602, message: "invalid params for \(method)"))
                } else {
                    // A notification gets no reply: without this line a
                    // document whose text did not decode (a lone surrogate)
                    // was silently never tracked (found by adversarial testing).
                    notify("window/logMessage", LogMessage(type: 1, message: "kcs lsp: invalid params for \(method); ignored"))
                }
                return nil
            }
            return p
        }
        // LSP, "initialize": before it "the response should be an error with
        // code: -32002"; notifications "should be dropped, except for the exit
        // notification".
        if !initialized && method != "initialize" && method != "exit" {
            if id != nil { respond(id, Optional<Bool>.none, error: ResponseError(code: -32002, message: "server not initialized")) }
            return
        }
        // LSP, "shutdown": "If a server receives requests after a shutdown
        // request those requests should error with InvalidRequest"; only
        // exit is still heard.
        if shutdownRequested && method != "exit" {
            if id != nil { respond(id, Optional<Bool>.none, error: ResponseError(code: -32600, message: "the server is shutting down")) }
            return
        }
        switch method {
        case "initialize":
            initialized = true
            respond(id, InitializeResult())
        case "initialized", "$/cancelRequest", "$/setTrace", "workspace/didChangeConfiguration":
            break
        case "textDocument/didSave":
            // The text saved is the one the includers read already, unless
            // the client sent no changes for it: they are checked again.
            guard let p = params(DocumentParams.self) else { return }
            refreshReaders(of: p.textDocument.uri)
        case "shutdown":
            shutdownRequested = true
            respond(id, Optional<Bool>.none)
        case "exit":
            exitStatus = shutdownRequested ? .passed : .failed
        case "textDocument/didOpen":
            guard let p = params(DidOpenParams.self) else { return }
            dropped.remove(p.textDocument.uri)
            update(p.textDocument.uri, Array(p.textDocument.text.utf8), analyse: pendingChanges[p.textDocument.uri] == nil)
        case "textDocument/didChange":
            guard let p = params(DidChangeParams.self) else {
                if let uri = (try? decoder.decode(Params<DocumentParams>.self, from: data))?.params.textDocument.uri, texts[uri] != nil {
                    lostTrack(of: uri, because: "a change to it did not decode")
                }
                return
            }
            var changes = p.contentChanges[...]
            if dropped.contains(p.textDocument.uri) {
                // Only a whole text brings a dropped document back, with the
                // changes after it.
                guard let whole = changes.lastIndex(where: { $0.range == nil }) else { return }
                dropped.remove(p.textDocument.uri)
                changes = changes[whole...]
            } else if texts[p.textDocument.uri] == nil {
                // A change to a document that is not open (closed, or never
                // opened) is the client's mistake: applied to nothing, it
                // brought a closed document back, with diagnostics no editor
                // clears, and an include of that file read the phantom text
                // instead of the disk (found by adversarial testing).
                return
            }
            var text = texts[p.textDocument.uri] ?? []
            // Each ranged change may move the whole text: a message of
            // hundreds of thousands of them against a large document is
            // bounded by the bytes it may move in all. Past that, or at a
            // range the text does not have, the document is out of sync.
            var budget = changeBudget
            for change in changes {
                if let range = change.range {
                    let from = TextIndex.offset(in: text, of: range.start), to = TextIndex.offset(in: text, of: range.end)
                    guard let lo = from, let hi = to, lo <= hi else {
                        let lines = TextIndex(text).lineCount
                        // On a line the text has, the position fell inside a character.
                        let split = [(range.start, from), (range.end, to)].contains { position, offset in
                            offset == nil && position.line >= 0 && position.line < lines
                        }
                        lostTrack(of: p.textDocument.uri, because: split
                                  ? "a change's range starts or ends between the two UTF-16 units of one character"
                                  : from == nil || to == nil
                                  ? "a change's range reaches line \(max(range.start.line, range.end.line) + 1) of a text of \(lines) line\(lines == 1 ? "" : "s")"
                                  : "a change's range ends before it starts")
                        return
                    }
                    let new = Array(change.text.utf8)
                    // What finding the range read, and the tail a change of length moves.
                    budget -= hi + new.count + (new.count == hi - lo ? 0 : text.count - hi)
                    if budget < 0 {
                        lostTrack(of: p.textDocument.uri, because: "one change message moved more than \(changeBudget >> 10) KiB of text")
                        return
                    }
                    text.replaceSubrange(lo..<hi, with: new)
                } else {
                    text = Array(change.text.utf8)
                }
            }
            update(p.textDocument.uri, text, analyse: pendingChanges[p.textDocument.uri] == nil)
        case "textDocument/didClose":
            guard let p = params(DocumentParams.self) else { return }
            forget(p.textDocument.uri, because: nil)
        case "textDocument/completion":
            guard let p = params(PositionParams.self) else { return }
            respond(id, completion(p))
        case "textDocument/hover":
            guard let p = params(PositionParams.self) else { return }
            respond(id, hover(p))
        case "textDocument/inlayHint":
            guard let p = params(RangeParams.self) else { return }
            respond(id, inlayHints(p))
        case "textDocument/definition":
            guard let p = params(PositionParams.self) else { return }
            respond(id, definition(p))
        case "textDocument/references":
            guard let p = params(ReferenceParams.self) else { return }
            respond(id, references(p))
        case "textDocument/documentSymbol":
            guard let p = params(DocumentParams.self) else { return }
            respond(id, symbols(p))
        case "textDocument/codeAction":
            guard let p = params(CodeActionParams.self) else { return }
            respond(id, codeActions(p))
        case "textDocument/formatting":
            guard let p = params(DocumentParams.self) else { return }
            respond(id, formatting(p))
        default:
            if id != nil { respond(id, Optional<Bool>.none, error: ResponseError(code: -32601, message: "method not found: \(method)")) }
        }
    }

    private static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.withoutEscapingSlashes]
        return e
    }

    private func respond<R: Encodable>(_ id: RequestID?, _ result: R?, error: ResponseError? = nil) {
        guard let data = try? Self.encoder().encode(Response(id: id, result: result, error: error)) else { return }
        send(frame(Array(data)))
    }

    private func notify<P: Encodable>(_ method: String, _ params: P) {
        guard let data = try? Self.encoder().encode(Notification(method: method, params: params)) else { return }
        send(frame(Array(data)))
    }

    // MARK: Documents

    /// The file path a `file:` URI names; other URIs are names only.
    static func path(of uri: String) -> String {
        guard uri.hasPrefix("file://") else { return uri }
        // Percent-escapes decode to bytes (RFC 3986); a malformed one stays as written.
        let encoded = Array(uri.utf8.dropFirst("file://".count))
        var bytes: [UInt8] = []
        var i = 0
        while i < encoded.count {
            if encoded[i] == UInt8(ascii: "%"), i + 2 < encoded.count,
               let byte = UInt8(String(decoding: encoded[(i + 1)...(i + 2)], as: UTF8.self), radix: 16) {
                bytes.append(byte)
                i += 3
            } else {
                bytes.append(encoded[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The `file:` URI of a path, with the bytes URIs may not hold escaped.
    static func uri(of path: String) -> String {
        var out = "file://"
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "-"),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                out += "%" + (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// The open documents kept, in bytes, all together.
    package var maxOpenBytes = 64 << 20
    /// The bytes of ``texts``, kept as they change.
    private var openBytes = 0
    /// What an open document holds: its text, and its URI three times (the
    /// texts, the analyses, the open files by path). URIs were not counted:
    /// 400 empty documents with 1 MB URIs held 1.17 GB (adversarial run 26, F9).
    static func cost(_ uri: String, _ text: [UInt8]) -> Int { text.count + 3 * uri.utf8.count }
    /// Documents the server dropped (too large, too many changes), until
    /// they are opened again or sent whole.
    private var dropped = Set<String>()

    /// Keeps a document's new text and, unless a later change to it was
    /// read ahead, analyses it and publishes its diagnostics.
    private func update(_ uri: String, _ text: [UInt8], analyse: Bool = true) {
        // A document past the analysis limit is not kept, nor one past the
        // total: each is held with its line tables (some 19 bytes a byte of
        // line breaks), and 20 documents of 10 MiB aborted the server
        // (found by adversarial testing). The client is told why.
        let limit = Analysis.limits.sourceBytes
        // A running total, not a sum per change (40,000 opens summed 40,000
        // documents each; found by adversarial testing).
        let others = openBytes - (texts[uri].map { Self.cost(uri, $0) } ?? 0)
        if text.count > limit || others + Self.cost(uri, text) > maxOpenBytes {
            forget(uri, because: text.count > limit
                   ? "the document is \(text.count) bytes, over the server's limit of \(limit >> 20) MiB; it is not analysed"
                   : "the open documents come to more than \(maxOpenBytes >> 20) MiB; this one is not analysed until others are closed")
            return
        }
        openBytes = others + Self.cost(uri, text)
        texts[uri] = text
        let path = Self.path(of: uri)
        if uri.hasPrefix("file://") { openFiles.texts[path] = text }
        hoverRunCount -= hoverRuns.removeValue(forKey: uri)?.count ?? 0
        if analyse {
            self.analyse(uri)
        } else {
            documents[uri] = nil
            stale.insert(uri)
        }
    }

    /// Analyses a document's text as it is now and publishes its diagnostics;
    /// then, unless told not to, the open documents whose last analysis
    /// read it (an include being edited).
    private func analyse(_ uri: String, refreshingReaders: Bool = true) {
        stale.remove(uri)
        guard let text = texts[uri] else { return }
        let path = Self.path(of: uri)
        let base: any SourceLoader = uri.hasPrefix("file://") ? FileSystemLoader(maxBytes: Analysis.limits.sourceBytes)
                                                               : NoFilesLoader()
        let reads = ReadPaths()
        let analysis = Analysis(path: path, bytes: text, loader: OverlayLoader(base: base, open: openFiles, reads: reads))
        documents[uri] = analysis
        setReads(uri, reads.paths)
        notify("textDocument/publishDiagnostics", PublishDiagnosticsParams(uri: uri, diagnostics: analysis.lspDiagnostics))
        if refreshingReaders { refreshReaders(of: uri) }
    }

    private func setReads(_ uri: String, _ paths: Set<String>) {
        let old = readPaths[uri] ?? []
        for path in old.subtracting(paths) {
            readers[path]?.remove(uri)
            if readers[path]?.isEmpty == true { readers[path] = nil }
        }
        for path in paths.subtracting(old) { readers[path, default: []].insert(uri) }
        readPaths[uri] = paths.isEmpty ? nil : paths
    }

    /// Analyses again the open documents whose last analysis read the
    /// document at `uri`, each once (an include of an include is among the
    /// paths its includer read). One whose own change is read ahead is left
    /// to that change; as the changed document itself, they are analysed
    /// only when no later change to it is queued.
    /// At most ``readersAnalysedAtOnce`` are analysed at once; the others
    /// are marked stale and analysed while no message waits (or when a
    /// request needs them). All were analysed at once: 1,000 open scripts
    /// including one file made each keystroke in it 1,000 analyses (review
    /// 20, R5).
    private func refreshReaders(of uri: String) {
        guard uri.hasPrefix("file://"), let users = readers[Self.path(of: uri)] else { return }
        var analysed = 0
        for other in users.sorted() where other != uri && texts[other] != nil && pendingChanges[other] == nil {
            hoverRunCount -= hoverRuns.removeValue(forKey: other)?.count ?? 0
            if analysed < Self.readersAnalysedAtOnce {
                analysed += 1
                analyse(other, refreshingReaders: false)
            } else {
                documents[other] = nil
                stale.insert(other)
                if waitingSet.insert(other).inserted { waitingReaders.append(other) }
            }
        }
    }

    /// Includers analysed at once when an include changes.
    package static let readersAnalysedAtOnce = 16
    /// Includers left stale by ``refreshReaders(of:)``, in order, from
    /// `waitingHead` on; each once (`waitingSet`).
    private var waitingReaders: [String] = []
    private var waitingHead = 0
    private var waitingSet = Set<String>()
    private var waitingReaderCount: Int { waitingReaders.count - waitingHead }

    /// Analyses the first waiting includer, if it is still stale and
    /// nothing of its own is queued (its change analyses it).
    private func analyseWaitingReader() {
        let uri = waitingReaders[waitingHead]
        waitingHead += 1
        if waitingHead == waitingReaders.count {
            waitingReaders.removeAll(keepingCapacity: false)
            waitingHead = 0
        } else if waitingHead >= waitingReaders.count / 2 {
            waitingReaders.removeSubrange(0..<waitingHead)
            waitingHead = 0
        }
        waitingSet.remove(uri)
        if stale.contains(uri), texts[uri] != nil, pendingChanges[uri] == nil { analyse(uri, refreshingReaders: false) }
    }

    /// A document's analysis for a request, made now if its last change
    /// was not analysed (a later one was read ahead).
    private func document(_ uri: String) -> Analysis? {
        if stale.contains(uri) { analyse(uri) }
        return documents[uri]
    }

    // MARK: Requests

    private func completion(_ p: PositionParams) -> [CompletionItem] {
        guard let doc = document(p.textDocument.uri) else { return [] }
        let bytes = doc.index.bytes
        let offset = doc.index.offset(of: p.position)
        var wordStart = offset
        while wordStart > 0, Lexer.isWordByte(bytes[wordStart - 1]) { wordStart -= 1 }
        // The statement so far: back to the last line break outside brackets.
        var lexer = Lexer(file: doc.file)
        var statementStart = 0
        while true {
            let t = lexer.next()
            if case .end = t.kind { break }
            if t.range.start >= wordStart { break }
            if case .newline = t.kind { statementStart = t.range.end }
        }
        let before = String(decoding: bytes[statementStart..<wordStart], as: UTF8.self)
        let word = String(decoding: bytes[wordStart..<offset], as: UTF8.self)
        // Each candidate's kind by set lookups: a search of a list per
        // candidate was quadratic in declared apps (adversarial 21, F5).
        return doc.completer.complete(word, after: before).candidates.map { candidate in
            let kind = Self.keywords.contains(candidate) ? 14
                : candidate.hasSuffix("=") ? 5
                : Self.statusNames.contains(candidate) ? 21
                : doc.declaredNames.contains(candidate) ? 6 : 12
            return CompletionItem(label: candidate, kind: kind, detail: nil)
        }
    }

    private static let keywords = Set(StatementForm.keywords)
    private static let statusNames = Set(KeychainStatus.allCases.map(\.name))

    private func hover(_ p: PositionParams) -> Hover? {
        guard let doc = document(p.textDocument.uri), !doc.isMarkdown else { return nil }
        let offset = doc.index.offset(of: p.position)
        // A quoted name (one with spaces or punctuation) hovers as a word does.
        guard let token = doc.token(at: offset) else { return nil }
        switch token.kind {
        // A numeric status (`expect status -25300`) is an integer token: it
        // was refused here, so its status hover never showed (editor trial 20, E9).
        case .word, .string(_), .integer(_): break
        default: return nil
        }
        let word = doc.file.text(token.range)
        var parts: [String] = []
        let statement = doc.statement(at: offset)
        if let s = statement, s.range.start == token.range.start || isKeywordAfterDevice(doc, s, token),
           let form = StatementForm.all.first(where: { $0.keyword == word }) {
            parts.append("`\(form.usage)`\n\n\(form.summary)")
        }
        if let c = ItemClass(name: word) {
            let key = c.primaryKeyAttributes.map(\.constantName).joined(separator: ", ")
            parts.append("class **\(c.rawValue)** (`\(c.constantName)`)\n\nprimary key: \(key.isEmpty ? "—" : key)"
                         + "\n\ndefault accessibility: \(c.defaultAccessibility.rawValue)")
        }
        if let key = Vocabulary.argumentKey(named: word) {
            var text = "attribute **\(key.name)**"
            if case .attribute(let a) = key {
                text += " (`\(a.constantName)`)"
                let classes = ItemClass.allCases.filter { a.applies(to: $0) }.map(\.rawValue)
                text += "\n\nclasses: " + classes.joined(separator: ", ")
            }
            let values = Vocabulary.valueNames(for: key)
            if !values.isEmpty { text += "\n\nvalues: " + values.prefix(24).joined(separator: ", ") }
            parts.append(text)
        }
        if let status = KeychainStatus(name: word) ?? Int32(word).flatMap(KeychainStatus.init(rawValue:)) {
            parts.append("**\(status.name)** = \(status.code)")
        }
        if let (role, name) = doc.name(at: offset), let s = statement {
            switch role {
            case .app:
                // Names from the script: escaped in the text, a literal in the
                // statement the hover runs, and a fence no line can close.
                let shown = runUpTo(p.textDocument.uri, doc, s, then: "show app \(ScriptText.literal(name.text))")
                parts.append("app **\(MarkdownBlocks.inlineText(name.text))** here:\n\n" + MarkdownBlocks.codeBlock(shown))
            case .team, .device, .backup, .group:
                parts.append("\(role.rawValue) **\(MarkdownBlocks.inlineText(name.text))**")
            }
        }
        if let s = statement, case .call = s.kind,
           let record = doc.calls.last(where: { $0.file === doc.file && $0.range == s.range }) {
            parts.append("→ **\(record.status.name)** (\(record.status.code))\n\n"
                         + MarkdownBlocks.codeBlock(runUpTo(p.textDocument.uri, doc, s, then: "explain")))
        }
        guard !parts.isEmpty else { return nil }
        return Hover(contents: MarkupContent(value: parts.joined(separator: "\n\n---\n\n")), range: doc.index.range(token.range))
    }

    private func isKeywordAfterDevice(_ doc: Analysis, _ s: Statement, _ token: Token) -> Bool {
        guard let device = s.device else { return false }
        return token.range.start > device.range.end
            && doc.file.bytes[device.range.end..<token.range.start].allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    /// What the script prints when it runs up to and including `s`, then `extra`.
    private func runUpTo(_ uri: String, _ doc: Analysis, _ s: Statement, then extra: String) -> String {
        let key = "\(s.range.end)\u{0}\(extra)"
        if let known = hoverRuns[uri]?[key] { return known }
        let text = run(doc, upTo: s, then: extra)
        if hoverRuns[uri, default: [:]].count < 64, hoverRunCount < 256 {
            hoverRuns[uri, default: [:]][key] = text
            hoverRunCount += 1
        }
        return text
    }

    /// What `extra` prints after the script has run up to and including
    /// `s`: the script's own output (its `show` and `explain` statements)
    /// is not part of it. One run of the script with the extra line kept
    /// all of it, so a hover on an app began with every app shown above,
    /// and a few `show matrix` pushed the asked-for part past the cut
    /// (editor trial 20, E2). The prefix runs first, unobserved, then the
    /// extra statement in the same session, observed.
    private func run(_ doc: Analysis, upTo s: Statement, then extra: String) -> String {
        let prefix = Array(doc.runnable[0..<min(s.range.end, doc.runnable.count)])
        var output = ""
        var total = 0
        var session = Session()
        let options = RunOptions(limits: Analysis.limits)
        // With the analysis' loader: an app declared in an include is known
        // (without it, hovers in a script with includes showed empty blocks;
        // editor trial 20, E12).
        _ = session.run(file: SourceFile(name: doc.file.name, bytes: prefix), loader: doc.loader, options: options)
        _ = session.run(file: SourceFile(name: doc.file.name, bytes: Array("\(extra)\n".utf8)), loader: doc.loader,
                        options: options) { event in
            guard case .output(let text) = event else { return }
            total += text.utf8.count
            if output.utf8.count < Self.hoverOutputBytes { output += text }
        }
        // One output event may be long (`show app` of thousands of groups):
        // cut at the bound, between scalars, and said, counting every event
        // (review of session 18, R4).
        if total > Self.hoverOutputBytes {
            var kept = String.UnicodeScalarView(), keptBytes = 0
            for scalar in output.unicodeScalars {
                guard keptBytes + UTF8.width(scalar) <= Self.hoverOutputBytes else { break }
                keptBytes += UTF8.width(scalar)
                kept.append(scalar)
            }
            output = String(kept) + "\n… (\(total - keptBytes) more bytes not shown)\n"
        }
        return TerminalText.escaped(output, keepingLayout: true)
    }

    private func inlayHints(_ p: RangeParams) -> [InlayHint] {
        guard let doc = document(p.textDocument.uri) else { return [] }
        let lo = doc.index.offset(of: p.range.start), hi = doc.index.offset(of: p.range.end)
        return doc.calls.filter { $0.file === doc.file && $0.range.end >= lo && $0.range.start <= hi }.map { record in
            let count = record.operation == .find || record.operation == .delete ? " (\(record.count))" : ""
            return InlayHint(position: doc.index.position(of: record.range.end),
                             label: "→ \(record.status.name)\(record.status == .success ? count : "")", paddingLeft: true)
        }
    }

    private func definition(_ p: PositionParams) -> [Location] {
        guard let doc = document(p.textDocument.uri) else { return [] }
        let offset = doc.index.offset(of: p.position)
        if let path = doc.include(at: offset) {
            let zero = LSPRange(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0))
            return [Location(uri: Self.uri(of: path), range: zero)]
        }
        guard let (role, name) = doc.name(at: offset) else { return [] }
        if let own = doc.names.first(where: { $0.role == role && $0.declares && $0.name.text == name.text }) {
            return [Location(uri: p.textDocument.uri, range: doc.index.range(own.name.range))]
        }
        // Declared in a file the document read (an include): answered with
        // that file (editor trial 20, E12: nothing was).
        guard p.textDocument.uri.hasPrefix("file://"),
              let found = doc.declaration(of: role, name.text, in: (readPaths[p.textDocument.uri] ?? []).sorted()) else { return [] }
        return [Location(uri: Self.uri(of: found.path), range: TextIndex(found.bytes).range(found.range))]
    }

    /// The most locations a references answer holds (the first found): a `group` line of 4 million app names, which an
    /// 8 MiB document allows, was answered with 4 million locations, some
    /// 500 MB (adversarial run 29, F1).
    static let maxReferences = 10_000

    private func references(_ p: ReferenceParams) -> [Location] {
        guard let doc = document(p.textDocument.uri) else { return [] }
        guard let (role, name) = doc.name(at: doc.index.offset(of: p.position)) else { return [] }
        // `includeDeclaration: false` leaves the declarations out (it was
        // ignored; editor trial 20, E9).
        let declarations = p.context?.includeDeclaration ?? true
        return Array(doc.names.lazy.filter { $0.role == role && $0.name.text == name.text && (declarations || !$0.declares) }
            .prefix(Self.maxReferences)
            .map { Location(uri: p.textDocument.uri, range: doc.index.range($0.name.range)) })
    }

    private func symbols(_ p: DocumentParams) -> [DocumentSymbol] {
        guard let doc = document(p.textDocument.uri) else { return [] }
        var out: [DocumentSymbol] = []
        for s in doc.statements {
            let range = doc.index.range(s.range)
            switch s.kind {
            case .team(let id, _):
                out.append(DocumentSymbol(name: id.text, detail: "team", kind: 2, range: range, selectionRange: doc.index.range(id.range)))
            case .app(let decl):
                out.append(DocumentSymbol(name: decl.name, detail: decl.bundleID.text, kind: 5, range: range,
                                          selectionRange: doc.index.range(decl.alias?.range ?? decl.bundleID.range)))
            case .device(let name, _, _):
                out.append(DocumentSymbol(name: name.text, detail: "device", kind: 13, range: range, selectionRange: doc.index.range(name.range)))
            case .group(let name, _):
                out.append(DocumentSymbol(name: name.text, detail: "group", kind: 14, range: range, selectionRange: doc.index.range(name.range)))
            case .include(let path, _):
                out.append(DocumentSymbol(name: path, detail: "include", kind: 2, range: range, selectionRange: range))
            default:
                break
            }
        }
        // Editors show these names as they are: a control character from
        // the script is escaped, as in every other message (an app named
        // "A\u{1B}[2J" reached the outline raw; found by adversarial testing).
        return out.map { symbol in
            var s = symbol
            s.name = TerminalText.escaped(s.name)
            s.detail = s.detail.map { TerminalText.escaped($0) }
            return s
        }
    }

    private func codeActions(_ p: CodeActionParams) -> [CodeAction] {
        guard p.context?.asksFor("quickfix") ?? true, let doc = document(p.textDocument.uri) else { return [] }
        let lo = doc.index.offset(of: p.range.start), hi = doc.index.offset(of: p.range.end)
        var out: [CodeAction] = []
        for d in doc.diagnostics where d.file === doc.file {
            guard let r = d.range, r.start <= hi, r.end >= lo else { continue }
            for fix in d.fixIts {
                let edit = TextEdit(range: doc.index.range(fix.range), newText: fix.replacement)
                out.append(CodeAction(title: fix.title, kind: "quickfix", diagnostics: nil,
                                      edit: WorkspaceEdit(changes: [p.textDocument.uri: [edit]]), isPreferred: true))
            }
        }
        return out
    }

    private func formatting(_ p: DocumentParams) -> [TextEdit]? {
        guard let doc = document(p.textDocument.uri), CanonicalLayout.sizeRefusal(doc.file.bytes.count) == nil else { return nil }
        // The client's text, as `kcs fmt FILE` formats it: a Markdown
        // document's own line breaks, not the LF the analysis reads for a CR.
        let original = doc.index.bytes
        let formatted: [UInt8]
        if doc.isMarkdown {
            formatted = CanonicalLayout.formatMarkdown(original, name: doc.file.name)
        } else {
            guard let f = try? CanonicalLayout.format(doc.file) else { return nil }
            formatted = f
        }
        guard formatted != original else { return [] }
        // The range covers the client's whole text, at the protocol's lines.
        return [TextEdit(range: doc.index.all, newText: String(decoding: formatted, as: UTF8.self))]
    }
}

/// The server's answer to `initialize`.
struct InitializeResult: Encodable {
    struct Capabilities: Encodable {
        struct Sync: Encodable { var openClose = true; var change = 1 }
        struct CompletionOptions: Encodable { var triggerCharacters = ["=", " ", "["] }
        var textDocumentSync = Sync()
        var completionProvider = CompletionOptions()
        var hoverProvider = true
        var inlayHintProvider = true
        var definitionProvider = true
        var referencesProvider = true
        var documentSymbolProvider = true
        var codeActionProvider = true
        var documentFormattingProvider = true
    }
    struct ServerInfo: Encodable { var name = "kcs"; var version = kcsVersion }
    var capabilities = Capabilities()
    var serverInfo = ServerInfo()
}

/// Reads open documents from the editor's buffers, everything else from
/// the base loader: an include shows what is typed, saved or not.
struct OverlayLoader: SourceLoader {
    var base: any SourceLoader
    let open: OpenFiles
    /// Where the paths read are noted.
    var reads: ReadPaths? = nil

    func resolve(_ path: String, relativeTo including: String?) -> String { base.resolve(path, relativeTo: including) }
    func canonical(_ resolved: String) -> String { base.canonical(resolved) }
    func read(_ resolved: String) throws(LoadError) -> SourceFile {
        reads?.paths.insert(resolved)
        if let bytes = open.texts[resolved] { return SourceFile(name: resolved, bytes: bytes) }
        return try base.read(resolved)
    }
    func isFile(_ resolved: String) -> Bool {
        reads?.paths.insert(resolved)
        return open.texts[resolved] != nil || base.isFile(resolved)
    }
    func fileSize(_ resolved: String) -> Int? { open.texts[resolved]?.count ?? base.fileSize(resolved) }
}

/// The paths a loader read (the server reads and writes it on its one thread).
final class ReadPaths: @unchecked Sendable {
    var paths = Set<String>()
}

/// The server's open documents by path, shared with the loaders of their
/// analyses (the server reads and writes it on its one thread).
final class OpenFiles: @unchecked Sendable {
    var texts: [String: [UInt8]] = [:]
}
