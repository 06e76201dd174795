// Subscribing to a machine's records and states.

extension Machine {
    /// Subscribes to the records of every event processed from now on, in order. The stream
    /// finishes when the machine stops.
    public func records(buffering: SubscriptionBuffering = .unbounded) -> Subscription<Record> {
        hasHadSubscribers = true
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
}
