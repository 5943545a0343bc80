// Writes the fuzzing dictionary and generated seeds from the language's own
// tables, so neither can drift from the language. Built like a fuzz target
// (it links the same instrumented libraries); scripts/fuzz.sh runs it once
// with KCS_FUZZ_TABLES_OUT=DIR and it writes, then exits before fuzzing:
//
//   DIR/kcs.dict         libFuzzer dictionary: statement keywords and every
//                        word of their syntax, attribute names, classes,
//                        values, statuses; Markdown fences; plist tags and keys
//   DIR/statements.kcs   every statement form's example (StatementForm.all)
//   DIR/keywords.txt     every statement form's keyword, one a line
//   DIR/*.bplist         binary property lists of the example entitlements
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import KCSLanguage
import KeychainEngine

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    guard let out = ProcessInfo.processInfo.environment["KCS_FUZZ_TABLES_OUT"] else { return 0 }
    let dir = URL(fileURLWithPath: out)
    func write(_ name: String, _ bytes: [UInt8]) {
        require((try? Data(bytes).write(to: dir.appendingPathComponent(name))) != nil, "cannot write \(name)")
    }
    write("kcs.dict", Array(dictionary().map(dictionaryLine).joined().utf8))
    write("statements.kcs", Array(StatementForm.all.map { $0.example + "\n" }.joined().utf8))
    write("keywords.txt", Array(StatementForm.all.map { $0.keyword + "\n" }.joined().utf8))
    // Binary forms of the example entitlements (the XML inside each file).
    if let root = ProcessInfo.processInfo.environment["KCS_FUZZ_ROOT"] {
        let folder = URL(fileURLWithPath: root).appendingPathComponent("examples/entitlements")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path),
                  let start = data.range(of: Data("<?xml".utf8)), let end = data.range(of: Data("</plist>".utf8)),
                  let plist = try? PropertyListSerialization.propertyList(from: data[start.lowerBound..<end.upperBound], format: nil),
                  let binary = try? PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
            else { continue }
            write(name + ".bplist", [UInt8](binary))
        }
    }
    exit(0)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { 0 }

/// Every token worth trying, from the tables where the language has one.
func dictionary() -> [String] {
    var words: [String] = StatementForm.keywords
    // Every word and symbol of every statement's syntax line: platforms,
    // operations, app kinds, expectation kinds, device verbs.
    for form in StatementForm.all {
        words += form.usage.split(whereSeparator: { " |[]…".contains($0) }).map(String.init)
        words += form.example.split(separator: " ").map(String.init)
    }
    words += Vocabulary.argumentNames + Vocabulary.argumentNames.map { $0 + "=" }
    words += Vocabulary.classNames + Vocabulary.accessibilityNames + Vocabulary.statusNames
    for name in Vocabulary.argumentNames {
        if let key = Vocabulary.argumentKey(named: name) { words += Vocabulary.valueNames(for: key) }
    }
    words += KeychainStatus.allCases.map { String($0.code) }
    // Punctuation and the multi-file convention of fuzz/Support.swift.
    words += ["[", "]", "\"", "=", "#", "\n", ", ", "%%% ", "\n%%% a.kcs\n", "include \"a.kcs\"", "entitlements=\"e.plist\"", "\n%%% e.plist\n"]
    // Markdown: fences and the modifiers `kcs check` reads (Outcome.swift).
    words += ["```", "~~~", "```kcs\n", "```output\n", "```kcs fresh\n", "```kcs ignore\n", "```kcs fails\n", "\n```\n", "    ```"]
    // Property lists: the syntax, and the keys Entitlements.swift reads.
    words += ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<plist version=\"1.0\">", "</plist>", "<dict>", "</dict>",
              "<array>", "</array>", "<array/>", "<dict/>", "<key>", "</key>", "<string>", "</string>", "<true/>", "<false/>",
              "<integer>", "</integer>", "<data>", "</data>", "<date>", "<real>", "<!DOCTYPE", "<!--", "-->", "&amp;", "&#",
              "<![CDATA[", "]]>", "bplist00", "\u{FA}\u{DE}\u{71}\u{71}",
              "$(AppIdentifierPrefix)", "$(TeamIdentifierPrefix)", "$(PRODUCT_BUNDLE_IDENTIFIER)", "$(CFBundleIdentifier)", "$(",
              "keychain-access-groups", "com.apple.security.application-groups", "application-identifier",
              "com.apple.application-identifier", "com.apple.developer.team-identifier", "TeamIdentifier", "Entitlements",
              "ProvisionedDevices", "UUID", "SKMME9E2Y8."]
    var seen = Set<String>()
    return words.filter { !$0.isEmpty && seen.insert($0).inserted }
}

/// One dictionary entry in libFuzzer's syntax: printable ASCII as is, the
/// rest as \xNN.
func dictionaryLine(_ word: String) -> String {
    var out = "\""
    for b in word.utf8 {
        if b >= 0x20 && b < 0x7F && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") {
            out.unicodeScalars.append(Unicode.Scalar(b))
        } else {
            out += "\\x" + (b < 16 ? "0" : "") + String(b, radix: 16)
        }
    }
    return out + "\"\n"
}
