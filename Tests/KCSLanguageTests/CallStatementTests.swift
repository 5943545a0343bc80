import Testing
import KeychainEngine
@testable import KCSRuntime
@testable import KCSSyntax

/// A call statement is a value over an immutable box: a change to a copy
/// (a call whose persistent reference is resolved when it runs) makes a new
/// box and leaves the statement the program holds as it was.
struct CallStatementTests {
    private func call() -> CallStatement {
        var spec = ItemSpec(itemClass: .genericPassword)
        spec.attributes[.account] = .string("a")
        return CallStatement(app: Name(text: "App", range: SourceRange(0, 3)), request: CallRequest(.find, spec),
                             operationRange: SourceRange(4, 8), classRange: nil, persistentRef: nil, context: nil,
                             changedPersistentRef: nil)
    }

    @Test func changingACopyLeavesTheOriginal() {
        let original = call()
        var copy = original
        copy.request.spec.accessGroup = "T.group"
        copy.app = Name(text: "Other", range: SourceRange(0, 5))
        copy.persistentRef = Name(text: "ref", range: SourceRange(9, 12))
        #expect(original.request.spec.accessGroup == nil)
        #expect(original.app.text == "App")
        #expect(original.persistentRef == nil)
        #expect(copy.request.spec.accessGroup == "T.group")
        #expect(copy.request.spec.attributes[.account] == .string("a"))
        #expect(copy.app.text == "Other")
        #expect(copy.persistentRef?.text == "ref")
        #expect(copy.operationRange == original.operationRange)
    }

    /// The names resolved at run time share one box, absent when the call
    /// names none: each is set and read apart from the other two, and
    /// clearing the last one leaves a call that names nothing to resolve.
    @Test func runtimeNamesAreSetAndClearedOneByOne() {
        var c = call()
        #expect(!c.namesRuntimeObjects)
        c.context = Name(text: "ctx", range: SourceRange(9, 12))
        #expect(c.namesRuntimeObjects)
        c.changedPersistentRef = Name(text: "new", range: SourceRange(13, 16))
        c.persistentRef = Name(text: "ref", range: SourceRange(17, 20))
        #expect(c.context?.text == "ctx")
        #expect(c.changedPersistentRef?.text == "new")
        #expect(c.persistentRef?.text == "ref")
        c.context = nil
        c.persistentRef = nil
        #expect(c.namesRuntimeObjects)
        #expect(c.changedPersistentRef?.text == "new")
        #expect(c.context == nil && c.persistentRef == nil)
        c.changedPersistentRef = nil
        #expect(!c.namesRuntimeObjects)
    }
}
