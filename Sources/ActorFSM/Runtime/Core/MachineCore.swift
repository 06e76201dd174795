/// A machine as a pure, synchronous state machine: the current state, the sequence number, the
/// count of entries into states that timer events are checked against, and the lifecycle. Each
/// input is a `mutating func` that decides what happens and returns what the actor must do;
/// the actor (``Machine``) performs those effects and decides nothing itself. The core never
/// awaits, runs an action or touches a lock, so it is tested input by input without a machine.
///
/// The schema's tables are passed to the inputs that read them rather than stored, so that a
/// million idle machines do not each hold another reference to them.
///
/// `Waiter` is what callers of `finish()` wait on (a continuation, in a machine).
///
/// The questions the actor asks on every event (``isAcceptingEvents``, ``hasStopped``) have
/// `mutating` getters, and ``turn(ofEventFrom:)`` and ``admitsTimerEvent(from:)`` are
/// `mutating`: the actor's core is a stored
/// property, and a non-mutating call on it would first copy the whole core, through its generic
/// value witness, once per event.
@usableFromInline
package struct MachineCore<Definition: MachineDefinition, Waiter: Sendable>: Sendable {
    @usableFromInline package typealias State = Definition.State
    @usableFromInline package typealias Event = Definition.Event
    @usableFromInline package typealias Storage = SchemaStorage<Definition>

    // The fields whose layout does not depend on `State` come first, so that code not
    // specialized for the machine's types (a supervisor's shutdown) reaches them at fixed
    // offsets, without looking up the core's generic metadata.

    /// Running, shutting down, stopping or stopped, and who waits for the end.
    @usableFromInline private(set) var lifecycle = MachineLifecycle<Waiter>()
    /// The number of the last event taken: processed, or recorded as stopped.
    @usableFromInline private(set) var sequenceNumber: UInt64 = 0
    /// Counts entries into timed states. A timer event carries the count of the entry that armed
    /// it, so one that arrives after the machine left that state is recognised and dropped.
    @usableFromInline private(set) var epoch: UInt64 = 1
    /// The current state's id, or -1 while the machine is in a state the schema does not know.
    @usableFromInline private(set) var stateID: Int32
    /// Whether the current state's tasks wait to start once the transition into it completes.
    @usableFromInline private(set) var tasksPending = false
    /// Whether the pause held back the current state's tasks, for the resume to start.
    @usableFromInline private(set) var tasksHeldByPause = false
    /// The current state when it is not one of the schema's (a starting or error state given by
    /// the user).
    @usableFromInline private(set) var offTableState: State?

    /// A core in `state`, whose last event took the number `sequenceNumber` (0 for a new
    /// machine; a restored one goes on from its stored number).
    @inlinable
    init(startingIn state: State, of storage: Storage, sequenceNumber: UInt64 = 0) {
        let id = storage.table.stateIDs[state] ?? -1
        stateID = id
        offTableState = id < 0 ? state : nil
        self.sequenceNumber = sequenceNumber
    }

    /// Whether the machine takes new events.
    @inlinable var isAcceptingEvents: Bool { mutating get { lifecycle.isRunning } }

    /// Whether it has stopped taking anything: it is stopping or has ended.
    @inlinable var hasStopped: Bool { mutating get { lifecycle.hasStopped } }

    /// Whether it is paused: it takes no new event and processes none until it is resumed.
    @inlinable var isPaused: Bool { mutating get { lifecycle.isPaused } }

    /// Whether it processes queued events: it is running or shutting down.
    @inlinable var isProcessing: Bool { mutating get { lifecycle.isProcessing } }

    /// Whether its timers' events still join its inbox: it is running or paused.
    @inlinable var takesTimerEvents: Bool { mutating get { lifecycle.takesTimerEvents } }

    /// Whether it has ended.
    @inlinable var hasEnded: Bool { mutating get { lifecycle.hasEnded } }

    /// How it ended, once it has.
    var termination: MachineTermination? { lifecycle.termination }

    // MARK: - Processing an event

    /// What an event does: its number, and what the schema found for it.
    @usableFromInline
    struct Begun {
        @usableFromInline let number: UInt64
        @usableFromInline let found: LookupResult

        @inlinable init(number: UInt64, found: LookupResult) {
            self.number = number
            self.found = found
        }
    }

    /// An event starts (a state timeout when `event` is `nil`, its duration in `origin`): it
    /// takes the next sequence number, and the schema says what it triggers. When it fires a
    /// transition, the actor runs its actions, calling ``commit(_:in:)`` between the
    /// transition's own actions and the entry actions, and ``failed(_:policy:in:)`` if one throws.
    @inlinable
    mutating func begin(
        _ event: Event?, in context: PredicateContext, origin: EventOrigin, of storage: Storage, data: Definition.Data
    ) -> Begun {
        sequenceNumber &+= 1
        guard stateID >= 0 else { return Begun(number: sequenceNumber, found: .unhandled(UnhandledReason(.unknownState))) }
        if let event {
            return Begun(number: sequenceNumber, found: storage.table.lookup(state: stateID, event: event, predicates: context, data: data))
        }
        return Begun(number: sequenceNumber, found: timeoutLookup(origin, in: context, of: storage, data: data))
    }

    /// An operator's entry (a durable machine's pause or resume) takes the next number, as an
    /// event would.
    mutating func takeNumber() -> UInt64 {
        sequenceNumber &+= 1
        return sequenceNumber
    }

    /// The event just begun is postponed, not processed: the next event takes its number.
    @inlinable
    mutating func withdrawNumber() {
        sequenceNumber &-= 1
    }

    /// What a state timeout, whose duration `origin` carries, triggers.
    @usableFromInline
    func timeoutLookup(
        _ origin: EventOrigin, in context: PredicateContext, of storage: Storage, data: Definition.Data
    ) -> LookupResult {
        guard let duration = origin.timeout, let eventID = storage.timers.timeoutID(duration) else {
            return .unhandled(UnhandledReason(.unknownEvent))
        }
        return storage.table.lookup(state: stateID, eventID: eventID, event: nil, predicates: context, data: data)
    }

    /// What a commit requires.
    @usableFromInline typealias Commit = StateCommit
    /// What becomes of the timers when the machine enters a state.
    @usableFromInline typealias TimerChange = ActorFSM.TimerChange

    /// The transition in progress enters the state with id `target`.
    @inlinable
    mutating func commit(_ target: Int32, in storage: Storage) -> Commit {
        let changed = target != stateID
        stateID = target
        offTableState = nil
        guard storage.timers.hasTimedStates && (changed || storage.actions.runsEntryAndExit) else {
            return Commit(stateChanged: changed, timers: .keep)
        }
        return Commit(stateChanged: changed, timers: enterTimedState(target, of: storage))
    }

    /// Enters a state of a schema with timers: a new epoch, so that the old state's timer events
    /// are dropped, and the new state's timers armed if the machine still takes events.
    @inlinable
    mutating func enterTimedState(_ target: Int32, of storage: Storage) -> TimerChange {
        let hasTasks = !storage.timers.stateTasks[Int(target)].isEmpty
        epoch &+= 1
        guard lifecycle.takesTimerEvents else {
            tasksPending = false
            return .cancel
        }
        tasksPending = hasTasks
        return .rearm(epoch: epoch)
    }

    /// An action of the transition in progress threw `failure`: what the failure policy
    /// requires (nothing for `.resume`).
    @usableFromInline
    mutating func failed(_ failure: any Error, policy: FailurePolicy<State>, in storage: Storage) -> Effect {
        switch policy.code {
        case .resume:
            return .none
        case .stop:
            return stop(.failed(failure))
        case .enter(let errorState):
            if let id = storage.table.stateIDs[errorState] { return .enter(commit(id, in: storage)) }
            epoch &+= 1
            tasksPending = false
            stateID = -1
            offTableState = errorState
            return .enterOffTable
        }
    }

    /// The tasks of the state just entered, which start once the transition has completed.
    @usableFromInline
    struct TaskStart: Equatable {
        /// The state whose tasks to start.
        @usableFromInline let stateID: Int32
        /// The epoch their results carry.
        @usableFromInline let epoch: UInt64
    }

    /// The transition into the current state has completed: its tasks start now, if it has any
    /// and the machine still takes events.
    @usableFromInline
    mutating func takePendingTasks() -> TaskStart? {
        guard tasksPending else { return nil }
        // A paused machine starts them once it is resumed.
        tasksHeldByPause = lifecycle.isPaused
        if tasksHeldByPause { return nil }
        tasksPending = false
        guard lifecycle.isRunning, stateID >= 0 else { return nil }
        return TaskStart(stateID: stateID, epoch: epoch)
    }

    /// The initial state's timers are about to start, in a task that `init` started. They do not
    /// if the machine has left that state, or stopped taking events, meanwhile.
    ///
    /// - Returns: whether to arm them; its tasks are then pending.
    @usableFromInline
    mutating func armInitialState() -> Bool {
        guard lifecycle.takesTimerEvents, epoch == 1, stateID >= 0 else { return false }
        tasksPending = true
        return true
    }

    // MARK: - Queued events

    /// A queued event's turn has come; `timerEpoch` is the epoch of the state entry a timer
    /// event belongs to, 0 for any other event.
    @inlinable
    mutating func turn(ofEventFrom timerEpoch: UInt64) -> Turn {
        if !lifecycle.isProcessing { return lifecycle.isPaused ? .pause : .stop }
        return timerEpoch != 0 && timerEpoch != epoch ? .dropStale : .process
    }

    /// An event will not be processed, since the machine has stopped.
    @usableFromInline
    mutating func discard(eventFrom timerEpoch: UInt64) -> Discard {
        if timerEpoch != 0 && timerEpoch != epoch { return .dropStale }
        sequenceNumber &+= 1
        return .recordStopped(sequenceNumber)
    }

    /// Whether a timer event armed in the state entry `timerEpoch` may join the inbox: the
    /// machine still takes events and has not left that state.
    @inlinable
    mutating func admitsTimerEvent(from timerEpoch: UInt64) -> Bool {
        lifecycle.takesTimerEvents && timerEpoch == epoch
    }

    // MARK: - Lifecycle and intake

    /// What the machine must do after an input of its lifecycle or its failure policy.
    @usableFromInline typealias Effect = MachineEffect<Waiter>

    /// `shutdown()` was called: the machine stops taking events, and ends once it has processed
    /// those queued. Afterwards ``isShuttingDown`` says whether the caller waits for that end.
    @inlinable
    mutating func shutDown() -> Effect {
        // A paused machine stops its queue unprocessed; the transition in progress completes.
        if lifecycle.isPaused {
            guard case .closeInbox = stop(.shutDown) else { return .none }
            return .closeInbox(stopping: true, cancelling: false)
        }
        return lifecycle.shutDown() == .closeInbox ? .closeInbox(stopping: false, cancelling: false) : .none
    }

    /// Whether the machine is processing its queued events before it ends.
    @inlinable var isShuttingDown: Bool { mutating get { lifecycle.isShuttingDown } }

    /// The machine must stop, for `reason`.
    @inlinable
    mutating func stop(_ reason: MachineTermination) -> Effect {
        guard lifecycle.stop(reason) == .closeInboxAndCancel else { return .none }
        tasksPending = false
        return .closeInbox(stopping: true, cancelling: true)
    }

    /// `pause()` was called; `false` if the machine is shutting down or stopping.
    @inlinable
    mutating func pause() -> Bool { lifecycle.pause() }

    /// `resume()` was called; `nil` if the machine was not paused, else whether the pause held
    /// back the current state's tasks (a transition in progress starts its own as it completes).
    @inlinable
    mutating func resume() -> Bool? {
        guard lifecycle.resume() else { return nil }
        defer { tasksHeldByPause = false }
        return tasksHeldByPause
    }

    /// The actor closed the inbox, after ``finish()`` or ``stop(_:)``; `idle` says whether
    /// nothing was queued or processing (then the inbox now takes nothing at all).
    @inlinable
    mutating func inboxClosed(idle: Bool) -> Effect {
        guard idle else { return .none }
        return ended(lifecycle.inboxClosedIdle())
    }

    /// Nothing owns processing any more: a machine shutting down has processed everything and
    /// stops as finished; a stopping one ends.
    @inlinable
    mutating func processingEnded() -> Effect {
        switch lifecycle.processingEnded() {
        case .stopShutDown: stop(.shutDown)
        case let action: ended(action)
        }
    }

    /// A caller of `finish()` or `run()` waits for the end; `false` if it must not wait.
    @inlinable
    mutating func awaitEnd(_ waiter: Waiter) -> Bool { lifecycle.awaitEnd(waiter) }
}
