import KCSSyntax
import KCSXcodeProject
import KeychainEngine

/// The last call, kept for expectations and `explain`. Held in the session
/// itself and written over in place by the next call (``Session/lastRecord``):
/// made as an object per call, making and freeing it cost some 300
/// instructions a call, and held as an optional replaced whole, the old
/// record was destroyed through `Optional`'s generic value witness (125 more).
/// The common readers (an expectation of its status, the lint's gate) read
/// its fields in place; the call and the result it holds are references already.
package struct LastCall: Sendable {
    // Each field starts as a placeholder (``none``), never read while the
    // session has no last call, and ``Session/perform`` writes them all.
    /// Which call of the session it was (the explanation cache's key).
    var serial = 0
    package internal(set) var call = CallStatement(app: Name(text: "", range: SourceRange(0, 0)), request: CallRequest(.find, ItemSpec()),
                                                   operationRange: SourceRange(0, 0), classRange: nil,
                                                   persistentRef: nil, context: nil, changedPersistentRef: nil)
    package internal(set) var file = SourceFile(name: "", bytes: [])
    package internal(set) var range = SourceRange(0, 0)
    package internal(set) var app = AppHandle.none
    package internal(set) var device = DeviceHandle.this
    /// What the engine answered (a call that stopped before the engine
    /// leaves no record: ``Session/hasLast`` is false).
    package internal(set) var result = CallResult(status: .success, reason: .succeeded)
    /// The result's status, held apart: an expectation of a status and the
    /// lint rules read it without reaching into the result.
    package internal(set) var status = KeychainStatus.success
    /// The answers its prompts took, in order.
    package internal(set) var answers: [PromptAnswer] = []
    /// The call stopped at a prompt nobody answered: `explain` explains it,
    /// expectations refuse to check it (no device would show a status).
    var stoppedAtPrompt = false

    /// What a session holds before its first call.
    static let none = LastCall()
}

/// What a run may still spend under the host's limits.
package struct RunBudget {
    package let limits: Limits
    /// When the run must stop: its start plus the time limit, or the host's
    /// deadline for a whole document (a Markdown file's blocks share one).
    package let deadline: ContinuousClock.Instant?
    /// Whether there is a deadline: tested before every statement without
    /// touching the optional instant (a type whose copies go through the
    /// runtime's metadata).
    let hasDeadline: Bool
    package var stopped = false
    /// Bytes of output (show, explain, call lines) the run produced so far.
    package var outputBytes = 0
    /// The host's ``RunOptions/interruption``, and whether it stopped the run.
    let interruption: (@Sendable () -> Bool)?
    package private(set) var interrupted = false
    /// Bytes of listed checks (``RunOptions/reportPasses``) so far.
    package var reportBytes = 0

    package init(_ limits: Limits, deadline: ContinuousClock.Instant? = nil, outputSoFar: Int = 0, reportSoFar: Int = 0,
                 interruption: (@Sendable () -> Bool)? = nil) {
        self.limits = limits
        self.interruption = interruption
        let own = Self.deadline(for: limits)
        switch (own, deadline) {
        case let (a?, b?): self.deadline = min(a, b)
        case let (a, b): self.deadline = a ?? b
        }
        self.hasDeadline = own != nil || deadline != nil
        self.outputBytes = outputSoFar
        self.reportBytes = reportSoFar
    }

    /// A time limit as a duration. NaN, zero or less has already run out;
    /// past a century is a century (`--timeout 1e30` trapped converting the
    /// milliseconds to an Int).
    package static func duration(ofSeconds seconds: Double) -> Duration {
        guard seconds > 0 else { return .zero }
        return .milliseconds(Int(min(seconds, 100 * 365 * 24 * 3600) * 1000))
    }

    /// When a run that starts now must stop under `limits`, if they set a time.
    package static func deadline(for limits: Limits) -> ContinuousClock.Instant? {
        limits.seconds.map { ContinuousClock.now + duration(ofSeconds: $0) }
    }

    /// Throws, and stops the run, when a limit is reached. Called before
    /// every statement: the clock is read each time, so one slow statement
    /// cannot hide behind sixty-three fast ones.
    @inline(__always)
    mutating func charge(_ statements: Int, items: Int, _ file: SourceFile, _ range: SourceRange) throws(Diagnostic) {
        // Within the counts, with no clock and nobody to interrupt: nothing
        // to check further (the common batch run), tested inline.
        if statements <= limits.statements && items <= limits.items && !hasDeadline && interruption == nil { return }
        try chargeChecking(statements, items: items, file, range)
    }

    private mutating func chargeChecking(_ statements: Int, items: Int, _ file: SourceFile, _ range: SourceRange) throws(Diagnostic) {
        var problem: String?
        if statements > limits.statements {
            problem = "the run reached its limit of \(limits.statements) statements"
        } else if items > limits.items {
            problem = "the keychains hold \(items) items, over the limit of \(limits.items)"
        } else {
            problem = overTime()
        }
        if let problem { throw stop(problem, file, range) }
        if let interruption, interruption() {
            stopped = true
            interrupted = true
            throw Diagnostic(.runLimit, "interrupted; nothing after this line ran", file: file, range: range)
        }
    }

    /// Counts output against the output limit.
    mutating func chargeOutput(_ bytes: Int, _ file: SourceFile, _ range: SourceRange) throws(Diagnostic) {
        outputBytes += bytes
        if let max = limits.outputBytes, outputBytes > max {
            throw stop("the run printed more than its limit of \(max) bytes", file, range)
        }
    }

    /// Counts a listed check against the limit of generated bytes: a report
    /// listing millions of checks would not fit in memory.
    mutating func chargeCheck(_ file: SourceFile, _ range: SourceRange) throws(Diagnostic) {
        reportBytes += range.end - range.start + Limits.bytesPerCheck
        if reportBytes > limits.generatedBytes {
            throw stop("the checks passed so far make a report of more than its limit of \(limits.generatedBytes) bytes", file, range)
        }
    }

    /// Checked inside statements that loop over the keychain (`show matrix`):
    /// the time so far, and the output so far with `pending` more bytes; the
    /// statement's own text, held whole before it is printed, is bounded by
    /// the limit of generated text even when the run's output is not (a
    /// 1 MB script's `show matrix` built 909 MB at 2.7 GB; adversarial run 24, F14).
    package func checkInside(pending: Int, _ file: SourceFile, _ range: SourceRange) throws(Diagnostic) {
        if let problem = overTime() { throw RunBudget.limitDiagnostic(problem, file, range) }
        if let max = limits.outputBytes, outputBytes + pending > max {
            throw RunBudget.limitDiagnostic("the run printed more than its limit of \(max) bytes", file, range)
        }
        if pending > limits.generatedBytes {
            throw RunBudget.limitDiagnostic("this statement's text would pass its limit of \(limits.generatedBytes) bytes", file, range)
        }
    }

    /// Whether the deadline has passed.
    var isOverTime: Bool { overTime() != nil }

    /// The limit error for a statement reached after the deadline, if it has passed.
    func lateDiagnostic(_ file: SourceFile, _ range: SourceRange) -> Diagnostic? {
        overTime().map { RunBudget.limitDiagnostic($0, file, range) }
    }

    private func overTime() -> String? {
        guard hasDeadline, let deadline, ContinuousClock.now > deadline else { return nil }
        return RunBudget.overTimeMessage(limits)
    }

    /// What a run past its deadline says (before "; nothing after this line ran").
    package static func overTimeMessage(_ limits: Limits) -> String {
        "the run took longer than its time limit\(limits.seconds.map { " of \($0) s" } ?? "")"
    }

    /// Stops the run with a limit error, for a statement refused before it starts.
    package mutating func refuse(_ problem: String, _ file: SourceFile, _ range: SourceRange) -> Diagnostic {
        stop(problem, file, range)
    }

    private mutating func stop(_ problem: String, _ file: SourceFile, _ range: SourceRange) -> Diagnostic {
        stopped = true
        return RunBudget.limitDiagnostic(problem, file, range)
    }

    package static func limitDiagnostic(_ problem: String, _ file: SourceFile, _ range: SourceRange) -> Diagnostic {
        Diagnostic(.runLimit, problem + "; nothing after this line ran", file: file, range: range,
                   hint: "the host running this script sets the limits")
    }
}

/// Entitlements files and Xcode projects a run's declarations read, by
/// resolved path: each is read and decoded once per run. One file named by
/// 400 `app` lines was decoded 400 times (54 s), and `app … project=` lines
/// loaded their project each time (found by adversarial testing).
struct DeclarationFiles: Sendable {
    var entitlements: [String: Entitlements] = [:]
    var projects: [String: XcodeProject] = [:]
}

/// An answer given with `user approves|cancels|fails`, waiting for a prompt.
package struct PendingAnswer: Sendable {
    package var answer: PromptAnswer
    package var file: SourceFile
    package var range: SourceRange
}

/// The answers waiting for prompts, oldest first: taken by moving a head,
/// not by removing the first (100,000 answers and prompting calls took 68 s;
/// found by adversarial testing).
struct AnswerQueue: Sendable {
    private var items: [PendingAnswer] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }

    mutating func append(_ answer: PendingAnswer) {
        if isEmpty {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        items.append(answer)
    }

    /// The oldest answer, taken out of the queue.
    mutating func next() -> PendingAnswer? {
        guard head < items.count else { return nil }
        head += 1
        return items[head - 1]
    }
}

/// An interpreter session: a world and the last call. Batch runs use a fresh
/// session per file; the REPL keeps one. A value, so snapshots are cheap.
public struct Session: Sendable {
    public package(set) var world = World()
    /// The last call's record, written over in place by each call; what it
    /// says holds while ``hasLast``.
    package var lastRecord = LastCall.none
    /// Whether a call reached the engine since the session began, the last
    /// reset, or the last call that stopped before the engine.
    package var hasLast = false
    /// The last call, nil when there is none (see ``lastRecord``).
    package var last: LastCall? { hasLast ? lastRecord : nil }
    /// Answers queued for the next authentication prompts, oldest first.
    var pendingAnswers = AnswerQueue()
    /// The last call if it stopped before reaching the engine (an unknown app).
    var lastFailedCall: (file: SourceFile, range: SourceRange)?
    /// Apps whose declaration failed, by name, and where: a later use says
    /// so rather than "declare it first" (an `app … entitlements=` naming a
    /// missing file was followed by "unknown app"; found on a real-project trial).
    var failedDeclarations: [String: String] = [:]
    /// Apps declared `team=none` while a team was declared: unsigned on
    /// purpose (an unhosted test bundle), for whom "declare a team before
    /// the app" is no fix (QA s21, Q05).
    var appsWithoutTeam: Set<String> = []
    /// The last call's explanation, worked out at its first failed
    /// expectation and reused by the next ones while nothing else runs
    /// (5,000 failures after one call explained it 5,000 times over every
    /// item of every device; found by adversarial testing).
    var explained: (call: Int, notes: [DiagnosticNote])?
    /// Calls that reached the engine so far: the serial of the next ``LastCall``.
    var callsMade = 0
    /// The apps calls named lately (``resolveCallApp(_:_:)``).
    var callApps = AppNameCache()
    /// Where output and events go; nil when nobody listens (the fast path).
    public typealias Observer = (RunEvent) -> Void

    /// Check calls against the common mistakes (semantics.md section 7) and
    /// report them as warnings. Off unless the host turns it on.
    public var lints = false
    /// The items finds got errSecInteractionNotAllowed for because of the
    /// lock, and where (KCS518): a later delete of one under the lock
    /// loses data that was there. Kept only while linting.
    var lockedReads = LockedReads()
    /// The adds that met errSecDuplicateItem asking for another class
    /// (KCS521): the update that follows keeps the old one. Kept only
    /// while linting.
    var duplicateAdds = DuplicateAdds()
    /// The apps' bundle IDs for the lint, extended as apps are declared.
    var appIndex = AppLintIndex()
    /// Declared names for "did you mean", extended before each statement.
    var declared = DeclaredNames()
    /// The world's item count for the limit, or a bound above it, while no
    /// statement that may change it more has run (``StatementKind/itemCountChange``).
    var itemCountMemo: Int?
    /// Reads `entitlements="PATH"` files; set by ``run(file:loader:options:observer:)``.
    package var loader: any SourceLoader = FileSystemLoader()
    /// The files this run's declarations read.
    var declarationFiles = DeclarationFiles()

    public init() {}

    /// Runs a script into this session, parsing and running one statement
    /// at a time so a script of a million lines is never held as a tree.
    ///
    /// Nothing is observable from a script with a syntax error (in it or in
    /// an include): events are held back until the whole script has parsed,
    /// and on an error the session is put back as it was and the report holds
    /// only the syntax errors.
    public mutating func run(file: SourceFile, loader: any SourceLoader = FileSystemLoader(),
                             options: RunOptions = RunOptions(), observer: Observer? = nil) -> RunReport {
        self.loader = loader
        // A file may change between two runs (REPL lines, Markdown blocks).
        declarationFiles = DeclarationFiles()
        // Kept only when asked: holding it makes the first change of the
        // world copy all of it (per Markdown block, that was quadratic).
        let before: Session? = options.restoresOnSyntaxError ? self : nil
        var report = RunReport()
        if file.bytes.count > options.limits.sourceBytes {
            let d = Diagnostic(.inputLimit, "the script is \(file.bytes.count) bytes, over the limit of \(options.limits.sourceBytes)",
                               file: file)
            report.diagnostics = [d]
            observer?(.diagnostic(d))
            return report
        }
        var held: [RunEvent] = []
        // Held diagnostics stop at the report's cap (the report counts the
        // rest): a script that fails on each of a million lines held every
        // error until the end (1.3 million repeated `team` lines took 350 MB;
        // found by adversarial testing).
        var heldDiagnostics = 0
        let sink: Observer? = observer == nil ? nil : { event in
            if case .diagnostic = event {
                heldDiagnostics += 1
                if heldDiagnostics > RunReport.keptDiagnostics { return }
            }
            held.append(event)
        }
        // The clock starts before the parser's first look at the bytes.
        var budget = RunBudget(options.limits, deadline: options.deadline, outputSoFar: options.outputSoFar,
                               reportSoFar: options.reportSoFar, interruption: options.interruption)
        // An app from an earlier REPL line or Markdown block makes a
        // `platform` here misplaced, as in one file (review 23a, R7).
        var parser = Parser(file: file, maxListLength: options.limits.listLength, appsDeclared: !world.apps.isEmpty)
        var includes = IncludedPrograms()
        var declarationOrders: [DeclarationOrderKey: DeclarationOrder] = [:]
        var expandedSizes = ExpandedSizes()
        var includeErrors: [Diagnostic] = []
        var parsedAny = false
        var late: Diagnostic?
        var lastRan: SourceRange?
        while let statement = parser.next() {
            parsedAny = true
            // The time limit covers reading the script, not only running it:
            // parsing on to list every error, or past a stop, ends here too.
            if budget.hasDeadline, let d = budget.lateDiagnostic(file, statement.range) {
                if !budget.stopped {
                    report.record(d)
                    sink?(.diagnostic(d))
                }
                budget.stopped = true
                late = d
                break
            }
            // After an error, keep parsing only to report every error in one pass.
            if parser.hasErrors || !includeErrors.isEmpty || budget.stopped { continue }
            if case .include(let path, _) = statement.kind {
                let spelled = loader.resolve(path, relativeTo: file.name)
                let resolved = includes.key(for: spelled, canonical: loader.canonical(spelled))
                if includes[resolved] == nil {
                    let script = ScriptLoader.loadInclude(path, resolved: resolved, from: file, at: statement.range,
                                                          loader: loader, includes: &includes,
                                                          limits: options.limits, deadline: budget.deadline)
                    if !script.isEmpty { includeErrors += script; continue }
                }
                // A `platform` the included file runs after an app (this
                // file's, an earlier block's, or its own includes') is the
                // syntax error it is in one file: nothing runs. The apps it
                // declares (or its `reset`) count for this file's later lines.
                if includes[resolved] != nil {
                    let order = Self.declarationOrder(resolved, afterApp: parser.sawApp, includes, &declarationOrders)
                    if let misplaced = order.misplaced { includeErrors.append(misplaced); continue }
                    parser.sawApp = order.afterApp
                }
                if let program = includes[resolved] {
                    // An include runs every time it is reached, so files that
                    // include the same file twice, level after level, run
                    // 2^levels statements: refused before they start when
                    // they would pass the statement limit.
                    let limit = options.limits.statements
                    let size = Self.expandedStatements(resolved, includes, &expandedSizes, cap: limit)
                    if report.statements + size > limit {
                        let d = budget.refuse("the include runs \(size > limit ? "more than \(limit)" : String(size)) statements "
                                              + "with its own includes, over the limit of \(limit) for the run", file, statement.range)
                        report.record(d)
                        sink?(.diagnostic(d))
                        continue
                    }
                    run(program, includes, &report, options, sink, &budget)
                }
                continue
            }
            lastRan = statement.range
            executeReporting(statement, file, &report, options, sink, &budget)
        }
        // The clock is read before each statement; one more time after the
        // last, so a last statement that outran the limit does not end in
        // success (found by adversarial testing: exit 0 after 58 s of 1).
        if budget.hasDeadline, !budget.stopped, let lastRan, let over = budget.lateDiagnostic(file, lastRan) {
            let d = Diagnostic(.runLimit, over.message.replacingOccurrences(of: "; nothing after this line ran", with: "")
                                  + " (in this statement, the last)", file: file, range: lastRan, hint: over.hint)
            report.record(d)
            sink?(.diagnostic(d))
            budget.stopped = true
        }
        var syntax = parser.finalDiagnostics + includeErrors
        if parsedAny == false && syntax.isEmpty && options.requireStatements {
            let blank = file.bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
            // At the first line when there is one, so editors and CI
            // annotations can place it (an empty file has none).
            syntax.append(Diagnostic(.emptyFile, file.bytes.isEmpty ? "the file is empty"
                                        : blank ? "the file has only blank lines" : "the file has no statements, only comments",
                                     file: file, range: file.bytes.isEmpty ? nil : SourceRange(0, 0),
                                     hint: "a scenario declares a team and apps, makes calls and checks them with 'expect'"))
        }
        if !syntax.isEmpty {
            if let before { self = before }
            // Errors found before the time ran out, and where it did.
            if let late { syntax.append(late) }
            var failed = RunReport()
            failed.diagnostics = syntax
            for d in syntax { observer?(.diagnostic(d)) }
            return failed
        }
        if let observer { for e in held { observer(e) } }
        report.outputBytes = budget.outputBytes
        report.interrupted = budget.interrupted
        report.reportBytes = budget.reportBytes
        return report
    }

    /// The included files `expandedStatements` has sized, and how many
    /// statements it looked at to size them (its work, which a test counts).
    struct ExpandedSizes {
        var sizes: [String: Int] = [:]
        var statementsWalked = 0
    }

    /// How many statements an included file runs, its includes expanded
    /// (each as often as it is included), counted once per file and capped
    /// just past `cap`, so a diamond of includes is sized in linear time.
    static func expandedStatements(_ key: String, _ includes: IncludedPrograms, _ memo: inout ExpandedSizes,
                                   cap: Int, depth: Int = 0) -> Int {
        if let known = memo.sizes[key] { return known }
        guard let program = includes[key], depth <= 256 else { return 0 }
        memo.sizes[key] = 0  // a cycle a custom loader let through adds nothing
        var total = 0
        for statement in program.statements where total <= cap {
            memo.statementsWalked += 1
            if case .include(_, let resolved?) = statement.kind {
                total += expandedStatements(resolved, includes, &memo, cap: cap, depth: depth + 1)
            } else {
                total += 1
            }
        }
        let size = min(total, cap + 1)
        memo.sizes[key] = size
        return size
    }

    struct DeclarationOrderKey: Hashable {
        var file: String
        var afterApp: Bool
    }

    /// What running an included file does to declaration order: the first
    /// `platform` it runs after an app (KCS212), and whether an app is
    /// declared when it ends (an `app` declares one, `reset` forgets them).
    struct DeclarationOrder {
        var misplaced: Diagnostic?
        var afterApp: Bool
    }

    /// The declaration order of the included file `key` entered with or
    /// without an app declared, its own includes followed; worked out once
    /// per file and state, so a diamond of includes is walked in linear time.
    static func declarationOrder(_ key: String, afterApp: Bool, _ includes: IncludedPrograms,
                                 _ memo: inout [DeclarationOrderKey: DeclarationOrder], depth: Int = 0) -> DeclarationOrder {
        let memoKey = DeclarationOrderKey(file: key, afterApp: afterApp)
        if let known = memo[memoKey] { return known }
        var order = DeclarationOrder(misplaced: nil, afterApp: afterApp)
        guard let program = includes[key], depth <= 256 else { return order }
        memo[memoKey] = order  // a cycle a custom loader let through adds nothing
        for statement in program.statements {
            switch statement.kind {
            case .app: order.afterApp = true
            case .reset: order.afterApp = false
            case .platform where order.afterApp:
                order.misplaced = .platformAfterApp(program.file, statement.range)
            case .include(_, let resolved?):
                order = declarationOrder(resolved, afterApp: order.afterApp, includes, &memo, depth: depth + 1)
            default: break
            }
            if order.misplaced != nil { break }
        }
        memo[memoKey] = order
        return order
    }

    /// Whether a script would parse without errors into this session and
    /// includes nothing (``Parser/parsesCleanWithoutIncludes(_:limits:deadline:appsDeclared:)``
    /// with the apps this session has declared): then a run of it need not
    /// keep a copy of the session to roll back to.
    public func parsesCleanWithoutIncludes(_ file: SourceFile, limits: Limits, deadline: ContinuousClock.Instant? = nil) -> Bool {
        Parser.parsesCleanWithoutIncludes(file, limits: limits, deadline: deadline, appsDeclared: !world.apps.isEmpty)
    }

    private mutating func run(_ program: Program, _ includes: IncludedPrograms, _ report: inout RunReport,
                              _ options: RunOptions, _ observer: Observer?, _ budget: inout RunBudget, depth: Int = 1) {
        for statement in program.statements where !budget.stopped {
            if case .include(_, let resolved?) = statement.kind, let included = includes[resolved] {
                // The loader refuses cycles and deep nesting; this bound keeps
                // the recursion finite whatever a custom loader hands back.
                guard depth <= options.limits.includeDepth else {
                    executeReporting(statement, program.file, &report, options, observer, &budget, tooDeep: true)
                    continue
                }
                run(included, includes, &report, options, observer, &budget, depth: depth + 1)
                continue
            }
            executeReporting(statement, program.file, &report, options, observer, &budget)
        }
    }

    /// Runs one statement; an error is recorded and the script goes on.
    private mutating func executeReporting(_ statement: consuming Statement, _ file: SourceFile, _ report: inout RunReport,
                                           _ options: RunOptions, _ observer: Observer?, _ budget: inout RunBudget,
                                           tooDeep: Bool = false) {
        report.statements += 1
        if lints {
            // Before the statement runs: a look-alike name is often why it fails.
            emit(mixedScriptWarnings(statement, file), &report, observer)
        }
        do throws(Diagnostic) {
            // The items are counted exactly only after a statement that may
            // change their number beyond a bound, and before refusing the run:
            // summed before every statement, 20,000 devices and 200,000 `wait`
            // lines took 9 s (found by adversarial testing).
            var items = itemCountMemo ?? world.itemCount
            if items > budget.limits.items { items = world.itemCount }
            itemCountMemo = items
            try budget.charge(report.statements, items: items, file, statement.range)
            let change = statement.kind.itemCountChange
            switch change {
            case .none: break
            case .atMost(let n): itemCountMemo = items + n
            case .perChangedItem, .any: itemCountMemo = nil
            }
            if tooDeep {
                throw Diagnostic(.inputLimit, "includes nest deeper than the limit of \(options.limits.includeDepth)",
                                 file: file, range: statement.range, hint: "the host running this script sets the limits")
            }
            try execute(statement, file, &report, options, observer, &budget)
            // An update that ran: a tombstone at most per item it changed
            // (recounting every device after every update made 20,000 devices
            // and 200,000 updates take 8.7 s; found by review).
            // A failed update may have moved some (a Mac move makes its copies
            // before a refused delete; found by adversarial testing): recounted.
            // Read in place: binding the result copied it.
            if case .perChangedItem = change, hasLast, lastRecord.status == .success {
                itemCountMemo = items + lastRecord.result.count
            }
        } catch {
            if error.code == .runLimit { budget.stopped = true }
            report.record(error)
            if error.code == .expectationFailed { report.failed += 1 }
            observer?(.diagnostic(error))
        }
    }

    // MARK: Statements

    /// A call, and the lint after it.
    private mutating func run(_ call: CallStatement, _ s: Statement, _ device: DeviceHandle, _ file: SourceFile,
                              _ report: inout RunReport, _ options: RunOptions, _ observer: Observer?,
                              _ budget: inout RunBudget) throws(Diagnostic) {
        report.calls += 1
        try perform(call, s, device, file, report: &report, options, options.reportCalls ? observer : nil, &budget)
        if lints {
            emit(lintWarnings(after: call, s, file), &report, observer)
            if hasLast, lastRecord.status == .interactionNotAllowed, call.request.operation == .find {
                noteLockedRead(s, file)
            }
            if hasLast, lastRecord.status == .duplicateItem, call.request.operation == .add {
                noteDuplicateAdd(s, file)
            }
        }
    }

    /// Warnings found beside a statement: kept in the report and handed to
    /// the host as they come. Inlined: called after every call and statement
    /// with an empty list, a call out of line cost 0.9 M instructions on the
    /// 20,000-call workload.
    @inline(__always)
    private func emit(_ warnings: [Diagnostic], _ report: inout RunReport, _ observer: Observer?) {
        for warning in warnings {
            report.record(warning)
            observer?(.diagnostic(warning))
        }
    }

    /// An expectation held: counted, and listed when the host asks. The
    /// common `expect status S` of the last call's status comes here
    /// straight, checked without copying the last call.
    private func pass(_ s: Statement, _ file: SourceFile, _ report: inout RunReport, _ options: RunOptions,
                            _ observer: Observer?, _ budget: inout RunBudget) throws(Diagnostic) {
        if options.reportPasses { try budget.chargeCheck(file, s.range) }
        report.passed += 1
        if options.reportPasses { observer?(.expectationPassed(file: file, range: s.range)) }
    }

    private mutating func execute(_ s: consuming Statement, _ file: SourceFile, _ report: inout RunReport,
                                  _ options: RunOptions, _ observer: Observer?, _ budget: inout RunBudget) throws(Diagnostic) {
        declared.update(&world)
        let device = try resolveDevice(s.device, file)
        // The explanation of the last call holds while only expectations
        // run: any other statement may change what it says.
        let heldExplanation = explained
        explained = nil
        // A run of `group` lines leaves the lists out of date until they
        // are needed: any other statement may read them.
        if case .group = s.kind {} else { world.settleCaches() }
        switch s.kind {
        case .platform(let p):
            do throws(WorldError) { try world.setPlatform(p) } catch { throw worldError(error, file, s.range) }
        case .team(let id, let alias):
            do throws(WorldError) { try world.addTeam(id: id.text, name: alias?.text) } catch {
                throw worldError(error, file, alias?.range ?? id.range)
            }
        case .app(let decl):
            let warnings: [Diagnostic]
            do throws(Diagnostic) {
                warnings = try declareApp(decl, file, s.range, budget)
                failedDeclarations[decl.name] = nil
            } catch {
                if world.app(named: decl.name) == nil {
                    failedDeclarations[decl.name] = "\(file.name):\(file.location(of: s.range.start).line)"
                }
                throw error
            }
            emit(warnings, &report, observer)
            if lints {
                appIndex.update(world.apps)
                emit(entitlementWarnings(decl, file, s.range), &report, observer)
            }
        case .group(let name, let apps):
            var handles: [AppHandle] = []
            for a in apps { handles.append(try resolveApp(a, file)) }
            let hadGroups = lints ? handles.map { !world[$0].keychainAccessGroups.isEmpty } : []
            do throws(WorldError) { try world.addGroup(name.text, to: handles) } catch {
                throw worldError(error, file, name.range)
            }
            // An app's first keychain group may make it one the Mac does not launch.
            if lints {
                emit(handles.indices.filter { !hadGroups[$0] }.compactMap { unlaunchedWarning(handles[$0], file, apps[$0].range) },
                     &report, observer)
            }
        case .include:
            break  // resolved and run by the caller
        case .call(let call):
            try run(call, s, device, file, &report, options, observer, &budget)
        case .expectStatus(let wanted) where wanted.count == 1 && hasLast && lastRecord.status == wanted[0].status:
            try pass(s, file, &report, options, observer, &budget)
        case .expectStatus, .expectCount, .expectData, .expectGroup, .expectItem, .expectGroups, .expectDefaultGroup,
             .expectNoData, .expectPersistentRef:
            explained = heldExplanation
            try check(s, file)
            try pass(s, file, &report, options, observer, &budget)
        case .show(let target):
            let text = try show(target, device, file, s.range, budget: budget)
            try budget.chargeOutput(text.utf8.count, file, s.range)
            observer?(.output(text))
        case .explain:
            guard let last else {
                throw Diagnostic(.noPreviousCall, "nothing to explain: no call has run yet", file: file, range: s.range)
            }
            let text = Explainer(world: world).explain(last).joined(separator: "\n") + "\n"
            try budget.chargeOutput(text.utf8.count, file, s.range)
            observer?(.output(text))
        case .reset:
            world = World()
            appIndex = AppLintIndex()
            lockedReads = LockedReads()
            duplicateAdds = DuplicateAdds()
            declared = DeclaredNames()
            failedDeclarations = [:]
            appsWithoutTeam = []
            hasLast = false
            lastFailedCall = nil
            pendingAnswers = AnswerQueue()
        case .passcode(let on):
            let removed = world.setPasscode(on, on: device)
            if removed > 0, options.reportCalls {
                observer?(.output("passcode off: \(removed) when-passcode-set item\(removed == 1 ? "" : "s") lost for good\n"))
            }
        case .lock:
            world.lock(device)
        case .unlock:
            world.unlock(device)
        case .reboot:
            world.reboot(device)
        case .biometry(let change):
            guard world.platform(of: device).hasBiometry else {
                throw Diagnostic(.invalidDeclaration, "a watch has no Face ID or Touch ID: there is no biometry to enrol, change or remove",
                                 file: file, range: s.range,
                                 hint: "a watch authenticates with its passcode and wrist detection: biometry-any and biometry-current-set items fail there (errSecAuthFailed)")
            }
            let event: BiometryEvent
            switch change {
            case .enroll: event = .enroll
            case .change: event = .change
            case .remove: event = .remove
            }
            world.changeBiometry(event, on: device)
        case .user(let answer):
            pendingAnswers.append(PendingAnswer(answer: answer, file: file, range: s.range))
        case .context(let name, let context):
            world.declareContext(name.text, context)
        case .wait(let seconds):
            world.wait(seconds)
        case .keepPersistentRef(let name):
            let (last, result) = try lastCall(file, s.range)
            guard result.returns.contains(.persistentReference), let first = result.items.first else {
                throw Diagnostic(.nothingToKeep, result.returns.contains(.persistentReference)
                                    ? "nothing to keep: the last call returned no item (status \(result.status.description))"
                                    : "nothing to keep: the last call did not ask for a persistent reference",
                                 file: file, range: s.range,
                                 hint: "add return=persistent-ref to the find (or add) whose reference you keep",
                                 notes: [DiagnosticNote("the call", file: last.file, range: last.range)])
            }
            world.keep(first.persistentRef(on: world.platform(of: last.device)), as: name.text)
        case .device(let name, let account, let platform):
            let hadMac = lints && hasMacDevice
            do throws(WorldError) { try world.addDevice(name: name.text, account: account?.text, platform: platform) } catch {
                throw worldError(error, file, name.range)
            }
            // The first Mac device: the apps it does not launch, said once each.
            if lints && !hadMac && hasMacDevice {
                emit(world.appHandles.compactMap { unlaunchedWarning($0, file, s.range) }, &report, observer)
            }
        case .uninstall(let name):
            world.uninstall(try resolveApp(name, file), from: device)
        case .install(let name):
            world.install(try resolveApp(name, file), on: device)
        case .resign(let name):
            world.resign(try resolveApp(name, file), on: device)
            if lints, world.platform(of: device).family != .macos {
                emit([resignWarning(world.platform(of: device), file, s.range)], &report, observer)
            }
        case .transfer(let name, let team):
            let app = try resolveApp(name, file)
            world.transfer(app, to: try resolveTeamID(team, file))
        case .sync:
            // The limits are checked inside the sync (it can copy devices ×
            // items) and right after it, so a last `sync` is reported too.
            let itemsBefore = world.itemCount, maxItems = options.limits.items
            let changed = world.sync(account: s.device == nil ? nil : device) { [budget] changes in
                itemsBefore + changes > maxItems || budget.isOverTime
            }
            try budget.charge(report.statements, items: world.itemCount, file, s.range)
            if options.reportCalls { observer?(.output("sync: \(changed) change\(changed == 1 ? "" : "s")\n")) }
        case .backup(let from, let name, let encrypted):
            world.backup(try resolveDevice(from, file), as: name.text, encrypted: encrypted)
        case .restore(let name, let to):
            let target = try resolveDevice(to, file)
            do throws(WorldError) { _ = try world.restore(name.text, to: target) } catch {
                throw worldError(error, file, name.range)
            }
        }
    }
}
