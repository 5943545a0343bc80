import KCSRuntime
import KCSSyntax

/// The statement reference of grammar.md, generated from the grammar table
/// (`kcs textmate --format reference`; scripts/update-grammar.sh writes it
/// between the markers, and a test fails when the page differs).
public enum GrammarReference {
    public static let begin = "<!-- statement table: generated from the grammar table by scripts/update-grammar.sh -->"
    public static let end = "<!-- end of statement table -->"

    /// One row per statement form: its syntax, what it does, an example.
    public static func markdownTable() -> String {
        func cell(_ s: String) -> String { s.escaping(["|": "\\|"]) }
        var out = "| Statement | What it does | Example |\n|---|---|---|\n"
        for form in StatementForm.all {
            out += "| `\(cell(form.usage))` | \(cell(form.summary)) | `\(cell(form.example))` |\n"
        }
        return out
    }
}
