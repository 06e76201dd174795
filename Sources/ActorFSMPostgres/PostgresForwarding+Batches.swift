import ActorFSM
import ActorFSMDistribution
@_spi(Stores) import ActorFSMDurability

// The forwarding's writes, batched: events to send and replies to give, flushed together on
// the store's thread.

extension PostgresForwarding {
    // MARK: - Batches

    /// Queues `item` for the next flush, and queues a flush unless one is.
    func enqueue(_ item: Outgoing) {
        let flush = state.withLock { state -> Bool? in
            guard !state.isClosed else { return nil }
            state.outgoing.append(item)
            return queueFlush(&state)
        }
        guard let flush else { return item.queued(closedError) }
        submitFlush(flush)
    }

    func enqueue(_ item: Finished) {
        let flush = state.withLock { state -> Bool? in
            guard !state.isClosed else { return nil }
            state.finished.append(item)
            return queueFlush(&state)
        }
        guard let flush else { return item.done() }
        submitFlush(flush)
    }

    var closedError: StoreError { StoreError("the store at \(target) is closed") }

    func queueFlush(_ state: inout State) -> Bool {
        defer { state.isFlushQueued = true }
        return !state.isFlushQueued
    }

    func submitFlush(_ needed: Bool) {
        guard needed, !thread.submit(.run({ [self] database in flush(database) })) else { return }
        // Closed: fail what waits (and let the next enqueue find the thread closed too).
        let (outgoing, finished) = state.withLock { state in
            defer { (state.outgoing, state.finished, state.isFlushQueued) = ([], [], false) }
            return (state.outgoing, state.finished)
        }
        let error = closedError
        for item in outgoing { item.queued(error) }
        for item in finished { item.done() }
    }

    /// On the store's thread: queues every outgoing event in one statement, then removes every
    /// delivered one and sends the replies in another. What is enqueued meanwhile waits for the
    /// next flush: the busier the store, the larger the batches.
    func flush(_ database: PostgresDatabase) {
        let (outgoing, finished) = state.withLock { state in
            defer { (state.outgoing, state.finished, state.isFlushQueued) = ([], [], false) }
            return (state.outgoing, state.finished)
        }
        if !outgoing.isEmpty {
            let taken = state.withLock { state in
                defer { state.taken = [] }
                return state.taken
            }
            do throws(StoreError) {
                try database.forward(outgoing.map { ($0.event, $0.replyTo, $0.token) }, taken: taken)
                for item in outgoing { item.queued(nil) }
            } catch {
                state.withLock { $0.taken += taken }
                for item in outgoing { item.queued(error) }
            }
        }
        if !finished.isEmpty {
            do throws(StoreError) {
                try database.finish(finished.map { ($0.row, $0.reply) })
                for item in finished { item.done() }
            } catch {
                // Tried again at the next ticks, for a minute: the senders wait for these replies.
                let retried = finished.compactMap { item -> Finished? in
                    var item = item
                    item.failures += 1
                    guard item.failures < 60 else {
                        item.done()
                        return nil
                    }
                    return item
                }
                state.withLock { $0.unfinished += retried }
            }
        }
    }

    func next(of machine: String) -> InboxRow? {
        state.withLock { state in
            guard let queue = state.queues[machine], let row = queue.first else {
                state.queues[machine] = nil
                return nil
            }
            state.queues[machine] = Array(queue.dropFirst())
            return row
        }
    }

    /// Answers the senders whose reply came while no notification could (the listener was
    /// reconnecting), and fails those whose event was recorded by a node that died before
    /// replying: the node that takes the machine over completes it, but its record is lost.
    func checkPendingReplies(_ database: PostgresDatabase) {
        let tokens = state.withLock { state in state.waiters.filter(\.value.isQueued).map(\.key) }
        guard let found = try? database.pendingReplies(tokens) else { return }
        for (token, reply) in found {
            if let reply {
                answer(token, .success(reply), taking: true)
                continue
            }
            guard let waiter = state.withLock({ $0.waiters.removeValue(forKey: token) }) else { continue }
            waiter.continuation.resume(returning: .failure(StoreError(
                "the process holding machine \(waiter.machine) stopped after recording the event, before replying: "
                + "the process that takes the machine over completes it, but its record is lost")))
        }
    }

    /// Fails the senders whose reply is overdue.
    func expireWaiters() {
        let now = ContinuousClock.now
        let overdue = state.withLock { state in
            let tokens = state.waiters.filter { $0.value.deadline <= now }.map(\.key)
            return tokens.compactMap { state.waiters.removeValue(forKey: $0) }
        }
        for waiter in overdue {
            waiter.continuation.resume(returning: .failure(StoreError(
                "no reply within \(replyTimeout) from the process holding machine \(waiter.machine); the event "
                + "stays queued, and is processed once")))
        }
    }
}
