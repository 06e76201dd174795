// Finishing, stopping, failing: how a machine ends, and what it answers on the way.

extension Machine {
    /// Stops taking events, processes those already queued, then stops: the graceful end, as
    /// ``Supervisor/shutdown()`` is for a supervisor's machines. Returns once stopped; called
    /// from one of the machine's own actions, it returns at once and the machine stops when its
    /// inbox is empty. After `stop()` it returns at once.
    public func shutdown() async {
        guard beginFinishing() else { return }
        if ActionScope.machines.contains(ObjectIdentifier(self)) { return }
        await withCheckedContinuation { continuation in
            if !core.awaitEnd(continuation) { continuation.resume() }
        }
    }

    /// Runs until the machine ends, in the shape of a swift-service-lifecycle `Service`: returns
    /// once `shutdown()` or `stop()` has ended it, and treats cancellation of the calling task as
    /// a hard stop (``stop()``), after which it throws `CancellationError`.
    ///
    /// The machine processes events whether or not anyone calls `run()`; call it to tie the
    /// machine's life to a task, for example a service group's. After a cancellation it returns
    /// once the event in progress has completed, which takes as long as its actions take to
    /// honour the cancellation. Called from one of the machine's own actions, it returns at once.
    ///
    /// - Throws: the action's error if the machine stopped after a failure under the `.stop`
    ///   policy; `CancellationError` if the task was cancelled.
    public func run() async throws {
        if ActionScope.machines.contains(ObjectIdentifier(self)) { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if !core.awaitEnd(continuation) { continuation.resume() }
            }
        } onCancel: {
            Task { await self.stop() }
        }
        if case .failed(let error) = core.termination { throw error }
        try Task.checkCancellation()
    }

    /// Stops taking events, and stops at once if nothing is queued or in progress.
    ///
    /// - Returns: whether the machine still has events to process before it stops.
    @discardableResult
    func beginFinishing() -> Bool {
        switch core.finish() {
        case .none:
            return false
        case .awaitEnd:
            return true
        case .closeInbox:
            let idle = closeInbox(stopping: false)
            perform(core.inboxClosed(idle: idle), queueIsEmpty: true)
            return !core.hasEnded
        }
    }

    /// Finishes, and returns once the machine has ended, also if it was stopping already
    /// (`finish()` returns at once then).
    package func finishAndAwaitEnd() async {
        await shutdown()
        await awaitEnd()
    }

    /// Stops now. Senders awaiting queued events are answered with ``MachineError`` `.stopped`
    /// at once; the event in progress completes (its asynchronous actions see task
    /// cancellation); then every queued event gets the outcome `.stopped` and streams finish.
    /// It returns before that: ``run()`` waits for the end.
    public func stop() {
        terminate(.stopped)
    }

    /// Returns once the machine has ended: its event in progress has completed and its last
    /// records are published. Called from one of its own actions, it returns at once: the
    /// machine cannot end while the action waits. For a supervisor's hard stop.
    package func awaitEnd() async {
        if ActionScope.machines.contains(ObjectIdentifier(self)) { return }
        await withCheckedContinuation { continuation in
            if !core.awaitEnd(continuation) { continuation.resume() }
        }
    }

    /// Applies the failure policy after an action threw `failure`.
    @usableFromInline func applyFailurePolicy(after failure: any Error) {
        switch core.failed(failure, policy: configuration.failurePolicy, in: schema.storage) {
        case .none:
            break
        case .terminate(let reason):
            terminate(reason)
        case .entered(let commit):
            perform(commit)
        case .enteredOffTable(let errorState):
            timers?.cancelAll()
            if !stateSubscribers.isEmpty { stateSubscribers.publish(errorState) }
        }
    }

    /// Stops the machine for `reason`: it takes nothing more, its actions in progress are
    /// cancelled, and it ends once processing ends (at once if nothing is in progress).
    @usableFromInline func terminate(_ reason: MachineTermination) {
        guard core.stop(reason) == .closeInboxAndCancel else { return }
        let idle = closeInbox(stopping: true)
        inFlight?.cancel()
        perform(core.inboxClosed(idle: idle), queueIsEmpty: true)
    }

    /// Carries out what the lifecycle requires once nothing owns processing.
    @usableFromInline func processingEnded() {
        perform(core.processingEnded(), queueIsEmpty: false)
    }

    /// Carries out what the lifecycle requires at an end of processing.
    ///
    /// - Parameter queueIsEmpty: whether the inbox's queue is known to be empty, which spares a
    ///   turn of its lock.
    func perform(_ action: MachineLifecycle<CheckedContinuation<Void, Never>>.EndAction, queueIsEmpty: Bool) {
        switch action {
        case .none: break
        case .stopFinished: terminate(.finished)
        case .end(let reason, let waiters): end(reason, waking: waiters, queueIsEmpty: queueIsEmpty)
        }
    }

    /// Stops taking new events (or, when `stopping`, anything at all): refuses the senders
    /// waiting for room and cancels every timer, task and delayed post. Timer events already in
    /// the inbox stay valid: they fired before, like any event queued before.
    ///
    /// - Returns: whether the inbox was idle (nothing queued or processing), to tell the core.
    func closeInbox(stopping: Bool) -> Bool {
        timers?.cancelAll()
        defer { resumeRefusalWatchers() }
        // The delayed posts close first, in the turn of the lock that stops an idle inbox, so
        // that none is accepted once the inbox closes.
        let (delayed, idle) = mailbox.withLock { ($0.delayedPosts.close(), $0.inbox.closeIfIdle()) }
        // Withdrawn, not cancelled: a durable machine keeps them in its store, to deliver them
        // when it is restored.
        for event in delayed { event.withdraw() }
        if idle { return true }
        let closing = mailbox.withLock { $0.inbox.close(stopping: stopping) }
        for waiter in closing.waiters { waiter.answer(.refused, admission: .refused) }
        // Their events keep their places, to get `.stopped` records after the one in progress.
        for sender in closing.queuedSenders { sender.resume(returning: .stoppedInQueue) }
        return closing.isIdle
    }

    /// Ends the machine once nothing is in progress: queued events get the outcome `.stopped`
    /// (after the record of the event that was in progress), the parent learns of the end,
    /// every stream finishes, and `waiters` (callers of `finish()`) return.
    func end(_ reason: MachineTermination, waking waiters: [CheckedContinuation<Void, Never>], queueIsEmpty: Bool) {
        // Each step is skipped when it has nothing to do: a supervisor's shutdown ends a
        // million idle machines, and this code is not specialized for their types.
        if !queueIsEmpty || postponedCount > 0 {
            extras?.postponedCount = 0
            for entry in mailbox.withLock({ $0.inbox.takeAll() }) { stopUnprocessed(entry) }
        }
        settings.instrument?.machineEnded(id, termination: reason)
        if let link, link.wantsStopReport { link.stopped(id, generation, reason) }
        if hasHadSubscribers {
            subscribers.finish()
            stateSubscribers.finish()
            extras?.dataSubscribers.finish()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Resumes the tests waiting for the machine to refuse events.
    func resumeRefusalWatchers() {
        guard !watchers.refusal.isEmpty else { return }
        for watcher in watchers.refusal { watcher.resume() }
        watchers.refusal = []
    }

    /// Gives an event a stopped machine will not process the outcome `.stopped`, or drops it
    /// if it is a stale timer event.
    @usableFromInline func stopUnprocessed(_ entry: Entry) {
        switch core.discard(eventFrom: entry.epoch) {
        case .dropStale:
            droppedTimerEvent(entry.origin)
        case .recordStopped(let number):
            let turn = EventTurn<Definition>(
                entry.event, predicates: entry.predicates ?? settings.standingPredicates, origin: entry.origin,
                acceptedAt: .now, number: number, source: state, postponements: entry.postponements)
            let record = complete(turn, outcome: .stopped, run: ActionRun(), location: nil)
            entry.reply?.resume(returning: .processed(record))
        }
    }
}
