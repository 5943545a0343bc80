import KCSSyntax
import KeychainEngine

// The lowered program: statements in the model's terms, as the session runs
// them. What was written is KCSSyntax's tree; ``Parser`` lowers it to this.

/// One statement: what it is, the device it is aimed at (`on DEVICE`), and
/// the whole line it covers.
public struct Statement: Sendable {
    public var kind: StatementKind
    public var device: Name?
    public var range: SourceRange
}

/// A SecItem call as written: `[on DEVICE] as APP OP CLASS ATTR=VALUE… [set ATTR=VALUE…]`.
/// The arguments are already checked and lowered to the engine's request.
///
/// The fields live in one shared box, copied on write: a statement passes
/// from the parser to the session, the lint and the last call, and each
/// copy is one reference, not a request's worth of strings and arrays.
public struct CallStatement: Sendable {
    private struct Fields {
        var app: Name
        var request: CallRequest
        var operationRange: SourceRange
        var classRange: SourceRange?
        /// The names resolved at run time, in a box of their own and absent
        /// when the call names none (the common call): inline, each
        /// call's record destroyed three optional names.
        var runtimeNames: RuntimeNames?
    }
    final class RuntimeNames: Sendable {
        let persistentRef: Name?
        let context: Name?
        let changedPersistentRef: Name?
        init(persistentRef: Name?, context: Name?, changedPersistentRef: Name?) {
            self.persistentRef = persistentRef
            self.context = context
            self.changedPersistentRef = changedPersistentRef
        }
        /// A box, or nil when all three are.
        static func make(_ persistentRef: Name?, _ context: Name?, _ changedPersistentRef: Name?) -> RuntimeNames? {
            persistentRef == nil && context == nil && changedPersistentRef == nil ? nil
                : RuntimeNames(persistentRef: persistentRef, context: context, changedPersistentRef: changedPersistentRef)
        }
    }
    /// Immutable: a `let` lets a reader borrow the request in place (a
    /// `var` in a class made every read copy it, strings and arrays
    /// retained, since the optimizer cannot prove no write happens during
    /// the borrow). A change, rare (a call's persistent reference), makes a
    /// new box.
    private final class Storage: Sendable {
        let fields: Fields
        @inline(__always) init(_ fields: consuming Fields) { self.fields = fields }
    }
    private var storage: Storage

    public init(app: Name, request: consuming CallRequest, operationRange: SourceRange, classRange: SourceRange?,
                persistentRef: Name?, context: Name?, changedPersistentRef: Name?) {
        // Moved in: passed on without `consume`, the request was copied and the parameter destroyed.
        storage = Storage(Fields(app: app, request: consume request, operationRange: operationRange, classRange: classRange,
                                 runtimeNames: RuntimeNames.make(persistentRef, context, changedPersistentRef)))
    }

    /// The same with the names resolved at run time in their box, nil when
    /// the call names none: the lowering's common call passes no names to
    /// destroy.
    init(app: Name, request: consuming CallRequest, operationRange: SourceRange, classRange: SourceRange?,
         runtimeNames: RuntimeNames?) {
        storage = Storage(Fields(app: app, request: consume request, operationRange: operationRange, classRange: classRange,
                                 runtimeNames: runtimeNames))
    }

    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = storage.fields
        body(&fields)
        storage = Storage(fields)
    }

    public var app: Name {
        get { storage.fields.app }
        set { change { $0.app = newValue } }
    }
    public var request: CallRequest {
        get { storage.fields.request }
        set { change { $0.request = newValue } }
    }
    public var operationRange: SourceRange {
        get { storage.fields.operationRange }
        set { change { $0.operationRange = newValue } }
    }
    public var classRange: SourceRange? {
        get { storage.fields.classRange }
        set { change { $0.classRange = newValue } }
    }
    /// `persistent-ref=NAME`: resolved to the kept reference when the call runs.
    public var persistentRef: Name? {
        get { storage.fields.runtimeNames?.persistentRef }
        set {
            let names = RuntimeNames.make(newValue, context, changedPersistentRef)
            change { $0.runtimeNames = names }
        }
    }
    /// `context=NAME`: checked against the declared contexts when the call runs.
    public var context: Name? {
        get { storage.fields.runtimeNames?.context }
        set {
            let names = RuntimeNames.make(persistentRef, newValue, changedPersistentRef)
            change { $0.runtimeNames = names }
        }
    }
    /// `persistent-ref=NAME` after `set`: a device refuses it (errSecNoSuchAttr).
    public var changedPersistentRef: Name? {
        get { storage.fields.runtimeNames?.changedPersistentRef }
        set {
            let names = RuntimeNames.make(persistentRef, context, newValue)
            change { $0.runtimeNames = names }
        }
    }
    /// Whether the call names a persistent reference or a context, which
    /// are resolved when it runs.
    public var namesRuntimeObjects: Bool { storage.fields.runtimeNames != nil }
}

/// One `ATTR=VALUE` as written.
public struct CallArgument: Sendable, Hashable {
    public var key: ArgumentKey
    public var range: SourceRange
    /// After `set`: an attribute to change.
    public var isChange: Bool
}

/// A status in `expect status`, by name or number.
public struct StatusRef: Sendable, Hashable {
    public var status: KeychainStatus
    public var range: SourceRange
}

/// The statuses of `expect status A or B …`: the first is held in place,
/// so the common single status costs no allocation.
public struct StatusRefs: RandomAccessCollection, Sendable, Hashable {
    public var head: StatusRef
    public var rest: [StatusRef]

    public init(_ head: StatusRef, _ rest: [StatusRef] = []) {
        self.head = head
        self.rest = rest
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { 1 + rest.count }
    public subscript(i: Int) -> StatusRef { i == 0 ? head : rest[i - 1] }
}

/// What `show` shows.
public enum ShowTarget: Sendable, Hashable {
    case apps, items, matrix
    case app(Name)
}

/// `biometry enroll|change|remove`.
public enum BiometryChange: String, Sendable, Hashable, CaseIterable {
    case enroll, change, remove
}

/// Every statement form of language.md.
public enum StatementKind: Sendable {
    case platform(Platform)
    case team(id: Name, alias: Name?)
    // The large payloads are boxed (indirect): every statement moves
    // through the run loop, and a case as large as a declaration made each
    // move copy hundreds of bytes.
    indirect case app(AppDeclaration)
    case group(name: Name, apps: [Name])
    case include(path: String, resolved: String?)
    indirect case device(name: Name, account: Name?, platform: Platform?)
    case call(CallStatement)
    case expectStatus(StatusRefs)
    case expectCount(Int)
    case expectData(String)
    /// `expect no-data`: the result carries no data at all.
    case expectNoData
    /// `expect persistent-ref NAME`: the first item is the one NAME refers to.
    case expectPersistentRef(Name)
    /// `keep persistent-ref as NAME`.
    case keepPersistentRef(Name)
    /// `context NAME [reuse=SECONDS] [interaction=true|false]`.
    indirect case context(name: Name, AuthContext)
    /// `wait SECONDS`.
    case wait(Int)
    case expectGroup(Name)
    indirect case expectItem(ItemSpec, [CallArgument])
    case expectGroups(app: Name, groups: [Name])
    case expectDefaultGroup(app: Name, group: Name)
    case passcode(Bool)
    case lock, unlock, reboot
    case biometry(BiometryChange)
    case user(PromptAnswer)
    case uninstall(Name), install(Name), resign(Name)
    case transfer(app: Name, team: Name)
    case sync
    case backup(device: Name, name: Name, encrypted: Bool)
    case restore(name: Name, device: Name)
    case show(ShowTarget)
    case explain
    case reset

    /// How running it may change the number of items the world holds (its
    /// devices' keychains and tombstones, its backups): the item limit is
    /// counted again only after a statement that may change it beyond a
    /// known bound.
    var itemCountChange: ItemCountChange {
        switch self {
        case .expectStatus, .expectCount, .expectData, .expectNoData, .expectPersistentRef, .keepPersistentRef,
             .wait, .expectGroup, .expectItem, .expectGroups, .expectDefaultGroup, .lock, .unlock, .biometry,
             .user, .show, .explain, .platform, .team, .group, .context, .device: .none
        // An add stores one item, an identity two; a find stores none; a
        // delete keeps the count or lowers it (a deleted row becomes at most
        // one tombstone). An update that changes the key of synchronizable
        // items leaves a tombstone per item: counted again (found by
        // adversarial testing: 21 million items past the limit, unreported).
        case .call(let call):
            switch call.request.operation {
            case .add: .atMost(2)
            case .find, .delete: .none
            // At most one tombstone per item it changed, said by its result;
            // an identity's two passes, or a class from a reference, recount.
            case .update: call.request.spec.itemClass == nil || call.request.spec.itemClass == .identity ? .any : .perChangedItem
            }
        default: .any
        }
    }

    enum ItemCountChange { case none, atMost(Int), perChangedItem, any }
}

/// `app BUNDLEID [as NAME] [team=T] [kind=…] [keychain-access-groups=[…]] [application-groups=[…]]`
public struct AppDeclaration: Sendable {
    public var bundleID: Name
    public var alias: Name?
    /// `team=T`; `team=none` declares an unsigned target.
    public var team: Name?
    public var kind: TargetKind
    public var keychainAccessGroups: [Name]?
    public var applicationGroups: [Name]?
    /// `provisioned=false`: signed without a provisioning profile (macOS).
    public var provisioned = true
    /// `signing=provisioned|unprovisioned|no-app-id`; `provisioned=false` is
    /// `signing=unprovisioned`.
    public var signing: Signing?
    /// `associated-application-identifier=[…]` (Mac Catalyst).
    public var associatedApplicationIdentifiers: [Name]?
    /// `app-id-prefix=`: a legacy App ID prefix other than the team ID.
    public var appIDPrefix: Name?

    /// The signing shade the options give.
    public var effectiveSigning: Signing { signing ?? (provisioned ? .provisioned : .unprovisioned) }
    /// `entitlements="PATH"`: read the team, app ID and groups from an
    /// entitlements file, codesign output or provisioning profile.
    public var entitlements: Name?
    /// `project="App.xcodeproj"`: the bundle ID, team, kind and entitlements
    /// come from the project; the word after `app` names the target.
    public var project: Name?
    /// `target="Name"`: the project's target, when it is not the app's name.
    public var target: Name?
    /// `configuration="Debug"`: the configuration to resolve (default: the project's).
    public var configuration: Name?

    /// The script name: the alias, else the last component of the bundle ID.
    public var name: String {
        if let alias { return alias.text }
        if project != nil { return bundleID.text }
        return bundleID.text.split(separator: ".").last.map(String.init) ?? bundleID.text
    }
}

/// A parsed script: its statements and the file they came from.
public struct Program: Sendable {
    public var file: SourceFile
    public var statements: [Statement]
}
