import KCSSyntax
import KeychainEngine

/// A call as it ran, for `--verbose` and structured output.
public struct CallRecord: Sendable {
    public var file: SourceFile
    public var range: SourceRange
    public var app: String
    public var operation: Operation
    public var itemClass: ItemClass?
    public var status: KeychainStatus
    public var count: Int
}

/// Something that happened while a script ran, in order.
public enum RunEvent: Sendable {
    case call(CallRecord)
    /// What `show` and `explain` print.
    case output(String)
    case expectationPassed(file: SourceFile, range: SourceRange)
    /// A failed expectation, a runtime error or a syntax error.
    case diagnostic(Diagnostic)
}

/// What a run reports besides failures and output. Each is off by default
/// because a large script would otherwise produce an event per statement.
public struct RunOptions: Sendable {
    /// Send a ``RunEvent/call(_:)`` for every call (for `--verbose`).
    public var reportCalls: Bool
    /// Send a ``RunEvent/expectationPassed(file:range:)`` for every expectation that held.
    public var reportPasses: Bool

    /// Whether a script without statements is an error (a file yes, a
    /// Markdown block no).
    public var requireStatements: Bool

    /// Bounds for untrusted scripts.
    public var limits: Limits
    /// The answer to an authentication prompt when none is queued with
    /// `user …`; nil makes such a call a runtime error.
    public var defaultPromptAnswer: PromptAnswer?
    /// A host's deadline for the whole input (all blocks of one Markdown
    /// document), on top of ``Limits/seconds`` for this run.
    public var deadline: ContinuousClock.Instant?
    /// Output already printed by earlier runs of the same input, counted
    /// against ``Limits/outputBytes``.
    public var outputSoFar = 0
    /// Checks already listed by earlier runs of the same input, in bytes
    /// counted against ``Limits/generatedBytes``.
    public var reportSoFar = 0
    /// Put the session back as it was when a syntax error turns up (in the
    /// script or an include). A host that has parsed the script already and
    /// found no error and no `include` turns it off: keeping the old session
    /// costs a copy of the world at the first change.
    public var restoresOnSyntaxError = true
    /// Asked before every statement: `true` stops the run there (the REPL's
    /// Ctrl-C). The report says ``RunReport/interrupted``.
    public var interruption: (@Sendable () -> Bool)?

    public init(reportCalls: Bool = false, reportPasses: Bool = false, requireStatements: Bool = true,
                limits: Limits = Limits(), defaultPromptAnswer: PromptAnswer? = nil) {
        self.reportCalls = reportCalls
        self.reportPasses = reportPasses
        self.requireStatements = requireStatements
        self.limits = limits
        self.defaultPromptAnswer = defaultPromptAnswer
    }
}

/// Bounds a host sets before it runs a script it does not trust. Going past
/// one is a diagnostic at the line that did, and the run stops; never a
/// crash, a hang or unbounded memory.
public struct Limits: Sendable, Hashable {
    /// Bytes of one script file.
    public var sourceBytes: Int
    /// Statements executed in one run, includes counted.
    public var statements: Int
    /// Items stored across all devices and keychains.
    public var items: Int
    /// Elements of one `[ … ]` list.
    public var listLength: Int
    /// Depth of nested includes.
    public var includeDepth: Int
    /// Wall-clock time of one run, in seconds.
    public var seconds: Double?
    /// Bytes a run may print (show, explain, call lines); nil: no limit.
    public var outputBytes: Int?
    /// Bytes of a generated file or report: the Swift of `kcs export`, and
    /// the checks a JSON, JUnit or TAP report lists (each passed check
    /// counts its statement's bytes and ``bytesPerCheck``). Includes repeat
    /// statements, so a small script can ask for gigabytes: 103 KB of
    /// scripts made `kcs export --swift` abort at 2.7 GB (adversarial 20, M6).
    public var generatedBytes: Int

    /// What a listed check adds to a report besides its statement, at least
    /// (`ok N - FILE:LINE: ` in TAP; JSON and JUnit say more).
    public static let bytesPerCheck = 64

    /// Generous defaults: far beyond any hand-written scenario, well inside
    /// the machine.
    public init(sourceBytes: Int = 256 << 20, statements: Int = 50_000_000, items: Int = 20_000_000,
                listLength: Int = 100_000, includeDepth: Int = 32, seconds: Double? = nil, outputBytes: Int? = nil,
                generatedBytes: Int = 64 << 20) {
        self.sourceBytes = sourceBytes
        self.statements = statements
        self.items = items
        self.listLength = listLength
        self.includeDepth = includeDepth
        self.seconds = seconds
        self.outputBytes = outputBytes
        self.generatedBytes = generatedBytes
    }

    /// Tight bounds for scripts from strangers (a web playground, a fuzzer).
    public static let untrusted = Limits(sourceBytes: 1 << 20, statements: 100_000, items: 100_000,
                                         listLength: 1_000, includeDepth: 8, seconds: 5, outputBytes: 1 << 20,
                                         generatedBytes: 1 << 20)
}

/// The outcome of running one script.
public struct RunReport: Sendable {
    public var passed = 0
    public var failed = 0
    /// Errors in the order they arose: syntax errors (then nothing ran),
    /// runtime errors and failed expectations.
    ///
    /// At most ``keptDiagnostics`` are kept; the rest are counted in
    /// ``droppedDiagnostics`` (a script whose includes run one failing line
    /// a million times must not hold a million diagnostics). Observers see
    /// the same first ``keptDiagnostics``: the session holds events until
    /// the script has parsed, and holds no more than that.
    public var diagnostics: [Diagnostic] = []
    /// Diagnostics past ``keptDiagnostics``, counted, not kept.
    public var droppedDiagnostics = 0
    /// The phases of the dropped errors, so the exit code stays right.
    private var droppedErrorPhases: Set<DiagnosticCode.Phase> = []
    /// Dropped diagnostics that are errors but not failed checks, so the
    /// closing line counts every error.
    public private(set) var droppedErrors = 0
    /// Errors that are not failed checks, kept and dropped.
    public var errors: Int { diagnostics.count(where: \.isErrorButNotACheck) + droppedErrors }
    /// Diagnostics a report keeps, at most.
    public static let keptDiagnostics = 10_000
    public var calls = 0
    public var statements = 0
    /// Bytes of output counted against ``Limits/outputBytes`` (with
    /// ``RunOptions/outputSoFar``).
    public var outputBytes = 0
    /// The host's ``RunOptions/interruption`` stopped the run.
    public var interrupted = false
    /// Bytes of listed checks counted against ``Limits/generatedBytes``
    /// (with ``RunOptions/reportSoFar``).
    public var reportBytes = 0

    public init() {}

    private func has(_ phase: DiagnosticCode.Phase) -> Bool {
        droppedErrorPhases.contains(phase) || diagnostics.contains { $0.severity == .error && $0.code.phase == phase }
    }

    /// Keeps a diagnostic, or counts it once ``keptDiagnostics`` are kept.
    package mutating func record(_ d: Diagnostic) {
        if diagnostics.count < Self.keptDiagnostics {
            diagnostics.append(d)
        } else {
            droppedDiagnostics += 1
            if d.severity == .error { droppedErrorPhases.insert(d.code.phase) }
            if d.isErrorButNotACheck { droppedErrors += 1 }
        }
    }

    /// The script, or a file it includes, could not be read.
    public var fileNotFound: Bool { has(.input) }
    public var hasSyntaxErrors: Bool { has(.syntax) }
    public var hasRuntimeErrors: Bool { has(.runtime) }

    /// How the run ended (language.md): every expectation held; an
    /// expectation failed or a call hit a runtime error; a syntax error
    /// (nothing ran); a file (the script or an include) not found or not
    /// readable. `kcs` maps it to its exit status.
    public var verdict: Verdict {
        if fileNotFound { return .missingInput }
        if hasSyntaxErrors { return .invalidInput }
        if failed > 0 || hasRuntimeErrors { return .failed }
        return .passed
    }
}

/// How a run, a file or a command ended, from best to worst: outcomes
/// combine by the worst (`max`). The library says what happened; the
/// command line alone turns it into a process exit status.
public enum Verdict: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// Everything held.
    case passed
    /// An expectation failed, a call hit a runtime error, or (with `--strict`)
    /// a lint warning; for tools, nothing could be done with valid input.
    case failed
    /// The request itself was wrong: an option names nothing that exists.
    case invalidRequest
    /// The input does not parse: nothing ran.
    case invalidInput
    /// An input (the script, an include, a project) could not be read.
    case missingInput

    public static func < (a: Verdict, b: Verdict) -> Bool { a.rawValue < b.rawValue }

    /// The name reports use (`"verdict": "failed"`).
    public var name: String {
        switch self {
        case .passed: "passed"
        case .failed: "failed"
        case .invalidRequest: "invalid-request"
        case .invalidInput: "invalid-input"
        case .missingInput: "missing-input"
        }
    }
}

/// The one way a call's result is printed: in the REPL, in `kcs check`
/// output blocks and (after `FILE:LINE: `) by `kcs run --verbose`:
/// `AppOne find generic-password → errSecSuccess (0), 1 item`.
public enum CallLine {
    public static func text(_ c: CallRecord) -> String {
        // The app's name as written may hold a line break (found by adversarial testing).
        var line = "\(TerminalText.escaped(c.app)) \(c.operation.rawValue) \(c.itemClass?.rawValue ?? "(no class)") → \(c.status.description)"
        if c.status == .success && c.operation != .add {
            line += ", \(c.count) item\(c.count == 1 ? "" : "s")"
        }
        return line
    }
}
