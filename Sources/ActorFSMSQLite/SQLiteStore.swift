import ActorFSM

/// The embedded default ``MachineStore``: a SQLite database file in WAL mode, each commit
/// fsynced, written by one process at a time.
///
/// ```swift
/// let store = try SQLiteStore(path: "orders.sqlite")
/// let orders = try Supervisor(schema: orderSchema, durability: Durability(store: store))
/// ```
///
/// **Threads.** Every SQLite call runs on a thread of the store's own, never on Swift's
/// cooperative pool: a slow disk delays acknowledgements, not other work. Writes queued while
/// a commit is in progress are committed together (group commit): one transaction, one fsync.
///
/// **One process.** Opening takes an exclusive lock on `<path>-lock`; a second opener (another
/// process, or this one again) gets a ``StoreError`` whose `isLocked` is `true`, naming the
/// holder's process id. The lock ends with the process, however it ends.
///
/// **Torn writes.** A commit is atomic: SQLite's write-ahead log checksums its frames and
/// drops a partly written transaction at the next open. Each entry also carries the machine's
/// own CRC-32, so damage that SQLite cannot see is reported at recovery, never applied.
public final class SQLiteStore: MachineStore {
    private enum Operation: Sendable {
        case write(JournalWrite, @Sendable (StoreError?) -> Void)
        case read(@Sendable (SQLiteConnection) -> Void)
    }

    /// The codec machines encode their values with.
    public let codec: any DurableCodec
    /// The database file.
    public let path: String
    private let thread: StoreThread<Operation>
    private let lock: FileLock

    /// Opens the store at `path`, creating it if need be.
    ///
    /// - Throws: ``StoreError`` if another process (or another `SQLiteStore` here) has it open,
    ///   or if SQLite cannot open or set it up.
    public init(path: String, codec: any DurableCodec = JSONCodec()) throws(StoreError) {
        self.codec = codec
        self.path = path
        lock = try FileLock(path: path + "-lock", guarding: path)
        let connection = Confined(try SQLiteConnection(path: path))
        thread = StoreThread(name: "sqlite \(path)") { batch in
            Self.perform(batch, on: connection.value)
        }
    }

    deinit { close() }

    /// Commits what is queued, closes the database and lets another process open it.
    public func close() {
        thread.close(after: .read { $0.close() })
        lock.release()
    }

    private static func perform(_ batch: [Operation], on connection: SQLiteConnection) {
        var writes: [JournalWrite] = []
        var completions: [@Sendable (StoreError?) -> Void] = []
        func commit() {
            guard !writes.isEmpty else { return }
            var failure: StoreError?
            do { try connection.commit(writes) } catch { failure = error }
            for completion in completions { completion(failure) }
            writes = []
            completions = []
        }
        for operation in batch {
            switch operation {
            case .write(let write, let completion):
                writes.append(write)
                completions.append(completion)
            case .read(let body):
                commit()
                body(connection)
            }
        }
        commit()
    }

    /// Queues `write`; see ``MachineStore/append(_:completion:)``.
    public func append(_ write: JournalWrite, completion: @escaping @Sendable (StoreError?) -> Void) {
        if !thread.submit(.write(write, completion)) {
            // Closed: answer from elsewhere, since callers hold a lock around `append`.
            Task.detached { completion(StoreError("the store \(self.path) is closed")) }
        }
    }

    /// The newest `count` entries of `machine`, newest first.
    public func latestEntries(of machine: String, count: Int) async throws(StoreError) -> [JournalEntry] {
        try await read { connection throws(StoreError) in try connection.entries(of: machine, newest: count) }
    }

    /// The newest `count` entries of each of `machines`, newest first, read in one turn of the
    /// store's thread.
    public func latestEntries(of machines: [String], count: Int) async throws(StoreError) -> [String: [JournalEntry]] {
        try await read { connection throws(StoreError) in
            var entries: [String: [JournalEntry]] = [:]
            for machine in machines { entries[machine] = try connection.entries(of: machine, newest: count) }
            return entries
        }
    }

    /// Every entry of `machine`, oldest first.
    public func entries(of machine: String) async throws(StoreError) -> [JournalEntry] {
        try await read { connection throws(StoreError) in try connection.entries(of: machine, newest: nil) }
    }

    /// The ids of every machine with an entry.
    public func machineIDs() async throws(StoreError) -> [String] {
        try await read { connection throws(StoreError) in try connection.machineIDs() }
    }

    private func read<Value: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws(StoreError) -> Value
    ) async throws(StoreError) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, StoreError>, Never>) in
            let submitted = thread.submit(.read { connection in
                do throws(StoreError) {
                    continuation.resume(returning: .success(try body(connection)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            })
            if !submitted { continuation.resume(returning: .failure(StoreError("the store \(path) is closed"))) }
        }
        return try result.get()
    }
}

extension SQLiteStore {
    /// A value only the store's thread touches (after `init` made it, before the thread started).
    struct Confined<Value>: @unchecked Sendable {
        // @unchecked Sendable is sound: the store hands the connection to exactly one thread,
        // its StoreThread, and touches it nowhere else after starting that thread.
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}
