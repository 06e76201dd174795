/// What a supervisor does when one of its machines stops after a failure.
public struct RestartStrategy: Sendable, Hashable, CustomStringConvertible {
    enum Code: Sendable, Hashable { case restart, leaveStopped, escalate }
    let code: Code

    /// Replace the machine with a new one, under the same id, in the schema's initial state.
    public static let restart = RestartStrategy(code: .restart)
    /// Leave the machine stopped and remove it.
    public static let leaveStopped = RestartStrategy(code: .leaveStopped)
    /// Stop every machine and the supervisor, and report ``SupervisorReport/escalated(id:error:)``.
    public static let escalate = RestartStrategy(code: .escalate)

    /// The strategy's name.
    public var description: String { "\(code)" }
}

/// At most `maxRestarts` restarts within `period`; one more escalates, as in OTP.
public struct RestartIntensity: Sendable, Hashable {
    /// The most restarts allowed within `period`.
    public let maxRestarts: Int
    /// The sliding window restarts are counted in.
    public let period: Duration

    /// Creates a limit: `RestartIntensity(maxRestarts: 3, within: .seconds(5))`.
    ///
    /// - Precondition: `maxRestarts` is not negative and `period` is longer than zero. A window
    ///   of zero or less would count no restart at all, and so silently lift the limit.
    public init(maxRestarts: Int, within period: Duration) {
        precondition(maxRestarts >= 0, "RestartIntensity: maxRestarts must not be negative (got \(maxRestarts))")
        precondition(period > .zero,
                     "RestartIntensity: the period must be longer than zero (got \(period)); a window of zero or less would lift the restart limit")
        self.maxRestarts = maxRestarts
        self.period = period
    }
}

/// How a supervisor runs its machines.
public struct SupervisorConfiguration<State: Hashable & Sendable>: Sendable {
    /// The configuration of every machine. Supervised machines stop on failure by default, so
    /// that the restart strategy applies.
    public var machine: MachineConfiguration<State>
    /// What to do when a machine stops after a failure.
    public var restartStrategy: RestartStrategy
    /// How many restarts are tolerated before escalating.
    public var intensity: RestartIntensity

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - machine: how each machine runs. Its failure policy is `.stop` by default, unlike a
    ///     lone machine's `.resume`: a supervised machine that fails stops, so that the restart
    ///     strategy replaces it with a fresh one rather than letting it go on in a state an
    ///     error left. Pass `MachineConfiguration(failurePolicy: .resume)` to keep failed
    ///     machines running.
    ///   - restartStrategy: what to do when a machine stops after a failure; `.restart` by default.
    ///   - intensity: how many restarts are tolerated before escalating; 3 within 5 s by default.
    public init(
        machine: MachineConfiguration<State> = MachineConfiguration(failurePolicy: .stop),
        restartStrategy: RestartStrategy = .restart,
        intensity: RestartIntensity = RestartIntensity(maxRestarts: 3, within: .seconds(5))
    ) {
        self.machine = machine
        self.restartStrategy = restartStrategy
        self.intensity = intensity
    }
}
