import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing
import TestSupport

/// A payment whose machine charges a card through an outside service.
enum CardPayment: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case placed, charging, paid }
    enum Event: String, Codable, Hashable, Sendable { case submit, charged }
    typealias ID = String
    struct Data: Codable, Sendable, Equatable { var charges = 0 }
}

@Suite(.timeLimit(.minutes(3))) struct AtLeastOnceTests {
    /// A payment whose submission charges the card, counts the charge, then waits at `gate`.
    static func charging(through gateway: ChargeGateway, waitingAt gate: ActionGate) throws -> Schema<CardPayment> {
        try Schema<CardPayment>(initial: .placed, final: [.paid]) {
            define(.placed) {
                when(.submit) | then(.paid) | { context in
                    await gateway.charge(context.idempotencyKey)
                    context.data.charges += 1
                    await gate.pass()
                }
            }
        }
    }

    @Test func anEventWhoseActionsACrashInterruptedIsProcessedAgainWithTheSameKey() async throws {
        let gateway = ChargeGateway()
        let gate = ActionGate()
        let schema = try Self.charging(through: gateway, waitingAt: gate)
        let store = InMemoryStore()
        let payment = try await Machine(schema: schema, id: "p", data: CardPayment.Data(), durability: Durability(store: store))
        let interrupted = Task { try await payment.send(.submit) }
        await gateway.waitForCalls(1)
        // The process dies while the action waits: the store keeps what was committed.
        let restarted = store.crash()
        await gate.open()
        let lateAnswer = await interrupted.result
        #expect(throws: MachineError<CardPayment>.self) { try lateAnswer.get() }

        // Subscribed before the restore: the replay starts as soon as the machine is made.
        let payments = try Supervisor(schema: schema, durability: Durability(store: restarted))
        let reports = payments.reports()
        let again = try await payments.activate(id: "p", data: CardPayment.Data())
        let replayed = await firstRecord(in: reports)
        #expect(replayed?.sequenceNumber == 1 && replayed?.target == .paid)
        #expect(await gateway.keys == ["p#1", "p#1"])
        #expect(await again.data.charges == 1)
        try await again.send(.charged)   // unhandled; waits until everything before it is durable
        #expect(try await restarted.entries(of: "p").map(\.sequenceNumber) == [0, 1, 2])
        await payments.shutdown()
    }

    @Test func aSendToAMachineThatIsStoppingWaitsForItsEndInsteadOfRestoringACopy() async throws {
        let gateway = ChargeGateway()
        let gate = ActionGate()
        let schema = try Self.charging(through: gateway, waitingAt: gate)
        let payments = try Supervisor(schema: schema, durability: Durability(store: InMemoryStore()))
        let payment = try await payments.activate(id: "p", data: CardPayment.Data())
        let submitting = Task { try await payments.send(to: "p", .submit) }
        await gateway.waitForCalls(1)
        // Stopping, the machine still runs the action in progress: a copy restored from the
        // store now would process the submission a second time, beside it.
        await payment.stop()
        let charging = Task { try await payments.send(to: "p", .charged) }
        await gate.open()
        _ = await submitting.result
        let record = try await charging.value
        #expect(record.source == .paid && record.sequenceNumber == 2)
        #expect(await gateway.keys == ["p#1"])
        await payments.shutdown()
    }

    @Test func aMachineWhoseFirstEventACrashInterruptedComesBackWithItsStartingData() async throws {
        let gateway = ChargeGateway()
        let gate = ActionGate()
        let schema = try Self.charging(through: gateway, waitingAt: gate)
        let store = InMemoryStore()
        let payment = try await Machine(schema: schema, id: "p", data: CardPayment.Data(charges: 5), durability: Durability(store: store))
        let interrupted = Task { try await payment.send(.submit) }
        await gateway.waitForCalls(1)
        let restarted = store.crash()
        await gate.open()
        _ = await interrupted.result

        // Another process, given no data, restores it from its creation entry.
        let payments = try Supervisor(schema: schema, durability: Durability(store: restarted))
        let reports = payments.reports()
        #expect(try await payments.restoreAll(includingFinal: true).restored == 1)
        let record = await firstRecord(in: reports)
        #expect(record?.sequenceNumber == 1 && record?.target == .paid)
        #expect(await payments.machine(id: "p")?.data.charges == 6)
        await payments.shutdown()
    }

    @Test func aFollowUpWrittenWithItsTransitionSurvivesACrashBeforeItIsProcessed() async throws {
        let schema = try Schema<CardPayment>(initial: .placed, final: [.paid]) {
            define(.placed) { when(.submit) | then(.charging) | { context in try context.tryPost(.charged) } }
            define(.charging) { when(.charged) | then(.paid) | { context in context.data.charges += 1 } }
        }
        let store = InMemoryStore()
        store.holdCommits(afterWrites: 2)   // the creation entry, and the first event's
        let payment = try await Machine(schema: schema, id: "p", data: CardPayment.Data(), durability: Durability(store: store))
        var records = await payment.records().makeAsyncIterator()
        let submit = Task { try await payment.send(.submit) }
        #expect(await records.next()?.target == .charging)
        #expect(await records.next()?.target == .paid)   // in memory only: its write is held
        // Once this read returns, the first event's write is committed and the second's held.
        #expect(try await store.entries(of: "p").map(\.sequenceNumber) == [0, 1])
        let restarted = store.crash()
        _ = await submit.result

        let payments = try Supervisor(schema: schema, durability: Durability(store: restarted))
        let reports = payments.reports()
        let again = try await payments.activate(id: "p", data: CardPayment.Data())
        let followUp = await firstRecord(in: reports)
        #expect(followUp?.event == .charged && followUp?.origin == .followUp && followUp?.sequenceNumber == 2)
        #expect(await again.state == .paid)
        #expect(await again.data.charges == 1)
        await payments.shutdown()
    }
}
