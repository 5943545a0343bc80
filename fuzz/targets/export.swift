// libFuzzer target `export`: `kcs export --swift`, with the generated file
// checked for injection.
//
// The input is a script with the files it includes or reads (`%%% NAME`
// sections, fuzz/Support.swift). When it exports, `SwiftCheck.problem`
// reads the generated Swift the way the compiler would split it into
// comments, string literals and code, and requires:
// - no raw control character (a CR ends a `//` comment) and no
//   bidirectional control (Trojan Source) anywhere;
// - every string literal closed on its line, with only the escapes the
//   exporter writes (no interpolation `\(`, no multi-line or raw strings);
// - no block comment;
// - the code around the literals is the exporter's fixed header (compared
//   with the export of a reference script) followed by lines of the shapes
//   a call's block has, with balanced braces and brackets.
// So no script, however named or worded, can add code to the test file.
import KCSLanguage

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzFiles(fuzzBytes(data, size), mainName: "main.kcs")
    switch SwiftExporter(loader: input.loader).export(input.main) {
    case .success(let code):
        if let problem = SwiftCheck.problem(in: code) { require(false, "export --swift: \(problem)") }
    case .failure(let failure):
        require(!failure.diagnostics.isEmpty, "export failed without a diagnostic")
        checkDiagnostics(failure.diagnostics)
    }
    return 0
}

/// A small reader of the Swift the exporter writes.
enum SwiftCheck {
    /// The first problem in generated code, or nil.
    static func problem(in code: String) -> String? {
        for u in code.unicodeScalars {
            if (u.value < 0x20 && u != "\n" && u != "\t") || (0x202A...0x202E).contains(u.value)
                || (0x2066...0x2069).contains(u.value) || u.value == 0x200E || u.value == 0x200F {
                return "raw U+\(String(u.value, radix: 16, uppercase: true)) in the generated code"
            }
        }
        var skeletons: [String] = []
        for (n, line) in code.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            switch skeleton(line) {
            case .failure(let problem): return "line \(n + 1): \(problem): \(line)"
            case .success(let s): if !s.isEmpty { skeletons.append(s) }
            }
        }
        guard bodyShapes.count == bodyPatterns.count else { return "a body pattern does not compile" }
        guard let header = referenceHeader else { return "the reference script does not export" }
        guard skeletons.count >= header.count + 2, Array(skeletons.prefix(header.count)) == header else {
            return "the header differs from the reference export's"
        }
        guard skeletons.suffix(2) == ["}", "}"] else { return "the file does not end with the test's and suite's braces" }
        var braces = 0, brackets = 0
        for s in skeletons[header.count..<(skeletons.count - 2)] {
            guard bodyShapes.contains(where: { s.wholeMatch(of: $0) != nil }) else { return "unexpected code: \(s)" }
            braces += s.filter { $0 == "{" }.count - s.filter { $0 == "}" }.count
            brackets += s.filter { $0 == "[" }.count - s.filter { $0 == "]" }.count
            if braces < 0 || brackets < 0 { return "a closing brace or bracket too many: \(s)" }
        }
        return braces == 0 && brackets == 0 ? nil : "unbalanced braces or brackets in the test body"
    }

    /// A line without its comment, each string literal written as "S", and
    /// without leading spaces; or what is wrong with it.
    static func skeleton(_ line: Substring) -> Result<String, Problem> {
        var out = ""
        let s = Array(line.unicodeScalars)
        var i = 0
        while i < s.count {
            let c = s[i]
            if c == "/" && i + 1 < s.count && s[i + 1] == "/" { break }
            if c == "/" && i + 1 < s.count && s[i + 1] == "*" { return .failure(Problem("a block comment")) }
            if c == "#" && i + 1 < s.count && s[i + 1] == "\"" { return .failure(Problem("a raw string")) }
            guard c == "\"" else { out.unicodeScalars.append(c); i += 1; continue }
            if i + 2 < s.count && s[i + 1] == "\"" && s[i + 2] == "\"" { return .failure(Problem("a multi-line string")) }
            i += 1
            var closed = false
            while i < s.count {
                if s[i] == "\"" { closed = true; i += 1; break }
                if s[i] == "\\" {
                    guard i + 1 < s.count else { return .failure(Problem("a backslash at the end of the line")) }
                    let e = s[i + 1]
                    if "\"\\nrt0'".unicodeScalars.contains(e) { i += 2; continue }
                    if e == "(" { return .failure(Problem("an interpolation in a string literal")) }
                    guard e == "u", i + 2 < s.count, s[i + 2] == "{" else { return .failure(Problem("the escape \\\(e)")) }
                    var j = i + 3, digits = 0
                    while j < s.count, s[j].properties.isASCIIHexDigit { j += 1; digits += 1 }
                    guard j < s.count, s[j] == "}", (1...8).contains(digits) else { return .failure(Problem("a bad \\u{…} escape")) }
                    i = j + 1
                    continue
                }
                i += 1
            }
            guard closed else { return .failure(Problem("a string literal not closed on its line")) }
            out += "\"S\""
        }
        var trimmed = Substring(out)
        while trimmed.first == " " { trimmed = trimmed.dropFirst() }
        while trimmed.last == " " { trimmed = trimmed.dropLast() }
        // The suite's name comes from the file name.
        return .success(String(trimmed).replacing(/Scenario_[A-Za-z0-9_]*/, with: "Scenario_N"))
    }

    struct Problem: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    /// The skeleton of everything up to the first statement, from a script
    /// whose export is known to be clean.
    static let referenceHeader: [String]? = {
        let script = "team SKMME9E2Y8\napp com.example.App\nas App find generic-password\n"
        guard case .success(let code) = SwiftExporter(loader: NoFilesLoader()).export(SourceFile(name: "r.kcs", text: script)) else { return nil }
        var out: [String] = []
        for line in code.split(separator: "\n", omittingEmptySubsequences: false) {
            guard case .success(let s) = skeleton(line) else { return nil }
            if s.isEmpty { continue }
            out.append(s)
            if s == "Self.removeAll()" { return out }
        }
        return nil
    }()

    /// Every shape a line of a test body may have (SwiftExport.swift writes
    /// them). Groups do not capture: the regexes are typed `Regex<Substring>`.
    static let bodyPatterns: [String] = {
        let value = #"(?:"S"|Data\("S"\.utf8\)|-?[0-9]+|true|false|kSec[A-Za-z]+|access|newAccess)"#
        return [
            #"if runs\("S"\) \{"#,
            #"guard let (?:access|newAccess) = SecAccessControlCreateWithFlags\(nil, kSecAttrAccessible[A-Za-z]+, \[(?:\.[A-Za-z]+(?:, \.[A-Za-z]+)*)?\], nil\) else \{"#,
            #"Issue\.record\("S"\)"#, "return", #"\}"#,
            #"let (?:query|changes): \[String: Any\] = \["#, #"let (?:query|changes): \[String: Any\] = \[:\]"#, #"\]"#,
            #"kSec[A-Za-z]+ as String: "# + value + ",",
            #"let status = SecItemAdd\(query as CFDictionary, nil\)"#, #"var result: CFTypeRef\?"#,
            #"let status = SecItemCopyMatching\(query as CFDictionary, (?:&result|nil)\)"#,
            #"let status = SecItemUpdate\(query as CFDictionary, changes as CFDictionary\)"#,
            #"let status = SecItemDelete\(query as CFDictionary\)"#,
            #"#expect\(status == errSec[A-Za-z]+, "S"\)"#,
            #"#expect\(Self\.firstData\(result\) == "S", "S"\)"#, #"#expect\(Self\.count\(result\) == [0-9]+, "S"\)"#,
            "_ = result",
        ]
    }()

    /// Compiled once; only read afterwards.
    nonisolated(unsafe) static let bodyShapes: [Regex<Substring>] = bodyPatterns.compactMap { try? Regex($0, as: Substring.self) }
}
