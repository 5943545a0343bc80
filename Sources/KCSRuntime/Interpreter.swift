import KCSSyntax
/// The embedding entry points: run a scenario from text or a file and get a
/// structured report.
public enum Interpreter {
    /// Runs a script given as text in a fresh world.
    public static func run(source: String, name: String = "<string>", loader: any SourceLoader = FileSystemLoader(),
                           options: RunOptions = RunOptions(), observer: Session.Observer? = nil) -> RunReport {
        run(file: SourceFile(name: name, text: source), loader: loader, options: options, observer: observer)
    }

    /// Runs a script file's contents in a fresh world.
    public static func run(file: SourceFile, loader: any SourceLoader = FileSystemLoader(),
                           options: RunOptions = RunOptions(), observer: Session.Observer? = nil) -> RunReport {
        var session = Session()
        return session.run(file: file, loader: loader, options: options, observer: observer)
    }

    /// Reads and runs a script at `path` in a fresh world. A missing file is
    /// reported as a diagnostic (exit code 66), not thrown.
    public static func run(path: String, loader: any SourceLoader = FileSystemLoader(),
                           options: RunOptions = RunOptions(), observer: Session.Observer? = nil) -> RunReport {
        do {
            return run(file: try loader.read(loader.resolve(path, relativeTo: nil)), loader: loader, options: options,
                       observer: observer)
        } catch {
            var report = RunReport()
            let hint = error.hint(otherwise: error.code == .fileNotFound ? "check the path; kcs run takes .kcs files or - for standard input" : "")
            let d = Diagnostic(error.code, error.message(for: path), hint: hint.isEmpty ? nil : hint)
            report.diagnostics.append(d)
            observer?(.diagnostic(d))
            return report
        }
    }
}
