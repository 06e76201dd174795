// Timers: state timeouts, delayed posts and state tasks. Everything that waits does so on the
// configuration's clock, in a task of its own, and comes back to the actor to join the inbox.

extension Machine {
    /// Posts `event` once `delay` has passed on the machine's clock (see
    /// ``MachineConfiguration/clock``), with origin ``EventOrigin/delayedPost``.
    ///
    /// The event joins the inbox when its time comes, even if the inbox is full then, and from
    /// that moment gets a record like any other. Until then ``ScheduledEvent/cancel()`` withdraws
    /// it, and so do `finish()` and `stop()`: a withdrawn event gets no record.
    ///
    /// - Throws: ``MachineError`` `.stopped` if the machine no longer takes events.
    @discardableResult
    public nonisolated func post(
        _ event: Event, after delay: Duration, predicates: PredicateContext? = nil
    ) throws(MachineError) -> ScheduledEvent {
        guard let scheduled = schedule(event, after: delay, predicates: predicates) else {
            throw MachineError(.stopped)
        }
        return scheduled
    }

    /// Schedules a delayed post, from the actor or from an action running off it.
    nonisolated func schedule(_ event: Event, after delay: Duration, predicates: PredicateContext?) -> ScheduledEvent? {
        let scheduled = ScheduledEvent()
        guard inbox.withLock({ $0.schedule(scheduled) }) else { return nil }
        let alarm = Alarm(after: delay, on: configuration.clock)
        scheduled.attach(alarm.start { elapsed in
            await self.deliver(scheduled, event, predicates, elapsed: elapsed)
        })
        return scheduled
    }

    /// Called when a delayed post's wait ends, elapsed or cancelled.
    func deliver(_ scheduled: ScheduledEvent, _ event: Event, _ predicates: PredicateContext?, elapsed: Bool) {
        inbox.withLock { $0.unschedule(scheduled) }
        guard elapsed, lifecycle.isRunning, scheduled.markDelivered() else { return }
        appendTimerEvent(event, predicates, origin: .delayedPost, epoch: 0)
    }

    /// Starts the initial state's timeouts and tasks, whose deadlines `init` fixed, unless the
    /// machine has left that state meanwhile.
    func armInitialState(_ alarms: [(Alarm, Duration)]) {
        guard lifecycle.isRunning, let timers, timers.epoch == 1 else { return }
        timers.timeouts = startTimeouts(alarms, epoch: 1)
        timers.tasksPending = true
        startPendingStateTasks()
    }

    /// Leaves the old state's timers and arms the new state's timeouts. Its tasks start once the
    /// transition completes, after the entry actions.
    @usableFromInline func enterTimedState(_ target: Int32) {
        let timers = self.timers ?? StateTimers()
        self.timers = timers
        timers.leave()
        guard lifecycle.isRunning else { return }
        let storage = schema.storage
        let clock = configuration.clock
        let alarms = storage.timers.stateTimeouts[Int(target)].map { (Alarm(after: $0.duration, on: clock), $0.duration) }
        timers.timeouts = startTimeouts(alarms, epoch: timers.epoch)
        timers.tasksPending = !storage.timers.stateTasks[Int(target)].isEmpty
    }

    /// Starts one task that waits for the state's deadlines in turn, shortest first (the order of
    /// `alarms`), and reports each: timeouts due together reach the inbox in the order of their
    /// durations, whichever way the clock wakes its sleepers.
    private func startTimeouts(_ alarms: [(Alarm, Duration)], epoch: UInt64) -> Task<Void, Never>? {
        guard !alarms.isEmpty else { return nil }
        return Task.detached {
            for (alarm, duration) in alarms {
                do { try await alarm.wait() } catch { return }
                await self.timeoutFired(after: duration, epoch: epoch)
            }
        }
    }

    func timeoutFired(after duration: Duration, epoch: UInt64) {
        guard lifecycle.isRunning, timers?.epoch == epoch else { return droppedTimerEvent() }
        appendTimerEvent(nil, nil, origin: .timeout(after: duration), epoch: epoch)
    }

    /// Starts the tasks of the state just entered, once the transition into it has completed.
    @usableFromInline func startPendingStateTasks() {
        guard let timers, timers.tasksPending else { return }
        timers.tasksPending = false
        guard lifecycle.isRunning, stateID >= 0 else { return }
        let epoch = timers.epoch
        let context = StateTaskContext(state: state, erasedMachineID: id)
        for task in schema.storage.timers.stateTasks[Int(stateID)] {
            timers.tasks.append(Task.detached {
                // A result that comes despite cancellation is still handed over, to be dropped
                // (and counted) on the actor.
                guard let event = await task.operation(context) else { return }
                await self.stateTaskFinished(event, epoch: epoch)
            })
        }
    }

    func stateTaskFinished(_ event: Event, epoch: UInt64) {
        guard lifecycle.isRunning, timers?.epoch == epoch else { return droppedTimerEvent() }
        appendTimerEvent(event, nil, origin: .stateTask, epoch: epoch)
    }

    /// Queues an event the machine's own timers produced. It is admitted even when the inbox is
    /// full: there is at most one per timer, and dropping it would lose it.
    private func appendTimerEvent(_ event: Event?, _ predicates: PredicateContext?, origin: EventOrigin, epoch: UInt64) {
        let entry = Entry(event: event, predicates: predicates, origin: origin, acceptedAt: .now, epoch: epoch)
        perform(inbox.withLock { $0.timerEvent(entry) })
    }

    /// The lookup for a state timeout, whose duration `origin` carries.
    @usableFromInline func timeoutLookup(
        _ origin: EventOrigin, predicates: PredicateContext
    ) -> LookupResult {
        let storage = schema.storage
        guard let duration = origin.timeout, let eventID = storage.timers.timeoutID(duration) else {
            return .unhandled(UnhandledReason(.unknownEvent))
        }
        return storage.table.lookup(state: stateID, eventID: eventID, event: nil, predicates: predicates)
    }

    /// Counts a timeout or task result dropped because the machine left its state (or stopped
    /// taking events) before it could be processed.
    @usableFromInline func droppedTimerEvent() {
        droppedTimerEvents += 1
        if !watchers.dropped.isEmpty { for watcher in watchers.dropped.reached(droppedTimerEvents) { watcher.resume() } }
    }

    /// Returns once at least `count` timeouts or task results have been dropped as stale.
    package func untilDroppedTimerEvents(_ count: Int) async {
        await withCheckedContinuation { continuation in
            if !watchers.dropped.wait(until: count, continuation, current: droppedTimerEvents) { continuation.resume() }
        }
    }
}
