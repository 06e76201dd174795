// Retrying an action: each attempt starts from the data as the action found it, waits on the
// machine's clock, and keeps the event's number (so its idempotency key).

extension TransitionContext {
    /// Runs `action` until it completes, trying it again under `policy` when it throws. Gives
    /// up with the last error once the policy is exhausted or excludes it, and at once when the
    /// action is cancelled (a stop), which interrupts the transition rather than failing it.
    func run(
        _ action: @Sendable (TransitionContext) async throws -> Void, retrying policy: RetryPolicy
    ) async throws {
        var attempt = 1
        if let resumed = runtime?.resumedRetry(for: sequenceNumber) {
            // The attempts made before the machine was restored count in its record too.
            attempt = resumed.attempt
            cell.countRetries(attempt - 1)
            if resumed.remaining > .zero { try await wait(resumed.remaining, before: attempt) }
        }
        while true {
            var context = self
            context.attempt = attempt
            let before = cell.value
            do {
                return try await action(context)
            } catch {
                if Task.isCancelled { throw error }
                guard let delay = policy.delay(before: attempt + 1, after: error) else { throw error }
                cell.rewind(to: before)
                cell.countRetries(1)
                attempt += 1
                try await wait(delay, before: attempt)
            }
        }
    }

    /// Waits `delay` before `attempt`: on the machine's clock, or the continuous clock for a
    /// context no machine made.
    private func wait(_ delay: Duration, before attempt: Int) async throws {
        if let runtime {
            try await runtime.waitToRetry(number: sequenceNumber, attempt: attempt, after: delay)
        } else {
            try await Task.sleep(for: delay)
        }
    }
}
