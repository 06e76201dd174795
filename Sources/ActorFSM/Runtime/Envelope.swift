/// An event with the predicates it was sent with, for `post(contentsOf:)` (see ``Machine``).
public struct Envelope<Event: Sendable>: Sendable {
    /// The event.
    public var event: Event
    /// Its predicates; `nil` uses the machine's standing predicates.
    public var predicates: PredicateContext?

    /// Wraps an event and its predicates.
    public init(_ event: Event, predicates: PredicateContext? = nil) {
        self.event = event
        self.predicates = predicates
    }
}
