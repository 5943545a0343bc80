// kcs-bench: the core benchmark through the embedding API, in process.
//
//   kcs-bench FILE.kcs
//   kcs-bench --phases FILE.kcs
//   kcs-bench --once FILE.kcs
//   kcs-bench --repl
//   kcs-bench --intern-hash TEXT
//
// With --once it runs the file once as `kcs run` does (lint on, nothing
// printed), for a profiler: `valgrind --tool=callgrind kcs-bench --once F`.
// With --phases it prints where a whole `kcs run` spends its time, each
// phase measured on its own, best of three: lexing alone, parsing alone
// (lexing included), the engine calls alone, and a whole run without and
// with lint. Lint is the difference of the last two; session glue is the
// run without lint less parsing and the calls.
// Parses a generated scenario (scripts/gen-bench.py) once, untimed, runs its
// declarations into a world, turns every call into an engine request, and
// then times only `World.perform` over them. Each status is compared with
// the script's `expect status` so a fast wrong answer cannot pass.
import KCSLanguage
import KCSRepl
import KeychainEngine
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func fail(_ message: String) -> Never {
    var text = "kcs-bench: " + message + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(1)
}

// --intern-hash TEXT: the intern table's slot hash of TEXT, for the test
// that the hash is seeded per process (review 22b, R11).
if CommandLine.arguments.count == 3 && CommandLine.arguments[1] == "--intern-hash" {
    print(AttributeText.internTableHash(CommandLine.arguments[2]))
    exit(0)
}

// --repl: the cost of one REPL line, in a world of 1,000 items and of
// 100,000: the REPL keeps no copy of the world per line, so the two match.
if CommandLine.arguments.count == 2 && CommandLine.arguments[1] == "--repl" {
    let clock = ContinuousClock()
    for size in [1_000, 100_000] {
        var state = ReplState()
        var setup = "team SKMME9E2Y8\napp com.bench.App as App\n"
        for i in 0..<size { setup += "as App add generic-password service=\"s\" account=\"a\(i)\"\n" }
        _ = state.run(SourceFile(name: "setup", text: setup))
        let lines = 2_000
        let elapsed = clock.measure {
            for i in 0..<lines {
                _ = state.run(SourceFile(name: "<repl>", text: "as App add generic-password service=\"t\" account=\"b\(i)\"\n"))
            }
        }
        let micros = (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12) / Double(lines)
        print("repl: \(lines) lines in a world of \(size) items: \(Int(micros.rounded())) µs per line")
    }
    exit(0)
}

var arguments = CommandLine.arguments
let phases = arguments.count == 3 && arguments[1] == "--phases"
let once = arguments.count == 3 && arguments[1] == "--once"
if phases || once { arguments.remove(at: 1) }
guard arguments.count == 2 else { fail("usage: kcs-bench [--phases|--once] FILE.kcs") }
let file: SourceFile
do { file = try FileSystemLoader().read(arguments[1]) } catch { fail("cannot read \(arguments[1])") }
if once {
    let outcome = BatchRunner(loader: NoFilesLoader(), lint: .warn, collectChecks: false).run(file)
    if outcome.failed > 0 || outcome.errors > 0 { fail("\(outcome.failed) failed, \(outcome.errors) errors") }
    exit(0)
}
let (program, diagnostics) = Parser.parse(file)
guard diagnostics.isEmpty else { fail("the scenario has syntax errors") }

// Declarations run through a session; calls become requests.
var header = ""
var calls: [(app: String, request: CallRequest, expected: [KeychainStatus])] = []
for statement in program.statements {
    switch statement.kind {
    case .call(let call):
        calls.append((call.app.text, call.request, []))
    case .expectStatus(let wanted):
        if !calls.isEmpty { calls[calls.count - 1].expected = wanted.map(\.status) }
    case .platform, .team, .app, .group:
        header += file.text(statement.range) + "\n"
    default:
        break
    }
}
var session = Session()
let report = session.run(file: SourceFile(name: "header", text: header), loader: NoFilesLoader())
guard report.diagnostics.isEmpty else { fail("the declarations did not run") }
var world = session.world
// Apart, so that the timed loop lends each request to the engine rather
// than copying a tuple out of an array; `calls` is dropped so the requests
// are held once.
let callers = calls.map { call -> AppHandle in
    guard let app = world.app(named: call.app) else { fail("unknown app \(call.app)") }
    return app
}
let requests = calls.map(\.request), expectations = calls.map(\.expected)
calls = []

let clock = ContinuousClock()
func inSeconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}
/// The best of three timings of `body`, in seconds.
func best(_ body: () -> Void) -> Double {
    (0..<3).map { _ in inSeconds(clock.measure(body)) }.min() ?? 0
}

/// Runs every call on a copy of `world`; returns how many statuses differ from the script's.
func performAll(_ world: World) -> Int {
    var w = world
    var mismatches = 0
    requests.withUnsafeBufferPointer { requests in
        for i in requests.indices {
            let status = w.perform(requests[i], as: callers[i]).status
            if !expectations[i].isEmpty && !expectations[i].contains(status) { mismatches += 1 }
        }
    }
    return mismatches
}
var mismatches = 0

if phases {
    let lex = best {
        var lexer = Lexer(file: file)
        while lexer.next().kind != .end {}
    }
    let parse = best {
        var parser = Parser(file: file)
        while parser.next() != nil {}
    }
    let engine = best { mismatches = performAll(world) }
    func run(_ lint: LintMode) -> Double {
        best { _ = BatchRunner(loader: NoFilesLoader(), lint: lint, collectChecks: false).run(file) }
    }
    let plain = run(.off), linted = run(.warn)
    func row(_ name: String, _ t: Double) -> String {
        let share = linted > 0 ? Int((t / linted * 100).rounded()) : 0
        return "  " + name + String(repeating: " ", count: max(1, 24 - name.count)) + format3(t) + " s  \(share) %"
    }
    print("kcs phases, in process, best of 3 (share of a whole run with lint):")
    print(row("lexing", lex))
    print(row("parsing (after lexing)", max(0, parse - lex)))
    print(row("engine calls", engine))
    print(row("session glue", max(0, plain - parse - engine)))
    print(row("lint", max(0, linted - plain)))
    print(row("whole run with lint", linted))
    if mismatches > 0 { fail("\(mismatches) status mismatches") }
    exit(0)
}

let elapsed = clock.measure { mismatches = performAll(world) }
let seconds = inSeconds(elapsed)
let perSecond = seconds > 0 ? Int(Double(requests.count) / seconds) : 0
print("in-process: \(requests.count) calls in \(String(format3(seconds))) s, \(perSecond) calls/s, \(mismatches) status mismatches")
if mismatches > 0 { exit(1) }

func format3(_ x: Double) -> String {
    let scaled = Int((x * 1000).rounded())
    let fraction = String(scaled % 1000)
    return "\(scaled / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}
