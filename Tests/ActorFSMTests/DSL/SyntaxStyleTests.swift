import ActorFSM
import Testing
import TestSupport

final class TurnstileTable: SyntaxBuilder {
    typealias State = TestSupport.State
    typealias Event = TestSupport.Event

    func makeSchema() throws -> Schema<TurnstileTable> {
        try Schema(initial: .locked) {
            let resetable = SuperState { when(.reset) | then(.locked) }
            define(.locked, adopts: resetable) {
                matching(Enforcement.weak)   | when(.pass) | then(.locked)
                matching(Enforcement.strong) | when(.pass) | then(.alarming)
                when(.coin) | then(.unlocked)
            }
            define(.unlocked, adopts: resetable) {
                when(.coin) { then(.unlocked) { matching(Enforcement.weak) | {} } }
                when(.pass) | then(.locked)
            }
            define(.alarming, adopts: resetable)
        }
    }
}

@Suite struct SyntaxStyleTests {
    @Test func aConformingTypeWritesSuperStatesWithoutTypeArguments() throws {
        let schema = try TurnstileTable().makeSchema()
        #expect(schema.resolve(.reset, in: .alarming).target == .locked)
        #expect(schema.resolve(.pass, in: .locked, predicates: Enforcement.strong).target == .alarming)
        #expect(schema.resolve(.coin, in: .unlocked, predicates: Enforcement.weak).target == .unlocked)
    }

    @Test func typeAliasesOfTheSyntaxStructsWriteATable() throws {
        typealias d = Syntax.Define<Turnstile>
        typealias w = Syntax.When<Turnstile>
        typealias t = Syntax.Then<Turnstile>
        let schema = try Schema<Turnstile>(initial: .locked) {
            d(.locked) {
                w(.coin) | t(.unlocked) | {}
                w(.pass) | t(.locked)
            }
            d(.unlocked) {
                w(.coin, or: .reset) | t()
                w(.pass) | t(.locked)
            }
        }
        #expect(schema.resolve(.coin, in: .locked).target == .unlocked)
        #expect(schema.resolve(.reset, in: .unlocked).target == .unlocked)
    }

    @Test func theIssueExampleBuilds() throws {
        let log = Log()
        let (lock, smile, defconOne) = (log.action("lock"), log.action("smile"), log.action("defconOne"))
        let (thankyou, alarmOn, alarmOff) = (log.action("thankyou"), log.action("alarmOn"), log.action("alarmOff"))
        let turnstile = try Schema<Turnstile>(initial: .locked) {
            let resetable = SuperState<Turnstile> { when(.reset) | then(.locked) | alarmOff & lock }
            define(.locked, adopts: resetable, onEntry: [lock]) {
                matching(Enforcement.weak)   | when(.pass) | then(.locked)   | smile
                matching(Enforcement.strong) | when(.pass) | then(.alarming) | defconOne
                when(.coin) | then(.unlocked)
            }
            define(.unlocked, adopts: resetable) { when(.coin) | then() | thankyou }
            define(.alarming, adopts: resetable, onEntry: [alarmOn], onExit: [alarmOff])
        }
        #expect(turnstile.states == [.locked, .alarming, .unlocked])
        #expect(turnstile.transitions.count == 7)
    }
}
