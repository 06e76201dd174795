import ActorFSM
import ActorFSMDurability

import Distributed

/// A machine reachable through a distributed actor system: a `distributed actor` that serves
/// one `Machine` in the process hosting it, and that other processes (or this one) call
/// through the system's references.
///
/// ```swift
/// let system = LocalTestingDistributedActorSystem()   // or a cluster's system
/// let gate = DistributedMachine(serving: Machine(schema: gates, id: "gate-7"), actorSystem: system)
/// let remote = try DistributedMachine<Gates, LocalTestingDistributedActorSystem>.resolve(id: gate.id, using: system)
/// let record = try await remote.send(.pass, predicates: PredicateContext(Enforcement.weak))
/// ```
///
/// Events, predicates, records and errors cross the system as `Codable` values: predicates by
/// their types' and cases' names (the host maps them to its schema's cases), a failed action's
/// error as a ``RemoteFailure``. The machine's transition streams stay in its process: observe
/// them there, and forward what other processes need.
public distributed actor DistributedMachine<Definition: MachineDefinition, ActorSystem: DistributedActorSystem>
where ActorSystem.SerializationRequirement == any Codable,
      Definition.State: Codable, Definition.Event: Codable, Definition.ID: Codable {
    /// The machine this actor serves, in this process.
    private let machine: Machine<Definition>

    /// An actor of `actorSystem` that serves `machine`.
    public init(serving machine: Machine<Definition>, actorSystem: ActorSystem) {
        self.machine = machine
        self.actorSystem = actorSystem
    }

    /// Sends `event` to the machine and returns its record once processed; see `Machine/send(_:predicates:)`.
    ///
    /// - Throws: the `MachineError` the machine threw, or the actor system's error if the call
    ///   could not reach the host.
    @discardableResult
    public distributed func send(
        _ event: Definition.Event, predicates: PredicateContext = .none
    ) async throws -> TransitionRecord<Definition> {
        try await machine.send(event, predicates: machine.schema.resolvingRemotePredicates(predicates))
    }

    /// Posts `event` to the machine, waiting for room in its inbox; see `Machine/post(_:predicates:)`.
    public distributed func post(_ event: Definition.Event, predicates: PredicateContext = .none) async throws {
        try await machine.post(event, predicates: machine.schema.resolvingRemotePredicates(predicates))
    }

    /// The machine's current state.
    public distributed func currentState() async -> Definition.State {
        await machine.state
    }

    /// The machine's id (its `Machine/id`, not this actor's).
    public distributed func machineID() -> Definition.ID {
        machine.id
    }
}
