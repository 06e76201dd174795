/// How a state task that runs a child machine starts it. The parent calls `start` on its actor
/// each time it enters the state, with its context and the way back into its inbox; the child's
/// side (its supervisor) links the child and returns the parent's hold on it.
struct ChildLauncher<Parent: MachineDefinition>: Sendable {
    /// What diagrams say runs in the state: `child Payment`.
    let label: String
    /// Starts or links the child for one entry into the state.
    let start: @Sendable (StateTaskContext<Parent>, ChildDelivery<Parent>) -> ChildHold
    /// Sends the durable child stored under the key its cancelling event, for a restored parent
    /// that had left the state before the child had it, and calls the closure once that is
    /// settled.
    let cancel: @Sendable (String, @escaping @Sendable () -> Void) -> Void
}

/// The way a child's end enters its parent's inbox, for one entry into the state: the event is
/// dropped as stale if the parent has left the state by its turn.
struct ChildDelivery<Parent: MachineDefinition>: Sendable {
    /// Queues the parent's event for the child's end.
    let deliver: @Sendable (Parent.Event) -> Void
}

/// A parent's hold on one child while it is in the state.
struct ChildHold: Sendable {
    /// The child's key in its store, for a durable child.
    let key: String?
    /// The parent left the state: a child that has not ended is sent its cancelling event (and
    /// stopped, in memory). Returns whether a cancelling event is on its way; the closure is
    /// called once it is settled (the child had it, or cannot).
    let leave: @Sendable ((@Sendable () -> Void)?) -> Bool
    /// The parent machine ended (stopped, shut down, passivated) while in the state: a child in
    /// memory ends with it; a durable child runs on, and the restored parent links it again.
    let parentEnded: @Sendable () -> Void
}
