/// A schema reduced to text: its states, its transitions as diagrams label them, its final
/// states and its timeouts, without its Swift types.
///
/// A durable store keeps it under the schema's fingerprint, so that tools name the states of
/// stored machines and draw the schema without the program that wrote them. It is `Codable`;
/// the same schema always gives the same description, in the schema's stable order.
///
/// ```swift
/// let description = SchemaDescription(turnstile, name: "Turnstile")
/// print(description.dot(counts: ["locked": 12, "unlocked": 3]))
/// ```
public struct SchemaDescription: Sendable, Codable, Equatable {
    /// One state.
    public struct State: Sendable, Codable, Equatable {
        /// The state's `description`: what diagrams and stored machines call it.
        public var name: String
        /// What a diagram notes under the name: entry and exit actions, child machines.
        public var notes: [String]
        /// Whether it is one of the schema's final states.
        public var isFinal: Bool
        /// The state's timeouts in nanoseconds, shortest first.
        public var timeouts: [Int64]

        /// A state with these parts.
        public init(name: String, notes: [String] = [], isFinal: Bool = false, timeouts: [Int64] = []) {
            self.name = name
            self.notes = notes
            self.isFinal = isFinal
            self.timeouts = timeouts
        }
    }

    /// One flattened transition: an inherited one appears on every state that adopts it.
    public struct Transition: Sendable, Codable, Equatable {
        /// The index of its source in ``SchemaDescription/states``.
        public var source: Int
        /// The index of its target in ``SchemaDescription/states``.
        public var target: Int
        /// Its event, predicates and markers, as diagrams label it: `coin [Enforcement.weak] (condition)`.
        public var label: String

        /// A transition with these parts.
        public init(source: Int, target: Int, label: String) {
            self.source = source
            self.target = target
            self.label = label
        }
    }

    /// The machine definition's name.
    public var name: String
    /// The index of the initial state in ``states``.
    public var initial: Int
    /// Every state, in the schema's order.
    public var states: [State]
    /// Every transition, in the schema's order.
    public var transitions: [Transition]

    /// A description with these parts.
    public init(name: String, initial: Int, states: [State], transitions: [Transition]) {
        self.name = name
        self.initial = initial
        self.states = states
        self.transitions = transitions
    }

    /// Describes `schema`.
    ///
    /// - Parameters:
    ///   - schema: the schema to describe.
    ///   - name: the definition's name; its type's name by default.
    public init<Definition: MachineDefinition>(_ schema: Schema<Definition>, name: String? = nil) {
        let storage = schema.storage
        self.name = name ?? "\(Definition.self)"
        initial = Int(storage.initial)
        states = storage.states.indices.map { index in
            var notes: [String] = []
            let entry = storage.actions.entryActions[index].count
            let exit = storage.actions.exitActions[index].count
            if entry > 0 { notes.append("\(entry) entry action\(entry == 1 ? "" : "s")") }
            if exit > 0 { notes.append("\(exit) exit action\(exit == 1 ? "" : "s")") }
            notes += storage.timers.stateTasks[index].compactMap { $0.child?.label }
            let state = storage.states[index]
            return State(name: "\(state)", notes: notes, isFinal: storage.finalStates.contains(state),
                         timeouts: schema.timeouts(of: state).map { Self.nanoseconds($0.duration) }.sorted())
        }
        transitions = schema.transitions.map { transition in
            let compiled = transition.compiled
            return Transition(source: Int(compiled.source), target: Int(compiled.target), label: Self.label(of: transition))
        }
    }

    /// The index of the state called `name`, if any.
    public func state(named name: String) -> Int? {
        states.firstIndex { $0.name == name }
    }

    private static func label<Definition: MachineDefinition>(of transition: ActorFSM.Transition<Definition>) -> String {
        let requirements = transition.predicates.map(\.description)
        var label = transition.eventDescription
        if !requirements.isEmpty { label += " [\(requirements.joined(separator: ", "))]" }
        switch (transition.alternative, transition.hasCondition) {
        case (let rank?, true): label += " (\(rank + 1). condition)"
        case (let rank?, false): label += " (\(rank + 1). otherwise)"
        case (nil, true): label += " (condition)"
        case (nil, false): break
        }
        if transition.postpones { label += " (postponed)" }
        return label
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}
