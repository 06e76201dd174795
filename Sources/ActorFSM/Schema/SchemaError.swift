/// Everything wrong with a schema definition, collected in one pass and thrown together.
///
/// ```swift
/// do {
///     _ = try Schema<Turnstile>(initial: .locked) { define(.locked) { when(.coin) | then(.unlocked) } }
/// } catch {
///     for diagnostic in error.diagnostics where diagnostic.kind == .logicalClash {
///         print(diagnostic.locations)
///     }
/// }
/// ```
public struct SchemaError: Error, Sendable, CustomStringConvertible {
    /// Each problem found, ordered by the location of its first statement.
    public let diagnostics: [Diagnostic]

    init(diagnostics: [Diagnostic]) {
        var seen = Set<Diagnostic>()
        let origin = SourceLocation(fileID: "", line: 0)
        self.diagnostics = diagnostics.filter { seen.insert($0).inserted }.sorted {
            ($0.locations.first ?? origin, $0.kind.name, $0.message) < ($1.locations.first ?? origin, $1.kind.name, $1.message)
        }
    }

    /// One line per problem, each starting with `File.swift:line:` so editors can jump to it.
    public var description: String {
        let count = diagnostics.count
        let header = "The schema has \(count) problem\(count == 1 ? "" : "s"):"
        return ([header] + diagnostics.map { "  " + $0.description }).joined(separator: "\n")
    }
}

extension SchemaError {
    /// One problem in a schema definition.
    public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
        /// What kind of problem it is.
        public let kind: Kind
        /// What is wrong and what to do about it.
        public let message: String
        /// The statements involved, first the one to look at first.
        public let locations: [SourceLocation]
        /// The state involved, if any, as written in the table.
        public let state: String?
        /// The event involved, if any.
        public let event: String?
        /// The predicates involved, as `Type.case`.
        public let predicates: [String]

        init(
            _ kind: Kind, _ message: String, at locations: [SourceLocation],
            state: String? = nil, event: String? = nil, predicates: [String] = []
        ) {
            self.kind = kind
            self.message = message
            self.locations = locations
            self.state = state
            self.event = event
            self.predicates = predicates
        }

        /// `Module/File.swift:12: logical clash: … (see also Module/File.swift:13)`.
        public var description: String {
            let place = locations.first.map { "\($0): " } ?? ""
            let others = locations.dropFirst().map(\.description)
            let seeAlso = others.isEmpty ? "" : " (see also \(others.joined(separator: ", ")))"
            return "\(place)\(kind): \(message)\(seeAlso)"
        }
    }

    /// The kinds of problem a schema can have. Compare with `==`; new kinds may be added.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        let name: String

        /// The table has no `define` statement.
        public static let emptyTable = Kind(name: "empty table")
        /// A `define`, `SuperState` or context block has no statement in it.
        public static let emptyBlock = Kind(name: "empty block")
        /// Two statements have the same state, event, predicates and target.
        public static let duplicateTransitions = Kind(name: "duplicate transitions")
        /// Two statements have the same state, event and predicates but different targets.
        public static let logicalClash = Kind(name: "logical clash")
        /// A statement of a `firstOf` block without a condition is followed by others, which
        /// could then never fire.
        public static let unreachableAlternative = Kind(name: "unreachable alternative")
        /// The statements of a `firstOf` block for one state and event match different predicates.
        public static let alternativesDiffer = Kind(name: "alternatives differ")
        /// `otherwise()` starts a statement outside a `firstOf` block.
        public static let misplacedOtherwise = Kind(name: "misplaced otherwise")
        /// Two statements with different predicates both apply, equally specifically, to some
        /// combination of predicates.
        public static let implicitClash = Kind(name: "implicit clash")
        /// A statement requires two cases of one predicate type at once (`A.x` and `A.y`).
        public static let contradictoryPredicates = Kind(name: "contradictory predicates")
        /// A statement names the same predicate twice.
        public static let duplicatePredicate = Kind(name: "duplicate predicate")
        /// An `override` replaces nothing inherited.
        public static let nothingToOverride = Kind(name: "nothing to override")
        /// An `override` in a super state is followed by a plain statement in an adopter.
        public static let overridesOutOfOrder = Kind(name: "overrides out of order")
        /// A predicate's case is missing from its type's `allCases`.
        public static let invalidPredicate = Kind(name: "invalid predicate")
        /// Events are matched by value in one statement and by case key in another.
        public static let mixedEventMatching = Kind(name: "mixed event matching")
        /// A state and event combine more predicate cases than a lookup table can hold.
        public static let tooManyPredicateCombinations = Kind(name: "too many predicate combinations")
        /// A state that transitions lead to, or the initial state, has no `define` and is not
        /// listed as final: a machine there would handle no event.
        public static let undefinedState = Kind(name: "undefined state")
        /// A state listed as final is defined with transitions.
        public static let finalStateWithTransitions = Kind(name: "final state with transitions")
        /// `after(…)` is given a duration that is not positive.
        public static let invalidTimeout = Kind(name: "invalid timeout")
        /// A timeout neither leaves its state nor runs an action: it could never do anything.
        public static let timeoutWithoutEffect = Kind(name: "timeout without effect")
        /// A condition or action on a transition a timeout triggers takes the event, which a
        /// timeout does not have.
        public static let eventUnavailable = Kind(name: "event unavailable")
        /// `postpone()` is given actions, or a timeout: a postponed event runs nothing until it
        /// is retried, and a timeout cannot wait for another state.
        public static let invalidPostpone = Kind(name: "invalid postpone")

        /// The kind's name, as printed in messages.
        public var description: String { name }
    }
}
