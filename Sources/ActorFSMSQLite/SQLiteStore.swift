import ActorFSM
@_spi(Stores) import ActorFSMDurability

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The embedded default `MachineStore`: a SQLite database file in WAL mode, each commit
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
/// process, or this one again) gets a `StoreError` whose `isLocked` is `true`, naming the
/// holder's process id. The lock ends with the process, however it ends.
///
/// **Summaries.** Each machine's summary (state, status, times), which `actorfsm`, the web
/// inspector and `StoreInspection` queries read, is written at most `summaryDelay` after the
/// commit of its entry, the newest per machine, so that a machine that moves many times within
/// the delay costs one row write. Queries through the store itself write the waiting summaries
/// first and see every commit; a ``SQLiteReader`` sees them up to the delay late, never ahead of
/// the journal. After a crash, opening the store (or a reader, when no process writes it)
/// rewrites the summaries that waited, before anything reads them.
///
/// **Torn writes.** A commit is atomic: SQLite's write-ahead log checksums its frames and
/// drops a partly written transaction at the next open. Each entry also carries the machine's
/// own CRC-32, so damage that SQLite cannot see is reported at recovery, never applied.
public final class SQLiteStore: MachineStore {
    /// The codec machines encode their values with.
    public let codec: any DurableCodec
    /// The database file.
    public let path: String
    let thread: StoreThread<StoreOperation<SQLiteConnection>>
    private let lock: FileLock

    /// Opens the store at `path`, creating it if need be, or, with `mustExist`, only a store
    /// that is there already.
    ///
    /// A process that restarts after a crash should pass `mustExist: true`: a file that was
    /// deleted, emptied or not mounted then stops it with an error, where it would otherwise
    /// start afresh on an empty store and forget every machine.
    ///
    /// - Parameters:
    ///   - path: the database file.
    ///   - codec: how machines encode their values; JSON by default.
    ///   - mustExist: whether to refuse a file that is missing or empty.
    ///   - summaryDelay: how long a machine's summary may wait after its entry's commit; zero
    ///     writes it in that commit, at the cost of a row write per transition.
    /// - Throws: `StoreError` if another process (or another `SQLiteStore` here) has it open,
    ///   if `mustExist` and the file is missing or empty, or if SQLite cannot open or set it up.
    public convenience init(
        path: String, codec: any DurableCodec = JSONCodec(), mustExist: Bool = false,
        summaryDelay: Duration = .milliseconds(500)
    ) throws(StoreError) {
        try self.init(path: path, codec: codec, mustExist: mustExist, summaries: summaryDelay)
    }

    /// Opens the store at `path` without summaries: the journal alone, whose cost benchmarks
    /// set beside the store's. Inspection queries on it fail.
    @_spi(Benchmarks) public convenience init(journalAloneAt path: String) throws(StoreError) {
        try self.init(path: path, codec: JSONCodec(), mustExist: false, summaries: nil)
    }

    private init(path: String, codec: any DurableCodec, mustExist: Bool, summaries summaryDelay: Duration?) throws(StoreError) {
        self.codec = codec
        self.path = path
        if mustExist {
            var status = stat()
            guard stat(path, &status) == 0, status.st_size > 0 else {
                throw StoreError("the store \(path) is missing or empty, and mustExist was given: restore the file "
                                 + "from a backup, or open it without mustExist to start an empty store")
            }
        }
        lock = try FileLock(path: path + "-lock", guarding: path)
        let connection = Confined(try SQLiteConnection(path: path, summaryDelay: summaryDelay))
        let flush: @Sendable () -> Void = { connection.value.summaries?.flush() }
        let tick = summaryDelay.flatMap { delay in delay > .zero ? (interval: delay, body: flush) : nil }
        thread = StoreThread(name: "sqlite \(path)", tick: tick) { batch in
            StoreThread.perform(batch, on: connection.value) { writes in
                do throws(StoreError) {
                    try connection.value.commit(writes)
                    return Array(repeating: nil, count: writes.count)
                } catch {
                    return Array(repeating: error, count: writes.count)
                }
            }
        }
    }

    deinit { close() }

    /// Commits what is queued, closes the database and lets another process open it.
    public func close() {
        thread.close(after: .run { $0.close() })
        lock.release()
    }

    /// Queues `write`; see `MachineStore/append(_:completion:)`.
    public func append(_ write: JournalWrite, completion: @escaping @Sendable (StoreError?) -> Void) {
        thread.append(write, completion: completion, closed: StoreError("the store \(path) is closed"))
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

    /// Runs `body` on the store's thread once the waiting summaries are written.
    func inspect<Value: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws(StoreError) -> Value
    ) async throws(StoreError) -> Value {
        try await read { connection throws(StoreError) in
            if let failure = connection.summaries?.flush() { throw failure }
            return try body(connection)
        }
    }

    func read<Value: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws(StoreError) -> Value
    ) async throws(StoreError) -> Value {
        try await thread.run(closed: StoreError("the store \(path) is closed"), body)
    }
}
