import Synchronization

/// Spawns and supervises many machines of one schema, by id.
///
/// ```swift
/// let orders = Supervisor<OrderState, OrderEvent, Int>(schema: orderSchema)
/// try orders.spawn(id: 42)
/// try await orders.send(to: 42, .pay)
/// for await event in orders.events() { … }
/// await orders.shutdown()
/// ```
///
/// An idle machine costs its actor and one table entry: no task, no stream. When a machine stops
/// after a failure, the supervisor applies its ``RestartStrategy`` within its
/// ``RestartIntensity``, as OTP supervisors do, and reports each decision on ``events(buffering:)``.
public final class Supervisor<State: Hashable & Sendable, Event: Sendable, ID: Hashable & Sendable>: Sendable {
    /// The machines' type.
    public typealias Child = Machine<State, Event, ID>

    /// The schema every machine runs.
    public let schema: Schema<State, Event>
    /// How machines are run and restarted.
    public let configuration: SupervisorConfiguration<State>

    private struct Registry: ~Copyable {
        var machines: [ID: Entry] = [:]
        var generation: UInt64 = 0
        var restarts = RingBuffer<ContinuousClock.Instant>()
        var isShutDown = false
    }

    private struct Entry {
        let machine: Child
        let generation: UInt64
    }

    private let registry = Mutex(Registry())
    private let listeners = Mutex(Subscribers<SupervisorEvent<State, Event, ID>>())
    private let hasListeners = Atomic<Bool>(false)

    /// Creates a supervisor for machines of `schema`.
    public init(schema: Schema<State, Event>, configuration: SupervisorConfiguration<State> = SupervisorConfiguration()) {
        self.schema = schema
        self.configuration = configuration
    }

    /// Creates a machine under `id`, in the initial state or in `state`.
    ///
    /// - Throws: ``MachineError`` `.duplicateMachine` if `id` is taken, `.stopped` after shutdown.
    @discardableResult
    public func spawn(id: ID, startingIn state: State? = nil) throws(MachineError) -> Child {
        try registry.withLock { (registry: inout Registry) throws(MachineError) -> Child in
            guard !registry.isShutDown else { throw MachineError(.stopped, detail: " (the supervisor is shut down)") }
            guard registry.machines[id] == nil else { throw MachineError(.duplicateMachine, detail: " (\(id))") }
            return makeMachine(id: id, startingIn: state, in: &registry)
        }
    }

    /// The machine under `id`, if there is one.
    public func machine(id: ID) -> Child? {
        registry.withLock { $0.machines[id]?.machine }
    }

    /// The number of live machines.
    public var count: Int { registry.withLock { $0.machines.count } }

    /// Sends `event` to the machine under `id`; see ``Machine/send(_:predicates:)``.
    @discardableResult
    public func send(
        to id: ID, _ event: Event, predicates: PredicateContext? = nil
    ) async throws(MachineError) -> TransitionRecord<State, Event, ID> {
        guard let machine = machine(id: id) else { throw MachineError(.unknownMachine, detail: " (\(id))") }
        return try await machine.send(event, predicates: predicates)
    }

    /// Posts `event` to the machine under `id`; see ``Machine/post(_:predicates:)``.
    public func post(to id: ID, _ event: Event, predicates: PredicateContext? = nil) async throws(MachineError) {
        guard let machine = machine(id: id) else { throw MachineError(.unknownMachine, detail: " (\(id))") }
        try await machine.post(event, predicates: predicates)
    }

    /// Stops the machine under `id` now and removes it.
    public func stop(id: ID) async {
        guard let machine = machine(id: id) else { return }
        await machine.stop()
    }

    /// Subscribes to every machine's records and to supervision decisions, from now on. The
    /// stream finishes at shutdown or escalation.
    public func events(buffering: SubscriptionBuffering = .unbounded) -> RecordStream<SupervisorEvent<State, Event, ID>> {
        let isShutDown = registry.withLock { $0.isShutDown }
        return listeners.withLock { listeners in
            let stream = listeners.subscribe(buffering)
            if isShutDown { listeners.finish() }
            hasListeners.store(!listeners.isEmpty, ordering: .releasing)
            return stream
        }
    }

    /// Refuses new machines, lets every machine process what it has queued, then stops them all
    /// and finishes the event stream.
    public func shutdown() async {
        let machines = registry.withLock { registry in
            registry.isShutDown = true
            return registry.machines.values.map(\.machine)
        }
        await withTaskGroup(of: Void.self) { group in
            for machine in machines { group.addTask { await machine.finish() } }
        }
        finishListeners()
    }

    // MARK: - Supervision

    private func makeMachine(id: ID, startingIn state: State?, in registry: inout Registry) -> Child {
        registry.generation += 1
        let generation = registry.generation
        let hooks = MachineHooks<State, Event, ID>(
            onRecord: { [weak self] record in self?.publish(.transition(record)) },
            onTermination: { [weak self] termination in
                self?.machineStopped(id: id, generation: generation, termination)
            })
        let machine = Child(schema: schema, id: id, startingIn: state, configuration: configuration.machine, hooks: hooks)
        registry.machines[id] = Entry(machine: machine, generation: generation)
        return machine
    }

    private enum Decision {
        case none
        case removed(MachineTermination)
        case restarted(any Error)
        case escalate(any Error, [Child])
    }

    private func machineStopped(id: ID, generation: UInt64, _ termination: MachineTermination) {
        let decision = registry.withLock { (registry: inout Registry) -> Decision in
            guard registry.machines[id]?.generation == generation else { return .none }
            guard case .failed(let error) = termination, !registry.isShutDown else {
                registry.machines[id] = nil
                return .removed(termination)
            }
            switch configuration.restartStrategy.code {
            case .leaveStopped:
                registry.machines[id] = nil
                return .removed(termination)
            case .escalate:
                return escalate(&registry, error: error)
            case .restart:
                let now = ContinuousClock.now
                while let first = registry.restarts.popFirst() {
                    if now - first < configuration.intensity.period {
                        registry.restarts = Self.prepending(first, to: registry.restarts)
                        break
                    }
                }
                guard registry.restarts.count < configuration.intensity.maxRestarts else {
                    return escalate(&registry, error: error)
                }
                registry.restarts.append(now)
                _ = makeMachine(id: id, startingIn: nil, in: &registry)
                return .restarted(error)
            }
        }
        switch decision {
        case .none:
            break
        case .removed(let termination):
            publish(.terminated(id: id, termination))
        case .restarted(let error):
            publish(.restarted(id: id, after: error))
        case .escalate(let error, let machines):
            publish(.escalated(id: id, error: error))
            finishListeners()
            Task { for machine in machines { await machine.stop() } }
        }
    }

    private func escalate(_ registry: inout Registry, error: any Error) -> Decision {
        registry.isShutDown = true
        let machines = registry.machines.values.map(\.machine)
        registry.machines = [:]
        return .escalate(error, machines)
    }

    private static func prepending(
        _ instant: ContinuousClock.Instant, to rest: consuming RingBuffer<ContinuousClock.Instant>
    ) -> RingBuffer<ContinuousClock.Instant> {
        var result = RingBuffer<ContinuousClock.Instant>()
        result.append(instant)
        while let next = rest.popFirst() { result.append(next) }
        return result
    }

    private func publish(_ event: SupervisorEvent<State, Event, ID>) {
        guard hasListeners.load(ordering: .acquiring) else { return }
        listeners.withLock { $0.publish(event) }
    }

    private func finishListeners() {
        listeners.withLock { listeners in
            listeners.finish()
            hasListeners.store(false, ordering: .releasing)
        }
    }
}
