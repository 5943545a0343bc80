import KCSXcodeProject
import SwiftParser
import SwiftSyntax

/// One `#if` around a use: the conditions of its clauses in order (nil
/// for `#else`, shared by every use under it) and the clause holding the use.
public struct IfBranch: Sendable, Hashable {
    /// Where the `#if` starts in its file: with the file, it names the `#if`.
    public var decl: Int
    public var conditions: [String?]
    public var index: Int

    public init(decl: Int, conditions: [String?], index: Int) {
        self.decl = decl
        self.conditions = conditions
        self.index = index
    }
}

/// A place where Swift code names a keychain access group.
public struct AccessGroupUse: Sendable {
    public enum Value: Sendable, Hashable {
        /// A string the code spells out (or a constant initialised with one).
        case literal(String)
        /// Built at run time: cannot be checked without running the code.
        case runtime(String)
        /// Not followed to a value, said as what it is (a parameter whose
        /// callers are not followed): a parameter is no "value built at
        /// run time" (real-project trial 17, D3).
        case unfollowed(String, Unfollowed = .other)
    }
    /// What kind of value was not followed: an app-group call's parameter
    /// or undecided macro is a warning, anything else a note (review 22b,
    /// R4: the kind was read back from the message's words).
    public enum Unfollowed: Sendable, Hashable {
        /// A parameter of the function around the use, whose callers kcs
        /// does not follow.
        case parameter
        /// An Objective-C macro whose `#if` branch the build does not decide.
        case undecidedBranch
        /// Anything else: a name with no declaration kcs reads, a string it
        /// cannot work out.
        case other
    }

    /// The `#if` condition around the use, when there is one: whether that
    /// code is compiled depends on the build (DEBUG, os(…)).
    public var condition: String?
    /// The `#if`s around the use, innermost first: a build compiles it when
    /// each one's clauses before the use's are false and the use's holds.
    /// Empty when the condition came from a constant's declaration: that
    /// one is not answered (``BuildConditions``).
    public var branches: [IfBranch] = []

    public var value: Value
    /// What names the group: `kSecAttrAccessGroup`, `accessGroup:`, `SharedGroupIdentifier(…)`.
    public var api: String
    public var line: Int
    public var column: Int
    /// Unicode scalars the caret covers.
    public var length: Int
    /// Where the constant the value came from is declared (file, line), if it came from one.
    public var constant: (file: String, line: Int)?
    /// An app group (`UserDefaults(suiteName:)`,
    /// `containerURL(forSecurityApplicationGroupIdentifier:)`), checked
    /// against the target's application groups, not its access groups.
    public var isAppGroup = false
    /// The outermost type (or extended type) the use is in: the name other
    /// code reaches it by. Nil at the top level (a function there is
    /// called by its own name, which is not looked for).
    public var enclosingName: String?
    /// A constant with a value per `#if` branch: each value, where it is
    /// declared and the `#if`s around it (``AccessGroupFinder/Resolved``).
    public struct Alternative: Sendable, Hashable {
        public var value: String
        public var branches: [IfBranch]
        public var file: String
        public var line: Int
    }
    public var alternatives: [Alternative] = []
    /// `kSecAttrAccessGroup` in a dictionary literal with none of the keys
    /// that send a macOS call to the data-protection keychain
    /// (`kSecUseDataProtectionKeychain`, `kSecAttrSynchronizable`,
    /// `kSecAttrAccessControl`; SecItem.cpp `SecItemCategorizeQuery`), in a
    /// file that never names the first: on the Mac the call goes to the
    /// file-based keychain, which ignores the group.
    public var fileKeychainOnMac = false
    /// The group is a prefix and a group passed apart and joined by the
    /// call (Valet's `appIDPrefix:`, a wrapper's `Keychain(team:group:)`):
    /// a hint names the argument to change, never a prefix to write.
    public var prefixPassedApart = false
    /// In the initialiser of a `static let` or a global `let`, which runs
    /// on first use: a target that compiles it may never make the call.
    public var inLazyConstant = false
    /// The name of an ``Value/unfollowed`` value that no Swift file of the
    /// target declares: an Objective-C constant or macro, which the code
    /// check looks up in the target's Objective-C code (``ObjectiveCSource``).
    public var undeclaredName: String?
}

/// Finds the access groups Swift code names: `kSecAttrAccessGroup` in SecItem
/// dictionaries (literal, subscript or `setValue(_:forKey:)`), `accessGroup:` arguments
/// (KeychainAccess, SwiftKeychainWrapper, SimpleKeychain), assignments to
/// `.accessGroup` (keychain-swift, SAMKeychainQuery), and Valet's
/// `SharedGroupIdentifier(appIDPrefix:nonEmptyGroup:)` and
/// `sharedGroupIdentifier:`.
public struct AccessGroupFinder {
    /// String constants (`let x = "…"`) of all the files, by name: a
    /// reference that can only mean constants of one value is resolved.
    public private(set) var constants: [String: [Declared]] = [:]
    /// The same, by name and the last name of the type declaring them (nil:
    /// the top level): a lookup that says which types may hold the constant
    /// reads those alone (a name declared in thousands of types, each use
    /// naming one, scanned them all per use; found by adversarial testing).
    private var byContainer: [ContainerKey: [Declared]] = [:]
    struct ContainerKey: Hashable {
        var name: String
        var container: String?
    }
    /// For each name, the types (by their last name) with a member of that
    /// name that is a value rather than a string constant: a stored or
    /// computed property, in the type, an extension of it or a protocol.
    private var valueMembers: [String: Set<String>] = [:]
    /// The same for computed properties whose getter only returns a
    /// string: the type's own constant, but one a subclass or a conforming
    /// type inherits may be overridden (``isValueMember(_:of:)``).
    private var computedMembers: [String: Set<String>] = [:]
    /// For each type (by its last name), the types and protocols its
    /// declaration and extensions inherit or conform to.
    private var supertypes: [String: Set<String>] = [:]
    /// Type aliases of the target's files, by alias.
    private var typeAliases: [String: Set<String>] = [:]
    /// Every name a `let` or `var` of the files read declares, at any level.
    private(set) var declaredNames: Set<String> = []
    /// Every name the files read assign (``Declarations/assignedNames``).
    private(set) var assignedNames: Set<String> = []
    /// The names of the stored `var`s among the constants: a use of one
    /// wants every file that says its name, for the assignments.
    private(set) var storedVarNames: Set<String> = []
    /// The groups keychain types' initialisers join from their parameters,
    /// by the type's last name (``Composition``).
    private var compositions: [String: [Composition]] = [:]
    /// Whether each stored property of a type (its last name) only holds
    /// what an initialiser was passed as `accessGroup:`, for a use in an
    /// extension of the type; false when a type of that name says no.
    private var forwardedMembers: [String: [String: Bool]] = [:]
    /// The functions of one `String` parameter, by ``KeyReader/signature``:
    /// the key parameter's Info.plist default when every declaration of
    /// that signature reads the main bundle's Info.plist by its parameter
    /// (`.some(nil)`: no default), `nil` when one does anything else.
    private var keyReaders: [String: String??] = [:]

    /// A function of one `String` parameter that returns the main bundle's
    /// Info.plist value for it (GlucoseDirect's `static func stringValue(
    /// forKey key: String) -> String { guard let value = Bundle.main.object(
    /// forInfoDictionaryKey: key) as? String else { fatalError(…) }; return
    /// value }`, then `UserDefaults(suiteName: stringValue(forKey:
    /// "APP_GROUP_ID"))`: the app group went unchecked and unsaid;
    /// real-project trial 21, D7). A call with a literal key reads that key.
    struct KeyReader {
        /// `Type\u{1}name\u{1}label` (`Type` the declaring type's last
        /// name, empty at the top level; `label` `_` for none).
        static func signature(_ type: String?, _ name: String, _ label: String) -> String {
            (type ?? "") + "\u{1}" + name + "\u{1}" + label
        }

        /// The Info.plist default of the function's read, `.some(nil)` for
        /// none, or nil when it is no such reader.
        static func read(_ f: FunctionDeclSyntax) -> String?? {
            let parameters = f.signature.parameterClause.parameters
            guard let parameter = parameters.first, parameters.count == 1,
                  parameter.type.trimmedDescription == "String", let body = f.body else { return nil }
            let generics = Set(f.genericParameterClause?.parameters.map(\.name.text) ?? [])
            let returned = f.signature.returnClause?.type.trimmedDescription.filter { $0 != "?" && $0 != "!" } ?? ""
            guard returned == "String" || generics.contains(returned) else { return nil }
            let name = (parameter.secondName ?? parameter.firstName).text
            let reader = Reader(isBundle: { e in
                guard let m = e?.as(MemberAccessExprSyntax.self), m.declName.baseName.text == "main" else { return false }
                return m.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "Bundle"
            }, key: { e in e?.as(DeclReferenceExprSyntax.self)?.baseName.text == name ? name : nil })
            guard let read = AccessGroupFinder.readerBody(body.statements, reader), read.key == name else { return nil }
            return .some(read.fallback)
        }
    }

    /// The Info.plist read a call of a key reader makes (``KeyReader``):
    /// declared in one of `types` (last names; nil for the top level).
    func keyReader(_ name: String, label: String, in types: [String?]) -> String?? {
        for type in types {
            if let found = keyReaders[KeyReader.signature(type, name, label)] { return found }
        }
        return nil
    }

    /// Whether the property `name` of the type `type` (its last name),
    /// declared in a file read, forwards its initialisers' group.
    func forwards(_ name: String, of type: String) -> Bool { forwardedMembers[type]?[name] ?? false }

    /// An initialiser of a keychain type that stores a group joined from
    /// its parameters (TunnelKit's and PIA's `init(team:group:) {
    /// accessGroup = "\(team).\(group)" }`): its callers pass the parts,
    /// and the group is what the parts make (real-project trial 17, D1).
    public struct Composition: Sendable, Hashable {
        /// The initialiser's argument labels, in order (`_` for none).
        public var labels: [String]
        public var parts: [Part]
        public enum Part: Sendable, Hashable {
            case text(String)
            /// The argument passed with this label.
            case argument(String)
        }
    }

    public init() {}

    /// A string constant a file declares: `let name = "value"` on `line`,
    /// in the type `container` (nil at the top level), inside a function or
    /// closure body (`isLocal`) or not, under an `#if` (`condition`) or not.
    public struct Constant: Sendable, Hashable {
        public var name: String
        public var value: String
        public var line: Int
        public var container: String?
        public var isLocal: Bool
        public var condition: String?
        /// The `#if`s around the declaration (``IfBranch``).
        public var branches: [IfBranch] = []
        /// A stored `var` (``AccessGroupFinder/storedVarValue(of:in:)``):
        /// its value only while no file read assigns its name.
        public var isStoredVar = false
    }

    /// What one file declares that resolving a name needs: its string
    /// constants, the members of its types that are values, and what its
    /// types inherit.
    public struct Declarations: Sendable {
        public var constants: [Constant] = []
        /// (member name, type's last name)
        var valueMembers: [(String, String)] = []
        /// (member name, type's last name) of computed constants
        var computedMembers: [(String, String)] = []
        /// (type's last name, inherited type's last name)
        var supertypes: [(String, String)] = []
        /// (alias, the type path it names): `typealias KcM = KeychainManager`.
        var typeAliases: [(String, String)] = []
        /// (type's last name, a composition one of its initialisers makes).
        var compositions: [(String, Composition)] = []
        /// The names its `let`s and `var`s declare.
        var declaredNames: Set<String> = []
        /// The names it assigns, changes in place or passes `inout`
        /// (``AssignedNameCollector``): a stored `var` of such a name is
        /// not a constant.
        var assignedNames: Set<String> = []
        /// (type's last name, property, whether it forwards) for
        /// ``UseVisitor/forwardsProperty(_:around:)`` in an extension.
        var forwardedMembers: [(String, String, Bool)] = []
        /// (``KeyReader/signature``, the read's default or nil for no
        /// reader) of each function of one `String` parameter.
        var keyReaders: [(String, String??)] = []
        /// How many members the reader types' walks visited
        /// (``ReaderTypes/membersWalked``), for a test of the work.
        var readerMembersWalked = 0
    }

    /// A constant with the file declaring it.
    public struct Declared: Sendable, Hashable {
        public var constant: Constant
        public var file: String
    }

    /// What one file declares (the same for every target that compiles it).
    public static func declarations(in tree: SourceFileSyntax, file: String) -> Declarations {
        let converter = SourceLocationConverter(fileName: file, tree: tree)
        let collector = ConstantCollector(viewMode: .sourceAccurate)
        collector.walk(tree)
        var out = Declarations()
        var decls: [SyntaxIdentifier: (conditions: [String?], index: [SyntaxIdentifier: Int])] = [:]
        out.constants = collector.found.map { name, value, node, written in
            let scope = Scope(of: node)
            let at = written ?? node
            return Constant(name: name, value: value, line: at.startLocation(converter: converter).line,
                            container: scope.types.first, isLocal: scope.isLocal,
                            condition: UseVisitor.ifCondition(around: at),
                            branches: UseVisitor.branches(around: at, decls: &decls),
                            isStoredVar: collector.storedVars.contains(node.id))
        }
        let assigned = AssignedNameCollector(viewMode: .sourceAccurate)
        assigned.walk(tree)
        out.assignedNames = assigned.names
        let members = MemberCollector(viewMode: .sourceAccurate)
        members.walk(tree)
        out.valueMembers = members.valueMembers
        out.computedMembers = members.computedMembers
        out.supertypes = members.supertypes
        out.typeAliases = members.typeAliases
        out.compositions = members.compositions
        out.declaredNames = members.declaredNames
        out.forwardedMembers = members.forwardedMembers
        out.keyReaders = members.keyReaders
        out.readerMembersWalked = collector.readerTypes.membersWalked
        return out
    }

    /// Adds what ``declarations(in:file:)`` found in `file`; call for every
    /// file before ``uses(in:file:)``.
    public mutating func add(_ found: Declarations, file: String) {
        for c in found.constants {
            let d = Declared(constant: c, file: file)
            constants[c.name, default: []].append(d)
            byContainer[ContainerKey(name: c.name, container: c.container.map(Scope.lastName)), default: []].append(d)
        }
        for (name, type) in found.valueMembers { valueMembers[name, default: []].insert(type) }
        for (name, type) in found.computedMembers { computedMembers[name, default: []].insert(type) }
        for (type, parent) in found.supertypes { supertypes[type, default: []].insert(parent) }
        for (alias, type) in found.typeAliases { typeAliases[alias, default: []].insert(type) }
        declaredNames.formUnion(found.declaredNames)
        assignedNames.formUnion(found.assignedNames)
        for c in found.constants where c.isStoredVar { storedVarNames.insert(c.name) }
        for (type, name, forwards) in found.forwardedMembers { forwardedMembers[type, default: [:]][name] = forwards && forwardedMembers[type]?[name] != false }
        for (type, c) in found.compositions where !(compositions[type]?.contains(c) ?? false) { compositions[type, default: []].append(c) }
        // Overloads and redeclarations must all read, with one default.
        for (signature, read) in found.keyReaders {
            let merged: String?? = keyReaders[signature].map { known in known == read ? known : nil } ?? read
            keyReaders.updateValue(merged, forKey: signature)
        }
    }

    /// A type path with a type alias at its head replaced by the type it
    /// names, when the target's files give it one meaning (Delta Chat's
    /// `private typealias KcM = KeychainManager`, then `KcM.sharedKeychainGroup`).
    func aliased(_ path: String) -> String {
        let head = path.prefix { $0 != "." }
        guard let types = typeAliases[String(head)], types.count == 1, let type = types.first else { return path }
        return type + path.dropFirst(head.count)
    }

    /// The compositions of the type `type` (its last name) that a call with
    /// these argument labels can reach: each part's label is passed, and
    /// every label passed is the initialiser's.
    func compositions(of type: String, labels: [String]) -> [Composition] {
        (compositions[type] ?? []).filter { c in
            labels.allSatisfy(c.labels.contains) && c.parts.allSatisfy { part in
                if case .argument(let label) = part { return labels.contains(label) }
                return true
            }
        }
    }

    /// The parts of a group an initialiser joins from its parameters, each
    /// passed with a label: `"\(team).\(group)"` or `team + "." + group`
    /// (the elements of the right-hand side of an assignment), with the
    /// label `group` among them and a second part; nil for anything else.
    static func composition(_ rhs: ArraySlice<ExprSyntax>, labels: [String: String]) -> [Composition.Part]? {
        func argument(_ e: ExprSyntax) -> Composition.Part? {
            guard let name = e.as(DeclReferenceExprSyntax.self)?.baseName.text,
                  let label = labels[name], label != "_" else { return nil }
            return .argument(label)
        }
        var parts: [Composition.Part] = []
        if rhs.count == 1, let s = rhs.first?.as(StringLiteralExprSyntax.self) {
            for segment in s.segments {
                if let text = segment.as(StringSegmentSyntax.self), !text.content.text.contains("\\") {
                    if !text.content.text.isEmpty { parts.append(.text(text.content.text)) }
                } else if let e = segment.as(ExpressionSegmentSyntax.self), e.expressions.count == 1, let only = e.expressions.first,
                          only.label == nil, let part = argument(only.expression) {
                    parts.append(part)
                } else {
                    return nil
                }
            }
        } else {
            // operand + operand + …
            for (i, e) in rhs.enumerated() {
                if i % 2 == 1 {
                    guard e.as(BinaryOperatorExprSyntax.self)?.operator.text == "+" else { return nil }
                } else if let s = e.as(StringLiteralExprSyntax.self), let text = s.representedLiteralValue {
                    parts.append(.text(text))
                } else if let part = argument(e) {
                    parts.append(part)
                } else {
                    return nil
                }
            }
        }
        guard parts.count >= 2, parts.contains(.argument("group")) else { return nil }
        return parts
    }

    /// Whether `name`, used in the type `type` (a qualified name), can be a
    /// member of it that is a value: one declared by the type, an extension
    /// of it (in any file of the target), or a type or protocol it inherits,
    /// through the target's declarations (Swift takes `self.name` before a
    /// top-level constant of that name). A computed property that only
    /// returns a string is a value when inherited (an override may return
    /// another), the type's own constant otherwise.
    func isValueMember(_ name: String, of type: String) -> Bool {
        let holders = valueMembers[name] ?? [], computed = computedMembers[name] ?? []
        guard !holders.isEmpty || !computed.isEmpty else { return false }
        let own = Scope.lastName(type)
        var seen: Set<String> = []
        var pending = [own]
        while let t = pending.popLast() {
            guard seen.insert(t).inserted, seen.count <= 1_000 else { continue }
            if holders.contains(t) || t != own && computed.contains(t) { return true }
            pending.append(contentsOf: supertypes[t] ?? [])
        }
        return false
    }

    /// Whether a file's text can hold a use at all: every API the finder
    /// knows has `…ccessGroup` or `…haredGroupIdentifier` in its name, so a
    /// file without either is not walked for uses (most files of an app).
    /// `sameLine`: a keychain type's `group:` only on the line naming the
    /// type, for a file kcs refuses to read (a 1.3 MB generated file had
    /// `group:` in one place and `case Keychain(` in another: a false "cannot
    /// check"; real-project trial 17, D5).
    public static func mayNameGroups(_ text: String, sameLine: Bool = false) -> Bool {
        func has(_ word: String) -> Bool { ByteSearch.contains(text, word) }
        return has("ccessGroup") || has("haredGroupIdentifier") || has("suiteName") || has("forSecurityApplicationGroupIdentifier")
            || has("group:") && (has("Keychain") || has("keychain"))
            && (!sameLine || text.split(separator: "\n").contains { $0.contains("group:") && $0.contains("eychain") })
    }

    /// The uses of access groups in one file.
    public func uses(in tree: SourceFileSyntax, file: String) -> [AccessGroupUse] {
        walk(tree, file: file).uses
    }

    /// The types (by last name) around the uses in one file that resolved
    /// to a constant, with everything the declarations known so far say
    /// they inherit: the files naming them say whether one of them has a
    /// property that shadows the constant (a superclass in a file of its
    /// own, a conformance added by an extension elsewhere).
    public func typesToChase(in tree: SourceFileSyntax, file: String) -> Set<String> {
        walk(tree, file: file).typesToChase
    }

    /// What one walk of a file finds with the declarations known so far:
    /// its uses, and the types to chase (``typesToChase(in:file:)``) with the
    /// names an interpolation looked up and found nowhere yet. When
    /// chasing adds nothing, the uses are the file's answer: one walk, not
    /// two (the code check walked each file twice per target).
    public struct Walk: Sendable {
        public var uses: [AccessGroupUse]
        public var typesToChase: Set<String>
    }

    /// One walk of a file. `converter`: the file's, when the caller keeps
    /// it (making one walks the whole tree: a sixth of the code check's
    /// time when many targets compile a file).
    public func walk(_ tree: SourceFileSyntax, file: String, converter: SourceLocationConverter? = nil) -> Walk {
        let visitor = UseVisitor(finder: self, converter: converter ?? SourceLocationConverter(fileName: file, tree: tree), file: file)
        visitor.walk(tree)
        var out = Set<String>()
        var pending = Array(visitor.chase)
        while let t = pending.popLast(), out.count < 10_000 {
            guard out.insert(t).inserted else { continue }
            pending.append(contentsOf: supertypes[t] ?? [])
        }
        return Walk(uses: visitor.uses, typesToChase: out.union(visitor.unfound))
    }

    /// The names the uses in one file look up as constants: only a file
    /// whose text holds one of them can declare a constant that matters.
    public func lookups(in tree: SourceFileSyntax, file: String, converter: SourceLocationConverter? = nil) -> Set<String> {
        let visitor = UseVisitor(finder: self, converter: converter ?? SourceLocationConverter(fileName: file, tree: tree), file: file)
        visitor.walk(tree)
        return visitor.lookedUp
    }

    /// The value of the constants named `name` that `fits` admits, when
    /// there are some and they agree (with where, when there is one, and
    /// the `#if` condition a declaration is under: whether the build
    /// compiles it is not known).
    /// `containers`: the last names of the types that may declare it (nil
    /// for the top level), when the filter admits no others.
    func constant(_ name: String, in containers: [String?]? = nil, where fits: (Constant) -> Bool) -> Resolved? {
        // Each container once: two enclosing types may share a last name.
        let candidates = containers.map { list in
            var seen = Set<String?>()
            return list.filter { seen.insert($0).inserted }.flatMap { byContainer[ContainerKey(name: name, container: $0)] ?? [] }
        } ?? constants[name] ?? []
        let all = candidates.filter { fits($0.constant) && !($0.constant.isStoredVar && assignedNames.contains($0.constant.name)) }
        guard let first = all.first else { return nil }
        guard all.allSatisfy({ $0.constant.value == first.constant.value }) else {
            // `#if DEBUG let g = "….dev" #else let g = "…" #endif`: each
            // build has one of them (2PASS's AutoFill group was "cannot
            // check"; found on a real-project check).
            guard all.count <= 16, all.allSatisfy({ !$0.constant.branches.isEmpty && !Self.isMarker($0.constant.value) }) else { return nil }
            return Resolved(value: .runtime(name + ", declared under #if with another value in each branch"), constant: nil, condition: nil,
                            container: first.constant.container,
                            alternatives: all.map { .init(value: $0.constant.value, branches: $0.constant.branches, file: $0.file, line: $0.constant.line) })
        }
        // Declared outside any `#if`, or in both an `#if` and its `#else`
        // with the same value: compiled in every build.
        let conditions = all.map(\.constant.condition)
        let always = conditions.contains(nil) || Set(conditions).count > 1 && conditions.contains("#else")
        return Resolved(value: .literal(first.constant.value), constant: all.count == 1 ? (first.file, first.constant.line) : nil,
                        condition: always ? nil : conditions.first ?? nil, container: first.constant.container)
    }

    /// The line of `file`'s one top-level `let` of `name` with `value`, if
    /// it declares exactly one: a use of it points there as a type's
    /// constant's does.
    func topLevelLine(_ name: String, in file: String, value: String) -> Int? {
        let mine = (byContainer[ContainerKey(name: name, container: nil)] ?? []).filter { $0.file == file && !$0.constant.isLocal }
        guard mine.count == 1, let only = mine.first, only.constant.value == value, !only.constant.isStoredVar else { return nil }
        return only.constant.line
    }

    /// An expression's value, with the constant it came from and the `#if`
    /// condition that constant is declared under.
    struct Resolved {
        var value: AccessGroupUse.Value
        var constant: (file: String, line: Int)?
        var condition: String?
        /// A wrapper's own plumbing: a value its callers pass with an
        /// `accessGroup:` label, each checked where it is written.
        var forwarded = false
        /// The type declaring the constant it came from (nil: top level).
        var container: String?
        /// Constants of one name with a different value in each `#if`
        /// branch: which one a build has is answered per build (the value
        /// stays "built at run time" when no build answer picks one).
        var alternatives: [AccessGroupUse.Alternative] = []
        /// A name no Swift file of the target declares (``AccessGroupUse/undeclaredName``).
        var undeclared: String?
    }

    /// Parses with the nesting the check allows (``CodeCheck/maxNesting``),
    /// in debug builds as in release ones: swift-syntax's own default is 20
    /// levels in a debug build and 256 in a release one, past which the
    /// rest of a file was dropped without a word (found by adversarial testing).
    /// `#sourceLocation` directives are blanked first, whole (spaces, line
    /// breaks kept, so every other offset stays): kcs reports physical
    /// lines, and swift-syntax's presumed lines overflowed near `Int.max` (a
    /// crash; found by adversarial testing, and a pre-scan of the
    /// directive's text was bypassed with a comment or a `)` in its file name).
    public static func parse(_ text: String) -> SourceFileSyntax {
        var parser = Parser(withoutLineDirectives(text), maximumNestingLevel: CodeCheck.maxNesting)
        return SourceFileSyntax.parse(from: &parser)
    }

    static func withoutLineDirectives(_ text: String) -> String {
        guard ByteSearch.contains(text, "#sourceLocation") else { return text }
        var bytes = Array(text.utf8)
        let directive = Array("#sourceLocation".utf8)
        var i = 0, lineStart = true
        while i < bytes.count {
            let b = bytes[i]
            // A directive starts a line (after spaces): one inside a string
            // literal is no directive and stays (found by adversarial testing).
            if lineStart, b == directive[0], i + directive.count <= bytes.count, bytes[i..<i + directive.count].elementsEqual(directive) {
                i = blankDirective(&bytes, from: i)
                continue
            }
            if b == 0x0A { lineStart = true } else if b != 0x20 && b != 0x09 { lineStart = false }
            i += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Blanks a directive from `start` through its closing `)`, skipping
    /// strings and comments inside it, keeping line breaks: what is left
    /// parses wherever the directive stood (a class body included).
    /// Returns where scanning goes on.
    private static func blankDirective(_ bytes: inout [UInt8], from start: Int) -> Int {
        var i = start, inString = false, depth = 0
        func blank(_ k: Int) { if bytes[k] != 0x0A { bytes[k] = 0x20 } }
        while i < bytes.count {
            let b = bytes[i]
            if inString {
                if b == UInt8(ascii: "\\"), i + 1 < bytes.count { blank(i); blank(i + 1); i += 2; continue }
                if b == UInt8(ascii: "\"") || b == 0x0A { inString = false }
            } else if b == UInt8(ascii: "\"") {
                inString = true
            } else if b == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") {
                while i < bytes.count, bytes[i] != 0x0A { blank(i); i += 1 }
                continue
            } else if b == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "*") {
                blank(i); blank(i + 1); i += 2
                while i < bytes.count, !(bytes[i] == UInt8(ascii: "*") && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/")) { blank(i); i += 1 }
                if i + 1 < bytes.count { blank(i); blank(i + 1) }
                i += 2
                continue
            } else if b == UInt8(ascii: "(") {
                depth += 1
            } else if b == UInt8(ascii: ")") {
                depth -= 1
                if depth <= 0 { blank(i); return i + 1 }
            }
            blank(i)
            i += 1
        }
        return i
    }

    /// A name without the backticks that let it be a keyword (`` `default` ``).
    static func unquoted(_ name: String) -> String {
        name.count > 2 && name.hasPrefix("`") && name.hasSuffix("`") ? String(name.dropFirst().dropLast()) : name
    }

    /// A String enum case is kept as a constant named `case` + this (a
    /// case's member, as a computed property switching over the case is
    /// kept): only `Type.case.rawValue` reads it (`Type.case` alone is no string).
    static let rawValueSuffix = ".rawValue"

    /// The value a `let` initialiser or an argument fixes whatever the code
    /// does: a string literal, or a string of the target's Info.plist,
    /// written as `infoPlistMarker` and its key (the code check reads it for
    /// each target). One rule for constants, bindings and direct uses.
    static func constantValue(_ e: ExprSyntax) -> String? {
        if let s = e.as(StringLiteralExprSyntax.self) { return s.representedLiteralValue ?? interpolation(s) }
        return concatenation(e) ?? infoPlistValue(e)
    }

    /// Strings and constants joined by `+` (`"TEAM." + bundleIdentifier +
    /// ".shared"`), as ``interpolation(_:)`` keeps the same string written
    /// `"TEAM.\(bundleIdentifier).shared"`: it was "a value built at run
    /// time" while the interpolated form was checked (real-project trial 19,
    /// D3; passforios' `"group." + bundleIdentifier`). At least one operand
    /// is a string literal, so two numbers added are no string; anything
    /// else among the operands (a call, a member of a value): nil.
    static func concatenation(_ e: ExprSyntax) -> String? {
        guard let seq = e.as(SequenceExprSyntax.self) else { return nil }
        return concatenation(elements: Array(seq.elements))
    }

    /// The most elements (operands and operators) a join worked out has.
    static let longestConcatenation = 63

    /// ``concatenation(_:)`` of a sequence's elements, also a part of one:
    /// the right-hand side of an assignment, which is not a node of its own
    /// (operators are not folded: `q[k] = "A." + b` is one sequence).
    static func concatenation(elements: [ExprSyntax]) -> String? {
        guard elements.count >= 3, elements.count % 2 == 1, elements.count <= longestConcatenation else { return nil }
        var parts: [String] = [], literals = 0
        for (i, element) in elements.enumerated() {
            if i % 2 == 1 {
                guard element.as(BinaryOperatorExprSyntax.self)?.operator.text == "+" else { return nil }
            } else if let s = element.as(StringLiteralExprSyntax.self) {
                literals += 1
                if let text = s.representedLiteralValue {
                    guard !text.contains(Character(markerStart)), !text.contains("\u{1}") else { return nil }
                    parts.append("s" + text)
                } else if let inner = interpolation(s) {
                    parts += inner.dropFirst(interpolationMarker.count).split(separator: "\u{1}", omittingEmptySubsequences: false).map(String.init)
                } else {
                    return nil
                }
            } else if let path = referencePath(element) {
                parts.append("r" + path)
            } else {
                return nil
            }
        }
        guard literals > 0 else { return nil }
        return interpolationMarker + parts.joined(separator: "\u{1}")
    }

    /// An Info.plist read as `infoPlistMarker` and its key, or nil.
    static func infoPlistValue(_ e: ExprSyntax) -> String? { infoPlistRead(e).map(infoPlistMarked) }

    /// An Info.plist read written as one value: `infoPlistMarker`, the key
    /// and, when the code gives one, `markerStart` and the default.
    static func infoPlistMarked(_ read: (key: String, fallback: String?)) -> String {
        infoPlistMarker + read.key + (read.fallback.map { markerStart + $0 } ?? "")
    }

    /// The key and the default of a value written by ``infoPlistMarked(_:)``;
    /// nil for any other value.
    public static func infoPlistRead(marked: String) -> (key: String, fallback: String?)? {
        guard marked.hasPrefix(infoPlistMarker) else { return nil }
        let rest = marked.dropFirst(infoPlistMarker.count)
        guard let split = rest.firstIndex(of: Character(markerStart)) else { return (String(rest), nil) }
        return (String(rest[..<split]), String(rest[rest.index(after: split)...]))
    }

    /// The value a declaration fixes for a name: a `let` initialised with a
    /// `constantValue`, or a computed property whose getter only returns
    /// one: a string literal (`static var identifier: String { return
    /// "group.…" }`, Zotero's shape: it was "built at run time", and a wrong
    /// group there went unreported; found on a real-project trial) or an
    /// Info.plist string (`static var appGroup: String? { Bundle.main.object(
    /// forInfoDictionaryKey: "AppGroup") as? String }`; found on a
    /// real-project trial: WireGuard's own getter first picks the key under
    /// `#if os(…)` in a local `let`, two statements, which are not followed), or another constant by its name or
    /// `Type.name` (`static var appGroupId: String { return Config.appGroup }`,
    /// IVPN's shape: KCS608 for the keychain, and silence for the app-group
    /// APIs, which check only a sure value; real-project trial 18, D5),
    /// kept as an interpolation of that one name, so it is looked up as
    /// one in `"\(Config.appGroup)"` is, where it is used (a few levels deep).
    static func fixedValue(of binding: PatternBindingSyntax, in decl: VariableDeclSyntax) -> String? {
        if decl.bindingSpecifier.tokenKind == .keyword(.let), binding.accessorBlock == nil {
            return binding.initializer.flatMap { constantValue(immediatelyCalled($0.value) ?? $0.value) }
        }
        guard let getter = getterBody(binding), getter.count == 1, let item = getter.first?.item,
              let returned = returnedExpression(item) else { return nil }
        return constantValue(returned) ?? referencePath(returned).map { interpolationMarker + "r" + $0 }
    }

    /// The value a stored `static var` or global `var` starts with, when it
    /// is a `constantValue` (`static var keychainAccessGroup: String =
    /// "\(appIdentifierPrefix)prt.ProtonVPN"`: ProtonVPN's three places,
    /// "built at run time"; real-project trial 20, D2). Only a var its
    /// module alone can set: not `public` or `open` (nor in a `public
    /// extension`), no observer, no attribute but `@MainActor`, `@available`
    /// or `@nonobjc` (a property wrapper, `@objc` code may set it). It is
    /// used as the constant only while no file the target reads assigns
    /// the name (``AccessGroupFinder/Declarations/assignedNames``).
    static func storedVarValue(of binding: PatternBindingSyntax, in decl: VariableDeclSyntax) -> String? {
        guard decl.bindingSpecifier.tokenKind == .keyword(.var), binding.accessorBlock == nil,
              let initializer = binding.initializer, binding.pattern.is(IdentifierPatternSyntax.self) else { return nil }
        let words = decl.modifiers.map(\.name.text)
        guard !words.contains("public"), !words.contains("open"), !words.contains("lazy"), !words.contains("weak"), !words.contains("unowned"),
              decl.attributes.allSatisfy({ attribute in
                  guard let a = attribute.as(AttributeSyntax.self) else { return false }
                  return ["MainActor", "available", "nonobjc"].contains(a.attributeName.trimmedDescription)
              }) else { return nil }
        if words.contains("static") {
            // A member of a type or an extension, not a public extension's.
            guard let block = decl.parent?.parent?.parent?.as(MemberBlockSyntax.self) else { return nil }
            if let e = block.parent?.as(ExtensionDeclSyntax.self), e.modifiers.contains(where: { ["public", "open"].contains($0.name.text) }) { return nil }
        } else {
            // A global: an item of the file's top level.
            guard decl.parent?.parent?.is(CodeBlockItemListSyntax.self) == true, decl.parent?.parent?.parent?.is(SourceFileSyntax.self) == true else { return nil }
        }
        return constantValue(immediatelyCalled(initializer.value) ?? initializer.value)
    }

    /// The statements of a computed property's getter, when it has no
    /// other accessor (a setter, an observer) and no initial value.
    static func getterBody(_ binding: PatternBindingSyntax) -> CodeBlockItemListSyntax? {
        guard binding.initializer == nil, let accessors = binding.accessorBlock?.accessors else { return nil }
        if let body = accessors.as(CodeBlockItemListSyntax.self) { return body }
        guard let list = accessors.as(AccessorDeclListSyntax.self), list.count == 1, let only = list.first,
              only.accessorSpecifier.tokenKind == .keyword(.get) else { return nil }
        return only.body?.statements
    }

    /// What a getter's only statement returns: `return e`, or `e` alone.
    static func returnedExpression(_ item: CodeBlockItemSyntax.Item) -> ExprSyntax? {
        item.as(ReturnStmtSyntax.self)?.expression ?? item.as(ExpressionStmtSyntax.self)?.expression ?? item.as(ExprSyntax.self)
    }

    /// A getter that is one `#if` whose every clause only returns a string
    /// (`static var group: String { #if DEV "group.dev.…" #else "group.…"
    /// #endif }`, 2FAS's shape; found on a real-project trial): each
    /// value with the literal returning it, whose `#if`s say which builds
    /// compile it, as constants declared under `#if` are. Nil for anything
    /// else, a clause that does more included.
    static func valuePerIfBranch(_ binding: PatternBindingSyntax) -> [(String, Syntax)]? {
        guard let getter = getterBody(binding), getter.count == 1, let config = getter.first?.item.as(IfConfigDeclSyntax.self) else { return nil }
        return valuePerBranch(config, depth: 0)
    }

    private static func valuePerBranch(_ config: IfConfigDeclSyntax, depth: Int) -> [(String, Syntax)]? {
        guard depth < 8 else { return nil }
        var out: [(String, Syntax)] = []
        for clause in config.clauses {
            guard let items = clause.elements?.as(CodeBlockItemListSyntax.self), items.count == 1, let item = items.first?.item else { return nil }
            if let inner = item.as(IfConfigDeclSyntax.self) {
                guard let values = valuePerBranch(inner, depth: depth + 1) else { return nil }
                out += values
            } else {
                guard let returned = returnedExpression(item), let value = constantValue(returned), !isMarker(value) else { return nil }
                out.append((value, Syntax(returned)))
            }
        }
        return out.isEmpty || out.count > 16 ? nil : out
    }

    /// A string that interpolates constants only (`"\(teamID).com.example.shared"`,
    /// `"\(Config.team).group"`), as `interpolationMarker` and its parts:
    /// literal text, and the names, resolved where the string is used or
    /// declared ("team ID constant plus a suffix" is the common way to spell
    /// a group; found on real projects). Anything else in it: nil.
    static func interpolation(_ s: StringLiteralExprSyntax) -> String? {
        var parts: [String] = []
        for segment in s.segments {
            if let text = segment.as(StringSegmentSyntax.self) {
                parts.append("s" + text.content.text)
            } else if let e = segment.as(ExpressionSegmentSyntax.self), e.expressions.count == 1, let only = e.expressions.first,
                      only.label == nil, let path = referencePath(only.expression) {
                parts.append("r" + path)
            } else {
                return nil
            }
        }
        // Escapes in the text (\n, \u{…}) are not worked out: such a string is not followed.
        guard !parts.contains(where: { $0.hasPrefix("s") && $0.contains("\\") }) else { return nil }
        return interpolationMarker + parts.joined(separator: "\u{1}")
    }

    static let interpolationMarker = markerStart + "Interpolation:"

    /// Whether a value is another constant's name alone, as
    /// ``fixedValue(of:in:)`` keeps a getter that only returns one.
    static func isReference(_ value: String) -> Bool {
        let body = value.dropFirst(interpolationMarker.count)
        return value.hasPrefix(interpolationMarker) && body.hasPrefix("r") && !body.contains("\u{1}")
    }

    /// `name`, `Type.name` or `Outer.Type.name`: a path of names.
    static func referencePath(_ e: ExprSyntax) -> String? {
        if let r = e.as(DeclReferenceExprSyntax.self) { return r.baseName.text }
        if let m = e.as(MemberAccessExprSyntax.self), let base = m.base, let prefix = referencePath(base) {
            return prefix + "." + m.declName.baseName.text
        }
        return nil
    }

    /// What a value read from Info.plist is written as until a target says
    /// which Info.plist.
    public static let infoPlistMarker = markerStart + "Info.plist:"

    /// A string joined from text and Info.plist reads (`"\(prefix)prt.ProtonVPN"`
    /// with `prefix` read from the `AppIdentifierPrefix` key, a common way
    /// to get the team prefix at run time: "built at run time" in seven
    /// places of ProtonVPN; real-project trial 20, D2): this marker, then
    /// its parts, `s` and text or `p` and a read as ``infoPlistMarked(_:)``
    /// writes it after its marker, each target's values put in by the code check.
    static let composedMarker = markerStart + "Composed:"

    /// A part of a string built from Info.plist reads.
    public enum InfoPlistPart: Equatable {
        case text(String)
        case read(key: String, fallback: String?)
    }

    /// The parts of an Info.plist read or of a string joined with them;
    /// nil for any other value.
    public static func infoPlistParts(marked: String) -> [InfoPlistPart]? {
        if let read = infoPlistRead(marked: marked) { return [.read(key: read.key, fallback: read.fallback)] }
        guard marked.hasPrefix(composedMarker) else { return nil }
        var out: [InfoPlistPart] = []
        for part in marked.dropFirst(composedMarker.count).split(separator: "\u{1}", omittingEmptySubsequences: false) {
            if part.hasPrefix("s") {
                out.append(.text(String(part.dropFirst())))
            } else if part.hasPrefix("p"), let read = infoPlistRead(marked: infoPlistMarker + part.dropFirst()) {
                out.append(.read(key: read.key, fallback: read.fallback))
            } else {
                return nil
            }
        }
        return out
    }

    /// How every value the finder leaves to be worked out later starts (an
    /// Info.plist read, an interpolation): no string in Swift source starts
    /// with NUL, so such a value is never taken for a group.
    public static let markerStart = "\u{0}"

    /// Whether a literal value is one of those markers.
    public static func isMarker(_ value: String) -> Bool { value.hasPrefix(markerStart) }

    /// The key of `Bundle.main.object(forInfoDictionaryKey: "K")` or
    /// `Bundle.main.infoDictionary?["K"]`, cast (`as? String`, `as! String`),
    /// unwrapped or given a default (`?? ""`): the most common way a group
    /// reaches the code at run time (Mattermost, Lockwise, WireGuard).
    /// `ofSelf`: the bundle is the one a `Bundle` extension's property is
    /// read on (`infoDictionary?["K"]`, `self.object(forInfoDictionaryKey:)`),
    /// which ``mainBundleProperty(_:_:)`` takes for the main bundle.
    /// `X as? T`, `X ?? d` or `X as? T ?? d`: X; nil for any other
    /// sequence: `X as! String + ".shared"` is more than X (found by review).
    static func castOrDefault(_ seq: SequenceExprSyntax) -> ExprSyntax? { castAndDefault(seq)?.value }

    /// `castOrDefault`'s X, with the default d when there is one.
    static func castAndDefault(_ seq: SequenceExprSyntax) -> (value: ExprSyntax, fallback: ExprSyntax?)? {
        guard let first = seq.elements.first else { return nil }
        let rest = Array(seq.elements.dropFirst())
        func isCast(_ i: Int) -> Bool { rest.count > i && rest[i].is(UnresolvedAsExprSyntax.self) }
        func isDefault(_ i: Int) -> Bool { rest.count > i && rest[i].as(BinaryOperatorExprSyntax.self)?.operator.text == "??" }
        guard rest.count == 2 && (isCast(0) || isDefault(0)) || rest.count == 4 && isCast(0) && isDefault(2) else { return nil }
        return (first, isDefault(rest.count - 2) ? rest.last : nil)
    }

    /// `{ E }()` or `{ return E }()`, a closure called where it is
    /// written: E (Linphone's `static let appGroupName: String = { Bundle.main
    /// .object(…) as? String ?? { fatalError() }() }()`; real-project trial 15, D4).
    static func immediatelyCalled(_ e: ExprSyntax) -> ExprSyntax? {
        guard let call = e.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.trailingClosure == nil,
              let closure = call.calledExpression.as(ClosureExprSyntax.self), closure.statements.count == 1,
              let item = closure.statements.first?.item else { return nil }
        return returnedExpression(item)
    }

    /// The key, and the default the code gives when no Info.plist sets it
    /// (`?? "group.…"`, Provenance's shape: without it the targets that do
    /// not set the key got KCS608, and a wrong default went unreported;
    /// real-project trial 16, D2). An empty default is none: it is no group.
    /// `reader`: the bundle and the key are a reader type's
    /// (``readerProperty(_:_:types:)``), not `Bundle.main` and a literal.
    static func infoPlistRead(_ expr: ExprSyntax, ofSelf: Bool = false, reader: Reader? = nil) -> (key: String, fallback: String?)? {
        var e = expr, fallback: String?
        if let seq = e.as(SequenceExprSyntax.self) {
            guard let (first, d) = castAndDefault(seq) else { return nil }
            e = first
            if let text = d?.as(StringLiteralExprSyntax.self)?.representedLiteralValue, !text.isEmpty, !text.contains(Character(markerStart)) {
                fallback = text
            }
        }
        if let f = e.as(ForceUnwrapExprSyntax.self) { e = f.expression }
        if let o = e.as(OptionalChainingExprSyntax.self) { e = o.expression }
        if let t = e.as(TupleExprSyntax.self), t.elements.count == 1, let only = t.elements.first {
            // `(X ?? "inner") ?? "outer"`: the inner default applies first.
            return infoPlistRead(only.expression, ofSelf: ofSelf, reader: reader).map { ($0.key, $0.fallback ?? fallback) }
        }
        return infoPlistKey(e, ofSelf: ofSelf, reader: reader).map { ($0, fallback) }
    }

    /// A reader type's bundle and key, for ``infoPlistRead(_:ofSelf:reader:)``:
    /// whether an expression is the bundle, and the key an expression is.
    struct Reader {
        var isBundle: (ExprSyntax?) -> Bool
        var key: (ExprSyntax?) -> String?
    }

    /// The key `e` reads, once casts and defaults are taken off.
    private static func infoPlistKey(_ e: ExprSyntax, ofSelf: Bool, reader: Reader?) -> String? {
        func isMainBundle(_ e: ExprSyntax?) -> Bool {
            if let reader { return reader.isBundle(e) }
            if ofSelf { return e == nil || e?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" }
            guard let m = e?.as(MemberAccessExprSyntax.self), m.declName.baseName.text == "main" else { return false }
            return m.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "Bundle"
        }
        /// `base.name`, or `name` alone on the bundle itself.
        func member(_ e: ExprSyntax, _ name: String) -> Bool {
            if let m = e.as(MemberAccessExprSyntax.self) { return m.declName.baseName.text == name && isMainBundle(m.base) }
            return ofSelf && e.as(DeclReferenceExprSyntax.self)?.baseName.text == name
        }
        // A key holding the marker's separator is not followed.
        func literal(_ e: ExprSyntax?) -> String? {
            if let reader { return reader.key(e) }
            return e?.as(StringLiteralExprSyntax.self)?.representedLiteralValue.flatMap { $0.contains(Character(markerStart)) ? nil : $0 }
        }
        if let call = e.as(FunctionCallExprSyntax.self), member(call.calledExpression, "object"), call.arguments.count == 1,
           call.arguments.first?.label?.text == "forInfoDictionaryKey" {
            return literal(call.arguments.first?.expression)
        }
        if let sub = e.as(SubscriptCallExprSyntax.self), sub.arguments.count == 1, sub.arguments.first?.label == nil {
            var base = sub.calledExpression
            if let o = base.as(OptionalChainingExprSyntax.self) { base = o.expression }
            if let f = base.as(ForceUnwrapExprSyntax.self) { base = f.expression }
            if member(base, "infoDictionary") { return literal(sub.arguments.first?.expression) }
        }
        return nil
    }

    /// A computed property of `extension Bundle` whose getter only returns
    /// one of its own Info.plist strings (`var appGroup: String {
    /// infoDictionary?["APPGROUP"] as? String ?? "" }`): its name and the
    /// key. Read as `Bundle.main.appGroup`, it is the main bundle's value,
    /// checked like `Bundle.main.infoDictionary?["APPGROUP"]` (Blockstream
    /// Green's group was six KCS608; found on a real-project trial).
    static func mainBundleProperty(_ binding: PatternBindingSyntax, _ decl: VariableDeclSyntax) -> String? {
        guard !decl.modifiers.contains(where: { $0.name.text == "static" || $0.name.text == "class" }),
              let getter = getterBody(binding), getter.count == 1, let item = getter.first?.item else { return nil }
        var parent = decl.parent
        while let p = parent, !p.is(ExtensionDeclSyntax.self) {
            if p.is(StructDeclSyntax.self) || p.is(ClassDeclSyntax.self) || p.is(EnumDeclSyntax.self) || p.is(ProtocolDeclSyntax.self) { return nil }
            parent = p.parent
        }
        guard let ext = parent?.as(ExtensionDeclSyntax.self), Scope.typePath(ext.extendedType) == "Bundle"
            || Scope.typePath(ext.extendedType) == "Foundation.Bundle" else { return nil }
        return returnedExpression(item).flatMap { infoPlistRead($0, ofSelf: true) }.map(infoPlistMarked)
    }

    /// A computed `String` property of an Info.plist reader type, read as
    /// `Reader.main.name` (Element X's `InfoPlistReader`: `static let main =
    /// InfoPlistReader(bundle: .main)`, `private let bundle: Bundle` set by
    /// the initialiser, `var keychainAccessGroupIdentifier: String {
    /// infoPlistValue(forKey: Keys.keychainAccessGroupIdentifier) }` and
    /// `private func infoPlistValue<T>(forKey key: String) -> T { guard let
    /// result = bundle.object(forInfoDictionaryKey: key) as? T else {
    /// fatalError(…) }; return result }`: six KCS608, and an extension
    /// without its group went unseen; real-project trial 20, D7): the
    /// key's Info.plist value of the target. All in the type's body: the
    /// getter calls one of its functions with one string (a literal, a
    /// `static let` of the type or of a type it nests); every function of
    /// that name and label that can return a `String` returns the bundle's
    /// value for its parameter, alone or after a `guard let`; the bundle is
    /// a stored `let` the initialiser `main` calls sets from `.main`.
    static func readerProperty(_ binding: PatternBindingSyntax, _ decl: VariableDeclSyntax, types: ReaderTypes) -> String? {
        guard !decl.modifiers.contains(where: { $0.name.text == "static" || $0.name.text == "class" }),
              let annotated = binding.typeAnnotation?.type.trimmedDescription, ["String", "String?", "String!"].contains(annotated),
              let getter = getterBody(binding), getter.count == 1, let item = getter.first?.item,
              let call = returnedExpression(item)?.as(FunctionCallExprSyntax.self), call.trailingClosure == nil,
              call.arguments.count == 1, let argument = call.arguments.first,
              let members = decl.parent?.parent?.as(MemberBlockItemListSyntax.self),
              let typeDecl = members.parent?.parent, typeDecl.is(StructDeclSyntax.self) || typeDecl.is(ClassDeclSyntax.self),
              let typeName = LocalBinding.typeName(of: typeDecl) else { return nil }
        let function: String
        if let r = call.calledExpression.as(DeclReferenceExprSyntax.self) {
            function = r.baseName.text
        } else if let m = call.calledExpression.as(MemberAccessExprSyntax.self), m.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" {
            function = m.declName.baseName.text
        } else {
            return nil
        }
        let type = types.type(members, typeName: Scope.lastName(typeName))
        guard let key = readerString(argument.expression, in: type, types: types),
              !key.contains(Character(markerStart)), let bundle = type.bundle,
              let fallback = type.read(function, label: argument.label?.text ?? "_", bundle: bundle) else { return nil }
        return infoPlistMarked((key, fallback))
    }

    /// What ``readerProperty(_:_:types:)`` looks up in a type's members,
    /// worked out once per type: each property walked the whole member
    /// list three times, properties × members (a reader type of 2,500
    /// properties took 19 s, one of 5,000 passed `lint --project`'s time
    /// limit; adversarial run 27, F5).
    final class ReaderTypes {
        private var types: [SyntaxIdentifier: ReaderType] = [:]
        /// The members the types' walks visited, all told: the work done,
        /// which a test counts (linear in the members, where the old walks
        /// per property were properties × members).
        fileprivate(set) var membersWalked = 0

        func type(_ members: MemberBlockItemListSyntax, typeName: String) -> ReaderType {
            if let known = types[members.id] { return known }
            let made = ReaderType(members, typeName: typeName, types: self)
            types[members.id] = made
            return made
        }
    }

    /// One type's members, as ``ReaderTypes`` keeps them.
    final class ReaderType {
        let members: MemberBlockItemListSyntax
        let typeName: String
        /// Where the walks are counted.
        private unowned let types: ReaderTypes
        init(_ members: MemberBlockItemListSyntax, typeName: String, types: ReaderTypes) {
            self.members = members
            self.typeName = typeName
            self.types = types
        }

        /// ``AccessGroupFinder/mainBundleProperty(in:typeName:)``.
        lazy var bundle: String? = {
            types.membersWalked += members.count
            return AccessGroupFinder.mainBundleProperty(in: members, typeName: typeName)
        }()

        /// The `static let`s' literals by name: the first binding of each name.
        lazy var staticStrings: [String: String?] = {
            var out: [String: String?] = [:]
            for member in members {
                types.membersWalked += 1
                guard let v = member.decl.as(VariableDeclSyntax.self), v.bindingSpecifier.tokenKind == .keyword(.let),
                      v.modifiers.contains(where: { $0.name.text == "static" }) else { continue }
                for binding in v.bindings {
                    guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, out[name] == nil else { continue }
                    out[name] = .some(binding.initializer?.value.as(StringLiteralExprSyntax.self)?.representedLiteralValue)
                }
            }
            return out
        }()

        /// The nested enums' and structs' members, by name: the first of each.
        lazy var nested: [String: MemberBlockItemListSyntax] = {
            var out: [String: MemberBlockItemListSyntax] = [:]
            for m in members {
                types.membersWalked += 1
                if let d = m.decl.as(EnumDeclSyntax.self), out[d.name.text] == nil { out[d.name.text] = d.memberBlock.members }
                if let d = m.decl.as(StructDeclSyntax.self), out[d.name.text] == nil { out[d.name.text] = d.memberBlock.members }
            }
            return out
        }()

        /// The functions by name, in order.
        lazy var functions: [String: [FunctionDeclSyntax]] = {
            var out: [String: [FunctionDeclSyntax]] = [:]
            for m in members {
                types.membersWalked += 1
                if let f = m.decl.as(FunctionDeclSyntax.self) { out[f.name.text, default: []].append(f) }
            }
            return out
        }()

        /// ``read(_:label:bundle:)``'s answers.
        private var reads: [String: String??] = [:]

        /// The default every overload of `function` with that one label
        /// that can return a `String` gives when it reads the bundle with
        /// its parameter; nil when there is none or one reads anything
        /// else (the key is the getter's, so the answer holds for every key).
        func read(_ function: String, label: String, bundle: String) -> String?? {
            let memo = function + "\u{1}" + label + "\u{1}" + bundle
            if let known = reads[memo] { return known }
            let answer = readOnce(function, label: label, bundle: bundle)
            reads[memo] = .some(answer)
            return answer
        }

        private func readOnce(_ function: String, label: String, bundle: String) -> String?? {
            var fallback: String??
            for f in functions[function] ?? [] {
                let parameters = f.signature.parameterClause.parameters
                guard parameters.count == 1, let parameter = parameters.first, parameter.firstName.text == label else { continue }
                let generics = Set(f.genericParameterClause?.parameters.map(\.name.text) ?? [])
                let returned = f.signature.returnClause?.type.trimmedDescription.filter { $0 != "?" && $0 != "!" } ?? ""
                guard returned == "String" || generics.contains(returned) else { continue }
                let name = (parameter.secondName ?? parameter.firstName).text
                let reader = Reader(isBundle: { e in
                    guard let e else { return false }
                    if let r = e.as(DeclReferenceExprSyntax.self) { return r.baseName.text == bundle }
                    guard let m = e.as(MemberAccessExprSyntax.self) else { return false }
                    return m.declName.baseName.text == bundle && m.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self"
                }, key: { e in e?.as(DeclReferenceExprSyntax.self)?.baseName.text == name ? "" : nil })
                guard let read = f.body.flatMap({ AccessGroupFinder.readerBody($0.statements, reader) }),
                      fallback == nil || fallback == .some(read.fallback) else { return nil }
                fallback = .some(read.fallback)
            }
            return fallback
        }
    }

    /// A reader function's body: `return READ`, `READ`, or `guard let r =
    /// READ else { … }` then `return r`.
    static func readerBody(_ statements: CodeBlockItemListSyntax, _ reader: Reader) -> (key: String, fallback: String?)? {
        let items = statements.map(\.item)
        if items.count == 1, let e = returnedExpression(items[0]) { return infoPlistRead(e, reader: reader) }
        guard items.count == 2, let g = items[0].as(GuardStmtSyntax.self), g.conditions.count == 1,
              let bound = g.conditions.first?.condition.as(OptionalBindingConditionSyntax.self),
              let name = bound.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = bound.initializer?.value,
              returnedExpression(items[1])?.as(DeclReferenceExprSyntax.self)?.baseName.text == name else { return nil }
        return infoPlistRead(value, reader: reader)
    }

    /// A string a reader type's getter passes: a literal, or a `static let`
    /// of the type (`name`, `Self.name`, `Type.name`) or of a type it
    /// nests (`Keys.name`), given by a literal.
    private static func readerString(_ e: ExprSyntax, in type: ReaderType, types: ReaderTypes) -> String? {
        if let s = e.as(StringLiteralExprSyntax.self) { return s.representedLiteralValue }
        guard let path = referencePath(e)?.split(separator: ".").map(String.init), let name = path.last, path.count <= 2 else { return nil }
        var scope = type
        if path.count == 2, path[0] != "Self", path[0] != type.typeName {
            guard let nested = type.nested[path[0]] else { return nil }
            scope = types.type(nested, typeName: path[0])
        }
        return scope.staticStrings[name] ?? nil
    }

    /// The stored `let` of a reader type that holds the main bundle for
    /// its `static let main = T(label: .main)` (or `Bundle.main`): the
    /// property the initialiser taking that label sets from it.
    private static func mainBundleProperty(in members: MemberBlockItemListSyntax, typeName: String) -> String? {
        var label: String?
        for member in members {
            guard let v = member.decl.as(VariableDeclSyntax.self), v.bindingSpecifier.tokenKind == .keyword(.let),
                  v.modifiers.contains(where: { $0.name.text == "static" }), let binding = v.bindings.first, v.bindings.count == 1,
                  binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "main",
                  let call = binding.initializer?.value.as(FunctionCallExprSyntax.self), call.arguments.count == 1,
                  let only = call.arguments.first, let l = only.label?.text else { continue }
            let called = call.calledExpression.trimmedDescription
            guard called == typeName || called == "Self" || called == ".init" || called == typeName + ".init" else { return nil }
            guard let m = only.expression.as(MemberAccessExprSyntax.self), m.declName.baseName.text == "main",
                  m.base == nil || m.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "Bundle" else { return nil }
            label = l
        }
        guard let label else { return nil }
        let inits = members.compactMap { $0.decl.as(InitializerDeclSyntax.self) }.filter { i in
            i.signature.parameterClause.parameters.count == 1 && i.signature.parameterClause.parameters.first?.firstName.text == label
        }
        guard inits.count == 1, let initializer = inits.first, let parameter = initializer.signature.parameterClause.parameters.first,
              let body = initializer.body else { return nil }
        let name = (parameter.secondName ?? parameter.firstName).text
        // `self.P = name` or `P = name`, and P a stored `let` of the type.
        for statement in body.statements {
            guard let seq = statement.item.as(SequenceExprSyntax.self) ?? statement.item.as(ExpressionStmtSyntax.self)?.expression.as(SequenceExprSyntax.self),
                  seq.elements.count == 3, seq.elements.dropFirst().first?.is(AssignmentExprSyntax.self) == true,
                  seq.elements.last?.as(DeclReferenceExprSyntax.self)?.baseName.text == name, let target = seq.elements.first else { continue }
            let property: String?
            if let m = target.as(MemberAccessExprSyntax.self), m.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" {
                property = m.declName.baseName.text
            } else {
                property = target.as(DeclReferenceExprSyntax.self).map(\.baseName.text)
            }
            guard let property, property != name || target.is(MemberAccessExprSyntax.self) else { continue }
            let isLet = members.contains { m in
                guard let v = m.decl.as(VariableDeclSyntax.self), v.bindingSpecifier.tokenKind == .keyword(.let),
                      !v.modifiers.contains(where: { $0.name.text == "static" }) else { return false }
                return v.bindings.contains { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == property && $0.initializer == nil }
            }
            return isLet ? property : nil
        }
        return nil
    }
}

/// Where a node sits: the types around it, innermost first, each by its
/// qualified name (`A.Keys`, so `B.Keys` is another; an extension counts
/// as its type, generic arguments dropped), and whether a function, an
/// accessor or a closure body holds it.
struct Scope {
    var types: [String] = []
    var isLocal = false

    init(of node: Syntax) {
        var names: [String] = []
        var current = node.parent
        while let n = current {
            if let d = n.as(StructDeclSyntax.self) { names.append(d.name.text) }
            else if let d = n.as(ClassDeclSyntax.self) { names.append(d.name.text) }
            else if let d = n.as(EnumDeclSyntax.self) { names.append(d.name.text) }
            else if let d = n.as(ActorDeclSyntax.self) { names.append(d.name.text) }
            else if let d = n.as(ExtensionDeclSyntax.self) { names.append(Self.typePath(d.extendedType)) }
            else if names.isEmpty, n.is(FunctionDeclSyntax.self) || n.is(InitializerDeclSyntax.self) || n.is(ClosureExprSyntax.self)
                        || n.is(AccessorDeclSyntax.self) || n.is(DeinitializerDeclSyntax.self) || n.is(SubscriptDeclSyntax.self) {
                isLocal = true
            }
            current = n.parent
        }
        // Innermost first: "A.Keys", then "A".
        for i in names.indices { types.append(names[i...].reversed().joined(separator: ".")) }
    }

    /// `Outer.Inner` → `Inner`.
    static func lastName(_ path: String) -> String {
        path.split(separator: ".").last.map(String.init) ?? path
    }

    /// `Outer.Inner<T>` → `Outer.Inner`.
    static func typePath(_ type: TypeSyntax) -> String {
        type.trimmedDescription.split(separator: "<").first.map { $0.filter { !$0.isWhitespace } } ?? ""
    }

    /// Whether a constant's type `container` is the one `written` names
    /// (`Keys` names `A.Keys` too, when no other type of that name has the constant).
    static func names(_ container: String, _ written: String) -> Bool {
        container == written || container.hasSuffix("." + written)
    }
}

/// Whether `name` is bound, before `use`, by something other than a type's
/// or the file's string constant: a parameter of an enclosing function,
/// closure or accessor (`newValue`, `oldValue`), a local `let`/`var` (tuples
/// included), an `if`/`guard`/`while` binding (`case let` too), a `for`,
/// `switch` case or `catch` pattern, or a member of an enclosing type that is
/// no string constant (a stored or computed property). Then the name is
/// that binding, a value at run time (Element X's parameter
/// `keychainAccessGroupIdentifier` was taken for an unrelated static
/// constant of that name). A local `let name = "literal"` gives its literal.
enum LocalBinding {
    case none
    case literal(String)
    case runtime
    /// A parameter of the enclosing function or initialiser, with its label.
    case parameter(label: String)
    /// A property of the enclosing type (a value).
    case property
    /// `if let name = self.name` (or `guard let`): the type's member `name`.
    case selfMember
    /// A local `let name = Type.constant` (or another name): the value of
    /// that expression (Windscribe's `let accessGroup = SharedKeys.group`
    /// passed on was "cannot check"; found on a real-project trial).
    case expression(ExprSyntax)

    init(_ name: String, before use: Syntax, index: BindingIndex, isValueMember: (_ type: String) -> Bool) {
        self = .none
        var child = use
        var current = use.parent
        while let n = current {
            // A later condition sees what an earlier one binds (`guard let s =
            // Bundle.main.appGroup, let d = UserDefaults(suiteName: s)`).
            if let list = n.as(ConditionElementListSyntax.self) {
                var found: LocalBinding?
                for element in list {
                    if element.id == child.id { break }
                    if let b = Self.binding(of: name, in: element) { found = b }
                }
                if let found { self = found; return }
            }
            if let items = n.as(CodeBlockItemListSyntax.self) {
                // The last binding of the name before the use, from the
                // block's index (each block read once per file: scanning it
                // per use was quadratic, a 250 KB file took minutes).
                if let found = index.binding(of: name, in: items, before: child.position) { self = found; return }
            }
            if let i = n.as(IfExprSyntax.self), child.id == i.body.id, Self.binds(i.conditions, name) {
                self = Self.binding(of: name, by: i.conditions); return
            }
            if let w = n.as(WhileStmtSyntax.self), child.id == w.body.id, Self.binds(w.conditions, name) {
                self = Self.binding(of: name, by: w.conditions); return
            }
            if let f = n.as(ForStmtSyntax.self), child.id == f.body.id, Self.mentions(f.pattern, name) { self = .runtime; return }
            if let c = n.as(SwitchCaseSyntax.self), case .case(let label) = c.label,
               label.caseItems.contains(where: { Self.mentions($0.pattern, name) }) { self = .runtime; return }
            if let c = n.as(CatchClauseSyntax.self),
               c.catchItems.isEmpty ? name == "error" : c.catchItems.contains(where: { $0.pattern.map { Self.mentions($0, name) } ?? false }) {
                self = .runtime; return
            }
            if let f = n.as(FunctionDeclSyntax.self), let p = Self.parameter(f.signature.parameterClause.parameters, name) {
                self = .parameter(label: p.firstName.text); return
            }
            if let f = n.as(InitializerDeclSyntax.self), let p = Self.parameter(f.signature.parameterClause.parameters, name) {
                self = .parameter(label: p.firstName.text); return
            }
            if let a = n.as(AccessorDeclSyntax.self) {
                let implicit: String? = switch a.accessorSpecifier.tokenKind {
                case .keyword(.set), .keyword(.willSet): "newValue"
                case .keyword(.didSet): "oldValue"
                default: nil
                }
                if (a.parameters?.name.text ?? implicit) == name { self = .runtime; return }
            }
            if let f = n.as(SubscriptDeclSyntax.self), Self.names(f.parameterClause.parameters, name) { self = .runtime; return }
            if let c = n.as(ClosureExprSyntax.self), let sig = c.signature?.parameterClause, Self.mentions(sig, name) { self = .runtime; return }
            if let c = n.as(ClosureExprSyntax.self), let capture = c.signature?.capture,
               capture.items.contains(where: { $0.name.text == name }) { self = .runtime; return }
            if let c = n.as(ClosureExprSyntax.self), c.signature == nil, name.hasPrefix("$") { self = .runtime; return }
            // A property of the type, declared here or elsewhere (an
            // extension, a protocol, a superclass), is a value; a string
            // constant of the type alone is the type's (found by its container).
            let own = index.member(name, of: n)
            if case .runtime? = own { self = .property; return }
            if let type = Self.typeName(of: n), isValueMember(type) { self = .property; return }
            if own != nil { return }
            child = n
            current = n.parent
        }
    }

    /// Every name a declaration binds, with what it binds it to.
    /// `expressions`: a local `let` bound to a name or a member
    /// (`Type.constant`) is that expression (``expression(_:)``).
    /// A stored `static var` or global `var` kcs may take for a constant
    /// (``AccessGroupFinder/storedVarValue(of:in:)``) binds nothing here,
    /// so the name is looked up among the constants, which know whether
    /// a file assigns it; with `storedVars`, it is a value.
    static func bindings(in decl: VariableDeclSyntax, expressions: Bool = false, storedVars: Bool = false) -> [(String, LocalBinding)] {
        var out: [(String, LocalBinding)] = []
        for binding in decl.bindings {
            if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                if !storedVars, AccessGroupFinder.storedVarValue(of: binding, in: decl) != nil { continue }
                if let v = AccessGroupFinder.fixedValue(of: binding, in: decl) {
                    out.append((name, .literal(v)))
                } else if expressions, decl.bindingSpecifier.tokenKind == .keyword(.let), binding.accessorBlock == nil,
                          let value = binding.initializer?.value, let followed = followed(value) {
                    out.append((name, .expression(followed)))
                } else {
                    out.append((name, .runtime))
                }
            } else {
                for token in binding.pattern.tokens(viewMode: .sourceAccurate) where Self.isIdentifier(token) {
                    out.append((token.text, .runtime))
                }
            }
        }
        return out
    }

    /// What a binding to `value` stands for, when kcs can follow it: a
    /// name or a member (`Type.constant`, `Bundle.main.appGroup`), or a
    /// value it reads (an Info.plist string), after `!`, `as? T`, `?? d`,
    /// parentheses and `{ E }()` (Trio's `let s = Bundle.main.appGroupSuiteName!`
    /// was a value built at run time; real-project trial 15, D4). Nil for
    /// anything else, which is a value.
    static func followed(_ value: ExprSyntax) -> ExprSyntax? {
        if AccessGroupFinder.constantValue(value) != nil { return value }
        var e = value
        for _ in 0..<8 {
            if let inner = AccessGroupFinder.immediatelyCalled(e) { e = inner; continue }
            if let seq = e.as(SequenceExprSyntax.self) {
                guard let first = AccessGroupFinder.castOrDefault(seq) else { return nil }
                e = first
                continue
            }
            if let f = e.as(ForceUnwrapExprSyntax.self) { e = f.expression; continue }
            if let t = e.as(TupleExprSyntax.self), t.elements.count == 1, let only = t.elements.first, only.label == nil {
                e = only.expression
                continue
            }
            break
        }
        if AccessGroupFinder.constantValue(e) != nil || e.is(MemberAccessExprSyntax.self) || e.is(DeclReferenceExprSyntax.self) { return e }
        return nil
    }

    static func isIdentifier(_ token: TokenSyntax) -> Bool {
        if case .identifier = token.tokenKind { return true }
        return false
    }

    /// The names `if`/`guard`/`while` conditions bind.
    /// An unwrapping that only renames (`if let x`, `if let x = x`) binds
    /// nothing new: the name goes on meaning what it meant outside, a
    /// constant included. `if let x = self.x` binds the member
    /// (`binding(of:by:)`: Mattermost unwraps its group property so).
    static func bound(by conditions: ConditionElementListSyntax) -> [String] {
        conditions.flatMap { element -> [String] in
            if let optional = element.condition.as(OptionalBindingConditionSyntax.self),
               let name = optional.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                let value = optional.initializer?.value
                if value == nil || value?.as(DeclReferenceExprSyntax.self)?.baseName.text == name { return [] }
            }
            let pattern: PatternSyntax? = element.condition.as(OptionalBindingConditionSyntax.self)?.pattern
                ?? element.condition.as(MatchingPatternConditionSyntax.self)?.pattern
            return pattern.map { $0.tokens(viewMode: .sourceAccurate).filter(isIdentifier).map(\.text) } ?? []
        }
    }

    /// The name of a type declaration (an extension's type's).
    static func typeName(of node: Syntax) -> String? {
        if let d = node.as(StructDeclSyntax.self) { return d.name.text }
        if let d = node.as(ClassDeclSyntax.self) { return d.name.text }
        if let d = node.as(EnumDeclSyntax.self) { return d.name.text }
        if let d = node.as(ActorDeclSyntax.self) { return d.name.text }
        if let d = node.as(ExtensionDeclSyntax.self) { return Scope.typePath(d.extendedType) }
        return nil
    }

    /// The members of a type declaration.
    static func members(of node: Syntax) -> MemberBlockItemListSyntax? {
        if let d = node.as(StructDeclSyntax.self) { return d.memberBlock.members }
        if let d = node.as(ClassDeclSyntax.self) { return d.memberBlock.members }
        if let d = node.as(EnumDeclSyntax.self) { return d.memberBlock.members }
        if let d = node.as(ActorDeclSyntax.self) { return d.memberBlock.members }
        if let d = node.as(ExtensionDeclSyntax.self) { return d.memberBlock.members }
        return nil
    }

    static func mentions(_ node: some SyntaxProtocol, _ name: String) -> Bool {
        node.tokens(viewMode: .sourceAccurate).contains { $0.text == name }
    }

    /// What conditions bind `name` to: the type's member for `let name =
    /// self.name`, what `let name = E` follows to (``followed(_:)``: a
    /// constant, an Info.plist string, `Bundle.main.appGroup`; Trio's
    /// `guard let suiteName = Bundle.main.appGroupSuiteName`, real-project
    /// trial 15, D4), else a value.
    static func binding(of name: String, by conditions: ConditionElementListSyntax) -> LocalBinding {
        var found: LocalBinding = .runtime
        for element in conditions {
            if let b = binding(of: name, in: element) { found = b }
        }
        return found
    }

    /// What one condition binds `name` to; nil when it does not bind it,
    /// or only unwraps it (`if let name`, `if let name = name`).
    static func binding(of name: String, in element: ConditionElementSyntax) -> LocalBinding? {
        guard let optional = element.condition.as(OptionalBindingConditionSyntax.self) else {
            if let pattern = element.condition.as(MatchingPatternConditionSyntax.self)?.pattern, mentions(pattern, name) { return .runtime }
            return nil
        }
        guard optional.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name else {
            return mentions(optional.pattern, name) ? .runtime : nil
        }
        guard let value = optional.initializer?.value, value.as(DeclReferenceExprSyntax.self)?.baseName.text != name else { return nil }
        if let m = value.as(MemberAccessExprSyntax.self), m.declName.baseName.text == name,
           m.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" { return .selfMember }
        if optional.bindingSpecifier.tokenKind == .keyword(.let), let followed = followed(value) { return .expression(followed) }
        return .runtime
    }

    static func binds(_ conditions: ConditionElementListSyntax, _ name: String) -> Bool {
        bound(by: conditions).contains(name)
    }

    static func names(_ parameters: FunctionParameterListSyntax, _ name: String) -> Bool {
        parameter(parameters, name) != nil
    }

    static func parameter(_ parameters: FunctionParameterListSyntax, _ name: String) -> FunctionParameterSyntax? {
        parameters.first { ($0.secondName ?? $0.firstName).text == name }
    }

    /// Each parameter's label by its name (the first of a name), read once
    /// per function: looking each assignment's value up by a walk of the
    /// list was parameters × assignments (15,000 parameters, 71 s;
    /// adversarial run 26, F11).
    static func labels(_ parameters: FunctionParameterListSyntax) -> [String: String] {
        var out: [String: String] = [:]
        for p in parameters where out[(p.secondName ?? p.firstName).text] == nil {
            out[(p.secondName ?? p.firstName).text] = p.firstName.text
        }
        return out
    }
}

/// The bindings of each code block and the members of each type of one
/// file, read once and looked up by name: resolving a use asks its blocks
/// and types, and asking by scanning them made a file of n declarations and
/// n uses cost n² (found by adversarial testing).
final class BindingIndex {
    /// Per block: for each name, where each binding of it ends, in order.
    private var blocks: [SyntaxIdentifier: [String: [(end: AbsolutePosition, binding: LocalBinding)]]] = [:]
    private var types: [SyntaxIdentifier: [String: LocalBinding]] = [:]

    /// The last binding of `name` in `items` that ends before `position`.
    func binding(of name: String, in items: CodeBlockItemListSyntax, before position: AbsolutePosition) -> LocalBinding? {
        let table = blocks[items.id] ?? {
            var t: [String: [(end: AbsolutePosition, binding: LocalBinding)]] = [:]
            // A file's top level is a block too; its constants under `#if`
            // are the file's, with their condition (ConstantCollector).
            let local = !(items.parent?.is(SourceFileSyntax.self) ?? false)
            for item in items {
                for (n, b) in Self.bindings(of: item.item, ifConfig: local) { t[n, default: []].append((item.endPosition, b)) }
            }
            blocks[items.id] = t
            return t
        }()
        return table[name]?.last(where: { $0.end <= position })?.binding
    }

    /// What one item of a block binds: a `let`/`var`, a `guard`'s
    /// conditions, and, with `ifConfig`, the same items of an `#if`'s
    /// clauses (not names bound deeper, in a closure or an `if let`): bound
    /// in some build only, and which one this build compiles is not known,
    /// so such a name is a value from there on.
    static func bindings(of item: CodeBlockItemSyntax.Item, ifConfig: Bool) -> [(String, LocalBinding)] {
        if let decl = item.as(VariableDeclSyntax.self) { return LocalBinding.bindings(in: decl, expressions: ifConfig) }
        if let guardStmt = item.as(GuardStmtSyntax.self) {
            return LocalBinding.bound(by: guardStmt.conditions).map { ($0, LocalBinding.binding(of: $0, by: guardStmt.conditions)) }
        }
        guard ifConfig, let config = item.as(IfConfigDeclSyntax.self) else { return [] }
        var out: [(String, LocalBinding)] = []
        for clause in config.clauses {
            guard let elements = clause.elements?.as(CodeBlockItemListSyntax.self) else { continue }
            for inner in elements { out += bindings(of: inner.item, ifConfig: true).map { ($0.0, .runtime) } }
        }
        return out
    }

    /// The members of a type's body, those under `#if` included.
    static func variables(in members: MemberBlockItemListSyntax) -> [(VariableDeclSyntax, conditional: Bool)] {
        var out: [(VariableDeclSyntax, conditional: Bool)] = []
        for member in members {
            if let decl = member.decl.as(VariableDeclSyntax.self) { out.append((decl, false)) }
            if let config = member.decl.as(IfConfigDeclSyntax.self) {
                for clause in config.clauses {
                    guard let inner = clause.elements?.as(MemberBlockItemListSyntax.self) else { continue }
                    out += variables(in: inner).map { ($0.0, true) }
                }
            }
        }
        return out
    }

    /// What a type declaration's member named `name` is, if `node` is a type
    /// declaration with one.
    func member(_ name: String, of node: Syntax) -> LocalBinding? {
        guard let members = LocalBinding.members(of: node) else { return nil }
        let table = types[node.id] ?? {
            var t: [String: LocalBinding] = [:]
            for (decl, conditional) in Self.variables(in: members) {
                // A static constant and an instance property of one name: a
                // bare use in an instance method is the property, so any
                // member that is a value makes the name a value; so does one
                // under `#if` (compiled in some builds only).
                for (n, b) in LocalBinding.bindings(in: decl, storedVars: conditional) {
                    if conditional { t[n] = .runtime; continue }
                    if case .runtime = b { t[n] = .runtime } else if t[n] == nil { t[n] = b }
                }
            }
            types[node.id] = t
            return t
        }()
        return table[name]
    }
}

private final class ConstantCollector: SyntaxVisitor {
    /// (name, value, declaration, where the value is written when that is
    /// under `#if`s of its own: its line and its builds come from there)
    var found: [(String, String, Syntax, Syntax?)] = []
    /// The declarations among them that are stored `var`s.
    var storedVars: Set<SyntaxIdentifier> = []
    /// The reader types met, each worked out once.
    let readerTypes = AccessGroupFinder.ReaderTypes()

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        for binding in node.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            if let value = AccessGroupFinder.fixedValue(of: binding, in: node) {
                found.append((name, value, Syntax(binding), nil))
            } else if let value = AccessGroupFinder.storedVarValue(of: binding, in: node) {
                found.append((name, value, Syntax(binding), nil))
                storedVars.insert(Syntax(binding).id)
            } else if let value = AccessGroupFinder.mainBundleProperty(binding, node) ?? AccessGroupFinder.readerProperty(binding, node, types: readerTypes) {
                // Looked up as `main.NAME` of Bundle (or of the reader type), as a case's property is.
                found.append(("main." + name, value, Syntax(binding), nil))
            } else if let values = AccessGroupFinder.valuePerIfBranch(binding) {
                for (value, at) in values { found.append((name, value, Syntax(binding), at)) }
            } else {
                // An enum's computed property that switches over `self` and
                // returns a literal for each case: `case.name` of the type
                // for each (Phoenix's `AccessGroup.appOnly.value`: 24 of its
                // 28 warnings were "cannot check"; found on a real-project trial).
                for (caseName, value) in Self.switchOverSelf(binding) {
                    found.append((caseName + "." + name, value, Syntax(binding), nil))
                }
            }
        }
        return .skipChildren
    }

    /// `var name: String { switch self { case .a: return "x" … } }`: each
    /// case name with its literal (a case of several patterns gives each).
    static func switchOverSelf(_ binding: PatternBindingSyntax) -> [(String, String)] {
        guard let body = AccessGroupFinder.getterBody(binding), body.count == 1, let item = body.first?.item else { return [] }
        guard let switchExpr = AccessGroupFinder.returnedExpression(item)?.as(SwitchExprSyntax.self),
              switchExpr.subject.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" else { return [] }
        var out: [(String, String)] = []
        for element in switchExpr.cases {
            guard let c = element.as(SwitchCaseSyntax.self), let label = c.label.as(SwitchCaseLabelSyntax.self),
                  c.statements.count == 1, let statement = c.statements.first?.item else { continue }
            let returned = statement.as(ReturnStmtSyntax.self)?.expression ?? statement.as(ExprSyntax.self)
            guard let returned, let value = AccessGroupFinder.constantValue(returned), !AccessGroupFinder.isMarker(value) else { continue }
            for item in label.caseItems {
                guard let member = item.pattern.as(ExpressionPatternSyntax.self)?.expression.as(MemberAccessExprSyntax.self),
                      member.base == nil else { continue }
                out.append((AccessGroupFinder.unquoted(member.declName.baseName.text), value))
            }
        }
        return out
    }

    /// A String enum's case, as `case.rawValue` of its type: its raw
    /// value, or its name when it has none (`enum Group: String { case
    /// shared = "…" }` was KCS608, and a wrong group there was missed;
    /// found on a real-project trial).
    override func visit(_ node: EnumCaseElementSyntax) -> SyntaxVisitorContinueKind {
        // `` case `default` `` is named default (its raw value too).
        let name = AccessGroupFinder.unquoted(node.name.text)
        if let raw = node.rawValue?.value {
            if let value = AccessGroupFinder.constantValue(raw), !AccessGroupFinder.isMarker(value) {
                found.append((name + AccessGroupFinder.rawValueSuffix, value, Syntax(node), nil))
            }
        } else if node.parameterClause == nil, let e = Self.enclosingEnum(of: Syntax(node)),
                  e.inheritanceClause?.inheritedTypes.first.map({ $0.type.trimmedDescription == "String" }) == true {
            found.append((name + AccessGroupFinder.rawValueSuffix, name, Syntax(node), nil))
        }
        return .skipChildren
    }

    private static func enclosingEnum(of node: Syntax) -> EnumDeclSyntax? {
        var current = node.parent
        while let n = current {
            if let e = n.as(EnumDeclSyntax.self) { return e }
            current = n.parent
        }
        return nil
    }
}

/// The members of types, extensions and protocols that are values, and
/// what each type inherits, by last name (`extension A.Keys` is `Keys`).
private final class MemberCollector: SyntaxVisitor {
    var valueMembers: [(String, String)] = []
    var computedMembers: [(String, String)] = []
    var supertypes: [(String, String)] = []
    var typeAliases: [(String, String)] = []
    var compositions: [(String, AccessGroupFinder.Composition)] = []
    var declaredNames: Set<String> = []
    var forwardedMembers: [(String, String, Bool)] = []
    var keyReaders: [(String, String??)] = []

    /// A function of one `String` parameter, not local: whether it reads
    /// the main bundle's Info.plist by it (``AccessGroupFinder/KeyReader``).
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        let scope = Scope(of: Syntax(node))
        let parameters = node.signature.parameterClause.parameters
        guard !scope.isLocal, parameters.count == 1, let parameter = parameters.first else { return .visitChildren }
        keyReaders.append((AccessGroupFinder.KeyReader.signature(scope.types.first.map(Scope.lastName), node.name.text, parameter.firstName.text),
                           AccessGroupFinder.KeyReader.read(node)))
        return .visitChildren
    }

    /// The properties of a type whose initialisers take a group that
    /// forward it (``UseVisitor/forwardsProperty(_:around:)``), asked only
    /// of a type with such an initialiser.
    private func forwarding(_ node: some DeclSyntaxProtocol, _ members: MemberBlockItemListSyntax) {
        let type = LocalBinding.typeName(of: Syntax(node))
        let keychainType = type.map { UseVisitor.isKeychainNamed(Scope.lastName($0)) } == true
        guard let type, members.contains(where: { member in
            member.decl.as(InitializerDeclSyntax.self)?.signature.parameterClause.parameters.contains {
                keychainType || UseVisitor.isCheckedLabel($0.firstName.text, inType: type)
            } == true
        }) else { return }
        for (name, forwards) in UseVisitor.forwardedProperties(members, type: type) { forwardedMembers.append((Scope.lastName(type), name, forwards)) }
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        for binding in node.bindings {
            for token in binding.pattern.tokens(viewMode: .sourceAccurate) where LocalBinding.isIdentifier(token) {
                declaredNames.insert(AccessGroupFinder.unquoted(token.text))
            }
        }
        return .visitChildren
    }

    /// A keychain type's initialiser storing a group it joins from its
    /// parameters into a property named for a group (``AccessGroupFinder/Composition``).
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        guard let type = Scope(of: Syntax(node)).types.first.map(Scope.lastName), UseVisitor.isKeychainNamed(type),
              let body = node.body else { return .skipChildren }
        let parameters = node.signature.parameterClause.parameters
        let labels = LocalBinding.labels(parameters)
        var all: [String]?
        let assignments = AssignmentCollector(viewMode: .sourceAccurate)
        assignments.walk(body)
        for e in assignments.found {
            guard let target = UseVisitor.assignedProperty(e[0]), target.lowercased().contains("group"),
                  let parts = AccessGroupFinder.composition(e[2...], labels: labels) else { continue }
            if all == nil { all = parameters.map(\.firstName.text) }
            compositions.append((type, .init(labels: all ?? [], parts: parts)))
        }
        return .skipChildren
    }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        typeAliases.append((node.name.text, Scope.typePath(node.initializer.value)))
        return .skipChildren
    }

    private func collect(_ type: String, _ inheritance: InheritanceClauseSyntax?, _ members: MemberBlockItemListSyntax) {
        for inherited in inheritance?.inheritedTypes ?? [] {
            supertypes.append((type, Scope.lastName(Scope.typePath(inherited.type))))
        }
        for (decl, conditional) in BindingIndex.variables(in: members) {
            let computed = decl.bindings.contains { $0.accessorBlock != nil }
            for (name, binding) in LocalBinding.bindings(in: decl, storedVars: conditional) {
                if conditional { valueMembers.append((name, type)); continue }
                if case .runtime = binding { valueMembers.append((name, type)) } else if computed { computedMembers.append((name, type)) }
            }
        }
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        collect(node.name.text, node.inheritanceClause, node.memberBlock.members)
        forwarding(node, node.memberBlock.members)
        return .visitChildren
    }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        collect(node.name.text, node.inheritanceClause, node.memberBlock.members)
        forwarding(node, node.memberBlock.members)
        return .visitChildren
    }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        collect(node.name.text, node.inheritanceClause, node.memberBlock.members); return .visitChildren
    }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        collect(node.name.text, node.inheritanceClause, node.memberBlock.members)
        forwarding(node, node.memberBlock.members)
        return .visitChildren
    }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
        collect(node.name.text, node.inheritanceClause, node.memberBlock.members); return .visitChildren
    }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        collect(Scope.lastName(Scope.typePath(node.extendedType)), node.inheritanceClause, node.memberBlock.members)
        return .visitChildren
    }
}

private final class UseVisitor: SyntaxVisitor {
    let finder: AccessGroupFinder
    let converter: SourceLocationConverter
    let file: String
    var uses: [AccessGroupUse] = []
    var lookedUp: Set<String> = []
    /// Types around a use that resolved to a constant: what they inherit
    /// decides whether a property shadows it.
    var chase: Set<String> = []
    /// Names a getter returning another constant looked up and found no
    /// constant of among the files read: the files that say them are
    /// wanted, as for ``chase`` (IVPN's getter names `Config.appGroup`,
    /// declared in a file no use names).
    var unfound: Set<String> = []
    let bindings = BindingIndex()
    /// `forwardsProperty(_:around:)`'s answers, by the type's member block and property.
    var forwarded: [SyntaxIdentifier: [String: Bool]] = [:]
    /// `expanded(_:in:)`'s answers, by value and context.
    var expansions: [String: String?] = [:]
    /// Each `#if`'s clause conditions and where each clause sits, and each
    /// clause's condition text (``branches(around:)``).
    var ifDecls: [SyntaxIdentifier: (conditions: [String?], index: [SyntaxIdentifier: Int])] = [:]
    var clauseTexts: [SyntaxIdentifier: String] = [:]
    /// How many local `let`s deep a resolution has followed.
    var boundDepth = 0
    /// `localsPutIn(_:at:)`'s values of local `let`s bound to an
    /// expression, by the expression and ``boundDepth`` (the answer
    /// depends on nothing else): a `let` named k times by each of 8 `let`s
    /// above it was worked out k^8 times (a 727-byte file held `lint
    /// --project` for its whole time limit; adversarial run 27, F1).
    var boundValues: [BoundKey: String?] = [:]
    struct BoundKey: Hashable {
        let expression: SyntaxIdentifier
        let depth: Int
    }
    /// `finder.constant(_:where:)`'s answers, by name and what the filter
    /// reads: each walks every declaration of the name (a name declared
    /// under 6,000 `#if`s and interpolated 6,000 times took 58 s; found
    /// by adversarial testing).
    var constants: [String: AccessGroupFinder.Resolved?] = [:]

    func constant(_ name: String, _ context: String, in containers: [String?]? = nil,
                  where fits: (AccessGroupFinder.Constant) -> Bool) -> AccessGroupFinder.Resolved? {
        let key = name + "\u{2}" + context
        if let known = constants[key] { return known }
        // A stored var is a constant only if no file assigns it: every
        // file that says its name is wanted, to look for assignments.
        if finder.storedVarNames.contains(name) { unfound.insert(name) }
        let found = finder.constant(name, in: containers, where: fits)
        constants[key] = .some(found)
        return found
    }

    init(finder: AccessGroupFinder, converter: SourceLocationConverter, file: String) {
        self.finder = finder
        self.converter = converter
        self.file = file
        super.init(viewMode: .sourceAccurate)
    }

    static func names(_ node: some SyntaxProtocol, _ token: String) -> Bool {
        node.tokens(viewMode: .sourceAccurate).contains { $0.text == token }
    }

    override func visit(_ node: DictionaryElementSyntax) -> SyntaxVisitorContinueKind {
        if Self.names(node.key, "kSecAttrAccessGroup") {
            let before = uses.count
            if walkedRoot == nil { walkedRoot = node.root }
            record(node.value, api: "kSecAttrAccessGroup")
            // The token group sends the call there too (kSecAttrAccessGroupToken).
            // A literal bound to a `var` may get a routing key later in the
            // file; one passed or bound to a `let` says all it has.
            if uses.count > before, !Self.names(node.value, "kSecAttrAccessGroupToken"),
               let elements = node.parent?.as(DictionaryElementListSyntax.self), !routes(elements),
               !(Self.mayGrow(elements) && fileNamesRouting) {
                for i in before..<uses.count { uses[i].fileKeychainOnMac = true }
            }
        }
        return .visitChildren
    }

    /// Whether a dictionary literal has an element that routes the call to
    /// the data-protection keychain, once per literal: asked per group entry,
    /// one literal of 4,000 took 121 s (found by adversarial testing).
    func routes(_ elements: DictionaryElementListSyntax) -> Bool {
        if let known = routed[elements.id] { return known }
        let answer = elements.contains(where: Self.routesToDataProtection)
        routed[elements.id] = answer
        return answer
    }
    var routed: [SyntaxIdentifier: Bool] = [:]

    /// Whether a dictionary element sends a macOS call to the
    /// data-protection keychain: one of ``KeychainNames/dataProtectionKeys``, unless its
    /// value is `false` (kSecUseDataProtectionKeychain, kSecAttrNoLegacy,
    /// kSecUseSystemKeychainAlways and kSecAttrSynchronizable are read as
    /// numbers, SecItem.cpp lines 4104-4141).
    static func routesToDataProtection(_ e: DictionaryElementSyntax) -> Bool {
        guard KeychainNames.dataProtectionKeys.contains(where: { names(e.key, $0) }) else { return false }
        var value = e.value
        if let seq = value.as(SequenceExprSyntax.self), let first = seq.elements.first { value = first }
        let text = value.trimmedDescription
        // kSecAttrSynchronizableAny reads as 0 there (readNumber of "syna"; review 8).
        return !routesNowhere.contains(text) && !text.hasSuffix("kSecAttrSynchronizableAny")
    }

    /// Whether a dictionary literal initialises a `var` (or is assigned to
    /// one), which code may extend after it is written.
    static func mayGrow(_ elements: DictionaryElementListSyntax) -> Bool {
        var node = elements.parent
        while let n = node {
            if let decl = n.as(VariableDeclSyntax.self) { return decl.bindingSpecifier.tokenKind == .keyword(.var) }
            // `query = [...]`; `[...] as …` is the same literal, so look further
            // up (`var q = [...] as [String: Any]`; review 8, adversarial run 17).
            if let seq = n.as(SequenceExprSyntax.self), seq.elements.contains(where: { $0.is(AssignmentExprSyntax.self) }) { return true }
            if n.is(CodeBlockItemSyntax.self) || n.is(FunctionCallExprSyntax.self) || n.is(ReturnStmtSyntax.self) { return false }
            node = n.parent
        }
        return false
    }

    /// Marks the uses recorded since `before` as going to the Mac's file
    /// keychain when the file names no key that routes elsewhere: a
    /// dictionary built by subscripts (`query[kSecAttrAccessGroup as String]
    /// = group`, NetNewsWire's shape; found on a real-project trial).
    func markBuiltByParts(since before: Int, _ node: some SyntaxProtocol) {
        if walkedRoot == nil { walkedRoot = Syntax(node).root }
        guard uses.count > before, !fileNamesRouting else { return }
        for i in before..<uses.count { uses[i].fileKeychainOnMac = true }
    }

    /// Whether the file names a key that routes a call to the
    /// data-protection keychain anywhere (a dictionary may get it after it is
    /// written), worked out once.
    lazy var fileNamesRouting: Bool = {
        guard let root = walkedRoot else { return true }
        let keys = Set(KeychainNames.dataProtectionKeys)
        let tokens = root.tokens(viewMode: .sourceAccurate).map(\.text)
        for (i, token) in tokens.enumerated() where keys.contains(token) {
            // A value that routes nowhere written with it (`= false`,
            // `: kSecAttrSynchronizableAny`) does not count (found by
            // adversarial testing); one not seen within a few tokens does.
            let value = tokens[(i + 1)..<min(i + 9, tokens.count)].first { Self.knownValues.contains($0) }
            if !(value.map(Self.routesNowhere.contains) ?? false) { return true }
        }
        return false
    }()
    static let routesNowhere: Set<String> = ["false", "kCFBooleanFalse", "kSecAttrSynchronizableAny"]
    static let knownValues: Set<String> = routesNowhere.union(["true", "kCFBooleanTrue"])
    /// The tree being walked.
    var walkedRoot: Syntax?


    /// `query[kSecAttrAccessGroup as String] = …` and `x.accessGroup = …`
    /// (operators are not folded, so an assignment is a sequence).
    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        for (i, e) in elements.enumerated() where e.is(AssignmentExprSyntax.self) && i > 0 && i + 1 < elements.count {
            let lhs = elements[i - 1]
            // The whole right-hand side: `Team.id + ".x"` is not `Team.id`.
            let rhs = elements[(i + 1)...]
            if let sub = lhs.as(SubscriptCallExprSyntax.self), Self.names(sub.arguments, "kSecAttrAccessGroup") {
                let before = uses.count
                record(rhs, api: "kSecAttrAccessGroup")
                markBuiltByParts(since: before, node)
            } else if let member = lhs.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "accessGroup",
                      member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text != "self" {
                // `self.accessGroup = …` stores the type's own property (a
                // wrapper's init); its use, if any, is elsewhere.
                record(rhs, api: ".accessGroup")
            }
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let args = Array(node.arguments)
        func arg(_ labels: String...) -> ExprSyntax? { args.first { labels.contains($0.label?.text ?? "") }?.expression }
        if Self.calleeName(node.calledExpression).hasSuffix("SharedGroupIdentifier") {
            // Valet's public initialisers: (appIDPrefix:nonEmptyGroup:) and (groupPrefix:nonEmptyGroup:).
            recordComposed(node, prefix: arg("appIDPrefix") ?? arg("groupPrefix"), group: arg("nonEmptyGroup", "groupIdentifier"),
                           api: "SharedGroupIdentifier")
        } else if let shared = arg("sharedGroupIdentifier") {
            if shared.is(StringLiteralExprSyntax.self) {
                recordComposed(node, prefix: arg("withAppIDPrefix", "appIDPrefix") ?? arg("withGroupPrefix", "groupPrefix"), group: shared,
                               api: "sharedGroupIdentifier:")
            } else if !Self.isSharedGroupCall(shared) {
                record(shared, api: "sharedGroupIdentifier:")
            }
        }
        if let group = arg("accessGroup"), !Self.isSharedGroupCall(group), !Self.isNoStringLiteral(group) { record(group, api: "accessGroup:") }
        // App groups named in code: a suite or a container another target
        // is to share (they were only a reason to ask KCS604; found on a
        // real-project trial).
        // Foundation's UserDefaults, by that name (`UserDefaults(…)`,
        // `UserDefaults.init(…)`, `Foundation.UserDefaults(…)`), not a type
        // whose name ends in it (found by adversarial testing).
        if let suite = arg("suiteName"), Self.namesUserDefaults(node.calledExpression) {
            record(suite, api: "UserDefaults(suiteName:)", appGroup: true)
        }
        if let group = arg("forSecurityApplicationGroupIdentifier") {
            record(group, api: "containerURL(forSecurityApplicationGroupIdentifier:)", appGroup: true)
        }
        // A wrapper's other labels for a group (`move(oldAccessGroup:newAccessGroup:)`,
        // Phoenix's): its parameters are plumbing, and its callers are
        // checked here (they were not; found on a real-project trial).
        for a in args {
            guard let label = a.label?.text, label != "accessGroup", Self.isGroupLabel(label), !Self.isNoStringLiteral(a.expression) else { continue }
            if !Self.isSharedGroupCall(a.expression) { record(a.expression, api: label + ":") }
        }
        // A keychain type's `group:` (TunnelKit's and Partout's `Keychain(group:)`,
        // common in VPN apps; they were skipped, found on IVPN and Passepartout).
        if let group = arg("group"), case let callee = Self.calleeName(node.calledExpression), Self.isKeychainNamed(callee) {
            // The group the type's own initialiser joins from the arguments
            // (its file is read for it), or, without its source, a team
            // passed beside the group, joined as TunnelKit's
            // `init(team:group:)` does: `group:` alone is not the group
            // (PIA's calls; real-project trial 17, D1).
            lookedUp.insert(callee)
            let labels = args.map { $0.label?.text ?? "_" }
            let api = callee + "(" + labels.map { $0 + ":" }.joined() + ")"
            let found = finder.compositions(of: callee, labels: labels)
            if let parts = found.first?.parts, found.allSatisfy({ $0.parts == parts }) {
                recordComposed(node, parts: parts.map { part in
                    switch part {
                    case .text(let text): .text(text)
                    case .argument(let label): .argument(arg(label))
                    }
                }, api: api)
            } else if !found.isEmpty {
                append(.runtime(node.trimmedDescription), api: api, at: Syntax(node), constant: nil)
            } else if let team = arg("team", "teamID", "teamId", "appIDPrefix") {
                recordComposed(node, parts: [.argument(team), .text("."), .argument(group)], api: api)
            } else {
                record(group, api: "group:")
            }
        }
        // dict.setValue(group, forKey: kSecAttrAccessGroup as String), updateValue(_:forKey:)
        if let key = arg("forKey"), Self.names(key, "kSecAttrAccessGroup"), let value = args.first, value.label == nil {
            let before = uses.count
            record(value.expression, api: "kSecAttrAccessGroup")
            markBuiltByParts(since: before, node)
        }
        return .visitChildren
    }

    static func isSharedGroupCall(_ e: ExprSyntax) -> Bool {
        var e = e
        if let f = e.as(ForceUnwrapExprSyntax.self) { e = f.expression }
        if let o = e.as(OptionalChainingExprSyntax.self) { e = o.expression }
        return e.as(FunctionCallExprSyntax.self).map { calleeName($0.calledExpression).hasSuffix("SharedGroupIdentifier") } ?? false
    }

    /// A keychain type's name (`Keychain`, `AppleKeychain`, `KeychainRepository`):
    /// its `group:` argument is checked where it is written.
    static func isKeychainNamed(_ name: String) -> Bool { name.lowercased().contains("keychain") }

    /// Whether callers pass a parameter with this label through a checked
    /// argument: `accessGroup:` anywhere, `group:` of a keychain type.
    static func isCheckedLabel(_ label: String, inType type: String?) -> Bool {
        isGroupLabel(label) || label == "group" && type.map { isKeychainNamed(Scope.lastName($0)) } == true
    }

    /// A Boolean or number literal (`attempt(addAccessGroup: true)`,
    /// bitchat's switch for adding its group): no group, so nothing to
    /// check, where it was a value built at run time (real-project trial 23, D1).
    static func isNoStringLiteral(_ e: ExprSyntax) -> Bool {
        e.is(BooleanLiteralExprSyntax.self) || e.is(IntegerLiteralExprSyntax.self) || e.is(FloatLiteralExprSyntax.self)
    }

    /// `accessGroup:`, or a label that ends in `AccessGroup` (`oldAccessGroup:`).
    static func isGroupLabel(_ label: String) -> Bool { label == "accessGroup" || label.hasSuffix("AccessGroup") }

    /// The name a call is made by, its last component (`Valet.SharedGroupIdentifier` →
    /// `SharedGroupIdentifier`), without rendering the expression: each
    /// call of `f()()()…` rendered all the calls before it (quadratic, found
    /// by adversarial testing).
    /// `Bundle.main.x`, `UserDefaults.standard.x`: an instance reached
    /// through a system type, not an enum case of the project's.
    static let singletonNames: Set<String> = ["main", "shared", "standard", "default", "current", "sharedInstance", "instance"]

    /// `Bundle.main`: its extension properties that read its Info.plist are
    /// looked up (``AccessGroupFinder/mainBundleProperty(_:_:)``).
    static func isMainBundle(_ e: MemberAccessExprSyntax) -> Bool {
        e.declName.baseName.text == "main" && e.base.map(calleeName) == "Bundle"
    }

    static func isSystemType(_ type: ExprSyntax) -> Bool {
        let name = calleeName(type)
        return name.hasPrefix("NS") || name.hasPrefix("UI") || name.hasPrefix("CF")
            || ["Bundle", "ProcessInfo", "UserDefaults", "FileManager", "Locale", "TimeZone", "Calendar", "Thread",
                "DispatchQueue", "NotificationCenter", "URLSession", "WKInterfaceDevice", "LAContext"].contains(name)
    }

    static func namesUserDefaults(_ e: ExprSyntax) -> Bool {
        if let m = e.as(MemberAccessExprSyntax.self), m.declName.baseName.text == "init" {
            guard let base = m.base else { return !declaresOtherType(around: m) }
            return calleeName(base) == "UserDefaults"
        }
        return calleeName(e) == "UserDefaults"
    }

    /// Whether the type a base-less `.init(suiteName:)` makes is declared
    /// as another than UserDefaults: `let d: Store = .init(suiteName: …)`,
    /// through `?? fallback`, `!` and `?`. `suiteName:` is UserDefaults'
    /// own label, so one with no declared type is taken for it (Passbolt's
    /// `let defaults: UserDefaults = .init(suiteName: "group.…") ??
    /// .standard` went unchecked; real-project trial 16, D3).
    static func declaresOtherType(around initializer: MemberAccessExprSyntax) -> Bool {
        var node = Syntax(initializer)
        for _ in 0..<8 {
            guard let parent = node.parent else { return false }
            if parent.is(FunctionCallExprSyntax.self) || parent.is(ExprListSyntax.self) || parent.is(SequenceExprSyntax.self)
                || parent.is(ForceUnwrapExprSyntax.self) || parent.is(OptionalChainingExprSyntax.self) || parent.is(InitializerClauseSyntax.self) {
                node = parent
                continue
            }
            guard let binding = parent.as(PatternBindingSyntax.self), let type = binding.typeAnnotation?.type else { return false }
            var t = type
            if let o = t.as(OptionalTypeSyntax.self) { t = o.wrappedType }
            if let o = t.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { t = o.wrappedType }
            let name = Scope.typePath(t)
            return name != "UserDefaults" && name != "Foundation.UserDefaults"
        }
        return false
    }

    static func calleeName(_ e: ExprSyntax) -> String {
        if let r = e.as(DeclReferenceExprSyntax.self) { return r.baseName.text }
        if let m = e.as(MemberAccessExprSyntax.self) { return m.declName.baseName.text }
        if let g = e.as(GenericSpecializationExprSyntax.self) { return calleeName(g.expression) }
        return ""
    }

    /// Valet's `prefix.group`: checkable when both halves are spelled out.
    private func recordComposed(_ node: FunctionCallExprSyntax, prefix: ExprSyntax?, group: ExprSyntax?, api: String) {
        recordComposed(node, parts: [.argument(prefix), .text("."), .argument(group)], api: api)
    }

    /// A part of a group a call joins: text, or an argument (nil: not passed).
    enum Joined {
        case text(String)
        case argument(ExprSyntax?)
    }

    /// A group a call joins from its arguments: checkable when every one
    /// is spelled out; its prefix, up to the first `.`, is an argument's.
    private func recordComposed(_ node: FunctionCallExprSyntax, parts: [Joined], api: String) {
        var value = "", condition: String?
        for part in parts {
            switch part {
            case .text(let text): value += text
            case .argument(let e):
                guard let found = e.flatMap({ resolve($0) }), case .literal(let v) = found.value, !AccessGroupFinder.isMarker(v) else {
                    append(.runtime(node.trimmedDescription), api: api, at: Syntax(node), constant: nil)
                    return
                }
                value += v
                condition = condition ?? found.condition
            }
        }
        append(.literal(value), api: api, at: Syntax(node), constant: nil, condition: condition)
        if case .argument? = parts.first, case .text(let text)? = parts.dropFirst().first, text.hasPrefix(".") {
            uses[uses.count - 1].prefixPassedApart = true
        }
    }

    private func record(_ expr: ExprSyntax, api: String, appGroup: Bool = false) {
        if Self.readsReturnedGroup(expr) { return }
        guard let found = resolve(expr) else { return }
        if found.forwarded { return }
        append(found.value, api: api, at: Syntax(expr), constant: found.constant, condition: found.condition, appGroup: appGroup,
               alternatives: found.alternatives)
        uses[uses.count - 1].undeclaredName = found.undeclared
    }

    /// Whether `e` reads a group out of a dictionary by `kSecAttrAccessGroup`
    /// (`attributes[kSecAttrAccessGroup as String] as? String`, after a
    /// cast, `!`, `?` or `?? d`): a group the keychain returned, so one the
    /// app holds, not one to check (Home Assistant's keychain explorer passes
    /// it to a display model as `accessGroup:`; real-project trial 15, D6).
    static func readsReturnedGroup(_ expr: ExprSyntax) -> Bool {
        var e = expr
        for _ in 0..<4 {
            if let seq = e.as(SequenceExprSyntax.self), let first = AccessGroupFinder.castOrDefault(seq) { e = first; continue }
            if let f = e.as(ForceUnwrapExprSyntax.self) { e = f.expression; continue }
            if let o = e.as(OptionalChainingExprSyntax.self) { e = o.expression; continue }
            break
        }
        guard let sub = e.as(SubscriptCallExprSyntax.self), sub.arguments.count == 1, let key = sub.arguments.first?.expression else { return false }
        let name = key.as(SequenceExprSyntax.self)?.elements.first ?? key
        return name.as(DeclReferenceExprSyntax.self)?.baseName.text == "kSecAttrAccessGroup"
    }

    /// Whether the property `name` of the type around `node` only ever holds
    /// what an initialiser was passed as `accessGroup:`: a stored `let`
    /// without a value of its own, which every initialiser that sets it sets
    /// from that parameter (`self.accessGroup = accessGroup`, Apple's sample
    /// `KeychainItem`: two KCS608 per copy, found on Habitica and Element
    /// X). Its callers are checked through the label; a property filled from
    /// anywhere else is a value built at run time.
    /// Each type's answer is kept: asked per use, the scan of its
    /// initialisers was quadratic (a 308 KB file ran past a minute; found by
    /// adversarial testing).
    /// In an extension of the type, the type's declaration answers, in any
    /// file read (Anytype's copy of a tutorial's `GenericPasswordQueryable`
    /// builds its query in an extension; real-project trial 20, D1).
    func forwardsProperty(_ name: String, around node: Syntax) -> Bool {
        var current = node.parent
        while let n = current {
            if let e = n.as(ExtensionDeclSyntax.self) { return finder.forwards(name, of: Scope.lastName(Scope.typePath(e.extendedType))) }
            if let members = n.as(StructDeclSyntax.self)?.memberBlock ?? n.as(ClassDeclSyntax.self)?.memberBlock
                ?? n.as(ActorDeclSyntax.self)?.memberBlock {
                // Every property of the type decided in one walk of its
                // initialisers (walking them per name was names × size: a
                // 270 KB file ran past a minute; found by adversarial testing).
                if forwarded[members.id] == nil {
                    forwarded[members.id] = Self.forwardedProperties(members.members, type: LocalBinding.typeName(of: n))
                }
                return forwarded[members.id]?[name] ?? false
            }
            current = n.parent
        }
        return false
    }

    /// For each stored `let` without a value of its own: whether every
    /// assignment to it, at any depth of any initialiser (`self.p = …` or
    /// `p = …`), is a parameter with a checked label alone, and there is one
    /// (one from Info.plist or with a default, `accessGroup ?? "…"`, is a
    /// value: found by review).
    static func forwardedProperties(_ members: MemberBlockItemListSyntax, type: String?) -> [String: Bool] {
        var candidates = Set<String>()
        for member in members {
            guard let v = member.decl.as(VariableDeclSyntax.self), v.bindingSpecifier.tokenKind == .keyword(.let) else { continue }
            for binding in v.bindings where binding.initializer == nil && binding.accessorBlock == nil {
                if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { candidates.insert(name) }
            }
        }
        var verdicts: [String: Bool] = [:]
        guard !candidates.isEmpty else { return verdicts }
        for member in members {
            guard let i = member.decl.as(InitializerDeclSyntax.self), let body = i.body else { continue }
            let labels = LocalBinding.labels(i.signature.parameterClause.parameters)
            let assignments = AssignmentCollector(viewMode: .sourceAccurate)
            assignments.walk(body)
            for e in assignments.found {
                guard let name = assignedProperty(e[0]), candidates.contains(name), verdicts[name] != false else { continue }
                // A group a keychain type joins from its parameters is checked
                // where its callers pass them (``AccessGroupFinder/Composition``).
                let forwards = e.count == 3 && e[2].as(DeclReferenceExprSyntax.self).flatMap {
                    labels[$0.baseName.text]
                }.map { isCheckedLabel($0, inType: type) } == true
                    || type.map { isKeychainNamed(Scope.lastName($0)) } == true && name.lowercased().contains("group")
                    && AccessGroupFinder.composition(e[2...], labels: labels) != nil
                verdicts[name] = forwards
            }
        }
        return verdicts
    }

    /// `Type.name(a:b:)`: the function or initialiser around `node` whose
    /// parameter `name` is. Each function's parameter names and signature
    /// are read once, and a signature names its first 16 labels: per use
    /// the list was walked and every label rendered, uses × parameters in
    /// time and in the message (a function of 15,000 parameters; found
    /// with adversarial run 26, F11).
    func function(declaring name: String, around node: Syntax) -> String? {
        var current = node.parent
        while let n = current {
            if n.is(FunctionDeclSyntax.self) || n.is(InitializerDeclSyntax.self) {
                let known = signatures[n.id] ?? Self.signature(of: n)
                signatures[n.id] = known
                if let known, known.names.contains(name) { return known.rendered }
            }
            current = n.parent
        }
        return nil
    }

    /// Functions' parameter names and signatures, by node, for ``function(declaring:around:)``.
    private var signatures: [SyntaxIdentifier: (names: Set<String>, rendered: String)?] = [:]

    static func signature(of n: Syntax) -> (names: Set<String>, rendered: String)? {
        let signature: (String, FunctionParameterListSyntax)? = if let f = n.as(FunctionDeclSyntax.self) {
            (f.name.text, f.signature.parameterClause.parameters)
        } else if let f = n.as(InitializerDeclSyntax.self) {
            ("init", f.signature.parameterClause.parameters)
        } else {
            nil
        }
        guard let (base, parameters) = signature else { return nil }
        let names = Set(parameters.map { ($0.secondName ?? $0.firstName).text })
        let labels = parameters.prefix(16).map { $0.firstName.text + ":" }.joined() + (parameters.count > 16 ? "…" : "")
        return (names, (Scope(of: n).types.first.map { $0 + "." } ?? "") + base + "(" + labels + ")")
    }

    /// The property an assignment's left-hand side names: `self.p` or `p`.
    static func assignedProperty(_ lhs: ExprSyntax) -> String? {
        if let target = lhs.as(MemberAccessExprSyntax.self) {
            return target.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" ? target.declName.baseName.text : nil
        }
        return lhs.as(DeclReferenceExprSyntax.self)?.baseName.text
    }

    /// The right-hand side of an assignment: one expression is resolved,
    /// an operator chain is a value built at run time.
    private func record(_ rhs: ArraySlice<ExprSyntax>, api: String) {
        guard let first = rhs.first else { return }
        // One value, or one value cast (`group as AnyObject?`).
        if rhs.count == 1 || rhs.count == 3 && rhs.dropFirst().first?.is(UnresolvedAsExprSyntax.self) == true {
            record(first, api: api)
            return
        }
        // Only as much text as a message shows: rendering the whole rest of
        // a chain `a = b = c = …` at each `=` was quadratic (found by
        // adversarial testing: 35 KB took 47 s).
        // One character past what is shown says whether it was cut.
        var text = ""
        for e in rhs {
            if text.count > CodeCheck.shownExpression { break }
            text += (text.isEmpty ? "" : " ") + e.trimmedDescription.prefix(CodeCheck.shownExpression + 1)
        }
        // Strings and constants joined by `+`, as in a `let` or a
        // dictionary literal: `q[kSecAttrAccessGroup] = "TEAM." + Consts.g`
        // was "built at run time" (Zotero's `keychain.accessGroup =
        // "8LAYR367YV." + AppGroup.identifier`; real-project trial 21, D2).
        // Its length tested before the copy: copying the rest of a chain
        // `x.accessGroup = x.accessGroup = … = "g"` at each `=` was
        // quadratic (16,000 assignments took 45 s; adversarial run 27, F2).
        if rhs.count <= AccessGroupFinder.longestConcatenation, let joined = AccessGroupFinder.concatenation(elements: Array(rhs)), let found = resolve(first, joined: joined, written: text) {
            if found.forwarded { return }
            append(found.value, api: api, at: Syntax(first), constant: found.constant, condition: found.condition, alternatives: found.alternatives)
            return
        }
        append(.runtime(text), api: api, at: Syntax(first), constant: nil)
    }

    /// The `#if`s around a node (``AccessGroupUse/branches``), innermost
    /// first. Each `#if`'s conditions are written out once and shared by
    /// every use under it: rebuilt per use, 3,000 `#elseif`s each holding a
    /// call were quadratic, and one long condition over many calls too
    /// (found by adversarial testing).
    func branches(around node: Syntax) -> [IfBranch] { Self.branches(around: node, decls: &ifDecls) }

    /// The same, with the `#if`s written out kept in `decls`.
    static func branches(around node: Syntax, decls ifDecls: inout [SyntaxIdentifier: (conditions: [String?], index: [SyntaxIdentifier: Int])])
        -> [IfBranch] {
        var out: [IfBranch] = []
        var current = node.parent
        while let n = current {
            if let clause = n.as(IfConfigClauseSyntax.self), let decl = clause.parent?.parent?.as(IfConfigDeclSyntax.self) {
                let known: (conditions: [String?], index: [SyntaxIdentifier: Int])
                if let memo = ifDecls[decl.id] {
                    known = memo
                } else {
                    var conditions: [String?] = [], index: [SyntaxIdentifier: Int] = [:]
                    for c in decl.clauses {
                        index[c.id] = conditions.count
                        // Its tokens without trivia: a comment inside a
                        // condition made it unanswerable (found by review).
                        conditions.append(c.condition.map { $0.tokens(viewMode: .sourceAccurate).map(\.text).joined(separator: " ") })
                    }
                    known = (conditions, index)
                    ifDecls[decl.id] = known
                }
                if let i = known.index[clause.id] {
                    out.append(IfBranch(decl: decl.position.utf8Offset, conditions: known.conditions, index: i))
                }
            }
            current = n.parent
        }
        return out
    }

    /// A clause's condition as written, once per clause.
    private func clauseText(_ clause: IfConfigClauseSyntax, _ condition: ExprSyntax) -> String {
        if let known = clauseTexts[clause.id] { return known }
        let text = condition.trimmedDescription
        clauseTexts[clause.id] = text
        return text
    }

    /// The condition of the innermost `#if` clause holding `node`, as
    /// written (`#else` for an else clause), through the clause texts.
    func condition(around node: Syntax) -> String? {
        Self.innermostClause(around: node).map { clause in clause.condition.map { clauseText(clause, $0) } ?? "#else" }
    }

    /// The same for a declaration, read once.
    static func ifCondition(around node: Syntax) -> String? {
        innermostClause(around: node).map { $0.condition?.trimmedDescription ?? "#else" }
    }

    static func innermostClause(around node: Syntax) -> IfConfigClauseSyntax? {
        var current = node.parent
        while let n = current {
            if let clause = n.as(IfConfigClauseSyntax.self) { return clause }
            current = n.parent
        }
        return nil
    }

    /// Whether a member access reads as a path of types (`Config.Keys`):
    /// names that start upper-case all the way down.
    static func isTypePath(_ e: MemberAccessExprSyntax) -> Bool {
        guard e.declName.baseName.text.first?.isUppercase == true, let base = e.base else { return false }
        if let b = base.as(DeclReferenceExprSyntax.self) { return b.baseName.text.first?.isUppercase == true }
        if let b = base.as(MemberAccessExprSyntax.self) { return isTypePath(b) }
        return false
    }

    private func append(_ value: AccessGroupUse.Value, api: String, at node: Syntax, constant: (file: String, line: Int)?,
                        condition: String? = nil, appGroup: Bool = false, alternatives: [AccessGroupUse.Alternative] = []) {
        let start = node.startLocation(converter: converter, afterLeadingTrivia: true)
        let text = node.trimmedDescription
        let firstLine = text.unicodeScalars.prefix { $0 != "\n" }.count
        var use = AccessGroupUse(value: value, api: api, line: start.line, column: start.column, length: max(1, firstLine),
                                 constant: constant)
        use.isAppGroup = appGroup
        use.alternatives = alternatives
        use.condition = self.condition(around: node) ?? condition
        use.branches = branches(around: node)
        use.enclosingName = Self.enclosingName(of: node)
        use.inLazyConstant = Self.inLazyConstant(node)
        uses.append(use)
    }

    /// ``AccessGroupUse/enclosingName`` of a node.
    static func enclosingName(of node: Syntax) -> String? {
        var type: String?
        var current = node.parent
        while let n = current {
            if let d = n.as(StructDeclSyntax.self) { type = d.name.text }
            else if let d = n.as(ClassDeclSyntax.self) { type = d.name.text }
            else if let d = n.as(EnumDeclSyntax.self) { type = d.name.text }
            else if let d = n.as(ActorDeclSyntax.self) { type = d.name.text }
            else if let d = n.as(ExtensionDeclSyntax.self) {
                type = d.extendedType.trimmedDescription.split(separator: ".").first.map(String.init) ?? type
            }
            current = n.parent
        }
        return type
    }

    /// Whether `node` is in the initialiser of a `static let` (or `class
    /// let`) or of a global `let`, closures called there included; not in
    /// a function, an initialiser or a computed property's body.
    static func inLazyConstant(_ node: Syntax) -> Bool {
        var current = node.parent
        while let n = current {
            if n.is(FunctionDeclSyntax.self) || n.is(InitializerDeclSyntax.self) || n.is(AccessorBlockSyntax.self) || n.is(DeinitializerDeclSyntax.self) {
                return false
            }
            if let v = n.as(VariableDeclSyntax.self) {
                guard v.bindingSpecifier.tokenKind == .keyword(.let) else { return false }
                if v.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }) { return true }
                return v.parent?.parent?.is(CodeBlockItemListSyntax.self) == true && v.parent?.parent?.parent?.is(SourceFileSyntax.self) == true
            }
            current = n.parent
        }
        return false
    }

    /// A value with its interpolations worked out: each name a constant of
    /// `types` (innermost first) or of the top level, each `Type.name` a
    /// constant of that type; nil when one is not a known constant.
    private func expanded(_ value: String, in types: [String], depth: Int = 0) -> String? {
        guard value.hasPrefix(AccessGroupFinder.interpolationMarker) else { return value }
        guard depth < 8 else { return nil }
        // Each value worked out once, and no longer than a group can be:
        // seven levels each naming the one below many times was exponential
        // (731 bytes ran past a minute; found by adversarial testing).
        let memoKey = value + "\u{2}" + types.joined(separator: "\u{2}")
        if let known = expansions[memoKey] { return known }
        let result = expandParts(value, in: types, depth: depth)
        expansions[memoKey] = .some(result)
        return result
    }

    private func expandParts(_ value: String, in types: [String], depth: Int) -> String? {
        var out = ""
        // With an Info.plist read among them, the parts (``AccessGroupFinder/composedMarker``).
        var composed: [String] = [], reads = false
        func add(_ text: String) {
            out += text
            if composed.last?.hasPrefix("s") == true { composed[composed.count - 1] += text } else { composed.append("s" + text) }
        }
        for part in value.dropFirst(AccessGroupFinder.interpolationMarker.count).split(separator: "\u{1}", omittingEmptySubsequences: false) {
            if part.hasPrefix("s") { add(String(part.dropFirst())); continue }
            if part.hasPrefix("p") {
                composed.append(String(part))
                reads = true
                continue
            }
            let found = referenced(part.dropFirst(), in: types)
            // A getter returning another constant, declared in a file no use
            // named: its file is wanted. Not for every name interpolated
            // (`"\(id).…"` would read each file that says `id`).
            if found == nil, let name = part.split(separator: ".").last, AccessGroupFinder.isReference(value) { unfound.insert(String(name)) }
            guard let found, case .literal(let v) = found.value, let text = expanded(v, in: found.container.map { [$0] } ?? [], depth: depth + 1) else { return nil }
            if text.hasPrefix(AccessGroupFinder.infoPlistMarker) {
                composed.append("p" + text.dropFirst(AccessGroupFinder.infoPlistMarker.count))
                reads = true
            } else if text.hasPrefix(AccessGroupFinder.composedMarker) {
                for p in text.dropFirst(AccessGroupFinder.composedMarker.count).split(separator: "\u{1}", omittingEmptySubsequences: false) {
                    if p.hasPrefix("s") { add(String(p.dropFirst())) } else { composed.append(String(p)) }
                }
                reads = true
            } else if AccessGroupFinder.isMarker(text) {
                return nil
            } else {
                add(text)
            }
            if out.utf8.count > 4096 || composed.count > 64 { return nil }
        }
        // A read alone stays an Info.plist read.
        if reads, composed.count == 1, let only = composed.first, only.hasPrefix("p") { return AccessGroupFinder.infoPlistMarker + only.dropFirst() }
        return reads ? AccessGroupFinder.composedMarker + composed.joined(separator: "\u{1}") : out
    }

    /// The constant a path names (`name`, a constant of `types`, innermost
    /// first, or of the top level; `Type.name`, one of that type).
    private func referenced(_ path: Substring, in types: [String]) -> AccessGroupFinder.Resolved? {
        let path = path.split(separator: ".").map(String.init)
        guard let name = path.last else { return nil }
        lookedUp.insert(name)
        var written = path.dropLast().joined(separator: ".")
        // `Self.name`: the type declaring the value (ProtonVPN's
        // `"\(Self.appIdentifierPrefix)prt.ProtonVPN"`; real-project trial 20).
        if written == "Self" || written.hasPrefix("Self.") {
            guard let own = types.first else { return nil }
            written = own + written.dropFirst(4)
        }
        let type = finder.aliased(written)
        let found = type.isEmpty
            ? constant(name, "in\u{1}" + types.joined(separator: "\u{1}"), in: types.map(Scope.lastName) + [nil]) { c in
                !c.isLocal && (c.container.map { types.contains($0) } ?? true)
            }
            : constant(name, "names\u{1}" + type, in: [Scope.lastName(type)]) { c in
                !c.isLocal && (c.container.map { Scope.names($0, type) } ?? false)
            }
        return found
    }

    /// Where the value of a getter that only returns another constant
    /// (``AccessGroupFinder/fixedValue(of:in:)``) is written: the last
    /// constant of the chain, where a typo is fixed; nil for anything else.
    private func referencedDeclaration(_ value: String, in types: [String]) -> (file: String, line: Int)? {
        var value = value, types = types
        for _ in 0..<8 {
            guard AccessGroupFinder.isReference(value),
                  let found = referenced(value.dropFirst(AccessGroupFinder.interpolationMarker.count + 1), in: types),
                  case .literal(let v) = found.value else { return nil }
            if !AccessGroupFinder.isMarker(v) { return found.constant }
            value = v
            types = found.container.map { [$0] } ?? []
        }
        return nil
    }

    /// `self.name` (or a name unwrapped from it): the instance's property,
    /// if it has one, else a constant of the type.
    private func resolveSelfMember(_ name: String, _ e: ExprSyntax, _ scope: Scope,
                                   _ runtime: AccessGroupFinder.Resolved) -> AccessGroupFinder.Resolved {
        guard let type = scope.types.first else { return runtime }
        if finder.isValueMember(name, of: type) {
            var property = runtime
            property.forwarded = forwardsProperty(name, around: Syntax(e))
            return property
        }
        chase.insert(Scope.lastName(type))
        return constant(name, "exact\u{1}" + type, in: [Scope.lastName(type)]) { c in !c.isLocal && c.container == type } ?? runtime
    }

    /// An interpolation with the local `let`s it names (a bare name) put in:
    /// a literal as text, an Info.plist read as a read (`let p =
    /// Bundle.main.infoDictionary!["AppIdentifierPrefix"] as! String`, then
    /// `"\(p)prt.ProtonVPN"`; real-project trial 20, D2). Other names stay,
    /// for constants to work out.
    private func localsPutIn(_ value: String, at node: Syntax) -> String {
        guard value.hasPrefix(AccessGroupFinder.interpolationMarker), boundDepth < 8 else { return value }
        var parts = value.dropFirst(AccessGroupFinder.interpolationMarker.count).split(separator: "\u{1}", omittingEmptySubsequences: false).map(String.init)
        var changed = false
        for (i, part) in parts.enumerated() where part.hasPrefix("r") && !part.contains(".") {
            let name = String(part.dropFirst())
            var bound: String?
            switch LocalBinding(name, before: node, index: bindings, isValueMember: { self.finder.isValueMember(name, of: $0) }) {
            case .literal(let v): bound = v
            case .expression(let e):
                let key = BoundKey(expression: e.id, depth: boundDepth)
                if let known = boundValues[key] {
                    bound = known
                } else {
                    boundDepth += 1
                    defer { boundDepth -= 1 }
                    if case .literal(let v)? = resolveWritten(e)?.value { bound = v }
                    boundValues[key] = .some(bound)
                }
            default: break
            }
            guard let bound else { continue }
            if bound.hasPrefix(AccessGroupFinder.infoPlistMarker) {
                parts[i] = "p" + bound.dropFirst(AccessGroupFinder.infoPlistMarker.count)
                changed = true
            } else if !AccessGroupFinder.isMarker(bound), !bound.contains("\u{1}") {
                parts[i] = "s" + bound
                changed = true
            }
        }
        return changed ? AccessGroupFinder.interpolationMarker + parts.joined(separator: "\u{1}") : value
    }

    /// `resolve`, with interpolated constants worked out (else a value built at run time).
    /// `joined`: the value of a `+` join ``concatenation(elements:)`` made
    /// of an assignment's right-hand side, which starts at `expr` and is
    /// written `written`.
    private func resolve(_ expr: ExprSyntax, joined: String? = nil, written: String? = nil) -> AccessGroupFinder.Resolved? {
        guard var found = joined.map({ AccessGroupFinder.Resolved(value: .literal(localsPutIn($0, at: Syntax(expr)))) }) ?? resolveWritten(expr)
        else { return nil }
        if case .literal(let v) = found.value, v.hasPrefix(AccessGroupFinder.interpolationMarker) {
            let types = found.container.map { [$0] } ?? Scope(of: Syntax(expr)).types
            found.value = expanded(v, in: types).map { .literal($0) } ?? .runtime(written ?? expr.trimmedDescription)
            if case .literal = found.value, found.constant != nil, let at = referencedDeclaration(v, in: types) { found.constant = at }
        }
        return found
    }

    /// The value of an expression if it is spelled out; `nil` for a
    /// `nil` literal (no group at all).
    private func resolveWritten(_ expr: ExprSyntax) -> AccessGroupFinder.Resolved? {
        var e = expr
        // `"…" as String`, `("…")`, `x!`
        if let seq = e.as(SequenceExprSyntax.self), let first = seq.elements.first, seq.elements.count == 3,
           seq.elements.dropFirst().first?.is(UnresolvedAsExprSyntax.self) == true {
            e = first
        }
        if let t = e.as(TupleExprSyntax.self), t.elements.count == 1, let only = t.elements.first, only.label == nil { return resolve(only.expression) }
        if let f = e.as(ForceUnwrapExprSyntax.self) { e = f.expression }
        if e.is(NilLiteralExprSyntax.self) { return nil }
        if let v = AccessGroupFinder.constantValue(e) ?? AccessGroupFinder.constantValue(expr) { return .init(value: .literal(localsPutIn(v, at: Syntax(e)))) }
        let runtime = AccessGroupFinder.Resolved(value: .runtime(e.trimmedDescription))
        let scope = Scope(of: Syntax(e))
        if let reference = e.as(DeclReferenceExprSyntax.self) {
            // A bare name: a binding in scope first, then a constant of the
            // file's top level or of a type around the use.
            let name = reference.baseName.text
            lookedUp.insert(name)
            switch LocalBinding(name, before: Syntax(e), index: bindings, isValueMember: { finder.isValueMember(name, of: $0) }) {
            case .literal(let v):
                // A file-level `let` seen as this file's binding: inside a
                // type, what the type inherits may shadow it (below).
                for t in scope.types { chase.insert(Scope.lastName(t)) }
                // A file-scope constant's uses point at it, and are said once
                // there, as a type's `static let`'s are (damus's fileprivate
                // APPLICATION_GROUP_IDENTIFIER; real-project trial 22, D9).
                return .init(value: .literal(v), constant: finder.topLevelLine(name, in: file, value: v).map { (file, $0) })
            case .runtime: return runtime
            case .expression(let bound):
                // Followed a few levels at most (`let a = b` chains).
                guard boundDepth < 8 else { return runtime }
                boundDepth += 1
                defer { boundDepth -= 1 }
                return resolveWritten(bound) ?? runtime
            case .parameter(let label):
                var forwarded = runtime
                forwarded.forwarded = Self.isCheckedLabel(label, inType: scope.types.first)
                if !forwarded.forwarded, let declaring = self.function(declaring: name, around: Syntax(e)) {
                    forwarded.value = .unfollowed("its parameter `\(name)` (of `\(declaring)`), whose callers kcs does not follow", .parameter)
                }
                return forwarded
            case .property:
                var property = runtime
                property.forwarded = forwardsProperty(name, around: Syntax(e))
                return property
            case .selfMember:
                return resolveSelfMember(name, e, scope, runtime)
            case .none: break
            }
            guard let found = constant(name, "in\u{1}" + scope.types.joined(separator: "\u{1}"),
                                       in: scope.types.map(Scope.lastName) + [nil], where: { c in
                !c.isLocal && (c.container.map { scope.types.contains($0) } ?? true)
            }) else {
                // Declared in no Swift file of the target: an Objective-C
                // constant of the bridging header, or another module's
                // (Nextcloud Talk's `groupIdentifier`; real-project trial 17, D4).
                if !finder.declaredNames.contains(name) {
                    return .init(value: .unfollowed("`\(name)`, which kcs finds no declaration of in the target's Swift or Objective-C code (another module's, or a macro the build defines)"),
                                 undeclared: name)
                }
                return runtime
            }
            // Inside a type, a property it inherits would win over this
            // constant: the files that say what it inherits are wanted.
            for t in scope.types { chase.insert(Scope.lastName(t)) }
            return found
        }
        if let member = e.as(MemberAccessExprSyntax.self), let base = member.base {
            // `Type.name` (or `Outer.Type.name`, `Self.name`, `self.name`):
            // a constant of that type. Anything else (`reader.main.name`) is
            // a value the code computes.
            let name = member.declName.baseName.text
            // `Type.case.rawValue`: a String enum case's raw value; `Type.case.name`:
            // a computed property switching over the case (``ConstantCollector``).
            if let caseAccess = base.as(MemberAccessExprSyntax.self), let typeBase = caseAccess.base,
               AccessGroupFinder.unquoted(caseAccess.declName.baseName.text).first?.isLowercase == true,
               name == "rawValue" || !Self.isSystemType(typeBase) || Self.isMainBundle(caseAccess) {
                let type: String?
                if let b = typeBase.as(DeclReferenceExprSyntax.self), b.baseName.text.first?.isUppercase == true {
                    type = b.baseName.text == "Self" ? scope.types.first : finder.aliased(b.baseName.text)
                } else if let b = typeBase.as(MemberAccessExprSyntax.self), Self.isTypePath(b) {
                    type = finder.aliased(b.trimmedDescription.filter { !$0.isWhitespace })
                } else {
                    type = nil
                }
                guard let type else { return runtime }
                let caseName = AccessGroupFinder.unquoted(caseAccess.declName.baseName.text)
                // A common singleton name (`shared`, `main`) is looked for by
                // its type's name instead: as a word, it read every file that
                // says it (Element X: 2.3 s to 6.9 s; found on a real-project check).
                lookedUp.insert(Self.singletonNames.contains(caseName) ? Scope.lastName(type) : caseName)
                return constant(caseName + "." + name, "names\u{1}" + type, in: [Scope.lastName(type)]) { c in
                    !c.isLocal && (c.container.map { Scope.names($0, type) } ?? false)
                } ?? runtime
            }
            var type: String?
            if let b = base.as(DeclReferenceExprSyntax.self) {
                let text = b.baseName.text
                // `self.name`: the instance's property, if it has one.
                if text == "self" {
                    lookedUp.insert(name)
                    return resolveSelfMember(name, e, scope, runtime)
                }
                // A parameter or a local (`key.value`) is a value, not a type:
                // looking `value` up read every file that says it (Phoenix's
                // `key.accessGroup.value` parsed 365 of 368 files; found on a
                // real-project trial).
                if text != "Self" {
                    if case .none = LocalBinding(text, before: Syntax(e), index: bindings,
                                                 isValueMember: { finder.isValueMember(text, of: $0) }) {} else { return runtime }
                }
                type = text == "Self" ? scope.types.first : finder.aliased(text)
            } else if let b = base.as(MemberAccessExprSyntax.self), Self.isTypePath(b) {
                // Outer.Type.name: a path of type names.
                type = finder.aliased(b.trimmedDescription.filter { !$0.isWhitespace })
            }
            // Anything else (`reader.main.name`) is computed: nothing to look up.
            guard let type else { return runtime }
            lookedUp.insert(name)
            let exact = type == scope.types.first
            return constant(name, (exact ? "exact\u{1}" : "names\u{1}") + type, in: [Scope.lastName(type)]) { c in
                !c.isLocal && (c.container.map { exact ? $0 == type : Scope.names($0, type) } ?? false)
            } ?? runtime
        }
        if let call = e.as(FunctionCallExprSyntax.self), let read = keyReaderCall(call, scope) { return read }
        return runtime
    }

    /// A call of a key reader (``AccessGroupFinder/KeyReader``) with a key
    /// kcs works out: `name(label: KEY)` of the top level or of a type
    /// around the call, or `Type.name(label: KEY)` (`Self.`): that key's
    /// Info.plist read.
    private func keyReaderCall(_ call: FunctionCallExprSyntax, _ scope: Scope) -> AccessGroupFinder.Resolved? {
        guard call.arguments.count == 1, let argument = call.arguments.first, call.trailingClosure == nil else { return nil }
        let name: String, types: [String?]
        if let r = call.calledExpression.as(DeclReferenceExprSyntax.self) {
            name = r.baseName.text
            types = scope.types.map(Scope.lastName) + [nil]
            lookedUp.insert(name)
        } else if let m = call.calledExpression.as(MemberAccessExprSyntax.self), let base = m.base?.as(DeclReferenceExprSyntax.self),
                  base.baseName.text.first?.isUppercase == true {
            name = m.declName.baseName.text
            let type = base.baseName.text == "Self" ? scope.types.first.map(Scope.lastName) : Scope.lastName(finder.aliased(base.baseName.text))
            types = [type]
            // The files that say the type, not every file that says a
            // common function name (`value(for:)`).
            if let type { lookedUp.insert(type) }
        } else {
            return nil
        }
        guard let read = finder.keyReader(name, label: argument.label?.text ?? "_", in: types),
              let key = resolveWritten(argument.expression), case .literal(let k) = key.value, !AccessGroupFinder.isMarker(k),
              !k.isEmpty, !k.contains(Character(AccessGroupFinder.markerStart)) else { return nil }
        return .init(value: .literal(AccessGroupFinder.infoPlistMarked((k, read))), condition: key.condition)
    }
}

/// The names a file may change: the last name of each assignment's
/// target (`x = …`, `Env.x += …`; every name of a tuple or subscript
/// target), of each `&x`, and of each value a `String` mutating method is
/// called on (`x.append(…)`). A stored `var` of one of these names is not
/// taken for a constant (``AccessGroupFinder/storedVarValue(of:in:)``).
private final class AssignedNameCollector: SyntaxVisitor {
    var names: Set<String> = []
    static let mutating: Set<String> = ["append", "insert", "remove", "removeAll", "removeFirst", "removeLast", "removeSubrange",
                                        "replaceSubrange", "popLast", "write", "reserveCapacity", "makeContiguousUTF8", "withUTF8"]

    private func addTarget(_ e: ExprSyntax) {
        if let r = e.as(DeclReferenceExprSyntax.self) { names.insert(AccessGroupFinder.unquoted(r.baseName.text)); return }
        if let m = e.as(MemberAccessExprSyntax.self) { names.insert(AccessGroupFinder.unquoted(m.declName.baseName.text)); return }
        for token in e.tokens(viewMode: .sourceAccurate) where LocalBinding.isIdentifier(token) { names.insert(AccessGroupFinder.unquoted(token.text)) }
    }

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        for i in elements.indices.dropFirst() {
            let op = elements[i]
            let assigns = op.is(AssignmentExprSyntax.self) || op.as(BinaryOperatorExprSyntax.self).map { b in
                let text = b.operator.text
                return text.hasSuffix("=") && !["==", "!=", "<=", ">=", "===", "!=="].contains(text)
            } ?? false
            if assigns { addTarget(elements[i - 1]) }
        }
        return .visitChildren
    }

    override func visit(_ node: InOutExprSyntax) -> SyntaxVisitorContinueKind {
        addTarget(node.expression)
        return .visitChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let m = node.calledExpression.as(MemberAccessExprSyntax.self), Self.mutating.contains(m.declName.baseName.text), let base = m.base {
            addTarget(base)
        }
        return .visitChildren
    }
}

/// Every assignment below a node, as the elements of its sequence
/// (`target = value …`).
private final class AssignmentCollector: SyntaxVisitor {
    var found: [[ExprSyntax]] = []

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        if elements.count >= 3, elements[1].is(AssignmentExprSyntax.self) { found.append(elements) }
        return .visitChildren
    }
}
