// REPL tests come with the REPL.
