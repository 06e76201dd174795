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
        #expect(try await store.deleteJournals(of: [(id: "recent-0", sequenceNumber: 1)], keepingSummaries: false).isEmpty)
        #expect(try await store.deleteJournals(of: [(id: "idle", sequenceNumber: 0)], keepingSummaries: true).isEmpty)
        #expect(try await store.entries(of: "recent-0").count == 3)
        await jobs.shutdown()
    }

    /// A purge that keeps summaries: the machines' journals go, their summaries stay, purged,
    /// counted in their states, until a purge that keeps none; an id used again starts afresh.
    package static func aPurgeThatKeepsSummariesLeavesThemPurged(
        _ store: any MachineStore & MachinePurging, clock: ManualClock
    ) async throws {
        let jobs = try Supervisor(schema: try jobSchema(), durability: Durability<Job>(store: store, wallClock: clock))
        try await jobs.activate(id: "idle", data: Job.Data())
        try await finishJobs((0..<5).map { "old-\($0)" }, in: jobs)
        clock.advance(by: .seconds(60))
        let aged = MachineQuery().olderThan(.seconds(30), clock: clock)
        #expect(try await store.purgePreview(aged, keepingSummaries: true).purged == 5)

        #expect(try await store.purge(aged, keepingSummaries: true).purged == 5)
        let kept = try await store.machine("old-1")
        #expect(kept?.summary.status == .purged && kept?.summary.state == "done" && kept?.sequenceNumber == 0)
        #expect(try await store.entries(of: "old-1").isEmpty)
        #expect(try await store.history(of: "old-1").isEmpty)
        #expect(try await store.machines(MachineQuery(status: .purged)).machines.count == 5)
        #expect(try await store.counts(of: JobChecks.fingerprintOfJobs) == ["done": 5, "queued": 1])
        #expect(try await store.purge(aged, keepingSummaries: true).purged == 0, "kept summaries are not purged again")
        #expect(await SummaryAudit.disagreements(in: store).isEmpty)

        await jobs.shutdown()
        let later = try Supervisor(schema: try jobSchema(), durability: Durability<Job>(store: store, wallClock: clock))
        try await later.activate(id: "old-1", data: Job.Data())
        #expect(try await store.machine("old-1")?.summary.state == "queued", "an id used again starts afresh")
        #expect(try await store.purge(MachineQuery(status: .purged)).purged == 4, "a purge that keeps none drops them")
        #expect(try await store.machine("old-2") == nil)
        #expect(try await store.counts(of: JobChecks.fingerprintOfJobs) == ["queued": 2])
        #expect(await SummaryAudit.disagreements(in: store).isEmpty)
        await later.shutdown()
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
