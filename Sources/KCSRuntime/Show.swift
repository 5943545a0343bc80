import KCSSyntax
import KeychainEngine

/// Renders rows as a left-aligned text table with a header rule.
package struct TextTable {
    package var header: [String]
    package var rows: [[String]] = []

    /// Characters a cell shows; a longer value ends in `…`. Every row is
    /// padded to its columns' widest cell, so one long value made every
    /// row as long: a 241 KB script printed 200 MB past the output limit
    /// (found by adversarial testing). `show app` prints a name whole.
    package static let maxCellWidth = 100

    /// A cell as the table shows it: one line (a line break or a tab in a
    /// value, as data may hold, is written as an escape, like the controls
    /// the printer escapes anyway), at most ``maxCellWidth`` characters.
    package static func shown(_ value: String) -> String {
        let e = TerminalText.escaped(value)
        return e.count <= maxCellWidth ? e : String(e.prefix(maxCellWidth - 1)) + "…"
    }

    /// The table as it prints: its cells as shown and its columns' widths,
    /// worked out once for both the byte count and the text.
    package struct LaidOut {
        let header: [String]
        let rows: [[String]]
        let widths: [Int]

        /// The bytes ``text`` writes, worked out before it writes them, so
        /// a caller can refuse a table over its output limit first.
        package var bytes: Int {
            // Each line: its cells padded to their column (all but the last),
            // two spaces between, a newline; an upper bound, as trailing
            // spaces are trimmed.
            func bytes(_ cells: [String]) -> Int {
                var n = 2 * max(0, cells.count - 1) + 1
                for (i, c) in cells.enumerated() {
                    n += c.utf8.count
                    if i < cells.count - 1, i < widths.count { n += max(0, widths[i] - c.count) }
                }
                return n
            }
            return bytes(header) + bytes(TextTable.rule(widths)) + rows.reduce(0) { $0 + bytes($1) }
        }

        package var text: String {
            var out = TextTable.line(header, widths) + "\n"
            out += TextTable.line(TextTable.rule(widths), widths) + "\n"
            for row in rows { out += TextTable.line(row, widths) + "\n" }
            return out
        }
    }

    /// One line of a table: each cell but the last padded to its column's
    /// width, two spaces between, no trailing space.
    package static func line(_ cells: [String], _ widths: [Int]) -> String {
        cells.enumerated().map { i, c in
            i == cells.count - 1 ? c : c + String(repeating: " ", count: widths[i] - c.count)
        }.joined(separator: "  ").trimmingTrailingSpace
    }

    /// The rule under the header.
    package static func rule(_ widths: [Int]) -> [String] { widths.map { String(repeating: "-", count: $0) } }

    package var laidOut: LaidOut {
        let header = self.header.map(Self.shown)
        let rows = self.rows.map { $0.map(Self.shown) }
        var widths = header.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        return LaidOut(header: header, rows: rows, widths: widths)
    }

    /// The bytes ``render()`` writes (``LaidOut/bytes``).
    package var renderedBytes: Int { laidOut.bytes }

    package func render() -> String { laidOut.text }
}

extension Session {
    /// The text of `show apps|items|matrix` and `show app APP`.
    /// With a `budget`, loops over the keychain check the time and output
    /// limits on every row, so one `show matrix` cannot outlast them.
    package func show(_ target: ShowTarget, _ device: DeviceHandle, _ file: SourceFile, _ range: SourceRange = SourceRange(0, 0),
              budget: RunBudget? = nil) throws(Diagnostic) -> String {
        var pending = 0
        func row(_ cells: [String]) throws(Diagnostic) -> [String] {
            pending += cells.reduce(2) { $0 + min($1.utf8.count, 4 * TextTable.maxCellWidth) + 2 }
            try budget?.checkInside(pending: pending, file, range)
            return cells
        }
        // The table as it prints, padded, counted before it is written.
        func rendered(_ t: TextTable) throws(Diagnostic) -> String {
            let table = t.laidOut
            if let budget {
                try budget.checkInside(pending: table.bytes, file, range)
            }
            return table.text
        }
        switch target {
        case .apps:
            var t = TextTable(header: ["app", "bundle ID", "team", "kind", "default group", "access groups"])
            for (h, a) in zip(world.appHandles, world.apps) {
                t.rows.append(try row([a.name, a.bundleID, a.teamID ?? "none", a.kind.rawValue,
                                       world.defaultGroup(of: h, on: device) ?? "-",
                                       String(world.accessGroups(of: h, on: device).count)]))
            }
            return world.apps.isEmpty ? "no apps declared\n" : try rendered(t)
        case .app(let name):
            let handle = try resolveApp(name, file)
            let a = world[handle]
            // Each line is one line: names and groups from the script are
            // written with their line breaks and tabs escaped.
            func e(_ s: String) -> String { TerminalText.escaped(s) }
            func list(_ l: [String]) -> String { l.map(e).joined(separator: ", ") }
            var out = "\(e(a.name)): \(e(a.bundleID)), \(a.kind.rawValue), team \(a.teamID.map(e) ?? "none (unsigned)")\n"
            out += "app ID: \(a.appID.map(e) ?? "none")\n"
            if a.signing != .provisioned { out += "signing: \(a.signing.rawValue)\n" }
            out += "keychain-access-groups: [\(list(a.keychainAccessGroups))]\n"
            if !a.associatedApplicationIdentifiers.isEmpty {
                out += "associated-application-identifier: [\(list(a.associatedApplicationIdentifiers))]\n"
            }
            out += "application-groups: [\(list(a.applicationGroups))]\n"
            // As the device the statement is aimed at builds the list.
            let defaultGroup = world.defaultGroup(of: handle, on: device)
            out += "access groups, in order:\n"
            let groups = world.accessGroups(of: handle, on: device)
            for (i, g) in groups.enumerated() {
                out += "  \(i). \(e(g))\(i == 0 && g == defaultGroup ? "  (default)" : "")\n"
            }
            // iOS 10-13 give a process without entitlements the token group
            // alone (World.unentitledTokenGroupCall; QA s21, Q05).
            let platform = world.platform(of: device)
            if groups.isEmpty, a.isUnsigned, platform.listsTokenGroupForUnentitled {
                out += "  0. \(AppTarget.tokenGroup)  (read-only: \(Explainer.tokenEra(platform)) give it to a process without entitlements)\n"
            }
            return out
        case .items:
            let items = shownItems(device)
            guard !items.isEmpty else { return "no items on \(world[device].label)\n" }
            var t = TextTable(header: ["#", "class", "group", "key", "sync", "accessible", "data"])
            for (n, (_, item)) in items.enumerated() {
                t.rows.append(try row([String(n + 1), item.itemClass.rawValue, world.groupName(item.group), keyText(item),
                                       item.synchronizable ? "yes" : "no", item.accessibility.rawValue,
                                       item.data.map { "\"\($0)\"" } ?? "-"]))
            }
            return try rendered(t)
        case .matrix:
            let items = shownItems(device)
            guard !items.isEmpty, !world.apps.isEmpty else { return "nothing to show: no items or no apps\n" }
            // Each cell a byte, then the text row by row as the table lays
            // it out: items × apps held as a table of strings took six
            // times the output (a 600 KB script, 2.5 GB; found by adversarial testing).
            let apps = world.appHandles
            // Each row holds at least a byte and a space per app: a table
            // past the output limit is refused before its cells are worked
            // out (8,000 × 8,000 took 37 s to be refused; adversarial run 24, F11).
            try budget?.checkInside(pending: items.count * apps.count * 2, file, range)
            let words = ["-", "read", "prompt"]
            var codes = [UInt8](repeating: 0, count: items.count * apps.count)
            var columnWidths = [Int](repeating: 0, count: apps.count)
            for (n, (inFileKeychain, item)) in items.enumerated() {
                for (k, app) in apps.enumerated() {
                    let code: UInt8
                    if inFileKeychain {
                        // The file-based keychain asks the user when another app reads.
                        code = !world.isInstalled(app, on: device) ? 0 : world.fileKeychainReadsUnasked(app, item, on: device) ? 1 : 2
                    } else {
                        code = world.canRead(item, as: app, on: device) ? 1 : 0
                    }
                    codes[n * apps.count + k] = code
                    columnWidths[k] = max(columnWidths[k], words[Int(code)].count)
                    // A row is as long as the apps are many: check inside it too.
                    if k % 1024 == 1023 { try budget?.checkInside(pending: 0, file, range) }
                }
                // And on every row, as docs/limits.md says.
                try budget?.checkInside(pending: 0, file, range)
            }
            let labels = items.enumerated().map { n, entry in
                (TextTable.shown("#\(n + 1) \(entry.item.itemClass.rawValue) \(keyText(entry.item))"),
                 TextTable.shown(world.groupName(entry.item.group)))
            }
            let header = ["item", "group"] + world.apps.map { TextTable.shown($0.name) }
            var widths = [labels.reduce(4) { max($0, $1.0.count) }, labels.reduce(5) { max($0, $1.1.count) }]
            widths += zip(header.dropFirst(2), columnWidths).map { max($0.count, $1) }
            var out = TextTable.line(header, widths) + "\n" + TextTable.line(TextTable.rule(widths), widths) + "\n"
            for (n, (label, group)) in labels.enumerated() {
                out += TextTable.line([label, group] + codes[n * apps.count..<(n + 1) * apps.count].map { words[Int($0)] }, widths) + "\n"
                try budget?.checkInside(pending: out.utf8.count, file, range)
            }
            return out
        }
    }

    /// The items `show items`, `show matrix` and `kcs matrix` list, in the
    /// order they number them: the data-protection keychain's, then (on
    /// macOS) the file-based keychain's.
    package func shownItems(_ device: DeviceHandle) -> [(inFileKeychain: Bool, item: StoredItem)] {
        world[device].keychain.allItems.map { (false, $0.1) } + world[device].fileKeychain.allItems.map { (true, $0.1) }
    }

    private func keyText(_ item: StoredItem) -> String {
        item.itemClass.primaryKeyAttributes.compactMap { a in
            item.attributes[a].map { "\(Vocabulary.name(of: a))=\($0)" }
        }.joined(separator: " ")
    }
}
