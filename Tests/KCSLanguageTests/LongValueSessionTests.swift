import Testing
@testable import KCSLanguage
@testable import KCSRuntime
@testable import KCSSyntax

/// Values past 15 bytes are interned (``AttributeText``): one value made by
/// two scripts, two Markdown blocks or a script and a check is one value,
/// and what is printed is always the text.
@Suite struct LongValueSessionTests {
    static let service = "a.service.past.the.inline.limit"
    static let account = "Grüße, an account past the limit"
    static let data = String(repeating: "s3cret-", count: 9)
    /// Declarations and the add of an item with the three long values.
    static let added = """
        team SKMME9E2Y8
        app com.example.One as One
        as One add generic-password service="\(service)" account="\(account)" data="\(data)"

        """

    @Test func aLongValueAddedByOneScriptIsFoundByTheNextInTheSameSession() {
        var session = Session()
        let first = session.run(file: SourceFile(name: "a.kcs", text: Self.added + "expect status errSecSuccess\n"))
        #expect(first.verdict == .passed, "\(first.diagnostics)")
        let second = session.run(file: SourceFile(name: "b.kcs", text: """
            as One find generic-password service="\(Self.service)" account="\(Self.account)" return=data
            expect status errSecSuccess
            expect data "\(Self.data)"
            expect item service="\(Self.service)" account="\(Self.account)"
            as One add generic-password service="\(Self.service)" account="\(Self.account)"
            expect status errSecDuplicateItem
            as One find generic-password service="\(Self.service)" account="\(Self.account)!"
            expect status errSecItemNotFound
            as One find generic-password service="\(Self.service)" account="\(Self.account.dropLast())"
            expect status errSecItemNotFound
            """))
        #expect(second.verdict == .passed, "\(second.diagnostics)")
    }

    @Test func aFailedExpectationOnALongValueQuotesTheText() {
        var session = Session()
        let report = session.run(file: SourceFile(name: "a.kcs", text: Self.added + """
            as One find generic-password service="\(Self.service)" account="\(Self.account)" return=data
            expect data "\(Self.data)!"
            expect item account="\(Self.account)!"
            """))
        #expect(report.verdict == .failed)
        let messages = report.diagnostics.map(\.message).joined(separator: "\n")
        #expect(report.diagnostics.count == 2, "\(messages)")
        #expect(messages.contains(Self.data), "\(messages)")
        #expect(messages.contains(Self.account), "\(messages)")
    }

    /// A value exactly at the limit (15 bytes, in place) and one past it (16,
    /// interned) that share their first 15 bytes are two values.
    @Test func valuesAtAndPastTheLimitAreTwoAccounts() {
        let report = Interpreter.run(source: """
            team SKMME9E2Y8
            app com.example.One as One
            as One add generic-password service="s" account="exactly15bytes!"
            expect status errSecSuccess
            as One add generic-password service="s" account="exactly15bytes!!"
            expect status errSecSuccess
            as One find generic-password service="s" return=attributes limit=all
            expect count 2
            """)
        #expect(report.verdict == .passed, "\(report.diagnostics)")
    }

    /// Markdown blocks of one document run in one world: the second block
    /// finds the first one's item and prints its long values as text.
    @Test func markdownBlocksShareLongValuesAndPrintThem() throws {
        let document = SourceFile(name: "page.md", text: "```kcs\n" + Self.added + """
            ```

            ```kcs
            as One find generic-password service="\(Self.service)" account="\(Self.account)" return=data
            expect data "\(Self.data)"
            show items
            ```

            ```output
            ```

            """)
        let runner = BatchRunner(loader: NoFilesLoader())
        let updated = try #require(runner.check(markdown: document, update: true).updatedContent)
        let text = String(decoding: updated, as: UTF8.self)
        #expect(text.contains("\(Self.service)") && text.contains("\(Self.account)"), "\(text)")
        let again = runner.check(markdown: SourceFile(name: "page.md", bytes: updated))
        #expect(again.verdict == .passed, "\(again.diagnostics)")
    }
}
