import ActorFSM

// A durable supervisor's machine that is not running: restored from the store (once, however
// many callers ask at the same time), or made new.

extension Supervisor {
    /// The machine under `id`, restored from the store if this is a durable supervisor and the
    /// store holds it.
    package func machineRestoring(id: ID, origin: EventOrigin) async throws(MachineError<Definition>) -> Machine<Definition>? {
        if let machine = machine(id: id) {
            let journalClosed = machine.durableJournal?.isClosed == true
            let accepting = journalClosed ? false : await machine.isLive
            guard durable != nil, !accepting, !isShutDown else { return machine }
            // Passivated, stopping after a failure, or its journal failed (its state in memory is
            // no longer durable): once it has ended, its successor takes the event, or the
            // machine comes back from the store.
            if journalClosed, let durable {
                // Until the store answers, the machine goes on in memory, and its senders hear
                // that their events are not durable; so does a parked machine, whose restore
                // would run its interrupted action again.
                if tracking({ $0.parked.contains(id) }) { return machine }
                if await storeRefuses(id, coding: durable) != nil { return machine }
                if !admitsRestoreAfterFailure(id) { return machine }
                await machine.stop()
            }
            // From its own action it cannot end before the action does: it refuses the event.
            if ActionScope.machines.contains(ObjectIdentifier(machine)) { return machine }
            // Stopping after a failure, until it has ended its supervisor has not restarted it,
            // and restoring a copy now would run two. A sender that gives up meanwhile (its task
            // cancelled) is answered at once; the machine ends on its own.
            await machine.shutDownAndAwaitEnd(cancellable: true)
            if Task.isCancelled { throw MachineError(.cancelled, machineID: id) }
            let successor = registry.withLock { $0.core.remove(machine, from: id) }
            if let successor { return successor }
        }
        guard durable != nil else { return nil }
        // Not in memory, a machine parked before it was stopped comes back on this send.
        forgetParking(of: id)
        do {
            return try await restore(id: id, data: nil, skippingFinal: false)
        } catch let error as MachineError<Definition> {
            throw error
        } catch {
            throw MachineError(.notDurable, machineID: id, cause: error)
        }
    }

    /// A machine a restore returned, and whether this very call made it new.
    package struct Loaded: Sendable {
        package let machine: Machine<Definition>
        package let isNew: Bool
    }

    /// Restores the machine `id` from the store (made with `data` if the store does not hold
    /// it and `data` is given), once however many callers ask at the same time.
    ///
    /// - Returns: the machine, or `nil` if the store does not hold it (and no `data`), or it is
    ///   in a final state and `skippingFinal`.
    func restore(id: ID, data: Definition.Data?, skippingFinal: Bool) async throws -> Machine<Definition>? {
        try await load(id: id, data: data, skippingFinal: skippingFinal)?.machine
    }

    /// ``restore(id:data:skippingFinal:)``, saying whether this call made the machine: only the
    /// caller that started the load can have.
    func load(id: ID, data: Definition.Data?, skippingFinal: Bool) async throws -> Loaded? {
        guard let durable else { return nil }
        let started = registry.withLock { registry -> Result<(Task<(machine: Machine<Definition>, isNew: Bool)?, any Error>, Bool), MachineError<Definition>>? in
            if registry.machines[id] != nil { return nil }
            if registry.isShutDown {
                return .failure(shutDownError(id, escalated: registry.core.escalation))
            }
            return tracking { tracking in
                if let running = tracking.restoring[id] { return .success((running, false)) }
                let task = Task {
                    try await self.restoreFromStore(id: id, data: data, coding: durable, skippingFinal: skippingFinal)
                        .map { (machine: $0.machine, isNew: $0.isNew) }
                }
                tracking.restoring[id] = task
                return .success((task, true))
            }
        }
        switch started {
        case nil: return machine(id: id).map { Loaded(machine: $0, isNew: false) }
        case .failure(let error): throw error
        case .success(let (task, startedHere)):
            return try await task.value.map { Loaded(machine: $0.machine, isNew: $0.isNew && startedHere) }
        }
    }

    /// Reads machine `id` from the store and registers it.
    private func restoreFromStore(
        id: ID, data: Definition.Data?, coding: DurableCoding<Definition>, skippingFinal: Bool
    ) async throws -> Loaded? {
        let key = coding.key(id)
        defer { tracking { _ = $0.restoring.removeValue(forKey: id) } }
        let recovery = try await Recovery.load(key, coding: coding, schema: schema, data: data ?? coding.emptyData)
        durableSupervision?.routing?.forget([key])
        if let point = recovery?.point, point.timers.isCancelled {
            await coding.durability.store.release([key])
            throw MachineError<Definition>(.stopped, machineID: id, cause: DurabilityError(
                .cancelled, machine: key, sequenceNumber: point.sequenceNumber, detail: "its history says why"))
        }
        if recovery == nil && data == nil || recovery.map({ skippingFinal && schema.finalStates.contains($0.point.state) }) == true {
            // Claimed, but not restored: another process may take it.
            await coding.durability.store.release([key])
            return nil
        }
        let made = registry.withLock { registry -> (machine: Machine<Definition>, isNew: Bool)? in
            guard !registry.isShutDown else { return nil }
            if let running = registry.machines[id] { return (running, false) }
            let machine = makeMachine(id: id, data: recovery?.point.data ?? data!, in: &registry,
                                      journal: journal(for: id, key: key, coding: coding, recovery: recovery))
            return (machine, recovery == nil)
        }
        guard let made else { return nil }
        // A new machine is answered once its creation entry is as durable as a send would be.
        if made.isNew, let failure = await made.machine.durableJournal?.awaitCreation() {
            registry.withLock { _ = $0.core.remove(made.machine, from: id) }
            await made.machine.stop()
            await coding.durability.store.release([key])
            throw failure
        }
        return Loaded(machine: made.machine, isNew: made.isNew)
    }
}
