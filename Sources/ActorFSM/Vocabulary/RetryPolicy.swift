/// How an asynchronous action that throws is tried again: after a delay that grows from
/// `initial` by `multiplier` up to `maximum`, until `attempts` have been made, unless the error
/// is one not to retry. Declare it with ``retry(_:unless:_:)`` on an action, or on every action
/// of the statements in a block.
///
/// ```swift
/// let charging = RetryPolicy.exponential(initial: .milliseconds(100), maximum: .seconds(5), attempts: 5)
/// ```
///
/// The delays run on the machine's clock (``MachineConfiguration/clock``), so a `ManualClock`
/// drives them in tests.
public struct RetryPolicy: Sendable, CustomStringConvertible {
    /// The delay before the second attempt.
    public let initial: Duration
    /// What each later delay is multiplied by.
    public let multiplier: Double
    /// The longest delay.
    public let maximum: Duration
    /// How many attempts in all, the first included; at least 1.
    public let attempts: Int
    /// Whether an error is retried at all.
    let retries: @Sendable (any Error) -> Bool

    /// Attempts made `initial` apart at first, then `multiplier` times longer each time, up to
    /// `maximum`, `attempts` in all (the first included).
    public static func exponential(
        initial: Duration, multiplier: Double = 2, maximum: Duration, attempts: Int
    ) -> RetryPolicy {
        RetryPolicy(initial: initial, multiplier: multiplier, maximum: maximum, attempts: attempts, retries: { _ in true })
    }

    /// Attempts made `delay` apart, `attempts` in all (the first included).
    public static func fixed(_ delay: Duration, attempts: Int) -> RetryPolicy {
        RetryPolicy(initial: delay, multiplier: 1, maximum: delay, attempts: attempts, retries: { _ in true })
    }

    private init(
        initial: Duration, multiplier: Double, maximum: Duration, attempts: Int,
        retries: @escaping @Sendable (any Error) -> Bool
    ) {
        precondition(initial >= .zero && maximum >= .zero, "a retry's delays cannot be negative")
        precondition(multiplier >= 1, "a retry's multiplier must be at least 1, so that delays never shrink")
        self.initial = initial
        self.multiplier = multiplier
        self.maximum = max(maximum, initial)
        self.attempts = max(1, attempts)
        self.retries = retries
    }

    /// The same policy, which gives up at once on errors for which `excluded` returns `true`
    /// (a declined card, a validation error): the action fails with that error.
    public func unless(_ excluded: @escaping @Sendable (any Error) -> Bool) -> RetryPolicy {
        let earlier = retries
        return RetryPolicy(initial: initial, multiplier: multiplier, maximum: maximum, attempts: attempts,
                           retries: { error in earlier(error) && !excluded(error) })
    }

    /// How long to wait before attempt `attempt` (from 2), after the one before threw `error`;
    /// `nil` if the policy makes no such attempt or does not retry `error`.
    public func delay(before attempt: Int, after error: any Error) -> Duration? {
        guard attempt >= 2, attempt <= attempts, retries(error) else { return nil }
        if multiplier == 1 { return initial }
        var delay = initial
        for _ in 2..<attempt {
            delay = delay * multiplier
            if delay >= maximum { return maximum }
        }
        return min(delay, maximum)
    }

    /// `up to 5 attempts, 0.1 seconds apart growing 2.0x up to 5.0 seconds`.
    public var description: String {
        let growth = multiplier == 1 ? "" : " growing \(multiplier)x up to \(maximum)"
        return "up to \(attempts) attempts, \(initial) apart\(growth)"
    }
}
