/// The tasks a machine runs because of the state it is in: the one that waits for the state's
/// timeouts, and its ``StateTask``s. Confined to the machine's actor; made on the first entry
/// into a state of a schema that has timeouts or tasks. Whether their events still count is the
/// core's to say (see `MachineCore.epoch`); this only holds the tasks, to cancel them.
@usableFromInline
final class StateTimers {
    /// The task that waits for the state's timeouts in turn.
    @usableFromInline var timeouts: Task<Void, Never>?
    @usableFromInline var tasks: [Task<Void, Never>] = []
    /// The state's child machines, by their places among its tasks.
    @usableFromInline var children: [(slot: Int, hold: ChildHold)] = []
    /// The state whose tasks run, by id.
    @usableFromInline var stateID: Int32 = -1

    @usableFromInline init() {}

    /// Cancels the timeouts and tasks, and lets go of the children the machine has not left
    /// (see `Machine.leaveChildren`): it stops taking events. Their events already queued are
    /// dropped as stale if the machine has left the state by their turn, and processed otherwise.
    @usableFromInline func cancelAll() {
        timeouts?.cancel()
        for task in tasks { task.cancel() }
        for child in children { child.hold.parentEnded() }
        timeouts = nil
        tasks = []
        children = []
    }
}
