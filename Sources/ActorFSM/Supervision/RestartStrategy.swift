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
public struct RestartIntensity: Sendable, Hashable, CustomStringConvertible {
    /// The most restarts allowed within `period`.
    public let maxRestarts: Int
    /// The sliding window restarts are counted in.
    public let period: Duration

    /// Creates a limit: `RestartIntensity(maxRestarts: 3, within: .seconds(5))`.
    ///
    /// `maxRestarts` must not be negative and `period` must be longer than zero: a window of
    /// zero or less would count no restart at all, and so silently lift the limit. Either
    /// mistake stops the program with a message that names it, in release builds too.
    public init(maxRestarts: Int, within period: Duration) {
        guard maxRestarts >= 0 else {
            fatalError("RestartIntensity: maxRestarts must not be negative (got \(maxRestarts))")
        }
        guard period > .zero else {
            fatalError("RestartIntensity: the period must be longer than zero (got \(period)); a window of zero or less would lift the restart limit")
        }
        self.maxRestarts = maxRestarts
        self.period = period
    }

    /// `3 restarts within 5.0 seconds`.
    public var description: String { "\(maxRestarts) restart\(maxRestarts == 1 ? "" : "s") within \(period)" }
}

/// How a supervisor runs its machines.
public struct SupervisorConfiguration<State: Hashable & Sendable>: Sendable {
    /// The configuration of every machine. A supervised machine whose configuration does not
    /// choose a failure policy stops on failure, so that the restart strategy applies.
    public var machine: MachineConfiguration<State>
    /// What to do when a machine stops after a failure.
    public var restartStrategy: RestartStrategy
    /// How many restarts of one machine are tolerated before escalating. Each machine counts
    /// its own: one order that keeps failing escalates, many independent orders that each
    /// fail once do not.
    public var intensity: RestartIntensity
    /// How many restarts of all machines together are tolerated before escalating; `nil` (the
    /// default) for no such limit. For machines that share a fate, as OTP's supervisors count.
    public var overallIntensity: RestartIntensity?

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - machine: how each machine runs. Unless it chooses a failure policy, a supervised
    ///     machine stops after a failure (unlike a lone machine, which resumes), so that the
    ///     restart strategy replaces it rather than letting it go on in a state an error left.
    ///     Pass `MachineConfiguration(failurePolicy: .resume)` to keep failed machines running.
    ///   - restartStrategy: what to do when a machine stops after a failure; `.restart` by default.
    ///   - intensity: how many restarts of one machine are tolerated before escalating; 3
    ///     within 5 s by default.
    ///   - overallIntensity: how many restarts of all machines together are tolerated; no
    ///     limit by default.
    public init(
        machine: MachineConfiguration<State> = MachineConfiguration(),
        restartStrategy: RestartStrategy = .restart,
        intensity: RestartIntensity = RestartIntensity(maxRestarts: 3, within: .seconds(5)),
        overallIntensity: RestartIntensity? = nil
    ) {
        self.machine = machine
        self.restartStrategy = restartStrategy
        self.intensity = intensity
        self.overallIntensity = overallIntensity
    }

    /// The configuration a supervised machine runs with: `.stop` after a failure unless it
    /// chose a policy.
    var supervisedMachine: MachineConfiguration<State> {
        var machine = machine
        if machine.chosenFailurePolicy == nil { machine.failurePolicy = .stop }
        return machine
    }
}
