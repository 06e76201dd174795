/// How a state task that runs a child machine starts it. The parent calls `start` on its actor
/// each time it enters the state, with its context and the way back into its inbox; the child's
/// side (its supervisor) links the child and returns the parent's hold on it.
struct ChildLauncher<Parent: MachineDefinition>: Sendable {
    /// What diagrams say runs in the state: `child Payment`.
    let label: String
    /// Starts or links the child for one entry into the state.
    let start: @Sendable (StateTaskContext<Parent>, ChildDelivery<Parent>) -> ChildHold
}

/// The way a child's end enters its parent's inbox, for one entry into the state: the event is
/// dropped as stale if the parent has left the state by its turn.
struct ChildDelivery<Parent: MachineDefinition>: Sendable {
    /// Queues the parent's event for the child's end.
    let deliver: @Sendable (Parent.Event) -> Void
}

/// A parent's hold on one child while it is in the state.
struct ChildHold: Sendable {
    /// The parent left the state: the child is cancelled and stopped.
    let leave: @Sendable () -> Void
    /// The parent machine ended (stopped, shut down, passivated) while in the state: a child in
    /// memory ends with it; a durable child runs on, and the restored parent links it again.
    let parentEnded: @Sendable () -> Void
}
