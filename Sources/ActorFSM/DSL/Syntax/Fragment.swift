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
    /// The statement's place among the alternatives of a `firstOf { }` block, if it is in one.
    var alternative: Alternative?
    /// Whether the statement starts with `otherwise()`.
    var isOtherwise = false
}

/// A statement's place in a `firstOf { }` block: the block, and the statement's position in it.
struct Alternative: Sendable, Hashable {
    /// Tells one `firstOf` block from another, also two made at one line (by a helper function).
    let group: Int
    /// The statement's position in the block, in the order written.
    let position: Int
    /// Where the block was opened.
    let blockLocation: SourceLocation
}

/// Where a transition goes: a named state, or `then()`, which stays put.
enum Target<State: Sendable>: Sendable {
    case state(State)
    case unchanged
    /// `postpone()`: the event waits, in the current state, for the next change of state.
    case postpone
}

/// A run-time condition from `condition { … }`.
@usableFromInline
struct Guard<Definition: MachineDefinition>: Sendable {
    /// The test as written: one call of the user's closure, with no wrapper around it.
    @usableFromInline
    enum Test: Sendable {
        case plain(@Sendable () -> Bool)
        case data(@Sendable (Definition.Data) -> Bool)
        /// False for a timeout, which has no event (the schema refuses such a transition).
        case event(@Sendable (Definition.Event) -> Bool)
    }

    @usableFromInline let test: Test
    let location: SourceLocation

    /// Whether the condition reads the event, which a timeout cannot give it.
    var readsEvent: Bool { if case .event = test { true } else { false } }

    /// Whether the condition holds for `event` (`nil` for a timeout) and the machine's `data`.
    @inlinable @inline(__always)
    func holds(_ event: Definition.Event?, _ data: Definition.Data) -> Bool {
        switch test {
        case .plain(let condition): condition()
        case .data(let condition): condition(data)
        case .event(let condition): event.map(condition) ?? false
        }
    }
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
