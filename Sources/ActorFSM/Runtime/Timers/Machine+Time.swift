// Timers: state timeouts, scheduled events and state tasks. Everything that waits does so on the
// configuration's clock, in a task of its own, and comes back to the actor to join the inbox.

extension Machine {
    /// Posts `event` once `delay` has passed on the machine's clock (see
    /// ``MachineConfiguration/clock``), with origin ``EventOrigin/scheduled``.
    ///
    /// The event joins the inbox when its time comes, even if the inbox is full then, and from
    /// that moment gets a record like any other. Until then ``ScheduledEvent/cancel()`` withdraws
    /// it, and so do `shutdown()` and `stop()`: a withdrawn event gets no record. Unlike
    /// ``post(_:predicates:)``, it never waits for room.
    ///
    /// - Throws: ``MachineError`` `.stopped` if the machine no longer takes events.
    @discardableResult
    public nonisolated func schedule(
        _ event: Event, after delay: Duration, predicates: PredicateContext? = nil
    ) throws(MachineError<Definition>) -> ScheduledEvent {
        guard let scheduled = scheduleDelayed(event, after: delay, predicates: predicates) else {
            throw refusal(.stopped, origin: .scheduled)
        }
        return scheduled
    }

    /// Schedules a scheduled event, from the actor or from an action running off it. A durable
    /// machine writes it to its journal (see ``MachineJournaling/registerScheduled(_:_:after:fromAction:)``), or,
    /// restoring one, passes its stored `ticket`.
    nonisolated func scheduleDelayed(
        _ event: Event, after delay: Duration, predicates: PredicateContext?, ticket stored: UInt64? = nil,
        fromAction: Bool = false
    ) -> ScheduledEvent? {
        let ticket = journal.map {
            stored ?? $0.registerScheduled(event, predicates, after: delay, fromAction: fromAction)
        } ?? 0
        var onCancel: (@Sendable () -> Void)?
        if let journal, ticket != 0 { onCancel = { journal.cancelled(ticket) } }
        let scheduled = ScheduledEvent(onCancel: onCancel)
        guard mailbox.withLock({ $0.scheduledEvents.add(scheduled) }) else {
            if ticket != 0 { journal?.cancelled(ticket) }
            return nil
        }
        let alarm = Alarm(after: delay, on: configuration.clock)
        let trace = callerContext
        let due = alarm.deadline
        scheduled.attach(alarm.start { lateness in
            await self.deliver(scheduled, event, predicates, lateness: lateness, trace: trace, ticket: ticket, due: due)
        })
        return scheduled
    }

    /// Called when a scheduled event's wait ends: `lateness` after its deadline, or `nil` if it was
    /// cancelled.
    func deliver(
        _ scheduled: ScheduledEvent, _ event: Event, _ predicates: PredicateContext?, lateness: Duration?,
        trace: (any AnyObject & Sendable)?, ticket: UInt64 = 0, due: TimerDeadline
    ) {
        mailbox.withLock { $0.scheduledEvents.remove(scheduled) }
        guard let lateness, core.takesTimerEvents, scheduled.markDelivered() else { return }
        settings.instrument?.timerFired(by: id, origin: .scheduled, lateness: lateness)
        appendTimerEvent(event, predicates, origin: .scheduled, epoch: 0, trace: trace, ticket: ticket, due: due)
    }

    /// Starts the initial state's timeouts and tasks, whose deadlines `init` fixed, unless the
    /// machine has left that state meanwhile.
    @inlinable func armInitialState(_ alarms: [(Alarm, Duration)]) {
        guard core.armInitialState(), let timers else { return }
        timers.timeouts = startTimeouts(alarms, epoch: core.epoch)
        startPendingStateTasks()
    }

    /// Carries out what the core decided for the timers on entering a state: cancel the old
    /// state's, and arm the new state's timeouts (its tasks start once the transition completes).
    @inlinable func changeTimers(_ change: Core.TimerChange) {
        let timers = self.timers ?? StateTimers()
        self.timers = timers
        leaveChildren(timers)
        timers.cancelAll()
        guard case .rearm(let epoch) = change else {
            journal?.cancelledTimeouts()
            return
        }
        let clock = configuration.clock
        if let journal {
            // A state without timeouts has no deadlines to keep: the journal says it has none.
            if schema.storage.timers.stateTimeouts[Int(core.stateID)].isEmpty {
                journal.cancelledTimeouts()
            } else {
                journal.enteredTimedState()
            }
        }
        let alarms = schema.storage.timers.stateTimeouts[Int(core.stateID)].map {
            (Alarm(after: $0.duration, on: clock), $0.duration)
        }
        timers.timeouts = startTimeouts(alarms, epoch: epoch)
    }

    /// Starts one task that waits for the state's deadlines in turn, shortest first (the order of
    /// `alarms`), and reports each: timeouts due together reach the inbox in the order of their
    /// durations, whichever way the clock wakes its sleepers.
    @usableFromInline func startTimeouts(_ alarms: [(Alarm, Duration)], epoch: UInt64) -> Task<Void, Never>? {
        guard !alarms.isEmpty else { return nil }
        return Task.detached {
            for (alarm, duration) in alarms {
                let lateness: Duration
                do { lateness = try await alarm.wait() } catch { return }
                await self.timeoutFired(after: duration, epoch: epoch, lateness: lateness, due: alarm.deadline)
            }
        }
    }

    func timeoutFired(after duration: Duration, epoch: UInt64, lateness: Duration, due: TimerDeadline) {
        guard core.admitsTimerEvent(from: epoch) else { return droppedTimerEvent(.timeout(after: duration)) }
        settings.instrument?.timerFired(by: id, origin: .timeout(after: duration), lateness: lateness)
        appendTimerEvent(nil, nil, origin: .timeout(after: duration), epoch: epoch, due: due)
    }

    /// Starts the tasks of the state just entered, once the transition into it has completed.
    @inlinable func startPendingStateTasks() {
        guard let start = core.takePendingTasks() else { return }
        let timers = self.timers ?? StateTimers()
        self.timers = timers
        let epoch = start.epoch
        let context = StateTaskContext<Definition>(state: currentState, id: id, data: committedData)
        for (slot, task) in schema.storage.timers.stateTasks[Int(start.stateID)].enumerated() {
            if let child = task.child {
                // A durable machine restored in the state does not take an end it has processed.
                if journal?.hasProcessedChildEnd(slot) == true { continue }
                timers.stateID = start.stateID
                timers.children.append((slot, child.start(context, ChildDelivery { [weak self] event in
                    self?.childEnded(event, epoch: epoch, slot: slot)
                })))
                continue
            }
            timers.tasks.append(Task.detached {
                // A result that comes despite cancellation is still handed over, to be dropped
                // (and counted) on the actor.
                guard let event = await task.operation(context) else { return }
                await self.stateTaskFinished(event, epoch: epoch)
            })
        }
    }

    @inlinable func stateTaskFinished(_ event: Event, epoch: UInt64) {
        guard core.admitsTimerEvent(from: epoch) else { return droppedTimerEvent(.stateTask) }
        appendTimerEvent(event, nil, origin: .stateTask, epoch: epoch)
    }

    /// Lets go of the children of the state the machine left: each that has not ended is sent
    /// its cancelling event. A durable machine writes the cancellation with its entries until
    /// the child has had it, and a restored machine sends it again.
    @usableFromInline func leaveChildren(_ timers: StateTimers) {
        guard !timers.children.isEmpty else { return }
        let left = timers.stateID
        for (slot, hold) in timers.children {
            guard let journal, let key = hold.key, left >= 0 else {
                _ = hold.leave(nil)
                continue
            }
            let ticket = journal.cancellingChild(in: schema.storage.states[Int(left)], stateID: left, slot: slot, key: key)
            if !hold.leave({ journal.childCancelled(ticket) }) { journal.childCancelled(ticket) }
        }
        timers.children = []
    }

    /// Queues the event for a child machine's end, from whichever thread the child's end is
    /// handed over on, unless the machine has stopped. Like a timer event, it is admitted even
    /// when the inbox is full, and dropped as stale if the machine has left the state by its turn.
    @inlinable nonisolated func childEnded(_ event: Event, epoch: UInt64, slot: Int) {
        var entry = Entry(event: event, predicates: nil, origin: .stateTask, acceptedAt: .now,
                          ticket: Self.childEndTicketFlag | UInt64(slot), trace: nil)
        entry.epoch = epoch
        guard let resumptions = mailbox.withLock({ $0.inbox.childEnd(entry) }) else { return }
        if !resumptions.isEmpty { perform(resumptions) }
        reportQueued(origin: .stateTask)
    }

    /// Queues an event the machine's own timers produced. It is admitted even when the inbox is
    /// full: there is at most one per timer, and dropping it would lose it. A timer due at `due`
    /// while the machine is paused waits aside, and joins the queue on the resume in the order
    /// of the deadlines (see `resumeInMemory(postingNext:)`).
    @inlinable func appendTimerEvent(
        _ event: Event?, _ predicates: PredicateContext?, origin: EventOrigin, epoch: UInt64,
        trace: (any AnyObject & Sendable)? = nil, ticket: UInt64 = 0, due: TimerDeadline? = nil
    ) {
        var entry = Entry(event: event, predicates: predicates, origin: origin, acceptedAt: .now,
                          ticket: Self.entryTicket(ticket), trace: trace)
        entry.epoch = epoch
        if let due, core.isPaused {
            holdWhilePaused(entry, due: due)
        } else {
            perform(mailbox.withLock { $0.inbox.timerEvent(entry) })
        }
        reportQueued(origin: origin)
    }

    /// Keeps a timer event that fell due while the machine is paused, for the resume.
    @usableFromInline func holdWhilePaused(_ entry: Entry, due: TimerDeadline) {
        let held = makeExtras()
        // Kept in the order of the deadlines: each timer's task rings whenever the executor
        // runs it, and a restored machine's overdue timers ring at once, together.
        let place = held.heldTimerEvents.firstIndex { due.precedes($0.due) } ?? held.heldTimerEvents.endIndex
        held.heldTimerEvents.insert((due, entry), at: place)
        if !held.heldWatchers.isEmpty {
            for watcher in held.heldWatchers.reached(held.heldTimerEvents.count) { watcher.resume() }
        }
    }

    /// Counts a timeout or task result dropped because the machine left its state (or stopped
    /// taking events) before it could be processed.
    @usableFromInline func droppedTimerEvent(_ origin: EventOrigin) {
        settings.instrument?.timerEventDropped(by: id, origin: origin)
        let extras = makeExtras()
        extras.watchers.droppedTimerEvents += 1
        if !extras.watchers.dropped.isEmpty {
            for watcher in extras.watchers.dropped.reached(extras.watchers.droppedTimerEvents) { watcher.resume() }
        }
    }

    /// Returns once at least `count` timeouts or task results have been dropped as stale.
    package func untilDroppedTimerEvents(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let extras = makeExtras()
            if !extras.watchers.dropped.wait(until: count, continuation, current: extras.watchers.droppedTimerEvents) {
                continuation.resume()
            }
        }
    }
}
