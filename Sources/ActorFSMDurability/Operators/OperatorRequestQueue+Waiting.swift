/// What became of a submitted ``OperatorRequest`` once its requester stopped waiting
/// (``OperatorRequestQueue/ask(_:waitingAtMost:)``).
public enum OperatorRequestOutcome: Sendable, Equatable {
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

    /// Why the act was not done, or may not have been, for an operator who waited up to
    /// `patience`; `nil` when the process answered that it was done.
    public func problem(waited patience: Duration) -> String? {
        switch self {
        case .answered(true, _): nil
        case .answered(false, let answer): "the process that holds the machine refused: \(answer)"
        case .gone: "the request is gone from the store"
        case .withdrawn(cancelled: true): "the request was withdrawn, since its asker stopped waiting: nothing changed"
        case .withdrawn(cancelled: false):
            "no process took the request within \(patience), so it was withdrawn and nothing changed: does a durable "
                + "supervisor of the machine's schema run there?"
        case .abandoned: "the process that took the request stopped before it answered: the history says whether it was done"
        case .unanswered: "the process took the request but has not answered yet: the history will say whether it was done"
        }
    }
}

extension OperatorRequestQueue {
    /// Submits `request` and waits for the answer of the process that takes it, up to `patience`
    /// or the task's cancellation; a request that no process took by then is withdrawn, so that
    /// nothing is done later behind the asker's back. A look the store fails (a database
    /// restarting) is made again until the wait ends.
    ///
    /// ```swift
    /// let requests = try SQLiteRequests(path: "orders.sqlite")
    /// let asked = OperatorRequest(machine: "1042", schema: "OrderWorkflow", verb: .pause,
    ///                             reason: "the address needs a check", time: 1_700_000_000_000)
    /// if case .answered(succeeded: false, let why) = try await requests.ask(asked, waitingAtMost: .seconds(30)) {
    ///     print("refused: \(why)")
    /// }
    /// ```
    ///
    /// - Throws: the store's error if it refuses the request, still fails when the wait ends, or
    ///   fails the withdrawal.
    public func ask(_ request: OperatorRequest, waitingAtMost patience: Duration) async throws(StoreError) -> OperatorRequestOutcome {
        let deadline = ContinuousClock.now + patience
        return try await outcome(ofRequest: try await submit(request), until: deadline)
    }

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
