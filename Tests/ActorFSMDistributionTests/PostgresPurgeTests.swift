import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting
import Testing
import PostgresTestSupport
import TestSupport

// The limit leaves room for the thread sanitizer, beside the other PostgreSQL suites.
@Suite(.serialized, needsPostgres, .timeLimit(.minutes(4))) struct PostgresPurgeTests {
    @Test(arguments: [Duration.zero, .milliseconds(500)])
    func aPostgresPurgeDeletesOnlyFinalMachinesOlderThanItsAge(summaryDelay: Duration) async throws {
        try await withPostgres { server in
            let store = try PostgresStore(url: server.url, summaryDelay: summaryDelay)
            try await PurgeChecks.aPurgeDeletesOnlyFinalMachinesOlderThanItsAge(store, clock: jobClock())
            store.close()
        }
    }

    @Test func aPostgresPurgeThatKeepsSummariesLeavesThemPurged() async throws {
        try await withPostgres { server in
            let store = try PostgresStore(url: server.url, summaryDelay: .zero)
            try await PurgeChecks.aPurgeThatKeepsSummariesLeavesThemPurged(store, clock: jobClock())
            store.close()
        }
    }

    /// The database dies under a purge: the batches it committed stay purged, none half, and a
    /// purge once it is back (its first statement may find the connection lost) finishes the job.
    @Test func aPurgeCutByADatabaseRestartGoesOnOnceTheDatabaseIsBack() async throws {
        try await withPostgres { server in
            let clock = jobClock()
            let store = try PostgresStore(url: server.url, leaseDuration: .seconds(600))
            let jobs = try Supervisor(schema: try jobSchema(), durability: Durability<Job>(store: store, wallClock: clock))
            try await jobs.activate(id: "idle", data: Job.Data())
            try await PurgeChecks.finishJobs((0..<100).map { "j\($0)" }, in: jobs)
            await jobs.shutdown()
            clock.advance(by: .seconds(60))
            let aged = MachineQuery().olderThan(.seconds(30), clock: clock)
            let cut = Task { try await store.purge(aged) }
            try await serverWork { try server.kill() }
            _ = await cut.result
            try await serverWork { try server.restart() }
            var finished: PurgeReport?
            for _ in 0..<3 where finished == nil { finished = try? await store.purge(aged) }
            #expect(finished != nil)
            #expect(try await store.counts(of: JobChecks.fingerprintOfJobs) == ["queued": 1])
            #expect(try await store.entries(of: "idle").count == 1)
            let ids = Set(try await store.machineIDs())
            #expect(ids == ["idle"])
            store.close()
        }
    }
}
