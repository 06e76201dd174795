import ActorFSMDurability
import Metrics

/// Gauges of the number of machines in each state, read from a store's summaries at an
/// interval: every process's machines, passivated ones included. Run it as a task, or as a
/// swift-service-lifecycle service (it has the shape of one).
///
/// ```swift
/// let gauges = StateGauges(store: try SQLiteReader(path: "orders.sqlite"), prefix: "orders")
/// let polling = Task { try await gauges.run() }
/// ```
///
/// Each gauge is `PREFIX_machines` with dimensions `schema` (the definition's name, or the
/// fingerprint if the store does not describe it) and `state`. A state that empties reads 0.
public struct StateGauges: Sendable {
    /// The store read.
    public let store: any StoreInspection
    /// The gauges' label prefix.
    public let prefix: String
    /// How often the store is read.
    public let interval: Duration
    private let factory: any MetricsFactory

    /// Gauges labelled `prefix_machines`, from `store`, read every `interval`, made by
    /// `factory` (the bootstrapped one unless given).
    public init(
        store: any StoreInspection, prefix: String = "fsm", interval: Duration = .seconds(15), factory: (any MetricsFactory)? = nil
    ) {
        self.store = store
        self.prefix = prefix
        self.interval = interval
        self.factory = factory ?? MetricsSystem.factory
    }

    /// Reads the store and sets the gauges every ``interval``, until the task is cancelled.
    ///
    /// - Throws: `CancellationError` once cancelled; a store's error ends nothing, the next
    ///   reading tries again.
    public func run() async throws {
        var known: Set<[String]> = []
        while true {
            known = (try? await update(clearing: known)) ?? known
            try await Task.sleep(for: interval)
        }
    }

    /// Reads the counts once and sets the gauges; the states of `clearing` that no longer
    /// have machines read 0.
    ///
    /// - Returns: the schema and state of every gauge set.
    @discardableResult
    /// Handles the hook.
    public func update(clearing previous: Set<[String]> = []) async throws(StoreError) -> Set<[String]> {
        let names = Dictionary(try await store.storedSchemas().map { ($0.fingerprint, $0.description.name) }) { first, _ in first }
        var counts: [[String]: Int] = [:]
        for count in try await store.stateCounts() {
            counts[[names[count.fingerprint] ?? count.fingerprint, count.state], default: 0] += count.count
        }
        for gone in previous where counts[gone] == nil { counts[gone] = 0 }
        for (key, count) in counts {
            Gauge(label: prefix + "_machines", dimensions: [("schema", key[0]), ("state", key[1])], factory: factory).record(count)
        }
        return Set(counts.filter { $0.value > 0 }.keys)
    }
}
