// Pausing a machine: it keeps its state, its data and what it was given, and does nothing with
// them until it is resumed.

extension Machine {
    /// Pauses the machine: from now on it takes no new event and processes none, until
    /// ``resume()``.
    ///
    /// - The transition in progress completes (run to completion); the events queued behind it
    ///   stay queued, in order, and their senders wait.
    /// - `send`, `post` and `tryPost` are refused with ``MachineError`` `.paused`.
    /// - Timeouts and scheduled events that fall due, state tasks' results and children's ends
    ///   join the queue as they come, and are processed after the resume, in the order they
    ///   came: timers in the order of their deadlines.
    /// - A state entered by the transition in progress starts its state tasks and children
    ///   only after the resume.
    /// - `stop()` ends it as it ends a running machine; `shutdown()` ends it without processing
    ///   what is queued: those events get the outcome `.stopped`.
    ///
    /// Pausing a paused machine does nothing. The pause is the machine's in this process: a
    /// durable machine restored from its store runs.
    ///
    /// - Throws: ``MachineError`` `.stopped` if the machine is shutting down or stopping.
    public func pause() throws(MachineError<Definition>) {
        guard core.pause() else { throw MachineError(.stopped, machineID: id) }
        mailbox.withLock { $0.inbox.pause() }
    }

    /// Resumes a paused machine: it takes events again, starts the tasks of the state it is in
    /// if they waited for the resume, and processes what was queued meanwhile, in order.
    /// Resuming a machine that is not paused does nothing.
    public func resume() {
        guard let tasksWaited = core.resume() else { return }
        if tasksWaited { startPendingStateTasks() }
        let resumptions = mailbox.withLock { $0.inbox.resume() }
        if !resumptions.isEmpty { perform(resumptions) }
    }

    /// Whether the machine is paused (see ``pause()``).
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
