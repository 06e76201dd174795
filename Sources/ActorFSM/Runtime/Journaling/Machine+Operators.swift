// A durable machine's operator entries: its pause and resume, in its history, with the reason
// the operator gave. A restore honours the pause.

extension Machine {
    /// A durable machine was paused: its entry is written now if the machine has no event in
    /// progress, or once it has none (see ``recordPauseIfQuiet()``).
    func notePause(reason: String) {
        guard journal != nil else { return }
        makeExtras().pauseRecording.pendingReason = reason
        recordPauseIfQuiet()
    }

    /// Writes the entry of a pause that waits to be written, if the machine is quiet: paused,
    /// with no event in progress. Called on pausing, and as processing ends.
    @usableFromInline func recordPauseIfQuiet() {
        guard let journal, let extras, let reason = extras.pauseRecording.pendingReason, core.isPaused,
              !mailbox.withLock({ $0.inbox.isProcessing })
        else { return }
        extras.pauseRecording.pendingReason = nil
        let index = journal.operated(.pause, reason: reason, number: core.takeNumber(), in: currentState,
                                     stateID: core.stateID, data: committedData)
        extras.pauseRecording.isWritten = index != 0
        extras.pauseRecording.finish(index)
    }

    /// A durable machine is about to be resumed: writes the resume's entry if the journal holds
    /// the pause, before any event's; a pause not written yet is not written.
    ///
    /// - Returns: the write's index, 0 if nothing was written.
    func recordResume(reason: String) -> UInt64 {
        guard let journal, let extras else { return 0 }
        extras.pauseRecording.pendingReason = nil
        extras.pauseRecording.finish(0)
        guard extras.pauseRecording.isWritten else { return 0 }
        extras.pauseRecording.isWritten = false
        return journal.operated(.resume, reason: reason, number: core.takeNumber(), in: currentState,
                                stateID: core.stateID, data: committedData)
    }

    /// Waits until the pause's entry is handed to the journal, and returns the write's index; 0
    /// if there is nothing to wait for (the machine is not paused, is not durable, or was
    /// resumed first).
    package func pauseWrite() async -> UInt64 {
        guard journal != nil, core.isPaused, let extras else { return 0 }
        if extras.pauseRecording.pendingReason == nil { return extras.pauseRecording.isWritten ? journal!.newestWrite : 0 }
        return await withCheckedContinuation { extras.pauseRecording.waiters.append($0) }
    }
}

extension MachineExtras {
    /// The extras of a machine restored from an entry that records a pause: it comes back paused.
    @usableFromInline static func restoredPaused() -> MachineExtras {
        let extras = MachineExtras()
        extras.pauseRecording.isWritten = true
        return extras
    }
}
