import Foundation
import KCSXcode
import Testing

/// docs/xcode.md walks through docs/xcode/Notes, a project these tests
/// write (XcodeFixture.appWidgetShare): the committed copy must be that
/// project, and the page must show what the commands print for it.
@Suite("docs/xcode.md shows what kcs prints")
struct XcodeDocsTests {
    static let docs = BinaryRunner.root.appendingPathComponent("docs")
    static let project = docs.appendingPathComponent("xcode/Notes")

    /// Every file under a folder, by relative path.
    static func files(_ root: URL) -> [String: Data] {
        var out: [String: Data] = [:]
        let names = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        for name in names {
            let url = root.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                out[name] = FileManager.default.contents(atPath: url.path)
            }
        }
        return out
    }

    @Test func theCommittedProjectIsTheFixture() throws {
        let f = XcodeFixture.appWidgetShare(name: "Notes")
        defer { f.remove() }
        let made = Self.files(f.root)
        // KCS_WRITE_DOCS_PROJECT=1 swift test --filter XcodeDocsTests rewrites the copy after a fixture change.
        if ProcessInfo.processInfo.environment["KCS_WRITE_DOCS_PROJECT"] == "1" {
            try? FileManager.default.removeItem(at: Self.project)
            for (name, data) in made {
                let url = Self.project.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: url)
            }
        }
        #expect(Self.files(Self.project) == made)
    }

    /// The block of the given language that follows `marker` in docs/xcode.md.
    func block(after marker: String, _ language: String) throws -> String {
        let page = try String(contentsOf: Self.docs.appendingPathComponent("xcode.md"), encoding: .utf8)
        let start = try #require(page.range(of: marker))
        let open = try #require(page.range(of: "```\(language)\n", range: start.upperBound..<page.endIndex))
        let close = try #require(page.range(of: "\n```", range: open.upperBound..<page.endIndex))
        return String(page[open.upperBound..<close.lowerBound]) + "\n"
    }

    @Test func theImportShownIsTheImportMade() throws {
        let result = XcodeImporter.importProject(Self.project.appendingPathComponent("Notes.xcodeproj").path,
                                                 options: XcodeImportOptions(scenarioFolder: Self.docs.path))
        #expect(result.diagnostics.isEmpty)
        #expect(try block(after: "<!-- import -->", "kcs") == result.scenario)
    }

    @Test func theLintShownIsTheLintMade() throws {
        let out = try BinaryRunner.run(["lint", "--project", "docs/xcode/Notes/Notes.xcodeproj"])
        #expect(out.status == 1)
        let shown = try block(after: "<!-- lint -->", "text")
        let printed = (out.stderr + out.stdout).replacingOccurrences(of: "docs/xcode/", with: "xcode/")
        #expect(shown == printed)
    }
}
