import KeychainEngine

/// One check of a file: an expectation, an output block, or a block that
/// must fail. Structured output formats list them all.
public struct Check: Sendable {
    public enum Kind: String, Sendable {
        case expectation, output, fails
        /// A Markdown block tagged `kcs ignore`: listed, not run.
        case skipped
    }
    public var kind: Kind
    public var file: SourceFile
    public var range: SourceRange
    /// The failure, when it failed.
    public var failure: Diagnostic?

    public var passed: Bool { failure == nil && kind != .skipped }

    /// The statement or block as written (first line), for test names.
    public var title: String {
        let loc = file.location(of: range.start)
        let text = file.text(range).split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
        return "\(loc.line): \(text.trimmingTrailingSpace)"
    }
}

/// Everything `kcs run` or `kcs check` learned about one file.
public struct FileOutcome: Sendable {
    public var path: String
    public var checks: [Check] = []
    /// Errors that are not checks (syntax and runtime errors) and failed checks, in order.
    public var diagnostics: [Diagnostic] = []
    /// What `show`, `explain` and (with verbose) calls printed.
    public var output = ""
    /// 0, 1, 65 or 66, as for `kcs run`.
    public var exitCode: Int32 = 0
    /// `--update`: the rewritten document and how many output blocks changed.
    public var updatedContent: [UInt8]?
    public var updatedBlocks = 0

    /// Counts of checks that were not listed one by one (``BatchRunner``
    /// without `collectChecks`): a large run keeps counts, not a list.
    public var uncollectedPassed = 0
    public var uncollectedFailed = 0

    public var passed: Int { checks.filter(\.passed).count + uncollectedPassed }
    public var failed: Int { checks.filter { $0.failure != nil }.count + uncollectedFailed }
    /// Blocks listed but not run (`kcs ignore`).
    public var skipped: Int { checks.filter { $0.kind == .skipped }.count }
    /// Errors that are not failed checks: syntax, runtime, unreadable input
    /// (and lint warnings under `--strict`).
    public var errorDiagnostics: [Diagnostic] { diagnostics.filter(\.isErrorButNotACheck) }
    public var errors: Int { errorDiagnostics.count }
    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }

    public init(path: String) { self.path = path }

    /// The most telling of two exit codes: missing input, syntax, failure.
    public static func combine(_ a: Int32, _ b: Int32) -> Int32 {
        let rank: [Int32: Int] = [0: 0, 1: 1, 65: 2, 66: 3]
        return (rank[b] ?? 0) > (rank[a] ?? 0) ? b : a
    }
}

extension Diagnostic {
    /// An error that is not a failed check (a syntax or runtime error, an
    /// unreadable input, a lint warning under `--strict`): what the closing
    /// line counts as an error.
    public var isErrorButNotACheck: Bool { severity == .error && code.phase != .expectation }
}

/// The counts of a whole run, added up file by file as files finish, so a
/// streamed run keeps no list of outcomes. Every output format reports
/// these same numbers.
public struct RunTotals: Sendable, Equatable {
    public var files = 0
    public var passed = 0
    public var failed = 0
    /// Errors that are not failed checks (see ``FileOutcome/errors``).
    public var errors = 0
    public var skipped = 0
    public var warnings = 0
    public var exitCode: Int32 = 0

    public init() {}

    public init(_ outcomes: [FileOutcome]) {
        for o in outcomes { add(o) }
    }

    public mutating func add(_ o: FileOutcome) {
        files += 1
        passed += o.passed
        failed += o.failed
        errors += o.errors
        skipped += o.skipped
        warnings += o.warnings.count
        exitCode = FileOutcome.combine(exitCode, o.exitCode)
    }

    /// The closing line of a text run: `N passed, N failed`, then
    /// `, N error(s)` and `, N skipped` when there are any. Scripts may
    /// match it with `^(\d+) passed, (\d+) failed(, (\d+) errors?)?(, (\d+) skipped)?$`.
    public var summaryLine: String {
        var line = "\(passed) passed, \(failed) failed"
        if errors > 0 { line += ", \(errors) error\(errors == 1 ? "" : "s")" }
        if skipped > 0 { line += ", \(skipped) skipped" }
        return line + "\n"
    }
}

/// The one way a call's result is printed: in the REPL, in `kcs check`
/// output blocks and (after `FILE:LINE: `) by `kcs run --verbose`:
/// `AppOne find generic-password → errSecSuccess (0), 1 item`.
public enum CallLine {
    public static func text(_ c: CallRecord) -> String {
        var line = "\(c.app) \(c.operation.rawValue) \(c.itemClass?.rawValue ?? "(no class)") → \(c.status.description)"
        if c.status == .success && c.operation != .add {
            line += ", \(c.count) item\(c.count == 1 ? "" : "s")"
        }
        return line
    }
}

/// Runs scripts and Markdown documents into outcomes. Library code: it
/// reads files through the loader and never prints.
public struct BatchRunner: Sendable {
    public var loader: any SourceLoader
    /// Put every call's line into the output (`--verbose`).
    public var verbose: Bool

    /// Lint warnings (semantics.md section 7): on by default, off, or errors.
    public var lint: LintMode
    /// List every check (for JSON, JUnit and TAP); otherwise only count
    /// them, so a run of a million statements holds no list of them.
    public var collectChecks: Bool

    public init(loader: any SourceLoader = FileSystemLoader(), verbose: Bool = false, lint: LintMode = .warn,
                collectChecks: Bool = true) {
        self.loader = loader
        self.verbose = verbose
        self.lint = lint
        self.collectChecks = collectChecks
    }

    /// Runs one `.kcs` script in a fresh world.
    public func run(_ file: SourceFile) -> FileOutcome {
        var outcome = FileOutcome(path: file.name)
        var session = Session()
        session.lints = lint != .off
        let options = RunOptions(reportCalls: verbose, reportPasses: collectChecks)
        let collect = collectChecks
        let report = session.run(file: file, loader: loader, options: options) { event in
            Self.record(event, into: &outcome, verbose: verbose, collectChecks: collect)
        }
        if !collectChecks {
            outcome.uncollectedPassed = report.passed
            outcome.uncollectedFailed = report.failed
        }
        outcome.exitCode = report.exitCode
        applyStrictness(&outcome)
        return outcome
    }

    /// With ``LintMode/strict``, lint warnings become errors and fail the file.
    func applyStrictness(_ outcome: inout FileOutcome) {
        guard lint == .strict else { return }
        var any = false
        for i in outcome.diagnostics.indices where outcome.diagnostics[i].code.isLint {
            outcome.diagnostics[i].severity = .error
            any = true
        }
        if any { outcome.exitCode = FileOutcome.combine(outcome.exitCode, 1) }
    }

    /// `kcs lint`: runs a script with the lint checks and keeps only what
    /// they found, and errors that stopped the script from being checked.
    /// Exit 0 when clean, 1 with warnings, 65/66 as for `run`.
    public func lint(_ file: SourceFile) -> FileOutcome {
        var outcome = FileOutcome(path: file.name)
        var session = Session()
        session.lints = true
        let report = session.run(file: file, loader: loader, options: RunOptions()) { event in
            guard case .diagnostic(let d) = event, d.code.isLint || d.code.phase == .syntax || d.code.phase == .input else { return }
            outcome.diagnostics.append(d)
        }
        let warnings = outcome.diagnostics.filter(\.code.isLint).count
        outcome.output = "\(file.name): \(warnings) warning\(warnings == 1 ? "" : "s")\n"
        outcome.exitCode = report.fileNotFound || report.hasSyntaxErrors ? report.exitCode : (warnings > 0 ? 1 : 0)
        return outcome
    }

    /// Reads a script at `path` and lints it; a missing file is exit 66.
    public func lint(path: String) -> FileOutcome {
        do {
            return lint(try loader.read(loader.resolve(path, relativeTo: nil)))
        } catch {
            var outcome = FileOutcome(path: path)
            outcome.diagnostics.append(Diagnostic(error.code, error.message(for: path)))
            outcome.exitCode = 66
            return outcome
        }
    }

    /// Reads and runs a script at `path`; a missing file is exit 66.
    public func run(path: String) -> FileOutcome {
        do {
            return run(try loader.read(loader.resolve(path, relativeTo: nil)))
        } catch {
            var outcome = FileOutcome(path: path)
            outcome.diagnostics.append(Diagnostic(error.code, error.message(for: path),
                                                  hint: "check the path; kcs takes .kcs and .md files, or - for standard input"))
            outcome.exitCode = 66
            return outcome
        }
    }

    static func record(_ event: RunEvent, into outcome: inout FileOutcome, verbose: Bool, collectChecks: Bool = true) {
        switch event {
        case .call(let c):
            if verbose {
                let loc = c.file.location(of: c.range.start)
                outcome.output += "\(c.file.name):\(loc.line): \(CallLine.text(c))\n"
            }
        case .output(let text):
            outcome.output += text
        case .expectationPassed(let file, let range):
            outcome.checks.append(Check(kind: .expectation, file: file, range: range))
        case .diagnostic(let d):
            outcome.diagnostics.append(d)
            if collectChecks, d.code == .expectationFailed, let file = d.file, let range = d.range {
                outcome.checks.append(Check(kind: .expectation, file: file, range: range, failure: d))
            }
        }
    }

    /// Checks a Markdown document: its `kcs` blocks run in order in one world
    /// (`kcs fresh` starts a new one, `kcs ignore` is skipped, `kcs fails`
    /// must fail), and an `output` block right after a `kcs` block must hold
    /// exactly what it printed. With `update`, output blocks are rewritten.
    public func check(markdown file: SourceFile, update: Bool = false) -> FileOutcome {
        var outcome = FileOutcome(path: file.name)
        let bytes = file.bytes
        let blocks = MarkdownBlocks.scan(bytes)
        var session = Session()
        session.lints = lint != .off
        var replacements: [(SourceRange, String)] = []
        for (index, block) in blocks.enumerated() where block.language == "kcs" {
            if block.modifiers.contains("ignore") {
                outcome.checks.append(Check(kind: .skipped, file: file, range: block.fence))
                continue
            }
            if block.modifiers.contains("fresh") {
                session = Session()
                session.lints = lint != .off
            }
            let masked = SourceFile(name: file.name, bytes: MarkdownBlocks.masked(bytes, keeping: block.content))
            var printed = ""
            var blockOutcome = FileOutcome(path: file.name)
            let options = RunOptions(reportCalls: true, reportPasses: true, requireStatements: false)
            let report = session.run(file: masked, loader: loader, options: options) { event in
                if case .call(let c) = event { printed += CallLine.text(c) + "\n" }
                if case .output(let text) = event { printed += text }
                Self.record(event, into: &blockOutcome, verbose: false)
            }
            if block.modifiers.contains("fails") {
                let failedAsDocumented = report.exitCode != 0
                let failure = failedAsDocumented ? nil : Diagnostic(
                    .blockDidNotFail, "this block is marked 'fails' but ran without a failure", file: file,
                    range: block.fence, hint: "remove 'fails' from the fence, or make the example show the mistake")
                outcome.checks.append(Check(kind: .fails, file: file, range: block.fence, failure: failure))
                if let failure { outcome.diagnostics.append(failure) }
                outcome.exitCode = FileOutcome.combine(outcome.exitCode, failedAsDocumented ? 0 : 1)
            } else {
                outcome.checks += blockOutcome.checks
                outcome.diagnostics += blockOutcome.diagnostics
                outcome.exitCode = FileOutcome.combine(outcome.exitCode, report.exitCode)
            }
            // What blocks print belongs in their output blocks, not on the terminal.
            // An `output` block directly after it shows what it printed.
            guard index + 1 < blocks.count, blocks[index + 1].language == "output",
                  MarkdownBlocks.onlyBlankLines(bytes, from: Self.endOfClosingFence(bytes, block), to: blocks[index + 1].fence.start)
            else { continue }
            let out = blocks[index + 1]
            // Compare as CommonMark reads the block: without the fence's
            // indentation and with plain line breaks.
            let indent = MarkdownBlocks.indentation(bytes, out.fence)
            let expected = MarkdownBlocks.plainContent(file.text(out.content), indent: indent)
            if expected == printed {
                outcome.checks.append(Check(kind: .output, file: file, range: out.fence))
            } else if update {
                // Written back in the file's own style: its indentation, its line breaks.
                let crlf = out.fence.end > out.fence.start && bytes[out.fence.end - 1] == 0x0D
                replacements.append((out.content, MarkdownBlocks.styled(printed, indent: indent, crlf: crlf)))
                outcome.checks.append(Check(kind: .output, file: file, range: out.fence))
            } else {
                let d = Diagnostic(.outputMismatch, "the output block differs from what the kcs block printed",
                                   file: file, range: out.fence,
                                   hint: "run kcs check --update to rewrite output blocks",
                                   notes: LineDiff.lines(expected: expected, actual: printed).map { DiagnosticNote($0) })
                outcome.checks.append(Check(kind: .output, file: file, range: out.fence, failure: d))
                outcome.diagnostics.append(d)
                outcome.exitCode = FileOutcome.combine(outcome.exitCode, 1)
            }
        }
        if !replacements.isEmpty {
            var newBytes = bytes
            for (range, text) in replacements.sorted(by: { $0.0.start > $1.0.start }) {
                newBytes.replaceSubrange(range.start..<range.end, with: Array(text.utf8))
            }
            outcome.updatedContent = newBytes
            outcome.updatedBlocks = replacements.count
        }
        applyStrictness(&outcome)
        return outcome
    }

    /// The offset just past a block's closing fence line.
    static func endOfClosingFence(_ bytes: [UInt8], _ block: FencedBlock) -> Int {
        guard block.closed else { return bytes.count }
        var i = block.content.end
        while i < bytes.count && bytes[i] != 0x0A { i += 1 }
        return min(i + 1, bytes.count)
    }
}

/// A line diff of expected against actual text, for output-block mismatches.
enum LineDiff {
    static func lines(expected: String, actual: String) -> [String] {
        var a = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var b = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Text ending in a line break leaves an empty last element: not a line.
        if a.last == "" { a.removeLast() }
        if b.last == "" { b.removeLast() }
        // Longest common subsequence table; documents are small.
        var lcs = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        var out = ["--- expected (output block)", "+++ actual"]
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                out.append("  " + a[i]); i += 1; j += 1
            } else if i < a.count, j == b.count || lcs[i + 1][j] >= lcs[i][j + 1] {
                out.append("- " + a[i]); i += 1
            } else {
                out.append("+ " + b[j]); j += 1
            }
        }
        return out
    }
}
