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
        // Whether the machine's state in memory is behind its store, or the supervisor is ending:
        // a durable child then lives on in the store, and its parent is not told it ended.
        var livesOn = false
        let decision = registry.withLock { registry -> Core.EndDecision in
            // Shut down after this machine's report began: it leaves with the others at the end.
            if flags.hasLetGo.load(ordering: .acquiring) { return .removed }
            livesOn = registry.machines[id]?.hasStaleState == true || registry.isShutDown
            let decision = registry.core.machineEnded(
                id, generation: generation, termination,
                isPassivating: { self.journaling?.isPassivating($0) == true }, at: now(), under: configuration)
            switch decision {
            case .restart(let failed):
                _ = makeMachine(id: id, data: failed.initialData, startingIn: nil, in: &registry, resuming: failed.journal)
            case .escalate(let escalated, let machines):
                registry.core.escalating(with: Task {
                    await Self.stopNow(machines)
                    self.publish(.escalated(id: escalated.id, error: escalated.error))
                    self.completeEnd()
                })
            case .none, .removed, .passivated:
                break
            }
            return decision
        }
        switch decision {
        case .none:
            break
        case .escalate:
            childEnded(id, termination, livesOnInStore: true)
        case .removed:
            childEnded(id, termination, livesOnInStore: livesOn)
            publish(.terminated(id: id, termination))
        case .passivated:
            publish(.passivated(id: id))
        case .restart:
            guard case .failed(let error) = termination else { return }
            settings.instrument?.machineRestarted(id, after: error)
            publish(.restarted(id: id, after: error))
        }
    }

    /// The error for an event or machine refused because the supervisor is shut down: it
    /// carries the escalation, if one shut it down.
    package func shutDownError(_ id: ID) -> MachineError<Definition> {
        shutDownError(id, escalated: registry.withLock { $0.core.escalation })
    }

    /// The error for an event or machine refused after a shutdown, by `escalated` if given.
    @usableFromInline package func shutDownError(_ id: ID, escalated: Core.Escalated?) -> MachineError<Definition> {
        MachineError(.stopped, machineID: id, supervisorShutDown: true, cause: escalated.map(Escalation.init))
    }
}
