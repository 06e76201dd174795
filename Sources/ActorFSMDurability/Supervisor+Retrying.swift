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
    /// machine is restored: it processes the event before any other. `retry` returns once the
    /// machine is restored; the event's record reaches subscribers as any record does.
    ///
    /// - Throws: ``MachineError`` `.notDurable` if the supervisor is not durable, the machine
    ///   is paused or at work (an action running), its newest entry did not fail, it is final
    ///   or cancelled, or the store fails (its `underlying` says which); `.unknownMachine` if
    ///   the store holds no such machine.
    @discardableResult
    public func retry(_ id: ID, reason: String = "") async throws(MachineError<Definition>) -> Machine<Definition> {
        guard let durable else { throw MachineError(.notDurable, machineID: id) }
        guard let store = durable.durability.store as? any MachineStore & StoreInspection else {
            throw MachineError(.notDurable, machineID: id, cause: StoreError("the store does not read its machines back"))
        }
        let key = durable.key(id)
        let isStored: Bool
        do {
            isStored = try await !store.latestEntries(of: key, count: 1).isEmpty
        } catch {
            throw MachineError(.notDurable, machineID: id, cause: error)
        }
        guard isStored else { throw MachineError(.unknownMachine, machineID: id) }
        if let running = machine(id: id) {
            guard await passivate(id: id), machine(id: id) == nil else {
                let why = await running.isPaused ? "it is paused: resume it first" : "it is at work: retry once it is idle"
                throw MachineError(.notDurable, machineID: id, cause: StoreError("machine \(id) was not retried: \(why)"))
            }
        }
        do {
            try await store.retry(machine: key, reason: reason, wallClock: durable.durability.wallClock)
        } catch {
            throw MachineError(.notDurable, machineID: id, cause: error)
        }
        guard let machine = try await machineRestoring(id: id, origin: .send) else { throw noMachine(id, origin: .send) }
        return machine
    }
}
