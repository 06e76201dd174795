/// What a machine runs because of the state it is in: the state's armed timeouts and its
/// ``StateTask``s. Confined to the machine's actor; made on the first entry into a state of a
/// schema that has timeouts or tasks.
@usableFromInline
final class StateTimers {
    /// Counts entries into states. Timer events carry the count of the entry that armed them, so
    /// one that arrives after the machine left that state is recognised and dropped.
    @usableFromInline var epoch: UInt64 = 1
    /// The task that waits for the state's timeouts in turn.
    var timeouts: Task<Void, Never>?
    var tasks: [Task<Void, Never>] = []
    /// Whether the current state's tasks wait to start once the transition into it completes.
    var tasksPending = false

    init() {}

    /// Leaves the current state: cancels its timeouts and tasks and starts a new epoch, so that
    /// their events already queued are dropped as stale.
    func leave() {
        epoch &+= 1
        cancelAll()
    }

    /// Cancels the timeouts and tasks, and the tasks waiting to start, but keeps the epoch: the
    /// machine is finishing or stopping in this state, and timer events already queued are still
    /// its own (processed by `finish()`, recorded as stopped by `stop()`).
    func cancelAll() {
        tasksPending = false
        timeouts?.cancel()
        for task in tasks { task.cancel() }
        timeouts = nil
        tasks = []
    }
}
