/// The structured output formats of `kcs run` and `kcs check`. Each renders
/// a whole run as one string; the command line prints it.
public enum OutcomeFormat: String, Sendable, CaseIterable {
    case text, json, junit, tap

    /// Renders every file's outcome (not used for `text`, which streams).
    public func render(_ outcomes: [FileOutcome]) -> String {
        switch self {
        case .text: Self.textSummary(outcomes)
        case .json: Self.json(outcomes)
        case .junit: Self.junit(outcomes)
        case .tap: Self.tap(outcomes)
        }
    }

    /// `N passed, N failed`: the closing line of a text run.
    public static func textSummary(_ outcomes: [FileOutcome]) -> String {
        "\(outcomes.reduce(0) { $0 + $1.passed }) passed, \(outcomes.reduce(0) { $0 + $1.failed }) failed\n"
    }

    /// Errors that are not failed checks: syntax, runtime, unreadable input.
    static func otherErrors(_ o: FileOutcome) -> [Diagnostic] {
        o.diagnostics.filter { d in d.severity == .error && d.code.phase != .expectation }
    }

    // MARK: JSON

    static func json(_ outcomes: [FileOutcome]) -> String {
        var files: [String] = []
        for o in outcomes {
            let checks = o.checks.map { c -> String in
                let loc = c.file.location(of: c.range.start)
                var fields = ["\"kind\": \(q(c.kind.rawValue))", "\"line\": \(loc.line)", "\"column\": \(loc.column)",
                              "\"title\": \(q(c.title))", "\"passed\": \(c.passed)"]
                if let f = c.failure { fields.append("\"message\": \(q(f.message))") }
                return "{" + fields.joined(separator: ", ") + "}"
            }
            let diagnostics = o.diagnostics.map(diagnosticJSON)
            files.append("""
                {"path": \(q(o.path)), "exitCode": \(o.exitCode), "passed": \(o.passed), "failed": \(o.failed), \
                "checks": [\(checks.joined(separator: ", "))], "diagnostics": [\(diagnostics.joined(separator: ", "))], \
                "output": \(q(o.output))}
                """)
        }
        let exit = outcomes.reduce(Int32(0)) { FileOutcome.combine($0, $1.exitCode) }
        return """
            {"passed": \(outcomes.reduce(0) { $0 + $1.passed }), "failed": \(outcomes.reduce(0) { $0 + $1.failed }), \
            "exitCode": \(exit), "files": [\(files.joined(separator: ", "))]}

            """
    }

    static func diagnosticJSON(_ d: Diagnostic) -> String {
        var fields = ["\"code\": \(q(d.code.rawValue))", "\"severity\": \(q(d.severity.rawValue))",
                      "\"message\": \(q(d.message))"]
        if let file = d.file { fields.append("\"file\": \(q(file.name))") }
        if let file = d.file, let r = d.range {
            let s = file.location(of: r.start), e = file.location(of: r.end)
            fields += ["\"line\": \(s.line)", "\"column\": \(s.column)", "\"endLine\": \(e.line)", "\"endColumn\": \(e.column)"]
        }
        if let hint = d.hint { fields.append("\"hint\": \(q(hint))") }
        fields.append("\"notes\": [" + d.notes.map { q($0.message) }.joined(separator: ", ") + "]")
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// A JSON string literal.
    static func q(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    // MARK: JUnit

    static func junit(_ outcomes: [FileOutcome]) -> String {
        let renderer = DiagnosticRenderer()
        var suites: [String] = []
        var total = 0, failures = 0, errors = 0
        for o in outcomes {
            var cases: [String] = []
            for c in o.checks {
                let name = x(c.title)
                if let f = c.failure {
                    cases.append("    <testcase classname=\"\(x(o.path))\" name=\"\(name)\">\n"
                        + "      <failure message=\"\(x(f.message))\">\(x(renderer.render(f)))</failure>\n    </testcase>")
                } else {
                    cases.append("    <testcase classname=\"\(x(o.path))\" name=\"\(name)\"/>")
                }
            }
            let other = otherErrors(o)
            for d in other {
                cases.append("    <testcase classname=\"\(x(o.path))\" name=\"\(x(d.code.rawValue + " " + d.message))\">\n"
                    + "      <error message=\"\(x(d.message))\">\(x(renderer.render(d)))</error>\n    </testcase>")
            }
            total += o.checks.count + other.count
            failures += o.failed
            errors += other.count
            suites.append("  <testsuite name=\"\(x(o.path))\" tests=\"\(o.checks.count + other.count)\" "
                + "failures=\"\(o.failed)\" errors=\"\(other.count)\">\n" + cases.joined(separator: "\n")
                + (cases.isEmpty ? "" : "\n") + "  </testsuite>")
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"kcs\" tests=\"\(total)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
            + suites.joined(separator: "\n") + (suites.isEmpty ? "" : "\n") + "</testsuites>\n"
    }

    /// XML text and attribute escaping; control characters other than tab
    /// and line breaks are not allowed in XML 1.0 and become spaces.
    static func x(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\t", "\r": out.unicodeScalars.append(u)
            default:
                if u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF { out += " " } else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }

    // MARK: TAP

    static func tap(_ outcomes: [FileOutcome]) -> String {
        var lines: [String] = []
        var n = 0
        func yaml(_ d: Diagnostic) -> [String] {
            var y = ["  ---", "  message: \(q(d.message))", "  code: \(d.code.rawValue)"]
            if let loc = d.location, let file = d.file { y.append("  at: \(q("\(file.name):\(loc.line):\(loc.column)"))") }
            if let hint = d.hint { y.append("  hint: \(q(hint))") }
            y.append("  ...")
            return y
        }
        for o in outcomes {
            for c in o.checks {
                n += 1
                lines.append("\(c.passed ? "ok" : "not ok") \(n) - \(o.path):\(c.title.tapSafe)")
                if let f = c.failure { lines += yaml(f) }
            }
            for d in otherErrors(o) {
                n += 1
                lines.append("not ok \(n) - \(o.path): \(d.code.rawValue) \(d.message.tapSafe)")
                lines += yaml(d)
            }
        }
        return (["TAP version 13", "1..\(n)"] + lines).joined(separator: "\n") + "\n"
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

    private static func data(_ s: String) -> String { s.escaping(dataEscapes) }

    private static func prop(_ s: String) -> String {
        s.escaping(dataEscapes.merging([":": "%3A", ",": "%2C"]) { a, _ in a })
    }
}

extension String {
    /// A TAP description must not start a directive with '#'.
    var tapSafe: String { escaping(["#": "\\#", "\r": "\\r", "\n": "\\n"]) }

    /// Each scalar found in `table` replaced by its text. Scalar by scalar,
    /// not character by character: to a `String`, CR LF is one Character, so
    /// a character-level replace of "\n" would let the pair through.
    func escaping(_ table: [Unicode.Scalar: String]) -> String {
        var out = ""
        for u in unicodeScalars {
            if let replacement = table[u] { out += replacement } else { out.unicodeScalars.append(u) }
        }
        return out
    }
}
