import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting
import Testing
import PostgresTestSupport
import TestSupport

@Suite(needsPostgres, .timeLimit(.minutes(4))) struct PostgresRestartTests {
    /// A payment confirmed through an outside service, waiting for up to 30 seconds.
    static func schema(gateway: ChargeGateway, hold: CancellableHold) throws -> Schema<Charge> {
        try Schema<Charge>(initial: .placed, final: [.paid, .expired]) {
            define(.placed) { when(.submit) | then(.charging) }
            define(.charging) {
                when(.confirm) | then(.paid) | { context in
                    await gateway.charge(context.idempotencyKey)
                    try await hold.pass()
                }
                after(.seconds(30)) | then(.expired)
            }
        }
    }

    /// The database dies while confirmations are in flight and their timeouts fall due; once it
    /// is back, the supervisor restores every machine by itself, and each confirmation runs again
    /// under its own number, before the overdue timeout: no action runs under two keys.
    @Test func aDatabaseRestartMidActionRunsEachStepUnderOneKey() async throws {
        try await withPostgres(restartMidAction)
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func restartMidAction(on server: TemporaryPostgres) async throws {
        let clock = ManualClock()
        let gateway = ChargeGateway()
        let hold = CancellableHold()
        let watch = StoreWatch()
        let store = try PostgresStore(url: server.url, leaseDuration: .seconds(600))
        let payments = try Supervisor(
            schema: Self.schema(gateway: gateway, hold: hold), durability: Durability(store: store, wallClock: clock),
            configuration: SupervisorConfiguration(machine: MachineConfiguration(
                failurePolicy: .resume, clock: clock, instrument: watch)))
        var lines = watch.lines.makeAsyncIterator()
        let ids = (0..<10).map { "m\($0)" }
        for id in ids {
            try await payments.activate(id: id, data: Charge.Data())
            _ = try await payments.send(to: id, .submit)
        }
        // Each confirmation's intent is committed and its action waits at the hold.
        let confirming = ids.map { id in Task { try await payments.send(to: id, .confirm) } }
        await gateway.waitForCalls(ids.count)
        try await serverWork { try server.kill() }
        clock.advance(by: .seconds(60))      // every payment timeout falls due meanwhile
        hold.open()
        for sent in confirming { _ = await sent.result }
        try await serverWork { try server.restart() }
        // Each time the supervisor finds the store unavailable it waits: move its clock on.
        var restored: Set<String> = []
        while restored.count < ids.count, let line = await lines.next() {
            if line.hasPrefix("restored ") { restored.insert(String(line.dropFirst("restored ".count))) }
            if line.hasPrefix("unavailable ") {
                await clock.waitUntilSleeping(count: 1)
                clock.advance(by: .seconds(10))
            }
        }
        #expect(restored == Set(ids))
        // Each restored machine confirms again; a send after it is answered once it has.
        for id in ids {
            let last = try await payments.send(to: id, .submit)
            #expect(last.sequenceNumber == 3 && last.source == .paid, "machine \(id): \(last)")
        }
        let keys = await gateway.keys
        for id in ids {
            let prefix = id + "#"
            let ran: [String] = keys.filter { key in key.hasPrefix(prefix) }.sorted()
            let expected: [String] = [prefix + "2", prefix + "2"]
            #expect(ran == expected)
        }
        // The writes the dead server lost left no summary that the journal does not have.
        let problems = await SummaryAudit.disagreements(in: store)
        #expect(problems.isEmpty, "\(problems)")
        let paid = try await store.stateCounts().first { $0.state == "paid" }?.count
        #expect(paid == ids.count)
        await payments.shutdown()
        store.close()
    }
}
