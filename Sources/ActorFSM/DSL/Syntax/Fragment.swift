/// One statement of the DSL as far as it has been written: the parts a context block or a later
/// pipe stage has not supplied yet are still empty.
struct Fragment<Definition: MachineDefinition>: Sendable {
    @usableFromInline package typealias State = Definition.State
    @usableFromInline package typealias Event = Definition.Event
    var events: [EventMatcher<Event>] = []
    var target: Target<State>?
    var clauses: [MatchClause] = []
    var guards: [Guard<Definition>] = []
    var actions = Actions<Definition>()
    var isOverride = false
    /// Where the statement starts: its leftmost pipe stage.
    var location: SourceLocation
}

/// Where a transition goes: a named state, or `then()`, which stays put.
enum Target<State: Sendable>: Sendable {
    case state(State)
    case unchanged
    /// `postpone()`: the event waits, in the current state, for the next change of state.
    case postpone
}

/// A run-time condition from `condition { … }`.
struct Guard<Definition: MachineDefinition>: Sendable {
    /// The test, given the event (a timeout has none) and the machine's data.
    let test: @Sendable (Definition.Event?, Definition.Data) -> Bool
    /// Whether the condition reads the event, which a timeout cannot give it.
    let readsEvent: Bool
    let location: SourceLocation
}

/// One `matching(…)` statement: `anyOf` holds the `or:` alternatives of one type, `allOf` the
/// `and:` predicates, each of which must hold at once.
struct MatchClause: Sendable {
    let anyOf: [any MatchingPredicate]
    let allOf: [any MatchingPredicate]
    let location: SourceLocation
}

/// One event named by `when`, and how the schema recognises it at run time.
struct EventMatcher<Event: Sendable>: Sendable {
    enum Kind: Sendable, Equatable { case value, caseKey, timeout }

    /// The event (or its case key), for interning while the schema is built.
    let identity: SendableHashable
    let label: String
    let kind: Kind
    /// Builds the run-time lookup from interned identities to dense ids, with the concrete
    /// `Hashable` type in hand so that lookups never box into `AnyHashable`.
    let makeIndex: @Sendable ([SendableHashable]) -> @Sendable (Event) -> Int32?
    /// Builds a tag table for events matched by value, when their type allows one.
    var makeTagTable: @Sendable ([SendableHashable]) -> TagTable? = { _ in nil }

    static func value(_ event: Event) -> EventMatcher where Event: Hashable {
        var matcher = EventMatcher(identity: SendableHashable(event), label: "\(event)", kind: .value) { identities in
            // Safe: every identity of a .value matcher set was made from an `Event` above.
            let values = identities.map { $0.base as! Event }
            if let table = TagTable(values) { return { table.id(of: $0) } }
            let ids = Dictionary(uniqueKeysWithValues: values.enumerated().map { ($1, Int32($0)) })
            return { ids[$0] }
        }
        // Safe: as above, every identity of a .value matcher set was made from an `Event`.
        matcher.makeTagTable = { identities in TagTable(identities.map { $0.base as! Event }) }
        return matcher
    }

    /// `after(duration)`: not an `Event` at all; the compiler numbers timeouts after the events.
    static func timeout(_ duration: Duration) -> EventMatcher {
        let timeout = Timeout(duration)
        return EventMatcher(identity: SendableHashable(timeout), label: timeout.description, kind: .timeout) { _ in
            { _ in nil }
        }
    }

    /// The timeout's duration, for a `.timeout` matcher.
    var timeout: Duration? { (identity.base as? Timeout)?.duration }

    static func key(_ key: Event.CaseKey) -> EventMatcher where Event: CaseKeyed {
        EventMatcher(identity: SendableHashable(key), label: "\(key)", kind: .caseKey) { identities in
            // Safe: every identity of a .caseKey matcher set was made from an `Event.CaseKey`.
            let keys = identities.map { $0.base as! Event.CaseKey }
            if let table = TagTable(keys) { return { table.id(of: $0.caseKey) } }
            let ids = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, Int32($0)) })
            return { ids[$0.caseKey] }
        }
    }
}

/// A type-erased, `Sendable` hashable value, used only while a schema is built: the lookups the
/// schema performs per event are typed.
struct SendableHashable: Hashable, Sendable {
    let base: any Hashable & Sendable

    init(_ base: any Hashable & Sendable) { self.base = base }

    static func == (lhs: SendableHashable, rhs: SendableHashable) -> Bool {
        lhs.base.isEqual(to: rhs.base)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(type(of: base)))
        base.hash(into: &hasher)
    }
}

extension Hashable {
    fileprivate func isEqual(to other: any Hashable) -> Bool {
        (other as? Self) == self
    }
}
