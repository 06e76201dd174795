/// The state of one subscription, as a pure value: what is buffered for the consumer, whether
/// it is waiting, and how the subscription ends. Each input returns what its caller must do once
/// it has released the lock (resume the waiting consumer, end the subscription).
///
/// Generic over `Waiter` (the consumer's continuation), so tests can drive it without `await`.
@usableFromInline
struct SubscriptionState<Element, Waiter> {
    @usableFromInline
    enum Phase: Sendable {
        /// Records are accepted.
        case open
        /// The publisher has finished: what is buffered is still delivered, then the end.
        case finished
        /// The consumer has gone (cancelled, or no iterator or stream is left): nothing more is
        /// buffered or delivered.
        case terminated
    }

    /// What ``publish(_:)`` asks of its caller.
    @usableFromInline
    enum PublishAction {
        /// Nothing: the record is buffered (or dropped and counted).
        case none
        /// The record is buffered and the consumer was waiting for one: resume it.
        case resume(Waiter)
        /// The consumer has gone: forget this subscription.
        case terminated
    }

    /// What ``take(into:)`` found.
    @usableFromInline
    enum TakeResult {
        /// One record, for a bounded subscription.
        case element(Element)
        /// Every buffered record has moved to the consumer's batch.
        case batch
        /// Nothing is buffered yet: the consumer should wait.
        case wait
        /// The subscription has ended.
        case end
    }

    @usableFromInline var pending = RingBuffer<Element>()
    @usableFromInline var waiter: Waiter?
    @usableFromInline var phase = Phase.open
    @usableFromInline var dropped = 0
    /// Whether an iterator was made: from then on, the iterator's lifetime, not the stream's,
    /// decides when the consumer has gone.
    @usableFromInline var isIterated = false
    @usableFromInline let buffering: SubscriptionBuffering.Code

    @usableFromInline
    init(buffering: SubscriptionBuffering.Code) {
        self.buffering = buffering
    }

    /// Buffers `element` for the consumer, or drops it as the buffering policy says.
    @inlinable
    mutating func publish(_ element: Element) -> PublishAction {
        guard case .open = phase else { return phase == .terminated ? .terminated : .none }
        switch buffering {
        case .unbounded:
            pending.append(element)
        case .newest(let limit):
            if pending.count == limit {
                _ = pending.popFirst()
                dropped += 1
            }
            pending.append(element)
        case .oldest(let limit):
            guard pending.count < limit else {
                dropped += 1
                return .none
            }
            pending.append(element)
        }
        guard let waiter else { return .none }
        self.waiter = nil
        return .resume(waiter)
    }

    /// Hands the consumer what is buffered: everything at once into `batch` (which must be
    /// empty) when the subscription is unbounded, otherwise the oldest record alone, so that a
    /// bounded buffer keeps deciding what a slow consumer sees.
    @inlinable
    mutating func take(into batch: inout RingBuffer<Element>) -> TakeResult {
        if phase == .terminated { return .end }
        if pending.isEmpty { return phase == .finished ? .end : .wait }
        guard case .unbounded = buffering else { return .element(pending.popFirst()!) }
        swap(&pending, &batch)
        return .batch
    }

    /// Records `waiter` as waiting, unless something arrived or ended since ``take(into:)``
    /// said to wait; returns whether the caller must resume it at once.
    @inlinable
    mutating func park(_ waiter: Waiter) -> Bool {
        precondition(self.waiter == nil, "A Subscription was iterated by two tasks at once; it has one consumer.")
        guard phase == .open && pending.isEmpty else { return true }
        self.waiter = waiter
        return false
    }

    /// The publisher has finished; returns the waiting consumer, to resume.
    mutating func finish() -> Waiter? {
        if phase == .open { phase = .finished }
        defer { waiter = nil }
        return waiter
    }

    /// The consumer has gone. Returns whether this ended the subscription (so the caller tells
    /// the publisher once) and the waiting consumer, to resume.
    @usableFromInline
    mutating func terminate() -> (ended: Bool, waiter: Waiter?) {
        defer { waiter = nil }
        guard phase != .terminated else { return (false, waiter) }
        phase = .terminated
        pending = RingBuffer()
        return (true, waiter)
    }

    /// The stream value (`iterator == false`) or the iterator was released; returns whether the
    /// consumer has now gone.
    mutating func release(iterator: Bool) -> Bool {
        iterator || !isIterated
    }
}

extension SubscriptionState: Sendable where Element: Sendable, Waiter: Sendable {}
extension SubscriptionState.PublishAction: Sendable where Element: Sendable, Waiter: Sendable {}
extension SubscriptionState.TakeResult: Sendable where Element: Sendable, Waiter: Sendable {}
