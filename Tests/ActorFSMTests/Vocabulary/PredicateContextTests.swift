import ActorFSM
import Testing
import TestSupport

/// A context holds up to three predicates in place and more behind a reference; both forms
/// must answer every lookup and every question alike.
@Suite struct PredicateContextTests {
    /// A predicate type whose `allCases` leaves out a case, which then has no ordinal.
    enum Partial: MatchingPredicate {
        case listed, unlisted
        static var allCases: [Partial] { [.listed] }
    }

    /// Depends on four predicate types at once, so only a context of four can reach its target.
    let schema: Schema<Turnstile>

    init() throws {
        schema = try Schema<Turnstile>(initial: .locked, final: [.alarming]) {
            define(.locked) {
                matching(A.y, and: B.z, Enforcement.strong, Reward.negative) | when(.coin) | then(.alarming)
                matching(A.x) | when(.coin) | then(.unlocked)
                matching(Partial.listed) | when(.reset) | then(.unlocked)
                when(.pass) | then(.locked)
            }
            define(.unlocked) {
                matching(A.z) | when(.coin) | then(.alarming)
                matching(A.x) | when(.coin) | then(.locked)
            }
        }
    }

    @Test func fourPredicatesResolveInAnyOrderAndNameAMissingType() {
        #expect(schema.resolve(.coin, in: .locked, predicates: A.y, B.z, Enforcement.strong, Reward.negative).target
            == .alarming)
        #expect(schema.resolve(.coin, in: .locked, predicates: Reward.negative, Enforcement.strong, B.z, A.y).target
            == .alarming)
        #expect(schema.resolve(.coin, in: .locked, predicates: A.y, B.z, Enforcement.weak, Reward.negative)
            .unhandledKind == .noTransition)
        // Three of the four: the group depends on the fourth.
        guard case .unhandled(let missing) = schema.resolve(.coin, in: .locked, predicates: A.y, B.z, Reward.negative)
        else {
            Issue.record("expected unhandled")
            return
        }
        #expect(missing.kind == .missingPredicate)
        #expect(missing.predicateType == "Enforcement")
        #expect(schema.resolve(.pass, in: .locked, predicates: A.y, B.z, Enforcement.weak, Reward.negative).target
            == .locked)
    }

    @Test func bothFormsNameTheRepeatedAndTheUnknownType() {
        enum Stranger: MatchingPredicate { case one }
        for context in [PredicateContext(A.x, A.y), PredicateContext(B.x, Reward.positive, A.x, A.y, Enforcement.weak)] {
            guard case .unhandled(let reason) = schema.resolve(.pass, in: .locked, predicates: context) else {
                Issue.record("expected unhandled for \(context)")
                continue
            }
            #expect(reason.kind == .ambiguousPredicate)
            #expect(reason.predicateType == "A")
        }
        for context in [PredicateContext(A.x, Stranger.one), PredicateContext(A.x, B.x, Reward.positive, Stranger.one)] {
            guard case .unhandled(let reason) = schema.resolve(.pass, in: .locked, predicates: context) else {
                Issue.record("expected unhandled for \(context)")
                continue
            }
            #expect(reason.kind == .unknownPredicate)
            #expect(reason.predicateType == "Stranger")
        }
    }

    @Test func reasonsComeInOrderAmbiguousUnknownMissing() {
        enum Stranger: MatchingPredicate { case one }
        // Ambiguous before unknown, unknown before missing (B, Enforcement and Reward are absent).
        #expect(schema.resolve(.coin, in: .locked, predicates: Stranger.one, A.x, A.y).unhandledKind
            == .ambiguousPredicate)
        #expect(schema.resolve(.coin, in: .locked, predicates: A.x, Stranger.one).unhandledKind == .unknownPredicate)
        #expect(schema.resolve(.coin, in: .locked, predicates: A.x).unhandledKind == .missingPredicate)
    }

    @Test func aContextOfUpToThreeIsAPlainValueOf32Bytes() {
        // The documented layout: records and action contexts copy it without reference counting.
        #expect(MemoryLayout<PredicateContext>.size == 32)
    }

    @Test func predicatesComeBackInTheOrderGiven() {
        let small = PredicateContext(Reward.negative, A.z, Enforcement.strong)
        #expect(small.predicates.map { "\($0)" } == ["negative", "z", "strong"])
        #expect(small.description == "[Reward.negative, A.z, Enforcement.strong]")
        let large = PredicateContext([B.y, Reward.negative, A.z, Enforcement.strong])
        #expect(large.predicates.map { "\($0)" } == ["y", "negative", "z", "strong"])
        #expect(large.description == "[B.y, Reward.negative, A.z, Enforcement.strong]")
        #expect(PredicateContext.none.predicates.isEmpty)
        #expect(PredicateContext([]).description == "[]")
    }

    @Test func theArrayAndTheVariadicFormsAgree() {
        let variadic = PredicateContext(A.y, B.z, Enforcement.strong, Reward.negative)
        let array = PredicateContext([A.y, B.z, Enforcement.strong, Reward.negative] as [any MatchingPredicate])
        #expect(schema.resolve(.coin, in: .locked, predicates: variadic).target == .alarming)
        #expect(schema.resolve(.coin, in: .locked, predicates: array).target == .alarming)
        let other = PredicateContext([A.x, B.x, Enforcement.weak, Reward.positive] as [any MatchingPredicate])
        #expect(schema.resolve(.coin, in: .locked, predicates: other).target == .unlocked)
        // Contexts of up to three made from an array select by case as the variadic ones do.
        let cases: [([any MatchingPredicate], State)] = [
            ([A.z], .alarming), ([A.x], .locked), ([B.x, A.z], .alarming), ([B.y, Reward.positive, A.x], .locked),
        ]
        for (predicates, target) in cases {
            #expect(schema.resolve(.coin, in: .unlocked, predicates: PredicateContext(predicates)).target == target)
        }
    }

    @Test func aCaseMissingFromAllCasesCountsAsMissing() {
        #expect(schema.resolve(.reset, in: .locked, predicates: Partial.listed).target == .unlocked)
        let unlisted = PredicateContext(Partial.unlisted)
        #expect(unlisted.predicates.map { "\($0)" } == ["unlisted"])
        guard case .unhandled(let reason) = schema.resolve(.reset, in: .locked, predicates: unlisted) else {
            Issue.record("expected unhandled")
            return
        }
        #expect(reason.kind == .missingPredicate)
        #expect(reason.predicateType == "Partial")
    }

    @Test func aSchemaOfMoreThanEightPredicateTypesFindsEachByItsTable() throws {
        // Past eight types, the full search (boxed contexts, reasons) finds a type's slot in a
        // dictionary rather than by a scan; small contexts find columns by the schema's hash.
        enum P1: MatchingPredicate { case on, off }
        enum P2: MatchingPredicate { case on, off }
        enum P3: MatchingPredicate { case on, off }
        enum P4: MatchingPredicate { case on, off }
        enum Stranger: MatchingPredicate { case one }
        enum Alien: MatchingPredicate { case two }
        let many = try Schema<Turnstile>(initial: .locked, final: [.alarming]) {
            define(.locked) {
                matching(P1.on) | when(.coin) | then(.unlocked)
                matching(P2.on, and: P3.off) | when(.pass) | then(.alarming)
                matching(A.x, and: B.x, C.x, Enforcement.weak, Reward.positive) | when(.reset) | then(.unlocked)
            }
            define(.unlocked) {
                matching(P4.on) | when(.coin) | then(.locked)
            }
        }
        #expect(many.predicateTypes.count == 9)
        #expect(many.resolve(.coin, in: .locked, predicates: P1.on).target == .unlocked)
        #expect(many.resolve(.coin, in: .locked, predicates: C.y, P1.on).target == .unlocked)
        #expect(many.resolve(.coin, in: .locked, predicates: P1.on, C.y, A.x).target == .unlocked)
        #expect(many.resolve(.coin, in: .locked, predicates: P1.off).unhandledKind == .noTransition)
        #expect(many.resolve(.coin, in: .unlocked, predicates: P4.on, P1.off).target == .locked)
        #expect(many.resolve(.pass, in: .locked, predicates: P3.off, P2.on).target == .alarming)
        #expect(many.resolve(.pass, in: .locked, predicates: P1.on, P2.on, P3.off, A.z).target == .alarming)
        #expect(many.resolve(.reset, in: .locked, predicates: Reward.positive, Enforcement.weak, C.x, B.x, A.x).target
            == .unlocked)
        let missing = many.resolve(.pass, in: .locked, predicates: P2.on).unhandledReason
        #expect(missing?.kind == .missingPredicate)
        #expect(missing?.predicateType == "P3")
        // Unknown before missing; the first unknown type is named.
        let unknown = many.resolve(.pass, in: .locked, predicates: P2.on, Stranger.one, Alien.two).unhandledReason
        #expect(unknown?.kind == .unknownPredicate)
        #expect(unknown?.predicateType == "Stranger")
        #expect(many.resolve(.pass, in: .locked, predicates: Alien.two, Stranger.one).unhandledReason?.predicateType
            == "Alien")
    }
}
