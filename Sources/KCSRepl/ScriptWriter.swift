#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import KCSLanguage

/// Writes a REPL session as a `.kcs` script that `kcs run` passes: every
/// statement that ran, in order, with an `expect status` after each call
/// holding the status that was observed, so an exploration becomes a
/// regression test.
///
/// What would make the script fail is kept as a comment: a statement that hit
/// an error (an unknown app, a failed expectation, a statement not modelled
/// yet). `show` and `explain` are kept as comments too, since a test need not
/// print.
enum ScriptWriter {
    static func script(_ entries: [ReplState.Entry], name: String) -> String {
        // The file's name as typed may hold control characters: escaped, so
        // the script holds none and printing it prints none.
        var out = "# A kcs REPL session, saved with ':save'. Run it with: kcs run \(TerminalText.shellWord(name))\n"
        for entry in entries { write(entry, into: &out) }
        return out
    }

    private static func write(_ entry: ReplState.Entry, into out: inout String) {
        let file = entry.file
        // A comment holds one line: a line break in a name or a message
        // would end it, and what follows would run (found by adversarial
        // testing: an expect data "\n…" saved a live delete).
        if entry.loaded { out += "\n# from :load \(TerminalText.escaped(file.name))\n" }
        var calls: [Int: CallRecord] = [:]
        var errors: [(SourceRange, Diagnostic)] = []
        // An include that could not be read, or formed a cycle, is an error
        // at its own line, and a syntax error anywhere keeps the input out of
        // the session: an error in another file was raised by a statement of
        // an included file that ran, after the ones before it (an expectation,
        // an unreadable entitlements file). The include line stays, with a
        // note: it declared what the lines after it use (commenting it out
        // broke the replay; adversarial run 24, F3, and review R3).
        var includeReported = false
        for event in entry.events {
            switch event {
            case .call(let c) where c.file === file:
                calls[c.range.start] = c
            case .diagnostic(let d) where d.severity == .error:
                if d.file === file, let r = d.range { errors.append((r, d)) } else { includeReported = true }
            default:
                break
            }
        }
        for s in Parser.parse(file).program.statements {
            let text = trimmedTrailing(file.text(s.range))
            if let (_, d) = errors.first(where: { $0.0.start >= s.range.start && $0.0.start <= s.range.end }) {
                out += "# \(d.code.rawValue) \(TerminalText.escaped(d.message)):\n" + commented(text)
                continue
            }
            switch s.kind {
            case .show, .explain:
                out += commented(text)
            case .include(let path, _):
                let resolved = absolute(FileSystemLoader().resolve(path, relativeTo: file.name))
                // Spelled as the language spells strings: a line break or an
                // escape in a file's name was written raw (found by
                // adversarial testing).
                let line = "include " + ScriptText.quoted(resolved)
                out += (includeReported ? "# an included file reported an error when it ran; kcs run reports it again\n" : "") + line + "\n"
            case .call:
                out += text + "\n"
                if let c = calls[s.range.start] { out += "expect status \(c.status.name)\n" }
            default:
                out += text + "\n"
            }
        }
    }

    /// Each line of `text` as a comment; a lone carriage return ends a line too.
    private static func commented(_ text: String) -> String {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .map { "# " + $0 + "\n" }.joined()
    }

    private static func trimmedTrailing(_ s: String) -> String {
        var s = Substring(s)
        while let last = s.last, last == " " || last == "\t" || last == "\n" || last == "\r" { s.removeLast() }
        return String(s)
    }

    /// A path relative to the working directory made absolute, so the saved
    /// script finds the file wherever the script itself is kept.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return cwd + "/" + path
    }
}

extension String {
    /// Every occurrence of `target` replaced (without Foundation).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
