// Pausing a machine: it keeps its state, its data and what it was given, and does nothing with
// them until it is resumed.

extension Machine {
    /// Pauses the machine: from now on it takes no new event and processes none, until
    /// ``resume(reason:)``.
    ///
    /// - The transition in progress completes (run to completion); the events queued behind it
    ///   stay queued, in order, and their senders wait.
    /// - `send`, `post` and `tryPost` are refused with ``MachineError`` `.paused`.
    /// - Timeouts and scheduled events that fall due wait aside, and join the queue on the
    ///   resume in the order of their deadlines; state tasks' results and children's ends join
    ///   it as they come. All are processed after the resume.
    /// - A state entered by the transition in progress starts its state tasks and children
    ///   only after the resume.
    /// - `stop()` ends it as it ends a running machine; `shutdown()` ends it without processing
    ///   what is queued: those events get the outcome `.stopped`.
    ///
    /// A durable machine records the pause in its history, with `reason`, once the transition
    /// in progress has completed; restored from its store (after a restart, a passivation or a
    /// takeover), it is paused. A restored machine whose transition a crash interrupted runs it
    /// again first. Pausing a paused machine does nothing.
    ///
    /// - Throws: ``MachineError`` `.stopped` if the machine is shutting down or stopping, or is
    ///   in a final state (there is nothing left to hold back).
    public func pause(reason: String = "") throws(MachineError<Definition>) {
        let wasPaused = core.isPaused
        guard wasPaused || !schema.finalStates.contains(currentState), core.pause() else {
            throw MachineError(.stopped, machineID: id)
        }
        mailbox.withLock { $0.inbox.pause() }
        guard !wasPaused else { return }
        resumeRefusalWatchers()
        notePause(reason: reason)
    }

    /// Resumes a paused machine: it takes events again, starts the tasks of the state it is in
    /// if they waited for the resume, and processes what was queued meanwhile, in order. A
    /// durable machine records the resume in its history, with `reason`, before any event.
    /// Resuming a machine that is not paused does nothing.
    public func resume(reason: String = "") {
        _ = resumeRecording(reason: reason)
    }

    /// ``resume(reason:)``, returning the index of the resume's write (0 if nothing was written).
    package func resumeRecording(reason: String) -> UInt64 {
        // A machine an operator is cancelling stays paused until the cancel is written.
        guard core.isPaused, extras?.operators.isCancelling != true else { return 0 }
        let write = recordResume(reason: reason)
        resumeInMemory()
        return write
    }

    /// Resumes the machine, if it is paused, without writing anything: its tasks start if they
    /// waited, and a drain starts for what is queued, with `next` ahead of it.
    ///
    /// - Returns: `false` if `next` was not taken: the machine has stopped.
    @discardableResult
    func resumeInMemory(postingNext next: Entry? = nil) -> Bool {
        if core.resume() == true { startPendingStateTasks() }
        // The timers that fell due meanwhile, in the order of their deadlines, after what
        // joined the queue while the machine was paused.
        let held = extras?.heldTimerEvents ?? []
        if !held.isEmpty { extras?.heldTimerEvents = [] }
        let resumptions = mailbox.withLock { mailbox -> Inbox<Definition>.Resumptions? in
            var resumptions = Inbox<Definition>.Resumptions()
            if let next {
                guard let posted = mailbox.inbox.postNext(next) else { return nil }
                resumptions = posted
            }
            resumptions.startProcessing = mailbox.inbox.resume().startProcessing || resumptions.startProcessing
            for timer in held {
                let queued = mailbox.inbox.timerEvent(timer.entry)
                resumptions.startProcessing = resumptions.startProcessing || queued.startProcessing
                resumptions.watchers += queued.watchers
            }
            return resumptions
        }
        guard let resumptions else {
            // Stopped: its end gives the held timers their records.
            if !held.isEmpty { extras?.heldTimerEvents = held }
            return false
        }

        if !resumptions.isEmpty { perform(resumptions) }
        return true
    }

    /// Whether the machine is paused (see ``pause(reason:)``).
    public var isPaused: Bool { core.isPaused }

    /// Whether the machine is running or paused: it has not begun to end.
    package var isLive: Bool { core.isAcceptingEvents || core.isPaused }

    /// A passivation's end of the machine: as `shutDownAndAwaitEnd(cancellable: false)`, unless
    /// the machine is paused, which a passivation must not take it away from. The check and the
    /// shutdown are one step on the actor, so a pause cannot come between them.
    ///
    /// - Returns: `false` if the machine is paused, and left as it is.
    package func shutDownAndAwaitEndUnlessPaused() async -> Bool {
        guard closeForShutdownUnlessPaused() else { return false }
        await awaitEnd(cancellable: false)
        return true
    }

    /// As `closeForShutdown()`, unless the machine is paused: for a passivation asked from the
    /// machine's own action, which cannot wait for the end.
    ///
    /// - Returns: `false` if the machine is paused, and left as it is.
    package func closeForShutdownUnlessPaused() -> Bool {
        if core.isPaused { return false }
        closeForShutdown()
        return true
    }
}
