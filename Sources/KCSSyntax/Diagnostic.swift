/// How serious a diagnostic is.
public enum Severity: String, Sendable, Hashable {
    case error, warning, note
}

/// A stable identifier for each kind of diagnostic. Tests and tools match on
/// the code, never on message text.
public enum DiagnosticCode: String, Sendable, Hashable, CaseIterable {
    // Reading the input.
    case fileNotFound = "KCS001"
    case fileUnreadable = "KCS002"
    case emptyFile = "KCS003"
    case invalidUTF8 = "KCS004"
    case nulByte = "KCS005"
    case includeCycle = "KCS006"
    /// A host limit on the input (source size, include depth, list length).
    case inputLimit = "KCS007"
    /// An entitlements file or provisioning profile that cannot be decoded.
    case malformedEntitlements = "KCS008"
    /// A note closing a file's diagnostics: how many more were not shown.
    case moreDiagnostics = "KCS009"
    /// A bidirectional-control character in a script (Trojan Source).
    case bidiControl = "KCS010"
    /// An invisible character written raw in a script (a zero-width space…).
    case invisibleCharacter = "KCS011"
    /// A carriage return not followed by a line feed: a line break to
    /// editors and terminals, none to kcs.
    case loneCarriageReturn = "KCS012"
    // Tokens.
    case unterminatedString = "KCS101"
    case badEscape = "KCS102"
    case unexpectedCharacter = "KCS103"
    /// The input ended while a `[` was open: the REPL keeps reading.
    case unexpectedEndOfInput = "KCS104"
    case integerOverflow = "KCS105"
    // Syntax.
    case unknownStatement = "KCS201"
    case expectedToken = "KCS202"
    case unknownClass = "KCS203"
    case unknownAttribute = "KCS204"
    case unknownValue = "KCS205"
    case unknownStatus = "KCS206"
    case duplicateArgument = "KCS207"
    case wrongValueType = "KCS208"
    case misplacedSet = "KCS209"
    case unknownPlatform = "KCS210"
    case unexpectedToken = "KCS211"
    case misplacedDeclaration = "KCS212"
    case malformedTeamID = "KCS213"
    // Running.
    case unknownApp = "KCS301"
    case unknownTeam = "KCS302"
    case unknownDevice = "KCS303"
    case invalidDeclaration = "KCS304"
    case noPreviousCall = "KCS306"
    case promptUnanswered = "KCS307"
    case callDidNotRun = "KCS308"
    case appNotInstalled = "KCS309"
    case unknownBackup = "KCS310"
    /// A host limit reached while running (statements, items, time): the run stops.
    case runLimit = "KCS311"
    /// `persistent-ref=NAME` or `context=NAME` naming nothing kept or declared.
    case unknownName = "KCS312"
    /// `keep persistent-ref` after a call that returned no persistent reference.
    case nothingToKeep = "KCS313"
    // Expectations.
    case expectationFailed = "KCS401"
    /// A Markdown `output` block differs from what its `kcs` block printed.
    case outputMismatch = "KCS402"
    /// A Markdown block marked `fails` ran without a failure.
    case blockDidNotFail = "KCS403"
    /// A `kcs` fence inside a block quote, a list item or an indented code
    /// block: `kcs check` does not run it (a warning).
    case nestedBlock = "KCS404"
    // Lint: warnings about the common mistakes (semantics.md section 7).
    /// A group named without its team prefix although the prefixed one is entitled.
    case lintMissingTeamPrefix = "KCS501"
    /// An extension reads a group its containing app writes but does not list.
    case lintExtensionGroup = "KCS502"
    /// Synchronizable together with a this-device-only accessibility.
    case lintSyncThisDeviceOnly = "KCS503"
    /// The deprecated `always` accessibilities.
    case lintDeprecatedAccessibility = "KCS504"
    /// An add relies on an app group being the default group.
    case lintAppGroupDefault = "KCS505"
    /// macOS: a group named in a call that goes to the file-based keychain.
    case lintFileKeychainGroup = "KCS506"
    /// A query misses synchronizable items because it does not say sync=.
    case lintSyncFilter = "KCS507"
    /// A query differs from the stored item only in service or account.
    case lintServiceAccount = "KCS508"
    /// An update that moves items between groups (not portable).
    case lintGroupMove = "KCS509"
    /// A keychain group without the team prefix, or an app group among the
    /// keychain groups (in an entitlements file or an inline list).
    case lintUnprefixedEntitlement = "KCS510"
    /// An app group not named `group.…`, or with a team prefix in front of it.
    case lintAppGroupShape = "KCS511"
    /// An add with a match limit: iOS and watchOS report success and store nothing.
    case lintLimitOnAdd = "KCS512"
    /// `return=ref` alone on a password off the Mac: success and nothing back.
    case lintPasswordReference = "KCS513"
    /// macOS: keychain-access-groups without a provisioning profile: the
    /// app is not launched (a restricted entitlement AMFI validates).
    case lintUnprovisionedKeychainGroups = "KCS514"
    /// `resign` on a device without the Mac's file keychain: nothing changes
    /// (the data-protection keychain goes by entitlements, not the signature).
    case lintResignWithoutFileKeychain = "KCS515"
    /// `accessible=` in a find, an update's query or a delete: a filter,
    /// which skips the items stored with another class.
    case lintAccessibilityFilter = "KCS516"
    /// An update whose query names only the class and whose `set` writes
    /// data: every item of the class the app reaches gets the same data.
    case lintClassOnlyUpdate = "KCS517"
    /// A delete, under the lock, of an item an earlier find got
    /// errSecInteractionNotAllowed for: the item existed, and its data is lost.
    case lintDeleteAfterLockedRead = "KCS518"
    /// An attribute of another class: errSecNoSuchAttr on every
    /// data-protection keychain, dropped by the Mac's file keychain.
    case lintAttributeOfAnotherClass = "KCS519"
    /// An update, after an add that met errSecDuplicateItem asking for
    /// another class, whose `set` names no class: the item keeps the old one.
    case lintUpdateKeepsClass = "KCS521"
    // Xcode projects (kcs import xcode, kcs lint --project, app … project=).
    /// A project.pbxproj that cannot be read or parsed.
    case projectUnreadable = "KCS601"
    /// A build setting or entitlements value that cannot be resolved.
    case projectSetting = "KCS602"
    /// A target whose access groups differ between configurations.
    case projectConfigurationsDiffer = "KCS603"
    /// An extension embedded in an app that shares no group with it.
    case projectExtensionGroup = "KCS604"
    /// An entitlements file that no configuration signs with, or configurations that disagree on it.
    case projectEntitlementsFile = "KCS605"
    /// A group the provisioning profile does not grant.
    case projectProfile = "KCS606"
    /// Swift code names an access group its target is not entitled to.
    case codeGroupNotEntitled = "KCS607"
    /// Swift code builds an access group at run time: it cannot be checked.
    case codeGroupNotCheckable = "KCS608"
    /// Swift code for macOS names an access group in a dictionary that goes
    /// to the file-based keychain, which ignores it.
    case codeFileKeychainGroup = "KCS609"
    /// A name that mixes scripts (Latin with Cyrillic…): a look-alike of another name.
    case lintMixedScripts = "KCS520"
}

extension DiagnosticCode {
    /// When a diagnostic of this kind arises.
    public enum Phase: Sendable {
        /// The file could not be read (exit 66).
        case input
        /// Before anything ran: the script is malformed (exit 65).
        case syntax
        /// While running: a statement could not do its work (exit 1).
        case runtime
        /// An expectation did not hold (exit 1).
        case expectation
    }

    public var phase: Phase {
        switch self {
        case .fileNotFound, .fileUnreadable, .malformedEntitlements, .projectUnreadable: .input
        case .emptyFile, .invalidUTF8, .nulByte, .bidiControl, .invisibleCharacter, .loneCarriageReturn, .includeCycle, .inputLimit, .unterminatedString, .badEscape,
             .unexpectedCharacter, .unexpectedEndOfInput, .integerOverflow, .unknownStatement, .expectedToken,
             .unknownClass, .unknownAttribute, .unknownValue, .unknownStatus, .duplicateArgument, .wrongValueType,
             .misplacedSet, .unknownPlatform, .unexpectedToken, .misplacedDeclaration, .malformedTeamID: .syntax
        case .unknownApp, .unknownTeam, .unknownDevice, .invalidDeclaration, .noPreviousCall,
             .promptUnanswered, .callDidNotRun, .appNotInstalled, .unknownBackup, .runLimit, .moreDiagnostics,
             .unknownName, .nothingToKeep: .runtime
        case .expectationFailed, .outputMismatch, .blockDidNotFail: .expectation
        case .nestedBlock: .runtime
        // Warnings; with --strict they count as runtime errors (exit 1).
        case .lintMissingTeamPrefix, .lintExtensionGroup, .lintSyncThisDeviceOnly, .lintDeprecatedAccessibility,
             .lintAppGroupDefault, .lintFileKeychainGroup, .lintSyncFilter, .lintServiceAccount, .lintGroupMove,
             .lintUnprefixedEntitlement, .lintAppGroupShape, .lintLimitOnAdd, .lintPasswordReference, .lintMixedScripts,
             .lintUnprovisionedKeychainGroups, .lintResignWithoutFileKeychain, .lintAccessibilityFilter,
             .lintClassOnlyUpdate, .lintDeleteAfterLockedRead, .lintAttributeOfAnotherClass, .lintUpdateKeepsClass: .runtime
        case .projectSetting, .projectConfigurationsDiffer, .projectExtensionGroup, .projectEntitlementsFile, .projectProfile,
             .codeGroupNotEntitled, .codeGroupNotCheckable, .codeFileKeychainGroup: .runtime
        }
    }

    /// Whether this is a lint code (KCS5xx): a warning about a likely mistake.
    public var isLint: Bool { rawValue.hasPrefix("KCS5") }

    /// Whether this is an Xcode project code (KCS6xx): what a project, and
    /// the code its targets compile, says (`app … project=`, `kcs lint --project`).
    public var isProject: Bool { rawValue.hasPrefix("KCS6") }
}

/// A note attached to a diagnostic, optionally pointing at another place.
public struct DiagnosticNote: Sendable, Hashable {
    public var message: String
    public var file: SourceFile?
    public var range: SourceRange?

    public init(_ message: String, file: SourceFile? = nil, range: SourceRange? = nil) {
        self.message = message.shortenedForDiagnostics
        self.file = file
        self.range = range
    }

    public static func == (a: DiagnosticNote, b: DiagnosticNote) -> Bool {
        a.message == b.message && a.file === b.file && a.range == b.range
    }

    public func hash(into h: inout Hasher) { h.combine(message); h.combine(range) }
}

/// An edit that fixes what a diagnostic reports: `range`, in the
/// diagnostic's file, becomes `replacement`. Editors offer it as a quick fix.
public struct FixIt: Sendable, Hashable {
    public var title: String
    public var range: SourceRange
    public var replacement: String

    public init(_ title: String, range: SourceRange, replacement: String) {
        self.title = title
        self.range = range
        self.replacement = replacement
    }
}

/// A diagnostic is data: a code, a severity, where, what, and how to fix it.
/// One renderer (``DiagnosticRenderer``) draws them.
public struct Diagnostic: Error, Sendable, Hashable {
    public var code: DiagnosticCode
    public var severity: Severity
    public var message: String
    public var file: SourceFile?
    public var range: SourceRange?
    public var hint: String?
    public var notes: [DiagnosticNote]
    /// Edits that fix it (a "did you mean", a lint fix).
    public var fixIts: [FixIt] = []

    public init(_ code: DiagnosticCode, _ message: String, file: SourceFile? = nil, range: SourceRange? = nil,
                severity: Severity = .error, hint: String? = nil, notes: [DiagnosticNote] = []) {
        self.code = code
        self.severity = severity
        // Messages quote the input: a word of ten megabytes is shown cut.
        self.message = message.shortenedForDiagnostics
        self.file = file
        self.range = range
        self.hint = hint?.shortenedForDiagnostics
        self.notes = notes
    }

    /// An error that is not a failed check (a syntax or runtime error, an
    /// unreadable input, a lint warning under `--strict`): what the closing
    /// line counts as an error.
    public var isErrorButNotACheck: Bool { severity == .error && code.phase != .expectation }

    /// Whether the only trouble is that the input stopped early (an open `[`):
    /// a REPL keeps reading instead of reporting it.
    public var isIncompleteInput: Bool { code == .unexpectedEndOfInput }

    /// The line and column of the start of the range, if known.
    public var location: SourceLocation? {
        guard let file, let range else { return nil }
        return file.location(of: range.start)
    }

    public static func == (a: Diagnostic, b: Diagnostic) -> Bool {
        a.code == b.code && a.severity == b.severity && a.message == b.message && a.file === b.file
            && a.range == b.range && a.hint == b.hint && a.notes == b.notes
    }

    public func hash(into h: inout Hasher) { h.combine(code); h.combine(message); h.combine(range) }
}

extension Diagnostic {
    /// The diagnostic with a fix that replaces its range by the candidate
    /// closest to `word`, when one is close enough to be a likely typo.
    package func didYouMean(_ word: String, in candidates: [String]) -> Diagnostic {
        didYouMean(word, in: Suggest.Index(candidates))
    }

    /// The same, from names indexed already.
    package func didYouMean(_ word: String, in candidates: Suggest.Index) -> Diagnostic {
        guard let range, let closest = candidates.closest(to: word) else { return self }
        var d = self
        d.fixIts.append(FixIt("replace '\(word)' with '\(closest)'", range: range, replacement: closest))
        return d
    }
}

/// The names of things a diagnostic may suggest instead of a misspelling.
package enum Suggest {
    /// The closest candidate by edit distance, if close enough to be a likely typo.
    package static func closest(to word: String, in candidates: [String]) -> String? {
        Index(candidates).closest(to: word)
    }

    /// The edit distance between two names, case and all (keychain and app
    /// groups are compared as written), when it is at most `limit`; nil past
    /// it, or for names longer than 256 bytes, which are not typos of each other.
    package static func editDistance(_ a: String, _ b: String, atMost limit: Int) -> Int? {
        guard a.utf8.count <= 256, b.utf8.count <= 256 else { return nil }
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        var cells = 0, cur = [Int](repeating: 0, count: y.count + 2), prev = cur
        return y.withUnsafeBufferPointer { Index.distance(x, $0[...], bound: limit, &cells, &cur, &prev) }
    }

    /// "did you mean 'X'?" or nil.
    package static func hint(for word: String, in candidates: [String]) -> String? {
        closest(to: word, in: candidates).map { "did you mean '\($0)'?" }
    }

    /// Names listed in a hint, at most.
    static let listedNames = 5
    /// Characters of one name shown in a message or hint, at most.
    static let shownNameLength = 64

    /// A name as a message shows it: cut to ``shownNameLength`` characters,
    /// so a megabyte-long name is not echoed into every diagnostic.
    package static func shown(_ name: String) -> String {
        // Bytes first: counting the characters of a megabyte name per
        // diagnostic would cost what the cut saves.
        guard name.utf8.count > shownNameLength else { return name }
        let cut = name.prefix(shownNameLength)
        return cut.endIndex == name.endIndex ? name : String(cut) + "…"
    }

    /// "LABEL: a, b, c, … and N more": a hint that stays short however many
    /// names were declared (listing every app per error made the output
    /// grow with apps × errors).
    package static func listing(_ label: String, _ names: some Collection<String>) -> String {
        let listed = names.prefix(listedNames).map(shown).joined(separator: ", ")
        let rest = names.count - min(names.count, listedNames)
        return label + ": " + listed + (rest > 0 ? ", … and \(rest) more" : "")
    }

    /// The longest word a suggestion is looked for: longer inputs are not
    /// typos of a name.
    static let longestWord = 64
    /// Edits allowed between a word of `length` characters and a name:
    /// short words tolerate one, longer ones about a third.
    static func editLimit(_ length: Int) -> Int { length <= 4 ? 1 : max(2, length / 3) }

    /// Candidate names indexed for "did you mean": by length (in lower-case
    /// characters) and by a count of their characters in 32 bins, so a word
    /// is compared, by a banded edit distance that stops past the best so
    /// far, only with names of a length and a make-up within its limit.
    /// Each lookup does a bounded amount of work (``maxVisits`` names looked
    /// at, ``maxCells`` cells of edit distance), then answers with the best
    /// found: comparing each unknown name with every declared one in full
    /// made 2,000 misspellings of 2,000 devices take 42 s (found by
    /// adversarial testing). A value: names are added as they are declared.
    package struct Index: Sendable {
        /// Names looked at by one lookup, at most.
        package static let maxVisits = 1_024
        /// Cells of edit distance one lookup computes, at most.
        package static let maxCells = 16_384
        /// The longest name (in characters) any word can be close to.
        static let longestName = longestWord + editLimit(longestWord)

        private struct Entry: Sendable {
            var name: String
            /// Where its lower-case characters are in ``scalars``.
            var start: Int
            var length: Int
            var bins: SIMD32<UInt8>
        }
        private var entries: [Entry] = []
        /// Every entry's lower-case characters, one after another.
        private var scalars: [Unicode.Scalar] = []
        /// Entries by length, each list in the order added.
        private var byLength: [[Int]] = []
        /// Names added, those too long to be suggested included.
        package private(set) var count = 0

        package init() {}

        package init(_ names: [String]) {
            for name in names { insert(name) }
        }

        package mutating func insert(_ name: String) {
            count += 1
            // At most four bytes a character: a name this long cannot be
            // close, and lower-casing a megabyte name costs.
            guard name.utf8.count <= 4 * Self.longestName else { return }
            let lower = Array(name.lowercased().unicodeScalars)
            guard lower.count <= Self.longestName else { return }
            if byLength.count <= lower.count { byLength += Array(repeating: [], count: lower.count + 1 - byLength.count) }
            byLength[lower.count].append(entries.count)
            entries.append(Entry(name: name, start: scalars.count, length: lower.count, bins: Self.bins(lower)))
            scalars += lower
        }

        /// The closest name, if close enough to be a likely typo: the least
        /// edits, then the first added.
        package func closest(to word: String) -> String? { search(word).name }

        /// ``closest(to:)`` with the work it took, for tests.
        package func search(_ word: String) -> (name: String?, visits: Int, cells: Int) {
            guard word.utf8.count <= longestWord else { return (nil, 0, 0) }
            let w = Array(word.lowercased().unicodeScalars)
            let n = w.count, limit = editLimit(n)
            let wordBins = Self.bins(w)
            var best: (distance: Int, entry: Int)?
            var visits = 0, cells = 0
            var row = [Int](repeating: 0, count: 2 * (Self.longestName + 2)), previous = row
            // Lengths nearest the word's first: they can be closest.
            search: for delta in 0...limit {
                for length in delta == 0 ? [n] : [n - delta, n + delta] where length >= 0 && length < byLength.count {
                    for e in byLength[length] {
                        visits += 1
                        guard visits <= Self.maxVisits, cells < Self.maxCells else { break search }
                        // Beat the best so far, or tie it as an earlier name.
                        let bound = best.map { e < $0.entry ? $0.distance : $0.distance - 1 } ?? limit
                        guard delta <= bound else { continue }
                        let entry = entries[e]
                        guard Self.bagDistance(wordBins, entry.bins) <= bound else { continue }
                        let d = scalars.withUnsafeBufferPointer { all in
                            Self.distance(w, all[entry.start..<(entry.start + entry.length)], bound: bound, &cells, &row, &previous)
                        }
                        if let d { best = (d, e) }
                    }
                }
            }
            return (best.map { entries[$0.entry].name }, visits, cells)
        }

        /// Characters counted in 32 bins: letters each their own, the rest shared.
        private static func bins(_ s: [Unicode.Scalar]) -> SIMD32<UInt8> {
            var b = SIMD32<UInt8>()
            for u in s {
                let v = u.value
                let bin = v >= 0x61 && v <= 0x7A ? Int(v - 0x61) : 26 + Int(v % 6)
                b[bin] &+= 1
            }
            return b
        }

        /// A lower bound of the edit distance: the characters one has more
        /// of than the other, the larger side. Names are at most
        /// ``longestName`` characters, so no count wraps.
        private static func bagDistance(_ a: SIMD32<UInt8>, _ b: SIMD32<UInt8>) -> Int {
            let common = pointwiseMin(a, b)
            return max(Int((a &- common).wrappedSum()), Int((b &- common).wrappedSum()))
        }

        /// The edit distance if it is at most `bound`, else nil; only cells
        /// within `bound` of the diagonal are computed, and a row past the
        /// bound stops it.
        fileprivate static func distance(_ a: [Unicode.Scalar], _ b: Slice<UnsafeBufferPointer<Unicode.Scalar>>, bound k: Int,
                                     _ cells: inout Int, _ cur: inout [Int], _ prev: inout [Int]) -> Int? {
            let n = a.count, m = b.count
            guard abs(n - m) <= k else { return nil }
            if n == 0 { return m }
            if m == 0 { return n }
            let far = k + 1, base = b.startIndex
            for j in 0...m { prev[j] = j <= k ? j : far }
            prev[m + 1] = far
            for i in 1...n {
                let lo = max(1, i - k), hi = min(m, i + k)
                cur[lo - 1] = lo == 1 ? min(i, far) : far
                var rowMin = cur[lo - 1]
                if lo <= hi {
                    for j in lo...hi {
                        let same = a[i - 1] == b[base + j - 1]
                        let v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1), far)
                        cur[j] = v
                        rowMin = min(rowMin, v)
                    }
                    cells += hi - lo + 1
                }
                if hi < m { cur[hi + 1] = far }
                swap(&prev, &cur)
                if rowMin > k { return nil }
            }
            return prev[m] <= k ? prev[m] : nil
        }
    }
}

extension String {
    /// Longest message, hint or note kept whole, in bytes.
    package static let diagnosticTextLimit = 1000

    /// The text, or when it is longer than ``diagnosticTextLimit`` its
    /// start and end around `…`, cut between scalars.
    var shortenedForDiagnostics: String {
        guard utf8.count > Self.diagnosticTextLimit else { return self }
        let scalars = unicodeScalars
        var head = String.UnicodeScalarView(), tail = String.UnicodeScalarView()
        var bytes = 0
        for s in scalars {
            bytes += String(s).utf8.count
            if bytes > Self.diagnosticTextLimit * 2 / 3 { break }
            head.append(s)
        }
        bytes = 0
        var reversed: [Unicode.Scalar] = []
        for s in scalars.reversed() {
            bytes += String(s).utf8.count
            if bytes > Self.diagnosticTextLimit / 3 { break }
            reversed.append(s)
        }
        tail.append(contentsOf: reversed.reversed())
        return String(head) + "…" + String(tail)
    }
}

