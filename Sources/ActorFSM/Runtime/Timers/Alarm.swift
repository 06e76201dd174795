/// A deadline on a machine's clock, fixed when the alarm is made, and a way to wait for it.
///
/// Fixing the deadline at once, rather than when a task gets round to sleeping, is what makes
/// timers deterministic under a manual clock: time advanced after a state was entered counts,
/// whenever the waiting task starts.
struct Alarm: Sendable {
    private let sleep: @Sendable () async throws -> Void

    /// An alarm `delay` from now on `clock`.
    init(after delay: Duration, on clock: any Clock<Duration>) {
        self = Self.make(after: delay, on: clock)
    }

    private init(sleep: @escaping @Sendable () async throws -> Void) { self.sleep = sleep }

    private static func make<C: Clock<Duration>>(after delay: Duration, on clock: C) -> Alarm {
        let deadline = clock.now.advanced(by: delay)
        return Alarm { try await clock.sleep(until: deadline, tolerance: nil) }
    }

    /// Waits for the deadline: returns at once if it has passed, throws `CancellationError` if
    /// the task is cancelled first.
    func wait() async throws {
        try await sleep()
        try Task.checkCancellation()
    }

    /// Starts a task that waits for the deadline, then calls `ring(true)`; if the task is
    /// cancelled first, `ring(false)`. The task inherits no task-local values.
    func start(_ ring: @escaping @Sendable (_ elapsed: Bool) async -> Void) -> Task<Void, Never> {
        Task.detached {
            let elapsed: Bool
            do {
                try await wait()
                elapsed = true
            } catch {
                elapsed = false
            }
            await ring(elapsed)
        }
    }
}
