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
    /// - Throws: ``MachineError`` `.unknownMachine` if there is no such machine; `.stopped` if
    ///   it is ending, or ends or is cancelled before the pause is written; `.notDurable` if the
    ///   store failed (the pause is then not recorded, and a restore brings the machine back as
    ///   the store holds it) or another process holds it.
    public func pause(_ id: ID, reason: String = "") async throws(MachineError<Definition>) {
        let machine = try await operand(id)
        try await machine.pause(reason: reason)
        try await machine.awaitOperatorWrite(try await machine.pauseWrite())
    }

    /// Resumes the machine under `id` (see ``Machine/resume(reason:)``). A durable supervisor
    /// restores the machine from its store if it is not running (a paused machine comes back
    /// paused), and returns once the resume's entry, with `reason`, is written.
    ///
    /// - Throws: ``MachineError`` `.unknownMachine` if there is no such machine; `.notDurable`
    ///   if the store failed or another process holds it.
    public func resume(_ id: ID, reason: String = "") async throws(MachineError<Definition>) {
        let machine = try await operand(id)
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
    /// A supervisor in memory stops the machine.
    ///
    /// - Throws: ``MachineError`` `.unknownMachine` if there is no such machine; `.stopped` if
    ///   it is ending, in a final state, or being cancelled already; `.reentrantSend` from one
    ///   of its own actions (the cancel would wait for the action); `.notDurable` if the store
    ///   failed (nothing is then recorded) or another process holds it; the cancelling event's
    ///   error if it failed.
    @discardableResult
    public func cancel(_ id: ID, reason: String = "") async throws(MachineError<Definition>) -> CancelOutcome<Definition> {
        let machine = try await operand(id)
        if let record = try await machine.cancel(reason: reason, sending: journaling?.cancellingEvent) { return .sent(record) }
        return .ended
    }

    /// The machine an operator acts on: running, or restored from a durable supervisor's store.
    private func operand(_ id: ID) async throws(MachineError<Definition>) -> Machine<Definition> {
        let machine = if let journaling { try await journaling.operand(id, of: self) } else { self.machine(id: id) }
        guard let machine else { throw noMachine(id, origin: .send) }
        return machine
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
