import Synchronization

/// The subscriptions of one publisher. Not thread-safe: the owning actor (or lock) serialises
/// access.
///
/// Unbounded subscriptions read one shared log, which costs the publisher one copy of each
/// record however many there are; bounded ones (and those that start with a value) each have
/// a buffer of their own, which decides what they keep.
@usableFromInline
struct Subscribers<Element: Sendable>: Sendable {
    @usableFromInline var entries: [(id: Int, subscription: SubscriptionBuffer<Element>)] = []
    /// The shared log, while an unbounded subscription is live.
    @usableFromInline var log: LogWriter<Element>?
    @usableFromInline var nextID = 0

    @usableFromInline init() {}

    @inlinable var isEmpty: Bool { entries.isEmpty && log == nil }
    /// How many subscriptions are live.
    var count: Int { entries.count + (log?.broadcast.liveReaders.load(ordering: .relaxed) ?? 0) }

    /// Registers a subscription; it receives `initial`, if given, then everything published from
    /// now on. `onTermination` is told the subscription's id when its consumer goes, to remove it
    /// at once; without it, a subscription whose consumer has gone is forgotten at the next
    /// publication.
    mutating func subscribe(
        _ buffering: SubscriptionBuffering, initial: Element? = nil,
        onTermination: (@Sendable (Int) -> Void)? = nil
    ) -> Subscription<Element> {
        nextID += 1
        let id = nextID
        var terminated: (@Sendable () -> Void)?
        if let onTermination { terminated = { onTermination(id) } }
        if case .unbounded = buffering.code, initial == nil {
            if log == nil { log = LogWriter() }
            return Subscription(.log(LogReader(log!.broadcast, at: log!.position, onTermination: terminated)))
        }
        let subscription = SubscriptionBuffer<Element>(buffering: buffering, onTermination: terminated)
        if let initial { _ = subscription.publish(initial) }
        entries.append((id, subscription))
        return Subscription(.buffer(subscription))
    }

    /// Forgets a subscription whose consumer has gone.
    mutating func remove(id: Int) {
        entries.removeAll { $0.id == id }
        dropLogIfUnread()
    }

    /// Delivers `element` to every subscription without waiting; forgets those whose consumer
    /// has gone. With `deferringWakeAt` (the element's time), unbounded subscriptions that wait
    /// for records may be woken later (see ``LogWriter/append(_:deferringWakeAt:)``), at the
    /// latest by ``wakeReaders()``, which the caller promises to call when it pauses.
    @inlinable
    mutating func publish(_ element: Element, deferringWakeAt time: Timestamp? = nil) {
        if log != nil {
            if log!.broadcast.liveReaders.load(ordering: .relaxed) > 0 {
                log!.append(element, deferringWakeAt: time)
            } else {
                log = nil
            }
        }
        guard !entries.isEmpty else { return }
        var live = true
        for entry in entries where !entry.subscription.publish(element) { live = false }
        if !live { removeTerminated() }
    }

    /// Wakes the unbounded subscriptions that wait for records whose wake-up was deferred, and
    /// drops the log if none is left.
    @inlinable
    mutating func wakeReaders() {
        guard log != nil else { return }
        log!.wakeReaders()
        dropLogIfUnread()
    }

    @usableFromInline
    mutating func removeTerminated() {
        entries.removeAll { $0.subscription.isTerminated }
    }

    /// Drops the log once no reader is left, so that publishing costs nothing again.
    @usableFromInline
    mutating func dropLogIfUnread() {
        if let log, log.broadcast.liveReaders.load(ordering: .relaxed) == 0 { self.log = nil }
    }

    /// Ends every subscription: each consumer reads what is published, then the end.
    @inlinable
    mutating func finish() {
        guard !entries.isEmpty || log != nil else { return }
        detachAll().finish()
    }

    /// Forgets every subscription and returns them, for the caller to finish (outside its lock).
    @usableFromInline
    mutating func detachAll() -> Ending {
        defer {
            entries = []
            log = nil
        }
        // A closure, not a key path: a key path into a generic tuple is instantiated at run
        // time on every call.
        return Ending(subscriptions: entries.map { $0.subscription }, broadcast: log?.broadcast)
    }

    /// Subscriptions a publisher has let go of, to be finished.
    @usableFromInline
    struct Ending: Sendable {
        let subscriptions: [SubscriptionBuffer<Element>]
        let broadcast: Broadcast<Element>?

        /// Finishes every subscription: consumers read what they have been sent, then the end.
        @usableFromInline
        func finish() {
            broadcast?.finish()
            for subscription in subscriptions { subscription.finish() }
        }
    }
}
