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

/// A value as written after `=`: a word, a string, an integer or a list.
/// Words and strings carry no text: ``text(in:)`` reads it from the source
/// when the runtime needs it, so parsing a value makes no string.
public struct ValueNode: Sendable {
    public enum Kind: Sendable {
        case word, string, integer(Int), list([ValueNode])
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
    public var key: Name
    public var value: ValueNode
    /// The major version after a platform family (`platform=ios 13`).
    public var version: IntegerNode? = nil
}

/// `[on DEVICE] as APP OP [CLASS] ATTR=VALUE… [set ATTR=VALUE…]`.
public struct CallNode: Sendable {
    public var app: Name
    /// Where the operation was written; its meaning is the runtime's.
    public var operation: SourceRange
    /// Where the class was written, if it was.
    public var itemClass: SourceRange?
    public var arguments: [ArgumentNode]
    /// Where `set` was written, for update calls.
    public var set: SourceRange?
    public var changes: [ArgumentNode]
}

/// What follows `expect`.
public enum ExpectNode: Sendable {
    /// Status names or codes, separated by `or`: each a word or an integer
    /// (the first apart, so one status allocates nothing).
    case status(ValueNode, or: [ValueNode])
    case count(IntegerNode)
    case data(Name)
    case noData
    case persistentRef(Name)
    case group(Name)
    case item([ArgumentNode], end: SourceRange)
    case groups(app: Name, groups: [Name])
    case defaultGroup(app: Name, group: Name)
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
    case backup(device: Name, name: Name)
    case restore(name: Name, device: Name)
    /// A form of the keyword alone (`lock`, `sync`).
    case bare
}

/// One statement as written.
public struct StatementNode: Sendable {
    public var form: StatementForm.Kind
    /// Where the keyword was written.
    public var keyword: SourceRange
    /// `on DEVICE`.
    public var device: Name?
    public var body: StatementBody
    /// The whole statement, without trailing space and comment.
    public var range: SourceRange
}
