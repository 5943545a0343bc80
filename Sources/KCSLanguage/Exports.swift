// An embedder imports KCSLanguage alone: the syntax and the runtime come with it.
@_exported import KCSRuntime
@_exported import KCSSyntax
