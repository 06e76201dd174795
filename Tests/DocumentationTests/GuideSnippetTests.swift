import ActorFSM
import ActorFSMDistribution
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMSQLite
import ActorFSMTesting
import Distributed
import Testing
import TestSupport

// Every ```swift example of Docs/*.md and of the DocC articles that is not marked
// `<!-- not compiled -->`, verbatim (their `import` lines aside), in a context that declares the
// names it uses (the README's is in `ReadmeTests`). `DocSnippetTests` checks that each example
// is here.

/// The orders the Time guide's test example runs: a 30 s timeout to `.cancelled`.
private enum TimedOrders: MachineDefinition {
    typealias State = DocOrderState
    typealias Event = DocOrderEvent
}

/// The orders the Time guide's test example runs: a 30 s timeout to `.cancelled`.
private let orders = try! Schema<TimedOrders>(initial: .placed, final: [.cancelled]) {
    define(.placed) { after(.seconds(30)) | then(.cancelled) }
}

enum GuideOrderState: Hashable, Sendable { case placed, shipped, delivered, cancelled }
enum GuideOrderEvent: Hashable, Sendable { case ship, deliver, cancel }

enum GuideSyntaxBuilder {
    final class Turnstile: SyntaxBuilder {
        enum State: Hashable, Sendable { case locked, unlocked }
        enum Event: Hashable, Sendable { case coin, pass, reset }

        func makeSchema() throws -> Schema<Turnstile> {
            try Schema(initial: .locked) {
                let resetable = SuperState { when(.reset) | then(.locked) }
                define(.locked, adopts: resetable) { when(.coin) | then(.unlocked) }
            }
        }
    }
}

/// A catalogue the state task example refreshes.
protocol GuideCatalogue: Sendable {
    func refresh() async throws
}

/// The Time guide's test example, which runs.
@Test func anUnpaidOrderIsCancelledAfterThirtySeconds() async throws {
    let clock = ManualClock()
    let machine = Machine(schema: orders, id: "order-7", configuration: MachineConfiguration(clock: clock))
    var records = await machine.records().makeAsyncIterator()

    clock.advance(by: .seconds(30))
    let record = try #require(await records.next())
    #expect(record.origin == .timeout(after: .seconds(30)))
    #expect(record.target == .cancelled)
}

/// Generated paths through a table of the guides, each on a fresh machine: every row fires.
func expectEveryRowFires<Definition: MachineDefinition>(
    _ schema: Schema<Definition>, samples: [Definition.Event] = [], sourceLocation: Testing.SourceLocation = #_sourceLocation
) async throws where Definition.ID == String, Definition.Data == Void {
    let coverage = try await GeneratedPaths(schema, samples: samples).run { path, clock in
        Machine(schema: schema, id: "path-\(path.index)", configuration: MachineConfiguration(clock: clock))
    } checking: { machine, record in
        #expect(record.outcome.isTransitioned, "\(record)", sourceLocation: sourceLocation)
    }
    #expect(coverage.uncovered.isEmpty, "\(coverage)", sourceLocation: sourceLocation)
}

/// The guides' tables that machines can run as they are written, through generated paths.
@Test(.timeLimit(.minutes(3))) func theGuidesTablesFireEveryRow() async throws {
    let guide = GuideSnippets()
    try await guide.guideFirstTable()
    try await guide.guideFinalStates()
    try await guide.guideSuperStates()
    try await guide.guidePredicates()
    try await guide.guideAliases()
    try await guide.guidePayloads()
    let time = TimeGuideSnippets()
    try await time.firstTimeout()
    try time.timeoutsWithPredicates()
}

struct GuideSnippets {
    func guideFirstTable() async throws {
        enum Turnstile: MachineDefinition {
            enum State: Hashable, Sendable { case locked, unlocked, alarming }
            enum Event: Hashable, Sendable { case coin, pass, reset }
        }

        let turnstile = try Schema<Turnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked) | unlock
                when(.pass) | then(.locked)   | alarm
            }
            define(.unlocked) {
                when(.coin) | then(.unlocked) | thankyou
                when(.pass) | then(.locked)   | lock
            }
        }
        try await expectEveryRowFires(turnstile)
    }

    func guideResolve(turnstile: Schema<Turnstile>) {
        if case .transition(let transition) = turnstile.resolve(.coin, in: .locked) {
            print(transition.target)        // unlocked
        }
    }

    func guideFinalStates() async throws {
        enum Orders: MachineDefinition {
            typealias State = GuideOrderState
            typealias Event = GuideOrderEvent
        }
        let order = try Schema<Orders>(initial: .placed, final: [.delivered, .cancelled]) {
            define(.placed)  { when(.ship) | then(.shipped); when(.cancel) | then(.cancelled) }
            define(.shipped) { when(.deliver) | then(.delivered) }
        }
        print(order.finalStates)   // [.delivered, .cancelled]
        try await expectEveryRowFires(order)
    }

    func guideStatements(resetable: SuperState<Turnstile>) throws {
        _ = try Schema<Turnstile>(initial: .locked) {
            define(.alarming) {
                when(.coin)  | then()                          // `then()` stays in the current state
                when(.pass)  | then()                          // actions are optional
                when(.reset) | then(.locked) | alarmOff & lock // `&` joins actions
            }
            define(.locked) {
                when(.coin, or: .pass) | then(.unlocked)       // one transition per event
            }
        }
        _ = try Schema<Turnstile>(initial: .locked) {
            let s1 = SuperState<Turnstile> { when(.coin) | then(.unlocked) | unlock }

            define(.locked, adopts: s1) {
                override { when(.coin) | then(.locked) | beGrumpy }
            }
        }
        _ = try Schema<Turnstile>(initial: .locked) {
            define(.alarming, adopts: resetable, onEntry: [alarmOn], onExit: [alarmOff])
            let lockOnEntry = SuperState<Turnstile>(onEntry: [lock]) { when(.reset) | then(.locked) }
            define(.locked, adopts: lockOnEntry)
        }
    }

    func guideSuperStates() async throws {
        let turnstile = try Schema<Turnstile>(initial: .locked) {
            let resetable = SuperState<Turnstile> { when(.reset) | then(.locked) }

            define(.locked, adopts: resetable) {
                when(.coin) | then(.unlocked)
                when(.pass) | then(.alarming)
            }
            define(.unlocked, adopts: resetable) { when(.pass) | then(.locked) }
            define(.alarming, adopts: resetable)       // the block is optional when a state adopts
        }
        let schema = try Schema<Turnstile>(initial: .locked, entryExitPolicy: .executeAlways) {
            define(.locked) { when(.coin) | then(.locked) | lock }
        }
        try await expectEveryRowFires(turnstile)
        try await expectEveryRowFires(schema)
    }

    func guidePredicates() async throws {
        enum Enforcement: MatchingPredicate { case weak, strong }
        enum Reward: MatchingPredicate { case positive, negative }

        let turnstile = try Schema<Turnstile>(initial: .locked, final: [.unlocked, .alarming]) {
            define(.locked) {
                matching(Enforcement.weak)   | when(.pass) | then(.locked)   | smile
                matching(Enforcement.strong) | when(.pass) | then(.alarming) | defconOne
                when(.coin) | then(.unlocked)          // any Enforcement
            }
        }

        let resolution = turnstile.resolve(.pass, in: .locked, predicates: Enforcement.weak)
        let rushHour = PredicateContext(Enforcement.weak)   // or make a context, to keep or pass along
        _ = (resolution, rushHour, Reward.positive)
        try await expectEveryRowFires(turnstile)
    }

    func guideBlocksAndConditions(enforcement: Enforcement) throws {
        _ = try Schema<Turnstile>(initial: .locked, final: [.unlocked, .alarming]) {
            define(.locked) {
                when(.pass) {
                    matching(Enforcement.weak)   | then(.locked)
                    matching(Enforcement.strong) | then(.alarming)
                }
                then(.unlocked) {
                    when(.coin) | thankyou
                }
                actions(log) {
                    when(.reset) | then(.locked)        // runs log, then its own actions
                }
            }
        }
        _ = try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
            define(.locked) {
                condition { isRushHour() } | when(.pass) | then(.locked)
                condition({ (event: Event) in event == .coin }) {   // block form; a condition may read the event
                    when(.coin) | then(.unlocked)
                }
            }
        }
        _ = try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
            define(.locked) {
                when(.coin) {
                    condition { enforcement == .weak }   | then(.unlocked)
                    condition { enforcement == .strong } | then(.locked)
                }   // 💥 logical clash: use matching for this
            }
        }
    }

    func guideAliases() async throws {
        typealias d = Syntax.Define<Turnstile>
        typealias w = Syntax.When<Turnstile>
        typealias t = Syntax.Then<Turnstile>

        let schema = try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
            d(.locked) { w(.coin) | t(.unlocked) | unlock }
        }
        try await expectEveryRowFires(schema)
    }

    func guidePayloads() async throws {
        enum Payment: CaseKeyed {
            case coin(cents: Int)
            case card(number: String)

            enum CaseKey: Hashable, Sendable { case coin, card }
            var caseKey: CaseKey {
                switch self {
                case .coin: .coin
                case .card: .card
                }
            }
        }

        enum Till: MachineDefinition {
            typealias State = Turnstile.State
            typealias Event = Payment
        }

        let till = try Schema<Till>(initial: .locked, final: [.unlocked]) {
            define(.locked) {
                when(.coin) | then(.unlocked) | { (payment: Payment) in print(payment) }   // every coin
                condition({ (payment: Payment) in "\(payment)".count < 40 }) | when(.card) | then(.unlocked)
            }
        }
        try await expectEveryRowFires(till, samples: [.coin(cents: 50), .card(number: "4242 4242 4242 4242")])
    }

    /// The overview of ActorFSM's catalog.
    func catalogOverview(turnstile: Schema<Turnstile>) async throws {
        let gate = Machine(schema: turnstile, id: "gate-7")
        let record = try await gate.send(.coin)
        _ = record
    }

    func diagrams(turnstile: Schema<Turnstile>) {
        print(turnstile.mermaid())
        print(turnstile.dot(name: "Turnstile"))   // then: dot -Tsvg turnstile.dot > turnstile.svg
    }

    func supervisor(orderSchema: Schema<Orders>) async throws {
        let orders = Supervisor<Orders>(
            schema: orderSchema,
            configuration: SupervisorConfiguration(
                machine: MachineConfiguration(inboxCapacity: 16, failurePolicy: .stop),
                restartStrategy: .restart,
                intensity: RestartIntensity(maxRestarts: 10, within: .seconds(60))))

        let reports = orders.reports()               // every machine's records, and supervision decisions
        try orders.spawn(id: 42)                     // or spawn(id:startingIn:)
        try await orders.send(to: 42, .submit)       // or post(to:_:), tryPost(to:_:), machine(id:), stop(id:)

        for await report in reports {
            switch report {
            case .transition(let record): print(record)          // record.machineID says which order
            case .restarted(let id, let error): print("order \(id) restarted after \(error)")
            case .terminated(let id, let how): print("order \(id) ended: \(how)")
            case .passivated(let id): print("order \(id) written out of memory")
            case .escalated(let id, let error): print("gave up at order \(id): \(error)")
            }
        }
        await orders.shutdown()                      // drains every machine, then finishes the stream
    }

    func observability(orderSchema: Schema<Orders>) {
        final class OrderInstrument: Instrument {}
        let orders = Supervisor<Orders>(
            schema: orderSchema,
            configuration: SupervisorConfiguration(machine: MachineConfiguration(instrument: OrderInstrument())))
        _ = orders
    }
}

/// The Time guide's examples, on one order type with every state they name.
struct TimeGuideSnippets {
    enum Orders: MachineDefinition {
        enum State: Hashable, Sendable {
            case pending, paid, cancelled, reminded, escalated, authorising, declined, shipping, delayed, waiting
        }
        enum Event: Hashable, Sendable { case pay, remind, decline, retry }
    }

    func firstTimeout() async throws {
        enum Orders: MachineDefinition {
            enum State: Hashable, Sendable { case pending, paid, cancelled }
            enum Event: Hashable, Sendable { case pay, remind }
        }

        let orders = try Schema<Orders>(initial: .pending, final: [.cancelled]) {
            define(.pending) {
                when(.pay) | then(.paid)
                after(.seconds(30)) | then(.cancelled) | refund
            }
            define(.paid) { when(.remind) | then() }
        }
        try await expectEveryRowFires(orders)
    }

    func timeoutsWithPredicates() throws {
        enum Mode: MatchingPredicate { case strict, lenient }

        let orders = try Schema<Orders>(initial: .pending, final: [.cancelled, .reminded, .escalated]) {
            define(.pending) {
                matching(Mode.strict)  | after(.seconds(5)) | then(.cancelled)
                matching(Mode.lenient) | after(.seconds(5)) | then(.reminded)
                condition { isBusinessHours() } | after(.seconds(60)) | then(.escalated)
            }
        }
        // The timeouts need standing predicates, which one machine has one of: no row is dead.
        #expect(GeneratedPaths(orders).unreachable.isEmpty)
    }

    func timeoutActionsAndSuperStates() throws {
        _ = try Schema<Orders>(initial: .pending, final: [.cancelled]) {
            define(.pending) {
                after(.seconds(30)) | then(.cancelled) | { context in
                    print("\(context.source) \(context.eventDescription)")   // pending after 30s
                }
            }
        }
        _ = try Schema<Orders>(initial: .pending, final: [.paid, .cancelled, .declined, .delayed]) {
            let expiring = SuperState<Orders> { after(.seconds(900)) | then(.cancelled) }

            define(.pending, adopts: expiring) { when(.pay) | then(.paid) }
            define(.authorising, adopts: expiring) {
                override { after(.seconds(900)) | then(.declined) }   // same duration: replaces the inherited one
            }
            define(.shipping, adopts: expiring) {
                after(.seconds(60)) | then(.delayed)                   // another duration: both are armed
            }
        }
        _ = try Schema<Orders>(initial: .pending, final: [.waiting]) {
            define(.pending) {
                when(.decline) | then(.waiting) | { context in try context.schedule(.retry, after: .seconds(5)) }
            }
        }
    }

    func scheduleAReminder(orders: Schema<Orders>) throws {
        let machine = Machine(schema: orders, id: "order-7")
        let reminder = try machine.schedule(.remind, after: .seconds(60))
        // …
        reminder.cancel()        // true: it was still waiting, and will never be delivered
    }

    func stateTask(catalogue: any GuideCatalogue) throws {
        enum Screens: MachineDefinition {
            enum State: Hashable, Sendable { case idle, loading, showing, failed }
            enum Event: Hashable, Sendable { case open, loaded, loadFailed, close }
        }

        let screen = try Schema<Screens>(initial: .idle, final: [.showing, .failed]) {
            define(.idle) { when(.open) | then(.loading) }
            define(.loading, running: StateTask {
                try await catalogue.refresh()
                return .loaded
            } onError: { _ in
                .loadFailed
            }) {
                when(.loaded)     | then(.showing)
                when(.loadFailed) | then(.failed)
                when(.close)      | then(.idle)
            }
        }
        _ = screen
    }

    func clocks(orders: Schema<Orders>) async throws {
        let machine = Machine(schema: orders, id: "order-7",
                              configuration: MachineConfiguration(clock: SuspendingClock()))
        _ = machine
    }

    func sleepers(clock: ManualClock, machine: Machine<Orders>) async throws {
        await clock.waitUntilSleeping(count: 1)   // the timeout of .pending waits on the clock
        try await machine.send(.pay)
        #expect(clock.sleeperCount == 0)          // leaving .pending ended the wait
    }

    func transitionFunction() throws {
        let counter = try Schema<Counter>(initial: .one, final: [.three]) { state, event in
            switch (state, event) {
            case (.one, .increment): .two
            case (.two, .increment): .three
            case (.two, .decrement): .one
            default: nil
            }
        }
        _ = counter
    }

    @Test func postponing() async throws {
        enum Shipment: MachineDefinition {
            enum State: Hashable, Sendable { case packing, ready }
            enum Event: Hashable, Sendable { case ship, packed }
        }

        let shipment = try Schema<Shipment>(initial: .packing, final: [.ready]) {
            define(.packing) {
                when(.ship) | postpone()
                when(.packed) | then(.ready)
            }
        }
        let machine = Machine(schema: shipment, id: "parcel-1")
        let records = await machine.records()
        try machine.tryPost(.ship)
        try machine.tryPost(.packed)
        let seen = try await first(2, of: records)
        #expect(seen.map(\.eventDescription) == ["packed", "ship"])
        #expect(seen.map(\.postponements) == [0, 1])
        // Generated paths fire the table's transition, and name the row that postpones.
        let paths = GeneratedPaths(shipment)
        #expect(paths.unreachable.map(\.reason.description) == ["it postpones its event, which no record shows"])
        let coverage = try await paths.run { path, _ in Machine(schema: shipment, id: "parcel-\(path.index)") }
        #expect(coverage.covered.count == 1 && coverage.deadRows.isEmpty, "\(coverage)")
    }

    @Test func machineData() async throws {
        enum Checkout: MachineDefinition {
            enum State: Hashable, Sendable { case paying, paid }
            enum Event: Hashable, Sendable { case declined, approved }
            typealias ID = Int
            struct Data: Sendable { var amount: Int; var attempts = 0 }
        }

        let checkout = try Schema<Checkout>(initial: .paying, final: [.paid]) {
            define(.paying) {
                when(.declined) | then() | { context in context.data.attempts += 1 }
                when(.approved) | then(.paid)
            }
        }
        let order = Machine(schema: checkout, id: 1042, data: Checkout.Data(amount: 99))
        try await order.send(.declined)
        print(await order.data.attempts)   // 1
        #expect(await order.data.attempts == 1)
        #expect(await order.data.amount == 99)

        let counting = try Schema<Checkout>(initial: .paying, final: [.paid]) {
            define(.paying) {
                when(.declined) | then() | update { $0.attempts += 1 }
                when(.approved) | then(.paid)
            }
        }
        let counted = Machine(schema: counting, id: 7, data: Checkout.Data(amount: 5))
        try await counted.send(.declined)
        try await counted.send(.declined)
        #expect(await counted.data.attempts == 2)
        // Generated paths fire every transition of both tables; no decline loses the amount.
        for schema in [checkout, counting] {
            let coverage = try await GeneratedPaths(schema).run { path, _ in
                Machine(schema: schema, id: path.index, data: Checkout.Data(amount: 99))
            } checking: { order, _ in
                #expect(await order.data.amount == 99)
            }
            #expect(coverage.uncovered.isEmpty, "\(coverage)")
        }
    }

    @Test func retryingAnAction() async throws {
        enum Payments: MachineDefinition {
            enum State: Hashable, Sendable { case placed, paid }
            enum Event: Hashable, Sendable { case pay }
            typealias ID = Int
        }

        struct CardDeclined: Error {}

        let gateway = FlakyGateway(failures: 2)
        let clock = ManualClock()
        let payments = try Schema<Payments>(initial: .placed, final: [.paid]) {
            define(.placed) {
                when(.pay) | then(.paid) | retry(.exponential(initial: .seconds(1), maximum: .seconds(30), attempts: 5),
                                                 unless: { $0 is CardDeclined }) { context in
                    try await gateway.charge(key: context.idempotencyKey, attempt: context.attempt)
                }
            }
        }
        let order = Machine(schema: payments, id: 42, configuration: MachineConfiguration(clock: clock))
        let paying = Task { try await order.send(.pay) }
        for delay in [Duration.seconds(1), .seconds(2)] {
            await clock.waitUntilSleeping(count: 1)
            clock.advance(by: delay)
        }
        let record = try await paying.value
        print(record.attempts)   // 3: two failures, then the charge went through
        #expect(record.attempts == 3 && record.target == .paid)
        #expect(gateway.keys.withLock { $0 } == ["42#1", "42#1", "42#1"])
    }

    @Test func childMachines() async throws {
        enum Capture: MachineDefinition {
            enum State: Hashable, Sendable { case authorizing, captured, declined, voided }
            enum Event: Hashable, Sendable { case capture, decline, void }
            typealias ID = String
            struct Data: Sendable { var amount: Int }
        }

        enum Checkout: MachineDefinition {
            enum State: Hashable, Sendable { case placed, paying, paid, cancelled }
            enum Event: Hashable, Sendable { case pay, paid, declined, cancel }
            typealias ID = Int
            struct Data: Sendable { var amount: Int }
        }

        let captures = Supervisor(schema: try Schema<Capture>(initial: .authorizing, final: [.captured, .declined, .voided]) {
            define(.authorizing, running: StateTask { context in context.data.amount <= 100 ? .capture : .decline }) {
                when(.capture) | then(.captured)
                when(.decline) | then(.declined)
                when(.void) | then(.voided)
            }
        })
        let checkout = try Schema<Checkout>(initial: .placed, final: [.paid, .cancelled]) {
            define(.placed) { when(.pay) | then(.paying) }
            define(.paying, running: .child(in: captures, id: { "capture-\($0.id)" }, data: { Capture.Data(amount: $0.data.amount) },
                                            cancelling: .void,
                                            done: { state, _ in state == .captured ? .paid : .declined },
                                            failed: { _ in .declined })) {
                when(.paid) | then(.paid)
                when(.declined, or: .cancel) | then(.cancelled)
            }
        }
        let basket = Machine(schema: checkout, id: 12, data: Checkout.Data(amount: 40))
        let states = await basket.stateChanges()
        try await basket.send(.pay)
        for await state in states where state == .paid { break }   // the child captured by itself
        #expect(await basket.state == .paid)
        #expect(checkout.mermaid().contains("child Capture"))
    }

    @Test func orderedAlternatives() async throws {
        enum Payment: MachineDefinition {
            enum State: Hashable, Sendable { case charging, review, failed, paid }
            enum Event: Hashable, Sendable { case declined, approved }
            typealias ID = Int
            struct Data: Sendable { var amount: Int; var attempts = 0 }
        }

        let payment = try Schema<Payment>(initial: .charging, final: [.review, .failed, .paid]) {
            define(.charging) {
                when(.approved) | then(.paid)
                when(.declined) {
                    firstOf {
                        condition { (payment: Payment.Data) in payment.attempts < 3 } | then() | update { $0.attempts += 1 }
                        condition { (payment: Payment.Data) in payment.amount > 1_000 } | then(.review)
                        otherwise() | then(.failed)
                    }
                }
            }
        }
        let card = Machine(schema: payment, id: 7, data: Payment.Data(amount: 5_000))
        for _ in 0..<4 { try await card.send(.declined) }
        print(await card.state)   // review: the fourth decline found 3 attempts
        #expect(await card.state == .review)
        let small = Machine(schema: payment, id: 8, data: Payment.Data(amount: 5, attempts: 3))
        #expect(try await small.send(.declined).target == .failed)
        // Generated paths, each run with the data its last alternative needs: every row fires.
        let coverage = try await GeneratedPaths(payment).run { path, _ in
            let data = switch path.transitions.last?.target {
            case .review: Payment.Data(amount: 5_000, attempts: 3)
            case .failed: Payment.Data(amount: 5, attempts: 3)
            default: Payment.Data(amount: 5)
            }
            return Machine(schema: payment, id: path.index, data: data)
        }
        #expect(coverage.uncovered.isEmpty, "\(coverage)")
        // With the data of a first payment only, the rows behind the first alternative are named.
        let first = try await GeneratedPaths(payment).run { path, _ in
            Machine(schema: payment, id: path.index, data: Payment.Data(amount: 5))
        }
        #expect(first.uncovered.count == 2)
        #expect(first.uncovered.allSatisfy { $0.reason.description.hasPrefix("a condition decided otherwise") }, "\(first)")
    }

    /// Concurrency's "Pausing".
    @Test func pausingAMachine() async throws {
        let order = Machine(schema: orders, id: "o-7")
        try await order.pause(reason: "the card was declined twice")
        // … look at the order, fix what it depends on …
        await order.resume(reason: "the customer added a card")
        let running = (await order.isPaused, await order.isAcceptingEvents)
        #expect(running == (false, true))
    }
}

/// The examples of the DurableMachines article (ActorFSMDurability's catalog), compiled; the durability tests run what they show.
enum DurabilityGuideSnippets {
    static func readBack(orders: Supervisor<StoredOrders>) async throws {
        let order = try await orders.restore(id: "o-1042")   // throws .unknownMachine if never made
        _ = order
    }

    static func quickStart(orderSchema: Schema<StoredOrders>) async throws {
        let store = try SQLiteStore(path: "orders.sqlite")
        let orders = try Supervisor(schema: orderSchema, durability: Durability(store: store))
        try await orders.restoreAll()                                   // every order that was running
        try await orders.activate(id: "o-1042", data: Purchase(amount: 99, attempts: 0))
        try await orders.send(to: "o-1042", .submit)                    // returns once it is durable

        let order = try await Machine(schema: orderSchema, id: "o-7", data: Purchase(amount: 5, attempts: 0),
                                      durability: Durability(store: store))
        _ = order

        for entry in try await Durability(store: store).history(of: "o-1042", schema: orderSchema) {
            print(entry.sequenceNumber, entry.kind, entry.state.map { "\($0)" } ?? "-")
        }
    }

    static func idempotency(payments: DocPayments) throws {
        _ = try Schema<StoredOrders>(initial: .placed) {
            define(.placed) {
                when(.submit) | then(.paymentPending) | { context in
                    try await payments.charge(order: context.id, idempotencyKey: context.idempotencyKey)
                }
            }
        }
    }

    static func pausing(orders: Supervisor<StoredOrders>) async throws {
        try await orders.pause("o-1042", reason: "the address needs a check")
        // … later, in this process or in another one after a restart …
        try await orders.resume("o-1042", reason: "address confirmed")
    }

    static func cancelling(orderSchema: Schema<StoredOrders>, store: SQLiteStore) async throws {
        let orders = try Supervisor(schema: orderSchema,
                                    durability: Durability(store: store, cancelling: .cancel))
        let outcome = try await orders.cancel("o-1042", reason: "the customer withdrew the order")
        _ = outcome
    }

    static func retrying(orders: Supervisor<StoredOrders>) async throws {
        try await orders.retry("o-1042", reason: "the provider is back")
    }

    static func actingOnAQuery(orders: Supervisor<StoredOrders>) async throws {
        let failed = MachineQuery(status: .failed)
        let preview = try await orders.act(.retry, on: failed, reason: "deployed the fix", dryRun: true)
        print("\(preview.selected) orders to retry: \(preview.firstIDs)")
        let report = try await orders.act(.retry, on: failed, reason: "deployed the fix")
        for failure in report.failures { print(failure.machine, failure.reason) }
    }

    static func signalling(orders: Supervisor<StoredOrders>) async throws {
        try await orders.signal("o-1042", .paid, reason: "paid by bank transfer, seen on the statement")
    }

    static func passivation(orderSchema: Schema<StoredOrders>, store: SQLiteStore) throws {
        let orders = try Supervisor(schema: orderSchema, durability: Durability(store: store),
                                    passivation: Passivation(afterIdle: .seconds(600), keepingAtMost: 100_000))
        _ = orders
    }

    static func migration() {
        let migration = SchemaMigration<StoredOrders>(
            state: { stored in
                switch try stored.decode(as: String.self) {
                case "awaitingPayment": .paymentPending
                default: nil
                }
            },
            data: { stored in Purchase(try stored.decode(as: PurchaseV1.self)) })
        _ = migration
    }

    static func compatibility(orders: Supervisor<StoredOrders>) async throws {
        let report = try await orders.compatibility()
        for problem in report.problems { print(problem) }
    }

    static func generatedPaths(ordersV2: Schema<StoredOrders>) async throws {
        let paths = GeneratedPaths(ordersV2)
        #expect(paths.unreachable.isEmpty, "\(paths.unreachable)")
        let coverage = try await paths.run { path, clock in
            Machine(schema: ordersV2, id: "path-\(path.index)", data: Purchase(amount: 10, attempts: 0),
                    configuration: MachineConfiguration(clock: clock))
        } checking: { order, record in
            #expect(await order.data.attempts <= 3)
        }
        #expect(coverage.uncovered.isEmpty, "\(coverage)")
    }

    static func replay(productionCopy: SQLiteStore, ordersV2: Schema<StoredOrders>, migration: SchemaMigration<StoredOrders>) async throws {
        let histories = try await StoredHistory.read(from: productionCopy, matching: MachineQuery(limit: 1_000))
        let replay = try Replay(histories, through: ordersV2, migration: migration, schemaVersion: 2)
        #expect(replay.divergences.isEmpty, "\(replay.divergences)")
    }

    static func testing(orders: Schema<StoredOrders>) async throws {
        let store = InMemoryStore()
        let order = try await Machine(schema: orders, id: "o-7", data: Purchase(amount: 5, attempts: 0),
                                      durability: Durability(store: store))
        try await order.send(.pay)
        let restarted = store.crash()   // what a process that dies now leaves behind
        let again = try await Machine(schema: orders, id: "o-7", data: Purchase(amount: 5, attempts: 0),
                                      durability: Durability(store: restarted))
        _ = again
    }
}

/// The examples of the Distribution article (ActorFSMDistribution's catalog), compiled; the PostgreSQL and distributed actor tests
/// run what they show.
enum DistributionGuideSnippets {
    static func postgresStore(orderSchema: Schema<StoredOrders>) async throws {
        let store = try PostgresStore(url: "postgresql://orders@db.internal/orders", leaseDuration: .seconds(10))
        let orders = try Supervisor(schema: orderSchema, durability: Durability(store: store))
        try await orders.activate(id: "o-1042", data: Purchase(amount: 99, attempts: 0))
        try await orders.send(to: "o-1042", .submit)                    // returns once it is committed

        do {
            try await orders.activate(id: "o-1042", data: Purchase(amount: 99, attempts: 0))
        } catch let error where error.kind == .notDurable {
            if let cause = error.underlying as? DurabilityError, cause.kind == .heldElsewhere {
                // Another live process runs o-1042: send(to:_:) reaches it there.
            }
        }
    }

    static func namespaces(orderSchema: Schema<StoredOrders>, paymentSchema: Schema<StoredOrders>) throws {
        let orderStore = try PostgresStore(url: "postgresql://orders@db.internal/orders", namespace: "orders")
        let paymentStore = try PostgresStore(url: "postgresql://orders@db.internal/orders", namespace: "payments")
        let payments = try Supervisor(schema: paymentSchema, durability: Durability(store: paymentStore))
        let orders = try Supervisor(schema: orderSchema, durability: Durability(store: orderStore))
        _ = (payments, orders)
    }

    static func operations(store: SQLiteStore) async throws {
        for count in try await store.stateCounts() { print(count.state, count.count) }
        let stuck = try await store.machines(MachineQuery(state: "paymentPending").olderThan(.seconds(3600)))
        let story = try await store.history(of: "o-1042")
        _ = (stuck, story)
    }

    static func operationsFollower(store: SQLiteStore) async throws {
        var follower = ChangeFollower(store: store)
        while true {
            for machine in try await follower.next() { print(machine.id, machine.summary.state) }
            try await Task.sleep(for: .seconds(1))
        }
    }

    static func operationsPurge(store: SQLiteStore) async throws {
        let month = MachineQuery().olderThan(.seconds(30 * 86_400))
        let preview = try await store.purgePreview(month)
        print("\(preview.purged) machines would go, first \(preview.firstIDs.prefix(5))")
        let report = try await store.purge(month)
        _ = report
    }

    static func operationsReaders() async throws {
        do {
            let store = try SQLiteReader(path: "orders.sqlite")
            for count in try await store.stateCounts() { print(count.state, count.count) }
        }
        do {
            let store = try PostgresReader(url: "postgresql://orders@db.internal/orders", namespace: "orders")
            for count in try await store.stateCounts() { print(count.state, count.count) }
        }
    }

    static func temporaryServer() throws {
        let server = try TemporaryPostgres.start()
        defer { server.stop() }
        let store = try PostgresStore(url: server.url)
        _ = store
    }

    static func facade(orderSchema: Schema<Orders>) async throws {
        let system = LocalTestingDistributedActorSystem()
        let orders = DistributedSupervisor(serving: Supervisor(schema: orderSchema), actorSystem: system)
        let remote = try DistributedSupervisor<Orders, LocalTestingDistributedActorSystem>.resolve(id: orders.id, using: system)
        let record = try await remote.send(to: 42, .pay)
        _ = record
    }
}

/// A gateway whose first `failures` charges fail, for the Guide's retry example.
final class FlakyGateway: Sendable {
    struct Unavailable: Error {}
    let failures: Int
    let keys = Locked<[String]>([])

    init(failures: Int) { self.failures = failures }

    func charge(key: String, attempt: Int) async throws {
        let count = keys.withLock { keys in
            keys.append(key)
            return keys.count
        }
        if count <= failures { throw Unavailable() }
    }
}
