// What the core answers when a queued event's turn comes, and when a stopped machine gives up
// the events it will not process, and the effect of its end.

extension MachineCore {
    /// What to do with a queued event whose turn has come.
    @usableFromInline
    enum Turn: Equatable {
        /// Process it: call ``begin(_:in:origin:of:)``.
        case process
        /// Drop it: a timer event of a state the machine has left.
        case dropStale
        /// Process nothing more: the machine has stopped. Call ``discard(eventFrom:)`` for it and
        /// every other event left.
        case stop
        /// Process nothing until the machine is resumed: put it back, ahead of the rest.
        case pause
    }

    /// What becomes of an event a stopped machine will not process.
    @usableFromInline
    enum Discard: Equatable {
        /// Drop it without a record: a timer event of a state the machine has left.
        case dropStale
        /// Record it, unprocessed, with the outcome `.stopped` and this number.
        case recordStopped(UInt64)
    }
}

extension MachineCore {
    /// The effect of a lifecycle's end action.
    @inlinable
    func ended(_ action: MachineLifecycle<Waiter>.EndAction) -> Effect {
        if case .end(let reason, let waiters) = action { return .end(reason, waiters: waiters) }
        return .none
    }
}
