/// Up to three predicates held in place, by type and case ordinal: the common context, which
/// is trivially copyable.
///
/// It keeps no predicate value: a case is found again from its type and its position in
/// `allCases` (see ``values``). Tuples rather than `InlineArray`, which needs macOS 26.
@usableFromInline
struct InlinePredicates: Sendable, BitwiseCopyable {
    /// How many predicates fit.
    @usableFromInline static var capacity: Int { 3 }

    /// The predicates' types; places from ``count`` on hold `Never`'s, which the schema's lookup
    /// reads as a type of stride 0 (see `SchemaStorage.entry(in:for:)`).
    @usableFromInline var types = (
        ObjectIdentifier(Never.self), ObjectIdentifier(Never.self), ObjectIdentifier(Never.self)
    )
    /// The predicates' case ordinals, in the same places.
    @usableFromInline var ordinals: (UInt16, UInt16, UInt16) = (0, 0, 0)
    /// How many places are used.
    @usableFromInline var count: UInt8 = 0
    /// Whether a type was given twice.
    @usableFromInline var isAmbiguous = false

    @inlinable init() {}

    /// The type of the predicate at `index`, which is below ``count``.
    @inlinable func typeID(at index: Int) -> ObjectIdentifier {
        switch index {
        case 0: types.0
        case 1: types.1
        default: types.2
        }
    }

    /// The case ordinal of the predicate at `index`, which is below ``count``.
    @inlinable func ordinal(at index: Int) -> Int32 {
        switch index {
        case 0: Int32(ordinals.0)
        case 1: Int32(ordinals.1)
        default: Int32(ordinals.2)
        }
    }

    /// Adds `predicate`, or returns `false` if it does not fit: the places are taken, or its
    /// ordinal is -1 (a case that `allCases` omits) or too large for 16 bits.
    ///
    /// Inlinable, with ``CaseOrdinals/ordinal(of:)``, so that a context made from predicate
    /// values is specialized for their types where it is written.
    @inlinable
    mutating func append<P: MatchingPredicate>(_ predicate: P) -> Bool {
        let ordinal = predicate.ordinal
        guard Int(count) < Self.capacity, ordinal >= 0, ordinal <= Int32(UInt16.max) else { return false }
        // The dynamic type, as the schema identifies it: a subclass instance of a class that
        // conforms is of the subclass.
        let typeID = ObjectIdentifier(type(of: predicate))
        for index in 0..<Int(count) where self.typeID(at: index) == typeID { isAmbiguous = true }
        switch count {
        case 0: (types.0, ordinals.0) = (typeID, UInt16(ordinal))
        case 1: (types.1, ordinals.1) = (typeID, UInt16(ordinal))
        default: (types.2, ordinals.2) = (typeID, UInt16(ordinal))
        }
        count += 1
        return true
    }

    /// Adds a predicate whose type is known only at run time.
    @usableFromInline
    mutating func append(opening predicate: any MatchingPredicate) -> Bool {
        func add<P: MatchingPredicate>(_ value: P) -> Bool { append(value) }
        return add(predicate)
    }

    /// The predicates, found again from their types and ordinals (a cold path: messages and
    /// ``PredicateContext/predicates``).
    var values: [any MatchingPredicate] {
        (0..<Int(count)).map { index in
            // The cast to the protocol finds the conformance, which `append` proved exists.
            let type = UnsafeAccess.metatype(of: typeID(at: index)) as! any MatchingPredicate.Type
            return type.case(at: Int(ordinal(at: index)))
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
