/// A machine's inbox, as a pure state machine: the accepted events not yet started, the senders
/// waiting for room, and whether a loop on the actor owns processing.
///
/// A machine keeps it behind a lock, because posts, follow-ups and withdrawals reach it from any
/// thread without hopping onto the actor. Each input changes the state and returns what its
/// caller must carry out once the lock is released (see `InboxActions.swift`): start the drain
/// task, resume admitted senders, answer refused ones. Callers decide nothing from its fields.
///
/// Invariants:
/// - the queue never holds more than `capacity` events, apart from timer events, which are
///   admitted regardless (see `timerEvent(_:)`);
/// - while the machine has not stopped, a non-empty queue always has an owner (`isActive`), so
///   no event is left behind (a stopped machine's drain lets go of its queue, which `takeAll`
///   then empties);
/// - senders wait only while the queue is full, and are let in, in order, with their events.
@usableFromInline
struct Inbox<Definition: MachineDefinition>: Sendable {
    @usableFromInline package typealias State = Definition.State
    @usableFromInline package typealias Event = Definition.Event
    @usableFromInline package typealias ID = Definition.ID
    @usableFromInline package typealias Entry = InboxEntry<Definition>

    /// What the inbox takes.
    @usableFromInline
    enum Intake: Sendable {
        /// Every event.
        case open
        /// The machine is shutting down: follow-ups and timer events, not new events.
        case closed
        /// The machine is paused: follow-ups and timer events, not new events, and nothing is
        /// processed until it is resumed.
        case paused
        /// The machine has stopped: nothing.
        case stopped
    }

    @usableFromInline let capacity: Int
    @usableFromInline var queue = RingBuffer<Entry>()
    /// Events an action posted to be processed next, ahead of `queue` (`context.postNext`).
    @usableFromInline var upNext = RingBuffer<Entry>()
    /// Postponed events, in the order they arrived, waiting for the next change of state.
    @usableFromInline var postponed = RingBuffer<Entry>()
    /// Postponed events a change of state let go, to be tried again after `upNext`, ahead of `queue`.
    @usableFromInline var retried = RingBuffer<Entry>()
    @usableFromInline var waiters = RingBuffer<Waiter>()
    @usableFromInline var intake = Intake.open
    /// Whether a loop on the actor owns processing: a `send` processing inline, or the drain task.
    @usableFromInline var isActive = false
    /// Events of the drain's current batch after the first, which still count against the
    /// capacity until the drain comes back for more.
    @usableFromInline var inHand = 0
    @usableFromInline var nextTicket: UInt64 = 0
    /// Test watchers for the queue's length and for the number of waiting senders.
    @usableFromInline var queueWatchers = CountWatchers()
    @usableFromInline var waiterWatchers = CountWatchers()

    @inlinable
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// How much room must be free before waiting senders are let in: half the capacity. A
    /// producer that outruns the machine then wakes once per half inbox, not once per event.
    @inlinable var admissionRoom: Int { Swift.max(1, capacity / 2) }

    @inlinable var hasRoom: Bool { queue.count + inHand < capacity }

    /// How many events the drain takes per turn of the lock: a producer on another core then
    /// contends for the lock once per batch rather than once per event. 1 for small inboxes,
    /// so that their capacity is exact.
    @inlinable var batchLimit: Int { Swift.max(1, Swift.min(32, capacity / 8)) }

    // MARK: - Taking events

    /// Takes a posted event, or refuses it: a post never waits, and never overtakes senders that
    /// wait for room.
    @inlinable
    mutating func post(_ entry: consuming Entry) -> PostAction {
        guard case .open = intake else { return intake == .paused ? .paused : .closed }
        guard hasRoom && waiters.isEmpty else { return .full }
        return .queued(append(entry))
    }

    /// Takes a sender's event now if there is room and nobody waits; otherwise queues the sender
    /// behind those waiting. Refuses it if the inbox no longer takes events, or is paused unless
    /// the sender chose to wait for the resume (`evenIfPaused`).
    @inlinable
    mutating func park(_ waiter: Waiter, evenIfPaused: Bool = false) -> ParkAction {
        switch intake {
        case .open: break
        case .paused: if !evenIfPaused { return .paused }
        default: return .refused
        }
        if hasRoom && waiters.isEmpty {
            var resumptions = append(waiter.entry)
            if let admitted = waiter.admitted { resumptions.admitted.append(admitted) }
            return .accepted(resumptions)
        }
        waiters.append(waiter)
        var resumptions = Resumptions()
        if !waiterWatchers.isEmpty { resumptions.watchers += waiterWatchers.reached(waiters.count) }
        return .accepted(resumptions)
    }

    /// Takes a follow-up posted by an action: refused once stopped or when the queue is full,
    /// since an action cannot wait for room its own machine would have to make.
    @usableFromInline
    mutating func followUp(_ entry: Entry) -> PostAction {
        if case .stopped = intake { return .closed }
        guard hasRoom else { return .full }
        return .queued(append(entry))
    }

    /// Takes an event an action posts to be processed next, ahead of everything queued, beyond
    /// the capacity; `nil` once stopped.
    @usableFromInline
    mutating func postNext(_ entry: Entry) -> Resumptions? {
        if case .stopped = intake { return nil }
        upNext.append(entry)
        var resumptions = Resumptions()
        // Only a context kept past its transition posts while nothing processes.
        if !isActive {
            isActive = true
            resumptions.startProcessing = true
        }
        return resumptions
    }

    /// Puts the events posted to be processed next ahead of those of `batch`, and the
    /// postponed events being tried again ahead of the queue, with the rest of `batch` back at
    /// the queue's front behind them, so that the order is: posted next, tried again, the rest.
    ///
    /// Events tried again go through the queue, not straight into `batch`, because some are
    /// awaited sends: from the queue they are taken in batches of their own, and `stop()`
    /// answers them at once (see ``takeBatch(into:resumptions:keepingOwnership:)``).
    @usableFromInline
    mutating func takeUpNext(ahead batch: inout RingBuffer<Entry>) {
        if !retried.isEmpty {
            var merged = RingBuffer<Entry>()
            retried.moveAll(into: &merged)
            batch.moveAll(into: &merged)
            queue.moveAll(into: &merged)
            queue = merged
            inHand = 0
        }
        guard !upNext.isEmpty else { return }
        var merged = RingBuffer<Entry>()
        upNext.moveAll(into: &merged)
        batch.moveAll(into: &merged)
        batch = merged
    }

    /// Keeps an event a transition postponed, behind those postponed before it.
    @usableFromInline
    mutating func postpone(_ entry: consuming Entry) {
        postponed.append(entry)
    }

    /// Lets every postponed event be tried again, after a change of state.
    @usableFromInline
    mutating func retryPostponed() {
        postponed.moveAll(into: &retried)
    }

    /// Takes the event for a child machine's end, even beyond the capacity (there is at most one
    /// per child); `nil` once stopped.
    @usableFromInline
    mutating func childEnd(_ entry: Entry) -> Resumptions? {
        if case .stopped = intake { return nil }
        return append(entry)
    }

    /// Takes an event the machine's own timers produced, even beyond the capacity: there is at
    /// most one per timer, and refusing it would lose it.
    @usableFromInline
    mutating func timerEvent(_ entry: Entry) -> Resumptions {
        append(entry)
    }

    @inlinable
    mutating func append(_ entry: consuming Entry) -> Resumptions {
        queue.append(entry)
        var resumptions = Resumptions()
        if !isActive {
            isActive = true
            resumptions.startProcessing = true
        }
        if !queueWatchers.isEmpty { resumptions.watchers += queueWatchers.reached(queue.count) }
        return resumptions
    }

    /// A number that identifies a waiting sender's event, for its withdrawal.
    @usableFromInline
    mutating func takeTicket() -> UInt64 {
        nextTicket &+= 1
        return nextTicket
    }

    // MARK: - Processing

    /// Takes ownership of processing for an event that runs at once, if nothing else owns it:
    /// then the queue is empty, and the event overtakes nobody.
    @inlinable
    mutating func beginInline() -> Bool {
        guard !isActive else { return false }
        isActive = true
        return true
    }

    /// Ends an inline run. Returns `true` if events arrived meanwhile: the caller keeps
    /// ownership and starts the drain task.
    @inlinable
    mutating func endInline(stopped: Bool) -> Bool {
        if stopped || (queue.isEmpty && upNext.isEmpty && retried.isEmpty) {
            isActive = false
            return false
        }
        return true
    }

    /// The next events to process, in order, letting waiting senders in once there is room
    /// enough; gives up ownership when the queue is empty.
    ///
    /// An awaited `send`'s event is taken only alone, in a batch of its own: while any other
    /// event is processed, every awaited event is still queued, so its sender may withdraw it
    /// and `stop()` answers it at once.
    ///
    /// - Parameter keepingOwnership: whether to keep ownership when the queue is empty, for a
    ///   drain that waits a little for a producer before it stops, so that a steady producer
    ///   keeps it busy instead of starting a task per event.
    /// - Returns: whether `batch` got any event.
    @inlinable
    mutating func takeBatch(
        into batch: inout RingBuffer<Entry>, resumptions: inout Resumptions, keepingOwnership: Bool = false
    ) -> Bool {
        inHand = 0
        if !upNext.isEmpty || !retried.isEmpty {
            takeUpNext(ahead: &batch)
            if !batch.isEmpty { return true }
        }
        let taken = queue.moveFront(into: &batch, limit: batchLimit, endingBefore: { $0.pointee.reply != nil },
                                    endingAfter: { $0.pointee.reply != nil })
        guard taken > 0 else {
            if !keepingOwnership { isActive = false }
            return false
        }
        inHand = taken - 1
        if !waiters.isEmpty { admitWaiters(into: &resumptions) }
        return true
    }

    /// Gives up ownership: the machine stopped, and `takeAll` will empty the queue.
    @inlinable
    mutating func release() {
        isActive = false
        inHand = 0
    }

    @usableFromInline
    mutating func admitWaiters(into resumptions: inout Resumptions) {
        guard capacity - queue.count - inHand >= admissionRoom else { return }
        while hasRoom, let waiter = waiters.popFirst() {
            queue.append(waiter.entry)
            if let admitted = waiter.admitted { resumptions.admitted.append(admitted) }
        }
        if !queue.isEmpty && !isActive {
            isActive = true
            resumptions.startProcessing = true
        }
    }

    // MARK: - Closing

    /// Stops taking new events (`finish`), or anything at all (`stop`). An idle inbox, with
    /// nothing queued or processing, takes nothing at all from then on either way: its machine
    /// ends at once.
    @usableFromInline
    mutating func close(stopping: Bool) -> Closing {
        var closing = Closing()
        closing.isIdle = !isActive
        if stopping || closing.isIdle {
            intake = .stopped
            if stopping {
                for waiting in [retried, queue, postponed] {
                    waiting.forEach { if let reply = $0.reply { closing.queuedSenders.append(reply) } }
                }
            }
        } else if case .open = intake {
            intake = .closed
        }
        if !waiters.isEmpty { closing.waiters = waiters.removeAll() }
        return closing
    }
}
