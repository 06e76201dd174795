/// Receives what machines do as it happens, for logs, metrics and traces, without the package
/// depending on any of them.
///
/// Set one in ``MachineConfiguration/instrument`` (a supervisor passes its machine
/// configuration's instrument to every machine, and reports restarts to it). An instrument is a
/// class, shared by every machine it observes. Every requirement has a default that does
/// nothing, so an instrument implements only what it uses:
///
/// ```swift
/// final class FailureLog: Instrument {
///     func actionFailed<D>(_ record: TransitionRecord<D>, error: any Error) {
///         print("\(record.machineID): \(error)")
///     }
/// }
/// let configuration = MachineConfiguration<OrderState>(instrument: FailureLog())
/// ```
///
/// The hooks are called synchronously, on the machine's executor or the caller's thread, in the
/// order things happen to one machine, with one exception: an event handed over from another
/// thread may be processed, and its `eventProcessed` called, before its `eventAccepted`. Hooks
/// about different machines may run concurrently. They must return quickly, must not wait for a
/// machine, and must not call a supervisor (`machineStarted` runs under its lock). The package
/// itself logs nothing. <doc:Observability> has the adapters to swift-log, swift-metrics
/// and swift-distributed-tracing.
public protocol Instrument: AnyObject, Sendable {
    /// A machine was made: by `Machine.init`, or by a supervisor's `spawn` or restart.
    func machineStarted<ID: Hashable & Sendable>(_ id: ID)

    /// A machine ended: `finish()` drained it, `stop()` stopped it, or a failure did.
    func machineEnded<ID: Hashable & Sendable>(_ id: ID, termination: MachineTermination)

    /// A supervisor replaced the failed machine `id` with a new one.
    func machineRestarted<ID: Hashable & Sendable>(_ id: ID, after error: any Error)

    /// A durable supervisor could not restore machine `id`, whose write had failed, because its
    /// store still fails: it asks again after `delay`; `nil` if it gives up, for an error that
    /// asking again cannot mend (another process holds the machine, or its entry is damaged).
    func storeUnavailable<ID: Hashable & Sendable>(for id: ID, error: any Error, retryingIn delay: Duration?)

    /// A durable supervisor restored machine `id` from its store, which had failed one of the
    /// machine's writes and works again.
    func machineRestoredFromStore<ID: Hashable & Sendable>(_ id: ID)

    /// A durable supervisor parked machine `id`: its store read but refused its writes after
    /// `restores` restores in a row (each ran its interrupted action again). It waits for the
    /// next write the store accepts, or an explicit resumption.
    func machineParked<ID: Hashable & Sendable>(_ id: ID, afterRestores restores: Int)

    /// A machine accepted an event. `queueDepth` is how many events wait in its inbox, this one
    /// included; 0 when `send` found the machine idle and runs the event at once.
    func eventAccepted<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin, queueDepth: Int)

    /// A machine or supervisor refused an event: `error` names the machine and says why (`.inboxFull`, `.stopped`,
    /// `.cancelled`, `.reentrantSend`, `.unknownMachine`). A refused event gets no record. An
    /// accepted `send` or `post` that its cancelled sender withdrew, or that waited for room when
    /// the machine stopped, is reported accepted, then refused.
    ///
    /// A follow-up refused because its machine is stopping is reported here too; the action that
    /// posted it fails if it rethrows the error, and ``actionFailed(_:error:)`` follows.
    func eventRefused<Definition: MachineDefinition>(_ error: MachineError<Definition>, origin: EventOrigin)

    /// A state timeout or a state task's result was dropped without a record: the machine had
    /// left the state it belonged to.
    func timerEventDropped<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin)

    /// A state timeout or a scheduled event reached its deadline `lateness` late (on the machine's
    /// clock), and its event joins the inbox.
    func timerFired<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin, lateness: Duration)

    /// An accepted event has its record: it was processed, or stopped unprocessed. Its
    /// ``TransitionRecord/latency`` runs from acceptance to completion.
    func eventProcessed<Definition: MachineDefinition>(_ record: TransitionRecord<Definition>)

    /// An action threw; ``eventProcessed(_:)`` follows with the same record, and the failure
    /// policy applies.
    func actionFailed<Definition: MachineDefinition>(_ record: TransitionRecord<Definition>, error: any Error)

    /// Captures the calling task's trace (its task-local context, such as a
    /// swift-distributed-tracing `ServiceContext`) when a machine queues an event, so that the
    /// event's processing (its lookup and conditions, its actions, and ``eventProcessed(_:)``)
    /// runs inside it even though the machine's processing task, not the caller, runs it.
    /// Called only for events that wait in the inbox: a `send` that finds the machine idle
    /// processes the event in the caller's task, inside its trace.
    ///
    /// - Returns: an object that holds the trace, or `nil` (the default) for none.
    func captureTrace() -> (any AnyObject & Sendable)?

    /// Runs `body` inside `trace`, synchronously. The runtime restores a queued event's trace
    /// with the asynchronous form; this one stays for instruments that call it themselves
    /// (a fan-out nests its instruments' traces with both).
    func withTrace<T>(_ trace: any AnyObject & Sendable, _ body: () throws -> T) rethrows -> T

    /// Runs `body`, the processing of an event queued with `trace`, inside it, on the caller's
    /// executor.
    nonisolated(nonsending) func withTrace<T>(
        _ trace: any AnyObject & Sendable, _ body: nonisolated(nonsending) () async throws -> T
    ) async rethrows -> T

    /// The former name of ``captureTrace()``, which calls it unless an instrument implements
    /// ``captureTrace()``; it goes in the next release. (Not marked deprecated: a protocol
    /// requirement that forwards cannot be, without a warning for every instrument.)
    func captureContext() -> (any AnyObject & Sendable)?

    /// The former name of the synchronous `withTrace(_:_:)`, which calls it unless an
    /// instrument implements that; it goes in the next release.
    func withContext<T>(_ context: any AnyObject & Sendable, _ body: () throws -> T) rethrows -> T

    /// The former name of the asynchronous `withTrace(_:_:)`, which calls it unless an
    /// instrument implements that; it goes in the next release.
    nonisolated(nonsending) func withContext<T>(
        _ context: any AnyObject & Sendable, _ body: nonisolated(nonsending) () async throws -> T
    ) async rethrows -> T
}

extension Instrument {
    /// Does nothing.
    public func machineStarted<ID: Hashable & Sendable>(_ id: ID) {}
    /// Does nothing.
    public func machineEnded<ID: Hashable & Sendable>(_ id: ID, termination: MachineTermination) {}
    /// Does nothing.
    public func machineRestarted<ID: Hashable & Sendable>(_ id: ID, after error: any Error) {}
    /// Does nothing.
    public func storeUnavailable<ID: Hashable & Sendable>(for id: ID, error: any Error, retryingIn delay: Duration?) {}
    /// Does nothing.
    public func machineRestoredFromStore<ID: Hashable & Sendable>(_ id: ID) {}
    /// Does nothing.
    public func machineParked<ID: Hashable & Sendable>(_ id: ID, afterRestores restores: Int) {}
    /// Does nothing.
    public func eventAccepted<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin, queueDepth: Int) {}
    /// Does nothing.
    public func eventRefused<Definition: MachineDefinition>(_ error: MachineError<Definition>, origin: EventOrigin) {}
    /// Does nothing.
    public func timerEventDropped<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin) {}
    /// Does nothing.
    public func timerFired<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin, lateness: Duration) {}
    /// Does nothing.
    public func eventProcessed<Definition: MachineDefinition>(_ record: TransitionRecord<Definition>) {}
    /// Does nothing.
    public func actionFailed<Definition: MachineDefinition>(_ record: TransitionRecord<Definition>, error: any Error) {}
    /// Captures what the former ``captureContext()`` captures: nothing, unless the instrument
    /// implements that.
    public func captureTrace() -> (any AnyObject & Sendable)? { captureContext() }
    /// Runs `body` through the former synchronous `withContext(_:_:)`: as it is, unless the
    /// instrument implements that.
    public func withTrace<T>(_ trace: any AnyObject & Sendable, _ body: () throws -> T) rethrows -> T {
        try withContext(trace, body)
    }
    /// Runs `body` through the former asynchronous `withContext(_:_:)`: as it is, unless the
    /// instrument implements that.
    public nonisolated(nonsending) func withTrace<T>(
        _ trace: any AnyObject & Sendable, _ body: nonisolated(nonsending) () async throws -> T
    ) async rethrows -> T {
        try await withContext(trace, body)
    }
    /// Captures nothing.
    public func captureContext() -> (any AnyObject & Sendable)? { nil }
    /// Runs `body` as it is.
    public func withContext<T>(_ context: any AnyObject & Sendable, _ body: () throws -> T) rethrows -> T {
        try body()
    }
    /// Runs `body` as it is.
    public nonisolated(nonsending) func withContext<T>(
        _ context: any AnyObject & Sendable, _ body: nonisolated(nonsending) () async throws -> T
    ) async rethrows -> T {
        try await body()
    }
}
