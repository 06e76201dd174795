import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(1))) struct StoreOutageTests {
    /// With the default configuration, refused writes neither restart nor escalate: sends say
    /// the machine is not durable, and once the store works the supervisor restores the machine
    /// by itself and serves it again.
    @Test func aSupervisorServesAgainByItselfAfterItsStoreFailed() async throws {
        let gateway = ChargeGateway()
        let watch = StoreWatch()
        let store = InMemoryStore()
        let payments = try Supervisor(schema: try chargeSchema(through: gateway), durability: Durability(store: store),
                                      configuration: SupervisorConfiguration(machine: MachineConfiguration(instrument: watch)))
        var lines = watch.lines.makeAsyncIterator()
        try await payments.activate(id: "p", data: Charge.Data())
        store.beginOutage()
        for _ in 0..<4 {
            await #expect { try await payments.send(to: "p", .submit) } throws: {
                ($0 as? MachineError<Charge>)?.kind == .notDurable
            }
        }
        #expect(await gateway.keys.isEmpty, "no action runs without its intent")
        #expect(await lines.skip(to: "unavailable p"))
        store.endOutage()
        #expect(await lines.skip(to: "restored p"))
        #expect(!payments.isShutDown)
        let record = try await payments.send(to: "p", .submit)
        #expect(record.target == .charging && record.sequenceNumber == 1)
        #expect(await gateway.keys == ["p#1"])
        // The refused writes left no summary behind; the accepted one is summarized.
        let problems = await SummaryAudit.disagreements(in: store)
        #expect(problems.isEmpty, "\(problems)")
        let summary = try await store.machine("p")
        #expect(summary?.summary.state == "charging")
        await payments.shutdown()
    }

    /// A timeout that fires while the store is down is processed again from the store once it
    /// works: the machine that missed its write is replaced without any event sent to it.
    @Test func aMachineWhoseTimerFiredDuringAnOutageComesBackFromTheStore() async throws {
        let clock = ManualClock()
        let gateway = ChargeGateway()
        let watch = StoreWatch()
        let store = InMemoryStore()
        let payments = try Supervisor(
            schema: chargeSchema(through: gateway), durability: Durability(store: store, wallClock: clock),
            configuration: SupervisorConfiguration(machine: MachineConfiguration(clock: clock, instrument: watch)))
        let reports = payments.reports()
        var lines = watch.lines.makeAsyncIterator()
        try await payments.activate(id: "t", data: Charge.Data())
        _ = try await payments.send(to: "t", .submit)
        store.beginOutage()
        clock.advance(by: .seconds(30))
        #expect(await lines.skip(to: "unavailable t"))
        store.endOutage()
        await clock.waitUntilSleeping(count: 1)
        clock.advance(by: .seconds(1))
        #expect(await lines.skip(to: "restored t"))
        // The stale machine's timeout, in memory only, then the restored machine's, written.
        var expired = 0
        for await report in reports where report.record?.machineID == "t" && report.record?.target == .expired {
            expired += 1
            if expired == 2 { break }
        }
        let history = try await Durability(store: store).history(of: "t", schema: payments.schema)
        #expect(history.map(\.sequenceNumber) == [0, 1, 2])
        #expect(history.last?.state == .expired)
        #expect(await gateway.keys == ["t#1"])
        let problems = await SummaryAudit.disagreements(in: store)
        #expect(problems.isEmpty, "\(problems)")
        let summary = try await store.machine("t")
        #expect(summary?.sequenceNumber == 2)
        #expect(summary?.summary.status == .final)
        await payments.shutdown()
    }
}
