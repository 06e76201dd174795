import ActorFSM

/// How a durable supervisor reaches a machine that another process holds: the durability's
/// seam with `ActorFSMDistribution`, which forwards such events through a store that carries
/// them.
package protocol SupervisorRouting<Definition>: AnyObject, Sendable {
    /// The definition of the supervisor's machines.
    associatedtype Definition: MachineDefinition

    /// The error saying that another process holds machine `id`, if `supervisor` found it so
    /// lately and does not run it: its events then go there without a claim first.
    func heldElsewhereLately(_ id: Definition.ID, of supervisor: Supervisor<Definition>) -> MachineError<Definition>?

    /// Sends `event` to the process that holds machine `id`.
    ///
    /// - Returns: the record that process sends back; `nil` for a post.
    /// - Throws: `heldElsewhere` if the event cannot travel; the holder's ``MachineError``.
    func forward(
        _ event: Definition.Event, predicates: PredicateContext?, to id: Definition.ID, wantsReply: Bool,
        heldElsewhere: MachineError<Definition>, of supervisor: Supervisor<Definition>
    ) async throws(MachineError<Definition>) -> TransitionRecord<Definition>?

    /// Machines this process claimed or restored: another process does not hold them.
    func forget(_ keys: [String])
}

/// A store that carries events between the processes that share it: a durable supervisor over
/// it routes events for machines held elsewhere, and serves those sent to its own.
package protocol RoutingStore: MachineStore {
    /// The routing of a durable supervisor whose machines are written through `coding`.
    func routing<Definition: MachineDefinition>(coding: DurableCoding<Definition>) -> any SupervisorRouting<Definition>
    where Definition.State: Codable, Definition.Event: Codable, Definition.ID: LosslessStringConvertible

    /// Hands `supervisor` the events other processes send to its machines, and the machines it
    /// takes over from processes that died.
    func serve<Definition: MachineDefinition>(_ supervisor: Supervisor<Definition>)
}
