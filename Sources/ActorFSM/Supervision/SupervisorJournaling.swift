/// What a supervisor asks of the layer that keeps its machines durable: the supervision's one
/// seam with `ActorFSMDurability`. A supervisor in memory has none.
@usableFromInline package protocol SupervisorJournaling<Definition>: AnyObject, Sendable {
    /// The definition of the supervisor's machines.
    associatedtype Definition: MachineDefinition

    /// The journal of machine `id`, new or restarted: a restarted machine resumes from its
    /// `predecessor`'s newest entry.
    func journal(
        for id: Definition.ID, resuming predecessor: (any MachineJournaling<Definition>)?,
        of supervisor: Supervisor<Definition>
    ) -> any MachineJournaling<Definition>

    /// Sends `event` to machine `id` of `supervisor`, wherever it is: running, in the store, or
    /// held by another process.
    func send(
        _ event: Definition.Event, predicates: PredicateContext?, to id: Definition.ID,
        of supervisor: Supervisor<Definition>
    ) async throws(MachineError<Definition>) -> TransitionRecord<Definition>

    /// Posts `event` to machine `id` of `supervisor`, wherever it is, waiting for room.
    func post(
        _ event: Definition.Event, predicates: PredicateContext?, to id: Definition.ID,
        of supervisor: Supervisor<Definition>
    ) async throws(MachineError<Definition>)

    /// The machine under `id` of `supervisor`: running, restored from the store, or made new
    /// with `data` (how a durable child machine is started or linked again).
    func activate(
        _ id: Definition.ID, data: Definition.Data, of supervisor: Supervisor<Definition>
    ) async throws(MachineError<Definition>) -> Machine<Definition>

    /// The key machine `id` is stored under.
    func key(for id: Definition.ID) -> String

    /// The machine stored under `key`, if the key names one of this supervisor's.
    func id(forKey key: String) -> Definition.ID?

    /// Whether `error`, from `activate`, says that another live process holds the machine.
    func isHeldElsewhere(_ error: MachineError<Definition>) -> Bool

    /// Whether `error`, from `activate`, says that the store could not be read or written (an
    /// outage, which passes), rather than that it holds what the schema cannot read.
    func isStoreUnavailable(_ error: MachineError<Definition>) -> Bool

    /// The final state and data the store holds for machine `id` of `supervisor`, if its
    /// newest completed entry has a final state: how a parent follows a child that another
    /// process holds. `nil` if it has none, or the store cannot be read.
    func storedEnd(of id: Definition.ID, of supervisor: Supervisor<Definition>) async -> (Definition.State, Definition.Data)?

    /// Whether `machine` is being passivated, so that its end is reported as `.passivated`.
    /// Asked under the supervisor's lock.
    func isPassivating(_ machine: Machine<Definition>) -> Bool

    /// The machine under `id` of `supervisor`, running or restored from the store, for an
    /// operator to act on; `nil` if the store does not hold it.
    func operand(_ id: Definition.ID, of supervisor: Supervisor<Definition>) async throws(MachineError<Definition>) -> Machine<Definition>?

    /// The event an operator's cancel sends a machine whose state handles it, if any.
    var cancellingEvent: Definition.Event? { get }

    /// Carries out an operator's `verb` on machine `id`, which another live process holds (its
    /// `operand` said so), by asking that process through the store; returns its answer. A
    /// signal carries its `event`.
    func act(
        _ verb: OperatorVerb, elsewhereOn id: Definition.ID, reason: String, signalling event: Definition.Event?
    ) async throws(MachineError<Definition>) -> String
}
