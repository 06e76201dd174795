/// One subscriber's own buffer, shared by the publisher (a machine or supervisor) and the
/// consumer (a ``Subscription`` and its iterator): for bounded subscriptions, and for those that
/// start with a value (`stateChanges()`). Other unbounded subscriptions read a shared ``Broadcast``.
///
/// Why not `AsyncStream`: it is not specialised for our records (a quarter of a publication went
/// to generic metadata lookups). Here a consumer is woken only when it had nothing left to read,
/// and an unbounded one takes every buffered record in one lock turn.
@usableFromInline
final class SubscriptionBuffer<Element: Sendable>: Sendable {
    @usableFromInline package typealias Waiter = UnsafeContinuation<Void, Never>

    @usableFromInline let state: FencedMutex<SubscriptionState<Element, Waiter>>
    /// Told once, when the consumer goes (so a publisher can forget the subscription at once).
    let onTermination: (@Sendable () -> Void)?

    init(buffering: SubscriptionBuffering, onTermination: (@Sendable () -> Void)? = nil) {
        state = FencedMutex(SubscriptionState(buffering: buffering.code))
        self.onTermination = onTermination
    }

    /// Records dropped so far because the buffer was full.
    var droppedCount: Int { state.withLock { $0.dropped } }

    /// Whether the consumer has gone.
    var isTerminated: Bool { state.withLock { $0.phase == .terminated } }

    // MARK: Publisher

    /// Delivers `element` without waiting; returns `false` if the consumer has gone.
    @inlinable
    func publish(_ element: Element) -> Bool {
        switch state.withLock({ $0.publish(element) }) {
        case .none:
            return true
        case .resume(let waiter):
            waiter.resume()
            return true
        case .terminated:
            return false
        }
    }

    /// Ends the subscription once the consumer has read what is buffered.
    func finish() {
        state.withLock { $0.finish() }?.resume()
    }

    // MARK: Consumer

    /// Returns the next record, refilling `batch` (empty on entry) from the buffer, or waiting
    /// for the publisher; `nil` at the end. Cancelling the calling task ends the subscription.
    @inlinable
    func next(refilling batch: inout RingBuffer<Element>, isolation actor: isolated (any Actor)?) async -> Element? {
        while true {
            if Task.isCancelled {
                terminate()
                return nil
            }
            switch state.withLock({ $0.take(into: &batch) }) {
            case .element(let element):
                return element
            case .batch:
                return batch.popFirst()
            case .end:
                return nil
            case .wait:
                await withTaskCancellationHandler {
                    await withUnsafeContinuation(isolation: actor) { (waiter: Waiter) in
                        if state.withLock({ $0.park(waiter) }) { waiter.resume() }
                    }
                } onCancel: {
                    terminate()
                }
            }
        }
    }

    /// An iterator was made: from now on its lifetime decides when the consumer has gone.
    /// Returns `false` if one was made before (this one then ends at once).
    func beginIteration() -> Bool {
        state.withLock { state in
            defer { state.isIterated = true }
            return !state.isIterated
        }
    }

    /// The stream value (`iterator == false`) or its iterator is gone.
    func release(iterator: Bool) {
        if state.withLock({ $0.release(iterator: iterator) }) { terminate() }
    }

    /// The consumer has gone: drop what is buffered, wake it if it waits, tell the publisher.
    @usableFromInline
    func terminate() {
        let (ended, waiter) = state.withLock { $0.terminate() }
        waiter?.resume()
        if ended { onTermination?() }
    }
}
