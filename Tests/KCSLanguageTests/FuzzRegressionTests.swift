import Foundation
import Testing
@testable import KCSLanguage
@testable import KCSRuntime
@testable import KCSSyntax

/// Every input that once crashed or hung kcs (found by review or by the
/// fuzzer, scripts/fuzz.sh) must now run to an ordinary exit.
struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FuzzCrashes")

    static var inputs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".kcs") }.sorted()
    }

    @Test func thereAreRegressionInputs() {
        #expect(Self.inputs.count >= 3)
    }

    @Test(arguments: inputs)
    func runsToAnOrdinaryExit(_ name: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        let report = Interpreter.run(file: SourceFile(name: name, bytes: [UInt8](data)), loader: NoFilesLoader(),
                                     options: RunOptions(limits: .untrusted, defaultPromptAnswer: .approve))
        #expect(report.verdict == .passed || !report.diagnostics.isEmpty)
        // Each of these inputs is malformed somewhere: it must say so.
        #expect(!report.diagnostics.isEmpty)
    }
}
