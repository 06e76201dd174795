/// How an event reached a machine.
public enum EventOrigin: Sendable, Hashable {
    /// `send`, awaited by its sender.
    case send
    /// `post`, `tryPost` or `post(contentsOf:)`.
    case post
    /// `context.tryPost` from one of the machine's own actions.
    case followUp
    /// `context.postNext` from one of the machine's own actions: processed before every event
    /// queued at that moment.
    case next
    /// A state timeout, `after(duration)`, that fired: the record's event is `nil`.
    case timeout(after: Duration)
    /// `schedule(_:after:)`, on the machine or from an action, once its delay passed.
    case scheduled
    /// The result or error of a ``StateTask``.
    case stateTask

    /// The duration of a timeout, for ``timeout(after:)``.
    public var timeout: Duration? { if case .timeout(let duration) = self { duration } else { nil } }

    /// The origin of an event scheduled with `schedule(_:after:)`.
    @available(*, deprecated, renamed: "scheduled")
    public static var delayedPost: EventOrigin { .scheduled }
}
