// libFuzzer target `entitlements`: entitlements files and provisioning
// profiles as kcs reads them: XML property lists, binary property lists,
// CMS-wrapped .mobileprovision files and codesign output (blob header or
// text form).
//
// Each input is decoded with `Entitlements.decode`, summarised as
// `kcs lint --entitlements` does (through an in-memory loader) and read by a
// script's `app … entitlements="…"` line. Oracles:
// - wrapping the bytes in a CMS-like envelope (DER header in front,
//   signature bytes behind, as a .mobileprovision has) or in codesign's blob
//   header does not change what an XML input decodes to;
// - an XML input that decodes re-encoded as a binary property list
//   (Foundation's writer) decodes to the same entitlements.
import Foundation
import KCSLanguage

/// The start of a real profile's CMS envelope (SignedData, indefinite length)
/// and bytes as a signature would follow the content.
let cmsHead: [UInt8] = [0x30, 0x80, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02, 0xA0, 0x80,
                        0x30, 0x80, 0x02, 0x01, 0x01, 0x31, 0x0B, 0x30, 0x09, 0x06, 0x05, 0x2B, 0x0E, 0x03, 0x02, 0x1A,
                        0x05, 0x00, 0x30, 0x80, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01, 0xA0,
                        0x80, 0x24, 0x80, 0x04, 0x82, 0x10, 0x00]
let cmsTail: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0xA0, 0x82, 0x0C, 0x30, 0x30, 0x82, 0x04, 0x22, 0x30, 0x82, 0x03, 0x0A]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let decoded = Entitlements.decode(bytes)
    // The same bytes decode the same way every time: Foundation once picked
    // between two equal keys of a binary dictionary by hash order, which
    // differs between dictionaries (fuzz finding 6).
    require(Entitlements.decode(bytes) == decoded, "the same bytes decoded differently the second time")
    if case .failure(let e) = decoded { require(!e.message.isEmpty, "an entitlements error without a message") }

    // Envelopes around an XML property list change nothing.
    let text = bytes.prefix(6)
    if text.starts(with: Array("<?xml".utf8)) || text.starts(with: Array("<plist".utf8)) {
        let length = UInt32(bytes.count + 8)
        let blob: [UInt8] = [0xFA, 0xDE, 0x71, 0x71] + withUnsafeBytes(of: length.bigEndian, Array.init) + bytes
        // Error messages may quote Foundation's parser, which counts
        // positions: compare what decodes, and that the rest fails.
        for wrapped in [cmsHead + bytes + cmsTail, blob] {
            let again = Entitlements.decode(wrapped)
            require((try? again.get()) == (try? decoded.get()), "an envelope changed what the property list decodes to")
        }
        // The same property list in binary form reads the same.
        if case .success(let e) = decoded,
           let plist = try? PropertyListSerialization.propertyList(from: Data(bytes), format: nil),
           let binary = try? PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0) {
            var asBinary = e
            if case .success(let b) = Entitlements.decode([UInt8](binary)) { asBinary = b }
            require(asBinary == e, "the binary form of the property list decodes differently")
        }
    }

    // As `kcs lint --entitlements FILE` and as a script's entitlements= file.
    let loader = MemoryLoader(files: ["e.plist": bytes])
    for (team, bundle) in [(nil, nil), ("SKMME9E2Y8", "com.example.App") as (String?, String?)] {
        let (_, diagnostics, verdict) = EntitlementsSummary.describe(path: "e.plist", team: team, bundleID: bundle, loader: loader)
        checkDiagnostics(diagnostics)
        // An invalid request: a plain .entitlements file without --team/--bundle-id (the CLI names the flags).
        require(verdict != .invalidInput, "lint --entitlements: invalid input, which it never reports")
        if case .failure = decoded { require(verdict == .missingInput, "a file that does not decode was summarised") }
    }
    let script = """
        team SKMME9E2Y8
        app com.example.App entitlements="e.plist"
        as App add generic-password service="s" account="a"
        show apps
        """
    let report = Interpreter.run(source: script, name: "main.kcs", loader: loader)
    checkDiagnostics(report.diagnostics)
    checkVerdict(report.verdict, report.diagnostics, "run")
    return 0
}
