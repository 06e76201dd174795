import Synchronization

/// A `Mutex` whose hand-overs ThreadSanitizer can follow, for state that two threads contend for
/// and that must stay inline (a machine's inbox: no allocation of its own per machine).
///
/// On Linux, `Mutex` is a priority-inheritance futex. Under contention the kernel gives the lock
/// to the next thread, and neither side performs an atomic operation that ThreadSanitizer sees,
/// so it reports false races on the guarded value. Here each critical section starts with an
/// acquiring load of `handOver` and ends with a releasing store to it: ThreadSanitizer sees every
/// hand-over as a release/acquire pair. On x86 both are plain moves; the lock itself still does
/// the real work. (`Locked`, on a `pthread_mutex_t`, is the alternative where one allocation per
/// owner does not matter.)
@usableFromInline
struct FencedMutex<Value: Sendable>: ~Copyable, Sendable {
    @usableFromInline let mutex: Mutex<Value>
    @usableFromInline let handOver = Atomic<UInt8>(0)

    @inlinable
    init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    borrowing func withLock<Result: Sendable, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
            _ = handOver.load(ordering: .acquiring)
            defer { handOver.store(0, ordering: .releasing) }
            return try body(&value)
        }
    }

    /// Runs `body` with exclusive access to the value if the lock is free now; returns `nil`,
    /// without waiting, if another thread holds it.
    @inlinable
    borrowing func withLockIfAvailable<Result: Sendable, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        try mutex.withLockIfAvailable { (value: inout sending Value) throws(Failure) -> sending Result in
            _ = handOver.load(ordering: .acquiring)
            defer { handOver.store(0, ordering: .releasing) }
            return try body(&value)
        }
    }
}
