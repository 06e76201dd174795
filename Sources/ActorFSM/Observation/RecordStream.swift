import Synchronization

/// An asynchronous sequence of what a machine or supervisor publishes, from the moment of
/// subscription until the publisher stops or the consumer stops iterating.
///
/// ```swift
/// let transitions = await machine.transitions()
/// for await record in transitions { print(record) }
/// print("dropped:", transitions.droppedCount)
/// ```
public struct RecordStream<Element: Sendable>: AsyncSequence, Sendable {
    /// The iterator; not `Sendable`: iterate from one task.
    public typealias AsyncIterator = AsyncStream<Element>.Iterator

    let stream: AsyncStream<Element>
    let drops: DropCounter

    /// Records dropped so far because the subscription's buffer was full.
    public var droppedCount: Int { drops.value }

    /// Makes the iterator.
    public func makeAsyncIterator() -> AsyncStream<Element>.Iterator { stream.makeAsyncIterator() }
}

/// Counts dropped records; shared by the publisher and the consumer.
@usableFromInline
final class DropCounter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func increment() { count.add(1, ordering: .relaxed) }
}

/// The subscriptions of one publisher. Not thread-safe: the owning actor serialises access.
@usableFromInline
struct Subscribers<Element: Sendable> {
    @usableFromInline var entries: [(id: Int, continuation: AsyncStream<Element>.Continuation, drops: DropCounter)] = []
    @usableFromInline var nextID = 0

    @usableFromInline init() {}

    @inlinable var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// Registers a subscription; it receives everything published from now on. `onTermination`
    /// is told the subscription's id when its consumer stops iterating, to remove it at once.
    mutating func subscribe(
        _ buffering: SubscriptionBuffering, initial: Element? = nil,
        onTermination: (@Sendable (Int) -> Void)? = nil
    ) -> RecordStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: buffering.policy(for: Element.self))
        let drops = DropCounter()
        nextID += 1
        let id = nextID
        if let initial { continuation.yield(initial) }
        if let onTermination { continuation.onTermination = { _ in onTermination(id) } }
        entries.append((id, continuation, drops))
        return RecordStream(stream: stream, drops: drops)
    }

    /// Forgets a subscription whose consumer has gone.
    mutating func remove(id: Int) {
        entries.removeAll { $0.id == id }
    }

    /// Delivers `element` to every subscription without waiting; forgets terminated ones.
    @usableFromInline
    mutating func publish(_ element: Element) {
        var terminated: [Int] = []
        for (index, entry) in entries.enumerated() {
            switch entry.continuation.yield(element) {
            case .dropped: entry.drops.increment()
            case .terminated: terminated.append(index)
            case .enqueued: break
            @unknown default: break
            }
        }
        for index in terminated.reversed() { entries.remove(at: index) }
    }

    /// Ends every subscription.
    mutating func finish() {
        for continuation in detachAll() { continuation.finish() }
    }

    /// Forgets every subscription and returns their continuations, for the caller to finish once
    /// it has released any lock: finishing runs the subscriptions' `onTermination` at once.
    mutating func detachAll() -> [AsyncStream<Element>.Continuation] {
        defer { entries = [] }
        return entries.map(\.continuation)
    }
}

extension Subscribers: Sendable {}
