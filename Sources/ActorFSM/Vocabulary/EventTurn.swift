/// One event's pass through a machine, as one value: what reached the machine (the event, its
/// predicates, how and when it came) and what its turn gave it (its number, the state it found,
/// how often it was postponed before). Processing hands it from step to step, and the event's
/// record is made from it.
@usableFromInline
package struct EventTurn<Definition: MachineDefinition>: Sendable {
    /// The event; `nil` for a state timeout.
    @usableFromInline package let event: Definition.Event?
    /// The predicates it is processed with.
    @usableFromInline package let predicates: PredicateContext
    /// How it reached the machine.
    @usableFromInline package let origin: EventOrigin
    /// When the machine accepted it.
    @usableFromInline package let acceptedAt: Timestamp
    /// Its number among the machine's events; 0 for an event postponed on this turn.
    @usableFromInline package let number: UInt64
    /// The state it found.
    @usableFromInline package let source: Definition.State
    /// How often it was postponed before this turn.
    @usableFromInline package let postponements: UInt32

    @inlinable
    package init(
        _ event: Definition.Event?, predicates: PredicateContext, origin: EventOrigin, acceptedAt: Timestamp,
        number: UInt64, source: Definition.State, postponements: UInt32 = 0
    ) {
        self.event = event
        self.predicates = predicates
        self.origin = origin
        self.acceptedAt = acceptedAt
        self.number = number
        self.source = source
        self.postponements = postponements
    }
}
