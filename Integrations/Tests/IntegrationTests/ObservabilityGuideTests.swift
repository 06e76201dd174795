import ActorFSM
import ActorFSMDurability
import ActorFSMInstruments
import ActorFSMLogging
import ActorFSMMetrics
import ActorFSMServiceLifecycle
import ActorFSMTesting
import ActorFSMTracing
import Foundation
import Logging
import ServiceLifecycle
import Testing
import Tracing

// The examples of the Observability article of ActorFSM that use other packages, verbatim (their `import` lines
// aside), in a context that declares the names they use; the test below checks each is here.

enum GuideExamples {
    static func allAtOnce(orderSchema: Schema<Gate>, store: InMemoryStore) async throws {
        let instrument = FanOutInstrument([
            LoggingInstrument(logger: Logger(label: "orders.fsm")),
            MetricsInstrument(prefix: "orders"),
            TracingInstrument(),
        ])
        let orders = try Supervisor(schema: orderSchema, durability: Durability(store: store),
                                    configuration: SupervisorConfiguration(machine: MachineConfiguration(instrument: instrument)))
        let gauges = StateGauges(store: store, prefix: "orders", interval: .seconds(15))
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: SupervisorService(orders)), .init(service: StateGaugesService(gauges))],
            gracefulShutdownSignals: [.sigterm], logger: Logger(label: "orders")))
        try await group.run()
    }

    final class TraceCarrier: ActorFSM.Instrument {
        final class Captured: Sendable {
            let context: ServiceContext
            init(_ context: ServiceContext) { self.context = context }
        }
        func captureTrace() -> (any AnyObject & Sendable)? { ServiceContext.current.map(Captured.init) }
        func withTrace<T>(_ trace: any AnyObject & Sendable, _ body: () throws -> T) rethrows -> T {
            try ServiceContext.withValue((trace as? Captured)?.context, operation: body)
        }
        nonisolated(nonsending) func withTrace<T>(
            _ trace: any AnyObject & Sendable, _ body: nonisolated(nonsending) () async throws -> T
        ) async rethrows -> T {
            try await ServiceContext.withValue((trace as? Captured)?.context) { try await body() }
        }
    }
}

@Suite struct ObservabilityGuideTests {
    @Test func everyExampleMarkedAsHeldHereIsHereVerbatim() throws {
        let examples = try GuideBlocks.examples(in: "Sources/ActorFSM/ActorFSM.docc/Observability.md", heldBy: "ObservabilityGuideTests.swift")
        #expect(examples.count == 2)
        for example in examples {
            #expect(try GuideBlocks.file(#filePath, holds: example),
                    "an example of Observability.md is not in ObservabilityGuideTests.swift: \(example.first ?? "")")
        }
    }
}
