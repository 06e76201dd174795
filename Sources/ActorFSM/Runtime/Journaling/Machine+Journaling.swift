// Durable machines, as the runtime sees them: what each event tells the journal, and what
// senders wait for.

extension Machine {
    /// Marks, in an inbox entry's ticket, an event a durable machine posted to itself: the rest
    /// of the ticket names it in the journal. Withdrawal tickets never have this bit.
    @inlinable static var durableTicketFlag: UInt64 { 1 << 63 }

    /// The inbox ticket of a self-posted event with journal ticket `ticket` (0: none).
    @usableFromInline static package func entryTicket(_ ticket: UInt64) -> UInt64 { ticket == 0 ? 0 : ticket | durableTicketFlag }

    /// Writes the entry of the event just completed, unless an action failed: the failure
    /// policy may change the state, so ``fired`` writes that entry once it has applied.
    @usableFromInline func journalUnlessFailed(_ record: Record) {
        if case .failed = record.outcome { return }
        journalCompleted(record)
    }

    /// Writes the entry of the event just completed: the machine's state, data and timers now,
    /// and the keys of the children the state just entered starts.
    @usableFromInline func journalCompleted(_ record: Record) {
        guard let journal else { return }
        if record.outcome.isTransitioned, core.stateID >= 0, let keys = childKeys(of: core.stateID) {
            journal.enteredChildren(keys)
        }
        journal.completed(record, in: currentState, stateID: core.stateID, data: committedData)
    }

    /// The keys of the durable children the state with id `stateID` starts, by place; `nil` if
    /// it starts none.
    @usableFromInline func childKeys(of stateID: Int32) -> [(slot: Int, key: String)]? {
        let tasks = schema.storage.timers.stateTasks[Int(stateID)]
        guard tasks.contains(where: { $0.child != nil }) else { return nil }
        let context = StateTaskContext<Definition>(state: currentState, id: id, data: committedData)
        return tasks.enumerated().compactMap { slot, task in task.child?.key(context).map { (slot, $0) } }
    }

    /// Writes the intent entry of an event whose transition has asynchronous actions, before
    /// they start, and waits until it is durable: a crash during the actions then has the event
    /// processed again on recovery.
    ///
    /// - Returns: the store's error, which fails the transition before any action runs.
    @usableFromInline func journalIntent(
        _ event: Event?, _ predicates: PredicateContext, _ origin: EventOrigin, number: UInt64
    ) async -> (any Error)? {
        await journal?.intent(event, predicates, origin, number: number, in: currentState, stateID: core.stateID,
                              data: committedData)
    }

    /// `send` on a durable machine: processed inline when the machine is idle, as on any
    /// machine, then answered once the acknowledgement the configuration asks for is there.
    ///
    /// - Parameter forwarded: the store's number of the event, if another process forwarded
    ///   it through the store): the entry that records it marks it recorded in the store.
    @usableFromInline func sendDurably(
        _ event: Event, _ predicates: PredicateContext?, forwarded: Int64 = 0
    ) async throws(MachineError<Definition>) -> Record {
        let acceptedAt = Timestamp.now
        let scope = ActionScope.machines
        guard mailbox.withLock({ $0.inbox.beginInline() }) else {
            if scope.contains(ObjectIdentifier(self)) { throw refusal(.reentrantSend, origin: .send) }
            return try await sendThroughInbox(event, predicates, acceptedAt: acceptedAt, scope: scope, forwarded: forwarded)
        }
        if settings.isInstrumented { reportInlineSend() }
        if forwarded != 0 { journal?.consume(forwarded) }
        let record = await process(event, predicates, origin: .send, acceptedAt: acceptedAt, scope: scope, replying: true)
        if record.isPostponement {
            guard forwarded != 0, let journal else {
                return try await awaitPostponed(event, predicates, acceptedAt: acceptedAt, scope: scope)
            }
            // Kept in the inbox under a ticket the journal knows, so that the entry that
            // finally records it still marks it recorded in the store.
            journal.consume(0)
            let ticket = mailbox.withLock { $0.inbox.takeTicket() } | Self.forwardedTicketFlag
            journal.expect(forwarded, ticket: ticket)
            defer { journal.forgetDelivered(ticket) }
            return try await awaitPostponed(event, predicates, acceptedAt: acceptedAt, scope: scope, ticket: ticket)
        }
        return try await finishDurably(record)
    }

    /// Ends an inline `send` of a durable machine. Durable, it lets the machine go on with
    /// other events, then waits until the event's entry is committed; firing and forgetting, it
    /// first waits, still holding the machine, until the writes in flight fit the window.
    @usableFromInline func finishDurably(_ record: Record) async throws(MachineError<Definition>) -> Record {
        guard let journal else { return try Self.result(of: record) }
        switch journal.acknowledgement {
        case .durable:
            let write = journal.newestWrite
            processingFinished()
            try await awaitAcknowledgement(of: record, write: write)
        case .window(let window):
            let failure = await journal.waitForRoom(window: window)
            processingFinished()
            if let failure { throw MachineError(.notDurable, machineID: id, record: record, cause: failure) }
        }
        return try Self.result(of: record)
    }

    /// Waits, for a `send` answered through the inbox, for the acknowledgement its record needs.
    @usableFromInline func awaitAcknowledgement(of reply: Entry.Reply) async throws(MachineError<Definition>) {
        guard let journal, case .processed(let record) = reply else { return }
        try await awaitAcknowledgement(of: record, write: journal.newestWrite)
    }

    /// Waits until write number `write` (which holds `record`'s entry) is durable, or, firing
    /// and forgetting, until the machine's writes in flight fit the window.
    func awaitAcknowledgement(of record: Record, write: UInt64) async throws(MachineError<Definition>) {
        guard let journal else { return }
        let failure: (any Error)?
        switch journal.acknowledgement {
        case .durable: failure = await journal.waitForWrite(write)
        case .window(let window): failure = await journal.waitForRoom(window: window)
        }
        if let failure { throw MachineError(.notDurable, machineID: id, record: record, cause: failure) }
    }

    /// Keeps a draining durable machine within its window of writes in flight: at most the
    /// fire-and-forget window, and a bounded number when every send waits anyway.
    @usableFromInline func throttleJournal() async {
        guard let journal else { return }
        switch journal.acknowledgement {
        case .durable: _ = await journal.waitForRoom(window: Self.durableWritesInFlight)
        case .window(let window): _ = await journal.waitForRoom(window: window)
        }
    }

    /// How many writes a durable machine's drain lets wait for the store before it waits too.
    static var durableWritesInFlight: Int { 4_096 }

    /// Marks, in an inbox entry's ticket, a `send` forwarded by another process: the journal
    /// knows its number in the store under that ticket.
    @inlinable static var forwardedTicketFlag: UInt64 { 1 << 62 }

    /// Marks, in an inbox entry's ticket, the end of a child machine: the rest of the ticket is
    /// the child's place among its state's tasks. The entry that records it notes the child as
    /// ended, so that the machine, restored in the same state, does not take its end again.
    @inlinable package static var childEndTicketFlag: UInt64 { 1 << 61 }

    /// The ticket flags that tell the drain to inform the journal.
    @inlinable static var journalTicketFlags: UInt64 { durableTicketFlag | forwardedTicketFlag | childEndTicketFlag }

    /// Tells the journal which self-posted or forwarded event the drain is about to process.
    @usableFromInline func journalProcessing(ticket: UInt64) {
        if ticket & Self.forwardedTicketFlag != 0 {
            journal?.processingDelivered(ticket)
        } else {
            journal?.processing(ticket & ~Self.durableTicketFlag)
        }
    }

    /// Sends `event`, which another process forwarded through the store as its event number
    /// `number`: the entry that records it marks it recorded in the store, in the same commit,
    /// and carries `reply`, made from its record, for the store to answer the sender with.
    ///
    /// It returns once the event's entry is durable, whatever the acknowledgement configured:
    /// its sender is answered, and the event removed from the store, only then.
    package func sendForwarded(
        _ event: Event, predicates: PredicateContext?, number: Int64,
        reply: (@Sendable (TransitionRecord<Definition>) -> [UInt8])? = nil
    ) async throws(MachineError<Definition>) -> Record {
        guard core.isAcceptingEvents else { throw refusal(core.isPaused ? .paused : .stopped, origin: .send) }
        guard let journal else { return try await send(event, predicates: predicates) }
        if let reply { journal.answer(number, with: reply) }
        defer { if reply != nil { journal.forgetAnswer(number) } }
        let result: Result<Record, MachineError<Definition>>
        do {
            result = .success(try await sendDurably(event, predicates, forwarded: number))
        } catch {
            result = .failure(error)
        }
        // Failed or not, the answer waits for the event's entry.
        if let failure = await journal.waitForWrite(journal.newestWrite) { throw MachineError(.notDurable, machineID: id, record: try? result.get(), cause: failure) }
        return try result.get()
    }
}
