import Testing
import KeychainEngine
@testable import KCSRuntime
@testable import KCSSyntax

/// A call's access group is its bytes as written (``ItemSpec/accessGroupText``,
/// interned past 15 bytes), found in the caller's list by comparing texts,
/// and a found item carries its group as text (``FoundItem/groupText``):
/// what is answered, explained, linted and printed is as when they were Strings.
@Suite struct GroupTextTests {
    /// A group past the 15 bytes held in place, and one of 15.
    static let long = "SKMME9E2Y8.com.example.a.long.shared.group"
    static let short = "SKMME9E2Y8.c.x"

    private func request(_ line: String) -> CallRequest? {
        let (program, diagnostics) = Parser.parse(SourceFile(name: "t.kcs", text: line))
        guard diagnostics.isEmpty, case .call(let call)? = program.statements.first?.kind else { return nil }
        return call.request
    }

    @Test func theLoweringKeepsTheGroupAsWritten() throws {
        let long = try #require(request("as A find generic-password group=\(Self.long)"))
        #expect(long.spec.accessGroupText == AttributeText(Self.long))
        #expect(long.spec.accessGroup == Self.long)
        let quoted = try #require(request("as A find generic-password group=\"\(Self.short)\""))
        #expect(quoted.spec.accessGroupText == AttributeText(Self.short))
        // A number is no group.
        let (_, numberDiagnostics) = Parser.parse(SourceFile(name: "t.kcs", text: "as A find generic-password group=007"))
        #expect(numberDiagnostics.map(\.code) == [.wrongValueType])
        // An escape is decoded.
        let escaped = try #require(request("as A find generic-password group=\"a\\\"b.with.an.escape.past.15\""))
        #expect(escaped.spec.accessGroup == "a\"b.with.an.escape.past.15")
        let moved = try #require(request("as A update generic-password account=a set group=\(Self.long)"))
        #expect(moved.changes?.accessGroupText == AttributeText(Self.long))
        #expect(moved.spec.accessGroupText == nil)
    }

    @Test func setThroughTheStringIsTheSameText() {
        var spec = ItemSpec(itemClass: .genericPassword)
        spec.accessGroup = Self.long
        #expect(spec.accessGroupText == AttributeText(Self.long))
        spec.accessGroup = nil
        #expect(spec.accessGroupText == nil)
        #expect(spec == ItemSpec(itemClass: .genericPassword))
    }

    /// Long and short groups, entitled and not, through every operation: the
    /// statuses, the group each item lands in, and the messages that name them.
    @Test func longGroupsAreAnsweredAndNamedAsBefore() {
        let report = Interpreter.run(source: """
            team SKMME9E2Y8
            app com.example.One as One keychain-access-groups=[\(Self.long), \(Self.short)]
            app com.example.Two as Two keychain-access-groups=[\(Self.long)]
            as One add generic-password service="s" account="a" group=\(Self.long) data="d"
            expect status errSecSuccess
            expect group \(Self.long)
            as Two find generic-password service="s" account="a" group=\(Self.long) return=attributes
            expect status errSecSuccess
            expect item group=\(Self.long)
            as Two add generic-password service="s" account="b" group=\(Self.short)
            expect status errSecMissingEntitlement
            as Two find generic-password service="s" group=\(Self.long).x
            expect status errSecMissingEntitlement
            as One update generic-password service="s" account="a" set group=\(Self.short)
            expect status errSecSuccess
            as Two find generic-password service="s" account="a"
            expect status errSecItemNotFound
            as Two update generic-password service="s" set group=\(Self.short)
            expect status errSecMissingEntitlement
            as One delete generic-password service="s" group=\(Self.short)
            expect status errSecSuccess
            expect count 1
            """)
        #expect(report.verdict == .passed, "\(report.diagnostics.map(\.message))")
    }

    @Test func aFailedGroupExpectationAndTheExplanationQuoteTheLongGroup() {
        let report = Interpreter.run(source: """
            team SKMME9E2Y8
            app com.example.One as One keychain-access-groups=[\(Self.long)]
            app com.example.Two as Two
            as One add generic-password service="s" group=\(Self.long)
            expect status errSecSuccess
            expect group \(Self.long).other
            as Two add generic-password service="s" group=\(Self.long)
            expect status errSecSuccess
            """)
        #expect(report.verdict == .failed)
        let messages = report.diagnostics.map { $0.message + " " + ($0.hint ?? "") + " " + $0.notes.map(\.message).joined() }
        #expect(report.diagnostics.count == 2, "\(messages)")
        #expect(messages.first?.contains("it is in \(Self.long)") == true, "\(messages)")
        #expect(messages.last?.contains("names group \"\(Self.long)\"") == true, "\(messages)")
    }

    /// Lint reads the group's bytes: a long group without its team prefix,
    /// one with a build variable, and an app group with a team prefix.
    @Test func lintReadsTheLongGroupsBytes() {
        let bare = "com.example.a.long.shared.group"
        var session = Session()
        session.lints = true
        let report = session.run(file: SourceFile(name: "lint.kcs", text: """
            team SKMME9E2Y8
            app com.example.One as One keychain-access-groups=[\(Self.long)] application-groups=[group.com.example.long.shared]
            as One add generic-password service="s" account="1" group=\(bare)
            as One add generic-password service="s" account="2" group="$(AppIdentifierPrefix)com.example.long"
            as One add generic-password service="s" account="3" group=SKMME9E2Y8.group.com.example.long.shared
            as One add generic-password service="s" account="4" group=SKMME9E2Y8
            """))
        let lint = report.diagnostics.filter { $0.severity == .warning }
        let messages = lint.map(\.message)
        #expect(lint.count == 4, "\(messages)")
        #expect(messages.contains { $0.contains("group \"\(bare)\" lacks the team prefix; One is entitled to \(Self.long)") },
                "\(messages)")
        #expect(messages.contains { $0.contains("holds a build variable") }, "\(messages)")
        #expect(messages.contains { $0.contains("puts a team prefix in front of the app group group.com.example.long.shared") },
                "\(messages)")
        #expect(messages.contains { $0.contains("team ID alone") }, "\(messages)")
    }
}
