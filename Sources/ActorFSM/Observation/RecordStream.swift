/// An asynchronous sequence of what a machine or supervisor publishes, from the moment of
/// subscription until the publisher stops or the consumer stops iterating.
///
/// ```swift
/// let transitions = await machine.transitions()
/// for await record in transitions { print(record) }
/// print("dropped:", transitions.droppedCount)
/// ```
///
/// It has one consumer: iterate it from one task at a time. The subscription ends, and the
/// publisher forgets it, when its iterator is released (for example after `break`), when the
/// stream is released without ever being iterated, or when the iterating task is cancelled; in
/// that last case `next()` returns `nil` once the records already handed to the iterator are read.
public struct RecordStream<Element: Sendable>: AsyncSequence, Sendable {
    @usableFromInline let subscription: Subscription<Element>
    let lifetime: Lifetime

    init(_ subscription: Subscription<Element>) {
        self.subscription = subscription
        lifetime = Lifetime(subscription, iterator: false)
    }

    /// Records dropped so far because the subscription's buffer was full.
    public var droppedCount: Int { subscription.droppedCount }

    /// Makes the iterator.
    public func makeAsyncIterator() -> Iterator {
        subscription.beginIteration()
        return Iterator(subscription: subscription, lifetime: Lifetime(subscription, iterator: true))
    }

    /// Reads a ``RecordStream``; not `Sendable`: iterate from one task.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let subscription: Subscription<Element>
        @usableFromInline let lifetime: Lifetime
        /// Records taken from the subscription in one turn and not yet returned.
        @usableFromInline var batch = RingBuffer<Element>()

        init(subscription: Subscription<Element>, lifetime: Lifetime) {
            self.subscription = subscription
            self.lifetime = lifetime
        }

        /// The next record, or `nil` once the subscription has ended; waits on `actor` (the
        /// caller's isolation) without leaving it.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element? {
            if let element = batch.popFirst() { return element }
            return await subscription.next(refilling: &batch, isolation: actor)
        }

        /// The next record, or `nil` once the subscription has ended.
        @inlinable
        public mutating func next() async -> Element? {
            if let element = batch.popFirst() { return element }
            return await subscription.next(refilling: &batch, isolation: nil)
        }
    }

    /// Tells the subscription when the last copy of a stream value or of an iterator is gone.
    @usableFromInline
    final class Lifetime: Sendable {
        let subscription: Subscription<Element>
        let isIterator: Bool

        init(_ subscription: Subscription<Element>, iterator: Bool) {
            self.subscription = subscription
            isIterator = iterator
        }

        deinit { subscription.release(iterator: isIterator) }
    }
}

@available(*, unavailable)
extension RecordStream.Iterator: Sendable {}
