import KCSSyntax
import KeychainEngine

/// Parses a script and lowers each statement to the model's terms: the
/// syntax parser says what was written, then every class, status, attribute,
/// value and platform is looked up in the engine's vocabulary, so a misspelt
/// name is an error before anything runs.
public struct Parser {
    private var syntax: SyntaxParser
    private let file: SourceFile
    /// The file's bytes, held once (read through `file` at each lookup,
    /// the array was retained and released each time).
    private let bytes: [UInt8]
    /// Lowering errors (the syntax parser keeps its own).
    private var diagnostics: [Diagnostic] = []
    /// An `app` was declared before this statement: in this file, or (as
    /// the session says, at ``init(file:maxListLength:appsDeclared:)`` and
    /// after each include) in an earlier REPL line or Markdown block or in
    /// an included file.
    package var sawApp = false
    private var sawPlatform = false
    /// Lowers calls' and item expectations' lists, kept from statement to statement.
    private var lowering: Lowering
    /// The vocabulary's tables a call and a status are matched against,
    /// held here: read through the statics, each lookup cost a lazy
    /// initialization check.
    private let operations = Vocabulary.operationTable
    private let classes = Vocabulary.classTable
    private let statuses = Vocabulary.statusTable

    /// Parses a whole file. Nothing should run when any diagnostic is an error.
    public static func parse(_ file: SourceFile) -> (program: Program, diagnostics: [Diagnostic]) {
        var parser = Parser(file: file)
        var statements: [Statement] = []
        while let s = parser.next() { statements.append(s) }
        return (Program(file: file, statements: statements), parser.finalDiagnostics)
    }

    /// Whether a block parses without errors and includes nothing: then a
    /// run of it cannot fail on syntax, and the session need not be kept
    /// to roll back to.
    /// Past the deadline it answers no at once: the run that follows stops
    /// at its first statement.
    public static func parsesCleanWithoutIncludes(_ file: SourceFile, limits: Limits,
                                           deadline: ContinuousClock.Instant? = nil, appsDeclared: Bool = false) -> Bool {
        var parser = Parser(file: file, maxListLength: limits.listLength, appsDeclared: appsDeclared)
        while let s = parser.next() {
            if case .include = s.kind { return false }
            if let deadline, ContinuousClock.now > deadline { return false }
        }
        return !parser.hasErrors
    }

    /// A parser that hands out statements one at a time, so a large script
    /// never has to be held as a tree. Check ``hasErrors`` before running a
    /// statement: once an error has been seen nothing more may run.
    /// `appsDeclared`: the session this script runs into already has apps
    /// (an earlier REPL line or Markdown block declared one), so a
    /// `platform` here is misplaced, as it is after an `app` in one file.
    public init(file: SourceFile, maxListLength: Int = Int.max, appsDeclared: Bool = false) {
        self.file = file
        self.sawApp = appsDeclared
        self.bytes = file.bytes
        self.syntax = SyntaxParser(file: file, maxListLength: maxListLength)
        self.lowering = Lowering(file: file)
    }

    /// Whether any error has been found so far.
    public var hasErrors: Bool { syntax.hasErrors || !diagnostics.isEmpty }

    /// Every diagnostic, in source order.
    public var finalDiagnostics: [Diagnostic] {
        let found = syntax.finalDiagnostics
        guard !diagnostics.isEmpty else { return found }
        // Where the lexer already reported a token (a number too large), a
        // complaint about its value is noise.
        let reported = Set(found.compactMap(\.range))
        return (found + diagnostics.filter { $0.range.map { !reported.contains($0) } ?? true })
            .sorted { ($0.range?.start ?? 0) < ($1.range?.start ?? 0) }
    }

    /// The next statement that parses and lowers; nil at the end.
    public mutating func next() -> Statement? {
        while true {
            // The lowering's errors count toward the syntax parser's limit.
            if diagnostics.count + syntax.errorCount >= SyntaxParser.maxErrors {
                syntax.stop()
                return nil
            }
            guard let node = syntax.next() else { return nil }
            let device = node.device.map { syntax.name($0) }, range = node.range
            do throws(Diagnostic) {
                // Consumed: its parts move into the lowered statement, and
                // nothing is left to destroy through the type's metadata.
                return Statement(kind: try lower(node), device: device, range: range)
            } catch {
                diagnostics.append(error)
            }
        }
    }

    // MARK: Lowering

    private mutating func lower(_ node: consuming StatementNode) throws(Diagnostic) -> StatementKind {
        switch node.body {
        case .platform(let family, let version):
            if sawPlatform {
                throw Diagnostic(.misplacedDeclaration, "the platform is already set", file: file, range: node.keyword,
                                 hint: "a scenario has one platform; split scenarios per platform into files")
            }
            if sawApp { throw .platformAfterApp(file, node.keyword) }
            let p = try platform(family, version)
            sawPlatform = true
            return .platform(p)
        case .team(let id, let alias):
            guard Team.isWellFormedID(id.text) else { throw .malformedTeamID(id.text, file, id.range) }
            return .team(id: id, alias: alias)
        case .app(let bundle, let alias, let options):
            sawApp = true
            return .app(try app(bundle, alias, options))
        case .group(let name, let apps):
            return .group(name: name, apps: apps)
        case .include(let path):
            return .include(path: path.text, resolved: nil)
        case .device(let name, let options):
            var account: Name?
            var platform: Platform?
            for o in options {
                // Each key by name, no default: a key the table gains is
                // lowered here or does not compile (review 23a, R2). The
                // syntax parser refuses another form's keys.
                switch o.id {
                case .account:
                    account = Name(text: o.value.text(in: file) ?? "", range: o.value.range)
                case .platform:
                    guard let version = o.version else { continue }
                    platform = try self.platform(Name(text: o.value.text(in: file) ?? "", range: o.value.range), version)
                case .team, .kind, .keychainAccessGroups, .applicationGroups, .associatedApplicationIdentifier, .signing, .provisioned,
                     .appIDPrefix, .entitlements, .project, .target, .configuration,
                     .reuse, .interaction, .encrypted:
                    continue
                }
            }
            return .device(name: name, account: account, platform: platform)
        case .context(let name, let options):
            var context = AuthContext()
            for o in options {
                switch o.id {
                case .reuse:
                    guard case .integer(let seconds) = o.value.kind else { continue }
                    guard seconds >= 0 && seconds <= AuthContext.maximumReuseDuration else {
                        throw Diagnostic(.wrongValueType, "a reuse duration is 0 to \(AuthContext.maximumReuseDuration) seconds",
                                         file: file, range: o.value.range,
                                         hint: "LocalAuthentication allows at most LATouchIDAuthenticationMaximumAllowableReuseDuration "
                                             + "(\(AuthContext.maximumReuseDuration) s)")
                    }
                    context.reuseDuration = seconds
                case .interaction:
                    context.interactionAllowed = o.value.word(in: file) == "true"
                case .team, .kind, .keychainAccessGroups, .applicationGroups, .associatedApplicationIdentifier, .signing, .provisioned,
                     .appIDPrefix, .entitlements, .project, .target, .configuration,
                     .account, .platform, .encrypted:
                    continue
                }
            }
            return .context(name: name, context)
        case .wait(let seconds):
            return .wait(seconds.value)
        case .keep(let name):
            return .keepPersistentRef(name)
        case .call(let call):
            return .call(try lower(call))
        case .expect(let expect):
            return try lower(expect)
        case .choice(let word):
            return try choice(node.form, word)
        case .showApp(let app):
            return .show(.app(app))
        case .name(let name):
            switch node.form {
            case .uninstall: return .uninstall(name)
            case .resign: return .resign(name)
            case .install: return .install(name)
            // Each form that takes a bare name is named above: another one
            // is said, not taken for `install` (review 19, R15).
            default: throw Diagnostic(.unknownStatement, "'\(node.form)' takes no app name in the runtime", file: file, range: node.keyword)
            }
        case .transfer(let app, let team):
            return .transfer(app: app, team: team)
        case .backup(let device, let name, let options):
            let encrypted = options.last { $0.id == .encrypted }.map { $0.value.word(in: file) != "false" } ?? true
            return .backup(device: device, name: name, encrypted: encrypted)
        case .restore(let name, let device):
            return .restore(name: name, device: device)
        case .bare:
            switch node.form {
            case .lock: return .lock
            case .unlock: return .unlock
            case .reboot: return .reboot
            case .sync: return .sync
            case .explain: return .explain
            default:
                // A fresh world: its platform may be set again, before its first app.
                sawApp = false
                sawPlatform = false
                return .reset
            }
        }
    }

    /// The meaning of a word a form took from its ``StatementForm/choices``.
    private func choice(_ form: StatementForm.Kind, _ word: Name) throws(Diagnostic) -> StatementKind {
        let w = word.text
        switch form {
        case .passcode: return .passcode(w == "on")
        case .biometry:
            if let change = BiometryChange(rawValue: w) { return .biometry(change) }
        case .user:
            switch w {
            case "approves": return .user(.approve)
            case "cancels": return .user(.cancel)
            case "fails": return .user(.fail)
            case "always-allows": return .user(.alwaysAllow)
            default: break
            }
        case .show:
            switch w {
            case "apps": return .show(.apps)
            case "items": return .show(.items)
            case "matrix": return .show(.matrix)
            default: break
            }
        default: break
        }
        // The syntax parser only hands over the table's words: a word without
        // a meaning here is a grammar table the runtime does not follow.
        throw Diagnostic(.unknownValue, "'\(w)' has no meaning in the runtime", file: file, range: word.range)
    }

    // FAMILY INTEGER, as in 'platform ios 18' and 'device D platform=ios 13'
    private func platform(_ family: Name, _ version: IntegerNode) throws(Diagnostic) -> Platform {
        let families = Platform.Family.allCases.map(\.rawValue)
        guard let f = Platform.Family(rawValue: family.text) else {
            throw Diagnostic(.unknownValue, "unknown platform '\(family.text)'", file: file, range: family.range,
                             hint: Suggest.hint(for: family.text, in: families) ?? "one of: " + families.joined(separator: ", "))
                .didYouMean(family.text, in: families)
        }
        guard version.value > 0 && version.value < Platform.versionBound else {
            throw Diagnostic(.unknownPlatform, "unlikely \(f.rawValue) version \(version.value)", file: file, range: version.range,
                             hint: "write the major version, e.g. 'platform \(f.rawValue) 18'")
        }
        guard version.value >= f.oldestModelled else {
            throw Diagnostic(.unknownPlatform, "kcs models \(f.rawValue) from version \(f.oldestModelled): "
                                 + "an older device's rules are not read from Apple's source", file: file, range: version.range,
                             hint: "write 'platform \(f.rawValue) \(f.oldestModelled)' or later")
        }
        return Platform(f, version.value)
    }

    // app := 'app' BUNDLEID [ 'as' NAME ] { option '=' value }
    private func app(_ bundle: Name, _ alias: Name?, _ options: [OptionNode]) throws(Diagnostic) -> AppDeclaration {
        var decl = AppDeclaration(bundleID: bundle, alias: alias, team: nil, kind: .app)
        for o in options {
            let v = o.value
            let name = Name(text: v.text(in: file) ?? "", range: v.range)
            // Each key by name, no default (review 23a, R2).
            switch o.id {
            case .team: decl.team = name
            case .provisioned: decl.provisioned = v.word(in: file) == "true"
            case .signing: decl.signing = try pick(v, "signing", Signing.allCases.map(\.rawValue), Signing.init(rawValue:))
            case .kind: decl.kind = try pick(v, "target kind", TargetKind.allCases.map(\.rawValue), TargetKind.init(rawValue:))
            case .entitlements: decl.entitlements = name
            case .project: decl.project = name
            case .target: decl.target = name
            case .configuration: decl.configuration = name
            case .appIDPrefix:
                guard Team.isWellFormedID(name.text) else {
                    throw Diagnostic(.malformedTeamID, "'\(name.text)' is not an App ID prefix", file: file, range: v.range,
                                     hint: "an App ID prefix is \(Team.idShape), as a team ID, e.g. ABCDE12345")
                }
                decl.appIDPrefix = name
            case .keychainAccessGroups: decl.keychainAccessGroups = names(v)
            case .applicationGroups: decl.applicationGroups = names(v)
            case .associatedApplicationIdentifier: decl.associatedApplicationIdentifiers = names(v)
            case .account, .platform, .reuse, .interaction, .encrypted:
                continue
            }
        }
        let seen = Set(options.map(\.id))
        if decl.project != nil || decl.target != nil || decl.configuration != nil {
            try checkProjectOptions(decl, seen)
        }
        if decl.signing != nil && seen.contains(.provisioned) {
            throw Diagnostic(.duplicateArgument, "provisioned= and signing= both say how the app is signed", file: file,
                             range: bundle.range, hint: "provisioned=false is signing=unprovisioned: keep one")
        }
        if let prefix = decl.appIDPrefix, decl.team?.text == "none" || decl.signing == .noAppID {
            let other = decl.signing == .noAppID ? "signing=no-app-id" : "team=none"
            throw Diagnostic(.duplicateArgument, "app-id-prefix= gives an app ID, and \(other) signs the app without one", file: file,
                             range: prefix.range, hint: "keep one: an app without an app ID has no App ID prefix")
        }
        if let prefix = decl.appIDPrefix, decl.entitlements != nil {
            throw Diagnostic(.duplicateArgument, "entitlements= and app-id-prefix= both give the App ID", file: file, range: prefix.range,
                             hint: "the file's application-identifier gives the prefix: keep the file")
        }
        if let path = decl.entitlements,
           decl.keychainAccessGroups != nil || decl.applicationGroups != nil || decl.associatedApplicationIdentifiers != nil {
            throw Diagnostic(.duplicateArgument, "entitlements= and a group list both give the app's groups", file: file,
                             range: path.range, hint: "keep the file, or write the lists, not both")
        }
        return decl
    }

    /// The names of a list option's value (the syntax parser checked it is a list).
    private func names(_ v: ValueNode) -> [Name] {
        guard case .list(let items) = v.kind else { return [] }
        return syntax.values(items).map { Name(text: $0.text(in: file) ?? "", range: $0.range) }
    }

    /// A word of a value set the engine spells, with "did you mean" on a miss.
    private func pick<T>(_ v: ValueNode, _ what: String, _ names: [String], _ lookup: (String) -> T?) throws(Diagnostic) -> T {
        let w = v.text(in: file) ?? ""
        guard let value = lookup(w) else {
            throw Diagnostic(.unknownValue, "unknown \(what) '\(w)'", file: file, range: v.range,
                             hint: Suggest.hint(for: w, in: names) ?? "one of: " + names.joined(separator: ", "))
                .didYouMean(w, in: names)
        }
        return value
    }

    /// `project=` gives the bundle ID, kind and groups: options that would
    /// give them too are refused, and `target=`/`configuration=` need it.
    private func checkProjectOptions(_ decl: AppDeclaration, _ seen: Set<OptionSpec.Key>) throws(Diagnostic) {
        guard let project = decl.project else {
            let given = decl.target ?? decl.configuration
            throw Diagnostic(.unexpectedToken, "target= and configuration= go with project=", file: file, range: given?.range,
                             hint: "add project=\"App.xcodeproj\"")
        }
        for clash in OptionSpec.Key.allCases where clash.isGivenByProject && seen.contains(clash) {
            throw Diagnostic(.duplicateArgument, "\(clash.rawValue)= and project= both describe the app", file: file, range: project.range,
                             hint: "the project gives the bundle ID, kind and entitlements; keep project= alone")
        }
    }

    // call := 'as' APP OP [ CLASS ] { ATTR '=' value } [ 'set' ATTR '=' value { ATTR '=' value } ]
    private mutating func lower(_ call: CallNode) throws(Diagnostic) -> CallStatement {
        let opRange = call.operation
        guard let op = operations.value(bytes, opRange) else {
            let w = file.text(opRange)
            let names = Operation.allCases.map(\.rawValue)
            throw Diagnostic(.unknownValue, "unknown operation '\(w)'", file: file, range: opRange,
                             hint: Suggest.hint(for: w, in: names) ?? "one of: " + names.joined(separator: ", "))
                .didYouMean(w, in: names)
        }
        // The query and the changes are lowered in place, and the request is
        // made of them once, moved into the statement: a request made first
        // and lowered into was copied and destroyed once more.
        var spec = ItemSpec()
        if let range = call.itemClass {
            guard let itemClass = classes.value(bytes, range) else {
                let c = file.text(range)
                throw Diagnostic(.unknownClass, "unknown item class '\(c)'", file: file, range: range,
                                 hint: Suggest.hint(for: c, in: Vocabulary.classNames)
                                    ?? "classes: " + ItemClass.allCases.map(\.rawValue).joined(separator: ", "))
                    .didYouMean(c, in: Vocabulary.classNames)
            }
            spec.itemClass = itemClass
        }
        if let set = call.set, op != .update {
            throw Diagnostic(.misplacedSet, "'set' belongs to update calls", file: file, range: set,
                             hint: "only update changes attributes: as APP update CLASS … set ATTR=VALUE")
        }
        // The query and the changes are separate dictionaries: an attribute
        // may appear in both (set account="new" renames).
        try lowering.apply(syntax.arguments(call.arguments), values: syntax.listValues, to: &spec, changing: false)
        // The names resolved at run time, boxed only when there are any.
        var names: CallStatement.RuntimeNames?
        if lowering.namesRuntimeObjects {
            names = .init(persistentRef: lowering.persistentRefName, context: lowering.contextName, changedPersistentRef: nil)
        }
        var changes: ItemSpec?
        if call.set != nil {
            var c = ItemSpec()
            // The class is known while the changes are read (to check their
            // attributes); it is no attribute to change (kSecClass there is errSecNoSuchAttr).
            c.itemClass = spec.itemClass
            try lowering.apply(syntax.arguments(call.changes), values: syntax.listValues, to: &c, changing: true)
            c.itemClass = nil
            changes = consume c
            if lowering.namesRuntimeObjects {
                names = .init(persistentRef: names?.persistentRef, context: names?.context ?? lowering.contextName,
                              changedPersistentRef: lowering.persistentRefName)
            }
        } else if op == .update {
            throw Diagnostic(.expectedToken, "update needs 'set' and the attributes to change", file: file,
                             range: opRange, hint: "as APP update CLASS account=\"alice\" set data=\"new\"")
        }
        return CallStatement(app: syntax.name(call.app), request: CallRequest(op, consume spec, changes: consume changes),
                             operationRange: opRange,
                             classRange: call.itemClass, runtimeNames: names)
    }

    private mutating func lower(_ expect: ExpectNode) throws(Diagnostic) -> StatementKind {
        switch expect {
        case .status(let first, let more):
            var statuses = StatusRefs(try status(first))
            if !more.isEmpty {
                for v in syntax.values(more) { statuses.rest.append(try status(v)) }
            }
            return .expectStatus(statuses)
        case .count(let n): return .expectCount(n.value)
        case .data(let d): return .expectData(syntax.name(d).text)
        case .noData: return .expectNoData
        case .persistentRef(let name): return .expectPersistentRef(syntax.name(name))
        case .group(let g): return .expectGroup(syntax.name(g))
        case .item(let list, _):
            var spec = ItemSpec()
            var args: [CallArgument] = []
            let arguments = syntax.arguments(list), values = syntax.listValues
            lowering.start()
            for a in arguments {
                let k = try lowering.apply(a.key, a.value, of: arguments, values: values, to: &spec, changing: true)
                args.append(CallArgument(key: k, range: a.key.union(a.value.range), isChange: false))
            }
            return .expectItem(spec, args)
        case .groups(let app, let groups):
            let names = syntax.values(groups).map { Name(text: $0.text(in: file) ?? "", range: $0.range) }
            return .expectGroups(app: syntax.name(app), groups: names)
        case .defaultGroup(let app, let group):
            return .expectDefaultGroup(app: syntax.name(app), group: syntax.name(group))
        }
    }

    // STATUS := NAME | CODE
    // Inlined, its errors made apart from the parser: called from the
    // mutating lowering for every expectation, a method out of line was
    // passed a copy of the 376-byte parser.
    @inline(__always)
    private func status(_ v: ValueNode) throws(Diagnostic) -> StatusRef {
        if case .integer(let i) = v.kind {
            guard let s = Int32(exactly: i).flatMap(KeychainStatus.init(code:)) else {
                throw Self.unknownStatusCode(i, v.range, file)
            }
            return StatusRef(status: s, range: v.range)
        }
        guard let s = statuses.value(bytes, v.range) else { throw Self.unknownStatus(v, file) }
        return StatusRef(status: s, range: v.range)
    }

    private static func unknownStatusCode(_ i: Int, _ range: SourceRange, _ file: SourceFile) -> Diagnostic {
        Diagnostic(.unknownStatus, "unknown status code \(i)", file: file, range: range,
                   hint: "known codes: " + KeychainStatus.allCases.map { String($0.code) }.joined(separator: ", "))
    }

    private static func unknownStatus(_ v: ValueNode, _ file: SourceFile) -> Diagnostic {
        // The text only for the message: a known status is found by its bytes.
        let w = v.text(in: file) ?? ""
        return Diagnostic(.unknownStatus, "unknown status '\(w)'", file: file, range: v.range,
                          hint: Suggest.hint(for: w, in: Vocabulary.statusNames)
                             ?? "statuses are written as in SecBase.h, e.g. errSecItemNotFound or -25300")
            .didYouMean(w, in: Vocabulary.statusNames)
    }
}

extension Diagnostic {
    /// A `platform` after an `app` (KCS212): in one file, after an earlier
    /// REPL line's or Markdown block's app, or in an included file. The one
    /// place its message is made, for the parser and the session alike.
    static func platformAfterApp(_ file: SourceFile, _ range: SourceRange?) -> Diagnostic {
        Diagnostic(.misplacedDeclaration, "'platform' must come before the first 'app'", file: file, range: range,
                   hint: "declare the platform first: the apps' groups and the calls' results depend on it")
    }

    /// A `team` whose ID is not one (KCS213), from the parser or the engine.
    static func malformedTeamID(_ id: String, _ file: SourceFile, _ range: SourceRange?) -> Diagnostic {
        Diagnostic(.malformedTeamID, "'\(id)' is not a team ID", file: file, range: range,
                   hint: Team.idHint)
    }
}
