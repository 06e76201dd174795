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

    // The properties read or written for every event skip the run-time exclusivity check (a
    // call into the runtime per access, ~7% of a send). They are safe without it: they are
    // actor-isolated, so only the actor's serial executor touches them, and none is ever passed
    // `inout` across a call that could reach it again (the compiler's static check still applies).
    @exclusivity(unchecked) @usableFromInline var stateID: Int32
    @exclusivity(unchecked) @usableFromInline var phase = Phase.running
    @usableFromInline var isFinalized = false
    /// The current state when it is not one of the schema's (a starting or error state given by
    /// the user); `stateID` is then -1.
    @exclusivity(unchecked) @usableFromInline var offTableState: State?
    @exclusivity(unchecked) @usableFromInline var sequenceNumber: UInt64 = 0
    @exclusivity(unchecked) @usableFromInline var subscribers = Subscribers<Record>()
    @exclusivity(unchecked) @usableFromInline var stateSubscribers = Subscribers<State>()
    /// Whether anyone ever subscribed to records or states: until then, finishing the streams
    /// has nothing to do, and skipping it spares code that is not specialized for the machine's
    /// types two look-ups of generic metadata (a shutdown meets a million such machines).
    @usableFromInline var hasHadSubscribers = false
    /// Whether the drain is working through the inbox: subscribers waiting for records are
    /// then woken once per run of records (see `LogWriter.append`), and at the latest when the
    /// inbox stays empty for a turn, or the drain stops or suspends.
    @exclusivity(unchecked) @usableFromInline var isDraining = false
    @usableFromInline var watchers = Watchers()
    @usableFromInline var inFlight: Task<ActionRun, Never>?
    @usableFromInline var termination: MachineTermination?
    /// The current state's timeouts and tasks, for schemas that have any.
    @exclusivity(unchecked) @usableFromInline var timers: StateTimers?
    /// Timeouts and task results dropped as stale, for tests.
    @usableFromInline var droppedTimerEvents = 0
    /// The events accepted and not yet started, behind a lock: posts, follow-ups and withdrawals
    /// reach it from any thread, without a hop onto the actor. Declared last, after the fields
    /// the actor writes per event, so that a producer's lock turns share as few cache lines as
    /// possible with the draining thread's stores.
    @usableFromInline nonisolated let inbox: FencedMutex<Inbox<State, Event, ID>>

    @usableFromInline
    enum Phase { case running, finishing, stopped }

    /// Continuations waiting for the lifecycle, and for tests.
    @usableFromInline
    struct Watchers {
        @usableFromInline var finish: [CheckedContinuation<Void, Never>] = []
        @usableFromInline var refusal: [CheckedContinuation<Void, Never>] = []
        @usableFromInline var dropped: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        @usableFromInline init() {}
    }

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
        self.inbox = FencedMutex(Inbox(capacity: settings.configuration.inboxCapacity))
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

    /// How many accepted events wait in the inbox. While the machine works through a batch of
    /// queued events, the batch's events count until the batch is done.
    public nonisolated var queuedCount: Int { inbox.withLock { $0.queue.count + $0.inHand } }

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
        guard phase == .running else { throw MachineError(.stopped) }
        if Task.isCancelled { throw MachineError(.cancelled) }
        let acceptedAt = Timestamp.now
        if inbox.withLock({ $0.beginInline() }) {
            // Not reentrant: none of this machine's actions is running.
            let record = await process(event, predicates, origin: .send, acceptedAt: acceptedAt,
                                       scope: ActionScope.machines, replying: true)
            processingFinished()
            return try Self.result(of: consume record)
        }
        let scope = ActionScope.machines
        if scope.contains(ObjectIdentifier(self)) { throw MachineError(.reentrantSend) }
        return try await sendThroughInbox(event, predicates, acceptedAt: acceptedAt, scope: scope)
    }

    /// Queues `event` without waiting for it to be processed. Callable from any thread without
    /// awaiting the actor: the inbox has a lock of its own.
    ///
    /// - Throws: ``MachineError`` of kind `.inboxFull` if the inbox is at capacity (or senders
    ///   wait for room, which a post does not overtake), or `.stopped`.
    @inlinable
    public nonisolated func post(_ event: Event, predicates: PredicateContext? = nil) throws(MachineError) {
        let acceptedAt = Timestamp.now
        // The entry is made inside the lock's closure, so that it moves into the queue (a copy
        // and a destruction through its value witnesses otherwise).
        switch inbox.withLock({ $0.post(Entry(event: event, predicates: predicates, origin: .post, acceptedAt: acceptedAt)) }) {
        case .queued(let resumptions): if !resumptions.isEmpty { perform(resumptions) }
        case .full: throw MachineError(.inboxFull)
        case .closed: throw MachineError(.stopped)
        }
    }

    /// Queues `event` without waiting for it to be processed, but waiting for room if the inbox
    /// is full: `post` with back-pressure. From one of the machine's own actions it never waits,
    /// since the room it would wait for cannot come: it throws `.inboxFull` instead.
    ///
    /// Once the inbox is full, waiting senders are let in, in order, when half of it is free
    /// again: a producer that outruns the machine then wakes once per half inbox.
    ///
    /// It runs on the caller's executor (`nonisolated(nonsending)`), and returns without
    /// suspending while the inbox has room, so a loop of `enqueue` calls on an actor holds
    /// that actor until the inbox is full.
    ///
    /// - Throws: ``MachineError`` `.stopped`, `.inboxFull` (see above), or `.cancelled` if the task
    ///   is cancelled while it waits.
    @inlinable
    public nonisolated(nonsending) func enqueue(
        _ event: Event, predicates: PredicateContext? = nil
    ) async throws(MachineError) {
        let acceptedAt = Timestamp.now
        switch inbox.withLock({ $0.post(Entry(event: event, predicates: predicates, origin: .post, acceptedAt: acceptedAt)) }) {
        case .queued(let resumptions): if !resumptions.isEmpty { perform(resumptions) }
        case .full:
            try await enqueueWhenRoom(Entry(event: event, predicates: predicates, origin: .post, acceptedAt: acceptedAt))
        case .closed: throw MachineError(.stopped)
        }
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
        hasHadSubscribers = true
        let subscription = subscribers.subscribe(buffering)
        if isFinalized { subscribers.finish() }
        return subscription
    }

    /// Subscribes to the current state followed by every change of state. The stream finishes
    /// when the machine stops.
    public func states(buffering: SubscriptionBuffering = .unbounded) -> RecordStream<State> {
        hasHadSubscribers = true
        let subscription = stateSubscribers.subscribe(buffering, initial: state)
        if isFinalized { stateSubscribers.finish() }
        return subscription
    }

    // MARK: - Lifecycle

    /// Stops taking events, processes those already queued, then stops. Returns once stopped;
    /// called from one of the machine's own actions, it returns at once and the machine stops
    /// when its inbox is empty.
    public func finish() async {
        guard beginFinishing() else { return }
        if ActionScope.machines.contains(ObjectIdentifier(self)) { return }
        await withCheckedContinuation { watchers.finish.append($0) }
    }

    /// Stops taking events, and stops at once if nothing is queued or in progress.
    ///
    /// - Returns: whether the machine still has events to process before it stops.
    @discardableResult
    func beginFinishing() -> Bool {
        guard phase != .stopped else { return false }
        if phase == .running && inFlight == nil && inbox.withLock({ $0.stopIfIdle() }) {
            // Idle: there is nothing to process, refuse or cancel in the inbox, so the machine
            // stops at once. (A supervisor's shutdown meets a million of these.)
            phase = .stopped
            termination = .finished
            timers?.cancelAll()
            if !watchers.refusal.isEmpty {
                for watcher in watchers.refusal { watcher.resume() }
                watchers.refusal = []
            }
            finalize(queueIsEmpty: true)
            return false
        }
        if phase == .running {
            phase = .finishing
            closeInbox(stopping: false)
        }
        // Nothing owns processing only when the queue is empty.
        if !inbox.withLock({ $0.isActive }) {
            terminate(.finished)
            return false
        }
        return true
    }

    /// Stops now. Senders awaiting queued events are answered with ``MachineError`` `.stopped`
    /// at once; the event in progress completes (its asynchronous actions see task
    /// cancellation); then every queued event gets the outcome `.stopped` and streams finish.
    public func stop() {
        terminate(.stopped)
    }

    // MARK: - Processing

    /// Processes one event, or a state timeout when `event` is `nil` (its duration is in `origin`).
    ///
    /// - Parameters:
    ///   - scope: the sender's action scope, read only if an asynchronous action runs.
    ///   - replying: whether the caller needs the record. Without a caller, subscriber or
    ///     supervisor to read it, the record is not published and its completion time is not
    ///     read from the clock.
    @inlinable
    func process(
        _ event: Event?, _ predicates: PredicateContext?, origin: EventOrigin, acceptedAt: Timestamp,
        scope: @autoclosure () -> [ObjectIdentifier], replying: Bool
    ) async -> Record {
        let context = predicates ?? settings.standingPredicates
        let found = find(event, in: context, origin: origin)
        if case .fires(let index) = found, !schema.storage.hot[Int(index)].isSynchronous {
            return await process(event, context, suspendingAt: index, origin: origin, acceptedAt: acceptedAt,
                                 scope: scope(), replying: replying)
        }
        return process(event, context, found: found, origin: origin, acceptedAt: acceptedAt, replying: replying)
    }

    /// What `event` (a timeout when `nil`) triggers in the current state.
    @inlinable
    func find(_ event: Event?, in context: PredicateContext, origin: EventOrigin) -> SchemaStorage<State, Event>.Lookup {
        guard stateID >= 0 else { return .unhandled(UnhandledReason(.unknownState)) }
        if let event { return schema.storage.lookup(state: stateID, event: event, predicates: context) }
        return timeoutLookup(origin, predicates: context)
    }

    /// Processes an event without suspending: anything `find` can find but a transition with an
    /// asynchronous action.
    @inlinable
    func process(
        _ event: Event?, _ context: PredicateContext, found: SchemaStorage<State, Event>.Lookup, origin: EventOrigin,
        acceptedAt: Timestamp, replying: Bool
    ) -> Record {
        sequenceNumber += 1
        let number = sequenceNumber
        let storage = schema.storage
        let source = state
        switch found {
        case .unhandled(let reason):
            return complete(number, event, context, origin, acceptedAt, source: source, outcome: .unhandled(reason),
                            run: ActionRun(), location: nil, observed: isObserved(replying: replying))
        case .conditionFalse(let index):
            return complete(number, event, context, origin, acceptedAt, source: source, outcome: .conditionFalse,
                            run: ActionRun(), location: storage.transitionLocations[Int(index)],
                            observed: isObserved(replying: replying))
        case .fires(let index):
            let transition = storage.hot[Int(index)]
            var run = ActionRun()
            if transition.runsNothing {
                commit(transition.target)
            } else {
                do {
                    try storage.runSynchronously(transition, event: event, counting: &run.completed, context: {
                        actionContext(event, context, origin, from: source, to: transition.target)
                    }, commit: { commit(transition.target) })
                } catch {
                    run.failure = error
                }
            }
            return fired(index, number, event, context, origin, acceptedAt, source: source, run: run, replying: replying)
        }
    }

    /// Processes an event whose transition, at `index`, has an asynchronous action: the actions
    /// run in a task of their own.
    @inlinable
    func process(
        _ event: Event?, _ context: PredicateContext, suspendingAt index: Int32, origin: EventOrigin,
        acceptedAt: Timestamp, scope: [ObjectIdentifier], replying: Bool
    ) async -> Record {
        sequenceNumber += 1
        let number = sequenceNumber
        let storage = schema.storage
        let source = state
        let transition = storage.hot[Int(index)]
        // Subscribers must not wait for the records before this one while the actions suspend.
        if isDraining { subscribers.wakeReaders() }
        let run = await runInTask(
            transition.runsExit ? storage.exitActions[Int(transition.source)] : Actions(),
            storage.transitionActions[Int(index)],
            transition.runsEntry ? storage.entryActions[Int(transition.target)] : Actions(),
            to: transition.target, in: actionContext(event, context, origin, from: source, to: transition.target),
            scope: scope)
        return fired(index, number, event, context, origin, acceptedAt, source: source, run: run, replying: replying)
    }

    /// What the actions of a transition from `source` to the state with id `target` are told.
    @inlinable
    func actionContext(
        _ event: Event?, _ context: PredicateContext, _ origin: EventOrigin, from source: State, to target: Int32
    ) -> TransitionContext<State, Event> {
        TransitionContext(
            event: event, timeout: event == nil ? origin.timeout.map(Timeout.init) : nil, source: source,
            target: schema.storage.states[Int(target)], predicates: context, runtime: self)
    }

    /// Whether anyone reads the record of the event in progress.
    @inlinable
    func isObserved(replying: Bool) -> Bool { replying || !subscribers.isEmpty || link?.isListenedTo == true }

    /// The record of a transition that fired, once its actions ran; applies the failure policy
    /// and starts the new state's tasks.
    @inlinable
    func fired(
        _ index: Int32, _ number: UInt64, _ event: Event?, _ context: PredicateContext, _ origin: EventOrigin,
        _ acceptedAt: Timestamp, source: State, run: ActionRun, replying: Bool
    ) -> Record {
        let storage = schema.storage
        let record = complete(number, event, context, origin, acceptedAt, source: source,
                              outcome: run.failure.map { .failed($0) } ?? .transitioned, run: run,
                              location: storage.transitionLocations[Int(index)], observed: isObserved(replying: replying))
        if let failure = run.failure { applyFailurePolicy(after: failure) }
        if storage.hasTimedStates { startPendingStateTasks() }
        return record
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
        _ acceptedAt: Timestamp, source: State, outcome: Outcome, run: ActionRun, location: SourceLocation?,
        observed: Bool = true
    ) -> Record {
        let record = Record(
            sequenceNumber: number, machineID: id, source: source, event: event, predicates: predicates,
            target: state, outcome: outcome, actionsRun: run.completed, transitionLocation: location, origin: origin,
            acceptedAt: acceptedAt, completedAt: observed ? .now : acceptedAt)
        guard observed else { return record }
        if !subscribers.isEmpty { subscribers.publish(record, deferringWakeAt: isDraining ? record.completed : nil) }
        if link != nil { reportToSupervisor(record) }
        return record
    }

    /// Passes `record` to the supervisor, if anyone listens to it. Out of line, so that the
    /// supervised path does not grow every inlined copy of `complete`; and it reads `link` in
    /// place: binding it to pass it along retained it, and every machine of a supervisor shares
    /// that one object, so cores contended for its reference count (B4 stopped scaling).
    @usableFromInline func reportToSupervisor(_ record: Record) {
        guard link?.isListenedTo == true else { return }
        link?.supervisor?.machineRecorded(record)
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

    /// Called when the sender that processed an event inline is done with it.
    @inlinable
    func processingFinished() {
        if inbox.withLock({ $0.endInline(stopped: phase == .stopped) }) {
            Task.detached { await self.drain() }
            return
        }
        settle()
    }

    /// Processes queued events until the inbox is empty. Runs in a task of its own, started
    /// only while there is work, so an idle machine holds no task.
    @inlinable
    func drain() async {
        var batch = RingBuffer<Entry>()
        // When the drain last found the queue empty, while it still owns it.
        var idleSince: ContinuousClock.Instant?
        // Whether the last batch was smaller than the limit: the drain is keeping up.
        var keepingUp = false
        let batchLimit = inbox.withLock { $0.batchLimit }
        isDraining = true
        defer {
            isDraining = false
            subscribers.wakeReaders()
        }
        turns: while phase != .stopped {
            var resumptions = Inbox<State, Event, ID>.Resumptions()
            let keep = idleSince.map { ContinuousClock.now - $0 < Self.idleWindow } ?? true
            let took: Bool?
            if keep && keepingUp {
                // Never contend with a producer for the lock while keeping up with it: a
                // producer that meets the drain on every post slows down, which keeps the
                // drain taking one event per turn of the lock.
                took = inbox.withLockIfAvailable {
                    $0.takeBatch(into: &batch, resumptions: &resumptions, keepingOwnership: true)
                }
            } else {
                took = inbox.withLock { $0.takeBatch(into: &batch, resumptions: &resumptions, keepingOwnership: keep) }
            }
            guard let took, took else {
                if took == false && !keep { break }
                // Still the owner: let a producer on another thread post more (or finish its
                // turn of the lock) before stopping. Starting a new drain for its next event
                // costs a task and a thread wake-up. The window runs from the first empty or
                // busy try, so the wait is bounded either way.
                if idleSince == nil {
                    idleSince = .now
                } else {
                    // Still nothing after a turn: a subscriber waiting for the records may be
                    // what the producer waits for.
                    subscribers.wakeReaders()
                }
                await Task.yield()
                continue
            }
            idleSince = nil
            keepingUp = batch.count < batchLimit
            let small = batch.count < Self.smallBatch
            if !resumptions.isEmpty { perform(resumptions) }
            while let entry = batch.popFirst() {
                guard phase != .stopped else {
                    stopUnprocessed(entry)
                    break turns
                }
                if entry.epoch != 0 && entry.epoch != timers?.epoch {
                    droppedTimerEvent()
                    continue
                }
                let record = await process(entry.event, entry.predicates, origin: entry.origin,
                                           acceptedAt: entry.acceptedAt, scope: entry.senderScope,
                                           replying: entry.reply != nil)
                entry.reply?.resume(returning: .processed(record))
            }
            // Keeping up with a producer a couple of events at a time, the drain and the
            // producer meet at the lock for nearly every event. A turn of the scheduler first
            // lets a few more gather (B1 post: batches of 2–7 events, 140–300 ns per event, at
            // random from one process to the next; with the turn, batches of about 7 and
            // 158–174 ns in every process).
            if small && keepingUp { await Task.yield() }
        }
        if phase == .stopped {
            // Events of the batch that did not start come first among those stopped unprocessed.
            for entry in batch.removeAll() { stopUnprocessed(entry) }
            inbox.withLock { $0.release() }
        }
        settle()
    }

    /// How long an idle drain keeps yielding, still owning the inbox, before it stops. Starting
    /// a drain costs about a microsecond (a task, often a thread wake-up); a producer that posts
    /// more often than this keeps one drain busy. The price is up to 10 µs of a pool thread's
    /// time (in scheduler turns, which let other tasks run) each time a machine goes idle.
    @usableFromInline static var idleWindow: Duration { .microseconds(10) }

    /// A batch smaller than this, taken while keeping up with producers, is followed by a turn
    /// of the scheduler before the next one.
    @usableFromInline static var smallBatch: Int { 4 }

    /// Carries out what an inbox operation asks for, outside its lock.
    @inlinable
    nonisolated func perform(_ resumptions: Inbox<State, Event, ID>.Resumptions) {
        if resumptions.startProcessing { Task.detached { await self.drain() } }
        for sender in resumptions.admitted { sender.resume(returning: true) }
        for watcher in resumptions.watchers { watcher.resume() }
    }

    /// After processing: completes a `finish()` once drained, and finalizes once stopped.
    @inlinable
    func settle() {
        if phase == .finishing {
            if !inbox.withLock({ $0.isActive }) { terminate(.finished) }
        } else if phase == .stopped {
            finalize()
        }
    }

    @usableFromInline func terminate(_ reason: MachineTermination) {
        guard phase != .stopped else { return }
        phase = .stopped
        termination = reason
        closeInbox(stopping: true)
        inFlight?.cancel()
        if !inbox.withLock({ $0.isActive }) { finalize() }
    }

    /// Stops taking new events (or, when `stopping`, anything at all): refuses the senders
    /// waiting for room and cancels every timer, task and delayed post. Timer events already in
    /// the inbox stay valid: they fired before, like any event queued before.
    @usableFromInline func closeInbox(stopping: Bool) {
        let closing = inbox.withLock { $0.close(stopping: stopping) }
        for waiter in closing.waiters {
            waiter.entry.reply?.resume(returning: .refused)
            waiter.admitted?.resume(returning: false)
        }
        // Their events keep their places, to get `.stopped` records after the one in progress.
        for sender in closing.queuedSenders { sender.resume(returning: .refused) }
        for watcher in watchers.refusal { watcher.resume() }
        watchers.refusal = []
        timers?.cancelAll()
        for event in closing.scheduled { event.cancel() }
    }

    /// Ends the machine once nothing is in progress: queued events get the outcome `.stopped`
    /// (after the record of the event that was in progress), the supervisor learns of the end,
    /// and every stream finishes.
    ///
    /// - Parameter queueIsEmpty: whether the caller knows the inbox's queue is empty, which
    ///   spares a turn of its lock.
    @usableFromInline func finalize(queueIsEmpty: Bool = false) {
        guard !isFinalized else { return }
        isFinalized = true
        // Each step is skipped when it has nothing to do: a supervisor's shutdown finalizes
        // a million idle machines, and this code is not specialized for their types.
        if !queueIsEmpty && !inbox.withLock({ $0.queue.isEmpty }) {
            for entry in inbox.withLock({ $0.takeAll() }) { stopUnprocessed(entry) }
        }
        if let link, link.wantsStopReport {
            link.supervisor?.machineStopped(id: id, generation: generation, termination ?? .stopped)
        }
        if hasHadSubscribers {
            subscribers.finish()
            stateSubscribers.finish()
        }
        if !watchers.finish.isEmpty {
            for waiter in watchers.finish { waiter.resume() }
            watchers.finish = []
        }
    }

    /// Gives a queued event the outcome `.stopped`, or drops it if it is a stale timer event.
    @usableFromInline func stopUnprocessed(_ entry: Entry) {
        if entry.epoch != 0 && entry.epoch != timers?.epoch {
            droppedTimerEvent()
        } else {
            stopWithoutProcessing(entry.event, entry.predicates, origin: entry.origin, reply: entry.reply)
        }
    }

    @usableFromInline func stopWithoutProcessing(
        _ event: Event?, _ predicates: PredicateContext?, origin: EventOrigin,
        reply: Entry.ReplySlot?
    ) {
        sequenceNumber += 1
        let record = complete(sequenceNumber, event, predicates ?? settings.standingPredicates, origin, .now,
                              source: state, outcome: .stopped, run: ActionRun(), location: nil)
        reply?.resume(returning: .processed(record))
    }

    // MARK: - Waiting

    /// `send` on a busy machine: queues the event, or waits for room, then waits for its record.
    @usableFromInline func sendThroughInbox(
        _ event: Event, _ predicates: PredicateContext?, acceptedAt: Timestamp, scope: [ObjectIdentifier]
    ) async throws(MachineError) -> Record {
        let ticket = inbox.withLock { $0.takeTicket() }
        let reply = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Entry.Reply, Never>) in
                let entry = Entry(event: event, predicates: predicates, origin: .send, acceptedAt: acceptedAt,
                                  ticket: ticket, senderScope: scope, reply: Entry.ReplySlot(continuation))
                park(Inbox.Waiter(entry: entry, admitted: nil), ticket: ticket)
            }
        } onCancel: {
            withdraw(ticket)
        }
        switch reply {
        case .processed(let record): return try Self.result(of: consume record)
        case .withdrawn: throw MachineError(.cancelled)
        case .refused: throw MachineError(.stopped)
        }
    }

    /// `enqueue` into a full inbox: waits until the event is let in.
    @usableFromInline nonisolated func enqueueWhenRoom(_ posted: Entry) async throws(MachineError) {
        // Room for an action's own machine comes only once the action completes.
        if ActionScope.machines.contains(ObjectIdentifier(self)) { throw MachineError(.inboxFull) }
        let ticket = inbox.withLock { $0.takeTicket() }
        let entry = Entry(event: posted.event, predicates: posted.predicates, origin: .post,
                          acceptedAt: posted.acceptedAt, ticket: ticket)
        let admitted = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                park(Inbox.Waiter(entry: entry, admitted: continuation), ticket: ticket)
            }
        } onCancel: {
            withdraw(ticket)
        }
        guard admitted else {
            let open = inbox.withLock { if case .open = $0.admission { true } else { false } }
            throw MachineError(open ? .cancelled : .stopped)
        }
    }

    /// Queues a sender's event, or has it wait for room; refuses it if the machine no longer
    /// takes events.
    @usableFromInline nonisolated func park(_ waiter: Inbox<State, Event, ID>.Waiter, ticket: UInt64) {
        guard let resumptions = inbox.withLock({ $0.admitOrPark(waiter) }) else {
            waiter.entry.reply?.resume(returning: .refused)
            waiter.admitted?.resume(returning: false)
            return
        }
        perform(resumptions)
        // A cancellation that came before the handler was installed found nothing to withdraw.
        if Task.isCancelled { withdraw(ticket) }
    }

    /// Takes a cancelled sender's event back, if it has not started.
    @usableFromInline nonisolated func withdraw(_ ticket: UInt64) {
        var resumptions = Inbox<State, Event, ID>.Resumptions()
        let (withdrawn, idle) = inbox.withLock { inbox in
            let waiter = inbox.withdraw(ticket, into: &resumptions)
            return (waiter, !inbox.isActive)
        }
        guard let withdrawn else { return }
        withdrawn.entry.reply?.resume(returning: .withdrawn)
        withdrawn.admitted?.resume(returning: false)
        perform(resumptions)
        // A finishing machine whose last queued event this was can now complete.
        if idle { Task { await self.settleIfIdle() } }
    }

    @usableFromInline func settleIfIdle() {
        if !inbox.withLock({ $0.isActive }) { settle() }
    }

    @inlinable
    static func result(of record: consuming Record) throws(MachineError) -> Record {
        switch record.outcome {
        case .failed(let error): throw MachineError(.actionFailed, underlying: error, detail: " (\(record))")
        case .stopped: throw MachineError(.stopped, detail: " (\(record))")
        default: return record
        }
    }

    // MARK: - Test support

    /// Returns once at least `count` unbounded subscribers wait for a record (for tests); at
    /// once if the machine has no unbounded subscriber.
    package func untilSubscribersWait(_ count: Int) async {
        guard let broadcast = subscribers.log?.broadcast else { return }
        await broadcast.untilParked(count)
    }

    /// Returns once at least `count` events wait in the inbox, for tests that need senders to
    /// have piled up.
    package func untilQueued(_ count: Int) async {
        await until(count, of: \.queue.count, watchers: \.queueWatchers)
    }

    /// Returns once at least `count` senders wait for room in a full inbox.
    package func untilWaitingForRoom(_ count: Int) async {
        await until(count, of: \.waiters.count, watchers: \.waiterWatchers)
    }

    /// Returns once the inbox's figure at `measure` reaches `count`; the inbox resumes the
    /// watcher it registers here when the figure grows.
    private func until(
        _ count: Int, of measure: KeyPath<Inbox<State, Event, ID>, Int>,
        watchers: WritableKeyPath<Inbox<State, Event, ID>, [Inbox<State, Event, ID>.Watcher]>
    ) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = inbox.withLock { inbox in
                if inbox[keyPath: measure] >= count { return true }
                inbox[keyPath: watchers].append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }

    /// Returns once the machine has stopped taking events (it is finishing or stopped).
    package func untilRefusingEvents() async {
        guard phase == .running else { return }
        await withCheckedContinuation { watchers.refusal.append($0) }
    }

    /// How many subscriptions to ``transitions(buffering:)`` are live.
    package var transitionSubscriberCount: Int { subscribers.count }

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
        let entry = Entry(event: event, predicates: predicates, origin: .followUp, acceptedAt: .now)
        guard let resumptions = inbox.withLock({ $0.followUp(entry) }) else { return false }
        if !resumptions.isEmpty { perform(resumptions) }
        return true
    }
}
