/// What a supervisor publishes: every record of every machine, and its supervision decisions.
public enum SupervisorReport<Definition: MachineDefinition>: Sendable {
    /// The definition's state type.
    public typealias State = Definition.State
    /// The definition's event type.
    public typealias Event = Definition.Event
    /// The definition's machine id type.
    public typealias ID = Definition.ID
    /// A machine processed an event (the record carries the machine's id).
    case transition(TransitionRecord<Definition>)
    /// A failed machine was replaced by a new one in the initial state.
    case restarted(id: ID, after: any Error)
    /// A machine stopped and was removed.
    case terminated(id: ID, MachineTermination)
    /// A durable machine was written out of memory (`passivate(id:)`, in `ActorFSMDurability`): it is not
    /// finished, and its next event restores it from the store.
    case passivated(id: ID)
    /// A failure exceeded the restart intensity, or the strategy escalates: every machine was
    /// stopped, and so was the supervisor.
    case escalated(id: ID, error: any Error)

    /// The record, for `.transition`.
    public var record: TransitionRecord<Definition>? {
        if case .transition(let record) = self { record } else { nil }
    }
}
