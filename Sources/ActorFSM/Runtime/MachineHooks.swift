/// How a machine ended.
public enum MachineTermination: Sendable, CustomStringConvertible {
    /// `finish()` drained the inbox.
    case finished
    /// `stop()` was called.
    case stopped
    /// An action threw under the failure policy `.stop`.
    case failed(any Error)

    /// `finished`, `stopped` or `failed: …`.
    public var description: String {
        switch self {
        case .finished: "finished"
        case .stopped: "stopped"
        case .failed(let error): "failed: \(error)"
        }
    }
}

/// What a supervisor learns from the machines it owns, without a task per machine.
struct MachineHooks<State: Hashable & Sendable, Event: Sendable, ID: Hashable & Sendable>: Sendable {
    /// Called on the machine's actor with every record.
    let onRecord: @Sendable (TransitionRecord<State, Event, ID>) -> Void
    /// Called once, on the machine's actor, when it stops.
    let onTermination: @Sendable (MachineTermination) -> Void
}
