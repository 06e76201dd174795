// The asynchronous transition a machine is running, and the machines whose actions run in a task.

/// What a machine's actions work with: the task of the asynchronous transition in progress,
/// which `stop()` cancels, and the cell the actions read and write the data through.
///
/// Every field is a reference, so its layout does not depend on the machine's types: code not
/// specialized for them (a supervisor's spawn) makes and destroys it without looking up metadata.
@usableFromInline
struct RunningTransition<Definition: MachineDefinition> {
    /// The task running the transition's actions; `nil` when no action is suspended.
    @usableFromInline var task: Task<ActionRun, Never>?
    /// The data as the actions of the transition in progress see it, made the first time an
    /// action takes the context and kept for the next transition; see `Machine.dataCell()`.
    @usableFromInline var cell: DataCell<Definition.Data>?

    @inlinable init() {}
}

/// What running a transition's actions came to: how many completed, how many retries, and how
/// it failed, if it did.
@usableFromInline
struct ActionRun: Sendable {
    @usableFromInline var completed = 0
    /// How many times a retry policy tried an action again.
    @usableFromInline var retries = 0
    @usableFromInline var failure: (any Error)?
    /// Whether the runtime cancelled the actions (`stop()`, a supervisor's shutdown or
    /// escalation) and they threw: the event was interrupted, not failed.
    @usableFromInline var isInterrupted = false

    @inlinable init() {}
}

/// The machines whose actions are running in the current task (and its child tasks), innermost
/// last. `send` consults it to refuse a send that would wait for itself.
@usableFromInline
package enum ActionScope {
    @usableFromInline @TaskLocal static package var machines: [ObjectIdentifier] = []
}
