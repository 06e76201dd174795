/// A deadline on a machine's clock, fixed when the alarm is made, and a way to wait for it.
///
/// Fixing the deadline at once, rather than when a task gets round to sleeping, is what makes
/// timers deterministic under a manual clock: time advanced after a state was entered counts,
/// whenever the waiting task starts.
@usableFromInline package struct Alarm: Sendable {
    /// Sleeps until the deadline, then returns how late it woke.
    private let sleep: @Sendable () async throws -> Duration
    /// The deadline, on the alarm's clock: alarms of one machine compare by it.
    let deadline: TimerDeadline

    /// An alarm `delay` from now on `clock`.
    @usableFromInline package init(after delay: Duration, on clock: any Clock<Duration>) {
        self = Self.make(after: delay, on: clock)
    }

    private init(deadline: TimerDeadline, sleep: @escaping @Sendable () async throws -> Duration) {
        (self.deadline, self.sleep) = (deadline, sleep)
    }

    /// A `delay` below zero sets a deadline already past (a restored timer overdue by that
    /// much): it rings at once, and sorts before those due later.
    private static func make<C: Clock<Duration>>(after delay: Duration, on clock: C) -> Alarm {
        let deadline = clock.now.advanced(by: delay)
        return Alarm(deadline: TimerDeadline(deadline)) {
            try await clock.sleep(until: deadline, tolerance: nil)
            return max(.zero, deadline.duration(to: clock.now))
        }
    }

    /// Waits for the deadline: returns at once if it has passed, throws `CancellationError` if
    /// the task is cancelled first.
    ///
    /// - Returns: how long after the deadline it woke, on the alarm's clock.
    @discardableResult
    func wait() async throws -> Duration {
        let lateness = try await sleep()
        try Task.checkCancellation()
        return lateness
    }

    /// Starts a task that waits for the deadline, then calls `ring` with how late it woke; if
    /// the task is cancelled first, `ring(nil)`. The task inherits no task-local values.
    func start(_ ring: @escaping @Sendable (_ lateness: Duration?) async -> Void) -> Task<Void, Never> {
        Task.detached {
            let lateness: Duration?
            do {
                lateness = try await wait()
            } catch {
                lateness = nil
            }
            await ring(lateness)
        }
    }
}
