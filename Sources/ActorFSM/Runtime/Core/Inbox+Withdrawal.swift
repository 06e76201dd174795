// The inbox's withdrawals, what is left in it at the end, and the questions tests ask it.

extension Inbox {
    // MARK: - Withdrawal and the end

    /// Takes back the event of the sender with `ticket`: a sender waiting for room, or a `send`
    /// whose event is queued and not yet started. (A waiting `post` has returned once its event
    /// is queued, so that event stays.)
    @usableFromInline
    mutating func withdraw(_ ticket: UInt64) -> WithdrawAction {
        var resumptions = Resumptions()
        if let waiter = waiters.removeFirst(where: { $0.entry.ticket == ticket }) {
            return .withdrawn(waiter, resumptions, idle: !isActive)
        }
        guard let entry = queue.removeFirst(where: { $0.ticket == ticket && $0.reply != nil }) else { return .none }
        if !waiters.isEmpty { admitWaiters(into: &resumptions) }
        return .withdrawn(Waiter(entry: entry, admitted: nil), resumptions, idle: !isActive)
    }

    /// Empties the queue, once the machine has stopped, to give each event the outcome `.stopped`.
    @usableFromInline
    mutating func takeAll() -> [Entry] {
        var all: [Entry] = []
        if !upNext.isEmpty { all += upNext.removeAll() }
        if !retried.isEmpty { all += retried.removeAll() }
        if !queue.isEmpty { all += queue.removeAll() }
        if !postponed.isEmpty { all += postponed.removeAll() }
        return all
    }

    // MARK: - Questions

    /// How many accepted events wait, counting those of the batch in progress.
    @usableFromInline var count: Int { upNext.count + retried.count + queue.count + inHand }

    /// Whether a loop on the actor owns processing.
    @usableFromInline var isProcessing: Bool { isActive }

    /// Registers a test watcher for the queue's length to reach `count`; `false` if it has.
    mutating func watchQueue(until count: Int, _ watcher: CheckedContinuation<Void, Never>) -> Bool {
        queueWatchers.wait(until: count, watcher, current: queue.count)
    }

    /// Registers a test watcher for the number of senders waiting for room to reach `count`;
    /// `false` if it has.
    mutating func watchWaiters(until count: Int, _ watcher: CheckedContinuation<Void, Never>) -> Bool {
        waiterWatchers.wait(until: count, watcher, current: waiters.count)
    }

    /// Stops taking anything if nothing is queued, processing or waiting: what ``close(stopping:)``
    /// does to an idle inbox, answered with a plain `Bool`, so that ending an idle machine (a
    /// shutdown meets a million) builds no ``Closing``.
    ///
    /// - Returns: whether the inbox was idle and now takes nothing; if not, nothing changed.
    @usableFromInline
    mutating func closeIfIdle() -> Bool {
        guard !isActive && queue.isEmpty && upNext.isEmpty && retried.isEmpty && postponed.isEmpty && waiters.isEmpty
        else { return false }
        intake = .stopped
        return true
    }
}
