// Subscribing to a machine's records and states, and what the machine keeps for its subscribers.

/// A machine's subscribers to its records and states, and when they are woken.
@usableFromInline
struct Publishing<Definition: MachineDefinition> {
    /// The subscribers to records.
    @usableFromInline var records = Subscribers<TransitionRecord<Definition>>()
    /// The subscribers to states.
    @usableFromInline var states = Subscribers<Definition.State>()
    /// Whether anyone ever subscribed to records, states or data: until then, finishing the
    /// streams has nothing to do, and skipping it spares code that is not specialized for the
    /// machine's types two look-ups of generic metadata (a shutdown meets a million such machines).
    @usableFromInline var hasHadSubscribers = false
    /// Whether the drain is working through the inbox: subscribers waiting for records are
    /// then woken once per run of records (see `LogWriter.append`), and at the latest when the
    /// inbox stays empty for a turn, or the drain stops or suspends.
    @usableFromInline var isDraining = false

    @inlinable @inline(__always) init() {}
}

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
        publishing.hasHadSubscribers = true
        if includingData { makeExtras().recordsCarryData = true }
        let subscription = publishing.records.subscribe(buffering)
        if core.hasEnded { publishing.records.finish() }
        return subscription
    }

    /// Subscribes to the current state followed by every change of state. The stream finishes
    /// when the machine stops.
    public func stateChanges(buffering: SubscriptionBuffering = .unbounded) -> Subscription<State> {
        publishing.hasHadSubscribers = true
        let subscription = publishing.states.subscribe(buffering, initial: state)
        if core.hasEnded { publishing.states.finish() }
        return subscription
    }

    /// Subscribes to the machine's data, then to the data after every transition whose actions
    /// wrote it (even with an equal value): the counterpart of ``stateChanges(buffering:)`` for the data. The stream finishes
    /// when the machine stops.
    public func dataChanges(buffering: SubscriptionBuffering = .unbounded) -> Subscription<Definition.Data> {
        publishing.hasHadSubscribers = true
        let extras = makeExtras()
        let subscription = extras.dataSubscribers.subscribe(buffering, initial: committedData)
        if core.hasEnded { extras.dataSubscribers.finish() }
        return subscription
    }
}
