import ActorFSM
import Testing
import TestSupport

// A 100-transition table (10 states x 10 events, a third matching on predicates): it keeps the
// DSL's type-checking time in view, since CI builds with -warn-long-expression-type-checking.

enum BigState: Hashable, Sendable { case s0, s1, s2, s3, s4, s5, s6, s7, s8, s9 }
enum BigEvent: Hashable, Sendable { case e0, e1, e2, e3, e4, e5, e6, e7, e8, e9 }
/// The hundred-transition table's types.
enum BigTable: MachineDefinition {
    typealias State = BigState
    typealias Event = BigEvent
}

enum P: MatchingPredicate { case c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 }
enum Q: MatchingPredicate { case c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 }
enum R: MatchingPredicate { case c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 }

func makeHundredTransitionSchema(_ tick: @escaping @Sendable () -> Void) throws -> Schema<BigTable> {
    try Schema<BigTable>(initial: .s0) {
        define(.s0) {
            matching(P.c0, or: P.c1) | when(.e0) | then(.s1) | tick
            when(.e1) | then(.s2) | tick
            when(.e2) | then(.s3) | tick
            matching(Q.c0, and: R.c3) | when(.e3) | then(.s4) | tick
            when(.e4) | then(.s5) | tick
            when(.e5) | then(.s6) | tick
            matching(R.c0) | when(.e6) | then(.s7) | tick
            when(.e7) | then(.s8) | tick
            when(.e8) | then(.s9) | tick
            matching(P.c9, or: P.c0) | when(.e9) | then(.s0) | tick
        }
        define(.s1) {
            when(.e0) | then(.s2) | tick
            when(.e1) | then(.s3) | tick
            matching(Q.c1, and: R.c2) | when(.e2) | then(.s4) | tick
            when(.e3) | then(.s5) | tick
            when(.e4) | then(.s6) | tick
            matching(R.c1) | when(.e5) | then(.s7) | tick
            when(.e6) | then(.s8) | tick
            when(.e7) | then(.s9) | tick
            matching(P.c8, or: P.c9) | when(.e8) | then(.s0) | tick
            when(.e9) | then(.s1) | tick
        }
        define(.s2) {
            when(.e0) | then(.s3) | tick
            matching(Q.c2, and: R.c1) | when(.e1) | then(.s4) | tick
            when(.e2) | then(.s5) | tick
            when(.e3) | then(.s6) | tick
            matching(R.c2) | when(.e4) | then(.s7) | tick
            when(.e5) | then(.s8) | tick
            when(.e6) | then(.s9) | tick
            matching(P.c7, or: P.c8) | when(.e7) | then(.s0) | tick
            when(.e8) | then(.s1) | tick
            when(.e9) | then(.s2) | tick
        }
        define(.s3) {
            matching(Q.c3, and: R.c0) | when(.e0) | then(.s4) | tick
            when(.e1) | then(.s5) | tick
            when(.e2) | then(.s6) | tick
            matching(R.c3) | when(.e3) | then(.s7) | tick
            when(.e4) | then(.s8) | tick
            when(.e5) | then(.s9) | tick
            matching(P.c6, or: P.c7) | when(.e6) | then(.s0) | tick
            when(.e7) | then(.s1) | tick
            when(.e8) | then(.s2) | tick
            matching(Q.c3, and: R.c9) | when(.e9) | then(.s3) | tick
        }
        define(.s4) {
            when(.e0) | then(.s5) | tick
            when(.e1) | then(.s6) | tick
            matching(R.c4) | when(.e2) | then(.s7) | tick
            when(.e3) | then(.s8) | tick
            when(.e4) | then(.s9) | tick
            matching(P.c5, or: P.c6) | when(.e5) | then(.s0) | tick
            when(.e6) | then(.s1) | tick
            when(.e7) | then(.s2) | tick
            matching(Q.c4, and: R.c8) | when(.e8) | then(.s3) | tick
            when(.e9) | then(.s4) | tick
        }
        define(.s5) {
            when(.e0) | then(.s6) | tick
            matching(R.c5) | when(.e1) | then(.s7) | tick
            when(.e2) | then(.s8) | tick
            when(.e3) | then(.s9) | tick
            matching(P.c4, or: P.c5) | when(.e4) | then(.s0) | tick
            when(.e5) | then(.s1) | tick
            when(.e6) | then(.s2) | tick
            matching(Q.c5, and: R.c7) | when(.e7) | then(.s3) | tick
            when(.e8) | then(.s4) | tick
            when(.e9) | then(.s5) | tick
        }
        define(.s6) {
            matching(R.c6) | when(.e0) | then(.s7) | tick
            when(.e1) | then(.s8) | tick
            when(.e2) | then(.s9) | tick
            matching(P.c3, or: P.c4) | when(.e3) | then(.s0) | tick
            when(.e4) | then(.s1) | tick
            when(.e5) | then(.s2) | tick
            matching(Q.c6, and: R.c6) | when(.e6) | then(.s3) | tick
            when(.e7) | then(.s4) | tick
            when(.e8) | then(.s5) | tick
            matching(R.c6) | when(.e9) | then(.s6) | tick
        }
        define(.s7) {
            when(.e0) | then(.s8) | tick
            when(.e1) | then(.s9) | tick
            matching(P.c2, or: P.c3) | when(.e2) | then(.s0) | tick
            when(.e3) | then(.s1) | tick
            when(.e4) | then(.s2) | tick
            matching(Q.c7, and: R.c5) | when(.e5) | then(.s3) | tick
            when(.e6) | then(.s4) | tick
            when(.e7) | then(.s5) | tick
            matching(R.c7) | when(.e8) | then(.s6) | tick
            when(.e9) | then(.s7) | tick
        }
        define(.s8) {
            when(.e0) | then(.s9) | tick
            matching(P.c1, or: P.c2) | when(.e1) | then(.s0) | tick
            when(.e2) | then(.s1) | tick
            when(.e3) | then(.s2) | tick
            matching(Q.c8, and: R.c4) | when(.e4) | then(.s3) | tick
            when(.e5) | then(.s4) | tick
            when(.e6) | then(.s5) | tick
            matching(R.c8) | when(.e7) | then(.s6) | tick
            when(.e8) | then(.s7) | tick
            when(.e9) | then(.s8) | tick
        }
        define(.s9) {
            matching(P.c0, or: P.c1) | when(.e0) | then(.s0) | tick
            when(.e1) | then(.s1) | tick
            when(.e2) | then(.s2) | tick
            matching(Q.c9, and: R.c3) | when(.e3) | then(.s3) | tick
            when(.e4) | then(.s4) | tick
            when(.e5) | then(.s5) | tick
            matching(R.c9) | when(.e6) | then(.s6) | tick
            when(.e7) | then(.s7) | tick
            when(.e8) | then(.s8) | tick
            matching(P.c9, or: P.c0) | when(.e9) | then(.s9) | tick
        }
    }
}

@Suite struct LargeTableTests {
    @Test func aHundredTransitionTableBuildsAndResolves() throws {
        let schema = try makeHundredTransitionSchema {}
        #expect(schema.transitions.count == 100)
        #expect(schema.predicateTypes.map(\.name) == ["P", "Q", "R"])
        #expect(schema.resolve(.e1, in: .s0).target == .s2)
        #expect(schema.resolve(.e0, in: .s0, predicates: P.c0, Q.c0, R.c0).target == .s1)
        #expect(schema.resolve(.e0, in: .s0, predicates: P.c5, Q.c0, R.c0).unhandledKind == .noTransition)
    }
}
