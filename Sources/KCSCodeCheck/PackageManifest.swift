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
/// read it, unless the manifest appends them at its top level to the
/// variable holding the call (``PackageManifest/appended(to:in:lists:)``).
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
        /// An argument kcs reads (`path:`, `exclude:`, `sources:`) is not a
        /// literal, or a dependency is one it does not follow.
        var unreadable: Bool
    }

    /// The package's folder.
    let folder: String
    /// The folders of the local packages it depends on (`.package(path:)`).
    var localPackages: [String] = []
    /// Library products: their modules by name, nil when not written out.
    var libraries: [String: [String]?] = [:]
    var modules: [String: Module] = [:]


    /// `products:` when kcs does not follow it (a closure, a function), as
    /// written and where.
    var productsNotFollowed: (shown: String, at: ProjectLocation)?

    /// Lists and arguments kcs did not follow, each at its place in the
    /// manifest, by the module whose code they leave unread ("" for the
    /// package's own dependencies): said with the modules a target links.
    var unread: [String: [ProjectIssue]] = [:]

    /// The manifest's `Package(…)` call, or nil when there is none.
    init?(_ text: String, folder: String) {
        self.folder = folder
        var parser = Parser(text, maximumNestingLevel: CodeCheck.maxNesting)
        let tree = SourceFileSyntax.parse(from: &parser)
        let finder = PackageCallFinder(viewMode: .sourceAccurate)
        finder.walk(tree)
        guard let call = finder.call else { return nil }
        let lists = Lists(constants: finder.constants, computed: finder.computed)
        let file = ProjectPath.join(folder, "Package.swift")
        let converter = SourceLocationConverter(fileName: file, tree: tree)
        /// `e` as a message shows it, and where it is.
        func place(_ e: some SyntaxProtocol) -> (shown: String, at: ProjectLocation) {
            let at = e.startLocation(converter: converter)
            var shown = e.trimmedDescription.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            if shown.count > 60 || shown.count < e.trimmedDescription.count { shown = String(shown.prefix(60)) + "…" }
            return (shown, ProjectLocation(file: file, line: at.line, column: at.column))
        }
        /// `what` is read from `e`, which kcs did not follow.
        func notFollowed(_ what: String, _ e: some SyntaxProtocol, module: String = "",
                         hint: String = "kcs reads a list written out, one held in a top-level let, lists joined with +, "
                            + "and a top-level computed var that starts from a list and appends to it; write the list out to have it checked") {
            let (shown, at) = place(e)
            unread[module, default: []].append(ProjectIssue(
                .warning, "kcs does not follow \(what) in this manifest (`\(shown)`): the code it leaves out is not checked",
                at: at, hint: hint))
        }
        func argument(_ label: String, of call: FunctionCallExprSyntax) -> ExprSyntax? { lists.value(Self.argument(label, of: call)) }
        // `package.products.append(contentsOf: […])` and the like after the
        // call, at the top level (isowords: 15 products unread; real-project
        // trial 20, D5): each list's elements join the call's.
        let appended = Self.appended(to: Self.boundName(of: call), in: tree, lists: lists)
        var arguments = call.arguments.map { ($0.label?.text, $0.expression) }
        for label in ["dependencies", "products", "targets"] where !arguments.contains(where: { $0.0 == label }) && appended.lists[label] != nil {
            arguments.append((label, ExprSyntax(ArrayExprSyntax(elements: []))))
        }
        if let stop = appended.notFollowed["products"] { productsNotFollowed = place(stop) }
        if let stop = appended.notFollowed["dependencies"] { notFollowed("the package's dependencies", stop) }
        for (label, expression) in arguments {
            switch label {
            case "dependencies":
                guard let list = lists.elements(of: expression) else {
                    notFollowed("the package's dependencies", expression)
                    continue
                }
                // A manifest names a handful; past 64 the rest are not followed.
                for call in (list + (appended.lists[label ?? ""] ?? [])).compactMap({ $0.as(FunctionCallExprSyntax.self) }).prefix(64)
                where Self.member(call) == "package" {
                    if let path = Self.string(argument("path", of: call)) { localPackages.append(ProjectPath.join(folder, path)) }
                }
            case "products":
                // Said by the project, with the products a target links
                // (CodexBar's `products: { var products = […]; #if os(macOS)
                // … #endif; return products }()` was "a package none of the
                // project's local packages declares"; real-project trial 16, D8).
                guard let list = lists.elements(of: expression) else {
                    productsNotFollowed = place(expression)
                    continue
                }
                for call in (list + (appended.lists[label ?? ""] ?? [])).compactMap({ $0.as(FunctionCallExprSyntax.self) }) where Self.member(call) == "library" {
                    guard let name = Self.string(argument("name", of: call)) else { continue }
                    libraries[name] = lists.strings(Self.argument("targets", of: call))
                }
            case "targets":
                let list = lists.calls(in: expression) + (appended.lists[label ?? ""] ?? []).compactMap { $0.as(FunctionCallExprSyntax.self) }
                for call in list {
                    guard let kind = Self.member(call), let name = Self.string(argument("name", of: call)) else { continue }
                    let path = argument("path", of: call), exclude = Self.argument("exclude", of: call)
                    let sources = Self.argument("sources", of: call)
                    let readPath = path.map(Self.string), readExclude = exclude.map(lists.strings), readSources = sources.map(lists.strings)
                    let given = Self.argument("dependencies", of: call)
                    var stoppedAt: ExprSyntax?
                    let dependencies = lists.dependencies(given, stoppedAt: &stoppedAt)
                    // Test targets and plugins are no code of the app's. A C
                    // or C++ target (`cSettings:` or `cxxSettings:`, no
                    // `swiftSettings:`) holds no Swift kcs would read, and
                    // writing its list out would change nothing (Provenance's
                    // cores had 32 such warnings; real-project trial 16, D7).
                    let cFamily = (Self.argument("cSettings", of: call) != nil || Self.argument("cxxSettings", of: call) != nil)
                        && Self.argument("swiftSettings", of: call) == nil
                    if kind != "testTarget" && kind != "plugin" && !cFamily {
                        for (label, e, read) in [("path", path, readPath == .some(nil)), ("exclude", exclude, readExclude == .some(nil)),
                                                 ("sources", sources, readSources == .some(nil)),
                                                 ("dependencies", given, dependencies == nil)]
                        where read {
                            if let e { notFollowed("the \(label) of package target '\(name)'", e, module: name) }
                        }
                        // The list is read, one element is not: that element is
                        // said, not the list (DuckDuckGo's `.targetItem(…)` was
                        // shown as `[…` with a hint to write out a list that was;
                        // real-project trial 15, D8).
                        if let stoppedAt {
                            notFollowed("a dependency of package target '\(name)'", stoppedAt, module: name,
                                        hint: "kcs reads a module's name as a string and .target, .product and .byName "
                                            + "(and .targetItem, .productItem, .byNameItem) with string arguments; "
                                            + "the other dependencies of the target are read")
                        }
                    }
                    modules[name] = Module(
                        kind: kind, path: readPath ?? nil, exclude: (readExclude ?? nil) ?? [], sources: readSources ?? nil,
                        dependencies: dependencies,
                        unreadable: readPath == .some(nil) || readExclude == .some(nil) || readSources == .some(nil) || stoppedAt != nil)
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
            var localProducts: [PackageModule.LocalProduct] = [], namesAProduct = false
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
                    namesAProduct = true
                    var package: String?
                    if case .product(_, let p) = dependency { package = p }
                    // The list itself for a name (shared, not copied: a
                    // 453 KB manifest copied it per dependency into 3.9 GB;
                    // found by adversarial testing).
                    let folders = package.map { p in localPackages.filter { ProjectPath.lastComponent($0).lowercased() == p.lowercased() } }
                        ?? localPackages
                    if folders.isEmpty { allSwift = false } else { localProducts.append(.init(name: d, packages: folders, packageNamed: package != nil)) }
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
            out.append(PackageModule(name: name, swiftSources: swift, allSwift: allSwift, localProducts: localProducts,
                                     unread: (unread[name] ?? []) + (namesAProduct ? unread[""] ?? [] : [])))
        }
        return out
    }

    // MARK: Reading the call

    /// The name of the top-level `let` or `var` the call initialises
    /// (`var package = Package(…)`), or nil.
    static func boundName(of call: FunctionCallExprSyntax) -> String? {
        guard let binding = call.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self),
              binding.parent?.parent?.as(VariableDeclSyntax.self)?.parent?.parent?.parent?.is(SourceFileSyntax.self) == true else { return nil }
        return binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    }

    /// What the manifest's top-level statements append to the call's
    /// lists through the variable `name` holds it in: `name.products.append(x)`,
    /// `.append(contentsOf: list)`, `name.targets += list`, also under `if`
    /// or `#if` (each branch: the lint reads more code rather than less).
    /// Any other statement that sets one of `name.products`, `name.targets`
    /// or `name.dependencies` (`=`, or a method that changes an array)
    /// leaves that list not followed, at the statement.
    /// Where each occurrence of `pattern` in `text` ends (the index after
    /// it), found in one pass (Knuth-Morris-Pratt): a long name in a long
    /// statement is no product of the two lengths.
    static func ends(of pattern: [UInt8], in text: [UInt8]) -> [Int] {
        guard !pattern.isEmpty, pattern.count <= text.count else { return [] }
        var fail = [Int](repeating: 0, count: pattern.count), k = 0
        for i in 1..<max(pattern.count, 1) {
            while k > 0 && pattern[i] != pattern[k] { k = fail[k - 1] }
            if pattern[i] == pattern[k] { k += 1 }
            fail[i] = k
        }
        var out: [Int] = [], q = 0
        for (i, byte) in text.enumerated() {
            while q > 0 && byte != pattern[q] { q = fail[q - 1] }
            if byte == pattern[q] { q += 1 }
            if q == pattern.count {
                out.append(i + 1)
                q = fail[q - 1]
            }
        }
        return out
    }

    static func appended(to name: String?, in tree: SourceFileSyntax, lists: Lists)
        -> (lists: [String: [ExprSyntax]], notFollowed: [String: Syntax]) {
        var out: [String: [ExprSyntax]] = [:], stopped: [String: Syntax] = [:]
        guard let name else { return (out, stopped) }
        let fields = ["products", "targets", "dependencies"]
        /// The field `e` names as `name.field`, if it does.
        func field(_ e: ExprSyntax?) -> String? {
            guard let m = e?.as(MemberAccessExprSyntax.self), m.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == name else { return nil }
            let f = m.declName.baseName.text
            return fields.contains(f) ? f : nil
        }
        /// Each field the statement sets (`name.field = …`, `name.field.remove…(…)`).
        func changed(_ node: some SyntaxProtocol) -> [String] {
            guard node.tokens(viewMode: .sourceAccurate).contains(where: { $0.text == name }) else { return [] }
            // Searched as bytes, each pass once over the text: `range(of:)`
            // on the rest of the text copied the rest at every match (a
            // statement of 29,000 `package.products==…` took 8.6 s;
            // adversarial run 27, F6).
            let text = Array(node.trimmedDescription.filter { !$0.isWhitespace }.utf8)
            let changes = ["=", "+=", ".append", ".insert", ".remove", ".replaceSubrange", ".sort", ".reverse", ".swapAt"]
            return fields.filter { f in
                changes.contains { change in
                    // `name.field=` followed by another `=` is a comparison.
                    Self.ends(of: Array((name + "." + f + change).utf8), in: text).contains { end in
                        change != "=" || end == text.count || text[end] != UInt8(ascii: "=")
                    }
                }
            }
        }
        func add(_ f: String, _ list: [ExprSyntax]?, at statement: ExprSyntax) {
            guard let more = list, (out[f]?.count ?? 0) + more.count <= Lists.maxElements else {
                if stopped[f] == nil { stopped[f] = Syntax(statement) }
                return
            }
            out[f, default: []] += more
        }
        func walk(_ items: CodeBlockItemListSyntax, depth: Int) {
            guard depth < 16 else { return }
            for item in items {
                if let config = item.item.as(IfConfigDeclSyntax.self) {
                    for clause in config.clauses {
                        if case .statements(let statements)? = clause.elements { walk(statements, depth: depth + 1) }
                    }
                    continue
                }
                let e = item.item.as(ExprSyntax.self) ?? item.item.as(ExpressionStmtSyntax.self)?.expression
                if let ifExpression = e?.as(IfExprSyntax.self) {
                    var next: IfExprSyntax? = ifExpression
                    while let current = next {
                        walk(current.body.statements, depth: depth + 1)
                        next = nil
                        switch current.elseBody {
                        case .ifExpr(let e)?: next = e
                        case .codeBlock(let block)?: walk(block.statements, depth: depth + 1)
                        case nil: break
                        }
                    }
                    continue
                }
                if let e, let call = e.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                   member.declName.baseName.text == "append", let f = field(member.base), call.arguments.count == 1, let argument = call.arguments.first,
                   argument.label == nil || argument.label?.text == "contentsOf" {
                    add(f, argument.label == nil ? [argument.expression] : lists.elements(of: argument.expression), at: e)
                    continue
                }
                if let e, let sequence = e.as(SequenceExprSyntax.self), sequence.elements.count == 3, let f = field(sequence.elements.first),
                   sequence.elements.dropFirst().first?.as(BinaryOperatorExprSyntax.self)?.operator.text == "+=", let rhs = sequence.elements.last {
                    add(f, lists.elements(of: rhs), at: e)
                    continue
                }
                for f in changed(item) where stopped[f] == nil { stopped[f] = Syntax(item) }
            }
        }
        walk(tree.statements, depth: 0)
        return (out, stopped)
    }

    /// Members of Array and Sequence that make another list of the elements.
    static let listMethods: Set<String> = ["filter", "map", "compactMap", "flatMap", "dropFirst", "dropLast", "prefix",
                                           "suffix", "reversed", "sorted", "shuffled", "removing", "first", "last", "lazy"]

    /// The member a call names: `library` of `.library(…)` or `Product.library(…)`.
    static func member(_ call: FunctionCallExprSyntax) -> String? {
        call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
    }

    static func argument(_ label: String, of call: FunctionCallExprSyntax) -> ExprSyntax? {
        call.arguments.first { $0.label?.text == label }?.expression
    }

    static func string(_ e: ExprSyntax?) -> String? {
        e?.as(StringLiteralExprSyntax.self)?.representedLiteralValue
    }

    /// The lists of a manifest as kcs follows them: written out, held in a
    /// top-level `let`, joined with `+`, behind a member the manifest
    /// defines, or built by a top-level computed `var` whose getter starts
    /// from a list and appends to it (Omnivore's `App` target takes its
    /// dependencies so; its modules went unread while the lint said "no
    /// warnings"; real-project trial 14).
    struct Lists {
        let constants: [String: ExprSyntax]
        /// Top-level computed `var`s: the statements of their getters.
        let computed: [String: CodeBlockItemListSyntax]
        /// Elements of one list, at most: `let b = a + a`, `let c = b + b`, …
        /// doubles at each level.
        static let maxElements = 4096
        /// The lists of top-level names, each followed once: `let a2 = a1 + a1 + …`,
        /// `let a3 = a2 + a2 + …` took time exponential in the levels, even
        /// of empty lists (found by adversarial testing).
        let memo = Memo()

        final class Memo {
            /// nil while the name is being followed: a cycle is not followed.
            var lists: [String: [ExprSyntax]?] = [:]
        }

        /// A name of a top-level `let` stands for its value (a few levels,
        /// never a cycle).
        func value(_ e: ExprSyntax?) -> ExprSyntax? {
            var e = e
            for _ in 0..<8 {
                guard let name = e?.as(DeclReferenceExprSyntax.self)?.baseName.text, let bound = constants[name] else { break }
                e = bound
            }
            return e
        }

        /// The calls written as the elements of a list (`[.library(…), …]`).
        func calls(in e: ExprSyntax) -> [FunctionCallExprSyntax] {
            elements(of: e)?.compactMap { $0.as(FunctionCallExprSyntax.self) } ?? []
        }

        /// A list of string literals, or nil when it is anything else.
        func strings(_ e: ExprSyntax?) -> [String]? {
            guard let e, let elements = elements(of: e) else { return nil }
            var out: [String] = []
            for element in elements {
                guard let s = PackageManifest.string(value(element)) else { return nil }
                out.append(s)
            }
            return out
        }

        /// A target's dependencies; nil when kcs does not follow the list.
        /// An element it does not follow is left out, the first such one
        /// given as `stoppedAt` (the module is then not all read).
        /// `.targetItem(name:condition:)`, `.productItem(name:package:moduleAliases:condition:)`
        /// and `.byNameItem(name:condition:)` are `Target.Dependency`'s own
        /// cases, read as `.target`, `.product` and `.byName` (a condition
        /// is taken as met: the code is read).
        func dependencies(_ e: ExprSyntax?, stoppedAt: inout ExprSyntax?) -> [Dependency]? {
            guard let e else { return [] }
            guard let elements = elements(of: e) else { return nil }
            var out: [Dependency] = []
            for element in elements {
                let element = value(element) ?? element
                if let name = PackageManifest.string(element) {
                    out.append(.byName(name))
                    continue
                }
                guard let call = element.as(FunctionCallExprSyntax.self), let kind = PackageManifest.member(call) else {
                    if stoppedAt == nil { stoppedAt = element }
                    continue
                }
                func argument(_ label: String) -> String? { PackageManifest.string(value(PackageManifest.argument(label, of: call))) }
                let name = argument("name")
                switch kind {
                case "product", "productItem":
                    guard let name, let package = argument("package") else {
                        if stoppedAt == nil { stoppedAt = element }
                        continue
                    }
                    out.append(.product(name, package: package))
                case "target", "targetItem", "byName", "byNameItem":
                    guard let name else {
                        if stoppedAt == nil { stoppedAt = element }
                        continue
                    }
                    out.append(kind.hasPrefix("target") ? .module(name) : .byName(name))
                default:
                    if stoppedAt == nil { stoppedAt = element }
                }
            }
            return out
        }

        /// The elements of a list, or nil when kcs does not follow it.
        /// `locals`: the lists a getter has built so far.
        func elements(of given: ExprSyntax, locals: [String: [ExprSyntax]] = [:], depth: Int = 0) -> [ExprSyntax]? {
            guard depth < 16 else { return nil }
            if let name = given.as(DeclReferenceExprSyntax.self)?.baseName.text {
                if let list = locals[name] { return list }
                if constants[name] != nil || computed[name] != nil {
                    if let known = memo.lists[name] { return known }
                    memo.lists[name] = .some(nil)
                    let list = followed(given, locals: [:], depth: depth)
                    memo.lists[name] = .some(list)
                    return list
                }
            }
            return followed(given, locals: locals, depth: depth)
        }

        private func followed(_ given: ExprSyntax, locals: [String: [ExprSyntax]], depth: Int) -> [ExprSyntax]? {
            guard let e = value(given) else { return nil }
            if let array = e.as(ArrayExprSyntax.self) { return array.elements.map(\.expression) }
            if let tuple = e.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
                return elements(of: only.expression, locals: locals, depth: depth + 1)
            }
            if let name = e.as(DeclReferenceExprSyntax.self)?.baseName.text, let body = computed[name] {
                var locals: [String: [ExprSyntax]] = [:]
                guard case .returned(let list) = run(body, locals: &locals, depth: depth + 1) else { return nil }
                return list
            }
            // `a + b + …`
            if let sequence = e.as(SequenceExprSyntax.self) {
                var out: [ExprSyntax] = []
                for (i, part) in sequence.elements.enumerated() {
                    if i % 2 == 1 {
                        guard part.as(BinaryOperatorExprSyntax.self)?.operator.text == "+" else { return nil }
                        continue
                    }
                    guard let more = elements(of: part, locals: locals, depth: depth + 1), out.count + more.count <= Self.maxElements else { return nil }
                    out += more
                }
                return out
            }
            // Behind a member the manifest defines on it (`[…].pro`,
            // `[…].pro([…])`, whose array arguments are taken as more
            // elements: Copilot for Xcode's lists were not read, in silence;
            // found on a real-project trial). The standard library's own
            // members change the list: not followed (review 8).
            if let member = e.as(MemberAccessExprSyntax.self), let base = member.base, !PackageManifest.listMethods.contains(member.declName.baseName.text) {
                return elements(of: base, locals: locals, depth: depth + 1)
            }
            if let call = e.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
               !PackageManifest.listMethods.contains(member.declName.baseName.text), let base = member.base,
               var out = elements(of: base, locals: locals, depth: depth + 1) {
                for argument in call.arguments {
                    guard let more = argument.expression.as(ArrayExprSyntax.self) else { continue }
                    out += more.elements.map(\.expression)
                }
                return out.count <= Self.maxElements ? out : nil
            }
            return nil
        }

        enum Run {
            case fellThrough, returned([ExprSyntax]), notFollowed
        }

        /// A getter's statements: `var deps = […]`, `deps.append(x)`,
        /// `deps.append(contentsOf: […])`, `deps += […]`, also under `if`
        /// or `#if` (each branch: the lint reads more code rather than
        /// less), then `return deps` or a list. Anything else is not followed.
        func run(_ items: CodeBlockItemListSyntax, locals: inout [String: [ExprSyntax]], depth: Int) -> Run {
            guard depth < 16 else { return .notFollowed }
            func branch(_ items: CodeBlockItemListSyntax) -> Bool {
                if case .fellThrough = run(items, locals: &locals, depth: depth + 1) { return true }
                return false
            }
            for (index, item) in items.enumerated() {
                var expression: ExprSyntax?
                switch item.item {
                case .decl(let decl):
                    if let ifConfig = decl.as(IfConfigDeclSyntax.self) {
                        for clause in ifConfig.clauses {
                            guard case .statements(let statements)? = clause.elements, branch(statements) else { return .notFollowed }
                        }
                        continue
                    }
                    guard let variable = decl.as(VariableDeclSyntax.self) else { return .notFollowed }
                    for binding in variable.bindings {
                        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                              let initial = binding.initializer?.value,
                              let list = elements(of: initial, locals: locals, depth: depth + 1) else { return .notFollowed }
                        locals[name] = list
                    }
                    continue
                case .stmt(let statement):
                    if let returned = statement.as(ReturnStmtSyntax.self) {
                        guard let e = returned.expression, let list = elements(of: e, locals: locals, depth: depth + 1) else { return .notFollowed }
                        return .returned(list)
                    }
                    guard let e = statement.as(ExpressionStmtSyntax.self)?.expression else { return .notFollowed }
                    expression = e
                case .expr(let e):
                    expression = e
                }
                guard let e = expression else { return .notFollowed }
                if let ifExpression = e.as(IfExprSyntax.self) {
                    var next: IfExprSyntax? = ifExpression
                    while let current = next {
                        guard branch(current.body.statements) else { return .notFollowed }
                        next = nil
                        switch current.elseBody {
                        case .ifExpr(let e)?: next = e
                        case .codeBlock(let block)?: guard branch(block.statements) else { return .notFollowed }
                        case nil: break
                        }
                    }
                    continue
                }
                // `deps.append(x)`, `deps.append(contentsOf: list)`
                if let call = e.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                   member.declName.baseName.text == "append", let name = member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text,
                   locals[name] != nil, call.arguments.count == 1, let argument = call.arguments.first {
                    switch argument.label?.text {
                    case nil: locals[name]?.append(argument.expression)
                    case "contentsOf":
                        guard let more = elements(of: argument.expression, locals: locals, depth: depth + 1) else { return .notFollowed }
                        locals[name]? += more
                    default: return .notFollowed
                    }
                } else if let sequence = e.as(SequenceExprSyntax.self), sequence.elements.count == 3,
                          let name = sequence.elements.first?.as(DeclReferenceExprSyntax.self)?.baseName.text, locals[name] != nil,
                          sequence.elements.dropFirst().first?.as(BinaryOperatorExprSyntax.self)?.operator.text == "+=",
                          let rhs = sequence.elements.last {
                    guard let more = elements(of: rhs, locals: locals, depth: depth + 1) else { return .notFollowed }
                    locals[name]? += more
                } else if index == items.count - 1, items.count == 1, let list = elements(of: e, locals: locals, depth: depth + 1) {
                    // A getter of one expression returns it.
                    return .returned(list)
                } else {
                    return .notFollowed
                }
                if locals.values.contains(where: { $0.count > Self.maxElements }) { return .notFollowed }
            }
            return .fellThrough
        }
    }

    /// The first `Package(…)` call, the manifest's top-level `let`s
    /// (`let publicLibraryTargets = ["A", "B"]`, as Mastodon's manifest
    /// names its product's targets; found on a real-project trial), and its
    /// top-level computed `var`s.
    private final class PackageCallFinder: SyntaxVisitor {
        var call: FunctionCallExprSyntax?
        var constants: [String: ExprSyntax] = [:]
        var computed: [String: CodeBlockItemListSyntax] = [:]
        override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
            guard node.parent?.parent?.parent?.is(SourceFileSyntax.self) == true else { return .visitChildren }
            for binding in node.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      constants[name] == nil, computed[name] == nil else { continue }
                // A `let`'s value; a `var`'s only when computed: a stored one may change below.
                if node.bindingSpecifier.tokenKind == .keyword(.let), let value = binding.initializer?.value {
                    constants[name] = value
                } else if node.bindingSpecifier.tokenKind == .keyword(.var), binding.initializer == nil {
                    switch binding.accessorBlock?.accessors {
                    case .getter(let statements)?: computed[name] = statements
                    case .accessors(let accessors)?:
                        if let getter = accessors.first(where: { $0.accessorSpecifier.tokenKind == .keyword(.get) })?.body {
                            computed[name] = getter.statements
                        }
                    case nil: break
                    }
                }
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
