import KeychainEngine

/// Writes a scenario as a Swift Testing source file that makes the same
/// SecItem calls with real query dictionaries and expects the statuses the
/// model predicts, so the model can be checked on a device or simulator.
public struct SwiftExporter: Sendable {
    public var loader: any SourceLoader
    /// Bounds for the run that predicts the statuses (and so for the output).
    public var limits: Limits

    public init(loader: any SourceLoader = FileSystemLoader(), limits: Limits = Limits()) {
        self.loader = loader
        self.limits = limits
    }

    /// The generated source, or the errors that kept the script from running
    /// (syntax errors, unreadable files).
    public func export(_ file: SourceFile) -> Result<String, ExportFailure> { exportReporting(file).result }

    /// The same, with what the run that predicted the statuses found: its
    /// runtime errors and failed expectations, which a caller reports as
    /// `kcs run` would (the generated file records them only in comments).
    public func exportReporting(_ file: SourceFile) -> (result: Result<String, ExportFailure>, report: RunReport) {
        // One deadline for the run and for writing the file after it.
        let deadline = RunBudget.deadline(for: limits)
        var includes = IncludedPrograms()
        var diagnostics: [Diagnostic] = []
        let program = ScriptLoader.parse(file, loader: loader, stack: [loader.canonical(loader.resolve(file.name, relativeTo: nil))],
                                         includes: &includes, diagnostics: &diagnostics, limits: limits)
        if !diagnostics.isEmpty { return (.failure(failure(diagnostics, file)), RunReport()) }
        // Run it for the statuses the model predicts.
        var session = Session()
        var statuses: [CallKey: KeychainStatus] = [:]
        var options = RunOptions(reportCalls: true, limits: limits)
        options.deadline = deadline
        let report = session.run(file: file, loader: loader, options: options) { event in
            if case .call(let c) = event { statuses[CallKey(file: c.file.name, start: c.range.start)] = c.status }
        }
        // A run stopped by a limit (an include fanned out a billion times)
        // would be written out as far as it went: refuse it instead, since
        // the writer walks the same statements.
        let blocking = report.diagnostics.filter {
            $0.severity == .error && ($0.code.phase == .syntax || $0.code.phase == .input || $0.code == .runLimit)
        }
        if !blocking.isEmpty { return (.failure(failure(blocking, file)), report) }
        var writer = Writer(world: session.world, statuses: statuses, scriptName: file.name, deadline: deadline)
        writer.statements(program, includes)
        if let late = writer.lateAt {
            let d = RunBudget.limitDiagnostic(RunBudget.overTimeMessage(limits) + " while the Swift file was written", late.file, late.range)
            return (.failure(failure([d], file)), report)
        }
        return (.success(writer.render()), report)
    }

    /// Diagnostics capped as `kcs run` caps a file's: a file of a million
    /// errors prints a screenful and a count of the rest (with `dropped`,
    /// those a report already counted without keeping).
    package func capped(_ diagnostics: [Diagnostic], dropped: Int = 0, _ file: SourceFile) -> [Diagnostic] {
        var outcome = FileOutcome(path: file.name)
        outcome.diagnostics = diagnostics
        outcome.droppedDiagnostics = dropped
        BatchRunner(loader: loader, limits: limits).capDiagnostics(&outcome)
        return outcome.diagnostics
    }

    private func failure(_ diagnostics: [Diagnostic], _ file: SourceFile) -> ExportFailure {
        ExportFailure(diagnostics: capped(diagnostics, file))
    }

    /// The errors that kept a script from being exported.
    public struct ExportFailure: Error, Sendable {
        public var diagnostics: [Diagnostic]
    }

    struct CallKey: Hashable {
        var file: String
        var start: Int
    }

    /// The Swift type name for a script: `Scenario_02_keychain_access_group`.
    public static func suiteName(for path: String) -> String {
        var base = String(path.split(separator: "/").last ?? Substring(path))
        if base.hasSuffix(".kcs") { base.removeLast(4) }
        let cleaned = base.unicodeScalars.map { s -> String in
            (s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s))) ? String(s) : "_"
        }.joined()
        return "Scenario_" + cleaned
    }

    private struct Writer {
        let world: World
        let statuses: [CallKey: KeychainStatus]
        let scriptName: String
        /// Writing stops here; ``lateAt`` then says at which statement.
        var deadline: ContinuousClock.Instant?
        var lateAt: (file: SourceFile, range: SourceRange)?
        var written = 0
        var body: [String] = []
        /// The last call written, for the expectations that follow it.
        var lastCall: (find: Bool, returns: Bool, line: Int)?

        init(world: World, statuses: [CallKey: KeychainStatus], scriptName: String, deadline: ContinuousClock.Instant?) {
            self.world = world
            self.statuses = statuses
            self.scriptName = scriptName
            self.deadline = deadline
        }

        mutating func statements(_ program: Program, _ includes: IncludedPrograms) {
            for s in program.statements {
                if lateAt != nil { return }
                written += 1
                // The clock is read every 256 statements.
                if let deadline, written & 255 == 0, ContinuousClock.now > deadline {
                    lateAt = (program.file, s.range)
                    return
                }
                if case .include(_, let resolved?) = s.kind, let included = includes[resolved] {
                    body.append("// \(comment(program.file, s)): from \(Self.commentText(included.file.name))")
                    statements(included, includes)
                    continue
                }
                statement(s, program.file)
            }
        }

        func comment(_ file: SourceFile, _ s: Statement) -> String {
            let line = file.location(of: s.range.start).line
            let text = file.text(s.range).split(separator: "\n").map { $0.trimmingCharacters }.joined(separator: " ")
            return "line \(line): \(Self.commentText(text))"
        }

        /// Text from the script made safe inside a `//` comment: anything
        /// Swift could take as the end of the line (CR, LF, U+2028, U+0085…),
        /// other controls and direction changes are written as `\u{…}`, so the
        /// comment cannot end early and let the rest become code.
        static func commentText(_ s: String) -> String {
            var out = String.UnicodeScalarView()
            for u in s.unicodeScalars {
                if breaksOrHides(u) { out.append(contentsOf: TerminalText.escape(u).unicodeScalars) } else { out.append(u) }
            }
            return String(out)
        }

        /// Line and paragraph separators, controls and bidirectional controls.
        static func breaksOrHides(_ u: Unicode.Scalar) -> Bool {
            TerminalText.needsEscape(u) || u.value == 0x2028 || u.value == 0x2029 || u.value == 0x85
        }

        mutating func statement(_ s: Statement, _ file: SourceFile) {
            let line = file.location(of: s.range.start).line
            let device = s.device.map { " (on device \(Self.commentText($0.text)))" } ?? ""
            switch s.kind {
            case .call(let call):
                body.append("")
                body.append("// \(comment(file, s))")
                guard let status = statuses[CallKey(file: file.name, start: s.range.start)] else {
                    body.append("// not exported: in kcs this call stopped with an error and did not run")
                    lastCall = nil
                    return
                }
                if call.persistentRef != nil || call.context != nil {
                    // A persistent reference or an LAContext is a live object
                    // in a test, not a literal this export can write.
                    body.append("// not exported: the call uses persistent-ref= or context=")
                    lastCall = nil
                    return
                }
                callCode(call, status: status, line: line, device: device)
            case .expectData(let data):
                guard let last = lastCall, last.find, last.returns else { return }
                appendIndented("#expect(Self.firstData(result) == \(Self.literal(data)), \"line \(line)\")", inCallOf: last.line)
            case .expectCount(let n):
                guard let last = lastCall, last.find, last.returns else { return }
                appendIndented("#expect(Self.count(result) == \(n), \"line \(line)\")", inCallOf: last.line)
            case .expectStatus, .expectGroup, .expectItem, .expectGroups, .expectDefaultGroup, .expectNoData,
                 .expectPersistentRef, .keepPersistentRef:
                break  // the status is asserted with the call; the rest are about the model
            case .platform, .team, .app, .group, .device, .include:
                break  // declarations: in the entitlements comment at the top
            case .passcode, .lock, .unlock, .reboot, .biometry, .uninstall, .install, .transfer, .sync, .backup, .restore:
                body.append("")
                body.append("// \(comment(file, s))\(device): do this by hand before the next call")
            case .context, .wait:
                body.append("")
                body.append("// \(comment(file, s)): not exported (contexts and time are the test's to arrange)")
            case .user:
                body.append("")
                body.append("// \(comment(file, s)): answer the next authentication prompt this way")
            case .show, .explain, .reset:
                break
            }
        }

        /// Puts a line inside the block of the call it checks (which ends with "}").
        mutating func appendIndented(_ code: String, inCallOf line: Int) {
            guard let close = body.lastIndex(of: "}") else { return }
            body.insert("    " + code, at: close)
        }

        mutating func callCode(_ call: CallStatement, status: KeychainStatus, line: Int, device: String) {
            let request = call.request
            let app = call.app.text
            body.append("if runs(\(Self.literal(app))) {\(device.isEmpty ? "" : " //" + device)")
            var setup: [String] = []
            let query = Self.dictionary(request.spec, setup: &setup, name: "access")
            var changes: [String]?
            if let c = request.changes { changes = Self.dictionary(c, setup: &setup, name: "newAccess") }
            for l in setup { body.append("    " + l) }
            body.append(contentsOf: Self.declare("query", query))
            let message = Self.literal("line \(line): \(app) \(request.operation.rawValue)")
            let returns = !request.spec.returns.isEmpty
            switch request.operation {
            case .add:
                body.append("    let status = SecItemAdd(query as CFDictionary, nil)")
            case .find:
                if returns {
                    body.append("    var result: CFTypeRef?")
                    body.append("    let status = SecItemCopyMatching(query as CFDictionary, &result)")
                } else {
                    body.append("    let status = SecItemCopyMatching(query as CFDictionary, nil)")
                }
            case .update:
                body.append(contentsOf: Self.declare("changes", changes ?? []))
                body.append("    let status = SecItemUpdate(query as CFDictionary, changes as CFDictionary)")
            case .delete:
                body.append("    let status = SecItemDelete(query as CFDictionary)")
            }
            body.append("    #expect(status == \(status.isInSDK ? status.name : "OSStatus(\(status.code)) /* \(status.name) */"), \(message))")
            body.append("}")
            lastCall = (request.operation == .find, returns, line)
            if request.operation == .find && returns {
                // `result` is read by expectations inserted before the closing brace.
                body.insert("    _ = result", at: body.count - 1)
            }
        }

        static func declare(_ name: String, _ entries: [String]) -> [String] {
            if entries.isEmpty { return ["    let \(name): [String: Any] = [:]"] }
            return ["    let \(name): [String: Any] = ["] + entries.map { "        " + $0 + "," } + ["    ]"]
        }

        /// `key as String: value` entries for one side of a call.
        static func dictionary(_ spec: ItemSpec, setup: inout [String], name: String) -> [String] {
            var out: [String] = []
            if let c = spec.itemClass { out.append("kSecClass as String: \(c.constantName)") }
            for e in spec.attributes {
                out.append("\(e.attribute.constantName) as String: \(value(e.attribute, e.value))")
            }
            if let g = spec.accessGroup { out.append("kSecAttrAccessGroup as String: \(literal(g))") }
            if let a = spec.accessibility { out.append("kSecAttrAccessible as String: \(a.constantName)") }
            if let ac = spec.accessControl {
                let flags = ac.flags.map { ".\(flagName($0))" } + (ac.flags.count > 1 ? [".\(ac.combinator.rawValue)"] : [])
                setup.append("guard let \(name) = SecAccessControlCreateWithFlags(nil, \(ac.protection.constantName), [\(flags.joined(separator: ", "))], nil) else {")
                setup.append("    Issue.record(\"SecAccessControlCreateWithFlags failed\")")
                setup.append("    return")
                setup.append("}")
                out.append("kSecAttrAccessControl as String: \(name)")
            }
            if let s = spec.synchronizable {
                switch s {
                case .yes: out.append("kSecAttrSynchronizable as String: true")
                case .no: out.append("kSecAttrSynchronizable as String: false")
                case .any: out.append("kSecAttrSynchronizable as String: kSecAttrSynchronizableAny")
                }
            }
            if let d = spec.data { out.append("kSecValueData as String: Data(\(literal(d)).utf8)") }
            if let dp = spec.useDataProtectionKeychain { out.append("kSecUseDataProtectionKeychain as String: \(dp)") }
            if let ui = spec.authUI {
                let constant = switch ui {
                case .allow: "kSecUseAuthenticationUIAllow"
                case .fail: "kSecUseAuthenticationUIFail"
                case .skip: "kSecUseAuthenticationUISkip"
                }
                out.append("kSecUseAuthenticationUI as String: \(constant)")
            }
            if let limit = spec.limit {
                switch limit {
                case .one: out.append("kSecMatchLimit as String: kSecMatchLimitOne")
                case .all: out.append("kSecMatchLimit as String: kSecMatchLimitAll")
                case .count(let n): out.append("kSecMatchLimit as String: \(n)")
                // Only the SecItem-shaped API makes one: a number below -1.
                case .firstOnly: out.append("kSecMatchLimit as String: -2")
                }
            }
            let kinds: [(ReturnKinds, String)] = [(.data, "kSecReturnData"), (.attributes, "kSecReturnAttributes"),
                                                  (.reference, "kSecReturnRef"), (.persistentReference, "kSecReturnPersistentRef")]
            for (kind, key) in kinds where spec.returns.contains(kind) { out.append("\(key) as String: true") }
            return out
        }

        static func flagName(_ f: AccessControl.Flag) -> String {
            switch f {
            case .userPresence: "userPresence"
            case .biometryAny: "biometryAny"
            case .biometryCurrentSet: "biometryCurrentSet"
            case .devicePasscode: "devicePasscode"
            case .applicationPassword: "applicationPassword"
            }
        }

        /// Attributes the Security framework types as CFData.
        static let dataAttributes: Set<ItemAttribute> = [.generic, .issuer, .serialNumber, .publicKeyHash,
                                                          .applicationLabel, .applicationTag]

        static func value(_ a: ItemAttribute, _ v: AttributeValue) -> String {
            switch v {
            case .integer(let i): return String(i)
            case .string(let text):
                let s = text.string
                if case .enumerated(let values) = a.valueKind, let e = values.first(where: { $0.short == s }) {
                    return e.constant
                }
                return dataAttributes.contains(a) ? "Data(\(literal(s)).utf8)" : literal(s)
            }
        }

        /// A Swift string literal.
        static func literal(_ s: String) -> String {
            var out = "\""
            for u in s.unicodeScalars {
                switch u {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case "\r": out += "\\r"
                default:
                    // Controls, separators and direction changes as escapes:
                    // the literal reads as what it holds.
                    out += visible(u)
                }
            }
            return out + "\""
        }

        /// A scalar as it may stand in generated source: control characters
        /// (a CR ends a `//` comment), line and paragraph separators and
        /// bidirectional controls (Trojan Source) as `\u{…}`, the rest as is.
        static func visible(_ u: Unicode.Scalar) -> String {
            breaksOrHides(u) ? "\\u{\(String(u.value, radix: 16))}" : String(u)
        }

        /// One line of generated source: whatever a name, path or comment
        /// brought in, it stays one line and shows every invisible character.
        static func visibleLine(_ line: String) -> String {
            line.unicodeScalars.map(visible).joined()
        }

        static func platformName(_ p: Platform) -> String {
            let family = switch p.family {
            case .ios: "iOS"
            case .macos: "macOS"
            case .catalyst: "Mac Catalyst"
            case .watchos: "watchOS"
            }
            return "\(family) \(p.version)"
        }

        func entitlementLines() -> [String] {
            var lines = ["// Entitlements each target needs (sign the test host as that target to run its calls):"]
            for a in world.apps {
                lines.append("//   \(a.name) (\(a.bundleID), \(a.kind.rawValue)):")
                guard !a.isUnsigned else {
                    lines.append("//     none: unsigned, so every call fails with errSecMissingEntitlement")
                    continue
                }
                if let appID = a.appID { lines.append("//     application-identifier: \(appID)") }
                lines.append("//     keychain-access-groups: " + (a.keychainAccessGroups.isEmpty ? "(none)" : a.keychainAccessGroups.joined(separator: ", ")))
                lines.append("//     com.apple.security.application-groups: " + (a.applicationGroups.isEmpty ? "(none)" : a.applicationGroups.joined(separator: ", ")))
                lines.append("//     access groups, in order: " + a.accessGroups.joined(separator: ", "))
            }
            // Groups come from entitlements files too: any text at all.
            return lines.map(Self.commentText)
        }

        func render() -> String {
            let suite = SwiftExporter.suiteName(for: scriptName)
            let base = scriptName.split(separator: "/").last.map(String.init) ?? scriptName
            var out: [String] = [
                "// Generated by `kcs export --swift \(Self.commentText(base))`: edit the scenario, not this file.",
                "//",
                "// The statuses are the ones the kcs model predicts for \(Self.platformName(world.platform)).",
                "// Each call runs in the target that makes it. Set KCS_TARGET to the name of",
                "// the target this test host is signed as: calls of other targets are skipped.",
                "// Without KCS_TARGET every call runs in this one host. The test first deletes",
                "// what the host can see, so each run starts from an empty keychain as kcs does.",
                "//",
            ]
            out += entitlementLines()
            out += [
                "",
                "import Foundation",
                "import Security",
                "import Testing",
                "",
                "@Suite struct \(suite) {",
                "    /// The target this host is signed as; nil runs every call.",
                "    let target = ProcessInfo.processInfo.environment[\"KCS_TARGET\"]",
                "",
                "    func runs(_ app: String) -> Bool { target == nil || target == app }",
                "",
                "    /// The first returned item's data as text, whatever shape the result has.",
                "    static func firstData(_ result: CFTypeRef?) -> String? {",
                "        var value: Any? = result",
                "        if let array = value as? [Any] { value = array.first }",
                "        if let attributes = value as? [String: Any] { value = attributes[kSecValueData as String] }",
                "        guard let data = value as? Data else { return nil }",
                "        return String(decoding: data, as: UTF8.self)",
                "    }",
                "",
                "    /// How many items a result holds.",
                "    static func count(_ result: CFTypeRef?) -> Int {",
                "        guard let result else { return 0 }",
                "        return (result as? [Any])?.count ?? 1",
                "    }",
                "",
                "    /// Deletes every item this host can see, synchronizable or not.",
                "    static func removeAll() {",
                "        for itemClass in [kSecClassGenericPassword, kSecClassInternetPassword, kSecClassCertificate, kSecClassKey] {",
                "            let query: [String: Any] = [",
                "                kSecClass as String: itemClass,",
                "                kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,",
                "            ]",
                "            _ = SecItemDelete(query as CFDictionary)",
                "        }",
                "    }",
                "",
                "    @Test func scenario() {",
                "        Self.removeAll()",
                "",
            ]
            var lines = body
            while lines.first == "" { lines.removeFirst() }
            out += lines.map { $0.isEmpty ? "" : "        " + $0 }
            out += ["    }", "}", ""]
            return out.map(Self.visibleLine).joined(separator: "\n")
        }
    }
}

extension Substring {
    var trimmingCharacters: String {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s.removeLast() }
        return String(s)
    }
}
