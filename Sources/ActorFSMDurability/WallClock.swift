#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The calendar time that durable timers' deadlines are written in: a machine's own clock is
/// monotonic and starts again at each boot, so a deadline on it means nothing after a restart.
public protocol WallClock: Sendable {
    /// Nanoseconds since 1970-01-01 00:00 UTC.
    func nanosecondsSince1970() -> Int64
}

/// The system's calendar clock (`CLOCK_REALTIME`).
public struct SystemWallClock: WallClock {
    /// The system's clock.
    public init() {}

    /// Nanoseconds since 1970-01-01 00:00 UTC, from `clock_gettime`.
    public func nanosecondsSince1970() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}
