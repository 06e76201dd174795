import ActorFSM

// An operator's acts on a machine that no process runs, written into its store directly: no
// Swift type of the machine is needed, only the schema descriptions the store keeps.

extension MachineStore where Self: StoreInspection {
    /// Pauses the stored machine `key`, which no process runs: its journal gains a pause's
    /// operator entry, with `reason`, and a process that restores it has it paused. Pausing a
    /// paused machine does nothing.
    ///
    /// - Throws: `StoreError` if the store fails, another live process holds the machine (the
    ///   error's `isHeldElsewhere` is then `true`: an ``OperatorRequest`` reaches that process), the
    ///   store holds no such machine, or it cannot be paused (see ``cancel(machine:reason:wallClock:)``).
    public func pause(machine key: String, reason: String, wallClock: any WallClock = SystemWallClock()) async throws(StoreError) {
        try await act(.pause, on: key, reason: reason, wallClock: wallClock)
    }

    /// Resumes the stored machine `key`, which no process runs: its journal gains a resume's
    /// operator entry, with `reason`. A process runs it once it restores it (`restoreAll()`, or
    /// its next event). Resuming a machine that is not paused does nothing.
    ///
    /// - Throws: as ``pause(machine:reason:wallClock:)``.
    public func resume(machine key: String, reason: String, wallClock: any WallClock = SystemWallClock()) async throws(StoreError) {
        try await act(.resume, on: key, reason: reason, wallClock: wallClock)
    }

    /// Cancels the stored machine `key`, which no process runs, for good: its journal gains a
    /// cancel's operator entry, with `reason`, its timers are dropped, its summary's status is
    /// `cancelled`, and no process restores it again. (A cancelling event is sent only by a
    /// supervisor, which knows the machine's types: `Supervisor.cancel(_:reason:)`.)
    ///
    /// - Throws: `StoreError` if the store fails, another live process holds the machine, the
    ///   store holds no such machine, the machine is in a final state or cancelled, its newest
    ///   entry is an intent (a crash interrupted a transition: a restore runs it again first),
    ///   or the store holds no description of the schema that wrote it.
    public func cancel(machine key: String, reason: String, wallClock: any WallClock = SystemWallClock()) async throws(StoreError) {
        try await act(.cancel, on: key, reason: reason, wallClock: wallClock)
    }

    /// Retries the failed event of the stored machine `key`, which no process runs: its failed
    /// entry is replaced by the event, with `reason`, as an intent above the entry before it, so
    /// that the process that restores the machine (`restoreAll()`, or its next event) processes
    /// the event again from that entry, under the same sequence number, hence the same
    /// `idempotencyKey`, with the code it runs. The event's completed entry records the retry.
    /// The machine's summary stays the failed entry's (status `failed`) until then.
    ///
    /// A machine whose newest entry is an event that a crash or a stop interrupted (an intent)
    /// has that intent written again as the retry, with `reason`: the restore processes it
    /// again, its action's attempts starting over. Its summary keeps the status of its newest
    /// completed entry (`failed`, after a failure that a restart tried again) until then.
    ///
    /// - Throws: `StoreError` if the store fails, another live process holds the machine, the
    ///   store holds no such machine, its newest entry is completed and did not fail, it is
    ///   final or cancelled, or the entry before the failed one is gone.
    public func retry(machine key: String, reason: String, wallClock: any WallClock = SystemWallClock()) async throws(StoreError) {
        try await act(.retry, on: key, reason: reason, wallClock: wallClock)
    }

    /// Writes the operator entry of `verb` above machine `key`'s newest entry (for a retry, the
    /// failed entry's event as an intent in its place), holding the machine's claim meanwhile.
    func act(_ verb: OperatorVerb, on key: String, reason: String, wallClock: any WallClock) async throws(StoreError) {
        guard try await !claim([key]).isEmpty else {
            throw StoreError("machine \(key) is held by another live process: act on it through that process", isHeldElsewhere: true)
        }
        let writes: [JournalWrite]
        do {
            writes = try await operatorWrites(verb, on: key, reason: reason, at: wallClock.nanosecondsSince1970() / 1_000_000)
        } catch {
            await release([key])
            throw error
        }
        var failure: StoreError?
        for write in writes where failure == nil {
            failure = await withCheckedContinuation { continuation in append(write) { continuation.resume(returning: $0) } }
        }
        await release([key])
        if let failure { throw failure }
    }

    /// The writes that record `verb` on machine `key`; none if it changes nothing.
    private func operatorWrites(
        _ verb: OperatorVerb, on key: String, reason: String, at time: Int64
    ) async throws(StoreError) -> [JournalWrite] {
        let entries = try await latestEntries(of: key, count: 2)
        guard let newest = entries.first else { throw StoreError("the store holds no machine \(key)") }
        let payload = try Self.decoded(newest)
        if payload.isIntent && verb == .retry {
            return [Self.interruptedRetryWrite(of: newest, payload, operation: StoredOperation(verb: .retry, time: time, reason: reason))]
        }
        guard payload.kind == .completed else {
            throw StoreError("machine \(key): a crash or a stop interrupted its transition \(newest.sequenceNumber), which the "
                             + "next restore runs again: restore it before you \(verb) it")
        }
        let schemas = try await storedSchemas()
        let schema = try Self.schema(of: payload, in: schemas, key: key)
        let status = schema.summary(of: payload).status
        if status == .cancelled { throw StoreError("machine \(key) is cancelled already") }
        if status == .final { throw StoreError("machine \(key) is in a final state, \(schema.summary(of: payload).state)") }
        if verb == .retry {
            return try Self.retryWrites(of: newest, payload, below: entries.dropFirst().first, in: schemas,
                                        operation: StoredOperation(verb: .retry, time: time, reason: reason))
        }
        if verb == .pause && status == .paused || verb == .resume && !payload.timers.isPaused { return [] }
        var acted = payload
        acted.apply(verb, reason: reason, at: time)
        let number = newest.sequenceNumber + 1
        let entry = JournalEntry(machine: newest.machine, sequenceNumber: number,
                                 payload: acted.encoded(machine: newest.machine, sequenceNumber: number))
        return [JournalWrite(entry: entry, hasPendingWork: verb != .cancel && acted.timers.hasPendingWork,
                             summary: schema.summary(of: acted))]
    }

    /// A retry's writes: the entry before the failed one again, then the failed event as an
    /// intent under its own number, which a restore processes again. The summary, which a store
    /// never moves back to an older entry, stays the failed entry's until that restore.
    private static func retryWrites(
        of failed: JournalEntry, _ payload: JournalPayload, below: JournalEntry?, in schemas: [StoredSchema],
        operation: StoredOperation
    ) throws(StoreError) -> [JournalWrite] {
        let key = failed.machine
        if let refusal = RetryCheck.refusal(of: payload, entry: failed) { throw refusal }
        guard let below, below.sequenceNumber + 1 == failed.sequenceNumber, case let before = try decoded(below),
              before.kind == .completed
        else {
            throw StoreError("machine \(key): the entry before its failed event \(failed.sequenceNumber) is not in the store, "
                             + "so the event cannot be processed again from there")
        }
        var intent = JournalPayload(kind: .retryIntent, outcome: .transitioned, origin: payload.origin, ticket: payload.ticket,
                                    fingerprint: payload.fingerprint, schemaVersion: payload.schemaVersion)
        (intent.event, intent.predicates, intent.timers.operation) = (payload.event, payload.predicates, operation)
        let entry = JournalEntry(machine: key, sequenceNumber: failed.sequenceNumber,
                                 payload: intent.encoded(machine: key, sequenceNumber: failed.sequenceNumber))
        return [JournalWrite(entry: below, hasPendingWork: true, summary: try schema(of: before, in: schemas, key: key).summary(of: before)),
                JournalWrite(entry: entry, hasPendingWork: true)]
    }

    /// A retry's write for an event that a crash or a stop interrupted (after a failure, say,
    /// a supervisor's restart ran it again and an escalation stopped it): its intent is written
    /// again, as the operator's retry, which the completed entry records once a restore has
    /// processed the event. The action's attempts start over. The summary stays as it is: it
    /// follows the newest completed entry, until the restore.
    private static func interruptedRetryWrite(
        of newest: JournalEntry, _ payload: JournalPayload, operation: StoredOperation
    ) -> JournalWrite {
        var intent = payload
        (intent.kind, intent.retry, intent.timers.operation) = (.retryIntent, nil, operation)
        let entry = JournalEntry(machine: newest.machine, sequenceNumber: newest.sequenceNumber,
                                 payload: intent.encoded(machine: newest.machine, sequenceNumber: newest.sequenceNumber))
        return JournalWrite(entry: entry, hasPendingWork: true)
    }

    /// The payload of `entry`, which must decode.
    private static func decoded(_ entry: JournalEntry) throws(StoreError) -> JournalPayload {
        guard let payload = JournalPayload(decoding: entry) else {
            throw StoreError("machine \(entry.machine): entry \(entry.sequenceNumber) is damaged or cut short; nothing was written")
        }
        return payload
    }

    /// The description of the schema that wrote `payload`, among `schemas`.
    private static func schema(of payload: JournalPayload, in schemas: [StoredSchema], key: String) throws(StoreError) -> StoredSchema {
        let fingerprint = StoredSchema.hex(payload.fingerprint)
        guard let schema = schemas.first(where: { $0.fingerprint == fingerprint }) else {
            throw StoreError("machine \(key): the store holds no description of its schema \(fingerprint)")
        }
        return schema
    }
}

extension JournalPayload {
    /// This completed entry, made the operator entry of `verb` that follows it: the same state,
    /// data and timers (none once cancelled), no event, and the operation.
    mutating func apply(_ verb: OperatorVerb, reason: String, at time: Int64) {
        (origin, ticket, event, predicates) = (StoredOrigin(.send), 0, nil, [])
        timers.operation = StoredOperation(verb: verb, time: time, reason: reason)
        timers.apply(verb, ends: verb == .cancel, at: time)
    }
}

/// What a retry checks before it changes anything.
enum RetryCheck {
    /// Why the completed entry `entry`, with `payload`, is not one a retry starts from: it did
    /// not fail, or it is an operator's entry (a pause or a resume after the failure, which keeps
    /// the failed outcome) rather than the failed event's; `nil` if it is the failed event's.
    static func refusal(of payload: JournalPayload, entry: JournalEntry) -> StoreError? {
        let key = entry.machine
        guard payload.outcome == .failed else {
            return StoreError("machine \(key): its newest entry, \(entry.sequenceNumber), did not fail: there is nothing to retry")
        }
        if let operation = payload.timers.operation, !operation.recordsItsEvent {
            return StoreError("machine \(key): its newest entry, \(entry.sequenceNumber), is an operator's \(operation.verb), "
                              + "written after its failed event: a retry processes a failed event only while its entry is "
                              + "the newest, so send the event again instead")
        }
        return nil
    }
}
