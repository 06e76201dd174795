import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Testing
import TestSupport

/// A checkout whose payment action posts the gateway's approval next, into a state that expires
/// after 30 seconds.
enum PaymentStep: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case placed, paymentPending, paid, expired }
    enum Event: String, Codable, Hashable, Sendable { case pay, approved, remind }
    typealias ID = String
    typealias Data = Void
}

/// The checkout's table: paying charges through `gateway` and posts `.approved` next.
func paymentStepSchema(charging gateway: ChargeGateway, waitingAt gate: ActionGate? = nil) throws -> Schema<PaymentStep> {
    try Schema<PaymentStep>(initial: .placed, final: [.paid, .expired]) {
        define(.placed) {
            when(.pay) | then(.paymentPending) | { context in
                await gateway.charge(context.idempotencyKey)
                await gate?.pass()
                try context.postNext(.approved)
            }
        }
        define(.paymentPending) {
            when(.approved) | then(.paid)
            after(.seconds(30)) | then(.expired)
        }
    }
}

@Suite(.timeLimit(.minutes(3))) struct RecoveryOrderTests {
    /// The process dies once the payment's entry (with `.approved` pending) is committed, and
    /// comes back after the payment timeout fell due: the approval runs first.
    @Test(arguments: 0..<20)
    func anEventPostedNextRunsBeforeATimeoutThatFellDueWhileDown(round: Int) async throws {
        let clock = ManualClock()
        let gateway = ChargeGateway()
        let schema = try paymentStepSchema(charging: gateway)
        let store = InMemoryStore()
        let durability = Durability<PaymentStep>(store: store, wallClock: clock)
        let checkout = try await Machine(schema: schema, id: "c", durability: durability,
                                         configuration: MachineConfiguration(clock: clock))
        // The intent and the payment's entry commit; the approval's entry does not.
        store.holdCommits(afterWrites: 2)
        _ = try await checkout.send(.pay)
        let restarted = store.crash()
        clock.advance(by: .seconds(60))

        let checkouts = try Supervisor(schema: schema, durability: Durability(store: restarted, wallClock: clock),
                                       configuration: SupervisorConfiguration(machine: MachineConfiguration(clock: clock)))
        let reports = checkouts.reports()
        // Restored from a task of low priority: the overdue timeout's task has a higher one.
        let again = try await Task(priority: .background) { try await checkouts.activate(id: "c", data: ()) }.value
        let first = await firstRecord(in: reports)
        #expect(first?.event == .approved && first?.target == .paid)
        #expect(await again.state == .paid)
        #expect(await gateway.keys == ["c#1"])
        await checkouts.shutdown()
    }
}
