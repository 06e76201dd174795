// Finishing, stopping, failing: how a machine ends, and what it answers on the way.

extension Machine {
    /// Stops taking events, processes those already queued, then stops. Returns once stopped;
    /// called from one of the machine's own actions, it returns at once and the machine stops
    /// when its inbox is empty. After `stop()` it returns at once.
    public func finish() async {
        guard beginFinishing() else { return }
        if ActionScope.machines.contains(ObjectIdentifier(self)) { return }
        await withCheckedContinuation { continuation in
            if !lifecycle.awaitEnd(continuation) { continuation.resume() }
        }
    }

    /// Stops taking events, and stops at once if nothing is queued or in progress.
    ///
    /// - Returns: whether the machine still has events to process before it stops.
    @discardableResult
    func beginFinishing() -> Bool {
        // Stopping or stopped: `finish()` returns at once, as it did once the machine stopped
        // taking events (its action in progress may be waiting for the caller to go on).
        guard !lifecycle.hasStopped else { return false }
        if lifecycle.isRunning && inFlight == nil && inbox.withLock({ $0.stopIfIdle() }) {
            // Idle: there is nothing to process, refuse or cancel in the inbox, so the machine
            // ends at once. (A supervisor's shutdown meets a million of these.)
            _ = lifecycle.stop(.finished)
            timers?.cancelAll()
            resumeRefusalWatchers()
            processingEnded(queueIsEmpty: true)
            return false
        }
        if lifecycle.finish() == .closeInbox { closeInbox(stopping: false) }
        // Nothing owns processing only when the queue is empty.
        if !lifecycle.hasStopped && !inbox.withLock({ $0.isActive }) { processingEnded() }
        return !lifecycle.hasEnded
    }

    /// Stops now. Senders awaiting queued events are answered with ``MachineError`` `.stopped`
    /// at once; the event in progress completes (its asynchronous actions see task
    /// cancellation); then every queued event gets the outcome `.stopped` and streams finish.
    public func stop() {
        terminate(.stopped)
    }

    @usableFromInline func applyFailurePolicy(after failure: any Error) {
        switch configuration.failurePolicy.code {
        case .resume:
            break
        case .stop:
            terminate(.failed(failure))
        case .enter(let errorState):
            if let id = schema.storage.table.stateIDs[errorState] {
                commit(id)
            } else {
                timers?.leave()
                stateID = -1
                offTableState = errorState
                if !stateSubscribers.isEmpty { stateSubscribers.publish(errorState) }
            }
        }
    }

    /// Stops the machine for `reason`: it takes nothing more, its actions in progress are
    /// cancelled, and it ends once processing ends (at once if nothing is in progress).
    @usableFromInline func terminate(_ reason: MachineTermination) {
        guard lifecycle.stop(reason) == .closeInboxAndCancel else { return }
        closeInbox(stopping: true)
        inFlight?.cancel()
        if !inbox.withLock({ $0.isActive }) { processingEnded() }
    }

    /// Carries out what the lifecycle requires once nothing owns processing.
    ///
    /// - Parameter queueIsEmpty: whether the caller knows the inbox's queue is empty, which
    ///   spares a turn of its lock.
    @usableFromInline func processingEnded(queueIsEmpty: Bool = false) {
        switch lifecycle.processingEnded() {
        case .none: break
        case .stopFinished: terminate(.finished)
        case .end(let reason, let waiters): end(reason, waking: waiters, queueIsEmpty: queueIsEmpty)
        }
    }

    /// Stops taking new events (or, when `stopping`, anything at all): refuses the senders
    /// waiting for room and cancels every timer, task and delayed post. Timer events already in
    /// the inbox stay valid: they fired before, like any event queued before.
    @usableFromInline func closeInbox(stopping: Bool) {
        let closing = inbox.withLock { $0.close(stopping: stopping) }
        for waiter in closing.waiters {
            waiter.entry.reply?.resume(returning: .refused)
            waiter.admitted?.resume(returning: false)
        }
        // Their events keep their places, to get `.stopped` records after the one in progress.
        for sender in closing.queuedSenders { sender.resume(returning: .refused) }
        resumeRefusalWatchers()
        timers?.cancelAll()
        for event in closing.scheduled { event.cancel() }
    }

    /// Ends the machine once nothing is in progress: queued events get the outcome `.stopped`
    /// (after the record of the event that was in progress), the parent learns of the end,
    /// every stream finishes, and `waiters` (callers of `finish()`) return.
    @usableFromInline func end(
        _ reason: MachineTermination, waking waiters: [CheckedContinuation<Void, Never>], queueIsEmpty: Bool
    ) {
        // Each step is skipped when it has nothing to do: a supervisor's shutdown ends a
        // million idle machines, and this code is not specialized for their types.
        if !queueIsEmpty && !inbox.withLock({ $0.queue.isEmpty }) {
            for entry in inbox.withLock({ $0.takeAll() }) { stopUnprocessed(entry) }
        }
        if let link, link.wantsStopReport { link.stopped(id, generation, reason) }
        if hasHadSubscribers {
            subscribers.finish()
            stateSubscribers.finish()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Resumes the tests waiting for the machine to refuse events.
    func resumeRefusalWatchers() {
        guard !watchers.refusal.isEmpty else { return }
        for watcher in watchers.refusal { watcher.resume() }
        watchers.refusal = []
    }

    /// Gives a queued event the outcome `.stopped`, or drops it if it is a stale timer event.
    @usableFromInline func stopUnprocessed(_ entry: Entry) {
        if entry.epoch != 0 && entry.epoch != timers?.epoch {
            droppedTimerEvent()
        } else {
            stopWithoutProcessing(entry.event, entry.predicates, origin: entry.origin, reply: entry.reply)
        }
    }

    @usableFromInline func stopWithoutProcessing(
        _ event: Event?, _ predicates: PredicateContext?, origin: EventOrigin,
        reply: Entry.ReplySlot?
    ) {
        sequenceNumber += 1
        let record = complete(sequenceNumber, event, predicates ?? settings.standingPredicates, origin, .now,
                              source: state, outcome: .stopped, run: ActionRun(), location: nil)
        reply?.resume(returning: .processed(record))
    }
}
