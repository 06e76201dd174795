import Synchronization

/// The shared side of a publisher's log, which every unbounded subscription reads at its own
/// pace: how many records are published, and which readers wait for the next one.
///
/// Why a log: with one buffer per subscriber, each record was copied and locked once per
/// subscriber on the publisher's thread. Here the publisher writes each record once, and the
/// readers copy it out without a lock. A reader that has caught up parks; the publisher wakes
/// the parked readers after its next record, or, while a machine works through its inbox, as
/// ``LogWriter/append(_:deferringWakeAt:)`` says (after a run of records, or when the machine
/// pauses or suspends), so that a reader wakes once per run of records rather than per record.
@usableFromInline
final class Broadcast<Element: Sendable>: Sendable {
    @usableFromInline package typealias Waiter = UnsafeContinuation<Void, Never>

    /// How many records the log holds (indices `0 ..< published`).
    @usableFromInline let published = Atomic<Int>(0)
    /// How many readers are parked; read by the publisher after each record, without the lock.
    @usableFromInline let parkedCount = Atomic<Int>(0)
    /// Readers whose consumer has not gone; the publisher drops the log when none is left.
    @usableFromInline let liveReaders = Atomic<Int>(0)
    /// Set once the publisher has finished; readers end when they have read everything.
    @usableFromInline let isFinished = Atomic<Bool>(false)
    @usableFromInline let parking = FencedMutex(Parking())

    /// The readers that wait for a record, and tests that wait for readers to wait.
    @usableFromInline
    struct Parking: Sendable {
        @usableFromInline var parked: [(reader: ObjectIdentifier, waiter: Waiter)] = []
        var watchers = CountWatchers()

        @usableFromInline init() {}

        /// Takes the watchers whose count of parked readers has been reached.
        mutating func satisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
            watchers.isEmpty ? [] : watchers.reached(parked.count)
        }
    }

    @usableFromInline init() {}

    // MARK: Publisher

    /// Makes records `..< count` visible; returns whether a reader is parked, waiting to be
    /// woken by ``wakeAll()``.
    ///
    /// Both this store and the load of `parkedCount` are sequentially consistent, as are the
    /// increment and the load in ``park(_:_:after:)``: in their single total order, either the
    /// reader loads the new count (and does not park) or the publisher sees it parked (and
    /// wakes it, now or at its next flush). No reader sleeps through a record.
    @inlinable
    func publish(upTo count: Int) -> Bool {
        published.store(count, ordering: .sequentiallyConsistent)
        return parkedCount.load(ordering: .sequentiallyConsistent) > 0
    }

    /// Whether a reader is parked.
    @inlinable
    var hasParkedReaders: Bool { parkedCount.load(ordering: .sequentiallyConsistent) > 0 }

    @usableFromInline
    func wakeAll() {
        let waiters = parking.withLock { parking in
            defer { parking.parked = [] }
            parkedCount.store(0, ordering: .sequentiallyConsistent)
            return parking.parked.map(\.waiter)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// No record will follow: readers end once they have read what is published.
    func finish() {
        isFinished.store(true, ordering: .releasing)
        wakeAll()
        // No reader will park any more: let tests that wait for one go on (and fail) rather
        // than hang.
        let watchers = parking.withLock { $0.watchers.removeAll() }
        for watcher in watchers { watcher.resume() }
    }

    // MARK: Readers

    /// Parks `waiter` until a record after `index` is published, unless one already is, the
    /// log has finished or the reader has gone: then resumes it at once.
    @usableFromInline
    func park(_ reader: LogReader<Element>, _ waiter: Waiter, after index: Int) {
        let (resumeNow, watchers) = parking.withLock { parking in
            if reader.isTerminated.load(ordering: .acquiring) || isFinished.load(ordering: .acquiring) {
                return (true, [CheckedContinuation<Void, Never>]())
            }
            parking.parked.append((ObjectIdentifier(reader), waiter))
            parkedCount.add(1, ordering: .sequentiallyConsistent)
            guard published.load(ordering: .sequentiallyConsistent) > index else {
                return (false, parking.satisfiedWatchers())
            }
            parking.parked.removeLast()
            parkedCount.subtract(1, ordering: .sequentiallyConsistent)
            return (true, [])
        }
        if resumeNow { waiter.resume() }
        for watcher in watchers { watcher.resume() }
    }

    /// Resumes `reader` if it is parked (it has gone).
    func unpark(_ reader: LogReader<Element>) {
        let waiter: Waiter? = parking.withLock { parking in
            guard let position = parking.parked.firstIndex(where: { $0.reader == ObjectIdentifier(reader) }) else {
                return nil
            }
            parkedCount.subtract(1, ordering: .sequentiallyConsistent)
            return parking.parked.remove(at: position).waiter
        }
        waiter?.resume()
    }

    /// Returns once at least `count` readers wait for a record, or once the log has finished
    /// (for tests).
    package func untilParked(_ count: Int) async {
        await withCheckedContinuation { (watcher: CheckedContinuation<Void, Never>) in
            let waits = parking.withLock { parking in
                !isFinished.load(ordering: .acquiring)
                    && parking.watchers.wait(until: count, watcher, current: parking.parked.count)
            }
            if !waits { watcher.resume() }
        }
    }
}
