import KCSXcodeProject
import KeychainEngine
import SwiftParser
import SwiftSyntax

/// A local Swift package's manifest, read without running it: the literal
/// `Package(products: […], targets: […])` most manifests are, with lists
/// and names held in top-level `let`s. Whatever is computed (a list built
/// in a loop or a `var`) leaves the part it touches unknown, never guessed;
/// products or targets appended after the call (`package.products.append`)
/// are not seen, so a target linking such a product is told kcs does not
/// read it.
struct PackageManifest: SwiftPackage {
    enum Dependency: Hashable {
        /// `"Name"` or `.byName(name:)`: a module of this package, else a product of another.
        case byName(String)
        /// `.target(name:)`: a module of this package.
        case module(String)
        /// `.product(name:package:)`: another package's product.
        case product(String, package: String)
    }

    struct Module {
        /// `target`, `executableTarget`, `binaryTarget`, `systemLibrary`, `macro`, …
        var kind: String
        var path: String?
        var exclude: [String]
        var sources: [String]?
        /// Nil when the list is not written out.
        var dependencies: [Dependency]?
        /// An argument kcs reads (`path:`, `exclude:`, `sources:`) is not a literal.
        var unreadable: Bool
    }

    /// The package's folder.
    let folder: String
    /// The folders of the local packages it depends on (`.package(path:)`).
    var localPackages: [String] = []
    /// Library products: their modules by name, nil when not written out.
    var libraries: [String: [String]?] = [:]
    var modules: [String: Module] = [:]


    /// The manifest's `Package(…)` call, or nil when there is none.
    init?(_ text: String, folder: String) {
        self.folder = folder
        var parser = Parser(text, maximumNestingLevel: CodeCheck.maxNesting)
        let tree = SourceFileSyntax.parse(from: &parser)
        let finder = PackageCallFinder(viewMode: .sourceAccurate)
        finder.walk(tree)
        guard let call = finder.call else { return nil }
        // A name of a top-level `let` stands for its value (a few levels,
        // never a cycle).
        let constants = finder.constants
        func value(_ e: ExprSyntax?) -> ExprSyntax? {
            var e = e
            for _ in 0..<8 {
                guard let name = e?.as(DeclReferenceExprSyntax.self)?.baseName.text, let bound = constants[name] else { break }
                e = bound
            }
            return e
        }
        func argument(_ label: String, of call: FunctionCallExprSyntax) -> ExprSyntax? { value(Self.argument(label, of: call)) }
        for given in call.arguments {
            guard let list = value(given.expression) else { continue }
            switch given.label?.text {
            case "dependencies":
                // A manifest names a handful; past 64 the rest are not followed.
                for call in Self.calls(in: list).prefix(64) where Self.member(call) == "package" {
                    if let path = Self.string(argument("path", of: call)) { localPackages.append(ProjectPath.join(folder, path)) }
                }
            case "products":
                for call in Self.calls(in: list) where Self.member(call) == "library" {
                    guard let name = Self.string(argument("name", of: call)) else { continue }
                    libraries[name] = Self.strings(argument("targets", of: call))
                }
            case "targets":
                for call in Self.calls(in: list) {
                    guard let kind = Self.member(call), let name = Self.string(argument("name", of: call)) else { continue }
                    let path = argument("path", of: call), exclude = argument("exclude", of: call)
                    let sources = argument("sources", of: call)
                    let readPath = path.map(Self.string), readExclude = exclude.map(Self.strings), readSources = sources.map(Self.strings)
                    modules[name] = Module(
                        kind: kind, path: readPath ?? nil, exclude: (readExclude ?? nil) ?? [], sources: readSources ?? nil,
                        dependencies: Self.dependencies(argument("dependencies", of: call)),
                        unreadable: readPath == .some(nil) || readExclude == .some(nil) || readSources == .some(nil))
                }
            default: break
            }
        }
    }

    /// The modules `product` compiles, its own first, then those they depend
    /// on in the package, breadth first; nil when the manifest does not say.
    func modules(of product: String, fileSystem: any ProjectFileSystem,
                 walk: (String, Set<String>) -> (swift: [String], otherSources: Bool)) -> [PackageModule]? {
        guard let first = libraries[product] ?? nil else { return nil }
        let regularModules = modules.values.filter { $0.kind == "target" || $0.kind == "executableTarget" }.count
        var out: [PackageModule] = []
        var queue = first, seen = Set(first), next = 0
        while next < queue.count, out.count < 1000 {
            let name = queue[next]
            next += 1
            guard let module = modules[name] else { return nil }
            // Macros and plugins run at build time: no code of the app's.
            if module.kind == "macro" || module.kind == "plugin" { continue }
            var allSwift = !module.unreadable && module.kind != "binaryTarget" && module.kind != "systemLibrary"
            var localProducts: [PackageModule.LocalProduct] = []
            for dependency in module.dependencies ?? [] {
                switch dependency {
                case .module(let d):
                    guard modules[d] != nil else { return nil }
                    if seen.insert(d).inserted { queue.append(d) }
                case .byName(let d) where modules[d] != nil:
                    if seen.insert(d).inserted { queue.append(d) }
                case .byName(let d), .product(let d, _):
                    // Another package's product: read when a local package
                    // may declare it (the one named, else any; SwiftPM names a
                    // path package by its folder), not when it is remote.
                    var package: String?
                    if case .product(_, let p) = dependency { package = p }
                    // The list itself for a name (shared, not copied: a
                    // 453 KB manifest copied it per dependency into 3.9 GB;
                    // found by adversarial testing).
                    let folders = package.map { p in localPackages.filter { ProjectPath.lastComponent($0).lowercased() == p.lowercased() } }
                        ?? localPackages
                    if folders.isEmpty { allSwift = false } else { localProducts.append(.init(name: d, packages: folders)) }
                }
            }
            if module.dependencies == nil { allSwift = false }
            var swift: [String] = []
            if allSwift || module.kind == "target" || module.kind == "executableTarget" {
                // A package of one target may keep its sources right in
                // `Sources/` (SwiftPM 5.9; Meshtastic's protobuf package;
                // found on a real-project trial).
                let roots = ["Sources", "Source", "src", "srcs"].map { ProjectPath.join(folder, $0) }
                let defaults = roots.map { ProjectPath.join($0, name) } + (regularModules == 1 ? roots : [])
                if let dir = module.path.map({ ProjectPath.join(folder, $0) }) ?? defaults.first(where: fileSystem.isDirectory) {
                    let excluded = Set(module.exclude.map { ProjectPath.join(dir, $0) })
                    for part in module.sources?.map({ ProjectPath.join(dir, $0) }) ?? [dir] {
                        // A folder named `X.swift` is walked like any folder.
                        if part.hasSuffix(".swift"), !fileSystem.isDirectory(part) {
                            if !excluded.contains(part) { swift.append(part) }
                            continue
                        }
                        let found = walk(part, excluded)
                        if found.otherSources { allSwift = false }
                        swift += found.swift
                    }
                } else {
                    allSwift = false
                }
            }
            out.append(PackageModule(name: name, swiftSources: swift, allSwift: allSwift, localProducts: localProducts))
        }
        return out
    }

    // MARK: Reading the call

    /// The calls written as the elements of an array literal (`[.library(…), …]`).
    private static func calls(in e: ExprSyntax) -> [FunctionCallExprSyntax] {
        elements(of: e)?.compactMap { $0.as(FunctionCallExprSyntax.self) } ?? []
    }

    /// Members of Array and Sequence that make another list of the elements.
    private static let listMethods: Set<String> = ["filter", "map", "compactMap", "flatMap", "dropFirst", "dropLast", "prefix",
                                                   "suffix", "reversed", "sorted", "shuffled", "removing", "first", "last", "lazy"]

    /// The elements of an array literal, also behind a member the manifest
    /// defines on it (`[…].pro`, `[…].pro([…])`, whose array arguments are
    /// taken as more elements: Copilot for Xcode's lists were not read, in
    /// silence; found on a real-project trial). Nil for anything else.
    private static func elements(of e: ExprSyntax) -> [ExprSyntax]? {
        if let array = e.as(ArrayExprSyntax.self) { return array.elements.map(\.expression) }
        // The standard library's own members change the list: not followed (review 8).
        if let member = e.as(MemberAccessExprSyntax.self), let base = member.base, !listMethods.contains(member.declName.baseName.text) {
            return elements(of: base)
        }
        if let call = e.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
           !listMethods.contains(member.declName.baseName.text), let base = member.base, var out = elements(of: base) {
            for argument in call.arguments {
                guard let more = argument.expression.as(ArrayExprSyntax.self) else { continue }
                out += more.elements.map(\.expression)
            }
            return out
        }
        return nil
    }

    /// The member a call names: `library` of `.library(…)` or `Product.library(…)`.
    private static func member(_ call: FunctionCallExprSyntax) -> String? {
        call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
    }

    private static func argument(_ label: String, of call: FunctionCallExprSyntax) -> ExprSyntax? {
        call.arguments.first { $0.label?.text == label }?.expression
    }

    private static func string(_ e: ExprSyntax?) -> String? {
        e?.as(StringLiteralExprSyntax.self)?.representedLiteralValue
    }

    /// An array of string literals, or nil when it is anything else.
    private static func strings(_ e: ExprSyntax?) -> [String]? {
        guard let e, let elements = elements(of: e) else { return nil }
        var out: [String] = []
        for element in elements {
            guard let s = string(element) else { return nil }
            out.append(s)
        }
        return out
    }

    private static func dependencies(_ e: ExprSyntax?) -> [Dependency]? {
        guard let e else { return [] }
        guard let elements = elements(of: e) else { return nil }
        var out: [Dependency] = []
        for element in elements {
            if let name = string(element) {
                out.append(.byName(name))
                continue
            }
            guard let call = element.as(FunctionCallExprSyntax.self), let kind = member(call) else { return nil }
            switch kind {
            case "product", "target", "byName":
                guard let name = string(argument("name", of: call)) else { return nil }
                if kind == "product" {
                    guard let package = string(argument("package", of: call)) else { return nil }
                    out.append(.product(name, package: package))
                } else {
                    out.append(kind == "target" ? .module(name) : .byName(name))
                }
            default: return nil
            }
        }
        return out
    }

    /// The first `Package(…)` call, and the manifest's top-level `let`s
    /// (`let publicLibraryTargets = ["A", "B"]`, as Mastodon's manifest
    /// names its product's targets; found on a real-project trial).
    private final class PackageCallFinder: SyntaxVisitor {
        var call: FunctionCallExprSyntax?
        var constants: [String: ExprSyntax] = [:]
        override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
            // At the top level only, and `let`: a `var` may change below.
            guard node.bindingSpecifier.tokenKind == .keyword(.let),
                  node.parent?.parent?.parent?.is(SourceFileSyntax.self) == true else { return .visitChildren }
            for binding in node.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      let value = binding.initializer?.value, constants[name] == nil else { continue }
                constants[name] = value
            }
            return .visitChildren
        }
        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            if call == nil, node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Package" { call = node }
            return call == nil ? .visitChildren : .skipChildren
        }
    }
}

/// Reads local packages' manifests for the project reader: one per
/// project load, which keeps the bytes it parsed within a budget.
public final class PackageManifestReader: SwiftPackageReading {
    /// Manifest text parsed in all: 200 packages of 0.87 MB took 37 s
    /// (found by adversarial testing); real manifests are a few KB each.
    public static let maxParsedBytes = 8 << 20
    private let parsed = Locked(0)

    public init() {}

    public func package(in folder: String, fileSystem: any ProjectFileSystem) -> (any SwiftPackage)? {
        // The code check's limits, and its thread of large stack: the
        // project is read on the caller's, and swift-syntax recurses once
        // per level of nesting or of a long chain (`try try …`).
        // Nothing more is read once the budget is spent.
        guard parsed.withLock({ $0 }) <= Self.maxParsedBytes,
              case .success(let bytes) = fileSystem.read(ProjectPath.join(folder, "Package.swift")),
              // One past the code check's size is refused without spending
              // the budget the others need (found by adversarial testing).
              bytes.count <= CodeCheck.maxFileBytes,
              parsed.withLock({ total in
                  total += bytes.count
                  return total <= Self.maxParsedBytes
              }),
              CodeCheck.refusal(bytes) == nil else { return nil }
        return LargeStack.run { PackageManifest(String(decoding: bytes, as: UTF8.self), folder: folder) }
    }
}
