/// An event with the predicates it was sent with, for ``Machine/consume(_:)``.
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

/// An accepted event waiting in a machine's inbox.
@usableFromInline
struct InboxEntry<State: Hashable & Sendable, Event: Sendable, ID: Hashable & Sendable>: Sendable {
    @usableFromInline typealias Record = TransitionRecord<State, Event, ID>

    /// The event; `nil` for a state timeout.
    @usableFromInline let event: Event?
    @usableFromInline let predicates: PredicateContext?
    @usableFromInline let origin: EventOrigin
    @usableFromInline let acceptedAt: ContinuousClock.Instant
    /// Identifies the entry, for withdrawal when its sender is cancelled.
    @usableFromInline let ticket: UInt64
    /// The machines whose actions were running in the sender's task, so that a cycle of awaited
    /// sends is detected even when this event is processed later, from the inbox.
    @usableFromInline let senderScope: [ObjectIdentifier]
    /// Resumed with the record, for `send` (with `nil` if the sender withdrew the event); `nil`
    /// for posted events.
    @usableFromInline let reply: CheckedContinuation<Record?, Never>?
    /// For a timeout or a state task's result, the entry into the state it belongs to (see
    /// `StateTimers.epoch`): it is dropped if the machine has left that state by its turn. 0 otherwise.
    @usableFromInline let epoch: UInt64

    @usableFromInline
    init(
        event: Event?, predicates: PredicateContext?, origin: EventOrigin, acceptedAt: ContinuousClock.Instant,
        ticket: UInt64, senderScope: [ObjectIdentifier], reply: CheckedContinuation<Record?, Never>?, epoch: UInt64 = 0
    ) {
        self.event = event
        self.predicates = predicates
        self.origin = origin
        self.acceptedAt = acceptedAt
        self.ticket = ticket
        self.senderScope = senderScope
        self.reply = reply
        self.epoch = epoch
    }
}
