/// The tasks a machine runs because of the state it is in: the one that waits for the state's
/// timeouts, and its ``StateTask``s. Confined to the machine's actor; made on the first entry
/// into a state of a schema that has timeouts or tasks. Whether their events still count is the
/// core's to say (see `MachineCore.epoch`); this only holds the tasks, to cancel them.
@usableFromInline
final class StateTimers {
    /// The task that waits for the state's timeouts in turn.
    var timeouts: Task<Void, Never>?
    var tasks: [Task<Void, Never>] = []

    init() {}

    /// Cancels the timeouts and tasks. Their events already queued are dropped as stale if the
    /// machine has left the state by their turn, and processed otherwise.
    func cancelAll() {
        timeouts?.cancel()
        for task in tasks { task.cancel() }
        timeouts = nil
        tasks = []
    }
}
