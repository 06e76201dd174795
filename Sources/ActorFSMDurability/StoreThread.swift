#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

import ActorFSM

/// A thread of a store's own, which runs the store's blocking work (disk writes, fsyncs,
/// database calls) in order, so that none of it runs on Swift's cooperative thread pool. Work
/// queued while the thread is busy is handed over together: a store commits it as one batch.
/// Stores (this package's, and the benchmarks' wrappers) reach it through the `Stores` SPI.
@_spi(Stores) public final class StoreThread<Work: Sendable>: Sendable {
    private struct Queue: Sendable {
        var work: [Work] = []
        var isClosed = false
    }

    private let queue = ConditionLock(Queue())
    private let handle = Locked<pthread_t?>(nil)

    /// Starts a thread that calls `run` with each batch of work, in order, until ``close()``,
    /// and `tick.body` every `tick.interval` between batches (a lease's renewal, say): on the
    /// thread, so that neither waits for Swift's cooperative pool.
    @_spi(Stores) public init(
        name: String, tick: (interval: Duration, body: @Sendable () -> Void)? = nil,
        run: @escaping @Sendable ([Work]) -> Void
    ) {
        let thread = Self.start(name: name, body: Body(queue: queue, tick: tick, run: run))
        handle.withLock { $0 = thread }
    }

    private static func start(name: String, body: Body) -> pthread_t {
        startThread(name: name) { body.loop() }
    }

    deinit { close() }

    /// Queues `work`; `false` once the thread is closed.
    @discardableResult
    @_spi(Stores) public func submit(_ work: Work) -> Bool {
        queue.withLockSignalling { queue in
            guard !queue.isClosed else { return false }
            queue.work.append(work)
            return true
        }
    }

    /// Lets the thread finish the work queued and then `last`, if given, then ends it; nothing
    /// queued after `last` is taken. Waits for the thread unless called from the thread itself
    /// (the last reference to a store may go in a completion it runs).
    @_spi(Stores) public func close(after last: Work? = nil) {
        let wasOpen = queue.withLockSignalling { queue in
            defer { queue.isClosed = true }
            if !queue.isClosed, let last { queue.work.append(last) }
            return !queue.isClosed
        }
        guard wasOpen, let thread = handle.withLock({ $0 }) else { return }
        if pthread_equal(thread, pthread_self()) != 0 {
            pthread_detach(thread)
        } else {
            pthread_join(thread, nil)
        }
    }

    /// The thread's body, handed to `pthread_create`: takes every batch queued, in turn.
    private final class Body: Sendable {
        let queue: ConditionLock<Queue>
        let tick: (interval: Duration, body: @Sendable () -> Void)?
        let run: @Sendable ([Work]) -> Void

        init(
            queue: ConditionLock<Queue>, tick: (interval: Duration, body: @Sendable () -> Void)?,
            run: @escaping @Sendable ([Work]) -> Void
        ) {
            self.queue = queue
            self.tick = tick
            self.run = run
        }

        func loop() {
            let clock = ContinuousClock()
            var nextTick = tick.map { clock.now + $0.interval }
            let isReady = { (queue: Queue) in !queue.work.isEmpty || queue.isClosed }
            let take = { (queue: inout Queue) -> (batch: [Work], closed: Bool) in
                defer { queue.work = [] }
                return (queue.work, queue.isClosed && queue.work.isEmpty)
            }
            while true {
                let taken = if let nextTick {
                    queue.wait(until: isReady, orUntil: Self.deadline(after: clock.now.duration(to: nextTick)), take: take)
                } else {
                    queue.wait(until: isReady, take: take)
                }
                if taken.closed { return }
                if !taken.batch.isEmpty { run(taken.batch) }
                if let tick, let due = nextTick, clock.now >= due {
                    tick.body()
                    nextTick = clock.now + tick.interval
                }
            }
        }

        /// The reading of the condition's clock `delay` from now, as `pthread_cond_timedwait`
        /// takes it.
        private static func deadline(after delay: Duration) -> timespec {
            var now = timespec()
            clock_gettime(ConditionLock<Queue>.deadlineClock, &now)
            let nanoseconds = max(0, delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000)
            let total = Int64(now.tv_nsec) + nanoseconds % 1_000_000_000
            return timespec(tv_sec: now.tv_sec + Int(nanoseconds / 1_000_000_000 + total / 1_000_000_000),
                            tv_nsec: Int(total % 1_000_000_000))
        }
    }
}

/// A value that only a store's thread touches: the connection or file handle a store makes in
/// its `init` and hands to its ``StoreThread``, the one confinement every store of the package uses.
package struct Confined<Value>: @unchecked Sendable {
    // @unchecked Sendable is sound: a store makes the value before it starts its thread, hands
    // it to that thread's closure only, and touches it nowhere else afterwards; the thread's
    // start orders the value's writes before every read on the thread.
    package let value: Value

    /// Confines `value`, which its maker no longer touches.
    package init(_ value: Value) { self.value = value }
}

/// Starts a thread of a store's own that runs `body`; join it (`pthread_join`) once it ends.
/// The system knows it as `actorfsm-` and the first word of `name` (at most 15 bytes, as Linux
/// keeps them).
package func startThread(name: String, _ body: @escaping @Sendable () -> Void) -> pthread_t {
    var thread = pthread_t()
    let label = String(("actorfsm-" + (name.split(separator: " ").first ?? "")).utf8.prefix(15))!
    let entry = ThreadEntry {
        #if canImport(Darwin)
        pthread_setname_np(label)
        #else
        // Glibc's module leaves out pthread_setname_np; the kernel takes the name here too.
        let file = open("/proc/thread-self/comm", O_WRONLY)
        if file >= 0 {
            _ = label.withCString { write(file, $0, strlen($0)) }
            close(file)
        }
        #endif
        body()
    }
    let created = pthread_create(&thread, nil, runThreadEntry, Unmanaged.passRetained(entry).toOpaque())
    precondition(created == 0, "could not start the store thread \(name): error \(created)")
    return thread
}

/// What a thread started by `pthread_create` runs.
private final class ThreadEntry: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// The C entry point of a ``StoreThread``: runs the ``ThreadEntry`` it is handed, and releases it.
private func runThreadEntry(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let raw else { return nil }
    Unmanaged<ThreadEntry>.fromOpaque(raw).takeRetainedValue().body()
    return nil
}
