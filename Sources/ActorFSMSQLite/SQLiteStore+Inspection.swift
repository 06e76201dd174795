@_spi(Stores) import ActorFSMDurability

extension SQLiteStore: StoreInspection, SchemaRecording, PassivationRecording, MachinePurging {
    /// Every schema that has written to the store.
    public func storedSchemas() async throws(StoreError) -> [StoredSchema] {
        try await inspect { connection throws(StoreError) in try connection.storedSchemas() }
    }

    /// How many machines are in each state, per schema.
    public func stateCounts() async throws(StoreError) -> [StateCount] {
        try await inspect { connection throws(StoreError) in try connection.stateCounts() }
    }

    /// One page of the machines `query` lets through, through the state and status indexes.
    public func machines(_ query: MachineQuery) async throws(StoreError) -> MachinePage {
        try await inspect { connection throws(StoreError) in try connection.machines(query) }
    }

    /// The machine with key `id`, if the store holds it.
    public func machine(_ id: String) async throws(StoreError) -> StoredMachine? {
        try await inspect { connection throws(StoreError) in try connection.machine(id) }
    }

    /// Machines whose summary changed after change number `change`, in order.
    public func changes(after change: Int64, limit: Int) async throws(StoreError) -> [StoredMachine] {
        try await inspect { connection throws(StoreError) in try connection.changes(after: change, limit: limit) }
    }

    /// Deletes the journals of those of `machines` still ended at the entries given (and their
    /// summaries, or, `keepingSummaries`, marks those purged), in one
    /// transaction on the store's thread; see `MachinePurging`.
    public func deleteJournals(
        of machines: [(id: String, sequenceNumber: UInt64)], keepingSummaries: Bool
    ) async throws(StoreError) -> [String] {
        try await read { connection throws(StoreError) in
            guard let summaries = connection.summaries else { throw StoreError("the store \(connection.path) keeps no summaries to purge by") }
            return try summaries.deleteJournals(of: machines, keepingSummaries: keepingSummaries)
        }
    }

    /// Marks `machines` passivated, on the store's thread after the writes queued before.
    public func recordPassivated(_ machines: [(id: String, sequenceNumber: UInt64)]) {
        _ = thread.submit(.run { $0.summaries?.markPassivated(machines) })
    }

    /// Keeps `schema`'s description, written on the store's thread before any later write.
    public func record(_ schema: StoredSchema) {
        _ = thread.submit(.run { $0.summaries?.record(schema) })
    }
}

extension SQLiteStore {
    /// Runs `sql` on the store's thread, after the writes queued before it (benchmarks fill
    /// the summary table with it).
    @_spi(Benchmarks) public func execute(_ sql: String) async throws(StoreError) {
        try await inspect { connection throws(StoreError) in try connection.execute(sql) }
    }
}
