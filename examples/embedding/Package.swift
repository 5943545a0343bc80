// swift-tools-version:6.2
import PackageDescription

// A host program that embeds kcs through its public libraries only.
// Build it from this folder: swift build --scratch-path /tmp/build-embedding
let package = Package(
    name: "kcs-embedding-example",
    platforms: [.macOS(.v13)],
    dependencies: [
        // The kcs package at the root of this repository.
        .package(name: "kcs", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "EmbeddingExample",
            dependencies: [
                .product(name: "KCSLanguage", package: "kcs"),
                .product(name: "KCSSecItem", package: "kcs"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
