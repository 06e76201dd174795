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
    /// paused, with no event in progress. Called on pausing, and as processing ends.
    @usableFromInline func recordOperationIfQuiet() {
        guard let journal, let extras, let pending = extras.operators.pending, core.isPaused,
              !mailbox.withLock({ $0.inbox.isProcessing })
        else { return }
        extras.operators.pending = nil
        let sends = pending.verb == .cancel && pending.cancelling.map(handles) == true
        let index = journal.operated(pending.verb, reason: pending.reason, ends: pending.verb == .cancel && !sends,
                                     number: core.takeNumber(), in: currentState, stateID: core.stateID,
                                     data: committedData)
        extras.operators.isPauseWritten = pending.verb == .pause && index != 0
        extras.operators.finish(.init(index: index, sends: sends))
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
        extras.operators.finish(.init(index: 0, sends: false))
        guard extras.operators.isPauseWritten else { return 0 }
        extras.operators.isPauseWritten = false
        return journal.operated(.resume, reason: reason, ends: false, number: core.takeNumber(), in: currentState,
                                stateID: core.stateID, data: committedData)
    }

    /// Whether an operator's cancel waits to be written: the machine stays paused until it is.
    var isCancelPending: Bool { extras?.operators.pending?.verb == .cancel }

    /// Waits until the pause's entry is handed to the journal, and returns the write's index; 0
    /// if there is nothing to wait for (the machine is not paused, is not durable, or was
    /// resumed first).
    package func pauseWrite() async -> UInt64 {
        guard let journal, core.isPaused, let extras else { return 0 }
        if extras.operators.pending == nil { return extras.operators.isPauseWritten ? journal.newestWrite : 0 }
        return await withCheckedContinuation { extras.operators.waiters.append($0) }.index
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
