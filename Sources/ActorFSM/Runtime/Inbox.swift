import Synchronization

/// The producers' side of a machine's inbox: the queue's tail, the senders waiting for room,
/// what the inbox takes, and the tickets of queued sends.
///
/// A machine keeps it behind a lock, because posts, follow-ups and withdrawals reach it from any
/// thread without hopping onto the actor. The actor does not take that lock to process events:
/// its ``InboxReader`` takes them from the queue's head, and the two sides meet only through the
/// atomic ``InboxSignals``. So a producer never waits for the actor, and the actor never waits
/// for a producer (it takes the lock only when it starts on a fresh segment, lets waiting
/// senders in, or gives up ownership). Each operation changes the state and returns the
/// ``Resumptions`` its caller must carry out once the lock is released: start the drain task,
/// resume admitted senders.
///
/// Invariants:
/// - the queue never holds more than `capacity` events not yet taken, apart from timer events,
///   which are admitted regardless (see `appendTimerEvent`);
/// - a non-empty queue always has an owner (see ``InboxSignals``), so no event is left behind;
/// - senders wait only while the queue is full, and are let in, in order, with their events.
@usableFromInline
struct Inbox<State: Hashable & Sendable, Event: Sendable, ID: Hashable & Sendable>: Sendable {
    @usableFromInline typealias Entry = InboxEntry<State, Event, ID>

    /// A sender waiting for room, with its event: the event is queued the moment the sender is
    /// let in, so nothing can take the room first.
    @usableFromInline
    struct Waiter: Sendable {
        @usableFromInline let entry: Entry
        /// Resumed with `true` once the event is queued (for `enqueue`), with `false` if the
        /// machine stops taking events first; `nil` for `send`, whose reply tells it everything.
        @usableFromInline let admitted: CheckedContinuation<Bool, Never>?

        @inlinable
        init(entry: Entry, admitted: CheckedContinuation<Bool, Never>?) {
            self.entry = entry
            self.admitted = admitted
        }
    }

    /// What the inbox takes.
    @usableFromInline
    enum Admission: Sendable {
        /// Every event.
        case open
        /// The machine is finishing: follow-ups and timer events, not new events.
        case closed
        /// The machine has stopped: nothing.
        case stopped
    }

    /// What a cancelled sender gets back: the reply slot of its `send`, or the continuation of
    /// its `enqueue`, to resume.
    @usableFromInline
    struct Withdrawal: Sendable {
        @usableFromInline let reply: Entry.ReplySlot?
        @usableFromInline let admitted: CheckedContinuation<Bool, Never>?

        @inlinable
        init(reply: Entry.ReplySlot?, admitted: CheckedContinuation<Bool, Never>?) {
            self.reply = reply
            self.admitted = admitted
        }
    }

    /// What the caller must do once the lock is released.
    @usableFromInline
    struct Resumptions: Sendable {
        /// The queue gained an event and had no owner: start the drain task.
        @usableFromInline var startProcessing = false
        /// Waiting `enqueue` calls whose events are now queued.
        @usableFromInline var admitted: [CheckedContinuation<Bool, Never>] = []
        /// Test watchers whose awaited count was reached.
        @usableFromInline var watchers: [CheckedContinuation<Void, Never>] = []

        @inlinable init() {}
    }

    /// A test watcher: resumed once a count reaches `count`.
    @usableFromInline typealias Watcher = (count: Int, continuation: CheckedContinuation<Void, Never>)

    @usableFromInline let capacity: Int
    /// The segment producers write to; `nil` while the queue has no memory, which the actor gives
    /// back whenever the queue empties and it stops processing.
    @usableFromInline var tail: InboxSegment<Entry>?
    /// A segment started while the actor's reader had none: the reader takes it up from here.
    @usableFromInline var unclaimed: InboxSegment<Entry>?
    /// How many queued events the actor's reader had taken when it last said (once per batch).
    @usableFromInline var started = 0
    @usableFromInline var waiters = RingBuffer<Waiter>()
    @usableFromInline var admission = Admission.open
    @usableFromInline var nextTicket: UInt64 = 0
    /// The reply slots of queued `send` events, by ticket, for a cancelled sender to withdraw its
    /// event. The sender forgets its ticket once it has its reply.
    @usableFromInline var queuedSends: [UInt64: Entry.ReplySlot] = [:]
    /// Events posted with a delay that are still waiting, to cancel when the machine stops.
    @usableFromInline var scheduled: [ObjectIdentifier: ScheduledEvent] = [:]
    /// Test watchers for the queue's length and for the number of waiting senders.
    @usableFromInline var queueWatchers: [Watcher] = []
    @usableFromInline var waiterWatchers: [Watcher] = []

    @inlinable
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// How much room must be free before waiting senders are let in: half the capacity. A
    /// producer that outruns the machine then wakes once per half inbox, not once per event.
    @inlinable var admissionRoom: Int { Swift.max(1, capacity / 2) }

    /// How many events are queued and not yet taken, as far as the reader has said.
    @inlinable
    func queued(_ signals: borrowing InboxSignals) -> Int { signals.appended.load(ordering: .relaxed) - started }

    @inlinable
    func room(_ signals: borrowing InboxSignals) -> Int { capacity - queued(signals) }

    // MARK: - Taking events

    /// What became of a posted event.
    @usableFromInline
    enum PostResult: Sendable {
        case queued(Resumptions)
        /// Refused: the queue is full, or senders wait for room.
        case full
        /// Refused: the machine no longer takes events.
        case closed
    }

    /// Takes a posted event, or refuses it: a post never waits, and never overtakes senders that
    /// wait for room.
    @inlinable
    mutating func post(_ entry: consuming Entry, _ signals: borrowing InboxSignals) -> PostResult {
        guard case .open = admission else { return .closed }
        guard waiters.isEmpty && room(signals) > 0 else { return .full }
        var resumptions = Resumptions()
        append(entry, signals, into: &resumptions)
        return .queued(resumptions)
    }

    /// Takes a sender's event now if there is room and nobody waits; otherwise queues the sender
    /// behind those waiting. Refuses it if the inbox no longer takes events.
    ///
    /// - Returns: `nil` if refused.
    @usableFromInline
    mutating func admitOrPark(_ waiter: Waiter, _ signals: borrowing InboxSignals) -> Resumptions? {
        guard case .open = admission else { return nil }
        var resumptions = Resumptions()
        if waiters.isEmpty && room(signals) > 0 {
            append(waiter.entry, signals, into: &resumptions)
            if let admitted = waiter.admitted { resumptions.admitted.append(admitted) }
            return resumptions
        }
        // The reader lets it in when it next says how far it has got, under this lock.
        waiters.append(waiter)
        if !waiterWatchers.isEmpty { Self.collect(&waiterWatchers, reaching: waiters.count, into: &resumptions) }
        return resumptions
    }

    /// Takes a follow-up posted by an action: refused once stopped or when the queue is full,
    /// since an action cannot wait for room its own machine would have to make.
    @usableFromInline
    mutating func followUp(_ entry: Entry, _ signals: borrowing InboxSignals) -> Resumptions? {
        if case .stopped = admission { return nil }
        guard room(signals) > 0 else { return nil }
        var resumptions = Resumptions()
        append(entry, signals, into: &resumptions)
        return resumptions
    }

    /// Takes an event the machine's own timers produced, even beyond the capacity: there is at
    /// most one per timer, and refusing it would lose it.
    @usableFromInline
    mutating func timerEvent(_ entry: Entry, _ signals: borrowing InboxSignals) -> Resumptions {
        var resumptions = Resumptions()
        append(entry, signals, into: &resumptions)
        return resumptions
    }

    /// Writes `entry` at the queue's tail, publishes it, and makes sure something owns processing.
    @inlinable
    mutating func append(_ entry: consuming Entry, _ signals: borrowing InboxSignals, into resumptions: inout Resumptions) {
        // Only producers write `appended`, and only under this lock.
        let position = signals.appended.load(ordering: .relaxed)
        if tail == nil {
            tail = InboxSegment()
            unclaimed = tail
        } else if position % InboxSegment<Entry>.slotCount == 0 {
            let next = InboxSegment<Entry>()
            tail!.next = next
            tail = next
        }
        if let reply = entry.reply { queuedSends[entry.ticket] = reply }
        tail!.put(entry, at: position)
        signals.appended.store(position + 1, ordering: .releasing)
        // Ownership is given up only under this lock, so an owner seen here will see the event.
        if !signals.isOwned && signals.claim() { resumptions.startProcessing = true }
        if !queueWatchers.isEmpty { Self.collect(&queueWatchers, reaching: queued(signals), into: &resumptions) }
    }

    @usableFromInline
    mutating func takeTicket() -> UInt64 {
        nextTicket &+= 1
        return nextTicket
    }

    // MARK: - The actor's side

    /// Hands the actor's reader the segment producers started while it had none.
    @usableFromInline
    mutating func claimHead() -> InboxSegment<Entry>? {
        defer { unclaimed = nil }
        return unclaimed
    }

    /// Notes how many events the reader has taken, which gives their room back, and lets
    /// waiting senders in if that is enough.
    @usableFromInline
    mutating func readerReached(_ position: Int, _ signals: borrowing InboxSignals, into resumptions: inout Resumptions) {
        started = position
        if !waiters.isEmpty { admitWaiters(signals, into: &resumptions) }
    }

    /// Ends an inline run, whose sender owns processing: gives up ownership, unless events
    /// arrived meanwhile, beyond the reader's `position`, for a drain to take.
    ///
    /// - Returns: whether the caller keeps ownership, to start the drain.
    @usableFromInline
    mutating func endInline(_ signals: borrowing InboxSignals, readerAt position: Int, stopped: Bool) -> Bool {
        if !stopped && signals.appended.load(ordering: .relaxed) > position { return true }
        signals.release()
        return false
    }

    /// Gives up ownership of processing if no event is queued beyond the reader's `position`,
    /// and gives back the queue's memory (the reader drops its segment too). Under the lock, no
    /// producer can queue an event meanwhile. Waiting senders are let in first.
    ///
    /// - Returns: whether it gave up ownership.
    @usableFromInline
    mutating func releaseIfEmpty(
        _ signals: borrowing InboxSignals, readerAt position: Int, into resumptions: inout Resumptions
    ) -> Bool {
        readerReached(position, signals, into: &resumptions)
        guard signals.appended.load(ordering: .relaxed) == position else { return false }
        signals.release()
        tail = nil
        unclaimed = nil
        return true
    }

    /// Lets waiting senders in, in order, once half the inbox is free.
    @usableFromInline
    mutating func admitWaiters(_ signals: borrowing InboxSignals, into resumptions: inout Resumptions) {
        guard !waiters.isEmpty, room(signals) >= admissionRoom else { return }
        while room(signals) > 0, let waiter = waiters.popFirst() {
            append(waiter.entry, signals, into: &resumptions)
            if let admitted = waiter.admitted { resumptions.admitted.append(admitted) }
        }
    }

    // MARK: - Withdrawal and the end

    /// Takes back the event of the sender with `ticket`: a sender waiting for room, or a `send`
    /// whose event is queued and not yet started (it stays in the queue, marked withdrawn, and
    /// the actor skips it). An `enqueue` call has returned once its event is queued, so that
    /// event stays.
    ///
    /// - Returns: the reply slot and admission continuation to resume, or `nil` if the event has
    ///   started or was never taken.
    @usableFromInline
    mutating func withdraw(_ ticket: UInt64) -> Withdrawal? {
        if let waiter = waiters.removeFirst(where: { $0.entry.ticket == ticket }) {
            return Withdrawal(reply: waiter.entry.reply, admitted: waiter.admitted)
        }
        guard let reply = queuedSends.removeValue(forKey: ticket), reply.withdraw() else { return nil }
        return Withdrawal(reply: reply, admitted: nil)
    }

    /// Forgets a queued `send` once its sender has its reply.
    @usableFromInline
    mutating func forget(_ ticket: UInt64) {
        queuedSends[ticket] = nil
    }

    /// Stops taking new events (`finish`), or anything at all (`stop`).
    ///
    /// - Returns: the senders that were waiting for room, to refuse, and the delayed posts to cancel.
    @usableFromInline
    mutating func close(stopping: Bool) -> (waiters: [Waiter], scheduled: [ScheduledEvent]) {
        if stopping {
            admission = .stopped
        } else if case .open = admission {
            admission = .closed
        }
        defer { scheduled = [:] }
        return (waiters.removeAll(), Array(scheduled.values))
    }

    // MARK: - Delayed posts

    /// Remembers a delayed post, to cancel it when the machine stops. Refused once the machine
    /// no longer takes events.
    @usableFromInline
    mutating func schedule(_ event: ScheduledEvent) -> Bool {
        guard case .open = admission else { return false }
        scheduled[ObjectIdentifier(event)] = event
        return true
    }

    @usableFromInline
    mutating func unschedule(_ event: ScheduledEvent) {
        scheduled[ObjectIdentifier(event)] = nil
    }

    // MARK: - Test support

    @usableFromInline
    static func collect(_ watchers: inout [Watcher], reaching count: Int, into resumptions: inout Resumptions) {
        watchers.removeAll { watcher in
            guard count >= watcher.count else { return false }
            resumptions.watchers.append(watcher.continuation)
            return true
        }
    }
}

extension Inbox.Resumptions {
    /// Whether there is nothing to do.
    @inlinable var isEmpty: Bool { !startProcessing && admitted.isEmpty && watchers.isEmpty }
}
