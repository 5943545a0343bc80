// Shared by every libFuzzer target in fuzz/targets/ (scripts/fuzz.sh
// compiles this file with each of them). Not part of the SwiftPM build.
//
// Input convention for targets that read several files: the bytes are split
// at lines that start with `%%% NAME`; each such line starts the file NAME.
// Bytes before the first marker are the main file (named by the target),
// unless the input starts with a marker, which then names the main file
// itself (so the fuzzer also controls the name that reaches diagnostics and
// reports). Names are normalised as the file-system loader normalises them,
// so `include "./a.kcs"` finds `%%% a.kcs`.
#if canImport(Glibc)
import Glibc
#endif
import KCSLanguage

/// The main file and every other file of one fuzz input.
struct FuzzFiles {
    var main: SourceFile
    var files: [String: [UInt8]]

    static let marker = Array("%%% ".utf8)

    init(_ bytes: [UInt8], mainName: String) {
        // Offsets of marker lines (at the start or right after a line break).
        var starts: [Int] = []
        var i = 0
        while i + Self.marker.count <= bytes.count {
            if (i == 0 || bytes[i - 1] == 0x0A) && bytes[i..<(i + Self.marker.count)].elementsEqual(Self.marker) {
                starts.append(i)
            }
            i += 1
        }
        var chunks: [(String, [UInt8])] = []
        if starts.first != 0 {
            let end = starts.first.map { max(0, $0 - 1) } ?? bytes.count
            chunks.append((mainName, Array(bytes[0..<end])))
        }
        let names = FileSystemLoader()
        for (n, start) in starts.enumerated() {
            var nameEnd = start + Self.marker.count
            while nameEnd < bytes.count && bytes[nameEnd] != 0x0A { nameEnd += 1 }
            let name = names.resolve(String(decoding: bytes[(start + Self.marker.count)..<nameEnd], as: UTF8.self),
                                     relativeTo: nil)
            let contentStart = min(nameEnd + 1, bytes.count)
            let contentEnd = n + 1 < starts.count ? max(contentStart, starts[n + 1] - 1) : bytes.count
            chunks.append((name, Array(bytes[contentStart..<contentEnd])))
        }
        main = SourceFile(name: chunks[0].0, bytes: chunks[0].1)
        var files: [String: [UInt8]] = [:]
        // The first file of a name wins, as a real directory holds one.
        for (name, content) in chunks.reversed() { files[name] = content }
        self.files = files
    }

    var loader: MemoryLoader { MemoryLoader(files: files) }
}

/// Serves the fuzz input's files from memory: includes and `entitlements=`
/// reach them (cycles included), and nothing touches the disk.
struct MemoryLoader: SourceLoader {
    let files: [String: [UInt8]]
    private let paths = FileSystemLoader()

    func resolve(_ path: String, relativeTo including: String?) -> String {
        paths.resolve(path, relativeTo: including)
    }

    func read(_ resolved: String) throws(LoadError) -> SourceFile {
        guard let bytes = files[resolved] else { throw .notFound(resolved) }
        return SourceFile(name: resolved, bytes: bytes)
    }
}

/// The input bytes of one libFuzzer call.
func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
}

/// Stops the process with a message when an oracle fails: libFuzzer keeps
/// the input as a crash.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if condition { return }
    let text = "kcs fuzz oracle failed: \(message())\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, text.utf8.count) }
    abort()
}

/// Diagnostics point into their file, carry a message and render. Only the
/// first 64 are rendered, as many as a person reads: how many a file may
/// produce is the limits' business (docs/fuzzing.md, findings).
func checkDiagnostics(_ diagnostics: [Diagnostic]) {
    let renderer = DiagnosticRenderer()
    for d in diagnostics.prefix(64) {
        require(!d.message.isEmpty, "diagnostic \(d.code.rawValue) without a message")
        if let file = d.file, let range = d.range {
            require(range.start >= 0 && range.start <= range.end && range.end <= file.bytes.count,
                    "diagnostic \(d.code.rawValue) range \(range.start)..<\(range.end) outside \(file.bytes.count) bytes")
        }
        require(!renderer.render(d).isEmpty, "diagnostic \(d.code.rawValue) renders to nothing")
    }
}

/// Exit codes the command line documents.
/// A verdict must say what the diagnostics say: invalid input has a syntax
/// error, and a script run that passed has no error (a Markdown check may:
/// a block documented to fail).
func checkVerdict(_ verdict: Verdict, _ diagnostics: [Diagnostic], _ what: String, passedMeansClean: Bool = true) {
    let errors = diagnostics.filter { $0.severity == .error }
    if verdict == .passed && passedMeansClean { require(errors.isEmpty, "\(what): passed with \(errors.count) errors") }
    if verdict == .invalidInput { require(errors.contains { $0.code.phase == .syntax }, "\(what): invalid input without a syntax error") }
}
