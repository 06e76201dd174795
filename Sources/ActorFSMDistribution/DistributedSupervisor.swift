import ActorFSM
import ActorFSMDurability

import Distributed

/// A supervisor reachable through a distributed actor system: a `distributed actor` that
/// serves one `Supervisor` (and so all its machines) in the process hosting it.
///
/// ```swift
/// let orders = DistributedSupervisor(serving: Supervisor(schema: orderSchema), actorSystem: system)
/// let remote = try DistributedSupervisor<Orders, LocalTestingDistributedActorSystem>.resolve(id: orders.id, using: system)
/// try await remote.send(to: 42, .pay)
/// ```
///
/// A durable supervisor restores a machine the store holds on its first event, as a local
/// `Supervisor/send(to:_:predicates:)` does. Values cross the system as with
/// ``DistributedMachine``.
public distributed actor DistributedSupervisor<Definition: MachineDefinition, ActorSystem: DistributedActorSystem>
where ActorSystem.SerializationRequirement == any Codable,
      Definition.State: Codable, Definition.Event: Codable, Definition.ID: Codable {
    /// The supervisor this actor serves, in this process.
    private let supervisor: Supervisor<Definition>

    /// An actor of `actorSystem` that serves `supervisor`.
    public init(serving supervisor: Supervisor<Definition>, actorSystem: ActorSystem) {
        self.supervisor = supervisor
        self.actorSystem = actorSystem
    }

    /// Sends `event` to the machine under `id` and returns its record; see `Supervisor/send(to:_:predicates:)`.
    ///
    /// - Throws: the `MachineError` the supervisor or the machine threw (`.unknownMachine` for
    ///   an id it has no machine for), or the actor system's error if the call could not reach the host.
    @discardableResult
    public distributed func send(
        to id: Definition.ID, _ event: Definition.Event, predicates: PredicateContext = .none
    ) async throws -> TransitionRecord<Definition> {
        try await supervisor.send(to: id, event, predicates: supervisor.schema.resolvingRemotePredicates(predicates))
    }

    /// Posts `event` to the machine under `id`; see `Supervisor/post(to:_:predicates:)`.
    public distributed func post(to id: Definition.ID, _ event: Definition.Event, predicates: PredicateContext = .none) async throws {
        try await supervisor.post(to: id, event, predicates: supervisor.schema.resolvingRemotePredicates(predicates))
    }

    /// The current state of the machine under `id`, or `nil` if the supervisor runs none (a
    /// durable supervisor's passivated machines included).
    public distributed func state(of id: Definition.ID) async -> Definition.State? {
        guard let machine = supervisor.machine(id: id) else { return nil }
        return await machine.state
    }
}
