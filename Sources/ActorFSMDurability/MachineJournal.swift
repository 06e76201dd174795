import ActorFSM

/// One durable machine's side of its journal: composes each entry, hands it to the store, and
/// tells waiting senders when it is durable. The actor writes through it; actions register the
/// events they post to the machine from their own tasks, so its state is behind a lock.
package final class MachineJournal<Definition: MachineDefinition>: MachineJournaling {
    package typealias State = Definition.State
    package typealias Event = Definition.Event

    let coding: DurableCoding<Definition>
    /// The machine's id as the store knows it.
    let key: String
    private let state: Locked<JournalState<Definition>>
    /// What the machine resumes from, if the store held it (or its predecessor wrote it).
    let recovery: Recovery<Definition>?
    package let resumption: Resumption<Definition>?
    /// Told once when a write fails: a supervisor then restores the machine from the store
    /// once the store works again.
    private let onFailure: (@Sendable () -> Void)?

    init(
        coding: DurableCoding<Definition>, key: String, recovery: Recovery<Definition>?,
        onFailure: (@Sendable () -> Void)? = nil
    ) {
        self.coding = coding
        self.key = key
        self.recovery = recovery
        self.onFailure = onFailure
        var initial = JournalState<Definition>()
        initial.lastActivity = coding.durability.wallClock.nanosecondsSince1970()
        if let restored = recovery?.point {
            initial.timers = restored.timers
            initial.lastWritten = restored
        }
        initial.interrupted = recovery?.interrupted
        state = Locked(initial)
        resumption = recovery.map { recovery in
            let now = coding.durability.wallClock.nanosecondsSince1970()
            return Resumption(
                state: recovery.point.state, data: recovery.point.data, sequenceNumber: recovery.point.sequenceNumber,
                requeued: recovery.requeued, delayed: recovery.delayed.map {
                    .init(event: $0.event, predicates: $0.predicates, ticket: $0.ticket, remaining: .nanoseconds(max(0, $0.deadline - now)))
                })
        }
    }

    /// The alarms of a durable machine's first state: for a restored machine, the timeouts
    /// not yet fired, due at their stored deadlines (at once if past due); for a new one, due
    /// from now, as the journal notes.
    package func alarms(for timeouts: [TimerTable<Definition>.StateTimeout], clock: any Clock<Duration>) -> [(Alarm, Duration)] {
        guard !timeouts.isEmpty else { return [] }
        guard let recovery, recovery.point.timers.enteredAt != 0 else {
            // A new machine, or one whose first event has not completed: its deadlines run from
            // now (the first of them processed again already, if a crash interrupted it).
            startedInTimedState()
            return timeouts.dropFirst(recovery?.timeoutInterrupted == true ? 1 : 0).map {
                (Alarm(after: $0.duration, on: clock), $0.duration)
            }
        }
        let now = now()
        let timers = recovery.point.timers
        let fired = Int(timers.timeoutsFired) + (recovery.timeoutInterrupted ? 1 : 0)
        return timeouts.dropFirst(fired).map { timeout in
            let due = timers.enteredAt + StoredOrigin.nanoseconds(timeout.duration)
            return (Alarm(after: .nanoseconds(max(0, due - now)), on: clock), timeout.duration)
        }
    }

    var durability: Durability<Definition> { coding.durability }

    /// Now, on the wall clock.
    func now() -> Int64 { coding.durability.wallClock.nanosecondsSince1970() }

    // MARK: - Events the machine posts to itself

    /// Registers an event an action posts to the machine (or a delayed post), so that it is
    /// written with the machine's next entry until an entry processes it.
    ///
    /// - Returns: its ticket, or 0 if the event cannot be encoded (it is then not durable).
    func register(_ kind: PendingEvent.Kind, _ event: Event, _ predicates: PredicateContext?, deadline: Int64 = 0) -> UInt64 {
        registered(kind, event, predicates, deadline: deadline)?.ticket ?? 0
    }

    private func registered(
        _ kind: PendingEvent.Kind, _ event: Event, _ predicates: PredicateContext?, deadline: Int64
    ) -> PendingEvent? {
        guard let bytes = try? coding.encodeEvent(event) else { return nil }
        let stored = coding.store(predicates)
        return state.withLock { state in
            let pending = PendingEvent(ticket: state.timers.nextTicket, kind: kind, deadline: deadline, event: bytes,
                                       predicates: stored)
            state.timers.nextTicket += 1
            state.timers.pending.append(pending)
            return pending
        }
    }

    /// Registers a delayed post due `delay` from now. One made outside any action has no entry
    /// of its own to ride with, so the newest entry is written again with it; one an action
    /// makes is written with its transition's entry (and made again if that transition is
    /// processed again after a crash).
    package func registerDelayed(_ event: Event, _ predicates: PredicateContext?, after delay: Duration, fromAction: Bool) -> UInt64 {
        guard let pending = registered(.delayed, event, predicates, deadline: now() + StoredOrigin.nanoseconds(delay))
        else { return 0 }
        if !fromAction { amend(adding: pending) }
        return pending.ticket
    }

    package func register(_ kind: SelfPost, _ event: Event, _ predicates: PredicateContext?) -> UInt64 {
        let stored: PendingEvent.Kind = switch kind {
        case .followUp: .followUp
        case .next: .next
        }
        return register(stored, event, predicates)
    }

    /// Forgets a self-posted event refused by the inbox.
    package func unregister(_ ticket: UInt64) {
        state.withLock { state in state.timers.pending.removeAll { $0.ticket == ticket } }
    }

    /// Forgets a delayed post cancelled before delivery, and writes the cancellation at once.
    package func cancelled(_ ticket: UInt64) {
        unregister(ticket)
        amend(removing: ticket)
    }

    /// The event about to be processed is the self-posted one with `ticket`: the entry that
    /// records it removes it from the pending events. 0: the event in progress was postponed.
    package func processing(_ ticket: UInt64) {
        state.withLock { state in
            state.processingTicket = ticket
            if ticket == 0 { state.consuming = 0 }
        }
    }

    // MARK: - Forwarded events

    /// The event about to be processed inline is the forwarded event `number`: the entries
    /// that record it mark it recorded in the store.
    package func consume(_ number: Int64) {
        state.withLock { $0.consuming = number }
    }

    /// The forwarded event `number` waits in the machine's inbox under `ticket`.
    package func expect(_ number: Int64, ticket: UInt64) {
        state.withLock { $0.forwarded[ticket] = number }
    }

    /// The event about to be processed from the inbox is the one under `ticket`, forwarded. Its
    /// number stays known under the ticket until its sender is answered: a postponed event is
    /// processed again under the same ticket.
    package func processingDelivered(_ ticket: UInt64) {
        state.withLock { $0.consuming = $0.forwarded[ticket] ?? 0 }
    }

    /// Forgets the forwarded event under `ticket`, answered without being processed.
    package func forgetDelivered(_ ticket: UInt64) {
        state.withLock { _ = $0.forwarded.removeValue(forKey: ticket) }
    }

    // MARK: - Timers

    /// The machine entered a state with timeouts, whose deadlines run from now.
    package func enteredTimedState() {
        let now = now()
        state.withLock { state in
            state.timers.enteredAt = now
            state.timers.timeoutsFired = 0
            state.reenteredInTransition = true
        }
    }

    /// A new machine starts in a state with timeouts, whose deadlines run from now.
    func startedInTimedState() {
        let now = now()
        state.withLock { state in
            state.timers.enteredAt = now
            state.timers.timeoutsFired = 0
        }
    }

    /// The machine's state timeouts were cancelled (it stopped taking events), or it entered a
    /// state without any.
    package func cancelledTimeouts() {
        state.withLock { state in
            state.timers.enteredAt = 0
            state.timers.timeoutsFired = 0
        }
    }

    // MARK: - Writing

    /// Writes the entry a new machine starts from, numbered 0: its state, its data and its
    /// timers' deadlines. The store then holds the machine before its first event, so that a
    /// crash, a passivation or another process finds it with the data it was made with.
    ///
    /// - Returns: the write's index.
    package func created(in current: State, stateID: Int32, data: Definition.Data) {
        write(.completed, sequenceNumber: 0, outcome: .transitioned, origin: .send, event: nil, predicates: nil,
              state: current, stateID: stateID, data: data)
    }

    /// Waits, when senders wait for the disk, until the creation entry (the first write) is
    /// durable; firing and forgetting, until the writes in flight fit the window.
    ///
    /// - Returns: a `storeFailed` error if the entry could not be written.
    func awaitCreation() async -> DurabilityError? {
        // A creation that could not even be encoded was never handed to the store.
        var failure = state.withLock { $0.failure }
        if failure == nil {
            switch durability.acknowledgement.code {
            case .durable: failure = await waitForCommit(1)
            case .window(let window): failure = await waitForCommitRoom(window: window)
            }
        }
        return failure.map { DurabilityError(.storeFailed, machine: key, detail: "the new machine could not be written: \($0.message)") }
    }

    package func intent(
        _ event: Event?, _ predicates: PredicateContext, _ origin: EventOrigin, number: UInt64,
        in current: State, stateID: Int32, data: Definition.Data
    ) async -> (any Error)? {
        let index = write(.intent, sequenceNumber: number, outcome: .transitioned, origin: origin, event: event,
                          predicates: predicates, state: current, stateID: stateID, data: data)
        return await waitForCommit(index)
    }

    package func completed(_ record: TransitionRecord<Definition>, in current: State, stateID: Int32, data: Definition.Data) {
        write(.completed, sequenceNumber: record.sequenceNumber, outcome: JournalPayload.Outcome(record.outcome),
              origin: record.origin, event: record.event, predicates: nil, state: current, stateID: stateID, data: data)
    }

    package var acknowledgement: JournalAcknowledgement {
        switch durability.acknowledgement.code {
        case .durable: .durable
        case .window(let window): .window(window)
        }
    }

    /// Writes the entry of event number `sequenceNumber`, and returns the write's index (see
    /// ``waitForCommit(_:)``).
    @discardableResult
    func write(
        _ kind: JournalPayload.Kind, sequenceNumber: UInt64, outcome: JournalPayload.Outcome, origin: EventOrigin,
        event: Event?, predicates: PredicateContext?, state current: State, stateID: Int32, data: Definition.Data
    ) -> UInt64 {
        let encoded: (state: [UInt8], event: [UInt8]?, data: [UInt8])
        do {
            let stateBytes = kind == .intent ? [] :
                stateID >= 0 ? coding.encodedStates[Int(stateID)] : try coding.encodeState(current)
            let dataBytes = kind == .intent ? [] : try coding.encodeData(data)
            encoded = (stateBytes, try event.map(coding.encodeEvent), dataBytes)
        } catch {
            return fail(StoreError("machine \(key): could not encode entry \(sequenceNumber): \(error)"))
        }
        let predicates = coding.store(predicates)
        let compactionInterval = durability.compactionInterval
        let written = self.state.withLock { state -> Result<UInt64, StoreError> in
            if let refusal = state.admitWhileInterrupted(sequenceNumber, kind, outcome, StoredOrigin(origin), key: key) {
                return .failure(refusal)
            }
            guard state.failure == nil, !state.isSealed else { return .success(state.appendedWrites) }
            let ticket = state.processingTicket
            let consumed = state.consuming
            if kind == .completed {
                state.processingTicket = 0
                state.consuming = 0
                if ticket != 0 { state.timers.pending.removeAll { $0.ticket == ticket } }
                // A timeout recorded as stopped was never processed: a restart arms it again.
                if case .timeout = origin, outcome != .stopped, !state.reenteredInTransition {
                    state.timers.timeoutsFired += 1
                }
                state.reenteredInTransition = false
            }
            let payload = JournalPayload(
                kind: kind, outcome: outcome, origin: StoredOrigin(origin), ticket: ticket,
                fingerprint: coding.fingerprint, schemaVersion: Int64(durability.schemaVersion),
                state: encoded.state, event: encoded.event, predicates: predicates, data: encoded.data,
                timers: kind == .completed ? state.timers : StoredTimers())
            var removing: UInt64 = 0
            if kind == .completed {
                state.lastWritten = RestorePoint(state: current, data: data, sequenceNumber: sequenceNumber,
                                                 timers: state.timers)
                // The creation entry does not count: every hundredth event's entry compacts.
                if sequenceNumber > 0 { state.writesSinceCompaction += 1 }
                if compactionInterval > 0 && state.writesSinceCompaction >= compactionInterval {
                    state.writesSinceCompaction = 0
                    removing = sequenceNumber
                }
            }
            let entry = JournalEntry(machine: key, sequenceNumber: sequenceNumber,
                                     payload: payload.encoded(machine: key, sequenceNumber: sequenceNumber))
            return .success(append(JournalWrite(entry: entry, removingEntriesBelow: removing, consumedForwardedEvent: consumed,
                                                hasPendingWork: kind == .intent || state.timers.hasPendingWork), &state))
        }
        switch written {
        case .success(let index): return index
        case .failure(let refusal): return fail(refusal)
        }
    }

    /// Hands `write` to the store, and returns its index. It is called with the lock held, in
    /// the same hold that composed the write: writes from the actor and from other threads
    /// (amendments) then reach the store in the order of both their indices and their contents.
    /// A store never calls `completion` from within `append`.
    private func append(_ write: JournalWrite, _ state: inout JournalState<Definition>) -> UInt64 {
        state.appendedWrites += 1
        state.lastActivity = now()
        let index = state.appendedWrites
        durability.store.append(write) { [self] error in committed(index, error: error) }
        return index
    }

    /// Rewrites the newest completed entry with one change to its pending events: a delayed
    /// post made outside any transition (`adding`), or one cancelled (`removing`). It starts
    /// from what that entry holds, not from the events a transition in progress has posted:
    /// those are written with that transition's own entry.
    private func amend(adding added: PendingEvent? = nil, removing removed: UInt64? = nil) {
        state.withLock { state in
            guard state.failure == nil, !state.isSealed, var last = state.lastWritten else { return }
            if let removed { last.timers.pending.removeAll { $0.ticket == removed } }
            if let added { last.timers.pending.append(added) }
            last.timers.nextTicket = max(last.timers.nextTicket, state.timers.nextTicket)
            state.lastWritten = last
            guard var payload = state.lastPayload(coding: coding, version: durability.schemaVersion) else { return }
            payload.timers = last.timers
            let entry = JournalEntry(machine: key, sequenceNumber: last.sequenceNumber,
                                     payload: payload.encoded(machine: key, sequenceNumber: last.sequenceNumber))
            _ = append(JournalWrite(entry: entry, hasPendingWork: last.timers.hasPendingWork), &state)
        }
    }

    /// Fails the journal: nothing more is written, and every waiting sender hears `error`.
    ///
    /// - Parameter fromStore: whether the store failed the write (an outage a supervisor waits
    ///   out), rather than the machine (an entry that cannot be encoded or must not be written).
    private func fail(_ error: StoreError, fromStore: Bool = false) -> UInt64 {
        let (waiters, index, isFirst) = state.withLock { state in
            let isFirst = state.failure == nil && !state.isSealed
            if state.failure == nil { state.failure = error }
            defer { state.waiters = [] }
            return (state.waiters, state.appendedWrites, isFirst)
        }
        for waiter in waiters { waiter.continuation.resume(returning: error) }
        if isFirst && fromStore { onFailure?() }
        return index
    }

    /// The store finished write number `index` (writes finish in order).
    private func committed(_ index: UInt64, error: StoreError?) {
        if let error {
            _ = fail(error, fromStore: true)
            return
        }
        let ready = state.withLock { state -> [CheckedContinuation<StoreError?, Never>] in
            state.committedWrites = max(state.committedWrites, index)
            var ready: [CheckedContinuation<StoreError?, Never>] = []
            state.waiters.removeAll { waiter in
                guard waiter.index <= state.committedWrites else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume(returning: nil) }
    }

    /// The index of the newest write.
    package var newestWrite: UInt64 { state.withLock { $0.appendedWrites } }

    package func waitForWrite(_ index: UInt64) async -> (any Error)? { await waitForCommit(index) }

    package func waitForRoom(window: Int) async -> (any Error)? { await waitForCommitRoom(window: window) }

    /// Waits until write number `index` is durable.
    ///
    /// - Returns: the store's error if it failed to write it (or an earlier write).
    func waitForCommit(_ index: UInt64) async -> StoreError? {
        await withCheckedContinuation { continuation in
            let answer = state.withLock { state -> StoreError?? in
                if let failure = state.failure { return .some(failure) }
                if state.committedWrites >= index { return .some(nil) }
                state.waiters.append((index, continuation))
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Waits until at most `window` writes wait for the store.
    func waitForCommitRoom(window: Int) async -> StoreError? {
        let index = state.withLock { state -> UInt64? in
            state.appendedWrites - state.committedWrites > UInt64(window) ? state.appendedWrites - UInt64(window) : nil
        }
        guard let index else { return nil }
        return await waitForCommit(index)
    }

    /// When the machine last wrote an entry (or was made), in nanoseconds since 1970: what
    /// passivation judges idleness by.
    var lastActivity: Int64 { state.withLock { $0.lastActivity } }

    /// Writes nothing more, as a failed write would: the machine in memory is stale (another
    /// process held it meanwhile), and what it still processes must not count as recorded.
    package func discard() {
        let waiters = state.withLock { state in
            state.isSealed = true
            if state.failure == nil { state.failure = StoreError("machine \(key) was replaced by its copy in the store", isFenced: true) }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: state.withLock { $0.failure }) }
    }

    /// Whether the journal writes nothing more: a write failed (the machine's later state is
    /// not durable), or its successor took over.
    package var isClosed: Bool { state.withLock { $0.failure != nil || $0.isSealed } }

    package func stopWriting() { _ = seal() }

    /// Writes nothing more, and returns what the newest completed entry holds: a supervisor
    /// restarts the machine from it. The stopped machine may still record events it will not
    /// process; their entries would take numbers its successor goes on from.
    func seal() -> RestorePoint<Definition>? {
        state.withLock { state in
            state.isSealed = true
            return state.lastWritten
        }
    }
}

extension JournalPayload.Outcome {
    init(_ outcome: Outcome) {
        switch outcome {
        case .transitioned: self = .transitioned
        case .unhandled: self = .unhandled
        case .conditionFalse: self = .conditionFalse
        case .failed: self = .failed
        case .stopped: self = .stopped
        }
    }
}
