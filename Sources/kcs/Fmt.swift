import ArgumentParser
import Foundation
import KCSLanguage

/// `kcs fmt`: rewrites scripts and the kcs blocks of Markdown documents in
/// the canonical layout (``CanonicalLayout``).
struct Fmt: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Format .kcs scripts and the kcs blocks of Markdown documents in the canonical layout.",
        discussion: """
            Files are rewritten in place, atomically (the old or the new text, never half of
            either), and only when they changed; each rewritten file is listed. A folder
            stands for the .kcs and .md files below it (hidden folders skipped). - reads
            standard input and writes the result to standard output.
            With --check nothing is written: the files that would change are listed and the
            exit status is 1 if there are any (for CI).
            Exit status: \(ExitStatus.success.rawValue) done (or nothing to change), \(ExitStatus.failure.rawValue) --check found files to change,
            \(ExitStatus.dataError.rawValue) a file could not be formatted (invalid UTF-8, a NUL byte, a direction control),
            \(ExitStatus.noInput.rawValue) a file could not be read or written.
            """)

    @Flag(help: "Write nothing; list the files that would change and exit 1 if any would.")
    var check = false

    @Argument(help: "Scripts (.kcs), Markdown documents (.md) or folders; - for standard input.",
              completion: FileKinds.documents)
    var paths: [String]

    @OptionGroup var colour: ColourOptions

    mutating func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one file or folder, or - for standard input") }
    }

    func run() throws {
        let renderer = DiagnosticRenderer(colour: colour.enabled())
        var verdict = Verdict.passed
        for path in documents(paths) {
            // A file name is printed escaped: it may hold control characters,
            // and it starts the line that lists a changed file.
            let shown = TerminalText.lineStart(path)
            let original: [UInt8]
            do throws(LoadError) {
                // Standard input only as far as formatting goes: read to the
                // loader's 256 MiB, 240 MiB peaked at 585 MB before being
                // refused (found by adversarial testing).
                original = path == "-" ? try FileSystemLoader.readStandardInput(maxBytes: CanonicalLayout.maxBytes)
                                       : try FileSystemLoader().read(path).bytes
            } catch {
                printError("kcs fmt: \(TerminalText.escaped(error.message(for: path)))\n")
                verdict = max(verdict, .missingInput)
                continue
            }
            let formatted: [UInt8]
            if isMarkdownPath(path), let why = CanonicalLayout.sizeRefusal(original.count) {
                printError("kcs fmt: \(shown): not formatted: \(why)\n")
                verdict = max(verdict, .invalidInput)
                continue
            }
            if isMarkdownPath(path) {
                formatted = CanonicalLayout.formatMarkdown(original, name: path) { d in
                    printError(renderer.render(d))
                    verdict = max(verdict, .invalidInput)
                }
            } else {
                do throws(CanonicalLayout.Failure) {
                    formatted = try CanonicalLayout.format(SourceFile(name: path == "-" ? "<stdin>" : path, bytes: original))
                } catch {
                    switch error {
                    case .unreadable(let d): printError(renderer.render(d))
                    case .changedMeaning(_, let at): printError("kcs fmt: \(shown):\(at): not formatted: the layout would change the tokens here (a bug; please report it)\n")
                    }
                    verdict = max(verdict, .invalidInput)
                    continue
                }
            }
            if path == "-" {
                writeAll(1, check ? [] : formatted)
                if check && formatted != original { writeAll(1, Array("<stdin>\n".utf8)); verdict = max(verdict, .failed) }
                continue
            }
            guard formatted != original else { continue }
            if check {
                writeAll(1, Array((shown + "\n").utf8))
                verdict = max(verdict, .failed)
                continue
            }
            do throws(WriteError) {
                try AtomicFile.write(formatted, to: path, mode: .replaceIfUnchanged(original))
                writeAll(1, Array((shown + "\n").utf8))
            } catch {
                printError("kcs fmt: \(TerminalText.escaped(error.message))\n")
                verdict = max(verdict, .missingInput)
            }
        }
        try ExitStatus.finish(verdict)
    }

    /// The files named, folders replaced by the .kcs and .md files below
    /// them (sorted; hidden folders such as .git and .build skipped). A
    /// folder that cannot be listed is named as it is, and reading it fails.
    func documents(_ paths: [String]) -> [String] {
        let walk = FolderWalk(paths, followsFileLinks: false) { $0.hasSuffix(".kcs") || isMarkdownPath($0) }
        for link in walk.skippedLinks.sorted() {
            printError("kcs fmt: \(TerminalText.lineStart(link)): a symbolic link in a folder is not followed; name it to format the file it points to\n")
        }
        return walk.files + walk.unlisted.keys.sorted()
    }

}
