import ActorFSM
import Testing
import TestSupport

/// A payment retried while it has attempts left, reviewed when large, failed otherwise.
enum Retrying: MachineDefinition {
    enum State: Hashable, Sendable { case charging, review, failed, paid }
    enum Event: Hashable, Sendable { case declined, approved }
    typealias ID = Int
    struct Data: Sendable { var amount: Int; var attempts = 0 }
}

@Suite struct OrderedAlternativesTests {
    typealias Data = Retrying.Data

    /// The schema of `Retrying`, its `firstOf` block declared at `line + 4` and its three
    /// alternatives on the next three lines.
    static func schema(withFallback: Bool = true) throws -> (Schema<Retrying>, UInt) {
        let line: UInt = #line
        let schema = try Schema<Retrying>(initial: .charging, final: [.review, .failed, .paid]) {
            define(.charging) {
                when(.declined) {
                    firstOf {
                        condition { (data: Data) in data.attempts < 3 } | then() | update { $0.attempts += 1 }
                        condition { (data: Data) in data.amount > 1_000 } | then(.review)
                        condition { (_: Data) in withFallback } | then(.failed)
                    }
                }
                when(.approved) | then(.paid)
            }
        }
        return (schema, line)
    }

    @Test func theFirstAlternativeWhoseConditionHoldsFires() throws {
        let (schema, line) = try Self.schema()
        let retry = schema.resolve(.declined, in: .charging, data: Data(amount: 5_000, attempts: 0)).firingTransition
        #expect(retry?.target == .charging && retry?.alternative == 0 && retry?.location.line == line + 5)
        // The first holds too, but is not tried: the order decides, not specificity.
        let review = schema.resolve(.declined, in: .charging, data: Data(amount: 5_000, attempts: 3)).firingTransition
        #expect(review?.target == .review && review?.alternative == 1 && review?.location.line == line + 6)
        let failed = schema.resolve(.declined, in: .charging, data: Data(amount: 5, attempts: 3)).firingTransition
        #expect(failed?.target == .failed && failed?.alternative == 2)
        #expect(schema.resolve(.approved, in: .charging, data: Data(amount: 5)).firingTransition?.alternative == nil)
    }

    @Test func whenNoAlternativeHoldsTheConditionIsFalse() throws {
        let (schema, _) = try Self.schema(withFallback: false)
        let outcome = schema.resolve(.declined, in: .charging, data: Data(amount: 5, attempts: 3))
        guard case .conditionFalse(let first) = outcome else {
            Issue.record("expected a false condition, got \(outcome)")
            return
        }
        #expect(first.alternative == 0, "the outcome names the first alternative tried")
    }

    @Test func aMachineTakesTheAlternativesAndItsRecordsNameThem() async throws {
        let (schema, line) = try Self.schema()
        let machine = Machine(schema: schema, id: 1, data: Data(amount: 5_000))
        var lines: [UInt?] = []
        for _ in 0..<4 { lines.append(try await machine.send(.declined).transitionLocation?.line) }
        #expect(lines == [line + 5, line + 5, line + 5, line + 6])
        #expect(await machine.state == .review && machine.schema.transitions.count == 4)
        #expect(await machine.data.attempts == 3)
    }

    @Test func otherwiseIsTheFallbackInEveryBlockShape() throws {
        let failing = try Schema<Retrying>(initial: .charging, final: [.review, .failed, .paid]) {
            define(.charging) {
                firstOf {
                    condition { (data: Data) in data.attempts < 1 } | when(.declined) | then(.review)
                    otherwise() | when(.declined) | then(.failed)
                }
                when(.approved) | then(.paid)
            }
        }
        #expect(failing.resolve(.declined, in: .charging, data: Data(amount: 0)).target == .review)
        #expect(failing.resolve(.declined, in: .charging, data: Data(amount: 0, attempts: 1)).target == .failed)
        let fallback = failing.resolve(.declined, in: .charging, data: Data(amount: 0, attempts: 1)).firingTransition
        #expect(fallback?.hasCondition == false && fallback?.alternative == 1)
    }

    @Test func alternativesChooseWithinEachPredicateCase() throws {
        let schema = try Schema<Retrying>(initial: .charging, final: [.review, .failed, .paid]) {
            define(.charging) {
                matching(Enforcement.strong) | when(.declined) | then(.failed)
                matching(Enforcement.weak) {
                    when(.declined) {
                        firstOf {
                            condition { (data: Data) in data.attempts < 1 } | then()
                            otherwise() | then(.review)
                        }
                    }
                }
                when(.approved) | then(.paid)
            }
        }
        let fresh = Data(amount: 0)
        let tried = Data(amount: 0, attempts: 1)
        let (weak, strong) = (PredicateContext(Enforcement.weak), PredicateContext(Enforcement.strong))
        #expect(schema.resolve(.declined, in: .charging, predicates: weak, data: fresh).target == .charging)
        #expect(schema.resolve(.declined, in: .charging, predicates: weak, data: tried).target == .review)
        #expect(schema.resolve(.declined, in: .charging, predicates: strong, data: tried).target == .failed)
    }

    @Test func conditionsOnTheEventChooseToo() throws {
        let schema = try Schema<Turnstile>(initial: .locked, final: [.alarming, .unlocked]) {
            define(.locked) {
                firstOf {
                    condition({ (event: Turnstile.Event) in event == .coin }) | when(.coin, or: .pass) | then(.unlocked)
                    otherwise() | when(.coin, or: .pass) | then(.alarming)
                }
            }
        }
        #expect(schema.resolve(.coin, in: .locked).target == .unlocked)
        #expect(schema.resolve(.pass, in: .locked).target == .alarming)
    }

    @Test func anInheritedBlockIsTriedInOrderAndAnOverrideReplacesIt() throws {
        let declines = SuperState<Retrying> {
            when(.declined) {
                firstOf {
                    condition { (data: Data) in data.attempts < 3 } | then(.charging)
                    otherwise() | then(.failed)
                }
            }
        }
        let schema = try Schema<Retrying>(initial: .charging, final: [.failed, .paid]) {
            define(.charging, adopts: declines) { when(.approved) | then(.paid) }
            define(.review, adopts: declines) {
                override { when(.declined) | then(.paid) }
            }
        }
        #expect(schema.resolve(.declined, in: .charging, data: Data(amount: 0)).target == .charging)
        #expect(schema.resolve(.declined, in: .charging, data: Data(amount: 0, attempts: 3)).target == .failed)
        #expect(schema.resolve(.declined, in: .review, data: Data(amount: 0, attempts: 3)).target == .paid)
    }

    @Test func outsideTheBlockConditionsStillClash() {
        let found = diagnostics {
            try Schema<Retrying>(initial: .charging, final: [.review, .failed]) {
                define(.charging) {
                    firstOf { condition { (data: Data) in data.attempts < 3 } | when(.declined) | then(.review) }
                    condition { (data: Data) in data.attempts >= 3 } | when(.declined) | then(.failed)
                }
            }
        }
        #expect(found.map(\.kind) == [.logicalClash])
        #expect(found.first?.message.contains("firstOf") == true)
    }

    @Test func anAlternativeWithoutAConditionMustBeLast() {
        let base: UInt = #line
        let found = diagnostics {
            try Schema<Retrying>(initial: .charging, final: [.review, .failed]) {
                define(.charging) {
                    when(.declined) {
                        firstOf {
                            otherwise() | then(.failed)
                            condition { (data: Data) in data.attempts < 3 } | then(.review)
                        }
                    }
                }
            }
        }
        #expect(found.map(\.kind) == [.unreachableAlternative])
        #expect(found.first?.locations.map(\.line) == [base + 6, base + 7])
    }

    @Test func theAlternativesMustMatchTheSamePredicates() {
        let base: UInt = #line
        let found = diagnostics {
            try Schema<Retrying>(initial: .charging, final: [.review, .failed]) {
                define(.charging) {
                    when(.declined) {
                        firstOf {
                            condition({ (data: Data) in data.attempts < 3 }) {
                                matching(Enforcement.weak) | then(.review)
                            }
                            otherwise() | then(.failed)
                        }
                    }
                }
            }
        }
        #expect(found.map(\.kind) == [SchemaError.Kind.alternativesDiffer])
        #expect(found.first?.locations.map(\.line) == [base + 7, base + 9])
    }

    @Test func otherwiseOutsideABlockIsReported() {
        let base: UInt = #line
        let found = diagnostics {
            try Schema<Retrying>(initial: .charging, final: [.failed]) {
                define(.charging) {
                    otherwise() | when(.declined) | then(.failed)
                }
            }
        }
        #expect(found.map(\.kind) == [.misplacedOtherwise])
        #expect(found.first?.locations.map(\.line) == [base + 4])
    }

    @Test func diagramsNumberTheAlternatives() throws {
        let (schema, _) = try Self.schema()
        let mermaid = schema.mermaid()
        #expect(mermaid.contains("declined (1. condition)"))
        #expect(mermaid.contains("declined (2. condition)"))
        #expect(mermaid.contains("declined (3. condition)"))
        let description = schema.transitions.map(\.description).joined(separator: "\n")
        #expect(description.contains("if condition, alternative 2"))
    }

    /// A block of alternatives whose statements share one line, as a helper's can.
    static func declines(fallback: Retrying.State) -> Syntax.Block<Retrying, Syntax.MissingWhen> {
        firstOf { condition { (data: Data) in data.attempts < 3 } | then(.charging); otherwise() | then(fallback) }
    }

    @Test func alternativesAHelperMadeSurviveASuperState() throws {
        let declining = SuperState<Retrying> { when(.declined) { Self.declines(fallback: .failed) } }
        let schema = try Schema<Retrying>(initial: .charging, final: [.failed, .paid]) {
            define(.charging, adopts: declining) { when(.approved) | then(.paid) }
        }
        #expect(schema.resolve(.declined, in: .charging, data: Data(amount: 0)).target == .charging)
        #expect(schema.resolve(.declined, in: .charging, data: Data(amount: 0, attempts: 3)).target == .failed)
    }
}
