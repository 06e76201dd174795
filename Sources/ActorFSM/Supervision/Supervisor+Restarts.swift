// Supervision: what a supervisor decides when one of its machines ends, called by the machines.

extension Supervisor {
    func machineRecorded(_ record: TransitionRecord<Definition>) {
        publish(.transition(record))
    }

    func machineStopped(id: ID, generation: UInt64, _ termination: MachineTermination) {
        if flags.hasLetGo.load(ordering: .acquiring) {
            // Shutting down: the machine leaves the registry with all the others at the end,
            // and is not restarted.
            if flags.isListening.load(ordering: .acquiring) { publish(.terminated(id: id, termination)) }
            return
        }
        let decision = registry.withLock { registry in decide(id: id, generation: generation, termination, &registry) }
        switch decision {
        case .none:
            break
        case .removed(let termination):
            publish(.terminated(id: id, termination))
        case .passivated:
            publish(.passivated(id: id))
        case .restarted(let error):
            settings.instrument?.machineRestarted(id, after: error)
            publish(.restarted(id: id, after: error))
        case .escalated:
            break
        }
    }

    fileprivate enum Decision {
        case none
        case removed(MachineTermination)
        case passivated
        case restarted(any Error)
        case escalated
    }

    fileprivate func decide(
        id: ID, generation: UInt64, _ termination: MachineTermination, _ registry: inout Registry
    ) -> Decision {
        // Shut down after this machine's report began: it leaves with the others at the end.
        if flags.hasLetGo.load(ordering: .acquiring) { return .removed(termination) }
        guard let failed = registry.machines[id], failed.generation == generation else { return .none }
        guard case .failed(let error) = termination, !registry.isShutDown else {
            registry.machines[id] = nil
            registry.restartBook.forget(id)
            if case .finished = termination, registry.passivating.contains(ObjectIdentifier(failed)) { return .passivated }
            return .removed(termination)
        }
        // Its store failed a write, so its state in memory is ahead of the store: it comes back
        // from the store once the store works (see `Supervisor+StoreRecovery`), not from memory.
        if failed.journal?.isClosed == true {
            registry.machines[id] = nil
            registry.restartBook.forget(id)
            return .removed(termination)
        }
        switch registry.restartBook.failed(id, at: now(), under: configuration) {
        case .leaveStopped:
            registry.machines[id] = nil
            return .removed(termination)
        case .escalate:
            escalate(Escalation(id: id, error: error, limit: nil), &registry)
            return .escalated
        case .exceedsPerMachine(let intensity):
            escalate(Escalation(id: id, error: error, limit: .perMachine(intensity)), &registry)
            return .escalated
        case .exceedsOverall(let intensity):
            escalate(Escalation(id: id, error: error, limit: .overall(intensity)), &registry)
            return .escalated
        case .restart:
            _ = makeMachine(id: id, data: failed.initialData, startingIn: nil, in: &registry,
                            resuming: failed.journal)
            return .restarted(error)
        }
    }

    /// The error for an event or machine refused because the supervisor is shut down: it
    /// carries the escalation, if one shut it down.
    func shutDownError(_ id: ID) -> MachineError<Definition> {
        MachineError(.stopped, machineID: id, supervisorShutDown: true, cause: escalation)
    }

    /// Shuts the supervisor down because of `escalation`: stops every machine (their records
    /// still reach the stream), then reports the escalation and finishes the stream.
    private func escalate(_ escalation: Escalation, _ registry: inout Registry) {
        let id = escalation.id
        let error = escalation.error
        registry.isShutDown = true
        registry.escalation = escalation
        let machines = Array(registry.machines.values)
        registry.machines = [:]
        registry.escalating = Task {
            await Self.stopNow(machines)
            self.publish(.escalated(id: id, error: error))
            self.completeEnd()
        }
    }
}
