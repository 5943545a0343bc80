// kcs-bench: the core benchmark through the embedding API, in process.
//
//   kcs-bench FILE.kcs
//
// Parses a generated scenario (scripts/gen-bench.py) once, untimed, runs its
// declarations into a world, turns every call into an engine request, and
// then times only `World.perform` over them. Each status is compared with
// the script's `expect status` so a fast wrong answer cannot pass.
import KCSLanguage
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

let arguments = CommandLine.arguments
guard arguments.count == 2 else { fail("usage: kcs-bench FILE.kcs") }
let file: SourceFile
do { file = try FileSystemLoader().read(arguments[1]) } catch { fail("cannot read \(arguments[1])") }
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
let resolved = calls.map { call -> (AppHandle, CallRequest, [KeychainStatus]) in
    guard let app = world.app(named: call.app) else { fail("unknown app \(call.app)") }
    return (app, call.request, call.expected)
}

let clock = ContinuousClock()
var mismatches = 0
let elapsed = clock.measure {
    for (app, request, expected) in resolved {
        let result = world.perform(request, as: app)
        if !expected.isEmpty && !expected.contains(result.status) { mismatches += 1 }
    }
}
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
let perSecond = seconds > 0 ? Int(Double(resolved.count) / seconds) : 0
print("in-process: \(resolved.count) calls in \(String(format3(seconds))) s, \(perSecond) calls/s, \(world.itemCount) items, \(mismatches) status mismatches")
if mismatches > 0 { exit(1) }

func format3(_ x: Double) -> String {
    let scaled = Int((x * 1000).rounded())
    let fraction = String(scaled % 1000)
    return "\(scaled / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}
