// Subscribing to a machine's records and states.

extension Machine {
    /// Subscribes to the records of every event processed from now on, in order. The stream
    /// finishes when the machine stops.
    ///
    /// - Parameters:
    ///   - buffering: how many records the subscription keeps for a slow reader, and what it
    ///     drops beyond them; unbounded by default.
    ///   - includingData: whether records carry the machine's data after each event
    ///     (``TransitionRecord/data``). Copying the data into every record costs, so it is off
    ///     by default; once a subscriber asks, every record of the machine carries it.
    public func records(
        buffering: SubscriptionBuffering = .unbounded, includingData: Bool = false
    ) -> Subscription<Record> {
        hasHadSubscribers = true
        if includingData { makeExtras().recordsCarryData = true }
        let subscription = subscribers.subscribe(buffering)
        if core.hasEnded { subscribers.finish() }
        return subscription
    }

    /// Subscribes to the current state followed by every change of state. The stream finishes
    /// when the machine stops.
    public func stateChanges(buffering: SubscriptionBuffering = .unbounded) -> Subscription<State> {
        hasHadSubscribers = true
        let subscription = stateSubscribers.subscribe(buffering, initial: state)
        if core.hasEnded { stateSubscribers.finish() }
        return subscription
    }

    /// Subscribes to the machine's data, then to the data after every transition whose actions
    /// wrote it (even with an equal value): the counterpart of ``stateChanges(buffering:)`` for the data. The stream finishes
    /// when the machine stops.
    public func dataChanges(buffering: SubscriptionBuffering = .unbounded) -> Subscription<Definition.Data> {
        hasHadSubscribers = true
        let extras = makeExtras()
        let subscription = extras.dataSubscribers.subscribe(buffering, initial: committedData)
        if core.hasEnded { extras.dataSubscribers.finish() }
        return subscription
    }
}
