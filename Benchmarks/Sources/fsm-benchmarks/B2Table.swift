// Generated once for B2 (10 states x 10 events = 100 transitions, three predicate types of ten
// cases, a third of the transitions with `matching`, including `or:` and `and:` forms).
import ActorFSM

enum B2State: Hashable, Sendable, CaseIterable { case s0, s1, s2, s3, s4, s5, s6, s7, s8, s9 }
enum B2Event: Hashable, Sendable, CaseIterable { case e0, e1, e2, e3, e4, e5, e6, e7, e8, e9 }

/// The B2 table's types: machines numbered from zero.
enum B2Table: MachineDefinition {
    typealias State = B2State
    typealias Event = B2Event
    typealias ID = Int
}
enum Tier: MatchingPredicate { case c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 }
enum Region: MatchingPredicate { case c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 }
enum Channel: MatchingPredicate { case c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 }

func predicateSchema(_ counter: Counter) throws -> Schema<B2Table> {
    let tick: @Sendable () -> Void = { counter.value += 1 }
    return try Schema<B2Table>(initial: .s0) {
        define(.s0) {
            matching(Tier.c0, or: Tier.c1, Tier.c2) | when(.e0) | then(.s1) | tick
            when(.e1) | then(.s2) | tick
            when(.e2) | then(.s3) | tick
            matching(Region.c0, and: Channel.c3) | when(.e3) | then(.s4) | tick
            when(.e4) | then(.s5) | tick
            when(.e5) | then(.s6) | tick
            matching(Channel.c0, or: Channel.c5, and: Tier.c6, Region.c6) | when(.e6) | then(.s7) | tick
            when(.e7) | then(.s8) | tick
            when(.e8) | then(.s9) | tick
            matching(Tier.c9, or: Tier.c0, Tier.c1) | when(.e9) | then(.s0) | tick
        }
        define(.s1) {
            when(.e0) | then(.s4) | tick
            when(.e1) | then(.s5) | tick
            matching(Region.c1, and: Channel.c2) | when(.e2) | then(.s6) | tick
            when(.e3) | then(.s7) | tick
            when(.e4) | then(.s8) | tick
            matching(Channel.c1, or: Channel.c6, and: Tier.c5, Region.c6) | when(.e5) | then(.s9) | tick
            when(.e6) | then(.s0) | tick
            when(.e7) | then(.s1) | tick
            matching(Tier.c8, or: Tier.c9, Tier.c0) | when(.e8) | then(.s2) | tick
            when(.e9) | then(.s3) | tick
        }
        define(.s2) {
            when(.e0) | then(.s7) | tick
            matching(Region.c2, and: Channel.c1) | when(.e1) | then(.s8) | tick
            when(.e2) | then(.s9) | tick
            when(.e3) | then(.s0) | tick
            matching(Channel.c2, or: Channel.c7, and: Tier.c4, Region.c6) | when(.e4) | then(.s1) | tick
            when(.e5) | then(.s2) | tick
            when(.e6) | then(.s3) | tick
            matching(Tier.c7, or: Tier.c8, Tier.c9) | when(.e7) | then(.s4) | tick
            when(.e8) | then(.s5) | tick
            when(.e9) | then(.s6) | tick
        }
        define(.s3) {
            matching(Region.c3, and: Channel.c0) | when(.e0) | then(.s0) | tick
            when(.e1) | then(.s1) | tick
            when(.e2) | then(.s2) | tick
            matching(Channel.c3, or: Channel.c8, and: Tier.c3, Region.c6) | when(.e3) | then(.s3) | tick
            when(.e4) | then(.s4) | tick
            when(.e5) | then(.s5) | tick
            matching(Tier.c6, or: Tier.c7, Tier.c8) | when(.e6) | then(.s6) | tick
            when(.e7) | then(.s7) | tick
            when(.e8) | then(.s8) | tick
            matching(Region.c3, and: Channel.c9) | when(.e9) | then(.s9) | tick
        }
        define(.s4) {
            when(.e0) | then(.s3) | tick
            when(.e1) | then(.s4) | tick
            matching(Channel.c4, or: Channel.c9, and: Tier.c2, Region.c6) | when(.e2) | then(.s5) | tick
            when(.e3) | then(.s6) | tick
            when(.e4) | then(.s7) | tick
            matching(Tier.c5, or: Tier.c6, Tier.c7) | when(.e5) | then(.s8) | tick
            when(.e6) | then(.s9) | tick
            when(.e7) | then(.s0) | tick
            matching(Region.c4, and: Channel.c8) | when(.e8) | then(.s1) | tick
            when(.e9) | then(.s2) | tick
        }
        define(.s5) {
            when(.e0) | then(.s6) | tick
            matching(Channel.c5, or: Channel.c0, and: Tier.c1, Region.c6) | when(.e1) | then(.s7) | tick
            when(.e2) | then(.s8) | tick
            when(.e3) | then(.s9) | tick
            matching(Tier.c4, or: Tier.c5, Tier.c6) | when(.e4) | then(.s0) | tick
            when(.e5) | then(.s1) | tick
            when(.e6) | then(.s2) | tick
            matching(Region.c5, and: Channel.c7) | when(.e7) | then(.s3) | tick
            when(.e8) | then(.s4) | tick
            when(.e9) | then(.s5) | tick
        }
        define(.s6) {
            matching(Channel.c6, or: Channel.c1, and: Tier.c0, Region.c6) | when(.e0) | then(.s9) | tick
            when(.e1) | then(.s0) | tick
            when(.e2) | then(.s1) | tick
            matching(Tier.c3, or: Tier.c4, Tier.c5) | when(.e3) | then(.s2) | tick
            when(.e4) | then(.s3) | tick
            when(.e5) | then(.s4) | tick
            matching(Region.c6, and: Channel.c6) | when(.e6) | then(.s5) | tick
            when(.e7) | then(.s6) | tick
            when(.e8) | then(.s7) | tick
            matching(Channel.c6, or: Channel.c1, and: Tier.c9, Region.c5) | when(.e9) | then(.s8) | tick
        }
        define(.s7) {
            when(.e0) | then(.s2) | tick
            when(.e1) | then(.s3) | tick
            matching(Tier.c2, or: Tier.c3, Tier.c4) | when(.e2) | then(.s4) | tick
            when(.e3) | then(.s5) | tick
            when(.e4) | then(.s6) | tick
            matching(Region.c7, and: Channel.c5) | when(.e5) | then(.s7) | tick
            when(.e6) | then(.s8) | tick
            when(.e7) | then(.s9) | tick
            matching(Channel.c7, or: Channel.c2, and: Tier.c8, Region.c5) | when(.e8) | then(.s0) | tick
            when(.e9) | then(.s1) | tick
        }
        define(.s8) {
            when(.e0) | then(.s5) | tick
            matching(Tier.c1, or: Tier.c2, Tier.c3) | when(.e1) | then(.s6) | tick
            when(.e2) | then(.s7) | tick
            when(.e3) | then(.s8) | tick
            matching(Region.c8, and: Channel.c4) | when(.e4) | then(.s9) | tick
            when(.e5) | then(.s0) | tick
            when(.e6) | then(.s1) | tick
            matching(Channel.c8, or: Channel.c3, and: Tier.c7, Region.c5) | when(.e7) | then(.s2) | tick
            when(.e8) | then(.s3) | tick
            when(.e9) | then(.s4) | tick
        }
        define(.s9) {
            matching(Tier.c0, or: Tier.c1, Tier.c2) | when(.e0) | then(.s8) | tick
            when(.e1) | then(.s9) | tick
            when(.e2) | then(.s0) | tick
            matching(Region.c9, and: Channel.c3) | when(.e3) | then(.s1) | tick
            when(.e4) | then(.s2) | tick
            when(.e5) | then(.s3) | tick
            matching(Channel.c9, or: Channel.c4, and: Tier.c6, Region.c5) | when(.e6) | then(.s4) | tick
            when(.e7) | then(.s5) | tick
            when(.e8) | then(.s6) | tick
            matching(Tier.c9, or: Tier.c0, Tier.c1) | when(.e9) | then(.s7) | tick
        }
    }
}
