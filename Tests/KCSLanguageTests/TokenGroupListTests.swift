import Testing
@testable import KCSLanguage
@testable import KCSRuntime

/// Session 22: iOS 10 to 13 (watchOS 3 to 6) append com.apple.token to
/// every list, an entitled app's too (Security-57740.60.18 server.c,
/// 58286 and 59306 server_entitlement_helpers.c), and `explain` names the
/// groups an unentitled process's find searched.
struct TokenGroupListTests {
    func notes(_ source: String) -> (RunReport, String) {
        let report = Interpreter.run(source: source, name: "t.kcs")
        return (report, report.diagnostics.flatMap { $0.notes.map(\.message) }.joined(separator: "\n"))
    }

    @Test func anEntitledAppOnIOS13ListsTheTokenGroupLast() {
        let (report, why) = notes("""
            platform ios 13
            team SKMME9E2Y8
            app com.example.A as A
            expect groups A [SKMME9E2Y8.com.example.A, com.apple.token]
            as A find generic-password group=com.apple.token
            expect status errSecSuccess
            """)
        #expect(report.passed == 1, "\(report.diagnostics.map(\.message))")
        #expect(why.contains("A's access groups, in order: SKMME9E2Y8.com.example.A (default), com.apple.token"), "\(why)")
        #expect(why.contains("searched: com.apple.token"), "\(why)")
        // iOS 13's query without a group leaves the token group out.
        let (_, implicit) = notes("""
            platform ios 13
            team SKMME9E2Y8
            app com.example.A as A
            as A find generic-password
            expect status errSecSuccess
            """)
        #expect(implicit.contains("searched: SKMME9E2Y8.com.example.A\n"), "\(implicit)")
    }

    @Test func anUnentitledProcessFindNamesTheGroupsSearched() {
        func why(_ platform: String, _ query: String) -> String {
            notes("platform \(platform)\napp com.example.tests.xctest as Tests team=none\nas Tests find generic-password \(query)\nexpect status errSecSuccess\n").1
        }
        #expect(why("ios 11", "").contains("searched: com.apple.token"), "\(why("ios 11", ""))")
        #expect(why("ios 13", "group=com.apple.token").contains("searched: com.apple.token"))
        // iOS 13 leaves the token group out of a query without a group: nothing searched.
        #expect(!why("ios 13", "").contains("searched:"), "\(why("ios 13", ""))")
        // A group other than the token group: refused from iOS 13, found nothing before.
        #expect(why("ios 13", "group=SKMME9E2Y8.x").contains("errSecMissingEntitlement"))
        #expect(why("ios 12", "group=SKMME9E2Y8.x").contains("errSecItemNotFound"))
    }

    /// A write naming the token group where the list shows it says why it
    /// fails, not "not in A's access groups" (review 22b, R7).
    @Test func aWriteToTheListedTokenGroupSaysWhyItFails() {
        func why(_ platform: String, _ call: String) -> String {
            notes("platform \(platform)\nteam SKMME9E2Y8\napp com.example.A as A\nas A \(call)\nexpect status errSecSuccess\n").1
        }
        let add12 = why("ios 12", "add generic-password service=\"s\" group=com.apple.token data=\"d\"")
        #expect(add12.contains("iOS 12 leaves it out of the groups a write may use"), "\(add12)")
        #expect(!add12.contains("which is not in A's access groups"), "\(add12)")
        let move13 = why("ios 13", "update generic-password service=\"s\" set group=com.apple.token")
        #expect(!move13.contains("which is not in A's access groups"), "\(move13)")
        let add10 = why("ios 10", "add generic-password service=\"s\" group=com.apple.token data=\"d\"")
        #expect(add10.contains("iOS 10's securityd stores the item there, which kcs does not model"), "\(add10)")
        let watch5 = why("watchos 5", "add generic-password service=\"s\" group=com.apple.token data=\"d\"")
        #expect(watch5.contains("watchOS 5 leaves it out"), "\(watch5)")
    }
}
