@testable import ActorFSM
import Testing
import TestSupport

/// A case's ordinal is read from a table built once per type; it must always equal the
/// position that searching `allCases` with `==` finds, which is the ordinal's definition.
@Suite struct CaseOrdinalsTests {
    /// `allCases` in another order than the declaration's.
    enum Reordered: MatchingPredicate {
        case a, b, c
        static var allCases: [Reordered] { [.c, .a, .b] }
    }

    /// `allCases` leaves out `unlisted`, which then has no ordinal.
    enum Partial: MatchingPredicate {
        case listed, unlisted, alsoListed
        static var allCases: [Partial] { [.alsoListed, .listed] }
    }

    /// `==` equates `first` and `second`; `allCases` lists only `second`, so `first` finds it.
    enum Twins: MatchingPredicate {
        case first, second, third
        static var allCases: [Twins] { [.second, .third] }
        static func == (lhs: Twins, rhs: Twins) -> Bool { lhs.isThird == rhs.isThird }
        func hash(into hasher: inout Hasher) { hasher.combine(isThird) }
        private var isThird: Bool { if case .third = self { true } else { false } }
    }

    /// No bytes at all.
    enum Single: MatchingPredicate { case only }

    /// A one-byte struct, listed out of its bytes' order.
    struct Level: MatchingPredicate {
        let raw: UInt8
        static var allCases: [Level] { [Level(raw: 7), Level(raw: 3), Level(raw: 200)] }
    }

    /// Two bytes wide: found by searching.
    struct Wide: MatchingPredicate {
        let value: UInt16
        static var allCases: [Wide] { (0..<300).map { Wide(value: UInt16($0)) } }
    }

    /// Searching `allCases`: the definition the table must agree with.
    private func searched<P: MatchingPredicate>(_ value: P) -> Int32 {
        guard let index = P.allCases.firstIndex(of: value) else { return -1 }
        return Int32(P.allCases.distance(from: P.allCases.startIndex, to: index))
    }

    @Test func everyCaseHasTheOrdinalThatSearchingAllCasesFinds() {
        for value in [Reordered.a, .b, .c] { #expect(value.ordinal == searched(value)) }
        #expect([Reordered.a, .b, .c].map(\.ordinal) == [1, 2, 0])
        #expect([Partial.listed, .unlisted, .alsoListed].map(\.ordinal) == [1, -1, 0])
        #expect([Twins.first, .second, .third].map(\.ordinal) == [0, 0, 1])
        #expect(Single.only.ordinal == 0)
        #expect([Level(raw: 3), Level(raw: 200), Level(raw: 7), Level(raw: 4)].map(\.ordinal) == [1, 2, 0, -1])
        #expect([Wide(value: 0), Wide(value: 299), Wide(value: 300)].map(\.ordinal) == [0, 299, -1])
        // Asked again, once the type's table is registered.
        #expect([Reordered.a, .b, .c].map(\.ordinal) == [1, 2, 0])
        #expect([Twins.first, .second, .third].map(\.ordinal) == [0, 0, 1])
    }

    @Test func typesRegisteredFromManyTasksAtOnceEachGetTheirOwnTable() async {
        // Twenty types at once make the index grow while other tasks read it.
        enum T0: MatchingPredicate { case a, b, c }
        enum T1: MatchingPredicate { case a, b, c }
        enum T2: MatchingPredicate { case a, b, c }
        enum T3: MatchingPredicate { case a, b, c }
        enum T4: MatchingPredicate { case a, b, c }
        enum T5: MatchingPredicate { case a, b, c }
        enum T6: MatchingPredicate { case a, b, c }
        enum T7: MatchingPredicate { case a, b, c }
        enum T8: MatchingPredicate { case a, b, c }
        enum T9: MatchingPredicate { case a, b, c }
        enum U0: MatchingPredicate { case a, b, c; static var allCases: [U0] { [.c, .b, .a] } }
        enum U1: MatchingPredicate { case a, b, c; static var allCases: [U1] { [.c, .b, .a] } }
        enum U2: MatchingPredicate { case a, b, c; static var allCases: [U2] { [.c, .b, .a] } }
        enum U3: MatchingPredicate { case a, b, c; static var allCases: [U3] { [.c, .b, .a] } }
        enum U4: MatchingPredicate { case a, b, c; static var allCases: [U4] { [.c, .b, .a] } }
        enum U5: MatchingPredicate { case a, b, c; static var allCases: [U5] { [.c, .b, .a] } }
        enum U6: MatchingPredicate { case a, b, c; static var allCases: [U6] { [.c, .b, .a] } }
        enum U7: MatchingPredicate { case a, b, c; static var allCases: [U7] { [.c, .b, .a] } }
        enum U8: MatchingPredicate { case a, b, c; static var allCases: [U8] { [.c, .b, .a] } }
        enum U9: MatchingPredicate { case a, b, c; static var allCases: [U9] { [.c, .b, .a] } }
        let values: [any MatchingPredicate] = [
            T0.c, T1.c, T2.c, T3.c, T4.c, T5.c, T6.c, T7.c, T8.c, T9.c,
            U0.c, U1.c, U2.c, U3.c, U4.c, U5.c, U6.c, U7.c, U8.c, U9.c,
        ]
        let ordinals = await withTaskGroup(of: [Int32].self) { group in
            for round in 0..<8 {
                group.addTask {
                    // Each task meets the types in another order (7 is prime to 20).
                    var seen = [Int32](repeating: -9, count: values.count)
                    for step in 0..<values.count {
                        let index = (step &* 7 &+ round) % values.count
                        seen[index] = values[index].ordinal
                    }
                    return seen
                }
            }
            return await group.reduce(into: [[Int32]]()) { $0.append($1) }
        }
        let expected = Array(repeating: Int32(2), count: 10) + Array(repeating: 0, count: 10)
        #expect(ordinals.count == 8)
        for seen in ordinals { #expect(seen == expected) }
        #expect(values.map(\.ordinal) == expected)
    }
}

/// The forms of one context (values written out, an array, prepared once, boxed) must resolve
/// every input alike, whatever their types' `allCases` say.
@Suite struct PredicateValuesTests {
    typealias Reordered = CaseOrdinalsTests.Reordered
    typealias Partial = CaseOrdinalsTests.Partial
    typealias Twins = CaseOrdinalsTests.Twins
    /// Mentioned by the schema, but not by the transitions the inputs reach: adding it to a
    /// context boxes the context without changing its outcome.
    enum Extra: MatchingPredicate { case on }
    /// Mentioned nowhere in the schema.
    enum Stranger: MatchingPredicate { case one }

    let schema: Schema<Turnstile>

    init() throws {
        schema = try Schema<Turnstile>(initial: .locked, final: [.alarming]) {
            define(.locked) {
                matching(Reordered.c) | when(.coin) | then(.unlocked)
                matching(Reordered.a, or: Reordered.b) | when(.coin) | then(.alarming)
                matching(Partial.listed, and: Twins.first) | when(.pass) | then(.unlocked)
                matching(Partial.alsoListed) | when(.pass) | then(.alarming)
                matching(Extra.on) | when(.reset) | then(.locked)
            }
            define(.unlocked) {
                matching(Twins.third, and: Reordered.b) | when(.coin) | then(.locked)
                when(.pass) | then(.locked)
            }
        }
    }

    /// What a resolution says, as text that names its outcome, target and reason.
    private func outcome(_ resolution: Resolution<Turnstile>) -> String {
        switch resolution {
        case .transition(let transition): "fires \(transition)"
        case .conditionFalse(let transition): "condition false \(transition)"
        case .unhandled(let reason): "unhandled \(name(of: reason.kind)) \(reason.predicateType ?? "")"
        }
    }

    private func name(of kind: UnhandledReason.Kind) -> String {
        let names: [(UnhandledReason.Kind, String)] = [
            (.noTransition, "noTransition"), (.missingPredicate, "missingPredicate"),
            (.unknownPredicate, "unknownPredicate"), (.ambiguousPredicate, "ambiguousPredicate"),
        ]
        return names.first { $0.0 == kind }?.1 ?? "other"
    }

    @Test func valuesArraysPreparedAndBoxedContextsResolveAlike() {
        let reordered: [Reordered] = [.a, .b, .c]
        let partial: [Partial] = [.listed, .unlisted, .alsoListed]
        let twins: [Twins] = [.first, .second, .third]
        var outcomes: Set<String> = []
        for state in [State.locked, .unlocked, .alarming] {
            for event in [Event.coin, .pass, .reset] {
                for r in reordered {
                    for p in partial {
                        for t in twins {
                            let forms = [
                                outcome(schema.resolve(event, in: state, predicates: r, p, t)),
                                outcome(schema.resolve(event, in: state, predicates: PredicateContext(r, p, t))),
                                outcome(schema.resolve(event, in: state, predicates: PredicateContext([r, p, t]))),
                                outcome(schema.resolve(event, in: state, predicates: PredicateContext([p, t, r]))),
                            ]
                            #expect(Set(forms).count == 1, "\(state) \(event) \(r) \(p) \(t): \(forms)")
                            // Four predicates are boxed; `Extra` changes no outcome but `.reset`'s.
                            if event != .reset {
                                let boxed = outcome(schema.resolve(event, in: state, predicates: r, p, t, Extra.on))
                                #expect(boxed == forms[0], "\(state) \(event) \(r) \(p) \(t) boxed: \(boxed)")
                            }
                            outcomes.insert(forms[0])
                        }
                    }
                }
            }
        }
        // The inputs reach firing transitions, missing predicates (an unlisted case counts as
        // missing) and no transition.
        #expect(outcomes.contains { $0.hasPrefix("fires locked --coin") })
        #expect(outcomes.contains { $0.hasPrefix("fires locked --pass") })
        #expect(outcomes.contains { $0.hasPrefix("fires unlocked --coin") })
        #expect(outcomes.contains("unhandled missingPredicate Partial"))
        #expect(outcomes.contains("unhandled missingPredicate Extra"))
        #expect(outcomes.contains("unhandled noTransition "))
    }

    @Test func oneAndTwoValuesAndUnknownTypesResolveAsTheirArrays() {
        for r in [Reordered.a, .b, .c] {
            let one = [outcome(schema.resolve(.coin, in: .locked, predicates: r)),
                       outcome(schema.resolve(.coin, in: .locked, predicates: PredicateContext([r])))]
            #expect(one[0] == one[1])
            for t in [Twins.first, .second, .third] {
                let two = [outcome(schema.resolve(.coin, in: .unlocked, predicates: t, r)),
                           outcome(schema.resolve(.coin, in: .unlocked, predicates: PredicateContext([t, r])))]
                #expect(two[0] == two[1])
                let unknown = [outcome(schema.resolve(.coin, in: .locked, predicates: r, t, Stranger.one)),
                               outcome(schema.resolve(.coin, in: .locked, predicates: PredicateContext([r, t, Stranger.one])))]
                #expect(unknown == Array(repeating: "unhandled unknownPredicate Stranger", count: 2))
            }
        }
        #expect(outcome(schema.resolve(.coin, in: .locked, predicates: Reordered.c)).hasPrefix("fires locked --coin"))
    }
}
