// A durable machine restored from its store: what it processes before anything else.

extension Machine {
    /// Queues what a restored machine processes first, and arms its delayed posts again.
    nonisolated func resume(_ journal: any MachineJournaling<Definition>) {
        guard let resumption = journal.resumption else { return }
        for entry in resumption.requeued { perform(mailbox.withLock { $0.inbox.timerEvent(entry) }) }
        for delayed in resumption.delayed {
            _ = scheduleDelayed(delayed.event, after: delayed.remaining, predicates: delayed.predicates, ticket: delayed.ticket)
        }
    }
}
