import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Synchronization
import Testing
import TestSupport

/// A durable payment child: it captures once its gate lets it.
enum StoredPayment: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case authorizing, captured, voided }
    enum Event: String, Codable, Hashable, Sendable { case capture, void }
    typealias ID = String
    struct Data: Codable, Sendable, Equatable { var amount: Int }
}

/// A durable order whose `paying` state runs a payment child.
enum StoredParent: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case placed, paying, paid, failed, cancelled }
    enum Event: String, Codable, Hashable, Sendable { case pay, paid, paidToo, paymentFailed, cancel }
    typealias ID = String
    struct Data: Codable, Sendable, Equatable { var amount: Int; var ended = 0 }
}

@Suite(.timeLimit(.minutes(3))) struct DurableChildTests {
    static func paymentSchema(_ gate: Gate, captures: Locked<Int>) throws -> Schema<StoredPayment> {
        try Schema<StoredPayment>(initial: .authorizing, final: [.captured, .voided]) {
            define(.authorizing, running: StateTask {
                await gate.wait()
                return .capture
            }) {
                when(.capture) | then(.captured) | { _ in captures.withLock { $0 += 1 } }
                when(.void) | then(.voided)
            }
        }
    }

    static func orderSchema(_ payments: Supervisor<StoredPayment>) throws -> Schema<StoredParent> {
        try Schema<StoredParent>(initial: .placed, final: [.paid, .failed, .cancelled]) {
            define(.placed) { when(.pay) | then(.paying) }
            define(.paying, running: .child(in: payments, id: { "pay-\($0.id)" }, data: { StoredPayment.Data(amount: $0.data.amount) },
                                            cancelling: .void,
                                            done: { state, _ in state == .captured ? .paid : .paymentFailed },
                                            failed: { _ in .paymentFailed })) {
                when(.paid) | then(.paid)
                when(.paymentFailed) | then(.failed)
                when(.cancel) | then(.cancelled)
            }
        }
    }

    /// A parent cancelled for good in a state that runs a durable child (no cancelling event
    /// of its own) sends the child the state's cancelling event once its cancel is durable:
    /// the child ends, and nothing it would have done happens.
    @Test func aParentCancelledForGoodCancelsItsChild() async throws {
        let shop = try Shop()
        try await shop.payAndHold("o-1")
        let children = shop.payments.reports()
        guard case .ended = try await shop.orders.cancel("o-1", reason: "withdrawn") else {
            Issue.record("the parent was not ended for good")
            return
        }
        for await report in children {
            if case .transition(let record) = report, record.machineID == "pay-o-1" {
                #expect(record.target == .voided)
                break
            }
        }
        shop.held.open()
        #expect(try await shop.store.machine("pay-o-1")?.summary.state == "voided")
        #expect(try await shop.store.machine("o-1")?.summary.status == .cancelled)
        #expect(shop.captures.withLock { $0 } == 0)
        await shop.orders.shutdown()
        await shop.payments.shutdown()
    }

    @Test func aParentAndChildCrashedMidwayFinishOnceRestored() async throws {
        let shop = try Shop()
        let (store, captures, held, payments, orders) = (shop.store, shop.captures, shop.held, shop.payments, shop.orders)
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
        // Each supervisor is restored: the child runs once, whoever brings it back first.
        #expect(try await restoredPayments.restoreAll().restored == 1)
        #expect(try await restoredOrders.restoreAll().restored == 1)
        await Self.awaitTarget(.paid, in: reports)
        #expect(await restoredOrders.machine(id: "o-1")?.state == .paid)
        #expect(captures.withLock { $0 } == 1, "the child captured once")
        let history = try await Durability(store: restarted).history(of: "o-1", schema: try Self.orderSchema(restoredPayments))
        #expect(history.compactMap(\.event) == [.pay, .paid], "the parent got the child's end once")
        await restoredOrders.shutdown()
        await restoredPayments.shutdown()
    }

    @Test func aChildThatFinishesWhileItsParentIsDownHandsItsEndOverOnceTheParentIsBack() async throws {
        let shop = try Shop()
        let (store, captures, held, payments, orders) = (shop.store, shop.captures, shop.held, shop.payments, shop.orders)
        try await shop.payAndHold("o-2")
        // The parent's process part stops: its durable child runs on, and captures.
        await orders.stop()
        let child = try #require(payments.machine(id: "pay-o-2"))
        var childStates = await child.stateChanges().makeAsyncIterator()
        held.open()
        while let state = await childStates.next(), state != .captured {}
        #expect(await child.isStopped == false, "the parent's stop left its durable child alone")

        // The parent is back: linked again, the child hands its end over at once.
        let restoredOrders = try Supervisor(schema: try Self.orderSchema(payments), durability: Durability(store: store))
        let reports = restoredOrders.reports()
        #expect(try await restoredOrders.restoreAll().restored == 1)
        await Self.awaitTarget(.paid, in: reports)
        #expect(captures.withLock { $0 } == 1)
        let history = try await Durability(store: store).history(of: "o-2", schema: try Self.orderSchema(payments))
        #expect(history.compactMap(\.event) == [.pay, .paid])
        await restoredOrders.shutdown()
        await payments.shutdown()
    }

    @Test func leavingTheStateCancelsTheDurableChild() async throws {
        let shop = try Shop()
        let (store, captures, held, payments, orders) = (shop.store, shop.captures, shop.held, shop.payments, shop.orders)
        try await shop.payAndHold("o-3")
        let child = try #require(payments.machine(id: "pay-o-3"))
        var childStates = await child.stateChanges().makeAsyncIterator()
        try await orders.send(to: "o-3", .cancel)
        while let state = await childStates.next(), state != .voided {}
        held.open()
        let history = try await Durability(store: store).history(of: "pay-o-3", schema: try Self.paymentSchema(held, captures: captures))
        #expect(history.last?.state == .voided, "the child's cancellation is durable")
        #expect(captures.withLock { $0 } == 0)
        await orders.shutdown()
        await payments.shutdown()
    }

    /// An order that waits for two payments, counting their ends in its data.
    static func joinSchema(_ first: Supervisor<StoredPayment>, _ second: Supervisor<StoredPayment>) throws -> Schema<StoredParent> {
        try Schema<StoredParent>(initial: .placed, final: [.paid, .failed]) {
            define(.placed) { when(.pay) | then(.paying) }
            define(.paying, running:
                    .child(in: first, id: { "first-\($0.id)" }, data: { StoredPayment.Data(amount: $0.data.amount) },
                           done: { _, _ in .paid }, failed: { _ in .paymentFailed }),
                    .child(in: second, id: { "second-\($0.id)" }, data: { StoredPayment.Data(amount: $0.data.amount) },
                           done: { _, _ in .paidToo }, failed: { _ in .paymentFailed })) {
                when(.paid, or: .paidToo) {
                    firstOf {
                        condition { (order: StoredParent.Data) in order.ended < 1 } | then() | update { $0.ended += 1 }
                        otherwise() | then(.paid) | update { $0.ended += 1 }
                    }
                }
                when(.paymentFailed) | then(.failed)
            }
        }
    }

    @Test func aParentRestoredWhileJoiningTakesEachChildsEndOnce() async throws {
        let store = InMemoryStore()
        let captures = Locked(0)
        let open = Gate()
        open.open()
        let held = Gate()
        let first = try Supervisor(schema: try Self.paymentSchema(open, captures: captures), durability: Durability(store: store))
        let second = try Supervisor(schema: try Self.paymentSchema(held, captures: captures), durability: Durability(store: store))
        let orders = try Supervisor(schema: try Self.joinSchema(first, second), durability: Durability(store: store))
        let reports = orders.reports()
        try await orders.activate(id: "o-4", data: StoredParent.Data(amount: 30))
        try await orders.send(to: "o-4", .pay)
        // The first payment's end is counted; the second waits.
        for await report in reports {
            if case .transition(let record) = report, record.event == .paid { break }
        }
        await held.untilArrivals(1)
        _ = try await store.entries(of: "o-4")
        // The store's history says which child's end the parent has taken: the first, at place 0.
        let joined: [HistoryEntry] = try await store.history(of: "o-4")
        let ended: [Int] = joined.last?.childrenEnded ?? []
        #expect(ended == [0])
        // Each entry in the state names the children it started, for histories to link them.
        let children: [[String]] = joined.map(\.children)
        #expect(children.suffix(2) == [["first-o-4", "second-o-4"], ["first-o-4", "second-o-4"]])
        #expect(children.first == [])
        let restarted = store.crash()
        await orders.stop()
        await first.stop()
        await second.stop()
        held.open()

        let restoredFirst = try Supervisor(schema: try Self.paymentSchema(open, captures: captures),
                                           durability: Durability(store: restarted))
        let restoredSecond = try Supervisor(schema: try Self.paymentSchema(open, captures: captures),
                                            durability: Durability(store: restarted))
        let restoredOrders = try Supervisor(schema: try Self.joinSchema(restoredFirst, restoredSecond),
                                            durability: Durability(store: restarted))
        let restoredReports = restoredOrders.reports()
        #expect(try await restoredOrders.restoreAll().restored == 1)
        await Self.awaitTarget(.paid, in: restoredReports)
        let history = try await Durability(store: restarted).history(of: "o-4", schema: try Self.joinSchema(restoredFirst, restoredSecond))
        #expect(history.compactMap(\.event) == [.pay, .paid, .paidToo], "each child's end was taken once")
        #expect(await restoredOrders.machine(id: "o-4")?.data.ended == 2)
        #expect(captures.withLock { $0 } == 2)
        await restoredOrders.shutdown()
        await restoredFirst.shutdown()
        await restoredSecond.shutdown()
    }

    @Test func aChildAnotherProcessHoldsHandsItsEndOverThroughTheStore() async throws {
        let store = InMemoryStore()
        let captures = Locked(0)
        let held = Gate()
        // This process's view of the store: another process holds the child.
        let here = ClaimRefusingStore(store, refusing: ["pay-o-6"])
        let payments = try Supervisor(schema: try Self.paymentSchema(held, captures: captures), durability: Durability(store: here))
        let orders = try Supervisor(schema: try Self.orderSchema(payments), durability: Durability(store: here))
        // The other process runs the child.
        let elsewhere = try Supervisor(schema: try Self.paymentSchema(held, captures: captures), durability: Durability(store: store))
        let child = try await elsewhere.activate(id: "pay-o-6", data: StoredPayment.Data(amount: 30))
        await held.untilArrivals(1)
        let reports = orders.reports()
        try await orders.activate(id: "o-6", data: StoredParent.Data(amount: 30))
        try await orders.send(to: "o-6", .pay)
        #expect(payments.machine(id: "pay-o-6") == nil, "the child runs elsewhere")
        var childStates = await child.stateChanges().makeAsyncIterator()
        held.open()
        while let state = await childStates.next(), state != .captured {}
        await Self.awaitTarget(.paid, in: reports)
        #expect(captures.withLock { $0 } == 1)
        await orders.shutdown()
        await payments.shutdown()
        await elsewhere.shutdown()
    }
}

extension DurableChildTests {
    @Test func aCancellationACrashCutShortIsSentAgainOnRestore() async throws {
        let shop = try Shop()
        let (store, captures, held, payments, orders) = (shop.store, shop.captures, shop.held, shop.payments, shop.orders)
        try await shop.payAndHold("o-7")
        _ = try await store.entries(of: "pay-o-7")
        // The parent's entry that leaves the state is committed; the child's cancellation is not.
        store.holdCommits(afterWrites: 1)
        try await orders.send(to: "o-7", .cancel)
        let restarted = store.crash()
        await orders.stop()
        await payments.stop()
        let before = try await Durability(store: restarted).history(of: "pay-o-7", schema: try Self.paymentSchema(held, captures: captures))
        #expect(before.last?.state == .authorizing, "the crash came before the child had its cancellation")
        let parentHistory: [HistoryEntry] = try await restarted.history(of: "o-7")
        let cancelling: [String] = parentHistory.last?.cancelling ?? []
        #expect(cancelling == ["pay-o-7"], "the parent's entry names the child it still has to cancel")

        let stillHeld = Gate()
        let restoredPayments = try Supervisor(schema: try Self.paymentSchema(stillHeld, captures: captures),
                                              durability: Durability(store: restarted))
        let restoredOrders = try Supervisor(schema: try Self.orderSchema(restoredPayments), durability: Durability(store: restarted))
        // The parent ended cancelled, but its entry keeps the cancellation: it is restored to send it.
        #expect(try await restoredOrders.restoreAll().restored == 1)
        let child = try await restoredPayments.restore(id: "pay-o-7")
        var childStates = await child.stateChanges().makeAsyncIterator()
        while let state = await childStates.next(), state != .voided {}
        stillHeld.open()
        let parent = try #require(restoredOrders.machine(id: "o-7"))
        #expect(await parent.state == .cancelled)
        // Once the child has it, the parent's newest entry no longer holds it: a second restore
        // leaves the parent in the store.
        _ = try await restarted.entries(of: "o-7")
        await restoredOrders.shutdown()
        let again = try Supervisor(schema: try Self.orderSchema(restoredPayments), durability: Durability(store: restarted))
        #expect(try await again.restoreAll().restored == 0)
        #expect(captures.withLock { $0 } == 0)
        await again.shutdown()
        await restoredPayments.shutdown()
    }
}

extension DurableChildTests {
    @Test func aChildWhoseFinalEntryAnOutageRefusedHandsItsEndOverOnceTheStoreWorks() async throws {
        let watch = StoreWatch()
        let shop = try Shop(instrument: watch)
        let (store, captures, held, payments, orders) = (shop.store, shop.captures, shop.held, shop.payments, shop.orders)
        var lines = watch.lines.makeAsyncIterator()
        let reports = orders.reports()
        try await shop.payAndHold("o-8")
        store.beginOutage()
        held.open()
        // The child captures, but its final entry is refused: its end is not handed over.
        #expect(await lines.skip(to: "unavailable pay-o-8"))
        store.endOutage()
        // Restored from the store, the child captures again (its first capture was never
        // written), and only that end reaches the parent.
        #expect(await lines.skip(to: "restored pay-o-8"))
        await Self.awaitTarget(.paid, in: reports)
        let history = try await Durability(store: store).history(of: "o-8", schema: try Self.orderSchema(payments))
        #expect(history.compactMap(\.event) == [.pay, .paid])
        let child = try await Durability(store: store).history(of: "pay-o-8", schema: try Self.paymentSchema(held, captures: captures))
        #expect(child.compactMap(\.event) == [.capture])
        await orders.shutdown()
        await payments.shutdown()
    }

    @Test(arguments: ["stop", "shutdown"])
    func parentAndChildInterruptedMidwayFinishOnceRestored(_ interruption: String) async throws {
        let shop = try Shop()
        let (store, captures, held, payments, orders) = (shop.store, shop.captures, shop.held, shop.payments, shop.orders)
        try await shop.payAndHold("o-9")
        if interruption == "stop" {
            await orders.stop()
            await payments.stop()
        } else {
            // The parent has ended before the child can finish: its end waits for the restore.
            await orders.shutdown()
            let ending = Task { await payments.shutdown() }
            held.open()
            await ending.value
        }
        let open = Gate()
        open.open()
        let restoredPayments = try Supervisor(schema: try Self.paymentSchema(open, captures: captures), durability: Durability(store: store))
        let restoredOrders = try Supervisor(schema: try Self.orderSchema(restoredPayments), durability: Durability(store: store))
        let reports = restoredOrders.reports()
        #expect(try await restoredOrders.restoreAll().restored == 1)
        await Self.awaitTarget(.paid, in: reports)
        let history = try await Durability(store: store).history(of: "o-9", schema: try Self.orderSchema(restoredPayments))
        #expect(history.compactMap(\.event) == [.pay, .paid])
        #expect(captures.withLock { $0 } == 1)
        held.open()
        await restoredOrders.shutdown()
        await restoredPayments.shutdown()
    }
}

extension DurableChildTests {
    struct Declined: Error {}

    @Test func aDurableChildWhoseSupervisorEscalatesLeavesItsParentWaiting() async throws {
        let store = InMemoryStore()
        let failing = try Schema<StoredPayment>(initial: .authorizing, final: [.captured, .voided]) {
            define(.authorizing, running: StateTask { .capture }) {
                when(.capture) | then(.captured) | { _ in throw Declined() }
                when(.void) | then(.voided)
            }
        }
        let payments = try Supervisor(schema: failing, durability: Durability(store: store),
                                      configuration: SupervisorConfiguration(machine: MachineConfiguration(failurePolicy: .stop),
                                                                             restartStrategy: .escalate))
        let paymentReports = payments.reports()
        let orders = try Supervisor(schema: try Self.orderSchema(payments), durability: Durability(store: store))
        try await orders.activate(id: "o-10", data: StoredParent.Data(amount: 30))
        try await orders.send(to: "o-10", .pay)
        for await report in paymentReports {
            if case .escalated = report { break }
        }
        // The child lives on in the store, to be restored with its supervisor: its parent was not
        // told it failed, so it still takes the customer's cancellation.
        let record = try await orders.send(to: "o-10", .cancel)
        #expect(record.target == .cancelled)
        await orders.shutdown()
        await payments.shutdown()
    }
}

extension DurableChildTests {
    @Test func aChildStartedDuringItsStoresOutageStartsOnceTheStoreWorks() async throws {
        let orderStore = InMemoryStore()
        let paymentStore = InMemoryStore()
        let captures = Locked(0)
        let open = Gate()
        open.open()
        let payments = try Supervisor(schema: try Self.paymentSchema(open, captures: captures),
                                      durability: Durability(store: paymentStore))
        let orders = try Supervisor(schema: try Self.orderSchema(payments), durability: Durability(store: orderStore))
        let reports = orders.reports()
        try await orders.activate(id: "o-11", data: StoredParent.Data(amount: 30))
        paymentStore.beginOutage()
        try await orders.send(to: "o-11", .pay)
        #expect(payments.machine(id: "pay-o-11") == nil, "the child cannot be made while its store is down")
        paymentStore.endOutage()
        await Self.awaitTarget(.paid, in: reports)
        #expect(captures.withLock { $0 } == 1)
        await orders.shutdown()
        await payments.shutdown()
    }

    @Test func aParentWhoseDurableChildsSupervisorHasEndedWaits() async throws {
        let store = InMemoryStore()
        let captures = Locked(0)
        let payments = try Supervisor(schema: try Self.paymentSchema(Gate(), captures: captures), durability: Durability(store: store))
        let orders = try Supervisor(schema: try Self.orderSchema(payments), durability: Durability(store: store))
        await payments.shutdown()
        try await orders.activate(id: "o-12", data: StoredParent.Data(amount: 30))
        try await orders.send(to: "o-12", .pay)
        // Not failed: restored with a working supervisor, it would link its child.
        #expect(try await orders.send(to: "o-12", .cancel).target == .cancelled)
        await orders.shutdown()
    }
}

extension DurableChildTests {
    @Test func aParentWaitingForItsChildIsNotPassivated() async throws {
        let store = InMemoryStore()
        let held = Gate()
        let payments = try Supervisor(schema: try Self.paymentSchema(held, captures: Locked(0)), durability: Durability(store: store))
        let orders = try Supervisor(schema: try Self.orderSchema(payments), durability: Durability(store: store))
        try await orders.activate(id: "o-13", data: StoredParent.Data(amount: 30))
        try await orders.activate(id: "o-14", data: StoredParent.Data(amount: 30))
        try await orders.send(to: "o-13", .pay)
        await held.untilArrivals(1)
        // o-14 waits in placed; o-13 waits for its child, and the child for its task.
        #expect(await orders.passivateIdle(longerThan: .zero) == 1)
        #expect(orders.machine(id: "o-13") != nil && orders.machine(id: "o-14") == nil)
        #expect(await payments.passivateIdle(longerThan: .zero) == 0)
        held.open()
        await orders.shutdown()
        await payments.shutdown()
    }
}

/// A store with a supervisor of payments, whose capture waits for `held`, and one of the orders
/// that run them as children.
struct Shop {
    let store: InMemoryStore
    let captures = Locked(0)
    let held = Gate()
    let payments: Supervisor<StoredPayment>
    let orders: Supervisor<StoredParent>

    init(store: InMemoryStore = InMemoryStore(), instrument: (any Instrument)? = nil) throws {
        self.store = store
        payments = try Supervisor(schema: try DurableChildTests.paymentSchema(held, captures: captures), durability: Durability(store: store),
                                  configuration: SupervisorConfiguration(machine: MachineConfiguration(instrument: instrument)))
        orders = try Supervisor(schema: try DurableChildTests.orderSchema(payments), durability: Durability(store: store))
    }

    /// Makes order `id` and pays it: returns once its payment child waits for `held`.
    func payAndHold(_ id: String) async throws {
        try await orders.activate(id: id, data: StoredParent.Data(amount: 30))
        try await orders.send(to: id, .pay)
        await held.untilArrivals(1)
    }
}

extension DurableChildTests {
    /// Returns once `reports` say an order reached `target`.
    static func awaitTarget(_ target: StoredParent.State, in reports: Subscription<SupervisorReport<StoredParent>>) async {
        for await report in reports {
            if case .transition(let record) = report, record.target == target { break }
        }
    }
}

/// A store as one process of several sees it: the machines in `refusing` are held by another
/// process, so claiming them gets nothing.
final class ClaimRefusingStore: WrappingStore {
    let base: InMemoryStore
    let refused: Set<String>

    init(_ base: InMemoryStore, refusing refused: Set<String>) {
        self.base = base
        self.refused = refused
    }

    var inner: any MachineStore { base }

    func claim(_ machines: [String]) async throws(StoreError) -> [String] {
        machines.filter { !refused.contains($0) }
    }
}
