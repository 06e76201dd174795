#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`, with a condition variable that a thread of its own
/// (never a task of the cooperative pool) waits on until the value satisfies a condition.
package final class ConditionLock<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable is sound: `value` is only read or written with `mutex` held (in
    // `withLock` and `wait`), both pthread objects live at stable heap addresses from init to
    // deinit, and `Value` is `Sendable`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        #if os(Linux)
        // Timed waits measure on the monotonic clock, which a step of the wall clock leaves alone.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        #else
        pthread_cond_init(condition, nil)
        #endif
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value, then wakes the waiting thread.
    package func withLockSignalling<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_signal(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body(&value)
    }

    /// The clock of ``wait(until:orUntil:take:)``'s deadlines: monotonic where the system lets a
    /// condition variable wait on it (Linux), the realtime clock elsewhere.
    package static var deadlineClock: clockid_t {
        #if os(Linux)
        CLOCK_MONOTONIC
        #else
        CLOCK_REALTIME
        #endif
    }

    /// Blocks the calling thread until `isReady` holds for the value, then runs `take` on it,
    /// with the lock held throughout. Call it only from a thread of one's own.
    package func wait<Result>(until isReady: (Value) -> Bool, take: (inout Value) -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !isReady(value) { pthread_cond_wait(condition, mutex) }
        return take(&value)
    }

    /// Blocks the calling thread until `isReady` holds for the value or ``deadlineClock`` reaches
    /// `deadline`, then runs `take` on it (which may find it not ready), with the lock
    /// held throughout. Call it only from a thread of one's own.
    package func wait<Result>(
        until isReady: (Value) -> Bool, orUntil deadline: timespec, take: (inout Value) -> Result
    ) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        var deadline = deadline
        while !isReady(value) {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
        }
        return take(&value)
    }
}
