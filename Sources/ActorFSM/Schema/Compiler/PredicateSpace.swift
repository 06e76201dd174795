/// A predicate type used by a schema: its cases, and a typed index from case to dense id.
struct PredicateType: Sendable {
    let id: ObjectIdentifier
    let name: String
    let cases: [any MatchingPredicate]
    let index: any CaseIndexing

    var caseCount: Int { cases.count }
}

/// Maps the cases of one predicate type to dense ids; see `CaseIndex`.
protocol CaseIndexing: AnyObject, Sendable {}

final class CaseIndex<P: MatchingPredicate>: CaseIndexing {
    let ids: [P: Int32]

    init() {
        ids = Dictionary(uniqueKeysWithValues: P.allCases.enumerated().map { ($1, Int32($0)) })
    }
}

extension MatchingPredicate {
    static func makePredicateType() -> PredicateType {
        PredicateType(id: ObjectIdentifier(Self.self), name: "\(Self.self)", cases: Array(allCases), index: CaseIndex<Self>())
    }

    /// This case's dense id, given the index built for `Self`.
    ///
    /// Callers pick `index` by `ObjectIdentifier(Self.self)`, and every index registered under
    /// that identifier is a `CaseIndex<Self>` (see `makePredicateType`), so the downcast holds.
    func caseID(in index: any CaseIndexing) -> Int32? {
        unsafeDowncast(index as AnyObject, to: CaseIndex<Self>.self).ids[self]
    }
}

/// The predicate types of a schema being built, numbered in order of first appearance.
struct PredicateSpace {
    private(set) var types: [PredicateType] = []
    private(set) var slots: [ObjectIdentifier: Int] = [:]

    /// The slot of `predicate`'s type and the id of its case, registering the type if new.
    mutating func locate(_ predicate: any MatchingPredicate) -> (slot: Int, caseID: Int32) {
        let id = ObjectIdentifier(type(of: predicate))
        let slot: Int
        if let known = slots[id] {
            slot = known
        } else {
            slot = types.count
            types.append(type(of: predicate).makePredicateType())
            slots[id] = slot
        }
        // A CaseIterable type's value is always among its cases; -1 flags a broken conformance.
        return (slot, predicate.caseID(in: types[slot].index) ?? -1)
    }

    func name(slot: Int, caseID: Int32) -> String {
        let type = types[slot]
        return caseID >= 0 && Int(caseID) < type.caseCount ? type.cases[Int(caseID)].qualifiedName : "\(type.name).?"
    }
}
