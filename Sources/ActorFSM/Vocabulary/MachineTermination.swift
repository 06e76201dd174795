/// How a machine ended.
public enum MachineTermination: Sendable, CustomStringConvertible {
    /// `shutdown()` drained the inbox.
    case shutDown
    /// `stop()` was called.
    case stopped
    /// An action threw under the failure policy `.stop`.
    case failed(any Error)

    /// The end of a machine that `shutdown()` drained (`finish()`'s, as it was called).
    @available(*, deprecated, renamed: "shutDown")
    public static var finished: MachineTermination { .shutDown }

    /// `shut down`, `stopped` or `failed: …`.
    public var description: String {
        switch self {
        case .shutDown: "shut down"
        case .stopped: "stopped"
        case .failed(let error): "failed: \(error)"
        }
    }
}
