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
    package func act(
        _ verb: OperatorVerb, elsewhereOn id: ID, reason: String, signalling event: Definition.Event? = nil
    ) async throws(MachineError<Definition>) -> String {
        let key = coding.key(id)
        func failure(_ message: String) -> MachineError<Definition> {
            MachineError(.notDurable, machineID: id, cause: DurabilityError(.heldElsewhere, machine: key, detail: message))
        }
        guard let queue = coding.durability.store as? any OperatorRequestQueue,
              let asked = OperatorRequest.Verb(rawValue: verb.description)
        else { throw failure("the store carries no operator's request to it: \(verb) it through that process") }
        let signalled: SignalledEvent?
        do {
            signalled = try event.map { .encoded(try coding.encodeEvent($0)) }
        } catch {
            throw failure("its event \(event.map { "\($0)" } ?? "") does not encode for that process: \(error)")
        }
        let request = OperatorRequest(machine: key, schema: coding.stored.description.name, verb: asked, reason: reason,
                                      time: coding.durability.wallClock.nanosecondsSince1970() / 1_000_000, event: signalled)
        let outcome: OperatorRequestOutcome
        do {
            outcome = try await queue.outcome(ofRequest: try await queue.submit(request), until: .now + Self.requestPatience)
        } catch {
            throw MachineError(.notDurable, machineID: id, cause: error)
        }
        if case .withdrawn(cancelled: true) = outcome { throw MachineError(.cancelled, machineID: id) }
        if let problem = outcome.problem(waited: Self.requestPatience) { throw failure("\(verb): \(problem)") }
        guard case .answered(_, let answer) = outcome else { return "" }
        return answer
    }
}
