/// An asynchronous sequence of what a machine or supervisor publishes, from the moment of
/// subscription until the publisher stops or the consumer stops iterating.
///
/// ```swift
/// let records = await machine.records()
/// for await record in records { print(record) }
/// print("dropped:", records.droppedCount)
/// ```
///
/// A stream has one consumer: iterate it once, from one task (an iterator made after the first
/// one ends at once). The subscription ends, and the publisher forgets it, when its iterator is
/// released (for example after `break`), when the stream is released without being iterated,
/// or when the iterating task is cancelled: `next()` then returns `nil` instead of waiting or
/// looking for newer records.
public struct Subscription<Element: Sendable>: AsyncSequence, Sendable {
    /// Where the records come from: the publisher's shared log (unbounded subscriptions), or a
    /// buffer of the subscription's own (bounded ones, and those that start with a value).
    @usableFromInline
    enum Source: Sendable {
        case log(LogReader<Element>)
        case buffer(SubscriptionBuffer<Element>)
    }

    let source: Source
    let lifetime: Lifetime

    init(_ source: Source) {
        self.source = source
        lifetime = Lifetime(source, iterator: false)
    }

    /// Records dropped so far because the subscription's buffer was full.
    public var droppedCount: Int {
        switch source {
        case .log: 0
        case .buffer(let subscription): subscription.droppedCount
        }
    }

    /// Makes the iterator.
    public func makeAsyncIterator() -> Iterator {
        // Only the first iterator reads, and its lifetime ends the subscription.
        switch source {
        case .log(let reader):
            let cursor = reader.makeCursor()
            return Iterator(cursor: cursor, subscription: nil,
                            lifetime: cursor == nil ? nil : Lifetime(source, iterator: true))
        case .buffer(let subscription):
            let isFirst = subscription.beginIteration()
            return Iterator(cursor: nil, subscription: isFirst ? subscription : nil,
                            lifetime: isFirst ? Lifetime(source, iterator: true) : nil)
        }
    }

    /// Reads a ``Subscription``; not `Sendable`: iterate from one task.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline var cursor: LogCursor<Element>?
        /// `nil` for a log reader, and for an iterator that was not the stream's first.
        @usableFromInline let subscription: SubscriptionBuffer<Element>?
        /// Records taken from the subscription's buffer in one turn and not yet returned.
        @usableFromInline var batch = RingBuffer<Element>()
        /// `nil` for an iterator that was not the stream's first.
        @usableFromInline let lifetime: Lifetime?

        init(cursor: LogCursor<Element>?, subscription: SubscriptionBuffer<Element>?, lifetime: Lifetime?) {
            self.cursor = cursor
            self.subscription = subscription
            self.lifetime = lifetime
        }

        /// The next record, or `nil` once the subscription has ended; waits on `actor` (the
        /// caller's isolation) without leaving it.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element? {
            if cursor != nil { return await cursor!.next(isolation: actor) }
            guard let subscription else { return nil }
            if let element = batch.popFirst() { return element }
            return await subscription.next(refilling: &batch, isolation: actor)
        }

        /// The next record, or `nil` once the subscription has ended.
        @inlinable
        public mutating func next() async -> Element? {
            await next(isolation: nil)
        }
    }

    /// Tells the subscription when the last copy of a stream value or of an iterator is gone.
    @usableFromInline
    final class Lifetime: Sendable {
        let source: Source
        let isIterator: Bool

        init(_ source: Source, iterator: Bool) {
            self.source = source
            isIterator = iterator
        }

        deinit {
            switch source {
            case .log(let reader): reader.release(iterator: isIterator)
            case .buffer(let subscription): subscription.release(iterator: isIterator)
            }
        }
    }
}

@available(*, unavailable)
extension Subscription.Iterator: Sendable {}
