import Foundation
import Testing

/// QA trial 23 (real-world keychain problems replayed): what the built
/// binary says where the trial found a hint gap.
@Suite struct QA23FixTests {
    /// KCS516 on the one query where the accessibility filter is the fix
    /// (SAMKeychain pull request 94; QA s23, Q21): under the lock an
    /// unfiltered `limit=all` read stops at the when-unlocked item with
    /// errSecInteractionNotAllowed, and the filtered one succeeds. The
    /// warning says the filter is what lets it succeed, and its hint moves
    /// the item first instead of dropping the filter.
    @Test func anAccessibilityFilterThatAvoidsTheLockIsNotToldToGo() throws {
        let script = """
            team SKMME9E2Y8
            app com.example.sam as App
            as App add generic-password service="svc" account="old" data="o"
            as App add generic-password service="svc" account="a1" data="1" accessible=after-first-unlock
            lock
            as App find generic-password service="svc" limit=all return=attributes
            expect status errSecInteractionNotAllowed
            as App find generic-password service="svc" limit=all return=attributes accessible=after-first-unlock
            expect count 1

            """
        let out = try BinaryRunner.run(["run", "-"], stdin: script)
        #expect(out.status == 0, "\(out.stderr)")
        let warnings = out.stderr.split(separator: "\n").filter { $0.contains("[KCS516]") }
        #expect(warnings.count == 1, "\(out.stderr)")
        #expect(warnings.first?.contains("this find leaves out 1 item stored with another class (when-unlocked), and that is what lets it succeed "
                                         + "while this device is locked: without the filter it stops at that item with errSecInteractionNotAllowed") == true,
                "\(out.stderr)")
        #expect(out.stderr.contains("hint: keep the filter until no item of another class is left: move the left-out item while the device is unlocked "
                                    + "(update … set accessible=after-first-unlock"), "\(out.stderr)")
        #expect(!out.stderr.contains("drop accessible= from the query: set the class on add"), "\(out.stderr)")

        // Unlocked, the same filtered find is told to drop the filter: nothing stops the wide one.
        let unlocked = try BinaryRunner.run(["run", "-"], stdin: script
            .replacingOccurrences(of: "expect status errSecInteractionNotAllowed\n", with: "expect status errSecInteractionNotAllowed\nunlock\n"))
        #expect(unlocked.status == 0, "\(unlocked.stderr)")
        #expect(unlocked.stderr.contains("this find leaves out 1 item stored with another class [KCS516]"), "\(unlocked.stderr)")
        #expect(unlocked.stderr.contains("hint: drop accessible= from the query"), "\(unlocked.stderr)")
    }
}
