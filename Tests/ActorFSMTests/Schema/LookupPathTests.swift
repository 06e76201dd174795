@testable import ActorFSM
import Testing
import TestSupport

/// A lookup answers a context held in place by straight-line code over hashed type columns, and
/// anything else by a full search; a schema whose columns could not be hashed always searches.
/// All three must give the same answer to every question.
@Suite struct LookupPathTests {
    /// A predicate type whose `allCases` leaves out a case, so a context with it is boxed.
    enum Partial: MatchingPredicate {
        case listed, unlisted
        static var allCases: [Partial] { [.listed] }
    }

    /// A type no statement mentions.
    enum Stranger: MatchingPredicate { case one }

    /// Cells without predicates, with one type, with two, with a condition (with and without
    /// predicates), and without any transition at all (`reset` in `alarming`).
    @Syntax.TableBuilder<Turnstile>
    static func table() -> [Syntax.Define<Turnstile>] {
        define(.locked) {
            matching(A.y, and: B.z) | when(.coin) | then(.alarming)
            matching(A.x) | when(.coin) | then(.unlocked)
            matching(C.z, or: C.y) | when(.pass) | then(.unlocked)
            when(.pass) | then(.locked)
            matching(Partial.listed) | when(.reset) | then(.unlocked)
        }
        define(.unlocked) {
            matching(B.x, and: C.x) | when(.coin) | then(.alarming)
            condition { false } | when(.pass) | then(.locked)
            when(.reset) | then(.locked)
        }
        define(.alarming) {
            matching(Enforcement.weak) | when(.coin) | then(.locked)
            condition({ false }) {
                matching(Reward.positive) | when(.pass) | then(.unlocked)
            }
            when(.pass) | then(.alarming)
        }
    }

    /// Contexts of every kind: empty, one to three predicates in any order, a repeated type, an
    /// unknown type, and boxed ones (four predicates, a case missing from `allCases`).
    static let contexts: [PredicateContext] = [
        .none, PredicateContext(A.x), PredicateContext(A.y, B.z), PredicateContext(B.z, A.y),
        PredicateContext(C.y, A.x, B.x), PredicateContext(B.x, C.x), PredicateContext(C.x),
        PredicateContext(A.z, B.z, C.z), PredicateContext(Enforcement.weak), PredicateContext(Enforcement.strong, A.x),
        PredicateContext(A.x, A.y), PredicateContext(Stranger.one), PredicateContext(A.x, Stranger.one),
        PredicateContext(A.x, B.x, Stranger.one), PredicateContext(A.y, Stranger.one, B.z),
        PredicateContext(Reward.positive), PredicateContext(Reward.negative, C.x),
        PredicateContext(Partial.listed), PredicateContext(Partial.unlisted), PredicateContext(A.y, B.z, C.z, Reward.negative),
        PredicateContext(A.y, B.z, C.z, Stranger.one), PredicateContext(A.x, B.x, C.x, A.y),
    ]

    /// What a lookup found, in a form tests can compare.
    static func answer(_ lookup: LookupResult) -> String {
        switch lookup {
        case .fires(let index): "fires \(index)"
        case .conditionFalse(let index): "condition false \(index)"
        case .unhandled(let reason): "unhandled: \(reason.kind) \(reason.predicateType ?? "")"
        }
    }

    /// Every (state, event, context) of the table, answered by `lookup` and by `search`.
    static func answers(
        _ storage: SchemaStorage<Turnstile>, bySearch: Bool
    ) -> [String] {
        var answers: [String] = []
        for state in [State.locked, .unlocked, .alarming] {
            let stateID = storage.table.stateIDs[state]!
            for event in [Event.coin, .pass, .reset] {
                let eventID = storage.table.tagTable?.id(of: event) ?? storage.table.eventID(event)!
                for predicates in contexts {
                    let lookup = bySearch
                        ? storage.table.search(Int(stateID) * storage.table.eventCount + Int(eventID), event: event, predicates: predicates, data: ())
                        : storage.table.lookup(state: stateID, event: event, predicates: predicates, data: ())
                    answers.append("\(state) \(event) \(predicates): " + answer(lookup))
                }
            }
        }
        return answers
    }

    static func compile(columnWidthLimit: Int) throws -> SchemaStorage<Turnstile> {
        try SchemaCompiler<Turnstile>.compile(
            initial: .locked, policy: .executeOnChangeOnly, definitions: table(),
            location: SourceLocation(#fileID, #line), columnWidthLimit: columnWidthLimit)
    }

    @Test func theInlinePathTheSearchAndUnhashedColumnsAgree() throws {
        let hashed = try Self.compile(columnWidthLimit: TypeColumns.maximumWidth)
        let unhashed = try Self.compile(columnWidthLimit: 1)
        #expect(hashed.table.typeColumns.isHashed)
        #expect(!unhashed.table.typeColumns.isHashed)
        // The inline path answers a complete context of known types itself (so the comparison
        // below is not between two runs of the search), and leaves the rest to the search.
        let locked = Int(hashed.table.stateIDs[.locked]!) * hashed.table.eventCount
        let coin = Int(hashed.table.tagTable?.id(of: Event.coin) ?? hashed.table.eventID(Event.coin)!)
        func entry(_ storage: SchemaStorage<Turnstile>, _ context: PredicateContext) -> Int32 {
            guard case .inline(let small) = context.representation else { return .min }
            return storage.table.entry(in: storage.table.cells[locked + coin], for: small)
        }
        let alarming = hashed.transitions.firstIndex { $0.target == hashed.table.stateIDs[.alarming]! }!
        #expect(entry(hashed, PredicateContext(B.z, C.x, A.y)) == Int32(alarming))
        #expect(entry(hashed, PredicateContext(A.z, B.z)) == -1)
        #expect(entry(hashed, PredicateContext(B.z)) == -2)
        #expect(entry(hashed, PredicateContext(A.y, B.z, Stranger.one)) == -2)
        #expect(entry(hashed, PredicateContext(A.y, B.z, A.x)) == -2)
        #expect(entry(unhashed, PredicateContext(B.z, C.x, A.y)) == -2)
        let quick = Self.answers(hashed, bySearch: false)
        #expect(quick == Self.answers(hashed, bySearch: true))
        #expect(quick == Self.answers(unhashed, bySearch: false))
        // The answers are not all alike: each kind of outcome is among them.
        for expected in ["fires", "condition false", "noTransition", "missingPredicate", "unknownPredicate",
                         "ambiguousPredicate"] {
            #expect(quick.contains { $0.contains(expected) }, "no answer \(expected)")
        }
        // Spot checks against the table.
        let schema = try Schema<Turnstile>(initial: .locked, Self.table)
        #expect(schema.resolve(.coin, in: .locked, predicates: B.z, A.y).target == .alarming)
        #expect(schema.resolve(.coin, in: .unlocked, predicates: C.x, A.z, B.x).target == .alarming)
        #expect(schema.resolve(.pass, in: .locked, predicates: A.x, C.y).target == .unlocked)
        #expect(schema.resolve(.pass, in: .locked, predicates: C.x).target == .locked)
        #expect(schema.resolve(.reset, in: .alarming, predicates: Stranger.one).unhandledKind == .noTransition)
        #expect(schema.resolve(.pass, in: .alarming, predicates: Stranger.one).unhandledReason?.predicateType == "Stranger")
    }

    @Test func everyTypeAndNeverHaveAColumnOfTheirOwn() {
        enum P1: MatchingPredicate { case on }
        enum P2: MatchingPredicate { case on }
        enum P3: MatchingPredicate { case on }
        enum P4: MatchingPredicate { case on }
        let types: [Any.Type] = [A.self, B.self, C.self, Enforcement.self, Reward.self, Partial.self,
                                 P1.self, P2.self, P3.self, P4.self, Never.self]
        let ids = types.map { ObjectIdentifier($0) }
        for count in 1...ids.count {
            let columns = TypeColumns(typeIDs: Array(ids.prefix(count)))
            #expect(columns.isHashed)
            #expect(columns.width >= count && columns.width.nonzeroBitCount == 1)
            #expect(Set(columns.columnsOfSlots).count == count)
            for (slot, id) in ids.prefix(count).enumerated() {
                #expect(columns.column(of: id) == columns.columnsOfSlots[slot])
            }
            // A type not given has no column, whichever bucket it falls in.
            #expect(columns.column(of: ObjectIdentifier(Stranger.self)) == nil)
        }
    }

    @Test func columnsThatCannotBeHashedAreTheSlots() {
        let ids = [ObjectIdentifier(A.self), ObjectIdentifier(B.self), ObjectIdentifier(Never.self)]
        let columns = TypeColumns(typeIDs: ids, maximumWidth: 2)
        #expect(!columns.isHashed)
        #expect(columns.width == 3)
        #expect(columns.columnsOfSlots == [0, 1, 2])
        // Every bucket is 0, which holds no identifier: lookups take the search by slot.
        #expect(ids.allSatisfy { columns.column(of: $0) == nil })
    }
}
