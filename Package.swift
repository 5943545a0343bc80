// swift-tools-version:6.0
import PackageDescription

// Three layers, by direction of dependency:
//   KeychainEngine  - the keychain model; imports nothing of ours, knows no syntax.
//   KCSLanguage     - source, lexer, parser, diagnostics, evaluator over the engine.
//   kcs             - the command line: parses arguments, prints, picks exit codes.
let package = Package(
    name: "kcs",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "KeychainEngine", targets: ["KeychainEngine"]),
        .library(name: "KCSLanguage", targets: ["KCSLanguage"]),
        .executable(name: "kcs", targets: ["kcs"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
    ],
    targets: [
        .target(name: "KeychainEngine"),
        .target(name: "KCSLanguage", dependencies: ["KeychainEngine"]),
        .executableTarget(
            name: "kcs",
            dependencies: [
                "KCSLanguage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "KeychainEngineTests", dependencies: ["KeychainEngine"]),
        .testTarget(name: "KCSLanguageTests", dependencies: ["KCSLanguage"]),
        .testTarget(name: "KCSCLITests", dependencies: ["KCSLanguage"]),
    ],
    swiftLanguageModes: [.v6]
)
