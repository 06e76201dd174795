import ActorFSMDistribution
@_spi(Stores) import ActorFSMDurability

// The forwarded events this process delivers to its machines: read from the inbox, queued per
// machine, delivered in order, and answered.

extension PostgresForwarding {
    func fetch(_ database: PostgresDatabase) {
        let skipping = state.withLock { state in
            state.isFetchQueued = false
            return Array(state.delivering)
        }
        guard let rows = try? database.inbox(skipping: skipping, limit: Self.fetchLimit), !rows.isEmpty else { return }
        dispatch(rows)
        if rows.count == Self.fetchLimit { scheduleFetch() }
    }

    /// Queues `rows` for delivery, starting a task for each machine that has none.
    func dispatch(_ rows: [InboxRow]) {
        let (host, starting) = state.withLock { state -> ((any ForwardingHost)?, [String]) in
            var starting: [String] = []
            for row in rows where state.delivering.insert(row.event.number).inserted {
                if state.queues[row.event.machine] == nil {
                    state.queues[row.event.machine] = [row]
                    starting.append(row.event.machine)
                } else {
                    state.queues[row.event.machine]!.append(row)
                }
            }
            return (state.host, starting)
        }
        guard let host else { return }
        for machine in starting { Task { await deliverQueued(of: machine, to: host) } }
    }

    /// Delivers the events queued for `machine`, in order, and answers their senders.
    func deliverQueued(of machine: String, to host: any ForwardingHost) async {
        while let row = next(of: machine) {
            let done = { @Sendable [self] in state.withLock { _ = $0.delivering.remove(row.event.number) } }
            // An event for a machine nobody held: another process may have read it too. Only the
            // one that claims the machine delivers it, if no one recorded it meanwhile.
            if !row.isHeld {
                let claim = try? await run { database throws(StoreError) -> (claimed: Bool, waiting: Bool) in
                    guard try !database.claim([row.event.machine]).isEmpty else { return (false, false) }
                    return (true, try database.isWaiting(row.event.number))
                }
                guard claim?.waiting == true else {
                    // Recorded by a process that died since: this one now holds the machine.
                    if claim?.claimed == true { await host.adopt([row.event.machine]) }
                    done()
                    continue
                }
            }
            switch await delivery(of: row.event, to: host) {
            case .answered:
                done()
            case .reply(let reply):
                enqueue(Finished(row: row, reply: reply, done: done))
            case .leftQueued:
                // Recorded here before its write failed, it has no reply to come: its sender
                // learns that its record is lost, as when the recording process dies.
                state.withLock { $0.unanswered.append((row.event.number, .now)) }
                thread.submit(.run { [self] database in dropUnanswered(database) })
                done()
            }
        }
    }

    /// Delivers `event` to `host`: one whose machines answer in the commit that records it, if
    /// it is one.
    private func delivery(of event: ForwardedEvent, to host: any ForwardingHost) async -> ForwardedDelivery {
        if let answering = host as? any AnsweringHost { return await answering.deliverAnswering(event) }
        guard let reply = await host.deliver(event) else { return .leftQueued }
        return .reply(reply)
    }

    /// On the store's thread: removes the events this process recorded but cannot answer (see
    /// ``PostgresDatabase/dropRecorded(_:)``); those the database refuses are tried again at the
    /// next ticks, until the senders' reply timeout has passed.
    func dropUnanswered(_ database: PostgresDatabase) {
        let events = state.withLock { state in
            defer { state.unanswered = [] }
            return state.unanswered
        }
        guard !events.isEmpty else { return }
        do throws(StoreError) {
            try database.dropRecorded(events.map(\.number))
        } catch {
            let now = ContinuousClock.now
            let retried = events.filter { now - $0.since < replyTimeout }
            state.withLock { $0.unanswered += retried }
        }
    }
}
