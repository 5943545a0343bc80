import KeychainEngine

/// How `kcs matrix` prints the apps × items table.
public enum MatrixFormat: String, Sendable, Hashable, CaseIterable {
    /// As `show matrix` prints it.
    case text
    /// A Markdown table for documentation: each cell says read, or why not.
    case markdown
}

extension Session {
    /// The apps × items table of `device` after a run: who can read which
    /// item and, in Markdown, why not.
    public func matrix(format: MatrixFormat, device name: String? = nil) -> Result<String, Diagnostic> {
        matrix(format: format, device: name, budget: nil)
    }

    /// The same, drawn within `budget` (the run's time and output limits).
    package func matrix(format: MatrixFormat, device name: String?, budget: RunBudget?) -> Result<String, Diagnostic> {
        var device = DeviceHandle.this
        if let name {
            guard let d = world.device(named: name) else {
                let known = world.devices.map(\.name)
                return .failure(Diagnostic(.unknownDevice, "unknown device '\(name)'",
                                           hint: Suggest.hint(for: name, in: known) ?? Suggest.listing("devices", known)))
            }
            device = d
        }
        let file = SourceFile(name: "<matrix>", bytes: [])
        do throws(Diagnostic) {
            switch format {
            case .text: return .success(try show(.matrix, device, file, budget: budget))
            case .markdown: return .success(try markdownMatrix(device, budget, file))
            }
        } catch {
            // Drawn from the world, not from a line: no place to point at.
            return .failure(Diagnostic(error.code, error.message.replacingOccurrences(of: "; nothing after this line ran", with: " while drawing the matrix"),
                                       hint: error.hint))
        }
    }

    private func markdownMatrix(_ device: DeviceHandle, _ budget: RunBudget?, _ file: SourceFile) throws(Diagnostic) -> String {
        let items = shownItems(device)
        guard !items.isEmpty, !world.apps.isEmpty else { return "_No items or no apps._\n" }
        // A cell is one line of a table row: a line break would end the
        // row (and start a heading or HTML), a `|` a new cell, a control
        // byte drive the terminal, and Markdown or HTML in a name would
        // become formatting (found by adversarial testing: `<script>`,
        // `**`, a backslash lost before `|`). Line breaks and controls are
        // written `\u{…}`. What the script names (apps, items, groups) is a
        // code span: GitHub links `@user`, `#1`, `https://…` and `www.…`,
        // and renders `:emoji:` and `$math$`, in text but not in code
        // (found by adversarial testing). Only a `|` is escaped in a span
        // (a table's rule, which holds inside code too); kcs's own words
        // are text with Markdown's punctuation escaped.
        func code(_ s: String) -> String {
            // GitHub reads a backslash and any punctuation as a pair when it
            // splits a row, and takes the backslash off `\|` alone: a `|`
            // after a backslash cannot be written in a span, so it is `\u{7C}`.
            var text = ""
            for c in TerminalText.escaped(s) {
                if c == "|" { text += text.last == "\\" ? "\\u{7C}" : "\\|" } else { text.append(c) }
            }
            var longest = 0, run = 0
            for c in text { run = c == "`" ? run + 1 : 0; longest = max(longest, run) }
            let fence = String(repeating: "`", count: longest + 1)
            let pad = text.hasPrefix("`") || text.hasSuffix("`") || text.hasPrefix(" ") && text.hasSuffix(" ") ? " " : ""
            return text.isEmpty ? "" : fence + pad + text + pad + fence
        }
        func cell(_ s: String) -> String {
            var out = ""
            for c in TerminalText.escaped(s) {
                switch c {
                case "\\", "`", "*", "_", "[", "]", "|", "~": out += "\\" + String(c)
                case "<": out += "&lt;"
                case "&": out += "&amp;"
                default: out.append(c)
                }
            }
            return out
        }
        var out = "| item | group | " + world.apps.map { code($0.name) }.joined(separator: " | ") + " |\n"
        out += "|---|---|" + String(repeating: "---|", count: world.apps.count) + "\n"
        for (n, (inFileKeychain, item)) in items.enumerated() {
            let group = world.groupName(item.group)
            var row = ["\(n + 1). " + code(Self.keyDescription(item)), code(group)]
            for handle in world.appHandles {
                row.append(verdict(item, inFileKeychain, handle, device, text: cell, name: code))
            }
            out += "| " + row.joined(separator: " | ") + " |\n"
            try budget?.checkInside(pending: out.utf8.count, file, SourceRange(0, 0))
        }
        return out
    }

    static func keyDescription(_ item: StoredItem) -> String {
        let text = Explainer.describe(item, groupName: "")
        return text.hasSuffix(" in ") ? String(text.dropLast(4)) : text
    }

    /// "read", or "no: why": kcs's words through `text`, an app's name
    /// through `name` (a code span in Markdown).
    private func verdict(_ item: StoredItem, _ inFileKeychain: Bool, _ handle: AppHandle, _ device: DeviceHandle,
                         text: (String) -> String, name: (String) -> String) -> String {
        let app = world[handle]
        let state = world[device].state
        switch world.callBarrier(handle, on: device) {
        case .notInstalled: return text("no: not installed")
        case .runsNoAppClips: return text("no: App Clips run from iOS 14")
        case nil: break
        }
        if inFileKeychain {
            if world.fileKeychainReadsUnasked(handle, item, on: device) {
                return text(item.owner == handle ? "read (owner)" : item.itemClass == .certificate ? "read (no access list)" : "read (always allowed)")
            }
            if world.fileKeychainNames(handle, item, on: device) {
                return text(world.fileKeychainLists(handle, item, on: device) ? "prompt: another team's partition" : "prompt: re-signed since")
            }
            return text("prompt: owned by ") + (item.owner.map { name(world[$0].name) } ?? text("another app"))
        }
        if app.isUnsigned { return text("no: unsigned") }
        if world.canRead(item, as: handle, on: device) {
            return text(item.accessControl?.requiresAuthentication == true ? "read after a prompt" : "read")
        }
        if !app.accessGroups.contains(world.groupName(item.group)) { return text("no: group not in its list") }
        if !state.isAvailable(item.accessibility) { return text("no: locked (\(item.accessibility.rawValue))") }
        return text("no")
    }
}

extension BatchRunner {
    /// `kcs matrix FILE`: runs the script, then draws the matrix of `device`.
    /// Errors are reported as for `run`; the table is drawn unless the
    /// script could not run at all.
    public func matrix(path: String, format: MatrixFormat, device: String? = nil) -> FileOutcome {
        var outcome = FileOutcome(path: path)
        let file: SourceFile
        do { file = try loader.read(loader.resolve(path, relativeTo: nil)) } catch {
            outcome.diagnostics.append(Diagnostic(error.code, error.message(for: path)))
            outcome.verdict = .missingInput
            return outcome
        }
        var session = Session()
        // One deadline and one output limit for the run and the table.
        var options = RunOptions(limits: limits)
        options.deadline = RunBudget.deadline(for: limits)
        let report = session.run(file: file, loader: loader, options: options) { event in
            if case .diagnostic(let d) = event { outcome.diagnostics.append(d) }
        }
        outcome.verdict = report.verdict
        if !report.fileNotFound && !report.hasSyntaxErrors {
            let budget = RunBudget(limits, deadline: options.deadline, outputSoFar: report.outputBytes)
            switch session.matrix(format: format, device: device, budget: budget) {
            case .success(let text): outcome.output = text
            case .failure(let d):
                // The table is the file's, though no line of it drew it: the
                // error names the file (it named none; found by adversarial testing).
                outcome.diagnostics.append(d.file == nil
                    ? Diagnostic(d.code, d.message, file: file, severity: d.severity, hint: d.hint, notes: d.notes) : d)
                outcome.verdict = max(outcome.verdict, .failed)
            }
        }
        // As for `kcs run`: a screenful of diagnostics and a count of the rest.
        capDiagnostics(&outcome)
        return outcome
    }
}
