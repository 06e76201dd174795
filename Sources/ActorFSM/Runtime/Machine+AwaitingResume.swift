// Senders that choose to wait out an operator's pause rather than be refused: their events
// queue as if they had come before the pause, and are processed after the resume.

extension Machine {
    /// Processes `event` as ``send(_:predicates:)-(_,PredicateContext?)`` does; if the machine is
    /// paused, `whenPaused` chooses between the refusal and the queue: with ``WhenPaused/wait``
    /// the event joins the queue, behind what waits there, and is processed after the resume.
    ///
    /// ```swift
    /// let record = try await order.send(.paid, whenPaused: .wait)
    /// ```
    ///
    /// - Throws: as `send`; while it waits for the resume, `.stopped` if the machine ends
    ///   (shutdown and stop give the queued event the outcome `.stopped`), and `.cancelled` if
    ///   the task is cancelled (the event is withdrawn).
    @discardableResult
    public func send(
        _ event: Event, predicates: PredicateContext? = nil, whenPaused: WhenPaused
    ) async throws(MachineError<Definition>) -> Record {
        guard whenPaused == .wait, core.isPaused else { return try await send(event, predicates: predicates) }
        let scope = ActionScope.machines
        if scope.contains(ObjectIdentifier(self)) { throw refusal(.reentrantSend, origin: .send) }
        if Task.isCancelled { throw refusal(.cancelled, origin: .send) }
        return try await sendThroughInbox(event, predicates, acceptedAt: .now, scope: scope, evenIfPaused: true)
    }

    /// Queues `event` as ``post(_:predicates:)`` does; if the machine is paused, `whenPaused`
    /// chooses between the refusal and the queue: with ``WhenPaused/wait`` the event joins the
    /// queue, to be processed after the resume, waiting for room if the inbox is full.
    ///
    /// - Throws: as `post`.
    public func post(_ event: Event, predicates: PredicateContext? = nil, whenPaused: WhenPaused) async throws(MachineError<Definition>) {
        guard whenPaused == .wait, core.isPaused else { return try await post(event, predicates: predicates) }
        try await enqueueWhenRoom(Entry(event: event, predicates: predicates, origin: .post, acceptedAt: .now,
                                        trace: callerContext), evenIfPaused: true)
        reportQueued(origin: .post)
    }
}
