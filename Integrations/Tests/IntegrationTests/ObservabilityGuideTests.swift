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

// The examples of Docs/Observability.md that use other packages, verbatim (their `import` lines
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
    /// Every ```swift block of Observability.md marked as held here, without indentation.
    static func examples() throws -> [[String]] {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Docs/Observability.md")
        var examples: [[String]] = []
        var block: [String]?
        var previous = ""
        for line in try String(contentsOf: page, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            let text = String(line)
            defer { previous = text }
            if block == nil {
                if text == "```swift" && previous.contains("ObservabilityGuideTests.swift holds it") { block = [] }
                continue
            }
            if text == "```" {
                examples.append(block ?? [])
                block = nil
                continue
            }
            block?.append(text.trimmingCharacters(in: .whitespaces))
        }
        return examples
    }

    @Test func everyExampleMarkedAsHeldHereIsHereVerbatim() throws {
        let here = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let examples = try Self.examples()
        #expect(examples.count == 2)
        for example in examples {
            let lines = example.filter { !$0.isEmpty && !$0.hasPrefix("import ") }
            let found = here.indices.contains { start in
                lines.enumerated().allSatisfy { offset, line in start + offset < here.count && here[start + offset] == line }
            }
            #expect(found, "an example of Observability.md is not in ObservabilityGuideTests.swift: \(lines.first ?? "")")
        }
    }
}
