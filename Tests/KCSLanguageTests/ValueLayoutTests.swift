import Testing
@testable import KCSLanguage

/// Values from a script keep tables and messages in shape (found by the
/// differential test; the same before and after the front-end rewrite).
@Suite struct ValueLayoutTests {
    /// A tab or a line break in stored data or in a name would end a row of
    /// `show items` or a line of `show app`, or shift its columns: each is
    /// written as an escape where it stands.
    @Test func layoutCharactersInValuesStayOnTheirLine() {
        let source = """
        team SKMME9E2Y8
        app com.example.AppOne keychain-access-groups=["SKMME9E2Y8.a\\tb"]
        as AppOne add generic-password service="s" account="a" data="x\\ty\\nz"
        show items
        show app AppOne

        """
        var printed = ""
        let report = Interpreter.run(source: source) { event in
            if case .output(let text) = event { printed += text }
        }
        #expect(report.diagnostics.filter { $0.severity == .error }.isEmpty, "\(report.diagnostics.map(\.message))")
        #expect(printed.contains(#""x\u{9}y\u{A}z""#), "\(printed)")
        #expect(printed.contains(#"SKMME9E2Y8.a\u{9}b"#), "\(printed)")
        #expect(!printed.contains("\t"), "\(printed)")
        // Header, rule and one row, then the app's lines: no extra line from the data.
        let table = printed.split(separator: "\n").prefix { !$0.hasPrefix("AppOne:") }
        #expect(table.count == 3, "\(printed)")
    }

    /// The character after a backslash is named whole, not by its first byte.
    @Test func unknownEscapeOfALetterPastASCIINamesTheLetter() {
        let report = Interpreter.run(source: "team SKMME9E2Y8\napp com.example.A\nas A find generic-password service=\"\\é\"\n")
        let messages = report.diagnostics.map(\.message)
        #expect(messages == ["unknown escape '\\é'"], "\(messages)")
    }
}
