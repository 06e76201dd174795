import ActorFSM

// Retries survive a crash: the intent of the event in progress is written again with the
// attempt its action waits to make and when, and a restored machine goes on from there.

extension MachineJournal {
    package func retrying(number: UInt64, attempt: Int, after delay: Duration) -> UInt64 {
        recordRetry(StoredRetry(attempt: attempt, deadline: now() + StoredOrigin.nanoseconds(delay)), of: number)
    }

    package func resumedRetry(for number: UInt64) -> (attempt: Int, remaining: Duration)? {
        let taken = state.withLock { state -> StoredRetry? in
            guard let resumed = state.resumedRetry, resumed.number == number else { return nil }
            state.resumedRetry = nil
            return resumed.retry
        }
        guard let taken else { return nil }
        // The event's intent was written again as the restored machine took it up, without the
        // retry: it records it once more, so that another crash during the wait keeps it too.
        _ = recordRetry(taken, of: number)
        return (taken.attempt, .nanoseconds(max(0, taken.deadline - now())))
    }

    /// Writes the intent of event `number` again, with `retry`.
    ///
    /// - Returns: the write's index, 0 if nothing was written.
    private func recordRetry(_ retry: StoredRetry, of number: UInt64) -> UInt64 {
        state.withLock { state in
            guard state.failure == nil, !state.isSealed, var intent = state.intent, intent.number == number else { return 0 }
            intent.payload.retry = retry
            state.intent = intent
            let entry = JournalEntry(machine: key, sequenceNumber: number,
                                     payload: intent.payload.encoded(machine: key, sequenceNumber: number))
            return append(JournalWrite(entry: entry, hasPendingWork: true), &state)
        }
    }
}
