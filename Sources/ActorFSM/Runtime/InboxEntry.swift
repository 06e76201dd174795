import Synchronization

/// An accepted event waiting in a machine's inbox.
@usableFromInline
package struct InboxEntry<Definition: MachineDefinition>: Sendable {
    @usableFromInline package typealias State = Definition.State
    @usableFromInline package typealias Event = Definition.Event
    @usableFromInline package typealias ID = Definition.ID
    @usableFromInline package typealias Record = TransitionRecord<Definition>

    /// What a waiting `send` is told about its event.
    @usableFromInline
    package enum Reply: Sendable {
        /// The event was processed, or given the outcome `.stopped`: here is its record.
        case processed(Record)
        /// The sender was cancelled and took its event back before it started.
        case withdrawn
        /// The machine stopped taking events while the sender waited for room.
        case refused
        /// The machine was paused before the sender's event was queued.
        case paused
        /// The machine stopped while the event waited in the queue: the event keeps its place,
        /// to get its `.stopped` record after the one in progress.
        case stoppedInQueue
    }

    /// Where a waiting `send` is told about its event. A class, so that an entry holds one plain
    /// reference: a continuation typed by the generic `Reply` made every copy of an entry look
    /// up generic metadata at run time.
    ///
    /// It is answered once; later answers are ignored. `stop()` answers the senders of queued
    /// events at once, while their events stay queued to get their `.stopped` records in order.
    @usableFromInline
    package final class ReplySlot: Sendable {
        @usableFromInline let continuation: CheckedContinuation<Reply, Never>
        @usableFromInline let isAnswered = Atomic<Bool>(false)

        @usableFromInline
        init(_ continuation: CheckedContinuation<Reply, Never>) {
            self.continuation = continuation
        }

        @usableFromInline
        func resume(returning reply: Reply) {
            guard !isAnswered.exchange(true, ordering: .acquiringAndReleasing) else { return }
            continuation.resume(returning: reply)
        }
    }

    /// The event; `nil` for a state timeout.
    @usableFromInline let event: Event?
    @usableFromInline let predicates: PredicateContext?
    @usableFromInline let origin: EventOrigin
    /// How many times a transition postponed the event so far. After `origin`, whose tag byte
    /// leaves room before the next word.
    @usableFromInline var postponements: UInt32 = 0
    @usableFromInline let acceptedAt: Timestamp
    /// Identifies the entry, for withdrawal when its sender is cancelled; 0 when it cannot be.
    @usableFromInline var ticket: UInt64
    /// The machines whose actions were running in the sender's task, so that a cycle of awaited
    /// sends is detected even when this event is processed later, from the inbox.
    @usableFromInline let senderScope: [ObjectIdentifier]
    /// Resumed with the record, for `send`; `nil` for posted events.
    @usableFromInline let reply: ReplySlot?
    /// For a timeout or a state task's result, the entry into the state it belongs to (see
    /// `MachineCore.epoch`): it is dropped if the machine has left that state by its turn. 0 otherwise.
    @usableFromInline package var epoch: UInt64
    /// The sender's context, captured by the machine's instrument, to run the actions in.
    @usableFromInline let trace: (any AnyObject & Sendable)?

    @inlinable
    package init(
        event: Event?, predicates: PredicateContext?, origin: EventOrigin, acceptedAt: Timestamp,
        ticket: UInt64 = 0, senderScope: [ObjectIdentifier] = [], reply: ReplySlot? = nil,
        trace: (any AnyObject & Sendable)? = nil
    ) {
        self.event = event
        self.predicates = predicates
        self.origin = origin
        self.acceptedAt = acceptedAt
        self.ticket = ticket
        self.senderScope = senderScope
        self.reply = reply
        self.epoch = 0
        self.trace = trace
    }
}
