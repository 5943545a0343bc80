// swift-tools-version:6.2
import PackageDescription

// Three layers, by direction of dependency:
//   KeychainEngine  - the keychain model; imports nothing of ours, knows no syntax.
//   KCSLanguage     - source, lexer, parser, diagnostics, evaluator over the engine.
//   kcs             - the command line: parses arguments, prints, picks exit codes.
// The tree is kept free of warnings: our own targets treat them as errors
// (dependencies are not affected).
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "kcs",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "KeychainEngine", targets: ["KeychainEngine"]),
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
        .target(name: "KCSLanguage", dependencies: ["KeychainEngine", "KCSXcodeProject"], swiftSettings: strict),
        // The core benchmark through the embedding API (scripts/bench.sh runs it).
        .executableTarget(name: "kcs-bench", dependencies: ["KCSLanguage", "KeychainEngine"], swiftSettings: strict),
        // SecItemAdd/CopyMatching/Update/Delete-shaped functions over the engine.
        .target(name: "KCSSecItem", dependencies: ["KeychainEngine"], swiftSettings: strict),
        // GNU readline (Debian: libreadline-dev) for the REPL.
        .systemLibrary(name: "CReadline", path: "Sources/CReadline"),
        // Xcode projects: the project.pbxproj reader, xcconfig files and build settings (no dependencies;
        // the language reads `app … project=` through it), then the import and the project lint.
        .target(name: "KCSXcodeProject", swiftSettings: strict),
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
                "KCSRepl",
                "KCSLanguageServer",
                "KCSXcode",
                "KCSCodeCheck",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "KeychainEngineTests", dependencies: ["KeychainEngine"], swiftSettings: strict),
        // Fuzz inputs are read from disk by path, not bundled.
        .testTarget(name: "KCSLanguageTests", dependencies: ["KCSLanguage"], exclude: ["FuzzCrashes", "FuzzFindings"],
                    swiftSettings: strict),
        .testTarget(name: "KCSSecItemTests", dependencies: ["KCSSecItem", "KCSLanguage", "KeychainEngine"], swiftSettings: strict),
        .testTarget(name: "PropertyTests", dependencies: ["KeychainEngine", "KCSLanguage"], swiftSettings: strict),
        .testTarget(name: "KCSReplTests", dependencies: ["KCSRepl", "kcs"], swiftSettings: strict),
        .testTarget(name: "KCSLanguageServerTests", dependencies: ["KCSLanguageServer", "KCSLanguage", "kcs"],
                    swiftSettings: strict),
        // Depends on the executable so `swift test` builds the binary it runs.
        .testTarget(name: "KCSCLITests", dependencies: ["KCSLanguage", "KCSXcodeProject", "KCSXcode", "KCSCodeCheck", "kcs"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
