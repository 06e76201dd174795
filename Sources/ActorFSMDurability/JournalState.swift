import ActorFSM

/// The part of a journal behind its lock.
struct JournalState<Definition: MachineDefinition>: Sendable {
    var timers = StoredTimers()
    var processingTicket: UInt64 = 0
    /// The forwarded event the event in progress is, 0 if none.
    var consuming: Int64 = 0
    /// Forwarded events waiting in the machine's inbox, by inbox ticket.
    var forwarded: [UInt64: Int64] = [:]
    /// How the senders of forwarded events are answered, by the events' numbers in the store.
    var answers: [Int64: @Sendable (TransitionRecord<Definition>) -> [UInt8]] = [:]
    /// Whether the transition in progress entered a state with timeouts (a timeout it processes
    /// then does not count as fired for the new entry).
    var reenteredInTransition = false
    var appendedWrites: UInt64 = 0
    var committedWrites: UInt64 = 0
    /// The indices of the oldest write of a completed entry (one that carries a summary: progress,
    /// unlike an intent) not known to be committed, 0 if none, and of the newest one.
    var uncommittedCompletedWrite: UInt64 = 0
    var lastCompletedWrite: UInt64 = 0
    /// Whether a write of a completed entry has committed: the machine made progress in the store.
    var hasCommittedCompletion = false
    var writesSinceCompaction = 0
    var failure: StoreError?
    var waiters: [(index: UInt64, continuation: CheckedContinuation<StoreError?, Never>)] = []
    var lastWritten: RestorePoint<Definition>?
    /// The outcome of the newest completed entry, which an amendment of it keeps.
    var lastOutcome = JournalPayload.Outcome.transitioned
    /// The event the newest completed entry records, which an amendment of it keeps too.
    var lastEvent: (origin: StoredOrigin, event: [UInt8]?, predicates: [StoredPredicate]) = (StoredOrigin(.send), nil, [])
    /// Whether the state the newest completed entry holds runs state tasks.
    var runsTasks = false
    var lastActivity: Int64 = 0
    /// Whether the machine's successor has taken over: nothing more is written.
    var isSealed = false
    /// The event a crash or a stop interrupted, which the restored machine processes first:
    /// until its completed entry is written, no other entry is.
    var interrupted: (number: UInt64, origin: StoredOrigin)?
    /// The intent of the event in progress, kept to write it again when its action is retried.
    var intent: (number: UInt64, payload: JournalPayload)?
    /// The retry the interrupted event's intent recorded, until its action asks for it.
    var resumedRetry: (number: UInt64, retry: StoredRetry)?
    /// The operator's retry that wrote the interrupted event's intent: the event's completed
    /// entry records it.
    var retriedBy: StoredOperation?
    /// Operators' signals waiting in the machine's inbox, by inbox ticket.
    var signals: [UInt64: StoredOperation] = [:]
    /// The operator's signal the event in progress is, if it is one: its entries record it.
    var signalledBy: StoredOperation?

    /// Checks a write against the event a crash or a stop interrupted, which the restored
    /// machine processes first: its number is written only for that event, and no later number
    /// before its completed entry. A `.stopped` record before then writes nothing more, so the
    /// intent stays the newest entry.
    ///
    /// - Returns: the error that refuses the write, if it must be refused.
    mutating func admitWhileInterrupted(
        _ number: UInt64, _ kind: JournalPayload.Kind, _ outcome: JournalPayload.Outcome, _ origin: StoredOrigin,
        key: String
    ) -> StoreError? {
        guard let interrupted else { return nil }
        if outcome == .stopped {
            isSealed = true
            return nil
        }
        if number == interrupted.number && origin == interrupted.origin {
            if kind == .completed { self.interrupted = nil }
            return nil
        }
        return StoreError("machine \(key): entry \(number) would be written before the interrupted event "
                          + "\(interrupted.number) is processed again; the machine is restored from the store instead")
    }

    /// The event in progress, self-posted or delivered under `ticket` (0: neither), completes
    /// with `outcome`: what the machine's timers and pending events become.
    ///
    /// Events that changed nothing (unhandled, a false condition) leave the last transition's
    /// time (`time`, in milliseconds since 1970) as it was: a machine stuck in its state stays
    /// old however often it is poked.
    mutating func completing(ticket: UInt64, origin: EventOrigin, outcome: JournalPayload.Outcome, at time: Int64) {
        processingTicket = 0
        consuming = 0
        lastOutcome = outcome
        if outcome == .transitioned || outcome == .failed { timers.lastTransition = time }
        if ticket & Machine<Definition>.childEndTicketFlag != 0 {
            timers.noteChildEnded(ticket & ~Machine<Definition>.childEndTicketFlag)
        } else if ticket != 0 {
            timers.pending.removeAll { $0.ticket == ticket }
        }
        // A timeout recorded as stopped was never processed: a restart arms it again.
        if case .timeout = origin, outcome != .stopped, !reenteredInTransition {
            timers.timeoutsFired += 1
        }
        reenteredInTransition = false
    }

    /// The machine entered a state (or left the one it was in): none of the new entry's child
    /// machines has ended, and a child's end being processed belonged to the state left.
    mutating func enteredState() {
        timers.childrenEnded = 0
        timers.children = []
        if processingTicket & Machine<Definition>.childEndTicketFlag != 0 { processingTicket = 0 }
    }

    /// Sets what the entry `payload` is about to record of the timers and of an operator: a
    /// completed entry's timers; for a signal's intent, or that of an event an operator's retry
    /// put back (after a restore), the operation, so that a second restore still records it.
    mutating func stamp(_ payload: inout JournalPayload) {
        if payload.kind == .completed { payload.timers = timersOfCompletedEntry() }
        if payload.kind == .intent, let operation = signalledBy ?? retriedBy {
            (payload.kind, payload.timers.operation) = (.operatorIntent, operation)
        }
    }

    /// What the next completed entry holds of the timers: they, and the operator's retry if
    /// the entry completes the event the retry put back.
    mutating func timersOfCompletedEntry() -> StoredTimers {
        var written = timers
        written.operation = retriedBy ?? signalledBy
        (retriedBy, signalledBy) = (nil, nil)
        return written
    }

    /// The completed entry `payload`, numbered `sequenceNumber` with `state` and `data`, is the
    /// newest: what a restore point and an amendment of it take from it (its operator's note and
    /// its event included).
    mutating func wrote(_ payload: JournalPayload, state: Definition.State, data: Definition.Data, sequenceNumber: UInt64) {
        lastWritten = RestorePoint(state: state, data: data, sequenceNumber: sequenceNumber, timers: payload.timers)
        lastEvent = (payload.origin, payload.event, payload.predicates)
    }

    /// The newest completed entry's payload, composed again.
    func lastPayload(coding: DurableCoding<Definition>, version: Int) -> JournalPayload? {
        guard let last = lastWritten,
              let state = try? coding.encodeState(last.state), let data = try? coding.encodeData(last.data)
        else { return nil }
        var payload = JournalPayload(kind: .completed, outcome: lastOutcome, origin: lastEvent.origin, ticket: 0,
                                     fingerprint: coding.fingerprint, schemaVersion: Int64(version))
        (payload.state, payload.data, payload.timers) = (state, data, timers)
        (payload.event, payload.predicates, payload.timers.operation) = (lastEvent.event, lastEvent.predicates, last.timers.operation)
        return payload
    }
}

/// What a durable machine resumes from: its newest completed entry, decoded.
struct RestorePoint<Definition: MachineDefinition>: Sendable {
    var state: Definition.State
    var data: Definition.Data
    var sequenceNumber: UInt64
    var timers: StoredTimers
}
