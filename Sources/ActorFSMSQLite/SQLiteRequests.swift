import ActorFSM
@_spi(Stores) import ActorFSMDurability

/// The operators' requests of a SQLite store that another process holds: what the `actorfsm`
/// command submits, for the application's durable supervisors to carry out, and whose answers
/// it reads. It writes the requests' table only, never the journal, so it needs no lock.
///
/// ```swift
/// let requests = try SQLiteRequests(path: "orders.sqlite")
/// let number = try await requests.submit(OperatorRequest(machine: "1042", schema: "OrderWorkflow", verb: .pause,
///                                                        reason: "the address needs a check", time: now))
/// ```
public final class SQLiteRequests: OperatorRequestQueue {
    /// The database file.
    public let path: String
    private let thread: StoreThread<StoreOperation<SQLiteConnection>>

    /// Opens the store at `path`, which must be an actorfsm store, for its requests.
    ///
    /// - Throws: `StoreError` if the file is missing, is not a store, or cannot be written.
    public init(path: String) throws(StoreError) {
        self.path = path
        let connection = Confined(try SQLiteConnection(requestsAt: path))
        thread = StoreThread(name: "sqlite requests \(path)") { batch in
            StoreThread.perform(batch, on: connection.value) { writes in
                Array(repeating: StoreError("requests write no journal"), count: writes.count)
            }
        }
    }

    deinit { close() }

    /// Whether a process holds the store at `path` as its writer (its lock is taken), and so may
    /// take requests: a look that takes the lock for a moment when nobody holds it (a process
    /// opening the store in that moment is refused, as beside any other opener).
    public static func hasWriter(at path: String) -> Bool {
        guard let lock = try? FileLock(path: path + "-lock", guarding: path) else { return true }
        lock.release()
        return false
    }

    /// Closes the database.
    public func close() {
        thread.close(after: .run { $0.close() })
    }

    /// Queues `request`; see `OperatorRequestQueue.submit(_:)`.
    public func submit(_ request: OperatorRequest) async throws(StoreError) -> Int64 {
        try await run { connection throws(StoreError) in try connection.submit(request) }
    }

    /// Where a request is; see `OperatorRequestQueue.progress(ofRequest:)`.
    public func progress(ofRequest number: Int64) async throws(StoreError) -> OperatorRequestProgress {
        try await run { connection throws(StoreError) in try connection.progress(ofRequest: number) }
    }

    /// Removes a request not taken yet; see `OperatorRequestQueue.withdraw(request:)`.
    public func withdraw(request number: Int64) async throws(StoreError) -> Bool {
        try await run { connection throws(StoreError) in try connection.withdraw(request: number) }
    }

    /// Takes waiting requests; see `OperatorRequestQueue.takeRequests(forSchema:limit:)`.
    public func takeRequests(forSchema schema: String, limit: Int) async throws(StoreError) -> [OperatorRequest] {
        let now = SystemWallClock().nanosecondsSince1970() / 1_000_000
        return try await run { connection throws(StoreError) in
            try connection.takeRequests(forSchema: schema, limit: limit, taker: "requests of \(connection.path)", now: now)
        }
    }

    /// Records an answer; see `OperatorRequestQueue.answer(request:succeeded:message:)`.
    public func answer(request number: Int64, succeeded: Bool, message: String) async throws(StoreError) {
        let now = SystemWallClock().nanosecondsSince1970() / 1_000_000
        try await run { connection throws(StoreError) in
            try connection.answer(request: number, succeeded: succeeded, message: message, now: now)
        }
    }

    private func run<Value: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection) throws(StoreError) -> Value
    ) async throws(StoreError) -> Value {
        try await thread.run(closed: StoreError("the requests of \(path) are closed"), body)
    }
}
