/// A state timeout: what `after(.seconds(30))` responds to instead of an event.
///
/// A state's timeouts are armed each time the machine enters the state and cancelled when it
/// leaves. ``Transition/event`` is a `Timeout` for a transition declared with `after`.
public struct Timeout: Hashable, Sendable, CustomStringConvertible {
    /// How long after entering the state the timeout fires.
    public let duration: Duration

    /// A timeout that fires `duration` after the state is entered.
    public init(_ duration: Duration) { self.duration = duration }

    /// `after 30s`.
    public var description: String { "after \(duration.compactDescription)" }
}

extension Duration {
    /// The duration in the largest whole unit that expresses it: `30s`, `2m`, `1h`, `250ms`.
    var compactDescription: String {
        let (seconds, attoseconds) = components
        if attoseconds == 0 {
            if seconds != 0 && seconds % 3_600 == 0 { return "\(seconds / 3_600)h" }
            if seconds != 0 && seconds % 60 == 0 { return "\(seconds / 60)m" }
            return "\(seconds)s"
        }
        guard attoseconds % 1_000_000_000 == 0, seconds.magnitude < Int64.max.magnitude / 1_000_000_000 else {
            return "\(self)"
        }
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        if nanoseconds % 1_000_000 == 0 { return "\(nanoseconds / 1_000_000)ms" }
        if nanoseconds % 1_000 == 0 { return "\(nanoseconds / 1_000)µs" }
        return "\(nanoseconds)ns"
    }
}
