import ActorFSM

/// What keeps a durable supervisor's machines: their journals, and the way to a machine that
/// is not running here (restored from the store, or reached in the process that holds it).
package final class DurableSupervision<Definition: MachineDefinition>: SupervisorJournaling {
    package typealias ID = Definition.ID

    /// How the machines' values are written and read.
    let coding: DurableCoding<Definition>
    /// How events reach machines another process holds; `nil` unless the store forwards events.
    package let routing: (any SupervisorRouting<Definition>)?

    /// What the supervisor tracks of machines between memory and the store. Taken only inside
    /// the supervisor's registry lock or on its own, never the other way round.
    let tracking = Locked(Tracking())

    /// Machines between memory and the store.
    struct Tracking {
        /// Machines being restored from the store, by id: concurrent callers wait for the one
        /// restoration.
        var restoring: [ID: Task<(machine: Machine<Definition>, isNew: Bool)?, any Error>] = [:]
        /// Machines whose store failed a write, to restore from the store once it works again;
        /// see `Supervisor+StoreRecovery`.
        var awaitingStore: Set<ID> = []
        /// The task that restores them, while there are any.
        var storeRecovery: Task<Void, Never>?
        /// How many times each machine was restored after a failed write with no successful
        /// write of its since: at ``Durability/restoresBeforeParking`` it is parked.
        var restoresInARow: [ID: Int] = [:]
        /// Machines parked: their writes kept failing while the store read, so they wait for
        /// the next write the store accepts, or an explicit resumption, before a restore.
        var parked: Set<ID> = []
        /// Machines being passivated: their end is reported as `.passivated`.
        var passivating: Set<ObjectIdentifier> = []
    }

    /// Armed while machines are parked: the next successful write resumes them.
    let writeWatch = StoreWriteWatch()

    init(coding: DurableCoding<Definition>, routing: (any SupervisorRouting<Definition>)?) {
        self.coding = coding
        self.routing = routing
    }

    package func journal(
        for id: ID, resuming predecessor: (any MachineJournaling<Definition>)?, of supervisor: Supervisor<Definition>
    ) -> any MachineJournaling<Definition> {
        let key = coding.key(id)
        let recovery = (predecessor as? MachineJournal<Definition>)?.seal().map {
            Recovery.resuming($0, coding: coding, schema: supervisor.schema, key: key)
        }
        return supervisor.journal(for: id, key: key, coding: coding, recovery: recovery)
    }

    package func send(
        _ event: Definition.Event, predicates: PredicateContext?, to id: ID, of supervisor: Supervisor<Definition>
    ) async throws(MachineError<Definition>) -> TransitionRecord<Definition> {
        if let routing, let elsewhere = routing.heldElsewhereLately(id, of: supervisor) {
            return try await routing.forward(event, predicates: predicates, to: id, wantsReply: true,
                                             heldElsewhere: elsewhere, of: supervisor)!
        }
        let machine: Machine<Definition>?
        do {
            machine = try await supervisor.machineRestoring(id: id, origin: .send)
        } catch where routing != nil && Self.isHeldElsewhere(error) {
            return try await routing!.forward(event, predicates: predicates, to: id, wantsReply: true,
                                              heldElsewhere: error, of: supervisor)!
        }
        guard let machine else { throw supervisor.noMachine(id, origin: .send) }
        return try await machine.send(event, predicates: predicates)
    }

    package func post(
        _ event: Definition.Event, predicates: PredicateContext?, to id: ID, of supervisor: Supervisor<Definition>
    ) async throws(MachineError<Definition>) {
        if let routing, let elsewhere = routing.heldElsewhereLately(id, of: supervisor) {
            _ = try await routing.forward(event, predicates: predicates, to: id, wantsReply: false,
                                          heldElsewhere: elsewhere, of: supervisor)
            return
        }
        let machine: Machine<Definition>?
        do {
            machine = try await supervisor.machineRestoring(id: id, origin: .post)
        } catch where routing != nil && Self.isHeldElsewhere(error) {
            _ = try await routing!.forward(event, predicates: predicates, to: id, wantsReply: false,
                                           heldElsewhere: error, of: supervisor)
            return
        }
        guard let machine else { throw supervisor.noMachine(id, origin: .post) }
        try await machine.post(event, predicates: predicates)
    }

    package func isPassivating(_ machine: Machine<Definition>) -> Bool {
        tracking.withLock { $0.passivating.contains(ObjectIdentifier(machine)) }
    }

    package func operand(
        _ id: ID, of supervisor: Supervisor<Definition>
    ) async throws(MachineError<Definition>) -> Machine<Definition>? {
        try await supervisor.machineRestoring(id: id, origin: .send)
    }

    package var cancellingEvent: Definition.Event? { coding.durability.cancelling }

    /// Whether `error` says that another live process holds the machine.
    static func isHeldElsewhere(_ error: MachineError<Definition>) -> Bool {
        error.kind == .notDurable && (error.underlying as? DurabilityError)?.kind == .heldElsewhere
    }
}

extension Supervisor {
    /// What keeps the machines, on a durable supervisor.
    package var durableSupervision: DurableSupervision<Definition>? { journaling as? DurableSupervision<Definition> }

    /// How a durable supervisor's machines are written and read; `nil` in memory only.
    package var durable: DurableCoding<Definition>? { durableSupervision?.coding }

    /// Reads or changes what a durable supervisor tracks of machines between memory and the
    /// store; call it on a durable supervisor only, inside the registry's lock or outside it.
    func tracking<Result>(_ body: (inout DurableSupervision<Definition>.Tracking) -> Result) -> Result {
        durableSupervision!.tracking.withLock(body)
    }
}

extension Machine {
    /// The journal of a durable machine.
    package nonisolated var durableJournal: MachineJournal<Definition>? { journal as? MachineJournal<Definition> }
}
