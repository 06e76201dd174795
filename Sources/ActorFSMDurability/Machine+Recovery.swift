import ActorFSM

// Durable machines: made from a store, restored from what it holds.

extension Machine where Definition.State: Codable, Definition.Event: Codable, Definition.ID: LosslessStringConvertible {
    /// Creates a durable machine: restored from `durability`'s store if it holds the machine
    /// `id` (its state, data, sequence number, pending timers, and the events it posted to
    /// itself), and made with `data` in the schema's initial state otherwise.
    ///
    /// ```swift
    /// let store = try SQLiteStore(path: "orders.sqlite")
    /// let order = try await Machine(schema: orders, id: "o-1042", data: Purchase(amount: 99, attempts: 0),
    ///                               durability: Durability(store: store))
    /// try await order.send(.submit)   // returns once the transition is durable
    /// ```
    ///
    /// A restored machine runs no entry action: it is still in its state, not entering it. Its
    /// state's tasks start again; its timeouts keep their deadlines, and those past due fire at
    /// once, each once. An event whose asynchronous actions a crash interrupted is processed
    /// again first, with the same sequence number (see ``TransitionContext/idempotencyKey``).
    ///
    /// - Throws: ``MachineError`` of kind `.notDurable`, as a supervisor's calls throw, whose
    ///   ``MachineError/underlying`` is a ``DurabilityError``: the store failed, or it holds an
    ///   entry that is damaged or that the schema cannot read (and the configuration's migration
    ///   does not map).
    public init(
        schema: Schema<Definition>, id: ID, data: Definition.Data, durability: Durability<Definition>,
        configuration: MachineConfiguration<State> = MachineConfiguration()
    ) async throws(MachineError<Definition>) where Definition.Data: Codable {
        do {
            let coding = try DurableCoding.make(schema: schema, durability: durability, key: id.description)
            try await self.init(schema: schema, id: id, data: data, coding: coding,
                                settings: MachineSettings.of(configuration, for: schema.storage))
        } catch {
            throw MachineError(.notDurable, machineID: id, cause: error)
        }
    }

    /// Creates a durable machine for a definition without data; see
    /// ``init(schema:id:data:durability:configuration:)``.
    public init(
        schema: Schema<Definition>, id: ID, durability: Durability<Definition>,
        configuration: MachineConfiguration<State> = MachineConfiguration()
    ) async throws(MachineError<Definition>) where Definition.Data == Void {
        do {
            let coding = try DurableCoding.make(schema: schema, durability: durability, key: id.description)
            try await self.init(schema: schema, id: id, data: (), coding: coding,
                                settings: MachineSettings.of(configuration, for: schema.storage))
        } catch {
            throw MachineError(.notDurable, machineID: id, cause: error)
        }
    }

    /// Creates a durable machine for a definition without data, kept in `store` with the
    /// default ``Durability``; see ``init(schema:id:data:durability:configuration:)``.
    public init(
        schema: Schema<Definition>, id: ID, store: any MachineStore,
        configuration: MachineConfiguration<State> = MachineConfiguration()
    ) async throws(MachineError<Definition>) where Definition.Data == Void {
        try await self.init(schema: schema, id: id, durability: Durability(store: store), configuration: configuration)
    }
}

extension DurableCoding where Definition.State: Codable, Definition.Event: Codable, Definition.ID: LosslessStringConvertible {
    /// The coding of `schema`'s values, for data that is `Codable`; a schema state the codec
    /// cannot encode is reported against machine `key`.
    static func make(
        schema: Schema<Definition>, durability: Durability<Definition>, key: String
    ) throws(DurabilityError) -> DurableCoding where Definition.Data: Codable {
        let codec = durability.store.codec
        return try make(key: key) {
            try DurableCoding(schema: schema, durability: durability, encodeData: { try codec.encode($0) },
                              decodeData: { try codec.decode(Definition.Data.self, from: $0) })
        }
    }

    /// The coding of `schema`'s values, for a definition without data.
    static func make(
        schema: Schema<Definition>, durability: Durability<Definition>, key: String
    ) throws(DurabilityError) -> DurableCoding where Definition.Data == Void {
        try make(key: key) {
            try DurableCoding(schema: schema, durability: durability, encodeData: { _ in [] }, decodeData: { _ in () },
                              emptyData: ())
        }
    }

    /// Makes a coding with `body`, and hands its schema's description to a store that keeps them.
    private static func make(key: String, _ body: () throws -> DurableCoding) throws(DurabilityError) -> DurableCoding {
        do {
            let coding = try body()
            (coding.durability.store as? any SchemaRecording)?.record(coding.stored)
            return coding
        } catch {
            throw DurabilityError(.undecodable, machine: key, detail: "the schema's states cannot be encoded: \(error)")
        }
    }
}

extension Machine {
    /// A durable machine restored through `coding`, or made with `data` if the store does not
    /// hold it.
    init(
        schema: Schema<Definition>, id: ID, data: Definition.Data, coding: DurableCoding<Definition>,
        settings: MachineSettings<State>, link: ParentLink<Definition>? = nil, generation: UInt64 = 0
    ) async throws(DurabilityError) {
        let key = coding.key(id)
        let recovery = try await Recovery.load(key, coding: coding, schema: schema, data: data)
        if let point = recovery?.point, point.timers.isCancelled {
            await coding.durability.store.release([key])
            throw DurabilityError(.cancelled, machine: key, sequenceNumber: point.sequenceNumber, detail: "its history says why")
        }
        let journal = MachineJournal(coding: coding, key: key, recovery: recovery)
        self.init(schema: schema, id: id, data: data, startingIn: nil, settings: settings, link: link,
                  generation: generation, journal: journal)
        if recovery == nil, let failure = await journal.awaitCreation() {
            stop()
            await coding.durability.store.release([key])
            throw failure
        }
    }
}
