import ActorFSM

/// An instrument that passes every hook to several instruments, in order: logs, metrics and
/// traces from one configuration.
///
/// ```swift
/// let instrument = FanOutInstrument([LoggingInstrument(logger: logger), MetricsInstrument()])
/// let configuration = MachineConfiguration<OrderState>(instrument: instrument)
/// ```
///
/// Each instrument's captured trace is kept, and their `withTrace` calls nest in the same
/// order, the first outermost.
public final class FanOutInstrument: Instrument {
    /// The instruments, in the order they hear each hook.
    public let instruments: [any Instrument]

    /// Passes every hook to each of `instruments`, in order.
    public init(_ instruments: [any Instrument]) {
        self.instruments = instruments
    }

    /// The traces the instruments captured, one per instrument.
    final class Traces: Sendable {
        let traces: [(any AnyObject & Sendable)?]
        init(_ traces: [(any AnyObject & Sendable)?]) { self.traces = traces }
    }

    /// Passes the hook to each instrument, in order.
    public func machineStarted<ID: Hashable & Sendable>(_ id: ID) {
        for instrument in instruments { instrument.machineStarted(id) }
    }

    /// Passes the hook to each instrument, in order.
    public func machineEnded<ID: Hashable & Sendable>(_ id: ID, termination: MachineTermination) {
        for instrument in instruments { instrument.machineEnded(id, termination: termination) }
    }

    /// Passes the hook to each instrument, in order.
    public func machineRestarted<ID: Hashable & Sendable>(_ id: ID, after error: any Error) {
        for instrument in instruments { instrument.machineRestarted(id, after: error) }
    }

    /// Passes the hook to each instrument, in order.
    public func storeUnavailable<ID: Hashable & Sendable>(for id: ID, error: any Error, retryingIn delay: Duration?) {
        for instrument in instruments { instrument.storeUnavailable(for: id, error: error, retryingIn: delay) }
    }

    /// Passes the hook to each instrument, in order.
    public func machineRestoredFromStore<ID: Hashable & Sendable>(_ id: ID) {
        for instrument in instruments { instrument.machineRestoredFromStore(id) }
    }

    /// Passes the hook to each instrument, in order.
    public func machineParked<ID: Hashable & Sendable>(_ id: ID, afterRestores restores: Int) {
        for instrument in instruments { instrument.machineParked(id, afterRestores: restores) }
    }

    /// Passes the hook to each instrument, in order.
    public func eventAccepted<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin, queueDepth: Int) {
        for instrument in instruments { instrument.eventAccepted(by: id, origin: origin, queueDepth: queueDepth) }
    }

    /// Passes the hook to each instrument, in order.
    public func eventRefused<Definition: MachineDefinition>(_ error: MachineError<Definition>, origin: EventOrigin) {
        for instrument in instruments { instrument.eventRefused(error, origin: origin) }
    }

    /// Passes the hook to each instrument, in order.
    public func timerEventDropped<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin) {
        for instrument in instruments { instrument.timerEventDropped(by: id, origin: origin) }
    }

    /// Passes the hook to each instrument, in order.
    public func timerFired<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin, lateness: Duration) {
        for instrument in instruments { instrument.timerFired(by: id, origin: origin, lateness: lateness) }
    }

    /// Passes the hook to each instrument, in order.
    public func eventProcessed<Definition: MachineDefinition>(_ record: TransitionRecord<Definition>) {
        for instrument in instruments { instrument.eventProcessed(record) }
    }

    /// Passes the hook to each instrument, in order.
    public func actionFailed<Definition: MachineDefinition>(_ record: TransitionRecord<Definition>, error: any Error) {
        for instrument in instruments { instrument.actionFailed(record, error: error) }
    }

    /// Captures the current trace of each instrument that captures one.
    public func captureTrace() -> (any AnyObject & Sendable)? {
        let traces = instruments.map { $0.captureTrace() }
        return traces.contains { $0 != nil } ? Traces(traces) : nil
    }

    /// Runs `body` inside the captured traces, the first instrument's outermost.
    public func withTrace<T>(_ trace: any AnyObject & Sendable, _ body: () throws -> T) rethrows -> T {
        guard let traces = (trace as? Traces)?.traces else { return try body() }
        return try nest(from: 0, traces, body)
    }

    private func nest<T>(from index: Int, _ traces: [(any AnyObject & Sendable)?], _ body: () throws -> T) rethrows -> T {
        guard index < instruments.count else { return try body() }
        guard let trace = traces[index] else { return try nest(from: index + 1, traces, body) }
        return try instruments[index].withTrace(trace) { try nest(from: index + 1, traces, body) }
    }

    /// Runs `body` inside the captured traces, the first instrument's outermost.
    public nonisolated(nonsending) func withTrace<T>(
        _ trace: any AnyObject & Sendable, _ body: nonisolated(nonsending) () async throws -> T
    ) async rethrows -> T {
        guard let traces = (trace as? Traces)?.traces else { return try await body() }
        return try await nest(from: 0, traces, body)
    }

    private nonisolated(nonsending) func nest<T>(
        from index: Int, _ traces: [(any AnyObject & Sendable)?], _ body: nonisolated(nonsending) () async throws -> T
    ) async rethrows -> T {
        guard index < instruments.count else { return try await body() }
        guard let trace = traces[index] else { return try await nest(from: index + 1, traces, body) }
        return try await instruments[index].withTrace(trace) { try await nest(from: index + 1, traces, body) }
    }
}
