import Synchronization

/// Spawns and supervises many machines of one schema, by id.
///
/// ```swift
/// let orders = Supervisor<Orders>(schema: orderSchema)
/// try orders.spawn(id: 42)
/// try await orders.send(to: 42, .pay)
/// for await report in orders.reports() { print(report) }
/// await orders.shutdown()
/// ```
///
/// An idle machine costs its actor and one table entry: no task, no stream, no callback of its
/// own. When a machine stops after a failure, the supervisor applies its ``RestartStrategy``
/// within its ``RestartIntensity``, as OTP supervisors do, and reports each decision on
/// ``reports(buffering:)``.
public final class Supervisor<Definition: MachineDefinition>: Sendable {
    /// The definition's state type.
    public typealias State = Definition.State
    /// The definition's event type.
    public typealias Event = Definition.Event
    /// The definition's machine id type.
    public typealias ID = Definition.ID
    /// The machines' type, `Machine<Definition>`.
    @available(*, deprecated, message: "write Machine<Definition>: a child is a child machine (StateTask.child)")
    public typealias Child = Machine<Definition>
    /// What the supervisor publishes.
    public typealias Report = SupervisorReport<Definition>

    /// The schema every machine runs.
    public let schema: Schema<Definition>
    /// How machines are run and restarted.
    public let configuration: SupervisorConfiguration<State>

    /// The pure part of the supervisor, as its registry holds it.
    @usableFromInline package typealias Core = SupervisorCore<ID, Machine<Definition>, CheckedContinuation<Void, Never>, Task<Void, Never>>

    /// What the supervisor keeps under its lock: its core, and the link its machines share.
    @usableFromInline package struct Registry: Sendable {
        /// The machines, restart decisions and shutdown phase.
        @usableFromInline package var core = Core()
        /// Shared by every machine; made on the first spawn, since `init` cannot hand out `self`.
        var link: ParentLink<Definition>?
        /// The parents waiting for machines started as their children, by the children's ids.
        @usableFromInline var watches: [ID: ChildWatch<Definition>] = [:]

        /// The live machines.
        @usableFromInline package var machines: [ID: Machine<Definition>] { core.machines }
        /// Whether the supervisor refuses new machines.
        @usableFromInline package var isShutDown: Bool { core.isShutDown }
    }

    private struct Listeners {
        var subscribers = Subscribers<Report>()
        var isFinished = false
    }

    @usableFromInline package let registry = Locked(Registry())
    private let listeners = Locked(Listeners())
    /// Whether anyone listens, and whether `shutdown()` or `stop()` is ending every machine (they then
    /// leave the registry together at the end), readable without a lock: so that busy machines
    /// on different cores do not contend when nobody subscribes, and the million machines a
    /// shutdown finishes do not contend for the registry's lock. `hasLetGo` is set under the
    /// registry's lock, so a reading under that lock is current.
    @usableFromInline let flags = ParentFlags()
    @usableFromInline package let settings: MachineSettings<State>
    /// What keeps a durable supervisor's machines; `nil` in memory only.
    @usableFromInline package let journaling: (any SupervisorJournaling<Definition>)?
    let now: @Sendable () -> ContinuousClock.Instant

    /// Creates a supervisor for machines of `schema`.
    @inlinable
    public convenience init(
        schema: Schema<Definition>, configuration: SupervisorConfiguration<State> = SupervisorConfiguration()
    ) {
        DrainStarters.register(Definition.self)
        self.init(schema: schema, configuration: configuration, now: { .now })
    }

    /// Creates a supervisor whose restart intensity reads time from `now` (for tests).
    @usableFromInline
    package convenience init(
        schema: Schema<Definition>, configuration: SupervisorConfiguration<State>,
        now: @escaping @Sendable () -> ContinuousClock.Instant
    ) {
        self.init(schema: schema, configuration: configuration, now: now, journaling: nil)
    }

    /// Creates a supervisor whose machines are durable through `journaling`, if given.
    package init(
        schema: Schema<Definition>, configuration: SupervisorConfiguration<State>,
        now: @escaping @Sendable () -> ContinuousClock.Instant, journaling: (any SupervisorJournaling<Definition>)?
    ) {
        self.schema = schema
        self.configuration = configuration
        self.settings = MachineSettings(configuration.supervisedMachine)
        self.now = now
        self.journaling = journaling
    }

    /// Creates a machine under `id` that owns `data`, in the initial state or in `state`. A
    /// restart makes it again with the same data.
    ///
    /// - Throws: ``MachineError`` `.duplicateMachine` if `id` is taken, `.stopped` after shutdown.
    @discardableResult
    public func spawn(id: ID, data: Definition.Data, startingIn state: State? = nil) throws(MachineError<Definition>) -> Machine<Definition> {
        // An optional, not a `Result`: the spawn path is not specialized for the machine's
        // types, and a generic error in the result would cost a metadata lookup per machine.
        let created = registry.withLock { (registry: inout Registry) -> Machine<Definition>? in
            guard registry.core.admit(id) == .make else { return nil }
            return makeMachine(id: id, data: data, startingIn: state, in: &registry)
        }
        if let created { return created }
        if isShutDown { throw shutDownError(id) }
        throw MachineError(.duplicateMachine, machineID: id)
    }

    /// Creates a machine under `id`, in the initial state or in `state`, for a definition
    /// without data.
    ///
    /// - Throws: ``MachineError`` `.duplicateMachine` if `id` is taken, `.stopped` after shutdown.
    @discardableResult
    public func spawn(id: ID, startingIn state: State? = nil) throws(MachineError<Definition>) -> Machine<Definition>
    where Definition.Data == Void {
        try spawn(id: id, data: (), startingIn: state)
    }

    /// The machine under `id`, if there is one.
    public func machine(id: ID) -> Machine<Definition>? {
        registry.withLock { $0.machines[id] }
    }

    /// The number of live machines.
    public var count: Int { registry.withLock { $0.machines.count } }

    /// Whether the supervisor has shut down, by `shutdown()`, `stop()` or escalation.
    public var isShutDown: Bool { registry.withLock { $0.isShutDown } }

    /// Why the supervisor escalated, if it did: the machine whose failure exceeded the restart
    /// intensity (or the strategy), and the error.
    public var escalation: Escalation? { registry.withLock { $0.core.escalation }.map(Escalation.init) }

    /// Stops the machine under `id` now. It leaves the supervisor (and `.terminated` is
    /// reported) once its event in progress, if any, has completed, which may be after this
    /// call returns.
    public func stop(id: ID) async {
        guard let machine = machine(id: id) else { return }
        await machine.stop()
    }

    /// Subscribes to every machine's records and to supervision decisions, from now on. The
    /// stream finishes at shutdown or escalation.
    public func reports(buffering: SubscriptionBuffering = .unbounded) -> Subscription<Report> {
        let (stream, ending) = listeners.withLock { listeners in
            let stream = listeners.subscribers.subscribe(buffering) { [weak self] id in self?.removeListener(id) }
            let ending = listeners.isFinished ? listeners.subscribers.detachAll() : nil
            flags.isListening.store(!listeners.subscribers.isEmpty, ordering: .releasing)
            return (stream, ending)
        }
        ending?.finish()
        return stream
    }

    /// Runs until the supervisor shuts down, in the shape of a swift-service-lifecycle
    /// `Service`: returns once ``shutdown()`` or ``stop()`` has ended every machine, and treats
    /// cancellation of the calling task as a hard stop (``stop()``), after which it throws
    /// `CancellationError`.
    ///
    /// Machines run whether or not anyone calls `run()`; call it to tie the supervisor's life to
    /// a task, for example a service group's (see <doc:SupervisingMachines>). After a cancellation it
    /// returns once every machine's event in progress has completed, which takes as long as
    /// their actions take to honour the cancellation.
    ///
    /// - Throws: ``Escalation`` if a failure escalated; `CancellationError` if the task was
    ///   cancelled.
    public func run() async throws {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waits = registry.withLock { $0.core.awaitEnd(continuation) }
                if !waits { continuation.resume() }
            }
        } onCancel: {
            Task { await self.stop() }
        }
        if let escalation { throw escalation }
        try Task.checkCancellation()
    }

    /// Refuses new machines, lets every machine process what it has queued, then stops them all
    /// and finishes the report stream: the graceful end. After an escalation, waits for its
    /// machines to stop.
    ///
    /// Every machine stops taking events first; then the supervisor waits for those that still
    /// have events queued. Its time and memory grow linearly with the number of machines. A
    /// second call waits for the first to complete.
    public func shutdown() async {
        await end(draining: true)
    }

    /// Refuses new machines and stops every machine now: the hard end. Each machine's event in
    /// progress completes (its asynchronous actions see cancellation), its queued events get
    /// the outcome `.stopped`, and the report stream finishes. It hurries a graceful shutdown
    /// in progress, and returns once every machine has ended.
    public func stop() async {
        await end(draining: false)
    }

    /// Starts the end, or joins the one in progress (stopping its machines now unless
    /// `draining`), and waits for it.
    private func end(draining: Bool) async {
        let start = registry.withLock { registry -> Core.EndStart in
            let start = registry.core.end(draining: draining)
            guard case .start(let draining) = start else { return start }
            flags.hasLetGo.store(true, ordering: .releasing)
            let ending = Task { await self.endAll(draining: draining) }
            registry.core.ending(with: ending)
            return .join(ending, hurrying: [])
        }
        switch start {
        case .start:
            preconditionFailure("a started end is joined")
        case .awaitEscalation(let ending):
            await ending.value
        case .join(let ending, let hurrying):
            if !hurrying.isEmpty { await Self.stopNow(hurrying) }
            await ending.value
        case .ended:
            break
        }
    }

    /// Stops every machine in `machines`, then waits for each to end.
    static func stopNow(_ machines: [Machine<Definition>]) async {
        _ = await MachineSweep.apply(.stop, to: machines)
        _ = await MachineSweep.apply(.awaitEnd, to: machines)
    }

    /// Ends every machine. Draining, all stop taking events first, then the busy ones are
    /// awaited; otherwise all stop now. They stay in the registry meanwhile (`machine(id:)` and
    /// `stop(id:)` still reach them) and leave it together at the end.
    private func endAll(draining: Bool) async {
        let machines = registry.withLock { Array($0.machines.values) }
        if draining {
            let busy = await MachineSweep.apply(.beginShutdown, to: machines)
            _ = await MachineSweep.apply(.awaitEnd, to: busy)
        } else {
            await Self.stopNow(machines)
        }
        completeEnd()
    }

    /// How many subscriptions to ``reports(buffering:)`` are live (for tests).
    package var listenerCount: Int { listeners.withLock { $0.subscribers.count } }

    func publish(_ event: Report) {
        guard flags.isListening.load(ordering: .acquiring) else { return }
        listeners.withLock { $0.subscribers.publish(event) }
    }

    private func removeListener(_ id: Int) {
        listeners.withLock { listeners in
            listeners.subscribers.remove(id: id)
            flags.isListening.store(!listeners.subscribers.isEmpty, ordering: .releasing)
        }
    }

    /// Finishes the report stream, then resumes the callers of `run()`: the end is complete.
    func completeEnd() {
        endChildren()
        let ending = listeners.withLock { listeners in
            listeners.isFinished = true
            flags.isListening.store(false, ordering: .releasing)
            return listeners.subscribers.detachAll()
        }
        // Outside the lock: finishing resumes waiting consumers, which need not wait for it.
        ending.finish()
        let runners = registry.withLock { $0.core.allEnded() }
        for runner in runners { runner.resume() }
    }
}
