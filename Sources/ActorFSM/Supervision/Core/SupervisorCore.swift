/// A supervisor as a pure, synchronous state machine: its machines by id, the generation the next
/// one takes, the restarts it counted, and where it is in its life. Each input is a `mutating
/// func` that decides and returns what the supervisor must do; the supervisor performs it (makes
/// a machine, starts a task, publishes a report) and decides nothing itself. The core never
/// awaits, takes a lock or reads a clock, so it is tested input by input without a supervisor.
///
/// ```
/// running ──end()──► ending ──every machine ended──► ended
///    │
///    └──a failure escalates──► escalating ──every machine ended──► ended
/// ```
///
/// `Child` is what it registers (a machine), `Waiter` what callers of `run()` wait on (a
/// continuation) and `Ending` the work that ends every machine (a task).
@usableFromInline package struct SupervisorCore<ID: Hashable & Sendable, Member: SupervisedMachine, Waiter: Sendable, Ending: Sendable>: Sendable {
    /// The live machines.
    @usableFromInline package private(set) var machines: [ID: Member] = [:]
    /// The generation of the machine made last; each machine made takes the next.
    @usableFromInline private(set) var generation: UInt64 = 0
    /// The restarts counted against the intensities.
    private(set) var restartBook = RestartBook<ID>()
    /// Where the supervisor is in its life.
    private(set) var phase = Phase.running
    /// The failure that escalated, if one did.
    @usableFromInline package private(set) var escalation: Escalated?
    /// Callers of `run()`, resumed once every machine has ended.
    private var runners: [Waiter] = []

    /// A failure that escalated: the machine and its error, and the limit it exceeded (`nil` if
    /// the strategy escalates every failure).
    @usableFromInline package struct Escalated: Sendable {
        package let id: ID
        package let error: any Error
        package let limit: Limit?
    }

    /// A restart limit a failure exceeded.
    package enum Limit: Sendable, Equatable {
        case perMachine(RestartIntensity)
        case overall(RestartIntensity)
    }

    /// Where a supervisor is in its life.
    enum Phase: Sendable {
        /// It makes machines and restarts them.
        case running
        /// `shutdown()` or `stop()` began to end every machine, with `Ending`.
        case ending(Ending)
        /// A failure escalated; `Ending` stops every machine, once the supervisor started it.
        case escalating(Ending?)
        /// Every machine has ended.
        case ended
    }

    package init() {}

    /// Whether the supervisor refuses new machines: it is ending, escalated, or has ended.
    package var isShutDown: Bool {
        @inline(__always) get {
            if case .running = phase { false } else { true }
        }
    }

    /// Whether every machine has ended.
    var hasEnded: Bool {
        if case .ended = phase { true } else { false }
    }

    // MARK: - Machines

    /// Whether a machine may be made under `id`.
    package enum Admission: Equatable {
        /// Make it: call ``register(_:as:)`` with it, whose generation is ``nextGeneration()``.
        case make
        /// The id is taken.
        case duplicate
        /// The supervisor refuses new machines.
        case shutDown
    }

    /// A new machine is asked for under `id`.
    @inline(__always)
    package func admit(_ id: ID) -> Admission {
        if isShutDown { return .shutDown }
        return machines[id] == nil ? .make : .duplicate
    }

    /// The generation of the machine about to be made; it tells a report from a machine already
    /// replaced.
    @inlinable
    package mutating func nextGeneration() -> UInt64 {
        generation += 1
        return generation
    }

    /// `machine` was made under `id` and now runs there.
    @inlinable
    package mutating func register(_ machine: Member, as id: ID) {
        machines[id] = machine
    }

    /// `machine` leaves: it was passivated, restored elsewhere, or ended by itself. Nothing
    /// happens if another machine already runs under `id`.
    ///
    /// - Returns: the machine under `id` afterwards, a successor, if there is one.
    @discardableResult
    package mutating func remove(_ machine: Member, from id: ID) -> Member? {
        if machines[id] === machine { machines[id] = nil }
        return machines[id]
    }

    /// The machine under `id` leaves, whichever it is (its state in memory is stale).
    ///
    /// - Returns: the machine that left, if there was one.
    package mutating func removeMachine(at id: ID) -> Member? {
        machines.removeValue(forKey: id)
    }

    // MARK: - A machine ended

    /// What becomes of a machine that ended.
    enum EndDecision: Sendable {
        /// Nothing: the report is from a machine already replaced. (A supervisor ending every
        /// machine does not ask: they leave together at the end.)
        case none
        /// It left: report how it ended.
        case removed
        /// It left after a passivation: report that.
        case passivated
        /// Make it again from `predecessor` (its data, its journal): the restart was counted.
        case restart(predecessor: Member)
        /// Stop every machine in `machines` with `Ending` (see ``escalating(with:)``), then
        /// report `escalation`: the supervisor now refuses new machines.
        case escalate(Escalated, machines: [Member])
    }

    /// The machine of `generation` under `id` ended, for `termination`, at `instant`.
    /// `isPassivating` says whether it is being passivated.
    mutating func machineEnded<State>(
        _ id: ID, generation: UInt64, _ termination: MachineTermination, isPassivating: (Member) -> Bool,
        at instant: ContinuousClock.Instant, under configuration: SupervisorConfiguration<State>
    ) -> EndDecision {
        guard let failed = machines[id], failed.generation == generation else { return .none }
        // A machine whose store refused a write is ahead of its store: it comes back from the
        // store once the store works, not from memory.
        guard case .failed(let error) = termination, !isShutDown, !failed.hasStaleState else {
            machines[id] = nil
            restartBook.forget(id)
            if case .shutDown = termination, isPassivating(failed) { return .passivated }
            return .removed
        }
        let limit: Limit?
        switch restartBook.failed(id, at: instant, under: configuration) {
        case .leaveStopped:
            machines[id] = nil
            return .removed
        case .restart:
            return .restart(predecessor: failed)
        case .escalate: limit = nil
        case .exceedsPerMachine(let intensity): limit = .perMachine(intensity)
        case .exceedsOverall(let intensity): limit = .overall(intensity)
        }
        let escalated = Escalated(id: id, error: error, limit: limit)
        escalation = escalated
        let stopping = Array(machines.values)
        machines = [:]
        phase = .escalating(nil)
        return .escalate(escalated, machines: stopping)
    }

    /// The supervisor performs the escalation it was told with `ending`.
    mutating func escalating(with ending: Ending) {
        phase = .escalating(ending)
    }

    // MARK: - Ending

    /// What `shutdown()` or `stop()` requires.
    enum EndStart: Sendable {
        /// Start ending every machine: call ``ending(with:)`` with the work, then wait for it.
        case start(draining: Bool)
        /// Wait for the escalation's work, which ends every machine.
        case awaitEscalation(Ending)
        /// Wait for the end in progress; if `hurrying` is not empty, stop those machines now
        /// first (a `stop()` during a graceful shutdown).
        case join(Ending, hurrying: [Member])
        /// Nothing: every machine has ended.
        case ended
    }

    /// `shutdown()` (`draining`) or `stop()` was called.
    mutating func end(draining: Bool) -> EndStart {
        switch phase {
        case .running:
            return .start(draining: draining)
        case .escalating(let ending?):
            return .awaitEscalation(ending)
        case .escalating(nil):
            preconditionFailure("the supervisor starts the escalation it was told of before it is asked anything else")
        case .ending(let ending):
            return .join(ending, hurrying: draining ? [] : Array(machines.values))
        case .ended:
            return .ended
        }
    }

    /// The work that ends every machine started.
    mutating func ending(with ending: Ending) {
        phase = .ending(ending)
    }

    /// Every machine ended in the end in progress; they all leave now.
    mutating func allEnded() -> [Waiter] {
        machines = [:]
        phase = .ended
        defer { runners = [] }
        return runners
    }

    /// A caller of `run()` waits for the end.
    ///
    /// - Returns: `false` if everything has ended, so it must not wait; `true` if `waiter` is
    ///   kept, to be returned by ``allEnded()``.
    mutating func awaitEnd(_ waiter: Waiter) -> Bool {
        guard !hasEnded else { return false }
        runners.append(waiter)
        return true
    }
}
