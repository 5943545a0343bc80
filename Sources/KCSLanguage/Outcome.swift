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
    /// Diagnostics past ``RunReport/keptDiagnostics``: counted, not kept.
    public var droppedDiagnostics = 0
    /// What `show`, `explain` and (with verbose) calls printed.
    public var output = ""
    /// How the file's run ended, as for `kcs run`.
    public var verdict: Verdict = .passed
    /// `--update`: the rewritten document and how many output blocks changed.
    public var updatedContent: [UInt8]?
    public var updatedBlocks = 0
    /// With ``updatedContent``: the document as it was read, so the writer
    /// can refuse to overwrite a change made meanwhile.
    public var originalContent: [UInt8]?

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
    /// Errors in all: those listed and those counted, not listed (past the
    /// list's cap, or past ``RunReport/keptDiagnostics``). The closing line
    /// said "200 errors" of a run whose note counted 11,800 more.
    public var errors: Int { errorDiagnostics.count + hiddenErrors }
    /// Errors that are not failed checks, counted but not in ``diagnostics``.
    public var hiddenErrors = 0
    /// The test cases errors make in JUnit and TAP: one per listed error,
    /// and one that counts the hidden ones (a line per hidden error would
    /// make a report as long as the flood it stopped showing).
    public var errorCases: Int { errorDiagnostics.count + (hiddenErrors > 0 ? 1 : 0) }
    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
    /// The test cases checks make in JUnit and TAP: one per listed check,
    /// and one that counts those not listed (``uncollectedPassed``,
    /// ``uncollectedFailed``: a run's failed checks past
    /// ``RunReport/keptDiagnostics`` are counted, not listed).
    public var passedCases: Int { passed - uncollectedPassed + (uncollectedPassed > 0 ? 1 : 0) }
    public var failedCases: Int { failed - uncollectedFailed + (uncollectedFailed > 0 ? 1 : 0) }
    /// Every test case of the file in JUnit and TAP.
    public var cases: Int { passedCases + failedCases + errorCases + skipped }

    public init(path: String) { self.path = path }

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
    /// Their test cases in JUnit and TAP (``FileOutcome/errorCases``).
    public var errorCases = 0
    /// The test cases of the checks and of everything (``FileOutcome/cases``).
    public var failedCases = 0
    public var cases = 0
    public var skipped = 0
    public var warnings = 0
    public var verdict: Verdict = .passed

    public init() {}

    public init(_ outcomes: [FileOutcome]) {
        for o in outcomes { add(o) }
    }

    public mutating func add(_ o: FileOutcome) {
        files += 1
        passed += o.passed
        failed += o.failed
        errors += o.errors
        errorCases += o.errorCases
        failedCases += o.failedCases
        cases += o.cases
        skipped += o.skipped
        warnings += o.warnings.count
        verdict = max(verdict, o.verdict)
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

    /// Bounds for each file (time and output cover a whole Markdown document).
    public var limits: Limits
    /// Diagnostics kept per file; past it they are counted in one note.
    public var maxDiagnostics: Int
    /// The diagnostics of a file that are shown by default (`kcs run`,
    /// `kcs check`, the REPL's inputs and `:load`).
    public static let shownDiagnostics = 200
    /// Leave each finished run's world as it is instead of taking it apart,
    /// for a process that exits once its one file is done (`kcs run FILE`):
    /// the system takes the memory back at exit, and freeing the items one
    /// by one cost 0.6 % of a 20,000-call run (docs/performance.md). Never
    /// for a process that goes on: each run's world would stay in memory.
    public var abandonsWorld = false

    public init(loader: any SourceLoader = FileSystemLoader(), verbose: Bool = false, lint: LintMode = .warn,
                collectChecks: Bool = true, limits: Limits = Limits(), maxDiagnostics: Int = BatchRunner.shownDiagnostics) {
        self.loader = loader
        self.verbose = verbose
        self.lint = lint
        self.collectChecks = collectChecks
        self.limits = limits
        self.maxDiagnostics = maxDiagnostics
    }

    /// Keeps the first ``maxDiagnostics`` diagnostics of a file and says how
    /// many more there were, so a file of a million errors prints a screenful.
    /// Under an output limit (``Limits/outputBytes``) diagnostics count as
    /// output, rendered as text: only those that fit beside what the file
    /// printed are kept, so the limit bounds everything a file shows. The
    /// error that stopped the run at a limit is kept whatever its size.
    func capDiagnostics(_ outcome: inout FileOutcome) {
        var keep = min(maxDiagnostics, outcome.diagnostics.count)
        var outputLimit: Int?
        if let limit = limits.outputBytes {
            var used = outcome.output.utf8.count
            let renderer = DiagnosticRenderer()
            for (i, d) in outcome.diagnostics.prefix(keep).enumerated() {
                used += renderer.render(d).utf8.count
                if used > limit {
                    keep = i
                    outputLimit = limit
                    break
                }
            }
        }
        guard outcome.diagnostics.count > keep || outcome.droppedDiagnostics > 0 else { return }
        let stop = outcome.diagnostics[keep...].first { $0.code == .runLimit }
        let rest = outcome.diagnostics.count - keep + outcome.droppedDiagnostics - (stop == nil ? 0 : 1)
        outcome.droppedDiagnostics = 0
        outcome.hiddenErrors += outcome.diagnostics[keep...].count { $0.isErrorButNotACheck && $0.code != .runLimit }
        outcome.diagnostics.removeSubrange(keep...)
        if let stop { outcome.diagnostics.append(stop) }
        guard rest > 0 else { return }
        outcome.diagnostics.append(Self.moreDiagnostics(rest, in: outcome.path, outputLimit: outputLimit))
    }

    /// The note that ends a list of diagnostics cut short: at the list's
    /// cap, or at the output limit (`kcs lint --project` says it too).
    public static func moreDiagnostics(_ rest: Int, in path: String, outputLimit: Int?) -> Diagnostic {
        let why = outputLimit.map { ": the output limit of \($0) bytes was reached" } ?? ""
        return Diagnostic(.moreDiagnostics, "\(rest) more diagnostic\(rest == 1 ? "" : "s") in \(path) not shown\(why)",
                          severity: .note,
                          hint: outputLimit == nil ? "fix the first ones and run again" : "the host running this script sets the limits")
    }

    /// Runs one `.kcs` script in a fresh world.
    public func run(_ file: SourceFile) -> FileOutcome {
        var outcome = FileOutcome(path: file.name)
        var session = Session()
        session.lints = lint != .off
        let options = RunOptions(reportCalls: verbose, reportPasses: collectChecks, limits: limits)
        let collect = collectChecks
        let report = session.run(file: file, loader: loader, options: options) { event in
            Self.record(event, into: &outcome, verbose: verbose, collectChecks: collect)
        }
        if !collectChecks {
            outcome.uncollectedPassed = report.passed
            outcome.uncollectedFailed = report.failed
        } else {
            // The observer saw the first diagnostics only: failed checks
            // past them are counted here, not lost. A run of 100,000
            // failed checks said "10000 failed" in JSON, JUnit and TAP.
            outcome.uncollectedPassed = max(0, report.passed - outcome.checks.count(where: \.passed))
            outcome.uncollectedFailed = max(0, report.failed - outcome.checks.count { $0.failure != nil })
        }
        // The observer saw the first diagnostics only; the report counted all.
        outcome.droppedDiagnostics = max(outcome.droppedDiagnostics, report.droppedDiagnostics)
        outcome.hiddenErrors = max(outcome.hiddenErrors, report.droppedErrors)
        outcome.verdict = report.verdict
        applyStrictness(&outcome)
        capDiagnostics(&outcome)
        if abandonsWorld { _ = Unmanaged.passRetained(Abandoned(session)) }
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
        if any { outcome.verdict = max(outcome.verdict, .failed) }
    }

    /// `kcs lint`: runs a script with the lint checks and keeps only what
    /// they found, what the Xcode projects of its `app … project=` lines
    /// say (KCS6xx, warnings and errors as `kcs run` shows them: an
    /// unreadable xcconfig or an undefined setting went unsaid by the lint),
    /// and errors that stopped the script from being checked.
    /// Exit 0 when clean, 1 with warnings, 65/66 as for `run`.
    public func lint(_ file: SourceFile) -> FileOutcome {
        var outcome = FileOutcome(path: file.name)
        var session = Session()
        session.lints = true
        let report = session.run(file: file, loader: loader, options: RunOptions(limits: limits)) { event in
            // A declaration that failed (an `app … project=` whose target the
            // project lacks, KCS304) left the script unchecked from there: said.
            guard case .diagnostic(let d) = event, d.code.isLint || d.code.isProject || d.code.phase == .syntax
                    || d.code.phase == .input || d.code == .runLimit || d.code == .invalidDeclaration else { return }
            outcome.diagnostics.append(d)
        }
        let warnings = outcome.diagnostics.count { $0.severity == .warning && ($0.code.isLint || $0.code.isProject) }
        // A file with errors was not all checked: "0 warnings" read as a
        // clean bill (a Package.swift read as a script; real-project trial 14, D6).
        let errors = outcome.diagnostics.count { $0.severity == .error }
        outcome.output = "\(TerminalText.lineStart(file.name)): "
            + (errors == 0 ? "" : "\(errors) error\(errors == 1 ? "" : "s")" + (warnings == 0 ? "" : ", "))
            + (errors > 0 && warnings == 0 ? "" : "\(warnings) warning\(warnings == 1 ? "" : "s")") + "\n"
        let stopped = outcome.diagnostics.contains { $0.code == .runLimit }
        outcome.verdict = report.fileNotFound || report.hasSyntaxErrors ? report.verdict : (warnings > 0 || errors > 0 || stopped ? .failed : .passed)
        capDiagnostics(&outcome)
        return outcome
    }

    /// Reads a script at `path` and lints it; a missing file is exit 66.
    public func lint(path: String) -> FileOutcome {
        do {
            return lint(try loader.read(loader.resolve(path, relativeTo: nil)))
        } catch {
            var outcome = FileOutcome(path: path)
            // A folder is a project's, most likely: --project reads it (real-project trial 14, D6).
            var hint: String?
            if case .unreadable(_, let reason) = error, reason.contains("a directory") {
                hint = "to check the Xcode project in a folder, give it with --project: kcs lint --project FOLDER"
            }
            outcome.diagnostics.append(Diagnostic(error.code, error.message(for: path), hint: hint))
            outcome.verdict = .missingInput
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
                                                  hint: error.hint(otherwise: "check the path; kcs takes .kcs and .md files, or - for standard input")))
            outcome.verdict = .missingInput
            return outcome
        }
    }

    static func record(_ event: RunEvent, into outcome: inout FileOutcome, verbose: Bool, collectChecks: Bool = true) {
        switch event {
        case .call(let c):
            if verbose {
                let loc = c.file.location(of: c.range.start)
                outcome.output += "\(TerminalText.lineStart(c.file.name)):\(loc.line): \(CallLine.text(c))\n"
            }
        case .output(let text):
            outcome.output += text
        case .expectationPassed(let file, let range):
            outcome.checks.append(Check(kind: .expectation, file: file, range: range))
        case .diagnostic(let d):
            // Kept up to a bound, then counted: memory stays bounded
            // whatever the run repeats (include diamonds, error floods).
            if outcome.diagnostics.count < RunReport.keptDiagnostics {
                outcome.diagnostics.append(d)
            } else {
                outcome.droppedDiagnostics += 1
                if d.isErrorButNotACheck { outcome.hiddenErrors += 1 }
            }
            if collectChecks, d.code == .expectationFailed, let file = d.file, let range = d.range {
                outcome.checks.append(Check(kind: .expectation, file: file, range: range, failure: d))
            }
        }
    }

    /// Checks a Markdown document: its `kcs` blocks run in order in one world
    /// (`kcs fresh` starts a new one, `kcs ignore` is skipped, `kcs fails`
    /// must fail), and an `output` block right after a `kcs` block must hold
    /// exactly what it printed. With `update`, output blocks are rewritten.
    public func check(markdown original: SourceFile, update: Bool = false) -> FileOutcome {
        // Lines ended by CR alone are lines (CommonMark, section 2.1): read
        // with LF there, so blocks run as scripts and every location names
        // its line; --update still writes into the file's own bytes.
        let file = MarkdownBlocks.withLFLineBreaks(original.bytes).map { SourceFile(name: original.name, bytes: $0) } ?? original
        var outcome = FileOutcome(path: file.name)
        let bytes = file.bytes
        // One deadline and one output budget for the whole document, from
        // before its blocks are found.
        let deadline = RunBudget.deadline(for: limits)
        let document = MarkdownBlocks.read(bytes)
        let blocks = document.blocks
        for unrun in document.unrun {
            let (message, hint): (String, String) = switch unrun.reason {
            case .container:
                ("this kcs block is inside a block quote or a list item; kcs check does not run it",
                 "start the fence at the left margin (up to three spaces) for kcs check to run the block")
            case .indentedCode:
                ("this kcs fence is text of an indented code block; kcs check does not run it",
                 "start the fence at the left margin (up to three spaces) for kcs check to run the block")
            case .htmlBlock:
                ("this kcs fence is text of the HTML block above it; kcs check does not run it",
                 "leave a blank line between the HTML line and the fence")
            case .unclosed(let opener):
                ("this kcs fence is text of the block that line \(file.location(of: opener.start).line) opens, which is never closed; kcs check does not run it",
                 "close that block (a fence as long as its opening one, or '-->' for a comment)")
            }
            outcome.diagnostics.append(Diagnostic(.nestedBlock, message, file: file, range: unrun.line, severity: .warning, hint: hint))
        }
        var session = Session()
        session.lints = lint != .off
        var replacements: [(SourceRange, String)] = []
        var updatedBlocks = 0
        var outputSoFar = 0, reportSoFar = 0
        // Syntax errors of all the blocks so far: the document's blocks are
        // read up to ``SyntaxParser/maxErrors`` of them in all, as one
        // script's lines are.
        var syntaxErrors = 0
        for (index, block) in blocks.enumerated() where block.language == "kcs" {
            if block.modifiers.contains("ignore") {
                outcome.checks.append(Check(kind: .skipped, file: file, range: block.fence))
                continue
            }
            // The deadline and the error bound hold between blocks too: a
            // block with a syntax error runs no statement, so the run's own
            // clock was never read, and 300,000 such blocks took 8 s under
            // --timeout 2, each error kept (adversarial 21, F9).
            if let deadline, ContinuousClock.now > deadline {
                outcome.diagnostics.append(RunBudget.limitDiagnostic(RunBudget.overTimeMessage(limits), file, block.fence))
                outcome.verdict = max(outcome.verdict, .failed)
                break
            }
            if syntaxErrors >= SyntaxParser.maxErrors {
                outcome.diagnostics.append(Diagnostic(
                    .inputLimit, "more than \(SyntaxParser.maxErrors) syntax errors in the document's blocks: this block and those after it were not read",
                    file: file, range: block.fence, hint: "fix these and run again"))
                outcome.verdict = max(outcome.verdict, .invalidInput)
                break
            }
            if block.modifiers.contains("fresh") {
                session = Session()
                session.lints = lint != .off
            }
            // The block's own bytes, numbered with the document's lines: each
            // block is read once, never the whole document again.
            let firstLine = file.location(of: block.content.start).line
            let blockFile = SourceFile(name: file.name, bytes: Array(bytes[block.content.start..<block.content.end]),
                                       firstLine: firstLine)
            var printed = ""
            var blockOutcome = FileOutcome(path: file.name)
            var options = RunOptions(reportCalls: true, reportPasses: true, requireStatements: false, limits: limits)
            options.deadline = deadline
            options.outputSoFar = outputSoFar
            options.reportSoFar = reportSoFar
            options.restoresOnSyntaxError = !session.parsesCleanWithoutIncludes(blockFile, limits: limits, deadline: deadline)
            let report = session.run(file: blockFile, loader: loader, options: options) { event in
                if case .call(let c) = event { printed += CallLine.text(c) + "\n" }
                if case .output(let text) = event { printed += text }
                Self.record(event, into: &blockOutcome, verbose: false)
            }
            outputSoFar = max(outputSoFar, report.outputBytes)
            reportSoFar = max(reportSoFar, report.reportBytes)
            if report.hasSyntaxErrors {
                syntaxErrors += blockOutcome.diagnostics.count { $0.severity == .error && $0.code.phase == .syntax }
                    + blockOutcome.droppedDiagnostics
            }
            if report.diagnostics.contains(where: { $0.code == .runLimit }) {
                // A limit stops the document, not just the block.
                outcome.diagnostics += blockOutcome.diagnostics
                outcome.droppedDiagnostics += blockOutcome.droppedDiagnostics
                outcome.verdict = max(outcome.verdict, report.verdict)
                break
            }
            if block.modifiers.contains("fails") {
                let failedAsDocumented = report.verdict != .passed
                let failure = failedAsDocumented ? nil : Diagnostic(
                    .blockDidNotFail, "this block is marked 'fails' but ran without a failure", file: file,
                    range: block.fence, hint: "remove 'fails' from the fence, or make the example show the mistake")
                outcome.checks.append(Check(kind: .fails, file: file, range: block.fence, failure: failure))
                if let failure { outcome.diagnostics.append(failure) }
                outcome.verdict = max(outcome.verdict, failedAsDocumented ? .passed : .failed)
            } else {
                outcome.checks += blockOutcome.checks
                outcome.diagnostics += blockOutcome.diagnostics
                outcome.droppedDiagnostics += blockOutcome.droppedDiagnostics
                outcome.verdict = max(outcome.verdict, report.verdict)
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
            } else if let lost = MarkdownBlocks.lostClosingFence(bytes, out) {
                // Its content is the document's next sections: rewriting it
                // would delete them, so it is reported and left alone.
                let whereItEnds = lost >= bytes.count ? "runs to the end of the document"
                    : "runs on past line \(file.location(of: lost).line), which opens a new block"
                let d = Diagnostic(.outputMismatch, "this output block has no closing fence: it \(whereItEnds)",
                                   file: file, range: out.fence,
                                   hint: "close the block with a fence line of its own (no words after it)\(update ? "; it was not rewritten" : "")")
                outcome.checks.append(Check(kind: .output, file: file, range: out.fence, failure: d))
                outcome.diagnostics.append(d)
                outcome.verdict = max(outcome.verdict, .failed)
            } else if update, report.verdict < .invalidInput {
                // Written back in the file's own style: its indentation, its
                // line breaks (the fence line's, as read: CR LF, CR or LF).
                let lineBreak = MarkdownBlocks.lineBreak(original.bytes, lineStart: out.fence.start)
                replacements.append((out.content, MarkdownBlocks.styled(printed, indent: indent, lineBreak: lineBreak)))
                updatedBlocks += 1
                // Printed text that holds a fence would close the block early:
                // the block's fences grow longer than any run in the text.
                replacements += MarkdownBlocks.lengthenedFences(bytes, out, toHold: printed)
                outcome.checks.append(Check(kind: .output, file: file, range: out.fence))
            } else {
                // A block that did not parse, or stopped at an include it
                // could not read, printed nothing of what it documents:
                // --update wrote that nothing over its output block (found
                // by adversarial testing, run 23, F6).
                let d = Diagnostic(.outputMismatch, "the output block differs from what the kcs block printed",
                                   file: file, range: out.fence,
                                   hint: update ? "it was not rewritten: the kcs block above stopped at an error before it ran; fix that first"
                                       : "run kcs check --update to rewrite output blocks",
                                   notes: LineDiff.lines(expected: expected, actual: printed).map { DiagnosticNote($0) })
                outcome.checks.append(Check(kind: .output, file: file, range: out.fence, failure: d))
                outcome.diagnostics.append(d)
                outcome.verdict = max(outcome.verdict, .failed)
            }
        }
        if !replacements.isEmpty {
            outcome.updatedContent = Self.applying(replacements, to: original.bytes)
            outcome.originalContent = original.bytes
            outcome.updatedBlocks = updatedBlocks
        }
        applyStrictness(&outcome)
        capDiagnostics(&outcome)
        return outcome
    }

    /// The document with the ranges replaced, built in one pass from the
    /// start (replacing in place would move the rest of the document once
    /// per block). Ranges do not overlap; at one offset an insertion goes
    /// before a replacement (empty content right before its closing fence).
    static func applying(_ replacements: [(SourceRange, String)], to bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var at = 0
        for (range, text) in replacements.sorted(by: { ($0.0.start, $0.0.end) < ($1.0.start, $1.0.end) }) {
            out += bytes[at..<max(at, range.start)]
            out += text.utf8
            at = max(at, range.end)
        }
        out += bytes[at...]
        return out
    }

    /// Reads a Markdown document through the loader (a regular file, within
    /// the size limit) and checks it; an unreadable file is exit 66.
    public func check(path: String, update: Bool = false) -> FileOutcome {
        let file: SourceFile
        do { file = try loader.read(loader.resolve(path, relativeTo: nil)) } catch {
            var outcome = FileOutcome(path: path)
            outcome.diagnostics.append(Diagnostic(error.code, error.message(for: path)))
            outcome.verdict = .missingInput
            return outcome
        }
        if file.bytes.count > limits.sourceBytes {
            var outcome = FileOutcome(path: path)
            outcome.diagnostics.append(Diagnostic(.inputLimit, "the document is \(file.bytes.count) bytes, over the limit of \(limits.sourceBytes)",
                                                  file: file))
            outcome.verdict = .invalidInput
            return outcome
        }
        return check(markdown: file, update: update)
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
///
/// Linear in the text plus the square of the differences, never the n·m
/// table: the common start and end are cut off first, the rest goes to
/// Myers' algorithm with a cap on the differences it looks for; past the cap
/// (or past ``maxLines`` lines of diff) the first differences are shown and
/// the rest counted.
enum LineDiff {
    /// Differences (inserted plus deleted lines) Myers' search goes up to.
    static let maxEdits = 400
    /// Lines of diff shown; unchanged lines count only near a change.
    static let maxLines = 200
    /// Unchanged lines shown around a change.
    static let context = 3

    enum Op: Equatable { case same(Int, Int), delete(Int), insert(Int) }

    static func lines(expected: String, actual: String) -> [String] {
        var a = expected.split(separator: "\n", omittingEmptySubsequences: false)
        var b = actual.split(separator: "\n", omittingEmptySubsequences: false)
        // Text ending in a line break leaves an empty last element: not a line.
        if a.last == "" { a.removeLast() }
        if b.last == "" { b.removeLast() }
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        let midA = Array(a[prefix..<(a.count - suffix)]), midB = Array(b[prefix..<(b.count - suffix)])
        var ops: [Op] = (0..<prefix).map { .same($0, $0) }
        if let middle = myers(midA, midB, maxEdits: maxEdits) {
            ops += middle.map {
                switch $0 {
                case .same(let i, let j): .same(i + prefix, j + prefix)
                case .delete(let i): .delete(i + prefix)
                case .insert(let j): .insert(j + prefix)
                }
            }
        } else {
            // Too different to align cheaply: all of one, then all of the other.
            ops += midA.indices.map { .delete($0 + prefix) } + midB.indices.map { .insert($0 + prefix) }
        }
        ops += (0..<suffix).map { .same(a.count - suffix + $0, b.count - suffix + $0) }
        return render(ops, a, b)
    }

    /// The shortest edit script of `a` into `b`, or nil when it has more
    /// than `maxEdits` edits. Time O((n + m) · D), memory O(D²).
    static func myers(_ a: [Substring], _ b: [Substring], maxEdits: Int) -> [Op]? {
        let n = a.count, m = b.count
        if n == 0 { return (0..<m).map { .insert($0) } }
        if m == 0 { return (0..<n).map { .delete($0) } }
        let limit = min(n + m, maxEdits)
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        var trace: [[Int]] = []
        for d in 0...limit {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x = k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, a[x] == b[y] { x += 1; y += 1 }
                v[offset + k] = x
                if x >= n && y >= m { return backtrack(trace, v, d, n, m, offset) }
            }
        }
        return nil
    }

    private static func backtrack(_ trace: [[Int]], _ last: [Int], _ dEnd: Int, _ n: Int, _ m: Int, _ offset: Int) -> [Op] {
        var ops: [Op] = []
        var x = n, y = m
        for d in stride(from: dEnd, through: 1, by: -1) {
            let v = trace[d]
            let k = x - y
            let down = k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])
            let prevK = down ? k + 1 : k - 1
            let prevX = v[offset + prevK], prevY = prevX - prevK
            while x > prevX && y > prevY { x -= 1; y -= 1; ops.append(.same(x, y)) }
            if down { y -= 1; ops.append(.insert(y)) } else { x -= 1; ops.append(.delete(x)) }
        }
        while x > 0 && y > 0 { x -= 1; y -= 1; ops.append(.same(x, y)) }
        return ops.reversed()
    }

    /// The unified-style listing: changes with a few unchanged lines around
    /// them, cut after ``maxLines`` lines with a count of what was left out.
    static func render(_ ops: [Op], _ a: [Substring], _ b: [Substring]) -> [String] {
        var near = [Bool](repeating: false, count: ops.count)
        for (i, op) in ops.enumerated() {
            if case .same = op { continue }
            for j in max(0, i - context)...min(ops.count - 1, i + context) { near[j] = true }
        }
        var out = ["--- expected (output block)", "+++ actual"]
        var shown = 0, hidden = 0, skipped = false
        for (i, op) in ops.enumerated() {
            guard near[i] else { skipped = true; continue }
            if shown >= maxLines {
                if case .same = op {} else { hidden += 1 }
                continue
            }
            if skipped { out.append("  …"); skipped = false }
            switch op {
            case .same(let x, _): out.append("  " + a[x])
            case .delete(let x): out.append("- " + a[x])
            case .insert(let y): out.append("+ " + b[y])
            }
            shown += 1
        }
        if hidden > 0 { out.append("… and \(hidden) more changed line\(hidden == 1 ? "" : "s")") }
        return out
    }
}

/// A value kept until the process exits (``BatchRunner/abandonsWorld``).
private final class Abandoned<Value> {
    let value: Value
    init(_ value: Value) { self.value = value }
}
