import ActorFSM

// An operator's acts on a durable machine, as its journal writes them.

extension MachineJournal {
    package var awaitsInterrupted: Bool { state.withLock { $0.interrupted != nil } }

    /// Writes the entry of an operator's `verb`: a completed entry that holds what the newest
    /// one holds (the machine has no event in progress), with the operation, and the pause or
    /// the end a restore honours. It leaves the last transition's time and outcome as they were.
    package func operated(
        _ verb: OperatorVerb, reason: String, ends: Bool, number: UInt64, in current: State, stateID: Int32,
        data: Definition.Data
    ) -> UInt64 {
        let encoded: (state: [UInt8], data: [UInt8])
        do {
            encoded = (stateID >= 0 ? coding.encodedStates[Int(stateID)] : try coding.encodeState(current),
                       try coding.encodeData(data))
        } catch {
            _ = fail(StoreError("machine \(key): could not encode entry \(number): \(error)"))
            return 0
        }
        let operation = StoredOperation(verb: verb, time: now() / 1_000_000, reason: reason)
        return state.withLock { state -> UInt64 in
            guard state.failure == nil, !state.isSealed, state.interrupted == nil else { return 0 }
            state.timers.apply(verb, ends: ends, at: operation.time)
            var payload = JournalPayload(
                kind: .completed, outcome: state.lastOutcome, origin: StoredOrigin(.send), ticket: 0,
                fingerprint: coding.fingerprint, schemaVersion: Int64(durability.schemaVersion))
            (payload.state, payload.data) = encoded
            payload.timers = state.timers
            payload.timers.operation = operation
            state.lastWritten = RestorePoint(state: current, data: data, sequenceNumber: number, timers: payload.timers)
            state.lastEvent = (payload.origin, nil, [])
            let entry = JournalEntry(machine: key, sequenceNumber: number,
                                     payload: payload.encoded(machine: key, sequenceNumber: number))
            let hasPendingWork = !ends && (state.timers.hasPendingWork || runsTasks(stateID))
            return append(JournalWrite(entry: entry, hasPendingWork: hasPendingWork,
                                       summary: coding.summary(of: payload, stateID: stateID)), &state)
        }
    }
}
