/// A handle on an event posted with a delay, by ``Machine/schedule(_:after:predicates:)`` or
/// ``TransitionContext/schedule(_:after:predicates:)``: cancel it before it is delivered.
///
/// ```swift
/// let reminder = try machine.schedule(.remind, after: .seconds(60))
/// reminder.cancel()
/// ```
public final class ScheduledEvent: Sendable {
    private enum Status { case pending, cancelled, delivered }

    private let state = Locked<(status: Status, timer: Task<Void, Never>?)>((.pending, nil))
    /// Called once if the event is cancelled before delivery: a durable machine forgets it.
    private let onCancel: (@Sendable () -> Void)?

    init(onCancel: (@Sendable () -> Void)? = nil) { self.onCancel = onCancel }

    /// Whether the event still waits for its time: it is neither cancelled nor delivered.
    public var isPending: Bool { state.withLock { $0.status == .pending } }

    /// Cancels the event if it is still waiting.
    ///
    /// - Returns: `true` if it was waiting and will now never be delivered; `false` if it was
    ///   already delivered or cancelled.
    @discardableResult
    public func cancel() -> Bool {
        let (cancelled, timer) = state.withLock { state -> (Bool, Task<Void, Never>?) in
            guard state.status == .pending else { return (false, nil) }
            state.status = .cancelled
            defer { state.timer = nil }
            return (true, state.timer)
        }
        timer?.cancel()
        if cancelled { onCancel?() }
        return cancelled
    }

    /// Cancels the event because its machine stops taking events, without telling a durable
    /// machine's journal: the store keeps it, and a restored machine delivers it.
    func withdraw() {
        let timer = state.withLock { state -> Task<Void, Never>? in
            guard state.status == .pending else { return nil }
            state.status = .cancelled
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
    }

    /// Keeps the task that waits for the delay, so `cancel()` can end the wait early.
    func attach(_ timer: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            if state.status == .pending { state.timer = timer }
            return state.status == .cancelled
        }
        if cancelled { timer.cancel() }
    }

    /// Marks the event delivered, unless it was cancelled first.
    func markDelivered() -> Bool {
        state.withLock { state in
            guard state.status == .pending else { return false }
            state.status = .delivered
            state.timer = nil
            return true
        }
    }
}
