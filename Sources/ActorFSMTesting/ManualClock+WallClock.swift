import ActorFSM
import ActorFSMDurability

extension ManualClock: WallClock {
    /// The calendar time of the clock's start: 2026-01-01 00:00 UTC.
    public static let startSince1970: Duration = .seconds(1_767_225_600)

    /// The clock's time as a calendar time: its start is 2026-01-01 00:00 UTC, and it advances
    /// only when a test advances it. Give it to `Durability` as the wall clock, so that durable
    /// timers' deadlines move with the machine's clock.
    public func nanosecondsSince1970() -> Int64 {
        let since = Self.startSince1970 + now.offset
        return since.components.seconds * 1_000_000_000 + since.components.attoseconds / 1_000_000_000
    }
}
