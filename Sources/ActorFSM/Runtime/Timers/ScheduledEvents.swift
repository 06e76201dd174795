/// The events a machine has posted with a delay and not yet delivered, so that `finish()` and
/// `stop()` can cancel them. A pure value: the machine keeps it behind its mailbox's lock, since
/// scheduled events are made from any thread, and closing it under that lock is what guarantees
/// that no scheduled event is accepted once the machine has stopped taking events.
struct ScheduledEvents: Sendable {
    private var pending: [ObjectIdentifier: ScheduledEvent] = [:]
    private var isOpen = true

    /// Remembers `event`, to cancel it if the machine stops first.
    ///
    /// - Returns: `false` if the machine no longer takes events: the post is refused.
    mutating func add(_ event: ScheduledEvent) -> Bool {
        guard isOpen else { return false }
        pending[ObjectIdentifier(event)] = event
        return true
    }

    /// Forgets `event`: its wait ended, elapsed or cancelled.
    mutating func remove(_ event: ScheduledEvent) {
        if !pending.isEmpty { pending[ObjectIdentifier(event)] = nil }
    }

    /// Takes no more scheduled events.
    ///
    /// - Returns: those still waiting: cancel them.
    mutating func close() -> [ScheduledEvent] {
        isOpen = false
        guard !pending.isEmpty else { return [] }
        defer { pending = [:] }
        return Array(pending.values)
    }
}
