/// The predicates of a context that ``InlinePredicates`` cannot hold, behind one reference.
@usableFromInline
final class BoxedPredicates: Sendable {
    /// The predicates, as given.
    let values: [any MatchingPredicate]
    /// The values' type identifiers and case ordinals, apart: the hot path reads these without
    /// copying an existential.
    @usableFromInline let typeIDs: [ObjectIdentifier]
    @usableFromInline let ordinals: [Int32]
    /// Whether a type was given twice.
    @usableFromInline let isAmbiguous: Bool

    init(_ values: [any MatchingPredicate]) {
        self.values = values
        let typeIDs = values.map { ObjectIdentifier(type(of: $0)) }
        self.typeIDs = typeIDs
        self.ordinals = values.map(\.ordinal)
        // A quadratic scan: contexts hold a handful of predicates, and a Set would allocate.
        isAmbiguous = typeIDs.indices.contains { index in typeIDs[..<index].contains(typeIDs[index]) }
    }
}
