import KCSSyntax
/// Public lookups over the vocabulary tables, for tools built on the
/// language (the REPL's completion and help).
extension Vocabulary {
    /// The key an attribute name stands for, short (`service`) or framework
    /// spelling (`kSecAttrService`); nil for an unknown name.
    public static func argumentKey(named name: String) -> ArgumentKey? {
        let bytes = Array(name.utf8)
        return argument(bytes, SourceRange(0, bytes.count))
    }

    /// Short attribute names only, in the order language.md lists them.
    public static var shortArgumentNames: [String] { shortArguments.map(\.0) }
}
