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
/// entry actions of the new state; then the state and the data are committed together. ``state``
/// and ``data`` read the source state and the data from before the transition until then, and
/// the target state with the transition's data after it.
///
/// See <doc:Concurrency> for failures, back-pressure, cancellation and the lifecycle.
public final actor Machine<Definition: MachineDefinition> {
    /// The definition's state type.
    public typealias State = Definition.State
    /// The definition's event type.
    public typealias Event = Definition.Event
    /// The definition's machine id type.
    public typealias ID = Definition.ID
    /// The record type this machine publishes.
    public typealias Record = TransitionRecord<Definition>
    @usableFromInline package typealias Entry = InboxEntry<Definition>
    /// The machine's core, whose callers waiting for its end are ``EndWaiter``s.
    @usableFromInline package typealias Core = MachineCore<Definition, EndWaiter>

    /// The machine's id.
    public nonisolated let id: ID
    /// The schema it runs.
    public nonisolated let schema: Schema<Definition>
    @usableFromInline nonisolated let settings: MachineSettings<State>
    @usableFromInline nonisolated let link: ParentLink<Definition>?
    @usableFromInline nonisolated package let generation: UInt64
    /// The data the machine was made with, which a supervisor's restart starts from again.
    public nonisolated let initialData: Definition.Data

    // The properties read or written for every event skip the run-time exclusivity check (a
    // call into the runtime per access). They are safe without it: they are
    // actor-isolated, so only the actor's serial executor touches them, and none is ever passed
    // `inout` across a call that could reach it again (the compiler's static check still applies).
    /// The state, the sequence number, the timer epoch and the lifecycle, which decide what every
    /// input does.
    @exclusivity(unchecked) @usableFromInline var core: Core
    /// The subscribers to records and states, and when they are woken.
    @exclusivity(unchecked) @usableFromInline var publishing = Publishing<Definition>()
    // The two fields whose layout depends on the machine's types stay apart: in a struct of
    // their own, code not specialized for those types (a supervisor's spawn, a machine's
    // deinit) would look up the struct's metadata for every machine it makes or frees.
    /// The data as the last completed transition left it: what ``data`` reads.
    @exclusivity(unchecked) @usableFromInline var committedData: Definition.Data
    /// The source state of the asynchronous transition in progress, which ``state`` shows until
    /// the transition completes, when it changes together with ``data``; `nil` otherwise.
    @exclusivity(unchecked) @usableFromInline var stateShownDuringActions: State?
    /// The task of the asynchronous transition in progress, and the cell actions change the data through.
    @exclusivity(unchecked) @usableFromInline var running = RunningTransition<Definition>()
    /// What the machine keeps only once a feature needs it; see ``MachineExtras``.
    @exclusivity(unchecked) @usableFromInline var extras: MachineExtras<Definition>?
    /// The current state's timeouts and tasks, for schemas that have any.
    @exclusivity(unchecked) @usableFromInline var timers: StateTimers?
    /// The events accepted and not yet started, and those posted with a delay, behind a lock:
    /// posts, follow-ups, scheduled events and withdrawals reach them from any thread, without a
    /// hop onto the actor. Declared last, after the fields the actor writes per event, so that a
    /// producer's lock turns share as few cache lines as possible with the draining thread's stores.
    @usableFromInline nonisolated let mailbox: FencedMutex<Mailbox<Definition>>
    /// Whether an action posted events to be processed next since the drain last looked: read
    /// after each event, so that the drain takes the lock only when there are some.
    @usableFromInline nonisolated let hasUpNext = Atomic<Bool>(false)
    /// What starts its drains in specialized code, if its definition's starter was made.
    @usableFromInline nonisolated let drainStarter: DrainStarter<Definition>?
    /// Where a durable machine writes its transitions; `nil` for a machine in memory only.
    @usableFromInline nonisolated package let journal: (any MachineJournaling<Definition>)?

    /// Creates a machine that owns `data`, in the schema's initial state or in `state`.
    ///
    /// ```swift
    /// let order = Machine(schema: orders, id: 1042, data: Purchase(amount: 99, attempts: 0))
    /// ```
    ///
    /// - Parameters:
    ///   - schema: the table to run.
    ///   - id: the machine's id, carried by its records.
    ///   - data: the machine's data, which its actions read and change (see ``data``).
    ///   - state: where to start; the schema's initial state by default.
    ///   - configuration: inbox capacity, failure policy and standing predicates.
    @inlinable
    public init(
        schema: Schema<Definition>, id: ID, data: Definition.Data, startingIn state: State? = nil,
        configuration: MachineConfiguration<State> = MachineConfiguration()
    ) {
        DrainStarters.register(Definition.self)
        self.init(schema: schema, id: id, data: data, startingIn: state,
                  settings: MachineSettings.of(configuration, for: schema.storage),
                  link: nil, generation: 0)
    }

    /// Creates a machine in the schema's initial state, or in `state`, for a definition without
    /// data.
    ///
    /// - Parameters:
    ///   - schema: the table to run.
    ///   - id: the machine's id, carried by its records.
    ///   - state: where to start; the schema's initial state by default.
    ///   - configuration: inbox capacity, failure policy and standing predicates.
    @inlinable
    public init(
        schema: Schema<Definition>, id: ID, startingIn state: State? = nil,
        configuration: MachineConfiguration<State> = MachineConfiguration()
    ) where Definition.Data == Void {
        self.init(schema: schema, id: id, data: (), startingIn: state, configuration: configuration)
    }

    /// Creates a machine; a durable one reports to `journal`, and resumes from its
    /// ``MachineJournaling/resumption`` if it has one.
    @inlinable
    package init(
        schema: Schema<Definition>, id: ID, data: Definition.Data, startingIn state: State?, settings: MachineSettings<State>,
        link: ParentLink<Definition>?, generation: UInt64, journal: (any MachineJournaling<Definition>)? = nil
    ) {
        // A machine in memory never touches a value of the durability's generic types here:
        // code not specialized for the machine's types (a supervisor's spawn) would look up
        // their metadata for every machine.
        let resuming = journal?.isResuming == true
        self.id = id
        self.initialData = data
        self.committedData = resuming ? journal!.resumedData() : data
        self.schema = schema
        self.settings = settings
        self.link = link
        self.generation = generation
        self.journal = journal
        // A supervisor's machines share the starter its link looked up; a machine alone looks it up.
        self.drainStarter = link?.drainStarter ?? DrainStarters.starter(for: Definition.self)
        self.mailbox = FencedMutex(Mailbox(capacity: settings.configuration.inboxCapacity))
        let start = resuming ? journal!.resumedState() : state ?? schema.initialState
        let storage = schema.storage
        var core = Core(startingIn: start, of: storage, sequenceNumber: resuming ? journal!.resumedSequenceNumber : 0)
        // An operator paused it before it was stored: it comes back paused.
        let restoredPaused = resuming && journal!.resumption?.isPaused == true
        if restoredPaused {
            _ = core.pause()
            extras = .restoredPaused()
        }
        self.core = core
        settings.instrument?.machineStarted(id)
        var arming: [(Alarm, Duration)]?
        if storage.timers.hasTimedStates && core.stateID >= 0 {
            // The deadlines are fixed now; the tasks that wait for them start on the actor.
            let clock = settings.configuration.clock
            let timeouts = storage.timers.stateTimeouts[Int(core.stateID)]
            let alarms = journal?.alarms(for: timeouts, clock: clock)
                ?? timeouts.map { (Alarm(after: $0.duration, on: clock), $0.duration) }
            timers = StateTimers()
            if !alarms.isEmpty || !storage.timers.stateTasks[Int(core.stateID)].isEmpty { arming = alarms }
        }
        if let journal {
            // A new durable machine's creation entry (with the deadlines just fixed) is its first
            // write: it is handed to the store before anything can run on the actor. A restored
            // machine's own events (the interrupted one, those it posted to itself) are queued
            // before anything can run on the actor: a timer that fell due while the process was
            // down joins the inbox behind them, as it would have in the live machine.
            if restoredPaused { mailbox.withLock { $0.inbox.pause() } }
            if resuming { resume(journal) } else { journal.created(in: start, stateID: core.stateID, data: data) }
        }
        if let arming {
            if let drainStarter { drainStarter.startInitialState(self, arming) } else { Task { await self.armInitialState(arming) } }
        }
    }

    /// How it runs.
    public nonisolated var configuration: MachineConfiguration<State> { settings.configuration }

    /// The current state: the source state of a transition until the transition completes,
    /// when it changes together with ``data``.
    ///
    /// An asynchronous transition's actions suspend, and others can read the machine meanwhile:
    /// they read the source state and the data from before the transition until its last entry
    /// action returns, then the target state and the data its actions wrote.
    @inlinable
    public var state: State { stateShownDuringActions ?? currentState }

    /// The state the core is in: the target of a transition from its commit on, between its
    /// transition actions and its entry actions, before ``state`` shows it.
    @inlinable
    var currentState: State {
        // Read field by field: a method call with an argument on the core would copy it whole.
        core.offTableState ?? schema.storage.states[Int(core.stateID)]
    }

    /// Whether the machine has stopped: it takes no more events.
    public var isStopped: Bool { core.hasStopped }

    /// Whether the machine takes new events: `false` while it is paused, and once `shutdown()`
    /// or `stop()` was called.
    public var isAcceptingEvents: Bool { core.isAcceptingEvents }

    /// How many accepted events wait in the inbox. While the machine works through a batch of
    /// queued events, the batch's events count until the batch is done.
    public nonisolated var queuedCount: Int { mailbox.withLock { $0.inbox.count } }
}
