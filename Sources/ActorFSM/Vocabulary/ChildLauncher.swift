/// How a state task that runs a child machine starts it. The parent calls `start` on its actor
/// each time it enters the state, with its context and the way back into its inbox; the child's
/// side (its supervisor) links the child and returns the parent's hold on it.
@usableFromInline
struct ChildLauncher<Parent: MachineDefinition>: Sendable {
    /// What diagrams say runs in the state: `child Payment`.
    let label: String
    /// Starts or links the child for one entry into the state.
    @usableFromInline let start: @Sendable (StateTaskContext<Parent>, ChildDelivery<Parent>) -> ChildHold
    /// The key a durable child is stored under, for the entry into the state; `nil` in memory.
    @usableFromInline let key: @Sendable (StateTaskContext<Parent>) -> String?
    /// Sends the durable child stored under the key its cancelling event, for a restored parent
    /// that had left the state before the child had it, and calls the closure once that is
    /// settled.
    let cancel: @Sendable (String, @escaping @Sendable () -> Void) -> Void

    @usableFromInline init(
        label: String, start: @escaping @Sendable (StateTaskContext<Parent>, ChildDelivery<Parent>) -> ChildHold,
        key: @escaping @Sendable (StateTaskContext<Parent>) -> String?,
        cancel: @escaping @Sendable (String, @escaping @Sendable () -> Void) -> Void
    ) {
        self.label = label
        self.start = start
        self.key = key
        self.cancel = cancel
    }
}

/// The way a child's end enters its parent's inbox, for one entry into the state: the event is
/// dropped as stale if the parent has left the state by its turn.
@usableFromInline
struct ChildDelivery<Parent: MachineDefinition>: Sendable {
    /// Queues the parent's event for the child's end.
    @usableFromInline let deliver: @Sendable (Parent.Event) -> Void

    @usableFromInline init(deliver: @escaping @Sendable (Parent.Event) -> Void) {
        self.deliver = deliver
    }
}

/// A parent's hold on one child while it is in the state.
@usableFromInline
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

    @usableFromInline init(
        key: String?, leave: @escaping @Sendable ((@Sendable () -> Void)?) -> Bool,
        parentEnded: @escaping @Sendable () -> Void
    ) {
        self.key = key
        self.leave = leave
        self.parentEnded = parentEnded
    }
}
