import KCSSyntax
import Testing

/// The syntax module on its own: what was written, without the engine.
@Suite struct SyntaxTreeTests {
    @Test func everyFormHasOneRow() {
        for kind in StatementForm.Kind.allCases {
            #expect(StatementForm.all.filter { $0.kind == kind }.count == 1, "\(kind)")
            #expect(StatementForm.form(kind).kind == kind)
        }
        #expect(Set(StatementForm.all.map(\.keyword)).count == StatementForm.all.count)
    }

    @Test func callKeepsWhatWasWritten() throws {
        let file = SourceFile(name: "t.kcs", text: "on Phone as AppOne frob no-such-class service=\"s\" limit=[a, b] set data=1\n")
        var parsed = SyntaxParser.parse(file)
        // Neither the operation nor the class is known to the syntax: both are kept for the runtime.
        #expect(parsed.diagnostics.isEmpty)
        let s = try #require(parsed.statements.first)
        #expect(s.form == .call)
        #expect(s.device.map { parsed.name($0).text } == "Phone")
        guard case .call(let call) = s.body else { Issue.record("not a call: \(s.body)"); return }
        #expect(parsed.name(call.app).text == "AppOne")
        #expect(file.text(call.operation) == "frob")
        #expect(call.itemClass.map(file.text) == "no-such-class")
        let arguments = Array(parsed.arguments(call.arguments))
        #expect(arguments.map { file.text($0.key) } == ["service", "limit"])
        #expect(parsed.arguments(call.changes).map { file.text($0.key) } == ["data"])
        #expect(call.set.map(file.text) == "set")
        if case .list(let items) = arguments[1].value.kind {
            #expect(parsed.values(items).compactMap { $0.word(in: file) } == ["a", "b"])
        } else {
            Issue.record("limit is not a list")
        }
        #expect(file.text(s.range) == "on Phone as AppOne frob no-such-class service=\"s\" limit=[a, b] set data=1")
    }

    /// A statement moves from the parser to the runtime as a few stores,
    /// not a call to memcpy, while it is at most 128 bytes.
    @Test func statementNodeStaysSmall() {
        #expect(MemoryLayout<StatementNode>.size <= 128)
        #expect(MemoryLayout<StatementNode?>.size <= 128)
    }

    @Test func callWithoutClassOrSet() throws {
        let file = SourceFile(name: "t.kcs", text: "as A find\nas B update generic-password set data=\"x\"\n")
        var parsed = SyntaxParser.parse(file)
        #expect(parsed.diagnostics.isEmpty)
        guard case .call(let find) = try #require(parsed.statements.first).body,
              case .call(let update) = try #require(parsed.statements.last).body else {
            Issue.record("not calls")
            return
        }
        #expect(parsed.name(find.app).text == "A")
        #expect(find.itemClass == nil && find.set == nil && find.changes.isEmpty)
        #expect(update.itemClass.map(file.text) == "generic-password")
        #expect(update.arguments.isEmpty)
        #expect(parsed.arguments(update.changes).map { file.text($0.key) } == ["data"])
    }

    @Test func optionsAreCheckedAgainstTheTable() {
        let cases: [(String, String)] = [
            ("app com.example.A colour=red\n", "unknown app option 'colour'"),
            ("app com.example.A provisioned=maybe\n", "unknown provisioned value 'maybe'"),
            ("app com.example.A team=X team=Y\n", "'team' is given twice"),
            ("device D platform=ios\n", "expected a major version such as 18, found the end of the line"),
            ("context C reuse=soon\n", "expected a number, found 'soon'"),
            ("passcode maybe\n", "unknown passcode state 'maybe'"),
            ("expect nothing\n", "unknown expectation 'expect nothing'"),
        ]
        for (text, message) in cases {
            let diagnostics = SyntaxParser.parse(SourceFile(name: "t.kcs", text: text)).diagnostics
            #expect(diagnostics.map(\.message) == [message], "\(text)")
        }
    }

    /// Review 23a, R3: each `expect` subject parses as itself (a subject the
    /// parser did not name was taken as `default-group APP ID`), with a
    /// sample of what its row says follows it.
    @Test func everyExpectSubjectParsesAsItself() throws {
        #expect(StatementForm.form(.expect).choices.map(\.word) == ExpectSubject.allCases.map(\.rawValue))
        for subject in ExpectSubject.allCases {
            let sample: String
            switch subject {
            case .status: sample = "errSecSuccess or -25300"
            case .count: sample = "2"
            case .data: sample = "\"x\""
            case .noData: sample = ""
            case .group, .persistentRef: sample = "N"
            case .item: sample = "account=\"a\""
            case .groups: sample = "APP [G1, G2]"
            case .defaultGroup: sample = "APP G"
            }
            let text = "expect \(subject.rawValue) \(sample)\n"
            let parsed = SyntaxParser.parse(SourceFile(name: "t", text: text))
            #expect(parsed.diagnostics.isEmpty, "\(text)")
            guard case .expect(let node) = try #require(parsed.statements.first).body else { Issue.record("\(text)"); continue }
            let parsedAs: ExpectSubject
            switch node {
            case .status: parsedAs = .status
            case .count: parsedAs = .count
            case .data: parsedAs = .data
            case .noData: parsedAs = .noData
            case .persistentRef: parsedAs = .persistentRef
            case .group: parsedAs = .group
            case .item: parsedAs = .item
            case .groups: parsedAs = .groups
            case .defaultGroup: parsedAs = .defaultGroup
            }
            #expect(parsedAs == subject, "\(text)")
        }
    }

    @Test func everyTableWordParses() {
        // Each form's words and options, written the way the table says, parse.
        for form in StatementForm.all {
            for choice in form.choices where choice.rest.isEmpty {
                let text = "\(form.keyword) \(choice.word)\n"
                #expect(SyntaxParser.parse(SourceFile(name: "t", text: text)).diagnostics.isEmpty, "\(text)")
            }
            for option in form.options {
                let value: String
                switch option.value {
                case .name, .path, .set: value = "\"x\""
                case .boolean: value = "true"
                case .integer: value = "1"
                case .nameList: value = "[a, b]"
                case .platform: value = "ios 13"
                }
                // The words the head puts before the options (`backup D as N`).
                let head = form.keyword == "backup" ? "backup D as N" : "\(form.keyword) N"
                let text = "\(head) \(option.key)=\(value)\n"
                #expect(SyntaxParser.parse(SourceFile(name: "t", text: text)).diagnostics.isEmpty, "\(text)")
            }
        }
    }

    @Test func syntaxSpellsOutValueSets() {
        let platform = StatementForm.form(.platform).syntax { $0 == .platformFamily ? ["ios", "macos"] : [] }
        #expect(platform == "platform ios|macos VERSION")
        let passcode = StatementForm.form(.passcode).syntax { _ in [] }
        #expect(passcode == "passcode on|off")
        let show = StatementForm.form(.show).syntax { _ in [] }
        #expect(show == "show apps|items|matrix | app APP")
        let context = StatementForm.form(.context).syntax { _ in [] }
        #expect(context == "context NAME [reuse=SECONDS] [interaction=true|false]")
    }
}

/// The source file finds its lines with memchr and its NUL and non-ASCII
/// bytes in a vectorized loop: checked against the plain byte-by-byte
/// reading on inputs of every length and mix.
@Suite struct SourceFileScanTests {
    @Test func lineAndByteScanMatchesTheBytes() {
        var rng = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x0A, 0x0A, 0x00, 0x41, 0x20, 0x0D, 0x7F, 0x80, 0xC3, 0xA9, 0x09, 0x0B]
        // Past the vector loops' blocks and the C library's too.
        for length in Array(0..<80) + [127, 128, 129, 255, 256, 257, 300, 513] {
            for _ in 0..<(length < 80 ? 20 : 4) {
                let bytes = (0..<length).map { _ in Bool.random(using: &rng) ? UInt8(0x61) : alphabet.randomElement(using: &rng)! }
                let file = SourceFile(name: "t", bytes: bytes)
                // A line ends at an LF, a CR LF (at its LF) or a lone CR (adversarial run 28, F6).
                let breaks = bytes.indices.filter { bytes[$0] == 0x0A || (bytes[$0] == 0x0D && ($0 + 1 == bytes.count || bytes[$0 + 1] != 0x0A)) }
                #expect(file.lineCount == breaks.count + 1, "\(bytes)")
                #expect(file.isASCII == bytes.allSatisfy { $0 < 0x80 }, "\(bytes)")
                #expect(file.hasNUL == bytes.contains(0), "\(bytes)")
                // Each line break ends a line: the byte after it starts the next.
                var line = 1
                for (i, b) in bytes.enumerated() {
                    #expect(file.location(of: i).line == line, "\(bytes) at \(i)")
                    if b == 0x0A || (b == 0x0D && (i + 1 == bytes.count || bytes[i + 1] != 0x0A)) { line += 1 }
                }
            }
        }
    }
}

/// Text from input put into Markdown (the language server's hovers).
@Suite struct MarkdownTextTests {
    @Test func aCodeBlocksFenceOutrunsEveryLineOfBackticks() {
        #expect(MarkdownBlocks.codeBlock("a\nb\n") == "```\na\nb\n```")
        #expect(MarkdownBlocks.codeBlock("x\n```\n# h") == "````\nx\n```\n# h\n````")
        #expect(MarkdownBlocks.codeBlock("  `````") == "``````\n  `````\n``````")
    }

    @Test func inlineTextEscapesPunctuationAndLineBreaks() {
        #expect(MarkdownBlocks.inlineText("AppOne") == "AppOne")
        #expect(MarkdownBlocks.inlineText("a**b") == "a\\*\\*b")
        #expect(MarkdownBlocks.inlineText("[x](y)") == "\\[x\\]\\(y\\)")
        #expect(MarkdownBlocks.inlineText("a\n# h") == "a\\\\u\\{A\\}\\# h")
    }
}
