import Testing
@testable import KCSLanguage

/// Values from a script keep messages in shape (found by the differential
/// test; the same before and after the front-end rewrite).
@Suite struct ValueLayoutTests {
    /// The character after a backslash is named whole, not by its first byte.
    @Test func unknownEscapeOfALetterPastASCIINamesTheLetter() {
        let report = Interpreter.run(source: "team SKMME9E2Y8\napp com.example.A\nas A find generic-password service=\"\\é\"\n")
        let messages = report.diagnostics.map(\.message)
        #expect(messages == ["unknown escape '\\é'"], "\(messages)")
    }
}
