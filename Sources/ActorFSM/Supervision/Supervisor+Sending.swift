// Handing events to a supervisor's machines by id: from this process, or, on a durable
// supervisor over a store several processes share, to the process that holds the machine.

extension Supervisor {
    /// Sends `event` to the machine under `id`; see ``Machine/send(_:predicates:)-(_,PredicateContext?)``.
    @discardableResult
    public func send(
        to id: ID, _ event: Event, predicates: PredicateContext? = nil
    ) async throws(MachineError<Definition>) -> TransitionRecord<Definition> {
        if let journaling { return try await journaling.send(event, predicates: predicates, to: id, of: self) }
        guard let machine = machine(id: id) else { throw noMachine(id, origin: .send) }
        return try await machine.send(event, predicates: predicates)
    }

    /// Posts `event` to the machine under `id`, waiting for room in its inbox; see
    /// ``Machine/post(_:predicates:)``.
    public func post(to id: ID, _ event: Event, predicates: PredicateContext? = nil) async throws(MachineError<Definition>) {
        if let journaling { return try await journaling.post(event, predicates: predicates, to: id, of: self) }
        guard let machine = machine(id: id) else { throw noMachine(id, origin: .post) }
        try await machine.post(event, predicates: predicates)
    }

    /// Sends `event` to the machine under `id`; if the machine is paused, `whenPaused` chooses
    /// between the refusal and a wait for its resume (see
    /// ``Machine/send(_:predicates:whenPaused:)``). It waits for a machine this process runs;
    /// a paused machine another process holds is refused.
    @discardableResult
    public func send(
        to id: ID, _ event: Event, predicates: PredicateContext? = nil, whenPaused: WhenPaused
    ) async throws(MachineError<Definition>) -> TransitionRecord<Definition> {
        do {
            return try await send(to: id, event, predicates: predicates)
        } catch {
            guard error.kind == .paused, whenPaused == .wait, let machine = machine(id: id) else { throw error }
            return try await machine.send(event, predicates: predicates, whenPaused: .wait)
        }
    }

    /// Posts `event` to the machine under `id`, or refuses it at once if its inbox is full; see
    /// ``Machine/tryPost(_:predicates:)``.
    public func tryPost(to id: ID, _ event: Event, predicates: PredicateContext? = nil) throws(MachineError<Definition>) {
        guard let machine = machine(id: id) else { throw noMachine(id, origin: .post) }
        try machine.tryPost(event, predicates: predicates)
    }

    /// Why there is no machine under `id`: the supervisor has shut down (by `shutdown()` or
    /// an escalation, which removes every machine), or it never had one.
    package func noMachine(_ id: ID, origin: EventOrigin) -> MachineError<Definition> {
        let error = isShutDown ? shutDownError(id)
            : MachineError<Definition>(.unknownMachine, machineID: id)
        settings.instrument?.eventRefused(error, origin: origin)
        return error
    }
}
