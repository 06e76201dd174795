/// How a machine runs: its inbox capacity, what it does after a failure, and the predicates it
/// uses when an event brings none.
public struct MachineConfiguration<State: Hashable & Sendable>: Sendable {
    /// How many events may wait in the inbox. When it is full, `send` and `post` wait for room and `tryPost`
    /// refuses the event. At least 1.
    public var inboxCapacity: Int
    /// What the machine does after an action throws: `.resume` for a lone machine unless
    /// chosen; a supervisor's machines `.stop` unless chosen.
    public var failurePolicy: FailurePolicy<State> {
        get { chosenFailurePolicy ?? .resume }
        set { chosenFailurePolicy = newValue }
    }
    /// The failure policy given, if any: a supervisor applies its own default otherwise.
    var chosenFailurePolicy: FailurePolicy<State>?
    /// The predicates used for events sent without predicates, and for state timeouts.
    public var standingPredicates: PredicateContext
    /// The clock that state timeouts and scheduled events wait on: `ContinuousClock` by default, a
    /// `ManualClock` from `ActorFSMTesting` in tests.
    public var clock: any Clock<Duration>
    /// What is told of the machine's life, events, records, failures and timers, for logs,
    /// metrics and traces; `nil` (the default) for nothing. See ``Instrument``.
    public var instrument: (any Instrument)?
    /// How many postponed events (see ``postpone(fileID:line:)``) the machine holds at once. An
    /// event postponed beyond it is not kept: its record says `.unhandled` with the reason
    /// `.postponedCapacityReached`. At least 1; 100 by default.
    public var postponedCapacity: Int

    /// Whether every field has its default value: machines configured so share one
    /// `MachineSettings` per schema.
    var isDefault: Bool {
        inboxCapacity == 1_024 && chosenFailurePolicy == nil && standingPredicates.isEmpty && instrument == nil
            && postponedCapacity == 100 && clock is ContinuousClock
    }

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - inboxCapacity: how many events may wait; 1,024 by default.
    ///   - failurePolicy: what to do after an action throws; `.resume` by default for a lone
    ///     machine and `.stop` for a supervisor's (see ``SupervisorConfiguration``).
    ///   - standingPredicates: predicates for events sent without any; none by default.
    ///   - clock: what timers wait on; `ContinuousClock()` by default.
    ///   - instrument: what observes the machine; none by default.
    ///   - postponedCapacity: how many postponed events the machine holds; 100 by default.
    public init(
        inboxCapacity: Int = 1_024, failurePolicy: FailurePolicy<State>? = nil,
        standingPredicates: PredicateContext = .none, clock: any Clock<Duration> = ContinuousClock(),
        instrument: (any Instrument)? = nil, postponedCapacity: Int = 100
    ) {
        self.postponedCapacity = Swift.max(1, postponedCapacity)
        self.inboxCapacity = Swift.max(1, inboxCapacity)
        self.chosenFailurePolicy = failurePolicy
        self.standingPredicates = standingPredicates
        self.clock = clock
        self.instrument = instrument
    }
}
