/// One transition of one state as the compiler sees it: a statement split per event, its
/// predicates combined into a filter.
struct Candidate<Definition: MachineDefinition>: Sendable {
    @usableFromInline package typealias State = Definition.State
    @usableFromInline package typealias Event = Definition.Event
    let fragment: Fragment<Definition>
    let event: EventMatcher<Event>
    let filter: PredicateFilter
    /// The super state whose block holds the statement (`nil` for a `define`'s own).
    let declaredIn: ObjectIdentifier?

    /// Which statement this is, wherever it is inherited from: a super state adopted twice
    /// yields candidates of one origin twice. Alternatives of a `firstOf` block made by a helper
    /// share the helper's line, and are told apart by their place in the block.
    struct Origin: Hashable {
        let superState: ObjectIdentifier?
        let location: SourceLocation
        let event: SendableHashable
        let alternative: Alternative?
    }

    var origin: Origin {
        Origin(superState: declaredIn, location: location, event: event.identity, alternative: fragment.alternative)
    }

    var location: SourceLocation { fragment.location }
    var isOverride: Bool { fragment.isOverride }

    /// What an `override` shares with the statements it replaces: the event (the state is the
    /// adopter's), whatever their predicates, as in the Swift FSM guide.
    var overrideKey: SendableHashable { event.identity }
}
