import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting
import Testing
import PostgresTestSupport
import TestSupport

@Suite(.serialized, needsPostgres, .timeLimit(.minutes(2))) struct PostgresPurgeTests {
    @Test(arguments: [Duration.zero, .milliseconds(500)])
    func aPostgresPurgeDeletesOnlyFinalMachinesOlderThanItsAge(summaryDelay: Duration) async throws {
        try await withPostgres { server in
            let store = try PostgresStore(url: server.url, summaryDelay: summaryDelay)
            try await PurgeChecks.aPurgeDeletesOnlyFinalMachinesOlderThanItsAge(store, clock: jobClock())
            store.close()
        }
    }
}
