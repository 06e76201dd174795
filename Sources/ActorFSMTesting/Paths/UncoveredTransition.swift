import ActorFSM

/// A transition that no generated path fired, and why.
public struct UncoveredTransition<Definition: MachineDefinition>: Sendable, CustomStringConvertible {
    /// Why no path fired a transition.
    public enum Reason: Sendable, CustomStringConvertible {
        /// A dead row: no sequence of events from the initial state reaches its source state.
        case unreachableState
        /// A dead row: every event and context that reach its state select another row.
        case shadowed
        /// Its event is matched by case (a `CaseKeyed` event) and no sample of it was given.
        case noSampleEvent
        /// It postpones its event (`postpone()`): nothing records that until the state changes,
        /// so no path is made for it.
        case postpones
        /// The runs reached it, but a condition decided otherwise on the way: `transition` is the
        /// row whose condition was false, or the earlier alternative whose condition held.
        case blockedByCondition(Transition<Definition>)
        /// The runs reached it, but the machine did something else on the way: an action failed,
        /// a state task or child moved it, or a shorter timeout fired first.
        case diverged(String)

        /// What happened, in a few words.
        public var description: String {
            switch self {
            case .unreachableState: "no sequence of events reaches its state"
            case .shadowed: "every context selects another row"
            case .noSampleEvent: "its event is matched by case: give a sample of it"
            case .postpones: "it postpones its event, which no record shows"
            case .blockedByCondition(let row): "a condition decided otherwise at \(row)"
            case .diverged(let what): what
            }
        }

        /// Whether nothing the machine's data or actions do could make it fire: a dead row.
        public var isDeadRow: Bool {
            switch self {
            case .unreachableState, .shadowed: true
            case .noSampleEvent, .postpones, .blockedByCondition, .diverged: false
            }
        }
    }

    /// The transition.
    public let transition: Transition<Definition>
    /// Why nothing fired it.
    public let reason: Reason
    /// The transition's index in the schema's `Schema.transitions`.
    let index: Int

    /// `paid --cancel--> cancelled (Orders.swift:40): no sequence of events reaches its state`.
    public var description: String { "\(transition): \(reason)" }
}

/// What running ``GeneratedPaths`` fired, and what it did not.
public struct PathCoverage<Definition: MachineDefinition>: Sendable, CustomStringConvertible {
    /// The transitions that fired in some run, in the schema's order.
    public let covered: [Transition<Definition>]
    /// The transitions that fired in no run, in the schema's order, each with its reason.
    public let uncovered: [UncoveredTransition<Definition>]
    /// How many paths ran.
    public let pathsRun: Int
    /// How many steps the runs took, the invariant checked after each.
    public let stepsRun: Int

    /// The dead rows among ``uncovered``: those no event sequence can fire.
    public var deadRows: [UncoveredTransition<Definition>] { uncovered.filter(\.reason.isDeadRow) }

    /// `12 of 13 transitions fired in 7 paths (19 steps); not fired: …`.
    public var description: String {
        let total = covered.count + uncovered.count
        let head = "\(covered.count) of \(total) transitions fired in \(pathsRun) paths (\(stepsRun) steps)"
        return uncovered.isEmpty ? head : head + "; not fired:\n" + uncovered.map { "  \($0)" }.joined(separator: "\n")
    }
}
