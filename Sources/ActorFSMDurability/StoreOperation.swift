import ActorFSM

/// What a store's thread is handed: a write, committed together with the writes queued beside
/// it, or work that needs the store's connection, run in order after the writes before it.
package enum StoreOperation<Connection>: Sendable {
    case write(JournalWrite, @Sendable (StoreError?) -> Void)
    case run(@Sendable (Connection) -> Void)
}

extension StoreThread {
    /// Performs `batch` on `connection`: each run of consecutive writes is committed by one call
    /// of `commit`, which returns each write's error (`nil` once durable), and the work between
    /// them runs in order.
    package static func perform<Connection>(
        _ batch: [StoreOperation<Connection>], on connection: Connection,
        commit: ([JournalWrite]) -> [StoreError?]
    ) where Work == StoreOperation<Connection> {
        var writes: [JournalWrite] = []
        var completions: [@Sendable (StoreError?) -> Void] = []
        func flush() {
            guard !writes.isEmpty else { return }
            for (completion, result) in zip(completions, commit(writes)) { completion(result) }
            writes = []
            completions = []
        }
        for operation in batch {
            switch operation {
            case .write(let write, let completion):
                writes.append(write)
                completions.append(completion)
            case .run(let body):
                flush()
                body(connection)
            }
        }
        flush()
    }

    /// Queues `write`; once the thread is closed, answers `closed` from a task (callers of
    /// ``MachineStore/append(_:completion:)`` hold a lock around it).
    package func append<Connection>(
        _ write: JournalWrite, completion: @escaping @Sendable (StoreError?) -> Void, closed: @autoclosure () -> StoreError
    ) where Work == StoreOperation<Connection> {
        if !submit(.write(write, completion)) {
            let error = closed()
            Task.detached { completion(error) }
        }
    }

    /// Runs `body` on the thread, after the writes queued before it, and returns its value;
    /// `closed` if the thread is closed.
    package func run<Connection, Value: Sendable>(
        closed: @autoclosure () -> StoreError, _ body: @escaping @Sendable (Connection) throws(StoreError) -> Value
    ) async throws(StoreError) -> Value where Work == StoreOperation<Connection> {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, StoreError>, Never>) in
            let submitted = submit(.run { connection in
                do throws(StoreError) {
                    continuation.resume(returning: .success(try body(connection)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            })
            if !submitted { continuation.resume(returning: .failure(closed())) }
        }
        return try result.get()
    }
}
