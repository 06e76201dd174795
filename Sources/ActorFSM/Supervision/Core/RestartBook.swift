/// What a supervisor decides when one of its machines fails, without effects: the restarts it
/// counted within each window, and whether one more fits the strategy and the intensities.
/// It never makes a machine, takes a lock or reads a clock (the instant is an input), so tests
/// drive it failure by failure.
struct RestartBook<ID: Hashable & Sendable>: Sendable {
    /// Recent restarts of all machines, for the overall intensity.
    private var restarts = RingBuffer<ContinuousClock.Instant>()
    /// Recent restarts of each machine that restarted lately, for the per-machine intensity.
    private var restartsByMachine: [ID: RingBuffer<ContinuousClock.Instant>] = [:]

    /// What to do with a machine that failed.
    enum Decision: Equatable, Sendable {
        /// Leave it stopped: the strategy restarts nothing.
        case leaveStopped
        /// Make it again; the restart is counted.
        case restart
        /// Stop every machine: the strategy escalates every failure.
        case escalate
        /// Stop every machine: a restart would exceed the machine's own intensity.
        case exceedsPerMachine(RestartIntensity)
        /// Stop every machine: a restart would exceed the intensity across all machines.
        case exceedsOverall(RestartIntensity)
    }

    /// Machine `id` failed at `instant`: restart it, leave it, or escalate, as `configuration`
    /// says; a restart counts against both intensities.
    mutating func failed<State>(
        _ id: ID, at instant: ContinuousClock.Instant, under configuration: SupervisorConfiguration<State>
    ) -> Decision {
        switch configuration.restartStrategy.code {
        case .leaveStopped:
            return .leaveStopped
        case .escalate:
            return .escalate
        case .restart:
            var own = restartsByMachine[id] ?? RingBuffer()
            if !Self.admits(instant, within: configuration.intensity, recent: &own) {
                return .exceedsPerMachine(configuration.intensity)
            }
            if let overall = configuration.overallIntensity {
                guard Self.admits(instant, within: overall, recent: &restarts) else { return .exceedsOverall(overall) }
                restarts.append(instant)
            }
            own.append(instant)
            restartsByMachine[id] = own
            return .restart
        }
    }

    /// Machine `id` left the supervisor: its own restarts no longer count.
    mutating func forget(_ id: ID) {
        restartsByMachine[id] = nil
    }

    /// How many machines have restarts counted (for tests).
    var machinesCounted: Int { restartsByMachine.count }

    /// Whether one more restart at `instant` stays within `intensity`, given the `recent`
    /// restarts it counts (those that fell out of its window are dropped).
    private static func admits(
        _ instant: ContinuousClock.Instant, within intensity: RestartIntensity,
        recent: inout RingBuffer<ContinuousClock.Instant>
    ) -> Bool {
        while let oldest = recent.first, instant - oldest >= intensity.period { _ = recent.popFirst() }
        return recent.count < intensity.maxRestarts
    }
}
