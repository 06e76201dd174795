import ActorFSM

// Retries survive a crash: the intent of the event in progress is written again with the
// retried action that waits, the attempt it waits to make and when, and a restored machine
// goes on from there.

extension MachineJournal {
    package func retrying(number: UInt64, action: Int, attempt: Int, after delay: Duration) -> UInt64 {
        let retry = StoredRetry(action: action, attempt: attempt, deadline: now() + StoredOrigin.nanoseconds(delay))
        return rewriteIntent(of: number, retry: retry)
    }

    package func resumedRetry(for number: UInt64, action: Int) -> (attempt: Int, remaining: Duration)? {
        let taken = state.withLock { state -> StoredRetry? in
            guard let resumed = state.resumedRetry, resumed.number == number, resumed.retry.action == action else { return nil }
            state.resumedRetry = nil
            return resumed.retry
        }
        guard let taken else { return nil }
        // The event's intent was written again as the restored machine took it up, without the
        // retry: it records it once more, so that another crash during the wait keeps it too.
        _ = rewriteIntent(of: number, retry: taken)
        return (taken.attempt, .nanoseconds(max(0, taken.deadline - now())))
    }

    /// Whether the machine is at work with no event to wait for: a transition's asynchronous
    /// actions run (its intent is written, its completed entry not yet), or its state runs
    /// tasks (child machines among them), which a passivation would stop.
    var isAtWork: Bool { state.withLock { $0.intent != nil || $0.runsTasks } }

    package func retriesEnded(number: UInt64) {
        _ = rewriteIntent(of: number, retry: nil)
    }

    /// Writes the intent of event `number` again, with `retry` (or none).
    ///
    /// - Returns: the write's index, 0 if nothing was written.
    private func rewriteIntent(of number: UInt64, retry: StoredRetry?) -> UInt64 {
        state.withLock { state in
            guard state.failure == nil, !state.isSealed, var intent = state.intent, intent.number == number,
                  intent.payload.retry != retry
            else { return 0 }
            intent.payload.retry = retry
            state.intent = intent
            let entry = JournalEntry(machine: key, sequenceNumber: number,
                                     payload: intent.payload.encoded(machine: key, sequenceNumber: number))
            return append(JournalWrite(entry: entry, hasPendingWork: true), &state)
        }
    }
}
