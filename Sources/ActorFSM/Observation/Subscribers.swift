/// The subscriptions of one publisher. Not thread-safe: the owning actor (or lock) serialises
/// access.
@usableFromInline
struct Subscribers<Element: Sendable>: Sendable {
    @usableFromInline var entries: [(id: Int, subscription: Subscription<Element>)] = []
    @usableFromInline var nextID = 0

    @usableFromInline init() {}

    @inlinable var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// Registers a subscription; it receives `initial`, if given, then everything published from
    /// now on. `onTermination` is told the subscription's id when its consumer goes, to remove it
    /// at once; without it, a subscription whose consumer has gone is forgotten at the next
    /// publication.
    mutating func subscribe(
        _ buffering: SubscriptionBuffering, initial: Element? = nil,
        onTermination: (@Sendable (Int) -> Void)? = nil
    ) -> RecordStream<Element> {
        nextID += 1
        let id = nextID
        var terminated: (@Sendable () -> Void)?
        if let onTermination { terminated = { onTermination(id) } }
        let subscription = Subscription<Element>(buffering: buffering, onTermination: terminated)
        if let initial { _ = subscription.publish(initial) }
        entries.append((id, subscription))
        return RecordStream(subscription)
    }

    /// Forgets a subscription whose consumer has gone.
    mutating func remove(id: Int) {
        entries.removeAll { $0.id == id }
    }

    /// Delivers `element` to every subscription without waiting; forgets those whose consumer
    /// has gone.
    @inlinable
    mutating func publish(_ element: Element) {
        var live = true
        for entry in entries where !entry.subscription.publish(element) { live = false }
        if !live { removeTerminated() }
    }

    @usableFromInline
    mutating func removeTerminated() {
        entries.removeAll { $0.subscription.isTerminated }
    }

    /// Ends every subscription: each consumer reads what is buffered, then the end.
    mutating func finish() {
        for subscription in detachAll() { subscription.finish() }
    }

    /// Forgets every subscription and returns them, for the caller to finish.
    mutating func detachAll() -> [Subscription<Element>] {
        defer { entries = [] }
        return entries.map(\.subscription)
    }
}
