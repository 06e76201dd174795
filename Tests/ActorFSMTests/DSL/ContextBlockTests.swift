import ActorFSM
import Testing
import TestSupport

@Suite struct ContextBlockTests {
    @Test func whenBlocksSupplyTheEvent() throws {
        let schema = try Schema<Turnstile>(initial: .locked, final: [.alarming, .unlocked]) {
            define(.locked) {
                when(.pass) {
                    matching(Enforcement.weak)   | then(.locked)
                    matching(Enforcement.strong) | then(.alarming)
                }
                when(.coin) | then(.unlocked)
            }
        }
        #expect(schema.resolve(.pass, in: .locked, predicates: Enforcement.strong).target == .alarming)
        #expect(schema.resolve(.pass, in: .locked, predicates: Enforcement.weak).target == .locked)
    }

    @Test func thenAndWhenBlocksNestInEitherOrder() async throws {
        let log = Log()
        let outer = try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
            define(.locked) {
                then(.unlocked) {
                    when(.pass) {
                        matching(Enforcement.weak)   | log.action("weak")
                        matching(Enforcement.strong) | log.action("strong")
                    }
                }
            }
        }
        let inner = try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
            define(.locked) {
                when(.pass) {
                    then(.unlocked) {
                        matching(Enforcement.weak)   | log.action("weak")
                        matching(Enforcement.strong) | log.action("strong")
                    }
                }
            }
        }
        for schema in [outer, inner] {
            var driver = Driver(schema)
            try await driver.send(.pass, predicates: PredicateContext(Enforcement.strong))
            #expect(driver.state == .unlocked)
        }
        #expect(log.lines == ["strong", "strong"])
    }

    @Test func thenBlocksTakeWhenStatements() throws {
        let schema = try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
            define(.locked) {
                then(.unlocked) {
                    when(.coin)
                    when(.pass) | {}
                    matching(Enforcement.weak) | when(.reset)
                }
            }
        }
        #expect(schema.transitions.count == 3)
        #expect(schema.transitions.allSatisfy { $0.target == .unlocked })
    }

    @Test func matchingBlocksApplyToEveryStatement() throws {
        let schema = try Schema<Turnstile>(initial: .locked, final: [.alarming, .unlocked]) {
            define(.locked) {
                matching(Enforcement.weak) {
                    when(.coin) | then(.unlocked)
                    when(.pass) | then(.alarming)
                }
                matching(Enforcement.strong) {
                    when(.coin) | then(.alarming)
                    when(.pass) | then(.unlocked)
                }
            }
        }
        #expect(schema.resolve(.coin, in: .locked, predicates: Enforcement.weak).target == .unlocked)
        #expect(schema.resolve(.pass, in: .locked, predicates: Enforcement.strong).target == .unlocked)
    }

    @Test func chainedMatchingBlocksAreAnded() throws {
        let schema = try Schema<Turnstile>(initial: .locked, final: [.alarming, .unlocked]) {
            define(.locked) {
                matching(Enforcement.weak) {
                    matching(Reward.positive) { when(.coin) | then(.unlocked) }
                    matching(Reward.negative) | when(.coin) | then(.alarming)
                }
            }
        }
        #expect(schema.resolve(.coin, in: .locked, predicates: Enforcement.weak, Reward.positive).target == .unlocked)
        #expect(schema.resolve(.coin, in: .locked, predicates: Enforcement.weak, Reward.negative).target == .alarming)
        #expect(schema.resolve(.coin, in: .locked, predicates: Enforcement.strong, Reward.negative).unhandledKind
            == .noTransition)
    }

    @Test func actionsBlocksAddUpOuterFirst() async throws {
        let log = Log()
        let schema = try Schema<Turnstile>(initial: .locked, final: [.alarming, .unlocked]) {
            define(.locked) {
                actions(log.action("common")) {
                    actions(log.action("nested")) { when(.coin) | then(.unlocked) }
                    when(.pass) | then(.alarming) | log.action("own")
                }
            }
        }
        var driver = Driver(schema)
        try await driver.send(.coin)
        var other = Driver(schema)
        try await other.send(.pass)
        #expect(log.lines == ["common", "nested", "common", "own"])
    }

    @Test func emptyContextBlocksAreReported() {
        let base: UInt = #line
        let found = diagnostics {
            try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
                define(.locked) {
                    when(.coin) | then(.unlocked)
                    matching(Enforcement.weak) {}
                }
            }
        }
        #expect(found.map(\.kind) == [.emptyBlock])
        #expect(found.first?.locations.map(\.line) == [base + 5])
    }
}
