/// What a machine tells the layer that keeps it durable: the runtime's one seam with
/// `ActorFSMDurability`, which conforms its journal to it. A machine in memory has none, and
/// checks only that.
///
/// The machine calls it on its actor, except for ``register(_:_:_:)``, ``registerScheduled(_:_:after:fromAction:)``,
/// ``unregister(_:)`` and ``cancelled(_:)``, which actions reach from their own tasks.
@usableFromInline
package protocol MachineJournaling<Definition>: AnyObject, Sendable {
    /// The definition of the machine the journal keeps.
    associatedtype Definition: MachineDefinition

    // MARK: - Starting

    /// What the machine resumes from, if the store held it; `nil` for a new machine.
    var resumption: Resumption<Definition>? { get }

    /// Whether the machine resumes from what the store held. The three reads below answer for
    /// such a machine only; a machine's `init` calls them rather than reading ``resumption``,
    /// so that a machine in memory, made by code not specialized for its types, never looks up
    /// that type's metadata.
    var isResuming: Bool { get }

    /// The state to resume in; call only if ``isResuming``.
    func resumedState() -> Definition.State

    /// The data to resume with; call only if ``isResuming``.
    func resumedData() -> Definition.Data

    /// The number of the newest completed event; 0 for a new machine.
    var resumedSequenceNumber: UInt64 { get }

    /// The alarms of the first state's `timeouts`: a new machine's run from now; a restored
    /// one's keep their stored deadlines, without those that already fired.
    func alarms(
        for timeouts: [TimerTable<Definition>.StateTimeout], clock: any Clock<Duration>
    ) -> [(Alarm, Duration)]

    /// A new machine starts in `state` with `data`: its first entry.
    func created(in state: Definition.State, stateID: Int32, data: Definition.Data)

    // MARK: - Each event

    /// An event whose transition has asynchronous actions is about to run them: waits until its
    /// intent is durable.
    ///
    /// - Returns: the store's error, which fails the transition before any action runs.
    func intent(
        _ event: Definition.Event?, _ predicates: PredicateContext, _ origin: EventOrigin, number: UInt64,
        in state: Definition.State, stateID: Int32, data: Definition.Data
    ) async -> (any Error)?

    /// The event `record` names has completed, leaving the machine in `state` with `data`.
    func completed(
        _ record: TransitionRecord<Definition>, in state: Definition.State, stateID: Int32, data: Definition.Data
    )

    /// The retried action `action` (from 0, among the transition's retried actions) of event
    /// `number` threw and is tried again, as `attempt`, after `delay`: the intent records it,
    /// so that a machine restored meanwhile goes on with that attempt of that action when the
    /// delay is over (see ``resumedRetry(for:action:)``).
    ///
    /// - Returns: the write's index (see ``waitForWrite(_:)``), 0 if nothing was written.
    func retrying(number: UInt64, action: Int, attempt: Int, after delay: Duration) -> UInt64

    /// The attempt the retried action `action` of event `number` resumes at, with the rest of
    /// its wait, if the machine was restored from an intent that recorded a retry of that
    /// action; answered once.
    func resumedRetry(for number: UInt64, action: Int) -> (attempt: Int, remaining: Duration)?

    /// A retried action of event `number` succeeded after retries: the intent no longer
    /// records a wait.
    func retriesEnded(number: UInt64)

    /// The machine writes nothing more: its transition in progress was interrupted, so the
    /// intent stays the newest entry.
    func stopWriting()

    /// Whether nothing more is written: a write failed, or the machine's successor took over.
    var isClosed: Bool { get }

    /// What a sender waits for.
    var acknowledgement: JournalAcknowledgement { get }

    /// The index of the newest write.
    var newestWrite: UInt64 { get }

    /// Waits until write number `index` is durable; returns the store's error if it failed.
    func waitForWrite(_ index: UInt64) async -> (any Error)?

    /// Waits until at most `window` writes wait for the store; returns the store's error if a
    /// write failed.
    func waitForRoom(window: Int) async -> (any Error)?

    // MARK: - Events the machine posts to itself

    /// An action posts `event` to the machine: it is kept with the machine's entries until an
    /// entry records it.
    ///
    /// - Returns: its ticket, or 0 if it cannot be kept (the event is then not durable).
    func register(_ kind: SelfPost, _ event: Definition.Event, _ predicates: PredicateContext?) -> UInt64

    /// `event` is posted to the machine after `delay`, from an action or not.
    ///
    /// - Returns: its ticket, or 0 if it cannot be kept.
    func registerScheduled(
        _ event: Definition.Event, _ predicates: PredicateContext?, after delay: Duration, fromAction: Bool
    ) -> UInt64

    /// The inbox refused the self-posted event with `ticket`.
    func unregister(_ ticket: UInt64)

    /// The scheduled event with `ticket` was cancelled before delivery.
    func cancelled(_ ticket: UInt64)

    /// The event about to be processed is the self-posted one with `ticket`; 0: the event in
    /// progress was postponed.
    func processing(_ ticket: UInt64)

    // MARK: - Events delivered through the store

    /// The event about to be processed inline is the store's event `number` (another process
    /// sent it): the entry that records it marks it delivered.
    func consume(_ number: Int64)

    /// The store's event `number` waits in the inbox under `ticket`.
    func expect(_ number: Int64, ticket: UInt64)

    /// The event about to be processed from the inbox is the one under `ticket`.
    func processingDelivered(_ ticket: UInt64)

    /// The event under `ticket` was answered without being processed.
    func forgetDelivered(_ ticket: UInt64)

    /// The event waiting in the inbox under `ticket` is an operator's signal, given `reason`:
    /// the entries that record it (its intent and its completed entry) record the act. Kept
    /// until ``forgetDelivered(_:)``.
    func expectSignal(ticket: UInt64, reason: String)

    /// The store's event `number` is answered with `reply(record)`, given the record of the
    /// completed entry that records it: a store that delivers events writes the reply in that
    /// entry's commit. Kept until ``forgetAnswer(_:)``.
    func answer(_ number: Int64, with reply: @escaping @Sendable (TransitionRecord<Definition>) -> [UInt8])

    /// Forgets the answer of the store's event `number`, recorded or not.
    func forgetAnswer(_ number: Int64)

    // MARK: - Timers

    /// The machine entered a state with timeouts, whose deadlines run from now.
    func enteredTimedState()

    /// The machine's state timeouts were cancelled, or it entered a state without any.
    func cancelledTimeouts()

    // MARK: - Child machines

    /// Whether, since it last entered its state, the machine processed (or, restored, is about
    /// to process again) the end of the child machine in place `slot` among the state's tasks.
    func hasProcessedChildEnd(_ slot: Int) -> Bool

    /// The machine is leaving `state` (with id `stateID`) while its child in place `slot`,
    /// stored under `key`, has not ended: the child's cancellation is written with the
    /// machine's entries until ``childCancelled(_:)``.
    ///
    /// - Returns: the cancellation's ticket, 0 if it cannot be written.
    func cancellingChild(in state: Definition.State, stateID: Int32, slot: Int, key: String) -> UInt64

    /// The child had the cancellation under `ticket` (or cannot have it): it is written no more.
    func childCancelled(_ ticket: UInt64)

    /// The transition being completed entered a state whose durable children are stored under
    /// `keys`, by place: its entry, and the state's later ones, record them.
    func enteredChildren(_ keys: [(slot: Int, key: String)])

    // MARK: - Operators

    /// Whether the event a crash or a stop interrupted has yet to be processed again: no other
    /// entry is written before its own, so a paused machine still processes it first.
    var awaitsInterrupted: Bool { get }

    /// An operator acted on the machine, which has no event in progress: writes entry number
    /// `number`, which records `verb`, `reason` and the time with the machine's `state` and
    /// `data`, and what a restore makes of it: a pause brings the machine back paused; a cancel
    /// that `ends` the machine drops its timers, and no restore brings it back.
    ///
    /// - Returns: the write's index (see ``waitForWrite(_:)``), 0 if nothing was written.
    func operated(
        _ verb: OperatorVerb, reason: String, ends: Bool, number: UInt64, in state: Definition.State, stateID: Int32,
        data: Definition.Data
    ) -> UInt64
}

/// What a restored machine processes before any other event, and the scheduled events it arms
/// again. Its state, data and number come through ``MachineJournaling/resumedState()`` and its
/// siblings.
@usableFromInline package struct Resumption<Definition: MachineDefinition>: Sendable {
    /// Events to process first, in order: the interrupted event, then those posted next, then
    /// the follow-ups.
    package var requeued: [InboxEntry<Definition>]
    /// Scheduled events still to deliver, with their tickets and the time left.
    package var delayed: [Scheduled]
    /// Children the machine left before they had their cancelling event, to send it again.
    package var cancels: [ChildCancellation] = []
    /// Whether an operator paused the machine: it comes back paused.
    @usableFromInline package var isPaused = false

    /// A child's cancellation a restored machine sends again.
    package struct ChildCancellation: Sendable {
        /// The state the machine left, and the child's place among its tasks.
        package var state: Definition.State
        package var slot: Int
        /// The child's key in its store.
        package var key: String
        package var ticket: UInt64

        package init(state: Definition.State, slot: Int, key: String, ticket: UInt64) {
            (self.state, self.slot, self.key, self.ticket) = (state, slot, key, ticket)
        }
    }

    /// A scheduled event a restored machine arms again.
    package struct Scheduled: Sendable {
        package var event: Definition.Event
        package var predicates: PredicateContext?
        package var ticket: UInt64
        package var remaining: Duration

        package init(event: Definition.Event, predicates: PredicateContext?, ticket: UInt64, remaining: Duration) {
            self.event = event
            self.predicates = predicates
            self.ticket = ticket
            self.remaining = remaining
        }
    }

    package init(requeued: [InboxEntry<Definition>], delayed: [Scheduled]) {
        self.requeued = requeued
        self.delayed = delayed
    }
}

/// How an event an action posts to its own machine runs.
@usableFromInline package enum SelfPost: Sendable {
    /// After the events already queued.
    case followUp
    /// Before any other queued event.
    case next
}

/// What a durable machine's sender waits for.
@usableFromInline
package enum JournalAcknowledgement: Sendable {
    /// Until the event's entry is durable.
    case durable
    /// Until at most this many writes wait for the store.
    case window(Int)
}
