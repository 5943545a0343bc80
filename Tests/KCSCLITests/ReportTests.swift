import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import KCSLanguage
import KCSSyntax
import Testing

/// Issue 13: reports that cannot mislead, and the command line's
/// conventions, checked on the built binary.
@Suite(.serialized)
struct ReportTests {
    func temp(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return dir
    }

    /// `N passed, N failed[, N error(s)][, N skipped]`, parsed strictly.
    struct Summary: Equatable {
        var passed = 0, failed = 0, errors = 0, skipped = 0

        init(passed: Int, failed: Int, errors: Int, skipped: Int) {
            (self.passed, self.failed, self.errors, self.skipped) = (passed, failed, errors, skipped)
        }

        init?(line: String) {
            let parts = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            func count(_ part: String, _ words: [String]) -> Int? {
                let w = part.split(separator: " ")
                guard w.count == 2, let n = Int(w[0]), words.contains(String(w[1])) else { return nil }
                return n
            }
            guard parts.count >= 2, let p = count(parts[0], ["passed"]), let f = count(parts[1], ["failed"]) else { return nil }
            passed = p
            failed = f
            for part in parts.dropFirst(2) {
                if let e = count(part, ["error", "errors"]) { errors = e } else if let s = count(part, ["skipped"]) { skipped = s } else { return nil }
            }
        }
    }

    static func lastLine(_ s: String) -> String {
        String(s.split(separator: "\n").last ?? "")
    }

    // MARK: Counts

    @Test func theClosingLineCountsRuntimeErrors() throws {
        let out = try BinaryRunner.run(["run", "Tests/Golden/runtime-errors.kcs"])
        #expect(out.status == 1)
        let summary = try #require(Summary(line: Self.lastLine(out.stdout)), "\(out.stdout)")
        #expect(summary.errors > 0, "a file with errors must not read 0 passed, 0 failed: \(out.stdout)")
        #expect(summary.errors == out.stderr.components(separatedBy: ": error: ").count - 1)
        // A syntax error is an error too.
        let syntax = try BinaryRunner.run(["run", "Tests/Golden/syntax-errors.kcs"])
        #expect(syntax.status == 65)
        #expect(try #require(Summary(line: Self.lastLine(syntax.stdout))).errors > 0)
    }

    /// One file of each kind of result: passed and failed expectations, a
    /// runtime error, a lint warning, an ignored block, an output block.
    let mixed: [String: String] = [
        "a.kcs": """
            team SKMME9E2Y8
            app com.example.A
            group com.example.Shared A
            as A add generic-password account="x" group=com.example.Shared
            expect status errSecMissingEntitlement
            as A add generic-password account="x"
            expect status errSecDuplicateItem
            as Nobody find generic-password
            """,
        "b.md": """
            # Page

            ```kcs
            team SKMME9E2Y8
            app com.example.B
            as B add generic-password account="y"
            expect status errSecSuccess
            ```

            ```output
            B add generic-password → errSecSuccess (0)
            ```

            ```kcs ignore
            not run
            ```

            """,
    ]

    @Test func everyFormatReportsTheSameCounts() throws {
        let dir = try temp(mixed)
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = ["a.kcs", "b.md"].map { dir.appendingPathComponent($0).path }
        let expected = Summary(passed: 3, failed: 1, errors: 1, skipped: 1)

        let text = try BinaryRunner.run(["check"] + files)
        #expect(text.status == 1)
        #expect(Summary(line: Self.lastLine(text.stdout)) == expected, "\(text.stdout)")
        #expect(Self.lastLine(text.stdout) == "3 passed, 1 failed, 1 error, 1 skipped")
        #expect(text.stderr.contains("[KCS501]"))

        // JSON: parsed, versioned, the same counts, the warning listed.
        let json = try BinaryRunner.run(["check", "--format", "json"] + files)
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == OutcomeFormat.jsonVersion)
        // The verdict the process exited with, by name.
        #expect(object["verdict"] as? String == "failed" && json.status == 1)
        let fromJSON = Summary(passed: object["passed"] as? Int ?? -1, failed: object["failed"] as? Int ?? -1,
                               errors: object["errors"] as? Int ?? -1, skipped: object["skipped"] as? Int ?? -1)
        #expect(fromJSON == expected)
        #expect(object["warnings"] as? Int == 1)
        #expect(object["summary"] as? String == Self.lastLine(text.stdout))
        let fileObjects = try #require(object["files"] as? [[String: Any]])
        let diagnostics = fileObjects.flatMap { $0["diagnostics"] as? [[String: Any]] ?? [] }
        #expect(diagnostics.contains { $0["code"] as? String == "KCS501" && $0["severity"] as? String == "warning" })

        // JUnit: well-formed XML, the same counts, the warning in system-err.
        let junit = try BinaryRunner.run(["check", "--format", "junit"] + files)
        #expect(junit.status == 1)
        let xml = JUnitReader(Data(junit.stdout.utf8))
        #expect(xml.error == nil, "not well-formed XML: \(String(describing: xml.error))")
        let root = try #require(xml.root)
        let tests = Int(root["tests"] ?? "") ?? -1, failures = Int(root["failures"] ?? "") ?? -1
        let errors = Int(root["errors"] ?? "") ?? -1, skipped = Int(root["skipped"] ?? "") ?? -1
        #expect(Summary(passed: tests - failures - errors - skipped, failed: failures, errors: errors, skipped: skipped) == expected)
        #expect(xml.testcases == tests)
        #expect(xml.skippedElements == expected.skipped)
        #expect(xml.systemErr.contains("[KCS501]"), "lint warnings reach JUnit")
        if let xmllint = BinaryRunner.tool("xmllint") {
            let path = dir.appendingPathComponent("report.xml")
            try junit.stdout.write(to: path, atomically: true, encoding: .utf8)
            #expect(try BinaryRunner.exec(xmllint, ["--noout", path.path]).status == 0)
        }

        // TAP: read by a TAP consumer (prove), the same counts, the warning as a comment.
        let tap = try BinaryRunner.run(["check", "--format", "tap"] + files)
        #expect(tap.status == 1)
        #expect(tap.stdout.contains("\n# warning: ") && tap.stdout.contains("[KCS501]"), "lint warnings reach TAP")
        let lines = tap.stdout.split(separator: "\n").map(String.init)
        let ok = lines.filter { $0.hasPrefix("ok ") && !$0.contains("# SKIP") }.count
        let skips = lines.filter { $0.hasPrefix("ok ") && $0.contains("# SKIP") }.count
        let notOK = lines.filter { $0.hasPrefix("not ok ") }.count
        #expect(ok == expected.passed && skips == expected.skipped && notOK == expected.failed + expected.errors)
        #expect(lines.first == "TAP version 13" && lines.last == "1..\(ok + skips + notOK)")
        let prove = try #require(BinaryRunner.tool("prove"), "prove (perl) is needed to read TAP")
        let tapFile = dir.appendingPathComponent("report.tap")
        try tap.stdout.write(to: tapFile, atomically: true, encoding: .utf8)
        let consumer = try BinaryRunner.exec(prove, ["-v", "-e", "cat", tapFile.path])
        #expect(consumer.output.contains("Tests: \(ok + skips + notOK) Failed: \(notOK)"), "\(consumer.output)")
        #expect(!consumer.output.contains("Parse errors"), "\(consumer.output)")
        #expect(consumer.status != 0)
    }

    /// A name that holds ESC, BEL or a right-to-left override is shown
    /// escaped in a message and a hint as in the notes, in JSON and TAP once
    /// decoded too: a consumer printing `jq -r .message` wrote the name's
    /// terminal sequences (adversarial 21, F1).
    @Test func messagesAndHintsDecodeToTheEscapedTextInEveryFormat() throws {
        let dir = try temp(["ctl.kcs": "team SKMME9E2Y8\napp com.a.A as \"A\\u{1B}[31m\\u{202E}x\\u{7}\"\n"
                                + "as \"Z\\u{1B}[2J\" find generic-password\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ctl.kcs").path
        let json = try BinaryRunner.run(["run", "--format", "json", path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let d = try #require((object["files"] as? [[String: Any]])?.first?["diagnostics"] as? [[String: Any]])
        let unknown = try #require(d.first { $0["code"] as? String == "KCS301" })
        #expect(unknown["message"] as? String == "unknown app 'Z\\u{1B}[2J'")
        #expect((unknown["hint"] as? String)?.contains("A\\u{1B}[31m\\u{202E}x\\u{7}") == true, "\(unknown)")
        for (key, value) in unknown { #expect(!"\(value)".unicodeScalars.contains { TerminalText.needsEscape($0) }, "\(key)") }
        let tap = try BinaryRunner.run(["run", "--format", "tap", path])
        #expect(tap.stdout.contains("message: \"unknown app 'Z\\\\u{1B}[2J'\""), "\(tap.stdout)")
    }

    @Test func aPassingRunIsReadAsPassingByEveryConsumer() throws {
        let dir = try temp(["ok.kcs": "team SKMME9E2Y8\napp com.example.A\nas A add generic-password account=\"a\"\nexpect status errSecSuccess\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("ok.kcs").path
        #expect(try BinaryRunner.run(["run", file]).stdout == "1 passed, 0 failed\n")
        let tap = try BinaryRunner.run(["run", "--format", "tap", file])
        let tapFile = dir.appendingPathComponent("ok.tap")
        try tap.stdout.write(to: tapFile, atomically: true, encoding: .utf8)
        let prove = try #require(BinaryRunner.tool("prove"))
        let consumer = try BinaryRunner.exec(prove, ["-e", "cat", tapFile.path])
        #expect(consumer.status == 0 && consumer.output.contains("Result: PASS"), "\(consumer.output)")
    }

    // MARK: Streaming

    /// With --jobs 2, a fast first file is printed while a slow second file
    /// still runs: results are not held back until every file is done.
    @Test func parallelResultsAppearAsEachFileFinishes() throws {
        var slow = "team SKMME9E2Y8\napp com.example.A\n"
        for i in 0..<40_000 { slow += "as A add generic-password account=\"a\(i)\"\n" }
        let dir = try temp(["1-fast.kcs": "team SKMME9E2Y8\napp com.example.Fast\nshow apps\n", "2-slow.kcs": slow])
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = Process()
        process.executableURL = BinaryRunner.binary
        process.arguments = ["run", "--no-lint", "--jobs", "2", dir.appendingPathComponent("1-fast.kcs").path,
                             dir.appendingPathComponent("2-slow.kcs").path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        let start = Date()
        try process.run()
        var seen = Data()
        var firstFileAt: TimeInterval?
        while true {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
            if firstFileAt == nil, String(decoding: seen, as: UTF8.self).contains("com.example.Fast") {
                firstFileAt = Date().timeIntervalSince(start)
            }
        }
        process.waitUntilExit()
        let total = Date().timeIntervalSince(start)
        let first = try #require(firstFileAt, "the fast file's output never came")
        #expect(first < total / 2, "the first file printed after \(first) s of \(total) s: held back")
        #expect(String(decoding: seen, as: UTF8.self).hasSuffix("0 passed, 0 failed\n"))
    }

    // MARK: One call line

    @Test func theREPLCheckAndRunVerbosePrintACallTheSameWay() throws {
        let script = "team SKMME9E2Y8\napp com.example.A\nas A add generic-password account=\"a\"\nas A find generic-password account=\"a\"\n"
        let verbose = try BinaryRunner.run(["run", "--verbose", "-"], stdin: script)
        #expect(verbose.stdout.contains("<stdin>:3: A add generic-password → errSecSuccess (0)\n"))
        #expect(verbose.stdout.contains("<stdin>:4: A find generic-password → errSecSuccess (0), 1 item\n"))
        // kcs check fills an output block with the same lines.
        let dir = try temp(["p.md": "```kcs\n\(script)```\n\n```output\nA add generic-password → errSecSuccess (0)\nA find generic-password → errSecSuccess (0), 1 item\n```\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let check = try BinaryRunner.run(["check", dir.appendingPathComponent("p.md").path])
        #expect(check.status == 0, "\(check.stderr)")
    }

    // MARK: explain, show, matrix

    @Test func explainAfterAnUnansweredPromptExplainsThatCall() throws {
        let script = """
            team SKMME9E2Y8
            app com.example.A
            as A add generic-password account="a" access-control=[user-presence] data="d"
            as A find generic-password account="a" return=data
            explain
            expect status errSecSuccess
            """
        let out = try BinaryRunner.run(["run", "-"], stdin: script)
        #expect(out.status == 1)
        #expect(out.stdout.contains("SecItemCopyMatching → stopped at an authentication prompt, no status"), "\(out.stdout)")
        #expect(out.stdout.contains("why: the item needs an authentication prompt and no answer was queued"))
        #expect(!out.stderr.contains("no call has run yet"))
        // Expectations still refuse to check a call that did not finish.
        #expect(out.stderr.contains("cannot check: the call before it did not run [KCS308]"))
    }

    @Test func showAndMatrixListTheFileBasedKeychain() throws {
        let script = """
            platform macos 15
            team SKMME9E2Y8
            app com.example.A
            app com.example.B
            as A add generic-password account="legacy"
            as A add generic-password account="modern" data-protection=true
            show items
            show matrix
            """
        let dir = try temp(["mac.kcs": script])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("mac.kcs").path
        let out = try BinaryRunner.run(["run", path])
        #expect(out.status == 0, "\(out.stderr)")
        let rows = out.stdout.split(separator: "\n").filter { $0.contains("(file keychain)") }
        #expect(rows.count == 2, "show items and show matrix each list the file keychain's item: \(out.stdout)")
        #expect(rows.last?.hasSuffix("read  prompt") == true, "the owner reads, another app is asked: \(out.stdout)")
        let matrix = try BinaryRunner.run(["matrix", path])
        #expect(matrix.stdout.contains("#2 generic-password account=\"legacy\"  (file keychain)           read  prompt"), "\(matrix.stdout)")
    }

    /// The matrix says why an app cannot read, by the same rule that stops
    /// its calls: an App Clip on a device that runs none (its item restored
    /// from a backup onto an iOS 13 phone).
    @Test func matrixGivesTheCallBarrier() throws {
        let script = """
            team SKMME9E2Y8
            app com.x.A as A
            app com.x.A.Clip as Clip kind=app-clip
            device Old platform=ios 13
            as A add generic-password account="c"
            expect status errSecSuccess
            backup this as B
            restore B to Old
            """
        let dir = try temp(["clip.kcs": script])
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("clip.kcs").path
        let matrix = try BinaryRunner.run(["matrix", path, "--device", "Old", "--format", "markdown"])
        #expect(matrix.status == 0, "\(matrix.stderr)")
        #expect(matrix.stdout.contains("| read | no: App Clips run from iOS 14 |"), "\(matrix.stdout)")
        let run = try BinaryRunner.run(["run", path])
        #expect(run.status == 0, "\(run.stderr)")
    }

    // MARK: Command line conventions

    @Test func runOnAMarkdownFileSaysToUseCheck() throws {
        let out = try BinaryRunner.run(["run", "README.md"])
        #expect(out.status == 64)
        #expect(out.stderr.contains("'README.md' is a Markdown document: its kcs blocks run with 'kcs check README.md'"), "\(out.stderr)")
    }

    @Test func shardsSplitTheFilesDeterministically() throws {
        var files: [String: String] = [:]
        for i in 1...7 { files["f\(i).kcs"] = "team SKMME9E2Y8\napp com.example.App\(i)\nshow apps\n" }
        let dir = try temp(files)
        defer { try? FileManager.default.removeItem(at: dir) }
        let paths = (1...7).map { dir.appendingPathComponent("f\($0).kcs").path }
        var seen: [String] = []
        for n in [1, 2, 3] {
            var union: [String] = []
            for i in 1...n {
                let out = try BinaryRunner.run(["run", "--shard", "\(i)/\(n)"] + paths)
                #expect(out.status == 0)
                let apps = out.stdout.split(separator: "\n").compactMap { line -> String? in
                    line.hasPrefix("App") ? String(line.prefix { $0 != " " }) : nil
                }
                // The same shard twice gives the same files.
                #expect(try BinaryRunner.run(["run", "--shard", "\(i)/\(n)"] + paths).stdout == out.stdout)
                #expect(apps.count >= 7 / n && apps.count <= 7 / n + 1)
                union += apps
            }
            // Every file runs exactly once across the shards, in order.
            #expect(union == (1...7).map { "App\($0)" })
            seen = union
        }
        #expect(seen.count == 7)
        // Shards of Int's whole range split without overflowing (i·F/N trapped).
        let max = Int.max
        let last = try BinaryRunner.run(["run", "--shard", "\(max)/\(max)"] + paths)
        #expect(last.status == 0, "\(last.stderr)")
        #expect(last.stdout.contains("App7") && !last.stdout.contains("App6"))
        let first = try BinaryRunner.run(["run", "--shard", "1/\(max)"] + paths)
        #expect(first.status == 0 && !first.stdout.contains("App"))
        #expect(try BinaryRunner.run(["check", "--shard", "2/2", "docs/"]).status == 0)
        for bad in ["0/2", "3/2", "1/0", "x", "1/2/3"] {
            let out = try BinaryRunner.run(["run", "--shard", bad] + paths)
            #expect(out.status == 64, "--shard \(bad)")
        }
    }

    @Test func colourOptionBeatsNoColorAndNeverMeansNever() throws {
        let always = try BinaryRunner.run(["run", "--color", "always", "Tests/Golden/runtime-errors.kcs"])
        #expect(always.stderr.contains("\u{1B}["), "--color always colours even with NO_COLOR set")
        let never = try BinaryRunner.run(["run", "--color", "never", "Tests/Golden/runtime-errors.kcs"],
                                         environment: ["NO_COLOR": ""])
        #expect(!never.stderr.contains("\u{1B}["))
        #expect(try BinaryRunner.run(["run", "--color", "sometimes", "x.kcs"]).status == 64)
    }

    @Test func bashCompletionOffersFilesByKind() throws {
        let script = try BinaryRunner.run(["--generate-completion-script", "bash"])
        #expect(script.status == 0)
        let dir = try temp(["a.kcs": "", "b.md": "", "c.txt": "", "App.entitlements": "", "profile.mobileprovision": ""])
        defer { try? FileManager.default.removeItem(at: dir) }
        let completion = dir.appendingPathComponent("kcs.bash")
        try script.stdout.write(to: completion, atomically: true, encoding: .utf8)
        let bash = try #require(BinaryRunner.tool("bash"))
        func complete(_ line: String) throws -> Set<String> {
            let driver = """
                source "$1"; read -ra COMP_WORDS <<< "$2"; [[ "$2" == *" " ]] && COMP_WORDS+=("")
                COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMP_LINE="$2"; COMP_POINT=${#2}
                _kcs kcs "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"; printf '%s\\n' "${COMPREPLY[@]}"
                """
            let out = try BinaryRunner.exec(bash, ["-c", driver, "bash", completion.path, line], in: dir)
            return Set(out.output.split(separator: "\n").map(String.init))
        }
        #expect(try complete("kcs run ") == ["a.kcs"])
        #expect(try complete("kcs check ") == ["a.kcs", "b.md"])
        #expect(try complete("kcs lint --entitlements ") == ["App.entitlements", "profile.mobileprovision"])
        #expect(try complete("kcs run --sh") == ["--shard"])
        #expect(try complete("kcs run --color ") == ["auto", "always", "never"])
    }

    /// docs/man/kcs.1 is generated from the help (scripts/man.sh): every
    /// option the help knows is in the page.
    @Test func theManPageCoversTheHelp() throws {
        let dump = try BinaryRunner.run(["--experimental-dump-help"])
        #expect(dump.status == 0)
        let page = try String(contentsOf: BinaryRunner.root.appendingPathComponent("docs/man/kcs.1"), encoding: .utf8)
        #expect(page.hasPrefix(".\\\" \"Generated by swift-argument-parser\""))
        var names = Set<String>()
        let object = try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8))
        func walk(_ value: Any) {
            if let d = value as? [String: Any] {
                if let n = d["names"] as? [[String: Any]] {
                    for name in n where name["kind"] as? String == "long" { names.insert(name["name"] as? String ?? "") }
                }
                if let c = d["commandName"] as? String { names.insert("Em " + c) }
                d.values.forEach(walk)
            } else if let a = value as? [Any] {
                a.forEach(walk)
            }
        }
        walk(object)
        #expect(names.count > 15)
        for name in names where !name.hasPrefix("Em ") && !name.isEmpty {
            // mdoc writes `Fl -name`, or `Fl x , -name` with a short name.
            #expect(page.contains("Fl -\(name)") || page.contains(" , -\(name)"), "docs/man/kcs.1 lacks --\(name): run scripts/man.sh")
        }
        for command in ["run", "check", "repl", "lint", "export", "matrix"] {
            #expect(page.contains(".It Em \(command)"), "docs/man/kcs.1 lacks \(command): run scripts/man.sh")
        }
        // Where scripts/man.sh has built the generator, the page must be
        // exactly what it writes now (but for the date).
        let generator = BinaryRunner.binary.deletingLastPathComponent().appendingPathComponent("generate-manual-tool")
        guard FileManager.default.isExecutableFile(atPath: generator.path) else { return }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kcs-man-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let made = try BinaryRunner.exec(generator.path, [BinaryRunner.binary.path, "--date", "2026-01-01",
                                                          "--authors", "the kcs authors", "-o", dir.path])
        #expect(made.status == 0, "\(made.output)")
        let fresh = try String(contentsOf: dir.appendingPathComponent("kcs.1"), encoding: .utf8)
        func undated(_ s: String) -> [Substring] { s.split(separator: "\n").filter { !$0.hasPrefix(".Dd ") } }
        let current = undated(fresh) == undated(page)
        #expect(current, "docs/man/kcs.1 is stale: run scripts/man.sh")
    }

    /// SwiftPM warns "found N file(s) which are unhandled" for a file in a
    /// target folder that is neither a source nor excluded; `swift test`
    /// must print no such warning. Each target's folder is checked against
    /// the `exclude:` list written on its line of Package.swift.
    @Test func noTargetHoldsFilesSwiftPMWouldWarnAbout() throws {
        let manifest = try String(contentsOf: BinaryRunner.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var checked = 0
        for top in ["Sources", "Tests"] {
            let base = BinaryRunner.root.appendingPathComponent(top)
            for target in try FileManager.default.contentsOfDirectory(atPath: base.path).sorted() {
                guard let line = manifest.split(separator: "\n").first(where: { $0.contains("name: \"\(target)\"") }) else { continue }
                // A system library's folder holds its module map and header.
                let allowed = line.contains(".systemLibrary") ? ["swift", "modulemap", "h"] : ["swift"]
                var excluded: [String] = []
                if let open = line.range(of: "exclude: [") {
                    let rest = line[open.upperBound...].prefix { $0 != "]" }
                    excluded = rest.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"")) }
                }
                let folder = base.appendingPathComponent(target)
                for file in FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [] {
                    var isDirectory: ObjCBool = false
                    _ = FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path, isDirectory: &isDirectory)
                    if isDirectory.boolValue || file.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
                    checked += 1
                    let ext = file.split(separator: ".").last.map(String.init) ?? ""
                    let isExcluded = excluded.contains { file == $0 || file.hasPrefix($0 + "/") }
                    #expect(allowed.contains(ext) || isExcluded,
                            "\(top)/\(target)/\(file) is unhandled: SwiftPM warns; exclude it in Package.swift or declare it a resource")
                }
            }
        }
        #expect(checked > 50)
    }

    @Test func lintEntitlementsAsksForTheTeamAndBundleIDInCommandLineTerms() throws {
        let plain = try BinaryRunner.run(["lint", "--entitlements", "examples/entitlements/AppOne.entitlements"])
        #expect(plain.status == 64)
        #expect(plain.stderr.contains("kcs lint --entitlements examples/entitlements/AppOne.entitlements --team TEAMID --bundle-id com.example.App"),
                "\(plain.stderr)")
        #expect(!plain.stderr.contains("team="), "script words in a command-line answer: \(plain.stderr)")
        let given = try BinaryRunner.run(["lint", "--entitlements", "examples/entitlements/AppOne.entitlements",
                                          "--team", "SKMME9E2Y8", "--bundle-id", "com.example.AppOne"])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(given.stdout.contains("in a scenario:\n  team SKMME9E2Y8\n  app com.example.AppOne entitlements="))
        // The lines to paste read back as the file says, whatever it holds.
        let odd = try BinaryRunner.run(["lint", "--entitlements", "examples/entitlements/AppOne.entitlements",
                                        "--team", "SKMME9E2Y8", "--bundle-id", "com.example.A\u{1B}[31m x"])
        let line = try #require(odd.stdout.split(separator: "\n").first { $0.hasPrefix("  app ") })
        #expect(line == "  app \"com.example.A\\u{1b}[31m x\" entitlements=\"examples/entitlements/AppOne.entitlements\"", "\(line)")
        let script = "team SKMME9E2Y8\n" + line.dropFirst(2) + "\n"
        #expect(Parser.parse(SourceFile(name: "p.kcs", text: script)).diagnostics.isEmpty)
    }
}

/// Reads a JUnit report with Foundation's XML parser: the root's
/// attributes, the test cases, `<skipped>` elements and `<system-err>` text.
final class JUnitReader: NSObject, XMLParserDelegate {
    var root: [String: String]?
    var testcases = 0
    var skippedElements = 0
    var systemErr = ""
    var error: Error?
    private var inSystemErr = false

    init(_ data: Data) {
        super.init()
        let parser = XMLParser(data: data)
        parser.delegate = self
        if !parser.parse() { error = parser.parserError ?? CocoaError(.coderReadCorrupt) }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        switch name {
        case "testsuites": root = attributes
        case "testcase": testcases += 1
        case "skipped": skippedElements += 1
        case "system-err": inSystemErr = true
        default: break
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "system-err" { inSystemErr = false }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inSystemErr { systemErr += string }
    }
}
