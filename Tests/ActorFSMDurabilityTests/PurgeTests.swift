import ActorFSM
import ActorFSMDurability
import ActorFSMSQLite
import ActorFSMTesting
import Testing
import TestSupport

@Suite(.serialized, .timeLimit(.minutes(6))) struct PurgeTests {
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

    @Test func aPurgeThatKeepsSummariesLeavesThemPurgedInSQLiteAndInMemory() async throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteStore(path: folder.file("jobs.sqlite"))
        try await PurgeChecks.aPurgeThatKeepsSummariesLeavesThemPurged(store, clock: jobClock())
        store.close()
        try await PurgeChecks.aPurgeThatKeepsSummariesLeavesThemPurged(InMemoryStore(), clock: jobClock())
    }

    @Test func aPurgeGoesOnFromWhereAFailedOneStopped() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("jobs.sqlite")
        let store = try SQLiteStore(path: path)
        let clock = jobClock()
        let jobs = try Supervisor(schema: try jobSchema(), durability: Durability<Job>(store: store, wallClock: clock))
        try await PurgeChecks.finishJobs((0..<70).map { "j\($0)" }, in: jobs)
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

    @Test func aPurgeDuringAnOutageFailsWholeAndSucceedsOnceTheStoreIsBack() async throws {
        let store = InMemoryStore()
        let clock = jobClock()
        let jobs = try Supervisor(schema: try jobSchema(), durability: Durability<Job>(store: store, wallClock: clock))
        try await PurgeChecks.finishJobs((0..<70).map { "j\($0)" }, in: jobs)
        try await jobs.activate(id: "running", data: Job.Data())
        try await jobs.send(to: "running", .start)
        clock.advance(by: .seconds(60))
        let aged = MachineQuery().olderThan(.seconds(30), clock: clock)

        store.beginOutage(StoreError("the disk is gone"))
        await #expect(throws: StoreError.self) { try await store.purge(aged) }
        store.endOutage()
        #expect(try await store.machineIDs().count == 71)
        #expect(await SummaryAudit.disagreements(in: store).isEmpty)

        #expect(try await store.purge(aged).purged == 70)
        #expect(try await store.machineIDs() == ["running"])
        try await jobs.send(to: "running", .finish)
        #expect(try await store.machine("running")?.summary.status == .final)
        #expect(await SummaryAudit.disagreements(in: store).isEmpty)
        await jobs.shutdown()
    }
}
