/// How many records a subscription may hold while its consumer is slow, and which it keeps.
///
/// A machine never waits for a subscriber: once the buffer is full, records are dropped and
/// counted (see ``Subscription/droppedCount``).
public struct SubscriptionBuffering: Sendable, Hashable {
    @usableFromInline
    enum Code: Sendable, Hashable {
        case unbounded
        case newest(Int)
        case oldest(Int)
    }
    @usableFromInline let code: Code

    /// Keeps every record; memory grows with the consumer's lag (the default).
    public static let unbounded = SubscriptionBuffering(code: .unbounded)

    /// Keeps the `count` most recent records, dropping older ones.
    public static func keepingNewest(_ count: Int) -> SubscriptionBuffering {
        SubscriptionBuffering(code: .newest(Swift.max(1, count)))
    }

    /// Keeps the `count` oldest records not yet consumed, dropping newer ones.
    public static func keepingOldest(_ count: Int) -> SubscriptionBuffering {
        SubscriptionBuffering(code: .oldest(Swift.max(1, count)))
    }
}
