import Synchronization

/// One unbounded subscription to a ``Broadcast``, shared by its ``Subscription`` and iterator:
/// where it starts, whether its consumer has gone, and how it waits for records.
@usableFromInline
final class LogReader<Element: Sendable>: Sendable {
    @usableFromInline let broadcast: Broadcast<Element>
    @usableFromInline let isTerminated = Atomic<Bool>(false)
    /// Where the consumer starts, until its iterator takes it. Once taken, neither the stream
    /// value nor this reader holds any chunk, so the log's read part can be freed.
    let start: FencedMutex<LogPosition<Element>?>
    /// Told once, when the consumer goes.
    let onTermination: (@Sendable () -> Void)?

    init(_ broadcast: Broadcast<Element>, at position: LogPosition<Element>, onTermination: (@Sendable () -> Void)?) {
        self.broadcast = broadcast
        start = FencedMutex(position)
        self.onTermination = onTermination
        broadcast.liveReaders.add(1, ordering: .relaxed)
    }

    /// The cursor of the stream's iterator, which reads from the start; `nil` if an iterator
    /// was made before (a stream has one consumer).
    func makeCursor() -> LogCursor<Element>? {
        let position = start.withLock { start in
            defer { start = nil }
            return start
        }
        return position.map { LogCursor(reader: self, at: $0) }
    }

    /// The stream value (`iterator == false`) or its iterator is gone.
    func release(iterator: Bool) {
        if iterator || start.withLock({ $0 != nil }) { terminate() }
    }

    /// The consumer has gone: stop counting it, wake it if it waits, tell the publisher.
    @usableFromInline
    func terminate() {
        guard !isTerminated.exchange(true, ordering: .acquiringAndReleasing) else { return }
        broadcast.liveReaders.subtract(1, ordering: .relaxed)
        start.withLock { $0 = nil }
        broadcast.unpark(self)
        onTermination?()
    }

    /// Waits until the log holds a record at `index`; returns how many it holds, or `nil` once
    /// it has finished and `index` is past its end, or the consumer has gone. Cancelling the
    /// calling task ends the subscription.
    @usableFromInline
    func wait(forRecordAt index: Int, isolation actor: isolated (any Actor)?) async -> Int? {
        while true {
            if isTerminated.load(ordering: .acquiring) { return nil }
            let count = broadcast.published.load(ordering: .acquiring)
            if count > index { return count }
            if broadcast.isFinished.load(ordering: .acquiring) {
                // Everything was published before the flag was set.
                let final = broadcast.published.load(ordering: .acquiring)
                return final > index ? final : nil
            }
            if Task.isCancelled {
                terminate()
                return nil
            }
            await withTaskCancellationHandler {
                await withUnsafeContinuation(isolation: actor) { (waiter: Broadcast<Element>.Waiter) in
                    broadcast.park(self, waiter, after: index)
                }
            } onCancel: {
                terminate()
            }
        }
    }
}
