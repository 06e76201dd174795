import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(3))) struct RestoredCommitTests {
    /// A restored machine that processes its interrupted event again shows the target state
    /// only with that event's data, and its summary in the store agrees with its journal.
    @Test func aRestoredMachinesReplayedTransitionIsSeenWithItsData() async throws {
        let interrupted = CancellableHold()
        let replay = Gate()
        let gateway = ChargeGateway()
        let schema = try Schema<CardPayment>(initial: .placed, final: [.paid]) {
            define(.placed) {
                when(.submit) | then(.paid) | { (context: TransitionContext<CardPayment>) async throws in
                    await gateway.charge(context.idempotencyKey)
                    context.data.charges += 1
                    if await gateway.keys.count == 1 { try await interrupted.pass() } else { await replay.wait() }
                }
            }
        }
        let store = InMemoryStore()
        let first = try await Machine(schema: schema, id: "p", data: CardPayment.Data(), durability: Durability(store: store))
        let sending = Task { try await first.send(.submit) }
        await gateway.waitForCalls(1)
        await first.stop()
        _ = try? await sending.value

        let payments = try Supervisor(schema: schema, durability: Durability(store: store))
        let reports = payments.reports()
        let again = try await payments.activate(id: "p", data: CardPayment.Data())
        await replay.untilArrivals(1)
        #expect(await again.state == .placed)
        #expect(await again.data.charges == 0)
        var states = await again.stateChanges().makeAsyncIterator()
        #expect(await states.next() == .placed)
        replay.open()
        #expect(await states.next() == .paid)
        #expect(await again.data.charges == 1)
        let record = await firstRecord(in: reports)
        #expect(record?.target == .paid && record?.sequenceNumber == 1)
        #expect(await gateway.keys == ["p#1", "p#1"])
        await payments.shutdown()
        #expect(try await store.machine("p")?.summary.state == "paid")
        #expect(await SummaryAudit.disagreements(in: store).isEmpty)
    }
}
