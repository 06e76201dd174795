/// A transition as the schema stores it: everything by dense id.
struct CompiledTransition<State: Sendable, Event: Sendable>: Sendable {
    let source: Int32
    let event: Int32
    let target: Int32
    let filter: PredicateFilter
    let guards: [Guard<Event>]
    let actions: Actions<State, Event>
    let location: SourceLocation
    let isOverride: Bool

    /// Whether every condition holds for `event` (`nil` for a timeout).
    func admits(_ event: Event?) -> Bool {
        for condition in guards where !condition.test(event) { return false }
        return true
    }

    /// The same transition, answering to the event with id `event`.
    func with(event: Int32) -> CompiledTransition {
        CompiledTransition(source: source, event: event, target: target, filter: filter, guards: guards,
                           actions: actions, location: location, isOverride: isOverride)
    }
}

/// The transitions of one (state, event) pair, expanded over the predicate types they use.
@usableFromInline
struct LookupGroup: Sendable {
    /// The predicate slots this group depends on, ascending.
    @usableFromInline let slots: [Int32]
    /// The weight of each slot's case id in the combined index.
    @usableFromInline let strides: [Int32]
    /// Where this group's entries start in the schema's entry table.
    @usableFromInline let base: Int32
}
