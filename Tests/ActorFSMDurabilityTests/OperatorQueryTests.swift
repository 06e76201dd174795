import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing
import TestSupport

/// An operator's verb on every machine a query selects, from code: a dry run lists them and
/// changes nothing, the act changes each it can and reports the others.
@Suite(.timeLimit(.minutes(3))) struct OperatorQueryTests {
    @Test func aStoreListsThenActsOnWhatItsQuerySelects() async throws {
        let store = InMemoryStore()
        let clock = jobClock()
        let jobs = try await runJobs(on: store, clock: clock)
        await jobs.shutdown()
        let queued = MachineQuery(state: "queued")

        let preview = try await store.act(.pause, on: queued, reason: "maintenance", dryRun: true)
        #expect(preview.isDryRun && preview.selected == 2 && preview.changed == 0)
        #expect(Set(preview.firstIDs) == ["j1", "j2"])
        #expect(try await store.machine("j1")?.summary.status != .paused, "a dry run changes nothing")

        let paused = try await store.act(.pause, on: queued, reason: "maintenance", wallClock: clock)
        #expect(!paused.isDryRun && paused.changed == 2 && paused.failures.isEmpty)
        #expect(try await store.machine("j2")?.summary.status == .paused)
        #expect(try await store.act(.pause, on: queued, reason: "again").selected == 0, "paused machines are not paused again")
        let resumed = try await store.act(.resume, on: MachineQuery(status: .paused), reason: "done", wallClock: clock)
        #expect(resumed.changed == 2)
        let retried = try await store.act(.retry, on: MachineQuery(), reason: "fixed", wallClock: clock)
        #expect(retried.selected == 1 && retried.firstIDs == ["j5"] && retried.changed == 1, "only the failed machine")
        await #expect(throws: StoreError.self) { try await store.act(.signal, on: queued, reason: "") }
        let audit = await SummaryAudit.disagreements(in: store)
        #expect(audit.isEmpty, "\(audit)")
    }

    /// A machine the verb cannot change is reported, and the others are still changed.
    @Test func aMachineTheVerbCannotChangeIsReportedAndTheOthersChanged() async throws {
        let gate = Gate()
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try DurablePauseTests.slowDoorSchema(gate), durability: doorDurability(store))
        for id in ["a", "b", "c"] { try await doors.activate(id: id, data: Door.Data()) }
        let opening = Task { try await doors.send(to: "b", .open) }
        await gate.untilArrivals(1)
        let crashed = store.crash()
        let report = try await crashed.act(.cancel, on: MachineQuery(), reason: "closing the site")
        #expect(report.selected == 3 && report.changed == 2)
        #expect(report.failures.map(\.machine) == ["b"])
        #expect(report.failures.first?.reason.contains("interrupted its transition") == true)
        #expect(try await crashed.machine("a")?.summary.status == .cancelled)
        gate.open()
        _ = await opening.result
        await doors.shutdown()
    }

    /// During a store outage an act on a query fails whole, before it changes anything, from a
    /// store and from a supervisor; once the store is back it goes through.
    @Test func anActOnAQueryDuringAStoreOutageChangesNothing() async throws {
        let store = InMemoryStore()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        for id in ["a", "b"] { try await doors.activate(id: id, data: Door.Data()) }
        store.beginOutage()
        await #expect(throws: StoreError.self) { try await store.act(.pause, on: MachineQuery(), reason: "outage") }
        await #expect(throws: StoreError.self) { try await doors.act(.pause, on: MachineQuery(), reason: "outage") }
        #expect(await doors.machine(id: "a")?.isPaused == false)
        store.endOutage()
        #expect(try await store.history(of: "a").contains { $0.operation != nil } == false, "nothing was written")
        let paused = try await doors.act(.pause, on: MachineQuery(), reason: "after the outage")
        #expect(paused.changed == 2 && paused.failures.isEmpty)
        #expect(await SummaryAudit.disagreements(in: store).isEmpty)
        await doors.shutdown()
    }

    /// A supervisor acts on the machines of its own schema only, wherever they are: running,
    /// stored, paused ones left out of a signal.
    @Test func aSupervisorActsOnTheMachinesOfItsSchemaThatTheQuerySelects() async throws {
        let store = InMemoryStore()
        let tabs = try Supervisor(schema: try Tab.schema(), durability: Durability(store: store),
                                  passivation: Passivation(afterIdle: .seconds(3_600), keepingAtMost: 2))
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        for number in 1...5 { try await tabs.activate(id: "t\(number)", data: Tab.Data()) }
        try await doors.activate(id: "d1", data: Door.Data())
        try await tabs.pause("t1", reason: "disputed")

        let preview = try await tabs.act(.signal(.close), on: MachineQuery(), reason: "closing time", dryRun: true)
        #expect(preview.selected == 4 && Set(preview.firstIDs) == ["t2", "t3", "t4", "t5"])
        #expect(try await store.machine("t2")?.summary.state == "open", "a dry run changes nothing")
        let closed = try await tabs.act(.signal(.close), on: MachineQuery(), reason: "closing time")
        #expect(closed.changed == 4 && closed.failures.isEmpty)
        for number in 2...5 {
            #expect(try await store.machine("t\(number)")?.summary.state == "settled")
            #expect(try await store.history(of: "t\(number)").last?.operation?.reason == "closing time")
        }
        #expect(try await store.machine("t1")?.summary.state == "open")
        #expect(try await store.machine("d1")?.summary.state == "closed", "another schema's machine is left alone")
        let resumed = try await tabs.act(.resume, on: MachineQuery(status: .paused), reason: "settled")
        #expect(resumed.changed == 1 && resumed.firstIDs == ["t1"])
        await tabs.shutdown()
        await doors.shutdown()
        await #expect(throws: StoreError.self) { try await tabs.act(.pause, on: MachineQuery(), reason: "") }
    }
}
