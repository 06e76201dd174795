import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing

/// What every store that purges must do, on jobs of ``jobSchema()``: 70 done at 0 s (more
/// than the first batch), 3 done at 60 s, one still queued and one failed at 0 s.
package enum PurgeChecks {
    package static func aPurgeDeletesOnlyFinalMachinesOlderThanItsAge(
        _ store: any MachineStore & MachinePurging, clock: ManualClock
    ) async throws {
        let jobs = try Supervisor(schema: try jobSchema(), durability: Durability<Job>(store: store, wallClock: clock),
                                  configuration: SupervisorConfiguration(machine: MachineConfiguration(failurePolicy: .resume)))
        let old = (0..<70).map { "old-\($0)" }
        for id in ["idle", "crashed"] { try await jobs.activate(id: id, data: Job.Data()) }
        try await finishJobs(old, in: jobs)
        try await jobs.send(to: "crashed", .start)
        _ = try? await jobs.send(to: "crashed", .crash)
        clock.advance(by: .seconds(60))
        try await finishJobs(["recent-0", "recent-1", "recent-2"], in: jobs)
        let aged = MachineQuery().olderThan(.seconds(30), clock: clock)

        let preview = try await store.purgePreview(aged)
        #expect(preview.purged == 70)
        #expect(Set(preview.firstIDs) == Set(old))
        #expect(try await store.entries(of: "old-7").count == 3)

        let purged = try await store.purge(aged)
        #expect(purged.purged == 70)
        #expect(purged.longestBatch > .zero)
        #expect(try await store.entries(of: "old-7").isEmpty)
        #expect(try await store.machine("old-7") == nil)
        #expect(try await store.history(of: "old-7").isEmpty)
        for id in ["recent-0", "idle", "crashed"] { #expect(try await !store.entries(of: id).isEmpty, "\(id)") }
        #expect(try await store.counts(of: JobChecks.fingerprintOfJobs) == ["done": 3, "queued": 1, "running": 1])
        #expect(try await store.purge(aged).purged == 0)

        // A machine that moved since it was listed, or is not final, is left alone.
        #expect(try await store.deleteJournals(of: [(id: "recent-0", sequenceNumber: 1)]).isEmpty)
        #expect(try await store.deleteJournals(of: [(id: "idle", sequenceNumber: 0)]).isEmpty)
        #expect(try await store.entries(of: "recent-0").count == 3)
        await jobs.shutdown()
    }

    /// Makes each job and runs it to `done`: what every purge test needs to have something to purge.
    package static func finishJobs(_ ids: [String], in jobs: Supervisor<Job>) async throws {
        for id in ids {
            try await jobs.activate(id: id, data: Job.Data())
            try await jobs.send(to: id, .start)
            try await jobs.send(to: id, .finish)
        }
    }
}
