import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting
import Testing
import PostgresTestSupport
import TestSupport

/// The shared store keeps the store contract, fencing against a second instance included.
@Suite(.timeLimit(.minutes(4))) struct PostgresConformanceTests {
    @Test(needsPostgres) func thePostgresStoreKeepsTheContract() async throws {
        try await withPostgres(checkPostgres)
    }

    private func checkPostgres(on server: TemporaryPostgres) async throws {
        let url = server.url
        let conformance = StoreConformance(
            makeStore: { try PostgresStore(url: url) },
            reopen: { store in
                (store as! PostgresStore).close()
                return try PostgresStore(url: url)
            },
            peer: { _ in try PostgresStore(url: url) })
        try await conformance.verify()
    }
}
