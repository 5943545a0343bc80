import Foundation
import KCSLanguage

/// What `kcs run` was asked to do, as plain values: ``Run`` makes it from
/// parsed arguments and the fast path (``init(fastPath:)``) from a plain
/// `kcs run FILE…`, and both run it through ``run()``.
struct RunSettings: Equatable {
    var files: [String]
    var verbose = false
    var format = OutcomeFormat.text
    /// `--jobs`; nil: the number of cores, asked only when there are several files.
    var jobs: Int?
    var shard: Shard?
    var colour = ColourMode.auto
    var lint = LintMode.warn
    var safety = Safety()
    var watch = false

    /// Runs the files (with `--watch`, again after each change, never returning).
    func run() -> Verdict {
        if watch {
            Watcher.loop(loader: FileSystemLoader(), inputs: { Shard.select(files, shard) }) { files, recorder in
                _ = runOnce(files, recorder: recorder)
            }
        }
        return runOnce(Shard.select(files, shard), recorder: nil)
    }

    /// One run of every file; with `--watch`, each file's reads are recorded.
    func runOnce(_ files: [String], recorder: RecordingLoader?) -> Verdict {
        var batch = BatchRunner(verbose: verbose, lint: lint, collectChecks: format != .text, limits: safety.limits)
        // One file and no watching: the process exits once it is done.
        batch.abandonsWorld = files.count == 1 && recorder == nil
        let runner = batch
        let stdin = files.contains("-") ? safety.readStandardInput() : .bytes([])
        let safety = self.safety
        return Printer(format: format, colour: useColour(colour)).runAll(files, jobs: jobs) { path in
            var runner = runner
            runner.loader = recorder.map { $0.through(safety.loader(for: path)) } ?? safety.loader(for: path)
            guard path == "-" else { return runner.run(path: path) }
            switch stdin {
            case .bytes(let bytes): return runner.run(SourceFile(name: "<stdin>", bytes: bytes))
            case .failed(let outcome): return outcome
            }
        }
    }
}

extension RunSettings {
    /// `kcs run FILE…` with no option, the common small run, recognised
    /// without ArgumentParser: building its command tree (by reflection over
    /// every command's options) took 50 M of the 60 M instructions a small
    /// example ran (docs/performance.md). Anything else (an option, `--`, no
    /// file, a Markdown document) is nil and goes to the parser, which makes
    /// the same settings from these arguments (a test compares them).
    init?(fastPath arguments: ArraySlice<String>) {
        guard arguments.first == "run", arguments.count > 1 else { return nil }
        let files = Array(arguments.dropFirst())
        for file in files where (file.hasPrefix("-") && file != "-") || isMarkdownPath(file) { return nil }
        self.init(files: files)
    }
}
