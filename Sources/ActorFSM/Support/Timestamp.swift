/// A reading of the continuous clock, kept as its offset from a fixed origin.
///
/// Why not `ContinuousClock.Instant`: it is not `@frozen`, so a struct that stores one (a record,
/// an inbox entry) has no fixed layout, and every copy, move and destruction of it goes through
/// the runtime's value witnesses, with a metadata lookup. `Duration` is frozen. Converting back
/// is exact: `origin.advanced(by: origin.duration(to: instant)) == instant`.
@usableFromInline
struct Timestamp: Sendable {
    /// The instant all timestamps are measured from: the first time one is taken.
    @usableFromInline static let origin = ContinuousClock.now

    @usableFromInline let offset: Duration

    @inlinable
    init(_ instant: ContinuousClock.Instant) {
        offset = Self.origin.duration(to: instant)
    }

    /// The clock's current reading.
    ///
    /// Not inlinable on purpose: inlined into an async function, the clock's instants (of a
    /// type whose size is not known when compiling) were each given a task allocation.
    @usableFromInline
    static var now: Timestamp { Timestamp(.now) }

    /// The reading as an instant of `ContinuousClock`.
    @inlinable
    var instant: ContinuousClock.Instant { Self.origin.advanced(by: offset) }
}
