import ActorFSM

// An operator's act on a machine that another live process holds: asked of that process
// through the store, as an operator's request, and awaited.

extension DurableSupervision {
    /// How long an act on a machine another process holds waits for that process's answer.
    static var requestPatience: Duration { .seconds(30) }

    /// Asks the process that holds machine `id` to carry out `verb`, through the store, and
    /// waits for its answer, up to ``requestPatience``; a request no process took by then is
    /// withdrawn.
    ///
    /// - Throws: ``MachineError`` `.notDurable` if the store carries no requests, fails, or the
    ///   process refused or did not answer; `.cancelled` if the caller's task is cancelled first
    ///   (a request not taken yet is withdrawn).
    package func act(_ verb: OperatorVerb, elsewhereOn id: ID, reason: String) async throws(MachineError<Definition>) -> String {
        let key = coding.key(id)
        func failure(_ message: String) -> MachineError<Definition> {
            MachineError(.notDurable, machineID: id, cause: DurabilityError(.heldElsewhere, machine: key, detail: message))
        }
        guard let queue = coding.durability.store as? any OperatorRequestQueue,
              let asked = OperatorRequest.Verb(rawValue: verb.description)
        else { throw failure("the store carries no operator's request to it: \(verb) it through that process") }
        let request = OperatorRequest(machine: key, schema: coding.stored.description.name, verb: asked, reason: reason,
                                      time: coding.durability.wallClock.nanosecondsSince1970() / 1_000_000)
        let reply: Reply
        do {
            reply = try await Self.reply(to: try await queue.submit(request), from: queue)
        } catch {
            throw MachineError(.notDurable, machineID: id, cause: error)
        }
        switch reply {
        case .answered(true, let answer): return answer
        case .answered(false, let answer): throw failure("the process that holds it refused to \(verb) it: \(answer)")
        case .gone: throw failure("the request to \(verb) it is gone from the store")
        case .withdrawn(cancelled: true): throw MachineError(.cancelled, machineID: id)
        case .withdrawn(cancelled: false): throw failure("no process took the request to \(verb) it within \(Self.requestPatience)")
        case .unanswered:
            throw failure("the process that holds it took the request to \(verb) it but has not answered: "
                          + "its history will say whether it was done")
        }
    }

    /// What became of a request.
    private enum Reply {
        case answered(Bool, String)
        case gone
        case withdrawn(cancelled: Bool)
        case unanswered
    }

    /// Waits for the answer to request `number`, up to ``requestPatience`` or the task's
    /// cancellation; withdraws it then if no process has taken it.
    private static func reply(to number: Int64, from queue: any OperatorRequestQueue) async throws(StoreError) -> Reply {
        let deadline = ContinuousClock.now + requestPatience
        // From 20 ms, doubling to half a second: the store's one thread also writes the journal.
        var pause = Duration.milliseconds(20)
        while true {
            switch try await queue.progress(ofRequest: number) {
            case .answered(let succeeded, let answer): return .answered(succeeded, answer)
            case .unknown: return .gone
            case .waiting, .taken: break
            }
            let cancelled = Task.isCancelled
            if cancelled || ContinuousClock.now >= deadline {
                return try await queue.withdraw(request: number) ? .withdrawn(cancelled: cancelled) : .unanswered
            }
            // The process that holds the machine looks for requests every `operatorRequestInterval`.
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(500))
        }
    }
}
