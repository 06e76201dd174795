/// The predicates in force when an event arrives: at most one case of each ``MatchingPredicate`` type.
///
/// Prepare a context once and reuse it for many events:
///
/// ```swift
/// let rushHour = PredicateContext(Enforcement.weak, Reward.positive)
/// let resolution = schema.resolve(.pass, in: .locked, predicates: rushHour)
/// ```
///
/// A context of up to three predicates is a plain value of 32 bytes: making one allocates
/// nothing, and copying one (into every record and action context) counts no reference.
public struct PredicateContext: Sendable, CustomStringConvertible {
    /// The predicates, in place or boxed.
    @usableFromInline let representation: Representation

    /// How a context holds its predicates.
    @usableFromInline
    enum Representation: Sendable {
        /// Up to ``InlinePredicates/capacity`` predicates whose cases are listed by `allCases`.
        case inline(InlinePredicates)
        /// More predicates, or a case that `allCases` does not list (its ordinal is then -1) or
        /// lists after its 65,535th.
        case boxed(BoxedPredicates)
    }

    /// A context with no predicates.
    public static let none = PredicateContext(inline: InlinePredicates())

    /// Creates a context from one case of each predicate type.
    ///
    /// Giving two cases of the same type is not a crash: every resolution with such a context
    /// is unhandled, with the reason ``UnhandledReason/Kind/ambiguousPredicate``.
    ///
    /// Contexts of one, two or three predicates have initialisers of their own, which the
    /// compiler specializes for the predicates' types where they are written: with them, a
    /// context of payload-free enum cases is made without allocating or searching.
    public init<each P: MatchingPredicate>(_ predicates: repeat each P) {
        var small = InlinePredicates()
        var fits = true
        repeat (fits = fits && small.append(each predicates))
        self = fits ? PredicateContext(inline: small) : PredicateContext(boxing: repeat each predicates)
    }

    /// Creates a context of one predicate: `PredicateContext(Enforcement.weak)`.
    @inlinable
    public init<P: MatchingPredicate>(_ predicate: P) {
        var small = InlinePredicates()
        self = small.append(predicate) ? PredicateContext(inline: small) : PredicateContext(boxing: predicate)
    }

    /// Creates a context of two predicates.
    @inlinable
    public init<P1: MatchingPredicate, P2: MatchingPredicate>(_ first: P1, _ second: P2) {
        var small = InlinePredicates()
        self = small.append(first) && small.append(second)
            ? PredicateContext(inline: small) : PredicateContext(boxing: first, second)
    }

    /// Creates a context of three predicates.
    @inlinable
    public init<P1: MatchingPredicate, P2: MatchingPredicate, P3: MatchingPredicate>(
        _ first: P1, _ second: P2, _ third: P3
    ) {
        var small = InlinePredicates()
        self = small.append(first) && small.append(second) && small.append(third)
            ? PredicateContext(inline: small) : PredicateContext(boxing: first, second, third)
    }

    /// A context that holds `predicates` boxed: more than fit in place, or a case that `allCases`
    /// omits.
    @usableFromInline
    init<each P: MatchingPredicate>(boxing predicates: repeat each P) {
        var values: [any MatchingPredicate] = []
        for predicate in repeat each predicates { values.append(predicate) }
        representation = .boxed(BoxedPredicates(values))
    }

    /// Creates a context from predicates whose types are known only at run time.
    public init(_ predicates: [any MatchingPredicate]) {
        var small = InlinePredicates()
        for predicate in predicates where !small.append(opening: predicate) {
            representation = .boxed(BoxedPredicates(predicates))
            return
        }
        representation = .inline(small)
    }

    /// A context of the predicates `inline` holds.
    @inlinable init(inline: InlinePredicates) { representation = .inline(inline) }

    /// Whether the context holds no predicate: lookups then take their shortest path.
    @inlinable package var isEmpty: Bool {
        if case .inline(let small) = representation { small.count == 0 } else { false }
    }

    /// How many predicates the context holds.
    @inlinable var count: Int {
        switch representation {
        case .inline(let small): Int(small.count)
        case .boxed(let boxed): boxed.typeIDs.count
        }
    }

    /// The type of the predicate at `index`.
    @inlinable func typeID(at index: Int) -> ObjectIdentifier {
        switch representation {
        case .inline(let small): small.typeID(at: index)
        case .boxed(let boxed): boxed.typeIDs[index]
        }
    }

    /// The case ordinal of the predicate at `index`: -1 for a case missing from `allCases`.
    @inlinable func ordinal(at index: Int) -> Int32 {
        switch representation {
        case .inline(let small): small.ordinal(at: index)
        case .boxed(let boxed): boxed.ordinals[index]
        }
    }

    /// The case ordinal of the predicate of type `typeID`, -1 for a case missing from `allCases`,
    /// or `nil` if the context has no predicate of that type.
    @inlinable func ordinal(of typeID: ObjectIdentifier) -> Int32? {
        switch representation {
        case .inline(let small):
            for index in 0..<Int(small.count) where small.typeID(at: index) == typeID {
                return small.ordinal(at: index)
            }
            return nil
        case .boxed(let boxed):
            return boxed.typeIDs.firstIndex(of: typeID).map { boxed.ordinals[$0] }
        }
    }

    /// Whether the context holds two predicates of one type, which makes every lookup with it ambiguous.
    @inlinable var isAmbiguous: Bool {
        switch representation {
        case .inline(let small): small.isAmbiguous
        case .boxed(let boxed): boxed.isAmbiguous
        }
    }

    /// The name of the first type given more than once, for messages.
    @usableFromInline var repeatedTypeName: String? {
        let values = predicates
        for (index, value) in values.enumerated()
        where values[..<index].contains(where: { type(of: $0) == type(of: value) }) {
            return "\(type(of: value))"
        }
        return nil
    }

    /// The name of the predicate type at `index`, for messages.
    @usableFromInline func typeName(at index: Int) -> String { "\(type(of: predicates[index]))" }

    /// The predicates, in the order given. A context of up to three finds each case again in its
    /// type's `allCases`, so `allCases` must not change while the program runs.
    public var predicates: [any MatchingPredicate] {
        switch representation {
        case .inline(let small): small.values
        case .boxed(let boxed): boxed.values
        }
    }

    /// `[Enforcement.weak, Reward.positive]`.
    public var description: String {
        "[" + predicates.map { $0.qualifiedName }.joined(separator: ", ") + "]"
    }
}
