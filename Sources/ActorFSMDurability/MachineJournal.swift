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
    let state: Locked<JournalState<Definition>>
    /// What the machine resumes from, if the store held it (or its predecessor wrote it).
    let recovery: Recovery<Definition>?
    package let resumption: Resumption<Definition>?

    package var isResuming: Bool { recovery != nil }

    package func resumedState() -> State { recovery!.point.state }

    package func resumedData() -> Definition.Data { recovery!.point.data }

    package var resumedSequenceNumber: UInt64 { recovery?.point.sequenceNumber ?? 0 }

    /// The number of the newest completed entry written.
    var newestCompleted: UInt64? { state.withLock { $0.lastWritten?.sequenceNumber } }
    /// Told once when a write fails, with whether a completed entry of this journal was written
    /// before: a supervisor then restores the machine from the store once the store works again.
    private let onFailure: (@Sendable (_ wroteBefore: Bool) -> Void)?
    /// Told of each completed entry written; see ``StoreWriteWatch``.
    private let writeWatch: StoreWriteWatch?

    init(
        coding: DurableCoding<Definition>, key: String, recovery: Recovery<Definition>?,
        writeWatch: StoreWriteWatch? = nil, onFailure: (@Sendable (_ wroteBefore: Bool) -> Void)? = nil
    ) {
        self.coding = coding
        self.key = key
        self.recovery = recovery
        self.writeWatch = writeWatch
        self.onFailure = onFailure
        var initial = JournalState<Definition>()
        initial.lastActivity = coding.durability.wallClock.nanosecondsSince1970()
        if let restored = recovery?.point {
            initial.timers = restored.timers
            initial.timers.operation = nil  // The entry that records an operator's act only.
            initial.lastWritten = restored
            initial.runsTasks = (try? coding.encodeState(restored.state)).map(coding.runsTasks(encoded:)) ?? false
        }
        // A cancellation whose state no longer decodes has no child to send it to.
        initial.timers.cancels.removeAll { (try? coding.decodeState($0.state)) == nil }
        initial.interrupted = recovery?.interrupted
        initial.retriedBy = recovery?.operation
        if let number = recovery?.interrupted?.number, let retry = recovery?.retry { initial.resumedRetry = (number, retry) }
        state = Locked(initial)
        resumption = recovery.map { recovery in
            let now = coding.durability.wallClock.nanosecondsSince1970()
            var resumption = Resumption(
                requeued: recovery.requeued, delayed: recovery.delayed.map {
                    .init(event: $0.event, predicates: $0.predicates, ticket: $0.ticket, remaining: .nanoseconds($0.deadline - now))
                })
            // A state that no longer decodes has no child to cancel.
            resumption.cancels = recovery.point.timers.cancels.compactMap { cancel in
                (try? coding.decodeState(cancel.state)).map {
                    .init(state: $0, slot: Int(cancel.slot), key: cancel.key, ticket: cancel.ticket)
                }
            }
            resumption.isPaused = recovery.point.timers.isPaused
            return resumption
        }
    }

    var durability: Durability<Definition> { coding.durability }

    /// Now, on the wall clock.
    func now() -> Int64 { coding.durability.wallClock.nanosecondsSince1970() }

    // MARK: - Writing

    package func intent(
        _ event: Event?, _ predicates: PredicateContext, _ origin: EventOrigin, number: UInt64,
        in current: State, stateID: Int32, data: Definition.Data
    ) async -> (any Error)? {
        let index = write(.intent, sequenceNumber: number, outcome: .transitioned, origin: origin, event: event,
                          predicates: predicates, state: current, stateID: stateID, data: data)
        return await waitForCommit(index)
    }

    package func completed(_ record: TransitionRecord<Definition>, in current: State, stateID: Int32, data: Definition.Data) {
        let answer = state.withLock { state in Self.answer(for: record, in: state) }
        // A failed event keeps its predicates, for an operator's retry.
        let predicates: PredicateContext? = if case .failed = record.outcome { record.predicates } else { nil }
        write(.completed, sequenceNumber: record.sequenceNumber, outcome: JournalPayload.Outcome(record.outcome),
              origin: record.origin, event: record.event, predicates: predicates, state: current, stateID: stateID, data: data,
              reply: answer?(record))
    }

    /// How the completed entry of `record` answers the forwarded event it records, if it records
    /// one and is written: not for a postponement (the entry that finally records the event
    /// answers it), nor for an event stopped midway, nor once the journal writes nothing more
    /// (the sender is then answered otherwise).
    private static func answer(
        for record: TransitionRecord<Definition>, in state: JournalState<Definition>
    ) -> (@Sendable (TransitionRecord<Definition>) -> [UInt8])? {
        guard state.consuming != 0, !record.isPostponement, state.failure == nil, !state.isSealed else { return nil }
        if case .stopped = record.outcome { return nil }
        return state.answers[state.consuming]
    }

    package var acknowledgement: JournalAcknowledgement {
        switch durability.acknowledgement.code {
        case .durable: .durable
        case .window(let window): .window(window)
        }
    }

    /// Writes the entry of event number `sequenceNumber`, and returns the write's index (see
    /// ``waitForCommit(_:)``); `reply` answers the forwarded event it records, if it records one.
    @discardableResult
    func write(
        _ kind: JournalPayload.Kind, sequenceNumber: UInt64, outcome: JournalPayload.Outcome, origin: EventOrigin,
        event: Event?, predicates: PredicateContext?, state current: State, stateID: Int32, data: Definition.Data,
        reply: [UInt8]? = nil
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
                state.completing(ticket: ticket, origin: origin, outcome: outcome, at: now() / 1_000_000)
                state.runsTasks = runsTasks(stateID)
            }
            var payload = JournalPayload(
                kind: kind, outcome: outcome, origin: StoredOrigin(origin), ticket: ticket,
                fingerprint: coding.fingerprint, schemaVersion: Int64(durability.schemaVersion))
            (payload.state, payload.event, payload.predicates, payload.data) =
                (encoded.state, encoded.event, predicates, encoded.data)
            state.stamp(&payload)
            state.intent = kind == .intent ? (sequenceNumber, payload) : nil
            var removing: UInt64 = 0
            if kind == .completed {
                state.wrote(payload, state: current, data: data, sequenceNumber: sequenceNumber)
                // The creation entry does not count: every hundredth event's entry compacts, but
                // a failed one, which keeps the entry before it for an operator's retry.
                if sequenceNumber > 0 { state.writesSinceCompaction += 1 }
                if compactionInterval > 0 && state.writesSinceCompaction >= compactionInterval && outcome != .failed {
                    state.writesSinceCompaction = 0
                    removing = sequenceNumber
                }
            }
            let entry = JournalEntry(machine: key, sequenceNumber: sequenceNumber,
                                     payload: payload.encoded(machine: key, sequenceNumber: sequenceNumber))
            return .success(append(JournalWrite(entry: entry, removingEntriesBelow: removing, consumedForwardedEvent: consumed,
                                                reply: consumed == 0 ? nil : reply, hasPendingWork: kind == .intent || state.timers.hasPendingWork
                                                    || runsTasks(stateID),
                                                summary: kind == .completed ? coding.summary(of: payload, stateID: stateID) : nil),
                                   &state))
        }
        switch written {
        case .success(let index): return index
        case .failure(let refusal): return fail(refusal)
        }
    }

    /// Whether the state with id `stateID` runs state tasks: a machine there has work to do
    /// with no new event (a store shared by several processes restores it on a takeover).
    func runsTasks(_ stateID: Int32) -> Bool {
        stateID >= 0 && coding.runsTasks[Int(stateID)]
    }

    /// Hands `write` to the store, and returns its index. It is called with the lock held, in
    /// the same hold that composed the write: writes from the actor and from other threads
    /// (amendments) then reach the store in the order of both their indices and their contents.
    /// A store never calls `completion` from within `append`.
    func append(_ write: JournalWrite, _ state: inout JournalState<Definition>) -> UInt64 {
        state.appendedWrites += 1
        state.lastActivity = now()
        let index = state.appendedWrites
        if write.summary != nil {
            if state.uncommittedCompletedWrite == 0 { state.uncommittedCompletedWrite = index }
            state.lastCompletedWrite = index
        }
        durability.store.append(write) { [self] error in committed(index, error: error) }
        return index
    }

    /// Rewrites the newest completed entry with one change to its pending events: a delayed
    /// post made outside any transition (`adding`), or one cancelled (`removing`). It starts
    /// from what that entry holds, not from the events a transition in progress has posted:
    /// those are written with that transition's own entry.
    func amend(adding added: PendingEvent? = nil, removing removed: UInt64? = nil) {
        state.withLock { state in
            guard state.failure == nil, !state.isSealed, var last = state.lastWritten else { return }
            if let removed {
                last.timers.pending.removeAll { $0.ticket == removed }
                last.timers.cancels.removeAll { $0.ticket == removed }
            }
            if let added { last.timers.pending.append(added) }
            last.timers.nextTicket = max(last.timers.nextTicket, state.timers.nextTicket)
            state.lastWritten = last
            guard var payload = state.lastPayload(coding: coding, version: durability.schemaVersion) else { return }
            payload.timers = last.timers
            let entry = JournalEntry(machine: key, sequenceNumber: last.sequenceNumber,
                                     payload: payload.encoded(machine: key, sequenceNumber: last.sequenceNumber))
            let inTaskState = coding.runsTasks(encoded: payload.state)
            _ = append(JournalWrite(entry: entry, hasPendingWork: last.timers.hasPendingWork || inTaskState,
                                    summary: coding.stored.summary(of: payload)), &state)
        }
    }

    /// Fails the journal: nothing more is written, and every waiting sender hears `error`.
    ///
    /// - Parameter fromStore: whether the store failed the write (an outage a supervisor waits
    ///   out), rather than the machine (an entry that cannot be encoded or must not be written).
    func fail(_ error: StoreError, fromStore: Bool = false) -> UInt64 {
        let (waiters, index, isFirst, wroteBefore) = state.withLock { state in
            let isFirst = state.failure == nil && !state.isSealed
            if state.failure == nil { state.failure = error }
            defer { state.waiters = [] }
            return (state.waiters, state.appendedWrites, isFirst, state.hasCommittedCompletion)
        }
        for waiter in waiters { waiter.continuation.resume(returning: error) }
        if isFirst && fromStore { onFailure?(wroteBefore) }
        return index
    }

    /// The store finished write number `index` (writes finish in order).
    private func committed(_ index: UInt64, error: StoreError?) {
        if let error {
            _ = fail(error, fromStore: true)
            return
        }
        let (ready, completed) = state.withLock { state -> ([CheckedContinuation<StoreError?, Never>], Bool) in
            // Writes commit in order: one completed entry at `index` or before is committed now. A
            // later one still in flight is the next to look for (those in between need not be).
            let completed = state.uncommittedCompletedWrite != 0 && state.uncommittedCompletedWrite <= index
            if completed {
                state.hasCommittedCompletion = true
                state.uncommittedCompletedWrite = state.lastCompletedWrite > index ? state.lastCompletedWrite : 0
            }
            state.committedWrites = max(state.committedWrites, index)
            var ready: [CheckedContinuation<StoreError?, Never>] = []
            state.waiters.removeAll { waiter in
                guard waiter.index <= state.committedWrites else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return (ready, completed)
        }
        for continuation in ready { continuation.resume(returning: nil) }
        if completed { writeWatch?.wrote() }
    }

    /// The index of the newest write.
    package var newestWrite: UInt64 { state.withLock { $0.appendedWrites } }

    /// When the machine last wrote an entry (or was made), in nanoseconds since 1970: what
    /// passivation judges idleness by.
    var lastActivity: Int64 { state.withLock { $0.lastActivity } }
}
