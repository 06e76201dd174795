import ActorFSM

// Operators' requests that a store carries to the process running the machines: a durable
// supervisor takes those for its schema's machines and carries each out as its own verbs do.

extension Supervisor where Definition.State: Codable, Definition.Event: Codable, Definition.ID: LosslessStringConvertible {
    /// Takes the operators' requests waiting in the store for this supervisor's machines,
    /// carries each out, and answers it; returns how many it answered. A durable supervisor
    /// over an ``OperatorRequestQueue`` calls it every ``Durability/operatorRequestInterval``.
    @discardableResult
    package func serveOperatorRequests() async -> Int {
        guard let durable, let queue = durable.durability.store as? any OperatorRequestQueue, !isShutDown,
              let requests = try? await queue.takeRequests(forSchema: durable.stored.description.name, limit: 20)
        else { return 0 }
        // Each machine's requests in order; machines side by side, so that one machine whose
        // action runs long does not hold the others' answers past their requesters' wait.
        let byMachine = Dictionary(grouping: requests, by: \.machine)
        let ids = durable.id
        await withTaskGroup(of: Void.self) { group in
            for (_, requests) in byMachine {
                group.addTask {
                    for request in requests {
                        let (succeeded, message) = await self.carryOut(request, ids: ids)
                        // An answer the store refuses is lost; the act, if done, is in the machine's history.
                        try? await queue.answer(request: request.number, succeeded: succeeded, message: message)
                    }
                }
            }
        }
        return requests.count
    }

    /// Carries out `request` at once with this supervisor's own verbs (`pause(_:reason:)`,
    /// `signal(_:_:predicates:reason:)` and the others, so a machine another process holds is
    /// asked through the store), and answers as a request taken from the store is answered:
    /// whether it was done, and what to tell the operator. The request's `schema` and `number`
    /// are not read; a signal's event is decoded as ``SignalledEvent`` says.
    ///
    /// An application that takes operators' acts by its own means (an admin endpoint, the web
    /// inspector) calls it with the act as a request.
    public func carryOut(_ request: OperatorRequest) async -> OperatorRequest.Answer {
        guard let durable else { return OperatorRequest.Answer(succeeded: false, message: "\(Definition.self)'s supervisor is not durable") }
        let (succeeded, message) = await carryOut(request, ids: durable.id)
        return OperatorRequest.Answer(succeeded: succeeded, message: message)
    }

    /// Carries out `request` with this supervisor's own verbs; whether it was done, and what to
    /// tell the operator.
    private func carryOut(_ request: OperatorRequest, ids: @Sendable (String) -> ID?) async -> (Bool, String) {
        guard let id = ids(request.machine) else { return (false, "\(request.machine) is not an id of \(Definition.self)") }
        do throws(MachineError<Definition>) {
            switch request.verb {
            case .pause: try await pause(id, reason: request.reason)
            case .resume: try await resume(id, reason: request.reason)
            case .retry: _ = try await retry(id, reason: request.reason)
            case .signal: return try await signal(id, as: request)
            case .cancel:
                switch try await cancel(id, reason: request.reason) {
                case .sent(let record): return (true, "sent its cancelling event \(record.event.map { "\($0)" } ?? ""): now \(record.target)")
                case .ended: return (true, "ended for good")
                case .elsewhere(let answer): return (true, answer)
                }
            }
            return (true, "done")
        } catch {
            return (false, "\(error)")
        }
    }

    /// Carries out the signal `request` on machine `id`: decodes its event, sends it, and tells
    /// what became of it.
    private func signal(_ id: ID, as request: OperatorRequest) async throws(MachineError<Definition>) -> (Bool, String) {
        guard let signalled = request.event else { return (false, "the request names no event to send") }
        let event: Event
        do throws(StoreError) {
            event = try signalled.event(of: Event.self, among: schema.events, codec: durable?.durability.store.codec ?? JSONCodec())
        } catch {
            return (false, error.message)
        }
        guard let record = try await signal(id, event, reason: request.reason) else { return (true, "signalled by the process that holds it") }
        switch record.outcome {
        case .transitioned: return (true, "\(event): now \(record.target)")
        case .unhandled: return (false, "\(event) is not handled in \(record.source): nothing changed")
        case .conditionFalse: return (false, "\(event): its condition was false in \(record.source): nothing changed")
        default: return (true, "\(event): \(record.outcome)")
        }
    }

    /// Serves the operators' requests every `interval` of the machines' clock, until the
    /// supervisor shuts down.
    func startServingOperatorRequests(every interval: Duration) {
        let clock = configuration.machine.clock
        Task.detached { [weak self] in
            while true {
                do { try await clock.sleep(for: interval) } catch { return }
                guard let self, !self.isShutDown else { return }
                await self.serveOperatorRequests()
            }
        }
    }
}
