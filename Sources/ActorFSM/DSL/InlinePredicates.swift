/// Up to three predicates held in place, by type and case ordinal: the common context, which
/// is trivially copyable.
///
/// It keeps no predicate value: a case is found again from its type and its position in
/// `allCases` (see ``values``).
@usableFromInline
struct InlinePredicates: Sendable, BitwiseCopyable {
    /// How many predicates fit.
    @usableFromInline static let capacity = 3
    /// Fills the unused places; never compared, since only the first ``count`` are read.
    private static let unused = ObjectIdentifier(Never.self)

    @usableFromInline private(set) var typeIDs = InlineArray<3, ObjectIdentifier>(repeating: unused)
    @usableFromInline private(set) var ordinals = InlineArray<3, UInt16>(repeating: 0)
    @usableFromInline private(set) var count: UInt8 = 0
    /// Whether a type was given twice.
    @usableFromInline private(set) var isAmbiguous = false

    init() {}

    /// Adds `predicate`, or returns `false` if it does not fit: the places are taken, or its
    /// ordinal is -1 (a case that `allCases` omits) or too large for 16 bits.
    mutating func append<P: MatchingPredicate>(_ predicate: P) -> Bool {
        let ordinal = predicate.ordinal
        guard Int(count) < Self.capacity, ordinal >= 0, ordinal <= Int32(UInt16.max) else { return false }
        let typeID = ObjectIdentifier(P.self)
        for index in 0..<Int(count) where typeIDs[index] == typeID { isAmbiguous = true }
        typeIDs[Int(count)] = typeID
        ordinals[Int(count)] = UInt16(ordinal)
        count += 1
        return true
    }

    /// Adds a predicate whose type is known only at run time.
    mutating func append(opening predicate: any MatchingPredicate) -> Bool {
        func add<P: MatchingPredicate>(_ value: P) -> Bool { append(value) }
        return add(predicate)
    }

    /// The predicates, found again from their types and ordinals (a cold path: messages and
    /// ``PredicateContext/predicates``).
    var values: [any MatchingPredicate] {
        (0..<Int(count)).map { index in
            // `ObjectIdentifier(T.self)` wraps the metadata pointer of `T` and nothing else, so
            // casting it back gives the metatype that `append` identified; the cast to the
            // protocol then finds its conformance, which `append` proved exists.
            let type = unsafeBitCast(typeIDs[index], to: Any.Type.self) as! any MatchingPredicate.Type
            return type.case(at: Int(ordinals[index]))
        }
    }
}

extension MatchingPredicate {
    /// The case at `ordinal` in `allCases`.
    static func `case`(at ordinal: Int) -> any MatchingPredicate {
        let all = allCases
        return all[all.index(all.startIndex, offsetBy: ordinal)]
    }
}
