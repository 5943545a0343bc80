import Foundation
import Testing

/// scripts/fuzz.sh compiles the libraries itself, one `build_library NAME
/// DEPENDENCY…` line each, in an order and with dependencies that must be
/// Package.swift's: left23b made KCSXcodeProject import KCSSyntax, fuzz.sh
/// built it first, and only the fresh-clone CI's fuzz step saw it (session
/// 23). The manifest is the one source; this test holds fuzz.sh to it.
struct FuzzBuildOrderTests {
    /// Each `.target(name: "X", dependencies: ["A", "B", …]` of the manifest,
    /// its package-local dependencies only.
    static func manifestDependencies() throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: BinaryRunner.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var out: [String: Set<String>] = [:]
        for part in manifest.components(separatedBy: ".target(name: \"").dropFirst() {
            // One line each (a target written over several lines, as
            // KCSCodeCheck is, is not one fuzz.sh builds).
            let line = part.prefix { $0 != "\n" }
            guard let end = line.firstIndex(of: "\"") else { continue }
            let name = String(line[..<end])
            var deps: Set<String> = []
            if let open = line.range(of: "dependencies: ["), let close = line[open.upperBound...].firstIndex(of: "]") {
                let list = line[open.upperBound..<close]
                for piece in list.split(separator: ",") {
                    let t = piece.trimmingCharacters(in: .whitespacesAndNewlines)
                    if t.hasPrefix("\""), t.hasSuffix("\""), t.count > 2 { deps.insert(String(t.dropFirst().dropLast())) }
                }
            }
            out[name] = deps
        }
        return out
    }

    @Test func fuzzBuildsEachLibraryAfterWhatItImports() throws {
        let manifest = try Self.manifestDependencies()
        let script = try String(contentsOf: BinaryRunner.root.appendingPathComponent("scripts/fuzz.sh"), encoding: .utf8)
        let lines = script.split(separator: "\n").filter { $0.hasPrefix("build_library ") }.map { $0.split(separator: " ").map(String.init) }
        #expect(lines.count >= 5, "\(lines)")
        var built: Set<String> = []
        for words in lines {
            let name = words[1], listed = Set(words.dropFirst(2))
            let needed = try #require(manifest[name], "fuzz.sh builds \(name), which Package.swift does not declare")
            let local = needed.filter { manifest[$0] != nil }
            #expect(local.isSubset(of: built), "fuzz.sh builds \(name) before \(local.subtracting(built).sorted()), which it imports (Package.swift)")
            #expect(listed == local, "fuzz.sh rebuilds \(name) when \(listed.sorted()) change; Package.swift says it depends on \(local.sorted())")
            built.insert(name)
        }
    }
}
