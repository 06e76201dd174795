import ActorFSM
@_spi(Stores) import ActorFSMDurability

/// A PostgreSQL store opened for reading only: one connection whose transactions are read-only, that
/// takes no lease and registers no node, so it runs beside the processes that write. Before it
/// answers, it makes again, on a second connection, the summaries that a process which died
/// left waiting (see `PostgresStore`); if its role may not write, it answers from the summaries
/// as they are, and tries again a minute later.
///
/// ```swift
/// let store = try PostgresReader(url: "postgresql://orders@db.internal/orders", namespace: "orders")
/// for count in try await store.stateCounts() { print(count.state, count.count) }
/// ```
public final class PostgresReader: StoreInspection {
    /// Where it reads, without the password.
    public let target: String
    private let thread: StoreThread<StoreOperation<PostgresConnection>>
    /// Makes the summaries that dead processes left waiting before a query reads them.
    private let catchUp: SummaryCatchUp

    /// Connects to `url` for reading the store in `namespace` (the connection's search path if `nil`).
    ///
    /// - Throws: `StoreError` if the database cannot be reached or `namespace` is not a schema name.
    public init(url: String, namespace: String? = nil) throws(StoreError) {
        if let namespace, !PostgresStore.isIdentifier(namespace) {
            throw StoreError("the namespace \"\(namespace)\" is not a schema name: "
                             + "give 1 to 63 lowercase letters, digits and underscores, not starting with a digit")
        }
        let connection = try PostgresConnection(url: url, searchPath: namespace, readOnly: true)
        catchUp = SummaryCatchUp(url: url, namespace: namespace)
        target = connection.target
        let confined = Confined(connection)
        thread = StoreThread(name: "postgres reader") { batch in
            StoreThread.perform(batch, on: confined.value) { writes in
                Array(repeating: StoreError("a reader does not write"), count: writes.count)
            }
        }
    }

    deinit { close() }

    /// Disconnects.
    public func close() {
        thread.close(after: .run { $0.close() })
    }

    /// Every schema that has written to the store.
    public func storedSchemas() async throws(StoreError) -> [StoredSchema] {
        try await read { connection throws(StoreError) in try connection.storedSchemas() }
    }

    /// How many machines are in each state, per schema.
    public func stateCounts() async throws(StoreError) -> [StateCount] {
        try await read { connection throws(StoreError) in try connection.stateCounts() }
    }

    /// One page of the machines `query` lets through.
    public func machines(_ query: MachineQuery) async throws(StoreError) -> MachinePage {
        try await read { connection throws(StoreError) in try connection.machines(query) }
    }

    /// The machine with key `id`, if the store holds it.
    public func machine(_ id: String) async throws(StoreError) -> StoredMachine? {
        try await read { connection throws(StoreError) in try connection.machine(id) }
    }

    /// Machines whose summary changed after change number `change`, in the order of their numbers.
    public func changes(after change: Int64, limit: Int) async throws(StoreError) -> [StoredMachine] {
        try await read { connection throws(StoreError) in try connection.changes(after: change, limit: limit) }
    }

    /// Every entry of `machine`, oldest first.
    public func entries(of machine: String) async throws(StoreError) -> [JournalEntry] {
        try await read { connection throws(StoreError) in try connection.allEntries(of: machine) }
    }

    /// Runs `body` once the summaries that dead processes left waiting are made again (on a
    /// connection that writes; if the reader's role may not write, it reads them as they are).
    private func read<Value: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws(StoreError) -> Value
    ) async throws(StoreError) -> Value {
        if (try? await attempt({ connection throws(StoreError) in try connection.hasDeadSummaryWriters() })) == true {
            await catchUp.run()
        }
        return try await attempt(body)
    }

    private func attempt<Value: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws(StoreError) -> Value
    ) async throws(StoreError) -> Value {
        try await thread.run(closed: StoreError("the reader of \(target) is closed")) { connection throws(StoreError) in
            do throws(StoreError) {
                return try body(connection)
            } catch {
                // A connection that could not be made again just now is not tried a third time.
                if error.description.hasPrefix("lost the connection") { throw error }
                // A database that restarted dropped the connection, which libpq may notice only
                // a statement later: read once more, on a new connection. A read changes nothing,
                // so reading twice is safe; an error that is not the connection's comes again.
                connection.reset()
                return try body(connection)
            }
        }
    }
}
