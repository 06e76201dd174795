import ActorFSM

/// How often a store's thread does one of the things its tick does (renew the node's life,
/// write the waiting summaries): the tick runs as often as the most frequent of them needs.
final class Cadence: Sendable {
    let interval: Duration
    private let next: Locked<ContinuousClock.Instant>

    init(every interval: Duration) {
        self.interval = interval
        next = Locked(ContinuousClock.now + interval)
    }

    /// Whether it is due now or within `early` (the time until the next tick, so that it is
    /// never done late); if so, the next time is due `interval` from now.
    func isDue(within early: Duration) -> Bool {
        let now = ContinuousClock.now
        return next.withLock { next in
            guard now + early >= next else { return false }
            next = now + interval
            return true
        }
    }
}
