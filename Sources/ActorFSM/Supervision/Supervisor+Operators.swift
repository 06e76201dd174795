// An operator's acts on a supervisor's machines by id: on a durable supervisor, on machines it
// runs or can restore from its store, recorded in their histories.

extension Supervisor {
    /// Pauses the machine under `id` (see ``Machine/pause(reason:)``). A durable supervisor
    /// restores the machine from its store if it is not running, and returns once the pause
    /// is durable: once the transition in progress has completed and the pause's entry, with
    /// `reason`, is written.
    ///
    /// - Throws: ``MachineError`` `.unknownMachine` if there is no such machine; `.stopped` if
    ///   it is ending; `.notDurable` if the store failed (the pause is then not recorded, and a
    ///   restore brings the machine back as the store holds it) or another process holds it.
    public func pause(_ id: ID, reason: String = "") async throws(MachineError<Definition>) {
        let machine = try await operand(id)
        try await machine.pause(reason: reason)
        try await machine.awaitOperatorWrite(await machine.pauseWrite())
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
