/// What a machine keeps behind its one lock: the ``Inbox`` of accepted events, and the
/// ``ScheduledEvents`` not yet delivered. Both are reached from any thread; sharing the lock keeps a
/// machine at one lock. Closing stops the scheduled events first, in the same turn of the lock in
/// which an idle inbox stops, so that no scheduled event is accepted once the machine stops taking
/// events.
@usableFromInline
struct Mailbox<Definition: MachineDefinition>: Sendable {
    @usableFromInline package typealias State = Definition.State
    @usableFromInline package typealias Event = Definition.Event
    @usableFromInline package typealias ID = Definition.ID
    /// The accepted events not yet started, and the senders waiting for room.
    @usableFromInline var inbox: Inbox<Definition>
    /// The events posted with a delay and not yet delivered.
    var scheduledEvents = ScheduledEvents()

    @inlinable
    init(capacity: Int) {
        inbox = Inbox(capacity: capacity)
    }
}
