import Synchronization

// The drain: the task that works through queued events while there are any.

extension Machine {
    /// Called when the sender that processed an event inline is done with it.
    @inlinable
    func processingFinished() {
        if mailbox.withLock({ $0.inbox.endInline(stopped: core.hasStopped) }) {
            startDrain()
            return
        }
        settle()
    }

    /// Processes queued events until the inbox is empty. Runs in a task of its own, started
    /// only while there is work, so an idle machine holds no task.
    @inlinable
    func drain() async {
        var batch = RingBuffer<Entry>()
        // When the drain last found the queue empty, while it still owns it.
        var idleSince: ContinuousClock.Instant?
        // Whether the last batch was smaller than the limit: the drain is keeping up.
        var keepingUp = false
        let batchLimit = mailbox.withLock { $0.inbox.batchLimit }
        publishing.isDraining = true
        defer {
            publishing.isDraining = false
            publishing.records.wakeReaders()
        }
        while core.isProcessing || runsInterruptedWhilePaused {
            var resumptions = Inbox<Definition>.Resumptions()
            let keep = idleSince.map { ContinuousClock.now - $0 < Self.idleWindow } ?? true
            guard let took = takeBatch(into: &batch, &resumptions, keepingOwnership: keep, keepingUp: keepingUp),
                  took
            else {
                if !keep { break }
                // Still the owner: let a producer on another thread post more (or finish its
                // turn of the lock) before stopping. Starting a new drain for its next event
                // costs a task and a thread wake-up. The window runs from the first empty or
                // busy try, so the wait is bounded either way.
                if idleSince == nil {
                    idleSince = .now
                } else {
                    // Still nothing after a turn: a subscriber waiting for the records may be
                    // what the producer waits for.
                    publishing.records.wakeReaders()
                }
                await Task.yield()
                continue
            }
            idleSince = nil
            keepingUp = batch.count < batchLimit
            let small = batch.count < Self.smallBatch
            if !resumptions.isEmpty { perform(resumptions) }
            guard await process(&batch) else { break }
            // Keeping up with a producer a couple of events at a time, the drain and the
            // producer meet at the lock for nearly every event. A turn of the scheduler first
            // lets a few more gather, so that batches grow and the lock is met less often.
            if small && keepingUp { await Task.yield() }
        }
        if core.hasStopped {
            // Events of the batch that did not start come first among those stopped unprocessed.
            for entry in batch.removeAll() { stopUnprocessed(entry) }
            mailbox.withLock { $0.inbox.release() }
        } else if core.isPaused {
            // What is queued waits for the drain the resume starts: this one lets go, once, with
            // no suspension since it stopped taking events, so no other drain started meanwhile.
            mailbox.withLock { $0.inbox.release() }
        }
        settle()
    }

    /// Takes the next batch of queued events into `batch`.
    ///
    /// While keeping up with a producer it only tries the lock: a producer that meets the drain
    /// on every post slows down, which keeps the drain taking one event per turn of the lock.
    ///
    /// - Returns: whether it took any event; `nil` if the lock was busy (which counts as
    ///   finding nothing, without giving up ownership).
    @inlinable @inline(__always)
    func takeBatch(
        into batch: inout RingBuffer<Entry>, _ resumptions: inout Inbox<Definition>.Resumptions,
        keepingOwnership keep: Bool, keepingUp: Bool
    ) -> Bool? {
        if keep && keepingUp {
            return mailbox.withLockIfAvailable {
                $0.inbox.takeBatch(into: &batch, resumptions: &resumptions, keepingOwnership: true)
            }
        }
        return mailbox.withLock { $0.inbox.takeBatch(into: &batch, resumptions: &resumptions, keepingOwnership: keep) }
    }

    /// Processes the events of `batch` in order, replying to their senders.
    ///
    /// - Returns: `false` if the machine stopped on the way; the event it was about to start
    ///   has then got its `.stopped` record, and the rest stay in `batch`.
    @inlinable @inline(__always)
    func process(_ batch: inout RingBuffer<Entry>) async -> Bool {
        while let entry = batch.popFirst() {
            switch core.turn(ofEventFrom: entry.epoch) {
            case .process:
                await processTaken(entry, &batch)
            case .dropStale:
                droppedTimerEvent(entry.origin)
            case .stop:
                stopUnprocessed(entry)
                return false
            case .pause:
                // A restored machine's interrupted transition completes first, as the one in
                // progress at a pause does: the journal writes nothing else before its entry,
                // and restored, the machine queues it first.
                if runsInterruptedWhilePaused {
                    await processTaken(entry, &batch)
                    continue
                }
                mailbox.withLock { $0.inbox.putBack(entry, &batch) }
                return false
            }
        }
        return true
    }

    /// Whether a paused machine still processes: a restored one whose interrupted transition
    /// runs again first, as the transition in progress at a pause completes.
    @inlinable var runsInterruptedWhilePaused: Bool {
        core.isPaused && journal?.awaitsInterrupted == true
    }

    /// Processes `entry`, taken from `batch`, and replies to its sender.
    @inlinable @inline(__always)
    func processTaken(_ entry: Entry, _ batch: inout RingBuffer<Entry>) async {
        if entry.ticket & Self.journalTicketFlags != 0 { journalProcessing(ticket: entry.ticket) }
        let record = if let trace = entry.trace, let instrument = settings.instrument {
            await process(entry, in: trace, of: instrument)
        } else {
            await process(entry.event, entry.predicates, origin: entry.origin, acceptedAt: entry.acceptedAt,
                          postponements: entry.postponements, scope: entry.senderScope, replying: entry.reply != nil)
        }
        if record.isPostponement {
            if journal != nil { journalProcessing(ticket: 0) }
            postpone(entry)
        } else {
            entry.reply?.resume(returning: .processed(record))
        }
        if journal != nil { await throttleJournal() }
        // Events the transition posted to be processed next go ahead of the batch's rest.
        if hasUpNext.load(ordering: .acquiring) {
            hasUpNext.store(false, ordering: .relaxed)
            mailbox.withLock { $0.inbox.takeUpNext(ahead: &batch) }
        }
    }

    /// How long an idle drain keeps yielding, still owning the inbox, before it stops. Starting
    /// a drain costs a task and often a thread wake-up; a producer that posts more often than
    /// this keeps one drain busy. The price is up to this much of a pool thread's time (in
    /// scheduler turns, which let other tasks run) each time a machine goes idle.
    @usableFromInline static var idleWindow: Duration { .microseconds(10) }

    /// A batch smaller than this, taken while keeping up with producers, is followed by a turn
    /// of the scheduler before the next one.
    @usableFromInline static var smallBatch: Int { 4 }

    /// Carries out what an inbox operation asks for, outside its lock.
    @inlinable
    nonisolated func perform(_ resumptions: Inbox<Definition>.Resumptions) {
        if resumptions.startProcessing { startDrain() }
        for sender in resumptions.admitted { sender.resume(returning: .queued) }
        for watcher in resumptions.watchers { watcher.resume() }
    }

    /// Starts a drain in a task of its own, through the definition's starter if one was made.
    @inlinable
    nonisolated func startDrain() {
        if let drainStarter {
            drainStarter.start(self)
        } else {
            Task.detached { await self.drain() }
        }
    }

    /// After processing: completes a `shutdown()` once drained, and ends a stopping machine.
    @inlinable
    func settle() {
        if core.isAcceptingEvents { return }
        if journal != nil && core.isPaused { recordOperationIfQuiet() }
        // A machine shutting down may have more queued; a stopping one has let go of its inbox.
        if !core.hasStopped && mailbox.withLock({ $0.inbox.isProcessing }) { return }
        processingEnded()
    }
}
