// Senders that wait: for their record through the inbox, or for room in it.

extension Machine {
    /// `send` on a busy machine: queues the event, or waits for room, then waits for its record.
    ///
    /// - Parameters:
    ///   - forwarded: the store's number of an event another process forwarded (see
    ///     `sendDurably(_:_:forwarded:)`), 0 if none.
    ///   - signal: for an operator's signal, the reason the operator gave (see
    ///     `signal(_:predicates:reason:)`); `nil` for any other send.
    ///   - evenIfPaused: whether a paused machine queues the event for its resume rather than
    ///     refuse it (``WhenPaused/wait``).
    @inlinable func sendThroughInbox(
        _ event: Event, _ predicates: PredicateContext?, acceptedAt: Timestamp, scope: [ObjectIdentifier],
        forwarded: Int64 = 0, signal: String? = nil, evenIfPaused: Bool = false
    ) async throws(MachineError<Definition>) -> Record {
        let taken = mailbox.withLock { $0.inbox.takeTicket() }
        let ticket = (forwarded != 0 || signal != nil) && journal != nil ? taken | Self.forwardedTicketFlag : taken
        if ticket != taken {
            if let signal { journal?.expectSignal(ticket: ticket, reason: signal) } else { journal?.expect(forwarded, ticket: ticket) }
        }
        defer { if ticket != taken { journal?.forgetDelivered(ticket) } }
        let trace = callerContext
        let reply = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Entry.Reply, Never>) in
                let entry = Entry(event: event, predicates: predicates, origin: .send, acceptedAt: acceptedAt,
                                  ticket: ticket, senderScope: scope, reply: Entry.ReplySlot(continuation), trace: trace)
                park(Inbox.Waiter(entry: entry, admitted: nil), ticket: ticket, evenIfPaused: evenIfPaused)
            }
        } onCancel: {
            withdraw(ticket)
        }
        if journal != nil { try await awaitAcknowledgement(of: reply) }
        return try outcome(of: reply)
    }

    /// What a `send` that waited returns or throws, once its event was answered.
    @inlinable func outcome(of reply: Entry.Reply) throws(MachineError<Definition>) -> Record {
        switch reply {
        case .processed(let record): return try Self.result(of: consume record)
        case .withdrawn: throw refusal(.cancelled, origin: .send)
        case .refused: throw refusal(.stopped, origin: .send)
        case .paused: throw refusal(.paused, origin: .send)
        // Not a refusal: the event was accepted and gets its `.stopped` record.
        case .stoppedInQueue: throw MachineError(.stopped, machineID: id)
        }
    }

    /// `post` into a full inbox: waits until the event is let in.
    @usableFromInline nonisolated func enqueueWhenRoom(_ posted: Entry, evenIfPaused: Bool = false) async throws(MachineError<Definition>) {
        // Room for an action's own machine comes only once the action completes.
        if ActionScope.machines.contains(ObjectIdentifier(self)) { throw refusal(.inboxFull, origin: .post) }
        let ticket = mailbox.withLock { $0.inbox.takeTicket() }
        let entry = Entry(event: posted.event, predicates: posted.predicates, origin: .post,
                          acceptedAt: posted.acceptedAt, ticket: ticket, trace: posted.trace)
        let admission = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Inbox<Definition>.Admission, Never>) in
                park(Inbox.Waiter(entry: entry, admitted: continuation), ticket: ticket, evenIfPaused: evenIfPaused)
            }
        } onCancel: {
            withdraw(ticket)
        }
        switch admission {
        case .queued: return
        case .withdrawn: throw refusal(.cancelled, origin: .post)
        case .refused: throw refusal(.stopped, origin: .post)
        case .paused: throw refusal(.paused, origin: .post)
        }
    }

    /// Queues a sender's event, or has it wait for room; refuses it if the machine no longer
    /// takes events.
    @inlinable nonisolated func park(_ waiter: Inbox<Definition>.Waiter, ticket: UInt64, evenIfPaused: Bool = false) {
        switch mailbox.withLock({ $0.inbox.park(waiter, evenIfPaused: evenIfPaused) }) {
        case .refused:
            waiter.answer(.refused, admission: .refused)
        case .paused:
            waiter.answer(.paused, admission: .paused)
        case .accepted(let resumptions):
            perform(resumptions)
            // A waiting `post` is reported once it is let in.
            if waiter.admitted == nil { reportQueued(origin: .send) }
            // A cancellation that came before the handler was installed found nothing to withdraw.
            if Task.isCancelled { withdraw(ticket) }
        }
    }

    /// Takes a cancelled sender's event back, if it has not started.
    @inlinable nonisolated func withdraw(_ ticket: UInt64) {
        guard case .withdrawn(let waiter, let resumptions, let idle) = mailbox.withLock({ $0.inbox.withdraw(ticket) }) else {
            return
        }
        waiter.answer(.withdrawn, admission: .withdrawn)
        perform(resumptions)
        // A machine shutting down whose last queued event this was can now complete.
        if idle { Task { await self.settleIfIdle() } }
    }

    @usableFromInline func settleIfIdle() {
        if !mailbox.withLock({ $0.inbox.isProcessing }) { settle() }
    }

    @inlinable
    package static func result(of record: consuming Record) throws(MachineError<Definition>) -> Record {
        switch record.outcome {
        case .failed: throw MachineError(.actionFailed, machineID: record.machineID, record: record)
        case .stopped: throw MachineError(.stopped, machineID: record.machineID, record: record)
        default: return record
        }
    }
}
