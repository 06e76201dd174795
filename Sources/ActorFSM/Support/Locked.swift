#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`, for state that many threads contend for.
///
/// Why not `Synchronization.Mutex`: on Linux it is a priority-inheritance futex, and under
/// contention the kernel hands the lock from one thread to the next without a user-space
/// release/acquire pair. ThreadSanitizer, which must stay clean, then reports false races on the
/// guarded value. It intercepts `pthread_mutex_lock`, so it sees this lock. `Mutex` remains the
/// choice where contention is rare and an allocation per owner matters.
@usableFromInline
package final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable is sound: `value` is only read or written inside `withLock` or
    // `modify`, which hold `mutex` for the whole access; `mutex` lives at a stable heap address for the object's
    // lifetime (allocated in init, destroyed in deinit); and `Value` is `Sendable`, so what a
    // caller takes out of `withLock` may be used from any thread.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Unchecked exclusivity: every access holds `mutex`, so no two can overlap; the run-time
    // check would only add a call into the runtime per access.
    @exclusivity(unchecked) @usableFromInline var value: Value

    @usableFromInline
    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// The value, yielded for a change in place with the lock held: a `_modify` accessor
    /// built on it changes a field of the value with one turn of the lock and no copy.
    @inlinable
    package var locked: Value {
        get { withLock { $0 } }
        _modify {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            yield &value
        }
    }
}
