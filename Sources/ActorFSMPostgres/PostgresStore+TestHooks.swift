@_spi(Stores) import ActorFSMDurability

// What the package's tests do to a store beside its public API: run SQL on its connection, and
// play a process that wakes up from a pause.

extension PostgresStore {
    /// Runs `sql` on the store's thread (tests use it to play a process whose time ran out).
    @_spi(Benchmarks) public func execute(_ sql: String) async throws(StoreError) {
        try await inspect { database throws(StoreError) in try database.connection.execute(sql) }
    }

    /// The integer the query `sql` returns (tests count rows with it).
    package func integer(_ sql: String) async throws(StoreError) -> Int64 {
        try await run { database throws(StoreError) in try database.connection.query(sql).integer(0, 0) }
    }

    /// Renews this node's life now, as the store's next tick would, also after ``pause()``: a
    /// paused process that wakes up.
    package func renewNow() async throws(StoreError) {
        try await run { database throws(StoreError) in try database.renew() }
    }

    /// Stops the store as a killed process stops: the work queued is done, but no waiting
    /// summary is written and the node's life is not ended; its machines are taken over once
    /// its life runs out.
    package func abandon() {
        forwarding.withLock { forwarding in
            forwarding?.close()
            forwarding = nil
        }
        listener.close()
        thread.close(after: .run { $0.connection.close() })
    }
}
