import ActorFSM
import Metrics
import Synchronization

/// An instrument that feeds swift-metrics: counters of events by outcome, of refusals, of
/// action failures, of machines' lives and of transitions into each state, a timer of event
/// latency, and a recorder of inbox depth. Every metric's label starts with `prefix`, and
/// carries `dimensions` (a workflow's name, say) beside its own.
///
/// ```swift
/// let instrument = MetricsInstrument(prefix: "orders", dimensions: [("workflow", "orders")])
/// ```
///
/// | metric | kind | dimensions |
/// | --- | --- | --- |
/// | `PREFIX_events_processed` | counter | `outcome` |
/// | `PREFIX_transitions` | counter | `state`: the target |
/// | `PREFIX_events_refused` | counter | `refusal` |
/// | `PREFIX_action_failures` | counter | |
/// | `PREFIX_machines_started`, `_ended`, `_restarted` | counters | |
/// | `PREFIX_timers_fired` | counter | |
/// | `PREFIX_event_latency` | timer | |
/// | `PREFIX_inbox_depth` | recorder | |
///
/// For the number of machines in each state, across processes and passivated machines
/// included, see ``StateGauges``.
public final class MetricsInstrument: Instrument {
    /// The labels' prefix.
    public let prefix: String
    /// The dimensions every metric carries.
    public let dimensions: [(String, String)]
    private let failures: Counter
    private let started: Counter
    private let ended: Counter
    private let restarted: Counter
    private let timers: Counter
    private let latency: Metrics.Timer
    private let depth: Recorder
    /// Counters made on first use, by label and dimension value.
    private let counters = Mutex<[String: Counter]>([:])
    private let factory: any MetricsFactory

    /// Metrics labelled `prefix_…`, each with `dimensions`, made by `factory` (the
    /// bootstrapped one unless given).
    public init(prefix: String = "fsm", dimensions: [(String, String)] = [], factory: (any MetricsFactory)? = nil) {
        let factory = factory ?? MetricsSystem.factory
        self.prefix = prefix
        self.dimensions = dimensions
        self.factory = factory
        failures = Counter(label: prefix + "_action_failures", dimensions: dimensions, factory: factory)
        started = Counter(label: prefix + "_machines_started", dimensions: dimensions, factory: factory)
        ended = Counter(label: prefix + "_machines_ended", dimensions: dimensions, factory: factory)
        restarted = Counter(label: prefix + "_machines_restarted", dimensions: dimensions, factory: factory)
        timers = Counter(label: prefix + "_timers_fired", dimensions: dimensions, factory: factory)
        latency = Metrics.Timer(label: prefix + "_event_latency", dimensions: dimensions, factory: factory)
        depth = Recorder(label: prefix + "_inbox_depth", dimensions: dimensions, factory: factory)
    }

    /// Updates the metrics the happening concerns.
    public func machineStarted<ID: Hashable & Sendable>(_ id: ID) { started.increment() }

    /// Updates the metrics the happening concerns.
    public func machineEnded<ID: Hashable & Sendable>(_ id: ID, termination: MachineTermination) { ended.increment() }

    /// Updates the metrics the happening concerns.
    public func machineRestarted<ID: Hashable & Sendable>(_ id: ID, after error: any Error) { restarted.increment() }

    /// Updates the metrics the happening concerns.
    public func eventAccepted<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin, queueDepth: Int) {
        depth.record(queueDepth)
    }

    /// Updates the metrics the happening concerns.
    public func eventRefused<Definition: MachineDefinition>(_ error: MachineError<Definition>, origin: EventOrigin) {
        counter("_events_refused", "refusal", "\(error.kind)").increment()
    }

    /// Updates the metrics the happening concerns.
    public func timerFired<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin, lateness: Duration) {
        timers.increment()
    }

    /// Updates the metrics the happening concerns.
    public func eventProcessed<Definition: MachineDefinition>(_ record: TransitionRecord<Definition>) {
        counter("_events_processed", "outcome", Self.name(of: record.outcome)).increment()
        if record.outcome.isTransitioned { counter("_transitions", "state", "\(record.target)").increment() }
        latency.recordNanoseconds(Self.nanoseconds(record.latency))
    }

    /// Updates the metrics the happening concerns.
    public func actionFailed<Definition: MachineDefinition>(_ record: TransitionRecord<Definition>, error: any Error) {
        failures.increment()
    }

    /// The counter `prefix + suffix` with `dimension` set to `value`, made on first use.
    private func counter(_ suffix: String, _ dimension: String, _ value: String) -> Counter {
        let key = suffix + "\u{0}" + value
        return counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(label: prefix + suffix, dimensions: dimensions + [(dimension, value)], factory: factory)
            counters[key] = counter
            return counter
        }
    }

    /// An outcome's name, without its reason or error.
    static func name(of outcome: ActorFSM.Outcome) -> String {
        switch outcome {
        case .transitioned: "transitioned"
        case .unhandled: "unhandled"
        case .conditionFalse: "conditionFalse"
        case .failed: "failed"
        case .stopped: "stopped"
        }
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}
