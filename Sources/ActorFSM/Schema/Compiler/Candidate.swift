/// One transition of one state as the compiler sees it: a statement split per event, its
/// predicates combined into a filter.
struct Candidate<State: Sendable, Event: Sendable>: Sendable {
    let fragment: Fragment<State, Event>
    let event: EventMatcher<Event>
    let filter: PredicateFilter

    var location: SourceLocation { fragment.location }
    var isOverride: Bool { fragment.isOverride }

    /// What an `override` must share with the statements it replaces.
    var overrideKey: OverrideKey { OverrideKey(event: event.identity, filter: filter) }

    struct OverrideKey: Hashable {
        let event: SendableHashable
        let filter: PredicateFilter
    }
}
