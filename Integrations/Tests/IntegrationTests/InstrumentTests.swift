import ActorFSM
import ActorFSMDurability
import ActorFSMInstruments
import ActorFSMLogging
import ActorFSMMetrics
import ActorFSMTesting
import ActorFSMTracing
import InMemoryTracing
import Logging
import MetricsTestKit
import Synchronization
import Testing
import Tracing

@Suite struct InstrumentTests {
    @Test func theLoggingInstrumentLogsEachHappeningWithItsMetadata() async throws {
        let lines = LogLines()
        let logger = Logger(label: "gates") { _ in KeptLog(lines: lines) }
        let gate = Machine(schema: try gateSchema(), id: "g1",
                           configuration: MachineConfiguration(instrument: LoggingInstrument(logger: logger)))
        try await gate.send(.coin)
        _ = try? await gate.send(.kick)
        let processed = lines.all.filter { $0.message == "event processed" }
        #expect(processed.count == 2)
        #expect(processed.first?.level == .debug)
        #expect(processed.first?.metadata["fsm.target"] == "unlocked")
        #expect(processed.first?.metadata["fsm.machine"] == "g1")
        let failed = lines.all.filter { $0.message == "action failed" }
        #expect(failed.map(\.level) == [.warning])
        #expect(failed.first?.metadata["fsm.error"].map { "\($0)" }?.contains("Jammed") == true)
        #expect(lines.all.first?.message == "machine started")
    }

    @Test func theMetricsInstrumentCountsAndTimesEvents() async throws {
        let metrics = TestMetrics()
        let gate = Machine(schema: try gateSchema(), id: "g1",
                           configuration: MachineConfiguration(instrument: MetricsInstrument(prefix: "gates", factory: metrics)))
        try await gate.send(.coin)
        try await gate.send(.pass)
        try await gate.send(.pass)
        _ = try? await gate.send(.coin)
        _ = try? await gate.send(.kick)
        #expect(try metrics.expectCounter("gates_events_processed", [("outcome", "transitioned")]).totalValue == 3)
        #expect(try metrics.expectCounter("gates_events_processed", [("outcome", "unhandled")]).totalValue == 1)
        #expect(try metrics.expectCounter("gates_events_processed", [("outcome", "failed")]).totalValue == 1)
        #expect(try metrics.expectCounter("gates_transitions", [("state", "unlocked")]).totalValue == 2)
        #expect(try metrics.expectCounter("gates_action_failures").totalValue == 1)
        #expect(try metrics.expectTimer("gates_event_latency").values.count == 5)
        #expect(try metrics.expectCounter("gates_machines_started").totalValue == 1)
    }

    @Test func stateGaugesReadTheStoresCounts() async throws {
        let metrics = TestMetrics()
        let store = InMemoryStore()
        let gates = try Supervisor(schema: try gateSchema(), durability: Durability(store: store))
        for id in ["a", "b", "c"] { try await gates.activate(id: id) }
        try await gates.send(to: "a", .coin)
        let gauges = StateGauges(store: store, prefix: "gates", factory: metrics)
        let first = try await gauges.update()
        #expect(try metrics.expectGauge("gates_machines", [("schema", "Gate"), ("state", "locked")]).lastValue == 2)
        #expect(try metrics.expectGauge("gates_machines", [("schema", "Gate"), ("state", "unlocked")]).lastValue == 1)
        try await gates.send(to: "a", .pass)
        try await gauges.update(clearing: first)
        #expect(try metrics.expectGauge("gates_machines", [("schema", "Gate"), ("state", "locked")]).lastValue == 3)
        #expect(try metrics.expectGauge("gates_machines", [("schema", "Gate"), ("state", "unlocked")]).lastValue == 0)
        await gates.shutdown()
    }

    @Test func theTracingInstrumentRecordsASpanPerEventUnderTheSendersTrace() async throws {
        let tracer = InMemoryTracer()
        let gate = Machine(schema: try gateSchema(), id: "g1",
                           configuration: MachineConfiguration(instrument: TracingInstrument(tracer: tracer)))
        try await tracer.withSpan("request") { _ in
            _ = try await gate.send(.coin)
        }
        _ = try? await gate.send(.kick)
        let spans = tracer.finishedSpans
        let request = try #require(spans.first { $0.operationName == "request" })
        let transitions = spans.filter { $0.operationName == "fsm.transition" }
        #expect(transitions.count == 2)
        let coin = try #require(transitions.first { $0.attributes["fsm.event"]?.toSpanAttribute() == .string("coin") })
        #expect(coin.spanContext.traceID == request.spanContext.traceID)
        #expect(coin.attributes["fsm.target"]?.toSpanAttribute() == .string("unlocked"))
        let kick = try #require(transitions.first { $0.attributes["fsm.event"]?.toSpanAttribute() == .string("kick") })
        #expect(kick.errors.count == 1)
        #expect(kick.status?.code == .error)
    }

    @Test func aQueuedEventsSpanJoinsItsSendersTrace() async throws {
        let tracer = InMemoryTracer()
        let (releases, release) = AsyncStream<Void>.makeStream()
        let (starts, start) = AsyncStream<Void>.makeStream()
        let (queued, queue) = AsyncStream<Void>.makeStream()
        let schema = try Schema<Worker>(initial: .idle) {
            define(.idle) {
                when(.work) | then(.busy) | { _ in
                    start.yield()
                    for await _ in releases { break }
                }
            }
            define(.busy) { when(.poke) | then(.idle) }
        }
        let instrument = FanOutInstrument([TracingInstrument(tracer: tracer), QueueWatch(queued: queue)])
        let worker = Machine(schema: schema, id: "w", configuration: MachineConfiguration(instrument: instrument))
        let working = Task { try await worker.send(.work) }
        var started = starts.makeAsyncIterator()
        await started.next()
        // The machine is busy: the poke waits in its inbox until the work is done.
        let poking = Task { try await tracer.withSpan("request") { _ in try await worker.send(.poke) } }
        var waiting = queued.makeAsyncIterator()
        await waiting.next()
        release.yield()
        _ = try await working.value
        _ = try await poking.value
        let spans = tracer.finishedSpans
        let request = try #require(spans.first { $0.operationName == "request" })
        let poke = try #require(spans.first { $0.attributes["fsm.event"]?.toSpanAttribute() == .string("poke") })
        #expect(poke.spanContext.traceID == request.spanContext.traceID)
        let work = try #require(spans.first { $0.attributes["fsm.event"]?.toSpanAttribute() == .string("work") })
        #expect(work.spanContext.traceID != request.spanContext.traceID, "the work was sent outside the request")
    }

    @Test func aFanOutPassesEveryHookToEachAndNestsTheirTraces() async throws {
        let order = OrderLog()
        let first = Marking("first", order)
        let second = Marking("second", order)
        let fanOut = FanOutInstrument([first, Marking("none", order, captures: false), second])
        let gate = Machine(schema: try gateSchema(), id: "g1", configuration: MachineConfiguration(instrument: fanOut))
        try await gate.send(.coin)
        #expect(first.processed.withLock { $0 } == 1)
        #expect(second.processed.withLock { $0 } == 1)
        let trace = try #require(fanOut.captureTrace())
        fanOut.withTrace(trace) { order.append("body") }
        await fanOut.withTrace(trace) {
            await Task.yield()
            order.append("async body")
        }
        #expect(order.all == ["first", "second", "body", "first", "second", "async body"])
        #expect(FanOutInstrument([Marking("none", order, captures: false)]).captureTrace() == nil)
    }
}

/// Names in the order they were appended.
final class OrderLog: Sendable {
    private let names = Mutex<[String]>([])
    func append(_ name: String) { names.withLock { $0.append(name) } }
    var all: [String] { names.withLock { $0 } }
}

/// An instrument that counts processed events and notes, in `order`, when it restores a trace.
final class Marking: ActorFSM.Instrument {
    final class Mark: Sendable {}

    let name: String
    let order: OrderLog
    let captures: Bool
    let processed = Mutex(0)

    init(_ name: String, _ order: OrderLog, captures: Bool = true) {
        self.name = name
        self.order = order
        self.captures = captures
    }

    func eventProcessed<D>(_ record: TransitionRecord<D>) { processed.withLock { $0 += 1 } }

    func captureTrace() -> (any AnyObject & Sendable)? { captures ? Mark() : nil }

    func withTrace<T>(_ trace: any AnyObject & Sendable, _ body: () throws -> T) rethrows -> T {
        order.append(name)
        return try body()
    }

    nonisolated(nonsending) func withTrace<T>(
        _ trace: any AnyObject & Sendable, _ body: nonisolated(nonsending) () async throws -> T
    ) async rethrows -> T {
        order.append(name)
        return try await body()
    }
}

/// A machine whose work waits until the test lets it finish.
enum Worker: MachineDefinition {
    enum State: Hashable, Sendable { case idle, busy }
    enum Event: Hashable, Sendable { case work, poke }
    typealias ID = String
}

/// Tells the test when an event joins a busy machine's inbox.
final class QueueWatch: ActorFSM.Instrument {
    let queued: AsyncStream<Void>.Continuation

    init(queued: AsyncStream<Void>.Continuation) { self.queued = queued }

    func eventAccepted<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin, queueDepth: Int) {
        if queueDepth > 0 { queued.yield() }
    }
}
