@_spi(Stores) import ActorFSMDurability

extension PostgresStore: StoreInspection, SchemaRecording, PassivationRecording {
    /// Every schema that has written to the store's namespace.
    public func storedSchemas() async throws(StoreError) -> [StoredSchema] {
        try await inspect { database throws(StoreError) in try database.connection.storedSchemas() }
    }

    /// How many machines are in each state, per schema.
    public func stateCounts() async throws(StoreError) -> [StateCount] {
        try await inspect { database throws(StoreError) in try database.connection.stateCounts() }
    }

    /// One page of the machines `query` lets through, through the state and status indexes.
    public func machines(_ query: MachineQuery) async throws(StoreError) -> MachinePage {
        try await inspect { database throws(StoreError) in try database.connection.machines(query) }
    }

    /// The machine with key `id`, if the store holds it.
    public func machine(_ id: String) async throws(StoreError) -> StoredMachine? {
        try await inspect { database throws(StoreError) in try database.connection.machine(id) }
    }

    /// Machines whose summary changed after change number `change`, in the order of their
    /// numbers. Numbers come from a sequence, so a transaction may commit a lower number after
    /// a higher one is read: `ChangeFollower` reads a window of numbers again for them.
    public func changes(after change: Int64, limit: Int) async throws(StoreError) -> [StoredMachine] {
        try await inspect { database throws(StoreError) in try database.connection.changes(after: change, limit: limit) }
    }

    /// Marks `machines` passivated, on the store's thread after the writes queued before; only
    /// those whose lease this process still holds.
    public func recordPassivated(_ machines: [(id: String, sequenceNumber: UInt64)]) {
        _ = thread.submit(.run { database in try? database.markPassivated(machines) })
    }

    /// Keeps `schema`'s description, written on the store's thread before any later write.
    public func record(_ schema: StoredSchema) {
        _ = thread.submit(.run { $0.record(schema) })
    }

    /// Runs `body` on the store's thread, after the writes queued before it, once the waiting
    /// summaries are written, this process's and those dead processes left.
    func inspect<Value: Sendable>(
        _ body: @escaping @Sendable (PostgresDatabase) throws(StoreError) -> Value
    ) async throws(StoreError) -> Value {
        if try await run({ database throws(StoreError) in try database.connection.hasDeadSummaryWriters() }) {
            await catchUp.run()
        }
        return try await run { database throws(StoreError) in
            try database.summaries.flush(on: database.connection, node: database.node)
            return try body(database)
        }
    }
}
