import Foundation
import Testing

/// The forms of issue 11 item 3, run through the built binary.
@Suite(.serialized)
struct FormsCLITests {
    @Test func persistentRefsContextsAndPlatformsRunEndToEnd() throws {
        let script = """
            team SKMME9E2Y8
            app com.example.A
            device Old platform=ios 14
            as A add generic-password account="a" data="1" access-control=[user-presence]
            # Any query of an access-control item prompts (ks_decrypt_data).
            user approves
            as A find generic-password account="a" return=persistent-ref
            keep persistent-ref as R
            context S
            user approves
            as A find persistent-ref=R return=data context=S
            expect data "1"
            as A find persistent-ref=R return=data context=S auth-ui=fail
            expect status errSecSuccess
            on Old as A find persistent-ref=R
            expect status errSecParam
            wait 5
            """
        let out = try BinaryRunner.run(["run", "-"], stdin: script)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.hasSuffix("3 passed, 0 failed\n"), "\(out.stdout)")
    }

    @Test func anUnknownContextIsARuntimeErrorAndABadFormASyntaxError() throws {
        let runtime = try BinaryRunner.run(["run", "-"], stdin: "team SKMME9E2Y8\napp com.example.A\nas A find generic-password context=Nope\n")
        #expect(runtime.status == 1)
        #expect(runtime.stderr.contains("[KCS312]"))
        let syntax = try BinaryRunner.run(["run", "-"], stdin: "context S reuse=900\ndevice D platform=ios\n")
        #expect(syntax.status == 65)
        #expect(syntax.stderr.contains("[KCS208]") && syntax.stderr.contains("[KCS202]"))
    }

    @Test func aMacToolWithoutAnAppIDFindsNothingInsteadOfMinus34018() throws {
        let out = try BinaryRunner.run(["run", "-"], stdin: """
            platform macos 15
            team SKMME9E2Y8
            app com.example.Tool signing=no-app-id
            show app Tool
            as Tool find generic-password data-protection=true
            expect status errSecItemNotFound
            """)
        #expect(out.status == 0, "\(out.stderr)")
    }
}
