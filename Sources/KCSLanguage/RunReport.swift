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

    public init(reportCalls: Bool = false, reportPasses: Bool = false, requireStatements: Bool = true) {
        self.reportCalls = reportCalls
        self.reportPasses = reportPasses
        self.requireStatements = requireStatements
    }
}

/// The outcome of running one script.
public struct RunReport: Sendable {
    public var passed = 0
    public var failed = 0
    /// Errors in the order they arose: syntax errors (then nothing ran),
    /// runtime errors and failed expectations.
    public var diagnostics: [Diagnostic] = []
    public var calls = 0
    public var statements = 0

    public init() {}

    private func has(_ phase: DiagnosticCode.Phase) -> Bool {
        diagnostics.contains { $0.severity == .error && $0.code.phase == phase }
    }

    /// The script, or a file it includes, could not be read.
    public var fileNotFound: Bool { has(.input) }
    public var hasSyntaxErrors: Bool { has(.syntax) }
    public var hasRuntimeErrors: Bool { has(.runtime) }

    /// The batch runner's exit code (language.md): 0 every expectation held,
    /// 1 an expectation failed or a call hit a runtime error, 65 syntax error
    /// (nothing ran), 66 a file (the script or an include) not found or not
    /// readable.
    public var exitCode: Int32 {
        if fileNotFound { return 66 }
        if hasSyntaxErrors { return 65 }
        if failed > 0 || hasRuntimeErrors { return 1 }
        return 0
    }
}
