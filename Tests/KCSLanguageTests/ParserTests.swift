import Testing
import KeychainEngine
@testable import KCSLanguage
@testable import KCSRuntime
@testable import KCSSyntax

/// One-line description of a statement, so expected trees are strings.
func describe(_ s: Statement) -> String {
    var out = s.device.map { "on \($0.text) " } ?? ""
    switch s.kind {
    case .platform(let p): out += "platform(\(p))"
    case .team(let id, let alias): out += "team(\(id.text)\(alias.map { " as \($0.text)" } ?? ""))"
    case .app(let d):
        out += "app(\(d.bundleID.text) name=\(d.name) kind=\(d.kind.rawValue)"
        if let t = d.team { out += " team=\(t.text)" }
        if let k = d.keychainAccessGroups { out += " kag=\(k.map(\.text))" }
        if let a = d.applicationGroups { out += " ag=\(a.map(\.text))" }
        out += ")"
    case .group(let n, let apps): out += "group(\(n.text) \(apps.map(\.text).joined(separator: " ")))"
    case .include(let p, _): out += "include(\(p))"
    case .device(let n, let a, let p):
        out += "device(\(n.text)\(a.map { " account=\($0.text)" } ?? "")\(p.map { " platform=\($0)" } ?? ""))"
    case .call(let c):
        let r = c.request
        out += "call(\(c.app.text) \(r.operation.rawValue) \(r.spec.itemClass?.rawValue ?? "-")\(spec(r.spec))"
        if let ch = r.changes { out += " set\(spec(ch))" }
        if let p = c.persistentRef { out += " ref=\(p.text)" }
        if let x = c.context { out += " context=\(x.text)" }
        out += ")"
    case .expectStatus(let s): out += "expect-status(\(s.map(\.status.name).joined(separator: "|")))"
    case .expectCount(let n): out += "expect-count(\(n))"
    case .expectData(let d): out += "expect-data(\(d))"
    case .expectGroup(let g): out += "expect-group(\(g.text))"
    case .expectItem(let sp, _): out += "expect-item(\(spec(sp)))"
    case .expectGroups(let a, let g): out += "expect-groups(\(a.text) \(g.map(\.text)))"
    case .expectDefaultGroup(let a, let g): out += "expect-default(\(a.text) \(g.text))"
    case .passcode(let on): out += "passcode(\(on))"
    case .lock: out += "lock"
    case .unlock: out += "unlock"
    case .reboot: out += "reboot"
    case .biometry(let b): out += "biometry(\(b.rawValue))"
    case .user(let a): out += "user(\(a))"
    case .uninstall(let a): out += "uninstall(\(a.text))"
    case .install(let a): out += "install(\(a.text))"
    case .resign(let a): out += "resign(\(a.text))"
    case .transfer(let a, let t): out += "transfer(\(a.text) \(t.text))"
    case .sync: out += "sync"
    case .backup(let d, let n, let e): out += "backup(\(d.text) \(n.text)\(e ? "" : " unencrypted"))"
    case .restore(let n, let d): out += "restore(\(n.text) \(d.text))"
    case .show(let t): out += "show(\(t))"
    case .explain: out += "explain"
    case .reset: out += "reset"
    case .expectNoData: out += "expect-no-data"
    case .expectPersistentRef(let n): out += "expect-persistent-ref(\(n.text))"
    case .keepPersistentRef(let n): out += "keep(\(n.text))"
    case .context(let n, let c): out += "context(\(n.text) reuse=\(c.reuseDuration) interaction=\(c.interactionAllowed))"
    case .wait(let n): out += "wait(\(n))"
    }
    return out
}

private func spec(_ s: ItemSpec) -> String {
    var parts: [String] = []
    for e in s.attributes { parts.append("\(e.attribute)=\(e.value)") }
    if let g = s.accessGroup { parts.append("group=\(g)") }
    if let a = s.accessibility { parts.append("accessible=\(a.rawValue)") }
    if let ac = s.accessControl { parts.append("ac=\(ac)") }
    if let y = s.synchronizable { parts.append("sync=\(y)") }
    if let d = s.data { parts.append("data=\(d)") }
    if let l = s.limit { parts.append("limit=\(l)") }
    if !s.returns.isEmpty { parts.append("return=\(s.returns.rawValue)") }
    if let u = s.authUI { parts.append("auth-ui=\(u.rawValue)") }
    if let p = s.useDataProtectionKeychain { parts.append("dp=\(p)") }
    return parts.isEmpty ? "" : " " + parts.joined(separator: " ")
}

func parseLine(_ source: String) -> (String, [DiagnosticCode]) {
    let (program, diagnostics) = Parser.parse(SourceFile(name: "t.kcs", text: source))
    return (program.statements.map(describe).joined(separator: "; "), diagnostics.map(\.code))
}

struct ParserTests {
    static let cases: [(String, String)] = [
        ("platform ios 12", "platform(ios 12)"),
        ("platform macos 15", "platform(macos 15)"),
        ("team SKMME9E2Y8", "team(SKMME9E2Y8)"),
        ("team SKMME9E2Y8 as Main", "team(SKMME9E2Y8 as Main)"),
        ("app com.example.AppOne", "app(com.example.AppOne name=AppOne kind=app)"),
        ("app com.example.AppOne.Widget as Widget kind=extension",
         "app(com.example.AppOne.Widget name=Widget kind=extension)"),
        ("app com.x.Y team=none", "app(com.x.Y name=Y kind=app team=none)"),
        ("app com.x.Y keychain-access-groups=[$(AppIdentifierPrefix)com.x.S] application-groups=[group.com.x]",
         "app(com.x.Y name=Y kind=app kag=[\"$(AppIdentifierPrefix)com.x.S\"] ag=[\"group.com.x\"])"),
        ("group com.example.Shared A B", "group(com.example.Shared A B)"),
        ("include \"common.kcs\"", "include(common.kcs)"),
        ("device iPad account=other", "device(iPad account=other)"),
        ("as A add generic-password service=\"s\" account=\"a\" data=\"d\"",
         "call(A add generic-password service=\"s\" account=\"a\" data=d)"),
        ("as A find kSecClassGenericPassword kSecAttrService=s kSecReturnData=true kSecMatchLimit=kSecMatchLimitAll",
         "call(A find generic-password service=\"s\" limit=all return=1)"),
        ("as A find generic-password return=[data, attributes] limit=2",
         "call(A find generic-password limit=count(2) return=3)"),
        ("as A find generic-password sync=any accessible=kSecAttrAccessibleAfterFirstUnlock",
         "call(A find generic-password accessible=after-first-unlock sync=any)"),
        ("as A update generic-password account=a set account=b",
         "call(A update generic-password account=\"a\" set account=\"b\")"),
        ("as A find internet-password protocol=\"https\"", "call(A find internet-password protocol=\"https\")"),
        ("as A update generic-password account=a set group=G data=\"x\"",
         "call(A update generic-password account=\"a\" set group=G data=x)"),
        ("as A add internet-password server=s protocol=https port=443 authentication-type=kSecAttrAuthenticationTypeHTMLForm",
         "call(A add internet-password server=\"s\" protocol=\"https\" port=443 authenticationType=\"html-form\")"),
        ("as A add key key-class=private application-tag=t key-type=ec key-size=256",
         "call(A add key keyClass=\"private\" applicationTag=\"t\" keyType=\"ec\" keySizeInBits=256)"),
        ("as A add generic-password access-control=[when-passcode-set-this-device-only, biometry-any, or, device-passcode]",
         "call(A add generic-password ac=[when-passcode-set-this-device-only, device-passcode, or, biometry-any])"),
        // Flags side by side are SecAccessControlCreateWithFlags without
        // kSecAccessControlOr: all required (audit 25, F3), and keep no
        // combinator (review 22a, R2); flags in the order Apple tests their
        // bits (R3).
        ("as A add generic-password access-control=[user-presence, application-password]",
         "call(A add generic-password ac=[when-unlocked, user-presence, application-password])"),
        ("as A add generic-password access-control=[biometry-any, device-passcode]",
         "call(A add generic-password ac=[when-unlocked, device-passcode, biometry-any])"),
        ("as A find service=\"s\"", "call(A find - service=\"s\")"),
        ("on this as A delete generic-password", "on this call(A delete generic-password)"),
        ("as find find generic-password", "call(find find generic-password)"),
        ("expect status errSecSuccess or -25299", "expect-status(errSecSuccess|errSecDuplicateItem)"),
        ("expect count 3", "expect-count(3)"),
        ("expect data \"s3cret\"", "expect-data(s3cret)"),
        ("expect group SKMME9E2Y8.com.x", "expect-group(SKMME9E2Y8.com.x)"),
        ("expect item account=a accessible=always", "expect-item( account=\"a\" accessible=always)"),
        ("expect groups A [X.a, group.b]", "expect-groups(A [\"X.a\", \"group.b\"])"),
        ("expect default-group A X.a", "expect-default(A X.a)"),
        ("passcode off", "passcode(false)"),
        ("lock\nunlock\nreboot", "lock; unlock; reboot"),
        ("biometry change", "biometry(change)"),
        ("user cancels", "user(cancel)"),
        ("uninstall A\ninstall A", "uninstall(A); install(A)"),
        ("transfer A to NEWTEAM123", "transfer(A NEWTEAM123)"),
        ("sync", "sync"),
        ("backup this as monday", "backup(this monday)"),
        ("restore monday to iPad", "restore(monday iPad)"),
        ("show matrix\nshow app A\nexplain\nreset", "show(matrix); show(app(KCSSyntax.Name(text: \"A\", range: KCSSyntax.SourceRange(start: 21, end: 22)))); explain; reset"),
        ("# only a comment\n\n  team SKMME9E2Y8  # trailing\n", "team(SKMME9E2Y8)"),
    ]

    @Test(arguments: cases + FormsParserTests.cases)
    func parses(_ input: String, _ expected: String) {
        let (tree, diagnostics) = parseLine(input)
        #expect(diagnostics.isEmpty, "\(input): \(diagnostics)")
        #expect(tree == expected)
    }

    static let errors: [(String, DiagnosticCode)] = [
        ("tem SKMME9E2Y8", .unknownStatement),
        ("team short", .malformedTeamID),
        ("as A add generic-pasword service=s", .unknownClass),
        ("as A add generic-password acount=s", .unknownAttribute),
        ("as A add generic-password accessible=when-unlockd", .unknownValue),
        ("as A add generic-password service=s service=t", .duplicateArgument),
        ("as A add internet-password port=https", .wrongValueType),
        ("as A find generic-password set data=x", .misplacedSet),
        ("as A update generic-password account=a", .expectedToken),
        ("as A fnd generic-password", .unknownValue),
        ("expect status errSecSucess", .unknownStatus),
        ("expect status 12345", .unknownStatus),
        ("expect stat errSecSuccess", .unknownStatement),
        ("expect count -1", .wrongValueType),
        ("platform ios", .expectedToken),
        ("platform android 14", .unknownValue),
        ("app a.b\nplatform ios 12", .misplacedDeclaration),
        ("platform ios 12\nplatform ios 13", .misplacedDeclaration),
        ("group com.x.S", .expectedToken),
        ("team SKMME9E2Y8 extra words", .unexpectedToken),
        ("as A add generic-password limit=-1", .wrongValueType),
        ("as A add generic-password access-control=[biometry-any, or]", .expectedToken),
        ("as A add generic-password access-control=[biometry-any, and, user-presence, or, device-passcode]", .unexpectedToken),
        ("as A add generic-password access-control=[biometry-any, device-passcode, and, application-password]", .expectedToken),
        ("as A add generic-password access-control=[biometry-any, and, device-passcode, application-password]", .expectedToken),
        // SecAccessControlCreateWithFlags (SecAccessControl.m) refuses these.
        ("as A add generic-password access-control=[user-presence, or, biometry-any]", .unexpectedToken),
        ("as A add generic-password access-control=[user-presence, and, application-password]", .unexpectedToken),
        ("as A add generic-password access-control=[biometry-any, or, biometry-current-set]", .unexpectedToken),
        ("app a.b kind=plugin", .unknownValue),
        ("app a.b tem=X", .unknownAttribute),
        ("as A find generic-password return=[data", .unexpectedEndOfInput),
        ("\"string first\"", .unknownStatement),
    ]

    @Test(arguments: errors + FormsParserTests.errors)
    func reportsSyntaxErrors(_ input: String, _ code: DiagnosticCode) {
        let (_, diagnostics) = parseLine(input)
        #expect(diagnostics.contains(code), "\(input) gave \(diagnostics)")
    }

    @Test func reportsEverySyntaxErrorInOnePass() {
        let source = """
            tem SKMME9E2Y8
            app com.example.AppOne
            as AppOne add generic-pasword service=s
            expect status errSecSucess
            as AppOne find generic-password
            """
        let (program, diagnostics) = Parser.parse(SourceFile(name: "t.kcs", text: source))
        #expect(diagnostics.map(\.code) == [.unknownStatement, .unknownClass, .unknownStatus])
        #expect(diagnostics.compactMap(\.location?.line) == [1, 3, 4])
        // The good lines still parse (recovery at the next line).
        #expect(program.statements.count == 2)
    }

    @Test func rejectsNulBytesAndInvalidUTF8() {
        let nul = SourceFile(name: "t", bytes: Array("team X\0".utf8))
        #expect(Parser.parse(nul).diagnostics.map(\.code) == [.nulByte])
        let bad = SourceFile(name: "t", bytes: [0x74, 0x65, 0xFF, 0x0A])
        let d = Parser.parse(bad).diagnostics
        #expect(d.map(\.code) == [.invalidUTF8])
        #expect(d.first?.location == SourceLocation(line: 1, column: 3))
        let overlong = SourceFile(name: "t", bytes: [0xC0, 0xAF])
        #expect(Parser.parse(overlong).diagnostics.map(\.code) == [.invalidUTF8])
        let truncated = SourceFile(name: "t", bytes: [0x61, 0xE2, 0x82])
        #expect(Parser.parse(truncated).diagnostics.map(\.code) == [.invalidUTF8])
    }

    @Test func incompleteInputIsItsOwnKind() {
        let (_, diagnostics) = Parser.parse(SourceFile(name: "t", text: "expect groups A [X.a,\n"))
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.isIncompleteInput == true)
    }

    @Test func everyStatementFormIsInTheTable() {
        for form in StatementForm.all {
            let (_, diagnostics) = parseLine(form.example)
            #expect(!diagnostics.contains(.unknownStatement), "example of \(form.keyword) does not parse")
            #expect(!diagnostics.contains(where: { $0.rawValue < "KCS300" }), "\(form.example): \(diagnostics)")
        }
    }
}

@Suite struct VocabularyTableTests {
    /// Each attribute name, short or framework spelling, is listed once: a
    /// name given twice would mean whichever lookup came first.
    @Test func everyArgumentNameIsListedOnce() {
        let names = Vocabulary.argumentNames
        #expect(Set(names).count == names.count, "\(names.filter { n in names.filter { $0 == n }.count > 1 })")
        for name in names { #expect(Vocabulary.argumentKey(named: name) != nil, "\(name)") }
    }
}
