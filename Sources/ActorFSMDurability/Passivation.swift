import ActorFSM

/// When a durable supervisor writes its idle machines out of memory (see
/// `Supervisor/passivateIdle(longerThan:keepingAtMost:)`): each comes back on its next event.
///
/// ```swift
/// let orders = try Supervisor(schema: orderSchema, durability: Durability(store: store),
///                             passivation: Passivation(afterIdle: .seconds(600), keepingAtMost: 100_000))
/// ```
public struct Passivation: Sendable {
    /// How long a machine writes nothing before it is passivated.
    public var idle: Duration
    /// How many machines may stay in memory at most; the least recently active go first.
    public var limit: Int?
    /// How often the supervisor looks, on its machines' clock.
    public var interval: Duration

    /// Passivates machines idle for `idle`, and the least recently active beyond `limit`,
    /// looking every `interval` (half of `idle` by default).
    public init(afterIdle idle: Duration, keepingAtMost limit: Int? = nil, checkingEvery interval: Duration? = nil) {
        self.idle = idle
        self.limit = limit
        self.interval = interval ?? idle / 2
    }
}
