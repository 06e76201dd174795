/// What an event does in a state: see ``Schema/resolve(_:in:predicates:)-(_,_,PredicateContext)``.
public enum Resolution<Definition: MachineDefinition>: Sendable {
    /// The definition's state type.
    public typealias State = Definition.State
    /// The definition's event type.
    public typealias Event = Definition.Event
    /// The transition fires: run its actions and move to its target.
    case transition(Transition<Definition>)
    /// A transition applies, but one of its conditions returned `false`: nothing happens.
    case conditionFalse(Transition<Definition>)
    /// No transition applies.
    case unhandled(UnhandledReason)

    /// The transition that fires, if one does.
    public var firingTransition: Transition<Definition>? {
        if case .transition(let transition) = self { transition } else { nil }
    }
}
