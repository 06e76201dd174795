// An operator's cancel: the machine is sent its cancelling event, so that the workflow
// compensates, or, if its state does not handle one, it ends for good.

extension Machine {
    /// Cancels the machine for an operator. If `cancelling` is given and the machine's state
    /// handles it, the event is processed ahead of everything queued, and its record returned;
    /// otherwise the machine stops (`stop()`), and `nil` is returned. A durable machine first
    /// records the cancel, with `reason`, once the transition in progress has completed; ended
    /// that way, it is never restored.
    ///
    /// - Throws: ``MachineError`` `.stopped` if the machine is ending, or in a final state;
    ///   `.notDurable` if the store failed to record the cancel; the cancelling event's error
    ///   if it failed.
    package func cancel(reason: String, sending cancelling: Event?) async throws(MachineError<Definition>) -> Record? {
        guard !core.hasStopped, !schema.finalStates.contains(currentState) else {
            throw MachineError(.stopped, machineID: id)
        }
        guard let journal else {
            guard let cancelling, handles(cancelling) else {
                stop()
                return nil
            }
            resumeInMemory()
            return try await send(cancelling)
        }
        guard core.pause() else { throw MachineError(.stopped, machineID: id) }
        mailbox.withLock { $0.inbox.pause() }
        let extras = makeExtras()
        extras.operators.pending = .init(verb: .cancel, reason: reason, cancelling: cancelling)
        let written = await withCheckedContinuation { continuation in
            extras.operators.waiters.append(continuation)
            recordOperationIfQuiet()
        }
        guard written.index != 0 else {
            throw MachineError(journal.isClosed ? .notDurable : .stopped, machineID: id)
        }
        guard written.sends, let cancelling else {
            stop()
            try await awaitOperatorWrite(written.index)
            return nil
        }
        return try await sendNext(cancelling)
    }

    /// Sends `event` to the paused machine ahead of everything queued, resuming it.
    private func sendNext(_ event: Event) async throws(MachineError<Definition>) -> Record {
        let reply = await withCheckedContinuation { (continuation: CheckedContinuation<Entry.Reply, Never>) in
            let ticket = mailbox.withLock { $0.inbox.takeTicket() }
            resumeInMemory(postingNext: Entry(event: event, predicates: nil, origin: .send, acceptedAt: .now,
                                              ticket: ticket, reply: Entry.ReplySlot(continuation)))
        }
        try await awaitAcknowledgement(of: reply)
        return try outcome(of: reply)
    }
}
