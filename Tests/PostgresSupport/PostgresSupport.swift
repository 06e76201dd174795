import ActorFSM
import ActorFSMDurability
@_spi(Benchmarks) import ActorFSMPostgres
import ActorFSMTesting
import Foundation
import Testing
import TestSupport

/// Enables a test when a PostgreSQL server can start here; otherwise the test is skipped, with
/// the reason printed (`.ci/run` fails if any is skipped).
package let needsPostgres = ConditionTrait.enabled(
    if: TemporaryPostgres.unavailableReason == nil,
    Comment(rawValue: "PostgreSQL skipped: " + (TemporaryPostgres.unavailableReason ?? "")))

/// Runs `body` with a new PostgreSQL server, stopped and removed afterwards, however `body` ends.
/// Not generic: a closure with a result type to infer is slow to type-check.
package func withPostgres(_ body: (TemporaryPostgres) async throws -> Void) async throws {
    let server = try await serverWork { try TemporaryPostgres.start() }
    do {
        try await body(server)
    } catch {
        try await serverWork { server.stop() }
        throw error
    }
    try await serverWork { server.stop() }
}

/// How many servers start or stop at once. Making a cluster takes about a second of CPU, in
/// processes of its own: twenty at once on two cores left this process's threads a tenth of
/// the machine for seconds on end, long enough for tests with time limits to fail.
private let serverPermits = Permits(2)

/// Runs `work`, which starts, stops or restarts a server, off the pool and within
/// ``serverPermits``.
package func serverWork<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    await serverPermits.acquire()
    defer { serverPermits.release() }
    return try await offThePool(work)
}

/// Runs `work`, which blocks for a while (it starts, stops or restarts a server), on a thread of
/// its own: on one of the cooperative pool's few threads it would hold up every other test,
/// and tests with time limits would fail for it.
package func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        // Named like the stores' threads, which tests that count threads leave out.
        let thread = Thread {
            Thread.current.name = "actorfsm-block"
            continuation.resume(with: Result { try work() })
        }
        thread.start()
    }
}

extension PostgresStore {
    /// Ends this node's life now, in the database's clock: another node may take its machines.
    package func expireNode() async throws {
        try await execute("UPDATE actorfsm_nodes SET expires_at = now() - interval '1 second' WHERE node = '\(node)'")
    }
}
