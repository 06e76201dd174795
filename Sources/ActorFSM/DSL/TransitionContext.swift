/// What an action is told about the transition it runs in.
///
/// ```swift
/// when(.coin) | then(.unlocked) | { (context: TransitionContext<State, Event>) in
///     print("\(context.event) moved \(context.source) to \(context.target)")
/// }
/// ```
///
/// The runtime adds more to the context (the machine, follow-up events) without breaking code
/// that reads these properties: create contexts only through the library.
public struct TransitionContext<State: Sendable, Event: Sendable>: Sendable {
    /// The event being processed, with its payload.
    public let event: Event
    /// The state the machine was in when the event arrived.
    public let source: State
    /// The state the machine is in once the transition completes.
    public let target: State
    /// The predicates the event arrived with.
    public let predicates: PredicateContext

    package init(event: Event, source: State, target: State, predicates: PredicateContext) {
        self.event = event
        self.source = source
        self.target = target
        self.predicates = predicates
    }
}
