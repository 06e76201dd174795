/// What a store holds that a new version of a schema, with its migration, cannot take up: the
/// states that machines written by an older version occupy and that the new one neither has nor
/// maps, and the events they hold (in an interrupted transition, or posted to themselves and not
/// yet processed) that it cannot decode. A durable supervisor's `compatibility()` makes it, and `restoreAll()` refuses to
/// restore anything while it lists a problem.
public struct CompatibilityReport: Sendable, Equatable, CustomStringConvertible {
    /// One stored state that running machines occupy, or one event they hold, that the schema
    /// cannot read.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The fingerprint of the stored schema that wrote the machines.
        public var fingerprint: String
        /// That schema's `Durability.schemaVersion`.
        public var schemaVersion: Int
        /// The state, as the stored schema names it; empty for an event.
        public var state: String
        /// The event as its bytes read as text (`"kick"` with a JSON codec), for an event that
        /// machines hold; `nil` for a state.
        public var event: String? = nil
        /// How many machines that have not ended (not final, cancelled or purged) are in it.
        public var machines: Int
        /// The ids of the first of them, ten at most.
        public var firstIDs: [String]
        /// Why the schema cannot read it: not one of its states and not mapped, or the
        /// migration's error.
        public var reason: String

        /// The problem in a line: the state or event, the machines, why, and what to do.
        public var description: String {
            let more = machines > firstIDs.count ? ", …" : ""
            let place = event.map { "holding the event \($0)" } ?? "in \(state)"
            return "\(machines) machines \(place) (schema \(fingerprint), version \(schemaVersion): "
                + "\(firstIDs.joined(separator: ", "))\(more)): \(reason)"
        }
    }

    /// The problems, one per stored schema and state; empty when the schema takes up every
    /// machine that has not ended.
    public var problems: [Problem]

    /// Whether the schema takes up every machine the store holds that has not ended.
    public var isCompatible: Bool { problems.isEmpty }

    /// Every problem, one per line, or that there is none.
    public var description: String {
        guard !problems.isEmpty else {
            return "every stored machine that has not ended is in a state the schema reads, and holds no event it cannot decode"
        }
        return problems.map(\.description).joined(separator: "; ")
    }

    /// A report of `problems`.
    public init(problems: [Problem]) {
        self.problems = problems
    }
}
