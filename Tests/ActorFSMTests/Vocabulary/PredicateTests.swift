import ActorFSM
import Testing
import TestSupport

@Suite struct PredicateTests {
    let schema: Schema<Turnstile>

    init() throws {
        schema = try Schema<Turnstile>(initial: .locked, final: [.alarming]) {
            define(.locked) {
                matching(Enforcement.weak)   | when(.pass) | then(.locked)
                matching(Enforcement.strong) | when(.pass) | then(.alarming)
                when(.coin) | then(.unlocked)
            }
            define(.unlocked) {
                matching(Reward.positive) | when(.coin) | then(.unlocked)
                matching(Reward.negative) | when(.coin) | then(.locked)
                when(.pass) | then(.locked)
            }
        }
    }

    @Test func matchingSelectsTheTransitionForThePredicate() {
        #expect(schema.resolve(.pass, in: .locked, predicates: Enforcement.weak).target == .locked)
        #expect(schema.resolve(.pass, in: .locked, predicates: Enforcement.strong).target == .alarming)
        #expect(schema.resolve(.coin, in: .unlocked, predicates: Enforcement.weak, Reward.negative).target == .locked)
    }

    @Test func unconstrainedTransitionsMatchEveryCase() {
        for enforcement in Enforcement.allCases {
            for reward in Reward.allCases {
                let context = PredicateContext(enforcement, reward)
                #expect(schema.resolve(.coin, in: .locked, predicates: context).target == .unlocked)
                #expect(schema.resolve(.pass, in: .unlocked, predicates: context).target == .locked)
            }
        }
        #expect(schema.resolve(.coin, in: .locked).target == .unlocked)
    }

    @Test func compoundMatchingCombinesOrAndAnd() throws {
        let schema = try Schema<Turnstile>(initial: .locked, final: [.alarming, .unlocked]) {
            define(.locked) {
                matching(A.x, or: A.y, and: B.x, C.x) | when(.coin) | then(.unlocked)
                when(.coin) | then(.alarming)
            }
        }
        #expect(schema.resolve(.coin, in: .locked, predicates: A.x, B.x, C.x).target == .unlocked)
        #expect(schema.resolve(.coin, in: .locked, predicates: A.y, B.x, C.x).target == .unlocked)
        #expect(schema.resolve(.coin, in: .locked, predicates: A.z, B.x, C.x).target == .alarming)
        #expect(schema.resolve(.coin, in: .locked, predicates: A.x, B.y, C.x).target == .alarming)
        #expect(schema.transitions[0].predicates.map(\.description) == ["A.x | A.y", "B.x", "C.x"])
    }

    @Test func theMoreSpecificStatementWins() throws {
        let schema = try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
            define(.locked) {
                matching(Enforcement.weak, and: Reward.positive) | when(.coin) | then(.unlocked)
                matching(Enforcement.weak)                       | when(.coin) | then(.locked)
            }
        }
        #expect(schema.resolve(.coin, in: .locked, predicates: Enforcement.weak, Reward.positive).target == .unlocked)
        #expect(schema.resolve(.coin, in: .locked, predicates: Enforcement.weak, Reward.negative).target == .locked)
        #expect(schema.resolve(.coin, in: .locked, predicates: Enforcement.strong, Reward.negative).unhandledKind == .noTransition)
    }

    @Test func disambiguationBreaksAnImplicitClash() throws {
        let schema = try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
            define(.locked) {
                matching(Enforcement.weak, and: Reward.positive) | when(.coin) | then(.unlocked)
                matching(Reward.negative)                        | when(.coin) | then(.locked)
            }
        }
        #expect(schema.resolve(.coin, in: .locked, predicates: Enforcement.weak, Reward.negative).target == .locked)
        #expect(schema.resolve(.coin, in: .locked, predicates: Enforcement.strong, Reward.negative).target == .locked)
        #expect(schema.resolve(.coin, in: .locked, predicates: Enforcement.weak, Reward.positive).target == .unlocked)
    }

    @Test func betweenPredicatesClashIsReportedWithTheCombination() {
        let base: UInt = #line
        let found = diagnostics {
            try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
                define(.locked) {
                    matching(Enforcement.weak) | when(.coin) | then(.unlocked)
                    matching(Reward.negative)  | when(.coin) | then(.locked)
                }
            }
        }
        #expect(found.map(\.kind) == [.implicitClash])
        #expect(found.first?.locations.map(\.line) == [base + 4, base + 5])
        #expect(found.first?.predicates == ["Enforcement.weak", "Reward.negative"])
        #expect(found.first?.state == "locked")
        #expect(found.first?.event == "coin")
    }

    @Test func matchingTheSameTypeTwiceIsAnError() {
        let found = diagnostics {
            try Schema<Turnstile>(initial: .locked) {
                define(.locked) {
                    matching(A.x, and: A.y)         | when(.coin) | then(.unlocked)
                    matching(A.x, or: A.y, and: A.z) | when(.pass) | then(.unlocked)
                    matching(A.x, and: A.x)         | when(.reset) | then(.unlocked)
                }
                define(.unlocked) { matching(A.x, or: A.x) | when(.coin) | then(.locked) }
            }
        }
        let kinds: [String] = found.map(\.kind.description).sorted()
        let expected: [String] = ["contradictory predicates", "contradictory predicates", "contradictory predicates",
                                  "duplicate predicate", "duplicate predicate"]
        #expect(kinds == expected)
        #expect(found.contains { $0.predicates == ["A.x", "A.y"] })
        let single = found.first { $0.predicates == ["A.x", "A.y"] }
        #expect(single?.locations.count == 1)
        #expect(single?.state == "locked")
    }

    @Test func orAlternativesThatOverlapAreTheSameStatement() {
        let base: UInt = #line
        let found = diagnostics {
            try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
                define(.locked) {
                    matching(A.x, or: A.y) | when(.coin) | then(.unlocked)
                    matching(A.x)          | when(.coin) | then(.locked)
                }
            }
        }
        #expect(found.map(\.kind) == [.logicalClash])
        #expect(found.first?.predicates == ["A.x"])
        #expect(found.first?.locations.map(\.line) == [base + 4, base + 5])
    }

    @Test func repeatingAnEnclosingOrAlternativeIsADuplicatePredicate() {
        let found = diagnostics {
            try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
                define(.locked) {
                    matching(A.x, or: A.y) {
                        matching(A.x) | when(.coin) | then(.unlocked)
                        matching(A.y) | when(.pass) | then(.unlocked)
                    }
                }
            }
        }
        #expect(found.map(\.kind) == [.duplicatePredicate, .duplicatePredicate])
        #expect(found.map(\.predicates) == [["A.x"], ["A.y"]])
    }

    @Test func aCaseMissingFromAllCasesIsReportedRatherThanMisplaced() {
        enum Partial: MatchingPredicate {
            case listed, other, forgotten
            static var allCases: [Partial] { [.listed, .other] }
        }
        let line: UInt = #line + 4
        let found = diagnostics {
            try Schema<Turnstile>(initial: .locked, final: [.alarming, .unlocked]) {
                define(.locked) {
                    matching(Partial.forgotten) | when(.coin) | then(.unlocked)
                    matching(Partial.listed) | when(.coin) | then(.alarming)
                }
            }
        }
        #expect(found.map(\.kind) == [.invalidPredicate])
        #expect(found.first?.locations.map(\.line) == [line])
        #expect(found.first?.predicates == ["Partial.forgotten"])
    }

    @Test func tooManyPredicateCombinationsAreRefused() {
        enum P1: MatchingPredicate { case a, b, c, d, e, f, g, h }
        enum P2: MatchingPredicate { case a, b, c, d, e, f, g, h }
        enum P3: MatchingPredicate { case a, b, c, d, e, f, g, h }
        enum P4: MatchingPredicate { case a, b, c, d, e, f, g, h }
        enum P5: MatchingPredicate { case a, b, c, d, e, f, g, h }
        enum P6: MatchingPredicate { case a, b, c, d, e, f, g, h }
        enum P7: MatchingPredicate { case a, b, c, d, e, f, g, h }
        let line: UInt = #line + 4
        let found = diagnostics {
            try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
                define(.locked) {
                    matching(P1.a, and: P2.a, P3.a, P4.a, P5.a, P6.a, P7.a) | when(.coin) | then(.unlocked)
                }
            }
        }
        #expect(found.map(\.kind) == [.tooManyPredicateCombinations])
        #expect(found.first?.locations.map(\.line) == [line])
    }

    @Test func nestedMatchingBlocksAreAndedAndChecked() throws {
        let base: UInt = #line
        let found = diagnostics {
            try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
                define(.locked) {
                    matching(A.x, and: B.x) {
                        matching(A.x) | when(.coin) | then(.unlocked)
                        matching(A.y) | when(.pass) | then(.unlocked)
                    }
                    matching(A.x, or: A.y) {
                        matching(A.z) | when(.reset) | then(.unlocked)
                    }
                }
            }
        }
        let kinds = found.map { "\($0.kind) \($0.predicates)" }
        #expect(kinds.contains("duplicate predicate [\"A.x\"]"))
        #expect(kinds.contains("contradictory predicates [\"A.x\", \"A.y\"]"))
        #expect(kinds.contains("contradictory predicates [\"A.x\", \"A.z\"]"))
        #expect(kinds.contains("contradictory predicates [\"A.y\", \"A.z\"]"))
        #expect(found.count == 4)
        let nested = found.first { $0.kind == .duplicatePredicate }
        #expect(nested?.locations.map(\.line) == [base + 5, base + 4])

        let valid = try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
            define(.locked) {
                matching(A.x, or: A.y) {
                    matching(B.x, or: B.y) { when(.coin) | then(.unlocked) }
                }
            }
        }
        #expect(valid.resolve(.coin, in: .locked, predicates: A.y, B.x).target == .unlocked)
        #expect(valid.resolve(.coin, in: .locked, predicates: A.z, B.x).unhandledKind == .noTransition)
    }

    @Test func missingUnknownAndRepeatedPredicatesAreUnhandledWithAReason() {
        guard case .unhandled(let missing) = schema.resolve(.pass, in: .locked) else {
            Issue.record("expected unhandled")
            return
        }
        #expect(missing.kind == .missingPredicate)
        #expect(missing.predicateType == "Enforcement")
        #expect(missing.description.contains("no Enforcement predicate"))
        #expect(schema.resolve(.pass, in: .locked, predicates: A.x, Enforcement.weak).unhandledKind == .unknownPredicate)
        #expect(schema.resolve(.pass, in: .locked, predicates: Enforcement.weak, Enforcement.strong).unhandledKind
            == .ambiguousPredicate)
    }

    @Test func aLargePredicateSpaceBuildsOnlyTheGroupsItUses() throws {
        enum Big: MatchingPredicate { case c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 }
        enum Bigger: MatchingPredicate { case c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 }
        enum Biggest: MatchingPredicate { case c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 }
        let schema = try Schema<Turnstile>(initial: .locked, final: [.alarming, .unlocked]) {
            define(.locked) {
                matching(Big.c3, and: Bigger.c4, Biggest.c5) | when(.coin) | then(.unlocked)
                matching(Big.c3) | when(.coin) | then(.alarming)
                when(.pass) | then(.locked)
            }
        }
        #expect(schema.resolve(.coin, in: .locked, predicates: Big.c3, Bigger.c4, Biggest.c5).target == .unlocked)
        #expect(schema.resolve(.coin, in: .locked, predicates: Big.c3, Bigger.c4, Biggest.c6).target == .alarming)
        #expect(schema.resolve(.pass, in: .locked).target == .locked)
    }
}
