/// When a timer is due, on its machine's clock, whatever that clock's type: the order in which
/// a paused machine's timers that fell due join its queue on the resume.
@usableFromInline
struct TimerDeadline: Sendable {
    private let instant: any InstantProtocol<Duration>

    init(_ instant: some InstantProtocol<Duration>) { self.instant = instant }

    /// Whether this deadline comes before `other`; `false` for deadlines of different clocks,
    /// which one machine's timers never have.
    func precedes(_ other: TimerDeadline) -> Bool {
        func earlier<Instant: InstantProtocol<Duration>>(_ instant: Instant) -> Bool {
            guard let other = other.instant as? Instant else { return false }
            return instant < other
        }
        return earlier(instant)
    }
}
