// libFuzzer target `formats`: the structured output of `kcs run` and
// `kcs check` (--format json, junit, tap) and GitHub annotations.
//
// The input runs as a script and is checked as a Markdown document (files it
// includes come from `%%% NAME` sections, fuzz/Support.swift; when the input
// starts with a `%%% NAME` line, NAME is the path the reports carry, so file
// names are fuzzed too); a third outcome is a missing file. Each format is
// read back:
// - JSON parses with JSONSerialization, and every path and message reads
//   back as the terminal shows it (TerminalText.escaped: the same text in
//   every format) and every output string exactly, with the counts;
// - JUnit is well-formed XML (XMLParser) with one <testsuite> per file and
//   one <testcase> per check or error, and one for a file's errors not shown;
// - TAP is a version line, a plan, numbered test lines without a bare '#',
//   and YAML blocks whose values are quoted strings;
// - GitHub annotations are one `::error`/`::warning` line per diagnostic.
#if canImport(FoundationXML)
import FoundationXML
#endif
import Foundation
import KCSLanguage

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzFiles(fuzzBytes(data, size), mainName: "main.kcs")
    let runner = BatchRunner(loader: input.loader, verbose: true, lint: .warn, collectChecks: true)
    let outcomes = [runner.run(input.main), runner.check(markdown: input.main), runner.run(path: input.main.name + ".missing")]

    checkJSON(OutcomeFormat.json.render(outcomes), outcomes)
    checkJUnit(OutcomeFormat.junit.render(outcomes), outcomes)
    checkTAP(OutcomeFormat.tap.render(outcomes), outcomes)
    for o in outcomes {
        let annotations = OutcomeFormat.githubAnnotations(o)
        let lines = annotations.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        require(annotations.isEmpty || annotations.hasSuffix("\n"), "annotations do not end with a line break")
        require(!annotations.unicodeScalars.contains("\r"), "a CR in the annotations")
        require(lines.count == o.diagnostics.filter { $0.severity != .note }.count,
                "\(lines.count) annotation lines for \(o.diagnostics.count) diagnostics")
        for line in lines {
            require(line.hasPrefix("::error file=") || line.hasPrefix("::warning file="), "annotation line: \(line)")
            require(line.dropFirst(2).contains("::"), "annotation without a message: \(line)")
        }
    }
    let summary = OutcomeFormat.text.render(outcomes)
    // One closing line: "N passed, N failed", then ", N error(s)" and ", N skipped" when there are any.
    let closing = summary.split(separator: ", ").map { $0.split(separator: " ") }
    require(summary.filter({ $0 == "\n" }).count == 1 && summary.hasSuffix("\n")
            && closing.count >= 2 && closing.allSatisfy { $0.count == 2 && Int($0[0]) != nil }
            && closing[0][1] == "passed" && closing[1][1] == "failed",
            "text summary: \(summary)")
    return 0
}

func checkJSON(_ text: String, _ outcomes: [FileOutcome]) {
    let parsed = try? JSONSerialization.jsonObject(with: Data(text.utf8))
    guard let top = parsed as? [String: Any], let files = top["files"] as? [[String: Any]] else {
        require(false, "the JSON report does not parse: \(text.prefix(300))")
        return
    }
    require(top["passed"] as? Int == outcomes.reduce(0) { $0 + $1.passed }, "JSON passed count")
    require(top["failed"] as? Int == outcomes.reduce(0) { $0 + $1.failed }, "JSON failed count")
    require(files.count == outcomes.count, "JSON file count")
    for (file, o) in zip(files, outcomes) {
        require(file["path"] as? String == TerminalText.escaped(o.path), "JSON path \(String(describing: file["path"])) for \(o.path)")
        require(file["output"] as? String == o.output, "JSON output does not read back")
        require(file["verdict"] as? String == o.verdict.name, "JSON verdict")
        let diagnostics = file["diagnostics"] as? [[String: Any]] ?? []
        require(diagnostics.count == o.diagnostics.count, "JSON diagnostic count")
        for (d, expected) in zip(diagnostics, o.diagnostics) {
            require(d["message"] as? String == TerminalText.escaped(expected.message),
                    "JSON message does not read back: \(TerminalText.escaped(expected.message))")
            require(d["code"] as? String == expected.code.rawValue, "JSON code")
        }
        require((file["checks"] as? [Any])?.count == o.checks.count, "JSON check count")
    }
}

/// Counts elements while XMLParser reads a document.
final class ElementCounter: NSObject, XMLParserDelegate {
    var counts: [String: Int] = [:]
    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        counts[name, default: 0] += 1
    }
}

func checkJUnit(_ text: String, _ outcomes: [FileOutcome]) {
    let parser = XMLParser(data: Data(text.utf8))
    let counter = ElementCounter()
    parser.delegate = counter
    require(parser.parse(), "the JUnit report is not well-formed XML: \(String(describing: parser.parserError)) \(text.prefix(300))")
    require(counter.counts["testsuites"] == 1, "JUnit: one <testsuites>")
    require(counter.counts["testsuite", default: 0] == outcomes.count, "JUnit: one <testsuite> per file")
    let cases = outcomes.reduce(0) { n, o in
        n + o.checks.count + o.diagnostics.filter { $0.severity == .error && $0.code.phase != .expectation }.count
            + (o.hiddenErrors > 0 ? 1 : 0)
    }
    require(counter.counts["testcase", default: 0] == cases, "JUnit: \(counter.counts["testcase", default: 0]) test cases, expected \(cases)")
}

func checkTAP(_ text: String, _ outcomes: [FileOutcome]) {
    require(text.hasSuffix("\n"), "TAP does not end with a line break")
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()[...]
    require(lines.popFirst() == "TAP version 13", "TAP: no version line")
    // The plan comes last, so results can stream (TAP 13 allows either end).
    guard let plan = lines.popLast(), plan.hasPrefix("1.."), let count = Int(plan.dropFirst(3)) else {
        require(false, "TAP: no plan at the end")
        return
    }
    var n = 0
    while let line = lines.popFirst() {
        // Comment lines carry lint warnings.
        if line.hasPrefix("# ") { continue }
        n += 1
        let head = line.hasPrefix("ok ") ? "ok \(n) - " : "not ok \(n) - "
        require(line.hasPrefix(head), "TAP line \(n): \(line)")
        // The one directive kcs writes: an ignored block is a skip.
        var text = line.dropFirst(head.count)
        if text.hasSuffix(" # SKIP kcs ignore") { text = text.dropLast(" # SKIP kcs ignore".count) }
        let description = Array(text.unicodeScalars)
        for (i, u) in description.enumerated() where u == "#" {
            require(i > 0 && description[i - 1] == "\\", "TAP: a bare # (a directive) in \(line)")
        }
        if lines.first == "  ---" {
            _ = lines.popFirst()
            while let y = lines.popFirst(), y != "  ..." {
                guard let colon = y.firstIndex(of: ":"), y.hasPrefix("  ") else {
                    require(false, "TAP YAML line: \(y)")
                    return
                }
                let key = y[y.index(y.startIndex, offsetBy: 2)..<colon], value = y[y.index(after: colon)...].dropFirst()
                if key == "code" { continue }
                let parsed = try? JSONSerialization.jsonObject(with: Data(value.utf8), options: .fragmentsAllowed)
                require(parsed is String, "TAP YAML \(key) is not a quoted string: \(value)")
            }
        }
    }
    require(n == count, "TAP plan says \(count), \(n) test lines")
}
