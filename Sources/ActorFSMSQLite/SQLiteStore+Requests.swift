import ActorFSMDurability

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The store carries operators' requests: the `actorfsm` command writes them beside this
/// process (through `SQLiteRequests`), and its durable supervisors take and answer them.
extension SQLiteStore: OperatorRequestQueue {
    /// Queues `request`; see `OperatorRequestQueue.submit(_:)`.
    public func submit(_ request: OperatorRequest) async throws(StoreError) -> Int64 {
        try await read { connection throws(StoreError) in try connection.submit(request) }
    }

    /// Where a request is; see `OperatorRequestQueue.progress(ofRequest:)`.
    public func progress(ofRequest number: Int64) async throws(StoreError) -> OperatorRequestProgress {
        try await read { connection throws(StoreError) in try connection.progress(ofRequest: number) }
    }

    /// Removes a request not taken yet; see `OperatorRequestQueue.withdraw(request:)`.
    public func withdraw(request number: Int64) async throws(StoreError) -> Bool {
        try await read { connection throws(StoreError) in try connection.withdraw(request: number) }
    }

    /// Takes waiting requests for machines of `schema`: this process writes every machine of
    /// the store. See `OperatorRequestQueue.takeRequests(forSchema:limit:)`.
    public func takeRequests(forSchema schema: String, limit: Int) async throws(StoreError) -> [OperatorRequest] {
        let taker = "pid \(getpid())"
        let now = SystemWallClock().nanosecondsSince1970() / 1_000_000
        return try await read { connection throws(StoreError) in
            try connection.takeRequests(forSchema: schema, limit: limit, taker: taker, now: now)
        }
    }

    /// Records an answer; see `OperatorRequestQueue.answer(request:succeeded:message:)`.
    public func answer(request number: Int64, succeeded: Bool, message: String) async throws(StoreError) {
        let now = SystemWallClock().nanosecondsSince1970() / 1_000_000
        try await read { connection throws(StoreError) in
            try connection.answer(request: number, succeeded: succeeded, message: message, now: now)
        }
    }
}
