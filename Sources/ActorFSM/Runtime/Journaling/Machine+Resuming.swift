// A durable machine restored from its store: what it processes before anything else.

extension Machine {
    /// Queues what a restored machine processes first, and arms its scheduled events again.
    @usableFromInline nonisolated func resume(_ journal: any MachineJournaling<Definition>) {
        guard let resumption = journal.resumption else { return }
        for entry in resumption.requeued { perform(mailbox.withLock { $0.inbox.timerEvent(entry) }) }
        for delayed in resumption.delayed {
            _ = scheduleDelayed(delayed.event, after: delayed.remaining, predicates: delayed.predicates, ticket: delayed.ticket)
        }
        for cancellation in resumption.cancels {
            let stateID = schema.storage.table.stateID(of: cancellation.state)
            let tasks = stateID.map { schema.storage.timers.stateTasks[Int($0)] } ?? []
            // A schema that no longer runs that child there cannot cancel it.
            guard cancellation.slot < tasks.count, let child = tasks[cancellation.slot].child else {
                journal.childCancelled(cancellation.ticket)
                continue
            }
            child.cancel(cancellation.key) { journal.childCancelled(cancellation.ticket) }
        }
    }
}
