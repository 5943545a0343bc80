import KCSLanguage
@testable import KCSRepl
import Testing

/// `:undo` replays the chunks before the last into a fresh session (no copy
/// of the session is kept per line): the world it gives back must be the one
/// the chunks left, prompts, contexts, kept references and runtime errors
/// included.
@Suite struct ReplStateTests {
    private func chunk(_ text: String) -> SourceFile { SourceFile(name: "<repl>", text: text) }

    static let chunks = [
        "team SKMME9E2Y8\napp com.example.AppOne\napp com.example.AppTwo\ngroup com.example.Shared AppOne AppTwo\n",
        "as AppOne add generic-password service=\"s\" account=\"a\" data=\"1\" access-control=[user-presence]\n",
        "user approves\nas AppTwo find generic-password service=\"s\" return=persistent-ref\nkeep persistent-ref as Ref\n",
        // A runtime error does not stop the chunk from being remembered.
        "as Nobody find generic-password\npasscode on\nlock\nuser cancels\n",
    ]
    static let probe = """
        as AppOne find generic-password service="s" return=data
        as AppTwo find generic-password persistent-ref=Ref
        unlock
        user approves
        as AppOne find generic-password service="s" return=data
        expect data "1"
        show items

        """

    /// What the probe reports after `state`: each call's line and the output.
    private func probe(_ state: inout ReplState) -> [String] {
        let (report, events) = state.run(chunk(Self.probe))
        return events.map { event -> String in
            switch event {
            case .call(let c): CallLine.text(c)
            case .output(let text): text
            case .diagnostic(let d): d.code.rawValue + " " + d.message
            default: "\(event)"
            }
        } + report.diagnostics.map(\.code.rawValue)
    }

    /// Ctrl-C while an input runs stops it before the next statement and
    /// takes the whole input back (adversarial 20, L2: only killing the REPL
    /// ended a long `:load`, and the session was lost with it).
    @Test func anInterruptedInputIsTakenBackWhole() {
        final class Presses: @unchecked Sendable {
            var asked = 0
        }
        var state = ReplState()
        for c in Self.chunks { _ = state.run(chunk(c)) }
        var fresh = ReplState()
        for c in Self.chunks { _ = fresh.run(chunk(c)) }
        let adds = (0..<50).map { "as AppOne add generic-password service=\"i\($0)\" account=\"a\"\n" }.joined()
        // Pressed while the twentieth statement runs.
        let presses = Presses()
        let (report, _) = state.run(chunk(adds), interruption: {
            presses.asked += 1
            return presses.asked > 20
        })
        #expect(report.interrupted)
        #expect(report.statements == 21)
        #expect(report.diagnostics.last?.message.hasPrefix("interrupted") == true)
        #expect(state.entries.count == Self.chunks.count)
        #expect(state.session.world.itemCount == fresh.session.world.itemCount)
        #expect(probe(&state) == probe(&fresh))
        // Not pressed: the same input runs whole and is remembered.
        let (whole, _) = state.run(chunk(adds), interruption: { false })
        #expect(!whole.interrupted && whole.statements == 50)
        #expect(state.entries.count == Self.chunks.count + 2)
    }

    /// Review 23a, R7: a `platform` line after an `app` line is the syntax
    /// error (KCS212) it is in one file, not the session's KCS304 with the
    /// rest of the line run: nothing of the line runs or is remembered.
    @Test func aPlatformLineAfterAnAppLineIsASyntaxError() {
        var state = ReplState()
        _ = state.run(chunk("app com.example.A\n"))
        let (report, _) = state.run(chunk("team SKMME9E2Y8\nplatform ios 17\n"))
        #expect(report.diagnostics.map(\.code) == [.misplacedDeclaration])
        #expect(report.diagnostics.first?.location?.line == 2)
        #expect(report.hasSyntaxErrors && state.entries.count == 1)
        #expect(state.session.world.teams.isEmpty)
    }

    @Test func undoGivesBackTheWorldTheEarlierChunksLeft() {
        // The chunks, then one more that changes everything, undone...
        var undone = ReplState()
        for c in Self.chunks { _ = undone.run(chunk(c)) }
        _ = undone.run(chunk("unlock\nas AppTwo add generic-password service=\"t\" account=\"b\"\ncontext C reuse=10\nwait 5\nuser approves\n"))
        #expect(undone.undo() != nil)
        #expect(undone.entries.count == Self.chunks.count)
        // ...answer the probe as the chunks alone do.
        var fresh = ReplState()
        for c in Self.chunks { _ = fresh.run(chunk(c)) }
        #expect(undone.session.world.itemCount == fresh.session.world.itemCount)
        let expected = probe(&fresh)
        // The prefix's state shows: locked (interaction not allowed), then the
        // answer it queued (cancels) taken before the probe's own.
        #expect(expected.prefix(3) == ["AppOne find generic-password → errSecInteractionNotAllowed (-25308)",
                                       "AppTwo find generic-password → errSecInteractionNotAllowed (-25308)",
                                       "AppOne find generic-password → errSecUserCanceled (-128)"], "\(expected)")
        #expect(probe(&undone) == expected)
    }

    /// Undo after undo replays from the checkpoints the first one made,
    /// and a chunk run after an undo leaves the later checkpoints out: each
    /// state is the one the same chunks give in a fresh session.
    @Test func undoAfterUndoGivesTheSameWorldsFromCheckpoints() {
        var state = ReplState()
        _ = state.run(chunk("team SKMME9E2Y8\napp com.example.A as A\n"))
        for i in 0..<200 { _ = state.run(chunk("as A add generic-password account=\"\(i)\"\n")) }
        func items(_ s: ReplState) -> Int { s.session.world.itemCount }
        for expected in stride(from: 199, through: 150, by: -1) {
            #expect(state.undo() != nil)
            #expect(items(state) == expected)
        }
        // A new chunk, then undo past it and below: the checkpoints left are still right.
        _ = state.run(chunk("as A add generic-password account=\"new\"\n"))
        #expect(items(state) == 151)
        for expected in stride(from: 150, through: 100, by: -1) {
            #expect(state.undo() != nil)
            #expect(items(state) == expected)
        }
        let (report, _) = state.run(chunk("as A find generic-password account=\"new\"\nexpect status errSecItemNotFound\n"))
        #expect(report.verdict == .passed)
    }

    @Test func aChunkWithASyntaxErrorChangesNothingAndIsNotRemembered() {
        var state = ReplState()
        _ = state.run(chunk("team SKMME9E2Y8\napp com.example.AppOne\n"))
        let (report, _) = state.run(chunk("as AppOne add generic-password account=\"a\"\nas AppOne frob generic-password\n"))
        #expect(report.hasSyntaxErrors)
        #expect(state.session.world.itemCount == 0)
        #expect(state.entries.count == 1)
    }
}
