// Retrying an action: each attempt starts from the data as the action found it, waits on the
// machine's clock, and keeps the event's number (so its idempotency key).

extension TransitionContext {
    /// Runs `action` until it completes, trying it again under `policy` when it throws. Gives
    /// up with the last error once the policy is exhausted or excludes it, and at once when the
    /// action is cancelled (a stop), which interrupts the transition rather than failing it.
    func run(
        _ action: @Sendable (TransitionContext) async throws -> Void, retrying policy: RetryPolicy
    ) async throws {
        // Which retried action of the transition this is: a restored machine's stored retry
        // belongs to one of them.
        let index = cell.nextRetriedAction()
        var attempt = 1
        if let resumed = runtime?.resumedRetry(for: sequenceNumber, action: index) {
            // The attempts made before the machine was restored count in its record too.
            attempt = resumed.attempt
            cell.countRetries(attempt - 1)
            if resumed.remaining > .zero { try await wait(resumed.remaining, action: index, before: attempt) }
        }
        while true {
            var context = self
            context.attempt = attempt
            let before = cell.snapshot()
            do {
                try await action(context)
                if attempt > 1 { runtime?.retriesEnded(number: sequenceNumber) }
                return
            } catch {
                if Task.isCancelled { throw error }
                guard let delay = policy.delay(before: attempt + 1, after: error) else { throw error }
                cell.rewind(to: before)
                cell.countRetries(1)
                attempt += 1
                try await wait(delay, action: index, before: attempt)
            }
        }
    }

    /// Waits `delay` before `attempt` of the retried action `index`: on the machine's clock, or
    /// the continuous clock for a context no machine made.
    private func wait(_ delay: Duration, action index: Int, before attempt: Int) async throws {
        if let runtime {
            try await runtime.waitToRetry(number: sequenceNumber, action: index, attempt: attempt, after: delay)
        } else {
            try await Task.sleep(for: delay)
        }
    }
}
