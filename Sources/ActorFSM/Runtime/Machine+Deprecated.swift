// Names that changed, kept for one release so that code written against them still builds.
// See `Docs/Migrating.md`.

extension Machine {
    /// Renamed ``shutdown()``, the name a supervisor's graceful end has.
    @available(*, deprecated, renamed: "shutdown()")
    public func finish() async { await shutdown() }

    /// Renamed ``schedule(_:after:predicates:)``: unlike `post(_:)`, it never waits for room.
    @available(*, deprecated, renamed: "schedule(_:after:predicates:)")
    @discardableResult
    public nonisolated func post(
        _ event: Event, after delay: Duration, predicates: PredicateContext? = nil
    ) throws(MachineError<Definition>) -> ScheduledEvent {
        try schedule(event, after: delay, predicates: predicates)
    }
}

extension TransitionContext {
    /// Renamed ``schedule(_:after:predicates:)``: unlike `tryPost(_:)`, it never waits for room.
    @available(*, deprecated, renamed: "schedule(_:after:predicates:)")
    @discardableResult
    public func post(_ event: Event, after delay: Duration, predicates: PredicateContext? = nil) throws(MachineError<Definition>) -> ScheduledEvent {
        try schedule(event, after: delay, predicates: predicates)
    }
}
