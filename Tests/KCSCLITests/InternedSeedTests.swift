import Foundation
import KeychainEngine
import Testing

/// Review 22b, R11: the intern table's hash must be seeded per process, so
/// texts that share a slot cannot be chosen ahead of a run (review 22a, R1:
/// 60,000 texts crafted against the unseeded FNV took 98 s). The crafted-run
/// test (`InternedFloodTests`) pins the old hash only: another unseeded hash
/// (perf22's eight-bytes-at-a-time FNV) passed it. This one pins the
/// property: three processes, three hashes of one text.
@Suite("Interned text: the table's hash is seeded per process")
struct InternedSeedTests {
    @Test func twoProcessesHashATextApart() throws {
        let bench = BinaryRunner.binary.deletingLastPathComponent().appendingPathComponent("kcs-bench")
        let text = "svc-0000000000000042"
        var seen = [AttributeText.internTableHash(text)]
        for _ in 0..<2 {
            let out = try BinaryRunner.run(["--intern-hash", text], executable: bench)
            #expect(out.status == 0, "\(out.stderr)")
            seen.append(try #require(Int(out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(out.stdout)"))
        }
        // One process asked twice gives one answer (the table relies on it).
        #expect(AttributeText.internTableHash(text) == seen[0])
        // A 64-bit seed: two of three processes agree by chance some 3 times in 2^64.
        #expect(Set(seen).count == 3, "the same hash in separate processes: \(seen)")
    }
}
