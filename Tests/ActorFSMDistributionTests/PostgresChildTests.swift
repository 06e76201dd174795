import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting
import Synchronization
import Testing
import PostgresTestSupport
import TestSupport

/// A payment, run as an order's child on PostgreSQL: it captures once its gate opens.
enum PostgresPayment: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case authorizing, captured }
    enum Event: String, Codable, Hashable, Sendable { case capture }
    typealias ID = String
    struct Data: Codable, Sendable {}
}

/// An order whose `paying` state runs its payment as a child machine.
enum PostgresOrder: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case placed, paying, paid, failed }
    enum Event: String, Codable, Hashable, Sendable { case pay, paid, failed }
    typealias ID = String
    struct Data: Codable, Sendable {}
}

@Suite(needsPostgres, .timeLimit(.minutes(4))) struct PostgresChildTests {
    /// The database restarts while the child works: the child's final entry is refused, its
    /// supervisor restores it once the database answers, it captures again, and its parent, in
    /// another namespace of the same database, takes that end once.
    @Test func aDatabaseRestartWhileAChildWorksHandsItsEndOverOnce() async throws {
        try await withPostgres(restartWhileChildWorks)
    }

    /// Another process claims the child's lease and dies before it writes the child's first
    /// entry: no takeover restores a machine with no entries, so the parent, refused while that
    /// process lives, claims the child itself once it has died, and the order goes on.
    @Test func aChildWhoseClaimantDiedBeforeWritingItIsStartedByItsParent() async throws {
        try await withPostgres(childClaimedByADeadProcess)
    }

    private func childClaimedByADeadProcess(on server: TemporaryPostgres) async throws {
        let other = try PostgresStore(url: server.url, node: "other", leaseDuration: .seconds(600), namespace: "payments")
        #expect(try await other.claim(["pay-o-1"]) == ["pay-o-1"])
        let payments = try Schema<PostgresPayment>(initial: .authorizing, final: [.captured]) {
            define(.authorizing, running: StateTask { .capture }) { when(.capture) | then(.captured) }
        }
        let (refusals, refused) = AsyncStream.makeStream(of: String.self)
        let paymentStore = try PostgresStore(url: server.url, leaseDuration: .seconds(600), namespace: "payments")
        let orderStore = try PostgresStore(url: server.url, leaseDuration: .seconds(600), namespace: "orders")
        let children = try Supervisor(schema: payments, durability: Durability(
            store: ClaimWatchingStore(inner: paymentStore, refused: refused)))
        let orderSchema = try Self.orderSchema(paidBy: children)
        let orders = try Supervisor(schema: orderSchema, durability: Durability(store: orderStore))
        let reports = orders.reports()
        try await orders.activate(id: "o-1", data: PostgresOrder.Data())
        try await orders.send(to: "o-1", .pay)
        var refusal = refusals.makeAsyncIterator()
        #expect(await refusal.next() == "pay-o-1")
        other.close()
        for await report in reports {
            if case .transition(let record) = report, record.target == .paid { break }
        }
        let history = try await Durability(store: orderStore).history(of: "o-1", schema: orderSchema)
        #expect(history.compactMap(\.event) == [.pay, .paid])
        #expect(try await Durability(store: paymentStore).history(of: "pay-o-1", schema: payments).compactMap(\.event) == [.capture])
        await orders.shutdown()
        await children.shutdown()
        orderStore.close()
        paymentStore.close()
    }

    /// Orders whose `paying` state runs their payment as a child of `children`.
    private static func orderSchema(paidBy children: Supervisor<PostgresPayment>) throws -> Schema<PostgresOrder> {
        try Schema<PostgresOrder>(initial: .placed, final: [.paid, .failed]) {
            define(.placed) { when(.pay) | then(.paying) }
            define(.paying, running: .child(in: children, id: { "pay-\($0.id)" }, data: { _ in PostgresPayment.Data() },
                                            done: { _, _ in .paid }, failed: { _ in .failed })) {
                when(.paid) | then(.paid)
                when(.failed) | then(.failed)
            }
        }
    }

    private func restartWhileChildWorks(on server: TemporaryPostgres) async throws {
        // The child's first capture waits for `gate`; once restored, it waits for `again`.
        let gate = Gate()
        let again = Gate()
        let runs = Locked(0)
        let captures = Locked(0)
        let payments = try Schema<PostgresPayment>(initial: .authorizing, final: [.captured]) {
            define(.authorizing, running: StateTask {
                await (runs.withLock { runs in defer { runs += 1 }; return runs } == 0 ? gate : again).wait()
                return .capture
            }) {
                when(.capture) | then(.captured) | { _ in captures.withLock { $0 += 1 } }
            }
        }
        let watch = StoreWatch()
        var lines = watch.lines.makeAsyncIterator()
        let paymentStore = try PostgresStore(url: server.url, leaseDuration: .seconds(600), namespace: "payments")
        let orderStore = try PostgresStore(url: server.url, leaseDuration: .seconds(600), namespace: "orders")
        let children = try Supervisor(schema: payments, durability: Durability(store: paymentStore),
                                      configuration: SupervisorConfiguration(machine: MachineConfiguration(instrument: watch)))
        let orderSchema = try Self.orderSchema(paidBy: children)
        let orders = try Supervisor(schema: orderSchema, durability: Durability(store: orderStore))
        let reports = orders.reports()
        try await orders.activate(id: "o-1", data: PostgresOrder.Data())
        try await orders.send(to: "o-1", .pay)
        await gate.untilArrivals(1)
        try await serverWork { try server.kill() }
        gate.open()
        // The child captures, but cannot write it.
        #expect(await lines.skip(to: "unavailable pay-o-1"))
        try await serverWork { try server.restart() }
        // The orders' connection was dropped too: its next statements fail until it reconnects,
        // which happens here rather than on the parent's next write.
        var reconnected = false
        for _ in 1...5 where !reconnected { reconnected = (try? await orderStore.machineIDs()) == ["o-1"] }
        #expect(reconnected)
        #expect(await lines.skip(to: "restored pay-o-1"))
        again.open()
        for await report in reports {
            if case .transition(let record) = report, record.target == .paid { break }
        }
        let history = try await Durability(store: orderStore).history(of: "o-1", schema: orderSchema)
        #expect(history.compactMap(\.event) == [.pay, .paid])
        #expect(try await Durability(store: paymentStore).history(of: "pay-o-1", schema: payments).compactMap(\.event) == [.capture])
        await orders.shutdown()
        await children.shutdown()
        orderStore.close()
        paymentStore.close()
    }
}

/// A store that tells `refused` of each machine whose claim it refused.
private final class ClaimWatchingStore: WrappingStore {
    let inner: any MachineStore
    let refused: AsyncStream<String>.Continuation

    init(inner: any MachineStore, refused: AsyncStream<String>.Continuation) {
        self.inner = inner
        self.refused = refused
    }

    func claim(_ machines: [String]) async throws(StoreError) -> [String] {
        let claimed = try await inner.claim(machines)
        for machine in machines where !claimed.contains(machine) { refused.yield(machine) }
        return claimed
    }
}
