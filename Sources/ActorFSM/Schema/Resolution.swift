/// What an event does in a state: see ``Schema/resolve(_:in:predicates:)``.
public enum Resolution<State: Hashable & Sendable, Event: Sendable>: Sendable {
    /// The transition fires: run its actions and move to its target.
    case transition(Transition<State, Event>)
    /// A transition applies, but one of its conditions returned `false`: nothing happens.
    case conditionFalse(Transition<State, Event>)
    /// No transition applies.
    case unhandled(UnhandledReason)

    /// The transition that fires, if one does.
    public var firingTransition: Transition<State, Event>? {
        if case .transition(let transition) = self { transition } else { nil }
    }
}
