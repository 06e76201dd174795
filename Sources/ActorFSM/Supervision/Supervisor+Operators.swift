// An operator's acts on a supervisor's machines by id: on a durable supervisor, on machines it
// runs or can restore from its store, recorded in their histories.

extension Supervisor {
    /// Pauses the machine under `id` (see ``Machine/pause(reason:)``). A durable supervisor
    /// restores the machine from its store if it is not running, and returns once the pause
    /// is durable: once the transition in progress has completed and the pause's entry, with
    /// `reason`, is written.
    ///
    /// Called from one of the machine's own actions, it returns once the machine is paused in
    /// memory: the pause's entry is written once that action's transition has completed.
    ///
    /// On a store several processes share, a machine another live process holds is paused by
    /// that process: the supervisor asks it through the store (an `OperatorRequest`) and returns
    /// once it has answered.
    ///
    /// - Throws: ``MachineError`` `.unknownMachine` if there is no such machine; `.stopped` if
    ///   it is ending or in a final state, or ends, reaches a final state or is cancelled before
    ///   the pause is written; `.notDurable` if the
    ///   store failed (the pause is then not recorded, and a restore brings the machine back as
    ///   the store holds it), or the process that holds it refused or did not answer.
    public func pause(_ id: ID, reason: String = "") async throws(MachineError<Definition>) {
        guard case .here(let machine) = try await operand(id, elsewhere: .pause, reason: reason) else { return }
        try await machine.pause(reason: reason)
        try await machine.awaitOperatorWrite(try await machine.pauseWrite())
    }

    /// Resumes the machine under `id` (see ``Machine/resume(reason:)``). A durable supervisor
    /// restores the machine from its store if it is not running (a paused machine comes back
    /// paused), and returns once the resume's entry, with `reason`, is written.
    ///
    /// A machine another live process holds is resumed by that process, as ``pause(_:reason:)`` says.
    ///
    /// - Throws: ``MachineError`` `.unknownMachine` if there is no such machine; `.notDurable`
    ///   if the store failed, or the process that holds it refused or did not answer.
    public func resume(_ id: ID, reason: String = "") async throws(MachineError<Definition>) {
        guard case .here(let machine) = try await operand(id, elsewhere: .resume, reason: reason) else { return }
        try await machine.awaitOperatorWrite(await machine.resumeRecording(reason: reason))
    }

    /// Cancels the machine under `id` for good, for an operator. A durable supervisor restores
    /// it from its store if it is not running, and records the cancel in its history with
    /// `reason`, once the transition in progress has completed. Then:
    ///
    /// - if its durability names a cancelling event (`Durability(cancelling:)`) and the
    ///   machine's state handles it, the event is processed ahead of everything queued, so that
    ///   the workflow compensates: the result is ``CancelOutcome/sent(_:)`` with its record;
    /// - otherwise the machine stops: its queued events get the outcome `.stopped`, its timers
    ///   are dropped, its summary's status is `cancelled`, and no restore brings it back. The
    ///   result is ``CancelOutcome/ended``.
    ///
    /// A supervisor in memory stops the machine. A machine another live process holds is
    /// cancelled by that process, as ``pause(_:reason:)`` says: the result is
    /// ``CancelOutcome/elsewhere(answer:)``.
    ///
    /// - Throws: ``MachineError`` `.unknownMachine` if there is no such machine; `.stopped` if
    ///   it is ending, in a final state, or being cancelled already; `.reentrantSend` from one
    ///   of its own actions (the cancel would wait for the action); `.notDurable` if the store
    ///   failed (nothing is then recorded), or the process that holds it refused or did not
    ///   answer; the cancelling event's error if it failed.
    @discardableResult
    public func cancel(_ id: ID, reason: String = "") async throws(MachineError<Definition>) -> CancelOutcome<Definition> {
        let machine: Machine<Definition>
        switch try await operand(id, elsewhere: .cancel, reason: reason) {
        case .here(let running): machine = running
        case .elsewhere(let answer): return .elsewhere(answer: answer)
        }
        if let record = try await machine.cancel(reason: reason, sending: journaling?.cancellingEvent) { return .sent(record) }
        return .ended
    }

    /// Sends `event` to the machine under `id` for an operator who gave `reason`, and returns
    /// its record once its transition has completed. A durable supervisor restores the machine
    /// from its store if it is not running; the event's entries record the signal with
    /// `reason`, so that the machine's history (`actorfsm history`, the inspector) names the
    /// operator's act. A machine in memory is sent the event as `send(to:_:predicates:)` would.
    ///
    /// A machine another live process holds is signalled by that process, as
    /// ``pause(_:reason:)`` says: the result is then `nil`.
    ///
    /// - Throws: ``MachineError`` `.unknownMachine` if there is no such machine; `.paused` if it
    ///   is paused (resume it first); `.stopped` if it is ending; `.notDurable` if the store
    ///   failed, or the process that holds it refused or did not answer; as `send` otherwise.
    @discardableResult
    public func signal(
        _ id: ID, _ event: Event, predicates: PredicateContext? = nil, reason: String = ""
    ) async throws(MachineError<Definition>) -> TransitionRecord<Definition>? {
        guard case .here(let machine) = try await operand(id, elsewhere: .signal, reason: reason, event: event) else { return nil }
        return try await machine.signal(event, predicates: predicates, reason: reason)
    }

    /// The machine an operator acts on: running, or restored from a durable supervisor's store;
    /// or, if another live process holds it, that process's answer once it has carried out
    /// `verb` (with `event`, for a signal).
    private func operand(
        _ id: ID, elsewhere verb: OperatorVerb, reason: String, event: Event? = nil
    ) async throws(MachineError<Definition>) -> Operand {
        guard let journaling else {
            guard let machine = machine(id: id) else { throw noMachine(id, origin: .send) }
            return .here(machine)
        }
        let machine: Machine<Definition>?
        do {
            machine = try await journaling.operand(id, of: self)
        } catch where journaling.isHeldElsewhere(error) {
            return .elsewhere(try await journaling.act(verb, elsewhereOn: id, reason: reason, signalling: event))
        }
        guard let machine else { throw noMachine(id, origin: .send) }
        return .here(machine)
    }

    /// Where an operator's act is carried out.
    private enum Operand {
        /// On this machine, which this supervisor runs.
        case here(Machine<Definition>)
        /// By the process that holds the machine, which answered this.
        case elsewhere(String)
    }
}

extension Machine {
    /// Waits until the operator's write `index` is durable.
    ///
    /// - Throws: ``MachineError`` `.notDurable` if the store failed it, or the journal writes
    ///   nothing more (a write before it failed).
    package func awaitOperatorWrite(_ index: UInt64) async throws(MachineError<Definition>) {
        guard let journal else { return }
        if index == 0 {
            if journal.isClosed { throw MachineError(.notDurable, machineID: id) }
            return
        }
        if let error = await journal.waitForWrite(index) { throw MachineError(.notDurable, machineID: id, cause: error) }
    }
}
