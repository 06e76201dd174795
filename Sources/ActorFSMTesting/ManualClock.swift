import ActorFSM
import ActorFSMDurability

/// A clock whose time moves only when a test advances it, so timers are tested without sleeping.
///
/// ```swift
/// let clock = ManualClock()
/// let machine = Machine(schema: payment, id: 1, configuration: MachineConfiguration(clock: clock))
/// var records = await machine.records().makeAsyncIterator()
/// clock.advance(by: .seconds(30))
/// let timedOut = await records.next()   // origin: .timeout(after: .seconds(30))
/// ```
///
/// `sleep(until:)` returns at once for a deadline already reached, and otherwise waits until
/// ``advance(by:)`` or ``advance(to:)`` reaches it, or until its task is cancelled.
public final class ManualClock: Clock, Sendable {
    /// A point on a ``ManualClock``: the time advanced since the clock started.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// The time since the clock's start.
        public let offset: Duration

        /// The instant `offset` after the clock's start.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Whether `lhs` comes first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

        /// `+30.0 seconds`.
        public var description: String { "+\(offset)" }
    }

    private struct Timeline {
        var now: Instant
        var sleepers = SleeperQueue<Instant, CheckedContinuation<Void, any Error>>()
        var nextID: UInt64 = 0
        var sleepCalls = 0
        var watchers = CountWatchers()

        /// Takes the watchers whose count of sleepers has been reached.
        mutating func takeSatisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
            watchers.reached(sleepers.count)
        }
    }

    private let timeline: Locked<Timeline>

    /// A clock at `now`, the start by default.
    public init(now: Instant = Instant(offset: .zero)) {
        timeline = Locked(Timeline(now: now))
    }

    /// The current time: it changes only when the clock is advanced.
    public var now: Instant { timeline.withLock { $0.now } }

    /// Zero: the clock keeps exact time.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are waiting in `sleep(until:)` now.
    public var sleeperCount: Int { timeline.withLock { $0.sleepers.count } }

    /// How many times `sleep(until:)` has been called in all. A timer that waits once calls it
    /// once; code that polls the clock calls it again and again.
    public var sleepCallCount: Int { timeline.withLock { $0.sleepCalls } }

    /// Waits until `deadline`, or throws `CancellationError` if the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = timeline.withLock { timeline in
            timeline.nextID += 1
            timeline.sleepCalls += 1
            return timeline.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case due, cancelled, waiting([CheckedContinuation<Void, Never>]) }
                let outcome = timeline.withLock { timeline -> Outcome in
                    if deadline <= timeline.now { return .due }
                    // Checked under the lock: a cancellation after this point finds the sleeper.
                    if Task.isCancelled { return .cancelled }
                    timeline.sleepers.insert(id: id, deadline: deadline, continuation)
                    return .waiting(timeline.takeSatisfiedWatchers())
                }
                switch outcome {
                case .due: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .waiting(let watchers): for watcher in watchers { watcher.resume() }
                }
            }
        } onCancel: {
            timeline.withLock { $0.sleepers.remove(id: id) }?.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration` and wakes every sleeper whose deadline it reaches,
    /// earliest deadline first.
    public func advance(by duration: Duration) {
        advance(to: timeline.withLock { $0.now }.advanced(by: duration))
    }

    /// Moves time forward to `instant` (never back) and wakes every sleeper whose deadline it
    /// reaches, earliest deadline first.
    public func advance(to instant: Instant) {
        let due = timeline.withLock { timeline in
            if instant > timeline.now { timeline.now = instant }
            return timeline.sleepers.removeDue(at: timeline.now)
        }
        for continuation in due { continuation.resume() }
    }

    /// Returns once at least `count` tasks are waiting in `sleep(until:)`: for a test that must
    /// know its timers are armed before it looks at what they cost.
    public func waitUntilSleeping(count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = timeline.withLock { timeline in
                timeline.watchers.wait(until: count, continuation, current: timeline.sleepers.count)
            }
            if !waits { continuation.resume() }
        }
    }
}
