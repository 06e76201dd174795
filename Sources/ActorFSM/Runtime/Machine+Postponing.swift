// Postponed events: kept in the inbox, untouched, until a transition changes the state; then
// tried again, in the order they arrived, after the events posted next and before the queue.

extension Machine {
    /// An event whose transition postpones it. If the machine keeps it, it returns a record
    /// that ``TransitionRecord/isPostponement`` and is published nowhere (the caller then hands
    /// the event to ``postpone(_:)``); if the machine holds as many postponed events as it may,
    /// the event's own record. A record either way, so that the hot path moves its record as before.
    @usableFromInline
    func postponing(_ turn: EventTurn<Definition>, at index: Int32, replying: Bool) -> Record {
        if postponedCount < configuration.postponedCapacity {
            core.withdrawNumber()
            let postponed = EventTurn<Definition>(turn.event, predicates: turn.predicates, origin: turn.origin,
                                                  acceptedAt: turn.acceptedAt, number: 0, source: turn.source)
            return Record(postponed, machineID: id, target: turn.source, outcome: .stopped, actions: ActionTally(),
                          transitionLocation: nil, completedAt: turn.acceptedAt)
        }
        return complete(turn, outcome: .unhandled(UnhandledReason(.postponedCapacityReached)), run: ActionRun(),
                        location: schema.storage.actions.transitionLocations[Int(index)],
                        observed: isObserved(replying: replying))
    }

    /// Keeps an event that was just postponed, counting the postponement.
    @usableFromInline
    func postpone(_ entry: Entry) {
        var entry = entry
        entry.postponements &+= 1
        // A state task's result belongs to the state it ran in; postponed, it waits for
        // another state on purpose, so it is no longer dropped as stale there.
        entry.epoch = 0
        // Nor does it count as the end of that state's child once processed in another.
        if entry.ticket & Self.childEndTicketFlag != 0 { entry.ticket = 0 }
        postponedCount += 1
        mailbox.withLock { $0.inbox.postpone(entry) }
        if let extras, !extras.postponedWatchers.isEmpty {
            for watcher in extras.postponedWatchers.reached(extras.postponedCount) { watcher.resume() }
        }
    }

    /// Lets every postponed event be tried again once the transition in progress completes:
    /// the drain takes them ahead of the rest of its batch.
    @usableFromInline
    func retryPostponed() {
        postponedCount = 0
        mailbox.withLock { $0.inbox.retryPostponed() }
        hasUpNext.store(true, ordering: .releasing)
    }

    /// `send` on an idle machine whose event was postponed: queues it with a reply slot, ends
    /// the inline run, and waits for the event's record.
    ///
    /// - Parameter ticket: the entry's ticket, for an event the journal knows by it (forwarded).
    @usableFromInline
    func awaitPostponed(
        _ event: Event, _ predicates: PredicateContext?, acceptedAt: Timestamp, scope: [ObjectIdentifier],
        ticket: UInt64 = 0
    ) async throws(MachineError<Definition>) -> Record {
        let reply = await withCheckedContinuation { (continuation: CheckedContinuation<Entry.Reply, Never>) in
            postpone(Entry(event: event, predicates: predicates, origin: .send, acceptedAt: acceptedAt, ticket: ticket,
                           senderScope: scope, reply: Entry.ReplySlot(continuation)))
            processingFinished()
        }
        if journal != nil { try await awaitAcknowledgement(of: reply) }
        return try outcome(of: reply)
    }
}
