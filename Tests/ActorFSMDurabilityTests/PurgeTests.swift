import ActorFSM
import ActorFSMDurability
import ActorFSMSQLite
import ActorFSMTesting
import Testing
import TestSupport

@Suite(.serialized, .timeLimit(.minutes(3))) struct PurgeTests {
    @Test(arguments: [Duration.zero, .milliseconds(500)])
    func aSQLitePurgeDeletesOnlyFinalMachinesOlderThanItsAge(summaryDelay: Duration) async throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteStore(path: folder.file("jobs.sqlite"), summaryDelay: summaryDelay)
        try await PurgeChecks.aPurgeDeletesOnlyFinalMachinesOlderThanItsAge(store, clock: jobClock())
        store.close()
    }

    @Test func anInMemoryPurgeDeletesOnlyFinalMachinesOlderThanItsAge() async throws {
        try await PurgeChecks.aPurgeDeletesOnlyFinalMachinesOlderThanItsAge(InMemoryStore(), clock: jobClock())
    }

    @Test func aPurgeGoesOnFromWhereAFailedOneStopped() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("jobs.sqlite")
        let store = try SQLiteStore(path: path)
        let clock = jobClock()
        let jobs = try Supervisor(schema: try jobSchema(), durability: Durability<Job>(store: store, wallClock: clock))
        for index in 0..<70 {
            try await jobs.activate(id: "j\(index)", data: Job.Data())
            try await jobs.send(to: "j\(index)", .start)
            try await jobs.send(to: "j\(index)", .finish)
        }
        await jobs.shutdown()
        clock.advance(by: .seconds(60))
        // The store closes under the purge (as a process that ends): what was committed stays.
        let purging = Task { try await store.purge(MachineQuery().olderThan(.seconds(30), clock: clock)) }
        store.close()
        _ = try? await purging.value
        let reopened = try SQLiteStore(path: path)
        let left = try await reopened.purge(MachineQuery().olderThan(.seconds(30), clock: clock))
        #expect(try await reopened.stateCounts().isEmpty, "\(left)")
        #expect(try await reopened.machineIDs().isEmpty)
        reopened.close()
    }
}
