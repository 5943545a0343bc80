/// The structured output formats of `kcs run` and `kcs check`. Each renders
/// a whole run as one string; the command line prints it.
public enum OutcomeFormat: String, Sendable, CaseIterable {
    case text, json, junit, tap

    /// The version of the JSON report's shape. It goes up when a field
    /// changes meaning or disappears; new fields may appear without a bump.
    public static let jsonVersion = 2

    /// Renders every file's outcome as one document.
    public func render(_ outcomes: [FileOutcome]) -> String {
        switch self {
        case .text: Self.textSummary(outcomes)
        case .json: Self.json(outcomes)
        case .junit: Self.junit(outcomes)
        case .tap: Self.tapHeader + outcomes.reduce(into: (text: "", n: 0)) { acc, o in
                let (text, n) = Self.tap(o, numberedFrom: acc.n)
                acc.text += text
                acc.n = n
            }.text + Self.tapPlan(RunTotals(outcomes))
        }
    }

    /// The closing line of a text run (see ``RunTotals/summaryLine``).
    public static func textSummary(_ outcomes: [FileOutcome]) -> String {
        RunTotals(outcomes).summaryLine
    }

    /// Errors that are not failed checks: syntax, runtime, unreadable input.
    static func otherErrors(_ o: FileOutcome) -> [Diagnostic] { o.errorDiagnostics }

    // MARK: JSON

    static func json(_ outcomes: [FileOutcome]) -> String {
        var files: [String] = []
        for o in outcomes {
            let checks = o.checks.map { c -> String in
                let loc = c.file.location(of: c.range.start)
                var fields = ["\"kind\": \(q(c.kind.rawValue))", "\"line\": \(loc.line)", "\"column\": \(loc.column)",
                              "\"title\": \(q(shown(c.title)))", "\"passed\": \(c.passed)", "\"skipped\": \(c.kind == .skipped)"]
                if let f = c.failure { fields.append("\"message\": \(q(shown(f.message)))") }
                return "{" + fields.joined(separator: ", ") + "}"
            }
            let diagnostics = o.diagnostics.map(diagnosticJSON)
            files.append("""
                {"path": \(q(shown(o.path))), "verdict": \(q(o.verdict.name)), "passed": \(o.passed), "failed": \(o.failed), \
                "errors": \(o.errors), "skipped": \(o.skipped), "warnings": \(o.warnings.count), \
                "checks": [\(checks.joined(separator: ", "))], "diagnostics": [\(diagnostics.joined(separator: ", "))], \
                "output": \(q(o.output))}
                """)
        }
        let t = RunTotals(outcomes)
        return """
            {"version": \(jsonVersion), "passed": \(t.passed), "failed": \(t.failed), "errors": \(t.errors), \
            "skipped": \(t.skipped), "warnings": \(t.warnings), "verdict": \(q(t.verdict.name)), \
            "summary": \(q(String(t.summaryLine.dropLast()))), "files": [\(files.joined(separator: ", "))]}

            """
    }

    static func diagnosticJSON(_ d: Diagnostic) -> String {
        var fields = ["\"code\": \(q(d.code.rawValue))", "\"severity\": \(q(d.severity.rawValue))",
                      "\"message\": \(q(shown(d.message)))"]
        if let file = d.file { fields.append("\"file\": \(q(shown(file.name)))") }
        if let file = d.file, let r = d.range {
            let s = file.location(of: r.start), e = file.location(of: r.end)
            fields += ["\"line\": \(s.line)", "\"column\": \(s.column)", "\"endLine\": \(e.line)", "\"endColumn\": \(e.column)"]
        }
        if let hint = d.hint { fields.append("\"hint\": \(q(shown(hint)))") }
        fields.append("\"notes\": [" + d.notes.map { q(shown($0.message)) }.joined(separator: ", ") + "]")
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// A message, hint, note, title or file name as the text renderer shows it
    /// (``TerminalText/escaped(_:keepingLayout:)``): JSON's and YAML's own
    /// escapes protect only a reader of the raw report, and a consumer that
    /// prints the decoded value (`jq -r .message`, an annotation bot) wrote
    /// a name's ESC sequences to a terminal; the same diagnostic now decodes
    /// to the same text in every format (adversarial 21, F1).
    static func shown(_ s: String) -> String { TerminalText.escaped(s) }

    /// A JSON string literal. Besides what JSON requires (C0), every scalar
    /// a terminal must not see raw (``TerminalText/needsEscape(_:)``: C1
    /// controls, bidi overrides, invisible ones) is escaped: the report is
    /// printed where the user reads it.
    static func q(_ s: String) -> String { quoted(s, astral: .utf16) { TerminalText.needsEscape($0) } }

    /// A YAML double-quoted scalar (TAP's diagnostic blocks). YAML allows
    /// no DEL, no C1 control but NEL and no U+FFFE in a document, and the
    /// stream is read on terminals: every scalar a terminal must not see
    /// raw (``TerminalText/needsEscape(_:)``), and those, is written with
    /// a YAML escape (found by adversarial testing: PyYAML refused U+009B).
    static func yq(_ s: String) -> String {
        quoted(s, astral: .long) { TerminalText.needsEscape($0) || [0xFFFE, 0xFFFF, 0x2028, 0x2029].contains($0.value) }
    }

    /// How a scalar beyond U+FFFF is escaped: JSON has only `\uXXXX`, so a
    /// surrogate pair; YAML has `\UXXXXXXXX`.
    private enum AstralEscape { case utf16, long }

    /// `s` between double quotes, with the escapes JSON and YAML share and
    /// `\u` (or the astral form) for every scalar `escapes` picks.
    private static func quoted(_ s: String, astral: AstralEscape, escaping escapes: (Unicode.Scalar) -> Bool) -> String {
        func u4(_ v: UInt32) -> String {
            let hex = String(v, radix: 16, uppercase: true)
            return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                guard escapes(u) else { out.unicodeScalars.append(u); continue }
                if u.value <= 0xFFFF {
                    out += u4(u.value)
                } else if astral == .utf16 {
                    let v = u.value - 0x10000
                    out += u4(0xD800 + (v >> 10)) + u4(0xDC00 + (v & 0x3FF))
                } else {
                    let hex = String(u.value, radix: 16, uppercase: true)
                    out += "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
                }
            }
        }
        return out + "\""
    }

    // MARK: JUnit

    /// JUnit XML: a test suite per file, a test case per check, an
    /// `<error>` case per error that is not a check, `<skipped/>` for
    /// ignored blocks, and lint warnings in the suite's `<system-err>`.
    static func junit(_ outcomes: [FileOutcome]) -> String {
        let renderer = DiagnosticRenderer()
        var suites: [String] = []
        for o in outcomes {
            var cases: [String] = []
            for c in o.checks {
                let head = "    <testcase classname=\"\(x(o.path, attribute: true))\" name=\"\(x(c.title, attribute: true))\""
                if let f = c.failure {
                    cases.append(head + ">\n      <failure message=\"\(x(f.message, attribute: true))\">\(x(renderer.render(f)))</failure>\n    </testcase>")
                } else if c.kind == .skipped {
                    cases.append(head + ">\n      <skipped message=\"kcs ignore\"/>\n    </testcase>")
                } else {
                    cases.append(head + "/>")
                }
            }
            for d in o.errorDiagnostics {
                cases.append("    <testcase classname=\"\(x(o.path, attribute: true))\" name=\"\(x(d.code.rawValue + " " + d.message, attribute: true))\">\n"
                    + "      <error message=\"\(x(d.message, attribute: true))\">\(x(renderer.render(d)))</error>\n    </testcase>")
            }
            if o.hiddenErrors > 0 {
                let more = Self.hiddenErrorsTitle(o.hiddenErrors)
                cases.append("    <testcase classname=\"\(x(o.path, attribute: true))\" name=\"\(x(more, attribute: true))\">\n"
                    + "      <error message=\"\(x(more, attribute: true))\"/>\n    </testcase>")
            }
            if o.uncollectedPassed > 0 {
                cases.append("    <testcase classname=\"\(x(o.path, attribute: true))\" name=\"\(x(Self.unlistedTitle(o.uncollectedPassed, failed: false), attribute: true))\"/>")
            }
            if o.uncollectedFailed > 0 {
                let more = Self.unlistedTitle(o.uncollectedFailed, failed: true)
                cases.append("    <testcase classname=\"\(x(o.path, attribute: true))\" name=\"\(x(more, attribute: true))\">\n"
                    + "      <failure message=\"\(x(more, attribute: true))\"/>\n    </testcase>")
            }
            let warnings = o.warnings
            if !warnings.isEmpty {
                cases.append("    <system-err>\(x(warnings.map { renderer.render($0) }.joined()))</system-err>")
            }
            suites.append("  <testsuite name=\"\(x(o.path, attribute: true))\" tests=\"\(o.cases)\" failures=\"\(o.failedCases)\" "
                + "errors=\"\(o.errorCases)\" skipped=\"\(o.skipped)\">\n" + cases.joined(separator: "\n")
                + (cases.isEmpty ? "" : "\n") + "  </testsuite>")
        }
        let t = RunTotals(outcomes)
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"kcs\" tests=\"\(t.cases)\" failures=\"\(t.failedCases)\" "
            + "errors=\"\(t.errorCases)\" skipped=\"\(t.skipped)\">\n"
            + suites.joined(separator: "\n") + (suites.isEmpty ? "" : "\n") + "</testsuites>\n"
    }

    /// XML text and attribute escaping; control characters other than tab
    /// and line breaks are not allowed in XML 1.0, and they and every other
    /// scalar a terminal must not see raw are written `\u{1B}`, as kcs
    /// writes them everywhere (a space lost what they were).
    /// In an attribute (`attribute`), a line break, a tab or a carriage
    /// return from a script's value or a file name is written `\u{…}` as
    /// every other control: raw, a CR overwrote the log line it was on
    /// ("FAKE: all tests passed") and an LF split the attribute (found by
    /// adversarial testing). Text keeps the renderer's line breaks and tabs.
    static func x(_ s: String, attribute: Bool = false) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n" where !attribute, "\t" where !attribute: out.unicodeScalars.append(u)
            default:
                if TerminalText.needsEscape(u) || u.value == 0xFFFE || u.value == 0xFFFF {
                    out += TerminalText.escape(u)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out
    }

    // MARK: TAP

    /// The first line of a TAP stream.
    public static let tapHeader = "TAP version 13\n"

    /// The plan, which TAP allows at the end: a stream can then print each
    /// file's lines as it finishes.
    public static func tapPlan(_ totals: RunTotals) -> String {
        "1..\(totals.cases)\n"
    }

    /// The one test case JUnit and TAP give a file's hidden errors.
    static func hiddenErrorsTitle(_ count: Int) -> String {
        "\(count) more error\(count == 1 ? "" : "s") not shown"
    }

    /// The one test case JUnit and TAP give a file's checks counted but
    /// not listed (failed checks past the diagnostics a run keeps).
    static func unlistedTitle(_ count: Int, failed: Bool) -> String {
        "\(count) more \(failed ? "failed" : "passed") check\(count == 1 ? "" : "s") not shown"
            + (failed ? " (a run lists the first \(RunReport.keptDiagnostics) diagnostics)" : "")
    }

    /// One file's TAP lines, numbered after `n`: a test line per check and
    /// per error, `# SKIP` for ignored blocks, and lint warnings as comment
    /// lines. Returns the text and the last number used.
    public static func tap(_ o: FileOutcome, numberedFrom n: Int) -> (String, Int) {
        var lines: [String] = []
        var n = n
        func yaml(_ d: Diagnostic) -> [String] {
            var y = ["  ---", "  message: \(yq(shown(d.message)))", "  code: \(d.code.rawValue)"]
            if let loc = d.location, let file = d.file { y.append("  at: \(yq("\(shown(file.name)):\(loc.line):\(loc.column)"))") }
            if let hint = d.hint { y.append("  hint: \(yq(shown(hint)))") }
            y.append("  ...")
            return y
        }
        for c in o.checks {
            n += 1
            if c.kind == .skipped {
                lines.append("ok \(n) - \(o.path.tapSafe):\(c.title.tapSafe) # SKIP kcs ignore")
                continue
            }
            lines.append("\(c.passed ? "ok" : "not ok") \(n) - \(o.path.tapSafe):\(c.title.tapSafe)")
            if let f = c.failure { lines += yaml(f) }
        }
        for d in o.errorDiagnostics {
            n += 1
            lines.append("not ok \(n) - \(o.path.tapSafe): \(d.code.rawValue) \(d.message.tapSafe)")
            lines += yaml(d)
        }
        if o.hiddenErrors > 0 {
            n += 1
            lines.append("not ok \(n) - \(o.path.tapSafe): \(Self.hiddenErrorsTitle(o.hiddenErrors))")
        }
        // Counted checks have no lines of their own: one line counts them.
        if o.uncollectedPassed > 0 {
            n += 1
            lines.append("ok \(n) - \(o.path.tapSafe): \(Self.unlistedTitle(o.uncollectedPassed, failed: false))")
        }
        if o.uncollectedFailed > 0 {
            n += 1
            lines.append("not ok \(n) - \(o.path.tapSafe): \(Self.unlistedTitle(o.uncollectedFailed, failed: true))")
        }
        for w in o.warnings {
            let at = w.location.map { ":\($0.line):\($0.column)" } ?? ""
            lines.append("# warning: \((w.file?.name ?? o.path).tapSafe)\(at): \(w.message.tapSafe) [\(w.code.rawValue)]"
                + (w.hint.map { " (hint: \($0.tapSafe))" } ?? ""))
        }
        return (lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n", n)
    }

    // MARK: GitHub Actions

    /// `::error file=…,line=…,col=…::message` for each error, as GitHub
    /// Actions turns into annotations on the pull request.
    public static func githubAnnotations(_ outcome: FileOutcome) -> String {
        var out = ""
        for d in outcome.diagnostics where d.severity != .note {
            var props = ["file=\(prop(d.file?.name ?? outcome.path))"]
            if let loc = d.location { props += ["line=\(loc.line)", "col=\(loc.column)"] }
            props.append("title=\(prop("kcs " + d.code.rawValue))")
            out += "::\(d.severity == .error ? "error" : "warning") \(props.joined(separator: ","))::\(data(d.message + (d.hint.map { " (hint: \($0))" } ?? "")))\n"
        }
        return out
    }

    private static let dataEscapes: [Unicode.Scalar: String] = ["%": "%25", "\r": "%0D", "\n": "%0A"]

    /// A message as the workflow-command format wants it: `%`, CR and LF
    /// percent-encoded; other control bytes (NUL, ESC, C1, bidi) written
    /// as `\u{…}`, since the runner's log passes them raw to whoever reads it.
    private static func data(_ s: String) -> String { s.escaping(dataEscapes, controls: true) }

    private static func prop(_ s: String) -> String {
        s.escaping(dataEscapes.merging([":": "%3A", ",": "%2C"]) { a, _ in a }, controls: true)
    }
}

extension String {
    /// A TAP description must not start a directive with '#', nor hold a
    /// line break (a forged `ok` line, written `\r`/`\n`) or another
    /// control byte (ESC erasing the line in a CI log, written `\u{…}`).
    var tapSafe: String { escaping(["#": "\\#", "\r": "\\r", "\n": "\\n"], controls: true) }

    /// Each scalar found in `table` replaced by its text. Scalar by scalar,
    /// not character by character: to a `String`, CR LF is one Character, so
    /// a character-level replace of "\n" would let the pair through.
    /// With `controls`, the other scalars ``TerminalText`` escapes are
    /// written as `\u{…}` too.
    func escaping(_ table: [Unicode.Scalar: String], controls: Bool = false) -> String {
        var out = ""
        for u in unicodeScalars {
            if let replacement = table[u] {
                out += replacement
            } else if controls, TerminalText.needsEscape(u) {
                out += TerminalText.escape(u)
            } else {
                out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
