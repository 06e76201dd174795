#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A value behind a lock that threads may contend for at a high rate (a machine's inbox: a
/// producer posting while the drain takes batches), stored inline in its owner.
///
/// Two locks, for two reasons:
/// - **The lock threads contend for is an adaptive `pthread_mutex_t`:** under contention it
///   spins briefly, then waits on a plain futex. On Linux, `Synchronization.Mutex` is a
///   priority-inheritance futex. Once one thread has waited for it in the kernel, every later
///   hand-over goes through the kernel too, and a producer and the drain, which meet at the
///   inbox's lock all the time, fell into a convoy of system calls: B1 `post` took 450–600 ns
///   per event, against about 190 ns with this lock. ThreadSanitizer intercepts
///   `pthread_mutex_lock`, so it sees every hand-over.
/// - **The inner `Mutex` only provides the storage:** a stable address at which the value is
///   mutated in place. It is taken only while the outer lock is held, so it never contends.
///
/// The `pthread_mutex_t` is allocated once per owner (48 bytes with the allocator's header).
@usableFromInline
struct AdaptiveMutex<Value: Sendable>: ~Copyable, @unchecked Sendable {
    // @unchecked Sendable is sound: `storage` is Sendable, and `lock` points at a pthread
    // mutex, which any thread may lock and unlock. The pointer is allocated and initialised in
    // `init` and destroyed in `deinit`; the struct is ~Copyable, so it has exactly one owner,
    // and `deinit` runs once, after every borrow has ended.
    @usableFromInline let storage: Mutex<Value>
    @usableFromInline let lock: UnsafeMutablePointer<pthread_mutex_t>

    @inlinable
    init(_ value: consuming sending Value) {
        storage = Mutex(value)
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if canImport(Glibc)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #endif
        pthread_mutex_init(lock, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    borrowing func withLock<Result: Sendable, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try storage.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
            try body(&value)
        }
    }

    /// Runs `body` with exclusive access to the value if the lock is free now; returns `nil`,
    /// without waiting, if another thread holds it.
    @inlinable
    borrowing func withLockIfAvailable<Result: Sendable, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        guard pthread_mutex_trylock(lock) == 0 else { return nil }
        defer { pthread_mutex_unlock(lock) }
        return try storage.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
            try body(&value)
        }
    }
}
