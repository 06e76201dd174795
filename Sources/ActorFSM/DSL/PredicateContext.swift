/// The predicates in force when an event arrives: at most one case of each ``MatchingPredicate`` type.
///
/// Prepare a context once and reuse it for many events:
///
/// ```swift
/// let rushHour = PredicateContext(Enforcement.weak, Reward.positive)
/// schema.resolve(.pass, in: .locked, predicates: rushHour)
/// ```
public struct PredicateContext: Sendable, CustomStringConvertible {
    struct Entry: Sendable {
        let typeID: ObjectIdentifier
        let value: any MatchingPredicate
    }

    let entries: [Entry]
    /// The name of a type given more than once, which makes the context ambiguous.
    let repeatedType: String?

    /// A context with no predicates.
    public static let none = PredicateContext(entries: [])

    /// Creates a context from one case of each predicate type.
    ///
    /// Giving two cases of the same type is not a crash: every resolution with such a context
    /// is unhandled, with the reason ``UnhandledReason/Kind/ambiguousPredicate``.
    public init<each P: MatchingPredicate>(_ predicates: repeat each P) {
        var entries: [Entry] = []
        for predicate in repeat each predicates {
            entries.append(Entry(typeID: ObjectIdentifier(type(of: predicate)), value: predicate))
        }
        self.init(entries: entries)
    }

    /// Creates a context from predicates whose types are known only at run time.
    public init(_ predicates: [any MatchingPredicate]) {
        self.init(entries: predicates.map { Entry(typeID: ObjectIdentifier(type(of: $0)), value: $0) })
    }

    init(entries: [Entry]) {
        self.entries = entries
        // A quadratic scan: contexts hold a handful of predicates, and a Set would allocate.
        var repeated: String?
        for (index, entry) in entries.enumerated() where repeated == nil {
            if entries[..<index].contains(where: { $0.typeID == entry.typeID }) { repeated = "\(type(of: entry.value))" }
        }
        self.repeatedType = repeated
    }

    /// The predicates, in the order given.
    public var predicates: [any MatchingPredicate] { entries.map(\.value) }

    /// `[Enforcement.weak, Reward.positive]`.
    public var description: String {
        "[" + entries.map { $0.value.qualifiedName }.joined(separator: ", ") + "]"
    }
}
