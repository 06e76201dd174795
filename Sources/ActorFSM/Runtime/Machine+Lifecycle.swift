// Shutting down, stopping, failing: how a machine ends, and what it answers on the way.

extension Machine {
    /// Stops taking events, processes those already queued, then stops: the graceful end, as
    /// ``Supervisor/shutdown()`` is for a supervisor's machines. Returns once stopped; called
    /// from one of the machine's own actions, it returns at once and the machine stops when its
    /// inbox is empty. After `stop()` it returns at once.
    public func shutdown() async {
        guard closeForShutdown() else { return }
        if ActionScope.machines.contains(ObjectIdentifier(self)) { return }
        let waiter = EndWaiter()
        if waitsForEnd(waiter) { await waiter.wait() }
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
            let waiter = EndWaiter()
            if waitsForEnd(waiter) { await waiter.wait() }
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
    func closeForShutdown() -> Bool {
        // A paused machine stops instead, and ends once the event in progress, if any, completes.
        let paused = core.isPaused
        perform(core.shutDown())
        return core.isShuttingDown || (paused && !core.hasEnded)
    }

    /// Begins the graceful end of a supervisor's shutdown: as ``closeForShutdown()``.
    ///
    /// - Returns: whether the machine has yet to end: it has events to process, or it was
    ///   stopping already and has not ended, so that the shutdown waits for its last record,
    ///   write and report too.
    package func beginShutdown() -> Bool {
        closeForShutdown()
        return !core.hasEnded
    }

    /// Finishes, and returns once the machine has ended, also if it was stopping already
    /// (`shutdown()` returns at once then); if `cancellable`, also once the calling task is
    /// cancelled (see ``awaitEnd(cancellable:)``).
    package func shutDownAndAwaitEnd(cancellable: Bool) async {
        closeForShutdown()
        await awaitEnd(cancellable: cancellable)
    }

    /// Stops now. Senders awaiting queued events are answered with ``MachineError`` `.stopped`
    /// at once; the event in progress completes (its asynchronous actions see task
    /// cancellation); then every queued event gets the outcome `.stopped` and streams finish.
    /// It returns before that: ``run()`` waits for the end.
    public func stop() {
        terminate(.stopped)
    }

    /// Returns once the machine has ended (its event in progress has completed and its last
    /// records are published), or, if `cancellable`, at once when the calling task is
    /// cancelled, before or during the wait: the caller checks which. Called from one of its
    /// own actions, it returns at once: the machine cannot end while the action waits. For a
    /// send that waits for a stopping machine's successor, and (not cancellable, so that no
    /// last record is lost) for a supervisor's hard stop.
    package func awaitEnd(cancellable: Bool = true) async {
        if ActionScope.machines.contains(ObjectIdentifier(self)) { return }
        let waiter = EndWaiter()
        guard waitsForEnd(waiter) else { return }
        guard cancellable else { return await waiter.wait() }
        await withTaskCancellationHandler {
            await waiter.wait()
        } onCancel: {
            waiter.resume()
        }
    }

    /// Hands `waiter` to the core, to be resumed at the machine's end.
    ///
    /// - Returns: `false` if the machine has ended already: the caller does not wait.
    func waitsForEnd(_ waiter: EndWaiter) -> Bool {
        guard core.awaitEnd(waiter) else { return false }
        let extras = makeExtras()
        extras.watchers.endWaiters += 1
        if !extras.watchers.endWaiting.isEmpty {
            for watcher in extras.watchers.endWaiting.reached(extras.watchers.endWaiters) { watcher.resume() }
        }
        return true
    }

    /// Applies the failure policy after an action threw `failure`.
    @usableFromInline func applyFailurePolicy(after failure: any Error) {
        perform(core.failed(failure, policy: configuration.failurePolicy, in: schema.storage))
    }

    /// Stops the machine for `reason`: it takes nothing more, its actions in progress are
    /// cancelled, and it ends once processing ends (at once if nothing is in progress).
    @usableFromInline func terminate(_ reason: MachineTermination) {
        perform(core.stop(reason))
    }

    /// Carries out what the lifecycle requires once nothing owns processing.
    @usableFromInline func processingEnded() {
        perform(core.processingEnded())
    }

    /// Carries out what the core's lifecycle and failure inputs require: the one place their
    /// effects happen. Closing the inbox feeds the core again, and may end the machine.
    @usableFromInline func perform(_ effect: Core.Effect) {
        var effect = effect
        // Whether the inbox was closed idle here, so that its queue is known to be empty at the
        // end (it spares a turn of its lock). A paused machine's inbox may be idle with events
        // queued: they get their `.stopped` records at the end.
        var closedEmpty = false
        while true {
            switch effect {
            case .none:
                return
            case .closeInbox(let stopping, let cancelling):
                let (idle, empty) = closeInbox(stopping: stopping)
                if cancelling { running.task?.cancel() }
                closedEmpty = empty
                effect = core.inboxClosed(idle: idle)
            case .end(let reason, let waiters):
                end(reason, waking: waiters, queueIsEmpty: closedEmpty)
                return
            case .enter(let commit):
                perform(commit)
                return
            case .enterOffTable:
                if let timers { leaveChildren(timers) }
                timers?.cancelAll()
                if !publishing.states.isEmpty, let errorState = core.offTableState { publishing.states.publish(errorState) }
                return
            }
        }
    }

    /// Stops taking new events (or, when `stopping`, anything at all): refuses the senders
    /// waiting for room and cancels every timer, task and scheduled event. Timer events already in
    /// the inbox stay valid: they fired before, like any event queued before.
    ///
    /// - Returns: whether the inbox was idle (nothing processing), to tell the core, and whether
    ///   its queue is known to be empty.
    func closeInbox(stopping: Bool) -> (idle: Bool, empty: Bool) {
        // A parent in memory is gone for good: its children are let go of as when it leaves the
        // state. A durable one comes back, and links its durable children again.
        if journal == nil, let timers { leaveChildren(timers) }
        timers?.cancelAll()
        defer { resumeRefusalWatchers() }
        // The scheduled events close first, in the turn of the lock that stops an idle inbox, so
        // that none is accepted once the inbox closes.
        let (delayed, idle) = mailbox.withLock { ($0.scheduledEvents.close(), $0.inbox.closeIfIdle()) }
        // Withdrawn, not cancelled: a durable machine keeps them in its store, to deliver them
        // when it is restored.
        for event in delayed { event.withdraw() }
        if idle { return (true, true) }
        let closing = mailbox.withLock { $0.inbox.close(stopping: stopping) }
        for waiter in closing.waiters { waiter.answer(.refused, admission: .refused) }
        // Their events keep their places, to get `.stopped` records after the one in progress.
        for sender in closing.queuedSenders { sender.resume(returning: .stoppedInQueue) }
        return (closing.isIdle, false)
    }

    /// Ends the machine once nothing is in progress: queued events get the outcome `.stopped`
    /// (after the record of the event that was in progress), the parent learns of the end,
    /// every stream finishes, and `waiters` (callers of `finish()`) return.
    func end(_ reason: MachineTermination, waking waiters: [EndWaiter], queueIsEmpty: Bool) {
        // Each step is skipped when it has nothing to do: a supervisor's shutdown ends a
        // million idle machines, and this code is not specialized for their types.
        if !queueIsEmpty || postponedCount > 0 {
            extras?.postponedCount = 0
            for entry in mailbox.withLock({ $0.inbox.takeAll() }) { stopUnprocessed(entry) }
        }
        if let held = extras?.heldTimerEvents, !held.isEmpty {
            extras?.heldTimerEvents = []
            for timer in held { stopUnprocessed(timer.entry) }
        }
        settings.instrument?.machineEnded(id, termination: reason)
        if let link, link.wantsStopReport { link.stopped(id, generation, reason) }
        if publishing.hasHadSubscribers {
            publishing.records.finish()
            publishing.states.finish()
            extras?.dataSubscribers.finish()
        }
        for waiter in waiters { waiter.resume() }
        // An operator's act that never got to be written: its callers hear so.
        extras?.operators.finish(.overtaken)

    }

    /// Resumes the tests waiting for the machine to refuse events.
    func resumeRefusalWatchers() {
        guard let extras, !extras.watchers.refusal.isEmpty else { return }
        for watcher in extras.watchers.refusal { watcher.resume() }
        extras.watchers.refusal = []
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
                acceptedAt: .now, number: number, source: currentState, postponements: entry.postponements)
            let record = complete(turn, outcome: .stopped, run: ActionRun(), location: nil)
            entry.reply?.resume(returning: .processed(record))
        }
    }
}
