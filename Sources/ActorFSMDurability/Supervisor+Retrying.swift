import ActorFSM

// An operator's retry of a machine whose last event failed: the event is processed again,
// from the entry before it, under its own number.

extension Supervisor {
    /// Retries the failed event of the machine under `id`, for an operator: a machine whose
    /// newest entry failed (a failure policy applied, its retries spent) processes that event
    /// again, from the entry before it, under the same sequence number (so the same
    /// `idempotencyKey`), with the code this process runs. The event's new completed entry
    /// records the retry with `reason`.
    ///
    /// A machine in memory is passivated first (it finishes what it has queued); then the
    /// store's ``MachineStore/retry(machine:reason:wallClock:)`` puts the event back, and the
    /// machine is restored: it processes the event before any other. `retry` returns the
    /// machine once it is restored; the event's record reaches subscribers as any record does.
    /// On a store several processes share, a machine another live process holds is retried by
    /// that process, which the supervisor asks through the store: `retry` returns `nil` once
    /// it has answered.
    ///
    /// A machine whose newest entry is an event that a crash or a stop interrupted is retried
    /// too: see ``MachineStore/retry(machine:reason:wallClock:)``.
    ///
    /// - Throws: ``MachineError`` `.notDurable` if the supervisor is not durable, the machine
    ///   is paused or at work (an action running), its newest completed entry did not fail or is
    ///   an operator's pause or resume written after the failure, it is final or cancelled, the
    ///   store fails, or the process that holds it refused or did not answer (its `underlying`
    ///   says which); `.unknownMachine` if the store holds no such machine; `.stopped` if the
    ///   supervisor has shut down.
    @discardableResult
    public func retry(_ id: ID, reason: String = "") async throws(MachineError<Definition>) -> Machine<Definition>? {
        if isShutDown { throw shutDownError(id) }
        guard let durable else { throw MachineError(.notDurable, machineID: id) }
        guard let store = durable.durability.store as? any MachineStore & StoreInspection else {
            throw MachineError(.notDurable, machineID: id, cause: StoreError("the store does not read its machines back"))
        }
        let key = durable.key(id)
        let newest: JournalEntry?
        do {
            newest = try await store.latestEntries(of: key, count: 1).first
        } catch {
            throw MachineError(.notDurable, machineID: id, cause: error)
        }
        guard let newest else { throw MachineError(.unknownMachine, machineID: id) }
        // Refused before anything moves: a machine in memory is not passivated for nothing.
        if let payload = JournalPayload(decoding: newest), payload.kind == .completed,
           let refusal = RetryCheck.refusal(of: payload, entry: newest) {
            throw MachineError(.notDurable, machineID: id, cause: refusal)
        }
        if let running = machine(id: id) {
            guard await passivate(id: id), machine(id: id) == nil else {
                let why = await running.isPaused ? "it is paused: resume it first" : "it is at work: retry once it is idle"
                throw MachineError(.notDurable, machineID: id, cause: StoreError("machine \(id) was not retried: \(why)"))
            }
        }
        do {
            try await store.retry(machine: key, reason: reason, wallClock: durable.durability.wallClock)
        } catch where error.isHeldElsewhere && durableSupervision != nil {
            // Another live process holds it: that process retries it.
            _ = try await durableSupervision!.act(.retry, elsewhereOn: id, reason: reason)
            return nil
        } catch {
            throw MachineError(.notDurable, machineID: id, cause: error)
        }
        guard let machine = try await machineRestoring(id: id, origin: .send) else { throw noMachine(id, origin: .send) }
        return machine
    }
}
