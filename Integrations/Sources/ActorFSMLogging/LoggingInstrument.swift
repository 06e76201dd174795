import ActorFSM
import Logging

/// An instrument that logs what machines do through swift-log, with the machine, the event
/// and the states as metadata.
///
/// ```swift
/// let instrument = LoggingInstrument(logger: Logger(label: "orders.fsm"))
/// let orders = Supervisor<Orders>(schema: orderSchema,
///                                 configuration: SupervisorConfiguration(machine: MachineConfiguration(instrument: instrument)))
/// ```
public final class LoggingInstrument: Instrument {
    /// The levels each kind of happening is logged at.
    public struct Levels: Sendable {
        /// An event processed (the record), at `debug` by default.
        public var processed: Logger.Level
        /// A failed action, a refused event, a restart, an unavailable store: `warning`.
        public var problems: Logger.Level
        /// A machine made, ended or restored: `info`.
        public var lifecycle: Logger.Level
        /// Events accepted, timers fired or dropped: `trace`.
        public var details: Logger.Level

        /// Levels for each kind; the defaults keep a busy service's log to its problems and
        /// machines' lives at `info`.
        public init(
            processed: Logger.Level = .debug, problems: Logger.Level = .warning, lifecycle: Logger.Level = .info,
            details: Logger.Level = .trace
        ) {
            self.processed = processed
            self.problems = problems
            self.lifecycle = lifecycle
            self.details = details
        }
    }

    /// The logger written to.
    public let logger: Logger
    /// The levels used.
    public let levels: Levels

    /// Logs to `logger` at `levels`.
    public init(logger: Logger, levels: Levels = Levels()) {
        self.logger = logger
        self.levels = levels
    }

    /// Logs the happening.
    public func machineStarted<ID: Hashable & Sendable>(_ id: ID) {
        logger.log(level: levels.lifecycle, "machine started", metadata: ["fsm.machine": "\(id)"])
    }

    /// Logs the happening.
    public func machineEnded<ID: Hashable & Sendable>(_ id: ID, termination: MachineTermination) {
        logger.log(level: levels.lifecycle, "machine ended", metadata: ["fsm.machine": "\(id)", "fsm.termination": "\(termination)"])
    }

    /// Logs the happening.
    public func machineRestarted<ID: Hashable & Sendable>(_ id: ID, after error: any Error) {
        logger.log(level: levels.problems, "machine restarted", metadata: ["fsm.machine": "\(id)", "fsm.error": "\(error)"])
    }

    /// Logs the happening.
    public func storeUnavailable<ID: Hashable & Sendable>(for id: ID, error: any Error, retryingIn delay: Duration?) {
        logger.log(level: levels.problems, "store unavailable", metadata: [
            "fsm.machine": "\(id)", "fsm.error": "\(error)", "fsm.retry_in": "\(delay.map { "\($0)" } ?? "never")",
        ])
    }

    /// Logs the happening.
    public func machineRestoredFromStore<ID: Hashable & Sendable>(_ id: ID) {
        logger.log(level: levels.lifecycle, "machine restored from its store", metadata: ["fsm.machine": "\(id)"])
    }

    /// Logs the happening.
    public func machineParked<ID: Hashable & Sendable>(_ id: ID, afterRestores restores: Int) {
        logger.log(level: levels.problems, "machine parked: its store reads but refuses its writes", metadata: [
            "fsm.machine": "\(id)", "fsm.restores": "\(restores)",
        ])
    }

    /// Logs the happening.
    public func eventAccepted<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin, queueDepth: Int) {
        logger.log(level: levels.details, "event accepted", metadata: [
            "fsm.machine": "\(id)", "fsm.origin": "\(origin)", "fsm.queue_depth": "\(queueDepth)",
        ])
    }

    /// Logs the happening.
    public func eventRefused<Definition: MachineDefinition>(_ error: MachineError<Definition>, origin: EventOrigin) {
        logger.log(level: levels.problems, "event refused", metadata: [
            "fsm.machine": "\(error.machineID)", "fsm.refusal": "\(error.kind)", "fsm.origin": "\(origin)",
        ])
    }

    /// Logs the happening.
    public func timerEventDropped<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin) {
        logger.log(level: levels.details, "timer event dropped", metadata: ["fsm.machine": "\(id)", "fsm.origin": "\(origin)"])
    }

    /// Logs the happening.
    public func timerFired<ID: Hashable & Sendable>(by id: ID, origin: EventOrigin, lateness: Duration) {
        logger.log(level: levels.details, "timer fired", metadata: [
            "fsm.machine": "\(id)", "fsm.origin": "\(origin)", "fsm.lateness": "\(lateness)",
        ])
    }

    /// Logs the happening.
    public func eventProcessed<Definition: MachineDefinition>(_ record: TransitionRecord<Definition>) {
        logger.log(level: levels.processed, "event processed", metadata: Self.metadata(of: record))
    }

    /// Logs the happening.
    public func actionFailed<Definition: MachineDefinition>(_ record: TransitionRecord<Definition>, error: any Error) {
        var metadata = Self.metadata(of: record)
        metadata["fsm.error"] = "\(error)"
        logger.log(level: levels.problems, "action failed", metadata: metadata)
    }

    /// What a record says, as metadata.
    static func metadata<Definition: MachineDefinition>(of record: TransitionRecord<Definition>) -> Logger.Metadata {
        [
            "fsm.machine": "\(record.machineID)", "fsm.sequence": "\(record.sequenceNumber)",
            "fsm.event": "\(record.eventDescription)", "fsm.source": "\(record.source)", "fsm.target": "\(record.target)",
            "fsm.outcome": "\(record.outcome)", "fsm.latency": "\(record.latency)",
        ]
    }
}
