import KeychainEngine

/// The last call, kept for expectations and `explain`.
struct LastCall {
    var call: CallStatement
    var file: SourceFile
    var range: SourceRange
    var app: AppHandle
    var device: DeviceHandle
    /// Nil when the call stopped at a runtime error before reaching the engine.
    var result: CallResult?
    /// The answers its prompts took, in order.
    var answers: [PromptAnswer] = []
    /// The call stopped at a prompt nobody answered: `explain` explains it,
    /// expectations refuse to check it (no device would show a status).
    var stoppedAtPrompt = false
}

/// What a run may still spend under the host's limits.
struct RunBudget {
    let limits: Limits
    /// When the run must stop: its start plus the time limit, or the host's
    /// deadline for a whole document (a Markdown file's blocks share one).
    let deadline: ContinuousClock.Instant?
    var stopped = false
    /// Bytes of output (show, explain, call lines) the run produced so far.
    var outputBytes = 0

    init(_ limits: Limits, deadline: ContinuousClock.Instant? = nil, outputSoFar: Int = 0) {
        self.limits = limits
        let own = limits.seconds.map { ContinuousClock.now + .milliseconds(Int($0 * 1000)) }
        switch (own, deadline) {
        case let (a?, b?): self.deadline = min(a, b)
        case let (a, b): self.deadline = a ?? b
        }
        self.outputBytes = outputSoFar
    }

    /// Throws, and stops the run, when a limit is reached. Called before
    /// every statement: the clock is read each time, so one slow statement
    /// cannot hide behind sixty-three fast ones.
    mutating func charge(_ statements: Int, items: Int, _ file: SourceFile, _ range: SourceRange) throws(Diagnostic) {
        var problem: String?
        if statements > limits.statements {
            problem = "the run reached its limit of \(limits.statements) statements"
        } else if items > limits.items {
            problem = "the keychains hold \(items) items, over the limit of \(limits.items)"
        } else {
            problem = overTime()
        }
        if let problem { throw stop(problem, file, range) }
    }

    /// Counts output against the output limit.
    mutating func chargeOutput(_ bytes: Int, _ file: SourceFile, _ range: SourceRange) throws(Diagnostic) {
        outputBytes += bytes
        if let max = limits.outputBytes, outputBytes > max {
            throw stop("the run printed more than its limit of \(max) bytes", file, range)
        }
    }

    /// Checked inside statements that loop over the keychain (`show matrix`):
    /// the time so far, and the output so far with `pending` more bytes.
    func checkInside(pending: Int, _ file: SourceFile, _ range: SourceRange) throws(Diagnostic) {
        if let problem = overTime() { throw RunBudget.limitDiagnostic(problem, file, range) }
        if let max = limits.outputBytes, outputBytes + pending > max {
            throw RunBudget.limitDiagnostic("the run printed more than its limit of \(max) bytes", file, range)
        }
    }

    /// Whether the deadline has passed.
    var isOverTime: Bool { overTime() != nil }

    /// The limit error for a statement reached after the deadline, if it has passed.
    func lateDiagnostic(_ file: SourceFile, _ range: SourceRange) -> Diagnostic? {
        overTime().map { RunBudget.limitDiagnostic($0, file, range) }
    }

    private func overTime() -> String? {
        guard let deadline, ContinuousClock.now > deadline else { return nil }
        return RunBudget.overTimeMessage(limits)
    }

    /// What a run past its deadline says (before "; nothing after this line ran").
    static func overTimeMessage(_ limits: Limits) -> String {
        "the run took longer than its time limit\(limits.seconds.map { " of \($0) s" } ?? "")"
    }

    /// Stops the run with a limit error, for a statement refused before it starts.
    mutating func refuse(_ problem: String, _ file: SourceFile, _ range: SourceRange) -> Diagnostic {
        stop(problem, file, range)
    }

    private mutating func stop(_ problem: String, _ file: SourceFile, _ range: SourceRange) -> Diagnostic {
        stopped = true
        return RunBudget.limitDiagnostic(problem, file, range)
    }

    static func limitDiagnostic(_ problem: String, _ file: SourceFile, _ range: SourceRange) -> Diagnostic {
        Diagnostic(.runLimit, problem + "; nothing after this line ran", file: file, range: range,
                   hint: "the host running this script sets the limits")
    }
}

/// An answer given with `user approves|cancels|fails`, waiting for a prompt.
struct PendingAnswer: Sendable {
    var answer: PromptAnswer
    var file: SourceFile
    var range: SourceRange
}

/// An interpreter session: a world and the last call. Batch runs use a fresh
/// session per file; the REPL keeps one. A value, so snapshots are cheap.
public struct Session: Sendable {
    public private(set) var world = World()
    var last: LastCall?
    /// Answers queued for the next authentication prompts, oldest first.
    var pendingAnswers: [PendingAnswer] = []
    /// The last call if it stopped before reaching the engine (an unknown app).
    var lastFailedCall: (file: SourceFile, range: SourceRange)?
    /// Where output and events go; nil when nobody listens (the fast path).
    public typealias Observer = (RunEvent) -> Void

    /// Check calls against the common mistakes (semantics.md section 7) and
    /// report them as warnings. Off unless the host turns it on.
    public var lints = false
    /// Reads `entitlements="PATH"` files; set by ``run(file:loader:options:observer:)``.
    var loader: any SourceLoader = FileSystemLoader()

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
        let sink: Observer? = observer == nil ? nil : { held.append($0) }
        // The clock starts before the parser's first look at the bytes.
        var budget = RunBudget(options.limits, deadline: options.deadline, outputSoFar: options.outputSoFar)
        var parser = Parser(file: file, maxListLength: options.limits.listLength)
        var includes = IncludedPrograms()
        var expandedSizes: [String: Int] = [:]
        var includeErrors: [Diagnostic] = []
        var parsedAny = false
        var late: Diagnostic?
        while let statement = parser.next() {
            parsedAny = true
            // The time limit covers reading the script, not only running it:
            // parsing on to list every error, or past a stop, ends here too.
            if let d = budget.lateDiagnostic(file, statement.range) {
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
            executeReporting(statement, file, &report, options, sink, &budget)
        }
        var syntax = parser.finalDiagnostics + includeErrors
        if parsedAny == false && syntax.isEmpty && options.requireStatements {
            let blank = file.bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
            syntax.append(Diagnostic(.emptyFile, file.bytes.isEmpty ? "the file is empty"
                                        : blank ? "the file has only blank lines" : "the file has no statements, only comments",
                                     file: file, hint: "a scenario declares a team and apps, makes calls and checks them with 'expect'"))
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
        return report
    }

    /// How many statements an included file runs, its includes expanded
    /// (each as often as it is included), counted once per file and capped
    /// just past `cap`, so a diamond of includes is sized in linear time.
    static func expandedStatements(_ key: String, _ includes: IncludedPrograms, _ memo: inout [String: Int],
                                   cap: Int, depth: Int = 0) -> Int {
        if let known = memo[key] { return known }
        guard let program = includes[key], depth <= 256 else { return 0 }
        memo[key] = 0  // a cycle a custom loader let through adds nothing
        var total = 0
        for statement in program.statements where total <= cap {
            if case .include(_, let resolved?) = statement.kind {
                total += expandedStatements(resolved, includes, &memo, cap: cap, depth: depth + 1)
            } else {
                total += 1
            }
        }
        let size = min(total, cap + 1)
        memo[key] = size
        return size
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
    private mutating func executeReporting(_ statement: Statement, _ file: SourceFile, _ report: inout RunReport,
                                           _ options: RunOptions, _ observer: Observer?, _ budget: inout RunBudget,
                                           tooDeep: Bool = false) {
        report.statements += 1
        if lints {
            // Before the statement runs: a look-alike name is often why it fails.
            for warning in mixedScriptWarnings(statement, file) {
                report.record(warning)
                observer?(.diagnostic(warning))
            }
        }
        do throws(Diagnostic) {
            try budget.charge(report.statements, items: world.itemCount, file, statement.range)
            if tooDeep {
                throw Diagnostic(.inputLimit, "includes nest deeper than the limit of \(options.limits.includeDepth)",
                                 file: file, range: statement.range, hint: "the host running this script sets the limits")
            }
            try execute(statement, file, &report, options, observer, &budget)
        } catch {
            if error.code == .runLimit { budget.stopped = true }
            report.record(error)
            if error.code == .expectationFailed { report.failed += 1 }
            observer?(.diagnostic(error))
        }
    }

    // MARK: Statements

    private mutating func execute(_ s: Statement, _ file: SourceFile, _ report: inout RunReport,
                                  _ options: RunOptions, _ observer: Observer?, _ budget: inout RunBudget) throws(Diagnostic) {
        let device = try resolveDevice(s.device, file)
        switch s.kind {
        case .platform(let p):
            do throws(WorldError) { try world.setPlatform(p) } catch { throw worldError(error, file, s.range) }
        case .team(let id, let alias):
            do throws(WorldError) { try world.addTeam(id: id.text, name: alias?.text) } catch {
                throw worldError(error, file, alias?.range ?? id.range)
            }
        case .app(let decl):
            try declareApp(decl, file, s.range)
            if lints {
                for warning in entitlementWarnings(decl, file, s.range) {
                    report.record(warning)
                    observer?(.diagnostic(warning))
                }
            }
        case .group(let name, let apps):
            var handles: [AppHandle] = []
            for a in apps { handles.append(try resolveApp(a, file)) }
            do throws(WorldError) { try world.addGroup(name.text, to: handles) } catch {
                throw worldError(error, file, name.range)
            }
        case .include:
            break  // resolved and run by the caller
        case .call(let call):
            report.calls += 1
            try perform(call, s, device, file, report: &report, options, options.reportCalls ? observer : nil, &budget)
            if lints {
                for warning in lintWarnings(after: call, s, file) {
                    report.record(warning)
                    observer?(.diagnostic(warning))
                }
            }
        case .expectStatus(let wanted) where wanted.count == 1 && last?.result?.status == wanted[0].status:
            // The common case, checked without copying the last call.
            report.passed += 1
            if options.reportPasses { observer?(.expectationPassed(file: file, range: s.range)) }
        case .expectStatus, .expectCount, .expectData, .expectGroup, .expectItem, .expectGroups, .expectDefaultGroup,
             .expectNoData, .expectPersistentRef:
            try check(s, file)
            report.passed += 1
            if options.reportPasses { observer?(.expectationPassed(file: file, range: s.range)) }
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
            last = nil
            lastFailedCall = nil
            pendingAnswers = []
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
            do throws(WorldError) { try world.addDevice(name: name.text, account: account?.text, platform: platform) } catch {
                throw worldError(error, file, name.range)
            }
        case .uninstall(let name):
            world.uninstall(try resolveApp(name, file), from: device)
        case .install(let name):
            world.install(try resolveApp(name, file), on: device)
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
        case .backup(let from, let name):
            world.backup(try resolveDevice(from, file), as: name.text)
        case .restore(let name, let to):
            let target = try resolveDevice(to, file)
            do throws(WorldError) { _ = try world.restore(name.text, to: target) } catch {
                throw worldError(error, file, name.range)
            }
        }
    }

    private mutating func declareApp(_ decl: AppDeclaration, _ file: SourceFile, _ range: SourceRange) throws(Diagnostic) {
        if decl.entitlements != nil { return try declareApp(fromEntitlements: decl, file) }
        if decl.project != nil {
            // Session+Project.swift resolves the target; the world is changed here.
            let p = try projectApp(decl, file)
            do throws(WorldError) {
                let handle = try world.addApp(bundleID: p.bundleID, name: decl.name, teamID: p.teamID, kind: p.kind,
                                              keychainAccessGroups: p.keychainAccessGroups, applicationGroups: p.applicationGroups)
                if !decl.provisioned { world.setProvisioned(false, for: handle) }
            } catch {
                throw worldError(error, file, decl.bundleID.range)
            }
            return
        }
        var teamID: String?
        if let t = decl.team {
            if t.text != "none" {
                guard let team = world.team(named: t.text) else {
                    let known = world.teams.map(\.name)
                    throw Diagnostic(.unknownTeam, "unknown team '\(Suggest.shown(t.text))'", file: file, range: t.range,
                                     hint: Suggest.hint(for: t.text, in: known)
                                        ?? (known.isEmpty ? "declare it first: team \(t.text)" : Suggest.listing("declared teams", known)))
                }
                teamID = team.id
            }
        } else {
            teamID = world.defaultTeam?.id
        }
        do throws(WorldError) {
            let handle = try world.addApp(bundleID: decl.bundleID.text, name: decl.name, teamID: teamID, kind: decl.kind,
                                          keychainAccessGroups: decl.keychainAccessGroups?.map(\.text) ?? [],
                                          applicationGroups: decl.applicationGroups?.map(\.text) ?? [])
            applySigning(decl, handle)
        } catch {
            throw worldError(error, file, decl.alias?.range ?? decl.bundleID.range)
        }
    }

    /// `app BUNDLEID entitlements="PATH"`: the team, app ID and groups come from the file.
    private mutating func declareApp(fromEntitlements decl: AppDeclaration, _ file: SourceFile) throws(Diagnostic) {
        guard let path = decl.entitlements else { return }
        let resolvedPath = loader.resolve(path.text, relativeTo: file.name)
        let source: SourceFile
        do throws(LoadError) { source = try loader.read(resolvedPath) } catch {
            throw Diagnostic(error.code, error.message(for: path.text), file: file, range: path.range,
                             hint: error.hint(otherwise: "paths in entitlements= are relative to the script"))
        }
        let entitlements: Entitlements
        switch Entitlements.decode(source.bytes) {
        case .success(let e): entitlements = e
        case .failure(let e):
            throw Diagnostic(.malformedEntitlements, "\(path.text): \(e.message)", file: file, range: path.range, hint: e.hint)
        }
        var scriptTeam: String?
        if let t = decl.team {
            if t.text != "none" {
                guard let team = world.team(named: t.text) else {
                    throw Diagnostic(.unknownTeam, "unknown team '\(Suggest.shown(t.text))'", file: file, range: t.range,
                                     hint: "declare it first: team \(t.text)")
                }
                scriptTeam = team.id
            }
        } else {
            scriptTeam = world.defaultTeam?.id
        }
        let resolved: ResolvedEntitlements
        switch entitlements.resolve(bundleID: decl.bundleID.text, scriptTeam: scriptTeam, explicitTeam: decl.team != nil) {
        case .success(let r): resolved = r
        case .failure(let e):
            throw Diagnostic(.invalidDeclaration, "\(path.text): \(e.message)", file: file, range: path.range, hint: e.hint)
        }
        do throws(WorldError) {
            let handle = try world.addApp(bundleID: decl.bundleID.text, name: decl.name, teamID: resolved.teamID, kind: decl.kind,
                                          keychainAccessGroups: resolved.keychainAccessGroups,
                                          applicationGroups: resolved.applicationGroups)
            if !resolved.associatedApplicationIdentifiers.isEmpty {
                world.setAssociatedApplicationIdentifiers(resolved.associatedApplicationIdentifiers, for: handle)
            }
            applySigning(decl, handle)
        } catch {
            throw worldError(error, file, decl.alias?.range ?? decl.bundleID.range)
        }
    }

    /// The signing shade and associated application identifiers of a declared app.
    private mutating func applySigning(_ decl: AppDeclaration, _ handle: AppHandle) {
        if decl.effectiveSigning != .provisioned { world.setSigning(decl.effectiveSigning, for: handle) }
        if let ids = decl.associatedApplicationIdentifiers {
            world.setAssociatedApplicationIdentifiers(ids.map(\.text), for: handle)
        }
    }

    private mutating func perform(_ call: CallStatement, _ s: Statement, _ device: DeviceHandle, _ file: SourceFile,
                                  report: inout RunReport, _ options: RunOptions, _ observer: Observer?,
                                  _ budget: inout RunBudget) throws(Diagnostic) {
        let app: AppHandle
        do throws(Diagnostic) {
            app = try resolveApp(call.app, file)
        } catch {
            last = nil
            lastFailedCall = (file, s.range)
            throw error
        }
        guard world.isInstalled(app, on: device) else {
            last = nil
            lastFailedCall = (file, s.range)
            let a = world[app]
            throw Diagnostic(.appNotInstalled, "\(a.name) is not installed on \(world[device].label)", file: file,
                             range: call.app.range,
                             hint: "install it again with 'install \(a.name)': its items are still there")
        }
        var request = call.request
        do throws(Diagnostic) {
            if let ref = call.persistentRef {
                request.spec.persistentRef = try named(ref, in: world.persistentRefs, "persistent reference", "kept", file,
                                                       hint: "keep one first: a find with return=persistent-ref, then 'keep persistent-ref as \(ref.text)'")
            }
            if let ref = call.changedPersistentRef {
                request.changes?.persistentRef = try named(ref, in: world.persistentRefs, "persistent reference", "kept", file,
                                                           hint: "keep one first: 'keep persistent-ref as \(ref.text)'")
            }
            if let context = call.context {
                _ = try named(context, in: world.contexts, "context", "declared", file, hint: "declare it first: context \(context.text)")
            }
        } catch {
            last = nil
            lastFailedCall = (file, s.range)
            throw error
        }
        lastFailedCall = nil
        // Prompts take the queued answers in order; what is left stays queued.
        var queue = pendingAnswers
        var used: [PromptAnswer] = []
        let fallback = options.defaultPromptAnswer
        let result = world.perform(request, as: app, on: device) { _ in
            guard !queue.isEmpty else { return fallback }
            let next = queue.removeFirst()
            used.append(next.answer)
            return next.answer
        }
        pendingAnswers = queue
        var resolved = call
        resolved.request = request  // with the persistent reference, for explanations
        last = LastCall(call: resolved, file: file, range: s.range, app: app, device: device, result: result, answers: used)
        // A call stopped by an unanswered prompt reports an error, not a status.
        if result.reason != .promptUnanswered, let observer {
            // A call by persistent reference reports the reference's class.
            let record = CallRecord(file: file, range: s.range, app: call.app.text, operation: call.request.operation,
                                    itemClass: request.spec.itemClass ?? request.spec.persistentRef?.itemClass,
                                    status: result.status, count: result.count)
            // Hosts print a line per call: it counts as output.
            try budget.chargeOutput(CallLine.text(record).utf8.count + 1, file, s.range)
            observer(.call(record))
        }
        if result.reason == .promptUnanswered {
            // The call could not finish: later expectations say so rather
            // than check a status nobody would see on a device; `explain`
            // still explains it.
            last?.stoppedAtPrompt = true
            throw Diagnostic(.promptUnanswered, "the call needs an answer to an authentication prompt and none is queued",
                             file: file, range: s.range,
                             hint: "put 'user approves' (or cancels, or fails) before the call, or say auth-ui=skip or auth-ui=fail")
        }
    }

    // MARK: Expectations

    private func lastCall(_ file: SourceFile, _ range: SourceRange) throws(Diagnostic) -> (LastCall, CallResult) {
        guard let last else {
            if let failed = lastFailedCall {
                throw Diagnostic(.callDidNotRun, "cannot check: the call before it did not run", file: file, range: range,
                                 notes: [DiagnosticNote("the call that stopped with an error", file: failed.file, range: failed.range)])
            }
            throw Diagnostic(.noPreviousCall, "no call to check: no call has run before this expectation",
                             file: file, range: range, hint: "an expectation about a call follows the call it checks")
        }
        guard let result = last.result, !last.stoppedAtPrompt else {
            throw Diagnostic(.callDidNotRun, "cannot check: the call before it did not run", file: file, range: range,
                             notes: [DiagnosticNote("the call that stopped with an error", file: last.file, range: last.range)])
        }
        return (last, result)
    }

    private func failure(_ message: String, _ file: SourceFile, _ range: SourceRange, _ last: LastCall?,
                         hint: String? = nil) -> Diagnostic {
        var notes: [DiagnosticNote] = []
        if let last {
            notes.append(DiagnosticNote("the call checked", file: last.file, range: last.range))
            notes += Explainer(world: world).explain(last).map { DiagnosticNote($0) }
        }
        return Diagnostic(.expectationFailed, message, file: file, range: range, hint: hint, notes: notes)
    }

    private func check(_ s: Statement, _ file: SourceFile) throws(Diagnostic) {
        switch s.kind {
        case .expectStatus(let wanted):
            let (last, result) = try lastCall(file, s.range)
            guard wanted.contains(where: { $0.status == result.status }) else {
                let names = wanted.map(\.status.description).joined(separator: " or ")
                throw failure("expected status \(names), got \(result.status.description)", file, s.range, last,
                              hint: Explainer.hint(for: result, last: last, world: world))
            }
        case .expectCount(let n):
            let (last, result) = try lastCall(file, s.range)
            guard result.count == n else {
                throw failure("expected count \(n), got \(result.count) (status \(result.status.description))", file, s.range, last)
            }
        case .expectData(let data):
            let (last, returned) = try firstReturnedData("data \"\(data)\"", file, s.range)
            guard returned == data else {
                throw failure("expected data \"\(data)\", got \(returned.map { "\"\($0)\"" } ?? "no data (the result has no kSecValueData)")",
                              file, s.range, last,
                              hint: returned == nil ? "the item was stored without data; return=data alone would give empty data" : nil)
            }
        case .expectNoData:
            let (last, returned) = try firstReturnedData("no data", file, s.range)
            if let returned {
                let storedNothing = returned.isEmpty && last.result?.items.first?.item.data == nil
                throw failure(storedNothing ? "expected no data, but return=data alone returns empty data for an item stored without data"
                                            : "expected no data, got \"\(returned)\"", file, s.range, last,
                              hint: storedNothing ? "write expect data \"\", or ask return=[data, attributes] to tell no data from empty data" : nil)
            }
        case .expectPersistentRef(let name):
            let (last, result) = try lastCall(file, s.range)
            let kept = try named(name, in: world.persistentRefs, "persistent reference", "kept", file,
                                 hint: "keep one first: 'keep persistent-ref as \(name.text)' after a call with return=persistent-ref")
            guard let first = result.items.first else {
                throw failure("expected the item \(name.text) refers to, but the call added or found none (status \(result.status.description))",
                              file, s.range, last)
            }
            let actual = first.persistentRef(on: world.platform(of: last.device))
            let sameRow = kept.itemClass == actual.itemClass && kept.inFileKeychain == actual.inFileKeychain
                && (kept.row == actual.row || {
                    if case .rowID(let id) = kept.row { return id == first.item.rowID }
                    return false
                }())
            guard sameRow else {
                throw failure("expected the item \(name.text) refers to (\(kept)), got \(actual)", file, s.range, last)
            }
        case .expectGroup(let group):
            let (last, result) = try lastCall(file, s.range)
            guard let first = result.items.first else {
                throw failure("expected an item in group \(group.text), but the call added or found none (status \(result.status.description))",
                              file, s.range, last)
            }
            guard first.groupName == group.text else {
                throw failure("expected the item in group \(group.text), it is in \(first.groupName)", file, s.range, last,
                              hint: Suggest.hint(for: group.text, in: [first.groupName]))
            }
        case .expectItem(let spec, let args):
            let (last, result) = try lastCall(file, s.range)
            guard let first = result.items.first else {
                throw failure("expected an item, but the call added or found none (status \(result.status.description))",
                              file, s.range, last)
            }
            let mismatches = Self.mismatches(first, spec, args)
            guard mismatches.isEmpty else {
                throw failure("the item differs: " + mismatches.joined(separator: "; "), file, s.range, last)
            }
        case .expectGroups(let appName, let groups):
            let handle = try resolveApp(appName, file)
            let app = world[handle]
            let wanted = groups.map { AppTarget.expandEntitlement($0.text, teamID: app.teamID) }
            let actual = world.accessGroups(of: handle, on: try resolveDevice(s.device, file))
            guard actual == wanted else {
                throw Diagnostic(.expectationFailed, "\(app.name)'s access groups differ", file: file, range: s.range,
                                 notes: [DiagnosticNote("expected: [\(wanted.joined(separator: ", "))]"),
                                         DiagnosticNote("actual:   [\(actual.joined(separator: ", "))]"),
                                         DiagnosticNote("the list is keychain-access-groups, then the app ID, then application groups")])
            }
        case .expectDefaultGroup(let appName, let group):
            let handle = try resolveApp(appName, file)
            let app = world[handle]
            let device = try resolveDevice(s.device, file)
            let wanted = AppTarget.expandEntitlement(group.text, teamID: app.teamID)
            let actual = world.defaultGroup(of: handle, on: device)
            guard actual == wanted else {
                throw Diagnostic(.expectationFailed,
                                 "expected \(app.name)'s default group \(wanted), it is \(actual ?? "none (unsigned)")",
                                 file: file, range: s.range,
                                 notes: [DiagnosticNote("access groups: [\(world.accessGroups(of: handle, on: device).joined(separator: ", "))]"),
                                         DiagnosticNote("the default is element 0: the first keychain access group, else the app ID; never an app group")])
            }
        default:
            break
        }
    }

    /// The data the last call returned for its first item, as a device
    /// returns it: for an item stored without data, return=data alone gives
    /// empty data and a dictionary result has no kSecValueData (SecItemDb.c
    /// `handle_result`); nil for no data.
    private func firstReturnedData(_ wanted: String, _ file: SourceFile,
                                   _ range: SourceRange) throws(Diagnostic) -> (LastCall, String?) {
        let (last, result) = try lastCall(file, range)
        guard result.returns.contains(.data) else {
            throw failure("expected \(wanted), but the call did not ask for data", file, range, last,
                          hint: "add return=data to the call")
        }
        guard let first = result.items.first else {
            throw failure("expected \(wanted), but the call returned nothing (status \(result.status.description))",
                          file, range, last)
        }
        return (last, first.item.data ?? (result.returns == .data ? "" : nil))
    }

    static func mismatches(_ found: FoundItem, _ spec: ItemSpec, _ args: [CallArgument]) -> [String] {
        var out: [String] = []
        let item = found.item
        for arg in args {
            switch arg.key {
            case .attribute(let a):
                guard let want = spec.attributes[a] else { continue }
                var have = item.attributes.effectiveValue(a)
                if let key = found.identityKey, !a.applies(to: .certificate) { have = key.item.attributes.effectiveValue(a) }
                if have != want { out.append("\(arg.key.name) is \(have), expected \(want)") }
            case .group:
                if let g = spec.accessGroup, g != found.groupName { out.append("group is \(found.groupName), expected \(g)") }
            case .accessible:
                if let a = spec.accessibility, a != item.accessibility {
                    out.append("accessible is \(item.accessibility.rawValue), expected \(a.rawValue)")
                }
            case .sync:
                if let s = spec.synchronizable, s != .any, (s == .yes) != item.synchronizable {
                    out.append("sync is \(item.synchronizable), expected \(s == .yes)")
                }
            case .data:
                if let d = spec.data, d != item.data { out.append("data is \(item.data.map { "\"\($0)\"" } ?? "absent"), expected \"\(d)\"") }
            case .accessControl:
                if let ac = spec.accessControl, ac != item.accessControl {
                    out.append("access-control is \(item.accessControl?.description ?? "none"), expected \(ac)")
                }
            case .dataProtection, .authUI, .limit, .returns, .returnFlag, .persistentRef, .context:
                out.append("\(arg.key.name) is a query option, not an item attribute")
            }
        }
        return out
    }

    // MARK: Names

    func resolveApp(_ name: Name, _ file: SourceFile) throws(Diagnostic) -> AppHandle {
        if let h = world.app(named: name.text) { return h }
        let known = world.apps.map(\.name)
        var hint = Suggest.hint(for: name.text, in: known)
        if hint == nil, let byBundle = world.apps.first(where: { $0.bundleID == name.text }) {
            hint = "apps are named by the last bundle component or 'as NAME': did you mean '\(byBundle.name)'?"
        }
        throw Diagnostic(.unknownApp, "unknown app '\(Suggest.shown(name.text))'", file: file, range: name.range,
                         hint: hint ?? (known.isEmpty ? "declare it first: app com.example.\(Suggest.shown(name.text))"
                                                      : Suggest.listing("declared apps", known)))
    }

    /// A kept persistent reference or a declared context, by name.
    func named<T>(_ name: Name, in table: [String: T], _ what: String, _ how: String, _ file: SourceFile,
                  hint: String) throws(Diagnostic) -> T {
        if let value = table[name.text] { return value }
        throw Diagnostic(.unknownName, "no \(what) named '\(name.text)' has been \(how)", file: file,
                         range: name.range, hint: Suggest.hint(for: name.text, in: table.keys.sorted()) ?? hint)
    }

    /// A team for `transfer`: a declared team's name or ID, or any well-formed team ID.
    func resolveTeamID(_ name: Name, _ file: SourceFile) throws(Diagnostic) -> String {
        if let team = world.team(named: name.text) { return team.id }
        if Team.isWellFormedID(name.text) { return name.text }
        let known = world.teams.map(\.name)
        throw Diagnostic(.unknownTeam, "unknown team '\(Suggest.shown(name.text))'", file: file, range: name.range,
                         hint: Suggest.hint(for: name.text, in: known)
                            ?? "name a declared team or a ten-character team ID")
    }

    func resolveDevice(_ name: Name?, _ file: SourceFile) throws(Diagnostic) -> DeviceHandle {
        guard let name else { return .this }
        if let d = world.device(named: name.text) { return d }
        let known = world.devices.map(\.name)
        throw Diagnostic(.unknownDevice, "unknown device '\(Suggest.shown(name.text))'", file: file, range: name.range,
                         hint: Suggest.hint(for: name.text, in: known) ?? Suggest.listing("devices", known))
    }

    private func worldError(_ e: WorldError, _ file: SourceFile, _ range: SourceRange) -> Diagnostic {
        switch e {
        case .platformAfterApps:
            Diagnostic(.invalidDeclaration, "'platform' must come before the first 'app'", file: file, range: range)
        case .malformedTeamID(let id):
            Diagnostic(.invalidDeclaration, "'\(id)' is not a team ID", file: file, range: range,
                       hint: "a team ID is ten upper-case letters or digits")
        case .duplicateTeam(let n):
            Diagnostic(.invalidDeclaration, "team '\(n)' is already declared", file: file, range: range)
        case .unknownTeam(let n, let known):
            Diagnostic(.unknownTeam, "unknown team '\(n)'", file: file, range: range, hint: Suggest.hint(for: n, in: known))
        case .duplicateApp(let n):
            Diagnostic(.invalidDeclaration, "an app named '\(n)' is already declared", file: file, range: range,
                       hint: "give one of them another name with 'as NAME'")
        case .unknownApp(let n, let known):
            Diagnostic(.unknownApp, "unknown app '\(n)'", file: file, range: range, hint: Suggest.hint(for: n, in: known))
                .didYouMean(n, in: known)
        case .duplicateDevice(let n):
            Diagnostic(.invalidDeclaration, "device '\(n)' is already declared", file: file, range: range)
        case .unknownDevice(let n, let known):
            Diagnostic(.unknownDevice, "unknown device '\(n)'", file: file, range: range, hint: Suggest.hint(for: n, in: known))
        case .unknownBackup(let n, let known):
            Diagnostic(.unknownBackup, "no backup named '\(n)'", file: file, range: range,
                       hint: Suggest.hint(for: n, in: known) ?? "make one first: backup DEVICE as \(n)")
        case .groupNeedsTeam(let g, let app):
            Diagnostic(.invalidDeclaration, "'\(app)' has no team, so keychain group '\(g)' has no prefix", file: file,
                       range: range, hint: "declare a team before the app, or use an app group ('group.…')")
        }
    }
}
