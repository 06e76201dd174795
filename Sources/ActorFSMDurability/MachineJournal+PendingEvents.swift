import ActorFSM

// What a journal keeps besides each entry: the events its machine posts to itself, those
// delivered through the store, and when the current state's timeouts started.

extension MachineJournal {
    // MARK: - Events the machine posts to itself

    /// Registers an event an action posts to the machine (or a scheduled event), so that it is
    /// written with the machine's next entry until an entry processes it.
    ///
    /// - Returns: its ticket, or 0 if the event cannot be encoded (it is then not durable).
    func register(_ kind: PendingEvent.Kind, _ event: Event, _ predicates: PredicateContext?, deadline: Int64 = 0) -> UInt64 {
        registered(kind, event, predicates, deadline: deadline)?.ticket ?? 0
    }

    func registered(
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

    /// Registers a scheduled event due `delay` from now. One made outside any action has no entry
    /// of its own to ride with, so the newest entry is written again with it; one an action
    /// makes is written with its transition's entry (and made again if that transition is
    /// processed again after a crash).
    package func registerScheduled(_ event: Event, _ predicates: PredicateContext?, after delay: Duration, fromAction: Bool) -> UInt64 {
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

    /// Forgets a scheduled event cancelled before delivery, and writes the cancellation at once.
    package func cancelled(_ ticket: UInt64) {
        unregister(ticket)
        amend(removing: ticket)
    }

    /// The event about to be processed is the self-posted one with `ticket`: the entry that
    /// records it removes it from the pending events. 0: the event in progress was postponed.
    package func processing(_ ticket: UInt64) {
        state.withLock { state in
            state.processingTicket = ticket
            // Neither a self-posted event nor a postponement's end is an operator's signal.
            state.signalledBy = nil
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
        state.withLock { state in
            state.consuming = state.forwarded[ticket] ?? 0
            state.signalledBy = state.signals[ticket]
        }
    }

    /// The event under `ticket` is an operator's signal: its entries record the act.
    package func expectSignal(ticket: UInt64, reason: String) {
        let operation = StoredOperation(verb: .signal, time: now() / 1_000_000, reason: reason)
        state.withLock { $0.signals[ticket] = operation }
    }

    /// Forgets the forwarded event under `ticket`, answered without being processed.
    package func forgetDelivered(_ ticket: UInt64) {
        state.withLock { state in
            state.forwarded.removeValue(forKey: ticket)
            state.signals.removeValue(forKey: ticket)
        }
    }

    /// The completed entry that records the forwarded event `number` carries `reply(record)`.
    package func answer(_ number: Int64, with reply: @escaping @Sendable (TransitionRecord<Definition>) -> [UInt8]) {
        state.withLock { $0.answers[number] = reply }
    }

    /// Forgets how the forwarded event `number` is answered.
    package func forgetAnswer(_ number: Int64) {
        state.withLock { _ = $0.answers.removeValue(forKey: number) }
    }

    // MARK: - Timers

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
            // Overdue, it rings at once; its deadline, past, still orders it among the others.
            return (Alarm(after: .nanoseconds(due - now), on: clock), timeout.duration)
        }
    }

    /// The machine entered a state with timeouts, whose deadlines run from now.
    package func enteredTimedState() {
        let now = now()
        state.withLock { state in
            state.timers.enteredAt = now
            state.timers.timeoutsFired = 0
            state.reenteredInTransition = true
            state.enteredState()
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
            state.enteredState()
        }
    }

    // MARK: - Child machines

    package func hasProcessedChildEnd(_ slot: Int) -> Bool {
        slot < 64 && state.withLock { $0.timers.childrenEnded & (1 << UInt64(slot)) != 0 }
    }

    package func cancellingChild(in current: State, stateID: Int32, slot: Int, key: String) -> UInt64 {
        guard let stateBytes = stateID >= 0 ? coding.encodedStates[Int(stateID)] : try? coding.encodeState(current)
        else { return 0 }
        return state.withLock { state in
            let ticket = state.timers.nextTicket
            state.timers.nextTicket += 1
            state.timers.cancels.append(StoredCancel(ticket: ticket, state: stateBytes, slot: UInt64(slot), key: key))
            return ticket
        }
    }

    package func enteredChildren(_ keys: [(slot: Int, key: String)]) {
        state.withLock { $0.timers.children = keys.map { StoredChild(slot: UInt64($0.slot), key: $0.key) } }
    }

    package func childCancelled(_ ticket: UInt64) {
        guard ticket != 0 else { return }
        let written = state.withLock { state in
            state.timers.cancels.removeAll { $0.ticket == ticket }
            return state.lastWritten?.timers.cancels.contains { $0.ticket == ticket } == true
        }
        // Written with an entry already: that entry is written again without it.
        if written { amend(removing: ticket) }
    }
}
