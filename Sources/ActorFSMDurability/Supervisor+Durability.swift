import ActorFSM

// Durable supervisors: machines kept in a store, restored eagerly or on first use, and
// passivated (written out and dropped from memory) when idle.

extension Supervisor where Definition.State: Codable, Definition.Event: Codable, Definition.ID: LosslessStringConvertible {
    /// Creates a durable supervisor: every machine writes its transitions to `durability`'s
    /// store, a restart resumes from the machine's last entry rather than its initial state,
    /// and machines the store holds come back with ``restoreAll(includingFinal:checkingCompatibility:)`` or on first use
    /// (``send(to:_:predicates:)``, ``post(to:_:predicates:)``, ``activate(id:data:)``).
    ///
    /// ```swift
    /// let orders = try Supervisor(schema: orderSchema, durability: Durability(store: store))
    /// try await orders.restoreAll()
    /// try await orders.activate(id: "o-1042", data: Purchase(amount: 99, attempts: 0))
    /// ```
    public convenience init(
        schema: Schema<Definition>, durability: Durability<Definition>,
        configuration: SupervisorConfiguration<State> = SupervisorConfiguration(), passivation: Passivation? = nil
    ) throws(DurabilityError) where Definition.Data: Codable {
        let coding = try DurableCoding.make(schema: schema, durability: durability, key: "(supervisor)")
        self.init(schema: schema, configuration: configuration, now: { .now }, coding: coding, passivation: passivation)
    }

    /// Creates a durable supervisor for a definition without data; see
    /// ``init(schema:durability:configuration:)``.
    public convenience init(
        schema: Schema<Definition>, durability: Durability<Definition>,
        configuration: SupervisorConfiguration<State> = SupervisorConfiguration(), passivation: Passivation? = nil
    ) throws(DurabilityError) where Definition.Data == Void {
        let coding = try DurableCoding.make(schema: schema, durability: durability, key: "(supervisor)")
        self.init(schema: schema, configuration: configuration, now: { .now }, coding: coding, passivation: passivation)
    }
}

extension Supervisor where Definition.State: Codable, Definition.Event: Codable, Definition.ID: LosslessStringConvertible {
    /// A durable supervisor writing through `coding`: over a store that carries events between
    /// processes, it routes events for machines held elsewhere and serves those sent to its own.
    convenience init(
        schema: Schema<Definition>, configuration: SupervisorConfiguration<State>,
        now: @escaping @Sendable () -> ContinuousClock.Instant, coding: DurableCoding<Definition>,
        passivation: Passivation?
    ) {
        let routingStore = coding.durability.store as? any RoutingStore
        let supervision = DurableSupervision(coding: coding, routing: routingStore?.routing(coding: coding))
        self.init(schema: schema, configuration: configuration, now: now, journaling: supervision)
        if let passivation { startPassivating(passivation) }
        if coding.durability.store is any OperatorRequestQueue, let interval = coding.durability.operatorRequestInterval {
            startServingOperatorRequests(every: interval)
        }
        routingStore?.serve(self)
    }
}

extension Supervisor {
    /// Restores every machine the store holds that is not running yet: each resumes its state,
    /// data, timers and pending events. Machines in one of the schema's final states stay in the
    /// store unless `includingFinal`; first use brings them back.
    ///
    /// A machine that cannot be restored (a damaged entry, a state the schema no longer has)
    /// does not stop the others: the summary lists it with the reason, and the rest run.
    ///
    /// ```swift
    /// let summary = try await orders.restoreAll()
    /// for failure in summary.failures { print("not restored: \(failure)") }
    /// ```
    ///
    /// It first checks ``compatibility()``, unless `checkingCompatibility` is `false`: while the
    /// store holds machines of another version of the schema in states this one neither has nor
    /// maps, it restores nothing.
    ///
    /// - Returns: how many machines were restored, and the error of each that was not.
    /// - Throws: ``DurabilityError`` of kind `incompatible`, listing each such state with its
    ///   machines; of kind `storeFailed` if the store cannot be read (the machines restored
    ///   before it keep running).
    @discardableResult
    public func restoreAll(includingFinal: Bool = false, checkingCompatibility: Bool = true) async throws(DurabilityError) -> RestoreSummary {
        guard let durable else { return RestoreSummary() }
        if checkingCompatibility { try await refuseIfIncompatible() }
        let keys: [String]
        do { keys = try await durable.durability.store.machineIDs() } catch {
            throw DurabilityError(.storeFailed, machine: "(all)", detail: error.message)
        }
        var summary = RestoreSummary()
        var batch: [String] = []
        for (index, key) in keys.enumerated() {
            batch.append(key)
            guard batch.count == Self.restoreBatch || index == keys.count - 1 else { continue }
            try await restore(batch, coding: durable, includingFinal: includingFinal, into: &summary)
            batch = []
        }
        return summary
    }

    /// How many machines ``restoreAll(includingFinal:checkingCompatibility:)`` reads from the store at a time.
    static package var restoreBatch: Int { 1_000 }

    /// Restores the machines `keys` names that are not running yet, read from the store
    /// together, counting them and the failures in `summary`.
    package func restore(
        _ keys: [String], coding: DurableCoding<Definition>, includingFinal: Bool, into summary: inout RestoreSummary
    ) async throws(DurabilityError) {
        let wanted = keys.filter { key in coding.id(key).map { machine(id: $0) == nil } ?? false }
        let entries: [String: [JournalEntry]]
        let claimed: [String]
        do {
            claimed = try await coding.durability.store.claim(wanted)
            entries = try await coding.durability.store.latestEntries(of: claimed, count: 2)
        } catch {
            throw DurabilityError(.storeFailed, machine: "(all)", detail: error.message)
        }
        // Claimed but not restored: another process may take them.
        var skipped: [String] = []
        for key in claimed {
            let stored = entries[key] ?? []
            // An intent with no entry below it restores only with data given: on its first use
            // (activate(id:data:)).
            if stored.count == 1 && coding.emptyData == nil,
               let payload = JournalPayload(decoding: stored[0]), payload.isIntent {
                skipped.append(key)
                continue
            }
            let decoded: Recovery<Definition>?
            do {
                decoded = try Recovery.decode(stored, key: key, coding: coding, schema: schema, data: coding.emptyData)
            } catch {
                summary.failures.append(error)
                skipped.append(key)
                continue
            }
            guard let id = coding.id(key), let recovery = decoded, !recovery.point.timers.isCancelled,
                  includingFinal || !schema.finalStates.contains(recovery.point.state)
                    || !recovery.point.timers.cancels.isEmpty
            else {
                skipped.append(key)
                continue
            }
            let registered = registry.withLock { registry -> Bool in
                guard !registry.isShutDown, registry.machines[id] == nil, tracking({ $0.restoring[id] == nil }) else {
                    return false
                }
                _ = makeMachine(id: id, data: recovery.point.data, in: &registry,
                                journal: journal(for: id, key: key, coding: coding, recovery: recovery))
                return true
            }
            if registered { summary.restored += 1 }
        }
        // Not those a concurrent first use restored meanwhile: they run here.
        skipped = registry.withLock { registry in
            tracking { tracking in
                skipped.filter { key in coding.id(key).map { registry.machines[$0] == nil && tracking.restoring[$0] == nil } ?? true }
            }
        }
        if !skipped.isEmpty { await coding.durability.store.release(skipped) }
    }

    /// The machine under `id`: the running one, the one the store holds (restored), or a new
    /// one that owns `data`. On a durable supervisor, prefer it to ``spawn(id:data:startingIn:)``,
    /// which does not read the store and so is only for ids known to be new.
    ///
    /// - Throws: ``MachineError`` `.notDurable` if the store fails or holds an entry the schema
    ///   cannot read (``MachineError/underlying`` is the ``DurabilityError``), `.stopped` after shutdown.
    @discardableResult
    public func activate(id: ID, data: Definition.Data) async throws(MachineError<Definition>) -> Machine<Definition> {
        if let machine = machine(id: id) { return machine }
        guard durable != nil else {
            do { return try spawn(id: id, data: data) } catch where error.kind == .duplicateMachine {
                if let machine = machine(id: id) { return machine }
                throw error
            }
        }
        do {
            // A restore that a `send` started, without data, finds nothing for a new id: then
            // this call makes the machine with its own data.
            for _ in 0..<2 {
                if let machine = try await restore(id: id, data: data, skippingFinal: false) { return machine }
            }
        } catch let error as MachineError<Definition> {
            throw error
        } catch {
            throw MachineError(.notDurable, machineID: id, cause: error)
        }
        throw noMachine(id, origin: .send)
    }

    /// The machine under `id` if it runs or the store holds it, restored from the store if need
    /// be; never a new one. For reading machines back (an operator's tool, a check after a
    /// restart), where ``activate(id:data:)`` would make a machine for an id the store lacks.
    ///
    /// ```swift
    /// let order = try await orders.restore(id: "o-1042")   // throws .unknownMachine if never made
    /// ```
    ///
    /// - Throws: ``MachineError`` `.unknownMachine` if neither this supervisor nor its store has
    ///   the machine; `.notDurable` if the store fails or holds an entry the schema cannot read;
    ///   `.stopped` after shutdown.
    public func restore(id: ID) async throws(MachineError<Definition>) -> Machine<Definition> {
        if let machine = try await machineRestoring(id: id, origin: .send) { return machine }
        throw noMachine(id, origin: .send)
    }

    /// Makes a new machine under `id` that owns `data`, and writes its creation entry before it
    /// returns; never one the store already holds. Use it where an id must be new (an order
    /// just placed); ``activate(id:data:)`` restores or makes, whichever applies.
    ///
    /// - Throws: ``MachineError`` `.duplicateMachine` if a machine with the id runs or the store
    ///   holds one (which then runs, as ``activate(id:data:)`` would leave it); `.notDurable` if
    ///   the store fails; `.stopped` after shutdown.
    @discardableResult
    public func create(id: ID, data: Definition.Data) async throws(MachineError<Definition>) -> Machine<Definition> {
        guard durable != nil else { return try spawn(id: id, data: data) }
        if machine(id: id) != nil { throw MachineError(.duplicateMachine, machineID: id) }
        do {
            // Another caller's machine (running, or restored from the store) is not this call's.
            if let loaded = try await load(id: id, data: data, skippingFinal: false) {
                guard loaded.isNew else { throw MachineError<Definition>(.duplicateMachine, machineID: id) }
                return loaded.machine
            }
        } catch let error as MachineError<Definition> {
            throw error
        } catch {
            throw MachineError(.notDurable, machineID: id, cause: error)
        }
        throw noMachine(id, origin: .send)
    }

    /// The machine under `id` for a definition without data; see ``activate(id:data:)``.
    @discardableResult
    public func activate(id: ID) async throws(MachineError<Definition>) -> Machine<Definition> where Definition.Data == Void {
        try await activate(id: id, data: ())
    }
}
