import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(3))) struct StoreOutageTests {
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

    /// A store that reads but refuses writes: each restore processes the interrupted event again
    /// (running its action again, when the store takes the intent and refuses the rest), so
    /// after `restoresBeforeParking` restores the machine is parked, reported, and runs nothing
    /// until the store accepts a write again, or `resumeParkedMachines()`.
    @Test(arguments: [(false, true), (false, false), (true, true), (true, false)])
    func aMachineWhoseWritesKeepFailingIsParked(intentsWritten: Bool, resumedByAWrite: Bool) async throws {
        let gateway = ChargeGateway()
        let gate = Gate()
        let watch = StoreWatch()
        let store = CompletionRefusingStore()
        let schema = try Schema<Charge>(initial: .placed, final: [.paid, .expired]) {
            define(.placed) {
                when(.submit) | then(.charging) | { context in
                    await gateway.charge(context.idempotencyKey)
                    await gate.wait()
                    context.data.charges += 1
                }
            }
            define(.charging) { when(.confirm) | then(.paid) }
        }
        let payments = try Supervisor(
            schema: schema, durability: Durability(store: store, restoresBeforeParking: 2),
            configuration: SupervisorConfiguration(machine: MachineConfiguration(instrument: watch)))
        var lines = watch.lines.makeAsyncIterator()
        try await payments.activate(id: "p", data: Charge.Data())
        let submitting = Task { try await payments.send(to: "p", .submit) }
        await gateway.waitForCalls(1)
        // The completion is refused; so is the intent of each restore, unless `intentsWritten`.
        store.refuse(intents: !intentsWritten)
        gate.open()
        await #expect { try await submitting.value } throws: { ($0 as? MachineError<Charge>)?.kind == .notDurable }
        #expect(await lines.skip(to: "parked p after 2"))
        let runs = intentsWritten ? 3 : 1
        #expect(await gateway.keys == Array(repeating: "p#1", count: runs))
        #expect(payments.parkedMachines == ["p"])
        // Parked, it stays in memory: passivation leaves it alone.
        #expect(await payments.passivateIdle(longerThan: .zero) == 0)
        #expect(payments.parkedMachines == ["p"])
        // Parked, a send runs nothing: it hears that the machine is not durable.
        await #expect { try await payments.send(to: "p", .confirm) } throws: {
            ($0 as? MachineError<Charge>)?.kind == .notDurable
        }
        #expect(await gateway.keys.count == runs)

        store.accept()
        if resumedByAWrite {
            try await payments.activate(id: "q", data: Charge.Data())
        } else {
            payments.resumeParkedMachines()
        }
        #expect(await lines.skip(to: "restored p"))
        await gateway.waitForCalls(runs + 1)
        #expect(await gateway.keys == Array(repeating: "p#1", count: runs + 1))
        #expect(payments.parkedMachines.isEmpty)
        let record = try await payments.send(to: "p", .confirm)
        #expect(record.source == .charging && record.target == .paid && record.sequenceNumber == 2)
        #expect(await payments.machine(id: "p")?.data.charges == 1)
        let problems = await SummaryAudit.disagreements(in: store.kept)
        #expect(problems.isEmpty, "\(problems)")
        await payments.shutdown()
    }
}

/// An `InMemoryStore` that can refuse writes while it reads, as a full disk does: every entry
/// of a completed event, and also intents unless told otherwise.
final class CompletionRefusingStore: WrappingStore {
    let kept = InMemoryStore()
    private let refusing = Locked<(completions: Bool, intents: Bool)>((false, false))

    var inner: any MachineStore { kept }

    func refuse(intents: Bool) { refusing.withLock { $0 = (true, intents) } }

    func accept() { refusing.withLock { $0 = (false, false) } }

    func append(_ write: JournalWrite, completion: @escaping @Sendable (StoreError?) -> Void) {
        // Only a completed entry carries a summary.
        let (completions, intents) = refusing.withLock { $0 }
        if write.summary == nil ? intents : completions {
            Task { completion(StoreError("the disk is full")) }
        } else {
            kept.append(write, completion: completion)
        }
    }
}
