// What the inbox's inputs return: the work its caller carries out once the lock is released.

extension Inbox {
    /// A sender waiting for room, with its event: the event is queued the moment the sender is
    /// let in, so nothing can take the room first.
    @usableFromInline
    struct Waiter: Sendable {
        @usableFromInline let entry: Entry
        /// Answered once the event is queued (for a waiting `post`), withdrawn or refused; `nil` for
        /// `send`, whose reply tells it everything.
        @usableFromInline let admitted: CheckedContinuation<Admission, Never>?

        @inlinable
        init(entry: Entry, admitted: CheckedContinuation<Admission, Never>?) {
            self.entry = entry
            self.admitted = admitted
        }

        /// Tells the sender that its event will not be queued.
        @usableFromInline
        func answer(_ reply: InboxEntry<Definition>.Reply, admission: Admission) {
            entry.reply?.resume(returning: reply)
            admitted?.resume(returning: admission)
        }
    }

    /// What a sender waiting for room is told.
    @usableFromInline
    enum Admission: Sendable {
        /// Its event is queued.
        case queued
        /// It was cancelled and took its event back.
        case withdrawn
        /// The machine stopped taking events first.
        case refused
        /// The machine was paused first.
        case paused
    }

    /// What the caller must do once the lock is released.
    @usableFromInline
    struct Resumptions: Sendable {
        /// The queue gained an event and had no owner: start the drain task.
        @usableFromInline var startProcessing = false
        /// Waiting `post` calls whose events are now queued.
        @usableFromInline var admitted: [CheckedContinuation<Admission, Never>] = []
        /// Test watchers whose awaited count was reached.
        @usableFromInline var watchers: [CheckedContinuation<Void, Never>] = []

        @inlinable init() {}

        /// Whether there is nothing to do.
        @inlinable var isEmpty: Bool { !startProcessing && admitted.isEmpty && watchers.isEmpty }
    }

    /// What became of an event offered without waiting (a post, a follow-up).
    @usableFromInline
    enum PostAction: Sendable {
        /// Queued: carry these out.
        case queued(Resumptions)
        /// Refused: the queue is full, or (for a post) senders wait for room.
        case full
        /// Refused: the machine no longer takes such events.
        case closed
        /// Refused: the machine is paused.
        case paused
    }

    /// What became of a sender that may wait for room.
    @usableFromInline
    enum ParkAction: Sendable {
        /// Queued, or waiting for room: carry these out.
        case accepted(Resumptions)
        /// Refused: the machine no longer takes events. Answer the sender.
        case refused
        /// Refused: the machine is paused. Answer the sender.
        case paused
    }

    /// What a withdrawal found.
    @usableFromInline
    enum WithdrawAction: Sendable {
        /// Nothing: the event has started, or was never taken.
        case none
        /// The sender's event is out of the inbox: answer the sender, carry out the resumptions
        /// (its room may let others in), and, if `idle`, settle the machine, which may have
        /// waited for this event to finish.
        case withdrawn(Waiter, Resumptions, idle: Bool)
    }

    /// What a machine must answer when its inbox closes.
    @usableFromInline
    struct Closing: Sendable {
        /// Senders that were waiting for room: refuse them.
        @usableFromInline var waiters: [Waiter] = []
        /// When stopping, the senders of queued events: their events will never be processed,
        /// so they are told now rather than when the event in progress ends (which may never
        /// happen, if its action waits for one of them).
        @usableFromInline var queuedSenders: [Entry.ReplySlot] = []
        /// Whether nothing was queued or processing: the inbox then takes nothing at all, since
        /// the machine ends at once.
        @usableFromInline var isIdle = false

        @usableFromInline init() {}
    }
}
