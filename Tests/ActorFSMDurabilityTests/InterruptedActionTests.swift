import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(3))) struct InterruptedActionTests {
    /// A payment whose submission charges the card, counts the charge, then waits at `hold`.
    static func charging(through gateway: ChargeGateway, holdingAt hold: CancellableHold) throws -> Schema<CardPayment> {
        try Schema<CardPayment>(initial: .placed, final: [.paid]) {
            define(.placed) {
                when(.submit) | then(.paid) | { context in
                    await gateway.charge(context.idempotencyKey)
                    context.data.charges += 1
                    try await hold.pass()
                }
            }
        }
    }

    /// Restores payment `p` from `store` once `hold` is open, and checks that the interrupted
    /// submission ran again first, under its own key, and completed.
    static func expectReplayed(
        from store: any MachineStore, schema: Schema<CardPayment>, gateway: ChargeGateway, hold: CancellableHold
    ) async throws {
        hold.open()
        let payments = try Supervisor(schema: schema, durability: Durability(store: store))
        let reports = payments.reports()
        let again = try await payments.activate(id: "p", data: CardPayment.Data())
        let replayed = await firstRecord(in: reports)
        #expect(replayed?.sequenceNumber == 1 && replayed?.event == .submit && replayed?.target == .paid)
        #expect(await again.data.charges == 1)
        #expect(await gateway.keys == ["p#1", "p#1"])
        await payments.shutdown()
    }

    @Test func stoppingAMachineInTheMiddleOfAnActionLeavesItsIntentOpen() async throws {
        let gateway = ChargeGateway()
        let hold = CancellableHold()
        let schema = try Self.charging(through: gateway, holdingAt: hold)
        let store = InMemoryStore()
        let payment = try await Machine(schema: schema, id: "p", data: CardPayment.Data(), durability: Durability(store: store))
        let records = await payment.records()
        let sending = Task { try await payment.send(.submit) }
        await gateway.waitForCalls(1)
        await payment.stop()
        await #expect { try await sending.value } throws: { ($0 as? MachineError<CardPayment>)?.kind == .stopped }
        var outcomes: [String] = []
        for await record in records { outcomes.append(record.outcomeName) }
        #expect(outcomes == ["stopped"])
        #expect(await payment.data.charges == 0)
        try await Self.expectReplayed(from: store, schema: schema, gateway: gateway, hold: hold)
    }

    @Test func cancellingRunInTheMiddleOfAnActionLeavesItsIntentOpen() async throws {
        let gateway = ChargeGateway()
        let hold = CancellableHold()
        let schema = try Self.charging(through: gateway, holdingAt: hold)
        let store = InMemoryStore()
        let payment = try await Machine(schema: schema, id: "p", data: CardPayment.Data(), durability: Durability(store: store))
        let running = Task { try await payment.run() }
        let sending = Task { try await payment.send(.submit) }
        await gateway.waitForCalls(1)
        running.cancel()
        await #expect(throws: CancellationError.self) { try await running.value }
        await #expect { try await sending.value } throws: { ($0 as? MachineError<CardPayment>)?.kind == .stopped }
        try await Self.expectReplayed(from: store, schema: schema, gateway: gateway, hold: hold)
    }

    @Test func stoppingADurableSupervisorInTheMiddleOfAnActionLeavesItsIntentOpen() async throws {
        let gateway = ChargeGateway()
        let hold = CancellableHold()
        let schema = try Self.charging(through: gateway, holdingAt: hold)
        let store = InMemoryStore()
        let payments = try Supervisor(schema: schema, durability: Durability(store: store))
        let reports = payments.reports()
        try await payments.activate(id: "p", data: CardPayment.Data())
        let sending = Task { try await payments.send(to: "p", .submit) }
        await gateway.waitForCalls(1)
        await payments.stop()
        await #expect { try await sending.value } throws: { ($0 as? MachineError<CardPayment>)?.kind == .stopped }
        var restarted = false
        for await report in reports { if case .restarted = report { restarted = true } }
        #expect(!restarted)
        try await Self.expectReplayed(from: store, schema: schema, gateway: gateway, hold: hold)
    }

    @Test func anEscalationInTheMiddleOfAnotherMachinesActionLeavesItsIntentOpen() async throws {
        let gateway = ChargeGateway()
        let hold = CancellableHold()
        struct Declined: Error {}
        let schema = try Schema<CardPayment>(initial: .placed, final: [.paid]) {
            define(.placed) {
                when(.submit) | then(.paid) | { context in
                    await gateway.charge(context.idempotencyKey)
                    context.data.charges += 1
                    try await hold.pass()
                }
                when(.charged) | then(.paid) | { _ in throw Declined() }
            }
        }
        let store = InMemoryStore()
        let payments = try Supervisor(schema: schema, durability: Durability(store: store),
                                      configuration: SupervisorConfiguration(restartStrategy: .escalate))
        try await payments.activate(id: "p", data: CardPayment.Data())
        try await payments.activate(id: "q", data: CardPayment.Data())
        let sending = Task { try await payments.send(to: "p", .submit) }
        await gateway.waitForCalls(1)
        await #expect(throws: MachineError<CardPayment>.self) { try await payments.send(to: "q", .charged) }
        await #expect(throws: Supervisor<CardPayment>.Escalation.self) { try await payments.run() }
        await #expect { try await sending.value } throws: { ($0 as? MachineError<CardPayment>)?.kind == .stopped }
        try await Self.expectReplayed(from: store, schema: schema, gateway: gateway, hold: hold)
    }

    @Test func aGracefulShutdownLetsTheActionFinish() async throws {
        let gateway = ChargeGateway()
        let hold = CancellableHold()
        let schema = try Self.charging(through: gateway, holdingAt: hold)
        let store = InMemoryStore()
        let payments = try Supervisor(schema: schema, durability: Durability(store: store))
        try await payments.activate(id: "p", data: CardPayment.Data())
        let sending = Task { try await payments.send(to: "p", .submit) }
        await gateway.waitForCalls(1)
        let shuttingDown = Task { await payments.shutdown() }
        hold.open()
        #expect(try await sending.value.target == .paid)
        await shuttingDown.value
        let again = try await Machine(schema: schema, id: "p", data: CardPayment.Data(), durability: Durability(store: store))
        #expect(await again.state == .paid)
        #expect(await gateway.keys == ["p#1"])
    }

    @Test func aStoppedActionIsNotAFailureInMemoryEither() async throws {
        let gateway = ChargeGateway()
        let hold = CancellableHold()
        let schema = try Self.charging(through: gateway, holdingAt: hold)
        let payment = Machine(schema: schema, id: "p", data: CardPayment.Data(),
                              configuration: MachineConfiguration(failurePolicy: .enter(.placed)))
        let sending = Task { try await payment.send(.submit) }
        await gateway.waitForCalls(1)
        await payment.stop()
        do {
            _ = try await sending.value
            Issue.record("the interrupted send should throw")
        } catch let error as MachineError<CardPayment> {
            #expect(error.kind == .stopped)
            #expect(error.record?.outcomeName == "stopped")
        }
        #expect(await payment.data.charges == 0)
    }
}
