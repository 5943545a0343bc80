/// The syntax tree: what was written, with where, before any name or value
/// is given a meaning. The runtime lowers it to the model's requests; tools
/// that only need the text (formatting, highlighting, completion) stop here.

/// A name as written, with where it was written.
public struct Name: Sendable, Hashable {
    public var text: String
    public var range: SourceRange

    public init(text: String, range: SourceRange) {
        self.text = text
        self.range = range
    }
}

/// A name as written in a call or an expectation, by where it was written:
/// plain data, so a node that holds it copies as bytes and needs no
/// destroying. ``SyntaxParser/name(_:)`` gives its text.
public struct NameNode: Sendable, Hashable {
    public var range: SourceRange
    /// Written as a string: its text is the decoded value.
    public var isString = false
    /// A string with an escape or without its closing quote.
    public var needsDecoding = false

    public init(range: SourceRange, isString: Bool = false, needsDecoding: Bool = false) {
        self.range = range
        self.isString = isString
        self.needsDecoding = needsDecoding
    }
}

/// The elements of a list, by where they sit in the parser's buffer for
/// the statement (``SyntaxParser/values(_:)``, ``SyntaxParser/arguments(_:)``).
/// Read them before asking the parser for the next statement: the buffer
/// is reused (``SyntaxParser/parse(_:)`` keeps every statement's).
public struct NodeList: Sendable, Hashable {
    public var start: Int32
    public var count: Int32

    public init(start: Int, count: Int) {
        self.start = Int32(truncatingIfNeeded: start)
        self.count = Int32(truncatingIfNeeded: count)
    }

    public static let empty = NodeList(start: 0, count: 0)
    public var isEmpty: Bool { count == 0 }
    public var bounds: Range<Int> { Int(start)..<Int(start) + Int(count) }
}

/// A value as written after `=`: a word, a string, an integer or a list.
/// Words and strings carry no text: ``text(in:)`` reads it from the source
/// when the runtime needs it, so parsing a value makes no string. Plain
/// data: a list's elements are in the parser's buffer.
public struct ValueNode: Sendable {
    public enum Kind: Sendable {
        case word, string, integer(Int), list(NodeList)
    }
    public var kind: Kind
    public var range: SourceRange
    /// A string with an escape or without its closing quote (see ``Token/needsDecoding``).
    public var needsDecoding = false

    /// Whether the value is a word or a string (it has text).
    public var hasText: Bool {
        switch kind {
        case .word, .string: true
        case .integer, .list: false
        }
    }

    /// The text of a word, or the value of a string (escapes decoded); nil
    /// for an integer or a list.
    @inlinable
    public func text(in file: SourceFile) -> String? {
        if let r = verbatimRange { return file.text(r) }
        if case .string = kind { return file.stringValue(range) }
        return nil
    }

    /// The word, if the value is a bare word.
    public func word(in file: SourceFile) -> String? {
        if case .word = kind { return file.text(range) }
        return nil
    }
}

/// A whole number as written.
public struct IntegerNode: Sendable {
    public var value: Int
    public var range: SourceRange
}

/// `KEY=VALUE`: the key by where it was written, and the value.
public struct ArgumentNode: Sendable {
    public var key: SourceRange
    public var value: ValueNode
}

/// An option of a declaration (`team=T`, `platform=ios 13`).
public struct OptionNode: Sendable {
    /// Which option of the form's row it is.
    public var id: OptionSpec.Key
    public var key: Name
    public var value: ValueNode
    /// The major version after a platform family (`platform=ios 13`).
    public var version: IntegerNode? = nil
}

/// `[on DEVICE] as APP OP [CLASS] ATTR=VALUE… [set ATTR=VALUE…]`. Plain
/// data, as every node a call or an expectation makes: the statements a
/// long scenario is made of move from the parser to the runtime as bytes.
///
/// Held packed, so that a ``StatementNode`` stays within 128 bytes and
/// moves as a few stores rather than a call to memcpy: the class range
/// without an optional's tag, `set` by where it starts (it is three bytes),
/// the changes by their count (they follow the query's arguments in the
/// buffer), and the app's range apart from its flags.
public struct CallNode: Sendable {
    /// Where the operation was written; its meaning is the runtime's.
    public var operation: SourceRange
    /// ``itemClass``, or a start of -1 when no class was written.
    private var classRange: SourceRange
    private var appRange: SourceRange
    /// Where `set` starts, or -1.
    private var setStart: Int
    /// In ``SyntaxParser/arguments(_:)``.
    public var arguments: NodeList
    private var changeCount: Int32
    private var appIsString: Bool
    private var appNeedsDecoding: Bool

    init(app: NameNode, operation: SourceRange, itemClass: SourceRange?, arguments: NodeList, set: SourceRange?,
         changes: NodeList) {
        self.operation = operation
        classRange = itemClass ?? SourceRange(-1, -1)
        appRange = app.range
        setStart = set?.start ?? -1
        self.arguments = arguments
        // The changes follow the query's arguments (or there are none).
        assert(changes.isEmpty || changes.start == arguments.start + arguments.count)
        changeCount = changes.count
        appIsString = app.isString
        appNeedsDecoding = app.needsDecoding
    }

    public var app: NameNode {
        NameNode(range: appRange, isString: appIsString, needsDecoding: appNeedsDecoding)
    }
    /// Where the class was written, if it was.
    public var itemClass: SourceRange? { classRange.start < 0 ? nil : classRange }
    /// Where `set` was written, for update calls.
    public var set: SourceRange? { setStart < 0 ? nil : SourceRange(setStart, setStart + 3) }
    /// In ``SyntaxParser/arguments(_:)``.
    public var changes: NodeList {
        NodeList(start: Int(arguments.start) + Int(arguments.count), count: Int(changeCount))
    }
}

/// What follows `expect`.
public enum ExpectNode: Sendable {
    /// Status names or codes, separated by `or`: each a word or an integer
    /// (the first apart; the others in ``SyntaxParser/values(_:)``).
    case status(ValueNode, or: NodeList)
    case count(IntegerNode)
    case data(NameNode)
    case noData
    case persistentRef(NameNode)
    case group(NameNode)
    /// In ``SyntaxParser/arguments(_:)``.
    case item(NodeList, end: SourceRange)
    /// The groups in ``SyntaxParser/values(_:)``, each a word or a string.
    case groups(app: NameNode, groups: NodeList)
    case defaultGroup(app: NameNode, group: NameNode)
}

/// The parts of a statement, by form.
public enum StatementBody: Sendable {
    case platform(family: Name, version: IntegerNode)
    case team(id: Name, alias: Name?)
    case app(bundle: Name, alias: Name?, options: [OptionNode])
    case group(name: Name, apps: [Name])
    case include(path: Name)
    case device(name: Name, options: [OptionNode])
    case context(name: Name, options: [OptionNode])
    case wait(IntegerNode)
    case keep(Name)
    case call(CallNode)
    case expect(ExpectNode)
    /// The word chosen from the form's ``StatementForm/choices`` (`passcode on`).
    case choice(Name)
    /// `show app APP`.
    case showApp(Name)
    /// A form that takes one name (`uninstall APP`).
    case name(Name)
    case transfer(app: Name, team: Name)
    case backup(device: Name, name: Name, options: [OptionNode])
    case restore(name: Name, device: Name)
    /// A form of the keyword alone (`lock`, `sync`).
    case bare
}

/// One statement as written. Its fields are in this order, and a call's
/// node packed, to keep it within 128 bytes: a larger one is moved by a
/// call to memcpy, three times per statement in the parser alone.
public struct StatementNode: Sendable {
    /// Where the keyword was written.
    public var keyword: SourceRange
    /// The whole statement, without trailing space and comment.
    public var range: SourceRange
    /// `on DEVICE`.
    public var device: NameNode?
    public var form: StatementForm.Kind
    public var body: StatementBody

    public init(form: StatementForm.Kind, keyword: SourceRange, device: NameNode?, body: StatementBody, range: SourceRange) {
        self.keyword = keyword
        self.range = range
        self.device = device
        self.form = form
        self.body = body
    }
}
