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
