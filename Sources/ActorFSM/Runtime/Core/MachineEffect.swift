// What the machine core's inputs return for the actor to carry out. Top-level types, not nested
// in the generic core: code not specialized for the machine's types (a supervisor's shutdown of a
// million machines) then handles them without looking up generic metadata.

/// What the machine must do after an input of its lifecycle or its failure policy: the one
/// type of effect those inputs return, carried out in one place (`Machine.perform(_:)`).
/// No case carries a `State`.
@usableFromInline
enum MachineEffect<Waiter: Sendable> {
    /// Nothing.
    case none
    /// Close the inbox to new events (or, when `stopping`, to everything), cancel the actions in
    /// progress if `cancelling`, then tell the core with `MachineCore.inboxClosed(idle:)`.
    case closeInbox(stopping: Bool, cancelling: Bool)
    /// End the machine: stop its queued events, tell its parent `reason`, finish its streams
    /// and resume `waiters`.
    case end(MachineTermination, waiters: [Waiter])
    /// The machine entered a state of the schema (the failure policy's error state).
    case enter(StateCommit)
    /// The machine entered a state the schema does not know (the failure policy's error
    /// state, `MachineCore.offTableState`): publish it, and cancel the old state's timers.
    case enterOffTable
}

/// What a commit requires.
@usableFromInline
struct StateCommit {
    /// Whether the state changed: publish it to the state subscribers.
    @usableFromInline let stateChanged: Bool
    /// What becomes of the state's timers.
    @usableFromInline let timers: TimerChange

    @inlinable init(stateChanged: Bool, timers: TimerChange) {
        self.stateChanged = stateChanged
        self.timers = timers
    }
}

/// What becomes of the timers when the machine enters a state.
@usableFromInline
enum TimerChange: Equatable {
    /// Nothing: the schema has no timed states, or the state was not re-entered.
    case keep
    /// Cancel the old state's timeouts and tasks; arm nothing, since the machine no longer
    /// takes events.
    case cancel
    /// Cancel the old state's timeouts and tasks, and arm the new state's timeouts for this
    /// epoch; its tasks start once the transition completes (see `MachineCore.takePendingTasks()`).
    case rearm(epoch: UInt64)
}
