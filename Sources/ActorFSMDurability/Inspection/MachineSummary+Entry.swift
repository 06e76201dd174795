extension MachineSummary {
    /// The summary of a machine whose newest completed entry is `payload`, in the state called
    /// `state`, which is final or not and has `timeouts` (nanoseconds, shortest first).
    init(of payload: JournalPayload, state: String, isFinal: Bool, timeouts: [Int64], fingerprint: String) {
        let timers = payload.timers
        var due: Int64?
        if timers.enteredAt != 0, timers.timeoutsFired < UInt64(timeouts.count) {
            due = timers.enteredAt + timeouts[Int(timers.timeoutsFired)]
        }
        for pending in timers.pending where pending.kind == .delayed {
            due = Swift.min(due ?? pending.deadline, pending.deadline)
        }
        let waitingUntil = due.map { $0 / 1_000_000 }
        let status: MachineStatus = timers.isCancelled ? .cancelled
            : timers.isPaused ? .paused
            : payload.outcome == .failed ? .failed
            : isFinal ? .final
            : waitingUntil != nil ? .waiting : .running
        self.init(state: state, status: status, fingerprint: fingerprint, schemaVersion: Int(payload.schemaVersion),
                  lastTransition: timers.lastTransition, waitingUntil: waitingUntil)
    }
}

extension StoredSchema {
    /// The summary of a machine whose newest completed entry, written by this schema, is
    /// `payload`; its state is named by its encoded bytes if it is not among this schema's.
    func summary(of payload: JournalPayload) -> MachineSummary {
        let index = encodedStates.firstIndex(of: payload.state)
        let state = index.map { description.states[$0] }
        return MachineSummary(of: payload, state: state?.name ?? StoredText(payload.state).name,
                              isFinal: state?.isFinal ?? false, timeouts: state?.timeouts ?? [], fingerprint: fingerprint)
    }
}
