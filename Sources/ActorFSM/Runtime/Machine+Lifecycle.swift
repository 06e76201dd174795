// Finishing, stopping, failing: how a machine ends, and what it answers on the way.

extension Machine {
    /// Stops taking events, processes those already queued, then stops. Returns once stopped;
    /// called from one of the machine's own actions, it returns at once and the machine stops
    /// when its inbox is empty.
    public func finish() async {
        guard beginFinishing() else { return }
        if ActionScope.machines.contains(ObjectIdentifier(self)) { return }
        await withCheckedContinuation { watchers.finish.append($0) }
    }

    /// Stops taking events, and stops at once if nothing is queued or in progress.
    ///
    /// - Returns: whether the machine still has events to process before it stops.
    @discardableResult
    func beginFinishing() -> Bool {
        guard phase != .stopped else { return false }
        if phase == .running && inFlight == nil && inbox.withLock({ $0.stopIfIdle() }) {
            // Idle: there is nothing to process, refuse or cancel in the inbox, so the machine
            // stops at once. (A supervisor's shutdown meets a million of these.)
            phase = .stopped
            termination = .finished
            timers?.cancelAll()
            if !watchers.refusal.isEmpty {
                for watcher in watchers.refusal { watcher.resume() }
                watchers.refusal = []
            }
            finalize(queueIsEmpty: true)
            return false
        }
        if phase == .running {
            phase = .finishing
            closeInbox(stopping: false)
        }
        // Nothing owns processing only when the queue is empty.
        if !inbox.withLock({ $0.isActive }) {
            terminate(.finished)
            return false
        }
        return true
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

    @usableFromInline func terminate(_ reason: MachineTermination) {
        guard phase != .stopped else { return }
        phase = .stopped
        termination = reason
        closeInbox(stopping: true)
        inFlight?.cancel()
        if !inbox.withLock({ $0.isActive }) { finalize() }
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
        for watcher in watchers.refusal { watcher.resume() }
        watchers.refusal = []
        timers?.cancelAll()
        for event in closing.scheduled { event.cancel() }
    }

    /// Ends the machine once nothing is in progress: queued events get the outcome `.stopped`
    /// (after the record of the event that was in progress), the supervisor learns of the end,
    /// and every stream finishes.
    ///
    /// - Parameter queueIsEmpty: whether the caller knows the inbox's queue is empty, which
    ///   spares a turn of its lock.
    @usableFromInline func finalize(queueIsEmpty: Bool = false) {
        guard !isFinalized else { return }
        isFinalized = true
        // Each step is skipped when it has nothing to do: a supervisor's shutdown finalizes
        // a million idle machines, and this code is not specialized for their types.
        if !queueIsEmpty && !inbox.withLock({ $0.queue.isEmpty }) {
            for entry in inbox.withLock({ $0.takeAll() }) { stopUnprocessed(entry) }
        }
        if let link, link.wantsStopReport {
            link.stopped(id, generation, termination ?? .stopped)
        }
        if hasHadSubscribers {
            subscribers.finish()
            stateSubscribers.finish()
        }
        if !watchers.finish.isEmpty {
            for waiter in watchers.finish { waiter.resume() }
            watchers.finish = []
        }
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
