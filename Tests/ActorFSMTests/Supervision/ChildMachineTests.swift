import ActorFSM
import ActorFSMTesting
import Synchronization
import Testing
import TestSupport

/// A payment, run as a child of an order: it captures or declines by itself, from its data.
enum PaymentChild: MachineDefinition {
    enum State: Hashable, Sendable { case authorizing, captured, declined, voided }
    enum Event: Hashable, Sendable { case capture, decline, void }
    typealias ID = String
    struct Data: Sendable, Equatable { var amount: Int; var captures = 0 }
}

/// An order whose `paying` state runs payment children.
enum ParentOrder: MachineDefinition {
    enum State: Hashable, Sendable { case placed, paying, paid, cancelled, failed }
    enum Event: Hashable, Sendable { case pay, paid(Int), declined, paymentFailed, cancel }
    typealias ID = Int
    struct Data: Sendable, Equatable { var amount: Int; var captured = 0 }
}

extension ParentOrder.Event: CaseKeyed {
    enum CaseKey: Hashable, Sendable { case pay, paid, declined, paymentFailed, cancel }
    var caseKey: CaseKey {
        switch self {
        case .pay: .pay
        case .paid: .paid
        case .declined: .declined
        case .paymentFailed: .paymentFailed
        case .cancel: .cancel
        }
    }
}

struct GatewayDown: Error {}

@Suite(.timeLimit(.minutes(3))) struct ChildMachineTests {
    /// A payment schema: amounts up to 100 are captured, larger ones declined; `failing` makes
    /// the capture throw that many times first.
    static func paymentSchema(failing: Locked<Int> = Locked(0), hold: Gate? = nil) throws -> Schema<PaymentChild> {
        try Schema<PaymentChild>(initial: .authorizing, final: [.captured, .declined, .voided]) {
            define(.authorizing, running: StateTask { context in
                if let hold { await hold.wait() }
                return context.data.amount <= 100 ? .capture : .decline
            } onError: { _ in nil }) {
                when(.capture) | then(.captured) | { context in
                    if failing.withLock({ count in defer { count -= 1 }; return count > 0 }) { throw GatewayDown() }
                    context.data.captures += 1
                }
                when(.decline) | then(.declined)
                when(.void) | then(.voided)
            }
        }
    }

    /// The task of an order's `paying` state: one payment child from `payments`, whose end
    /// comes back as `paid`, `declined` or `paymentFailed`.
    static func paying(in payments: Supervisor<PaymentChild>) -> StateTask<ParentOrder> {
        .child(in: payments, id: { "pay-\($0.id)" }, data: { PaymentChild.Data(amount: $0.data.amount) },
               cancelling: .void,
               done: { state, data in state == .captured ? .paid(data.captures) : .declined },
               failed: { _ in .paymentFailed })
    }

    /// An order schema whose `paying` state runs one payment child from `payments`.
    static func orderSchema(_ payments: Supervisor<PaymentChild>) throws -> Schema<ParentOrder> {
        try Schema<ParentOrder>(initial: .placed, final: [.paid, .cancelled, .failed]) {
            define(.placed) { when(.pay) | then(.paying) }
            define(.paying, running: paying(in: payments)) {
                when(.paid) | then(.paid) | { context in
                    if case .paid(let captures) = context.event { context.data.captured = captures }
                }
                when(.declined) | then(.failed)
                when(.paymentFailed) | then(.failed)
                when(.cancel) | then(.cancelled)
            }
        }
    }

    @Test func aChildsFinalStateComesBackAsTheParentsEventWithItsData() async throws {
        let payments = Supervisor(schema: try Self.paymentSchema())
        let order = Machine(schema: try Self.orderSchema(payments), id: 7, data: ParentOrder.Data(amount: 40))
        let states = await order.stateChanges()
        try await order.send(.pay)
        #expect(try await first(3, of: states) == [.placed, .paying, .paid])
        #expect(await order.data.captured == 1)
        // The child ended once done: it leaves its supervisor.
        #expect(payments.machine(id: "pay-7") == nil)
        let declined = Machine(schema: try Self.orderSchema(payments), id: 8, data: ParentOrder.Data(amount: 500))
        let declinedStates = await declined.stateChanges()
        try await declined.send(.pay)
        #expect(try await first(3, of: declinedStates) == [.placed, .paying, .failed])
    }

    @Test func aChildRestartedByItsSupervisorIsFollowed() async throws {
        let failing = Locked(1)
        let payments = Supervisor(schema: try Self.paymentSchema(failing: failing))
        let reports = payments.reports()
        let order = Machine(schema: try Self.orderSchema(payments), id: 1, data: ParentOrder.Data(amount: 10))
        let states = await order.stateChanges()
        try await order.send(.pay)
        #expect(try await first(3, of: states) == [.placed, .paying, .paid])
        var restarted = false
        for await report in reports {
            if case .restarted = report { restarted = true; break }
        }
        #expect(restarted)
    }

    @Test func aChildThatFailsForGoodIsReportedAsTheFailureEvent() async throws {
        let payments = Supervisor(schema: try Self.paymentSchema(failing: Locked(10)),
                                  configuration: SupervisorConfiguration(restartStrategy: .leaveStopped))
        let order = Machine(schema: try Self.orderSchema(payments), id: 2, data: ParentOrder.Data(amount: 10))
        let records = await order.records()
        try await order.send(.pay)
        let events = try await first(2, of: records).map(\.eventDescription)
        #expect(events == ["pay", "paymentFailed"])
        #expect(await order.state == .failed)
    }

    @Test func leavingTheStateStopsTheChildAfterTellingIt() async throws {
        let hold = Gate()
        let payments = Supervisor(schema: try Self.paymentSchema(hold: hold))
        let reports = payments.reports()
        let order = Machine(schema: try Self.orderSchema(payments), id: 3, data: ParentOrder.Data(amount: 10))
        try await order.send(.pay)
        // The child waits in authorizing; the order is cancelled meanwhile.
        await hold.untilArrivals(1)
        try await order.send(.cancel)
        #expect(await Self.targetsUntilTerminated(reports) == ["voided", "terminated"])
        #expect(await order.state == .cancelled)
        hold.open()
    }

    @Test func aParentWaitsForAllItsChildrenByCountingThemInItsData() async throws {
        let payments = Supervisor(schema: try Self.paymentSchema())
        func part(_ index: Int) -> StateTask<ParentOrder> {
            .child(in: payments, id: { "pay-\($0.id)-\(index)" }, data: { PaymentChild.Data(amount: $0.data.amount) },
                   done: { state, _ in state == .captured ? .paid(1) : .declined }, failed: { _ in .paymentFailed })
        }
        let schema = try Schema<ParentOrder>(initial: .placed, final: [.paid, .cancelled, .failed]) {
            define(.placed) { when(.pay) | then(.paying) }
            define(.paying, running: part(0), part(1), part(2)) {
                when(.paid) {
                    firstOf {
                        condition { (order: ParentOrder.Data) in order.captured < 2 } | then() | update { $0.captured += 1 }
                        otherwise() | then(.paid) | update { $0.captured += 1 }
                    }
                }
                when(.declined, or: .paymentFailed) | then(.failed)
            }
        }
        let order = Machine(schema: schema, id: 5, data: ParentOrder.Data(amount: 10))
        let states = await order.stateChanges()
        try await order.send(.pay)
        #expect(try await first(3, of: states) == [.placed, .paying, .paid])
        #expect(await order.data.captured == 3)
    }

    @Test func theFirstChildToFinishMovesTheParentOnAndStopsTheOthers() async throws {
        let hold = Gate()
        let slow = Supervisor(schema: try Self.paymentSchema(hold: hold))
        let fast = Supervisor(schema: try Self.paymentSchema())
        let schema = try Schema<ParentOrder>(initial: .placed, final: [.paid, .cancelled, .failed]) {
            define(.placed) { when(.pay) | then(.paying) }
            define(.paying, running:
                    .child(in: slow, id: { "slow-\($0.id)" }, data: { PaymentChild.Data(amount: $0.data.amount) },
                           cancelling: .void, done: { _, _ in .declined }, failed: { _ in .paymentFailed }),
                    .child(in: fast, id: { "fast-\($0.id)" }, data: { PaymentChild.Data(amount: $0.data.amount) },
                           done: { _, data in .paid(data.captures) }, failed: { _ in .paymentFailed })) {
                when(.paid) | then(.paid)
                when(.declined, or: .paymentFailed) | then(.failed)
            }
        }
        let slowReports = slow.reports()
        let order = Machine(schema: schema, id: 6, data: ParentOrder.Data(amount: 10))
        let states = await order.stateChanges()
        try await order.send(.pay)
        #expect(try await first(3, of: states) == [.placed, .paying, .paid])
        // The slow child was told to void, and stopped.
        var slowTargets: [PaymentChild.State] = []
        for await report in slowReports {
            if case .transition(let record) = report { slowTargets.append(record.target) }
            if case .terminated = report { break }
        }
        #expect(slowTargets == [.voided])
        hold.open()
    }

    @Test func aStoppedParentStopsItsChildInMemory() async throws {
        let hold = Gate()
        let payments = Supervisor(schema: try Self.paymentSchema(hold: hold))
        let reports = payments.reports()
        let order = Machine(schema: try Self.orderSchema(payments), id: 9, data: ParentOrder.Data(amount: 10))
        try await order.send(.pay)
        await hold.untilArrivals(1)
        await order.stop()
        #expect(await Self.targetsUntilTerminated(reports) == ["voided", "terminated"])
        #expect(payments.count == 0)
        hold.open()
    }

    @Test func aChildSupervisorsShutdownIsTheParentsFailureEvent() async throws {
        let hold = Gate()
        let payments = Supervisor(schema: try Self.paymentSchema(hold: hold))
        let order = Machine(schema: try Self.orderSchema(payments), id: 10, data: ParentOrder.Data(amount: 10))
        let records = await order.records()
        try await order.send(.pay)
        await hold.untilArrivals(1)
        await payments.stop()
        let events = try await first(2, of: records).map(\.eventDescription)
        #expect(events == ["pay", "paymentFailed"])
        hold.open()
    }

    @Test func aChildIDAnotherParentWaitsForIsRefused() async throws {
        let hold = Gate()
        let payments = Supervisor(schema: try Self.paymentSchema(hold: hold))
        let schema = try Self.orderSchema(payments)
        let holder = Machine(schema: schema, id: 11, data: ParentOrder.Data(amount: 10))
        try await holder.send(.pay)
        await hold.untilArrivals(1)
        // The same order id twice: the second child's id is taken.
        let second = Machine(schema: schema, id: 11, data: ParentOrder.Data(amount: 10))
        let records = await second.records()
        try await second.send(.pay)
        let events = try await first(2, of: records).map(\.eventDescription)
        #expect(events == ["pay", "paymentFailed"])
        #expect(await holder.state == .paying)
        hold.open()
    }

    @Test func reenteringTheStateStartsAFreshChildUnderTheSameID() async throws {
        let payments = Supervisor(schema: try Self.paymentSchema())
        let schema = try Schema<ParentOrder>(initial: .placed, final: [.cancelled, .failed]) {
            define(.placed) { when(.pay) | then(.paying) }
            define(.paying, running: .child(
                in: payments, id: { "pay-\($0.id)" }, data: { PaymentChild.Data(amount: $0.data.amount) },
                done: { _, data in .paid(data.captures) }, failed: { _ in .paymentFailed })) {
                when(.paid) | then(.placed) | { context in context.data.captured += 1 }
            }
        }
        let order = Machine(schema: schema, id: 12, data: ParentOrder.Data(amount: 10))
        var states = await order.stateChanges().makeAsyncIterator()
        var seen: [ParentOrder.State] = []
        for _ in 0..<2 {
            try await order.send(.pay)
            while let state = await states.next() {
                seen.append(state)
                if seen.count > 1 && state == .placed { break }
            }
        }
        #expect(seen == [.placed, .paying, .placed, .paying, .placed])
        #expect(await order.data.captured == 2)
    }

    @Test func aChildThatAFailurePolicyPutsInAFinalStateHandsThatStateOver() async throws {
        let payments = Supervisor(
            schema: try Self.paymentSchema(failing: Locked(1)),
            configuration: SupervisorConfiguration(machine: MachineConfiguration(failurePolicy: .enter(.declined))))
        let order = Machine(schema: try Self.orderSchema(payments), id: 13, data: ParentOrder.Data(amount: 10))
        let states = await order.stateChanges()
        try await order.send(.pay)
        #expect(try await first(3, of: states) == [.placed, .paying, .failed])
    }

    /// The targets of the child supervisor's records, then "terminated", once a child leaves it.
    static func targetsUntilTerminated(_ reports: Subscription<SupervisorReport<PaymentChild>>) async -> [String] {
        var seen: [String] = []
        for await report in reports {
            switch report {
            case .transition(let record): seen.append("\(record.target)")
            case .terminated: seen.append("terminated")
            default: continue
            }
            if seen.last == "terminated" { break }
        }
        return seen
    }

    @Test func diagramsNameAStatesChildren() throws {
        let payments = Supervisor(schema: try Self.paymentSchema())
        let mermaid = try Self.orderSchema(payments).mermaid()
        #expect(mermaid.contains("child PaymentChild"))
    }
}
