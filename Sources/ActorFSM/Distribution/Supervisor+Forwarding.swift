// Durable supervisors over a store that several processes share: an event for a machine that
// another process holds travels to it through the store, and this process processes the events
// other processes send to the machines it holds.

extension Supervisor {
    /// Whether `error` says that another live process holds the machine.
    static func isHeldElsewhere(_ error: MachineError<Definition>) -> Bool {
        error.kind == .notDurable && (error.underlying as? DurabilityError)?.kind == .heldElsewhere
    }

    /// Sends `event` through the store to the process that holds machine `id`.
    ///
    /// - Returns: the record that process sends back; `nil` for a post, which waits only until
    ///   the event is queued durably.
    /// - Throws: `heldElsewhere` if the store cannot forward; the holder's ``MachineError``, or
    ///   `.notDurable` if the event could not be forwarded or no reply came.
    func forward(
        _ event: Event, predicates: PredicateContext?, to id: ID, wantsReply: Bool,
        heldElsewhere: MachineError<Definition>
    ) async throws(MachineError<Definition>) -> TransitionRecord<Definition>? {
        guard let durable, let store = durable.durability.store as? any ForwardingStore else { throw heldElsewhere }
        let payload: [UInt8]
        do {
            payload = try durable.forwardedPayload(event, predicates)
        } catch {
            throw MachineError(.notDurable, machineID: id, cause: StoreError("the event for machine \(id) could not be encoded: \(error)"))
        }
        let reply: [UInt8]
        do {
            reply = try await store.forward(ForwardedEvent(machine: durable.key(id), payload: payload, wantsReply: wantsReply))
        } catch {
            throw MachineError(.notDurable, machineID: id, cause: error)
        }
        guard wantsReply else { return nil }
        return try durable.forwarding.decodeReply(reply, id).get()
    }

    /// Registers this supervisor with its store, if the store forwards events between processes.
    func serveForwardedEvents() {
        guard let store = durable?.durability.store as? any ForwardingStore else { return }
        store.serve(ForwardedEventHost(self))
    }

    /// Processes an event another process forwarded; see ``ForwardingHost/deliver(_:)``.
    func deliver(_ forwarded: ForwardedEvent) async -> [UInt8]? {
        guard let durable, let id = durable.id(forwarded.machine) else { return nil }
        let reply: ForwardCoding<Definition>.Reply
        do {
            reply = .success(try await processForwarded(forwarded, id: id, coding: durable))
        } catch where Self.isHeldElsewhere(error) {
            return nil
        } catch {
            reply = .failure(error)
        }
        return durable.forwarding.encodeReply(reply)
    }

    private func processForwarded(
        _ forwarded: ForwardedEvent, id: ID, coding: DurableCoding<Definition>
    ) async throws(MachineError<Definition>) -> TransitionRecord<Definition> {
        let decoded: (event: Event, predicates: PredicateContext?)
        do {
            decoded = try coding.forwardedEvent(forwarded.payload)
        } catch {
            throw MachineError(.notDurable, machineID: id, cause: StoreError(
                "an event forwarded to machine \(id) could not be decoded (do both processes run the same schema?): \(error)"))
        }
        guard let machine = try await machineRestoring(id: id, origin: .send) else { throw noMachine(id, origin: .send) }
        return try await machine.sendForwarded(decoded.event, predicates: decoded.predicates, number: forwarded.number)
    }

    /// Restores machines this process took over; see ``ForwardingHost/adopt(_:)``.
    func adopt(_ machines: [String]) async {
        guard let durable else { return }
        var start = 0
        while start < machines.count {
            let batch = Array(machines[start..<min(start + Self.restoreBatch, machines.count)])
            _ = try? await restore(batch, coding: durable, includingFinal: false)
            start += batch.count
        }
    }
}

/// The ``ForwardingHost`` of a supervisor: it holds the supervisor weakly, since the store it
/// registers with is the supervisor's own.
final class ForwardedEventHost<Definition: MachineDefinition>: ForwardingHost {
    private weak let supervisor: Supervisor<Definition>?

    init(_ supervisor: Supervisor<Definition>) { self.supervisor = supervisor }

    func deliver(_ event: ForwardedEvent) async -> [UInt8]? {
        await supervisor?.deliver(event) ?? nil
    }

    func adopt(_ machines: [String]) async {
        await supervisor?.adopt(machines)
    }
}
