import Foundation
import KCSXcodeProject
import Testing

@Suite("Old-style property lists (project.pbxproj)")
struct OldStylePlistTests {
    func parse(_ text: String) -> Result<PlistNode, PlistError> { OldStylePlistParser.parse(Array(text.utf8)) }

    @Test func readsEveryValueForm() throws {
        let text = """
            // !$*UTF8*$!
            {
            \t/* a comment */ name = "a \\"quoted\\" \\\\ value\\n";
            \tbare = com.example.App_1-2/$X:y;
            \tlist = (one, "two", ( nested ), );
            \tdict = { k = v; };
            \tdata = <0fAB 12>;
            \toctal = "\\101\\U00e9";
            \tsingle = 'it\\'s';
            }
            """
        let root = try parse(text).get()
        #expect(root["name"]?.string == "a \"quoted\" \\ value\n")
        #expect(root["bare"]?.string == "com.example.App_1-2/$X:y")
        #expect(root["list"]?.array?.count == 3)
        #expect(root["list"]?.array?[2].array?.first?.string == "nested")
        #expect(root["dict"]?["k"]?.string == "v")
        #expect(root["data"]?.kind == .data([0x0F, 0xAB, 0x12]))
        #expect(root["octal"]?.string == "Aé")
        #expect(root["single"]?.string == "it's")
        #expect(root.entries?.first { $0.key == "list" }?.keyLine == 5)
        #expect(root["dict"]?.line == 6)
    }

    @Test func errorsSayWhere() {
        let cases: [(String, Int, Int, String)] = [
            ("{\n  a = \"open;\n}", 2, 7, "unterminated string"),
            ("{\n  a = b\n}", 3, 1, "expected ';'"),
            ("{ a = b; /* never closed", 1, 10, "unterminated comment"),
            ("{ a = <0f1>; }", 1, 7, "odd number"),
            ("{ a = (b c); }", 1, 10, "expected ',' or ')'"),
            ("{ a = b; } extra", 1, 12, "after the property list"),
            ("{ = b; }", 1, 3, "expected a key"),
        ]
        for (text, line, column, message) in cases {
            guard case .failure(let e) = parse(text) else {
                Issue.record("\(text) parsed")
                continue
            }
            #expect(e.line == line, "\(text): \(e)")
            #expect(e.column == column, "\(text): \(e)")
            #expect(e.message.contains(message), "\(text): \(e.message)")
        }
    }

    @Test func mutatedProjectsParseOrFailWithALocationInsideTheText() {
        let f = XcodeFixture.appWidgetShare()
        defer { f.remove() }
        let original = Array((try? Data(contentsOf: URL(fileURLWithPath: f.path("App.xcodeproj/project.pbxproj")))) ?? Data())
        #expect((try? OldStylePlistParser.parse(original).get()) != nil)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let alphabet = Array("{}();=,<>\"\\/*\n ab0".utf8)
        let lines = original.split(separator: 0x0A, omittingEmptySubsequences: false).count
        for _ in 0..<500 {
            var bytes = original
            for _ in 0..<(1 + next(4)) {
                let i = next(bytes.count)
                switch next(3) {
                case 0: bytes[i] = alphabet[next(alphabet.count)]
                case 1: bytes.remove(at: i)
                default: bytes.insert(alphabet[next(alphabet.count)], at: i)
                }
            }
            if case .failure(let e) = OldStylePlistParser.parse(bytes) {
                #expect(e.line >= 1 && e.line <= lines + 2 && e.column >= 1)
            }
        }
    }

    @Test func aParseStopsWhenItsTimeLimitPasses() throws {
        // A run's deadline held while files were read, not while the
        // project.pbxproj was parsed: 61 MB took 37 s under `kcs run
        // --timeout 1` (session 20). The parse asks as it goes, and stops.
        let text = "{ objects = {" + (0..<20_000).map { "A\($0) = {isa = PBXFileReference; path = f\($0).swift;};" }.joined() + "}; }"
        var asked = 0
        guard case .failure(let e) = OldStylePlistParser.parse(Array(text.utf8), isLate: { asked += 1; return asked == 3 }) else {
            Issue.record("parsed past the time limit")
            return
        }
        #expect(asked == 3 && e.message == "the time limit passed while the property list was parsed", "\(e)")
        // Not late: the same text parses, asked every 4,096 values.
        asked = 0
        #expect((try? OldStylePlistParser.parse(Array(text.utf8), isLate: { asked += 1; return false }).get()) != nil)
        #expect(asked == 60_002 / OldStylePlistParser.checkEvery, "\(asked)")
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "(", count: 100_000)
        guard case .failure(let e) = parse(deep) else {
            Issue.record("parsed")
            return
        }
        #expect(e.message.contains("nests more than"))
        let fine = String(repeating: "(", count: 50) + String(repeating: ")", count: 50)
        #expect((try? parse(fine).get()) != nil)
    }
}

@Suite("Build settings expand as Xcode expands them")
struct BuildSettingsTests {
    /// A condition's pattern or the name it is matched against past 256
    /// characters matches only `*`: 40,000-byte ones took pattern × name
    /// steps, 25 s a project (adversarial run 25, F3).
    @Test func longConditionsMatchOnlyAStar() {
        let long = String(repeating: "R", count: 300)
        let settings = BuildSettings([a("A", "exact", [("config", long)]), a("B", "star", [("config", "*")]), a("C", "short", [("config", "R*")])],
                                     context: SettingContext(sdk: "iphoneos", configuration: long))
        #expect(settings.assignments.map(\.value) == ["star"])
        let short = BuildSettings([a("C", "short", [("config", "Rel*")])], context: SettingContext(sdk: "iphoneos", configuration: "Release"))
        #expect(short.assignments.map(\.value) == ["short"])
    }

    func a(_ name: String, _ value: String, _ conditions: [(String, String)] = []) -> SettingAssignment {
        SettingAssignment(name: name, conditions: conditions.map { .init(key: $0.0, pattern: $0.1) }, value: value,
                          location: ProjectLocation(file: "f", line: 1))
    }

    func value(_ name: String, _ stack: [SettingAssignment], sdk: String = "iphoneos", config: String = "Release") -> Expansion {
        BuildSettings(stack, context: SettingContext(sdk: sdk, configuration: config)).value(of: name)
    }

    /// A value longer than any expansion may be is refused before it is
    /// copied: a 1 MB value was copied and scanned in every resolution that
    /// reached it (adversarial run 24, F13). One of 20,000 two-byte
    /// characters (40 KB) is within the bound.
    @Test func aValueLongerThanAnExpansionIsRefusedUnread() {
        let big = value("ID", [a("BIG", String(repeating: "a", count: 1_000_000) + "$(NOTHING)"), a("ID", "com.example.app$(BIG:default=x)")])
        #expect(big.value == "com.example.appx", "\(big.value.prefix(40))")
        #expect(big.problems.contains("an expanded value is longer than 65536 characters"), "\(big.problems)")
        let wide = value("ID", [a("WIDE", String(repeating: "é", count: 20_000)), a("ID", "$(WIDE)")])
        #expect(wide.value.unicodeScalars.count == 20_000 && wide.problems.isEmpty, "\(wide.problems)")
    }

    @Test func inheritedAndSelfReferenceMeanTheLevelBelow() {
        #expect(value("FLAGS", [a("FLAGS", "-a"), a("FLAGS", "$(inherited) -b"), a("FLAGS", "$(FLAGS) -c")]).value == "-a -b -c")
        #expect(value("FLAGS", [a("FLAGS", "${inherited} -b")]).value == " -b")
    }

    @Test func otherSettingsAreExpandedLateFromTheTop() {
        let stack = [a("PRODUCT_NAME", "Base"), a("PRODUCT_BUNDLE_IDENTIFIER", "com.example.$(PRODUCT_NAME)"), a("PRODUCT_NAME", "Widget")]
        #expect(value("PRODUCT_BUNDLE_IDENTIFIER", stack).value == "com.example.Widget")
    }

    @Test func everyReferenceForm() {
        let stack = [a("A", "x"), a("NAME", "A"), a("B", "$A-${A}-$(A)-$($(NAME))-$ -$$(A)")]
        #expect(value("B", stack).value == "x-x-x-x-$ -$x")
    }

    @Test func operators() {
        let stack = [a("P", "My App_1é"), a("F", "/a/b/c.tar.gz"), a("E", "")]
        let cases = [
            ("$(P:rfc1034identifier)", "My-App-1-"), ("$(P:lower)", "my app_1é"), ("$(P:upper)", "MY APP_1É"),
            ("$(P:c99extidentifier)", "My_App_1é"), ("$(P:identifier)", "My_App_1_"), ("$(F:base)", "c.tar"),
            ("$(F:dir)", "/a/b"), ("$(F:file)", "c.tar.gz"), ("$(F:suffix)", ".gz"), ("$(E:default=fallback)", "fallback"),
            ("$(P:default=unused)", "My App_1é"), ("$(P:lower,rfc1034identifier)", "my-app-1-"),
            ("$(F:dir:standardizepath)", "/a/b"),
        ]
        for (text, expected) in cases {
            let e = BuildSettings(stack, context: SettingContext(sdk: "iphoneos", configuration: "Release")).expand(text)
            #expect(e.value == expected, "\(text)")
        }
        let leading = BuildSettings([a("N", "1st")], context: SettingContext(sdk: "", configuration: "")).expand("$(N:c99extidentifier)")
        #expect(leading.value == "_1st")
        #expect(MacroOperator.standardizepath.apply("a/./b/../c//d") == "a/c/d")
    }

    @Test func undefinedSettingsExpandToNothingAndAreReported() {
        let e = value("ID", [a("ID", "com.example.$(MISSING).$(TARGET_NAME)"), a("TARGET_NAME", "App")])
        #expect(e.value == "com.example..App")
        #expect(e.undefined == ["MISSING"])
    }

    @Test func aDefaultMeansTheSettingMayBeUndefined() {
        // $(NAME:default=VALUE) is written for a setting a project may leave
        // undefined (an optional #include? file overrides it): not reported.
        let taken = value("ID", [a("ID", "$(ORG:lower:default=com.example).$(INNER:default=x).$(MISSING)"), a("INNER", "$(DEEP)")])
        #expect(taken.value == "com.example.x.")
        #expect(taken.undefined == ["MISSING"])
        // A default not taken leaves what the value's own lookup found undefined.
        let kept = value("ID", [a("ID", "$(PART:default=unused)"), a("PART", "a$(GONE)")])
        #expect(kept.value == "a")
        #expect(kept.undefined == ["GONE"])
    }

    @Test func conditionsPickTheSDKConfigurationAndArchitecture() {
        let stack = [
            a("ID", "plain"), a("ID", "ios", [("sdk", "iphoneos*")]), a("ID", "mac", [("sdk", "macosx*")]),
            a("ID", "ios-debug", [("sdk", "iphoneos*"), ("config", "Debug")]), a("ID", "intel", [("arch", "x86_64")]),
        ]
        #expect(value("ID", stack).value == "ios")
        #expect(value("ID", stack, sdk: "macosx").value == "mac")
        #expect(value("ID", stack, config: "Debug").value == "ios-debug")
        #expect(value("ID", stack, sdk: "watchos").value == "plain")
        #expect(SettingAssignment.splitKey("A[sdk=iphoneos*][config=Release]")?.1.count == 2)
        #expect(SettingAssignment.splitKey("A[sdk=iphoneos*") == nil)
    }

    @Test func cyclesAndBlowUpsEndQuickly() {
        let cycle = value("A", [a("A", "$(B)"), a("B", "$(A)x")])
        #expect(cycle.problems.contains { $0.contains("cycle") })
        // Each level names the one below twice: without memoising this is 2^60 steps.
        var stack = [a("L0", "")]
        for i in 1...60 { stack.append(a("L\(i)", "$(L\(i - 1))$(L\(i - 1))")) }
        #expect(value("L60", stack).value == "")
        var growing = [a("G0", "ab")]
        for i in 1...40 { growing.append(a("G\(i)", "$(G\(i - 1))$(G\(i - 1))")) }
        let big = value("G40", growing)
        #expect(big.value.count < 1 << 18)
        #expect(big.problems.contains { $0.contains("longer than") })
        #expect(value("A", [a("A", "$(B")]).problems.contains { $0.contains("missing its closing") })
        // References inside references' names and defaults, 5,000 deep:
        // each level recursed, and the stack overflowed.
        let names = String(repeating: "$(", count: 5000) + "X" + String(repeating: ")", count: 5000)
        let defaults = String(repeating: "$(U:default=", count: 5000) + "X" + String(repeating: ")", count: 5000)
        for text in [names, defaults, names.replacingOccurrences(of: "(", with: "{").replacingOccurrences(of: ")", with: "}")] {
            #expect(value("A", [a("A", text)]).problems.contains { $0.contains("nest more than") })
        }
        // Refused before expanding (each level copied the rest of the value),
        // counted on the text: 64 levels are expanded, 65 are not.
        let nest = { (n: Int) in String(repeating: "${A_", count: n) + "X" + String(repeating: "}", count: n) }
        #expect(value("P", [a("P", "a" + nest(65))]).value == "")
        #expect(value("P", [a("P", "a" + nest(65))]).problems.contains { $0.contains("nest more than") })
        #expect(value("P", [a("P", "a" + nest(3)), a("A_X", "1"), a("A_1", "2"), a("A_2", "3")]).value == "a3")
        // Through an indirection, and with closers of the other kind between.
        let indirect = value("P", [a("P", "com.example.$(APP_X)"), a("APP_X", nest(65))])
        #expect(indirect.value == "com.example." && indirect.problems.contains { $0.contains("nest more than") })
        let mixed = String(repeating: "$(A_}", count: 65)
        #expect(value("P", [a("P", mixed)]).problems.contains { $0.contains("nest more than") })
    }

    /// The names a value refers to, each once, whichever spelling: a `$(`
    /// anywhere hid every `${…}` before it (adversarial run 23, F1).
    @Test func aMisspeltReferenceIsFoundThroughBothSpellings() {
        let stack = BuildSettings([a("A", "group.$(DEVELOPMENT_TEM)"), a("B", "x")],
                                  context: SettingContext(sdk: "iphoneos", configuration: "Release"))
        #expect(stack.assignment(naming: "DEVELOPMENT_TEM", from: "${A}.$(B)")?.name == "A")
        #expect(stack.assignment(naming: "DEVELOPMENT_TEM", from: "$(B)${A}")?.name == "A")
        #expect(stack.assignment(naming: "DEVELOPMENT_TEM", from: "${B}") == nil)
    }
}
