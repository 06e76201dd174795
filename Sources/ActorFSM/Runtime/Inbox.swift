/// A machine's inbox, as a pure state machine: the accepted events not yet started, the senders
/// waiting for room, and whether a loop on the actor owns processing.
///
/// A machine keeps it behind a lock, because posts, follow-ups and withdrawals reach it from any
/// thread without hopping onto the actor. Each operation changes the state and returns the
/// ``Resumptions`` its caller must carry out once the lock is released: start the drain task,
/// resume admitted senders.
///
/// Invariants:
/// - the queue never holds more than `capacity` events, apart from timer events, which are
///   admitted regardless (see `appendTimerEvent`);
/// - a non-empty queue always has an owner (`isActive`), so no event is left behind;
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

    @usableFromInline let capacity: Int
    @usableFromInline var queue = RingBuffer<Entry>()
    @usableFromInline var waiters = RingBuffer<Waiter>()
    @usableFromInline var admission = Admission.open
    /// Whether a loop on the actor owns processing: a `send` processing inline, or the drain task.
    @usableFromInline var isActive = false
    /// Events of the drain's current batch after the first, which still count against the
    /// capacity until the drain comes back for more.
    @usableFromInline var inHand = 0
    @usableFromInline var nextTicket: UInt64 = 0
    /// Events posted with a delay that are still waiting, to cancel when the machine stops.
    @usableFromInline var scheduled: [ObjectIdentifier: ScheduledEvent] = [:]
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
    mutating func post(_ entry: consuming Entry) -> PostResult {
        guard case .open = admission else { return .closed }
        guard hasRoom && waiters.isEmpty else { return .full }
        return .queued(append(entry))
    }

    /// Takes a sender's event now if there is room and nobody waits; otherwise queues the sender
    /// behind those waiting. Refuses it if the inbox no longer takes events.
    ///
    /// - Returns: `nil` if refused.
    @usableFromInline
    mutating func admitOrPark(_ waiter: Waiter) -> Resumptions? {
        guard case .open = admission else { return nil }
        if hasRoom && waiters.isEmpty {
            var resumptions = append(waiter.entry)
            if let admitted = waiter.admitted { resumptions.admitted.append(admitted) }
            return resumptions
        }
        waiters.append(waiter)
        var resumptions = Resumptions()
        if !waiterWatchers.isEmpty { resumptions.watchers += waiterWatchers.reached(waiters.count) }
        return resumptions
    }

    /// Takes a follow-up posted by an action: refused once stopped or when the queue is full,
    /// since an action cannot wait for room its own machine would have to make.
    @usableFromInline
    mutating func followUp(_ entry: Entry) -> Resumptions? {
        if case .stopped = admission { return nil }
        guard hasRoom else { return nil }
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
        if stopped || queue.isEmpty {
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

    // MARK: - Withdrawal and the end

    /// Takes back the event of the sender with `ticket`: a sender waiting for room, or a `send`
    /// whose event is queued and not yet started. (An `enqueue` call has returned once its event
    /// is queued, so that event stays.)
    ///
    /// - Returns: the withdrawn waiter (its entry and admission continuation), or `nil` if the
    ///   event has started or was never taken.
    @usableFromInline
    mutating func withdraw(_ ticket: UInt64, into resumptions: inout Resumptions) -> Waiter? {
        if let waiter = waiters.removeFirst(where: { $0.entry.ticket == ticket }) { return waiter }
        guard let entry = queue.removeFirst(where: { $0.ticket == ticket && $0.reply != nil }) else { return nil }
        if !waiters.isEmpty { admitWaiters(into: &resumptions) }
        return Waiter(entry: entry, admitted: nil)
    }

    /// What a machine must answer or cancel when its inbox closes.
    @usableFromInline
    struct Closing: Sendable {
        /// Senders that were waiting for room: refuse them.
        @usableFromInline var waiters: [Waiter] = []
        /// Delayed posts: cancel them.
        @usableFromInline var scheduled: [ScheduledEvent] = []
        /// When stopping, the senders of queued events: their events will never be processed,
        /// so they are told now rather than when the event in progress ends (which may never
        /// happen, if its action waits for one of them).
        @usableFromInline var queuedSenders: [Entry.ReplySlot] = []
    }

    /// Stops taking new events (`finish`), or anything at all (`stop`).
    @usableFromInline
    mutating func close(stopping: Bool) -> Closing {
        var closing = Closing()
        if stopping {
            admission = .stopped
            queue.forEach { if let reply = $0.reply { closing.queuedSenders.append(reply) } }
        } else if case .open = admission {
            admission = .closed
        }
        closing.waiters = waiters.removeAll()
        closing.scheduled = Array(scheduled.values)
        scheduled = [:]
        return closing
    }

    /// Stops taking anything, if nothing is queued, owned, waiting or scheduled: the machine can
    /// then stop at once, with nothing to refuse or cancel.
    ///
    /// - Returns: whether the inbox was idle and is now stopped; if not, nothing changed.
    @usableFromInline
    mutating func stopIfIdle() -> Bool {
        guard !isActive && queue.isEmpty && waiters.isEmpty && scheduled.isEmpty else { return false }
        admission = .stopped
        return true
    }

    /// Empties the queue, once the machine has stopped, to give each event the outcome `.stopped`.
    @usableFromInline
    mutating func takeAll() -> [Entry] {
        queue.removeAll()
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
}

extension Inbox.Resumptions {
    /// Whether there is nothing to do.
    @inlinable var isEmpty: Bool { !startProcessing && admitted.isEmpty && watchers.isEmpty }
}
