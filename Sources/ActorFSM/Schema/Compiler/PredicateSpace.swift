/// A predicate type used by a schema and its cases; a case's dense id is its position in
/// `allCases` (see `MatchingPredicate.ordinal`).
@usableFromInline
package struct PredicateType: Sendable {
    @usableFromInline let id: ObjectIdentifier
    @usableFromInline package let name: String
    package let cases: [any MatchingPredicate]

    var caseCount: Int { cases.count }
}

extension MatchingPredicate {
    static func makePredicateType() -> PredicateType {
        PredicateType(id: ObjectIdentifier(Self.self), name: "\(Self.self)", cases: Array(allCases))
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
        return (slot, predicate.ordinal)
    }

    func name(slot: Int, caseID: Int32) -> String {
        let type = types[slot]
        return caseID >= 0 && Int(caseID) < type.caseCount ? type.cases[Int(caseID)].qualifiedName : "\(type.name).?"
    }
}
