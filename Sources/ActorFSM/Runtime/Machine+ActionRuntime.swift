// What a machine offers its actions: follow-up events and delayed posts.

extension Machine: ActionRuntime {
    @usableFromInline nonisolated func schedule<E: Sendable>(
        _ event: E, after delay: Duration, predicates: PredicateContext?
    ) -> ScheduledEvent? {
        // A context is only ever made by this machine for its own `Event` type.
        guard let event = event as? Event else { return nil }
        return schedule(event, after: delay, predicates: predicates)
    }

    @usableFromInline nonisolated func refusedDelayedPost() -> MachineError {
        refusal(.stopped, origin: .delayedPost)
    }

    @usableFromInline nonisolated func postFollowUp<E: Sendable>(_ event: E, predicates: PredicateContext?) throws(MachineError) {
        // A context is only ever made by this machine for its own `Event` type.
        guard let event = event as? Event else { throw MachineError(.stopped) }
        let entry = Entry(event: event, predicates: predicates, origin: .followUp, acceptedAt: .now, trace: callerContext)
        switch mailbox.withLock({ $0.inbox.followUp(entry) }) {
        case .queued(let resumptions):
            if !resumptions.isEmpty { perform(resumptions) }
            reportQueued(origin: .followUp)
        case .full: throw refusal(.inboxFull, origin: .followUp)
        case .closed: throw refusal(.stopped, origin: .followUp)
        }
    }
}
