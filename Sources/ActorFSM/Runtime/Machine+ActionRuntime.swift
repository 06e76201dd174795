// What a machine offers its actions: follow-up events and scheduled events.

extension Machine: ActionRuntime {
    @usableFromInline nonisolated func scheduleFromAction<E: Sendable>(
        _ event: E, after delay: Duration, predicates: PredicateContext?
    ) -> ScheduledEvent? {
        // A context is only ever made by this machine for its own `Event` type.
        guard let event = event as? Event else { return nil }
        return scheduleDelayed(event, after: delay, predicates: predicates, fromAction: true)
    }

    @usableFromInline nonisolated func refusedSchedule() -> MachineErrorKind {
        refusal(.stopped, origin: .scheduled).kind
    }

    @usableFromInline nonisolated func postFollowUp<E: Sendable>(_ event: E, predicates: PredicateContext?) -> MachineErrorKind? {
        // A context is only ever made by this machine for its own `Event` type.
        guard let event = event as? Event else { return .stopped }
        let ticket = journal?.register(.followUp, event, predicates) ?? 0
        let entry = Entry(event: event, predicates: predicates, origin: .followUp, acceptedAt: .now,
                          ticket: Self.entryTicket(ticket), trace: callerContext)
        switch mailbox.withLock({ $0.inbox.followUp(entry) }) {
        case .queued(let resumptions):
            if !resumptions.isEmpty { perform(resumptions) }
            reportQueued(origin: .followUp)
            return nil
        case .full:
            if ticket != 0 { journal?.unregister(ticket) }
            return refusal(.inboxFull, origin: .followUp).kind
        case .closed, .paused:
            // A follow-up is taken while paused; `.paused` comes only from a post.
            if ticket != 0 { journal?.unregister(ticket) }
            return refusal(.stopped, origin: .followUp).kind
        }
    }

    @usableFromInline nonisolated func postNext<E: Sendable>(_ event: E, predicates: PredicateContext?) -> MachineErrorKind? {
        // A context is only ever made by this machine for its own `Event` type.
        guard let event = event as? Event else { return .stopped }
        let ticket = journal?.register(.next, event, predicates) ?? 0
        let entry = Entry(event: event, predicates: predicates, origin: .next, acceptedAt: .now,
                          ticket: Self.entryTicket(ticket), trace: callerContext)
        guard let resumptions = mailbox.withLock({ $0.inbox.postNext(entry) }) else {
            if ticket != 0 { journal?.unregister(ticket) }
            return refusal(.stopped, origin: .next).kind
        }
        hasUpNext.store(true, ordering: .releasing)
        if !resumptions.isEmpty { perform(resumptions) }
        reportQueued(origin: .next)
        return nil
    }

    @usableFromInline nonisolated func resumedRetry(for number: UInt64, action: Int) -> (attempt: Int, remaining: Duration)? {
        journal?.resumedRetry(for: number, action: action)
    }

    @usableFromInline nonisolated func retriesEnded(number: UInt64) {
        journal?.retriesEnded(number: number)
    }

    @usableFromInline nonisolated func waitToRetry(number: UInt64, action: Int, attempt: Int, after delay: Duration) async throws {
        // The wait is recorded before it starts, as a timer is: a crash during it keeps the count.
        if let journal {
            let write = journal.retrying(number: number, action: action, attempt: attempt, after: delay)
            if write != 0 { _ = await journal.waitForWrite(write) }
        }
        try await configuration.clock.sleep(for: delay)
    }
}
