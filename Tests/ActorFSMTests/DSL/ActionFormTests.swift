import ActorFSM
import Testing
import TestSupport

@Suite struct ActionFormTests {
    @Test func everyActionFormReceivesWhatItAsksFor() async throws {
        let log = Log()
        @Sendable func plain() { log.record("plain") }
        @Sendable func plainAsync() async { await Task.yield(); log.record("plain async") }
        @Sendable func withEvent(_ event: Event) { log.record("event \(event)") }
        @Sendable func withEventAsync(_ event: Event) async throws { log.record("async event \(event)") }
        let schema = try Schema<Turnstile>(initial: .locked) {
            define(.locked) {
                when(.coin)  | then(.unlocked) | plain
                when(.pass)  | then(.unlocked) | plainAsync
                when(.reset) | then(.unlocked) | withEvent
            }
            define(.unlocked) {
                when(.coin) | then(.locked) | withEventAsync
                when(.pass) | then(.locked) | { context in log.record("\(context.source)->\(context.target) on \(context.eventDescription)") }
                when(.reset) | then(.locked) | { (context: TransitionContext<Turnstile>) async in
                    await Task.yield()
                    log.record("async context \(context.eventDescription)")
                }
            }
        }
        #expect(schema.resolve(.coin, in: .locked).firingTransition?.actions.isSynchronous == true)
        #expect(schema.resolve(.pass, in: .locked).firingTransition?.actions.isSynchronous == false)
        var driver = Driver(schema)
        for event: Event in [.coin, .coin, .pass, .pass, .reset, .reset] { try await driver.send(event) }
        #expect(log.lines == ["plain", "async event coin", "plain async", "unlocked->locked on pass",
                              "event reset", "async context reset"])
    }

    @Test func actionsCombineWithAmpersandAndArrays() async throws {
        let log = Log()
        let alarmOff = log.action("alarmOff")
        let lock = log.action("lock")
        let schema = try Schema<Turnstile>(initial: .alarming) {
            define(.alarming) { when(.reset) | then(.locked) | alarmOff & lock & Actions { log.record("third") } }
            define(.locked) { when(.reset) | then(.alarming) | [alarmOff, lock] }
        }
        #expect(schema.resolve(.reset, in: .locked).firingTransition?.actions.isSynchronous == true)
        #expect(schema.resolve(.reset, in: .alarming).firingTransition?.actions.isSynchronous == true)
        var driver = Driver(schema)
        try await driver.send(.reset)
        try await driver.send(.reset)
        #expect(log.lines == ["alarmOff", "lock", "third", "alarmOff", "lock"])
    }

    @Test func synchronousActionsRunWithoutSuspending() throws {
        let log = Log()
        let actions: Actions<Turnstile> = Actions(log.action("a")) & log.action("b")
        let context = TransitionContext<Turnstile>(event: .coin, source: .locked, target: .unlocked, predicates: .none, id: "test")
        #expect(try actions.runSynchronously(in: context))
        #expect(log.lines == ["a", "b"])
    }
}

/// The turnstile paid by coin or card.
enum Tollgate: MachineDefinition {
    typealias State = Turnstile.State
    typealias Event = Payment
}

/// An event whose cases carry payloads, matched by case.
enum Payment: CaseKeyed, Equatable {
    case coin(cents: Int)
    case card(number: String)
    case pass

    enum CaseKey: Hashable, Sendable { case coin, card, pass }

    var caseKey: CaseKey {
        switch self {
        case .coin: .coin
        case .card: .card
        case .pass: .pass
        }
    }
}

@Suite struct PayloadEventTests {
    @Test func aTransitionMatchesEveryPayloadOfItsCaseAndActionsSeeTheEvent() async throws {
        let log = Log()
        let schema = try Schema<Tollgate>(initial: .locked, final: [.alarming]) {
            define(.locked) {
                when(.coin, or: .card) | then(.unlocked) | { (payment: Payment) in log.record("\(payment)") }
            }
            define(.unlocked) {
                when(.pass) | then(.locked)
                condition({ (payment: Payment) in payment == .coin(cents: 0) }) | when(.coin) | then(.alarming)
            }
        }
        #expect(schema.resolve(.coin(cents: 50), in: .locked).target == .unlocked)
        #expect(schema.resolve(.coin(cents: 10), in: .locked).target == .unlocked)
        #expect(schema.resolve(.coin(cents: 5), in: .unlocked).isConditionFalse)
        #expect(schema.resolve(.coin(cents: 0), in: .unlocked).target == .alarming)
        #expect(schema.resolve(.pass, in: .locked).unhandledKind == .noTransition)
        var driver = Driver(schema)
        try await driver.send(.card(number: "4242"))
        #expect(log.lines == ["card(number: \"4242\")"])
        #expect(schema.events.compactMap { $0 as? Payment.CaseKey } == [.coin, .card, .pass])
    }
}

/// A turnstile that takes orders.
enum OrderGate: MachineDefinition {
    typealias State = Turnstile.State
    typealias Event = Order
}

/// An event that is both `Hashable` and `CaseKeyed`: matching is by case key.
enum Order: CaseKeyed, Hashable {
    case placed(id: Int)
    case cancel

    enum CaseKey: Hashable, Sendable { case placed, cancel }
    var caseKey: CaseKey { if case .placed = self { .placed } else { .cancel } }
}

@Suite struct KeyedAndHashableEventTests {
    @Test func keyedEventsThatAreHashableStillMatchByKey() throws {
        let schema = try Schema<OrderGate>(initial: .locked, final: [.unlocked]) {
            define(.locked) { when(.placed) | then(.unlocked) }
        }
        #expect(schema.resolve(.placed(id: 7), in: .locked).target == .unlocked)
    }

    @Test func mixingValueAndKeyMatchingIsReported() {
        let base: UInt = #line
        let found = diagnostics {
            try Schema<OrderGate>(initial: .locked, final: [.unlocked]) {
                define(.locked) {
                    when(.placed(id: 1)) | then(.unlocked)
                    when(.cancel) | then(.locked)
                }
            }
        }
        #expect(found.map(\.kind) == [.mixedEventMatching])
        #expect(found.first?.locations.map(\.line) == [base + 4, base + 5])
    }
}
