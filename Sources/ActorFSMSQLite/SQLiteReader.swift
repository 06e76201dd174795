import ActorFSM
@_spi(Stores) import ActorFSMDurability

/// A SQLite store opened for reading only, beside the process that writes it: it takes no
/// lock the writer needs, and sees each commit once it is made.
///
/// ```swift
/// let store = try SQLiteReader(path: "orders.sqlite")
/// for count in try await store.stateCounts() { print(count.state, count.count) }
/// ```
///
/// Its queries run on a thread of its own, like the store's. It sees each machine's summary
/// up to the writing store's `summaryDelay` after the entry's commit, never before it. A store
/// left by a crash with summaries waiting, which no process writes now, gets them from its
/// journal when a reader opens it: the reader then holds the store's lock for as long as that
/// takes (a scan of the journal), and a `SQLiteStore` opened meanwhile is refused with
/// `isLocked`, as beside any other holder.
public final class SQLiteReader: StoreInspection {
    /// The database file.
    public let path: String
    private let thread: StoreThread<StoreOperation<SQLiteConnection>>

    /// Opens the store at `path` for reading.
    ///
    /// - Throws: `StoreError` if the file is missing or is not a store SQLite can read.
    public init(path: String) throws(StoreError) {
        self.path = path
        let opened = try SQLiteConnection(path: path, readOnly: true)
        if opened.summariesLag() {
            Self.catchUpIfUnwritten(path)
        }
        let connection = Confined(opened)
        thread = StoreThread(name: "sqlite reader \(path)") { batch in
            StoreThread.perform(batch, on: connection.value) { writes in
                Array(repeating: StoreError("a reader does not write"), count: writes.count)
            }
        }
    }

    deinit { close() }

    /// Opens the store for writing, which brings its waiting summaries up to date, unless a
    /// process writes it (and so writes them within its delay) or the file cannot be written.
    private static func catchUpIfUnwritten(_ path: String) {
        guard let lock = try? FileLock(path: path + "-lock", guarding: path) else { return }
        defer { lock.release() }
        (try? SQLiteConnection(path: path))?.close()
    }

    /// Closes the database.
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

    /// Machines whose summary changed after change number `change`, in order.
    public func changes(after change: Int64, limit: Int) async throws(StoreError) -> [StoredMachine] {
        try await read { connection throws(StoreError) in try connection.changes(after: change, limit: limit) }
    }

    /// Every entry of `machine`, oldest first.
    public func entries(of machine: String) async throws(StoreError) -> [JournalEntry] {
        try await read { connection throws(StoreError) in try connection.entries(of: machine, newest: nil) }
    }

    private func read<Value: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws(StoreError) -> Value
    ) async throws(StoreError) -> Value {
        try await thread.run(closed: StoreError("the reader of \(path) is closed"), body)
    }
}
