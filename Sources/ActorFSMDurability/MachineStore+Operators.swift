import ActorFSM

// An operator's acts on a machine that no process runs, written into its store directly: no
// Swift type of the machine is needed, only the schema descriptions the store keeps.

extension MachineStore where Self: StoreInspection {
    /// Pauses the stored machine `key`, which no process runs: its journal gains a pause's
    /// operator entry, with `reason`, and a process that restores it has it paused. Pausing a
    /// paused machine does nothing.
    ///
    /// - Throws: `StoreError` if the store fails, another live process holds the machine, the
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

    /// Writes the operator entry of `verb` above machine `key`'s newest entry, holding the
    /// machine's claim meanwhile.
    private func act(_ verb: OperatorVerb, on key: String, reason: String, wallClock: any WallClock) async throws(StoreError) {
        guard try await !claim([key]).isEmpty else {
            throw StoreError("machine \(key) is held by another live process: act on it through that process")
        }
        let write: JournalWrite?
        do {
            write = try await operatorWrite(verb, on: key, reason: reason, wallClock: wallClock)
        } catch {
            await release([key])
            throw error
        }
        let failure = if let write {
            await withCheckedContinuation { continuation in append(write) { continuation.resume(returning: $0) } }
        } else {
            StoreError?.none
        }
        await release([key])
        if let failure { throw failure }
    }

    /// The write that records `verb` on machine `key`, or `nil` if it changes nothing.
    private func operatorWrite(
        _ verb: OperatorVerb, on key: String, reason: String, wallClock: any WallClock
    ) async throws(StoreError) -> JournalWrite? {
        guard let newest = try await latestEntries(of: key, count: 1).first else {
            throw StoreError("the store holds no machine \(key)")
        }
        guard var payload = JournalPayload(decoding: newest) else {
            throw StoreError("machine \(key): entry \(newest.sequenceNumber) is damaged or cut short; nothing was written")
        }
        guard payload.kind == .completed else {
            throw StoreError("machine \(key): a crash interrupted its transition \(newest.sequenceNumber); "
                             + "restore it (the transition runs again) before acting on it")
        }
        let fingerprint = StoredSchema.hex(payload.fingerprint)
        guard let schema = try await storedSchemas().first(where: { $0.fingerprint == fingerprint }) else {
            throw StoreError("machine \(key): the store holds no description of its schema \(fingerprint)")
        }
        switch schema.summary(of: payload).status {
        case .cancelled: throw StoreError("machine \(key) is cancelled already")
        case .final: throw StoreError("machine \(key) is in a final state, \(schema.summary(of: payload).state)")
        case .paused where verb == .pause: return nil
        default: if verb == .resume && !payload.timers.isPaused { return nil }
        }
        payload.apply(verb, reason: reason, at: wallClock.nanosecondsSince1970() / 1_000_000)
        let number = newest.sequenceNumber + 1
        let entry = JournalEntry(machine: key, sequenceNumber: number, payload: payload.encoded(machine: key, sequenceNumber: number))
        return JournalWrite(entry: entry, hasPendingWork: verb != .cancel && payload.timers.hasPendingWork,
                            summary: schema.summary(of: payload))
    }
}

extension JournalPayload {
    /// This completed entry, made the operator entry of `verb` that follows it: the same state,
    /// data and timers (none once cancelled), no event, and the operation.
    mutating func apply(_ verb: OperatorVerb, reason: String, at time: Int64) {
        (origin, ticket, event, predicates) = (StoredOrigin(.send), 0, nil, [])
        timers.operation = StoredOperation(verb: verb, time: time, reason: reason)
        timers.apply(verb, ends: verb == .cancel)
    }
}
