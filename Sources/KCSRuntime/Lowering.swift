import KCSSyntax
import KeychainEngine

/// Checks `ATTR=VALUE` pairs and writes them into the engine's request, so
/// every misspelt name or value is a syntax error before anything runs.
package struct Lowering {
    package let file: SourceFile
    /// The file's bytes, held once: read through `file` at each argument,
    /// the array was retained and released per argument.
    private let bytes: [UInt8]
    /// The argument names, held here: read through the static, each
    /// lookup cost a lazy initialization check.
    private let argumentKeys = Vocabulary.argumentTable
    /// The strings of values lately read (an access group named on call
    /// after call is one shared String, not an allocation per call).
    private var texts = TextCache()
    /// The texts past 15 bytes lately made, so the process's table is asked
    /// once per distinct text of the file (``LongTextCache``).
    private var longTexts: LongTextCache
    /// Keys given so far in the list, as bits (where each was given is
    /// looked up in the list only for the error).
    private var seenMask: UInt64 = 0
    /// `persistent-ref=NAME` and `context=NAME` name things that exist only
    /// at run time; the session resolves them.
    private(set) var persistentRefName: Name?
    private(set) var contextName: Name?
    /// Whether the list named a persistent reference or a context.
    var namesRuntimeObjects: Bool { persistentRefName != nil || contextName != nil }

    /// A lowering for the lists of one file; the parser keeps it from
    /// statement to statement, so a call makes and destroys none.
    package init(file: SourceFile) {
        self.file = file
        self.bytes = file.bytes
        self.longTexts = LongTextCache(bytes: bytes)
    }

    /// Starts a list: no key seen, no name given.
    package mutating func start() {
        seenMask = 0
        if persistentRefName != nil { persistentRefName = nil }
        if contextName != nil { contextName = nil }
    }

    /// Applies every `KEY=VALUE` of a list in order, reading each in place;
    /// `values` are the statement's list elements (``SyntaxParser/listValues``).
    package mutating func apply(_ list: ArraySlice<ArgumentNode>, values: [ValueNode], to spec: inout ItemSpec,
                                changing: Bool) throws(Diagnostic) {
        start()
        try list.withUnsafeBufferPointer { (b) throws(Diagnostic) in
            for i in b.indices { _ = try apply(b[i].key, b[i].value, of: list, values: values, to: &spec, changing: changing) }
        }
    }

    /// Applies `KEY=VALUE`, the key given by where it was written.
    /// `arguments` is the list it is part of, for "first given here".
    package mutating func apply(_ keyRange: SourceRange, _ v: ValueNode, of arguments: ArraySlice<ArgumentNode>, values: [ValueNode],
                                to spec: inout ItemSpec, changing: Bool) throws(Diagnostic) -> ArgumentKey {
        guard let k = argumentKeys.value(bytes, keyRange) else {
            let text = file.text(keyRange)
            throw Diagnostic(.unknownAttribute, "unknown attribute '\(text)'", file: file, range: keyRange,
                             hint: Suggest.hint(for: text, in: Vocabulary.argumentNames)
                                ?? "attributes: " + Vocabulary.shortArguments.map(\.0).joined(separator: " "))
                .didYouMean(text, in: Vocabulary.argumentNames)
        }
        let bit = k.bit
        if seenMask & (1 << bit) != 0 {
            let first = arguments.first { Vocabulary.argument(file.bytes, $0.key)?.bit == bit }?.key
            throw Diagnostic(.duplicateArgument, "'\(file.text(keyRange))' is given twice", file: file, range: keyRange,
                             notes: first.map { [DiagnosticNote("first given here", file: file, range: $0)] } ?? [])
        }
        seenMask |= 1 << bit
        switch k {
        case .attribute(let written):
            // One dictionary key under two names: the class says which column.
            let a = spec.itemClass.map { written.sharingKey(in: $0) } ?? written
            spec.attributes[a] = a == written ? try attributeValue(a, v) : try sharedKeyValue(as: a, v)
        case .group:
            spec.accessGroupText = try groupText(v)
        case .accessible:
            spec.accessibility = try pick(v, "accessibility", Vocabulary.accessibilityNames, deviceNote: Self.unknownAccessibilityOnADevice) {
                Vocabulary.accessibility(named: $0)
            }
        case .accessControl:
            spec.accessControl = try accessControl(v, values)
        case .sync:
            spec.synchronizable = try pick(v, "sync value", Vocabulary.syncNames)
        case .data:
            spec.dataText = try textBytes(v, "the data")
        case .dataProtection:
            spec.useDataProtectionKeychain = try bool(v)
        case .authUI:
            spec.authUI = try pick(v, "auth-ui value", Vocabulary.authUINames)
        case .limit:
            if case .integer(let n) = v.kind {
                // 0 is a limit a device takes (SQL's LIMIT 0: nothing is
                // found, ``MatchLimit/cap``); a negative one is kCFNotFound's business.
                guard n >= 0 else {
                    throw Diagnostic(.wrongValueType, "a match limit cannot be negative", file: file, range: v.range,
                                     hint: "write limit=one, limit=all or a number")
                }
                spec.limit = .count(n)
            } else {
                spec.limit = try pick(v, "limit", Vocabulary.limitNames)
            }
        case .returns:
            let items: ArraySlice<ValueNode>
            if case .list(let l) = v.kind { items = values[l.bounds] } else { items = [v] }
            for item in items {
                let r: ReturnKinds = try pick(item, "return kind", Vocabulary.returnNames)
                spec.returns.insert(r)
            }
        case .returnFlag(let r):
            if try bool(v) { spec.returns.insert(r) }
        case .persistentRef:
            persistentRefName = Name(text: try text(v, "the name of a kept persistent reference"), range: v.range)
        case .context:
            let name = try text(v, "the name of a context")
            contextName = Name(text: name, range: v.range)
            spec.context = name
        }
        return k
    }

    private mutating func text(_ v: ValueNode, _ what: String) throws(Diagnostic) -> String {
        // A word or a string without escapes, past 15 bytes, through the
        // cache: the same String as `v.text(in:)` makes, without allocating
        // it again. A shorter one is held inline: making it costs no more
        // than looking it up (data="d1" is mostly new each time).
        if let r = v.verbatimRange, r.end - r.start > 15 { return texts.text(of: r, in: bytes, file: file) }
        return try decodedText(v, what)
    }

    /// An access group as text: the bytes as written when there is no
    /// escape to decode (a group past 15 bytes is interned, and a call's
    /// group is then two words to copy and compare), otherwise the text
    /// ``text(_:_:)`` reads, a number as written included.
    private mutating func groupText(_ v: ValueNode) throws(Diagnostic) -> AttributeText {
        if let r = v.verbatimRange { return verbatimText(r) }
        return AttributeText(try decodedText(v, "an access group"))
    }

    /// The text of the bytes at `r` as written: made in place up to 15
    /// bytes (as cheap as a lookup), through the file's cache past that.
    private mutating func verbatimText(_ r: SourceRange) -> AttributeText {
        r.end &- r.start > AttributeText.inlineCapacity ? longTexts.text(r.start, r.end) : file.withBytes(r) { AttributeText(bytes: $0) }
    }

    /// The bytes of a word, a string or a number, as text: made from the
    /// bytes as written when there is no escape to decode, with no String.
    private mutating func textBytes(_ v: ValueNode, _ what: String) throws(Diagnostic) -> AttributeText {
        if case .integer(let i) = v.kind { return AttributeText(String(i)) }
        if let r = v.verbatimRange { return verbatimText(r) }
        return AttributeText(try decodedText(v, what))
    }

    /// The text of a word or a string, made anew.
    private func decodedText(_ v: ValueNode, _ what: String) throws(Diagnostic) -> String {
        guard let t = v.text(in: file) else {
            throw Diagnostic(.wrongValueType, "expected \(what) as a word or \"string\"", file: file, range: v.range)
        }
        return t
    }

    private func bool(_ v: ValueNode) throws(Diagnostic) -> Bool {
        try pick(v, "boolean", ["true", "false"]) { $0 == "true" ? true : $0 == "false" ? false : nil }
    }

    /// A word from a table of names and values, with "did you mean" on a miss.
    private func pick<T>(_ v: ValueNode, _ what: String, _ table: [(String, T)]) throws(Diagnostic) -> T {
        try pick(v, what, table.map(\.0)) { w in table.first { $0.0 == w }?.1 }
    }

    /// A word from a fixed vocabulary, with "did you mean" on a miss.
    private func pick<T>(_ v: ValueNode, _ what: String, _ names: [String], deviceNote: String = "",
                         _ lookup: (String) -> T?) throws(Diagnostic) -> T {
        // A name may be written bare or quoted: accessible=when-unlocked or "when-unlocked".
        guard let w = v.text(in: file) else {
            throw Diagnostic(.wrongValueType, "expected a \(what) name", file: file, range: v.range,
                             hint: "one of: " + names.prefix(12).joined(separator: ", ") + deviceNote)
        }
        guard let value = lookup(w) else {
            throw Diagnostic(.unknownValue, "unknown \(what) '\(w)'", file: file, range: v.range,
                             hint: (Suggest.hint(for: w, in: names) ?? "one of: " + names.prefix(12).joined(separator: ", ")) + deviceNote)
                .didYouMean(w, in: names)
        }
        return value
    }

    /// What a device answers for a kSecAttrAccessible value that is no
    /// accessibility, ended to KCS205's hint (p2/OAuth2 issue 267: a
    /// setting copied into kSecAttrAccessible gave -50; QA s22, Q29).
    static let unknownAccessibilityOnADevice = "; on a device a kSecAttrAccessible value that is none of the constants' values "
        + "(\(Accessibility.allCases.map(\.code).joined(separator: ", "))) is errSecParam, -50 (\"accessible attribute … unknown\", "
        + "SecDbKeychainItem.m kc_parse_keyclass): a string from settings must hold the constant's value (ck), not its name"

    /// A value written under the other name of the "type" key: a key's
    /// type given as its number (`type=42`, what kSecAttrKeyTypeRSA is), or
    /// a password's type given as a key type (`key-type=rsa` stores 42).
    private func sharedKeyValue(as a: ItemAttribute, _ v: ValueNode) throws(Diagnostic) -> AttributeValue {
        if a == .keyType {
            let known = ItemAttribute.keyTypes.filter { $0.value != nil }
            let digits: String? = if case .integer(let i) = v.kind { String(i) } else { v.text(in: file) }
            guard let digits, let e = known.first(where: { $0.value == digits }) else {
                let list = known.filter { $0.short == $0.stored }.map { "\($0.value ?? "") (\($0.short))" }.joined(separator: ", ")
                throw Diagnostic(.unknownValue, "on a key, type= is its key type: kSecAttrType and kSecAttrKeyType are one key, \"type\"",
                                 file: file, range: v.range, hint: "kcs models the key types " + list + "; or write key-type=")
            }
            return .string(AttributeText(e.stored))
        }
        // A password's type is a number column: the key type's number.
        let e = try enumeratedValue(ItemAttribute.keyTypes, v)
        guard let n = Int(e.value ?? e.stored) else { return .string(AttributeText(e.value ?? e.stored)) }
        return .integer(n)
    }

    /// A value of an enumerated attribute, by short name or constant name.
    private func enumeratedValue(_ values: [EnumeratedValue], _ v: ValueNode) throws(Diagnostic) -> EnumeratedValue {
        let names = values.map(\.short) + values.map(\.constant)
        return try pick(v, "value", names) { w in values.first { $0.short == w || $0.constant == w } }
    }

    private mutating func attributeValue(_ a: ItemAttribute, _ v: ValueNode) throws(Diagnostic) -> AttributeValue {
        switch a.valueKind {
        case .string:
            return .string(try textBytes(v, "a value"))
        case .integer:
            if case .integer(let i) = v.kind { return .integer(i) }
            // port="443" is 443 on a device too (securityd's copyNumber).
            guard let n = v.text(in: file).flatMap(AttributeValue.number(fromText:)) else {
                let text = v.text(in: file) ?? ""
                throw Diagnostic(.wrongValueType, "'\(a.constantName)' takes a number", file: file, range: v.range,
                                 hint: (a == .creator || a == .type ? Self.fourCharacterCode(text) : nil)
                                    .map { "a four-character code is a number: '\(text)' is \($0)" }
                                    ?? "write the number bare or as its digits in quotes, e.g. 443 or \"443\"")
            }
            return .integer(n)
        case .enumerated(let values):
            return .string(AttributeText(try enumeratedValue(values, v).stored))
        case .date:
            // A device takes a date only (a string is errSecParam): the
            // script writes the instant, the call passes a Date.
            guard let seconds = v.text(in: file).flatMap(AttributeValue.date(fromText:)) else {
                let text = v.text(in: file) ?? ""
                let shaped = text.utf8.count >= 10 && text.utf8.prefix(10).enumerated().allSatisfy { i, b in
                    i == 4 || i == 7 ? b == UInt8(ascii: "-") : (0x30...0x39).contains(b)
                }
                let why = text.contains(" ") ? "a date has no spaces; "
                    : text.contains(".") ? "a fraction of a second has one to nine digits after the seconds (…:00.25Z); "
                    : shaped ? "'\(text)' is no day of the calendar, or its time is not 00:00:00 to 23:59:59; " : ""
                throw Diagnostic(.wrongValueType, "'\(a.constantName)' takes a date", file: file, range: v.range,
                                 hint: why + "write it as \"2025-01-31\" or \"2025-01-31T12:00:00Z\" (UTC); the call passes a Date")
            }
            return .date(seconds)
        }
    }

    /// The number of a four-character code (`'abcd'`, as kSecAttrCreator
    /// and kSecAttrType take one), or nil.
    static func fourCharacterCode(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return bytes.reduce(0) { $0 << 8 | Int($1) }
    }

    // access-control := '[' [ ACCESSIBILITY ] [ FLAG { ( 'or' | 'and' ) FLAG } | FLAG { FLAG } ] ']'
    // (grammar.md; an empty list is when-unlocked without flags)
    private func accessControl(_ v: ValueNode, _ values: [ValueNode]) throws(Diagnostic) -> AccessControl {
        guard case .list(let list) = v.kind else {
            throw Diagnostic(.wrongValueType, "access-control takes a list", file: file, range: v.range,
                             hint: "e.g. access-control=[when-passcode-set-this-device-only, biometry-current-set]")
        }
        var protection: Accessibility?
        var flags: [AccessControl.Flag] = []
        var combinator: AccessControl.Combinator?
        var expectFlag = true
        // Two flags were written side by side, with no combinator.
        var bare = false
        for (i, item) in values[list.bounds].enumerated() {
            guard let w = item.word(in: file) else {
                throw Diagnostic(.wrongValueType, "expected an accessibility, a flag, \(AccessControl.Combinator.allCases.map { "'\($0.rawValue)'" }.joined(separator: " or "))", file: file, range: item.range)
            }
            if i == 0, let a = Vocabulary.accessibility(named: w) { protection = a; continue }
            if let c = AccessControl.Combinator(rawValue: w) {
                if expectFlag {
                    throw Diagnostic(.unexpectedToken, "'\(w)' must stand between two flags", file: file, range: item.range)
                }
                if bare {
                    throw Diagnostic(.expectedToken, "write a combinator between every two flags, or none", file: file,
                                     range: item.range)
                }
                if let combinator, combinator != c {
                    throw Diagnostic(.unexpectedToken, "mixing 'or' and 'and' in one access control", file: file,
                                     range: item.range, hint: "use one combinator for all flags")
                }
                combinator = c
                expectFlag = true
                continue
            }
            guard let f = Vocabulary.flagNames.first(where: { $0.0 == w })?.1 else {
                let isAccessibility = Vocabulary.accessibility(named: w) != nil
                throw Diagnostic(.unknownValue, isAccessibility ? "the protection must come first in access-control"
                                    : "unknown access-control flag '\(w)'", file: file, range: item.range,
                                 hint: isAccessibility ? nil : Suggest.hint(for: w, in: Vocabulary.flagNames.map(\.0))
                                    ?? "flags: " + AccessControl.Flag.allCases.map(\.rawValue).joined(separator: ", "))
            }
            // Flags side by side with no combinator are
            // SecAccessControlCreateWithFlags without kSecAccessControlOr:
            // every constraint is required (k = n, SecAccessControl.m line
            // 223), as `and`; `[user-presence, application-password]`, which
            // admits no combinator (lines 179-181), is written so. A list
            // either joins every two flags or none (audit 25, F3).
            if !expectFlag && !flags.isEmpty {
                if combinator != nil {
                    throw Diagnostic(.expectedToken, "write '\(combinator!.rawValue)' between every two flags, or no combinator at all",
                                     file: file, range: item.range)
                }
                bare = true
            }
            flags.append(f)
            expectFlag = false
        }
        if expectFlag && !flags.isEmpty {
            throw Diagnostic(.expectedToken, "a flag must follow 'or'/'and'", file: file, range: v.range)
        }
        // Flags SecAccessControlCreateWithFlags refuses never reach a call.
        if let why = AccessControl.creationRefusal(flags, withCombinator: combinator != nil) {
            throw Diagnostic(.unexpectedToken, "SecAccessControlCreateWithFlags refuses these flags: \(why)", file: file,
                             range: v.range, hint: "it returns NULL (errSecParam); user-presence goes only with "
                                + "application-password, and without or/and; one biometry flag at most")
        }
        return AccessControl(protection: protection, flags: flags, combinator: combinator)
    }
}
