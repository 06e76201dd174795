import ActorFSM
import Testing
import TestSupport

@Suite struct IntrospectionTests {
    @Test func aSchemaDescribesItsFlattenedTransitions() throws {
        let line: UInt = #line + 4
        let schema = try Schema<Turnstile>(initial: .locked, final: [.alarming, .unlocked]) {
            let resetable = SuperState<Turnstile> { when(.reset) | then(.locked) | {} & {} }
            define(.locked, adopts: resetable) {
                matching(Enforcement.weak, or: Enforcement.strong) | when(.pass) | then(.alarming)
                condition { true } | when(.coin) | then(.unlocked)
            }
        }
        #expect(schema.initialState == .locked)
        #expect(schema.states == [.locked, .alarming, .unlocked])
        #expect(schema.events.compactMap { $0 as? Event } == [.reset, .pass, .coin])
        #expect(schema.predicateTypes.map(\.description) == ["Enforcement: weak, strong"])
        let transitions = schema.transitions
        #expect(transitions.map(\.source) == [.locked, .locked, .locked])
        #expect(transitions.map(\.target) == [.locked, .alarming, .unlocked])
        #expect(transitions.map(\.actionCount) == [2, 0, 0])
        #expect(transitions.map(\.hasCondition) == [false, false, true])
        #expect(transitions[0].location.line == line - 2)
        #expect(transitions[1].location.line == line)
        #expect(transitions[1].description
            == "locked --pass [Enforcement.weak | Enforcement.strong]--> alarming (ActorFSMTests/IntrospectionTests.swift:\(line))")
    }
}
