import ActorFSM
import ActorFSMMetrics
import ServiceLifecycle

/// A supervisor as a swift-service-lifecycle `Service`: it runs until the supervisor ends. A
/// graceful shutdown of the service group shuts the supervisor down (each machine finishes what
/// it has queued), and a cancellation stops it at once.
///
/// ```swift
/// let group = ServiceGroup(services: [SupervisorService(orders)], logger: logger)
/// try await group.run()
/// ```
public struct SupervisorService<Definition: MachineDefinition>: Service {
    /// The supervisor run.
    public let supervisor: Supervisor<Definition>

    /// Runs `supervisor` as a service.
    public init(_ supervisor: Supervisor<Definition>) {
        self.supervisor = supervisor
    }

    /// Returns once the supervisor has ended: after a graceful shutdown of the group, its
    /// `shutdown()`; after a cancellation, its `stop()`.
    ///
    /// - Throws: the supervisor's `Escalation` if a failure escalated; `CancellationError` if
    ///   the task was cancelled.
    public func run() async throws {
        let supervisor = supervisor
        try await withGracefulShutdownHandler {
            try await supervisor.run()
        } onGracefulShutdown: {
            Task { await supervisor.shutdown() }
        }
    }
}

/// A machine as a swift-service-lifecycle `Service`: it runs until the machine ends. A graceful
/// shutdown of the group shuts the machine down (it processes what it has queued), and a
/// cancellation stops it at once.
public struct MachineService<Definition: MachineDefinition>: Service {
    /// The machine run.
    public let machine: Machine<Definition>

    /// Runs `machine` as a service.
    public init(_ machine: Machine<Definition>) {
        self.machine = machine
    }

    /// Returns once the machine has ended.
    ///
    /// - Throws: what the machine's `run()` throws: the error that stopped it, or
    ///   `CancellationError` if the task was cancelled.
    public func run() async throws {
        let machine = machine
        try await withGracefulShutdownHandler {
            try await machine.run()
        } onGracefulShutdown: {
            Task { await machine.shutdown() }
        }
    }
}

/// `StateGauges` as a swift-service-lifecycle `Service`: it reads the store at its interval
/// until the group shuts down gracefully or the task is cancelled, then returns.
public struct StateGaugesService: Service {
    /// The gauges run.
    public let gauges: StateGauges

    /// Runs `gauges` as a service.
    public init(_ gauges: StateGauges) {
        self.gauges = gauges
    }

    /// Reads the store and sets the gauges until a graceful shutdown or a cancellation.
    public func run() async throws {
        let gauges = gauges
        do {
            try await cancelWhenGracefulShutdown { try await gauges.run() }
        } catch is CancellationError {
            return
        }
    }
}
