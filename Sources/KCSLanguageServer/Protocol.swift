/// The subset of the Language Server Protocol (3.17) types that `kcs lsp`
/// speaks. Field names are the protocol's own.

public struct Position: Codable, Sendable, Hashable {
    public var line: Int
    /// UTF-16 code units from the start of the line, as the protocol counts by default.
    public var character: Int
}

public struct LSPRange: Codable, Sendable, Hashable {
    public var start: Position
    public var end: Position
}

public struct Location: Codable, Sendable, Hashable {
    public var uri: String
    public var range: LSPRange
}

struct TextDocumentIdentifier: Codable { var uri: String }

struct TextDocumentItem: Codable {
    var uri: String
    var languageId: String?
    var version: Int?
    var text: String
}

struct DidOpenParams: Codable { var textDocument: TextDocumentItem }

struct ContentChange: Codable {
    var range: LSPRange?
    var text: String
}

struct DidChangeParams: Codable {
    var textDocument: TextDocumentIdentifier
    var contentChanges: [ContentChange]
}

struct DocumentParams: Codable { var textDocument: TextDocumentIdentifier }

struct PositionParams: Codable {
    var textDocument: TextDocumentIdentifier
    var position: Position
}

struct ReferenceParams: Decodable {
    struct Context: Decodable { var includeDeclaration: Bool? }
    var textDocument: TextDocumentIdentifier
    var position: Position
    var context: Context?
}

struct RangeParams: Codable {
    var textDocument: TextDocumentIdentifier
    var range: LSPRange
}

struct CodeActionParams: Decodable {
    var textDocument: TextDocumentIdentifier
    var range: LSPRange
    var context: CodeActionContext?
}

/// What the client says of a code action request. Its diagnostics are any
/// the editor shows on the range, other servers' and linters' among them
/// (no code, a numeric code, no source or severity: all allowed by the
/// protocol); the server rebuilds its fixes from its own, so it reads them
/// as any JSON. Decoded as its own type they refused the whole request
/// with -32602 as soon as one came from elsewhere (editor trial 20, E5).
struct CodeActionContext: Decodable {
    var diagnostics: [AnyJSON]?
    /// The kinds asked for; actions of other kinds may be left out.
    var only: [String]?

    /// Whether an action of `kind` is asked for: LSP kinds are
    /// hierarchical (`quickfix` is asked for by `quickfix` and by the
    /// empty kind, not by `refactor` or `source.organizeImports`).
    func asksFor(_ kind: String) -> Bool {
        guard let only else { return true }
        return only.contains { $0.isEmpty || $0 == kind || kind.hasPrefix($0 + ".") }
    }
}

public struct LSPDiagnostic: Codable, Sendable, Hashable {
    public var range: LSPRange
    /// 1 error, 2 warning, 3 information, 4 hint.
    public var severity: Int
    public var code: String
    public var source: String
    public var message: String
}

struct PublishDiagnosticsParams: Codable {
    var uri: String
    var diagnostics: [LSPDiagnostic]
}

struct CompletionItem: Codable {
    var label: String
    /// 14 keyword, 6 variable, 5 field, 12 value, 21 constant, 17 file.
    var kind: Int
    var detail: String?
}

struct MarkupContent: Codable {
    var kind = "markdown"
    var value: String
}

struct Hover: Codable {
    var contents: MarkupContent
    var range: LSPRange?
}

struct InlayHint: Codable {
    var position: Position
    var label: String
    var paddingLeft: Bool
}

struct TextEdit: Codable {
    var range: LSPRange
    var newText: String
}

struct WorkspaceEdit: Codable {
    var changes: [String: [TextEdit]]
}

struct CodeAction: Codable {
    var title: String
    var kind: String
    var diagnostics: [LSPDiagnostic]?
    var edit: WorkspaceEdit
    var isPreferred: Bool?
}

struct DocumentSymbol: Codable {
    var name: String
    var detail: String?
    /// 2 module, 5 class, 13 variable, 14 constant, 12 function, 20 key.
    var kind: Int
    var range: LSPRange
    var selectionRange: LSPRange
}

struct ResponseError: Codable {
    var code: Int
    var message: String
}

struct Response<R: Encodable>: Encodable {
    var jsonrpc = "2.0"
    var id: RequestID?
    var result: R?
    var error: ResponseError?

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(jsonrpc, forKey: .jsonrpc)
        try c.encode(id, forKey: .id)
        if let error { try c.encode(error, forKey: .error) } else { try c.encode(result, forKey: .result) }
    }

    enum Keys: String, CodingKey { case jsonrpc, id, result, error }
}

struct Notification<P: Encodable>: Encodable {
    var jsonrpc = "2.0"
    var method: String
    var params: P
}
