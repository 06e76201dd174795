import ActorFSM
import ActorFSMDurability

// Durable supervisors over a store that several processes share: an event for a machine that
// another process holds travels to it through the store, and this process processes the events
// other processes send to the machines it holds.

/// The routing of a durable supervisor over a ``ForwardingStore``.
final class Forwarding<Definition: MachineDefinition>: SupervisorRouting {
    typealias ID = Definition.ID

    let store: any ForwardingStore
    let coding: DurableCoding<Definition>
    /// How replies to events forwarded between processes are written and read.
    let replies: ForwardCoding<Definition>
    /// The machines another process held when this supervisor last tried to claim them.
    let remoteHolders = RemoteHolders()

    init(store: any ForwardingStore, coding: DurableCoding<Definition>)
    where Definition.State: Codable, Definition.Event: Codable {
        self.store = store
        self.coding = coding
        self.replies = ForwardCoding()
    }

    func heldElsewhereLately(_ id: ID, of supervisor: Supervisor<Definition>) -> MachineError<Definition>? {
        guard !remoteHolders.remembersNone, supervisor.machine(id: id) == nil else { return nil }
        let key = coding.key(id)
        guard remoteHolders.holdsElsewhere(key) else { return nil }
        return MachineError(.notDurable, machineID: id, cause: DurabilityError(
            .heldElsewhere, machine: key, detail: "send to it through that process"))
    }

    func forward(
        _ event: Definition.Event, predicates: PredicateContext?, to id: ID, wantsReply: Bool,
        heldElsewhere: MachineError<Definition>, of supervisor: Supervisor<Definition>
    ) async throws(MachineError<Definition>) -> TransitionRecord<Definition>? {
        let payload: [UInt8]
        do {
            payload = try coding.forwardedPayload(event, predicates)
        } catch {
            throw MachineError(.notDurable, machineID: id, cause: StoreError("the event for machine \(id) could not be encoded: \(error)"))
        }
        let key = coding.key(id)
        remoteHolders.remember(key)
        let reply: [UInt8]
        do {
            reply = try await store.forward(ForwardedEvent(machine: key, payload: payload, wantsReply: wantsReply))
        } catch {
            throw MachineError(.notDurable, machineID: id, cause: error)
        }
        guard wantsReply else { return nil }
        return try replies.decodeReply(reply, id).get()
    }

    func forget(_ keys: [String]) { remoteHolders.forget(keys) }
}

extension ForwardingStore {
    package func routing<Definition: MachineDefinition>(coding: DurableCoding<Definition>) -> any SupervisorRouting<Definition>
    where Definition.State: Codable, Definition.Event: Codable, Definition.ID: LosslessStringConvertible {
        Forwarding(store: self, coding: coding)
    }

    package func serve<Definition: MachineDefinition>(_ supervisor: Supervisor<Definition>) {
        serve(ForwardedEventHost(supervisor))
    }
}

extension Supervisor {
    /// Processes an event another process forwarded; see ``ForwardingHost/deliver(_:)``.
    ///
    /// It leaves the event queued (`nil`) when this process cannot journal it: the machine is
    /// held elsewhere, this process lost its lease (fenced), the store failed, the machine
    /// stopped before taking it, or the supervisor is shutting down. The event is then
    /// processed where it can be, once.
    ///
    /// - Parameter answering: whether the entry that records the event carries its reply, for
    ///   a store that answers senders in its journal's commits.
    func deliver(_ forwarded: ForwardedEvent, answering: Bool) async -> ForwardedDelivery {
        guard let durable, let forwarding = durableSupervision?.routing as? Forwarding<Definition>,
              let id = durable.id(forwarded.machine)
        else { return .leftQueued }
        let decoded: (event: Event, predicates: PredicateContext?)
        do {
            decoded = try durable.forwardedEvent(forwarded.payload)
        } catch {
            // Refused for good: no process of this schema reads it.
            return .reply(forwarding.replies.encodeReply(.failure(MachineError(.notDurable, machineID: id, cause: StoreError(
                "an event forwarded to machine \(id) could not be decoded (do both processes run the same schema?): \(error)")))))
        }
        let answered = Locked(false)
        let encode = forwarding.replies.encodeReply
        var answer: (@Sendable (TransitionRecord<Definition>) -> [UInt8])?
        if answering {
            // A post's sender waits for no reply: its event is only removed.
            let wantsReply = forwarded.wantsReply
            answer = { record in
                answered.withLock { $0 = true }
                return wantsReply ? encode(Self.reply(to: record)) : []
            }
        }
        let reply: ForwardCoding<Definition>.Reply
        do throws(MachineError<Definition>) {
            reply = .success(try await processForwarded(decoded, id: id, number: forwarded.number, answer: answer))
        } catch where Self.leavesQueued(error) || (error.kind == .paused && !forwarded.wantsReply) {
            // A post to a paused machine was accepted by its sender's store: it waits there.
            return .leftQueued
        } catch {
            reply = .failure(error)
        }
        // The entry that recorded the event is durable, and its commit answered the sender.
        if answered.withLock({ $0 }) { return .answered }
        return .reply(forwarding.replies.encodeReply(reply))
    }

    /// Sends a forwarded event to the machine under `id`, restored if need be; once more if the
    /// machine it found stopped before taking it (passivated, replaced by adoption).
    private func processForwarded(
        _ decoded: (event: Event, predicates: PredicateContext?), id: ID, number: Int64,
        answer: (@Sendable (TransitionRecord<Definition>) -> [UInt8])?
    ) async throws(MachineError<Definition>) -> TransitionRecord<Definition> {
        for attempt in 0..<2 {
            do throws(MachineError<Definition>) {
                guard let machine = try await machineRestoring(id: id, origin: .send) else { throw noMachine(id, origin: .send) }
                return try await machine.sendForwarded(decoded.event, predicates: decoded.predicates, number: number,
                                                       reply: answer)
            } catch where attempt == 0 && error.kind == .stopped && error.record == nil && !error.supervisorShutDown {
                continue
            }
        }
        throw MachineError(.stopped, machineID: id)
    }

    /// The reply a forwarded `send` whose event `record` records gets: the record, or the
    /// error it stands for.
    private static func reply(to record: TransitionRecord<Definition>) -> ForwardCoding<Definition>.Reply {
        do throws(MachineError<Definition>) {
            return .success(try Machine<Definition>.result(of: record))
        } catch {
            return .failure(error)
        }
    }

    /// Whether a forwarded event that failed with `error` stays queued for another try (here
    /// or in the process that holds the machine): the store failed or fenced the write, another
    /// process holds the machine, or the supervisor is shutting down.
    static func leavesQueued(_ error: MachineError<Definition>) -> Bool {
        if error.supervisorShutDown { return true }
        // Refused by a machine that stopped before taking it: not processed.
        if error.kind == .stopped && error.record == nil { return true }
        guard error.kind == .notDurable else { return false }
        if error.underlying is StoreError { return true }
        let kind = (error.underlying as? DurabilityError)?.kind
        return kind == .heldElsewhere || kind == .storeFailed
    }

    /// Restores machines this process took over; see ``ForwardingHost/adopt(_:)``.
    ///
    /// A machine still in memory here ran on while this process was paused and another held
    /// it: its state is stale. It is dropped, writing nothing more, and restored from the store.
    func adopt(_ machines: [String]) async {
        guard let durable else { return }
        durableSupervision?.routing?.forget(machines)
        let stale = registry.withLock { registry in
            machines.compactMap { key -> Machine<Definition>? in
                guard let id = durable.id(key), let machine = registry.core.removeMachine(at: id) else { return nil }
                machine.durableJournal?.discard()
                return machine
            }
        }
        for machine in stale { await machine.stop() }
        var start = 0
        while start < machines.count {
            let batch = Array(machines[start..<min(start + Self.restoreBatch, machines.count)])
            // A machine that cannot be restored is left in the store; the others of the batch run.
            var summary = RestoreSummary()
            try? await restore(batch, coding: durable, includingFinal: false, into: &summary)
            start += batch.count
        }
    }
}

/// The ``ForwardingHost`` of a supervisor: it holds the supervisor weakly, since the store it
/// registers with is the supervisor's own.
final class ForwardedEventHost<Definition: MachineDefinition>: AnsweringHost {
    private weak let supervisor: Supervisor<Definition>?

    init(_ supervisor: Supervisor<Definition>) { self.supervisor = supervisor }

    func deliver(_ event: ForwardedEvent) async -> [UInt8]? {
        switch await supervisor?.deliver(event, answering: false) ?? .leftQueued {
        case .reply(let reply): reply
        case .answered, .leftQueued: nil
        }
    }

    func deliverAnswering(_ event: ForwardedEvent) async -> ForwardedDelivery {
        await supervisor?.deliver(event, answering: true) ?? .leftQueued
    }

    func adopt(_ machines: [String]) async {
        await supervisor?.adopt(machines)
    }

    var isServing: Bool { supervisor.map { !$0.isShutDown } ?? false }
}
