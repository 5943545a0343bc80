import KCSSyntax
import KeychainEngine

/// Expectations: `expect` checked against the last call or an app's access groups, with an explanation on failure.
extension Session {

    func lastCall(_ file: SourceFile, _ range: SourceRange) throws(Diagnostic) -> (LastCall, CallResult) {
        guard let last else {
            if let failed = lastFailedCall {
                throw Diagnostic(.callDidNotRun, "cannot check: the call before it did not run", file: file, range: range,
                                 notes: [DiagnosticNote("the call that stopped with an error", file: failed.file, range: failed.range)])
            }
            throw Diagnostic(.noPreviousCall, "no call to check: no call has run before this expectation",
                             file: file, range: range, hint: "an expectation about a call follows the call it checks")
        }
        guard !last.stoppedAtPrompt else {
            throw Diagnostic(.callDidNotRun, "cannot check: the call before it did not run", file: file, range: range,
                             notes: [DiagnosticNote("the call that stopped with an error", file: last.file, range: last.range)])
        }
        return (last, last.result)
    }

    mutating func failure(_ message: String, _ file: SourceFile, _ range: SourceRange, _ last: LastCall?,
                          hint: String? = nil) -> Diagnostic {
        var notes: [DiagnosticNote] = []
        if let last {
            if let known = explained, known.call == last.serial {
                notes = known.notes
            } else {
                notes.append(DiagnosticNote("the call checked", file: last.file, range: last.range))
                notes += Explainer(world: world).explain(last).map { DiagnosticNote($0) }
                explained = (last.serial, notes)
            }
        }
        return Diagnostic(.expectationFailed, message, file: file, range: range, hint: hint, notes: notes)
    }

    mutating func check(_ s: Statement, _ file: SourceFile) throws(Diagnostic) {
        switch s.kind {
        case .expectStatus(let wanted):
            let (last, result) = try lastCall(file, s.range)
            guard wanted.contains(where: { $0.status == result.status }) else {
                let names = wanted.map(\.status.description).joined(separator: " or ")
                throw failure("expected status \(names), got \(result.status.description)", file, s.range, last,
                              hint: Explainer.hint(for: result, last: last, world: world,
                                                    declaredWithoutTeam: appsWithoutTeam.contains(world[last.app].name)))
            }
        case .expectCount(let n):
            let (last, result) = try lastCall(file, s.range)
            guard result.count == n else {
                throw failure("expected count \(n), got \(result.count) (status \(result.status.description))", file, s.range, last)
            }
        case .expectData(let data):
            let (last, returned) = try firstReturnedData("data \"\(data)\"", file, s.range)
            guard returned == data else {
                throw failure("expected data \"\(data)\", got \(returned.map { "\"\($0)\"" } ?? "no data (the result has no kSecValueData)")",
                              file, s.range, last,
                              hint: returned == nil ? "the item was stored without data (an add without data=)" : nil)
            }
        case .expectNoData:
            let (last, result) = try lastCall(file, s.range)
            if result.returns.contains(.attributes), !carriesData(last, result) {
                // A metadata query (return=attributes without data) answers
                // a dictionary without kSecValueData: that is "no data"
                // (KeychainCryptoTests testMetadataQueriesDoNotGetSecret).
                guard result.items.first != nil else {
                    throw failure("expected no data, but the call returned nothing (status \(result.status.description))",
                                  file, s.range, last)
                }
            } else if Self.returnedNothingForMissingData(result) {
                // Success with a nil result: data alone of items stored without data.
            } else if let returned = try firstReturnedData("no data", file, s.range).1 {
                throw failure("expected no data, got \"\(returned)\"", file, s.range, last,
                              hint: returned.isEmpty ? "the item holds empty data (data=\"\"): write expect data \"\"" : nil)
            }
        case .expectPersistentRef(let name):
            let (last, result) = try lastCall(file, s.range)
            let kept = try named(name, in: world.persistentRefs, \.persistentRefs, "persistent reference", "kept", file,
                                 hint: "keep one first: 'keep persistent-ref as \(name.text)' after a call with return=persistent-ref")
            guard let first = result.items.first else {
                throw failure("expected the item \(name.text) refers to, but the call added or found none (status \(result.status.description))",
                              file, s.range, last)
            }
            let actual = first.persistentRef(on: world.platform(of: last.device))
            let sameRow = kept.itemClass == actual.itemClass && kept.inFileKeychain == actual.inFileKeychain
                && (kept.row == actual.row || {
                    if case .rowID(let id) = kept.row { return id == first.item.rowID }
                    return false
                }())
            guard sameRow else {
                throw failure("expected the item \(name.text) refers to (\(kept)), got \(actual)", file, s.range, last)
            }
        case .expectGroup(let group):
            let (last, result) = try lastCall(file, s.range)
            guard let first = result.items.first else {
                throw failure("expected an item in group \(group.text), but the call added or found none (status \(result.status.description))",
                              file, s.range, last)
            }
            guard first.groupName == group.text else {
                throw failure("expected the item in group \(group.text), it is in \(first.groupName)", file, s.range, last,
                              hint: Suggest.hint(for: group.text, in: [first.groupName]))
            }
        case .expectItem(let spec, let args):
            let (last, result) = try lastCall(file, s.range)
            guard let first = result.items.first else {
                throw failure("expected an item, but the call added or found none (status \(result.status.description))",
                              file, s.range, last)
            }
            let mismatches = Self.mismatches(first, spec, args)
            guard mismatches.isEmpty else {
                throw failure("the item differs: " + mismatches.joined(separator: "; "), file, s.range, last)
            }
        case .expectGroups(let appName, let groups):
            let handle = try resolveApp(appName, file)
            let app = world[handle]
            let wanted = groups.map { AppTarget.expandEntitlement($0.text, teamID: app.teamID, appIDPrefix: app.appIDPrefix) }
            let actual = world.accessGroups(of: handle, on: try resolveDevice(s.device, file))
            guard actual == wanted else {
                throw Diagnostic(.expectationFailed, "\(app.name)'s access groups differ", file: file, range: s.range,
                                 notes: [DiagnosticNote("expected: [\(wanted.joined(separator: ", "))]"),
                                         DiagnosticNote("actual:   [\(actual.joined(separator: ", "))]"),
                                         DiagnosticNote("the list is keychain-access-groups, then the app ID, then application groups")])
            }
        case .expectDefaultGroup(let appName, let group):
            let handle = try resolveApp(appName, file)
            let app = world[handle]
            let device = try resolveDevice(s.device, file)
            let wanted = AppTarget.expandEntitlement(group.text, teamID: app.teamID, appIDPrefix: app.appIDPrefix)
            let actual = world.defaultGroup(of: handle, on: device)
            guard actual == wanted else {
                throw Diagnostic(.expectationFailed,
                                 "expected \(app.name)'s default group \(wanted), it is \(actual ?? "none (unsigned)")",
                                 file: file, range: s.range,
                                 notes: [DiagnosticNote("access groups: [\(world.accessGroups(of: handle, on: device).joined(separator: ", "))]"),
                                         DiagnosticNote("the default is element 0: the first keychain access group, else the app ID; an app group only when there is neither")])
            }
        default:
            break
        }
    }

    /// The data the last call returned for its first item, as a device
    /// returns it; nil for none. A dictionary result of an item stored
    /// without data has no kSecValueData (SecItemDb.c `handle_result`); an
    /// add's data alone is securityd's empty CFData for it (`handle_result`,
    /// line 484: SecItemAdd asks for data alone), while a find asks for the
    /// attributes too and gets nothing (``returnedNothingForMissingData(_:)``).
    mutating func firstReturnedData(_ wanted: String, _ file: SourceFile,
                           _ range: SourceRange) throws(Diagnostic) -> (LastCall, String?) {
        let (last, result) = try lastCall(file, range)
        guard carriesData(last, result) else {
            throw failure("expected \(wanted), but the call did not ask for data", file, range, last,
                          hint: "add return=data to the call")
        }
        guard let first = result.items.first else {
            if Self.returnedNothingForMissingData(result) {
                throw failure("expected \(wanted), but the call returned no result: return=data alone gives nothing for "
                              + "an item stored without data", file, range, last,
                              hint: "the status is errSecSuccess and the result nil; store data= with the item")
            }
            throw failure("expected \(wanted), but the call returned nothing (status \(result.status.description))",
                          file, range, last)
        }
        return (last, first.item.data ?? (result.returns == .data ? "" : nil))
    }

    /// Whether the last call's result hands back data: asked for, or kept
    /// with a reference the client could not make (Platform.resultCarriesData).
    func carriesData(_ last: LastCall, _ result: CallResult) -> Bool {
        if result.returns.contains(.data) { return true }
        guard let first = result.items.first else { return false }
        return world.platform(of: last.device).resultCarriesData(result.returns, of: first)
    }

    /// A find that succeeded with nothing to hand back: data alone, of
    /// items stored without data.
    static func returnedNothingForMissingData(_ result: CallResult) -> Bool {
        guard case .storedWithoutData = result.reason else { return false }
        return result.items.isEmpty
    }

    package static func mismatches(_ found: FoundItem, _ spec: ItemSpec, _ args: [CallArgument]) -> [String] {
        var out: [String] = []
        let item = found.item
        for arg in args {
            switch arg.key {
            case .attribute(let a):
                guard let want = spec.attributes[a] else { continue }
                var have = item.comparedValue(a)
                if let key = found.identityKey, !a.applies(to: .certificate) { have = key.item.comparedValue(a) }
                if have != want { out.append("\(arg.key.name) is \(have.map(\.description) ?? "not set"), expected \(want)") }
            case .group:
                if let g = spec.accessGroup, g != found.groupName { out.append("group is \(found.groupName), expected \(g)") }
            case .accessible:
                if let a = spec.accessibility, a != item.accessibility {
                    out.append("accessible is \(item.accessibility.rawValue), expected \(a.rawValue)")
                }
            case .sync:
                if let s = spec.synchronizable, s != .any, (s == .yes) != item.synchronizable {
                    out.append("sync is \(item.synchronizable), expected \(s == .yes)")
                }
            case .data:
                if let d = spec.data, d != item.data { out.append("data is \(item.data.map { "\"\($0)\"" } ?? "absent"), expected \"\(d)\"") }
            case .accessControl:
                if let ac = spec.accessControl, ac != item.accessControl {
                    out.append("access-control is \(item.accessControl?.description ?? "none"), expected \(ac)")
                }
            case .dataProtection, .authUI, .limit, .returns, .returnFlag, .persistentRef, .context:
                // ``ArgumentKey/isQueryOption``, which completion reads.
                out.append("\(arg.key.name) is a query option, not an item attribute")
            }
        }
        return out
    }
}
