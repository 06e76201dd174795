/// What became of a submitted request once its requester stopped waiting.
package enum OperatorRequestOutcome: Sendable, Equatable {
    /// The process that took it answered.
    case answered(succeeded: Bool, message: String)
    /// The store no longer holds it.
    case gone
    /// No process took it in time (or the waiting task was cancelled first), so it was withdrawn:
    /// nothing was done, nor will be.
    case withdrawn(cancelled: Bool)
    /// A process took it and did not answer in time: its history will say whether it was done.
    case unanswered
    /// The process that took it stopped before it answered: the history says whether it was done.
    case abandoned
}

extension OperatorRequestQueue {
    /// Waits for the answer to request `number` until `deadline` or the task's cancellation, and
    /// withdraws it then if no process has taken it. It looks every 20 ms at first, doubling up
    /// to half a second: a store's one thread also writes the journal. A look the store fails
    /// (a database restarting) is made again, until the deadline.
    ///
    /// - Throws: the store's error if it still fails at the deadline, or fails the withdrawal.
    package func outcome(ofRequest number: Int64, until deadline: ContinuousClock.Instant) async throws(StoreError) -> OperatorRequestOutcome {
        var pause = Duration.milliseconds(20)
        while true {
            do throws(StoreError) {
                switch try await progress(ofRequest: number) {
                case .answered(let succeeded, let message): return .answered(succeeded: succeeded, message: message)
                case .unknown: return .gone
                case .abandoned: return .abandoned
                case .waiting, .taken: break
                }
            } catch {
                if Task.isCancelled || ContinuousClock.now >= deadline { throw error }
            }
            let cancelled = Task.isCancelled
            if cancelled || ContinuousClock.now >= deadline {
                return try await withdraw(request: number) ? .withdrawn(cancelled: cancelled) : .unanswered
            }
            // The process that holds the machine looks for requests every `operatorRequestInterval`.
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(500))
        }
    }
}
