/// What an action is told about the transition it runs in.
///
/// ```swift
/// when(.coin) | then(.unlocked) | { (context: TransitionContext<Turnstile>) in
///     print("\(context.eventDescription) moved \(context.source) to \(context.target)")
/// }
/// ```
///
/// The context names the machine by its id, typed by the definition, and lets the action post
/// follow-up events to it:
///
/// ```swift
/// when(.paid) | then(.paid) | { (context: TransitionContext<Orders>) in
///     try await warehouse.ship(order: context.id)
/// }
/// ```
public struct TransitionContext<Definition: MachineDefinition>: Sendable {
    /// The definition's state type.
    public typealias State = Definition.State
    /// The definition's event type.
    public typealias Event = Definition.Event
    /// The definition's machine id type.
    public typealias ID = Definition.ID
    /// The event being processed, with its payload; `nil` when a state timeout fired (see
    /// ``after(_:fileID:line:)``).
    public let event: Event?
    /// The duration of the timeout that fired, or zero: a trivial value rather than an optional,
    /// which keeps the context's destruction inlined on the hot path.
    @usableFromInline let timeoutDuration: Duration
    /// The state the machine was in when the event arrived.
    public let source: State
    /// The state the machine is in once the transition completes.
    public let target: State
    /// The predicates the event arrived with.
    public let predicates: PredicateContext
    /// The id of the machine running the action.
    public let id: ID
    /// The number of the event being processed: the machine's sequence number, as its record
    /// will carry. A durable machine that processes an event again after a crash gives it the
    /// same number.
    public let sequenceNumber: UInt64
    /// Which attempt of the action this is, from 1: more than 1 when a ``RetryPolicy`` runs
    /// the action again after it threw (see ``retry(_:unless:_:)``). Every attempt has the same
    /// ``sequenceNumber``, so the same ``idempotencyKey``.
    public internal(set) var attempt = 1
    @usableFromInline let runtime: (any ActionRuntime)?
    @usableFromInline let cell: DataCell<Definition.Data>

    @usableFromInline
    package init(event: Event?, source: State, target: State, predicates: PredicateContext, id: ID, data: Definition.Data) {
        let turn = EventTurn<Definition>(event, predicates: predicates, origin: .send, acceptedAt: Timestamp(nanoseconds: 0),
                                         number: 0, source: source)
        self.init(turn, target: target, id: id, runtime: nil, cell: DataCell(data))
    }

    package init(event: Event?, source: State, target: State, predicates: PredicateContext, id: ID) where Definition.Data == Void {
        self.init(event: event, source: source, target: target, predicates: predicates, id: id, data: ())
    }

    /// What the actions of `turn`'s transition to `target` are told, on the machine `id` whose
    /// follow-ups go to `runtime` and whose data is in `cell`. Inlinable, so that it is
    /// specialized for the machine's types: called generically, it looks up the generic
    /// metadata of its parts for every event.
    @inlinable
    init(
        _ turn: borrowing EventTurn<Definition>, target: State, id: ID, runtime: (any ActionRuntime)?,
        cell: DataCell<Definition.Data>
    ) {
        self.event = turn.event
        self.timeoutDuration = turn.event == nil ? turn.origin.timeout ?? .zero : .zero
        self.source = turn.source
        self.target = target
        self.predicates = turn.predicates
        self.id = id
        self.sequenceNumber = turn.number
        self.runtime = runtime
        self.cell = cell
    }

    /// A key for calls to outside services that must take effect once: the machine's id and the
    /// event's sequence number, `order-1042#7`. An action that a crash interrupted runs again on
    /// recovery with the same key (see the Durability article of `ActorFSMDurability`), so a service that remembers the
    /// keys it has seen (as payment APIs do) applies the call once.
    ///
    /// ```swift
    /// when(.submit) | then(.paymentPending) | { context in
    ///     try await payments.charge(order: context.id, idempotencyKey: context.idempotencyKey)
    /// }
    /// ```
    public var idempotencyKey: String { "\(id)#\(sequenceNumber)" }

    /// The state timeout that fired, when ``event`` is `nil`.
    public var timeout: Timeout? { event == nil && timeoutDuration > .zero ? Timeout(timeoutDuration) : nil }

    /// The event as text, or the timeout's: `coin`, `after 30s`.
    public var eventDescription: String {
        event.map { "\($0)" } ?? timeout?.description ?? "no event"
    }

    /// The machine's data, as the transition's actions have left it so far.
    ///
    /// Actions change it in place, `context.data.attempts += 1`, even across `await` in an
    /// asynchronous action: the machine runs one transition at a time, so no other event sees
    /// the data until the transition completes. Then the machine keeps the new value; if an
    /// action throws, it puts back the value from before the transition.
    ///
    /// ```swift
    /// when(.declined) | then(.waiting) | { context in context.data.attempts += 1 }
    /// ```
    ///
    /// Each read and each write is atomic on its own; change several fields at once, or read
    /// and write from child tasks, with ``updateData(_:)``. Keep the context within the action
    /// and its child tasks: what a task that outlives the action writes afterwards is lost.
    @inlinable
    public var data: Definition.Data {
        get { cell.value }
        nonmutating set { cell.value = newValue }
        nonmutating _modify { yield &cell.value }
    }

    /// Changes the machine's data in one step: no child task of the action reads or writes it
    /// in the middle, and if `body` throws, the data stays as it was. Prefer it for large values
    /// such as collections: `context.data.items.append(x)` copies the whole value out and back.
    ///
    /// ```swift
    /// context.updateData { $0.attempts += 1; $0.lastError = nil }
    /// ```
    ///
    /// - Returns: what `body` returns.
    @inlinable
    public func updateData<Result>(_ body: (inout Definition.Data) throws -> Result) rethrows -> Result {
        try cell.update(body)
    }

    /// The event, for actions declared to take it: the schema ensures a timeout never runs them.
    @usableFromInline
    func requireEvent() throws(MissingEventError) -> Event {
        guard let event else { throw MissingEventError() }
        return event
    }

    /// Posts a follow-up event to the machine running the action, or refuses it at once.
    ///
    /// The event is queued at once, behind the events waiting at that moment, and processed
    /// after the current transition completes, with origin ``EventOrigin/followUp``. A machine
    /// shutting down still takes follow-ups. An action cannot wait for room that only its own
    /// completion would make, so there is no waiting form.
    ///
    /// - Throws: ``MachineError`` `.inboxFull` if the inbox is at capacity, `.stopped` if the
    ///   machine has stopped (or no machine runs the action). Rethrown by the action, the error
    ///   fails it and the machine's failure policy applies, so no follow-up is lost unseen.
    public func tryPost(_ event: Event, predicates: PredicateContext? = nil) throws(MachineError<Definition>) {
        guard let runtime else { throw MachineError(.stopped, machineID: id) }
        if let refusal = runtime.postFollowUp(event, predicates: predicates) { throw MachineError(refusal, machineID: id) }
    }

    /// Posts an event to be processed next: right after the transition in progress, before
    /// every event already queued, so that a workflow chains its steps with no other event in
    /// between (gen_statem's `next_event`, XState's `raise`).
    ///
    /// ```swift
    /// define(.charging, onEntry: Actions { context in try context.postNext(.authorize) }) {
    ///     when(.authorize) | then(.authorizing)
    /// }
    /// ```
    ///
    /// Events posted this way from one transition are processed in the order posted, and count
    /// against no capacity. A machine shutting down still takes them.
    ///
    /// - Throws: ``MachineError`` `.stopped` if the machine has stopped (or no machine runs the
    ///   action).
    public func postNext(_ event: Event, predicates: PredicateContext? = nil) throws(MachineError<Definition>) {
        guard let runtime else { throw MachineError(.stopped, machineID: id) }
        if let refusal = runtime.postNext(event, predicates: predicates) { throw MachineError(refusal, machineID: id) }
    }

    /// Posts `event` to the machine running the action once `delay` has passed on the machine's
    /// clock (see ``MachineConfiguration/clock``). It never waits: the event joins the inbox when
    /// its time comes, even if the inbox is full then.
    ///
    /// The event then joins the inbox with origin ``EventOrigin/scheduled``. Cancel it with the
    /// returned handle; stopping the machine cancels it too.
    ///
    /// ```swift
    /// when(.declined) | then(.waiting) | { context in try context.schedule(.retry, after: .seconds(5)) }
    /// ```
    ///
    /// - Throws: ``MachineError`` `.stopped` if the machine no longer takes events (or no
    ///   machine runs the action).
    @discardableResult
    public func schedule(_ event: Event, after delay: Duration, predicates: PredicateContext? = nil) throws(MachineError<Definition>) -> ScheduledEvent {
        guard let runtime else { throw MachineError(.stopped, machineID: id) }
        guard let scheduled = runtime.scheduleFromAction(event, after: delay, predicates: predicates) else {
            throw MachineError(runtime.refusedSchedule(), machineID: id)
        }
        return scheduled
    }
}

/// Thrown by an action that takes the event when there is none; schemas refuse such actions on
/// transitions a timeout triggers, so only hand-made contexts can meet it.
@usableFromInline
struct MissingEventError: Error, CustomStringConvertible {
    @usableFromInline init() {}

    @usableFromInline var description: String { "the action takes the event, but a state timeout fired and there is none" }
}
