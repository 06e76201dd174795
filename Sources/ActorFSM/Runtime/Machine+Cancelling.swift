// An operator's cancel: the machine is sent its cancelling event, so that the workflow
// compensates, or, if its state does not handle one, it ends for good.

extension Machine {
    /// Cancels the machine for an operator. If `cancelling` is given and the machine's state
    /// handles it, the event is processed ahead of everything queued, and its record returned;
    /// otherwise the machine stops (`stop()`), and `nil` is returned. A durable machine first
    /// records the cancel, with `reason`, once the transition in progress has completed (with
    /// the cancelling event, to process next, so that a crash loses neither); ended that way,
    /// it is never restored.
    ///
    /// - Throws: ``MachineError`` `.stopped` if the machine is ending, in a final state, or
    ///   being cancelled already; `.reentrantSend` from one of its own actions, which would
    ///   wait for itself; `.notDurable` if the store failed to record the cancel; the
    ///   cancelling event's error if it failed.
    package func cancel(reason: String, sending cancelling: Event?) async throws(MachineError<Definition>) -> Record? {
        guard !core.hasStopped, !schema.finalStates.contains(currentState), extras?.operators.isCancelling != true else {
            throw MachineError(.stopped, machineID: id)
        }
        if ActionScope.machines.contains(ObjectIdentifier(self)) { throw MachineError(.reentrantSend, machineID: id) }
        guard let journal else {
            guard let cancelling, handles(cancelling) else {
                stop()
                return nil
            }
            return try await sendNext(cancelling, ticket: 0)
        }
        guard core.pause() else { throw MachineError(.stopped, machineID: id) }
        mailbox.withLock { $0.inbox.pause() }
        let extras = makeExtras()
        extras.operators.isCancelling = true
        defer { extras.operators.isCancelling = false }
        // A pause that waits to be written gives way: its callers hear that the machine ends.
        extras.operators.finish(.overtaken)
        extras.operators.pending = .init(verb: .cancel, reason: reason, cancelling: cancelling)
        let written = await withCheckedContinuation { continuation in
            extras.operators.waiters.append(continuation)
            recordOperationIfQuiet()
        }
        guard written.index != 0 else {
            throw MachineError(journal.isClosed && !written.isOvertaken ? .notDurable : .stopped, machineID: id)
        }
        guard written.cancellingTicket != 0, let cancelling else {
            let children = durableChildren()
            stop()
            try await awaitOperatorWrite(written.index)
            // Ended for good, it will not link them again: they are cancelled as when it leaves the state.
            for child in children { child.cancel(child.key) {} }
            return nil
        }
        return try await sendNext(cancelling, ticket: Self.entryTicket(written.cancellingTicket))
    }

    /// The durable children of the state the machine is in, by key, with their launchers, which
    /// send a child its cancelling event.
    private func durableChildren() -> [(key: String, cancel: @Sendable (String, @escaping @Sendable () -> Void) -> Void)] {
        guard let timers, timers.stateID >= 0 else { return [] }
        let tasks = schema.storage.timers.stateTasks[Int(timers.stateID)]
        return timers.children.compactMap { slot, hold in
            guard let key = hold.key, slot < tasks.count, let child = tasks[slot].child else { return nil }
            return (key, child.cancel)
        }
    }

    /// Sends `event` ahead of everything queued, resuming the machine if it is paused; `ticket`
    /// is the event's journal ticket, 0 for a machine in memory.
    private func sendNext(_ event: Event, ticket: UInt64) async throws(MachineError<Definition>) -> Record {
        let reply = await withCheckedContinuation { (continuation: CheckedContinuation<Entry.Reply, Never>) in
            let entry = Entry(event: event, predicates: nil, origin: .send, acceptedAt: .now, ticket: ticket,
                              reply: Entry.ReplySlot(continuation))
            if !resumeInMemory(postingNext: entry) { continuation.resume(returning: .refused) }
        }
        try await awaitAcknowledgement(of: reply)
        return try outcome(of: reply)
    }
}
