import ActorFSM
import Tracing

/// An instrument that carries the sender's trace into a queued event's actions, and records a
/// span per processed event, through swift-distributed-tracing.
///
/// ```swift
/// let instrument = TracingInstrument()   // the bootstrapped tracer
/// let configuration = MachineConfiguration<OrderState>(instrument: instrument)
/// ```
///
/// The span, named `fsm.transition` by default, runs from the event's acceptance to the end of
/// its actions, and has the machine, the event, the states and the outcome as attributes; a
/// failed action's error is recorded on it. It is a child of the sender's trace, whether the
/// machine ran the event at once or after the events queued before it.
public final class TracingInstrument: ActorFSM.Instrument {
    /// The tracer spans are made with; the bootstrapped one unless given.
    public let tracer: any Tracer
    /// The spans' name.
    public let operationName: String

    /// Records spans named `operationName` with `tracer`.
    public init(tracer: (any Tracer)? = nil, operationName: String = "fsm.transition") {
        self.tracer = tracer ?? InstrumentationSystem.tracer
        self.operationName = operationName
    }

    /// The trace a queued event carries.
    final class Captured: Sendable {
        let context: ServiceContext
        init(_ context: ServiceContext) { self.context = context }
    }

    /// Captures the current `ServiceContext`, if there is one.
    public func captureTrace() -> (any AnyObject & Sendable)? {
        ServiceContext.current.map(Captured.init)
    }

    /// Runs `body` with the captured `ServiceContext` as the current one.
    public func withTrace<T>(_ trace: any AnyObject & Sendable, _ body: () throws -> T) rethrows -> T {
        try ServiceContext.withValue((trace as? Captured)?.context, operation: body)
    }

    /// Runs `body` with the captured `ServiceContext` as the current one.
    public nonisolated(nonsending) func withTrace<T>(
        _ trace: any AnyObject & Sendable, _ body: nonisolated(nonsending) () async throws -> T
    ) async rethrows -> T {
        try await ServiceContext.withValue((trace as? Captured)?.context) { try await body() }
    }

    /// Records the event's span, from its acceptance to the end of its actions.
    public func eventProcessed<Definition: MachineDefinition>(_ record: TransitionRecord<Definition>) {
        let end = DefaultTracerClock.now
        let latency = record.latency.components
        let elapsed = UInt64(max(0, latency.seconds * 1_000_000_000 + latency.attoseconds / 1_000_000_000))
        let start = RecordInstant(nanosecondsSinceEpoch: end.nanosecondsSinceEpoch - min(elapsed, end.nanosecondsSinceEpoch))
        let span = tracer.startSpan(operationName, context: ServiceContext.current ?? .topLevel, ofKind: .internal, at: start)
        span.attributes["fsm.machine"] = "\(record.machineID)"
        span.attributes["fsm.sequence"] = Int64(record.sequenceNumber)
        span.attributes["fsm.event"] = record.eventDescription
        span.attributes["fsm.source"] = "\(record.source)"
        span.attributes["fsm.target"] = "\(record.target)"
        span.attributes["fsm.outcome"] = "\(record.outcome)"
        if case .failed(let error) = record.outcome {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
        }
        span.end(at: end)
    }
}

/// An instant of a record's time, for a span's start.
struct RecordInstant: TracerInstant {
    let nanosecondsSinceEpoch: UInt64

    static func < (lhs: RecordInstant, rhs: RecordInstant) -> Bool { lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch }
}
