/// The predicates in force when an event arrives: at most one case of each ``MatchingPredicate`` type.
///
/// Prepare a context once and reuse it for many events:
///
/// ```swift
/// let rushHour = PredicateContext(Enforcement.weak, Reward.positive)
/// schema.resolve(.pass, in: .locked, predicates: rushHour)
/// ```
public struct PredicateContext: Sendable, CustomStringConvertible {
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let typeID: ObjectIdentifier
        let value: any MatchingPredicate
        /// The case's position in `allCases`, which is its id in every schema: computed once here,
        /// so that a lookup hashes nothing.
        @usableFromInline let ordinal: Int32

        /// The predicate's type name, for messages.
        @usableFromInline var typeName: String { "\(type(of: value))" }

        init(_ value: any MatchingPredicate) {
            self.typeID = ObjectIdentifier(type(of: value))
            self.value = value
            self.ordinal = value.ordinal
        }
    }

    /// Everything a context holds, behind one reference: a context is copied into every
    /// transition's action context, and one retain is cheaper than five.
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline let entries: [Entry]
        /// The entries' type identifiers and case ordinals, apart: the hot path reads these
        /// without copying an entry's existential value.
        @usableFromInline let typeIDs: [ObjectIdentifier]
        @usableFromInline let ordinals: [Int32]
        /// The name of a type given more than once, which makes the context ambiguous.
        @usableFromInline let repeatedType: String?

        init(entries: [Entry]) {
            self.entries = entries
            self.typeIDs = entries.map(\.typeID)
            self.ordinals = entries.map(\.ordinal)
            // A quadratic scan: contexts hold a handful of predicates, and a Set would allocate.
            var repeated: String?
            for (index, entry) in entries.enumerated() where repeated == nil {
                if entries[..<index].contains(where: { $0.typeID == entry.typeID }) { repeated = entry.typeName }
            }
            self.repeatedType = repeated
        }
    }

    /// `nil` for a context with no predicates, the most common one: copying it (into a record,
    /// for each subscriber) then costs no reference counting, which threads would contend for
    /// on one shared object.
    @usableFromInline let storage: Storage?

    /// Whether the context holds no predicate: lookups then take their shortest path.
    @usableFromInline var isEmpty: Bool { storage == nil }
    @usableFromInline var entries: [Entry] { storage?.entries ?? [] }
    @usableFromInline var typeIDs: [ObjectIdentifier] { storage?.typeIDs ?? [] }
    @usableFromInline var ordinals: [Int32] { storage?.ordinals ?? [] }
    @usableFromInline var repeatedType: String? { storage?.repeatedType }

    /// A context with no predicates.
    public static let none = PredicateContext(entries: [])

    /// Creates a context from one case of each predicate type.
    ///
    /// Giving two cases of the same type is not a crash: every resolution with such a context
    /// is unhandled, with the reason ``UnhandledReason/Kind/ambiguousPredicate``.
    public init<each P: MatchingPredicate>(_ predicates: repeat each P) {
        var entries: [Entry] = []
        for predicate in repeat each predicates { entries.append(Entry(predicate)) }
        self.init(entries: entries)
    }

    /// Creates a context from predicates whose types are known only at run time.
    public init(_ predicates: [any MatchingPredicate]) {
        self.init(entries: predicates.map(Entry.init))
    }

    init(entries: [Entry]) {
        storage = entries.isEmpty ? nil : Storage(entries: entries)
    }

    /// The predicates, in the order given.
    public var predicates: [any MatchingPredicate] { entries.map(\.value) }

    /// `[Enforcement.weak, Reward.positive]`.
    public var description: String {
        "[" + entries.map { $0.value.qualifiedName }.joined(separator: ", ") + "]"
    }
}
