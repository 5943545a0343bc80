import KCSLanguage
import Testing

/// Review 23a, R2: every option of every form reaches the lowered statement.
/// The lowering matched keys as strings with a silent default: an option
/// the table gained was dropped (or, a list, taken as
/// associated-application-identifier) and every test still passed.
@Suite struct OptionLoweringTests {
    /// The statement `text` lowers to, as text (every field shown).
    private func lowered(_ text: String) -> String {
        let parsed = Parser.parse(SourceFile(name: "t.kcs", text: "team SKMME9E2Y8\n" + text + "\n"))
        #expect(parsed.diagnostics.isEmpty, "\(text): \(parsed.diagnostics.map(\.message))")
        return parsed.program.statements.last.map { String(describing: $0.kind) } ?? ""
    }

    @Test func everyOptionChangesTheLoweredStatement() {
        for form in StatementForm.all {
            for option in form.options {
                // A value that is not the default, one per key (no default:
                // a key the table gains needs one here).
                let value: String
                var head: String
                switch form.kind {
                case .app: head = "app com.example.X"
                case .device: head = "device D"
                case .context: head = "context C"
                case .backup: head = "backup this as N"
                default: head = "\(form.keyword) N"
                }
                switch option.id {
                case .team: value = "Other"
                case .kind: value = "extension"
                case .keychainAccessGroups: value = "[G]"
                case .applicationGroups: value = "[group.G]"
                case .associatedApplicationIdentifier: value = "[SKMME9E2Y8.com.example.Y]"
                case .signing: value = "unprovisioned"
                case .provisioned: value = "false"
                case .appIDPrefix: value = "ABCDE12345"
                case .entitlements: value = "\"a.entitlements\""
                case .project: value = "\"P.xcodeproj\""
                case .target, .configuration:
                    value = "T"
                    head += " project=\"P.xcodeproj\""
                case .account: value = "\"me@example.com\""
                case .platform: value = "ios 13"
                case .reuse: value = "10"
                case .interaction: value = "false"
                case .encrypted: value = "false"
                }
                let without = lowered(head), with = lowered("\(head) \(option.key)=\(value)")
                #expect(!without.isEmpty && with != without, "\(form.keyword) \(option.key)= changed nothing: \(with)")
            }
        }
    }

    /// Each key of ``OptionSpec/Key`` is some form's option, once.
    @Test func everyKeyIsInTheTableOnce() {
        let keys = StatementForm.all.flatMap { $0.options.map(\.id) }
        #expect(keys.count == Set(keys).count)
        #expect(Set(keys) == Set(OptionSpec.Key.allCases))
    }
}
