import Synchronization

/// What a machine's producers tell its actor without the inbox's lock: how many events they
/// have queued, and whether something owns processing.
///
/// Producers write `appended` only under the inbox's lock; the actor's ``InboxReader`` reads it
/// without the lock, once per batch of events. Ownership is taken with an atomic operation from
/// anywhere (an idle machine's `send` takes it without the lock), but given up only under the
/// lock, so a producer that finds an owner there can rely on that owner to see the event it
/// queues. (The reader tells the producers how far it has got under the lock: see
/// `Inbox.readerReached`.)
@usableFromInline
struct InboxSignals: ~Copyable, Sendable {
    /// How many events were ever queued: the position the next one takes.
    @usableFromInline let appended = Atomic<Int>(0)
    /// Whether a loop on the actor owns processing: a `send` processing inline, or the drain.
    @usableFromInline let owned = Atomic<Bool>(false)

    @inlinable init() {}

    @inlinable var isOwned: Bool { owned.load(ordering: .acquiring) }

    /// Takes ownership of processing if nobody has it. Returns whether it did.
    @inlinable
    func claim() -> Bool {
        !owned.exchange(true, ordering: .acquiringAndReleasing)
    }

    /// Gives up ownership: only under the inbox's lock.
    @inlinable
    func release() {
        owned.store(false, ordering: .releasing)
    }
}
