/// What an operator's cancel did to a machine (`Supervisor.cancel(_:reason:)`).
public enum CancelOutcome<Definition: MachineDefinition>: Sendable {
    /// The machine's state handled its cancelling event, which was processed: its record.
    case sent(TransitionRecord<Definition>)
    /// The machine was ended for good: it stopped, and no restore brings it back.
    case ended
    /// Another live process holds the machine, and cancelled it: how it answered (`ended for
    /// good`, or the cancelling event it sent and the state it reached).
    case elsewhere(answer: String)
}
