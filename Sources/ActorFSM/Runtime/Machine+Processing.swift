// Processing one event: find the transition, run its actions, commit, record.

extension Machine {
    /// Processes one event, or a state timeout when `event` is `nil` (its duration is in `origin`).
    ///
    /// - Parameters:
    ///   - scope: the sender's action scope, read only if an asynchronous action runs.
    ///   - replying: whether the caller needs the record. Without a caller, subscriber,
    ///     supervisor or instrument to read it, the record is not published and its completion
    ///     time is not read from the clock.
    @inlinable @inline(__always)
    ///   - postponements: how often the event was postponed before.
    /// - Returns: the event's record; one that ``TransitionRecord/isPostponement`` if the event
    ///   was postponed (the caller then keeps it with ``postpone(_:)``).
    func process(
        _ event: Event?, _ predicates: PredicateContext?, origin: EventOrigin, acceptedAt: Timestamp,
        postponements: UInt32 = 0, scope: @autoclosure () -> [ObjectIdentifier], replying: Bool
    ) async -> Record {
        let context = predicates ?? settings.standingPredicates
        let step = core.begin(event, in: context, origin: origin, of: schema.storage, data: committedData)
        let turn = EventTurn<Definition>(event, predicates: context, origin: origin, acceptedAt: acceptedAt,
                                         number: step.number, source: currentState, postponements: postponements)
        if case .fires(let index) = step.found {
            let transition = schema.storage.actions.hot[Int(index)]
            if transition.postpones { return postponing(turn, at: index, replying: replying) }
            if !transition.isSynchronous {
                return await process(turn, suspendingAt: index, scope: scope(), replying: replying)
            }
        }
        return process(turn, step.found, replying: replying)
    }

    /// Processes an event without suspending: anything the core can find but a transition with
    /// an asynchronous action.
    @inlinable @inline(__always)
    func process(
        _ turn: EventTurn<Definition>, _ found: LookupResult, replying: Bool
    ) -> Record {
        let storage = schema.storage
        switch found {
        case .unhandled(let reason):
            return complete(turn, outcome: .unhandled(reason), run: ActionRun(), location: nil,
                            observed: isObserved(replying: replying))
        case .conditionFalse(let index):
            return complete(turn, outcome: .conditionFalse, run: ActionRun(),
                            location: storage.actions.transitionLocations[Int(index)], observed: isObserved(replying: replying))
        case .fires(let index):
            let transition = storage.actions.hot[Int(index)]
            var run = ActionRun()
            if transition.runsNothing {
                commit(transition.target)
            } else {
                runSynchronously(transition, turn, run: &run)
            }
            return fired(index, turn, run: run, replying: replying)
        }
    }

    /// Runs a transition's synchronous actions, recording in `run` how many completed and the
    /// error that stopped them.
    @inlinable @inline(__always)
    func runSynchronously(
        _ transition: ActionTable<Definition>.HotTransition, _ turn: EventTurn<Definition>, run: inout ActionRun
    ) {
        do {
            try schema.storage.actions.runSynchronously(transition, event: turn.event, counting: &run.completed, context: {
                actionContext(turn, to: transition.target)
            }, commit: { commit(transition.target) })
        } catch {
            run.failure = error
        }
    }

    /// Processes an event whose transition, at `index`, has an asynchronous action: the actions
    /// run in a task of their own.
    @inlinable
    func process(
        _ turn: EventTurn<Definition>, suspendingAt index: Int32, scope: [ObjectIdentifier], replying: Bool
    ) async -> Record {
        let storage = schema.storage
        let transition = storage.actions.hot[Int(index)]
        // Subscribers must not wait for the records before this one while the actions suspend.
        if publishing.isDraining { publishing.records.wakeReaders() }
        if journal != nil {
            if let failure = await journalIntent(turn.event, turn.predicates, turn.origin, number: turn.number) {
                return refusedForStore(index, turn, failure: failure, replying: replying)
            }
            // Stopped while the intent was written: the actions do not start, and the intent
            // stays open for a restore to process the event.
            if core.hasStopped { return interrupted(index, turn, run: ActionRun(), replying: replying) }
        }
        // Outside readers see the source state until the data is settled below, in the same
        // turn of the actor as the target state.
        stateShownDuringActions = turn.source
        let run = await runInTask(
            transition.runsExit ? storage.actions.exitActions[Int(transition.source)] : Actions(),
            storage.actions.transitionActions[Int(index)],
            transition.runsEntry ? storage.actions.entryActions[Int(transition.target)] : Actions(),
            to: transition.target, in: actionContext(turn, to: transition.target), scope: scope)
        showCommittedState(leaving: turn.source)
        if run.isInterrupted { return interrupted(index, turn, run: run, replying: replying) }
        return fired(index, turn, run: run, replying: replying)
    }

    /// What the actions of `turn`'s transition to the state with id `target` are told.
    @inlinable
    func actionContext(_ turn: borrowing EventTurn<Definition>, to target: Int32) -> TransitionContext<Definition> {
        TransitionContext(turn, target: schema.storage.states[Int(target)], id: id, runtime: self, cell: dataCell())
    }

    /// Whether anyone reads the record of the event in progress.
    @inlinable
    func isObserved(replying: Bool) -> Bool {
        replying || !publishing.records.isEmpty || link?.isListenedTo == true || settings.isInstrumented
    }

    /// The record of a transition that fired, once its actions ran; applies the failure policy
    /// and starts the new state's tasks.
    @inlinable @inline(__always)
    func fired(_ index: Int32, _ turn: borrowing EventTurn<Definition>, run: ActionRun, replying: Bool) -> Record {
        let storage = schema.storage
        settleData(failed: run.failure != nil)
        let record = complete(turn, outcome: run.failure.map { .failed($0) } ?? .transitioned, run: run,
                              location: storage.actions.transitionLocations[Int(index)], observed: isObserved(replying: replying))
        if let failure = run.failure {
            applyFailurePolicy(after: failure)
            if journal != nil { journalCompleted(record) }
        }
        // A failure policy may have entered a final state too.
        if link?.reportsFinalStates == true { reportIfFinal() }
        if storage.timers.hasTimedStates { startPendingStateTasks() }
        return record
    }

    /// Runs a transition's actions in a task of their own, which `stop()` can cancel, with the
    /// sender's scope extended by this machine (for reentrancy detection). The task inherits
    /// the caller's task-local values: a queued event's sender's trace, restored around its
    /// processing, among them.
    @usableFromInline func runInTask(
        _ exit: Actions<Definition>, _ actions: Actions<Definition>, _ entry: Actions<Definition>,
        to target: Int32, in context: TransitionContext<Definition>, scope: [ObjectIdentifier]
    ) async -> ActionRun {
        let chain = scope + [ObjectIdentifier(self)]
        let task = Task {
            await ActionScope.$machines.withValue(chain) {
                await self.runAsynchronously(exit, actions, entry, to: target, in: context)
            }
        }
        running.task = task
        var run = await task.value
        running.task = nil
        // Only the runtime cancels the task: an action that throws once cancelled was stopped.
        if run.failure != nil && task.isCancelled { run.isInterrupted = true }
        return run
    }

    /// Ends what outside readers see of an asynchronous transition from `source`: ``state``
    /// reads the core's state again, and if the actions' commit changed it, `stateChanges()`
    /// publishes it. The caller settles the data before its next suspension, so whoever reads the
    /// data after seeing the new state reads the transition's.
    @usableFromInline func showCommittedState(leaving source: State) {
        stateShownDuringActions = nil
        guard !publishing.states.isEmpty else { return }
        let state = currentState
        if state != source { publishing.states.publish(state) }
    }

    /// The record of a transition whose asynchronous actions the runtime stopped: `stop()`, a
    /// supervisor's shutdown or escalation cancelled them and they threw, or the machine stopped
    /// before they could start. It is not a failure: no failure policy applies, the data goes
    /// back to what it was, and the outcome is `.stopped`. A durable machine writes nothing more,
    /// so its intent stays its newest entry: restored, it processes the event again first, under
    /// the same number and idempotency key, as after a crash.
    @usableFromInline func interrupted(_ index: Int32, _ turn: EventTurn<Definition>, run: ActionRun, replying: Bool) -> Record {
        settleData(failed: true)
        journal?.stopWriting()
        return complete(turn, outcome: .stopped, run: run, location: schema.storage.actions.transitionLocations[Int(index)],
                        observed: isObserved(replying: replying))
    }

    /// The record of a transition whose intent the store could not write: its actions do not
    /// run, the data and state stay as they were, and no failure policy applies, since no
    /// action failed. The machine goes on in memory; its sender is told the event is not
    /// durable, and a durable supervisor restores the machine from the store once it works.
    @usableFromInline func refusedForStore(
        _ index: Int32, _ turn: EventTurn<Definition>, failure: any Error, replying: Bool
    ) -> Record {
        settleData(failed: true)
        return complete(turn, outcome: .failed(failure), run: ActionRun(),
                        location: schema.storage.actions.transitionLocations[Int(index)],
                        observed: isObserved(replying: replying))
    }

    @usableFromInline func runAsynchronously(
        _ exit: Actions<Definition>, _ actions: Actions<Definition>, _ entry: Actions<Definition>,
        to target: Int32, in context: TransitionContext<Definition>
    ) async -> ActionRun {
        var run = ActionRun()
        do {
            try await exit.run(in: context, counting: &run.completed)
            try await actions.run(in: context, counting: &run.completed)
            commit(target)
            try await entry.run(in: context, counting: &run.completed)
        } catch {
            run.failure = error
        }
        run.retries = context.cell.takeRetries()
        return run
    }

    /// Enters the state with id `target`: the core commits it, and says whether to publish it
    /// and what becomes of the timers.
    @inlinable
    func commit(_ target: Int32) {
        perform(core.commit(target, in: schema.storage))
    }

    @inlinable
    func perform(_ commit: Core.Commit) {
        if commit.stateChanged && postponedCount > 0 { retryPostponed() }
        if commit.stateChanged && !publishing.states.isEmpty && stateShownDuringActions == nil {
            publishing.states.publish(currentState)
        }
        if case .keep = commit.timers { return }
        changeTimers(commit.timers)
    }

    @inlinable @inline(__always)
    func complete(
        _ turn: borrowing EventTurn<Definition>, outcome: Outcome, run: ActionRun, location: SourceLocation?, observed: Bool = true
    ) -> Record {
        let record = Record(
            turn, machineID: id, target: currentState, outcome: outcome,
            actions: ActionTally(completed: run.completed, retries: run.retries), transitionLocation: location,
            completedAt: observed ? .now : turn.acceptedAt, data: recordsCarryData ? committedData : nil)
        if journal != nil { journalUnlessFailed(record) }
        guard observed else { return record }
        if !publishing.records.isEmpty { publishing.records.publish(record, deferringWakeAt: publishing.isDraining ? record.completed : nil) }
        if link != nil { reportToSupervisor(record) }
        if settings.isInstrumented { reportToInstrument(record) }
        return record
    }

    /// Tells the parent that the transition just completed entered a final state, for the
    /// parent of a child machine. Out of line: only supervisors with children get here.
    @usableFromInline func reportIfFinal() {
        let state = currentState
        guard schema.storage.finalStates.contains(state) else { return }
        // A child in memory whose end is handed over has nothing more to do: it stops (once
        // this event completes) and leaves its supervisor, freeing its id.
        if link?.reachedFinal(self, state, committedData) == true { stop() }
    }

    /// Passes `record` to the parent, if anyone listens to it. Out of line, so that the
    /// supervised path does not grow every inlined copy of `complete`; and it reads `link` in
    /// place: binding it retains it, and every machine of a supervisor shares that one object,
    /// so busy machines on different cores would contend for its reference count.
    @usableFromInline func reportToSupervisor(_ record: Record) {
        guard link?.isListenedTo == true else { return }
        link?.recorded(record)
    }
}
