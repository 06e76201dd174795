import ActorFSM
import Synchronization
import Testing
import TestSupport

@Suite struct ConditionTests {
    @Test func conditionGatesATransitionAtRunTime() throws {
        let open = Locked(false)
        let schema = try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
            define(.locked) {
                condition { open.withLock { $0 } } | when(.pass) | then(.unlocked)
            }
        }
        #expect(schema.resolve(.pass, in: .locked).isConditionFalse)
        open.withLock { $0 = true }
        #expect(schema.resolve(.pass, in: .locked).target == .unlocked)
        #expect(schema.transitions[0].hasCondition)
    }

    @Test func conditionBlocksAreAndedAndCombineWithMatching() throws {
        let first = Locked(true)
        let schema = try Schema<Turnstile>(initial: .locked, final: [.alarming, .unlocked]) {
            define(.locked) {
                condition({ first.withLock { $0 } }) {
                    condition({ true }) {
                        matching(Enforcement.weak)   | when(.coin) | then(.unlocked)
                        matching(Enforcement.strong) | when(.coin) | then(.alarming)
                    }
                }
            }
        }
        #expect(schema.resolve(.coin, in: .locked, predicates: Enforcement.strong).target == .alarming)
        first.withLock { $0 = false }
        #expect(schema.resolve(.coin, in: .locked, predicates: Enforcement.strong).isConditionFalse)
    }

    @Test func conditionsCannotTellTransitionsApart() {
        let base: UInt = #line
        let found = diagnostics {
            try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
                define(.locked) {
                    when(.coin) {
                        condition { true }  | then(.unlocked)
                        condition { false } | then(.locked)
                    }
                }
            }
        }
        #expect(found.map(\.kind) == [.logicalClash])
        #expect(found.first?.locations.map(\.line) == [base + 5, base + 6])
    }
}
