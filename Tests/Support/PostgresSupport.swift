import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting
import Testing

/// Enables a test when a PostgreSQL server can start here; otherwise the test is skipped, with
/// the reason printed (`.ci/run` fails if any is skipped).
package let needsPostgres = ConditionTrait.enabled(
    if: TemporaryPostgres.unavailableReason == nil,
    Comment(rawValue: "PostgreSQL skipped: " + (TemporaryPostgres.unavailableReason ?? "")))

/// Runs `body` with a new PostgreSQL server, stopped and removed afterwards, however `body` ends.
/// Not generic: a closure with a result type to infer is slow to type-check.
package func withPostgres(_ body: (TemporaryPostgres) async throws -> Void) async throws {
    let server = try TemporaryPostgres.start()
    defer { server.stop() }
    try await body(server)
}

extension PostgresStore {
    /// Ends this node's life now, in the database's clock: another node may take its machines.
    package func expireNode() async throws {
        try await execute("UPDATE actorfsm_nodes SET expires_at = now() - interval '1 second' WHERE node = '\(node)'")
    }
}
