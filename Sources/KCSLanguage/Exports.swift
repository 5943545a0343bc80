// An embedder imports KCSLanguage alone: the syntax and the runtime come with it.
@_exported import KCSRuntime
@_exported import KCSSyntax

/// kcs's version, as `kcs --version` prints it and the language server
/// gives it to editors: written here once (review 23a, R16).
public let kcsVersion = "0.1.0"
