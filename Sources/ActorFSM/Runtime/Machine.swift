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
public final actor Machine<State: Hashable & Sendable, Event: Sendable, ID: Hashable & Sendable> {
    /// The record type this machine publishes.
    public typealias Record = TransitionRecord<State, Event, ID>
    @usableFromInline typealias Entry = InboxEntry<State, Event, ID>

    /// The machine's id.
    public nonisolated let id: ID
    /// The schema it runs.
    public nonisolated let schema: Schema<State, Event>
    @usableFromInline nonisolated let settings: MachineSettings<State>
    @usableFromInline nonisolated let link: SupervisorLink<State, Event, ID>?
    @usableFromInline nonisolated let generation: UInt64

    @usableFromInline var stateID: Int32
    @usableFromInline var phase = Phase.running
    @usableFromInline var isProcessing = false
    @usableFromInline var isFinalized = false
    /// The current state when it is not one of the schema's (a starting or error state given by
    /// the user); `stateID` is then -1.
    @usableFromInline var offTableState: State?
    @usableFromInline var sequenceNumber: UInt64 = 0
    @usableFromInline var nextTicket: UInt64 = 0
    /// Inbox slots promised to senders that waited for room and have not yet enqueued.
    @usableFromInline var reservedSlots = 0
    @usableFromInline var inbox = RingBuffer<Entry>()
    @usableFromInline var roomWaiters = RingBuffer<RoomWaiter>()
    @usableFromInline var subscribers = Subscribers<Record>()
    @usableFromInline var stateSubscribers = Subscribers<State>()
    @usableFromInline var watchers = Watchers()
    @usableFromInline var inFlight: Task<ActionRun, Never>?
    @usableFromInline var termination: MachineTermination?
    /// The current state's timeouts and tasks, for schemas that have any.
    @usableFromInline var timers: StateTimers?
    /// Timeouts and task results dropped as stale, for tests.
    @usableFromInline var droppedTimerEvents = 0
    @usableFromInline nonisolated let followUps = Mutex(FollowUps())

    @usableFromInline
    enum Phase { case running, finishing, stopped }

    @usableFromInline
    struct RoomWaiter {
        @usableFromInline let ticket: UInt64
        @usableFromInline let continuation: CheckedContinuation<Bool, Never>
    }

    /// Continuations waiting for the lifecycle, and for tests.
    @usableFromInline
    struct Watchers {
        @usableFromInline var finish: [CheckedContinuation<Void, Never>] = []
        @usableFromInline var refusal: [CheckedContinuation<Void, Never>] = []
        @usableFromInline var inbox: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        @usableFromInline var roomWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        @usableFromInline var dropped: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        @usableFromInline init() {}
    }

    /// Follow-up events posted by actions, which may run off the actor.
    @usableFromInline
    struct FollowUps: ~Copyable {
        /// Whether a transition's actions are running: follow-ups wait for it to complete.
        @usableFromInline var collecting = false
        @usableFromInline var stopped = false
        @usableFromInline var flushScheduled = false
        /// How many more follow-ups the inbox has room for during this transition.
        @usableFromInline var room = 0
        @usableFromInline var pending: [(Event, PredicateContext?)] = []
        /// Events posted with a delay that are still waiting, to cancel when the machine stops.
        @usableFromInline var scheduled: [ObjectIdentifier: ScheduledEvent] = [:]
        /// Set once the machine finishes or stops: no more delayed posts are taken.
        @usableFromInline var schedulingClosed = false

        @usableFromInline init() {}
    }

    @usableFromInline
    enum FollowUpAdmission { case refused, queued, scheduleFlush }

    @usableFromInline
    struct ActionRun: Sendable {
        @usableFromInline var completed = 0
        @usableFromInline var failure: (any Error)?

        @usableFromInline init() {}
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
        self.init(schema: schema, id: id, startingIn: state, settings: MachineSettings(configuration), link: nil,
                  generation: 0)
    }

    init(
        schema: Schema<State, Event>, id: ID, startingIn state: State?, settings: MachineSettings<State>,
        link: SupervisorLink<State, Event, ID>?, generation: UInt64
    ) {
        self.id = id
        self.schema = schema
        self.settings = settings
        self.link = link
        self.generation = generation
        let start = state ?? schema.initialState
        let stateID = schema.storage.stateIDs[start] ?? -1
        self.stateID = stateID
        self.offTableState = stateID < 0 ? start : nil
        let storage = schema.storage
        if storage.hasTimedStates && stateID >= 0 {
            // The deadlines are fixed now; the tasks that wait for them start on the actor.
            let clock = settings.configuration.clock
            let alarms = storage.stateTimeouts[Int(stateID)].map { (Alarm(after: $0.duration, on: clock), $0.duration) }
            timers = StateTimers()
            if !alarms.isEmpty || !storage.stateTasks[Int(stateID)].isEmpty {
                Task { await self.armInitialState(alarms) }
            }
        }
    }

    /// How it runs.
    public nonisolated var configuration: MachineConfiguration<State> { settings.configuration }

    /// The current state.
    @inlinable
    public var state: State { offTableState ?? schema.storage.states[Int(stateID)] }

    /// Whether the machine has stopped: it takes no more events.
    public var isStopped: Bool { phase == .stopped }

    /// Whether the machine takes new events: `false` once `finish()` or `stop()` was called.
    public var isAcceptingEvents: Bool { phase == .running }

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
    @inlinable
    public func send(_ event: Event, predicates: PredicateContext? = nil) async throws(MachineError) -> Record {
        let scope = ActionScope.machines
        if scope.contains(ObjectIdentifier(self)) { throw MachineError(.reentrantSend) }
        guard phase == .running else { throw MachineError(.stopped) }
        if Task.isCancelled { throw MachineError(.cancelled) }
        let acceptedAt = ContinuousClock.now
        if !isProcessing && inbox.isEmpty && reservedSlots == 0 {
            isProcessing = true
            let record = await process(event, predicates, origin: .send, acceptedAt: acceptedAt, scope: scope)
            processingFinished()
            return try Self.result(of: record)
        }
        guard await waitForRoom() else { throw MachineError(phase == .running ? .cancelled : .stopped) }
        guard let record = await enqueueAndWait(event, predicates, acceptedAt: acceptedAt, scope: scope) else {
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
        guard hasRoom && roomWaiters.isEmpty else { throw MachineError(.inboxFull) }
        append(event, predicates, origin: .post, scope: ActionScope.machines)
    }

    /// Queues `event` without waiting for it to be processed, but waiting for room if the inbox
    /// is full: `post` with back-pressure. From one of the machine's own actions it never waits,
    /// since the room it would wait for cannot come: it throws `.inboxFull` instead.
    ///
    /// - Throws: ``MachineError`` `.stopped`, `.inboxFull` (see above), or `.cancelled` if the task
    ///   is cancelled while it waits.
    public func enqueue(_ event: Event, predicates: PredicateContext? = nil) async throws(MachineError) {
        let scope = ActionScope.machines
        guard phase == .running else { throw MachineError(.stopped) }
        if scope.contains(ObjectIdentifier(self)) {
            guard hasRoom && roomWaiters.isEmpty else { throw MachineError(.inboxFull) }
        } else {
            guard await waitForRoom() else { throw MachineError(phase == .running ? .cancelled : .stopped) }
        }
        append(event, predicates, origin: .post, scope: scope)
    }

    /// Feeds every element of `events` into the inbox in order, waiting for room when it is
    /// full, until the sequence ends. Returns without waiting for the last events to be processed.
    ///
    /// - Throws: ``MachineError`` `.stopped` if the machine stops first, or the sequence's error.
    public nonisolated func consume<S: AsyncSequence & Sendable>(_ events: S) async throws where S.Element == Event {
        for try await event in events { try await enqueue(event) }
    }

    /// Feeds every event of `envelopes`, with its predicates, into the inbox in order.
    public nonisolated func consume<S: AsyncSequence & Sendable>(_ envelopes: S) async throws
    where S.Element == Envelope<Event> {
        for try await envelope in envelopes { try await enqueue(envelope.event, predicates: envelope.predicates) }
    }

    // MARK: - Observation

    /// Subscribes to the records of every event processed from now on, in order. The stream
    /// finishes when the machine stops.
    public func transitions(buffering: SubscriptionBuffering = .unbounded) -> RecordStream<Record> {
        let subscription = subscribers.subscribe(buffering)
        if isFinalized { subscribers.finish() }
        return subscription
    }

    /// Subscribes to the current state followed by every change of state. The stream finishes
    /// when the machine stops.
    public func states(buffering: SubscriptionBuffering = .unbounded) -> RecordStream<State> {
        let subscription = stateSubscribers.subscribe(buffering, initial: state)
        if isFinalized { stateSubscribers.finish() }
        return subscription
    }

    // MARK: - Lifecycle

    /// Stops taking events, processes those already queued, then stops. Returns once stopped;
    /// called from one of the machine's own actions, it returns at once and the machine stops
    /// when its inbox is empty.
    public func finish() async {
        guard phase != .stopped else { return }
        if phase == .running {
            phase = .finishing
            refuseWaitingSenders()
            closeTimers()
        }
        if !isProcessing && inbox.isEmpty {
            terminate(.finished)
            return
        }
        if ActionScope.machines.contains(ObjectIdentifier(self)) { return }
        await withCheckedContinuation { watchers.finish.append($0) }
    }

    /// Stops now. The event in progress completes (its asynchronous actions see task
    /// cancellation); then every queued event gets the outcome `.stopped` and streams finish.
    public func stop() {
        terminate(.stopped)
    }

    // MARK: - Processing

    /// Processes one event, or a state timeout when `event` is `nil` (its duration is in `origin`).
    @inlinable
    func process(
        _ event: Event?, _ predicates: PredicateContext?, origin: EventOrigin, acceptedAt: ContinuousClock.Instant,
        scope: [ObjectIdentifier]
    ) async -> Record {
        sequenceNumber += 1
        let number = sequenceNumber
        let storage = schema.storage
        let source = state
        let context = predicates ?? configuration.standingPredicates
        func finished(_ outcome: Outcome, _ run: ActionRun = ActionRun(), at location: SourceLocation? = nil) -> Record {
            complete(number, event, context, origin, acceptedAt, source: source, outcome: outcome, run: run,
                     location: location)
        }
        guard stateID >= 0 else { return finished(.unhandled(UnhandledReason(.unknownState))) }
        let transitionIndex: Int32
        let found = if let event {
            storage.lookup(state: stateID, event: event, predicates: context)
        } else {
            timeoutLookup(origin, predicates: context)
        }
        switch found {
        case .unhandled(let reason): return finished(.unhandled(reason))
        case .conditionFalse(let index): return finished(.conditionFalse, at: storage.transitionLocations[Int(index)])
        case .fires(let index): transitionIndex = index
        }
        let transition = storage.hot[Int(transitionIndex)]
        let changes = storage.runsEntryAndExit || transition.source != transition.target
        let exits = changes && storage.hasExitActions[Int(transition.source)]
        let enters = changes && storage.hasEntryActions[Int(transition.target)]
        var run = ActionRun()
        if !exits && !transition.hasActions && !enters {
            commit(transition.target)
        } else {
            let exit = exits ? storage.exitActions[Int(transition.source)] : Actions()
            let entry = enters ? storage.entryActions[Int(transition.target)] : Actions()
            let actionContext = TransitionContext(
                event: event, timeout: event == nil ? origin.timeout.map(Timeout.init) : nil, source: source, target: storage.states[Int(transition.target)], predicates: context,
                runtime: self)
            let room = configuration.inboxCapacity - inbox.count - reservedSlots
            followUps.withLock {
                $0.collecting = true
                $0.room = room
            }
            let transitionActions = storage.transitionActions[Int(transitionIndex)]
            if exit.isSynchronous && transitionActions.isSynchronous && entry.isSynchronous {
                run = runSynchronously(exit, transitionActions, entry, to: transition.target, in: actionContext)
            } else {
                run = await runInTask(exit, transitionActions, entry, to: transition.target, in: actionContext,
                                      scope: scope)
            }
            acceptFollowUps()
        }
        let record = finished(run.failure.map { .failed($0) } ?? .transitioned, run,
                              at: storage.transitionLocations[Int(transitionIndex)])
        if let failure = run.failure { applyFailurePolicy(after: failure) }
        if storage.hasTimedStates { startPendingStateTasks() }
        return record
    }

    @inlinable
    func runSynchronously(
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

    /// Runs a transition's actions in a task of their own, which `stop()` can cancel, with the
    /// sender's scope extended by this machine (for reentrancy detection).
    @usableFromInline func runInTask(
        _ exit: Actions<State, Event>, _ actions: Actions<State, Event>, _ entry: Actions<State, Event>,
        to target: Int32, in context: TransitionContext<State, Event>, scope: [ObjectIdentifier]
    ) async -> ActionRun {
        let chain = scope + [ObjectIdentifier(self)]
        let task = Task {
            await ActionScope.$machines.withValue(chain) {
                await self.runAsynchronously(exit, actions, entry, to: target, in: context)
            }
        }
        inFlight = task
        let run = await task.value
        inFlight = nil
        return run
    }

    @usableFromInline func runAsynchronously(
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

    @inlinable
    func commit(_ target: Int32) {
        let changed = target != stateID
        stateID = target
        offTableState = nil
        if changed && !stateSubscribers.isEmpty { stateSubscribers.publish(state) }
        if schema.storage.hasTimedStates && (changed || schema.storage.runsEntryAndExit) { enterTimedState(target) }
    }

    @inlinable
    func complete(
        _ number: UInt64, _ event: Event?, _ predicates: PredicateContext, _ origin: EventOrigin,
        _ acceptedAt: ContinuousClock.Instant, source: State, outcome: Outcome, run: ActionRun, location: SourceLocation?
    ) -> Record {
        let record = Record(
            sequenceNumber: number, machineID: id, source: source, event: event, predicates: predicates,
            target: state, outcome: outcome, actionsRun: run.completed, transitionLocation: location, origin: origin,
            acceptedAt: acceptedAt, completedAt: .now)
        if !subscribers.isEmpty { subscribers.publish(record) }
        link?.supervisor?.machineRecorded(record)
        return record
    }

    @usableFromInline func applyFailurePolicy(after failure: any Error) {
        switch configuration.failurePolicy.code {
        case .resume:
            break
        case .stop:
            terminate(.failed(failure))
        case .enter(let errorState):
            if let id = schema.storage.stateIDs[errorState] {
                commit(id)
            } else {
                timers?.leave()
                stateID = -1
                offTableState = errorState
                if !stateSubscribers.isEmpty { stateSubscribers.publish(errorState) }
            }
        }
    }

    @usableFromInline func append(_ event: Event, _ predicates: PredicateContext?, origin: EventOrigin, scope: [ObjectIdentifier]) {
        inbox.append(Entry(event: event, predicates: predicates, origin: origin, acceptedAt: .now,
                           ticket: takeTicket(), senderScope: scope, reply: nil))
        inboxGrew()
        startProcessingIfIdle()
    }

    /// Moves follow-ups posted by the actions that just ran into the inbox, behind what waits.
    /// If the machine stopped meanwhile, `finalize` gives them the outcome `.stopped`.
    @inlinable
    func acceptFollowUps() {
        let pending = followUps.withLock { state in
            state.collecting = false
            defer { state.pending = [] }
            return state.pending
        }
        for (event, predicates) in pending {
            inbox.append(Entry(event: event, predicates: predicates, origin: .followUp, acceptedAt: .now,
                               ticket: takeTicket(), senderScope: [], reply: nil))
        }
        if !pending.isEmpty { inboxGrew() }
    }

    /// Accepts follow-ups posted after their transition completed (from tasks an action started).
    @usableFromInline func flushLateFollowUps() {
        let pending = followUps.withLock { state in
            state.flushScheduled = false
            defer { state.pending = [] }
            return state.pending
        }
        guard !pending.isEmpty else { return }
        if isFinalized {
            for (event, predicates) in pending { stopWithoutProcessing(event, predicates, origin: .followUp, reply: nil) }
            return
        }
        for (event, predicates) in pending {
            inbox.append(Entry(event: event, predicates: predicates, origin: .followUp, acceptedAt: .now,
                               ticket: takeTicket(), senderScope: [], reply: nil))
        }
        inboxGrew()
        startProcessingIfIdle()
    }

    /// Called when the sender that processed an event inline is done with it.
    @inlinable
    func processingFinished() {
        if phase != .stopped && !inbox.isEmpty {
            Task.detached { await self.drain() }
            return
        }
        isProcessing = false
        settle()
    }

    @usableFromInline func startProcessingIfIdle() {
        guard !isProcessing, !inbox.isEmpty, phase != .stopped else { return }
        isProcessing = true
        Task.detached { await self.drain() }
    }

    /// Processes queued events until the inbox is empty. Runs in a task of its own, started
    /// only while there is work, so an idle machine holds no task.
    @usableFromInline func drain() async {
        var yielded = false
        while phase != .stopped {
            guard let entry = inbox.popFirst() else {
                // Before giving up the task, let senders already waiting for the actor in: a
                // steady producer then keeps one drain task busy instead of starting one per event.
                if yielded { break }
                yielded = true
                await Task.yield()
                continue
            }
            yielded = false
            admitRoomWaiters()
            if entry.epoch != 0 && entry.epoch != timers?.epoch {
                droppedTimerEvent()
                continue
            }
            let record = await process(entry.event, entry.predicates, origin: entry.origin,
                                       acceptedAt: entry.acceptedAt, scope: entry.senderScope)
            entry.reply?.resume(returning: record)
        }
        isProcessing = false
        settle()
    }

    /// After processing: completes a `finish()` once drained, and finalizes once stopped.
    @usableFromInline func settle() {
        if phase == .finishing && inbox.isEmpty {
            terminate(.finished)
        } else if phase == .stopped {
            finalize()
        }
    }

    @usableFromInline func terminate(_ reason: MachineTermination) {
        guard phase != .stopped else { return }
        if phase == .running { refuseWaitingSenders() }
        phase = .stopped
        termination = reason
        followUps.withLock { $0.stopped = true }
        closeTimers()
        inFlight?.cancel()
        if !isProcessing { finalize() }
    }

    /// Ends the machine once nothing is in progress: queued events and pending follow-ups get
    /// the outcome `.stopped` (after the record of the event that was in progress), the
    /// supervisor learns of the end, and every stream finishes.
    @usableFromInline func finalize() {
        guard !isFinalized else { return }
        isFinalized = true
        while let entry = inbox.popFirst() {
            if entry.epoch != 0 && entry.epoch != timers?.epoch {
                droppedTimerEvent()
                continue
            }
            stopWithoutProcessing(entry.event, entry.predicates, origin: entry.origin, reply: entry.reply)
        }
        let late = followUps.withLock { state in
            defer { state.pending = [] }
            return state.pending
        }
        for (event, predicates) in late { stopWithoutProcessing(event, predicates, origin: .followUp, reply: nil) }
        link?.supervisor?.machineStopped(id: id, generation: generation, termination ?? .stopped)
        subscribers.finish()
        stateSubscribers.finish()
        for waiter in watchers.finish { waiter.resume() }
        watchers.finish = []
    }

    @usableFromInline func refuseWaitingSenders() {
        for waiter in roomWaiters.removeAll() { waiter.continuation.resume(returning: false) }
        for watcher in watchers.refusal { watcher.resume() }
        watchers.refusal = []
    }

    @usableFromInline func stopWithoutProcessing(
        _ event: Event?, _ predicates: PredicateContext?, origin: EventOrigin,
        reply: CheckedContinuation<Record?, Never>?
    ) {
        sequenceNumber += 1
        let record = complete(sequenceNumber, event, predicates ?? configuration.standingPredicates, origin, .now,
                              source: state, outcome: .stopped, run: ActionRun(), location: nil)
        reply?.resume(returning: record)
    }

    // MARK: - Waiting

    @usableFromInline var hasRoom: Bool { inbox.count + reservedSlots < configuration.inboxCapacity }

    @usableFromInline func enqueueAndWait(
        _ event: Event, _ predicates: PredicateContext?, acceptedAt: ContinuousClock.Instant, scope: [ObjectIdentifier]
    ) async -> Record? {
        let ticket = takeTicket()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Record?, Never>) in
                inbox.append(Entry(event: event, predicates: predicates, origin: .send, acceptedAt: acceptedAt,
                                   ticket: ticket, senderScope: scope, reply: continuation))
                inboxGrew()
                startProcessingIfIdle()
            }
        } onCancel: {
            Task { await self.withdraw(ticket) }
        }
    }

    /// Takes a cancelled sender's event back out of the inbox, if it has not started.
    @usableFromInline func withdraw(_ ticket: UInt64) {
        guard let entry = inbox.removeFirst(where: { $0.ticket == ticket }) else { return }
        entry.reply?.resume(returning: nil)
        admitRoomWaiters()
        if !isProcessing { settle() }
    }

    /// Waits until the inbox has room, and holds a slot for the caller, who must enqueue before
    /// suspending again. Returns `false` if the machine stopped taking events or the task was
    /// cancelled meanwhile.
    @usableFromInline func waitForRoom() async -> Bool {
        if hasRoom && roomWaiters.isEmpty { return true }
        let ticket = takeTicket()
        let admitted = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                roomWaiters.append(RoomWaiter(ticket: ticket, continuation: continuation))
                roomWaitersGrew()
            }
        } onCancel: {
            Task { await self.withdrawRoomWaiter(ticket) }
        }
        if admitted { reservedSlots -= 1 }
        return admitted && phase == .running
    }

    @usableFromInline func withdrawRoomWaiter(_ ticket: UInt64) {
        roomWaiters.removeFirst { $0.ticket == ticket }?.continuation.resume(returning: false)
    }

    /// Lets waiting senders in, in order, while there is room, reserving a slot for each.
    @usableFromInline func admitRoomWaiters() {
        while hasRoom, let waiter = roomWaiters.popFirst() {
            reservedSlots += 1
            waiter.continuation.resume(returning: true)
        }
    }

    @usableFromInline func takeTicket() -> UInt64 {
        nextTicket &+= 1
        return nextTicket
    }

    @inlinable
    static func result(of record: Record) throws(MachineError) -> Record {
        switch record.outcome {
        case .failed(let error): throw MachineError(.actionFailed, underlying: error, detail: " (\(record))")
        case .stopped: throw MachineError(.stopped, detail: " (\(record))")
        default: return record
        }
    }

    // MARK: - Test support

    /// Returns once at least `count` events wait in the inbox, for tests that need senders to
    /// have piled up.
    package func untilQueued(_ count: Int) async {
        guard inbox.count < count else { return }
        await withCheckedContinuation { watchers.inbox.append((count, $0)) }
    }

    /// Returns once at least `count` senders wait for room in a full inbox.
    package func untilWaitingForRoom(_ count: Int) async {
        guard roomWaiters.count < count else { return }
        await withCheckedContinuation { watchers.roomWaiters.append((count, $0)) }
    }

    /// Returns once the machine has stopped taking events (it is finishing or stopped).
    package func untilRefusingEvents() async {
        guard phase == .running else { return }
        await withCheckedContinuation { watchers.refusal.append($0) }
    }

    /// How many subscriptions to ``transitions(buffering:)`` are live.
    package var transitionSubscriberCount: Int { subscribers.count }

    @usableFromInline func inboxGrew() {
        if !watchers.inbox.isEmpty { Self.resume(&watchers.inbox, reaching: inbox.count) }
    }

    @usableFromInline func roomWaitersGrew() {
        if !watchers.roomWaiters.isEmpty { Self.resume(&watchers.roomWaiters, reaching: roomWaiters.count) }
    }

    /// Resumes, and forgets, the watchers waiting for a count that `count` has reached.
    static func resume(
        _ watchers: inout [(count: Int, continuation: CheckedContinuation<Void, Never>)], reaching count: Int
    ) {
        watchers.removeAll { watcher in
            guard count >= watcher.count else { return false }
            watcher.continuation.resume()
            return true
        }
    }
}

extension Machine: ActionRuntime {
    @usableFromInline nonisolated var erasedMachineID: any Hashable & Sendable { id }

    @usableFromInline nonisolated func schedule<E: Sendable>(
        _ event: E, after delay: Duration, predicates: PredicateContext?
    ) -> ScheduledEvent? {
        // A context is only ever made by this machine for its own `Event` type.
        guard let event = event as? Event else { return nil }
        return schedule(event, after: delay, predicates: predicates)
    }

    @usableFromInline nonisolated func postFollowUp<E: Sendable>(_ event: E, predicates: PredicateContext?) -> Bool {
        // A context is only ever made by this machine for its own `Event` type.
        guard let event = event as? Event else { return false }
        let capacity = configuration.inboxCapacity
        let admission = followUps.withLock { state -> FollowUpAdmission in
            if state.stopped { return .refused }
            if state.collecting {
                guard state.room > 0 else { return .refused }
                state.room -= 1
                state.pending.append((event, predicates))
                return .queued
            }
            guard state.pending.count < capacity else { return .refused }
            state.pending.append((event, predicates))
            if state.flushScheduled { return .queued }
            state.flushScheduled = true
            return .scheduleFlush
        }
        if case .scheduleFlush = admission { Task { await self.flushLateFollowUps() } }
        if case .refused = admission { return false }
        return true
    }
}
