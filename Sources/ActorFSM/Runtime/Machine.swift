import Synchronization

/// A running instance of a ``Schema``: an actor that processes events one at a time, runs their
/// actions, and publishes a ``TransitionRecord`` for every event it accepts.
///
/// ```swift
/// let gate = Machine(schema: turnstile, id: "gate-7")
/// let record = try await gate.send(.coin)
/// print(record.target)                          // unlocked
/// try await gate.send(.pass, predicates: Enforcement.weak)
/// ```
///
/// **Run to completion.** Events are processed strictly one at a time, in the order the machine
/// accepts them, even while an action is suspended: an event that arrives meanwhile waits in
/// the inbox. When the machine is idle, `send` runs the transition at once on the actor, without
/// a queue or a task switch.
///
/// **Order of effects.** Exit actions of the old state, then the transition's actions, then the
/// state is committed, then entry actions of the new state. ``state`` reads the source state
/// until the commit and the target state after it; it never reads anything else.
///
/// See `Docs/Concurrency.md` for failures, back-pressure, cancellation and the lifecycle.
public actor Machine<State: Hashable & Sendable, Event: Sendable, ID: Hashable & Sendable> {
    /// The record type this machine publishes.
    public typealias Record = TransitionRecord<State, Event, ID>
    typealias Entry = InboxEntry<State, Event, ID>

    /// The machine's id.
    public nonisolated let id: ID
    /// The schema it runs.
    public nonisolated let schema: Schema<State, Event>
    /// How it runs.
    public nonisolated let configuration: MachineConfiguration<State>
    let hooks: MachineHooks<State, Event, ID>?

    private var stateID: Int32
    /// The current state when it is not one of the schema's (a starting or error state given by
    /// the user); `stateID` is then -1.
    private var offTableState: State?
    private var sequenceNumber: UInt64 = 0
    private var phase = Phase.running
    private var isProcessing = false
    private var inbox = RingBuffer<Entry>()
    private var roomWaiters = RingBuffer<RoomWaiter>()
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []
    private var subscribers = Subscribers<Record>()
    private var stateSubscribers = Subscribers<State>()
    private var inFlight: Task<ActionRun, Never>?
    private var nextTicket: UInt64 = 0
    private nonisolated let followUps = Mutex(FollowUps())
    /// Waiters for the inbox to hold a number of events (tests use this instead of sleeping).
    private var inboxWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    enum Phase { case running, finishing, stopped }

    struct RoomWaiter {
        let ticket: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    struct FollowUps: ~Copyable {
        var collecting = false
        var stopped = false
        var pending: [(Event, PredicateContext?)] = []
    }

    struct ActionRun: Sendable {
        var completed = 0
        var failure: (any Error)?
    }

    /// Creates a machine in the schema's initial state, or in `state`.
    ///
    /// - Parameters:
    ///   - schema: the table to run.
    ///   - id: the machine's id, carried by its records.
    ///   - state: where to start; the schema's initial state by default.
    ///   - configuration: inbox capacity, failure policy and standing predicates.
    public init(
        schema: Schema<State, Event>, id: ID, startingIn state: State? = nil,
        configuration: MachineConfiguration<State> = MachineConfiguration()
    ) {
        self.init(schema: schema, id: id, startingIn: state, configuration: configuration, hooks: nil)
    }

    init(
        schema: Schema<State, Event>, id: ID, startingIn state: State?,
        configuration: MachineConfiguration<State>, hooks: MachineHooks<State, Event, ID>?
    ) {
        self.id = id
        self.schema = schema
        self.configuration = configuration
        self.hooks = hooks
        let start = state ?? schema.initialState
        self.stateID = schema.storage.stateIDs[start] ?? -1
        self.offTableState = stateID < 0 ? start : nil
    }

    /// The current state.
    public var state: State { offTableState ?? schema.storage.states[Int(stateID)] }

    /// Whether the machine has stopped: it takes no more events.
    public var isStopped: Bool { phase == .stopped }

    /// How many accepted events wait in the inbox.
    public var queuedCount: Int { inbox.count }

    // MARK: - Sending

    /// Processes `event` and returns its record once its transition has completed.
    ///
    /// - Parameter predicates: the event's predicates; the standing predicates when `nil`.
    /// - Returns: the record, whose outcome is `.transitioned`, `.unhandled` or `.conditionFalse`.
    /// - Throws: ``MachineError`` of kind `.actionFailed` (the record is published with outcome
    ///   `.failed` and the failure policy applied), `.stopped`, `.cancelled` (the event was
    ///   withdrawn before processing) or `.reentrantSend`.
    @discardableResult
    public func send(_ event: Event, predicates: PredicateContext? = nil) async throws(MachineError) -> Record {
        if ActionScope.machines.contains(ObjectIdentifier(self)) { throw MachineError(.reentrantSend) }
        guard phase == .running else { throw MachineError(.stopped) }
        if Task.isCancelled { throw MachineError(.cancelled) }
        let acceptedAt = ContinuousClock.now
        if !isProcessing && inbox.isEmpty {
            isProcessing = true
            let record = await process(event, predicates, origin: .send, acceptedAt: acceptedAt)
            processingFinished()
            return try Self.result(of: record)
        }
        guard await waitForRoom() else { throw MachineError(phase == .running ? .cancelled : .stopped) }
        guard phase == .running else { throw MachineError(.stopped) }
        guard let record = await enqueueAndWait(event, predicates, acceptedAt: acceptedAt) else {
            throw MachineError(.cancelled)
        }
        return try Self.result(of: record)
    }

    /// ``send(_:predicates:)`` with the predicates written out: `send(.pass, predicates: Enforcement.weak)`.
    @discardableResult
    public func send<each P: MatchingPredicate>(
        _ event: Event, predicates: repeat each P
    ) async throws(MachineError) -> Record {
        try await send(event, predicates: PredicateContext(repeat each predicates))
    }

    /// Queues `event` without waiting for it to be processed.
    ///
    /// - Throws: ``MachineError`` of kind `.inboxFull` if the inbox is at capacity, or `.stopped`.
    public func post(_ event: Event, predicates: PredicateContext? = nil) throws(MachineError) {
        guard phase == .running else { throw MachineError(.stopped) }
        guard inbox.count < configuration.inboxCapacity, roomWaiters.isEmpty else { throw MachineError(.inboxFull) }
        inbox.append(Entry(event: event, predicates: predicates, origin: .post, acceptedAt: .now,
                           ticket: takeTicket(), reply: nil))
        inboxGrew()
        startProcessingIfIdle()
    }

    /// Feeds every element of `events` into the inbox in order, waiting for room when it is
    /// full, until the sequence ends. Returns without waiting for the last events to be processed.
    ///
    /// - Throws: ``MachineError`` `.stopped` if the machine stops first, or the sequence's error.
    public nonisolated func consume<S: AsyncSequence & Sendable>(_ events: S) async throws where S.Element == Event {
        for try await event in events { try await enqueue(event, predicates: nil) }
    }

    /// Feeds every event of `envelopes`, with its predicates, into the inbox in order.
    public nonisolated func consume<S: AsyncSequence & Sendable>(_ envelopes: S) async throws
    where S.Element == Envelope<Event> {
        for try await envelope in envelopes { try await enqueue(envelope.event, predicates: envelope.predicates) }
    }

    /// Queues `event` without waiting for it to be processed, but waiting for room if the inbox
    /// is full: `post` with back-pressure.
    ///
    /// - Throws: ``MachineError`` `.stopped`, or `.cancelled` if the task is cancelled while it waits.
    public func enqueue(_ event: Event, predicates: PredicateContext? = nil) async throws(MachineError) {
        guard phase == .running else { throw MachineError(.stopped) }
        guard await waitForRoom() else { throw MachineError(phase == .running ? .cancelled : .stopped) }
        guard phase == .running else { throw MachineError(.stopped) }
        inbox.append(Entry(event: event, predicates: predicates, origin: .post, acceptedAt: .now,
                           ticket: takeTicket(), reply: nil))
        inboxGrew()
        startProcessingIfIdle()
    }

    // MARK: - Observation

    /// Subscribes to the records of every event processed from now on, in order. The stream
    /// finishes when the machine stops.
    public func transitions(buffering: SubscriptionBuffering = .unbounded) -> RecordStream<Record> {
        let subscription = subscribers.subscribe(buffering)
        if phase == .stopped && !isProcessing { subscribers.finish() }
        return subscription
    }

    /// Subscribes to the current state followed by every change of state. The stream finishes
    /// when the machine stops.
    public func states(buffering: SubscriptionBuffering = .unbounded) -> RecordStream<State> {
        let subscription = stateSubscribers.subscribe(buffering, initial: state)
        if phase == .stopped && !isProcessing { stateSubscribers.finish() }
        return subscription
    }

    /// Returns once at least `count` events wait in the inbox, for tests that need senders to
    /// have piled up.
    package func untilQueued(_ count: Int) async {
        guard inbox.count < count else { return }
        await withCheckedContinuation { inboxWatchers.append((count, $0)) }
    }

    /// Returns once the machine has stopped taking events (it is finishing or stopped).
    package func untilRefusingEvents() async {
        guard phase == .running else { return }
        await withCheckedContinuation { refusalWatchers.append($0) }
    }

    private var refusalWatchers: [CheckedContinuation<Void, Never>] = []

    private func refusingEvents() {
        for watcher in refusalWatchers { watcher.resume() }
        refusalWatchers = []
    }

    /// Whether the machine takes new events: `false` once `finish()` or `stop()` was called.
    public var isAcceptingEvents: Bool { phase == .running }

    /// How many subscriptions to ``transitions(buffering:)`` are live.
    package var transitionSubscriberCount: Int { subscribers.count }

    private func inboxGrew() {
        guard !inboxWatchers.isEmpty else { return }
        let count = inbox.count
        inboxWatchers.removeAll { watcher in
            guard count >= watcher.count else { return false }
            watcher.continuation.resume()
            return true
        }
    }

    // MARK: - Lifecycle

    /// Stops taking events, processes those already queued, then stops. Returns once stopped.
    public func finish() async {
        guard phase != .stopped else { return }
        phase = .finishing
        refusingEvents()
        if !isProcessing && inbox.isEmpty {
            terminate(.finished)
            return
        }
        await withCheckedContinuation { finishWaiters.append($0) }
    }

    /// Stops now. The event in progress completes (its actions see task cancellation if they
    /// are asynchronous); every queued event gets the outcome `.stopped`; streams finish.
    public func stop() {
        terminate(.stopped)
    }

    // MARK: - Processing

    private func process(
        _ event: Event, _ predicates: PredicateContext?, origin: EventOrigin, acceptedAt: ContinuousClock.Instant
    ) async -> Record {
        sequenceNumber += 1
        let storage = schema.storage
        let source = state
        let context = predicates ?? configuration.standingPredicates
        guard stateID >= 0 else {
            return complete(event, context, origin, acceptedAt, source: source,
                            outcome: .unhandled(UnhandledReason(.unknownState)), run: ActionRun(), location: nil)
        }
        let transitionIndex: Int32
        switch storage.lookup(state: stateID, event: event, predicates: context) {
        case .unhandled(let reason):
            return complete(event, context, origin, acceptedAt, source: source, outcome: .unhandled(reason),
                            run: ActionRun(), location: nil)
        case .conditionFalse(let index):
            return complete(event, context, origin, acceptedAt, source: source, outcome: .conditionFalse,
                            run: ActionRun(), location: storage.transitions[Int(index)].location)
        case .fires(let index):
            transitionIndex = index
        }
        let transition = storage.transitions[Int(transitionIndex)]
        let changes = storage.policy == .executeAlways || transition.source != transition.target
        let exit = changes ? storage.exitActions[Int(transition.source)] : Actions()
        let entry = changes ? storage.entryActions[Int(transition.target)] : Actions()
        var run = ActionRun()
        if exit.count + transition.actions.count + entry.count == 0 {
            commit(transition.target)
        } else {
            let actionContext = TransitionContext(
                event: event, source: source, target: storage.states[Int(transition.target)], predicates: context,
                runtime: self)
            followUps.withLock { $0.collecting = true }
            if exit.isSynchronous && transition.actions.isSynchronous && entry.isSynchronous {
                run = runSynchronously(exit, transition.actions, entry, to: transition.target, in: actionContext)
            } else {
                let chain = ActionScope.machines + [ObjectIdentifier(self)]
                let actions = transition.actions
                let target = transition.target
                let task = Task {
                    await ActionScope.$machines.withValue(chain) {
                        await self.runAsynchronously(exit, actions, entry, to: target, in: actionContext)
                    }
                }
                inFlight = task
                run = await task.value
                inFlight = nil
            }
            acceptFollowUps()
        }
        let record = complete(event, context, origin, acceptedAt, source: source,
                              outcome: run.failure.map { .failed($0) } ?? .transitioned, run: run,
                              location: transition.location)
        if let failure = run.failure { applyFailurePolicy(after: failure) }
        return record
    }

    private func runSynchronously(
        _ exit: Actions<State, Event>, _ actions: Actions<State, Event>, _ entry: Actions<State, Event>,
        to target: Int32, in context: TransitionContext<State, Event>
    ) -> ActionRun {
        var run = ActionRun()
        do {
            try exit.runSynchronously(in: context, counting: &run.completed)
            try actions.runSynchronously(in: context, counting: &run.completed)
            commit(target)
            try entry.runSynchronously(in: context, counting: &run.completed)
        } catch {
            run.failure = error
        }
        return run
    }

    private func runAsynchronously(
        _ exit: Actions<State, Event>, _ actions: Actions<State, Event>, _ entry: Actions<State, Event>,
        to target: Int32, in context: TransitionContext<State, Event>
    ) async -> ActionRun {
        var run = ActionRun()
        do {
            try await exit.run(in: context, counting: &run.completed)
            try await actions.run(in: context, counting: &run.completed)
            commit(target)
            try await entry.run(in: context, counting: &run.completed)
        } catch {
            run.failure = error
        }
        return run
    }

    private func commit(_ target: Int32) {
        let changed = target != stateID
        stateID = target
        offTableState = nil
        if changed && !stateSubscribers.isEmpty { stateSubscribers.publish(state) }
    }

    private func complete(
        _ event: Event, _ predicates: PredicateContext, _ origin: EventOrigin, _ acceptedAt: ContinuousClock.Instant,
        source: State, outcome: Outcome, run: ActionRun, location: SourceLocation?
    ) -> Record {
        let record = Record(
            sequenceNumber: sequenceNumber, machineID: id, source: source, event: event, predicates: predicates,
            target: state, outcome: outcome, actionsRun: run.completed, transitionLocation: location, origin: origin,
            acceptedAt: acceptedAt, completedAt: .now)
        if !subscribers.isEmpty { subscribers.publish(record) }
        hooks?.onRecord(record)
        return record
    }

    private func applyFailurePolicy(after failure: any Error) {
        switch configuration.failurePolicy.code {
        case .resume:
            break
        case .stop:
            terminate(.failed(failure))
        case .enter(let errorState):
            if let id = schema.storage.stateIDs[errorState] {
                commit(id)
            } else {
                stateID = -1
                offTableState = errorState
                if !stateSubscribers.isEmpty { stateSubscribers.publish(errorState) }
            }
        }
    }

    /// Moves follow-ups posted by the actions that just ran into the inbox, behind what waits.
    private func acceptFollowUps() {
        let pending = followUps.withLock { state in
            state.collecting = false
            defer { state.pending = [] }
            return state.pending
        }
        for (event, predicates) in pending {
            let entry = Entry(event: event, predicates: predicates, origin: .followUp, acceptedAt: .now,
                              ticket: takeTicket(), reply: nil)
            if phase == .stopped { stopWithoutProcessing(entry) } else { inbox.append(entry) }
        }
        if !pending.isEmpty { inboxGrew() }
    }

    /// Called when the sender that processed an event inline is done with it.
    private func processingFinished() {
        if phase != .stopped && !inbox.isEmpty {
            Task.detached { await self.drain() }
            return
        }
        isProcessing = false
        settle()
    }

    private func startProcessingIfIdle() {
        guard !isProcessing else { return }
        isProcessing = true
        Task.detached { await self.drain() }
    }

    /// Processes queued events until the inbox is empty. Runs in a task of its own, started
    /// only while there is work, so an idle machine holds no task.
    private func drain() async {
        while phase != .stopped, let entry = inbox.popFirst() {
            admitRoomWaiter()
            let record = await process(entry.event, entry.predicates, origin: entry.origin, acceptedAt: entry.acceptedAt)
            entry.reply?.resume(returning: record)
        }
        isProcessing = false
        settle()
    }

    /// After processing: completes a `finish()` once drained, and ends streams once stopped.
    private func settle() {
        if phase == .finishing && inbox.isEmpty {
            terminate(.finished)
        } else if phase == .stopped {
            finishStreams()
        }
    }

    private func terminate(_ termination: MachineTermination) {
        guard phase != .stopped else { return }
        phase = .stopped
        refusingEvents()
        followUps.withLock { $0.stopped = true }
        inFlight?.cancel()
        for entry in inbox.removeAll() { stopWithoutProcessing(entry) }
        for waiter in roomWaiters.removeAll() { waiter.continuation.resume(returning: false) }
        hooks?.onTermination(termination)
        if !isProcessing { finishStreams() }
    }

    private func stopWithoutProcessing(_ entry: Entry) {
        sequenceNumber += 1
        let record = complete(entry.event, entry.predicates ?? configuration.standingPredicates, entry.origin,
                              entry.acceptedAt, source: state, outcome: .stopped, run: ActionRun(), location: nil)
        entry.reply?.resume(returning: record)
    }

    private func finishStreams() {
        subscribers.finish()
        stateSubscribers.finish()
        for waiter in finishWaiters { waiter.resume() }
        finishWaiters = []
    }

    // MARK: - Waiting

    private func enqueueAndWait(
        _ event: Event, _ predicates: PredicateContext?, acceptedAt: ContinuousClock.Instant
    ) async -> Record? {
        let ticket = takeTicket()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Record?, Never>) in
                inbox.append(Entry(event: event, predicates: predicates, origin: .send, acceptedAt: acceptedAt,
                                   ticket: ticket, reply: continuation))
                inboxGrew()
                startProcessingIfIdle()
            }
        } onCancel: {
            Task { await self.withdraw(ticket) }
        }
    }

    /// Takes a cancelled sender's event back out of the inbox, if it has not started.
    private func withdraw(_ ticket: UInt64) {
        inbox.removeFirst { $0.ticket == ticket }?.reply?.resume(returning: nil)
        admitRoomWaiter()
    }

    /// Waits until the inbox has room. Returns `false` if the machine stopped or the task was
    /// cancelled meanwhile.
    private func waitForRoom() async -> Bool {
        if inbox.count < configuration.inboxCapacity && roomWaiters.isEmpty { return true }
        let ticket = takeTicket()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                roomWaiters.append(RoomWaiter(ticket: ticket, continuation: continuation))
            }
        } onCancel: {
            Task { await self.withdrawRoomWaiter(ticket) }
        }
    }

    private func withdrawRoomWaiter(_ ticket: UInt64) {
        roomWaiters.removeFirst { $0.ticket == ticket }?.continuation.resume(returning: false)
    }

    private func admitRoomWaiter() {
        if inbox.count < configuration.inboxCapacity, let waiter = roomWaiters.popFirst() {
            waiter.continuation.resume(returning: true)
        }
    }

    private func takeTicket() -> UInt64 {
        nextTicket &+= 1
        return nextTicket
    }

    private static func result(of record: Record) throws(MachineError) -> Record {
        switch record.outcome {
        case .failed(let error): throw MachineError(.actionFailed, underlying: error, detail: " (\(record))")
        case .stopped: throw MachineError(.stopped, detail: " (\(record))")
        default: return record
        }
    }
}

extension Machine: ActionRuntime {
    nonisolated var erasedMachineID: any Hashable & Sendable { id }

    nonisolated func postFollowUp(_ event: Event, predicates: PredicateContext?) -> Bool {
        let late = followUps.withLock { state -> Bool? in
            if state.stopped { return nil }
            guard state.collecting else { return true }
            state.pending.append((event, predicates))
            return false
        }
        guard let late else { return false }
        if late { Task { try? await self.post(event, predicates: predicates) } }
        return true
    }
}
