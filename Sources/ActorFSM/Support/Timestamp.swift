#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A reading of the continuous clock, kept as whole nanoseconds since the clock's epoch.
///
/// Why not `ContinuousClock.Instant`: it is not `@frozen`, so a struct that stores one (a record,
/// an inbox entry) has no fixed layout, and every copy, move and destruction of it goes through
/// the runtime's value witnesses, with a metadata lookup. An `Int64` is 8 bytes, half a
/// `Duration`, and trivial.
///
/// Why the system clock is read directly: `ContinuousClock.now` goes through the runtime's
/// `swift_get_time` and builds a `Duration` (a 128-bit product), a cost on top of the system
/// call's, and every event takes two readings.
/// The readings are the continuous clock's own: the runtime reads the same system clock
/// (`CLOCK_BOOTTIME` on Linux, `CLOCK_MONOTONIC_RAW` on Darwin), and an instant of that clock is
/// its reading as a duration since the clock's epoch (`systemEpoch`), so converting back is exact.
@usableFromInline
package struct Timestamp: Sendable, BitwiseCopyable {
    /// Nanoseconds since the continuous clock's epoch.
    @usableFromInline package let nanoseconds: Int64

    /// The reading `nanoseconds` after the clock's epoch.
    @inlinable
    package init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The reading that `instant` is: exact for the clock's own instants, which count whole
    /// nanoseconds; a finer instant is truncated to the nanosecond.
    init(_ instant: ContinuousClock.Instant) {
        let (seconds, attoseconds) = Self.epoch.duration(to: instant).components
        nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The clock's current reading.
    ///
    /// An ordinary call: it costs little next to the system call, and it keeps the platform's
    /// choice of clock in this file.
    @usableFromInline
    static package var now: Timestamp {
        #if os(Linux)
        return reading(CLOCK_BOOTTIME)
        #elseif canImport(Darwin)
        return reading(CLOCK_MONOTONIC_RAW)
        #else
        return Timestamp(ContinuousClock.now)
        #endif
    }

    #if os(Linux) || canImport(Darwin)
    /// One reading of the system clock `clock`.
    private static func reading(_ clock: clockid_t) -> Timestamp {
        var time = timespec()
        clock_gettime(clock, &time)
        // Wrapping arithmetic cannot wrap here: an Int64 of nanoseconds covers 292 years.
        return Timestamp(nanoseconds: Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec))
    }
    #endif

    /// The reading as an instant of `ContinuousClock`.
    @inlinable
    var instant: ContinuousClock.Instant { Self.epoch.advanced(by: .nanoseconds(nanoseconds)) }

    /// The continuous clock's epoch: the instant whose reading is zero.
    @inlinable
    static var epoch: ContinuousClock.Instant {
        #if compiler(>=6.3)
        ContinuousClock().systemEpoch
        #else
        // `systemEpoch` (SE-0473) arrived with Swift 6.3. Its definition, emitted into clients
        // and so fixed by the ABI, is this same cast: an instant is its duration since the epoch.
        unsafeBitCast(Duration.zero, to: ContinuousClock.Instant.self)
        #endif
    }

    /// The time from `earlier` to this reading.
    @inlinable
    package func nanoseconds(since earlier: Timestamp) -> Int64 { nanoseconds &- earlier.nanoseconds }
}
