/// What a supervisor publishes: every record of every machine, and its supervision decisions.
public enum SupervisorReport<State: Hashable & Sendable, Event: Sendable, ID: Hashable & Sendable>: Sendable {
    /// A machine processed an event (the record carries the machine's id).
    case transition(TransitionRecord<State, Event, ID>)
    /// A failed machine was replaced by a new one in the initial state.
    case restarted(id: ID, after: any Error)
    /// A machine stopped and was removed.
    case terminated(id: ID, MachineTermination)
    /// A failure exceeded the restart intensity, or the strategy escalates: every machine was
    /// stopped, and so was the supervisor.
    case escalated(id: ID, error: any Error)

    /// The record, for `.transition`.
    public var record: TransitionRecord<State, Event, ID>? {
        if case .transition(let record) = self { record } else { nil }
    }
}
