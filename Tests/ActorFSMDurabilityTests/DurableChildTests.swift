import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Synchronization
import Testing
import TestSupport

/// A durable payment child: it captures once its gate lets it.
enum StoredPayment: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case authorizing, captured }
    enum Event: String, Codable, Hashable, Sendable { case capture }
    typealias ID = String
    struct Data: Codable, Sendable, Equatable { var amount: Int }
}

/// A durable order whose `paying` state runs a payment child.
enum StoredParent: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case placed, paying, paid, failed }
    enum Event: String, Codable, Hashable, Sendable { case pay, paid, paymentFailed }
    typealias ID = String
    struct Data: Codable, Sendable, Equatable { var amount: Int }
}

@Suite(.timeLimit(.minutes(1))) struct DurableChildTests {
    static func paymentSchema(_ gate: Gate, captures: Locked<Int>) throws -> Schema<StoredPayment> {
        try Schema<StoredPayment>(initial: .authorizing, final: [.captured]) {
            define(.authorizing, running: StateTask {
                await gate.wait()
                return .capture
            }) {
                when(.capture) | then(.captured) | { _ in captures.withLock { $0 += 1 } }
            }
        }
    }

    static func orderSchema(_ payments: Supervisor<StoredPayment>) throws -> Schema<StoredParent> {
        try Schema<StoredParent>(initial: .placed, final: [.paid, .failed]) {
            define(.placed) { when(.pay) | then(.paying) }
            define(.paying, running: .child(in: payments, id: { "pay-\($0.id)" }, data: { StoredPayment.Data(amount: $0.data.amount) },
                                            done: { _, _ in .paid }, failed: { _ in .paymentFailed })) {
                when(.paid) | then(.paid)
                when(.paymentFailed) | then(.failed)
            }
        }
    }

    @Test func aParentAndChildCrashedMidwayFinishOnceRestored() async throws {
        let store = InMemoryStore()
        let captures = Locked(0)
        let held = Gate()
        let payments = try Supervisor(schema: try Self.paymentSchema(held, captures: captures), durability: Durability(store: store))
        let orders = try Supervisor(schema: try Self.orderSchema(payments), durability: Durability(store: store))
        try await orders.activate(id: "o-1", data: StoredParent.Data(amount: 30))
        try await orders.send(to: "o-1", .pay)
        await held.untilArrivals(1)   // the child runs, and waits in authorizing
        let restarted = store.crash()
        await orders.stop()
        await payments.stop()

        // A new process: the parent is restored in paying, its state task takes up the child,
        // which the store holds, and the child finishes.
        let open = Gate()
        open.open()
        let restoredPayments = try Supervisor(schema: try Self.paymentSchema(open, captures: captures),
                                              durability: Durability(store: restarted))
        let restoredOrders = try Supervisor(schema: try Self.orderSchema(restoredPayments), durability: Durability(store: restarted))
        let reports = restoredOrders.reports()
        #expect(try await restoredOrders.restoreAll().restored == 1)
        for await report in reports {
            if case .transition(let record) = report, record.target == .paid { break }
        }
        #expect(await restoredOrders.machine(id: "o-1")?.state == .paid)
        #expect(captures.withLock { $0 } == 1, "the child captured once")
        let history = try await Durability(store: restarted).history(of: "o-1", schema: try Self.orderSchema(restoredPayments))
        #expect(history.compactMap(\.event) == [.pay, .paid], "the parent got the child's end once")
        await restoredOrders.shutdown()
        await restoredPayments.shutdown()
    }
}
