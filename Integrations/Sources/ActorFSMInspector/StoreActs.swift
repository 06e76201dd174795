import ActorFSMDurability

/// Acts written into a store opened for each act, or asked of the process that holds the store
/// or the machine, as an operator's request.
struct StoreActs<Store: MachineStore & StoreInspection>: Sendable {
    let open: @Sendable () throws -> Store
    let close: @Sendable (Store) -> Void
    let asking: (@Sendable () throws -> any OperatorRequestQueue)?
    let patience: Duration

    /// Carries out `act` on a machine of the schema named `schema`.
    func carryOut(_ act: InspectorAct, schema: String) async throws {
        if act.verb == .signal {
            // Only the application's code processes an event: a signal is always asked of it.
            guard let asking else {
                throw StoreError("a signal is asked of the application that runs the machine: give "
                                 + "InspectorActions(opening:closing:asking:) the queue that reaches it")
            }
            return try await ask(act, schema: schema, through: try asking())
        }
        let store: Store
        do {
            store = try open()
        } catch {
            // The application holds the file: it carries the act out.
            guard (error as? StoreError)?.isLocked == true, let asking else { throw error }
            return try await ask(act, schema: schema, through: try asking())
        }
        defer { close(store) }
        do {
            try await write(act, schema: schema, into: store)
        } catch {
            // Another live process holds the machine: it carries the act out.
            guard error.isHeldElsewhere, let queue = store as? any OperatorRequestQueue else { throw error }
            try await ask(act, schema: schema, through: queue)
        }
    }

    /// Writes `act` into `store`.
    private func write(_ act: InspectorAct, schema: String, into store: Store) async throws(StoreError) {
        switch act.verb {
        case .pause: try await store.pause(machine: act.machine, reason: act.reason)
        case .resume: try await store.resume(machine: act.machine, reason: act.reason)
        case .cancel: try await store.cancel(machine: act.machine, reason: act.reason)
        case .retry: try await store.retry(machine: act.machine, reason: act.reason)
        case .signal:
            throw StoreError("a signal is asked of the application, never written into the store")
        }
    }

    /// Asks the process that holds the machine to carry out `act`, and waits for its answer.
    private func ask(_ act: InspectorAct, schema: String, through queue: any OperatorRequestQueue) async throws(StoreError) {
        let outcome = try await queue.ask(act.request(schema: schema), waitingAtMost: patience)
        if let problem = outcome.problem(waited: patience) { throw StoreError(problem) }
    }
}
