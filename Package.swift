// swift-tools-version:6.2
import PackageDescription

// Layers, by direction of dependency:
//   KeychainEngine  - the keychain model; imports nothing of ours, knows no syntax. It owns every
//                     framework spelling (attribute, class, status and constant names).
//   KCSSyntax       - what was written: source files, tokens, lexer, the grammar table, the syntax
//                     tree and its parser, diagnostics and their renderer, the canonical layout
//                     (kcs fmt), Markdown blocks. Imports nothing of the engine.
//   KCSRuntime      - lowering (names and values given the engine's meaning) and the evaluator:
//                     the session, includes, entitlements files, explanations, lint.
//   KCSLanguage     - host tools over the runtime: the batch runner and Markdown check, report
//                     formats, the matrix, Swift export, atomic writes. Re-exports the two above,
//                     so an embedder imports one module.
//   KCSRepl, KCSLanguageServer, KCSXcode… - tools on top; kcs - the command line: arguments,
//                     the job pool, printing, its own exit statuses.
// The tree is kept free of warnings: our own targets treat them as errors
// (dependencies are not affected).
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "kcs",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "KeychainEngine", targets: ["KeychainEngine"]),
        .library(name: "KCSSyntax", targets: ["KCSSyntax"]),
        .library(name: "KCSLanguage", targets: ["KCSLanguage"]),
        .library(name: "KCSSecItem", targets: ["KCSSecItem"]),
        .executable(name: "kcs", targets: ["kcs"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
    ],
    targets: [
        .target(name: "KeychainEngine", swiftSettings: strict),
        .target(name: "KCSSyntax", swiftSettings: strict),
        .target(name: "KCSRuntime", dependencies: ["KCSSyntax", "KeychainEngine", "KCSXcodeProject"], swiftSettings: strict),
        .target(name: "KCSLanguage", dependencies: ["KCSSyntax", "KCSRuntime", "KeychainEngine"], swiftSettings: strict),
        // The core benchmark through the embedding API (scripts/bench.sh runs it).
        .executableTarget(name: "kcs-bench", dependencies: ["KCSLanguage", "KCSRepl", "KeychainEngine"], swiftSettings: strict),
        // SecItemAdd/CopyMatching/Update/Delete-shaped functions over the engine.
        .target(name: "KCSSecItem", dependencies: ["KeychainEngine"], swiftSettings: strict),
        // GNU readline (Debian: libreadline-dev) for the REPL.
        .systemLibrary(name: "CReadline", path: "Sources/CReadline"),
        // Xcode projects: the project.pbxproj reader, xcconfig files and build settings (on the engine only,
        // for what a team ID is, and the syntax library, for where a line ends; the language reads
        // `app … project=` through it), then the import and the project lint.
        .target(name: "KCSXcodeProject", dependencies: ["KeychainEngine", "KCSSyntax"], swiftSettings: strict),
        .target(name: "KCSXcode", dependencies: ["KCSXcodeProject", "KCSLanguage"], swiftSettings: strict),
        // What the Swift code asks for: swift-syntax stays out of the core libraries.
        .target(
            name: "KCSCodeCheck",
            dependencies: [
                "KCSXcode",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            swiftSettings: strict
        ),
        .target(name: "KCSRepl", dependencies: ["KCSLanguage", "CReadline"], swiftSettings: strict),
        // `kcs lsp`: the language server, on the same front end and completion.
        .target(name: "KCSLanguageServer", dependencies: ["KCSLanguage", "KCSRepl"], swiftSettings: strict),
        .executableTarget(
            name: "kcs",
            dependencies: [
                "KCSLanguage",
                "KeychainEngine",
                "KCSRepl",
                "KCSLanguageServer",
                "KCSXcode",
                "KCSCodeCheck",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict,
            // Release builds on Linux are one static executable: the standard
            // library, Foundation, glibc, libstdc++ and readline (with its
            // terminal library, tinfo: Debian's libncurses-dev, which
            // libreadline-dev brings) are linked in, so nothing is loaded or
            // relocated before main: a small `kcs run` starts in about 2 ms
            // instead of 5 (docs/performance.md, start-up). The libraries
            // below are the ones SwiftPM's --static-swift-stdlib adds for
            // Foundation. The image is not position-independent (glibc's
            // static-pie crashed in the Swift runtime); the stack, heap and
            // mmap regions are still randomised. glibc warns that getpwuid,
            // getpwnam and dlopen (CoreFoundation's home folder without $HOME,
            // ICU's plug-ins) need its shared libraries at run time: kcs asks
            // for neither on its paths. Debug builds (and the test bundles,
            // which load Swift Testing's shared runtime) stay dynamic.
            linkerSettings: [.unsafeFlags(
                ["-static-executable", "-Xlinker", "--start-group", "-lFoundation", "-lFoundationEssentials",
                 "-lFoundationInternationalization", "-lCoreFoundation", "-l_FoundationCollections", "-l_FoundationCShims",
                 "-l_FoundationICU", "-lswiftSynchronization", "-lswiftDispatch", "-ldispatch", "-lBlocksRuntime",
                 "-Xlinker", "--end-group", "-lstdc++", "-ltinfo"],
                .when(platforms: [.linux], configuration: .release))]
        ),
        .testTarget(name: "KeychainEngineTests", dependencies: ["KeychainEngine"], swiftSettings: strict),
        .testTarget(name: "KCSSyntaxTests", dependencies: ["KCSSyntax"], swiftSettings: strict),
        // Fuzz inputs are read from disk by path, not bundled.
        .testTarget(name: "KCSLanguageTests", dependencies: ["KCSLanguage", "KCSRuntime", "KCSSyntax"], exclude: ["FuzzCrashes", "FuzzFindings"],
                    swiftSettings: strict),
        .testTarget(name: "KCSSecItemTests", dependencies: ["KCSSecItem", "KCSLanguage", "KCSRuntime", "KCSSyntax", "KeychainEngine"], swiftSettings: strict),
        .testTarget(name: "PropertyTests", dependencies: ["KeychainEngine", "KCSLanguage", "KCSRuntime", "KCSSyntax"], swiftSettings: strict),
        .testTarget(name: "KCSReplTests", dependencies: ["KCSRepl", "KCSRuntime", "KCSSyntax", "kcs"], swiftSettings: strict),
        .testTarget(name: "KCSLanguageServerTests", dependencies: ["KCSLanguageServer", "KCSLanguage", "KCSRuntime", "KCSSyntax", "kcs"],
                    swiftSettings: strict),
        // Depends on the executable so `swift test` builds the binary it runs.
        .testTarget(name: "KCSCLITests", dependencies: ["KCSLanguage", "KCSRuntime", "KCSSyntax", "KCSXcodeProject", "KCSXcode", "KCSCodeCheck", "kcs"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
