// A durable machine's operator entries: its pause, resume and cancel, in its history, with the
// reason the operator gave. A restore honours the pause and the cancel.

extension Machine {
    /// A durable machine was paused: its entry is written now if the machine has no event in
    /// progress, or once it has none (see ``recordOperationIfQuiet()``).
    func notePause(reason: String) {
        guard journal != nil else { return }
        makeExtras().operators.pending = .init(verb: .pause, reason: reason)
        recordOperationIfQuiet()
    }

    /// Writes the entry of an operator's act that waits to be written, if the machine is quiet:
    /// paused, with no event in progress, and no interrupted transition to run again first (the
    /// drain runs it, paused or not). Called on pausing, and as processing ends.
    @usableFromInline func recordOperationIfQuiet() {
        guard let journal, let extras, let pending = extras.operators.pending, core.isPaused,
              !journal.awaitsInterrupted, !mailbox.withLock({ $0.inbox.isProcessing })
        else { return }
        extras.operators.pending = nil
        if pending.verb == .pause && schema.finalStates.contains(currentState) {
            // The transition in progress ended the machine: there is nothing left to hold back.
            extras.operators.finish(.overtaken)
            resumeInMemory()
            return
        }
        // The cancelling event is kept with the cancel's entry, as an event to process next: a
        // crash before it is processed has it processed after the restore.
        let ticket = pending.cancelling.flatMap { handles($0) ? journal.register(.next, $0, nil) : nil } ?? 0
        let index = journal.operated(pending.verb, reason: pending.reason, ends: pending.verb == .cancel && ticket == 0,
                                     number: core.takeNumber(), in: currentState, stateID: core.stateID,
                                     data: committedData)
        extras.operators.isPauseWritten = pending.verb == .pause && index != 0
        extras.operators.finish(.init(index: index, cancellingTicket: index == 0 ? 0 : ticket))
    }

    /// Whether the current state handles `event`, sent with no predicates.
    func handles(_ event: Event) -> Bool {
        guard core.stateID >= 0 else { return false }
        if case .unhandled = schema.storage.table.lookup(state: core.stateID, event: event, predicates: settings.standingPredicates,
                                                        data: committedData) {
            return false
        }
        return true
    }

    /// A durable machine is about to be resumed: writes the resume's entry if the journal holds
    /// the pause, before any event's; a pause not written yet is not written.
    ///
    /// - Returns: the write's index, 0 if nothing was written.
    func recordResume(reason: String) -> UInt64 {
        guard let journal, let extras else { return 0 }
        extras.operators.pending = nil
        extras.operators.finish(.init(index: 0))
        guard extras.operators.isPauseWritten else { return 0 }
        extras.operators.isPauseWritten = false
        return journal.operated(.resume, reason: reason, ends: false, number: core.takeNumber(), in: currentState,
                                stateID: core.stateID, data: committedData)
    }

    /// Waits until the pause's entry is handed to the journal, and returns the write's index; 0
    /// if there is nothing to wait for (the machine is not paused, is not durable, or was
    /// resumed first). Called from the machine's own action, it does not wait: the action must
    /// complete before the pause is written.
    ///
    /// - Throws: ``MachineError`` `.stopped` if the machine ended, or a cancel came, first.
    package func pauseWrite() async throws(MachineError<Definition>) -> UInt64 {
        guard let journal, core.isPaused, let extras else { return 0 }
        if extras.operators.pending == nil { return extras.operators.isPauseWritten ? journal.newestWrite : 0 }
        if ActionScope.machines.contains(ObjectIdentifier(self)) { return 0 }
        let written = await withCheckedContinuation { extras.operators.waiters.append($0) }
        if written.isOvertaken { throw MachineError(.stopped, machineID: id) }
        return written.index
    }
}

extension MachineExtras {
    /// The extras of a machine restored from an entry that records a pause: it comes back paused.
    @usableFromInline static func restoredPaused() -> MachineExtras {
        let extras = MachineExtras()
        extras.operators.isPauseWritten = true
        return extras
    }
}
