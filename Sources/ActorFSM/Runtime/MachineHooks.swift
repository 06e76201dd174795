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

/// A machine's configuration, shared by reference: every machine of a supervisor points at one.
@usableFromInline
final class MachineSettings<State: Hashable & Sendable>: Sendable {
    @usableFromInline let configuration: MachineConfiguration<State>
    init(_ configuration: MachineConfiguration<State>) { self.configuration = configuration }
}

/// How a supervised machine reports to its supervisor: one link per supervisor, shared by all its
/// machines, so that a machine carries one reference instead of callbacks of its own.
@usableFromInline
final class SupervisorLink<State: Hashable & Sendable, Event: Sendable, ID: Hashable & Sendable>: Sendable {
    @usableFromInline weak let supervisor: Supervisor<State, Event, ID>?

    init(_ supervisor: Supervisor<State, Event, ID>) { self.supervisor = supervisor }
}
